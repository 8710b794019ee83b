"""Indexes the verifier looks numbers up in, built once per object, instead of scanning every citation for
every number of a text: what citations carry, filed by numeral and by value; and the spans of a text a
check passes over, sorted by where they start.

Each lookup returns exactly what the scan it replaces returned: an index narrows the candidates (a window
of amounts around a value, the citations that hold a numeral), and every candidate is then held to the
scan's own test (``Value.same``, ``digits_alike``, a subset of numerals)."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from ..brief.models import NumberCitation
from ..read.numbers import number_cores
from .values import Value, digits_alike, values

#: what one citation carries: its numerals, and their values
Cited = tuple[frozenset[str], tuple[Value, ...]]


class NumberMemo:
    """What a number as written carries, and the values of a token, each worked out once per verification.

    One citation is read for its object's claims, its key points and the brief's; a process-wide bounded
    cache forgot them on a note with more distinct numbers than it holds (140,000 in the 2 MB numbered
    note), so each was worked out again and again, and a verification grew faster than its brief. This
    memo lives as long as its verifier and holds as many entries as the brief has numbers.
    """

    def __init__(self) -> None:
        self._carried: dict[str, Cited] = {}
        self._values: dict[str, tuple[Value, ...]] = {}

    def carried(self, cite: NumberCitation) -> Cited:
        """What a citation carries: the numerals of its number, and their values (one frozen set and one
        tuple for every citation of a number)."""
        found = self._carried.get(cite.text)
        if found is None:
            found = self._carried[cite.text] = (frozenset(number_cores(cite.text)), self.values(cite.text))
        return found

    def values(self, text: str) -> tuple[Value, ...]:
        """``values.values``, once per text."""
        found = self._values.get(text)
        if found is None:
            found = self._values[text] = values(text)
        return found


#: half the width of an amount's window, relative to the amount (absolute below 1): ``Value.same`` and
#: ``digits_alike`` hold amounts equal within 1e-9 of the larger (``values._close``); twice that is room
_WIDTH = 2e-9
#: the powers of ten ``digits_alike`` tries between two amounts
_POWERS = range(-15, 16)
#: a ratio of two amounts at least this large may overflow to infinity (which ``values._close`` holds
#: equal to every power of ten): values that small beside an amount are always held to the test itself
_HUGE_RATIO = 1e300


def _window(amount: float) -> tuple[float, float]:
    """The amounts ``values._close`` can hold equal to ``amount`` (finite), and a little more."""
    half = _WIDTH * max(1.0, abs(amount))
    return amount - half, amount + half


@dataclass
class _Sorted:
    """Numbers sorted, each with what it stands for: the ones in a range are a bisection away."""

    keys: list[float] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, pairs: Iterable[tuple[float, int]]) -> _Sorted:
        ordered = sorted(pairs)
        return cls([k for k, _ in ordered], [i for _, i in ordered])

    def between(self, low: float, high: float) -> list[int]:
        """What the keys from ``low`` to ``high`` (both included) stand for."""
        return self.ids[bisect.bisect_left(self.keys, low) : bisect.bisect_right(self.keys, high)]


class CitedIndex:
    """What many citations carry (one ``Cited`` entry each, in order), filed once by numeral and by value:
    which entries carry a value, or hold some numerals, is a lookup, remembered per value asked."""

    def __init__(self, entries: Sequence[Cited]) -> None:
        self.entries = tuple(entries)
        #: every value of every entry, flat, and the entry it belongs to
        self._values: list[Value] = []
        self._owner: list[int] = []
        self._by_numeral: dict[str, list[int]] = {}
        for n, (numerals, held) in enumerate(self.entries):
            for core in numerals:
                self._by_numeral.setdefault(core, []).append(n)
            for value in held:
                self._values.append(value)
                self._owner.append(n)
        finite = [k for k, v in enumerate(self._values) if math.isfinite(v.amount) and _written_finite(v)]
        #: values no window can file (an amount past a float's range): every lookup tests them
        self._odd = sorted(set(range(len(self._values))) - set(finite))
        self._amounts = _Sorted.of((self._values[k].amount, k) for k in finite)
        self._written = _Sorted.of((_as_written(self._values[k]), k) for k in finite)
        self._sizes = _Sorted.of((abs(self._values[k].amount), k) for k in finite)
        self._carrying: dict[Value, frozenset[int]] = {}
        self._holding: dict[frozenset[str], frozenset[int]] = {}
        self._alike: dict[float, bool] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def carrying(self, wanted: Value) -> frozenset[int]:
        """The entries one of whose values is ``wanted`` (``Value.same``), as a scan of them all finds."""
        found = self._carrying.get(wanted)
        if found is None:
            found = self._carrying[wanted] = frozenset(
                self._owner[k] for k in self._near(wanted) if wanted.same(self._values[k])
            )
        return found

    def carries(self, wanted: Value) -> bool:
        """Whether some entry carries ``wanted`` (``values.carries`` of any entry)."""
        return bool(self.carrying(wanted))

    def _near(self, wanted: Value) -> Iterable[int]:
        """The values ``Value.same`` may hold equal to ``wanted``: those whose amount, or amount as
        written, lies in a window around its own (every value, for an amount past a float's range)."""
        if not (math.isfinite(wanted.amount) and _written_finite(wanted)):
            return range(len(self._values))
        near = set(self._amounts.between(*_window(wanted.amount)))
        near.update(self._written.between(*_window(_as_written(wanted))))
        near.update(self._odd)
        return sorted(near)

    def holding(self, cores: frozenset[str]) -> frozenset[int]:
        """The entries whose numerals include every one of ``cores`` (all of them for no cores)."""
        found = self._holding.get(cores)
        if found is None:
            if not cores:
                found = frozenset(range(len(self.entries)))
            else:
                shortest = min((self._by_numeral.get(core, []) for core in cores), key=len)
                found = frozenset(n for n in shortest if cores <= self.entries[n][0])
            self._holding[cores] = found
        return found

    def holds(self, cores: frozenset[str]) -> bool:
        """Whether some entry's numerals include every one of ``cores``."""
        return bool(self.holding(cores))

    def alike(self, amount: float) -> bool:
        """Whether some value shares its significant digits with ``amount`` (``digits_alike``)."""
        found = self._alike.get(amount)
        if found is None:
            found = self._alike[amount] = any(
                digits_alike(amount, self._values[k].amount) for k in self._alike_candidates(amount)
            )
        return found

    def _alike_candidates(self, amount: float) -> Iterable[int]:
        """The values whose size is ``amount``'s over a power of ten (``digits_alike``'s ratios), those
        whose ratio to it may overflow, and the ones no window can file; every value for an amount past a
        float's range."""
        size = abs(amount)
        if not math.isfinite(size):
            return range(len(self._values))
        if not size:
            return ()
        near: set[int] = set(self._odd)
        near.update(self._sizes.between(0.0, size / _HUGE_RATIO))
        for k in _POWERS:
            power = 10.0**k
            low, high = _window(power)  # the ratios ``_close`` holds equal to this power
            top = size / low if low > 0 else math.inf
            near.update(self._sizes.between(size / high * (1 - _WIDTH), top * (1 + _WIDTH)))
        return sorted(near)


def _as_written(value: Value) -> float:
    """The amount as written (before its unit's scale), as ``Value.same`` compares it."""
    return value.amount if value.written is None else value.written


def _written_finite(value: Value) -> bool:
    return value.written is None or math.isfinite(value.written)


class Carried(CitedIndex):
    """What an object's citations carry, each distinct entry once: the claims of its texts are checked
    against it, and a check is remembered by it (hashed once, compared as its entries)."""

    def __init__(self, entries: Sequence[Cited]) -> None:
        super().__init__(entries)
        self._hash = hash(self.entries)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, Carried) and self._hash == other._hash and self.entries == other.entries

    def plus(self, entry: Cited) -> Carried:
        """These entries and one more (a grouped registration's own size)."""
        return Carried((*self.entries, entry))


#: what no citation carries (a text that belongs to no object with numbers of its own)
NOTHING = Carried(())


@dataclass(frozen=True)
class Spans:
    """Spans of a text, sorted by start: whether a place lies in one is a bisection, not a scan of them."""

    starts: tuple[int, ...]
    #: the furthest end of the spans up to each one
    reach: tuple[int, ...]

    @classmethod
    def of(cls, spans: Iterable[tuple[int, int]]) -> Spans:
        ordered = sorted(spans)
        return cls(tuple(a for a, _ in ordered), tuple(accumulate((b for _, b in ordered), max)))

    def cover(self, at: int) -> bool:
        """Whether ``at`` lies in some span (``a <= at < b``)."""
        last = bisect.bisect_right(self.starts, at) - 1
        return last >= 0 and self.reach[last] > at
