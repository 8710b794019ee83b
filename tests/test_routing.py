"""Section routing (建议归入, issue 23 item 4): the section whose own text best matches the item, named only
when it clearly wins; otherwise the brief says no section matches well. Never a default, never a section
the living document lacks."""

from __future__ import annotations

import re

import pytest
from tests.conftest import MakeKB

from e1prep.evals.runner import Routing, score_routing
from e1prep.kb.knowledge import KnowledgeDoc, parse_knowledge
from e1prep.pipeline import draft_brief, verify_brief
from e1prep.produce.routing import UNDECIDED, Route, SectionRouter, route, routed_id

#: a small living document: a big engine section first (where a default used to send everything), a
#: scheduling section, a KV-cache section, a speculative-decoding section without subsections, an index
DOC = """# inference 活文档

> 更新标记：vNov01

## §1 推理引擎

### §1.1 引擎格局

- **vLLM**：通用高并发 serving 引擎，生态最全；v0.30 为当前基线。
- **SGLang**：RadixAttention，agent 与多轮负载首选；v0.5.20。
- **llama.cpp**：本地 / 边缘 / CPU 推理，GGUF 生态。
- **TGI**：维护模式，新项目不选。
- 引擎数量不再增加，差异化转向调度与缓存。

### §1.2 调度与批处理

- continuous batching 已是所有引擎的默认调度方式；chunked prefill 把长 prompt 切块与 decode 混排。
- 抢占（preemption）策略：按优先级换出请求，代价是重算。

## §2 KV Cache

### §2.1 分层卸载与前缀复用

- KV cache 从 GPU 显存卸载到 CPU 内存、再到 NVMe 的三级分层（tiered offloading）已成常规配置。
- 前缀缓存（prefix caching）让共享前缀的请求跨请求复用 KV。
- PagedAttention（arXiv:2309.06180）是 KV 内存管理的基础。

## §3 投机解码

- draft-verify 路线：EAGLE（arXiv:2401.15077）、Medusa 多头；接受率随温度下降。

## §9 arXiv 索引

| arXiv | 主题 |
|---|---|
| arXiv:2309.06180 | PagedAttention |
| arXiv:2401.15077 | EAGLE |
| arXiv:2211.17192 | speculative decoding |
"""


@pytest.fixture(scope="module")
def doc() -> KnowledgeDoc:
    return parse_knowledge("organized/knowledge/inference.md", DOC)


def test_a_kv_cache_item_goes_to_the_kv_cache_section_not_the_first(doc: KnowledgeDoc) -> None:
    got = route(
        doc,
        "把 KV cache 从 GPU 显存卸载到 CPU 与 NVMe 三级分层，前缀缓存跨请求复用。",
        "TierCache：KV cache 分层卸载守护进程",
        ["TierCache"],
    )
    assert got.section == "§2.1"
    assert got.field == "§2.1"


def test_an_english_item_finds_a_chinese_section(doc: KnowledgeDoc) -> None:
    """``speculative`` / ``投机`` and ``decoding`` / ``解码`` are the same words (data/routing.toml)."""
    got = route(doc, "A drafter proposes tokens, the target verifies them.", "Speculative decoding with a tiny drafter")
    assert got.section == "§3"


def test_a_scheduling_item_goes_to_scheduling(doc: KnowledgeDoc) -> None:
    got = route(doc, "continuous batching with preemption by priority; chunked prefill", "A new scheduler")
    assert got.section == "§1.2"


def test_no_good_match_is_said_not_guessed(doc: KnowledgeDoc) -> None:
    """An item as much about scheduling as about KV offloading: no section clearly wins, the two are named."""
    got = route(doc, "preemption and NVMe", "Preemption meets NVMe")
    assert got.section is None
    assert set(got.candidates) == {"§1.2", "§2.1"}
    assert got.field is not None and got.field.startswith(UNDECIDED[:-1])
    assert routed_id(got.field) is None


