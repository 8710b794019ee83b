"""Replay the recorded exchanges with the real local model, offline, and keep the cassettes honest.

The cassettes were recorded by ``scripts/record_cassettes.py`` from llama-cpp-python serving
SmolLM2-135M. These tests never record: record_mode is "none" and every socket connection is
refused while a cassette plays.
"""

from __future__ import annotations

import os
import shutil
import socket
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from e1prep.brief.models import Contradiction, Increment, Refresh
from e1prep.kb import knowledge, loading
from e1prep.llm import cassettes
from e1prep.llm.backend import RESPONSE_MODELS, LLMProducer, schema_sha256
from e1prep.llm.prompts import chunk_material, default_prompts_dir, load_prompt

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "evals" / "golden"
CASSETTES = ROOT / cassettes.CHECKOUT_CASSETTE_DIR
CONSTRAINTS = ROOT / "constraints" / "llm-recorded.txt"
ENTRIES: list[dict[str, Any]] = cassettes.load_manifest(CASSETTES)["cassettes"]
RERECORD = "re-record: python scripts/record_cassettes.py --only-stale"


@pytest.fixture
def network_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("network access is blocked while cassettes replay")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def load(case: str) -> tuple[loading.KB, knowledge.KnowledgeDoc]:
    kb = loading.load_kb(GOLDEN / case / "manifest.json")
    return kb, knowledge.parse_knowledge(kb.knowledge_material.path, kb.knowledge_material.text)


def test_the_inference_case_replays_offline_with_usage_and_llm_objects(network_blocked: None) -> None:
    kb, doc = load("2026-10-25-inference")
    with cassettes.replaying("2026-10-25-inference", CASSETTES) as settings:
        production = LLMProducer(settings).produce(kb, doc)
    usage = production.usage
    assert usage.calls > 0 and usage.prompt_tokens > 0 and usage.completion_tokens > 0
    assert usage.cache_hits == 0
    assert production.model == cassettes.manifest_entry("2026-10-25-inference", CASSETTES)["model"]
    objects: list[Increment | Refresh | Contradiction] = [
        *production.increments,
        *production.refreshes,
        *production.contradictions,
    ]
    assert objects and {o.producer for o in objects} == {"llm"}
    read = {m.path for m in kb.materials if m.status.value == "read"}
    assert all(set(o.sources) <= read for o in objects)
    assert set(production.failures) <= read


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_every_cassette_replays_exactly_what_was_recorded(entry: dict[str, Any], network_blocked: None) -> None:
    kb, doc = load(entry["case"])
    with cassettes.replaying(entry["case"], CASSETTES, entry["prompt_id"]) as settings:
        production = LLMProducer(settings).produce(kb, doc)
    unrecorded = [p for p, why in production.failures.items() if "no recorded answer" in why]
    assert not unrecorded, f"requests not in {entry['file']} for {unrecorded}; {RERECORD}"
    assert production.usage.model_dump() == entry["usage"]
    assert production.failures == entry["failures"]
    assert (len(production.increments), len(production.refreshes), len(production.contradictions)) == (
        entry["increments"],
        entry["refreshes"],
        entry["contradictions"],
    )
    assert production.model == entry["model"]
    assert production.prompt_versions == {entry["prompt_id"]: entry["prompt_version"]}


def test_a_request_the_cassette_does_not_hold_fails_the_material_with_a_re_record_hint(
    tmp_path: Path, network_blocked: None
) -> None:
    folder = tmp_path / "prompts"
    shutil.copytree(default_prompts_dir(), folder)
    path = folder / "extract_material.md"
    path.write_text(path.read_text(encoding="utf-8").replace("Short answers.", "Brief answers."), encoding="utf-8")
    kb, doc = load("2026-10-25-inference")
    with cassettes.replaying("2026-10-25-inference", CASSETTES) as settings:
        production = LLMProducer(replace(settings, prompts_dir=folder)).produce(kb, doc)
    read = [m.path for m in kb.materials if m.status.value == "read"]
    assert sorted(production.failures) == sorted(read)
    assert all("python scripts/record_cassettes.py" in why for why in production.failures.values())
    chunks = sum(len(chunk_material(m, settings.chunk_chars)) for m in kb.materials if m.path in read)
    assert production.usage.calls == chunks, "one attempt per chunk: a missing recording is not retried"


# --- freshness ---------------------------------------------------------------------------------------


