"""A cheap gate before a costly regex: literal words that every match of the regex must contain.

Python's ``re`` tries a pattern that starts with ``\\b`` or a group at every position of a line; a
table of many such shapes costs ~100 µs per line. But nearly every shape contains words that any
match must include (``says`` in ``<Name> says``, ``摘要`` in ``只看了…摘要``). Searching for those
literals is an order of magnitude cheaper, and a line that holds none of them cannot match.

The literals are derived from the regex's own parse (``re._parser``), never listed by hand, and the
derivation is conservative: whatever it does not understand yields no gate, and the caller then
always runs the full pattern. So a gate can only ever skip work, never a match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import ahocorasick

try:  # the parser of the standard library's own ``re`` (a private module: tolerate its absence)
    from re import _casefix  # type: ignore[attr-defined]
    from re import _constants as _c  # type: ignore[attr-defined]
    from re import _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - a Python without it: no gates, every pattern runs
    _c = _p = _casefix = None

#: inline flags that change what a literal matches: a group that sets or clears one gets no literal
_CASE_FLAGS = re.IGNORECASE | re.ASCII | re.LOCALE | re.UNICODE


def required_literals(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Literals of which every match of ``pattern`` contains at least one; ``None`` when unknown."""
    if _p is None:
        return None
    try:
        parsed = _p.parse(pattern, flags)
    except (re.error, AttributeError, TypeError, ValueError):  # pragma: no cover - the parser changed shape
        return None
    try:
        return _of_sequence(list(parsed))
    except (AttributeError, TypeError, ValueError):  # pragma: no cover - an opcode of a newer Python
        return None


