"""Render a Brief as Markdown in the structure of the hand-written seed briefs (sections 0 to 7)."""

from __future__ import annotations

from collections.abc import Iterable

from .models import EVIDENCE_LABELS_EN, Brief, EvidenceLevel
from .safetext import md, md_comment

_ZH = {
    "title": "{topic} · E1 预消化简报（{date}）",
    "batch": (
        "批次：job {job}，item {item}，score {score}。"
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
    "material": "清单材料",
    "spot": "抽查（非清单）",
    "base": "基线（只读）",
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
    "material": "material",
    "spot": "spot check (not a material)",
    "base": "baseline (read only)",
}


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
    return [*out, "", f"## {t['s0']}", "", md(brief.judgement), ""]


def _increments(brief: Brief, t: dict[str, str], lang: str) -> list[str]:
    out = [f"## {t['s1'].format(n=len(brief.increments))}", ""]
    for n, inc in enumerate(brief.increments, start=1):
        out.append(f"### {n}. {md(inc.key)}" + (f" · {md(inc.title)}" if inc.title and inc.title != inc.key else ""))
        out.append(f"- {t['src']}：{_join(inc.sources)}" + (f"；{md(inc.url)}" if inc.url else ""))
        note = f"；{md(inc.evidence_note)}" if inc.evidence_note else ""
        out.append(f"- {t['lvl']}：{_lvl(inc.evidence, lang)}{note}")
        if inc.points:
            out += [f"- {t['pts']}：", *[f"  - {md(p)}" for p in inc.points]]
        if inc.relation:
            out.append(f"- {t['rel']}：{md(inc.relation)}")
        out.append(f"- {t['sec']}：{md(inc.section or '-')}")
        if inc.boundary:
            out += [f"- {t['bnd']}：", *[f"  - {md(x)}" for x in inc.boundary]]
        out.append("")
    return out if brief.increments else [*out, t["none"], ""]


def _refreshes(brief: Brief, t: dict[str, str]) -> list[str]:
    out = [f"## {t['s2'].format(n=len(brief.refreshes))}", ""]
    out += [f"| key | {t['src']} | {t['lvl']} | |", "|---|---|---|---|"]
    out += [f"| {md(r.key)} | {_join(r.sources)} | {r.evidence.value} | {md(r.summary)} |" for r in brief.refreshes]
    out.append("")
    if brief.excluded:
        out += [f"### {t['exc'].format(n=len(brief.excluded))}", ""]
        out += [f"- {md(e.key)}（{_join(e.sources)}，{e.evidence.value}）：{md(e.reason)}" for e in brief.excluded]
        out.append("")
    return out


def _contradictions(brief: Brief, t: dict[str, str]) -> list[str]:
    out = [f"## {t['s3'].format(n=len(brief.contradictions))}", ""]
    for n, c in enumerate(brief.contradictions, start=1):
        detail = f" {md(c.detail)}" if c.detail else ""
        action = f" → {md(c.action)}" if c.action else ""
        where = f"（{_join(c.sources)}，{c.evidence.value}）"
        out.append(f"{n}. [{c.kind.value}] {md(c.key)}：{md(c.claim)}{detail}{action}{where}")
    return [*out, "" if brief.contradictions else t["none"], ""]


def _candidates_and_anchors(brief: Brief, t: dict[str, str]) -> list[str]:
    out = [f"## {t['s4']}", ""]
    for cand in brief.candidates:
        name = f"arXiv:{md(cand.arxiv)}" if cand.arxiv else md(cand.path)
        out.append(f"- {name} · {md(cand.title)} · {md(cand.status)} · {md(cand.path)}：{md(cand.note)}")
    out += [] if brief.candidates else [t["none"]]
    out += ["", f"## {t['s5']}", ""]
    if not brief.anchors:
        return [*out, t["anchors_none"], ""]
    out += [t["col_anchor"], "|---|---|---|---|"]
    for a in brief.anchors:
        where = f"（{_join(a.sections)}）" if a.sections else ""
        status = t["anchored"] + where if a.status == "anchored" else t["new"]
        out.append(f"| arXiv:{md(a.arxiv)} | {md(a.title)} | {status} | {_join(a.sources)} |")
    return [*out, ""]


def _actions_and_sources(brief: Brief, t: dict[str, str]) -> list[str]:
    out = [f"## {t['s6']}", ""]
    out += [f"{n}. {md(a.text)}" for n, a in enumerate(brief.actions, start=1)] or [t["none"]]
    out += ["", f"**{t['donot']}**：", *[f"- {md(x)}" for x in brief.do_not], ""]
    out += [f"## {t['s7']}", ""]
    role_names = {"material": t["material"], "spot_check": t["spot"], "baseline": t["base"]}
    for s in brief.sources:
        extra = f"：{md(s.reason)}" if s.reason else ""
        warn = f"（{_join(s.warnings, '；')}）" if s.warnings else ""
        out.append(f"- [{role_names[s.role]}] {md(s.path)} — {s.status.value}{extra}{warn}")
    return [*out, ""]


def _rejected(brief: Brief, t: dict[str, str]) -> list[str]:
    if not brief.rejected:
        return []
    out = [f"## {t['rej'].format(n=len(brief.rejected))}", ""]
    for rej in brief.rejected:
        out.append(f"- {md(rej.list_name)} · {md(rej.key)}（producer {md(rej.producer)}）")
        out += [f"  - [{md(v.rule)}] {md(v.path)}: {md(repr(v.text))} — {md(v.reason)}" for v in rej.violations]
    return [*out, ""]


def render_markdown(brief: Brief, lang: str = "zh") -> str:
    """The brief as Markdown; ``lang`` is ``zh`` (default) or ``en`` for English headings."""
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
        *_rejected(brief, t),
        footer,
    ]
    return "\n".join(parts) + "\n"
