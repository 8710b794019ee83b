"""Render a Brief as Markdown in the structure of the hand-written seed briefs (sections 0 to 7)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .models import Brief, EvidenceLevel, Excluded, Increment
from .phrases import Lang, Phrases, phrases
from .safetext import md, md_comment

__all__ = ["Lang", "render_markdown", "update_kind"]

#: whatever the batch, the Markdown brief stays under this many bytes (the JSON keeps everything)
MAX_MARKDOWN = 64 * 1024
#: characters of one rendered line, at most
LINE_MAX = 600
#: bytes per part of the brief; their sum (plus headings and the footer) stays under MAX_MARKDOWN
BUDGET = {
    "s1": 12_000,
    "s2": 6_000,
    "exc": 5_000,
    "s3": 10_000,
    "s4": 3_000,
    "s5": 4_000,
    "s6": 3_000,
    "s7": 5_000,
    "rej": 5_000,
    "rep": 5_000,
}
#: violations listed per rejected object
VIOLATIONS_SHOWN = 5


def _clip(line: str) -> str:
    return line if len(line) <= LINE_MAX else line[: LINE_MAX - 1] + "…"


def _fit(blocks: list[list[str]], budget: int, t: Phrases) -> list[str]:
    """As many whole blocks (one per object) as fit in ``budget`` bytes, then one line for the rest."""
    out: list[str] = []
    used = 0
    for n, block in enumerate(blocks):
        lines = [_clip(x) for x in block]
        size = sum(len(x.encode()) + 1 for x in lines)
        if used + size > budget:
            return [*out, t("render.more", n=len(blocks) - n)]
        out += lines
        used += size
    return out


def _lvl(level: EvidenceLevel, t: Phrases) -> str:
    return t("render.level", level=level.value, label=t.level(level))


def _join(values: Iterable[object], t: Phrases, joint: str = "sep") -> str:
    return t.join((md(v) for v in values), joint)


def _header(brief: Brief, t: Phrases) -> list[str]:
    h, b = brief.header, brief.baseline
    materials = [s for s in brief.sources if s.role == "material"]
    score = h.score if h.score is not None else "-"
    out = [f"# {t('render.title', topic=md(h.topic), date=md(h.date))}", ""]
    out.append(t("render.batch", job=md(h.job), item=md(h.item), score=md(score), n=len(materials)))
    out.append(t("render.baseline", path=md(b.path), version=md(b.version or "-"), lines=b.lines, anchors=b.anchors))
    if brief.run.first_pass:
        out.append(f"> {md(brief.run.first_pass)}")
    return [*[_clip(x) for x in out], "", f"## {t('render.s0')}", "", _clip(md(brief.judgement)), ""]


def _increments(brief: Brief, t: Phrases) -> list[str]:
    out = [f"## {t('render.s1', n=len(brief.increments))}", ""]
    blocks = []
    for n, inc in enumerate(brief.increments, start=1):
        block = [
            f"### {n}. {md(inc.key)}"
            + (f" · {md(inc.title)}" if inc.title and inc.title != inc.key else "")
            + (t("render.kind", kind=t(f"render.{update_kind(inc)}")) if inc.kind == "update" else "")
        ]
        url = t("render.also", value=md(inc.url)) if inc.url else ""
        block.append(t("render.field", label=t("render.src"), value=_join(inc.sources, t)) + url)
        note = t("render.also", value=md(inc.evidence_note)) if inc.evidence_note else ""
        block.append(t("render.field", label=t("render.lvl"), value=_lvl(inc.evidence, t)) + note)
        if inc.points:
            block += [t("render.field_open", label=t("render.pts")), *[f"  - {md(p)}" for p in inc.points]]
        if inc.relation:
            block.append(t("render.field", label=t("render.rel"), value=md(inc.relation)))
        block.append(t("render.field", label=t("render.sec"), value=md(inc.section or "-")))
        if inc.boundary:
            block += [t("render.field_open", label=t("render.bnd")), *[f"  - {md(x)}" for x in inc.boundary]]
        blocks.append([*block, ""])
    if not brief.increments:
        return [*out, t("render.none"), ""]
    return [*out, *_fit(blocks, BUDGET["s1"], t), ""]


#: a version as an update names it: ``v0.30``, ``0.5.20``, ``V4.1``, ``版本 3``
_VERSION = re.compile(r"(?<![\w.])[vV]?\d+\.\d+(?:\.\d+)*(?![\w.])|版本|version|release", re.I)


def update_kind(inc: Increment) -> str:
    """``version`` when the update's new fact names a version (版本推进), else ``update`` (原地更新)."""
    fact = " ".join([inc.relation, *inc.points[:1]])
    return "version" if _VERSION.search(fact) else "update"


