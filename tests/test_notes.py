"""Splitting inbox notes into items; evidence remarks to levels; item dates."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from e1prep.brief.models import EvidenceLevel
from e1prep.read import notes
from e1prep.read.notes import item_date, item_evidence, item_names, line_evidence, split_note

P = "inbox/jay/2026-10-25-blogs-discovery.md"

HEADINGS = """# 博客发现 2026-10-25

## 1. Alpha 引擎开源
- URL: https://example.com/alpha
- 核查：已核查原文
- 吞吐提升 2 倍。

## 2. Beta 缓存
- URL: https://example.com/beta
- 核查：仅搜索摘要

## 3. Gamma 调度
- URL: https://example.com/gamma
"""

NUMBERED = """今日线索：

1. Alpha 引擎 https://example.com/alpha
   已核查原文。
2. Beta 缓存 https://example.com/beta
   需登录，未读正文。
3. Gamma 调度 https://example.com/gamma
"""

TABLE = """| # | 标题 | URL | 核查 |
|---|---|---|---|
| 1 | Alpha 引擎 | https://example.com/alpha | 已核查原文 |
| 2 | Beta 缓存 | https://example.com/beta | 403 |
"""

HEADING_WITH_TABLE = """# RSS 汇总

## 本期线索

| 标题 | 链接 |
|---|---|
| Alpha 引擎 | https://example.com/alpha |
| Beta 缓存 | https://example.com/beta |
| Gamma 调度 | https://example.com/gamma |
"""


def test_split_heading_items() -> None:
    items = split_note(P, HEADINGS, first_line=5)
    assert [i.title for i in items] == ["Alpha 引擎开源", "Beta 缓存", "Gamma 调度"]
    assert [i.url for i in items] == [
        "https://example.com/alpha",
        "https://example.com/beta",
        "https://example.com/gamma",
    ]
    assert [i.evidence for i in items] == [EvidenceLevel.verified, EvidenceLevel.summary, EvidenceLevel.unverified]
    assert items[0].line_start == 5 + 2  # body line 3 ("## 1.") shifted by first_line
    assert items[0].line_end < items[1].line_start
    assert [i.index for i in items] == [1, 2, 3]


def test_split_numbered_list() -> None:
    items = split_note(P, NUMBERED)
    assert len(items) == 3
    assert items[0].title.startswith("Alpha")
    assert items[0].evidence is EvidenceLevel.verified
    assert items[1].evidence is EvidenceLevel.snippet
    assert items[1].access_blocked == "需登录"
    assert items[2].url == "https://example.com/gamma"


def test_split_table_only_note() -> None:
    items = split_note(P, TABLE)
    assert [i.title for i in items] == ["Alpha 引擎", "Beta 缓存"]
    assert items[0].evidence is EvidenceLevel.verified
    assert items[1].evidence is EvidenceLevel.snippet
    assert items[1].access_blocked == "403"
    assert items[1].line_start == items[1].line_end == 4


def test_heading_holding_a_table_of_leads_is_split() -> None:
    items = split_note(P, HEADING_WITH_TABLE)
    assert [i.title for i in items] == ["Alpha 引擎", "Beta 缓存", "Gamma 调度"]
    assert [i.url for i in items] == [
        "https://example.com/alpha",
        "https://example.com/beta",
        "https://example.com/gamma",
    ]


def test_note_without_structure_is_one_item() -> None:
    items = split_note(P, "just a paragraph about DeepInfer\nsecond line\n")
    assert len(items) == 1
    assert items[0].title == "just a paragraph about DeepInfer"
    assert split_note(P, "   \n\n") == []


@pytest.mark.parametrize(
    ("remark", "level", "blocked"),
    [
        ("核查：已核查原文", EvidenceLevel.verified, False),
        # a truncated page was partly read: partial, no access problem (issue 25)
        ("核查：部分核查：标题已核，正文被截断", EvidenceLevel.partial, False),
        ("核查：正文被截断", EvidenceLevel.partial, False),
        ("核查：仅搜索摘要", EvidenceLevel.summary, False),
        ("核查：需登录", EvidenceLevel.snippet, True),
        ("核查：403", EvidenceLevel.snippet, True),
        ("核查：付费墙", EvidenceLevel.partial, True),
        ("核查：厂商自述", EvidenceLevel.vendor, False),
        ("Check: verified original", EvidenceLevel.verified, False),
        ("Check: title checked, body truncated", EvidenceLevel.partial, False),
        ("Check: search summary only", EvidenceLevel.summary, False),
        ("Check: login wall", EvidenceLevel.snippet, True),
        ("Check: paywall", EvidenceLevel.partial, True),
        ("Evidence: vendor claim, not independently measured", EvidenceLevel.vendor, False),
        # a full read with a stated limitation is at most partial (most restrictive, not the first marker)
        ("核查：已核查原文（仓库没打开）", EvidenceLevel.partial, False),
        ("a line with no remark at all", EvidenceLevel.unverified, False),
        # doubt about what was read (another hand's wording): a full read the writer does not trust
        ("Check: read the entire thread, but not convinced the figure is stable", EvidenceLevel.unverified, False),
        ("核查：全文读完，但我对这个数字半信半疑", EvidenceLevel.unverified, False),
        # what a results page showed of a page is a snippet, whatever it mentions
        ("Check: came from a search results preview; never opened the repo (100k stars)", EvidenceLevel.snippet, False),
    ],
)
def test_item_evidence(remark: str, level: EvidenceLevel, blocked: bool) -> None:
    got, marker, access = item_evidence(f"### Item\n- https://x.example/a\n- {remark}\n")
    assert got is level
    assert (access is not None) is blocked
    if level is not EvidenceLevel.unverified:
        assert marker


def test_remark_line_decides_and_body_text_can_only_lower() -> None:
    assert item_evidence("### X\n- 正文讲错误码的处理\n- 核查：已核查原文\n")[0] is EvidenceLevel.verified
    # a limitation word anywhere in the item caps it (the verifier's plain rule refuses it too)
    assert item_evidence("### X\n- 正文提到 403 错误码的处理\n- 核查：已核查原文\n")[0] is EvidenceLevel.partial


def test_without_remark_line_the_whole_text_is_read() -> None:
    assert item_evidence("### X\n原文 403，打不开。")[0] is EvidenceLevel.snippet


@pytest.mark.parametrize(
    ("line", "level"),
    [
        ("- 数字（厂商自述）：155 万亿 tokens/天", EvidenceLevel.vendor),
        ("- 搜索片段：约 512 行", EvidenceLevel.snippet),
        ("- 仅摘要：提升 30%", EvidenceLevel.summary),
        ("- 数字（不要引用）：38 美元", EvidenceLevel.unverified),
        ("- 推荐 8 卡机", None),
    ],
)
def test_line_evidence(line: str, level: EvidenceLevel | None) -> None:
    assert line_evidence(line) is level


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("发布日期：2024-01-15", "2024-01-15"),
        ("日期 2026/3/7", "2026-03-07"),
        ("published: 2025.11", "2025-11"),
        ("原文日期：2023年5月2日", "2023-05-02"),
        ("no date here, only 2026 as a year", None),
    ],
)
def test_item_date(text: str, date: str | None) -> None:
    assert item_date(text) == date


def test_item_names() -> None:
    items = split_note(P, "## 1. DeepSeek DeepInfer 开源推理栈\n- URL: https://github.com/deepseek-ai/DeepInfer\n")
    names = item_names(items[0])
    assert names[0] == "DeepSeek DeepInfer"
    assert "deepseek-ai/DeepInfer" in names
    assert "DeepInfer" in names
    assert all(n.lower() not in {"github", "the"} for n in names)


def test_a_section_heading_ends_the_titled_item_before_it() -> None:
    """A digest of titled items (a title line, then a labelled link line) cut into sections: the
    section heading belongs to no item, so the last item of a section ends before it."""

    def item(title: str, slug: str) -> str:
        return f"### {title}\n链接：https://blog.example.com/{slug}\n核查：已读全文。\n\n"

    body = (
        "# 周报\n\n## 部署\n\n"
        + item("KServe 上跑 llama.cpp server", "kserve")
        + item("Ray Serve autoscaling", "ray")
        + item("Triton 冷启动", "triton")
        + "## 其他\n\n"
        + item("TensorRT-LLM 基准", "trt")
        + item("LMDeploy persistent batch", "lmdeploy")
    )
    items = split_note("inbox/a/x.md", body)
    assert [i.title for i in items][:4] == [
        "KServe 上跑 llama.cpp server",
        "Ray Serve autoscaling",
        "Triton 冷启动",
        "TensorRT-LLM 基准",
    ]
    assert all("## 其他" not in i.text for i in items)


_LINE_KINDS = [
    "## 1. 标题",
    "### 子节",
    "# 顶",
    "| 名称 | 链接 | 核查 |",
    "|---|---|---|",
    "| :-- | --: |",
    "| vLLM | https://x.org/a | 已核查原文 |",
    "| 2 | SGLang https://y.org/b |",
    "- 条目 https://z.org/c",
    "1. 编号 https://w.org/d",
    "正文一行",
    "",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_LINE_KINDS), max_size=30))
def test_a_sections_table_rows_are_the_whole_notes_rows_inside_it(kinds: list[str]) -> None:
    """``_refine`` takes a heading's rows from the whole note's table rows instead of reading its lines again."""
    lines = list(kinds)
    rows = notes._table_spans(lines)[0]
    for span in notes._heading_spans(lines):
        first = span.start + 1
        own = [(s.title, s.start, s.end, s.check, s.cells) for s in notes._table_spans(lines[first : span.end])[0]]
        shifted = [
            (s.title, s.start - first, s.end - first, s.check, s.cells) for s in rows if first <= s.start < span.end
        ]
        assert own == shifted


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_LINE_KINDS), max_size=20), st.integers(0, 20), st.integers(0, 25))
def test_a_window_of_the_url_lines_answers_as_the_lines_of_the_window(kinds: list[str], first: int, end: int) -> None:
    whole, part = notes._UrlLines(kinds).window(first, end), notes._UrlLines(kinds[first:end])
    for a in range(0, 22):
        for b in range(a, 24):
            assert whole.any(a, b) == part.any(a, b)
