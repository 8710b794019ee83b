"""The living document: its §-sections, its arXiv anchors, and a name search that counts hits."""

from __future__ import annotations

import bisect
import heapq
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..brief.models import DocHits
from ..text.regexgate import guarded
from .numbering import Heading, by_shape, extended, lettering, section_number

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
#: a paragraph led by a bold subsection number and title (``**§2.1 FlashAttention lineage** — …``): a writer
#: who numbers subsections in bold, not as headings; it runs to the next such paragraph or heading
_BOLD_SECTION = re.compile(r"^\*\*§\s*(\d+(?:\.\d+)+)(?!\.?\d)\s*([^*\n]*)\*\*")
#: such a subsection's level: below every heading
_LEAD_LEVEL = 7
#: a line set in bold, whole (``**FG-2 可塑性丧失（loss of plasticity）**``)
_BOLD_HEADING = re.compile(r"^\*\*([^*\n]+)\*\*\s*$")
_VERSION = re.compile(r"(?:更新标记|版本|version)\s*[:：]\s*(\S+)", re.I)
_VERSION_INLINE = re.compile(r"\bv(?:Oct|Nov|Dec|Sep|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug)\d+\S*")


def occurrences(text: str, part: str) -> Iterator[int]:
    """Every place ``part`` starts in ``text``, overlapping ones included, left to right."""
    at = text.find(part)
    while at >= 0:
        yield at
        at = text.find(part, at + 1)


#: an id of 2015 or later has five digits after its dot, one of April 2007 to 2014 four (arXiv's scheme)
_FIVE_DIGITS_FROM = 1501


def well_formed_arxiv(arxiv: str) -> bool:
    """Whether an id has the digits its month has on arXiv: ``2704.1187`` is a five-digit id cut short."""
    month, _, number = arxiv.partition(".")
    return len(number) == (5 if int(month) >= _FIVE_DIGITS_FROM else 4)


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


try:  # the extra case classes of ``re.IGNORECASE`` (``ı`` ~ ``i``, ``ſ`` ~ ``s``): a private module
    from re import _casefix  # type: ignore[attr-defined]

    _EXTRA_CASES: dict[int, tuple[int, ...]] | None = _casefix._EXTRA_CASES
except (ImportError, AttributeError):  # pragma: no cover - a Python without it: names are searched by regex
    _EXTRA_CASES = None

#: each member of an extra case class, mapped to the class's smallest member (its representative)
_CLASS_HEAD = {chr(k): chr(min(k, *v)) for k, v in (_EXTRA_CASES or {}).items()}
#: what ``[A-Za-z0-9]`` matches under ``re.I``, folded: a word character of ``term_pattern``'s boundaries
_WORD = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_WORDS = re.compile("[a-z0-9]+")


def _fold_char(c: str) -> str:
    """The character ``re.I`` compares ``c`` as: its simple lowercase, then its extra class's representative."""
    low = c.lower()[0]
    return _CLASS_HEAD.get(low, low)


def fold(text: str) -> str:
    """``text`` folded character by character as ``re.I`` compares characters (its length kept): for
    characters ``a`` and ``b``, ``fold(a) == fold(b)`` exactly when ``re.fullmatch(re.escape(a), b, re.I)``."""
    odd = {ord(c): _fold_char(c) for c in set(text) if c.lower() != _fold_char(c)}  # ``İ``, ``ſ``, ``Σ``…
    return (text.translate(odd) if odd else text).lower()


def _shape(term: str) -> list[str | None]:
    """``term_pattern(term)`` between its boundaries: folded literal runs, ``None`` for each ``[-\\s_]?``."""
    shape: list[str | None] = []
    for part in term.strip().replace(" ", "-").split("-"):
        if part:
            shape.append(fold(part))
        shape.append(None)
    shape.pop()  # split puts one part more than there are separators
    return shape


