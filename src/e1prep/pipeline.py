"""draft_brief: manifest → load → produce → detect → merge → verify → Brief (one way, no writes)."""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ._version import __version__
from .brief.extraction import Extraction, ExtractionSet
from .brief.models import (
    Action,
    Anchor,
    Baseline,
    Brief,
    Candidate,
    Contradiction,
    ContradictionKind,
    EvidenceLevel,
    Excluded,
    Header,
    Increment,
    MaterialKind,
    MaterialStatus,
    Refresh,
    RunInfo,
    SourceEntry,
)
from .brief.phrases import Lang, Phrases, phrases
from .check.detectors import detect_all
from .check.grouping import group_contradictions, group_excluded
from .errors import ConfigError, InputError, Interrupted, validation_problem
from .kb.knowledge import KnowledgeDoc, arxiv_ids, parse_knowledge
from .kb.loading import KB, card_title, load_kb
from .produce.extracted import ExtractedProducer
from .produce.producer import Producer, Production
from .produce.rules import RulesProducer
from .produce.submitted import SubmittedProducer
from .produce.unify import merge, unify
from .read.citing import citable, citing
from .read.notes import NoteItem, field_value, note_items
from .text.memo import in_one_run
from .text.naming import plain_title
from .verify.report import Report
from .verify.verifier import Verifier

log = logging.getLogger(__name__)
#: stage and per-material progress, shown by the command line on stderr
progress = logging.getLogger("e1prep.progress")

#: increments named in the judgement (the rest: "and N more in §1")
JUDGED_KEYS = 10
#: increments that get their own action in §6 (the rest: one line)
ACTED_KEYS = 12

#: what not to do tonight, in this order (``data/phrases.toml`` ``[do_not]``)
DO_NOT = ("do_not.unquotable", "do_not.skeleton", "do_not.mix", "do_not.backfill")


@in_one_run
def draft_brief(
    manifest: str | Path,
    kb: str | Path | None = None,
    item: str | None = None,
    *,
    producer: Producer | None = None,
    lang: Lang = "zh",
) -> Brief:
    """Draft the brief of one manifest item: load, produce, detect, merge, verify. Reads; never writes.

    Args:
        manifest: the work-guard manifest (JSON file).
        kb: the KB root; default ``None``: the manifest's folder.
        item: the manifest item id; default ``None``: the only item (an error when there are several).
        producer: what reads the materials; default ``None``: the deterministic rules backend. For a
            model, ``e1prep.llm.LLMProducer(e1prep.llm.load_settings())`` (needs ``e1prep[llm]``).
        lang: the language of every sentence the tool writes into the brief (``"zh"``, the default, or
            ``"en"``), in its JSON as in its Markdown; the KB's own text stays as written. A producer
            that writes sentences of its own (``lang`` attribute) must write in the same language.

    Returns a validated ``Brief``; objects the verifier rejected are in ``brief.rejected``. A material
    that cannot be read does not raise: its source entry says ``missing``, ``refused`` or ``unreadable``.

    Raises:
        ManifestError: the manifest is missing, malformed, or names no usable item.
        InputError: the living document cannot be read.
        ConfigError: ``lang`` is not a language of the brief, or not the language of ``producer``.
    """
    say = phrases(lang)
    producer = producer or RulesProducer(lang=say.lang)
    speaks = getattr(producer, "lang", say.lang)
    if speaks != say.lang:
        raise ConfigError(f"the producer writes {speaks!r} but the brief was asked in {say.lang!r}: make it with lang=")
    if producer.name == "rules":  # every stage is e1prep's own: one pause (each ends in a catch-up collection)
        with collector_paused():
            return _draft(manifest, kb, item, producer, say)
    return _draft(manifest, kb, item, producer, say)


