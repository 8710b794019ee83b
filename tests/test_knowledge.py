"""The living document: sections, anchors, version, and the name search."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from e1prep.kb.knowledge import arxiv_ids, parse_knowledge

DOC = """# inference 活文档

> 更新标记：vOct25午

## §1 引擎与运行时

intro line

### §1.1 引擎

- recursive-oss/rec（rec）：182 ⭐。Rec is great. REC again.
- a record of things; recursive is not rec.

### §1.2 量化

- Rapid-MLX 比 mlx-lm 快。推测解码见 arXiv:2610.30418。

## §2 KV Cache

### 2.1 Offload

- 长上下文 SSD 卸载：见 https://arxiv.org/abs/2501.12345v2
- 深度求索的推理栈。

## 附录

- 2602.10238 mentioned outside numbered sections
"""


@pytest.fixture(scope="module")
def doc():
    return parse_knowledge("organized/knowledge/inference.md", DOC)


def test_sections_numbering_and_nesting(doc) -> None:
    ids = [s.id for s in doc.sections]
    assert ids == ["§1", "§1.1", "§1.2", "§2", "§2.1"]
    by_id = {s.id: s for s in doc.sections}
    assert by_id["§1"].title == "引擎与运行时"
    assert by_id["§1"].start == 5
    assert by_id["§1"].end >= by_id["§1.2"].end  # §1 contains its subsections
    assert by_id["§1.1"].end < by_id["§1.2"].start
    assert by_id["§2.1"].title == "Offload"


def test_section_at(doc) -> None:
    lines = DOC.split("\n")
    at = {ln: n for n, ln in enumerate(lines, start=1)}
    assert doc.section_at(at["intro line"]).id == "§1"
    rec_line = next(n for n, ln in enumerate(lines, start=1) if "182 ⭐" in ln)
    assert doc.section_at(rec_line).id == "§1.1"
    ssd_line = next(n for n, ln in enumerate(lines, start=1) if "SSD" in ln)
    assert doc.section_at(ssd_line).id == "§2.1"
    assert doc.section_at(1) is None


def test_version_marker(doc) -> None:
    assert doc.version == "vOct25午"


def test_version_english_marker() -> None:
    assert parse_knowledge("k.md", "# Doc\nversion: 2026-10-25b\n").version == "2026-10-25b"
    assert parse_knowledge("k.md", "# Doc\nno marker\n").version is None


def test_anchors(doc) -> None:
    assert doc.anchored("2610.30418")
    assert doc.anchors["2610.30418"] == ["§1.2"]
    assert doc.anchored("2501.12345")  # in an arxiv.org URL, version suffix dropped
    assert doc.anchors["2501.12345"] == ["§2.1"]
    assert doc.anchored("2602.10238")
    assert not doc.anchored("2610.99999")


def test_arxiv_ids_rejects_bad_months_and_versions_and_embedded() -> None:
    text = "arXiv:2610.30418v3, 2613.12345 (month 13), v1.2.3, 2601.00001, 12601.00002, 2601.00001 again"
    assert arxiv_ids(text) == ["2610.30418", "2601.00001"]


def test_line_count() -> None:
    assert parse_knowledge("k", "a\nb\n").line_count == 2
    assert parse_knowledge("k", "a\nb").line_count == 2
    assert parse_knowledge("k", "").line_count == 0


def test_search_case_insensitive_and_whole_word(doc) -> None:
    hits = doc.search("rec")
    # rec / Rec / REC / "not rec." -- but not record, recursive
    assert hits.hits == 5
    assert hits.sections == ["§1.1"]
    assert doc.search("record").hits == 1
    assert doc.search("recursive").hits == 2  # "recursive-oss" and "recursive is": '-' ends a word
    assert doc.search("recursive-oss/rec").hits == 1


def test_search_chinese_and_sections(doc) -> None:
    h = doc.search("深度求索")
    assert (h.hits, h.sections) == (1, ["§2.1"])
    h2 = doc.search("SSD")
    assert h2.sections == ["§2.1"]
    assert doc.search("mlx-lm").hits == 1
    assert doc.search("  ").hits == 0
    assert doc.search("DeepInfer").hits == 0


def test_search_sections_are_distinct_in_order(doc) -> None:
    h = doc.search("rapid-mlx")
    assert (h.hits, h.sections) == (1, ["§1.2"])
    h = doc.search("arxiv")
    assert h.sections == ["§1.2", "§2.1"]


def test_unnumbered_heading_closes_section(doc) -> None:
    lines = DOC.split("\n")
    appendix = next(n for n, ln in enumerate(lines, start=1) if ln.startswith("## 附录"))
    assert doc.section_at(appendix + 2) is None
    assert doc.anchors["2602.10238"] == []


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789.a١٢ \n", max_size=30))
def test_the_arxiv_gate_finds_exactly_four_digits_a_dot_and_a_digit(text: str) -> None:
    """The gate opens with the dot (for a fast scan) and holds exactly where ``\\d{4}\\.\\d`` does."""
    import re

    from e1prep.kb.knowledge import _ARXIV_DIGITS

    assert bool(_ARXIV_DIGITS.search(text)) == bool(re.search(r"\d{4}\.\d", text))


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(["2610", "1234", "0", "1", "9", ".", "v2", "arXiv:", "arxiv.org/abs/", "-", "/", "a", " "]),
        max_size=14,
    ).map("".join)
)
def test_arxiv_matches_are_the_patterns_own_matches(text: str) -> None:
    """Trying the pattern only four places before a qualifying dot finds exactly what finditer finds."""
    from e1prep.kb.knowledge import ARXIV_RE, arxiv_matches

    assert [(m.span(), m.group(1)) for m in arxiv_matches(text)] == [
        (m.span(), m.group(1)) for m in ARXIV_RE.finditer(text)
    ]


@pytest.mark.parametrize("sep", ["｜", " | ", "·", "：", ": ", " — ", " - ", "、", " "])
def test_a_section_number_is_read_whole_whatever_separates_it_from_its_title(sep: str) -> None:
    """``### §2.3｜Late interaction`` was read as §2 (the number cut back to where ``.`` could end it): the
    other hand's RAG document filed ColFuse under §2, and its refreshes named §8 for §8.1."""
    doc = parse_knowledge("k.md", f"# Doc\n## §2 Retrieval\n\ntext\n\n### §2.3{sep}Late interaction\n\nColFuse\n")
    assert [s.id for s in doc.sections] == ["§2", "§2.3"]
    assert doc.sections[-1].title == "Late interaction"


