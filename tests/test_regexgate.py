"""Gates only skip work: a pattern that can match a text is always among those its gates open.

The literals are derived from each regex's parse, so the property is checked on the real tables
(the evidence shapes of ``markers.toml`` and the number patterns), on every line of the golden and
held-out notes, and on generated text mixing the tables' own words with noise and case traps.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from e1prep.read import markers, numbers
from e1prep.text.regexgate import Gates, guarded, required_literals

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("pattern", "flags", "expected"),
    [
        (r"abc|de", 0, {"abc", "de"}),
        (r"x?yz", 0, {"yz"}),
        (r"\bread\b[^.]{0,9}\bfull\b", 0, {"read"}),
        (r"(?:只|仅)(?:读|看)", 0, {"只", "仅"}),
        (r"(?=abc)d", 0, {"d"}),  # a lookahead is not part of the match
        (r"a*", 0, None),  # may match nothing
        (r"[a-z]+\d", 0, None),  # classes name no literal
        (r"(?i:abc)", 0, None),  # a group that changes case folding gets no literal
        (r"(?:ab|[a-z])c", 0, {"c"}),  # one alternative without a literal: the sequence's other part
    ],
)
def test_required_literals(pattern: str, flags: int, expected: set[str] | None) -> None:
    found = required_literals(pattern, flags)
    assert (set(found) if found is not None else None) == expected


def _tables() -> list[re.Pattern[str]]:
    return [p.regex for p in markers.patterns()] + [rx for _, _, rx in numbers._PATTERNS]


def _lines() -> list[str]:
    out: list[str] = []
    for folder in ("evals/golden", "evals/heldout", "tests/data"):
        for path in sorted((ROOT / folder).rglob("*.md")):
            out += path.read_text(encoding="utf-8").split("\n")
    return out


def test_every_table_row_has_a_gate() -> None:
    """A row without literals always runs (sound, but slow): keep the tables gateable."""
    gates = Gates([p.regex for p in markers.patterns()])
    assert gates.always == frozenset()


def test_gates_never_close_a_pattern_that_matches_a_real_line() -> None:
    patterns = _tables()
    gates = Gates(patterns)
    lines = _lines()
    assert len(lines) > 500
    for line in lines:
        for target in (line, line.lower()):
            opened = gates.open(target)
            for n, rx in enumerate(patterns):
                if rx.search(target):
                    assert n in opened, (rx.pattern[:60], target[:80])


_WORDS = sorted({w for rx in _tables() for w in (required_literals(rx.pattern, rx.flags) or ())})
_NOISE = ["ſ", "ı", "İ", "\u212a", " ", "\n", "，", "1", "2026", "v0.3.1", "https://x.org/a/12", "SAYS", "Read"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + _NOISE) | st.text(max_size=4), max_size=12))
def test_gates_never_close_a_pattern_that_matches_generated_text(parts: list[str]) -> None:
    text = "".join(parts)
    patterns = _tables()
    gates = Gates(patterns)
    opened = gates.open(text)
    for n, rx in enumerate(patterns):
        if rx.search(text):
            assert n in opened, (rx.pattern[:60], text)


def test_a_case_folding_trap_opens_the_folded_patterns() -> None:
    """``re.I`` equates ``ſ`` with ``s``, ``str.lower`` does not: such a text opens every folded pattern."""
    rx = re.compile(r"\bsays\b", re.I)
    assert rx.search("tom ſays so")
    assert Gates([rx]).open("tom ſays so") == {0}
    assert Gates([rx]).open("tom writes so") == frozenset()


def test_find_with_gates_equals_find_running_every_row(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _lines()
    gated = [markers._find.__wrapped__(line, markers.ALL_KINDS) for line in lines]

    class Open:  # every row's gate, and the phrases' (the last), open
        def open(self, text: str) -> frozenset[int]:
            return frozenset(range(len(markers.patterns()) + 1))

    monkeypatch.setattr(markers, "_gates", Open)
    every = [markers._find.__wrapped__(line, markers.ALL_KINDS) for line in lines]
    assert gated == every
    assert sum(1 for hits in gated if hits) > 100  # the lines do state things


def _originals() -> list[re.Pattern[str]]:
    """The tables' patterns as written (without their start guards)."""
    out = []
    for rx in _tables():
        source = rx.pattern
        if source.startswith("(?=[") and "])(?:" in source:
            source = source[source.index("])(?:") + 5 : -1]
        out.append(re.compile(source, rx.flags))
    return out


def _spans(rx: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in rx.finditer(text)]


def test_every_guard_keeps_the_matches_of_its_pattern_on_real_lines() -> None:
    guarded_rows, originals = _tables(), _originals()
    assert sum(1 for a, b in zip(guarded_rows, originals, strict=True) if a.pattern != b.pattern) >= 10
    for line in _lines():
        for a, b in zip(guarded_rows, originals, strict=True):
            assert _spans(a, line) == _spans(b, line), (b.pattern[:60], line[:80])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + _NOISE) | st.text(max_size=4), max_size=12))
