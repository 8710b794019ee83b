"""What a statement about the reading is about: the clause it stands in decides how far it reaches.

A limitation lowers the whole item only when it speaks of the reading of the item's page. It does not
when its sentence names another object and not the page (``DeepInfer 仓库本身本轮没打开``: the
repository was not opened, the article was read in full), when it qualifies a summary read together
with the body (``摘要 + 正文实验节``), or when it stands in a bullet of the item's body that holds
numbers of its own (``数字（不要引用）：… 155 万亿 … 厂商自述``): that bullet's own numbers carry it,
line by line. A statement on the item's check line (``核查：``) is always about the reading.

The words are data (``data/writing.toml`` ``[scope]`` and ``[remark_labels]``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from ..text.lexicon import lexicon
from .numbers import scan

#: what ends a sentence, opens or closes a parenthesis, or parts table cells, around a statement
_BOUND_CHARS = "。；;！？!?\n（）()|"
_BOUNDS = re.compile(f"[{re.escape(_BOUND_CHARS)}]")
_LAST_BOUND = re.compile(f".*[{re.escape(_BOUND_CHARS)}]", re.S)
#: a line that opens a bullet of its own (its continuation lines do not)
_OPENS_BLOCK = re.compile(r"\s*(?:[-*+•]\s|\d+[.)、]\s?|#|\|)")
#: how far back a statement's sentence is looked for
_REACH = 400
#: a bullet line of an item's body
_BULLET = re.compile(r"\s*(?:[-*+•]\s|\d+[.)、]\s)")


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    lex = lexicon()

    def words(items: tuple[str, ...]) -> re.Pattern[str]:
        alts = "|".join(re.escape(w) for w in sorted(items, key=len, reverse=True))
        return re.compile(rf"(?<![A-Za-z])(?:{alts})(?![A-Za-z])", re.I)

    together = re.compile("|".join(f"(?:{s})" for s in lex.read_together), re.I)
    labels = "|".join(re.escape(w) for w in sorted(lex.remark_labels, key=len, reverse=True))
    remark = re.compile(rf"(?:{labels})(?:\*\*)?\s*[:：]", re.I)
    # a whole-item word at the end of a word that does not mean it (``平均``) is not read as one
    whole = "|".join(
        "".join(f"(?<!{re.escape(c[: -len(w)])})" for c in lex.not_whole if c.endswith(w) and c != w) + re.escape(w)
        for w in sorted(lex.whole_item, key=len, reverse=True)
    )
    whole_words = re.compile(rf"(?<![A-Za-z])(?:{whole})(?![A-Za-z])", re.I)
    return words(lex.other_objects), words(lex.reading_objects), together, remark, whole_words


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence (or parenthesis) that holds ``text[start:end]``."""
    first, last = _sentence_bounds(text, start, end)
    return text[first:last]


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence (or parenthesis) that holds ``text[start:end]`` starts and ends."""
    # a sentence longer than _REACH is read from _REACH characters before the statement: the less it
    # sees, the less it can except (a limitation it cannot scope lowers the item)
    lo = max(0, start - _REACH)
    found = _LAST_BOUND.match(text, lo, start)  # greedy: it ends just after the last bound before start
    last = found.end() - 1 if found else -1
    after = _BOUNDS.search(text, end)
    return (last + 1 if last >= 0 else lo), (after.start() if after else len(text))


def sentences(text: str) -> list[str]:
    """A text cut at sentence ends, parentheses and table cells."""
    return [part for part in _BOUNDS.split(text) if part.strip()]


#: what parts the clauses of a sentence
_CLAUSE_MARKS = re.compile(r"[，,、]")


def _up_to_clause(text: str, start: int, end: int) -> str:
    """The sentence that holds ``text[start:end]``, up to the end of the statement's own clause: the object
    a statement speaks of stands in its clause or before it (``长文在付费墙后，未读``), never after it
    (``卡片采集，未打开仓库``: the card is no statement about the repository)."""
    first, last = _sentence_bounds(text, start, end)
    after = _CLAUSE_MARKS.search(text, end, last)
    return text[first : after.start() if after else last]


@cache
def _parts() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in lexicon().source_parts) or "(?!)", re.I)


def names_a_part(text: str, start: int, end: int) -> bool:
    """Whether the statement's clause, up to its end, names a part of the source (``App. D not opened``, ``附录没看``):
    then it says what was left unread, not that nothing was."""
    return _parts().search(_up_to_clause(text, start, end)) is not None


def other_object(text: str, start: int, end: int) -> str | None:
    """The other object a statement's sentence names in or before the statement's clause, when the sentence
    names neither the page read, nor the whole item, nor a number: ``卡片采集，未打开仓库`` limits the repository
    by its second clause, and the item by its first."""
    others, reading, _, _, whole = _patterns()
    sentence = sentence_around(text, start, end)
    if reading.search(sentence) or whole.search(sentence):
        return None
    if any(t.kind == "quantity" for t in scan(sentence)):  # numbers in the very sentence are limited by it
        return None
    first, _ = _sentence_bounds(text, start, end)
    noun = text[start:end].isascii() and text[start:end].isalpha()
    for found in others.finditer(_up_to_clause(text, start, end)):
        # an object word that makes a compound with the statement's own noun (``the repo card's fields``: the card,
        # of the repository) names what the statement speaks of, no other object
        if not (noun and _COMPOUND_GAP.fullmatch(text[first + found.end() : start])):
            return found.group(0)
    return None


#: what stands between the two words of an English compound noun (``repo card``, ``repo-card``)
_COMPOUND_GAP = re.compile(r"[ -]")


#: what ends a whole sentence (a claim and the hedge after its semicolon are one sentence; an English
#: full stop ends one only before a space or a line end, never inside ``1.9``)
_FULL_STOP = re.compile(r"[。！？!?\n]|\.(?=\s|$)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _stops(text: str, lo: int, hi: int) -> Iterator[re.Match[str]]:
    """The sentence ends in ``text[lo:hi]``: a line break ends one unless the next line continues the
    line before it, indented deeper and not a bullet (a wrapped remark: ``我不太信：`` ⏎ ``   只测了两个子集``)."""
    for m in _FULL_STOP.finditer(text, lo, hi):
        if m.group() == "\n":
            before = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
            after_end = text.find("\n", m.end())
            after = text[m.end() : after_end if after_end >= 0 else len(text)]
            if after.strip() and _indent(after) > _indent(before) and not _BULLET.match(after):
                continue
        yield m


def _full_sentence(text: str, start: int, end: int) -> tuple[int, int]:
    lo = max(0, start - _REACH)
    first = lo
    for m in _stops(text, lo, start):
        first = m.end()
    after = next(_stops(text, end, min(len(text), end + _REACH)), None)
    return first, after.start() if after else min(len(text), end + _REACH)


def claim_only(text: str, start: int, end: int) -> bool:
    """Whether a hedge at ``text[start:end]`` governs a claim of its own sentence, not the reading: the
    sentence holds a quantity or a quoted claim and names neither the page read nor the item as a whole
    (``the abstract claims 1.9×; still checking``, ``标题大概是 "…"``). Its numbers carry it; the item's
    check stands."""
    _, reading, _, remark, whole = _patterns()
    lo, hi = _full_sentence(text, start, end)
    scopes = [text[lo:hi]]
    if (line := _own_field_line(text, start, end, remark)) is not None:
        scopes.append(line)  # a field of its own (``my doubt: …``) is one claim, however many sentences
    if (line := _own_sub_bullet(text, start)) is not None:
        scopes.append(line)  # so is a bullet of the item's body (``- [ ] "also helps multiplication" … not convinced``)
    return any(
        not reading.search(scope)
        and not whole.search(scope)
        and (QUOTED_CLAIM.search(scope) is not None or any(t.kind == "quantity" for t in scan(scope)))
        for scope in scopes
    )


#: a claim in someone's words, quoted (``标题大概是 "ShardSpec: …"``, ``they call it “negligible”``)
QUOTED_CLAIM = re.compile(r"\"[^\"\n]{6,}\"|“[^”\n]{6,}”|「[^」\n]{6,}」")


#: a line opened by a short field label (``my doubt:``, ``存疑：``, ``- **Caveat**:``)
_FIELD_LEAD = re.compile(r"[ \t]*(?:[-*+•][ \t]+)?(?:\*\*)?[^\s:：*|#][^:：\n|]{0,23}?(?:\*\*)?[ \t]*[:：]")


def _own_field_line(text: str, start: int, end: int, remark: re.Pattern[str]) -> str | None:
    """The line of a statement at ``text[start:end]`` when the line is a field of the item's body (the
    statement in its label or after it) whose label is no check label (``核查：`` speaks of the reading)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    lead = _FIELD_LEAD.match(line)
    if lead is None or remark.search(lead.group(0)):
        return None
    # the field runs on over the lines under it up to a blank line or the next field (``My doubt: … I don't
    # see how it\n"transfers to unseen model families" …``): one claim, however many lines
    while line_end >= 0:
        nxt = text.find("\n", line_end + 1)
        following = text[line_end + 1 : nxt if nxt >= 0 else len(text)]
        if not following.strip() or _FIELD_LEAD.match(following):
            break
        line += "\n" + following
        line_end = nxt
    return line