def test_a_bold_lead_in_that_numbers_a_subsection_of_its_section_is_that_subsection() -> None:
    """An other hand's document numbered its subsections in bold (``**§2.1 FlashAttention lineage** — …``):
    they were no sections, so FlashMLA's count was 'recorded in §2' and items routed to chapters. A bold
    number that is not a subsection of the heading it stands under (an index's ``**§1.1**``) stays text."""
    text = (
        "# Doc\n## §2 Kernels\n\n**§2.1 FlashAttention lineage** — FA-2, FA-3.\n\n"
        "**§2.2 MLA kernels** — FlashMLA 13,100 stars.\n\n## §7 Index\n\n**§1.1 vLLM** — see above\n**§7 all**\n"
    )
    doc = parse_knowledge("k.md", text)
    assert [(s.id, s.title) for s in doc.sections] == [
        ("§2", "Kernels"),
        ("§2.1", "FlashAttention lineage"),
        ("§2.2", "MLA kernels"),
        ("§7", "Index"),
    ]
    assert doc.section_at(text.split("\n").index("**§2.2 MLA kernels** — FlashMLA 13,100 stars.") + 1).id == "§2.2"
    assert doc.sections[2].end < doc.sections[3].start  # a subsection ends where the next heading starts


EXTENDED = {
    # the other hands' documents: a counter extends its parent's (held-out m2, o2, q2, u2, r2)
    "lettered, then a small letter": (
        "## R0 结论\n## R1 表征\n### R1.a 通用\n### R1.b 指令化\n## R5 向量库\n### R5.c 过滤检索\n",
        ["§R0", "§R1", "§R1.a", "§R1.b", "§R5", "§R5.c"],
    ),
    "a number, then a small letter": (
        "## 1 · 识别\n### 1a 基座\n### 1b 方言\n## 2 · 合成\n### 2a 零样本\n## 7 · 待解问题\n",
        ["§1", "§1a", "§1b", "§2", "§2a", "§7"],
    ),
    "a bracketed letter, then a hyphen": (
        "## 读法\n## [W] 权重量化\n### W-1 PTQ\n### W-3 MoE\n## [K] KV cache 量化\n### K-2 2-bit\n## [Q] 待解\n",
        ["§W", "§W-1", "§W-3", "§K", "§K-2", "§Q"],
    ),
    "a stem, then a hyphen": (
        "## 甲 预训练语料\n### 甲-1 web\n## 乙 过滤与去重\n### 乙-2 粒度\n## 丁 配比\n## 附 arXiv 锚点\n",
        ["§甲", "§甲-1", "§乙", "§乙-2", "§丁"],
    ),
    "a letter in CJK brackets over lettered subsections": (
        "## 0 · 怎么读\n## 【A】评测框架\n### A.1 harness\n### A.2 inspect\n## 【Q】开放问题\n",
        ["§0", "§A", "§A.1", "§A.2", "§Q"],
    ),
    # held-out h3, i3, j3 (first contact routed to the chapters: §M3, §1; j3 had §0 alone)
    "a lettered number, then a hyphen and a number": (
        "## M0 读法\n## M1 模型\n### M1-1 开源模型\n### M1-2 闭源 API\n## M3 评测\n### M3-1 自动指标\n",
        ["§M0", "§M1", "§M1-1", "§M1-2", "§M3", "§M3-1"],
    ),
    "a number, then a letter in brackets": (
        "## 0. How to read\n## 1. Pipeline OCR\n### 1(a) Engines\n### 1(c) Tables\n## 2. End-to-end\n### 2(d) Budget\n",
        ["§0", "§1", "§1(a)", "§1(c)", "§2", "§2(d)"],
    ),
    # held-out l4 and m4 (first contact read no section at all, so nothing was routed)
    "a formal Chinese numeral in brackets, then a middle dot and a number": (
        "## 【壹】 约定\n## 【贰】 模型谱系\n### 贰·1 消息传递\n### 贰·2 Graph Transformer\n"
        "## 【叁】 系统\n### 叁·3 推理\n",
        ["§壹", "§贰", "§贰·1", "§贰·2", "§叁", "§叁·3"],
    ),
    "an area code in capitals, then the code in small letters, a dot and a number": (
        "## HW · 芯片与内存\n### hw.01 手机 NPU\n### hw.02 内存带宽\n"
        "## RT · 运行时\n### rt.01 llama.cpp\n## OQ · 开放问题\n",
        ["§HW", "§hw.01", "§hw.02", "§RT", "§rt.01", "§OQ"],
    ),
    # held-out p4: the design-make-test-analyse cycle's letters, each section a circled number
    "a letter, then a circled number": (
        "## D 设计\n### D① 结构预测\n### D② 生成\n## T 测试\n### T① ADMET\n",
        ["§D", "§D①", "§D②", "§T", "§T①"],
    ),
    # held-out s4 and t4: a layer's number and a colon, an area code in small letters and a slash
    "a lettered number, then a colon and a number": (
        "## L0 导读\n## L1 物理层\n### L1:1 光模块\n### L1:2 光路交换\n## L2 拓扑\n### L2:1 多平面\n",
        ["§L0", "§L1", "§L1:1", "§L1:2", "§L2", "§L2:1"],
    ),
    "a code in small letters, then a slash and a number": (
        "## map · 怎么读\n## obs · 参考数据\n### obs/1 再分析\n### obs/2 观测\n## gen · 生成式\n### gen/1 GAN\n",
        ["§map", "§obs", "§obs/1", "§obs/2", "§gen", "§gen/1"],
    ),
    "a Roman numeral, then a hyphen and a letter": (
        "## 0 读法\n## I 形式化证明\n### I-a 证明器\n### I-c 自动形式化\n## III 工具\n### III-b 复现\n## IV 开放问题\n",
        ["§0", "§I", "§I-a", "§I-c", "§III", "§III-b", "§IV"],
    ),
    # held-out n3, o3, p3 (first contact: no section of any of the three documents was numbered)
    "a Roman numeral, then a letter in brackets": (
        "## Prologue · 读法\n## I. 架构\n### I(a) 解码范式\n### I(b) 自监督\n## IV. 部署\n### IV(b) 运行时\n",
        ["§I", "§I(a)", "§I(b)", "§IV", "§IV(b)"],
    ),
    "a lettered number, then a slash and a letter": (
        "## R0 怎么读\n## R1 级联\n### R1/a 经典级联\n## R3 序列\n### R3/b 语义 ID\n## R10 日志\n",
        ["§R0", "§R1", "§R1/a", "§R3", "§R3/b", "§R10"],
    ),
    "a letter, then a slash and a small Roman numeral": (
        "## A · 读法\n## B · 模型谱系\n### B/i · 统计基线\n### B/iii · 零样本\n### B/iv · 闭源 API\n## E · 开放问题\n",
        ["§A", "§B", "§B/i", "§B/iii", "§B/iv", "§E"],
    ),
    # held-out r3, s3 (first contact: no section of either document was numbered)
    "a Greek letter, then a number": (
        "## α 范围与读法\n## β 路由\n### β1 路由形态\n### β3 路由坍缩\n## γ 架构\n### γ2 模型谱系\n## Ω 附录\n",
        ["§α", "§β", "§β1", "§β3", "§γ", "§γ2"],
    ),
    "a word in capitals, then a colon and a number": (
        "## MAP · 怎么读\n## BEN · 基准\n### BEN:1 基准版图\n### BEN:2 榜单\n## ENG · 工程\n### ENG:1 工具\n",
        ["§MAP", "§BEN", "§BEN:1", "§BEN:2", "§ENG", "§ENG:1"],
    ),
}


