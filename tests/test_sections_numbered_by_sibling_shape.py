"""Section numbers read from the shape their sibling headings share, whatever signs a writer numbers by.

Six of the nine living documents of the last three held-out trios numbered their sections in signs the reader
had never met (``1q1``, ``(110)``, ``①-1``, ``0x33``, ``250Hz-2``, ``∂3.2``), and two more only in part (``D+1.3``,
``R3α``): no section was read, so no increment was routed. The reader now reads a heading's leading code as a
number when its siblings open with codes of the same shape, rising as counters do. The other side: codes that
count nothing (hardware names, dates, two headings alone) stay titles, and a § id in prose is read no longer than
before.
"""

from __future__ import annotations

import pytest

from e1prep.kb.knowledge import parse_knowledge
from e1prep.produce.routing import routed_id
from e1prep.read.numbers import quantities


def _ids(headings: str) -> list[str]:
    return [s.id for s in parse_knowledge("k.md", "# 活文档\n" + headings).sections]


@pytest.mark.parametrize(
    "headings,ids",
    [
        # the held-out documents' shapes
        (
            "## 0x10 · 基准\n### 0x11 · 纪律\n### 0x12 · 污染\n## 0x20 · 合成\n### 0x21 · 库学习\n",
            ["§0x10", "§0x11", "§0x12", "§0x20", "§0x21"],
        ),
        (
            "## (100) 数据\n### (110) 数据库\n### (120) 基准\n## (200) 势\n### (210) 谱系\n",
            ["§(100)", "§(110)", "§(120)", "§(200)", "§(210)"],
        ),
        (
            "## chr1 · 序列\n### 1p1 架构\n### 1q1 长上下文\n## chr2 · 变异\n### 2p1 方法\n## chr3 · 细胞\n"
            "## chrM · 锚点\n",
            ["§chr1", "§1p1", "§1q1", "§chr2", "§2p1", "§chr3"],
        ),
        (
            "## 125Hz · 表征\n### 125Hz-1 连续\n## 250Hz · 格局\n### 250Hz-1 理解\n### 250Hz-2 全双工\n"
            "## 500Hz · 训练\n",
            ["§125Hz", "§125Hz-1", "§250Hz", "§250Hz-1", "§250Hz-2", "§500Hz"],
        ),
        (
            "## ∂1 算子\n### ∂1.1 FNO\n### ∂1.2 DeepONet\n## ∂2 PINN\n### ∂2.1 病理\n## ∂∞ 附录\n",
            ["§∂1", "§∂1.1", "§∂1.2", "§∂2", "§∂2.1"],
        ),
        (
            "## T+0 超短期\n### T+0.1 方法\n### T+0.2 量测\n## D+1 日前\n### D+1.1 负荷\n### D+1.3 概率\n## W+1 中期\n",
            ["§T+0", "§T+0.1", "§T+0.2", "§D+1", "§D+1.1", "§D+1.3", "§W+1"],
        ),
        (
            "## 二、运行时\n### 二（一）通用运行时\n### 二（二）Apple 路径\n## 三、模型\n### 三（一）小模型\n",
            ["§二", "§二（一）", "§二（二）", "§三", "§三（一）"],
        ),
        # shapes no case has used
        ("## 2h · 盘前\n## 4h · 盘中\n## 8h · 盘后\n", ["§2h", "§4h", "§8h"]),
        ("## s01 起步\n## s02 进阶\n## s03 收尾\n## s10 附录\n", ["§s01", "§s02", "§s03", "§s10"]),
    ],
)
def test_a_code_its_siblings_share_in_shape_numbers_their_sections(headings: str, ids: list[str]) -> None:
    assert _ids(headings) == ids