def _excluded_line(e: Excluded, t: Phrases) -> str:
    sources, level, reason = _join(e.sources, t), e.evidence.value, md(e.reason)
    if e.members:
        count = t("render.group", n=len(e.members))
        return t("render.excluded_group", sources=sources, count=count, level=level, reason=reason)
    return t("render.excluded", key=md(e.key), sources=sources, level=level, reason=reason)


def _refreshes(brief: Brief, t: Phrases) -> list[str]:
    out = [f"## {t('render.s2', n=len(brief.refreshes))}", ""]
    out += [f"| key | {t('render.src')} | {t('render.lvl')} | |", "|---|---|---|---|"]
    rows = [
        [f"| {md(r.key)} | {_join(r.sources, t)} | {r.evidence.value} | {md(r.summary)} |"] for r in brief.refreshes
    ]
    out += _fit(rows, BUDGET["s2"], t)
    out.append("")
    if brief.excluded:
        n = sum(e.stands_for for e in brief.excluded)
        out += [f"### {t('render.exc', n=n)}", ""]
        out += _fit([[_excluded_line(e, t)] for e in brief.excluded], BUDGET["exc"], t)
        out.append("")
    return out


def _contradictions(brief: Brief, t: Phrases) -> list[str]:
    out = [f"## {t('render.s3', n=len(brief.contradictions))}", ""]
    blocks = []
    for n, c in enumerate(brief.contradictions, start=1):
        line = t(
            "render.contradiction",
            n=n,
            kind=c.kind.value,
            key=md(c.key),
            claim=md(c.claim),
            detail=f" {md(c.detail)}" if c.detail else "",
            action=f" → {md(c.action)}" if c.action else "",
            sources=_join(c.sources, t),
            level=c.evidence.value,
        )
        blocks.append([line])
    return [*out, *_fit(blocks, BUDGET["s3"], t), "" if brief.contradictions else t("render.none"), ""]


def _candidates_and_anchors(brief: Brief, t: Phrases) -> list[str]:
    out = [f"## {t('render.s4')}", ""]
    blocks = []
    for cand in brief.candidates:
        name = f"arXiv:{md(cand.arxiv)}" if cand.arxiv else md(cand.path)
        line = t(
            "render.candidate",
            name=name,
            title=md(cand.title),
            status=md(cand.status),
            path=md(cand.path),
            note=md(cand.note),
        )
        blocks.append([line])
    out += _fit(blocks, BUDGET["s4"], t) if brief.candidates else [t("render.none")]
    out += ["", f"## {t('render.s5')}", ""]
    if not brief.anchors:
        return [*out, t("render.anchors_none"), ""]
    out += [t("render.col_anchor"), "|---|---|---|---|"]
    rows = []
    for a in brief.anchors:
        where = t("render.anchored_where", sections=_join(a.sections, t)) if a.sections else ""
        status = t("render.anchored", where=where) if a.status == "anchored" else t("render.new")
        if not a.citable:  # listed with its reason, never dropped
            status += t("render.not_citable", reason=md(a.reason))
        rows.append([f"| arXiv:{md(a.arxiv)} | {md(a.title)} | {status} | {_join(a.sources, t)} |"])
    return [*out, *_fit(rows, BUDGET["s5"], t), ""]


