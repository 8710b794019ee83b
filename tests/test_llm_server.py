"""The model backend against a real local HTTP server (not a mocked client): faults, retries, cache, secrets.

The stub speaks just enough of the OpenAI chat-completions API: it answers each request with the
behaviour scripted for the material named in the prompt ("ok", "500", "429", "slow", "drop",
"badjson", "invalid"), and counts what it saw.
"""

from __future__ import annotations

import itertools
import json
import logging
import re
import shutil
import socket
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from e1prep.brief import models
from e1prep.kb import knowledge, loading
from e1prep.kb.knowledge import KnowledgeDoc
from e1prep.kb.loading import KB
from e1prep.llm.backend import LLMProducer
from e1prep.llm.prompts import default_prompts_dir
from e1prep.llm.settings import LLMSettings, load_settings

PROMPT_TOKENS = 100
COMPLETION_TOKENS = 20
_MATERIAL = re.compile(r'<<<MATERIAL path="([^"]+)"')


def answer(material: str, *, valid: bool = True) -> dict[str, Any]:
    """A MaterialExtraction answer for ``material``; the invalid one has a number without its quote."""
    name = NAMES.get(material, "Item of " + Path(material).stem)
    item = {
        "name": name,
        "new": True,
        "level": "verified",
        "point": "A point.",
        "section": "",
        "number": "",
        "quote": "",
        "conflict": "",
    }
    if not valid:
        item |= {"number": "42", "quote": "a sentence without it"}
    return {"items": [item]}


def completion(arguments: dict[str, Any]) -> dict[str, Any]:
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "MaterialExtraction", "arguments": json.dumps(arguments)},
    }
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": 0,
        "model": "stub-model-1",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": None, "tool_calls": [call]},
            }
        ],
        "usage": {
            "prompt_tokens": PROMPT_TOKENS,
            "completion_tokens": COMPLETION_TOKENS,
            "total_tokens": PROMPT_TOKENS + COMPLETION_TOKENS,
        },
    }


class _Server(ThreadingHTTPServer):
    request_queue_size = 64  # the default backlog of 5 drops simultaneous connects (a 1 s SYN retry)
    daemon_threads = True


class StubServer:
    """An OpenAI-compatible stub on 127.0.0.1 (port 0) in a thread, scripted per material."""

    def __init__(self, script: dict[str, list[str]] | None = None, *, slow: float = 1.5, delay: float = 0.0) -> None:
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.slow = slow
        self.delays: dict[str, float] = defaultdict(lambda: delay)
        self.seen: Counter[str] = Counter()
        self.auth: list[str] = []
        self.times: dict[str, list[float]] = defaultdict(list)
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # one answer, one segment: no 40 ms delayed-ACK stalls

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                text = "\n".join(str(m.get("content") or "") for m in body["messages"])
                material = m.group(1) if (m := _MATERIAL.search(text)) else "?"
                with stub._lock:
                    stub.seen[material] += 1
                    stub.auth.append(self.headers.get("Authorization", ""))
                    stub.times[material].append(time.monotonic())
                    steps = stub.script.get(material, [])
                    step = steps.pop(0) if steps else "ok"
                time.sleep(stub.delays[material])
                stub.act(self, step, material)

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def act(self, handler: BaseHTTPRequestHandler, step: str, material: str) -> None:
        if step == "drop":
            handler.close_connection = True
            handler.connection.shutdown(socket.SHUT_RDWR)
            return
        if step == "slow":
            time.sleep(self.slow)
        status, payload, extra = 200, b"", {}
        if step in ("500", "429"):
            status = int(step)
            payload = json.dumps({"error": {"message": f"stub {step}", "type": "stub"}}).encode()
            extra = {"Retry-After": "0"} if step == "429" else {}
        elif step == "badjson":
            payload = b'{"id": "chatcmpl-stub", "choices": [{"index": 0, "mess'
        else:
            payload = json.dumps(completion(answer(material, valid=step != "invalid"))).encode()
        try:
            handler.send_response(status)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(payload)))
            for key, value in extra.items():
                handler.send_header(key, value)
            handler.end_headers()
            handler.wfile.write(payload)
        except OSError:
            pass  # the client gave up (timeout)

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    @property
    def total(self) -> int:
        return sum(self.seen.values())

    def __enter__(self) -> StubServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