@pytest.mark.parametrize(
    "headings",
    [
        "## H100 租赁\n## A100 存量\n## B200 采购\n",  # names of one shape that count nothing
        "## 2025Q4 回顾\n## 2026Q1 计划\n## 2026Q2 展望\n",  # years
        "## 0x10 · 基准\n## 0x20 · 合成\n",  # two alone
        "## 三种做法\n## 四种口径\n## 五种结论\n",  # a numeral that opens a word
        "## v2 计划\n## v1 回顾\n## v3 草案\n",  # no order
        "## 附录 A\n## 附录 B\n## 附录 C\n",  # the code is not where the heading opens
    ],
)
def test_codes_that_count_nothing_stay_titles(headings: str) -> None:
    assert _ids(headings) == []


def test_a_heading_numbered_by_another_shape_keeps_its_number() -> None:
    """A numbered document's own ids stand; the shape reads only what no other shape numbered."""
    assert _ids("## §1 引擎\n### §1.1 格局\n### §1.2 基线\n## §2 内核\n") == ["§1", "§1.1", "§1.2", "§2"]
    assert _ids("## R1 · 路由\n### R1α top-k\n### R1β expert-choice\n## R2 · 均衡\n### R2α 辅助损失\n") == [
        "§R1",
        "§R1α",
        "§R1β",
        "§R2",
        "§R2α",
    ]


def test_bold_lines_are_no_siblings() -> None:
    """Bold lines that open with a code are a paragraph's leads (``**Q1 2027**``), not headings to number."""
    assert _ids("## §1 计划\n**Q1 口径**\n正文\n**Q2 口径**\n正文\n**Q3 口径**\n正文\n") == ["§1"]


@pytest.mark.parametrize(
    "written,sid",
    [
        ("§0x33 · 循环不变量", "§0x33"),
        ("§(110) 数据库", "§(110)"),
        ("§③-2 gloss-free", "§③-2"),
        ("§250Hz-2 全双工", "§250Hz-2"),
        ("§∂5.2，可微求解器", "§∂5.2"),
        ("§1q1 长上下文", "§1q1"),
        ("§R3α 路由波动", "§R3α"),
        ("§D+1.3 概率预测", "§D+1.3"),
        ("§三（五）适配器", "§三（五）"),
    ],
)
def test_a_brief_names_such_a_section_whole(written: str, sid: str) -> None:
    assert routed_id(written) == sid


@pytest.mark.parametrize(
    "written,sid",
    [("§1.2一致", "§1.2"), ("§1.2.", "§1.2"), ("§2/§3", "§2"), ("§2.1FlashAttention", "§2.1"), ("§and", None)],
)
def test_an_id_in_prose_is_read_no_longer_than_before(written: str, sid: str | None) -> None:
    assert routed_id(written) == sid


def test_such_an_id_is_no_quantity() -> None:
    """``§250Hz-2`` names a section: its ``250Hz`` is no measured frequency to cite."""
    assert [q.text for q in quantities("见 §250Hz-2 与 §0x33，延迟 120 ms")] == ["120 ms"]


def test_a_code_in_brackets_is_the_code() -> None:
    """Held-out d5 and e5 set their numbers in brackets (``〈1-1〉``, ``[3b]``): the brackets sign the code, as ``§``
    does, and the eval reads a hand's ``[3b]`` as the brief's ``§3b``."""
    from e1prep.evals.runner import _section_id

    assert _ids("## 〈1〉 传感器\n### 〈1-1〉 格局\n### 〈1-2〉 芯片\n## 〈2〉 算法\n### 〈2-1〉 表示\n") == [
        "§1",
        "§1-1",
        "§1-2",
        "§2",
        "§2-1",
    ]
    assert _ids("## [1] 概念\n### [1a] 术语\n### [1b] 威胁\n## [2] 方案\n### [2a] 绿名单\n") == [
        "§1",
        "§1a",
        "§1b",
        "§2",
        "§2a",
    ]
    assert [_section_id(s) for s in ("[3b]", "〈2-1〉", "§1.2", "¶22", "3.1")] == ["§3b", "§2-1", "§1.2", "§22", "§3.1"]


def test_a_bracket_that_opens_a_title_is_no_code() -> None:
    """The other side: ``[WIP] notes`` or ``【转】…`` open no numbered section."""
    assert _ids("## [WIP] 草稿\n## 【转】别人的笔记\n## [TODO] 待办\n") == []
