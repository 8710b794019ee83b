"""Render a Brief as Markdown in the structure of the hand-written seed briefs (sections 0 to 7)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from ..errors import ConfigError
from .models import EVIDENCE_LABELS_EN, Brief, EvidenceLevel, Excluded, Increment
from .safetext import md, md_comment

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

#: the languages of the Markdown brief's headings and labels
Lang = Literal["zh", "en"]

_ZH = {
    "title": "{topic} · E1 预消化简报（{date}）",
    "batch": (
        "批次：work-guard 清单 job {job}，item {item}，score {score}。"
        "处理范围：严格按清单 materials 的 {n} 份材料，未做全库扫描、未联网补料。"
    ),
    "baseline": "对照基线：{path}（更新标记 {version}，共 {lines} 行，arXiv 锚点 {anchors} 条）。",
    "s0": "0. 一句话判断",
    "s1": "1. 增量（{n} 条）",
    "s2": "2. 复核后无新增观点（{n} 件）",
    "s3": "3. 值得警惕的矛盾与待核实说法（{n} 条）",
    "s4": "4. paper_cards 抽查候选（非清单材料）",
    "s5": "5. 可引用的 arXiv 号列表",
    "s6": "6. 今晚给活文档的最小动作建议",
    "s7": "7. 检查过的来源清单",
    "rej": "附：校验器拒收的对象（{n} 个）",
    "rep": "附：校验器修正的断言（{n} 条）",
    "exc": "未采纳条目（{n} 条）",
    "src": "来源",
    "lvl": "证据等级",
    "pts": "要点",
    "rel": "与活文档的关系",
    "sec": "建议归入",
    "bnd": "证据边界",
    "none": "（无）",
    "donot": "不要做",
    "anchors_none": "本批清单材料内未出现 arXiv 号。",
    "col_anchor": "| 标识 | 标题 | 状态 | 出处 |",
    "anchored": "已收于活文档",
    "new": "新（活文档未收）",
    "not_citable": "；不可引用：{reason}",
    "material": "清单材料",
    "spot": "抽查（非清单）",
    "base": "基线（只读）",
    "more": "……另 {n} 条未列出（完整列表见 JSON 简报）",
    "group": "{n} 条",
    "update": "原地更新",
    "version": "版本推进",
}
_EN = {
    "title": "{topic} · E1 pre-digestion brief ({date})",
    "batch": "Batch: job {job}, item {item}, score {score}. Scope: exactly the {n} materials of the manifest; "
    "no KB-wide scan, no web look-ups.",
    "baseline": "Baseline: {path} (version {version}, {lines} lines, {anchors} arXiv anchors).",
    "s0": "0. One-line judgement",
    "s1": "1. Increments ({n})",
    "s2": "2. Rechecked, not new ({n})",
    "s3": "3. Contradictions and claims to verify ({n})",
    "s4": "4. Paper-card candidates (spot check, not materials)",
    "s5": "5. Citable arXiv ids",
    "s6": "6. Tonight's smallest edits",
    "s7": "7. Checked sources",
    "rej": "Appendix: objects the verifier rejected ({n})",
    "rep": "Appendix: claims the verifier repaired ({n})",
    "exc": "Items not drawn ({n})",
    "src": "Source",
    "lvl": "Evidence",
    "pts": "Key points",
    "rel": "Relation to the living document",
    "sec": "Suggested section",
    "bnd": "Evidence boundary",
    "none": "(none)",
    "donot": "Do not",
    "anchors_none": "No arXiv id appears in the materials of this batch.",
    "col_anchor": "| id | title | status | source |",
    "anchored": "already anchored",
    "new": "new (not in the document)",
    "not_citable": "; not citable: {reason}",
    "material": "material",
    "spot": "spot check (not a material)",
    "base": "baseline (read only)",
    "more": "... {n} more not shown (the JSON brief lists them all)",
    "group": "{n} items",
    "update": "update in place",
    "version": "version step",
}


def _clip(line: str) -> str:
    return line if len(line) <= LINE_MAX else line[: LINE_MAX - 1] + "…"


def _fit(blocks: list[list[str]], budget: int, t: dict[str, str]) -> list[str]:
    """As many whole blocks (one per object) as fit in ``budget`` bytes, then one line for the rest."""
    out: list[str] = []
    used = 0
    for n, block in enumerate(blocks):
        lines = [_clip(x) for x in block]
        size = sum(len(x.encode()) + 1 for x in lines)
        if used + size > budget:
            return [*out, t["more"].format(n=len(blocks) - n)]
        out += lines
        used += size
    return out


def _lvl(level: EvidenceLevel, lang: str) -> str:
    return f"{level.value}（{level.label}）" if lang == "zh" else f"{level.value} ({EVIDENCE_LABELS_EN[level]})"


def _join(values: Iterable[object], sep: str = "、") -> str:
    return sep.join(md(v) for v in values)


def _header(brief: Brief, t: dict[str, str]) -> list[str]:
    h, b = brief.header, brief.baseline
    materials = [s for s in brief.sources if s.role == "material"]
    score = h.score if h.score is not None else "-"
    out = [f"# {t['title'].format(topic=md(h.topic), date=md(h.date))}", ""]
    out.append(t["batch"].format(job=md(h.job), item=md(h.item), score=md(score), n=len(materials)))
    out.append(t["baseline"].format(path=md(b.path), version=md(b.version or "-"), lines=b.lines, anchors=b.anchors))
    if brief.run.first_pass:
        out.append(f"> {md(brief.run.first_pass)}")
    return [*[_clip(x) for x in out], "", f"## {t['s0']}", "", _clip(md(brief.judgement)), ""]


def _increments(brief: Brief, t: dict[str, str], lang: str) -> list[str]:
    out = [f"## {t['s1'].format(n=len(brief.increments))}", ""]
    blocks = []
    for n, inc in enumerate(brief.increments, start=1):
        block = [
            f"### {n}. {md(inc.key)}"
            + (f" · {md(inc.title)}" if inc.title and inc.title != inc.key else "")
            + (f"（{t[update_kind(inc)]}）" if inc.kind == "update" else "")
        ]
        block.append(f"- {t['src']}：{_join(inc.sources)}" + (f"；{md(inc.url)}" if inc.url else ""))
        note = f"；{md(inc.evidence_note)}" if inc.evidence_note else ""
        block.append(f"- {t['lvl']}：{_lvl(inc.evidence, lang)}{note}")
        if inc.points:
            block += [f"- {t['pts']}：", *[f"  - {md(p)}" for p in inc.points]]
        if inc.relation:
            block.append(f"- {t['rel']}：{md(inc.relation)}")
        block.append(f"- {t['sec']}：{md(inc.section or '-')}")
        if inc.boundary:
            block += [f"- {t['bnd']}：", *[f"  - {md(x)}" for x in inc.boundary]]
        blocks.append([*block, ""])
    return [*out, *_fit(blocks, BUDGET["s1"], t), ""] if brief.increments else [*out, t["none"], ""]


#: a version as an update names it: ``v0.30``, ``0.5.20``, ``V4.1``, ``版本 3``
_VERSION = re.compile(r"(?<![\w.])[vV]?\d+\.\d+(?:\.\d+)*(?![\w.])|版本|version|release", re.I)


def update_kind(inc: Increment) -> str:
    """``version`` when the update's new fact names a version (版本推进), else ``update`` (原地更新)."""
    fact = " ".join([inc.relation, *inc.points[:1]])
    return "version" if _VERSION.search(fact) else "update"


