"""Section routing (建议归入): the section of the living document whose own text best matches an item.

The document's vocabulary is read once per document, per section: its heading and its parent's, the
labels in its body (a bold lead-in, a table row's first cell), its body, its arXiv anchors. An item is
scored against every section by its own terms (its title and names weigh as a heading does) with BM25:
a word every section uses weighs nothing, a word repeated saturates, and a long section is only mildly
damped (writers file new items in the broad sections as often as in the narrow ones). The sections where
the document already names the item (its key, the product names of its title) and a section the item's
own text names (``见 §2.2``) add to the score. The best section is named only when it clearly wins: it
holds enough of the item's weight (a floor) and beats the runner-up by a margin. Otherwise the route
says that no section matches well and names the two best candidates. It is never a default, and it
never names a section the document lacks. Deterministic: no model.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from ..brief.phrases import Phrases, phrases
from ..kb.knowledge import KnowledgeDoc, Section, arxiv_ids
from ..kb.numbering import SECTION_ID
from ..read import markers
from ..text.lexicon import lexicon
from ..text.textindex import CJK_STOP, STOP

#: BM25's saturation of a term's count, and how much a section's length damps it (0: not at all)
K1 = 1.2
B = 0.3
#: how much more a section's heading (its own and its parent's) and its labels weigh than its body
HEADING_WEIGHT = 3.0
LABEL_WEIGHT = 2.0
#: how much more an item's title and names weigh than its other words
TITLE_WEIGHT = 3.0
#: what a section where the document already names the item adds, times that name's rarity
NAME_WEIGHT = 3.0
#: a section is named only when it holds this share of the item's weight (as BM25 can give it) ...
FLOOR = 0.05
#: ... and its score beats the runner-up's by this factor
MARGIN = 1.1
#: what the brief says when no section clearly wins, in Chinese (``data/phrases.toml`` ``[route]``)
UNDECIDED = phrases()("route.undecided")

#: a Latin word of lowercased text: letters and digits (a hyphen or underscore splits: ``kv-cache`` is
#: ``kv`` + ``cache``)
_LATIN_WORD = re.compile(r"[a-z][a-z0-9]*|[0-9]+[a-z][a-z0-9]*")
#: two Latin words joined by a space, a hyphen or an underscore (``kv cache``), overlapping pairs included
_PAIR = re.compile(r"(?<![a-z0-9])([a-z][a-z0-9]*)[\s\-_]{1,2}(?=([a-z][a-z0-9]*))")
#: every CJK character pair, overlapping ones included
_CJK_PAIR = re.compile(r"(?=([\u4e00-\u9fff]{2}))")
#: a paragraph's or bullet's bold lead-in (``**vLLM 小节。**``, ``- **Kapitsa**：``), or a table row's
#: first cell: each names what the text under it is about
_LABEL = re.compile(r"^\s*(?:[-*+]\s+|\d{1,2}[.)、]\s*)?\*\*([^*\n]{1,80})\*\*|^\s*\|([^|\n]{1,80})\|", re.M)
#: a product-like name in a title: inner capitals or digits (``vLLM``, ``GB10``), a hyphen (``llm-d``),
#: or a capitalised word (``Dynamo``)
_NAME = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z]+[A-Z0-9][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9-]*[A-Za-z0-9]|[A-Z][a-z]{2,})"
    r"(?![A-Za-z0-9])"
)
#: a § id written in the item (``见 §2.2``, ``按 §4.3 口径``): the note's own hint
_SECTION_REF = re.compile(SECTION_ID)
#: how far back a § id's clause is read for the words that make it the document's, and where a clause ends
_HINT_REACH = 60
_CLAUSE_END = re.compile(r"[。；;！？!?\n]|\.\s")


@dataclass(frozen=True)
class Route:
    """Where an item belongs: a section when one clearly wins, else the best candidates (maybe none)."""

    section: str | None
    candidates: tuple[str, ...] = ()

    @property
    def field(self) -> str | None:
        """The increment's ``section`` in a Chinese brief (``said``)."""
        return self.said(phrases())

    def said(self, say: Phrases) -> str | None:
        """The increment's ``section``: the § id, or the undecided line with its candidates in the brief's
        language (None when the item shares nothing with any section: there is no candidate to name)."""
        if self.section is not None:
            return self.section
        if not self.candidates:
            return None
        return say("route.with_candidates", candidates=say.join(self.candidates))


