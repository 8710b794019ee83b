"""The verifier measured on both sides (evals/verifier): nothing honest refused, every forgery caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from e1prep.evals.roc import RocReport, apply_ops, measure
from e1prep.verify.values import Value, bears, date_of, digits_alike, hidden, values

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def roc() -> RocReport:
    return measure(ROOT / "evals" / "verifier", ROOT / "evals" / "golden")


def test_no_honest_object_is_rejected(roc: RocReport) -> None:
    assert roc.honest_objects >= 45
    assert [(h.case, h.rejected) for h in roc.honest if h.rejected] == []


def test_every_repair_of_an_honest_brief_is_justified_by_its_expectations(roc: RocReport) -> None:
    assert [(h.case, h.unexpected, h.stale) for h in roc.honest if h.unexpected or h.stale] == []


def test_every_forgery_is_caught_by_its_rule(roc: RocReport) -> None:
    forged = [f for f in roc.forgeries if f.expect is not None]
    assert len(forged) >= 80
    assert [(f.id, f.expect, f.new_rules) for f in forged if not f.caught] == []


def test_every_honest_rewrite_passes(roc: RocReport) -> None:
    equivalent = [f for f in roc.forgeries if f.expect is None]
    assert equivalent
    assert [(f.id, f.new_rules) for f in equivalent if not f.caught] == []


def test_json_patch_operations() -> None:
    data = {"a": [1, 2], "b": {"c": "x"}}
    out = apply_ops(
        data,
        [
            {"op": "add", "path": "/a/-", "value": 3},
            {"op": "add", "path": "/a/0", "value": 0},
            {"op": "replace", "path": "/b/c", "value": "y"},
            {"op": "remove", "path": "/a/1"},
            {"op": "add", "path": "/b/d~1e", "value": 1},
        ],
    )
    assert out == {"a": [0, 2, 3], "b": {"c": "y", "d/e": 1}}
    assert data == {"a": [1, 2], "b": {"c": "x"}}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("12%", "12 %"),
        ("12%", "１２％"),
        ("12,000", "12000"),
        ("1.2万", "12000"),
        ("+63", "63"),
        ("5K tok/s", "5000 tok/s"),
    ],
)
def test_equal_numbers_compare_equal(a: str, b: str) -> None:
    assert values(a) and all(x.same(y) for x, y in zip(values(a), values(b), strict=True))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("12%", "12 倍"),
        ("12%", "-12%"),
        ("12%", "12 ms"),
        ("38 美元", "38 万美元"),
        ("155 万亿", "155 亿"),
        ("42.3ms", "42.3s"),
    ],
)
def test_a_changed_unit_magnitude_sign_or_kind_is_another_number(a: str, b: str) -> None:
    assert not values(a)[0].same(values(b)[0])


def test_a_card_field_bears_the_number_a_brief_writes() -> None:
    assert bears("stars_weekly: 63", "+63")
    assert bears("- stars: 191", "191 ⭐")
    assert not bears("成本 每卡每小时 38 美元", "38 万美元")


def test_numbers_written_without_digits() -> None:
    found = {
        said: value for _s, _e, said, value in hidden("吞吐约三倍，提升百分之三十五，规模一百五十五万亿 tokens，② 倍")
    }
    assert found["三倍"] == Value(3.0, "multiplier", None)
    assert found["百分之三十五"] == Value(35.0, "percent", None)
    assert found["② 倍"].amount == 2.0
    assert any(v.amount == 1.55e14 for v in found.values())
    assert hidden("这是一个例子，两个人") == []
    assert digits_alike(1.55e10, 1.55e14) and not digits_alike(3.0, 30.0)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("2026-10-17", (2026, 10, 17)),
        ("Oct 17", (0, 10, 17)),
        ("OCT. 20, 2026", (2026, 10, 20)),
        ("10月17日", (0, 10, 17)),
    ],
)
def test_dates_in_common_forms(text: str, day: tuple[int, int, int]) -> None:
    assert date_of(text) == day