def _excluded_line(e: Excluded, t: dict[str, str]) -> str:
    if e.members:
        count = t["group"].format(n=len(e.members))
        return f"- {_join(e.sources)} · {count}（{e.evidence.value}）：{md(e.reason)}"
    return f"- {md(e.key)}（{_join(e.sources)}，{e.evidence.value}）：{md(e.reason)}"


def _refreshes(brief: Brief, t: dict[str, str]) -> list[str]:
    out = [f"## {t['s2'].format(n=len(brief.refreshes))}", ""]
    out += [f"| key | {t['src']} | {t['lvl']} | |", "|---|---|---|---|"]
    rows = [[f"| {md(r.key)} | {_join(r.sources)} | {r.evidence.value} | {md(r.summary)} |"] for r in brief.refreshes]
    out += _fit(rows, BUDGET["s2"], t)
    out.append("")
    if brief.excluded:
        n = sum(e.stands_for for e in brief.excluded)
        out += [f"### {t['exc'].format(n=n)}", ""]
        out += _fit([[_excluded_line(e, t)] for e in brief.excluded], BUDGET["exc"], t)
        out.append("")
    return out


def _contradictions(brief: Brief, t: dict[str, str]) -> list[str]:
    out = [f"## {t['s3'].format(n=len(brief.contradictions))}", ""]
    blocks = []
    for n, c in enumerate(brief.contradictions, start=1):
        detail = f" {md(c.detail)}" if c.detail else ""
        action = f" → {md(c.action)}" if c.action else ""
        where = f"（{_join(c.sources)}，{c.evidence.value}）"
        blocks.append([f"{n}. [{c.kind.value}] {md(c.key)}：{md(c.claim)}{detail}{action}{where}"])
    return [*out, *_fit(blocks, BUDGET["s3"], t), "" if brief.contradictions else t["none"], ""]


