"""A material prepared for the verifier's checks: its lines normalised and indexed, and the evidence
level of each line by the verifier's plain rule (worked out when a citation asks for it)."""

from __future__ import annotations

import bisect
import re
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import ahocorasick

from ..brief.models import (
    EvidenceLevel,
    MaterialKind,
)
from ..kb.knowledge import occurrences
from ..kb.loading import Material
from ..read.markers import block_level, claims_about, line_level, plain_level, scoped_limits, strictest
from ..read.notes import NoteItem, blocks, note_items
from ..read.numbers import line_cores, normalize, normalize_line, number_cores, occurs_in
from ..read.quotes import uncut
from ..text.memo import run_memo
from ..text.naming import MD_ESCAPE
from .values import Day, dates_in, same_day

#: characters of a large text handed to a search that copies what it is given (a bounded copy)
_WINDOW = 1 << 16
#: the low 32 bits of a packed index entry: a line number or an offset
_LOW_MASK = (1 << 32) - 1
#: characters of normalised lines a material's facts keep from their last reads
_RECENT_CHARS = 1 << 18
#: lines after a quote's stated place that are looked at before the whole text
_NEAR_LINES = 16


def hash_key(text: str) -> int:
    """A text's place in a packed index: 31 bits of its hash above a 32-bit number (a line's, an
    offset's). What an index files under a key is read again on a hit: two texts may share the bits."""
    return (hash(text) & ((1 << 31) - 1)) << 32


def packed(entries: Iterable[tuple[str, int]]) -> array[int]:
    """A sorted packed index of (text, number) entries, read with ``filed``."""
    return array("q", sorted(hash_key(text) | number for text, number in entries))


def filed(index: array[int], key: str) -> Iterator[int]:
    """The numbers a sorted packed index files under ``key``'s hash bits (ascending), one at a time."""
    packed = hash_key(key)
    at = bisect.bisect_left(index, packed)
    while at < len(index) and index[at] - packed <= _LOW_MASK:
        yield index[at] & _LOW_MASK
        at += 1


