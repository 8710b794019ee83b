"""Substance decides an increment, the level bounds it (issue 23): an item seen no further than a search
snippet, an abstract, a vendor's post or a card is news when what was seen of it says something of its own
about a subject the document does not hold; its level then keeps every number of it out of the findings.
It stays a lead to check, with its reason in the brief, when nothing of it was seen (``unverified``), when its
note says what was seen holds nothing (``片段无实质内容``), when the document already names its subject, or
when what was seen gives no point beyond its title, its pointers and how far it was read. Both sides are
tested, in a list and in a table, in both languages of the brief."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import MakeKB

from e1prep.brief.models import EvidenceLevel
from e1prep.pipeline import draft_brief
from e1prep.read.filing import filed_elsewhere
from e1prep.read.identity import identify
from e1prep.read.notes import said_empty, said_lead, split_note

NOTE = "inbox/ana/2026-10-25T0915-blogs-discovery.md"

KNOWLEDGE = """# inference 活文档

## §1 引擎

### §1.1 vLLM

- 基线：vLLM 0.11 作为参考引擎，调度器、continuous batching、prefix cache。

### §1.2 prefill / decode 分离

- 分离部署：prefill 节点与 decode 节点分开，KV cache 经 RDMA 或 NVLink 传输；吞吐与 TTFT 的取舍。

### §1.3 路由

- 请求路由：按 token、按前缀或按负载把请求分给 serving engines 的副本。
"""

LIST = """# blogs · 10-25

1. **Kestrel Serve 2：prefill 与 decode 分离部署**
   - 链接：https://kestrel.invalid/blog/serve-2
   - 核查：搜索片段，需登录，未打开
   - 新增 --split-prefill 参数，把 prefill 放到独立节点，KV 经 RDMA 传给 decode 节点
   - 片段称吞吐提升 3.1×
2. **Larkspur Runtime 上线**
   - 链接：https://larkspur.invalid/news/runtime
   - 核查：搜索片段，需登录，未打开
   - 片段无实质内容，只有标题
3. **vLLM 新版调度器解读**
   - 链接：https://blog.invalid/vllm-scheduler
   - 核查：搜索片段，未打开
   - 片段：调度器改成按 token 预算分批
4. **Quillon: Token-Level Routing for Serving Engines**
   - 链接：https://arxiv.invalid/abs/2610.01234
   - 核查：只看了摘要
   - arXiv:2610.01234
5. **Moraine 推理加速卡**
   - 链接：https://moraine.invalid/
   - 核查：没打开，不知道是什么
"""

TABLE = """# blogs · 10-25

