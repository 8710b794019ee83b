"""The deterministic verifier: no number without a cited evidence level, nothing ungrounded.

Rule ids are stable; a report lists (object path, rule, offending text, reason). The verifier
never calls a model and never trusts the level a citation claims: it re-reads the level from
the material line the number stands on.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import ahocorasick

from ..brief.models import (
    Anchor,
    Brief,
    Contradiction,
    ContradictionKind,
    EvidenceLevel,
    Increment,
    MaterialKind,
    MaterialStatus,
    NumberCitation,
    Refresh,
    SourceRef,
    Violation,
    field_or,
)
from ..kb.knowledge import ARXIV_RE, KnowledgeDoc, arxiv_ids, occurrences
from ..kb.loading import KB, Material
from ..read.markers import RANK as _RANK
from ..read.markers import line_level, plain_level
from ..read.notes import URL_RE, NoteItem, blocks, note_items
from ..read.numbers import line_cores, normalize, normalize_line, number_cores, occurs_in, scan
from ..text.regexgate import guarded

RULES: dict[str, str] = {
    "quantity-uncited": "every quantity in an object's text is bound to a number citation",
    "citation-not-in-source": "the cited number occurs in the cited material",
    "quote-not-in-source": "the citation's verbatim quote occurs in the cited material",
    "source-not-read": "a citation or object names a material that is not in scope or was not read",
    "evidence-overstated": "a citation claims a level above the one its material line carries",
    "not-quotable-as-finding": "a number at a non-quotable level appears as a finding in an increment's key points",
    "identifier-ungrounded": "a version, date, name or issue number is not found in any source",
    "section-unknown": "a § section reference does not exist in the living document",
    "arxiv-malformed": "an arXiv id is not well formed",
    "arxiv-not-in-material": "an arXiv id does not occur in any material",
    "anchor-status-wrong": "an anchor's status disagrees with the living document",
    "url-not-in-material": "a URL does not occur in any material",
    "hit-count-wrong": "a hit count disagrees with a fresh search of the living document",
    "known-as-new": "an increment of kind 'new' whose key the living document already names",
    "sources-incomplete": "a material of the manifest is missing from the sources",
    "key-ungrounded": "an object's key names nothing that occurs in its sources or the living document",
    "name-ungrounded": "a name or bracketed label in an object's text occurs in none of its sources nor the document",
    "source-empty": "an object is drawn from a material that holds no text",
}

#: name-like words: compounds joined by - _ . / (``nvidia_flake8_2019``, ``recursive-oss/rec``),
#: words mixing letters and digits (``flake8``), and bracketed labels (``[flake8]``, ``【X】``)
_NAME_WORD = guarded(
    re.compile(
        r"(?<![\w\-./])[A-Za-z][A-Za-z0-9]*(?:[\-_./][A-Za-z0-9]+)+(?![\w\-/])"
        r"|(?<![\w\-./])[A-Za-z]+\d[A-Za-z0-9]*(?![\w\-/])"
    )
)
_BRACKET = re.compile(r"\[([^\[\]\n]{1,60})\](?!\()|【([^【】\n]{1,60})】")
_URLISH = re.compile(r"(?:https?://|www\.)\S+|\S+\.(?:md|json|ya?ml|txt)\b|§\s*\d+(?:\.\d+)*")

#: the tool's own vocabulary (material kinds, evidence levels, contradiction kinds) needs no source
_VOCABULARY = frozenset(
    {k.value for k in MaterialKind} | {k.value for k in EvidenceLevel} | {k.value for k in ContradictionKind}
)

# names are bounded (200 characters): an unbounded lazy \S+? rescans a long token from every start (quadratic)
_HIT_CLAIM = re.compile(r"「([^「」]{1,200})」\s*=?\s*(\d+)\s*命中|(\S{1,200}?)\s*=\s*(\d+)\s*命中")
#: its first alternative alone: without an ``=`` the second cannot match, and it costs a scan of up
#: to 200 characters from every place of the text
_HIT_CLAIM_QUOTED = re.compile(r"「([^「」]{1,200})」\s*=?\s*(\d+)\s*命中")
_NOT_FOUND = re.compile(r"「([^「」]{1,200})」\s*(?:未命中|零命中|无命中)")
_TEXT_FIELDS = ("title", "points", "relation", "boundary", "summary", "claim", "detail", "action", "evidence_note")


#: characters of a large text handed to a search that copies what it is given (a bounded copy)
_WINDOW = 1 << 16
#: the low 32 bits of a packed index entry: a line number or an offset
_LOW_MASK = (1 << 32) - 1
#: characters of normalised lines a material's facts keep from their last reads
_RECENT_CHARS = 1 << 18
#: texts whose ungrounded names the verifier remembers at a time
_MEMO_TEXTS = 4096
#: a text checked for an object: the text, the object's sources, the numerals its citations carry
_TextKey = tuple[str, tuple[str, ...], tuple[frozenset[str], ...]]
#: lines after a quote's stated place that are looked at before the whole text
_NEAR_LINES = 16


def _hash_key(text: str) -> int:
    """A text's place in a packed index: 31 bits of its hash above a 32-bit number (a line's, an
    offset's). What an index files under a key is read again on a hit: two texts may share the bits."""
    return (hash(text) & ((1 << 31) - 1)) << 32


