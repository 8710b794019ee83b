"""The objects of a brief (pydantic v2); everything else produces, checks or renders these."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = "1"


class EvidenceLevel(StrEnum):
    """证据等级: how far a claim was checked (see the KB contract)."""

    verified = "verified"
    partial = "partial"
    summary = "summary"
    snippet = "snippet"
    card = "card"
    vendor = "vendor"
    unverified = "unverified"

    @property
    def label(self) -> str:
        return EVIDENCE_LABELS[self]

    @property
    def quotable(self) -> bool:
        """May a number at this level be stated as a finding? Only ``verified``."""
        return self is EvidenceLevel.verified


EVIDENCE_LABELS: dict[EvidenceLevel, str] = {
    EvidenceLevel.verified: "原文已核查",
    EvidenceLevel.partial: "部分核查",
    EvidenceLevel.summary: "仅摘要",
    EvidenceLevel.snippet: "搜索片段",
    EvidenceLevel.card: "卡片采集",
    EvidenceLevel.vendor: "厂商自述",
    EvidenceLevel.unverified: "未核实",
}

EVIDENCE_LABELS_EN: dict[EvidenceLevel, str] = {
    EvidenceLevel.verified: "original verified",
    EvidenceLevel.partial: "partially checked",
    EvidenceLevel.summary: "summary only",
    EvidenceLevel.snippet: "search snippet",
    EvidenceLevel.card: "card metadata",
    EvidenceLevel.vendor: "vendor claim",
    EvidenceLevel.unverified: "unverified",
}


class MaterialStatus(StrEnum):
    """What became of one material of the manifest."""

    read = "read"
    missing = "missing"
    unreadable = "unreadable"
    failed = "failed"
    refused = "refused"


class MaterialKind(StrEnum):
    inbox_note = "inbox_note"
    repo_card = "repo_card"
    paper_card = "paper_card"
    knowledge = "knowledge"
    other = "other"


class ContradictionKind(StrEnum):
    """Kinds of registered conflicts; the first group is found by rules, the rest by reading."""

    count_mismatch = "count_mismatch"
    weekly_exceeds_total = "weekly_exceeds_total"
    version_mismatch = "version_mismatch"
    stale = "stale"
    bilingual_mismatch = "bilingual_mismatch"
    card_sections_mismatch = "card_sections_mismatch"
    not_quotable = "not_quotable"
    access_blocked = "access_blocked"
    injection_suspected = "injection_suspected"
    incomparable_numbers = "incomparable_numbers"
    claim_tension = "claim_tension"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_enum_values=False)


def field_or(obj: object, name: str, default: Any = None) -> Any:
    """``getattr(obj, name, default)``, for a model without the exception pydantic raises inside for
    a field the model lacks (a few microseconds each, per object of a large brief)."""
    fields = getattr(type(obj), "model_fields", None)
    if fields is None:
        return getattr(obj, name, default)
    return getattr(obj, name) if name in fields else default


class SourceRef(_Model):
    """Where a claim or number comes from: a material (or the living document) and the verbatim quote."""

    path: str = Field(description="Material path relative to the KB root.")
    url: str | None = None
    line_start: int | None = Field(default=None, ge=1)
    line_end: int | None = Field(default=None, ge=1)
    quote: str | None = Field(default=None, description="Verbatim text from the material.")


class NumberCitation(_Model):
    """One number as written, with its evidence level and where it was read."""

    text: str = Field(description="The number as written, e.g. '155 万亿' or '+63'.")
    value: float | None = None
    unit: str | None = None
    evidence: EvidenceLevel
    source: SourceRef
    quotable: bool


class DocHits(_Model):
    """How often a name occurs in the living document, and in which sections."""

    # frozen: one search's answer is shared by every object that names the term
    model_config = ConfigDict(extra="forbid", use_enum_values=False, frozen=True)
    term: str
    hits: int = Field(ge=0)
    sections: list[str] = Field(default_factory=list)


class CountChange(_Model):
    """A collected count that moved: old value from the living document, new from the card."""

    field: str
    old: str | None = None
    new: str
    old_date: str | None = None
    new_date: str | None = None


class Increment(_Model):
    """Something genuinely new against the living document (or a real update of a known item)."""

    key: str
    title: str = ""
    kind: Literal["new", "update"] = "new"
    sources: list[str] = Field(min_length=1)
    url: str | None = None
    evidence: EvidenceLevel
    evidence_note: str = ""
    points: list[str] = Field(default_factory=list, description="要点: findings at the item's level.")
    relation: str = Field(default="", description="与活文档的关系.")
    doc_hits: list[DocHits] = Field(default_factory=list)
    section: str | None = Field(default=None, description="建议归入: a section of the living document.")
    boundary: list[str] = Field(default_factory=list, description="证据边界: limits and non-quotable numbers.")
    numbers: list[NumberCitation] = Field(default_factory=list)
    producer: str = "rules"


class Refresh(_Model):
    """Rechecked, not new: already in the living document, at most a moved count."""

    key: str
    sources: list[str] = Field(min_length=1)
    url: str | None = Field(default=None, description="The subject's URL, when a reader gave one.")
    evidence: EvidenceLevel
    summary: str = ""
    changes: list[CountChange] = Field(default_factory=list)
    doc_hits: list[DocHits] = Field(default_factory=list)
    numbers: list[NumberCitation] = Field(default_factory=list)
    producer: str = "rules"


class Contradiction(_Model):
    """A registered conflict or claim to verify: never resolved by guessing."""

    key: str
    kind: ContradictionKind
    sources: list[str] = Field(min_length=1)
    evidence: EvidenceLevel
    claim: str = ""
    detail: str = ""
    action: str = ""
    location: SourceRef | None = None
    numbers: list[NumberCitation] = Field(default_factory=list)
    producer: str = "rules"
    members: list[str] = Field(
        default_factory=list,
        description="A grouped registration: the keys of every item of this kind in this material (key: the first).",
    )

    @property
    def stands_for(self) -> int:
        """How many items this line stands for: a group its members, any other line itself."""
        return len(self.members) or 1


class Anchor(_Model):
    """An arXiv id that appears in the materials, with its status in the living document."""

    key: str
    arxiv: str = Field(pattern=r"^\d{4}\.\d{4,5}$")
    title: str = ""
    status: Literal["anchored", "new"]
    sections: list[str] = Field(default_factory=list)
    sources: list[str] = Field(min_length=1)
    evidence: EvidenceLevel = Field(
        default=EvidenceLevel.card, description="The level of the best-read item of the materials that cites it."
    )
    citable: bool = Field(
        default=True,
        description="Whether the id may be cited: the living document anchors it, or an item read in full or in "
        "part, or a paper card of its own, cites it.",
    )
    reason: str = Field(default="", description="Why the id is not citable (it is listed, never dropped).")


class Candidate(_Model):
    """A spot-checked paper card outside the manifest: a candidate, never counted as material."""

    arxiv: str | None = None
    title: str = ""
    path: str
    status: Literal["anchored", "new", "unknown"] = "unknown"
    note: str = ""


class Excluded(_Model):
    """An item that was read and deliberately not drawn into the brief, with the reason."""

    key: str
    sources: list[str] = Field(min_length=1)
    evidence: EvidenceLevel
    reason: str
    url: str | None = None
    members: list[str] = Field(
        default_factory=list,
        description="A group: the keys of every item excluded from this material for this reason.",
    )

    @property
    def stands_for(self) -> int:
        """How many items this line stands for: a group its members, any other line itself."""
        return len(self.members) or 1


class Action(_Model):
    """One of tonight's smallest edits."""

    text: str
    section: str | None = None
    keys: list[str] = Field(default_factory=list)