| # | 标题 | URL | 核查 | 要点 | 数字 |
|---|---|---|---|---|---|
| 1 | Kestrel Serve 2 | https://k.invalid/2 | 搜索片段 | 新增 --split-prefill，KV 经 RDMA 传 | 片段称 3.1× |
| 2 | Larkspur Runtime 上线 | https://l.invalid/r | 搜索片段，未打开 | 片段无实质内容，只有标题 | |
| 3 | Quillon: Token-Level Routing for Serving Engines | https://a.invalid/q | 只看了摘要 | arXiv:2610.01234 | |
"""


def _draft(make_kb: MakeKB, note: str, lang: str = "zh") -> tuple[dict[str, object], dict[str, str]]:
    brief = draft_brief(make_kb({NOTE: note}, knowledge=KNOWLEDGE), lang=lang)  # type: ignore[arg-type]
    increments = {inc.key: inc for inc in brief.increments}
    excluded = {key: e.reason for e in brief.excluded for key in (e.members or [e.key])}
    return increments, excluded


@pytest.mark.parametrize("note", [LIST, TABLE], ids=["list", "table"])
def test_a_snippet_that_says_what_a_new_subject_does_is_an_increment_at_its_level(make_kb: MakeKB, note: str) -> None:
    increments, _ = _draft(make_kb, note)
    inc = next(v for k, v in increments.items() if k.startswith("Kestrel"))
    assert inc.evidence is EvidenceLevel.snippet
    # its number is bounded by its level: cited, never quotable, never a key point
    assert inc.numbers and not any(n.quotable for n in inc.numbers)
    assert not any("3.1" in p for p in inc.points)
    assert any("3.1" in b for b in inc.boundary)


@pytest.mark.parametrize("note", [LIST, TABLE], ids=["list", "table"])
def test_a_snippet_its_note_calls_empty_is_a_lead_with_those_words(make_kb: MakeKB, note: str) -> None:
    increments, excluded = _draft(make_kb, note)
    assert not any(k.startswith("Larkspur") for k in increments)
    assert "无实质内容" in next(v for k, v in excluded.items() if k.startswith("Larkspur"))


def test_a_snippet_about_a_subject_the_document_names_is_a_lead_that_says_so(make_kb: MakeKB) -> None:
    increments, excluded = _draft(make_kb, LIST, lang="en")
    assert not any("vLLM" in k for k in increments)
    assert "the living document already names vLLM" in next(v for k, v in excluded.items() if "vLLM" in k)


@pytest.mark.parametrize("note", [LIST, TABLE], ids=["list", "table"])
def test_an_abstract_seen_only_as_its_pointer_is_a_lead_that_says_why(make_kb: MakeKB, note: str) -> None:
    increments, excluded = _draft(make_kb, note, lang="en")
    assert not any(k.startswith("Quillon") for k in increments)
    assert "no point to write beyond its title" in next(v for k, v in excluded.items() if k.startswith("Quillon"))


def test_an_item_nobody_opened_is_a_lead(make_kb: MakeKB) -> None:
    increments, excluded = _draft(make_kb, LIST)
    assert not any(k.startswith("Moraine") for k in increments)
    assert "待核查线索" in next(v for k, v in excluded.items() if k.startswith("Moraine"))


VENDOR = """# blogs · 10-25

- **Larkspur Runtime 2 上线**
  - 链接：https://larkspur.invalid/news/runtime-2
  - 核查：厂商自述（官方新闻稿），没有第三方测试
  - 新增 prefill 节点与 decode 节点分离部署，KV cache 经 RDMA 传输
  - 新闻稿称 TTFT 降低 40%