def _draft(manifest: str | Path, kb: str | Path | None, item: str | None, producer: Producer, say: Phrases) -> Brief:
    """``draft_brief``'s stages, e1prep's own with the collector paused (a rules draft is paused whole)."""
    with collector_paused():
        loaded = load_kb(manifest, kb, item)
        doc = living_document(loaded)
        _report_materials(loaded)
    log.info("drafting %s with the %s backend (%d materials)", loaded.item.id, producer.name, len(loaded.materials))
    progress.info("producing (%s backend)", producer.name)
    production = producer.produce(loaded, doc)  # a model's client is not ours to pause
    if producer.name != "rules":  # the rules' facts are merged with what the model made
        with collector_paused():
            production = _merge_productions(production, RulesProducer(lang=say.lang).produce(loaded, doc))
    progress.info("detecting cross-document conflicts")
    with collector_paused():
        # an item excluded as off-topic registers no not-quotable numbers; the detectors' bulk is grouped
        # before it is verified: a grouped line is checked as it is shown (its claim, its first member's
        # numbers, every member's name), not once per item
        findings = detect_all(loaded, doc, production.off_topic, say=say)
        contradictions = group_contradictions(findings.contradictions, say)
        brief = assemble(
            loaded,
            doc,
            producer.name,
            production,
            contradictions,
            findings.refreshes,
            fallback=fell_back(producer),
            say=say,
        )
        total = len(brief.increments) + len(brief.refreshes) + len(brief.contradictions)
        progress.info("verifying %d objects", total)
        brief = apply_verification(brief, Verifier(loaded, doc, say), production.verdicts, say)
    if production.interrupted:
        raise Interrupted(brief)
    return brief


def draft_from_extractions(
    manifest: str | Path,
    extractions: ExtractionSet | Mapping[str, Extraction | Mapping[str, Any]] | str | Path,
    kb: str | Path | None = None,
    item: str | None = None,
    *,
    lang: Lang = "zh",
) -> Brief:
    """Draft a brief from items someone already extracted (an agent worker with its own model).

    Args:
        manifest, kb, item, lang: as for ``draft_brief``.
        extractions: the v2 extractions (``schemas/extraction.schema.json``): an ``ExtractionSet``, the
            path of its JSON file, or a mapping from a material path of the manifest to its ``Extraction``
            (or that extraction's JSON dict). A material left out is read by the rules alone.

    The extractions are turned into objects, merged with the rules' facts one object per subject,
    verified and finished exactly as a model's would be. No server is involved.

    Raises:
        InputError: the extractions are malformed or name a material outside the manifest.
    """
    producer = ExtractedProducer(read_extractions(extractions), lang=lang)
    return draft_brief(manifest, kb, item, producer=producer, lang=lang)


def draft_from_objects(
    manifest: str | Path,
    objects: Mapping[str, Sequence[Any]],
    kb: str | Path | None = None,
    item: str | None = None,
    *,
    name: str = "agent",
    lang: Lang = "zh",
) -> Brief:
    """Draft a brief from brief objects the caller made: ``{"increments": [...], "refreshes": [...],
    "contradictions": [...], "excluded": [...]}`` (model instances or their JSON dicts).

    Every object is recorded as made by ``name``, merged with the rules' facts, verified and finished
    like a model's. An ``excluded`` entry is the caller's verdict: the rules object of its subject
    moves to the excluded list beside it. ``lang``: as for ``draft_brief`` (the caller's own objects
    stay as written).
    """
    return draft_brief(manifest, kb, item, producer=SubmittedProducer(objects, name=name), lang=lang)


