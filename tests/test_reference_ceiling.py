"""The ceiling of the model path, measured through the real client: a scripted OpenAI-compatible server
answers each material with its reference extraction (``evals/reference``, written by a person who never
read ``src/``: reference answers, not model output and never a cassette), and the real ``LLMProducer``
with the v2 prompt drafts the brief. A capable model that reads like that person gets this brief.
"""

from __future__ import annotations

import json
import re
import threading
import tomllib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from e1prep.brief.golden import load_golden
from e1prep.evals.runner import reference_brief, score_brief
from e1prep.llm.backend import LLMProducer
from e1prep.llm.settings import LLMSettings
from e1prep.pipeline import draft_brief

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "evals" / "golden"
REFERENCE = ROOT / "evals" / "reference"
CASES = sorted(p.parent.name for p in GOLDEN.glob("*/expected.json"))
FLOORS = tomllib.loads((ROOT / "evals" / "thresholds.toml").read_text(encoding="utf-8"))["reference"]
_MATERIAL = re.compile(r'<<<MATERIAL path="([^"]+)"')


class ReferenceServer:
    """Loopback server answering a chat completion with the reference extraction of the material it names."""

    def __init__(self, extractions: dict[str, Any]) -> None:
        self.extractions = extractions
        self.asked: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
                text = "\n".join(str(m.get("content") or "") for m in body["messages"])
                path = _MATERIAL.search(text)
                assert path is not None, "every request frames its material"
                server.asked.append(path.group(1))
                tool = body["tools"][0]["function"]["name"]
                answer = server.extractions.get(path.group(1), {"items": []})
                call = {"id": "c1", "type": "function", "function": {"name": tool, "arguments": json.dumps(answer)}}
                payload = {
                    "id": "chatcmpl-ref",
                    "object": "chat.completion",
                    "created": 0,
                    "model": "reference-answers",
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "tool_calls",
                            "message": {"role": "assistant", "tool_calls": [call]},
                        }
                    ],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                }
                data = json.dumps(payload).encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> ReferenceServer:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(params=CASES)
def case(request: pytest.FixtureRequest) -> Iterator[Path]:
    yield GOLDEN / request.param


def _settings(base_url: str) -> LLMSettings:
    return LLMSettings(
        base_url=base_url,
        api_key="sk-test",
        model="reference-answers",
        prompt_id="extract_items",
        chunk_chars=10_000_000,  # one call per material: the reference is written per material
        max_retries=0,
        max_reasks=0,
        concurrency=2,
        use_cache=False,
    )


def test_every_golden_case_has_a_reference_extraction_labelled_as_such() -> None:
    for name in CASES:
        data = json.loads((REFERENCE / f"{name}.json").read_text(encoding="utf-8"))
        assert data["origin"]["kind"] == "reference" and "not model output" in data["origin"]["note"]
        manifest = json.loads((GOLDEN / name / "manifest.json").read_text(encoding="utf-8"))
        assert set(data["materials"]) == set(manifest["items"][0]["materials"]), name


def test_the_reference_served_to_the_model_backend_reaches_the_ceiling(case: Path) -> None:
    extractions = json.loads((REFERENCE / f"{case.name}.json").read_text(encoding="utf-8"))["materials"]
    with ReferenceServer(extractions) as server:
        brief = draft_brief(case / "manifest.json", producer=LLMProducer(_settings(server.base_url)))
    assert sorted(set(server.asked)) == sorted(extractions), "every read material was asked once"
    result = score_brief(brief, load_golden(case / "expected.json"))
    assert result.scores["increments"].f1 >= FLOORS["every_case_increments_f1_min"], result.missed
    assert result.scores["refreshes"].f1 >= FLOORS["every_case_refreshes_f1_min"], result.missed
    assert [r.key for r in brief.rejected if r.producer == "llm"] == []
    # the agent API (no server) makes the same brief of the same reading
    direct = reference_brief(case, REFERENCE)
    assert [(i.key, i.kind) for i in direct.increments] == [(i.key, i.kind) for i in brief.increments]
    assert [r.key for r in direct.refreshes] == [r.key for r in brief.refreshes]
    assert [(e.key, e.reason.replace("reference", "llm")) for e in direct.excluded] == [
        (e.key, e.reason) for e in brief.excluded
    ]
