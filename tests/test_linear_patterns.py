"""The verifier's name patterns read a long word in linear time (issue 26, finding 5): the name part of a
setting (``_PARAMETER``), of a fact's term (``_FACT_TERM``) and of the bookkeeping shapes (a material key,
a file name) is read at most ``NAME_REACH`` (or a path's length) from each place, where it read to the
end of the word from every place of it (``a.a.a…`` of 4,000 characters: its square).

Each pattern is held, on generated words shorter than its reach, to a specification of what it matches
written out by hand below (the leftmost place, then the first branch that matches there, as ``re`` does).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from e1prep.text.lexicon import lexicon
from e1prep.verify.grounding import _FACT_TERM, _PARAMETER, NAME_REACH

Span = tuple[int, int]


def _word(c: str) -> bool:
    return c.isalnum() or c == "_"


def _run(t: str, p: int, inside: Callable[[str], bool]) -> int:
    """The end of the run of characters ``inside`` from ``p``."""
    while p < len(t) and inside(t[p]):
        p += 1
    return p


def _digits(t: str, p: int) -> int:
    return _run(t, p, str.isdigit)


def _matches(t: str, at: Callable[[str, int], tuple[int, ...] | None]) -> list[tuple[int, ...]]:
    """What ``finditer`` gives for a pattern whose match at a place is ``at(t, place)`` (never empty)."""
    out, pos = [], 0
    while pos < len(t):
        found = next(((p, *m) for p in range(pos, len(t)) if (m := at(t, p)) is not None), None)
        if found is None:
            break
        out.append(found)
        pos = found[1]
    return out


def _value(t: str, q: int) -> tuple[int, int, int] | None:
    """A setting's value from ``q``: spacing, digits, perhaps a decimal part, and nothing word-like after."""
    i = _run(t, q, str.isspace)
    j = _digits(t, i)
    if j == i:
        return None

    def free(k: int) -> bool:
        return not (k < len(t) and (_word(t[k]) or t[k] in ".%"))

    if j + 1 < len(t) and t[j] == "." and t[j + 1].isdigit() and free(k := _digits(t, j + 1)):
        return k, i, k
    return (j, i, j) if free(j) else None


def parameter_at(t: str, p: int) -> tuple[int, int, int] | None:
    """A flag ``--name`` then a space or ``=``, or an assignment ``name=`` at a word's start, then a value."""
    if t.startswith("--", p) and p + 2 < len(t) and t[p + 2].isascii() and t[p + 2].isalpha():
        e = _run(t, p + 3, lambda c: _word(c) or c in ".-")
        if e < len(t) and t[e] in " =" and (v := _value(t, e + 1)) is not None:
            return v
    starts_word = (p == 0 or not _word(t[p - 1])) and (t[p] == "_" or (t[p].isascii() and t[p].isalpha()))
    if starts_word:
        e = _run(t, p + 1, lambda c: _word(c) or c == ".")
        if e < len(t) and t[e] == "=":
            return _value(t, e + 1)
    return None


def fact_term_at(t: str, p: int) -> tuple[int] | None:
    """A version (``v0.5.2``), a name with a digit in it, or four Latin letters (hyphens among them)."""
    q = p + 1 if t[p] in "vV" else p
    j = _digits(t, q)
    if j > q:
        end = j
        while end + 1 < len(t) and t[end] == "." and t[end + 1].isdigit():
            end = _digits(t, end + 1)
        if end > j:
            return (end,)
    if not (t[p].isascii() and t[p].isalpha()):
        return None
    e = _run(t, p + 1, lambda c: _word(c) or c in ".-")
    if any(c.isdigit() for c in t[p + 1 : e]):
        return (e,)
    f = _run(t, p + 1, lambda c: (c.isascii() and c.isalpha()) or c == "-")
    return (f,) if f - (p + 1) >= 3 else None


def key_at(t: str, p: int) -> tuple[int] | None:
    """A material key: a lowercase name, a colon, six hex digits or more, perhaps an ellipsis."""
    if not "a" <= t[p] <= "z":
        return None
    e = _run(t, p + 1, lambda c: "a" <= c <= "z" or (c.isdigit() and c.isascii()) or c in "_-")
    if e >= len(t) or t[e] != ":":
        return None
    h = _run(t, e + 1, lambda c: c in "0123456789abcdef")
    if h - (e + 1) < 6:
        return None
    return (h + 1,) if t.startswith("…", h) else (h,)


def file_name_at(t: str, p: int) -> tuple[int] | None:
    """A file name: path characters, then the last ``.ext`` among them that ends a word."""
    inside = lambda c: _word(c) or c in "./-"  # noqa: E731
    if not inside(t[p]):
        return None
    e = _run(t, p, inside)
    for m in range(e - 1, p, -1):
        if t[m] != ".":
            continue
        for ext in ("md", "json", "yaml", "yml", "txt", "toml"):
            end = m + 1 + len(ext)
            if t.startswith(ext, m + 1) and (end == len(t) or not _word(t[end])):
                return (end,)
    return None


def _shape(marker: str) -> re.Pattern[str]:
    [shape] = [s for s in lexicon().bookkeeping_shapes if marker in s]
    return re.compile(shape)


KEY = _shape(r":[0-9a-f]")
FILE_NAME = _shape(r"\.(?:md")
SHORT = 40  # shorter than every reach: the bounded patterns read such words whole


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="aZv_-.=1 2x%字\t", max_size=SHORT))
def test_a_setting_is_found_as_specified(t: str) -> None:
    got = [(m.start(), m.end(), *m.span(1)) for m in _PARAMETER.finditer(t)]
    assert got == _matches(t, parameter_at)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="aBvV_-.1 2字/", max_size=SHORT))
def test_a_fact_term_is_found_as_specified(t: str) -> None:
    assert [m.span() for m in _FACT_TERM.finditer(t)] == _matches(t, fact_term_at)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="abf09_-:… Z", max_size=SHORT))
def test_a_material_key_is_found_as_specified(t: str) -> None:
    assert [m.span() for m in KEY.finditer(t)] == _matches(t, key_at)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="a./-_mdjsonyamltx 字", max_size=SHORT))
def test_a_file_name_is_found_as_specified(t: str) -> None:
    assert [m.span() for m in FILE_NAME.finditer(t)] == _matches(t, file_name_at)


def test_the_reach_is_longer_than_the_generated_words() -> None:
    assert NAME_REACH > SHORT


@pytest.mark.parametrize("rx", [_PARAMETER, _FACT_TERM, KEY, FILE_NAME], ids=["parameter", "fact", "key", "file"])
@pytest.mark.parametrize("unit", ["a.", "--a", "a1.", "a", "1", "ab_", "a/"])
def test_a_long_word_is_read_in_linear_time(rx: re.Pattern[str], unit: str) -> None:
    """A word of 32,000 characters is read in milliseconds. Read to its end from every place, it took
    seconds: ``a.a.a…`` of 8,000 characters took 0.7 s (the setting), 1.0 s (the fact's term), 1.3 s
    (the bookkeeping shapes), four times as long it takes sixteen times that."""
    text = (unit * 32_000)[:32_000] + " x=1"
    best = math.inf
    for _ in range(3):  # the fastest of three: a busy machine slows one run, not the reading
        t0 = time.perf_counter()
        list(rx.finditer(text))
        best = min(best, time.perf_counter() - t0)
    assert best < 0.5
