"""The extraction contract, v2: what a careful reader (a capable model, an agent, a person) says of a material.

One ``Extraction`` lists every item of one material, each with its kind against the living
document, its evidence level and the material's own words that justify it, its findings, its
numbers with their verbatim quotes, its evidence boundary, its relation to the document and its
conflicts. ``e1prep.produce.extracted`` turns extractions into brief objects; the verifier then
checks them like any other object. The JSON Schema is published as ``extraction.schema.json``.

Nothing here is trusted: a quote that is not in the material, a level the material does not
support, or a number without a quotable citation is caught by the verifier, not by these models.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .models import ContradictionKind

EXTRACTION_SCHEMA_VERSION: Literal["2"] = "2"

Level = Literal["verified", "partial", "summary", "snippet", "card", "vendor", "unverified"]
ItemKind = Literal["new", "update", "lead", "known", "stale", "off_topic", "not_an_item"]
ConflictKind = Literal[
    "claim_tension",
    "version_mismatch",
    "count_mismatch",
    "weekly_exceeds_total",
    "stale",
    "bilingual_mismatch",
    "incomparable_numbers",
    "not_quotable",
    "access_blocked",
    "injection_suspected",
]
assert set(ConflictKind.__args__) <= {k.value for k in ContradictionKind}  # type: ignore[attr-defined]


class _Part(BaseModel):
    # a model's answer may carry fields of its own: they are ignored, never an error
    model_config = ConfigDict(extra="ignore")


class ExtractedNumber(_Part):
    """One number as the material writes it, with the sentence that holds it."""

    text: str = Field(min_length=1, max_length=60, description="The number exactly as written, e.g. '94' or '+63'.")
    quote: str = Field(
        min_length=1, max_length=400, description="The material's own sentence containing the number, verbatim."
    )
    level: Level | None = Field(
        default=None,
        description="This number's evidence level when it differs from the item's (e.g. a vendor figure "
        "inside a verified item); empty: the item's level.",
    )


class DocRelation(_Part):
    """How the item stands to the living document."""

    sections: list[str] = Field(
        default_factory=list, description="§ ids of the document's sections that already touch it (from the facts)."
    )
    note: str = Field(
        default="", max_length=400, description="One sentence: what the document holds and what this adds."
    )


class ExtractedConflict(_Part):
    """A conflict inside the material or with the document: registered, never resolved by guessing."""

    claim: str = Field(min_length=1, max_length=400, description="The claim in question, in the material's words.")
    kind: ConflictKind = "claim_tension"
    detail: str = Field(
        default="", max_length=400, description="Why it cannot be trusted yet, or what it conflicts with."
    )
    quote: str = Field(default="", max_length=400, description="The material's own sentence, verbatim.")


class ExtractedItem(_Part):
    """One item of a material (a project, paper, release, claim) as a careful reader reports it."""

    name: str = Field(min_length=1, max_length=120, description="The item's name, copied from the material.")
    aliases: list[str] = Field(default_factory=list, description="Other names the material uses for it.")
    kind: ItemKind = Field(
        description="new: the document does not cover it; update: a known subject with a new fact (version, "
        "capability, measurement); lead: read too thinly (a snippet, a summary, a headline, a page that did not "
        "open) to be an increment or a recheck tonight, whether or not the document covers the subject: a lead "
        "to check; known: rechecked, nothing new (a moved count is known); stale: old content (an old issue or "
        "post pushed again), not news; off_topic: outside the topic; not_an_item: a heading, a note to self, a "
        "list of links, an index, an introductory overview, not a subject."
    )
    level: Level = Field(description="Evidence level id, from the material's own statement of how it was read.")
    level_quote: str = Field(
        default="", max_length=400, description="The material's verbatim words that justify the level, or empty."
    )
    url: str = Field(default="", max_length=400, description="The item's URL as the material gives it, or empty.")
    points: list[str] = Field(
        default_factory=list, description="Finding sentences at the item's level, in the material's words."
    )
    numbers: list[ExtractedNumber] = Field(default_factory=list, description="Every number a point or line relies on.")
    boundary: list[str] = Field(
        default_factory=list,
        description="Evidence-boundary lines: what was not read, which numbers are not quotable and why.",
    )
    relation: DocRelation = Field(default_factory=DocRelation)
    section: str = Field(default="", max_length=40, description="§ id of the section it should go to, or empty.")
    conflicts: list[ExtractedConflict] = Field(default_factory=list)
    reason: str = Field(
        default="",
        max_length=400,
        description="For update: the new fact; for any other kind but new: why, in a sentence.",
    )


class Extraction(_Part):
    """Every item of one material (or of one chunk of it, when a model reads it in parts)."""

    items: list[ExtractedItem] = Field(default_factory=list)


class Origin(BaseModel):
    """Who wrote a set of extractions: a model (with its name), an agent, or a person writing reference answers."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["model", "agent", "reference"]
    by: str = Field(default="", description="The model, agent or person.")
    note: str = ""


class ExtractionSet(BaseModel):
    """Extractions of a batch's materials, keyed by material path (relative to the KB root)."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal["2"] = EXTRACTION_SCHEMA_VERSION
    origin: Origin
    case: str = Field(default="", description="The batch (e.g. a golden case folder), for the reader.")
    materials: dict[str, Extraction] = Field(default_factory=dict)