"""


def test_a_vendor_post_that_says_what_the_product_does_is_an_increment_whose_numbers_stay_out(make_kb: MakeKB) -> None:
    increments, _ = _draft(make_kb, VENDOR)
    inc = next(v for k, v in increments.items() if k.startswith("Larkspur"))
    assert inc.evidence is EvidenceLevel.vendor
    assert inc.points == ["新增 prefill 节点与 decode 节点分离部署，KV cache 经 RDMA 传输"]
    assert not any(n.quotable for n in inc.numbers) and any("40%" in b for b in inc.boundary)


EMPTY = [
    ("片段无实质内容", True),
    ("片段只有目录", True),
    ("只有帖子标题，没别的信息", True),
    ("推理部署信息没有", True),
    ("the snippet is the headline only", True),
    ("nothing beyond the title", True),
    ("片段：新增 --split-prefill 参数", False),
    ("README 读完，没有 benchmark", False),
    ("no numbers are quotable yet", False),
    ("没有方法细节，没有评测设置", True),
    ("全文读完，关键信息没有变化", False),
    ("方法细节在第 3 节", False),
]


@pytest.mark.parametrize(("text", "empty"), EMPTY)
def test_what_a_note_calls_empty(text: str, empty: bool) -> None:
    assert (said_empty(text) is not None) is empty


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        ("先挂着，有人有号的话帮看一眼", True),
        ("Vendor number. Park it.", True),
        ("parked car", False),
        ("就是广告。数字不能用", True),
        ("pure marketing, skip", True),
        ("an ad for the new GPU, read it in full", False),
    ],
)
def test_a_note_that_parks_an_item_calls_it_a_lead(text: str, lead: bool) -> None:
    assert (said_lead(text) is not None) is lead


THIS = frozenset({"speech", "语音", "training"})


@pytest.mark.parametrize(
    ("text", "filed"),
    [
        ("讲的是音频 token 的 KV cache 压缩，按约定这归 inference，我已经挂了卡", "归 inference"),
        ("filing it under evaluation, not adding it to training", "filing it under evaluation"),
        # the verb's words as the pattern matches them, any run of spaces between them
        ("abstract only, filed  under evaluation.", "filed  under evaluation"),
        ("这个模型转 ONNX。", None),  # a verb that does not file by itself: a bare name may be a product
        ("这条归 speech，", None),  # this topic's own name
        ("归 vLLM 的 issue 区", None),  # the name does not close its clause
    ],
)
def test_a_filing_verb_before_a_bare_name_that_closes_its_clause_files_it(text: str, filed: str | None) -> None:
    assert filed_elsewhere(text, THIS) == filed


def test_a_word_that_scores_nothing_as_a_name_is_no_key(tmp_path: Path) -> None:
    from e1prep.kb.knowledge import parse_knowledge

    doc = parse_knowledge("k.md", "# k\n\n## §1 prompt-injection filters\n\n- tripwire：提示注入检测库。\n")
    (item,) = split_note(
        NOTE, "- tripwire 0.9 is out, might be worth upgrading the pre-filter.\n  https://x.invalid/t\n"
    )
    assert identify(item, doc).key == "tripwire"


ROWS = """# radar

| Name | Topic | Read | Source | Notes | URL |
| --- | --- | --- | --- | --- | --- |
| Kestrel Serve 2 | inference | read in full, verified | GitHub | splits prefill and decode, KV via RDMA | k.invalid/2 |
"""


def test_a_table_rows_cells_that_say_something_are_its_key_points(make_kb: MakeKB) -> None:
    # the row's notes are its key point; where it was found (``GitHub Releases``) and a tag are none
    increments, _ = _draft(make_kb, ROWS, lang="en")
    inc = next(v for k, v in increments.items() if k.startswith("Kestrel"))
    assert inc.evidence is EvidenceLevel.verified
    assert inc.points == ["splits prefill and decode, KV via RDMA"]


def test_a_list_item_that_is_a_paragraph_is_titled_by_its_first_sentence() -> None:
    note = (
        "1. Tessera: Layout-Polymorphic Tile Programs — arXiv:2702.14385 (v1), https://arxiv.invalid/abs/2702.14385. "
        "One tile program, with layouts as type parameters resolved per target at compile time, lowered through "
        "MLIR to NVVM and AMDGPU. [read in full]\n\n2. Guard-Lite: Shape-Class Guards — https://g.invalid/x\n"
    )
    first, second = split_note(NOTE, note)
    assert first.title.startswith("Tessera: Layout-Polymorphic Tile Programs") and "One tile program" not in first.title
    assert second.title.startswith("Guard-Lite: Shape-Class Guards")  # a short item keeps its line


def test_a_title_that_names_its_subject_before_a_colon_is_keyed_by_it() -> None:
    from e1prep.read.subjects import candidates

    assert candidates("Tessera: Layout-Polymorphic Tile Programs for Portable GPU Kernels")[0].name == "Tessera"
    # an outlet or a label before the colon names no subject
    assert candidates("AINews: vLLM 0.12 ships chunked prefill")[0].name == "vLLM"


def test_a_quote_inside_a_paragraph_is_no_title_of_its_item() -> None:
    note = (
        '# 3月2日\n\nTRACE-Rerank 这篇（https://arxiv.invalid/abs/2702.18853）从头到尾读完了。分数越"拿不准"的候选'
        '分到的 token 越多，一阶段是"GPT 改写后的查询"。——全文已读。\n\n'
        "栈桥的《从 RRF 到学习式融合：混合召回复盘》（https://j.invalid/p）读到第三节。\n"
    )
    first, second = split_note(NOTE, note)
    assert first.title.startswith("TRACE-Rerank")
    assert second.title == "从 RRF 到学习式融合：混合召回复盘"  # quoted where the paragraph brings it in


def test_a_point_outside_the_documents_terms_says_nothing_of_the_item(make_kb: MakeKB) -> None:
    note = """# radar