def read_extractions(
    extractions: ExtractionSet | Mapping[str, Extraction | Mapping[str, Any]] | str | Path,
) -> ExtractionSet | dict[str, Extraction]:
    """An ``ExtractionSet`` (from itself, a JSON file or a dict with ``materials``) or a path → extraction map."""
    if isinstance(extractions, ExtractionSet):
        return extractions
    if isinstance(extractions, str | Path):
        where = Path(extractions)
        try:
            data = json.loads(where.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputError(where, "no such file") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(where, f"cannot be read as JSON ({exc})") from None
        return _validated(ExtractionSet, data, where)
    if "materials" in extractions and "origin" in extractions:
        return _validated(ExtractionSet, extractions, "extractions")
    return {
        path: value if isinstance(value, Extraction) else _validated(Extraction, value, f"extractions[{path!r}]")
        for path, value in extractions.items()
    }


M = TypeVar("M", bound=BaseModel)


def _validated(model: type[M], data: Any, where: str | Path) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        loc, msg = validation_problem(exc)
        raise InputError(where, f"is not a v2 extraction at {loc or '(top level)'}: {msg}") from None


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while e1prep's own stages run, then left as it was.

    Reading, the rules, the detectors and the verifier make hundreds of thousands of objects that
    live to the end of the draft and form no reference cycles (a test checks that a draft leaves
    nothing for the collector); each full collection walks all of them, about 6% of a 2 MB draft.
    Reference counting still frees everything as before. Not used around a model's client.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _report_materials(kb: KB) -> None:
    """One progress line per material: what was read, and how many items a note holds."""
    total = 0
    for n, m in enumerate(kb.materials, start=1):
        items = ""
        if m.status is MaterialStatus.read and m.kind in (MaterialKind.inbox_note, MaterialKind.other):
            count = len(note_items(m))
            total += count
            items = f", {count} items"
        progress.info("material %d/%d %s: %s%s", n, len(kb.materials), m.path, m.status.value, items)
    progress.info("read %d materials, %d note items", len(kb.materials), total)


@in_one_run
def verify_brief(
    brief: Brief | str | Path, manifest: str | Path, kb: str | Path | None = None, item: str | None = None
) -> Report:
    """Check a brief written by anyone (e1prep, a model, a person editing JSON) against its KB.

    Args:
        brief: a ``Brief``, or the path of a brief JSON file (checked against the published schema).
        manifest: the work-guard manifest the brief was drafted from.
        kb: the KB root; default ``None``: the manifest's folder.
        item: the manifest item id; default ``None``: the only item.

    Returns the verifier's ``Report``: ``report.clean``, ``report.violations``, ``report.render()``, and
    what the violations lead to: ``report.repairs`` (claims repaired, each with its rule),
    ``report.rejected`` (objects refused) and ``report.brief`` (the brief as repaired).

    Raises:
        InputError: the brief file is missing, not JSON or not a brief; the living document cannot be read.
        ManifestError: the manifest cannot be used.
    """
    if not isinstance(brief, Brief):
        from .brief.schema import load_brief

        brief = load_brief(brief)
    loaded = load_kb(manifest, kb, item)
    return Verifier(loaded, living_document(loaded)).settle(brief)


def living_document(kb: KB) -> KnowledgeDoc:
    m = kb.knowledge_material
    if m.status is not MaterialStatus.read:
        raise InputError(kb.root / m.path, f"living document {m.status.value}: {m.reason}")
    doc = parse_knowledge(m.path, m.text)
    if not doc.sections:  # said, not lost: every increment's 建议归入 will say no section matches
        log.warning("%s: no numbered section (§N, N.M) found in its headings; no increment can be routed", m.path)
    return doc


def _merge_productions(primary: Production, rules: Production) -> Production:
    """The reader's objects beside the rules' (one per subject once verified: ``produce.unify``)."""
    primary.off_topic |= rules.off_topic
    primary.refreshes = [*rules.refreshes, *primary.refreshes]
    primary.excluded = [*rules.excluded, *primary.excluded]
    primary.increments = [*rules.increments, *primary.increments]
    primary.contradictions = [*rules.contradictions, *primary.contradictions]
    return primary


def anchors_of(kb: KB, doc: KnowledgeDoc, say: Phrases | None = None) -> list[Anchor]:
    """Exactly the arXiv ids that appear in the materials, with their status in the document, and whether
    they may be cited: as the best-read item that cites them was read (``read.citing``). An id that may
    not be cited is listed with its reason, never dropped."""
    seen: dict[str, Anchor] = {}
    how = citing(kb.materials)
    for m in kb.materials:
        if m.status is not MaterialStatus.read:
            continue
        ids = arxiv_ids(m.text)
        front_id = str(m.front.get("arxiv") or "")
        title = card_title(m) if m.kind is MaterialKind.paper_card else ""
        items = note_items(m) if m.kind in (MaterialKind.inbox_note, MaterialKind.other) else []
        for arxiv in ids:
            if arxiv in seen:
                seen[arxiv].sources.append(m.path)
                continue
            anchored = doc.anchored(arxiv)
            ok, why = citable(how.get(arxiv), anchored, say, arxiv)
            seen[arxiv] = Anchor(
                key=arxiv,
                arxiv=arxiv,
                title=title if arxiv == front_id else _title_near(m.text, arxiv) or _item_title(items, arxiv),
                status="anchored" if anchored else "new",
                sections=doc.anchors.get(arxiv, []),
                sources=[m.path],
                evidence=how[arxiv].level if arxiv in how else EvidenceLevel.unverified,
                citable=ok,
                reason=why,
            )
    return sorted(seen.values(), key=lambda a: a.arxiv)


#: a note's own numbering before a title on its line (``2.``, ``2\.``, ``(2)``, ``-``)
_LINE_LEAD = re.compile(r"^\s*(?:[#>*+\-]+\s*)?(?:\d{1,3}\\?[.)、]\s+|\(\d{1,3}\)\s+)?")


#: a bold span on the id's line: the title its writer marked (``**arXiv:2612.01158 — SpecMoE.** Abstract only``)
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def _title_near(text: str, arxiv: str) -> str:
    """The title the line that names ``arxiv`` gives it: its bold span, else the line; less the id, URLs, the
    note's numbering and Markdown marks (``naming.plain_title``); "" when what is left names nothing (a URL
    line's ``v1, 2026-10-30``, a label's ``来源：``)."""
    for line in text.split("\n"):
        if arxiv in line:
            spans = [_bare(m.group(1)) for m in _BOLD.finditer(line)]
            title = next((t for t in spans if _WORD.search(t)), None) or _bare(line)
            return title if _WORD.search(title) else ""
    return ""


def _item_title(items: list[NoteItem], arxiv: str) -> str:
    """The title of the note item that cites ``arxiv`` (its heading or list title, read plain)."""
    return next((plain_title(i.title) for i in items if arxiv in i.arxiv), "")


#: a word of three letters or more (or three CJK characters): what a title holds
_WORD = re.compile(r"[^\W\d_]{3,}")


def _bare(line: str) -> str:
    """A line less its ids, URLs, numbering and Markdown marks, as a title (at most 80 characters)."""
    line = re.sub(r"https?://\S+|arXiv[:：]?\s*\d{4}\.\d{4,5}(v\d+)?", "", line)
    line = field_value(_LINE_LEAD.sub("", line, count=1).replace("**", ""))
    return plain_title(plain_title(line).strip(" #-*|：:（）()·"))[:80]


def candidates_of(kb: KB, doc: KnowledgeDoc, say: Phrases) -> list[Candidate]:
    out = []
    for m in kb.spot_checks:
        arxiv = str(m.front.get("arxiv") or "") or None
        status = "unknown" if not arxiv else ("anchored" if doc.anchored(arxiv) else "new")
        out.append(
            Candidate(
                arxiv=arxiv,
                title=card_title(m),
                path=m.path,
                status=status,
                note=m.reason if m.status is not MaterialStatus.read else say("candidate.note"),
            )
        )
    return out


def sources_of(kb: KB, production: Production) -> list[SourceEntry]:
    out = []
    counts: dict[str, int] = {}
    drawn: list[Increment | Refresh | Excluded] = [*production.increments, *production.refreshes, *production.excluded]
    for obj in drawn:
        size = obj.stands_for if isinstance(obj, Excluded) else 1
        for s in obj.sources:
            counts[s] = counts.get(s, 0) + size
    for m in (*kb.materials, *kb.spot_checks, kb.knowledge_material):
        status, reason = m.status, m.reason
        if m.path in production.failures:
            status, reason = MaterialStatus.failed, production.failures[m.path]
        out.append(
            SourceEntry(
                path=m.path,
                role=m.role,
                kind=m.kind,
                status=status,
                reason=reason,
                items=counts.get(m.path, 0),
                encoding=m.encoding,
                warnings=m.warnings,
            )
        )
    return out


def actions_of(
    increments: list[Increment], contradictions: list[Contradiction], say: Phrases
) -> tuple[list[Action], list[str]]:
    actions = [
        Action(
            text=say("action.add", section=inc.section or say("action.some_section"), key=inc.key),
            section=inc.section,
            keys=[inc.key],
        )
        for inc in increments[:ACTED_KEYS]
    ]
    if len(increments) > ACTED_KEYS:
        rest = [inc.key for inc in increments[ACTED_KEYS:]]
        actions.append(Action(text=say("action.rest", n=len(rest)), keys=rest))
    registered = [
        c
        for c in contradictions
        if c.kind
        in (
            ContradictionKind.count_mismatch,
            ContradictionKind.bilingual_mismatch,
            ContradictionKind.card_sections_mismatch,
            ContradictionKind.weekly_exceeds_total,
            ContradictionKind.version_mismatch,
            ContradictionKind.injection_suspected,
        )
    ]
    if registered:
        keys = list(dict.fromkeys(c.key for c in registered))
        more = say("action.more_keys", n=len(keys)) if len(keys) > JUDGED_KEYS else ""
        actions.append(Action(text=say("action.register", keys=say.join(keys[:JUDGED_KEYS]) + more), keys=keys))
    return actions, [say(key) for key in DO_NOT]


def judgement_of(brief: Brief, say: Phrases) -> str:
    """The one-line judgement, from the objects the brief holds (after verification: the accepted ones)."""
    materials = [s for s in brief.sources if s.role == "material"]
    read = sum(1 for s in materials if s.status is MaterialStatus.read)
    increments = brief.increments
    keys = [i.key for i in increments[:JUDGED_KEYS]]
    more = say("judgement.more", n=len(increments) - JUDGED_KEYS) if len(increments) > JUDGED_KEYS else ""
    return say(
        "judgement.line",
        materials=len(materials),
        read=read,
        increments=len(increments),
        named=say("judgement.named", keys=say.join(keys), more=more) if increments else "",
        refreshes=len(brief.refreshes),
        contradictions=_lines(brief.contradictions, say),
        excluded=_lines(brief.excluded, say),
    )


def _lines(objects: Sequence[Contradiction | Excluded], say: Phrases) -> str:
    items = sum(o.stands_for for o in objects)
    grouped = say("judgement.grouped", items=items) if items != len(objects) else ""
    return say("judgement.lines", n=len(objects)) + grouped


def fell_back(producer: Producer) -> tuple[str, list[str]]:
    """Why a reader read some materials not at all, and which: ``("", [])`` when it read them all.

    A producer may say so with ``fallback`` (a reason) and ``fallback_paths`` after ``produce``: the
    model backend does when its server cannot be reached (``LLMProducer.fallback``).
    """
    reason = getattr(producer, "fallback", "")
    paths = getattr(producer, "fallback_paths", [])
    if not isinstance(reason, str) or not reason:
        return "", []
    return reason, [str(p) for p in paths]


def first_pass_note(
    kb: KB,
    backend: str,
    production: Production,
    fallback: tuple[str, Sequence[str]] = ("", ()),
    say: Phrases | None = None,
) -> str:
    """The notice that the brief is (wholly or partly) the rules' draft, or "" when a reader read it all.

    A reader that fell back (``fallback``: why, and the materials it did not read) leaves those
    materials to the rules: when that is every material it would have asked about (those with text),
    the content is the rules' alone. ``say``: the brief's phrases (default: Chinese).
    """
    say = say or phrases()
    if backend == "rules":
        return say("notice.first_pass")
    why, unread = fallback
    if not why:
        return ""
    asked = [m for m in kb.materials if m.status is MaterialStatus.read and m.text.strip()]
    if len(unread) >= len(asked):
        return say("notice.fallback", model=production.model or "-", why=why)
    return say(
        "notice.partial_fallback",
        model=production.model or "-",
        unread=len(unread),
        total=len(asked),
        why=why,
        paths=say.join(unread),
    )


def assemble(
    kb: KB,
    doc: KnowledgeDoc,
    backend: str,
    production: Production,
    contradictions: list[Contradiction],
    refreshes: list[Refresh],
    *,
    fallback: tuple[str, Sequence[str]] = ("", ()),
    say: Phrases | None = None,
) -> Brief:
    """The brief's objects as produced, unmerged and unverified; ``apply_verification`` finishes it.
    ``fallback``: why the reader read some materials not at all, and which (``fell_back``); ``say``:
    the brief's phrases (default: Chinese)."""
    say = say or phrases()
    return Brief(
        header=Header(
            job=kb.manifest.job,
            item=kb.item.id,
            topic=kb.item.topic,
            date=kb.date,
            score=kb.item.score,
            output=kb.item.output,
        ),
        baseline=Baseline(
            path=doc.path,
            version=doc.version,
            lines=doc.line_count,
            anchors=len(doc.anchors),
            sections=len(doc.sections),
        ),
        increments=list(production.increments),
        refreshes=[*refreshes, *production.refreshes],
        contradictions=[*contradictions, *production.contradictions],
        anchors=anchors_of(kb, doc, say),
        candidates=candidates_of(kb, doc, say),
        excluded=list(production.excluded),
        sources=sources_of(kb, production),
        run=RunInfo(
            backend=backend,
            model=production.model,
            prompt_versions=production.prompt_versions,
            usage=production.usage,
            tool_version=__version__,
            first_pass=first_pass_note(kb, backend, production, fallback, say),
        ),
    )


def finish(brief: Brief, verdicts: Sequence[Excluded], say: Phrases) -> Brief:
    """Merge what is named twice, make one object per subject across producers (a reader's
    ``verdicts`` move the rules object of their subject to the excluded list), group bulk
    registrations, then derive the judgement, actions and do-not list from what is left."""
    # a reader's object stands for its subject before the same key is merged (rules-only: unchanged)
    increments, refreshes, excluded = unify(brief.increments, brief.refreshes, list(brief.excluded), verdicts, say)
    increments, refreshes = merge(increments), merge(refreshes)
    contradictions = group_contradictions(merge(brief.contradictions), say)
    actions, do_not = actions_of(increments, contradictions, say)
    merged = brief.model_copy(
        update={
            "increments": increments,
            "refreshes": refreshes,
            "contradictions": contradictions,
            "excluded": group_excluded(excluded, say),
            "actions": actions,
            "do_not": do_not,
        }
    )
    return merged.model_copy(update={"judgement": judgement_of(merged, say)})


def apply_verification(
    brief: Brief, verifier: Verifier, verdicts: Sequence[Excluded] = (), say: Phrases | None = None
) -> Brief:
    """A claim that fails is repaired and listed; an object whose subject fails moves to ``rejected``
    with its reasons; nothing is dropped silently (``verify.disposition``).

    Each object is checked as its producer made it, before merging: a rejected model object never
    takes a rules object of the same key with it. Only accepted objects are merged, and the
    judgement and actions are derived from them alone (``finish``). ``say``: the brief's phrases
    (default: Chinese).
    """
    say = say or phrases()
    report: Report = verifier.settle(brief)
    if report.clean or report.brief is None:
        return finish(brief, verdicts, say)
    settled = report.brief.model_copy(
        update={"rejected": [*brief.rejected, *report.rejected], "repairs": [*brief.repairs, *report.repairs]}
    )
    return finish(settled, verdicts, say)
