"""The living document: its §-sections, its arXiv anchors, and a name search that counts hits."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..brief.models import DocHits
from ..text.regexgate import guarded

ARXIV_ID = r"\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}"
#: an arXiv id: with an ``arXiv:`` prefix, in an arxiv.org URL, or bare (checked for a real month);
#: guarded, as it opens with look-behinds that ``re`` would otherwise try at every position
ARXIV_RE = guarded(
    re.compile(
        r"(?:(?<=arXiv:)|(?<=arXiv: )|(?<=arxiv\.org/abs/)|(?<=arxiv\.org/pdf/)|(?<![\w.\-/]))"
        rf"({ARXIV_ID})(?:v\d+)?(?![\w.]*\d)",
        re.I,
    )
)
#: four digits, a dot and a digit (``\d{4}\.\d``), written to open with the dot: ``re`` finds a literal
#: first character by a fast scan, where ``\d{4}`` would be tried at every place of the text
_ARXIV_DIGITS = re.compile(r"\.(?<=\d{4}\.)\d")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SECTION_NUM = re.compile(r"^(?:§\s*|Section\s+|第)?(\d+(?:\.\d+)*)(?:[.、)]|\s|节|$)", re.I)
_VERSION = re.compile(r"(?:更新标记|版本|version)\s*[:：]\s*(\S+)", re.I)
_VERSION_INLINE = re.compile(r"\bv(?:Oct|Nov|Dec|Sep|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug)\d+\S*")


#: how many characters after ``://`` key the document's URLs (``KnowledgeDoc.holds_url``)
_URL_KEY = 10


def occurrences(text: str, part: str) -> Iterator[int]:
    """Every place ``part`` starts in ``text``, overlapping ones included, left to right."""
    at = text.find(part)
    while at >= 0:
        yield at
        at = text.find(part, at + 1)


def arxiv_ids(text: str) -> list[str]:
    """Every well-formed arXiv id in ``text``, in order of first appearance."""
    if not _ARXIV_DIGITS.search(text):  # every id holds four digits, a dot and a digit: most text has none
        return []
    seen: dict[str, None] = {}
    for m in arxiv_matches(text):
        seen.setdefault(m.group(1), None)
    return list(seen)


def arxiv_matches(text: str) -> Iterator[re.Match[str]]:
    """``ARXIV_RE.finditer(text)``, tried only where an id can start: four places before a dot that
    has four digits before it and a digit after (every id's dot stands there), left to right, each
    after the end of the last match (a match reads the text before it through its look-behinds)."""
    end = 0
    for dot in _ARXIV_DIGITS.finditer(text):
        start = dot.start() - 4
        if start < end:
            continue
        m = ARXIV_RE.match(text, start)
        if m is not None:
            end = m.end()
            yield m


def _ascii_word(term: str) -> bool:
    return bool(re.fullmatch(r"[\x20-\x7e]+", term))


def term_pattern(term: str) -> re.Pattern[str]:
    """Case-insensitive pattern for a name; ASCII names match whole words only (``rec`` ≠ ``record``)."""
    escaped = re.escape(term.strip())
    escaped = escaped.replace(r"\-", r"[-\s_]?").replace(r"\ ", r"[-\s_]?")
    if _ascii_word(term):
        return re.compile(rf"(?<![A-Za-z0-9]){escaped}(?![A-Za-z0-9])", re.I)
    return re.compile(escaped, re.I)


@dataclass(frozen=True)
class Section:
    """A §-numbered section: its id (``§1.2``), title and line span (1-based, inclusive)."""

    id: str
    title: str
    start: int
    end: int


@dataclass
class KnowledgeDoc:
    """A parsed living document."""

    path: str
    text: str
    version: str | None
    sections: list[Section]
    anchors: dict[str, list[str]]
    _line_starts: list[int] = field(repr=False, default_factory=list)
    _section_starts: list[int] = field(repr=False, default_factory=list)
    _parents: list[int] = field(repr=False, default_factory=list)
    _searched: dict[str, DocHits] = field(repr=False, default_factory=dict)
    _lower: str | None = field(repr=False, default=None)
    #: per-document results of other lookups (``checks.doc_counts``), computed once each
    memo: dict[object, object] = field(repr=False, default_factory=dict)
    #: where each ``://`` of the text stands, by the characters after it (``holds_url``)
    _schemes: dict[str, list[int]] | None = field(repr=False, compare=False, default=None)

    @property
    def lower(self) -> str:
        """The text lowercased, offset for offset (empty when lowercasing would move offsets)."""
        if self._lower is None:
            low = self.text.lower()
            self._lower = low if len(low) == len(self.text) else ""
        return self._lower

    def holds_url(self, url: str) -> bool:
        """``url in self.text``, answered by looking only where the text has the same characters
        after a ``://`` as the URL (a batch of ten thousand leads asks it of every item's URL).

        The URL stands at ``p`` only if the text's ``://`` at ``p`` plus the URL's own stands there,
        followed by the same characters; a URL too short for the key, or without ``://``, is searched for.
        """
        at = url.find("://")
        key = url[at + 3 : at + 3 + _URL_KEY]
        if at < 0 or len(key) < _URL_KEY:
            return url in self.text
        if self._schemes is None:
            self._schemes = {}
            text = self.text
            for found in occurrences(text, "://"):
                self._schemes.setdefault(text[found + 3 : found + 3 + _URL_KEY], []).append(found)
        return any(q >= at and self.text.startswith(url, q - at) for q in self._schemes.get(key, ()))

    def matches(self, term: str) -> list[re.Match[str]]:
        """Every match of ``term_pattern(term)``, found by looking only around the occurrences of the
        term's longest literal run (a match holds that run verbatim, up to case)."""
        rx = term_pattern(term)
        runs = [r for r in re.split(r"[-\s]+", term.strip().lower()) if r]
        fragment = max(runs, key=len) if runs else ""
        if not fragment or not self.lower:
            return list(rx.finditer(self.text))
        width = len(term) + 2
        found: dict[int, re.Match[str]] = {}
        at = self.lower.find(fragment)
        while at >= 0:
            pos = max(at - width, 0)
            for m in rx.finditer(self.text, pos, min(at + len(fragment) + width, len(self.text))):
                if m.start() <= at < m.end():
                    found.setdefault(m.start(), m)
            at = self.lower.find(fragment, at + 1)
        return [found[k] for k in sorted(found)]

    @property
    def line_count(self) -> int:
        if not self.text:
            return 0
        return self.text.count("\n") + (0 if self.text.endswith("\n") else 1)

    def section_at(self, line: int) -> Section | None:
        """The innermost numbered section holding 1-based ``line``."""
        idx = bisect.bisect_right(self._section_starts, line) - 1
        while idx >= 0:
            sec = self.sections[idx]
            if sec.start <= line <= sec.end:
                return sec
            idx = self._parents[idx]  # only the enclosing sections can still hold the line
        return None

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._line_starts, offset)

    def search(self, term: str) -> DocHits:
        """Count case-insensitive hits of a name and list the sections they fall in.

        Each term is searched once per document (the rules, the detectors and the verifier ask for
        the same names); the answer is frozen, so every object that names the term shares it.
        """
        term = term.strip()
        if not term:
            return DocHits(term=term, hits=0, sections=[])
        found = self._searched.get(term)
        if found is None:
            found = self._searched[term] = self._search(term)
        return found

    def _search(self, term: str) -> DocHits:
        hits = 0
        sections: dict[str, None] = {}
        for m in self.matches(term):
            hits += 1
            sec = self.section_at(self.line_of(m.start()))
            if sec is not None:
                sections.setdefault(sec.id, None)
        return DocHits(term=term, hits=hits, sections=list(sections))

    def section_text(self, section_id: str) -> str:
        for sec in self.sections:
            if sec.id == section_id:
                return "\n".join(self.text.split("\n")[sec.start - 1 : sec.end])
        return ""

    def anchored(self, arxiv: str) -> bool:
        return arxiv in self.anchors