def test_cassettes_are_fresh_for_the_current_prompt_schema_and_libraries() -> None:
    stale = {}
    for entry in ENTRIES:
        prompt = load_prompt(entry["prompt_id"])
        response_sha = schema_sha256(RESPONSE_MODELS[prompt.output_model])
        kb, doc = load(entry["case"])
        sha = LLMProducer(cassettes.replay_settings(entry)).requests_sha256(kb, doc)
        reasons = cassettes.stale_reasons(entry, prompt, response_sha, directory=CASSETTES, requests_sha=sha)
        if entry.get("libraries") != cassettes.library_versions():
            reasons.append(f"recorded with {entry.get('libraries')}, installed {cassettes.library_versions()}")
        if reasons:
            stale[entry["file"]] = reasons
    assert not stale, f"cassettes out of date, {RERECORD}: {stale}"


def test_the_constraints_file_pins_the_libraries_the_cassettes_were_recorded_with() -> None:
    """CI and the recording script install with constraints/llm-recorded.txt: it must name the recorded versions."""
    pins = cassettes.read_pins(CONSTRAINTS)
    recorded = {(lib, version) for e in ENTRIES for lib, version in e["libraries"].items()}
    assert recorded, "MANIFEST.json lists no library versions"
    assert {(lib, pins.get(lib)) for lib, _ in recorded} == recorded, (
        f"{CONSTRAINTS.name} pins {pins.get('openai')=} {pins.get('instructor')=}, cassettes recorded with {recorded}"
    )


@pytest.mark.parametrize("prompt_id", ["extract_material", "extract_items"])
def test_every_golden_case_has_a_cassette_for_each_prompt(prompt_id: str) -> None:
    prompt = load_prompt(prompt_id)
    cases = sorted(p.parent.name for p in GOLDEN.glob("*/manifest.json"))
    have = {e["case"] for e in ENTRIES if e["prompt_id"] == prompt.id and e["prompt_version"] == prompt.version}
    missing = [c for c in cases if c not in have]
    assert not missing, f"golden cases without a cassette {missing}; {RERECORD} --prompt {prompt_id}"


def test_the_freshness_check_notices_a_changed_prompt_or_schema(tmp_path: Path) -> None:
    entry = cassettes.manifest_entry("2026-10-25-inference", CASSETTES)
    prompt = load_prompt("extract_material")
    assert cassettes.stale_reasons(entry, prompt, schema_sha256()) == []
    folder = tmp_path / "prompts"
    shutil.copytree(default_prompts_dir(), folder)
    (folder / "extract_material.md").write_text(prompt.path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    changed = load_prompt("extract_material", folder)
    assert any("changed since recording" in r for r in cassettes.stale_reasons(entry, changed, schema_sha256()))
    assert any("schema" in r for r in cassettes.stale_reasons(entry, prompt, "0" * 64))


def test_every_cassette_file_is_listed_in_the_manifest() -> None:
    files = sorted(p.name for p in CASSETTES.glob("*.yaml"))
    listed = sorted(e["file"] for e in ENTRIES)
    assert files == listed, f"unlisted or missing cassette files; {RERECORD}"


# --- what the cassettes hold ---------------------------------------------------------------------------


def _secrets() -> list[str]:
    found = [cassettes.DUMMY_KEY]
    for name in ("OPENAI_API_KEY", "E1PREP_API_KEY"):
        value = os.environ.get(name, "")
        if len(value) >= 8:
            found.append(value)
    return found


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_cassettes_hold_no_key_and_name_the_server_model(entry: dict[str, Any]) -> None:
    text = (CASSETTES / entry["file"]).read_text(encoding="utf-8")
    for secret in _secrets():
        assert secret not in text
    data = yaml.safe_load(text)
    assert data["metadata"]["e1prep"]["model"] == entry["model"]
    assert len(data["interactions"]) == entry["interactions"] == entry["usage"]["calls"]
    for interaction in data["interactions"]:
        headers = {h.lower() for h in interaction["request"]["headers"]}
        assert not headers & {h.lower() for h in cassettes.FILTER_HEADERS}
        body = interaction["response"]["body"]["json"]
        if interaction["response"]["status"]["code"] == 200:
            assert body["model"] == entry["model"]
        else:  # a real refusal the server sent (e.g. a prompt over its context window), recorded as it came
            assert "error" in body
        assert interaction["request"]["parsed_body"]["temperature"] == 0