- **Quillon: 请求路由，按 token、按前缀或按负载分给 serving engines 的副本**
  - https://arxiv.invalid/abs/2610.01234
  - 只看了摘要
  - 下周有空精读，今天就这些
"""
    increments, excluded = _draft(make_kb, note, lang="en")
    assert not any(k.startswith("Quillon") for k in increments)
    assert "no point to write" in next(v for k, v in excluded.items() if k.startswith("Quillon"))
    # the same item saying what it does, in the document's terms, is an increment at its level
    said = note.replace("下周有空精读，今天就这些", "新增一个 KV cache 感知的调度器，prefill 节点与 decode 节点分开")
    increments, _ = _draft(make_kb, said, lang="en")
    assert next(v for k, v in increments.items() if k.startswith("Quillon")).evidence is EvidenceLevel.summary


def test_a_paragraph_opened_by_a_quoted_name_is_an_item_by_its_arxiv_id_anywhere() -> None:
    note = (
        "# 0313 论文 · 老周\n\n"
        "「裁判漂移」这篇最值得看，我从头到尾读完了 v2。英文题目是 Same Name, Different Judge，arXiv:2703.04417。\n\n"
        "它做了两件事。一是沿用 HoldoutGuard（arXiv:2611.04562）的切分。\n"
    )
    items = split_note(NOTE, note)
    assert [i.line_start for i in items] == [3]  # the paragraph opened by 「它」 refers to another paper: no item
    assert items[0].title.startswith("「裁判漂移」")


def test_a_name_before_a_colon_opens_a_prose_title_and_a_label_does_not() -> None:
    note = (
        "量化雷达 0311\n\n"
        "ExpertBits: Sensitivity-Aware Bit Allocation / arXiv 2702.21960 / 按敏感度分比特 / 【全文读完】\n\n"
        "Worth your time. FooQuant 2 ships FP4 kernels https://f.invalid/2\n"
    )
    first, second = split_note(NOTE, note)
    assert first.title.startswith("ExpertBits: Sensitivity-Aware")
    assert second.title.startswith("FooQuant 2 ships")


WORD_LEGEND = """eval radar 0313 — mira

"读到哪" 一列老规矩：abs = 只看了 abstract；full = 全文读完；card = 只看了卡片。

| 条目 | 读到哪 | 一句话 | link |
|---|---|---|---|
| SWE-Fresh: Time-Split Evaluation | abs only，PDF 没开 | 按训练截止日期切两半比较 | https://s.invalid/1 |
| lm-evaluation-harness v0.6.2 | release notes full | patch 版，scoring 没动 | https://l.invalid/2 |
| Arbiter-2 judge model | 只看到标题，the full post is paywalled | 卖裁判模型的 | https://a.invalid/3 |
"""


def test_a_legend_of_words_reads_the_words_where_a_depth_cell_writes_them() -> None:
    swe, harness, arbiter = split_note(NOTE, WORD_LEGEND)
    assert swe.evidence is EvidenceLevel.summary  # abs: the abstract; "PDF 没开" says what was not opened
    assert harness.evidence is EvidenceLevel.verified  # full, closing its cell
    assert arbiter.evidence is not EvidenceLevel.verified  # "the full post" inside a sentence is only a word


def test_a_line_of_assignments_is_no_legend() -> None:
    note = WORD_LEGEND.replace("abs = 只看了 abstract；full = 全文读完；card = 只看了卡片", "k = 4；n = 8；full = 1")
    _, harness, _ = split_note(NOTE, note)
    assert harness.evidence is not EvidenceLevel.verified


PARTS = """# arxiv rss · 10-25

