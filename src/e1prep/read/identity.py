"""Who an item is and whether the living document already holds it: decided once, read by all.

The rules backend and the detectors ask this module, so a key and a known / new decision are never
made twice in two ways (the model prompt's facts still name items through ``notes.item_names``:
changing them re-records every cassette). The subject comes from
:mod:`e1prep.read.subjects`; "known" is searched in the living document by name, and by strong identity
(the same URL, the repository root, the item's own arXiv id).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain

from ..brief.models import DocHits, EvidenceLevel
from ..kb.knowledge import KnowledgeDoc, occurrences
from ..text.naming import github_repo
from . import subjects
from .notes import MD_LINK, NoteItem, said_known

#: candidates within this score of the best one are comparable subjects
SUBJECT_MARGIN = 2.5
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_./][A-Za-z0-9]+)*(?:\s[A-Z][A-Za-z0-9]*(?:[-_./][A-Za-z0-9]+)*)*")


@dataclass
class Identity:
    """An item's key, the hits of its names, and how the document knows it (if it does)."""

    key: str
    hits: list[DocHits] = field(default_factory=list)
    url_known: bool = False
    repo_known: bool = False
    anchored: str | None = None
    recheck: str | None = None  # the note's own words that the document holds it
    cites_section: bool = False  # beside those words, the item names the section that holds it (``RP-2 都有``)

    @property
    def strong(self) -> bool:
        return self.url_known or self.repo_known or self.anchored is not None

    @property
    def key_hits(self) -> int:
        return next((h.hits for h in self.hits if h.term == self.key), 0)

    def known(self, evidence: EvidenceLevel, read_in_full: bool = False) -> bool:
        """Known by strong identity; by its name when read at least partly; or when the note says so of
        something the document holds: one of the item's names, or the section it points at (``没新东西，RP-2 都有``)."""
        low = evidence not in (EvidenceLevel.verified, EvidenceLevel.partial) and not read_in_full
        named = any(h.hits for h in self.hits) or self.cites_section
        return self.strong or (self.key_hits > 0 and not low) or (self.recheck is not None and named)


_TITLE_BREAK = re.compile(r"[（(：:]")
_SHORT_CJK = re.compile(r"[\u4e00-\u9fff]{1,3}")


def short_title(item: NoteItem) -> str:
    """The title's head, as a reader names a lead (``DeepInfer 源码级拆解``, ``AINews（Oct 2026）`` →
    ``AINews``); an author's handle is who wrote it, not a name (``@alphapicks：Index`` → ``Index``)."""
    title = MD_LINK.sub(r"\1", item.title) if "](" in item.title else item.title  # every link holds ``](``
    handle = None  # the first part, if every part is a handle
    for part in _TITLE_BREAK.split(title):
        part = part.strip()
        if not part:
            continue
        if not part.startswith("@"):
            return part
        handle = handle or part
    return handle or item.title


def may_be_known_as_a_lead(item: NoteItem, doc: KnowledgeDoc) -> bool:
    """Whether ``identify(item, doc).known`` can hold for an item read at a low level, by the cheap tests.

    A lead is known only by strong identity or by the note's own words that the document holds it; a
    repository root the document names is all ``repo_known`` can be. ``False`` is certain, so a
    lead the document cannot know needs no subject candidates or name searches.
    """
    if (item.url and doc.holds_url(item.url)) or said_known(item.text) is not None:
        return True
    if any(doc.anchored(a) for a in own_arxiv(item)):
        return True
    repos = {repo[1] for url in item.urls if (repo := github_repo(url, root_only=True))}
    return any("/" not in r and doc.search(r).hits for r in repos)


