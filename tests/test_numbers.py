"""numbers.scan against the hand-labelled corpus, and normalize / occurs_in."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from e1prep.read import numbers
from e1prep.read.numbers import line_cores, normalize, number_cores, occurs_in

CORPUS = Path(__file__).parent / "data" / "number_corpus.jsonl"
ROWS = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def _id(n: int, row: dict[str, str]) -> str:
    return f"{n:03d}-{row['token'][:24]}"


def test_corpus_is_complete() -> None:
    assert len(ROWS) == 364
    assert all({"text", "token", "kind", "type"} <= set(r) for r in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[_id(n, r) for n, r in enumerate(ROWS)])
def test_corpus_token(row: dict[str, str]) -> None:
    text, token = row["text"], row["token"]
    start = text.find(token)
    assert start >= 0, "corpus row: token not in text"
    end = start + len(token)
    overlapping = [t for t in numbers.scan(text) if t.start < end and t.end > start]
    assert overlapping, f"no token found over {token!r} in {text!r}"
    tok = overlapping[0]
    assert (tok.kind, tok.type) == (row["kind"], row["type"]), f"{token!r} scanned as {tok.text!r}"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("１５５ 万亿", "155万亿"),
        ("１２．５％", "12.5%"),
        ("1,234,567 stars", "1234567stars"),
        ("64–128 卡", "64-128卡"),
        ("64—128", "64-128"),
        ("−3", "-3"),
        ("1〜2", "1~2"),
        ("12,34", "12,34"),  # not a thousands separator
    ],
)
def test_normalize(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


@pytest.mark.parametrize(
    ("needle", "hay", "found"),
    [
        ("15", "共 155 条", False),
        ("15", "共 15 条", True),
        ("55", "共 155 条", False),
        ("1.5", "11.5 倍", False),
        ("1.5", "1.55 倍", False),
        ("1.5", "约 1.5 倍", True),
        ("155 万亿", "线上规模１５５万亿 tokens", True),
        ("1,234", "总计 1234 ⭐", True),
        ("1234", "总计 1,234 ⭐", True),
        ("64–128 卡", "decode 用 64-128 卡超节点", True),
        ("64-128", "64—128", True),
        ("+63", "周增 +63", True),
        ("+63", "周增 +631", False),
        ("", "anything", False),
    ],
)
def test_occurs_in(needle: str, hay: str, found: bool) -> None:
    assert occurs_in(needle, normalize(hay)) is found


def test_scan_skips_urls_but_reports_issue_numbers() -> None:
    toks = numbers.scan("见 https://github.com/a/b/issues/1234 与 2026 年")
    assert [t.type for t in toks if t.type == "issue"] == ["issue"]
    assert not any(t.kind == "quantity" for t in toks)


def test_scan_consumes_every_digit_once() -> None:
    text = "prefill 用 8 卡机、decode 用 64–128 卡，吞吐提升 287%，成本 38 美元"
    toks = numbers.scan(text)
    spans = sorted((t.start, t.end) for t in toks)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    types = {t.text: t.type for t in toks}
    assert types["287%"] == "percent"
    assert types["38 美元"] == "money"
    assert types["64–128 卡"] == "range"


def test_number_cores_and_parse_value() -> None:
    assert numbers.number_cores("64–128 卡") == ("64", "128")
    assert numbers.number_cores("1,234.50") == ("1234.50",)
    assert numbers.parse_value("１,２３４ ⭐") == 1234.0
    assert numbers.parse_value("no digits") is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="0123456789,. \t０１，．-—xab\u3000\n", max_size=14), max_size=4))
def test_line_cores_equal_number_cores_of_each_normalised_line(lines: list[str]) -> None:
    """The verifier indexes the numerals of each line uncached; it must agree with the cached function."""
    norms = [normalize(line) for line in "\n".join(lines).split("\n")]
    assert [line_cores(n) for n in norms] == [tuple(dict.fromkeys(number_cores(n))) for n in norms]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_normalize_drops_exactly_what_backslash_s_matches(text: str) -> None:
    assert "".join(normalize(text).split()) == normalize(text)
    assert re.search(r"\s", normalize(text)) is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789,. \t０１，．-—xab\u3000\n\r\x0b", max_size=40))
def test_normalised_lines_joined_are_the_normalised_text(text: str) -> None:
    """The verifier normalises a material line by line and joins the lines for the whole text."""
    lines = text.split("\n")
    assert [numbers.normalize_line(line) for line in lines] == [normalize(line) for line in lines]
    assert "".join(numbers.normalize_line(line) for line in lines) == normalize(text)