def test_a_pilcrow_signs_a_section_as_the_section_sign_does() -> None:
    """Held-out q3 numbered ``## ¶10`` / ``### ¶11``: no section was numbered, no increment routed."""
    doc = parse_knowledge("k.md", "# 活文档\n## ¶10 数据与基准\n### ¶11 公开数据集\n### ¶12 基准\n## ¶20 分割\n")
    assert [s.id for s in doc.sections] == ["§10", "§11", "§12", "§20"]


def test_a_number_joined_by_a_hyphen_is_one_section_number() -> None:
    """Held-out d3 numbered ``### 1-1`` … ``### 2-3`` under ``## 一、`` chapters: every section read as ``§1``
    or ``§2``, so routing named the chapter twice over and the hand's ``1-2`` was never routed to. A date in a
    heading (``2026-10``) is no such number."""
    headings = "## 一、RTL 生成\n### 1-1 基准\n### 1-2 代码模型\n## 二、验证\n### 2-1 断言\n## 2026-10 回顾\n"
    doc = parse_knowledge("k.md", "# 活文档\n" + headings)
    assert [s.id for s in doc.sections] == ["§1-1", "§1-2", "§2-1", "§2026"]
    assert [s.title for s in doc.sections[:3]] == ["基准", "代码模型", "断言"]


