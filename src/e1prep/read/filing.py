"""Where a note files an item, in its own words: the topic a filing statement names.

People say where an item belongs as they screen it: ``这条我归 agent.md``, ``转给 rag 那边``,
``belongs to the rag doc``, ``不放 serving``, ``evals 不收``. A filing statement is a filing verb, perhaps
negated, and a topic's name after it, or a topic's name and a negated verb after it, or a negated verb of
belonging and this topic's name as the owner (``不是 inference 的``). An item is filed away
from the draft's topic when the note files it under another topic, named as one (a document ``agent.md``,
``agent 主题``, ``the rag doc``: a bare name may be a product's), or says that it does not go under this
one. Filing it under this topic, or saying it does not go under another, sends nothing away.

The words are data (``data/writing.toml`` ``[filing]``); the draft's topic is known by its names, given
by the caller (the manifest's topic, its document's name, their translations).
"""

from __future__ import annotations

import re
from functools import cache

from ..text.lexicon import lexicon
from ..text.regexgate import guarded

#: a topic's name as people write it: a Latin word (``agent``, ``long-context``)
_LATIN_NAME = r"[A-Za-z][A-Za-z0-9_-]{1,30}"


def _alternatives(words: tuple[str, ...] | frozenset[str]) -> str:
    """A regex alternation of ``words``, longest first, a space matching any run of spaces."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


@cache
def _statements(this: frozenset[str]) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The three shapes of a filing statement, for a draft whose topic is named by ``this``: a verb before
    the name, a negated verb after it, and a negation of this topic's name that ends its clause (``Not
    robotics.``, ``NOT agent.``)."""
    words = lexicon().filing
    names = _alternatives(this | frozenset(words["this_topic"]))
    marks = "|".join(
        re.escape(m) if not m.isascii() or m.startswith(".") else rf"\s+{re.escape(m)}\b" for m in words["marks_after"]
    )
    cjk_marks = "|".join(re.escape(m) for m in words["marks_after"] if not m.isascii())
    before = re.compile(
        rf"(?<![A-Za-z])(?P<neg>(?:{_alternatives(tuple(words['negations']))})\s*)?"
        rf"(?P<verb>{_alternatives(tuple(words['verbs']))})\s*(?P<article>the\s+)?"
        rf"(?P<name>{names}|{_LATIN_NAME})(?![A-Za-z0-9_-])(?P<mark>(?:{marks}|\s*(?:{cjk_marks}))?)"
        r"(?P<closes>(?=\s*(?:[,，.。;；!！]|$)))?",
        re.I | re.M,
    )
    after = re.compile(
        rf"(?<![A-Za-z0-9_-])(?P<name>{names}|{_LATIN_NAME})(?:\.md)?\s*(?P<verb>{_alternatives(tuple(words['after']))})"
        rf"|(?P<neg>{_alternatives(tuple(words['negations']))})\s*(?:{_alternatives(tuple(words['belonging']))})\s*"
        rf"(?P<owner>{names}|{_LATIN_NAME})\s*的",
        re.I,
    )
    denied = re.compile(
        rf"(?<![A-Za-z])(?:{_alternatives(tuple(words['denials']))})\s*(?P<name>{_alternatives(this)})(?![A-Za-z0-9_-])"
        rf"(?=\s*(?:[.。;；,，!！:：)）]|$))",
        re.I | re.M,
    )
    return guarded(before), guarded(after), guarded(denied)


def filed_elsewhere(text: str, this: frozenset[str]) -> str | None:
    """The words by which a note files the item away from the topic named by ``this`` (lower-cased
    names: the topic, its document's name), if it does: under another topic named as one, or not under
    this one."""
    before, after, denied = _statements(this)
    ours = this | {w.lower() for w in lexicon().filing["this_topic"]}
    closing = None  # a bare name closing its clause: taken when no statement names a topic as one
    for m in before.finditer(text):
        name = m.group("name").lower()
        if _SECTION_LIKE.fullmatch(name):
            continue  # a section of a document (``file it under T4.a``, ``放 M3``): a § hint, no topic
        if m.group("neg") and name in ours:
            return m.group(0).strip()
        if not m.group("neg") and name not in ours:
            if m.group("mark"):
                return m.group(0).strip()
            if closing is None and _closing(m):
                closing = m.group(0).strip()
    for m in after.finditer(text):
        if (m.group("name") or m.group("owner")).lower() in ours:
            return m.group(0).strip()
    denial = denied.search(text)
    return denial.group(0).strip() if denial else closing


#: a name with the shape of a section's number (``t4``, ``m3``, ``b2``, ``A-2``, ``FLT-1``): where in a document,
#: not which topic
_SECTION_LIKE = re.compile(r"[a-z]{1,3}[-.]?\d{1,3}(?:[-.]\d{1,3})?")


def _closing(m: re.Match[str]) -> bool:
    """A verb that files by itself, before a bare name that closes its clause (``这归 inference，``). A name
    after an article is a thing, no topic (``fixing belongs in the converter, not the checker``): a topic is
    named bare, or with what it is (``the rag doc``)."""
    return (
        m.group("closes") is not None
        and m.group("article") is None
        and " ".join(m.group("verb").lower().split()) in _closing_verbs()
    )


@cache
def _closing_verbs() -> frozenset[str]:
    return frozenset(" ".join(v.lower().split()) for v in lexicon().filing["closing"])


#: a tag in brackets that opens an item's title (``[rag] ChunkSmith 0.4``, ``【agent】…``, ``#eval …``)
_TAG = re.compile(r"^\s*(?:\[([A-Za-z][A-Za-z0-9_-]{1,30})\]|【([^】\s]{1,20})】|#([A-Za-z][A-Za-z0-9_-]{1,30})\b)")


def topic_tags(titles: list[str], this: frozenset[str]) -> dict[int, str]:
    """The items (by position in ``titles``) that a note tags with another topic: when two or more sibling
    titles open with a tag and one of the tags names this topic (``[agent]`` in a journal of ``[agent]``,
    ``[rag]``, ``[eval]`` entries), the tags are the note's filing, and an entry tagged otherwise is filed
    away, under its tag. Tags that never name this topic (``[new]``, ``[replaced → v3]``) file nothing."""
    tags = {n: (m.group(1) or m.group(2) or m.group(3)) for n, t in enumerate(titles) if (m := _TAG.match(t))}
    if len(tags) < 2 or not any(tag.casefold() in this for tag in tags.values()):
        return {}
    return {n: f"[{tag}]" for n, tag in tags.items() if tag.casefold() not in this}