1. **Rack-Scale: Photonic In-Network All-Reduce for Prefill / Decode Disaggregation**
   - 链接：https://arxiv.invalid/abs/2610.02222
   - title only, didn't open. queue it for next week.
2. **Kestrel Serve 2：prefill 与 decode 分离部署**
   - 链接：https://kestrel.invalid/blog/serve-2
   - 核查：部分核查，方法一节读完，实验没看
   - 新增 --split-prefill 参数，把 prefill 放到独立节点，KV 经 RDMA 传给 decode 节点
"""


def test_a_part_read_that_its_note_calls_empty_is_a_lead(make_kb: MakeKB) -> None:
    """Held-out i2's ``title only, didn't open`` read at partial (a title checked, as the contract says) and was an
    increment; the note says nothing of it was seen beyond its title."""
    increments, excluded = _draft(make_kb, PARTS)
    assert not any(k.startswith("Rack-Scale") for k in increments)
    assert "title only" in next(v for k, v in excluded.items() if k.startswith("Rack-Scale"))
    # the other side: a part read that says what it saw is an increment at its level
    assert next(v for k, v in increments.items() if k.startswith("Kestrel")).evidence is EvidenceLevel.partial


def test_a_name_written_out_in_full_meets_the_documents_acronym() -> None:
    """Held-out t2's SPLICE (``… for Vision-Language-Action Policies``, read in full) was filed off the topic:
    its English shares one word with a Chinese document whose word for the subject is ``VLA``."""
    from e1prep.kb.knowledge import parse_knowledge
    from e1prep.produce.rules import SectionIndex

    doc = parse_knowledge(
        "organized/knowledge/robotics.md", "# robotics\n\n## §1 VLA 策略\n\n- OpenVLA、π0 等 VLA 基线。\n"
    )
    index = SectionIndex.build(doc, "robotics")
    assert index.names_entity("SPLICE: Recovery Data for Vision-Language-Action Policies") == "Vision Language Action"
    # the other side: initials the document does not use, and two words, meet nothing
    assert index.names_entity("Graph Neural Network Pruning") is None
    assert index.names_entity("Vision Language") is None


PARAGRAPHS = (
    "# 周报 · 外部动态\n\n"
    "1. Kestrel AI 上线了 Kestrel Serve 2：托管推理服务，prefill 节点与 decode 节点分离部署，KV cache 经 RDMA 传输，"
    "可以选私有化部署（要谈商务）。我只看了官网那篇发布博文和定价页，没有论文、没有开放权重、也还没拿到试用账号。"
    '博文里写"吞吐提升 3.1×"，定价页写"$0.60 / 1,000 次"，都是厂商自己说的，用的什么负载没有公开。【待核实】\n'
    "2. [知乎] Larkspur Runtime 发布：prefill 与 decode 分离，KV 经 RDMA 传输，吞吐翻倍\n"
    "   - 只有搜索摘要，知乎要登录，正文一个字没看\n"
)


def test_an_item_written_as_one_paragraph_says_what_it_is_in_its_first_sentence(make_kb: MakeKB) -> None:
    """Held-out i3's 周报: Lumora DocParse, read in its vendor's post, was one numbered paragraph whose first sentence
    (its title) said what the product does; the rest said how far it was read and what the vendor claims. What was
    seen gave "no point beyond its title", so a vendor increment the hand brief files became a lead."""
    increments, excluded = _draft(make_kb, PARAGRAPHS)
    assert any(key.startswith("Kestrel") for key in increments)
    # the other side: a headline over its notes is the source's words, however it reads: still a lead
    assert any("Larkspur" in key for key in excluded)