def test_an_item_that_shares_nothing_has_no_section_and_no_candidates(doc: KnowledgeDoc) -> None:
    got = route(doc, "Quarterly revenue of a coffee chain rose.", "Coffee earnings")
    assert got == Route(None, ())
    assert got.field is None


def test_the_notes_own_section_is_taken_when_the_document_has_it(doc: KnowledgeDoc) -> None:
    text = "continuous batching with preemption by priority (see §2.1 for the cache side)"
    assert route(doc, text, "A new scheduler").section == "§2.1"
    # a section the document lacks is no hint: the words decide
    assert route(doc, text.replace("§2.1", "§7.7"), "A new scheduler").section == "§1.2"


@pytest.mark.parametrize(
    "said,hint",
    [
        ("our §2.1 has nothing on it", True),
        ("活文档 §2.1 没有这一条", True),
        ("inference.md §2.1 says otherwise", True),
        ("建议归入：§2.1", True),
        ("I'd say this goes under §2.1", True),
        # the source's own section: no hint where the item goes
        ("authors' §2.1 limits: weak on code", False),
        ("我读到 §2.1 了，后面没读", False),
        ("cover to cover, incl. Table 3 and the setup section (§2.1)", False),
    ],
)
def test_a_section_the_note_names_is_a_hint_only_when_it_is_the_documents(
    doc: KnowledgeDoc, said: str, hint: bool
) -> None:
    """Held-out Canary Drift went to the document's open questions because its note quoted the paper's own
    section (``authors' §6 limits``), and first-contact TraceGuard to the paper's setup section's number."""
    text = f"continuous batching with preemption by priority. {said}."
    assert route(doc, text, "A new scheduler").section == ("§2.1" if hint else "§1.2")


def test_parents_and_the_index_are_never_routed_to(doc: KnowledgeDoc) -> None:
    """Only sections without numbered sections inside them; a section holding most anchors is an index."""
    assert SectionRouter.of(doc).ids == ["§1.1", "§1.2", "§2.1", "§3"]
    got = route(doc, "arXiv:2309.06180 arXiv:2401.15077 arXiv:2211.17192", "anchors")
    assert got.section not in {"§1", "§2", "§9"}


@pytest.mark.parametrize(
    "text",
    [
        "§7.7 §8.1 KV cache",
        "§1 §2 推理引擎 调度",
        "vLLM SGLang llama.cpp TGI",
        "",
        "§9 arXiv:2211.17192",
        "引擎 引擎 引擎 cache cache",
    ],
)
def test_no_route_names_a_section_the_document_lacks(doc: KnowledgeDoc, text: str) -> None:
    ids = {s.id for s in doc.sections}
    got = route(doc, text, text[:20], [text[:8]])
    assert got.section is None or got.section in ids
    assert set(got.candidates) <= ids
    assert set(re.findall(r"§\d+(?:\.\d+)*", got.field or "")) <= ids


def test_a_document_without_sections_routes_nowhere() -> None:
    bare = parse_knowledge("k.md", "# notes\n\nKV cache offloading.\n")
    assert route(bare, "KV cache offloading", "KV") == Route(None, ())


def test_routed_id_reads_the_leading_section() -> None:
    assert routed_id("§2.1") == "§2.1"
    assert routed_id(" §1.1 六引擎格局") == "§1.1"
    assert routed_id("待定（无明显匹配章节；候选 §1.1、§1.2）") is None
    assert routed_id(None) is None


def test_the_rules_route_an_increment_and_the_verifier_accepts_both_kinds_of_route(make_kb: MakeKB) -> None:
    note = """# 2026-10-25 blogs discovery

## 1. TierCache：vLLM 的 KV cache 分层卸载守护进程

- URL：https://github.com/acme/tiercache
- 核查：已核查原文（README 全文读完）
- 要点：
  - 把 KV cache 从 GPU 显存卸载到 CPU 内存与 NVMe 三级分层
  - 前缀缓存命中后跨请求复用 KV

## 2. SwapMix：Preemption meets NVMe

- URL：https://github.com/acme/swapmix
- 核查：已核查原文（README 全文读完）
- 要点：
  - preemption and NVMe
"""
    manifest = make_kb({"inbox/jay/2026-10-25T0935-blogs-discovery.md": note}, knowledge=DOC)
    brief = draft_brief(manifest)
    sections = {i.key: i.section for i in brief.increments}
    assert sections["TierCache"] == "§2.1"
    assert sections["SwapMix"] is not None and sections["SwapMix"].startswith(UNDECIDED[:-1])
    report = verify_brief(brief, manifest)
    assert report.clean, report.render()


