"""Score the evidence reader against labelled check remarks written by another hand.

``evals/remarks/oracle.jsonl`` holds remarks (with the note's legend line where the remark uses
its symbols) and the level a person gave each, labelled without reading the marker table. Each
remark is read exactly as a note's item would be: as the item's ``核查：`` line, the legend as a
line of the note outside the item. Precision on ``verified`` is the figure that must be 1.00: the
reader may miss a full read, never invent one.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..brief.models import EvidenceLevel
from ..errors import InputError
from ..read import evidence
from ..read.markers import RANK
from ..read.notes import read_evidence

LEVELS = [level.value for level in EvidenceLevel]
_LABELLED = ("核查", "check", "evidence", "status", "verification")


@dataclass
class OracleResult:
    """A confusion table over (labelled level, level read)."""

    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    wrong: list[tuple[str, str, str, str]] = field(default_factory=list)  # id, labelled, read, remark

    @property
    def total(self) -> int:
        return sum(self.confusion.values())

    @property
    def accuracy(self) -> float:
        right = sum(n for (want, got), n in self.confusion.items() if want == got)
        return right / self.total if self.total else 1.0

    @property
    def over_reads(self) -> int:
        """Remarks read at a more permissive level than their label: the side of the gate that lets through."""
        rank = {level.value: RANK[level] for level in EvidenceLevel}
        return sum(n for (want, got), n in self.confusion.items() if rank[got] > rank[want])

    def precision(self, level: str) -> float | None:
        predicted = sum(n for (_, got), n in self.confusion.items() if got == level)
        return self.confusion[(level, level)] / predicted if predicted else None

    def recall(self, level: str) -> float | None:
        actual = sum(n for (want, _), n in self.confusion.items() if want == level)
        return self.confusion[(level, level)] / actual if actual else None

    def figures(self) -> dict[str, float]:
        """The figures the eval gates: accuracy and ``verified`` precision (1.0 when none is read)."""
        verified = self.precision("verified")
        return {
            "remarks_accuracy": round(self.accuracy, 3),
            "remarks_verified_precision": round(1.0 if verified is None else verified, 3),
        }

    def table(self) -> str:
        lines = [f"{'level':12} {'precision':>9} {'recall':>7} {'read':>5} {'labelled':>8}"]
        for level in LEVELS:
            p, r = self.precision(level), self.recall(level)
            read = sum(n for (_, got), n in self.confusion.items() if got == level)
            labelled = sum(n for (want, _), n in self.confusion.items() if want == level)
            lines.append(
                f"{level:12} {'—' if p is None else f'{p:.2f}':>9} {'—' if r is None else f'{r:.2f}':>7} "
                f"{read:5d} {labelled:8d}"
            )
        lines.append(f"accuracy {self.accuracy:.3f} over {self.total} remarks")
        return "\n".join(lines)


def read_level(remark: str, legend: str | None) -> EvidenceLevel:
    """The level the reader gives ``remark`` standing as one item's check line under ``legend``."""
    lines = [legend] if legend else []
    line = remark if remark.strip().lower().startswith(_LABELLED) else f"核查：{remark}"
    text = f"### 1. Item\n- URL: https://example.com/item\n- {line}"
    ctx = evidence.note_context(lines, list(range(len(lines))), [1])
    return read_evidence(text, ctx, 1).level


def score(path: Path) -> OracleResult:
    """Read every labelled remark of ``path`` (JSON lines) and tabulate against its label."""
    try:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(path, f"not JSON lines: {exc}") from None
    result = OracleResult()
    for row in rows:
        got = read_level(str(row["remark"]), row.get("legend")).value
        result.confusion[(str(row["level"]), got)] += 1
        if got != row["level"]:
            result.wrong.append((str(row["id"]), str(row["level"]), got, str(row["remark"])))
    return result
