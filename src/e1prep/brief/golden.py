"""The golden case format (``evals/golden/<case>/expected.json``), derived from the hand-written briefs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import InputError, validation_problem
from .models import ContradictionKind, EvidenceLevel


class _Golden(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ExpectedObject(_Golden):
    key: str
    aliases: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    evidence: EvidenceLevel | None = None
    section: str | None = None
    url: str | None = None
    note: str | None = None


class ExpectedContradiction(ExpectedObject):
    kind: ContradictionKind
    rule_findable: bool = True


class ExpectedAnchor(_Golden):
    arxiv: str
    status: Literal["anchored", "new"]


class ExpectedNumber(_Golden):
    text: str
    source: str
    evidence: EvidenceLevel


class GoldenCase(_Golden):
    case: str
    seed: str
    date: str
    topic: str
    item: str
    materials: int
    increments: list[ExpectedObject] = Field(default_factory=list)
    refreshes: list[ExpectedObject] = Field(default_factory=list)
    contradictions: list[ExpectedContradiction] = Field(default_factory=list)
    anchors: list[ExpectedAnchor] = Field(default_factory=list)
    not_quotable: list[ExpectedNumber] = Field(default_factory=list)
    distractors: list[ExpectedObject] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


def load_golden(path: str | Path) -> GoldenCase:
    where = Path(path)
    try:
        return GoldenCase.model_validate(json.loads(where.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise InputError(where, "no such file") from None
    except json.JSONDecodeError as exc:
        raise InputError(where, f"is not valid JSON ({exc.msg}, line {exc.lineno})") from None
    except ValidationError as exc:
        loc, msg = validation_problem(exc)
        raise InputError(where, f"does not match the golden case format at {loc}: {msg}") from None