def test_every_guard_keeps_the_matches_of_its_pattern_on_generated_text(parts: list[str]) -> None:
    text = "".join(parts)
    for a, b in zip(_tables(), _originals(), strict=True):
        assert _spans(a, text) == _spans(b, text), (b.pattern[:60], text)


def test_a_pattern_ignoring_case_is_guarded_even_when_it_opens_with_a_literal() -> None:
    """Ignoring case, ``re`` gets no fast start from a cased literal: the guard (itself folded) does it."""
    rx = guarded(re.compile(r"abc|de", re.I))
    assert rx.pattern.startswith("(?=[ad])")
    assert [m.span() for m in rx.finditer("xABC De")] == [(1, 4), (5, 7)]


@pytest.mark.parametrize(
    ("pattern", "guarded_start"),
    [
        (r"(?<!\d)\d+%", r"(?=[\d])"),
        (r"\b(?:read|saw)\b", r"(?=[rs])"),
        (r"x?\d", r"(?=[x\d])"),
        (r"a*", None),  # may match nothing: no guard
        (r"[^a]b", None),  # a negated class: unknown
        (r"abc", None),  # re already starts at its literal
        (r"(?i)abc|de", None),  # global inline flags must open a pattern: it is left as it is
        (r"(?i:k)\d|x\d", r"(?=[x]|(?i:[k]))"),  # a scoped re.I group's first characters are tested folded
        (r"(?-i:a)b", None),  # a group that clears a flag: unknown
    ],
)
def test_guard_shapes(pattern: str, guarded_start: str | None) -> None:
    rx = guarded(re.compile(pattern))
    if guarded_start is None:
        assert rx.pattern == pattern
    else:
        assert rx.pattern.startswith(guarded_start)


@pytest.mark.parametrize("text", ["\u212a1", "K1", "k1", "x1", "X1"])
def test_a_folded_guard_keeps_what_the_folded_group_matches(text: str) -> None:
    """``(?i:k)`` also matches the Kelvin sign; the guard tests it folded, so it lets that start through."""
    plain = re.compile(r"(?<!\w)(?i:k)\d|(?<!\w)x\d")
    assert _spans(guarded(plain), text) == _spans(plain, text)


def test_the_number_scan_in_one_alternation_equals_the_scan_pattern_by_pattern() -> None:
    lines = [numbers._to_ascii_digits(line) for line in _lines()]
    same = [numbers._scan_all(line) == numbers._scan_each(line) for line in lines]
    assert all(same), lines[same.index(False)][:80]
    assert sum(1 for line in lines if numbers._scan_all(line)) > 300  # the lines do hold numbers


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + _NOISE) | st.text(max_size=4), max_size=12))
def test_the_number_scan_in_one_alternation_equals_it_on_generated_text(parts: list[str]) -> None:
    text = "".join(parts)
    if not text.isascii():
        text = numbers._to_ascii_digits(text)
    assert numbers._scan_all(text) == numbers._scan_each(text)


_PHRASES = [m.text for m in markers.markers()]


def test_the_phrase_gate_opens_wherever_a_phrase_matches_a_real_line() -> None:
    """Phrases are looked for only when their gate opens: it must open on every line one stands in."""
    gates, phrases = markers._gates(), markers._regex(markers.ALL_KINDS)
    matched = 0
    for line in _lines():
        if phrases.search(line.lower()):
            matched += 1
            assert markers._phrases_gate() in gates.open(line), line[:80]
    assert matched > 100


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PHRASES + _NOISE + ["ＡＢ", "ǅ", "ß"]) | st.text(max_size=4), max_size=10))
def test_the_phrase_gate_opens_wherever_a_phrase_matches_generated_text(parts: list[str]) -> None:
    text = "".join(parts)
    for case in (text, text.upper(), text.title()):
        if markers._regex(markers.ALL_KINDS).search(case.lower()):
            assert markers._phrases_gate() in markers._gates().open(case), case


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + _NOISE) | st.text(max_size=4), max_size=12))
def test_a_text_without_a_digit_holds_no_number(parts: list[str]) -> None:
    """``holds_no_token`` lets the scan skip the alternation: only where the alternation finds nothing."""
    text = numbers._to_ascii_digits("".join(parts))
    if numbers.holds_no_token(text):
        assert numbers._scan_all(text) == ()
    digitless = numbers._HAS_DIGIT.sub("", text)  # circled digits too
    assert numbers.holds_no_token(digitless) and numbers._scan_all(digitless) == ()


def test_the_golden_lines_without_their_digits_hold_no_number() -> None:
    lines = [numbers._HAS_DIGIT.sub("", numbers._to_ascii_digits(line)) for line in _lines()]
    assert [line for line in lines if numbers._scan_all(line)] == []
    assert sum(1 for line in lines if "://" in line) > 50  # URLs, whose digitless form the scan might read