def routed_id(section: str | None) -> str | None:
    """The § id a ``section`` field routes to: its leading ``§N.M``; None for an undecided line or none."""
    m = _SECTION_REF.match(section.strip()) if section else None
    return "§" + m.group(1) if m else None


def route(doc: KnowledgeDoc, text: str, title: str = "", names: Iterable[str] = ()) -> Route:
    """Where an item of ``doc``'s topic belongs (``SectionRouter.route``), with the document's router."""
    return SectionRouter.of(doc).route(doc, text, title, names)


@dataclass
class SectionRouter:
    """Per-section term counts of one living document, built once per document (``of``). It keeps no
    reference to the document (the document keeps it): the names are looked up in the one asked about."""

    ids: list[str]
    #: each candidate section's weighted term counts
    bags: list[dict[str, float]]
    idf: dict[str, float]
    #: term -> the candidate sections holding it (an inverted index: an item touches only those)
    postings: dict[str, list[int]]
    lengths: list[float]
    average: float
    at: dict[str, int] = field(init=False, repr=False)
    #: the candidate ids that hold a letter (``ev.02``, ``贰·4``, ``W5.2``), as a note may write them without ``§``;
    #: a bare number (``3.1``, ``1-2``) may be a version, a measure or a range, never read so
    bare: re.Pattern[str] | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.at = {sid: i for i, sid in enumerate(self.ids)}
        lettered = sorted((sid[1:] for sid in self.ids if any(c.isalpha() for c in sid[1:])), key=len, reverse=True)
        alternatives = "|".join(map(re.escape, lettered))
        self.bare = re.compile(rf"(?<![\w.·§¶/-])(?:{alternatives})(?![\w·/-]|\.\w)") if lettered else None

    @classmethod
    def of(cls, doc: KnowledgeDoc) -> SectionRouter:
        """The router of ``doc``, built on first use and kept with the document (the rules and a reader's
        objects ask the same document)."""
        router = doc.memo.get(cls)
        if not isinstance(router, SectionRouter):
            router = doc.memo[cls] = cls.build(doc)
        return router

    @classmethod
    def build(cls, doc: KnowledgeDoc) -> SectionRouter:
        lines = doc.text.split("\n")
        candidates = _candidates(doc, lines)
        by_id = {s.id: s for s in doc.sections}
        bags: list[dict[str, float]] = []
        for sec in candidates:
            body = "\n".join(lines[sec.start : sec.end])  # the heading line is sec.start - 1
            bag: dict[str, float] = dict(vocabulary(body))
            labels = "\n".join(m.group(1) or m.group(2) for m in _LABEL.finditer(body))
            _add(bag, vocabulary(labels), LABEL_WEIGHT)
            parent = by_id.get(sec.id.rsplit(".", 1)[0]) if "." in sec.id else None
            _add(bag, vocabulary(sec.title + " " + (parent.title if parent else "")), HEADING_WEIGHT)
            bags.append(bag)
        df: Counter[str] = Counter()
        postings: dict[str, list[int]] = {}
        for i, bag in enumerate(bags):
            df.update(bag.keys())
            for t in bag:
                postings.setdefault(t, []).append(i)
        n = len(bags)
        idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        lengths = [float(sum(bag.values())) for bag in bags]
        return cls([s.id for s in candidates], bags, idf, postings, lengths, sum(lengths) / max(n, 1) or 1.0)

    def route(self, doc: KnowledgeDoc, text: str, title: str = "", names: Iterable[str] = ()) -> Route:
        """Where an item of ``doc`` (the document this router was built from) belongs whose words are
        ``text``, whose title (what it is about) is ``title`` and whose names (its key, aliases) are ``names``."""
        if not self.ids:
            return Route(None)
        scores, ceiling = self.scores(doc, text, title, names)
        ranked = sorted(range(len(self.ids)), key=lambda i: (-scores[i], i))
        top = tuple(self.ids[i] for i in ranked[:2] if scores[i] > 0)
        best = scores[ranked[0]]
        second = scores[ranked[1]] if len(ranked) > 1 else 0.0
        if best > 0 and best >= FLOOR * ceiling and best >= MARGIN * second:
            return Route(self.ids[ranked[0]], top)
        return Route(None, top)

    def scores(
        self, doc: KnowledgeDoc, text: str, title: str = "", names: Iterable[str] = ()
    ) -> tuple[list[float], float]:
        """Each candidate section's score for the item, and the most any section could score."""
        bag: dict[str, float] = dict(vocabulary(text))
        _add(bag, vocabulary(" ".join([title, *names])), TITLE_WEIGHT)
        scores = [0.0] * len(self.ids)
        ceiling = 0.0
        for t, c in bag.items():
            idf = self.idf.get(t)
            if idf is None:
                continue
            weight = (1 + math.log(c)) * idf if c >= 1 else c * idf
            ceiling += weight * (K1 + 1)
            for i in self.postings[t]:
                tf = self.bags[i][t]
                scores[i] += weight * tf * (K1 + 1) / (tf + K1 * (1 - B + B * self.lengths[i] / self.average))
        n = len(self.ids)
        for name in dict.fromkeys([*names, *(m.group(0) for m in _NAME.finditer(title))]):
            # where the document already names the item: the sections it is filed under, by rarity
            where = [self.at[sid] for sid in doc.search(name).sections if sid in self.at]
            rarity = math.log(1 + (n - len(where) + 0.5) / (len(where) + 0.5))
            for i in where:
                scores[i] += NAME_WEIGHT * rarity
            ceiling += NAME_WEIGHT * rarity if where else 0.0
        hinted = {
            self.at[sid]
            for m in _SECTION_REF.finditer(text)
            if (sid := "§" + m.group(1)) in self.at and names_document(text, m.start(), doc.path)
        }
        if self.bare is not None:  # the document's own ids as its writers write them, without ``§`` (``进 ev.02``)
            hinted |= {self.at["§" + m.group(0)] for m in self.bare.finditer(text) if files_there(text, m.start())}
        lead = max(scores)
        for h in hinted:  # the note's own word: it wins unless the note names several sections
            scores[h] += lead * MARGIN + 1.0
        return scores, ceiling