NOTES = {
    "inbox/jay/2026-10-30T0900-blogs-discovery.md": "# 博客发现\n\n## 1. Alpha 引擎\n\n- URL：https://example.com/alpha\n"
    "- 核查：已核查原文\n- 要点：Alpha 把 KV cache 放进分页池。\n",
    "inbox/jay/2026-10-30T1000-csdn-discovery.md": "# CSDN\n\n## 1. Beta 调度器\n\n- URL：https://example.com/beta\n"
    "- 核查：仅搜索摘要\n- 要点：摘要称吞吐提升 30%（厂商自述）。\n",
    "inbox/tom/2026-10-30-1100-inference-radar.md": "# radar\n\n1. Gamma 量化 https://example.com/gamma\n"
    "   - 核查：已核查原文\n   - 要点：Gamma 支持 FP4。\n",
}
DOC = "# inference 活文档\n\n> 更新标记：vOct29\n\n## §1 推理引擎\n\n### §1.1 引擎\n\n- **vLLM**：PagedAttention。\n"


def write_kb(root: Path, notes: dict[str, str] = NOTES) -> Path:
    for rel, text in notes.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / "organized/knowledge").mkdir(parents=True, exist_ok=True)
    (root / "organized/knowledge/inference.md").write_text(DOC, encoding="utf-8")
    manifest = {
        "job": "test-job",
        "created": "2026-10-30T21:00:00+08:00",
        "items": [
            {
                "id": "e1_prep:inference",
                "topic": "inference",
                "knowledge": "organized/knowledge/inference.md",
                "materials": list(notes),
                "output": "inbox/tom/2026-10-30-inference-e1prep.md",
            }
        ],
    }
    (root / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return root / "manifest.json"


def load(manifest: Path) -> tuple[KB, KnowledgeDoc]:
    kb = loading.load_kb(manifest)
    return kb, knowledge.parse_knowledge(kb.knowledge_material.path, kb.knowledge_material.text)


A, B, C = list(NOTES)
NAMES = {A: "Alpha", B: "Beta", C: "Gamma"}


@pytest.fixture
def kb_doc(tmp_path: Path) -> tuple[KB, KnowledgeDoc]:
    return load(write_kb(tmp_path / "kb"))


def settings_for(stub: StubServer, tmp_path: Path, **changes: Any) -> LLMSettings:
    base = LLMSettings(
        base_url=stub.base_url,
        api_key="sk-test-not-a-real-key",
        model="stub-model",
        timeout=0.5,
        max_retries=2,
        max_reasks=1,
        backoff=0.02,
        backoff_max=0.2,
        concurrency=3,
        use_cache=False,
        cache_dir=tmp_path / "cache",
        prompt_id="extract_material",  # the transport is tested with the small v1 answers
    )
    return replace(base, **changes)


@pytest.fixture
def quiet_logs() -> Iterator[None]:
    logging.getLogger("instructor").setLevel(logging.CRITICAL)
    yield
    logging.getLogger("instructor").setLevel(logging.NOTSET)


# --- retries and failures --------------------------------------------------------------------------


@pytest.mark.parametrize("fault", ["500", "429", "slow", "drop", "badjson"])
def test_a_transient_fault_is_retried_after_a_backoff(
    fault: str, kb_doc: Any, tmp_path: Path, quiet_logs: None
) -> None:
    kb, doc = kb_doc
    with StubServer({A: [fault]}, slow=1.5) as stub:
        producer = LLMProducer(settings_for(stub, tmp_path))
        production = producer.produce(kb, doc)
    assert stub.seen[A] == 2, "one failed attempt, one retry"
    assert production.failures == {}
    assert production.usage.calls == 4 and production.usage.retries == 1
    assert producer.material_usage[A].waited >= 0.02
    gap = stub.times[A][1] - stub.times[A][0]
    assert gap >= 0.02, "the retry came after a pause"
    assert [i.key for i in production.increments] == ["Alpha", "Beta", "Gamma"]


def test_backoff_grows_between_attempts(kb_doc: Any, tmp_path: Path, quiet_logs: None) -> None:
    kb, doc = kb_doc
    with StubServer({A: ["500", "500", "500", "500"]}) as stub:
        producer = LLMProducer(settings_for(stub, tmp_path, max_retries=4, backoff=0.05, backoff_max=5.0))
        production = producer.produce(kb, doc)
    assert stub.seen[A] == 5 and production.failures == {}
    gaps = [b - a for a, b in itertools.pairwise(stub.times[A])]
    # waits are 0.05·2^n plus up to 0.05 of jitter: at least 0.05, 0.1, 0.2, 0.4
    for n, gap in enumerate(gaps):
        assert gap >= 0.05 * 2**n, gaps
    assert producer.material_usage[A].waited >= 0.05 * (1 + 2 + 4 + 8)


@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        ("500", "HTTP 500"),
        ("429", "HTTP 429"),
        ("slow", "timed out"),
        ("drop", "connection failed"),
        ("badjson", "malformed response"),
    ],
)
def test_a_material_that_keeps_failing_is_marked_failed_and_the_others_go_on(
    fault: str, reason: str, kb_doc: Any, tmp_path: Path, quiet_logs: None
) -> None:
    kb, doc = kb_doc
    with StubServer({B: [fault] * 10}, slow=0.8) as stub:
        production = LLMProducer(settings_for(stub, tmp_path, max_retries=2, timeout=0.4)).produce(kb, doc)
    assert stub.seen[B] == 3, "max_retries=2 means three attempts, then give up"
    assert list(production.failures) == [B]
    assert reason in production.failures[B]
    assert "after 3 attempts" in production.failures[B]
    assert production.usage.failures == 1
    assert production.usage.calls == 3 + 2 and production.usage.retries == 2
    assert sorted(i.sources[0] for i in production.increments) == sorted([A, C])
    assert all(obj.producer == "llm" for obj in production.increments)


