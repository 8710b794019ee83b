"""Issue 25, finding 6: ``lint`` on e1prep's own briefs. Each finding was either lint misreading a drafted
brief (a comment no reader sees, a heading's count of its own entries, a heading or list item titling a
sourced entry, the verifier's own verdict lines in the appendices) or the brief not saying where its
numbers came from (the batch line: the manifest's score and count)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT
from e1prep import draft_brief, render_markdown
from e1prep.verify.lint import lint_text

GOLDEN = sorted(p.parent for p in (ROOT / "evals" / "golden").glob("*/manifest.json"))


def tokens(text: str) -> list[str]:
    return [f.token for f in lint_text(text)]


@pytest.mark.parametrize("case", GOLDEN, ids=lambda p: p.name)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_golden_brief_lints_clean(case: Path, lang: str) -> None:
    markdown = render_markdown(draft_brief(case / "manifest.json"), lang=lang)  # type: ignore[arg-type]
    assert [(f.line, f.token, f.context) for f in lint_text(markdown)] == []


@pytest.mark.parametrize("case", GOLDEN, ids=lambda p: p.name)
@pytest.mark.parametrize("prompt", ["extract_material", "extract_items"])
def test_every_replayed_model_brief_lints_clean(case: Path, prompt: str) -> None:
    """The model's briefs too: their appendices list the verifier's rejections, numbers and all."""
    pytest.importorskip("vcr")
    from e1prep.llm.evalreplay import replay_producer

    producer, replaying = replay_producer(case, ROOT / "tests" / "cassettes" / "llm", prompt)
    with replaying:
        brief = draft_brief(case / "manifest.json", producer=producer)
    assert [(f.line, f.token, f.context) for f in lint_text(render_markdown(brief))] == []


def test_an_html_comment_is_not_what_the_brief_says() -> None:
    assert tokens("# 简报\n\n<!-- backend=rules calls=0 tokens=0+0 cache_hits=0 -->\n") == []
    # a marker hidden in a comment does not cover a number the reader sees
    assert tokens("# 简报\n\n- 吞吐提升 287% <!-- 厂商自述 -->\n") == ["287%"]


def test_a_heading_count_that_agrees_with_its_entries_is_bookkeeping() -> None:
    two = "## 1. 增量（2 条）\n\n### 1. A\n- x\n\n### 2. B\n- y\n"
    assert tokens(two) == []
    rows = "## 2. 复核后无新增观点（2 件）\n\n| key | 来源 |\n|---|---|\n| a | b |\n| c | d |\n"
    rows += "\n### 未采纳（1 条）\n\n- z\n"
    assert tokens(rows) == []


def test_a_heading_count_that_disagrees_is_still_listed() -> None:
    assert tokens("## 1. 增量（3 条）\n\n### 1. A\n- x\n\n### 2. B\n- y\n") == ["3 条"]
    assert tokens("### 未采纳（4 条）\n\n- a\n- b\n") == ["4 条"]


def test_a_heading_titles_its_entry_and_the_entry_s_source_covers_it() -> None:
    entry = "### 1. DGX Spark（94 次对比）\n- 来源：inbox/jay/n.md\n- 证据等级：partial\n"
    assert tokens(entry) == []
    assert tokens("### 1. DGX Spark（94 次对比）\n- 很快\n\n### 2. 下一条\n- 来源：inbox/jay/n.md\n") == ["94 次"]


def test_naming_the_work_guard_manifest_sources_the_batch_line() -> None:
    assert tokens("批次：work-guard 清单 job j，item i，score 8.0。处理范围：清单 materials 的 8 份材料。\n") == []
    assert tokens("批次：job j，item i，score 8.0。\n") == ["8.0"]


def test_a_verifier_rule_tag_is_the_verifier_s_verdict_on_what_it_quotes() -> None:
    rejected = "## 附：校验器拒收的对象（1 个）\n\n- increments · 1（producer llm）\n"
    rejected += "  - [quantity-uncited] increments\\[6].title: '1' — no number citation of this object carries it\n"
    assert tokens(rejected) == []
    assert tokens("- [not-a-rule] increments\\[6].title: '1'\n") != []


def test_a_list_item_s_nested_items_speak_for_it() -> None:
    assert tokens("- 吞吐提升 287%\n  - 来源：inbox/jay/n.md\n") == []
    assert tokens("- 吞吐提升 287%\n- 来源：inbox/jay/n.md\n") == ["287%"]  # a sibling is not a child