class NameIndex:
    """``term_pattern(term).finditer(text)`` for every term, answered from one case-folded copy of the
    text and its word tokens instead of a pattern compiled per term."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.folded = fold(text)
        self._words: dict[str, list[int]] | None = None  # each word token: where it starts
        self._sorted: list[str] = []  # the tokens, sorted (for the ones a prefix starts)

    def spans(self, term: str) -> list[tuple[int, int]]:
        """``[m.span() for m in term_pattern(term).finditer(self.text)]``."""
        shape = _shape(term)
        if _EXTRA_CASES is None or not any(shape):
            # a name without a literal (``-``) can match empty: the regex answers (no draft of the evals
            # or the benchmarks asks one)
            return [m.span() for m in term_pattern(term).finditer(self.text)]
        bounded = _ascii_word(term)
        out: list[tuple[int, int]] = []
        end = 0
        for start in self._starts(shape, bounded):
            if start >= end and (stop := self._match(shape, bounded, start)) >= 0:
                out.append((start, stop))
                end = stop  # finditer goes on after the match (none is empty: each holds a literal)
        return out

    def find(self, part: str) -> Iterator[int]:
        """Every place ``re.escape(part)`` matches under ``re.I``, overlapping ones included, left to right."""
        return occurrences(self.folded, fold(part))

    def _starts(self, shape: list[str | None], bounded: bool) -> list[int]:
        """Where a match can start, ascending: a word token that starts with the term's first word
        (a bounded term that opens with a word character), else near its longest run's occurrences."""
        first = shape[0]
        if bounded and first and first[0] in _WORD:
            lead = _WORDS.match(first)
            assert lead is not None
            return self._tokens_starting(lead.group())
        k = max(range(len(shape)), key=lambda i: len(shape[i] or ""))
        run = shape[k]
        assert run is not None
        low = sum(len(r) for r in shape[:k] if r)  # the run stands this far into a match,
        high = low + shape[:k].count(None)  # or as much farther as separators before it were taken
        return sorted({q - d for q in occurrences(self.folded, run) for d in range(low, high + 1) if q >= d})

    def _tokens_starting(self, prefix: str) -> list[int]:
        """Where the word tokens that start with ``prefix`` start, ascending (the tokens indexed on first use)."""
        if self._words is None:
            self._words = {}
            for m in _WORDS.finditer(self.folded):
                self._words.setdefault(m.group(), []).append(m.start())
            self._sorted = sorted(self._words)
        at = bisect.bisect_left(self._sorted, prefix)
        found = []
        while at < len(self._sorted) and self._sorted[at].startswith(prefix):
            found.append(self._words[self._sorted[at]])
            at += 1
        return found[0] if len(found) == 1 else list(heapq.merge(*found))

    def _match(self, shape: list[str | None], bounded: bool, start: int) -> int:
        """Where the term's match at ``start`` ends, or -1: the regex's own order of trying, each
        ``[-\\s_]?`` taken before it is skipped, the first way through that meets the boundary wins."""
        text = self.folded
        if bounded and start > 0 and text[start - 1] in _WORD:
            return -1
        untried = [(0, start)]  # (shape item, text position) where a skipped separator resumes
        while untried:
            i, at = untried.pop()
            while i < len(shape):
                run = shape[i]
                if run is None:
                    if at < len(text) and (text[at] in "-_" or text[at].isspace()):
                        untried.append((i + 1, at))
                        at += 1
                elif text.startswith(run, at):
                    at += len(run)
                else:
                    break
                i += 1
            else:
                if not (bounded and at < len(text) and text[at] in _WORD):
                    return at
        return -1


@dataclass(frozen=True)
class Section:
    """A §-numbered section: its id (``§1.2``), title and line span (1-based, inclusive)."""

    id: str
    title: str
    start: int
    end: int