def _filed(index: array[int], key: str) -> Iterator[int]:
    """The numbers a sorted packed index files under ``key``'s hash bits (ascending), one at a time."""
    packed = _hash_key(key)
    at = bisect.bisect_left(index, packed)
    while at < len(index) and index[at] - packed <= _LOW_MASK:
        yield index[at] & _LOW_MASK
        at += 1


#: lines of a large text case-folded at a time (``str.casefold`` works in a buffer of 12 bytes a character)
_FOLD_LINES = 256


@dataclass
class MaterialFacts:
    """A material prepared for checks: normalised text and the evidence level of each line."""

    material: Material
    #: where each line of the material's text starts: a line is normalised (``numbers.normalize``)
    #: when it is read; the normalised lines are not kept beside the text, only the indexes below and
    #: the case-folded text (joined, the normalised lines are the normalised text)
    line_starts: array[int] = field(default_factory=lambda: array("q"))
    #: each normalised line's hash (high 31 bits) and number (low 32 bits), sorted: whole-line quotes
    line_index: array[int] = field(default_factory=lambda: array("q"))
    has_text: bool = False
    #: where each numeral stands, sorted: a numeral's hash (high 31 bits) and its line (low 32 bits) in
    #: one machine integer each, not a dictionary of lists (every line of a dump has numerals of its own)
    core_index: array[int] = field(default_factory=lambda: array("q"))
    #: the items of a note; the plain rule's level of each is worked out when first asked for
    items: list[NoteItem] = field(default_factory=list)
    #: per line: the item it belongs to and the first line of its bullet block (-1: in none), for a
    #: line's level when it is asked for (the block's text is split again then, not kept per line)
    line_items: array[int] = field(default_factory=lambda: array("i"))
    line_block_starts: array[int] = field(default_factory=lambda: array("i"))
    _item_blocks: dict[int, dict[int, str]] = field(default_factory=dict)
    #: a card's or the living document's lines all have one level
    uniform: EvidenceLevel | None = None
    _item_levels: dict[int, EvidenceLevel] = field(default_factory=dict)
    _line_levels: dict[int, EvidenceLevel | None] = field(default_factory=dict)
    _normalized: str | None = None
    _recent: OrderedDict[int, str] = field(default_factory=OrderedDict)
    _recent_chars: int = 0
    _folded: str | None = None
    _unmarked: str | None = None
    _levels_of: dict[str, EvidenceLevel | None] = field(default_factory=dict)
    _by_url: dict[str, list[int]] | None = None
    _joined: dict[str, tuple[str, list[int]]] = field(default_factory=dict)
    _contains: dict[str, bool] = field(default_factory=dict)

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    def line(self, n: int) -> str:
        """Line ``n`` (0-based), normalised. The lines read last are kept (up to ``_RECENT_CHARS``): the
        citations of one object ask for the same few lines, some of them long."""
        recent = self._recent
        found = recent.get(n)
        if found is not None:
            recent.move_to_end(n)
            return found
        text, starts = self.material.text, self.line_starts
        end = starts[n + 1] - 1 if n + 1 < len(starts) else len(text)
        found = recent[n] = normalize_line(text[starts[n] : end])
        self._recent_chars += len(found) + 1
        while self._recent_chars > _RECENT_CHARS and len(recent) > 1:
            self._recent_chars -= len(recent.popitem(last=False)[1]) + 1
        return found

    def normalized_lines(self, first: int = 0, end: int | None = None) -> list[str]:
        """Lines ``first:end`` (0-based), normalised."""
        return [self.line(n) for n in range(first, self.line_count if end is None else min(end, self.line_count))]

    @property
    def normalized(self) -> str:
        """The normalised text (its lines joined), made when a lookup first needs more than a line's span."""
        if self._normalized is None:
            step = _FOLD_LINES
            self._normalized = "".join(
                ["".join(self.normalized_lines(i, i + step)) for i in range(0, self.line_count, step)]
            )
        return self._normalized

    @property
    def empty(self) -> bool:
        """Whether the material holds no text but whitespace."""
        return not self.has_text

    @property
    def folded(self) -> str:
        """The normalised text, case-folded: where names are looked up (made with the facts)."""
        if self._folded is None:
            self._folded = self.normalized.casefold()
        return self._folded

    @property
    def unmarked(self) -> str:
        """The folded text without Markdown emphasis marks (a title written ``**a** `b` c``), made once."""
        if self._unmarked is None:
            self._unmarked = self.folded.replace("`", "").replace("*", "")
        return self._unmarked

    def items_with_url(self, url: str | None) -> list[tuple[NoteItem, EvidenceLevel]]:
        """The items (with their plain-rule level) that carry ``url``."""
        if not url:
            return []
        if self._by_url is None:
            self._by_url = {}
            for n, item in enumerate(self.items):
                for u in dict.fromkeys(item.urls):
                    self._by_url.setdefault(u, []).append(n)
        return [self.item_level(n) for n in self._by_url.get(url, [])]

    def item_level(self, n: int) -> tuple[NoteItem, EvidenceLevel]:
        """Item ``n`` with the level the verifier's plain rule gives it (worked out once, when asked)."""
        level = self._item_levels.get(n)
        if level is None:
            item = self.items[n]
            level = self._item_levels[n] = plain_level(item.text, item.legend)
        return self.items[n], level

    def line_level(self, n: int) -> EvidenceLevel | None:
        """The level of 0-based line ``n``: its own words' level, else its item's (None: in no item)."""
        if self.uniform is not None:
            return self.uniform
        if n not in self._line_levels:
            item = self.line_items[n] if 0 <= n < len(self.line_items) else -1
            if item < 0:
                self._line_levels[n] = None
            else:
                block = self._block(item, self.line_block_starts[n])
                self._line_levels[n] = line_level(block) or self.item_level(item)[1]
        return self._line_levels[n]

    def _block(self, n: int, first: int) -> str:
        """The bullet block of item ``n`` that starts on (1-based) line ``first``."""
        found = self._item_blocks.get(n)
        if found is None:
            item = self.items[n]
            found = self._item_blocks[n] = {item.line_start + offset: b for offset, b in blocks(item.text)}
        return found[first]

    def items_naming(self, key: str, where: str) -> list[tuple[NoteItem, EvidenceLevel]]:
        """The items whose ``where`` (``title`` or ``text``), case-folded, holds ``key`` (case-folded)."""
        if not key:
            return []
        if where not in self._joined:
            pieces = [getattr(item, where).casefold() for item in self.items]
            starts, at = [], 0
            for piece in pieces:
                starts.append(at)
                at += len(piece) + 1
            self._joined[where] = ("\x00".join(pieces), starts)
        joined, starts = self._joined[where]
        found: dict[int, None] = {}
        for at in occurrences(joined, key):
            if "\x00" not in joined[at : at + len(key)]:  # within one item
                found[bisect.bisect_right(starts, at) - 1] = None
        return [self.item_level(n) for n in found]

    def names(self, name: str, near: tuple[int, int] | None = None) -> bool:
        """Does ``name`` occur in the material or its file name (case and spacing aside)?

        ``near`` (1-based first and last line) is looked at first: an item's own lines usually
        hold its name, which spares a search of the whole material.
        """
        needle = normalize(name).casefold()
        if not needle:
            return False
        if near is not None:
            first, last = max(near[0], 1), min(near[1], self.line_count)
            if any(needle in self.line(n - 1).casefold() for n in range(first, last + 1)):
                return True
        return needle in self.folded or needle in self.material.path.casefold()

    def names_all(self, names: list[str]) -> set[str]:
        """Those of many ``names`` that occur in the material or its file name: ``names`` for each, in
        one Aho–Corasick pass over the text (a group of ten thousand members is checked in linear time)."""
        needles: dict[str, list[str]] = {}
        for name in names:
            needle = normalize_line(name).casefold()  # uncached: each name once
            if needle:
                needles.setdefault(needle, []).append(name)
        if not needles:
            return set()
        automaton = ahocorasick.Automaton()
        for needle in needles:
            automaton.add_word(needle, needle)
        automaton.make_automaton()
        found: set[str] = set()
        longest = max(map(len, needles))
        for haystack in (self.folded, self.material.path.casefold()):
            # the automaton copies what it searches into 4-byte characters: it is given the text a
            # window at a time, each overlapping the next by the longest needle (no match is missed)
            for start in range(0, max(len(haystack), 1), _WINDOW):
                window = haystack[start : start + _WINDOW + longest - 1]
                found.update(needle for _end, needle in automaton.iter(window))
        return {name for needle in found for name in needles[needle]}

    @classmethod
    def build(cls, material: Material) -> MaterialFacts:
        facts = cls(material)
        facts._index_lines()
        count = facts.line_count
        if material.kind in (MaterialKind.inbox_note, MaterialKind.other):
            # the verifier's own plain rule, from the marker table: whatever level the reader (or
            # a producer) gave the item, a line is quotable only if its item states an unhedged full
            # read and no limitation, hedge or relayed check anywhere (markers.plain_quotable); each
            # level is worked out when a citation asks for it, not for every line of a large note
            owner, starts = array("i", [-1]) * count, array("i", [-1]) * count
            for n, item in enumerate(note_items(material)):
                facts.items.append(item)
                for offset, block in blocks(item.text):
                    first = item.line_start + offset
                    for k in range(block.count("\n") + 1):
                        if 0 < first + k <= count:
                            owner[first + k - 1], starts[first + k - 1] = n, first
            facts.line_items, facts.line_block_starts = owner, starts
        elif material.kind in (MaterialKind.repo_card, MaterialKind.paper_card, MaterialKind.knowledge):
            facts.uniform = EvidenceLevel.card
        return facts

    def _index_lines(self) -> None:
        """One pass over the text: where each line starts, each normalised line's and numeral's hash,
        and the case-folded text (folded a few lines at a time: ``str.casefold`` works in a buffer of
        three 4-byte characters per character, which for a whole large note would be seven times it)."""
        text = self.material.text
        starts: list[int] = []
        lines: list[str] = []  # a few lines at a time
        line_keys: list[int] = []
        core_keys: list[int] = []
        folded: list[str] = []
        start, n = 0, 0
        while start >= 0:
            end = text.find("\n", start)
            starts.append(start)
            lines.append(normalize_line(text[start:] if end < 0 else text[start:end]))
            start = end + 1 if end >= 0 else -1
            if len(lines) == _FOLD_LINES or start < 0:
                for line in lines:
                    line_keys.append(_hash_key(line) | n)
                    core_keys += [_hash_key(core) | n for core in line_cores(line)]
                    n += 1
                folded.append("".join(lines).casefold())
                self.has_text = self.has_text or any(lines)
                lines = []
        self.line_starts = array("q", starts)
        self._folded = "".join(folded)
        self.line_index = array("q", sorted(line_keys))
        self.core_index = array("q", sorted(core_keys))

    def has_line(self, normalized: str) -> bool:
        """Whether some line, normalised, is exactly ``normalized``."""
        return any(self.line(n) == normalized for n in _filed(self.line_index, normalized))

    def lines_with(self, core: str) -> list[int]:
        """The lines (0-based, ascending) on which ``core`` stands as a numeral."""
        return [n for n in _filed(self.core_index, core) if core in line_cores(self.line(n))]

    def _candidates(self, needle: str) -> tuple[str, list[int]] | None:
        """The needle's longest numeral, and the lines filed under its hash: those holding it, and
        perhaps another numeral of the same hash bits (None: the needle has no numeral)."""
        cores = number_cores(needle)
        if not cores:
            return None
        core = max(cores, key=len)
        return core, list(_filed(self.core_index, core))

    def contains(self, needle: str) -> bool:
        """``occurs_in`` over the material, looking only at the lines that hold the needle's numeral."""
        found = self._contains.get(needle)
        if found is None:
            found = self._contains[needle] = self._lookup(needle)
        return found

    def _lookup(self, needle: str) -> bool:
        filed = self._candidates(needle)
        if filed is None:
            return occurs_in(needle, self.normalized)
        core, candidates = filed
        if any(occurs_in(needle, self.line(n)) for n in candidates):
            return True
        # on no line whole: across a line break only if its numeral stands on some line at all
        return any(core in line_cores(self.line(n)) for n in candidates) and occurs_in(needle, self.normalized)

    def has_quote(self, quote: str, near: tuple[int | None, int | None] | None = None) -> bool:
        """Whether ``quote`` stands in the material (spacing aside): whole lines, or within the text.
        ``near`` (1-based first and last line, when the quote says where it stands) and a few lines
        after it are looked at first."""
        parts = [normalize(line) for line in quote.split("\n") if line.strip()]
        if parts and all(self.has_line(p) for p in parts):
            return True
        whole = normalize(quote)
        if near is not None and near[0] is not None:
            # a quote of a bullet block names the block's first line: its continuation lines follow
            first, last = max(near[0], 1), near[1] or near[0]
            joined = ""
            for n in range(first - 1, min(last + _NEAR_LINES, self.line_count)):
                joined += self.line(n)
                if n >= last - 1 and whole in joined:
                    return True
        return whole in self.normalized

    def level_of(self, number: str, line: int | None = None) -> EvidenceLevel | None:
        """The level of the cited line when ``number`` stands on it, else the strictest level among the
        lines where it stands (None: found nowhere)."""
        if line is not None and 0 < line <= self.line_count and occurs_in(number, self.line(line - 1)):
            return self.line_level(line - 1) or self.level_of(number)
        if number not in self._levels_of:
            self._levels_of[number] = self._level_of(number)
        return self._levels_of[number]

    def _level_of(self, number: str) -> EvidenceLevel | None:
        filed = self._candidates(number)
        if filed is None:
            return None
        core, candidates = filed
        # a non-quotable line decides at once (in doubt, down); a quotable one only if no other holds it
        first: EvidenceLevel | None = None
        for n in candidates:
            lvl = self.line_level(n)
            if lvl is None or (first is not None and lvl.quotable):
                continue
            line = self.line(n)  # a line of another numeral filed under the same bits is passed over
            if occurs_in(number, line) and core in line_cores(line):
                if not lvl.quotable:
                    return lvl
                first = lvl
        return first