@pytest.mark.parametrize("headings,ids", EXTENDED.values(), ids=EXTENDED.keys())
def test_a_counter_that_extends_its_parent_heading_numbers_a_section(headings: str, ids: list[str]) -> None:
    """The held-out documents numbered ``R5.c``, ``1a``, ``W-3`` and ``丙-4``: they had no such sections (q2
    and u2 had none at all), so no increment was routed and every §-id the hand wrote was unknown."""
    doc = parse_knowledge("k.md", "# 活文档\n" + headings)
    assert [s.id for s in doc.sections] == ids
    assert all(s.title and s.title[0] not in "-·.】]" for s in doc.sections)


def test_a_numeral_or_a_small_code_that_nothing_extends_numbers_nothing() -> None:
    """A Chinese numeral opening a heading (``## 一、RTL 生成``, ``## 三种做法``) or a word in small letters before a
    number (``### gpu 2 台``) numbers a section only where headings beneath it extend it: two or more of them."""
    doc = parse_knowledge("k.md", "# Doc\n## 一、背景\n### 三种做法\n## 二、方法\n### gpu 2 台\n### api.2 调用\n")
    assert [s.id for s in doc.sections] == []


def test_a_counter_that_no_sibling_numbers_so_is_a_title() -> None:
    """One heading that extends its parent's counter is no numbering (``## H100`` over ``### H100-1``), and
    a heading of another shape than its numbered siblings (``## 附``, ``## Q4 计划``) stays unnumbered."""
    one = parse_knowledge("k.md", "# Doc\n## §1 硬件\n## H100 租赁\n### H100-1 报价\n## Q4 计划\n")
    assert [s.id for s in one.sections] == ["§1"]
    two = parse_knowledge("k.md", "# Doc\n## 甲 语料\n### 甲-1 web\n### 甲-2 开放\n## Q4 计划\n## 附 锚点\n")
    assert [s.id for s in two.sections] == ["§甲", "§甲-1", "§甲-2"]