def parse_knowledge(path: str, text: str) -> KnowledgeDoc:
    """Parse sections (headings numbered ``§1.2``, ``1.2`` or ``Section 1``), anchors and version."""
    lines = text.split("\n")
    version = None
    for line in lines[:15]:
        m = _VERSION.search(line) or _VERSION_INLINE.search(line)
        if m:
            version = (m.group(1) if m.re is _VERSION else m.group(0)).strip("）)。,，")
            break
    raw: list[tuple[int, int, str, str]] = []
    heads: list[tuple[int, int]] = []
    for n, line in enumerate(lines, start=1):
        h = _HEADING.match(line)
        if not h:
            continue
        heads.append((n, len(h.group(1))))
        title = h.group(2)
        num = _SECTION_NUM.match(title)
        if num:
            raw.append((n, len(h.group(1)), "§" + num.group(1), title[num.end() :].strip(" ：:-—")))
    # a section ends at the next heading of its level or above, numbered or not (one pass, a stack)
    closes: dict[int, int] = {}
    stack: list[tuple[int, int]] = []
    for start, level in heads:
        while stack and stack[-1][1] >= level:
            closes[stack.pop()[0]] = start - 1
        stack.append((start, level))
    sections = [Section(sid, title, start, closes.get(start, len(lines))) for start, _level, sid, title in raw]
    anchors: dict[str, list[str]] = {}
    doc = KnowledgeDoc(path, text, version, sections, anchors)
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    doc._line_starts = offsets
    doc._section_starts = [s.start for s in sections]
    parents: list[int] = []
    open_sections: list[int] = []
    for i, section in enumerate(sections):
        while open_sections and sections[open_sections[-1]].end < section.start:
            open_sections.pop()
        parents.append(open_sections[-1] if open_sections else -1)
        open_sections.append(i)
    doc._parents = parents
    for m in arxiv_matches(text):
        sec = doc.section_at(doc.line_of(m.start()))
        ids = anchors.setdefault(m.group(1), [])
        if sec is not None and sec.id not in ids:
            ids.append(sec.id)
    return doc
