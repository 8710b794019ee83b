"""Only verified content anywhere: rejected objects appear in the rejected appendix and nowhere else.

Every golden case is drafted with every backend (rules, and llm by replaying its cassette) and
the brief, Markdown and JSON, is searched for what the verifier rejected.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import EXAMPLE_MANIFEST, ROOT, MakeKB
from e1prep.brief.models import (
    Brief,
    Contradiction,
    ContradictionKind,
    EvidenceLevel,
    Increment,
    NumberCitation,
    SourceRef,
)
from e1prep.brief.render import render_markdown
from e1prep.kb.knowledge import KnowledgeDoc
from e1prep.kb.loading import KB, load_kb
from e1prep.pipeline import draft_brief, living_document
from e1prep.produce.producer import Production
from e1prep.read.notes import note_items
from e1prep.verify.verifier import Verifier

GOLDEN = ROOT / "evals" / "golden"
CASSETTES = ROOT / "tests" / "cassettes" / "llm"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "manifest.json").is_file())
#: the rules whose offending text is a name the materials do not hold: it must appear nowhere else
INVENTED = ("key-ungrounded", "name-ungrounded", "identifier-ungrounded", "url-not-in-material", "quote-not-in-source")


def _draft(case: str, backend: str) -> Brief:
    manifest = GOLDEN / case / "manifest.json"
    if backend == "rules":
        return draft_brief(manifest)
    from e1prep.llm import cassettes
    from e1prep.llm.backend import LLMProducer

    if not list(CASSETTES.glob(f"{case}__*.yaml")):
        pytest.skip(f"no cassette recorded for {case}")
    with cassettes.replaying(case, CASSETTES) as settings:
        return draft_brief(manifest, producer=LLMProducer(settings))


def _outside_appendix(md: str) -> str:
    """The brief above its appendices (the claims the verifier repaired, the objects it rejected)."""
    heads = (
        r"附：校验器修正|附：校验器拒收|Appendix: claims the verifier repaired|Appendix: objects the verifier rejected"
    )
    return re.split(rf"^## (?:{heads})", md, flags=re.M)[0]


def _section(md: str, number: str) -> str:
    m = re.search(rf"^## {number}\. .*?$(.*?)(?=^## |\Z)", md, re.M | re.S)
    assert m, number
    return m.group(1)


def _kb_text(case: str) -> str:
    kb = load_kb(GOLDEN / case / "manifest.json")
    texts = [m.text for m in (*kb.materials, *kb.spot_checks, kb.knowledge_material)]
    paths = [m.path for m in (*kb.materials, *kb.spot_checks, kb.knowledge_material)]
    return "\n".join([*texts, *paths]).casefold()


def _accepted_keys(brief: Brief) -> set[str]:
    lists = (brief.increments, brief.refreshes, brief.contradictions, brief.anchors, brief.excluded)
    return {o.key for objects in lists for o in objects}


@pytest.mark.parametrize("backend", ["rules", "llm"])
@pytest.mark.parametrize("case", CASES)
def test_no_rejected_key_or_identifier_outside_the_rejected_appendix(case: str, backend: str) -> None:
    brief = _draft(case, backend)
    md = render_markdown(brief)
    body = _outside_appendix(md)
    data = json.loads(brief.model_dump_json())
    data.pop("rejected")
    data.pop("repairs")
    json_body = json.dumps(data, ensure_ascii=False)
    accepted = _accepted_keys(brief)
    kb_text = _kb_text(case)

    # what the verifier found in no material: nowhere outside the appendix, Markdown or JSON
    invented = {
        v.text
        for r in brief.rejected
        for v in r.violations
        if v.rule in INVENTED and len(v.text) >= 3 and v.text.casefold() not in kb_text
    } | {
        r.text
        for r in brief.repairs
        if r.rule in INVENTED and r.action == "removed" and len(r.text) >= 3 and r.text.casefold() not in kb_text
    }
    for text in invented:
        assert text not in body, f"{case}/{backend}: rejected {text!r} leaks into the Markdown brief"
        assert text not in json_body, f"{case}/{backend}: rejected {text!r} leaks into the JSON brief"

    # a rejected object's key, unless an accepted object carries the same key, is not judged or acted on
    rejected_only = {r.key for r in brief.rejected} - accepted
    judged = re.findall(r"实质增量 \d+ 条（([^）]*)）", brief.judgement)
    judged_keys = set(judged[0].split("、")) if judged else set()
    acted = {k for a in brief.actions for k in a.keys}
    for key in rejected_only:
        assert key not in judged_keys, f"{case}/{backend}: §0 names rejected {key!r}"
        assert key not in acted, f"{case}/{backend}: §6 acts on rejected {key!r}"
        assert f"加一条 {key}（" not in _section(md, "6"), f"{case}/{backend}: §6 acts on rejected {key!r}"
    n = len(brief.increments)
    assert f"实质增量 {n} 条" in _section(md, "0")
    assert f"## 1. 增量（{n} 条）" in md


def test_replayed_llm_brief_judges_and_acts_only_on_accepted_objects() -> None:
    brief = _draft("2026-10-25-inference", "llm")
    md = render_markdown(brief)
    s0, s6 = _section(md, "0"), _section(md, "6")
    for name in ("flake8", "lucidamera_2019", "nvidia_flake8_2019"):
        assert name not in _outside_appendix(md)
        assert name in md  # ... but kept, with its reasons, in the appendix
    assert "实质增量 2 条（DeepInfer、aisimulate）" in s0
    assert [a.keys for a in brief.actions if "加一条" in a.text] == [["DeepInfer"], ["aisimulate"]]
    assert "加一条 flake8" not in s6


# --- a model's object never takes a rules object with it ---------------------------------------


class _Model:
    """A stand-in for a model backend: returns fixed objects."""

    name = "llm"

    def __init__(self, production: Production) -> None:
        self.production = production

    def produce(self, kb: KB, doc: KnowledgeDoc) -> Production:
        return self.production


BLOGS = "inbox/jay/2026-10-25T1335-blogs-discovery.md"


def _overstated_deepinfer() -> Increment:
    cite = NumberCitation(
        text="155 万亿 tokens/天",
        evidence=EvidenceLevel.verified,
        source=SourceRef(path=BLOGS, quote="文中提到线上规模 155 万亿 tokens/天"),
        quotable=True,
    )
    return Increment(
        key="DeepInfer",
        title="DeepInfer",
        sources=[BLOGS],
        evidence=EvidenceLevel.verified,
        points=["线上规模 155 万亿 tokens/天"],
        numbers=[cite],
        producer="llm",
    )


def test_a_rejected_model_object_keeps_the_rules_object_of_the_same_key() -> None:
    """A model object that names no read material is rejected; the rules object of its key stays as it was."""
    rules = draft_brief(EXAMPLE_MANIFEST)
    assert "DeepInfer" in [i.key for i in rules.increments]
    unread = _overstated_deepinfer().model_copy(update={"sources": ["inbox/jay/not-in-the-manifest.md"]})
    brief = draft_brief(EXAMPLE_MANIFEST, producer=_Model(Production(increments=[unread])))
    kept = [i for i in brief.increments if i.key == "DeepInfer"]
    assert len(kept) == 1 and kept[0].producer == "rules"
    assert kept[0] == next(i for i in rules.increments if i.key == "DeepInfer")
    rejected = [r for r in brief.rejected if r.key == "DeepInfer"]
    assert [r.producer for r in rejected] == ["llm"]
    assert "source-not-read" in {v.rule for v in rejected[0].violations}
    assert "DeepInfer" in brief.judgement


def test_an_overstated_model_object_is_repaired_visibly_not_kept_as_it_was() -> None:
    """A model's vendor number cited as verified: the level is capped and the number leaves the key
    points for the boundary; both repairs are listed with the model as producer."""
    overstated = _overstated_deepinfer()
    overstated.points.append("架构按 vision encode / prefill / decode 三阶段解耦")
    brief = draft_brief(EXAMPLE_MANIFEST, producer=_Model(Production(increments=[overstated])))
    repairs = {(r.producer, r.key, r.rule) for r in brief.repairs}
    assert ("llm", "DeepInfer", "evidence-overstated") in repairs
    assert not [r for r in brief.rejected if r.key == "DeepInfer"]
    deepinfer = [i for i in brief.increments if i.key == "DeepInfer"]
    assert len(deepinfer) == 1
    assert not any("155 万亿" in p for p in deepinfer[0].points)
    assert all(not c.quotable for c in deepinfer[0].numbers if "155" in c.text)


def test_a_model_object_both_producers_support_is_merged_into_the_rules_object() -> None:
    ok = Increment(key="DeepInfer", title="DeepInfer", sources=[BLOGS], evidence=EvidenceLevel.partial, producer="llm")
    brief = draft_brief(EXAMPLE_MANIFEST, producer=_Model(Production(increments=[ok])))
    assert [i.key for i in brief.increments].count("DeepInfer") == 1
    assert not [r for r in brief.rejected if r.key == "DeepInfer"]


def test_model_objects_naming_nothing_in_the_materials_are_rejected() -> None:
    invented_inc = Increment(key="flake8", title="flake8", sources=[BLOGS], evidence=EvidenceLevel.partial)
    invented_con = Contradiction(
        key="flake8",
        kind=ContradictionKind.claim_tension,
        sources=[BLOGS],
        evidence=EvidenceLevel.vendor,
        claim="vendor",
        location=SourceRef(path=BLOGS, quote="https://github.com/nvidia/flake8-core-5.4.7.RELEASE"),
        producer="llm",
    )
    label = Contradiction(
        key="DeepInfer",
        kind=ContradictionKind.claim_tension,
        sources=[BLOGS],
        evidence=EvidenceLevel.partial,
        claim="[NovaServe] 与 DeepInfer 的说法不一",
        producer="llm",
    )
    production = Production(increments=[invented_inc], contradictions=[invented_con, label])
    brief = draft_brief(EXAMPLE_MANIFEST, producer=_Model(production))
    rules = {(r.list_name, r.key): {v.rule for v in r.violations} for r in brief.rejected}
    assert "key-ungrounded" in rules[("increments", "flake8")]
    assert {"key-ungrounded", "quote-not-in-source"} <= rules[("contradictions", "flake8")]
    # a phantom name withdraws the clause that holds it; a claim that was nothing else leaves nothing
    assert {"name-ungrounded", "claims-all-failed"} <= rules[("contradictions", "DeepInfer")]
    outside = _outside_appendix(render_markdown(brief))
    assert "flake8" not in outside and "NovaServe" not in outside


def test_an_object_drawn_from_an_empty_material_is_rejected(make_kb: MakeKB) -> None:
    manifest = make_kb({"inbox/jay/2026-10-25-empty.md": ""})
    kb = load_kb(manifest)
    living_document(kb)
    inc = Increment(key="widget", sources=["inbox/jay/2026-10-25-empty.md"], evidence=EvidenceLevel.partial)
    brief = draft_brief(manifest, producer=_Model(Production(increments=[inc])))
    assert not brief.increments
    assert [v.rule for r in brief.rejected for v in r.violations if v.rule == "source-empty"]


def test_test_data_paths_exist() -> None:
    assert Path(GOLDEN / "2026-10-25-inference" / BLOGS).is_file()


def test_an_issue_number_never_reads_as_an_http_status(make_kb: MakeKB) -> None:
    note = "inbox/jay/2026-10-25-issues.md"
    text = (
        "# 议题跟踪\n\n"
        "## 1. vLLM 调度器修复（vllm-project/vllm#19404）\n\n"
        "- URL：https://github.com/vllm-project/vllm/issues/19404\n"
        "- 核查：已核查原文（全文读完）\n"
        "- 要点：issue #19404 与 PR #21403 修复了 vLLM 0.11 引擎的调度回退。\n"
    )
    brief = draft_brief(make_kb({note: text}))
    kinds = {c.kind for c in brief.contradictions}
    assert ContradictionKind.access_blocked not in kinds
    assert not [c for c in brief.contradictions if "404" in c.claim or "403" in c.claim]


@pytest.mark.parametrize(
    "mention",
    [
        "issue #404 修了这个回退",
        "PR #403 合入后",
        "见 vllm#404",
        "Issue 404 与本文相关",
        "第 403 期周报提到",
        "共 404 条评论",
    ],
)
def test_a_status_code_that_is_part_of_an_identifier_or_a_count_is_not_an_access_problem(
    make_kb: MakeKB, mention: str
) -> None:
    """``#404`` is an issue, ``第 403 期`` an issue of a periodical, ``404 条`` a count: none says the page
    could not be read, so the item read in full stays verified and registers no access problem."""
    note = "inbox/jay/2026-10-25-issues.md"
    text = (
        "## 1. vLLM 调度器修复（vllm-project/vllm）\n\n"
        "- URL：https://github.com/vllm-project/vllm/pull/21403\n"
        "- 核查：已核查原文（全文读完）\n"
        f"- 要点：{mention}，修复了 vLLM 0.11 引擎的调度回退。\n"
    )
    kb = load_kb(make_kb({note: text}))
    (item,) = note_items(kb.materials[0])
    assert item.evidence is EvidenceLevel.verified and not item.access_blocked


@pytest.mark.parametrize(
    "said",
    [
        "返回 403",
        "HTTP 404",
        "打开是 403 Forbidden",
        "the page returned a 404",
        "（403）",
        "页面 429，估计是限流？",  # hedged: still not read, and said so
        "returned 503, maybe down for maintenance",
    ],
)
def test_a_bare_status_code_still_reads_as_an_access_problem(make_kb: MakeKB, said: str) -> None:
    note = "inbox/jay/2026-10-25-blocked.md"
    text = f"## 1. 某厂推理白皮书\n\n- URL：https://example.com/whitepaper\n- 核查：{said}，没读到正文\n"
    kb = load_kb(make_kb({note: text}))
    (item,) = note_items(kb.materials[0])
    assert item.access_blocked and not item.evidence.quotable


@pytest.mark.parametrize(
    "line", ["- URL: http 401 s://example.com/alpha", "延迟 403 ms", "吞吐提升 404 倍", "kept getting 429 s"]
)
def test_a_status_code_before_a_measure_stays_a_status(line: str) -> None:
    """``403 ms`` may be a latency, ``401 s`` a duration: in doubt, the page was not read (only a count
    or a price is read as what it counts). A property test once inserted ``401`` into a URL this way."""
    from e1prep.read import markers

    assert markers.line_level(line) is not None


def test_a_key_is_grounded_by_its_title_as_written_and_an_issue_key_by_its_url(make_kb: MakeKB) -> None:
    note = "inbox/jay/2026-10-25-note.md"
    text = (
        "### 1. Zeta `serve/` is a reference path, not an engine\n"
        "- URL: https://github.com/acme/zeta/issues/4242\n"
        "- 核查：已核查原文\n"
        "- 参考实现，单文件。\n"
    )
    manifest = make_kb({note: text})
    kb = load_kb(manifest)
    verifier = Verifier(kb, living_document(kb))
    inc = Increment(
        key="Zeta serve/ is a reference path, not an engine", sources=[note], evidence=EvidenceLevel.verified
    )
    assert not [v for v in verifier.check_object("increments[0]", inc) if v.rule == "key-ungrounded"]
    issue = inc.model_copy(update={"key": "zeta#4242"})
    assert not [v for v in verifier.check_object("increments[0]", issue) if v.rule == "key-ungrounded"]
    forged = inc.model_copy(update={"key": "zeta#4243"})
    assert [v for v in verifier.check_object("increments[0]", forged) if v.rule == "key-ungrounded"]
