"""The v2 reading path: extractions into objects, one object per subject, ``update``, and the agent API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import MakeKB

from e1prep import InputError, draft_from_extractions, draft_from_objects
from e1prep.brief.extraction import Extraction, ExtractionSet
from e1prep.brief.models import EvidenceLevel, Excluded, Increment, Refresh
from e1prep.brief.render import render_markdown
from e1prep.produce.unify import unify

NOTE = "inbox/jay/2026-10-25T0900-blogs-discovery.md"
NOTE_TEXT = """# blogs discovery 2026-10-25

## B1 Kestrel-KV: a tiered KV cache
- 链接：https://example.org/kestrel-kv
- 核查：已核查原文
- Kestrel-KV keeps hot KV blocks in HBM and spills cold blocks to NVMe.
- Kestrel-KV cuts TTFT by 31% on 32K prompts.

## B2 Weekly GPU rental prices
- 链接：https://example.org/gpu-rental
- 核查：已核查原文
- H100 rental fell 3% this week.

## B3 vLLM 0.12 release
- 链接：https://example.org/vllm-0-12
- 核查：已核查原文
- vLLM 0.12 adds chunked prefill for encoder-decoder models.
"""


def _item(name: str, kind: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "kind": kind, "level": "verified", "level_quote": "已核查原文", **extra}


def _kestrel(**extra: Any) -> dict[str, Any]:
    point = "Kestrel-KV keeps hot KV blocks in HBM and spills cold blocks to NVMe."
    return _item("Kestrel-KV", "new", **{"url": "https://example.org/kestrel-kv", "points": [point], **extra})


@pytest.fixture
def manifest(make_kb: MakeKB) -> Path:
    return make_kb({NOTE: NOTE_TEXT})


def test_a_new_item_becomes_an_increment_with_the_readers_words_and_codes_facts(manifest: Path) -> None:
    brief = draft_from_extractions(manifest, {NOTE: {"items": [_kestrel(section="§1.1")]}})
    [inc] = [i for i in brief.increments if i.key == "Kestrel-KV"]
    assert inc.producer == "agent" and inc.kind == "new" and inc.evidence is EvidenceLevel.verified
    assert inc.points == ["Kestrel-KV keeps hot KV blocks in HBM and spills cold blocks to NVMe."]
    assert inc.section == "§1.1" and inc.evidence_note == "已核查原文"
    assert inc.doc_hits and inc.doc_hits[0].term == "Kestrel-KV" and inc.doc_hits[0].hits == 0
    assert brief.run.backend == "agent"


def test_a_section_the_document_lacks_is_never_suggested(manifest: Path) -> None:
    brief = draft_from_extractions(manifest, {NOTE: {"items": [_kestrel(section="§9.9")]}})
    [inc] = [i for i in brief.increments if i.key == "Kestrel-KV"]
    assert inc.section is None


def test_a_verified_number_is_cited_with_its_quote_and_carried_into_the_point(manifest: Path) -> None:
    item = _kestrel(
        points=["Kestrel-KV cuts TTFT by 31% on 32K prompts."],
        numbers=[
            {"text": "31%", "quote": "Kestrel-KV cuts TTFT by 31% on 32K prompts."},
            {"text": "32K", "quote": "Kestrel-KV cuts TTFT by 31% on 32K prompts."},
        ],
    )
    brief = draft_from_extractions(manifest, {NOTE: {"items": [item]}})
    [inc] = [i for i in brief.increments if i.key == "Kestrel-KV"]
    assert [c.text for c in inc.numbers if c.source.quote] == ["31%", "32K"]
    assert inc.numbers[0].quotable and "31%" in inc.points[0]
    assert not [r for r in brief.rejected if r.producer == "agent"]


def test_one_subject_one_object_the_readers_name_replaces_the_rules_label(manifest: Path) -> None:
    url = "https://example.org/vllm-0-12"
    rules_only = draft_from_extractions(manifest, {})
    # the rules draw one object for the item (keyed by its title now that a label is not a title, issue 23)
    assert len([i.key for i in rules_only.increments if i.url == url]) == 1
    item = _item("vLLM 0.12", "update", url=url, points=["vLLM 0.12 adds chunked prefill for encoder-decoder models."])
    brief = draft_from_extractions(manifest, {NOTE: {"items": [item]}})
    assert [(i.key, i.producer, i.sources) for i in brief.increments if i.url == url] == [
        ("vLLM 0.12", "agent", [NOTE])
    ]


def test_a_readers_increment_takes_the_subject_the_rules_had_excluded(manifest: Path) -> None:
    url = "https://example.org/kestrel-kv"
    assert any(e.url == url for e in draft_from_extractions(manifest, {}).excluded)
    brief = draft_from_extractions(manifest, {NOTE: {"items": [_kestrel()]}})
    assert [i.key for i in brief.increments if i.url == url] == ["Kestrel-KV"]
    assert not any(e.url == url for e in brief.excluded), "one subject, one object"


def test_an_off_topic_verdict_moves_the_rules_object_to_the_excluded_list_visibly(manifest: Path) -> None:
    item = _item(
        "Weekly GPU rental prices", "off_topic", url="https://example.org/gpu-rental", reason="GPU rental prices"
    )
    rules_only = draft_from_extractions(manifest, {})
    drawn = [o.key for o in [*rules_only.increments, *rules_only.refreshes] if getattr(o, "url", None) != item["url"]]
    brief = draft_from_extractions(manifest, {NOTE: {"items": [item]}})
    assert all(getattr(o, "url", None) != item["url"] for o in brief.increments)
    [excluded] = [e for e in brief.excluded if e.url == item["url"]]
    assert excluded.key == "Weekly GPU rental prices"
    assert "非本主题" in excluded.reason and "agent 判定" in excluded.reason
    assert drawn  # what the verdict did not touch is still drawn


def test_a_lead_is_excluded_as_a_lead_to_check(manifest: Path) -> None:
    item = _item("Kestrel-KV", "lead", url="https://example.org/kestrel-kv", level="summary", reason="摘要级")
    brief = draft_from_extractions(manifest, {NOTE: {"items": [item]}})
    assert not [i for i in brief.increments if i.url == item["url"]]
    assert any("待核查线索" in e.reason for e in brief.excluded)


def test_an_update_names_a_known_subject_with_a_new_fact_and_renders_as_a_version_step(manifest: Path) -> None:
    item = _item(
        "vLLM 0.12",
        "update",
        url="https://example.org/vllm-0-12",
        points=["vLLM 0.12 adds chunked prefill for encoder-decoder models."],
        reason="0.12 adds chunked prefill for encoder-decoder models",
    )
    brief = draft_from_extractions(manifest, {NOTE: {"items": [item]}})
    [inc] = [i for i in brief.increments if i.kind == "update"]
    assert inc.key == "vLLM 0.12" and "新事实" in inc.relation
    assert "版本推进" in render_markdown(brief) and "version step" in render_markdown(brief, lang="en")
    assert not [r for r in brief.rejected if r.key == "vLLM 0.12"], "known-as-new applies to 'new' only"


def test_an_update_whose_every_term_the_document_holds_is_rejected_with_its_rule(manifest: Path) -> None:
    item = _item("vLLM", "update", points=["vLLM 0.11 作为参考引擎。"], url="https://example.org/vllm-0-12")
    brief = draft_from_extractions(manifest, {NOTE: {"items": [item]}})
    [rejected] = [r for r in brief.rejected if r.producer == "agent"]
    assert [v.rule for v in rejected.violations] == ["update-without-new-fact"]


def test_a_new_item_the_document_names_is_still_known_as_new(manifest: Path) -> None:
    item = _item("vLLM", "new", points=["vLLM 0.12 adds chunked prefill for encoder-decoder models."])
    brief = draft_from_extractions(manifest, {NOTE: {"items": [item]}})
    [rejected] = [r for r in brief.rejected if r.producer == "agent"]
    assert "known-as-new" in [v.rule for v in rejected.violations]


def test_a_conflict_is_registered_with_the_numbers_it_names(manifest: Path) -> None:
    item = _kestrel(
        numbers=[{"text": "31%", "quote": "Kestrel-KV cuts TTFT by 31% on 32K prompts.", "level": "vendor"}],
        conflicts=[{"claim": "cuts TTFT by 31%", "kind": "not_quotable", "detail": "the vendor's own figure"}],
    )
    brief = draft_from_extractions(manifest, {NOTE: {"items": [item]}})
    [con] = [c for c in brief.contradictions if c.producer == "agent"]
    assert con.kind.value == "not_quotable" and [n.text for n in con.numbers] == ["31%"]
    assert con.numbers[0].evidence is EvidenceLevel.vendor and not con.numbers[0].quotable


def test_a_reader_naming_one_subject_twice_gives_one_object() -> None:
    def inc(key: str, source: str) -> Increment:
        return Increment(
            key=key, sources=[source], url="https://example.org/x", evidence=EvidenceLevel.verified, producer="llm"
        )

    kept, _, _ = unify([inc("X bench", "a.md"), inc("What happens on X", "b.md")], [], [])
    assert [(i.key, i.sources) for i in kept] == [("X bench", ["a.md", "b.md"])]


def test_rules_only_objects_are_left_as_they_are() -> None:
    inc = Increment(key="B2", sources=["a.md"], url="https://example.org/x", evidence=EvidenceLevel.verified)
    ref = Refresh(key="B2", sources=["a.md"], evidence=EvidenceLevel.verified)
    exc = Excluded(key="B2", sources=["a.md"], evidence=EvidenceLevel.summary, reason="r")
    out = unify([inc], [ref], [exc])
    assert out == ([inc], [ref], [exc])


def test_a_rules_object_absorbed_by_a_verdict_is_named_in_its_reason() -> None:
    inc = Increment(key="H100", sources=["a.md"], evidence=EvidenceLevel.verified)
    verdict = Excluded(key="H100 租赁价格周报", sources=["a.md"], evidence=EvidenceLevel.verified, reason="非本主题")
    kept, _, excluded = unify([inc], [], [], [verdict])
    assert kept == []
    assert [e.reason for e in excluded] == ["非本主题；规则曾读作增量"]


def test_extractions_of_a_material_outside_the_manifest_are_refused(manifest: Path) -> None:
    with pytest.raises(InputError, match="outside the manifest"):
        draft_from_extractions(manifest, {"inbox/other.md": {"items": []}})


def test_a_malformed_extraction_file_is_an_input_error_naming_the_file(manifest: Path, tmp_path: Path) -> None:
    bad = tmp_path / "reading.json"
    bad.write_text(json.dumps({"schema_version": "2", "origin": {"kind": "agent"}, "materials": {NOTE: [1]}}))
    with pytest.raises(InputError, match=r"reading\.json.*v2 extraction"):
        draft_from_extractions(manifest, bad)
    with pytest.raises(InputError, match="no such file"):
        draft_from_extractions(manifest, tmp_path / "missing.json")


def test_an_extraction_set_file_names_its_reader(manifest: Path, tmp_path: Path) -> None:
    reading = ExtractionSet.model_validate(
        {"origin": {"kind": "model", "by": "my-model-7b"}, "materials": {NOTE: {"items": [_kestrel()]}}}
    )
    path = tmp_path / "reading.json"
    path.write_text(reading.model_dump_json(), encoding="utf-8")
    brief = draft_from_extractions(manifest, path)
    assert brief.run.backend == "model" and brief.run.model == "my-model-7b"
    assert any(i.key == "Kestrel-KV" and i.producer == "model" for i in brief.increments)


def test_brief_objects_of_the_caller_are_verified_like_any_others(manifest: Path) -> None:
    good = {
        "key": "Kestrel-KV",
        "sources": [NOTE],
        "evidence": "verified",
        "url": "https://example.org/kestrel-kv",
        "evidence_note": "已核查原文",
        "points": ["Kestrel-KV keeps hot KV blocks in HBM and spills cold blocks to NVMe."],
    }
    invented = {**good, "key": "Falcon-KV", "url": None, "points": ["Falcon-KV is 9x faster."]}
    paraphrase = {**good, "evidence_note": "we read it all"}
    brief = draft_from_objects(manifest, {"increments": [good, invented]}, name="worker-7")
    assert any(i.key == "Kestrel-KV" and i.producer == "worker-7" for i in brief.increments)
    assert [r.key for r in brief.rejected if r.producer == "worker-7"] == ["Falcon-KV"]
    # a note that is not the material's words cannot overrule the rules' exclusion of the subject
    overruled = draft_from_objects(manifest, {"increments": [paraphrase]}, name="worker-7")
    assert not any(i.key == "Kestrel-KV" for i in overruled.increments)
    assert any(e.key == "Kestrel-KV" and "worker-7 提为增量" in e.reason for e in overruled.excluded)


def test_the_callers_objects_cannot_pass_as_the_rules(manifest: Path) -> None:
    with pytest.raises(InputError, match="rules"):
        draft_from_objects(manifest, {"increments": []}, name="rules")
    with pytest.raises(InputError, match="unknown lists"):
        draft_from_objects(manifest, {"findings": []})


def test_the_extraction_models_ignore_a_readers_extra_fields() -> None:
    parsed = Extraction.model_validate({"items": [{**_kestrel(), "confidence": 0.9}]})
    assert parsed.items[0].name == "Kestrel-KV"


UPDATE_NOTE = """# blogs discovery 2026-10-25