def names_document(text: str, at: int, path: str = "") -> bool:
    """Whether the § id at ``at`` is the living document's: its clause, up to the id, names the document
    (``our §2.3``, ``活文档 §1.2``, ``serving.md §3.2``) or files the item there (``建议归入：§3.2``, ``goes
    under §5.1``), as ``data/writing.toml`` [filing] lists them. Otherwise it may be the source's own section
    (``authors' §6 limits``, ``读到 §4``), no hint where the item goes."""
    clause = _CLAUSE_END.split(text[max(0, at - _HINT_REACH) : at])[-1].lower()
    name = path.rsplit("/", 1)[-1].lower()
    return bool(_document_words().search(clause)) or bool(name and name in clause)


#: where the clause of an id written without ``§`` ends: a comma too (``放 M3-1，正好回应 M6-1``: M6-1 is cited)
_BARE_CLAUSE_END = re.compile(r"[。；;！？!?\n，,]|\.\s")


def files_there(text: str, at: int) -> bool:
    """Whether the document's id written without ``§`` at ``at`` is where its clause files the item: a filing or a
    suggesting word before it in its clause (``可以进 B.2``, ``Should go into 贰·4``). Naming the document is not
    enough here (``和我们 E.1 的判断一致`` cites the section): a bare id is also how a note cites one."""
    clause = _BARE_CLAUSE_END.split(text[max(0, at - _HINT_REACH) : at])[-1].lower()
    return bool(_document_words(("suggest", "verbs")).search(clause))


@cache
def _document_words(kinds: tuple[str, ...] = ("document", "suggest", "verbs")) -> re.Pattern[str]:
    words = lexicon().filing
    said = sorted({w.lower() for k in kinds for w in words[k]}, key=len, reverse=True)
    latin = [re.escape(w) for w in said if w.isascii() and w[:1].isalpha()]
    other = [re.escape(w) for w in said if not (w.isascii() and w[:1].isalpha())]
    return re.compile(rf"(?<![a-z])(?:{'|'.join(latin)})(?![a-z])|{'|'.join(other)}")


def vocabulary(text: str) -> Counter[str]:
    """The terms a section or an item is compared by, with counts: Latin words (two letters or more,
    lowercased) and each pair of adjacent ones (``kv cache``), CJK character pairs, arXiv ids, each word of
    ``data/routing.toml`` as its group's first word (``引擎`` as ``engine``); none of the words by which
    people say how far they read (``markers.toml``), label fields or name outlets (``writing.toml``), and
    nothing of a URL: they say how a text was written, not what it is about."""
    bag = _terms(markers.strip_urls(text))
    for t in _noise() & bag.keys():
        del bag[t]
    meaning = _equivalents()
    for t in meaning.keys() & bag.keys():
        if meaning[t] != t:
            bag[meaning[t]] += bag.pop(t)
    return bag


