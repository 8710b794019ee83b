"""Extractions (v2) turned into brief objects: the one way a model's, an agent's or a reference reading enters.

Whoever read the material (a capable model behind the API, an agent worker with its own model, a
person writing reference answers) says what each item is; code adds what code knows better: the
document's hit counts, the item's URL when the reader left it out, and only section ids that
exist. Nothing is trusted further: the verifier checks every name, quote, level and number.

Items a reader calls ``lead``, ``stale``, ``off_topic`` or ``not_an_item`` become excluded entries
*and* verdicts: the pipeline moves a rules object of the same subject to the excluded list with that
reason (``e1prep.produce.unify``), so the exclusion is visible and never silent.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TypeVar

from pydantic import BaseModel

from ..brief.extraction import ExtractedItem, Extraction, ExtractionSet
from ..brief.models import (
    Contradiction,
    ContradictionKind,
    EvidenceLevel,
    Excluded,
    Increment,
    MaterialKind,
    MaterialStatus,
    NumberCitation,
    Refresh,
    SourceRef,
)
from ..brief.phrases import Lang, Phrases, phrases
from ..errors import InputError
from ..kb.knowledge import KnowledgeDoc
from ..kb.loading import KB, Material
from ..kb.numbering import SECTION_ID
from ..read.notes import note_items, url_only
from ..read.numbers import parse_value, quantities
from .producer import Production
from .routing import route

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)

_SECTION_ID = re.compile(SECTION_ID)

#: what an excluded entry says for each verdict (the reader's reason follows): ``data/phrases.toml`` ``[reader]``
VERDICTS = ("lead", "stale", "off_topic", "not_an_item")


def section_id(raw: str, doc: KnowledgeDoc) -> str | None:
    """The § id ``raw`` names, when the living document has that section (never one it lacks)."""
    m = _SECTION_ID.search(raw)
    if not m:
        return None
    sid = m.group(0).replace(" ", "")
    return sid if any(s.id == sid for s in doc.sections) else None


def suggested_section(raw: str, doc: KnowledgeDoc, text: str, name: str, say: Phrases | None = None) -> str | None:
    """建议归入: the reader's section when the document has it; else the section ``text`` routes to, or the
    line that says none matches well (``e1prep.produce.routing``): never a default, never one it lacks."""
    return section_id(raw, doc) or route(doc, text, name, [name]).said(say or phrases())


def item_url(item: ExtractedItem, material: Material) -> str | None:
    """The reader's URL; else the card's, or that of the note item whose text names the item."""
    if item.url.strip():
        return item.url.strip()
    if material.kind in (MaterialKind.repo_card, MaterialKind.paper_card):
        url = material.front.get("url")
        return url if isinstance(url, str) else None
    if material.kind not in (MaterialKind.inbox_note, MaterialKind.other):
        return None
    low = item.name.strip().lower()
    for note_item in note_items(material):
        if low and low in note_item.text.lower() and note_item.url:
            return note_item.url
    return None


def _citation(text: str, quote: str, level: EvidenceLevel, path: str) -> NumberCitation:
    return NumberCitation(
        text=text.strip(),
        value=parse_value(text),
        evidence=level,
        source=SourceRef(path=path, quote=quote.strip() or None),
        quotable=level.quotable,
    )


def document_citations(texts: list[str], doc: KnowledgeDoc, cited: list[NumberCitation]) -> list[NumberCitation]:
    """Citations, to the living document, of the numbers a reader's text quotes from it (``§1.1 already
    records 152ms→42ms``): graded ``card``, never quotable. A number found neither among the item's
    citations nor on a line of the document is left for the verifier to find."""
    have = {c.text for c in cited}
    out: list[NumberCitation] = []
    for text in texts:
        for tok in quantities(text):
            if tok.text in have:
                continue
            line = _line_holding(doc.text, tok.text)
            if line is not None:
                have.add(tok.text)
                out.append(_citation(tok.text, line, EvidenceLevel.card, doc.path))
    return out


def _line_holding(text: str, needle: str) -> str | None:
    """The first line of ``text`` that holds ``needle``, stripped (found in the text, not line by line)."""
    at = text.find(needle)
    if at < 0:
        return None
    end = text.find("\n", at)
    return text[text.rfind("\n", 0, at) + 1 : end if end >= 0 else len(text)].strip()


def material_words(quote: str, material: Material) -> str:
    """``quote`` when the material holds it verbatim (spaces aside), else "": a level is justified by
    the material's own words, never by a paraphrase."""
    wanted = " ".join(quote.split())
    return quote.strip() if wanted and wanted in _spaced(material.text) else ""


@lru_cache(maxsize=16)  # asked once per item of a material (a str's hash is computed once)
def _spaced(text: str) -> str:
    return " ".join(text.split())


def _relation(item: ExtractedItem, say: Phrases) -> str:
    note = item.relation.note.strip()
    if item.kind == "update" and item.reason.strip() and item.reason.strip() not in note:
        return say.join((x for x in (note, say("reader.new_fact", fact=item.reason.strip())) if x), "semi")
    return note