## vLLM 0.12 release
- 链接：https://example.org/vllm-0-12
- 核查：已核查原文
- vLLM 0.12 adds chunked prefill for encoder-decoder models.

## vLLM 0.11 recap
- 链接：https://example.org/vllm-0-11
- 核查：已核查原文
- vLLM 0.11 作为参考引擎。
"""


def test_the_rules_draw_an_update_for_a_known_subject_with_a_version_the_document_lacks(make_kb: MakeKB) -> None:
    brief = draft_from_extractions(make_kb({NOTE: UPDATE_NOTE}), {})
    updates = [(i.key, i.url) for i in brief.increments if i.kind == "update"]
    assert updates == [("vLLM", "https://example.org/vllm-0-12")]
    assert not any(i.url == "https://example.org/vllm-0-11" for i in brief.increments), "0.11 is the document's"
    assert "0.12" in brief.increments[0].relation and not brief.rejected


def test_a_readers_level_words_overrule_the_rules_exclusion_only_when_the_material_holds_them(
    manifest: Path,
) -> None:
    url = "https://example.org/kestrel-kv"
    held = draft_from_extractions(manifest, {NOTE: {"items": [_kestrel()]}})
    [inc] = [i for i in held.increments if i.url == url]
    assert any(b.startswith("规则读作未采纳") for b in inc.boundary), "the rules' reason stays visible"
    invented = draft_from_extractions(manifest, {NOTE: {"items": [_kestrel(level_quote="read every page twice")]}})
    assert not [i for i in invented.increments if i.url == url]
    assert any(e.url == url and "未举材料原话" in e.reason for e in invented.excluded)