def identify(item: NoteItem, doc: KnowledgeDoc) -> Identity:
    """The item's key against the living document. The rules ask once per item and run; the answer
    is not kept on the item (the items live through verification, their decisions need not)."""
    ranked = subjects.candidates(item.title, item.text, item.urls)
    # a new subject among the comparable best candidates (``DeepSeek DeepInfer``: the product, not the
    # vendor the document knows); a far weaker candidate is never the key just because it is unknown
    # a candidate that scores nothing as a name (``out`` in ``tripwire 0.9 is out``) is comparable to none
    floor = ranked[0].score - SUBJECT_MARGIN if ranked else 0.0
    comparable = [c.name for c in ranked if c.score >= floor and c.score > 0]
    if comparable and all(_opening_word(item.title, n) and _common_word(n, doc) for n in comparable):
        # the capital that opens a title's sentence is no name (``Designability is a property of your pipeline``):
        # the document writes the word in lower case, as a word of its prose
        comparable = []
    if not comparable and (headline := _headline(item.title)) is not None:
        # a title that names nothing (``Why guidance distillation eats your motion``): its words are a sentence's,
        # and a document that uses one of them (``guidance``) holds no more of the piece than of any other; the piece
        # is its own subject, by its title
        comparable = [headline]
    names = comparable + [c.name for c in ranked if c.name not in comparable]
    if not names:
        names = [item.title[:30] or f"{item.material}#{item.index}"]
    hits = [doc.search(n) for n in names]
    key = next(
        (
            n
            for n, h in list(zip(names, hits, strict=True))[: max(1, len(comparable))]
            if h.hits == 0 and not _short_cjk(n)
        ),
        names[0],
    )
    if not any(h.term == key and h.hits for h in hits) and not _ISSUE_REF.search(key):
        # the same subject in another script, in the title's parentheses or the item's text
        # (``vLLM-昆仑芯（vLLM-Kunlun）``, ``vLLM-昆仑芯 … vLLM-Kunlun 插件``); an issue (``Megatron-LM #4127``) is a
        # subject of its own, never its project's other names (``Megatron-Core``)
        lead = re.split(r"[-\s]", key)[0].lower()
        # only a name that starts with the key's lead is searched (the first that is found stands)
        if len(lead) >= 3:
            for aside in chain(aside_names(item), _hyphenated(item.text, lead)):
                if aside.lower().startswith(lead) and (found := doc.search(aside)).hits:
                    key, hits = aside, [found, *hits]
                    break
    if (generation := _generation(item.title, key)) is not None and (found := doc.search(generation)).hits:
        key, hits = generation, [found, *hits]  # the name with its generation, as the document writes it (``Evo 2``)
    own_repo = _unlisted_repository(item, doc)
    repos = {repo[1] for url in item.urls if (repo := github_repo(url, root_only=True))}
    repo_hit = None if own_repo else next((h for h in hits if "/" not in h.term and h.term in repos and h.hits), None)
    if repo_hit is not None:
        key = repo_hit.term
    anchored = next((a for a in own_arxiv(item) if doc.anchored(a)), None)
    if any(h.term == key and h.hits for h in hits) and (namesake := _namesake_key(item, doc, key, own_repo, anchored)):
        key, hits = namesake, [doc.search(namesake), *hits]
    return Identity(
        key=key,
        hits=hits,
        url_known=bool(item.url and doc.holds_url(item.url)),
        repo_known=repo_hit is not None,
        anchored=anchored,
        recheck=(recheck := said_known(item.text)),
        cites_section=recheck is not None and cites_a_section(_around(item.text, recheck), doc),
    )


def _generation(title: str, key: str) -> str | None:
    """The key with the whole number its title writes right after it (``Evo 2``, ``Llama 3``): a model's generation,
    no version (a dotted number, ``vLLM 0.6``, is one: the rules read it as a release)."""
    m = re.search(rf"(?<![\w-]){re.escape(key)}\s(\d{{1,2}})(?![\w.])", title)
    return f"{key} {m.group(1)}" if m else None


def _unlisted_repository(item: NoteItem, doc: KnowledgeDoc) -> str:
    """The repository (``owner/name``) that is the item's own link, when the document lists its repositories and not
    this one: the name it shares with what the document holds is a namesake's (``kestrel-ai/kestrel`` beside the
    team's own Kestrel runs); else ``""``."""
    root = github_repo(item.url or "", root_only=True)
    owner_name = f"{root[0]}/{root[1]}" if root is not None else ""
    return owner_name if owner_name and doc.lists_other_repos(owner_name, item.url or "") else ""