@dataclass
class Report:
    violations: list[Violation] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.violations

    def for_object(self, prefix: str) -> list[Violation]:
        return [v for v in self.violations if v.path == prefix or v.path.startswith(prefix + ".")]

    def render(self) -> str:
        if self.clean:
            return "verification: clean (0 violations)"
        lines = [f"verification: {len(self.violations)} violation(s)"]
        for v in self.violations:
            lines.append(f"  {v.path}  [{v.rule}]  {v.text!r}: {v.reason}")
        return "\n".join(lines)


class Verifier:
    """Checks brief objects against the KB the brief was drafted from."""

    def __init__(self, kb: KB, doc: KnowledgeDoc) -> None:
        self.kb = kb
        self.doc = doc
        self.facts: dict[str, MaterialFacts] = {}
        for m in (*kb.materials, *kb.spot_checks, kb.knowledge_material):
            if m.status is MaterialStatus.read:
                self.facts[m.path] = MaterialFacts.build(m)
        self.scope = {m.path for m in (*kb.materials, *kb.spot_checks)}
        self._texts = [m.text for m in (*kb.materials, *kb.spot_checks) if m.status is MaterialStatus.read]
        self.section_ids = {s.id for s in doc.sections}
        #: every URL (per text: where each stands, filed under its hash) and arXiv id of the materials,
        #: what is looked up: most lookups end here, the rest search the texts once each (a set of
        #: every word, or of every URL as a string, would cost several times a dump in memory)
        self._urls = [
            array("q", sorted(_hash_key(m.group()) | m.start() for m in URL_RE.finditer(t))) for t in self._texts
        ]
        self._arxiv = {a for text in self._texts for a in arxiv_ids(text)}
        self._in_materials: dict[str, bool] = {}
        self._hits: dict[str, int] = {}
        #: the ungrounded names of a text read against some grounds (a batch repeats its sentences)
        self._ungrounded: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}
        #: what a text's check found (rule, words, reason), by the text, its object's sources and citations
        self._checked: dict[_TextKey, tuple[tuple[str, str, str], ...]] = {}

    def in_materials(self, text: str) -> bool:
        """Does ``text`` occur verbatim in a material? (URLs, arXiv ids: answered once each.)"""
        found = self._in_materials.get(text)
        if found is None:
            found = self._in_materials[text] = self._is_token(text) or self._in_texts(text)
        return found

    def _is_token(self, text: str) -> bool:
        """Whether ``text`` is one of the materials' arXiv ids, or exactly one of their URLs."""
        if text in self._arxiv:
            return True
        for t, urls in zip(self._texts, self._urls, strict=True):
            for at in _filed(urls, text):
                m = URL_RE.match(t, at)
                if m is not None and m.group() == text:
                    return True
        return False

    def _in_texts(self, text: str) -> bool:
        """In one material's text; a text with a line break may also run from one material into the next
        (the materials read as one text joined by line breaks)."""
        if "\n" in text:
            return text in "\n".join(self._texts)
        return any(text in t for t in self._texts)

    def hits(self, term: str) -> int:
        if term not in self._hits:
            self._hits[term] = self.doc.search(term).hits
        return self._hits[term]

    # --- whole brief ---------------------------------------------------------------------------

    def verify(self, brief: Brief) -> Report:
        report = Report()
        for name in ("increments", "refreshes", "contradictions", "anchors"):
            for n, obj in enumerate(getattr(brief, name)):
                report.violations += self.check_object(f"{name}[{n}]", obj)
        listed = {s.path for s in brief.sources}
        for path in self.kb.item.materials:
            if path not in listed:
                report.violations.append(
                    Violation(
                        path="sources",
                        rule="sources-incomplete",
                        text=path,
                        reason="material of the manifest has no entry in the sources",
                    )
                )
        return report

    def check_object(self, path: str, obj: Increment | Refresh | Contradiction | Anchor) -> list[Violation]:
        out: list[Violation] = self._sources(path, obj)
        if isinstance(obj, Anchor):
            return out + self._anchor(path, obj)
        out += self._object_level(path, obj)
        out += self._key(path, obj)
        members = obj.members if isinstance(obj, Contradiction) else []
        grounds = self._grounds(obj) if members else []
        named = {m for f in grounds for m in f.names_all(members)}
        for n, member in enumerate(members):
            if member not in named and not self._named(member, grounds):
                reason = "a grouped item that occurs in none of the object's sources"
                out.append(Violation(path=f"{path}.members[{n}]", rule="key-ungrounded", text=member, reason=reason))
        if isinstance(obj, Contradiction) and obj.location is not None:
            out += self._location(f"{path}.location", obj.location, obj)
        section = field_or(obj, "section")
        if section and section not in self.section_ids:
            out.append(
                Violation(
                    path=f"{path}.section",
                    rule="section-unknown",
                    text=section,
                    reason="no such section in the living document",
                )
            )
        citations = obj.numbers
        for n, cite in enumerate(citations):
            out += self._citation(f"{path}.numbers[{n}]", cite)
        # the numerals each citation carries, once per object (distinct sets only)
        cited = list({frozenset(number_cores(c.text)): None for c in citations})
        for field_path, text in _texts(path, obj):
            out += self._text_checked(field_path, text, obj, cited)
        if isinstance(obj, Increment):
            out += self._points_quotable(path, obj)
            if obj.kind == "new" and self.hits(obj.key):
                out.append(
                    Violation(
                        path=f"{path}.key",
                        rule="known-as-new",
                        text=obj.key,
                        reason=f"the living document already names it ({self.hits(obj.key)} hit(s)): not new",
                    )
                )
        for h in field_or(obj, "doc_hits", []):
            fresh = self.hits(h.term)
            if fresh != h.hits:
                out.append(
                    Violation(
                        path=f"{path}.doc_hits",
                        rule="hit-count-wrong",
                        text=f"{h.term}={h.hits}",
                        reason=f"a fresh search finds {fresh}",
                    )
                )
        url = field_or(obj, "url")
        if url and not self.in_materials(url):
            out.append(
                Violation(path=f"{path}.url", rule="url-not-in-material", text=url, reason="URL occurs in no material")
            )
        return _once_per_name(out)

    # --- pieces --------------------------------------------------------------------------------

    def _sources(self, path: str, obj: Increment | Refresh | Contradiction | Anchor) -> list[Violation]:
        out: list[Violation] = []
        for src in obj.sources:
            if src not in self.scope:
                reason = "not a material of this manifest item"
                out.append(Violation(path=f"{path}.sources", rule="source-not-read", text=src, reason=reason))
            elif src not in self.facts:
                reason = "material was not read"
                out.append(Violation(path=f"{path}.sources", rule="source-not-read", text=src, reason=reason))
            elif self.facts[src].empty:
                reason = "the material holds no text"
                out.append(Violation(path=f"{path}.sources", rule="source-empty", text=src, reason=reason))
        return out

    def _grounds(self, obj: Increment | Refresh | Contradiction) -> list[MaterialFacts]:
        return [self.facts[s] for s in (*obj.sources, self.doc.path) if s in self.facts]

    def _named(self, name: str, grounds: list[MaterialFacts], near: SourceRef | None = None) -> bool:
        """A name occurs in a ground (its text or its file name), whole or (``a/b``) part by part;
        the header's date and version count. ``near``: the object's own place, looked at first."""
        if name in _VOCABULARY or self._in_header(name):
            return True
        if near is not None and near.line_start is not None:
            span = (near.line_start, near.line_end or near.line_start)
            if any(f.material.path == near.path and f.names(name, span) for f in grounds):
                return True
        if any(f.names(name) for f in grounds):
            return True
        parts = [p for p in name.split("/") if p]
        return len(parts) > 1 and all(any(f.names(p) for f in grounds) for p in parts)

    def _key(self, path: str, obj: Increment | Refresh | Contradiction) -> list[Violation]:
        """The key names something in the object's sources or the living document (a detector's
        ``material:line`` key names its own source line)."""
        key = obj.key.strip()
        grounds = self._grounds(obj)
        if self._named(key, grounds, field_or(obj, "location")):
            return []
        src, _, line = key.rpartition(":")
        if src in obj.sources and line.isdigit():
            return []
        plain = normalize(key).casefold().replace("`", "").replace("*", "")
        if plain and any(plain in f.unmarked for f in grounds):  # a title as written, less its Markdown marks
            return []
        issue = re.fullmatch(r"([\w.\-]+)#(\d+)", key)  # ``vllm#61007``: the issue's own URL names it
        if issue and any(
            re.search(rf"/{re.escape(issue.group(1))}/(?:issues|pull)/{issue.group(2)}(?!\d)", f.material.text, re.I)
            for f in grounds
        ):
            return []
        return [
            Violation(
                path=f"{path}.key",
                rule="key-ungrounded",
                text=key,
                reason="occurs in none of the object's sources nor the living document",
            )
        ]

    def _location(self, path: str, loc: SourceRef, obj: Contradiction) -> list[Violation]:
        out: list[Violation] = []
        facts = self.facts.get(loc.path)
        if loc.path not in self.scope or facts is None:
            return [
                Violation(
                    path=f"{path}.path",
                    rule="source-not-read",
                    text=loc.path,
                    reason="not a read material of this manifest item",
                )
            ]
        if loc.quote and not facts.has_quote(loc.quote, (loc.line_start, loc.line_end)):
            out.append(
                Violation(
                    path=f"{path}.quote",
                    rule="quote-not-in-source",
                    text=loc.quote[:80],
                    reason=f"not verbatim in {loc.path}",
                )
            )
        if loc.url and not self.in_materials(loc.url):
            reason = "URL occurs in no material"
            out.append(Violation(path=f"{path}.url", rule="url-not-in-material", text=loc.url, reason=reason))
        return out

    def _names_in(self, path: str, text: str, grounds: list[MaterialFacts]) -> list[Violation]:
        """Name-like words and bracketed labels of a text occur in a ground."""
        key = (text, tuple(f.material.path for f in grounds))
        names = self._ungrounded.get(key)
        if names is None:
            if len(self._ungrounded) >= _MEMO_TEXTS:  # bounded: a dump's texts are not all held twice
                self._ungrounded.clear()
            names = self._ungrounded[key] = self._ungrounded_names(text, grounds)
        reason = "found in none of the object's sources nor the living document"
        return [Violation(path=path, rule="name-ungrounded", text=name, reason=reason) for name in names]

    def _ungrounded_names(self, text: str, grounds: list[MaterialFacts]) -> tuple[str, ...]:
        out: list[str] = []
        bare = _URLISH.sub(" ", text)
        seen: set[str] = set()
        labels = [m.group(1) or m.group(2) for m in _BRACKET.finditer(bare)]
        words = [m.group(0).rstrip(".") for m in _NAME_WORD.finditer(bare)]
        for name in (*labels, *words):
            name = name.strip()
            if not name or name in seen:
                continue
            seen.add(name)
            if not self._named(name, grounds):
                out.append(name)
        return tuple(out)

    def _object_level(self, path: str, obj: Increment | Refresh | Contradiction) -> list[Violation]:
        """An object's own level, re-derived from its source items by the plain rule, whoever made it."""
        if not obj.evidence.quotable:
            return []
        notes = [f for s in obj.sources if (f := self.facts.get(s)) is not None and f.items]
        if not notes:
            return []
        url = field_or(obj, "url")
        key = obj.key.casefold()
        # its item: the one with its URL, else the ones whose title names it, else whose text does
        # (looked up in per-material indexes, not by scanning every item per object)
        matched = (
            [p for f in notes for p in f.items_with_url(url)]
            or [p for f in notes for p in f.items_naming(key, "title")]
            or [p for f in notes for p in f.items_naming(key, "text")]
        )
        if not matched:
            return [
                Violation(
                    path=f"{path}.evidence",
                    rule="evidence-overstated",
                    text=obj.evidence.value,
                    reason="no item of its sources names it, so nothing states a full read of it",
                )
            ]
        if any(level.quotable for _, level in matched):  # (a name several items share: one suffices)
            return []
        worst = min(matched, key=lambda m: _RANK[m[1]])
        return [
            Violation(
                path=f"{path}.evidence",
                rule="evidence-overstated",
                text=obj.evidence.value,
                reason=f"its item in {worst[0].material} (line {worst[0].line_start}) is {worst[1].value} "
                f"({worst[1].label}) by the plain rule",
            )
        ]

    def _citation(self, path: str, cite: NumberCitation) -> list[Violation]:
        facts = self.facts.get(cite.source.path)
        if facts is None:
            return [
                Violation(
                    path=f"{path}.source",
                    rule="source-not-read",
                    text=cite.source.path,
                    reason="cited material is not in scope or was not read",
                )
            ]
        out = []
        if not facts.contains(cite.text):
            out.append(
                Violation(
                    path=path, rule="citation-not-in-source", text=cite.text, reason=f"not found in {cite.source.path}"
                )
            )
        if cite.source.quote and not facts.has_quote(cite.source.quote, (cite.source.line_start, cite.source.line_end)):
            out.append(
                Violation(
                    path=f"{path}.source.quote",
                    rule="quote-not-in-source",
                    text=cite.source.quote[:80],
                    reason=f"not verbatim in {cite.source.path}",
                )
            )
        if cite.source.url and not self.in_materials(cite.source.url):
            out.append(
                Violation(
                    path=f"{path}.source.url",
                    rule="url-not-in-material",
                    text=cite.source.url,
                    reason="URL occurs in no material",
                )
            )
        actual = facts.level_of(cite.text, cite.source.line_start)
        if actual is not None and (cite.quotable or cite.evidence.quotable) and not actual.quotable:
            out.append(
                Violation(
                    path=path,
                    rule="evidence-overstated",
                    text=cite.text,
                    reason=f"its line in {cite.source.path} is {actual.value} ({actual.label}), "
                    f"but the citation says {cite.evidence.value}, quotable={cite.quotable}",
                )
            )
        return out

    def _text_checked(
        self, path: str, text: str, obj: Increment | Refresh | Contradiction, cited: list[frozenset[str]]
    ) -> list[Violation]:
        """``_text``, remembered for a text checked against the same sources and citations (a batch
        repeats its sentences in object after object; a grouped line's members are read each time)."""
        if isinstance(obj, Contradiction) and obj.members:
            return self._text(path, text, obj, cited)
        key = (text, tuple(obj.sources), tuple(cited))
        found = self._checked.get(key)
        if found is None:
            if len(self._checked) >= _MEMO_TEXTS:  # bounded, as the names' memo
                self._checked.clear()
            found = self._checked[key] = tuple((v.rule, v.text, v.reason) for v in self._text("", text, obj, cited))
        return [Violation(path=path, rule=rule, text=said, reason=reason) for rule, said, reason in found]

    def _text(
        self, path: str, text: str, obj: Increment | Refresh | Contradiction, cited: list[frozenset[str]]
    ) -> list[Violation]:
        out: list[Violation] = []
        cited_cores = list(cited)
        members = obj.members if isinstance(obj, Contradiction) else None
        if members:  # a grouped registration states its own size
            cited_cores.append(frozenset({str(len(members))}))
        hit_spans = [m.span() for m in _hit_claim_matches(text)]
        if members:  # a grouped registration names some of its members (each checked as grounded above)
            hit_spans += _spans_of(text, members)
        out += self._hit_claims(path, text)
        grounds = self._grounds(obj)
        for tok in scan(text):
            if any(a <= tok.start < b for a, b in hit_spans):
                continue
            if tok.kind == "quantity":
                cores = set(tok.cores)
                if not any(cores <= c for c in cited_cores):
                    out.append(
                        Violation(
                            path=path,
                            rule="quantity-uncited",
                            text=tok.text,
                            reason="no number citation of this object carries it",
                        )
                    )
            elif tok.type == "section":
                sid = "§" + re.sub(r"^(?:§|Section|Sec\.|章节)\s*", "", tok.text, flags=re.I).split("-")[0].strip()
                if sid not in self.section_ids:
                    out.append(
                        Violation(
                            path=path,
                            rule="section-unknown",
                            text=tok.text,
                            reason="no such section in the living document",
                        )
                    )
            elif tok.type == "arxiv":
                out += self._arxiv_text(path, tok.text)
            elif tok.type in ("version", "issue", "name", "date") and not self._grounded(tok.text, grounds):
                out.append(
                    Violation(
                        path=path,
                        rule="identifier-ungrounded",
                        text=tok.text,
                        reason="found in none of the object's sources nor the living document",
                    )
                )
        reported = {v.text for v in out}
        out += [v for v in self._names_in(path, text, grounds) if v.text not in reported]
        for url in URL_RE.findall(text):
            url = url.rstrip(".,;:)")
            if not self.in_materials(url):
                out.append(
                    Violation(path=path, rule="url-not-in-material", text=url, reason="URL occurs in no material")
                )
        return out

    def _hit_claims(self, path: str, text: str) -> list[Violation]:
        """``「name」N 命中`` and ``「name」未命中`` claims, checked against a fresh search."""
        out: list[Violation] = []
        if "命中" not in text:
            return out
        for m in _hit_claim_matches(text):
            term, count = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            fresh = self.hits(term)
            if fresh != int(count):
                out.append(
                    Violation(
                        path=path,
                        rule="hit-count-wrong",
                        text=m.group(0),
                        reason=f"a fresh search finds {fresh} hit(s) of {term!r}",
                    )
                )
        for m in _NOT_FOUND.finditer(text):
            if self.hits(m.group(1)):
                out.append(
                    Violation(
                        path=path,
                        rule="hit-count-wrong",
                        text=m.group(0),
                        reason=f"{m.group(1)!r} occurs {self.hits(m.group(1))} time(s)",
                    )
                )
        return out

    def _grounded(self, token: str, grounds: list[MaterialFacts]) -> bool:
        return any(f.contains(token) for f in grounds) or self._in_header(token)

    def _in_header(self, token: str) -> bool:
        # each part on its own: normalize() drops spaces, and joined dates would run into each other
        parts = (self.kb.date, self.kb.manifest.created, self.doc.version or "")
        return any(part and occurs_in(token, normalize(str(part))) for part in parts)

    def _arxiv_text(self, path: str, text: str) -> list[Violation]:
        ids = [m.group(1) for m in ARXIV_RE.finditer(text)]
        if not ids:
            return [Violation(path=path, rule="arxiv-malformed", text=text, reason="not a well-formed arXiv id")]
        return [
            Violation(path=path, rule="arxiv-not-in-material", text=i, reason="occurs in no material")
            for i in ids
            if not self.in_materials(i) and not self.doc.anchored(i)
        ]

    def _anchor(self, path: str, anchor: Anchor) -> list[Violation]:
        out = []
        if not re.fullmatch(r"\d{2}(0[1-9]|1[0-2])\.\d{4,5}", anchor.arxiv):
            out.append(
                Violation(
                    path=f"{path}.arxiv", rule="arxiv-malformed", text=anchor.arxiv, reason="not a well-formed arXiv id"
                )
            )
        if not self.in_materials(anchor.arxiv):
            out.append(
                Violation(
                    path=f"{path}.arxiv",
                    rule="arxiv-not-in-material",
                    text=anchor.arxiv,
                    reason="occurs in no material",
                )
            )
        actual = "anchored" if self.doc.anchored(anchor.arxiv) else "new"
        if anchor.status != actual:
            out.append(
                Violation(
                    path=f"{path}.status",
                    rule="anchor-status-wrong",
                    text=anchor.status,
                    reason=f"the living document says {actual}",
                )
            )
        return out

    def _points_quotable(self, path: str, inc: Increment) -> list[Violation]:
        """A number read at a non-quotable level must not be a finding in the key points."""
        out = []
        bad = {id(c) for c in inc.numbers if not c.quotable or not c.evidence.quotable}
        cited = [(c, frozenset(number_cores(c.text))) for c in inc.numbers]
        for n, point in enumerate(inc.points):
            for tok in scan(point):
                if tok.kind != "quantity":
                    continue
                cores = set(tok.cores)
                binding = [c for c, numerals in cited if cores <= numerals]
                levels = [
                    self.facts[c.source.path].level_of(c.text, c.source.line_start)
                    for c in binding
                    if c.source.path in self.facts
                ]
                if (binding and all(id(c) in bad for c in binding)) or any(
                    lvl is not None and not lvl.quotable and lvl is not EvidenceLevel.card for lvl in levels
                ):
                    out.append(
                        Violation(
                            path=f"{path}.points[{n}]",
                            rule="not-quotable-as-finding",
                            text=tok.text,
                            reason="read at a non-quotable level; belongs in the evidence boundary",
                        )
                    )
        return out