def same_meaning(word: str) -> frozenset[str]:
    """``word`` and the words of ``data/routing.toml`` that mean the same (``inference``: ``推理``)."""
    meaning = _equivalents()
    first = meaning.get(word.lower())
    if first is None:
        return frozenset({word.lower()})
    return frozenset({word.lower(), *(w for w, f in meaning.items() if f == first)})


def _add(bag: dict[str, float], more: Counter[str], weight: float) -> None:
    for t, c in more.items():
        bag[t] = bag.get(t, 0.0) + weight * c


@cache
def _equivalents() -> dict[str, str]:
    """Each word of ``data/routing.toml``'s equivalents, mapped to the first word of its group."""
    raw = resources.files("e1prep.data").joinpath("routing.toml").read_text(encoding="utf-8")
    groups: list[list[str]] = tomllib.loads(raw)["equivalents"]["groups"]
    return {w.lower().replace("-", " "): group[0] for group in groups for w in group}


@cache
def _noise() -> frozenset[str]:
    words = lexicon()
    said = [*markers.texts(*markers.ALL_KINDS), *words.labels, *words.outlets, *words.remark_labels]
    return frozenset(_terms("\n".join(said)))


@cache
def _stop() -> frozenset[str]:
    """Latin words that join nothing: the stop words, and the generic words of one or two letters."""
    return STOP | {w for w in lexicon().generic if len(w) <= 2}


def _terms(text: str) -> Counter[str]:
    """Counted by whole-text scans (a living document of many megabytes is read once per run)."""
    low = text.lower()
    bag = Counter(w for w in _LATIN_WORD.findall(low) if len(w) > 1)
    stop = _stop()
    for word in stop & bag.keys():
        del bag[word]
    for (a, b), c in Counter(_PAIR.findall(low)).items():
        if len(a) > 1 and len(b) > 1 and a not in stop and b not in stop:
            bag[f"{a} {b}"] += c
    pairs = Counter(_CJK_PAIR.findall(text))
    for g in CJK_STOP & pairs.keys():
        del pairs[g]
    bag.update(pairs)
    bag.update(arxiv_ids(text))
    return bag


#: a line of a log: a dated entry (``- 2027-05-28 · E1：…``, ``| 2027-05-12 | …``, ``05-20：…``)
_DATED_LINE = re.compile(r"^\s*(?:[-*+]\s+|\|\s*)?(?:\*\*)?(?:\d{4}[-/.])?\d{1,2}[-/.]\d{1,2}\b")
#: a section is a log when at least this many of its lines, and this share of them, are dated entries
_LOG_LINES = 3
_LOG_SHARE = 2 / 3


def _is_log(lines: list[str]) -> bool:
    """Whether a section's body is a log of the document's own changes (``## F · 动态日志``: dated entries), where
    no item is filed: it records where the items went."""
    filled = [line for line in lines if line.strip() and not set(line.strip()) <= set("|-: ")]
    dated = sum(1 for line in filled if _DATED_LINE.match(line))
    return dated >= _LOG_LINES and dated >= _LOG_SHARE * len(filled)


def _candidates(doc: KnowledgeDoc, lines: list[str]) -> list[Section]:
    """The sections an item can go to: those with no numbered section inside them, less an index (a
    section that holds most of the document's arXiv anchors is a list of references, not a topic) and a log
    of the document's changes (dated entries: where items went, not a topic)."""
    sections = doc.sections
    # sections come in document order: one holds another exactly when the next one starts inside it
    nexts = [*sections[1:], None][: len(sections)]
    leaves = [s for s, after in zip(sections, nexts, strict=True) if after is None or after.start > s.end]
    leaves = [s for s in leaves if not _is_log(lines[s.start : s.end])] or leaves
    anchors = doc.anchors
    if len(anchors) >= 3:
        held = Counter(sid for where in anchors.values() for sid in where)
        leaves = [s for s in leaves if held[s.id] * 2 <= len(anchors)] or leaves
    return leaves