@dataclass(frozen=True)
class NameSearch:
    """Many names, each normalised and case-folded once into a needle, in one Aho–Corasick automaton: built
    once for a batch and run over each material (one automaton per material would be names x materials)."""

    #: needle: the names it stands for
    needles: dict[str, list[str]]
    automaton: ahocorasick.Automaton | None
    longest: int

    @classmethod
    def of(cls, names: Iterable[str]) -> NameSearch:
        needles: dict[str, list[str]] = {}
        for name in names:
            needle = normalize_line(name).casefold()  # uncached: each name once
            if needle:
                needles.setdefault(needle, []).append(name)
        if not needles:
            return cls(needles, None, 0)
        automaton = ahocorasick.Automaton()
        for needle in needles:
            automaton.add_word(needle, needle)
        automaton.make_automaton()
        return cls(needles, automaton, max(map(len, needles)))


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
    _item_limits: dict[int, tuple[tuple[str, EvidenceLevel], ...]] = field(default_factory=dict)
    #: a card's or the living document's lines all have one level
    uniform: EvidenceLevel | None = None
    _item_levels: dict[int, EvidenceLevel] = field(default_factory=dict)
    _line_levels: dict[int, EvidenceLevel | None] = field(default_factory=dict)
    _normalized: str | None = None
    _recent: OrderedDict[int, str] = field(default_factory=OrderedDict)
    _recent_chars: int = 0
    _folded: str | None = None
    _unmarked: str | None = None
    _unescaped: str | None = None
    _levels_of: dict[str, EvidenceLevel | None] = field(default_factory=dict)
    _by_url: dict[str, list[int]] | None = None
    _joined: dict[str, tuple[str, list[int]]] = field(default_factory=dict)
    _contains: dict[str, bool] = field(default_factory=dict)
    _naming: dict[tuple[str, str], list[tuple[NoteItem, EvidenceLevel]]] = field(default_factory=dict)
    _dates: set[Day] | None = None
    #: whether a name (its needle: normalised, case-folded) occurs: found for many at once (``learn_names``)
    _named: dict[str, bool] = field(default_factory=dict)
    #: the needles of each search learnt (``learn_names``): one of them not in ``_named`` does not occur
    _learnt: list[dict[str, list[str]]] = field(default_factory=list)

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

    def has_date(self, day: Day) -> bool:
        """Whether the material names ``day`` in any form (its dates read once, when first asked)."""
        if self._dates is None:
            self._dates = dates_in(self.material.text)
        return any(same_day(day, d) for d in self._dates)

    def spells(self, token: str) -> bool:
        """Whether the text holds ``token`` as written, spaces aside, with nothing numeric joined to
        either end (``Llama 3.1`` in ``Llama 3.1 8B``, where the normalised text reads ``Llama3.18B``)."""
        rx = _spelled(token)
        return rx is not None and (rx.search(self.material.text) is not None)

    def raw_line(self, n: int) -> str:
        """Line ``n`` (0-based) as written."""
        text, starts = self.material.text, self.line_starts
        end = starts[n + 1] - 1 if n + 1 < len(starts) else len(text)
        return text[starts[n] : end]

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
    def unescaped(self) -> str:
        """The folded text with its Markdown escapes undone (``KV\\_cache`` → ``kv_cache``): a title read
        from a card or heading is unescaped once where it is read (``naming.plain_title``), made once."""
        if self._unescaped is None:
            self._unescaped = MD_ESCAPE.sub(r"\1", self.folded) if "\\" in self.folded else self.folded
        return self._unescaped

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
            level = self._item_levels[n] = plain_level(item.said, item.legend, scoped=True)
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
                if self.items[item].recogniser == "jsonl":  # one line: its values are what it says
                    block = self.items[item].said
                level = line_level(block, scoped=True) or self.item_level(item)[1]
                own = block_level(block)  # a hedge or limitation of this bullet's own claim
                if own is not None:
                    level = strictest(level, own)
                for word, limit in self._limits(item):  # a line about an object the item's check excepts
                    if claims_about(block, word):
                        level = strictest(level, limit)
                self._line_levels[n] = level
        return self._line_levels[n]

    def _limits(self, n: int) -> tuple[tuple[str, EvidenceLevel], ...]:
        """Item ``n``'s limitations of other objects (``read.markers.scoped_limits``), read once."""
        found = self._item_limits.get(n)
        if found is None:
            item = self.items[n]
            found = self._item_limits[n] = scoped_limits(item.said, item.legend)
        return found

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
        found_before = self._naming.get((key, where))
        if found_before is not None:  # a batch's objects ask for the same few names again and again
            return found_before
        self._naming[(key, where)] = self._items_naming(key, where)
        return self._naming[(key, where)]

    def _items_naming(self, key: str, where: str) -> list[tuple[NoteItem, EvidenceLevel]]:
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
        found = self._named.get(needle)
        if found is None and any(needle in learnt for learnt in self._learnt):
            found = False
        if found is None:  # one search of the whole text (a name not learnt beforehand)
            found = needle in self.folded or needle in self.unescaped or needle in self.material.path.casefold()
        return found

    def learn_names(self, search: NameSearch) -> None:
        """Whether each name of ``search`` occurs, found in one pass over the text and kept for ``names``."""
        for needle in self.found_by(search):
            self._named[needle] = True
        self._learnt.append(search.needles)

    def names_all(self, names: list[str]) -> set[str]:
        """Those of many ``names`` that occur in the material or its file name: ``names`` for each, in
        one pass over the text (a group of ten thousand members is checked in linear time)."""
        search = NameSearch.of(names)
        return {name for needle in self.found_by(search) for name in search.needles[needle]}

    def found_by(self, search: NameSearch) -> set[str]:
        """The needles of ``search`` that occur in the material's text or file name."""
        if search.automaton is None:
            return set()
        found: set[str] = set()
        views = [self.folded, self.material.path.casefold()]
        if self.unescaped is not self.folded:  # a name as written, its Markdown escapes undone
            views.append(self.unescaped)
        for haystack in views:
            # the automaton copies what it searches into 4-byte characters: it is given the text a
            # window at a time, each overlapping the next by the longest needle (no match is missed)
            for start in range(0, max(len(haystack), 1), _WINDOW):
                window = haystack[start : start + _WINDOW + search.longest - 1]
                found.update(needle for _end, needle in search.automaton.iter(window))
        return found

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
                    line_keys.append(hash_key(line) | n)
                    core_keys += [hash_key(core) | n for core in line_cores(line)]
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
        return any(self.line(n) == normalized for n in filed(self.line_index, normalized))

    def lines_with(self, core: str) -> list[int]:
        """The lines (0-based, ascending) on which ``core`` stands as a numeral."""
        return [n for n in filed(self.core_index, core) if core in line_cores(self.line(n))]

    def _candidates(self, needle: str) -> tuple[str, list[int]] | None:
        """The needle's longest numeral, and the lines filed under its hash: those holding it, and
        perhaps another numeral of the same hash bits (None: the needle has no numeral)."""
        cores = number_cores(needle)
        if not cores:
            return None
        core = max(cores, key=len)
        return core, list(filed(self.core_index, core))

    def contains(self, needle: str, line: int | None = None) -> bool:
        """``occurs_in`` over the material, looking only at the lines that hold the needle's numeral.
        ``line`` (1-based, where a citation says it stands) is tried first: one of those lines that holds
        it answers at once, where trying them in order costs one try per line that holds the numeral."""
        found = self._contains.get(needle)
        if found is None:
            if line is not None and self._holds_on(needle, line - 1):
                found = self._contains[needle] = True
            else:
                found = self._contains[needle] = self._lookup(needle)
        return found

    def _holds_on(self, needle: str, n: int) -> bool:
        """Whether 0-based line ``n`` is filed under the needle's longest numeral and holds the needle."""
        cores = number_cores(needle)
        if not cores or not 0 <= n < self.line_count:
            return False
        core = max(cores, key=len)
        key = hash_key(core) | n
        at = bisect.bisect_left(self.core_index, key)
        return at < len(self.core_index) and self.core_index[at] == key and self._holds(needle, core, self.line(n))

    @staticmethod
    def _holds(needle: str, core: str, line: str) -> bool:
        """The needle stands on a line that holds its numeral (a line of another numeral filed under the
        same hash bits is passed over: ``0.`` stands in ``0.0``, whose numeral is not ``0``)."""
        return occurs_in(needle, line) and core in line_cores(line)

    def _lookup(self, needle: str) -> bool:
        filed = self._candidates(needle)
        if filed is None:
            return occurs_in(needle, self.normalized)
        core, candidates = filed
        if any(self._holds(needle, core, self.line(n)) for n in candidates):
            return True
        # on no line whole: across a line break only if its numeral stands on some line at all
        return any(core in line_cores(self.line(n)) for n in candidates) and occurs_in(needle, self.normalized)

    def has_quote(self, quote: str, near: tuple[int | None, int | None] | None = None) -> bool:
        """Whether ``quote`` stands in the material (spacing aside): whole lines, or within the text.
        ``near`` (1-based first and last line, when the quote says where it stands) and a few lines
        after it are looked at first."""
        quote = uncut(quote)  # a window of a long line: the text between its cuts stands in it
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


@run_memo
def _spelled(token: str) -> re.Pattern[str] | None:
    """``token`` as a pattern: its pieces in order, any spacing between them, no digit joined on."""
    pieces = [re.escape(p) for p in re.findall(r"\w+|[^\w\s]", token)]
    if not pieces:
        return None
    return re.compile(r"(?<![\d.])" + r"\s*".join(pieces) + r"(?!\d|\.\d)", re.I)