def _better(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    """Of two sound answers the more selective: the one whose shortest literal is longer."""
    if a is None:
        return b
    if b is None:
        return a
    return a if min(map(len, a)) >= min(map(len, b)) else b


def _of_sequence(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """A sequence matches only if each of its items does: any one item's literals are required."""
    best: frozenset[str] | None = None
    run: list[str] = []
    for op, av in items:
        if op is _c.LITERAL:
            run.append(chr(av))
            continue
        if run:
            best = _better(best, frozenset({"".join(run)}))
            run = []
        best = _better(best, _of_item(op, av))
    if run:
        best = _better(best, frozenset({"".join(run)}))
    if best is not None and "" in best:
        return None
    return best


def _of_item(op: Any, av: Any) -> frozenset[str] | None:
    if op is _c.SUBPATTERN:
        _group, add_flags, del_flags, sub = av
        if (add_flags | del_flags) & _CASE_FLAGS:
            return None
        return _of_sequence(list(sub))
    if op is _c.BRANCH:
        return _union(_of_sequence(list(alt)) for alt in av[1])
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
        low, _high, sub = av
        return _of_sequence(list(sub)) if low >= 1 else None
    if op is getattr(_c, "ATOMIC_GROUP", None):
        return _of_sequence(list(av))
    if op is _c.IN and av and all(o is _c.LITERAL for o, _ in av):  # ``只|仅`` is parsed as a class
        return frozenset(chr(c) for _, c in av)
    return None  # a class, any character, an assertion (not part of the match), a back-reference …


def _union(parts: Iterable[frozenset[str] | None]) -> frozenset[str] | None:
    """Every alternative must contribute: one alternative without literals leaves the whole open."""
    out: set[str] = set()
    for part in parts:
        if part is None:
            return None
        out |= part
    return frozenset(out)


#: lower-case characters that ``re.I`` equates with an ASCII letter although ``str.lower`` keeps them apart
#: (``ſ`` ~ ``s``, ``ı`` ~ ``i``): a text holding one is scanned with every pattern open
_FOLD_EXTRAS = re.compile(
    "["
    + "".join(
        re.escape(chr(c))
        for k, v in getattr(_casefix, "_EXTRA_CASES", {}).items()
        for c in (k, *v)
        if c >= 128 and chr(c).lower() == chr(c)
    )
    + "]"
)


def _fold_safe(literal: str) -> bool:
    """ASCII or uncased characters only: there ``str.lower`` agrees with how ``re.I`` compares them."""
    return all(c.isascii() or c.lower() == c.upper() for c in literal)


class Source(NamedTuple):
    """A pattern's source and flags, for one that is only gated and never matched (not compiled)."""

    pattern: str
    flags: int


class Gates:
    """Which of several patterns can match a text, from one scan of their required literals.

    The scan is an Aho–Corasick automaton (``pyahocorasick``) over every required literal: one linear
    pass finds all occurrences, overlapping ones included. Case-insensitive patterns are gated on the
    lower-cased text; a text holding a character that ``re.I`` folds differently opens all of them.
    A case-sensitive ASCII literal is looked for in the lower-cased text too, in the same pass: where a
    text holds it, its lower-cased text holds it lower-cased (a text that holds it only in other case
    opens its pattern for nothing, never the reverse).
    """

    def __init__(self, patterns: Sequence[re.Pattern[str] | Source]) -> None:
        self.everything = frozenset(range(len(patterns)))
        self.folded = frozenset(n for n, p in enumerate(patterns) if p.flags & re.IGNORECASE)
        keys: tuple[dict[str, set[int]], dict[str, set[int]]] = ({}, {})  # as written, lower-cased
        always: set[int] = set()
        lowered: set[int] = set()  # case-sensitive patterns gated on the lower-cased text
        for n, p in enumerate(patterns):
            folded = n in self.folded
            literals = required_literals(p.pattern, p.flags)
            if not literals or (folded and not all(map(_fold_safe, literals))):
                always.add(n)
                continue
            for lit in literals:
                low = folded or lit.isascii()
                if low and not folded:
                    lowered.add(n)
                keys[low].setdefault(lit.lower() if low else lit, set()).add(n)
        self.always = frozenset(always)
        #: what a text whose lower-cased form cannot be scanned opens: every pattern gated on that form
        self._unscanned = self.folded | frozenset(lowered)
        self._automata = tuple(_automaton(k) for k in keys)

    def open(self, text: str) -> frozenset[int]:
        """Indices of the patterns that may match ``text`` (every other one certainly does not)."""
        opened = set(self.always)
        cased, folded = self._automata
        if cased is not None:
            for _end, rows in cased.iter(text):
                opened |= rows
        if folded is not None:
            low = text.lower()
            if len(low) != len(text) or (not low.isascii() and _FOLD_EXTRAS.search(low)):
                return frozenset(opened | self._unscanned)
            for _end, rows in folded.iter(low):
                opened |= rows
        return frozenset(opened)


def _automaton(keys: dict[str, set[int]]) -> Any:
    """An Aho–Corasick automaton from each literal to the patterns it opens (None: no literals)."""
    if not keys:
        return None
    automaton = ahocorasick.Automaton()
    for key, rows in keys.items():
        automaton.add_word(key, frozenset(rows))
    automaton.make_automaton()
    return automaton


# --- a guard on where a match can start -------------------------------------------------------

_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
}


def _class_parts(av: list[tuple[Any, Any]]) -> list[str] | None:
    parts = []
    for op, a in av:
        if op is _c.LITERAL:
            parts.append(re.escape(chr(a)))
        elif op is _c.RANGE:
            parts.append(f"{re.escape(chr(a[0]))}-{re.escape(chr(a[1]))}")
        elif op is _c.CATEGORY and str(a) in _CATEGORIES:
            parts.append(_CATEGORIES[str(a)])
        else:  # a negated class or an unusual category: unknown
            return None
    return parts


#: a first character as a class fragment, and whether ``re.I`` applies to it there
_Part = tuple[str, bool]


def _first_chars(items: list[tuple[Any, Any]], folded: bool = False) -> tuple[list[_Part], bool] | None:
    """Class parts covering every first character a match can consume, and whether it may match empty."""
    parts: list[_Part] = []
    for op, av in items:
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            continue  # zero width: the first consumed character comes later
        if op is _c.LITERAL:
            return [*parts, (re.escape(chr(av)), folded)], False
        if op is _c.IN:
            cls = _class_parts(av)
            return None if cls is None else ([*parts, *((c, folded) for c in cls)], False)
        if op is _c.SUBPATTERN:
            _group, add_flags, del_flags, sub = av
            if del_flags & _CASE_FLAGS or add_flags & (_CASE_FLAGS & ~re.IGNORECASE):
                return None
            found = _first_chars(list(sub), folded or bool(add_flags & re.IGNORECASE))
        elif op is _c.BRANCH:
            alts = [_first_chars(list(alt), folded) for alt in av[1]]
            if any(a is None for a in alts):
                return None
            found = ([p for a in alts if a for p in a[0]], any(a[1] for a in alts if a))
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
            low, _high, sub = av
            inner = _first_chars(list(sub), folded)
            found = None if inner is None else (inner[0], inner[1] or low == 0)
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            found = _first_chars(list(av), folded)
        else:
            return None
        if found is None:
            return None
        parts += found[0]
        if not found[1]:
            return parts, False
    return parts, True


def _has_fast_start(items: list[tuple[Any, Any]], flags: int) -> bool:
    """Whether ``re`` itself already skips ahead to a literal or class the pattern starts with
    (it does not when case is ignored: a cased first character gets no fast scan then)."""
    if flags & re.IGNORECASE:
        return False
    while items and items[0][0] is _c.SUBPATTERN:
        items = list(items[0][1][3])
    if not items:
        return False
    op, av = items[0]
    if op in (_c.LITERAL, _c.IN):
        return True
    return op is _c.BRANCH and all(alt and next(iter(alt))[0] is _c.LITERAL for alt in av[1])


def guarded(pattern: re.Pattern[str] | str, flags: int = 0) -> re.Pattern[str]:
    """``pattern`` behind a lookahead for the characters a match can start with (the same matches).

    ``re`` tries a pattern that opens with a look-behind or a group at every position of a text; a
    one-character class test first makes the positions where no match can start cheap. Patterns it
    cannot analyse, or that ``re`` already starts quickly, come back unchanged. ``pattern`` may be a
    source with its ``flags``: then it is compiled once, guarded or not (not first as written).
    """
    if isinstance(pattern, re.Pattern):
        source, flags = pattern.pattern, pattern.flags
    else:
        source = pattern

    def unchanged() -> re.Pattern[str]:
        return pattern if isinstance(pattern, re.Pattern) else re.compile(source, flags)

    if _p is None:
        return unchanged()
    try:
        items = list(_p.parse(source, flags))
        found = _first_chars(items)
        if found is None or found[1] or not found[0] or _has_fast_start(items, flags):
            return unchanged()
    except (re.error, AttributeError, TypeError, ValueError):  # pragma: no cover - the parser changed shape
        return unchanged()
    cased = "".join(dict.fromkeys(part for part, fold in found[0] if not fold))
    folded = "".join(dict.fromkeys(part for part, fold in found[0] if fold))
    # a character ``re.I`` compares folded (a scoped ``(?i:…)``) is tested folded in the guard too
    guard = "|".join(([f"[{cased}]"] if cased else []) + ([f"(?i:[{folded}])"] if folded else []))
    try:
        return re.compile(f"(?={guard})(?:{source})", flags)
    except re.error:  # global inline flags (``(?i)…``) must open the pattern: leave such a one as it is
        return unchanged()