#: a bullet, opened by a list mark (and maybe a task box); indented, it is one under the item's own line; or a
#: paragraph opened by a stamp of its own (a spoken topic's ``[01:02] 嗯，有一个地方我不太信…``)
_OWN_BULLET = re.compile(r"^[ \t]*(?:[-*+•]|\d{1,3}[.)]|\[\d{1,2}:\d{2}(?::\d{2})?\])[ \t]+(?:\[[ xX]\][ \t]+)?\S")


def _own_sub_bullet(text: str, start: int) -> str | None:
    """The line of a statement at ``start`` when the line is a bullet of the item's body: indented, or any
    bullet but the text's first line (under a heading, the item's bullets stand at the margin; a list's item
    is its first line)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    if not _OWN_BULLET.match(line):
        return None
    return line if line_start > 0 or line[:1] in " \t" else None


def same_sentence(text: str, a: int, b: int) -> bool:
    """Whether two places of ``text`` stand in one whole sentence."""
    lo, hi = min(a, b), max(a, b)
    return next(_stops(text, lo, hi), None) is None


def read_with_body(text: str, start: int, end: int) -> bool:
    """Whether a summary word stands in a sentence that says the body was read with it."""
    return _patterns()[2].search(sentence_around(text, start, end)) is not None


def in_own_numbered_block(text: str, start: int, end: int) -> bool:
    """Whether a statement stands in a body bullet that holds numbers of its own, and speaks neither of
    the reading (no check label in the bullet) nor of the item's numbers as a whole (``以上数字``)."""
    line_start = text.rfind("\n", 0, start) + 1
    line = text[line_start : text.find("\n", start) if "\n" in text[start:] else len(text)]
    if not _BULLET.match(line) and not (line_start > 0 and line[:1].isspace()):
        return False  # a table row, a heading or a paragraph: its statement reaches the item
    lines = text.split("\n")
    at = text.count("\n", 0, start)
    first = at
    while first > 0 and not _OPENS_BLOCK.match(lines[first]):
        first -= 1
    last = at + 1
    while last < len(lines) and not _OPENS_BLOCK.match(lines[last]) and lines[last].strip():
        last += 1
    block = "\n".join(lines[first:last])
    _, _, _, remark, whole = _patterns()
    if remark.search(block) or whole.search(sentence_around(text, start, end)):
        return False
    offset = sum(len(line) + 1 for line in lines[:first])  # the statement's own words are no number of the bullet
    return any(t.kind == "quantity" and not (t.start < end - offset and start - offset < t.end) for t in scan(block))