def _candidates_and_anchors(brief: Brief, t: dict[str, str]) -> list[str]:
    out = [f"## {t['s4']}", ""]
    blocks = []
    for cand in brief.candidates:
        name = f"arXiv:{md(cand.arxiv)}" if cand.arxiv else md(cand.path)
        blocks.append([f"- {name} · {md(cand.title)} · {md(cand.status)} · {md(cand.path)}：{md(cand.note)}"])
    out += _fit(blocks, BUDGET["s4"], t) if brief.candidates else [t["none"]]
    out += ["", f"## {t['s5']}", ""]
    if not brief.anchors:
        return [*out, t["anchors_none"], ""]
    out += [t["col_anchor"], "|---|---|---|---|"]
    rows = []
    for a in brief.anchors:
        where = f"（{_join(a.sections)}）" if a.sections else ""
        status = t["anchored"] + where if a.status == "anchored" else t["new"]
        if not a.citable:  # listed with its reason, never dropped
            status += t["not_citable"].format(reason=md(a.reason))
        rows.append([f"| arXiv:{md(a.arxiv)} | {md(a.title)} | {status} | {_join(a.sources)} |"])
    return [*out, *_fit(rows, BUDGET["s5"], t), ""]


def _actions_and_sources(brief: Brief, t: dict[str, str]) -> list[str]:
    out = [f"## {t['s6']}", ""]
    actions = [[f"{n}. {md(a.text)}"] for n, a in enumerate(brief.actions, start=1)]
    out += _fit(actions, BUDGET["s6"], t) or [t["none"]]
    out += ["", f"**{t['donot']}**：", *[_clip(f"- {md(x)}") for x in brief.do_not[:8]], ""]
    out += [f"## {t['s7']}", ""]
    role_names = {"material": t["material"], "spot_check": t["spot"], "baseline": t["base"]}
    blocks = []
    for s in brief.sources:
        extra = f"：{md(s.reason)}" if s.reason else ""
        warn = f"（{_join(s.warnings, '；')}）" if s.warnings else ""
        blocks.append([f"- [{role_names[s.role]}] {md(s.path)} — {s.status.value}{extra}{warn}"])
    return [*out, *_fit(blocks, BUDGET["s7"], t), ""]


def _rejected(brief: Brief, t: dict[str, str]) -> list[str]:
    if not brief.rejected:
        return []
    out = [f"## {t['rej'].format(n=len(brief.rejected))}", ""]
    blocks = []
    for rej in brief.rejected:
        block = [f"- {md(rej.list_name)} · {md(rej.key)}（producer {md(rej.producer)}）"]
        shown = rej.violations[:VIOLATIONS_SHOWN]
        block += [f"  - [{md(v.rule)}] {md(v.path)}: {md(repr(v.text))} — {md(v.reason)}" for v in shown]
        if len(rej.violations) > len(shown):
            block.append("  - " + t["more"].format(n=len(rej.violations) - len(shown)))
        blocks.append(block)
    return [*out, *_fit(blocks, BUDGET["rej"], t), ""]


def _repairs(brief: Brief, t: dict[str, str]) -> list[str]:
    """Each repaired claim with its rule and what was done: a repair is never silent."""
    if not brief.repairs:
        return []
    out = [f"## {t['rep'].format(n=len(brief.repairs))}", ""]
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
        lang: ``"zh"`` (the default) for Chinese headings and evidence labels, ``"en"`` for English.

    Returns the Markdown text, ending with a newline. Writes nothing.
    Raises ``ConfigError`` (an ``E1PrepError``) when ``lang`` is neither ``"zh"`` nor ``"en"``.
    """
    if lang not in ("zh", "en"):
        raise ConfigError(f"lang must be 'zh' or 'en', not {lang!r}")
    t = _ZH if lang == "zh" else _EN
    u = brief.run.usage
    footer = (
        f"<!-- backend={md_comment(brief.run.backend)} model={md_comment(brief.run.model or '-')} calls={u.calls} "
        f"tokens={u.prompt_tokens}+{u.completion_tokens} cache_hits={u.cache_hits} -->"
    )
    parts = [
        *_header(brief, t),
        *_increments(brief, t, lang),
        *_refreshes(brief, t),
        *_contradictions(brief, t),
        *_candidates_and_anchors(brief, t),
        *_actions_and_sources(brief, t),
        *_repairs(brief, t),
        *_rejected(brief, t),
        footer,
    ]
    return "\n".join(parts) + "\n"