class SourceEntry(_Model):
    """One checked source and what became of it."""

    path: str
    role: Literal["material", "spot_check", "baseline"] = "material"
    kind: MaterialKind = MaterialKind.other
    status: MaterialStatus
    reason: str = ""
    items: int = 0
    encoding: str | None = None
    warnings: list[str] = Field(default_factory=list)


class Violation(_Model):
    """One breach of a verifier rule."""

    path: str = Field(description="Object path, e.g. 'increments[0].points[2]'.")
    rule: str
    text: str
    reason: str
    level: EvidenceLevel | None = Field(
        default=None, description="The level the material supports, where the rule compares levels."
    )


RepairAction = Literal["moved-to-boundary", "marked-unverified", "level-capped", "removed", "corrected"]


class Repair(_Model):
    """A claim that failed a check and was repaired in place of rejecting its object: what and how."""

    list_name: Literal["increments", "refreshes", "contradictions", "anchors", "brief"]
    key: str
    path: str = Field(description="Where the claim stood before the repair, e.g. 'increments[0].points[2]'.")
    rule: str
    text: str
    reason: str
    action: RepairAction
    producer: str = "rules"


class Rejected(_Model):
    """An object the verifier refused, kept with its reasons (nothing is dropped silently)."""

    list_name: Literal["increments", "refreshes", "contradictions", "anchors"]
    key: str
    producer: str = "rules"
    violations: list[Violation]
    item: dict[str, object]


class Baseline(_Model):
    """The living document the batch is measured against."""

    path: str
    version: str | None = None
    lines: int = 0
    anchors: int = 0
    sections: int = 0


class Header(_Model):
    job: str
    item: str
    topic: str
    date: str
    score: float | None = None
    output: str | None = None


class Usage(_Model):
    calls: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_hits: int = 0
    failures: int = 0


class RunInfo(_Model):
    backend: str
    model: str | None = None
    prompt_versions: dict[str, str] = Field(default_factory=dict)
    usage: Usage = Field(default_factory=Usage)
    tool_version: str
    schema_version: str = SCHEMA_VERSION
    first_pass: str = ""


class Brief(_Model):
    """The E1 pre-digestion brief: what the tool writes as JSON and renders as Markdown."""

    schema_version: str = SCHEMA_VERSION
    header: Header
    baseline: Baseline
    judgement: str = ""
    increments: list[Increment] = Field(default_factory=list)
    refreshes: list[Refresh] = Field(default_factory=list)
    contradictions: list[Contradiction] = Field(default_factory=list)
    anchors: list[Anchor] = Field(default_factory=list)
    candidates: list[Candidate] = Field(default_factory=list)
    excluded: list[Excluded] = Field(default_factory=list)
    actions: list[Action] = Field(default_factory=list)
    do_not: list[str] = Field(default_factory=list)
    sources: list[SourceEntry] = Field(default_factory=list)
    rejected: list[Rejected] = Field(default_factory=list)
    repairs: list[Repair] = Field(default_factory=list, description="Claims the verifier repaired, with their rule.")
    run: RunInfo