def _namesake_key(item: NoteItem, doc: KnowledgeDoc, key: str, own_repo: str, anchored: str | None) -> str:
    """The key of an item whose name the document holds for another thing, by what the document does not hold: its
    unlisted repository, or, for a paper of its own (its link) that a document anchoring its papers does not anchor
    (``ORBIT`` the new benchmark beside ``Orbit`` the team's project), its name and id; ``""`` for no namesake."""
    if own_repo:
        return own_repo if doc.search(own_repo).hits == 0 else ""
    # (an item that links elsewhere first may only cite the paper)
    paper = next((a for a in own_arxiv(item) if item.url and a in item.url), None)
    if paper is None or anchored is not None or not doc.anchors:
        return ""
    named = f"{key} (arXiv:{paper})"
    return named if doc.search(named).hits == 0 else ""


#: a headline: a title of three or more Latin words (``1:1 with kasia`` has two), with no name among them (the
#: caller has found none)
_HEADLINE_WORDS = 3


def _opening_word(title: str, name: str) -> bool:
    """Whether ``name`` is the title's first word, capitalised as a sentence's first word is (``Designability``)."""
    return title.lstrip().startswith(name) and name[:1].isupper() and name[1:].islower() and name.isalpha()


def _common_word(name: str, doc: KnowledgeDoc) -> bool:
    """Whether the document writes ``name`` only in lower case (``designability``): a word of its prose, no name."""
    found = [doc.text[a:b] for a, b in doc.matches(name)]  # the name index: case aside, word bounds as a name's
    return bool(found) and all(w.islower() for w in found)


def _headline(title: str) -> str | None:
    """A title that is a piece's headline, as its subject's name (``Why guidance distillation eats your motion``)."""
    words = title.strip().rstrip(".!?").split()
    if not title.isascii() or sum(1 for w in words if w.isalpha()) < _HEADLINE_WORDS:
        return None
    return " ".join(words)


#: how far from the note's words that the document holds an item a section it names is read as where
_NEAR = 24


def _around(text: str, words: str) -> str:
    """The text around the first place ``words`` stand in it (a clause or two on each side)."""
    at = text.find(words)
    return text[max(0, at - _NEAR) : at + len(words) + _NEAR] if at >= 0 else ""


def cites_a_section(text: str, doc: KnowledgeDoc) -> bool:
    """Whether ``text`` names a section of the document by its id: as written with its sign (``§1.2``), or bare
    where the id holds a letter and so reads as no number (``RP-2``, ``B2``; ``1.2`` may be a version)."""
    for section in doc.sections:
        bare = section.id.lstrip("§")
        shown = section.id if bare.replace(".", "").isdigit() else bare
        if shown in text and re.search(rf"(?<![\w.-]){re.escape(shown)}(?![\w-]|\.\d)", text):
            return True
    return False


#: an issue or pull request's number in a key (``Megatron-LM #4127``, ``vllm#61007``)
_ISSUE_REF = re.compile(r"#\d")
_HYPHENATED = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*-[A-Za-z][A-Za-z0-9-]*")


def _hyphenated(text: str, lead: str) -> Iterator[str]:
    """Latin hyphenated names of the item's text (``vLLM-Kunlun``) that start with ``lead`` (lower-case),
    in order, looked for only where the lead stands.

    A name's start follows no ``[\\w-]``, so no name starts inside another: the names that
    ``finditer`` gives are those that match where they start, and one that starts with the lead
    starts where the lower-cased text holds it (a name is ASCII: ``lower`` keeps its place unless
    some character of the text lower-cases to two, when every name is read).
    """
    low = text.lower()
    if len(low) != len(text):
        found: Iterator[re.Match[str] | None] = _HYPHENATED.finditer(text)
    else:
        found = (_HYPHENATED.match(text, at) for at in occurrences(low, lead))
    for m in found:
        if m is not None and m.group(0).lower().startswith(lead):
            yield m.group(0)


def _short_cjk(name: str) -> bool:
    return bool(_SHORT_CJK.fullmatch(name))


def aside_names(item: NoteItem) -> list[str]:
    """Names given in the title's parentheses: ``vLLM-昆仑芯（vLLM-Kunlun）`` → ``vLLM-Kunlun``."""
    asides = " ".join(re.findall(r"[（(]([^）)]*)[）)]", item.title))
    return [m.group(0) for m in _NAME.finditer(asides)]


def own_arxiv(item: NoteItem) -> list[str]:
    """The item's own paper: an arXiv id in its URL or its title (not a background citation)."""
    if not item.arxiv:  # most items name no paper
        return []
    own = re.findall(r"arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5})", " ".join(item.urls))
    return [a for a in item.arxiv if a in own or a in item.title]