#: a repository written as ``owner/name`` (``kestrel-lab/kestrel``): both parts open with a letter (not ``dyn/1``, a
#: section's id, nor ``P/D``)
_OWNER_NAME = re.compile(r"(?<![\w./-])[A-Za-z][\w.-]*/[A-Za-z][\w.-]*[A-Za-z0-9](?![\w/-])")
#: how many repositories a document must list as ``owner/name`` before one it does not list is none of its own
_LISTED_REPOS = 2


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
    #: per-document results of other lookups (``checks.doc_counts``), computed once each
    memo: dict[object, object] = field(repr=False, default_factory=dict)
    _names: NameIndex | None = field(repr=False, compare=False, default=None)

    def holds_url(self, url: str) -> bool:
        """Whether the document's text holds ``url`` verbatim."""
        return url in self.text

    def lists_other_repos(self, repo: str, url: str = "") -> bool:
        """Whether the document lists repositories as ``owner/name`` (two or more) but neither ``repo`` nor ``url``:
        where it uses that repository's short name (``Sextant``, a paper), it names another thing."""
        if url and self.holds_url(url):
            return False
        listed = self.memo.get(_OWNER_NAME)
        if not isinstance(listed, frozenset):
            listed = self.memo[_OWNER_NAME] = frozenset(m.group(0).lower() for m in _OWNER_NAME.finditer(self.text))
        return len(listed) >= _LISTED_REPOS and repo.lower() not in listed

    @property
    def names(self) -> NameIndex:
        """The index every name is searched in, built on the first search."""
        if self._names is None:
            self._names = NameIndex(self.text)
        return self._names

    def matches(self, term: str) -> list[tuple[int, int]]:
        """The spans of ``term_pattern(term).finditer(self.text)``."""
        return self.names.spans(term)

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
        for start, _end in self.matches(term):
            hits += 1
            sec = self.section_at(self.line_of(start))
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
    sections = _sections(lines)
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


def _sections(lines: list[str]) -> list[Section]:
    """The numbered sections, in document order: headings numbered by any shape of ``numbering``, and bold
    lead-ins that number a subsection of the heading above them."""
    raw: list[tuple[int, int, str, str]] = []
    heads: list[Heading] = []
    lettered = lettering([h.group(2) for line in lines if line.startswith("#") and (h := _HEADING.match(line))])
    numbered = ""  # the id of the last numbered heading: a bold lead-in may number a subsection of it
    last_level = 1  # the level of the last Markdown heading: a bold line under it is one level below
    in_bold: set[int] = set()  # the lines of the headings written as a bold line
    for n, line in enumerate(lines, start=1):
        h = _HEADING.match(line)
        if not h:
            lead = _BOLD_SECTION.match(line) if numbered and line.startswith("**") else None
            if lead and lead.group(1).startswith(numbered[1:] + "."):
                heads.append(Heading(n, _LEAD_LEVEL, ""))
                raw.append((n, _LEAD_LEVEL, "§" + lead.group(1), lead.group(2).strip(" ：:-—–｜|·、")))
            elif heads and line.startswith("**") and (bold := _BOLD_HEADING.match(line)):
                # a line in bold, whole, under a heading: a subsection's heading written in bold (``## FG · 遗忘``
                # over ``**FG-2 可塑性丧失**``), numbered only where its counter extends the heading's
                heads.append(Heading(n, min(last_level + 1, _LEAD_LEVEL - 1), bold.group(1).strip()))
                in_bold.add(n)
            continue
        last_level = len(h.group(1))
        heads.append(Heading(n, len(h.group(1)), h.group(2)))
        title = h.group(2)
        num, sid = section_number(title, lettered)
        numbered = sid
        if num:
            raw.append((n, len(h.group(1)), sid, title[num.end() :].strip(" ：:-—–｜|·、")))
    by_counter = extended(heads, {start: sid for start, _level, sid, _title in raw})
    levels = {h.line: h.level for h in heads}
    raw.extend((n, levels[n], sid, title) for n, (sid, title) in by_counter.items())
    # the headings no shape above numbers, read by their siblings' (a bold line is a paragraph's lead, not a sibling)
    known = {start for start, *_ in raw} | in_bold
    raw.extend((n, levels[n], sid, title) for n, (sid, title) in by_shape(heads, known).items())
    raw.sort()
    # a section ends at the next heading of its level or above, numbered or not (one pass, a stack)
    closes: dict[int, int] = {}
    stack: list[tuple[int, int]] = []
    for start, level in ((h.line, h.level) for h in heads):
        while stack and stack[-1][1] >= level:
            closes[stack.pop()[0]] = start - 1
        stack.append((start, level))
    return [Section(sid, title, start, closes.get(start, len(lines))) for start, _level, sid, title in raw]