def _actions_and_sources(brief: Brief, t: Phrases) -> list[str]:
    out = [f"## {t('render.s6')}", ""]
    actions = [[f"{n}. {md(a.text)}"] for n, a in enumerate(brief.actions, start=1)]
    out += _fit(actions, BUDGET["s6"], t) or [t("render.none")]
    out += ["", t("render.donot"), *[_clip(f"- {md(x)}") for x in brief.do_not[:8]], ""]
    out += [f"## {t('render.s7')}", ""]
    role_names = {"material": t("render.material"), "spot_check": t("render.spot"), "baseline": t("render.base")}
    blocks = []
    for s in brief.sources:
        reason = t("render.source_reason", reason=md(s.reason)) if s.reason else ""
        warnings = t("render.source_warnings", warnings=_join(s.warnings, t, "semi")) if s.warnings else ""
        line = t(
            "render.source",
            role=role_names[s.role],
            path=md(s.path),
            status=s.status.value,
            reason=reason,
            warnings=warnings,
        )
        blocks.append([line])
    return [*out, *_fit(blocks, BUDGET["s7"], t), ""]


def _rejected(brief: Brief, t: Phrases) -> list[str]:
    if not brief.rejected:
        return []
    out = [f"## {t('render.rej', n=len(brief.rejected))}", ""]
    blocks = []
    for rej in brief.rejected:
        block = [t("render.rejected", list=md(rej.list_name), key=md(rej.key), producer=md(rej.producer))]
        shown = rej.violations[:VIOLATIONS_SHOWN]
        block += [f"  - [{md(v.rule)}] {md(v.path)}: {md(repr(v.text))} — {md(v.reason)}" for v in shown]
        if len(rej.violations) > len(shown):
            block.append("  - " + t("render.more", n=len(rej.violations) - len(shown)))
        blocks.append(block)
    return [*out, *_fit(blocks, BUDGET["rej"], t), ""]


def _repairs(brief: Brief, t: Phrases) -> list[str]:
    """Each repaired claim with its rule and what was done: a repair is never silent."""
    if not brief.repairs:
        return []
    out = [f"## {t('render.rep', n=len(brief.repairs))}", ""]
    blocks = [
        [
            f"- {md(r.list_name)} · {md(r.key)}: [{md(r.rule)}] {md(r.path)} → {md(r.action)}: "
            f"{md(repr(r.text))} — {md(r.reason)}"
        ]
        for r in brief.repairs
    ]
    return [*out, *_fit(blocks, BUDGET["rep"], t), ""]


def render_markdown(brief: Brief, lang: Lang = "zh") -> str:
    """Render ``brief`` as Markdown in the seed briefs' structure (sections 0 to 7, rejected objects, sources).

    Args:
        brief: a drafted (or loaded) ``Brief``.
        lang: ``"zh"`` (the default) or ``"en"``: the language of the headings, labels and line shapes
            (``data/phrases.toml`` ``[render]``). The sentences inside the brief (judgement, relations,
            reasons, claims, actions, notices) are in the language it was drafted in
            (``draft_brief(..., lang=)``): rendering it again in another language re-labels only.

    Returns the Markdown text, ending with a newline. Writes nothing.
    Raises ``ConfigError`` (an ``E1PrepError``) when ``lang`` is neither ``"zh"`` nor ``"en"``.
    """
    t = phrases(lang)
    u = brief.run.usage
    footer = (
        f"<!-- backend={md_comment(brief.run.backend)} model={md_comment(brief.run.model or '-')} calls={u.calls} "
        f"tokens={u.prompt_tokens}+{u.completion_tokens} cache_hits={u.cache_hits} -->"
    )
    parts = [
        *_header(brief, t),
        *_increments(brief, t),
        *_refreshes(brief, t),
        *_contradictions(brief, t),
        *_candidates_and_anchors(brief, t),
        *_actions_and_sources(brief, t),
        *_repairs(brief, t),
        *_rejected(brief, t),
        footer,
    ]
    return "\n".join(parts) + "\n"