def test_an_invalid_answer_is_re_asked_and_its_tokens_counted(kb_doc: Any, tmp_path: Path, quiet_logs: None) -> None:
    kb, doc = kb_doc
    with StubServer({A: ["invalid"]}) as stub:
        production = LLMProducer(settings_for(stub, tmp_path, max_reasks=1)).produce(kb, doc)
    assert stub.seen[A] == 2 and production.failures == {}
    assert production.usage.calls == 4 and production.usage.retries == 1
    assert production.usage.prompt_tokens == 4 * PROMPT_TOKENS, "the failed attempt's tokens count too"
    assert production.usage.completion_tokens == 4 * COMPLETION_TOKENS


def test_an_answer_that_stays_invalid_fails_after_the_bounded_re_asks(
    kb_doc: Any, tmp_path: Path, quiet_logs: None
) -> None:
    kb, doc = kb_doc
    with StubServer({A: ["invalid"] * 5}) as stub:
        production = LLMProducer(settings_for(stub, tmp_path, max_reasks=2)).produce(kb, doc)
    assert stub.seen[A] == 3
    assert "did not validate" in production.failures[A] and "after 2 re-asks" in production.failures[A]
    assert production.usage.prompt_tokens == (3 + 2) * PROMPT_TOKENS


def test_the_result_does_not_depend_on_the_order_of_answers(kb_doc: Any, tmp_path: Path) -> None:
    kb, doc = kb_doc
    with StubServer() as stub:
        stub.delays.update({A: 0.3, B: 0.15, C: 0.0})  # the first material answers last
        parallel = LLMProducer(settings_for(stub, tmp_path, concurrency=3)).produce(kb, doc)
        serial = LLMProducer(settings_for(stub, tmp_path, concurrency=1)).produce(kb, doc)
    assert stub.times[C][0] < stub.times[A][0] + 0.3
    assert parallel == serial
    assert [i.sources for i in parallel.increments] == [[A], [B], [C]]