def test_eval_counts_an_undecided_route_as_a_miss_with_its_candidates() -> None:
    from e1prep.brief.golden import ExpectedObject

    expected = [ExpectedObject(key=k, section=s) for k, s in (("a", "§2.1"), ("b", "§1.1"), ("c", "§3"), ("d", None))]
    objects = [
        {"key": "a", "section": "§2.1"},
        {"key": "b", "section": "待定（无明显匹配章节；候选 §1.2、§1.1）"},
        {"key": "c", "section": "§1.1"},
        {"key": "d", "section": "§1.1"},
    ]
    routing, misses = score_routing(objects, expected, [(0, 0), (1, 1), (2, 2), (3, 3)])
    assert routing == Routing(correct=1, total=3, undecided=1, candidates=2)
    assert round(routing.accuracy, 3) == 0.333
    assert routing.precision == 0.5
    assert len(misses) == 2


def test_eval_reads_a_hands_bare_section_number_as_the_section_the_brief_names() -> None:
    from e1prep.brief.golden import ExpectedObject

    # a document numbered without § (``### 3.1``): the hand writes 3.1, the brief §3.1
    expected = [ExpectedObject(key=k, section=s) for k, s in (("a", "3.1"), ("b", "5.1"), ("c", "4.1"))]
    objects = [
        {"key": "a", "section": "§3.1"},
        {"key": "b", "section": "§5.2"},
        {"key": "c", "section": "待定（无明显匹配章节；候选 §4.1、§3.1）"},
    ]
    routing, misses = score_routing(objects, expected, [(0, 0), (1, 1), (2, 2)])
    assert routing == Routing(correct=1, total=3, undecided=1, candidates=2)
    assert misses == ["b: §5.1, routed §5.2", "c: §4.1, routed 待定（无明显匹配章节；候选 §4.1、§3.1）"]


@pytest.mark.parametrize(("given", "kept"), [("§1.2", "§1.2"), ("§9.9", "§2.1"), ("", "§2.1")])
def test_a_readers_section_is_kept_when_the_document_has_it_else_the_item_is_routed(
    make_kb: MakeKB, given: str, kept: str
) -> None:
    from e1prep import draft_from_extractions

    note = "inbox/jay/2026-10-25T0900-blogs-discovery.md"
    text = "# d\n\n## TierCache\n- 核查：已核查原文\n- TierCache 把 KV cache 卸载到 CPU 与 NVMe 三级分层。\n"
    manifest = make_kb({note: text}, knowledge=DOC)
    point = "TierCache 把 KV cache 卸载到 CPU 与 NVMe 三级分层。"
    item = {"name": "TierCache", "kind": "new", "level": "verified", "level_quote": "已核查原文", "points": [point]}
    brief = draft_from_extractions(manifest, {note: {"items": [{**item, "section": given}]}})
    [inc] = [i for i in brief.increments if i.key == "TierCache"]
    assert inc.section == kept