_UNGROUNDED = frozenset({"key-ungrounded", "identifier-ungrounded", "name-ungrounded"})


def _once_per_name(violations: list[Violation]) -> list[Violation]:
    """An ungrounded name is reported once per object (at its first place: the key when it is the key)."""
    seen: set[str] = set()
    out = []
    for v in violations:
        if v.rule in _UNGROUNDED:
            if v.text in seen:
                continue
            seen.add(v.text)
        out.append(v)
    return out


def _hit_claim_matches(text: str) -> Iterator[re.Match[str]]:
    """The ``name N 命中`` claims of a text (``_HIT_CLAIM``'s matches, found as cheaply as can be)."""
    if "命中" not in text:
        return iter(())
    return (_HIT_CLAIM if "=" in text else _HIT_CLAIM_QUOTED).finditer(text)


def _spans_of(text: str, names: list[str]) -> list[tuple[int, int]]:
    """Where each of ``names`` stands in ``text`` (every occurrence)."""
    spans = []
    for name in dict.fromkeys(n for n in names if n):
        spans += [(at, at + len(name)) for at in occurrences(text, name)]
    return spans


def _texts(path: str, obj: Any) -> Iterator[tuple[str, str]]:
    for name in _TEXT_FIELDS:
        value = field_or(obj, name)
        if isinstance(value, str) and value:
            yield f"{path}.{name}", value
        elif isinstance(value, list):
            for n, v in enumerate(value):
                if isinstance(v, str):
                    yield f"{path}.{name}[{n}]", v