def test_objects_carry_the_server_model_id_and_prompt_version(kb_doc: Any, tmp_path: Path) -> None:
    kb, doc = kb_doc
    with StubServer() as stub:
        production = LLMProducer(settings_for(stub, tmp_path)).produce(kb, doc)
    assert production.model == "stub-model-1", "the id the server reported, not the one asked for"
    assert production.prompt_versions == {"extract_material": "1"}
    inc = production.increments[0]
    assert inc.producer == "llm" and inc.sources == [A] and inc.url == "https://example.com/alpha"
    assert inc.key == "Alpha" and inc.doc_hits[0].term == "Alpha" and inc.doc_hits[0].hits == 0


# --- the cache ---------------------------------------------------------------------------------------


def test_a_second_run_sends_no_request(kb_doc: Any, tmp_path: Path) -> None:
    kb, doc = kb_doc
    with StubServer() as stub:
        settings = settings_for(stub, tmp_path, use_cache=True)
        first = LLMProducer(settings).produce(kb, doc)
        sent = stub.total
        second = LLMProducer(settings).produce(kb, doc)
    assert sent == 3 and stub.total == sent, "no request on the second run"
    assert first.usage.cache_hits == 0
    assert second.usage.cache_hits == 3 and second.usage.calls == 0
    assert second.increments == first.increments and second.model == first.model


def _bumped_prompts(tmp_path: Path) -> Path:
    folder = tmp_path / "prompts"
    shutil.copytree(default_prompts_dir(), folder)
    path = folder / "extract_material.md"
    path.write_text(path.read_text(encoding="utf-8").replace("version: 1\n", "version: 2\n", 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize("change", ["prompt_version", "model", "content", "schema_version", "no_cache"])
def test_the_cache_misses_when_a_key_part_changes(
    change: str, kb_doc: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb, doc = kb_doc
    with StubServer() as stub:
        settings = settings_for(stub, tmp_path, use_cache=True)
        LLMProducer(settings).produce(kb, doc)
        assert stub.total == 3
        expect_misses = 3
        if change == "prompt_version":
            settings = replace(settings, prompts_dir=_bumped_prompts(tmp_path))
        elif change == "model":
            settings = replace(settings, model="another-model")
        elif change == "content":
            kb.materials[1].text += "\n- 补充：新的一行。\n"
            expect_misses = 1
        elif change == "schema_version":
            monkeypatch.setattr(models, "SCHEMA_VERSION", "999")
        else:
            settings = replace(settings, use_cache=False)
        production = LLMProducer(settings).produce(kb, doc)
    assert stub.total == 3 + expect_misses
    assert production.usage.cache_hits == 3 - expect_misses


# --- secrets -------------------------------------------------------------------------------------------


def test_the_api_key_never_leaves_the_request_header(
    kb_doc: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    kb, doc = kb_doc
    secret = "sk-live-DO-NOT-LEAK-0123456789abcdef"
    caplog.set_level(logging.DEBUG)
    with StubServer({A: ["500"], B: ["500"] * 5}) as stub:
        env = {
            "E1PREP_BASE_URL": stub.base_url,
            "OPENAI_API_KEY": secret,
            "E1PREP_MODEL": "stub-model",
            "E1PREP_CACHE_DIR": str(tmp_path / "cache"),
            "E1PREP_BACKOFF": "0.01",
            "E1PREP_RETRIES": "1",
            "E1PREP_TIMEOUT": "2",
            "E1PREP_PROMPT": "extract_material",
        }
        settings = load_settings(env)
        producer = LLMProducer(settings)
        production = producer.produce(kb, doc)
    assert stub.auth and all(a == f"Bearer {secret}" for a in stub.auth), "the key was really sent"
    assert production.failures and caplog.records, "there were failures and log lines to check"
    assert secret not in caplog.text
    assert secret not in repr(settings) and secret not in repr(producer.settings)
    assert secret not in repr(production) and secret not in json.dumps(production.failures)
    for obj in [*production.increments, *production.refreshes, *production.contradictions]:
        assert secret not in obj.model_dump_json()
    cached = list((tmp_path / "cache").rglob("*.json"))
    assert cached
    for path in cached:
        assert secret not in path.read_text(encoding="utf-8")
