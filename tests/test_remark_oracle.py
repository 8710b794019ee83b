"""The reader against remarks labelled by another hand (evals/remarks/oracle.jsonl)."""

from __future__ import annotations

from pathlib import Path

import pytest

from e1prep.brief.models import EvidenceLevel
from e1prep.evals.remark_oracle import read_level, score

ORACLE = Path(__file__).resolve().parents[1] / "evals" / "remarks" / "oracle.jsonl"


def test_never_reads_a_full_read_that_the_labeller_did_not() -> None:
    result = score(ORACLE)
    assert result.total >= 300
    overstated = [w for w in result.wrong if w[2] == "verified"]
    assert not overstated, overstated
    assert result.figures()["remarks_verified_precision"] == 1.0


def test_accuracy_is_reported_and_above_its_floor() -> None:
    assert score(ORACLE).accuracy >= 0.85


@pytest.mark.parametrize(
    ("remark", "legend", "level"),
    [
        ("✔", "图例：✔ 全文读过 / ◑ 读了一部分 / ◯ 只有摘要 / ✘ 打不开", EvidenceLevel.verified),
        ("◑", "图例：✔ 全文读过 / ◑ 读了一部分 / ◯ 只有摘要 / ✘ 打不开", EvidenceLevel.partial),
        # one legend entry may hold a separator of its own: '◐ 读了一半 / 正文截断' is one entry
        ("◐", "图例：● 全文读过 ◐ 读了一半 / 正文截断 ○ 只看摘要", EvidenceLevel.partial),
        ("★", "证据标记：★★★ 全文 / ★★ 部分 / ★ 摘要 / ☆ 未读", EvidenceLevel.summary),
        ("★★★", "证据标记：★★★ 全文 / ★★ 部分 / ★ 摘要 / ☆ 未读", EvidenceLevel.verified),
        # a legend the note defines against intuition is obeyed
        ("✅", "图例：✅ 已入库（未读） / 📖 已读全文 / 📄 只读摘要", EvidenceLevel.unverified),
        # an unlabelled legend line is recognised by its shape
        ("🟡", "🟢 = full original read; 🟡 = paywalled/truncated; 🔴 = snippet only", EvidenceLevel.partial),
    ],
)
def test_legends_by_shape(remark: str, legend: str, level: EvidenceLevel) -> None:
    assert read_level(remark, legend) is level