def test_sections_the_document_numbers_by_extension_are_routed_and_verified() -> None:
    """Held-out q2 numbers its sections ``[W]`` / ``W-3``: it had no section at all, so every increment said
    建议归入 ``-``. Now each routes to the hand's section, and the verifier reads ``§W-3`` as one id: neither
    an unknown ``§W`` nor an uncited quantity ``3``."""
    from pathlib import Path

    from e1prep.kb.loading import load_kb
    from e1prep.pipeline import living_document
    from e1prep.verify.verifier import Verifier

    manifest = Path(__file__).parents[1] / "evals/heldout/2027-03-11-otherhand-q2/manifest.json"
    kb = load_kb(manifest)
    verifier = Verifier(kb, living_document(kb))
    brief = draft_brief(manifest)
    assert {i.key: i.section for i in brief.increments} == {
        "ExpertBits": "§W-3",
        "Lumen Inference": "§A-2",
        "kvcrush": "§K-2",
    }
    assert not brief.repairs or all(".section" not in r.path for r in brief.repairs)
    assert not verifier.verify(brief).violations
    # the other side: a section of that shape the document lacks is refused
    brief.increments[0].section = "§W-9"
    assert "section-unknown" in {v.rule for v in verifier.verify(brief).violations}


LOGGED = """# time-series 活文档

## B · 模型谱系

### B/iii · 零样本基础模型

Chronos-2、TimesFM 2.5、Moirai 2.0：开放权重的零样本预测模型，协变量支持各不相同。

### B/iv · 闭源预测 API

TimeGPT-2（Nixtla）：托管预测 API，厂商自述，无数字入档。

## F · 动态日志

- 2027-05-28 · E1：无新增模型；toto 计数刷新（卡片采集）。
- 2027-05-20 · TimesFM 2.5 模型卡复读，仍为最新。
- 2027-04-12 · B/iv 补记 TimeGPT-2（Nixtla 官网，厂商自述）。
- 2027-03-22 · C/i 加入 BOOM（论文与 README）。
"""


def test_a_log_of_the_documents_changes_is_never_routed_to() -> None:
    """Held-out p3's ``## F · 动态日志`` (dated entries naming where items went) took TimeGPT-3 from §B/iv, and
    o3's ``R10 更新日志`` made SeqRank undecided: a log records where items went, it is no topic."""
    doc = parse_knowledge("k.md", LOGGED)
    found = route(doc, "Nixtla 发布 TimeGPT-3：托管预测 API，厂商自述", "TimeGPT-3", ["TimeGPT-3"])
    assert found.section == "§B/iv" and "§F" not in found.candidates


def test_eval_reads_a_pilcrow_section_as_the_section_the_brief_names() -> None:
    from e1prep.evals.runner import _section_id

    assert _section_id("¶22") == "§22" and _section_id("§1.2") == "§1.2" and _section_id("3.1") == "§3.1"


CODED = """# on-device 活文档

## HW · 芯片与内存

### hw.01 手机 NPU

NPU 上 prefill 快、decode 回落；KV cache 常驻 NPU 尚无实现。

### hw.02 内存带宽

LPDDR 带宽决定 decode 上限。

## EV · 评测与发热

### ev.01 指标口径

tok/s 与能耗的口径。

### ev.02 发热与持续性能

连续解码十分钟后吞吐下降。
"""


@pytest.mark.parametrize(
    "said,hint",
    [
        ("正好对上开放问题，进 ev.02", True),
        ("Should go into ev.02 tonight", True),
        ("建议归入 ev.02", True),
        # a section id in a clause that files nothing, and a number that is no lettered id
        ("表里 ev.02 那一行没看", False),
        # the document's section cited, not filed into (a comma closes a bare id's clause)
        ("和我们 ev.02 的判断一致", False),
        ("先放着，和 ev.02 的口径对一下", False),
        ("进 0.2 版再说", False),
    ],
)
def test_a_lettered_section_id_written_without_its_sign_is_a_hint(said: str, hint: bool) -> None:
    """Held-out l4 and m4 wrote the document's ids bare (``进 ev.02``, ``Should go into 贰·4``): a note files an
    item under an id of the document's own, written as the document writes it, without ``§``."""
    doc = parse_knowledge("on-device.md", CODED)
    text = f"KV cache 分页常驻 NPU，decode 不回落到 CPU。{said}。"
    assert route(doc, text, "NPU-Paged KV").section == ("§ev.02" if hint else "§hw.01")
