"""Markdown rendering of a brief."""

from __future__ import annotations

import json
import re

from conftest import EXAMPLE_MANIFEST
from e1prep.brief.render import render_markdown
from e1prep.brief.safetext import md
from e1prep.pipeline import apply_verification
from e1prep.verify.verifier import Verifier

MATERIALS = json.loads(EXAMPLE_MANIFEST.read_text(encoding="utf-8"))["items"][0]["materials"]


def _section(md: str, heading_prefix: str) -> str:
    m = re.search(rf"^## {re.escape(heading_prefix)}.*?$(.*?)(?=^## |\Z)", md, re.M | re.S)
    assert m, heading_prefix
    return m.group(1)


def test_zh_sections_0_to_7(example_brief) -> None:
    md = render_markdown(example_brief)
    heads = re.findall(r"^## (\d)\. ", md, re.M)
    assert heads == [str(n) for n in range(8)]
    assert "## 1. 增量（2 条）" in md
    assert "## 7. 检查过的来源清单" in md
    assert "附：校验器拒收" not in md


def test_zh_sources_lists_all_materials(example_brief) -> None:
    sec7 = _section(render_markdown(example_brief), "7.")
    for path in MATERIALS:
        assert f"[清单材料] {path} — read" in sec7
    assert "[基线（只读）] organized/knowledge/inference.md" in sec7
    assert sec7.count("[清单材料]") == 8


def test_zh_anchor_table(example_brief) -> None:
    sec5 = _section(render_markdown(example_brief), "5.")
    assert "| 标识 | 标题 | 状态 | 出处 |" in sec5
    assert re.search(r"^\| arXiv:2610\.30418 \|.*已收于活文档", sec5, re.M)


def test_en_headings(example_brief) -> None:
    md = render_markdown(example_brief, lang="en")
    assert "## 0. One-line judgement" in md
    assert "## 7. Checked sources" in md
    assert "## 5. Citable arXiv ids" in md
    assert "一句话判断" not in md
    # every increment of the example carries a stated limitation, so none is verified (issue 10's plain rule)
    assert "partial (partially checked)" in md


def test_repaired_claim_and_rejected_object_in_their_appendices(example_brief, example_kb) -> None:
    """An uncited number in a key point is repaired (moved to the boundary, marked); an object whose
    subject names nothing in the materials is rejected; each is listed with its rule."""
    kb, doc = example_kb
    brief = example_brief.model_copy(deep=True)
    brief.increments[0].points.append("吞吐提升 937%。")
    phantom = brief.increments[0].model_copy(update={"key": "NovaServe", "title": "NovaServe", "numbers": []})
    brief.increments.append(phantom)
    checked = apply_verification(brief, Verifier(kb, doc))
    assert [r.key for r in checked.rejected] == ["NovaServe"]
    assert len(checked.increments) == len(example_brief.increments)
    fixed = checked.increments[0]
    assert "吞吐提升 937%。" not in fixed.points and "[unverified] 吞吐提升 937%。" in fixed.boundary
    assert [(r.rule, r.action) for r in checked.repairs] == [("quantity-uncited", "moved-to-boundary")]
    md = render_markdown(checked)
    assert "## 附：校验器修正的断言（1 条）" in md
    assert "## 附：校验器拒收的对象（1 个）" in md
    assert "[quantity-uncited]" in md and "[key-ungrounded]" in md
    assert "increments · NovaServe" in md
    en = render_markdown(checked, lang="en")
    assert "## Appendix: claims the verifier repaired (1)" in en
    assert "## Appendix: objects the verifier rejected (1)" in en


def test_vendor_numbers_only_in_boundary_with_marker(example_brief) -> None:
    sec1 = _section(render_markdown(example_brief), "1.")
    for inc in example_brief.increments:
        for p in inc.points:
            assert f"  - {md(p)}" in sec1
    lines = [ln for ln in sec1.splitlines() if "155" in ln]
    assert lines
    assert all("厂商自述" in ln or "不可引用" in ln for ln in lines)