def add_item(
    item: ExtractedItem, material: Material, doc: KnowledgeDoc, out: Production, producer: str, say: Phrases
) -> None:
    """Append the objects one extracted item stands for to ``out``, worded in the brief's language (``say``)."""
    name = " ".join(item.name.split())
    if not name:
        return
    level = EvidenceLevel(item.level)
    path = material.path
    numbers = [
        _citation(n.text, n.quote, EvidenceLevel(n.level) if n.level else level, path)
        for n in item.numbers
        if n.text.strip()
    ]
    url = item_url(item, material)
    bare = [u for p in item.points if (u := url_only(p))]  # a URL alone is no key point: it is the item's URL
    url = url or next(iter(bare), None)
    hits = [doc.search(name)]
    points = [p.strip() for p in item.points if p.strip() and not url_only(p)]
    relation = _relation(item, say)
    # the sections the reader says already touch the item are hints among its words
    said = "\n".join([*points, relation, *item.boundary, *item.relation.sections])
    # the reader's section when the document has it, else one its relation names, else routed
    section = suggested_section(item.section, doc, said, name, say) if section_id(item.section, doc) else None
    section = section or next((sid for raw in item.relation.sections if (sid := section_id(raw, doc))), None)
    section = section or suggested_section("", doc, said, name, say)
    summary = item.reason.strip() or item.relation.note.strip() or (points[0] if points else "")
    # what the reader says of the document, with the document's numbers cited to it
    numbers += document_citations([relation if item.kind in ("new", "update") else summary], doc, numbers)
    if item.kind in ("new", "update"):
        out.increments.append(
            Increment(
                key=name,
                title=name,
                kind=item.kind,
                sources=[path],
                url=url,
                evidence=level,
                evidence_note=material_words(item.level_quote, material),
                points=points,
                relation=relation,
                doc_hits=hits,
                section=section,
                boundary=[b.strip() for b in item.boundary if b.strip()],
                numbers=numbers,
                producer=producer,
            )
        )
    elif item.kind == "known":
        out.refreshes.append(
            Refresh(
                key=name,
                sources=[path],
                url=url,
                evidence=level,
                summary=summary,
                doc_hits=hits,
                numbers=numbers,
                producer=producer,
            )
        )
    else:
        verdict_label = say(f"reader.{item.kind}")
        why = item.reason.strip()
        reason = say("reader.verdict_why", verdict=verdict_label, why=why) if why else verdict_label
        verdict = Excluded(
            key=name,
            sources=[path],
            evidence=level,
            reason=say("reader.verdict", reason=reason, producer=producer),
            url=url,
        )
        out.verdicts.append(verdict)
    for conflict in item.conflicts:
        claim = conflict.claim.strip()
        cited = [c for c in numbers if c.text in claim or c.text in conflict.detail]
        cited += document_citations([claim, conflict.detail], doc, cited)
        out.contradictions.append(
            Contradiction(
                key=name,
                kind=ContradictionKind(conflict.kind),
                sources=[path],
                evidence=level,
                claim=claim,
                detail=conflict.detail.strip(),
                action=say("reader.conflict_action"),
                location=SourceRef(path=path, url=url, quote=conflict.quote.strip() or None),
                numbers=cited,
                producer=producer,
            )
        )


def said_once(items: Iterable[M]) -> list[M]:
    """The items of an answer, an item said twice word for word counted once (small models repeat)."""
    return list({item.model_dump_json(): item for item in reversed(list(items))}.values())[::-1]


def add_extraction(
    extraction: Extraction,
    material: Material,
    doc: KnowledgeDoc,
    out: Production,
    producer: str,
    say: Phrases | None = None,
) -> None:
    """Append the objects of one material's (or one chunk's) extraction; an item said twice counts once.
    ``say``: the brief's phrases (default: Chinese)."""
    say = say or phrases()
    for item in said_once(extraction.items):
        add_item(item, material, doc, out, producer, say)


class ExtractedProducer:
    """A producer that reads nothing itself: it turns extractions someone else made into objects.

    ``extractions`` maps a material path of the manifest to its extraction. A path the manifest
    does not hold is an ``InputError`` (scope is exactly the manifest); a material with no
    extraction is left to the rules, which run under every backend. ``lang``: the language of the
    sentences it adds (a verdict's reason, a conflict's action); the readers' own words stay as written.
    """

    def __init__(
        self, extractions: ExtractionSet | Mapping[str, Extraction], *, name: str | None = None, lang: Lang = "zh"
    ) -> None:
        self.say: Phrases = phrases(lang)
        self.lang: Lang = self.say.lang
        if isinstance(extractions, ExtractionSet):
            self.extractions = dict(extractions.materials)
            self.name = name or extractions.origin.kind
            self.by = extractions.origin.by
        else:
            self.extractions = dict(extractions)
            self.name = name or "agent"
            self.by = ""

    def produce(self, kb: KB, doc: KnowledgeDoc) -> Production:
        by_path = {m.path: m for m in kb.materials}
        unknown = sorted(set(self.extractions) - set(by_path))
        if unknown:
            raise InputError(kb.root, f"extractions name materials outside the manifest: {', '.join(unknown)}")
        out = Production(model=self.by or None)
        for path, extraction in self.extractions.items():
            material = by_path[path]
            if material.status is not MaterialStatus.read:
                log.warning("%s: %s, its extraction is not used", path, material.status.value)
                continue
            add_extraction(extraction, material, doc, out, self.name, self.say)
        missing = [m.path for m in kb.materials if m.status is MaterialStatus.read and m.path not in self.extractions]
        if missing:
            log.info(
                "%d materials without an extraction are read by the rules alone: %s", len(missing), ", ".join(missing)
            )
        return out