@pytest.mark.parametrize(
    "written,sid",
    [
        ("§W-3（MoE 专家量化）", "§W-3"),
        ("§丙-4", "§丙-4"),
        ("§R5.c 过滤检索", "§R5.c"),
        ("§3b。", "§3b"),
        ("§甲 预训练", "§甲"),
        ("§1.2的表", "§1.2"),
        ("§1.2.", "§1.2"),
        ("§3 best", "§3"),
        ("§S3.3（沙箱）", "§S3.3"),
        ("§M3-1 自动指标", "§M3-1"),
        ("§1(c)。", "§1(c)"),
        ("§II-a 推理模型", "§II-a"),
        ("§III-2 临近预报", "§III-2"),
        ("§II(c) 中文与方言", "§II(c)"),
        ("§R3/b（语义 ID）", "§R3/b"),
        ("§B/iv · 闭源", "§B/iv"),
        ("§2/§3", "§2"),
        ("§β3 路由坍缩", "§β3"),
        ("§BEN:1 基准版图", "§BEN:1"),
        ("¶22", "§22"),
        ("§1-2 专用代码模型", "§1-2"),
        ("§IV", "§IV"),
        ("§贰·4（图基础模型）", "§贰·4"),
        ("§叁", "§叁"),
        ("§ev.02 发热", "§ev.02"),
        ("§D③ 对接", "§D③"),
        ("§L4:4 拥塞", "§L4:4"),
        ("§gen/2 扩散", "§gen/2"),
    ],
)
def test_a_section_id_is_read_as_the_document_numbers_it(written: str, sid: str) -> None:
    from e1prep.produce.routing import routed_id

    assert routed_id(written) == sid


def test_an_id_cut_short_is_listed_but_never_citable() -> None:
    """Held-out e3's chat pasted ``2704.1187`` before it was corrected: from 2015 on an id has five digits after
    its dot, so a four-digit one is an id cut short. It stays listed (every id of the materials is), with why it
    may not be cited, whatever cites it, and the verifier shares the rule."""
    from e1prep.brief.models import EvidenceLevel
    from e1prep.kb.knowledge import well_formed_arxiv
    from e1prep.read.citing import Citing, citable

    assert arxiv_ids("arxiv.org/abs/2704.1187 Tessera") == ["2704.1187"]
    assert not well_formed_arxiv("2704.1187") and well_formed_arxiv("2704.11873")
    assert well_formed_arxiv("1412.6980") and not well_formed_arxiv("1412.69801")  # Adam: four digits in 2014
    ok, why = citable(Citing(EvidenceLevel.verified), anchored=False, arxiv="2704.1187")
    assert not ok and "五位" in why
    # the other side: a well-formed id read in full is citable as before
    assert citable(Citing(EvidenceLevel.verified), anchored=False, arxiv="2704.11873") == (True, "")
