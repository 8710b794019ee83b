#!/usr/bin/env python
"""How much concurrency buys, and how big the prompts are.

1. Wall time of ``LLMProducer.produce`` over 8 materials against a local stub OpenAI-compatible
   server that answers every request after a fixed delay, with concurrency 8 and 1.
2. Prompt size per material: characters sent per request (stub), and the real prompt tokens per
   material counted by the SmolLM2 tokenizer in the recorded cassettes (replayed offline).

Usage: python benchmarks/bench_llm_concurrency.py [--delay 0.5] [--materials 8]
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import tempfile
import threading
import time
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from e1prep.kb import knowledge, loading  # noqa: E402
from e1prep.llm import cassettes  # noqa: E402
from e1prep.llm.backend import LLMProducer  # noqa: E402
from e1prep.llm.prompts import chunk_material  # noqa: E402
from e1prep.llm.settings import LLMSettings  # noqa: E402

ANSWER: dict[str, list[object]] = {"items": []}


class _Server(ThreadingHTTPServer):
    request_queue_size = 64  # the default backlog of 5 drops simultaneous connects (a 1 s SYN retry)
    daemon_threads = True


def stub_server(delay: float, sizes: dict[str, int]) -> ThreadingHTTPServer:
    """Answers every chat completion with an empty extraction after ``delay`` seconds."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # one answer, one segment: no 40 ms delayed-ACK stalls

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            text = "".join(m.get("content") or "" for m in body["messages"])
            found = re.search(r'<<<MATERIAL path="([^"]+)"', text)
            sizes[found.group(1) if found else "?"] = len(text)
            time.sleep(delay)
            call = {
                "id": "c",
                "type": "function",
                "function": {"name": "MaterialExtraction", "arguments": json.dumps(ANSWER)},
            }
            payload = json.dumps(
                {
                    "id": "x",
                    "object": "chat.completion",
                    "created": 0,
                    "model": "stub",
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "tool_calls",
                            "message": {"role": "assistant", "content": None, "tool_calls": [call]},
                        }
                    ],
                    "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    server = _Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def make_kb(root: Path, n: int) -> Path:
    """``n`` inbox notes of growing size (each under one chunk) and a small living document."""
    materials = []
    for i in range(n):
        rel = f"inbox/jay/2026-10-30T{10 + i:02d}00-blogs-discovery.md"
        items = "\n".join(
            f"## {k}. 项目 P{i}-{k}\n\n- URL：https://example.com/p{i}/{k}\n- 核查：已核查原文\n- 要点：第 {k} 条。\n"
            for k in range(1, 2 + i)
        )
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(f"# 博客发现 {i}\n\n{items}", encoding="utf-8")
        materials.append(rel)
    (root / "organized/knowledge").mkdir(parents=True, exist_ok=True)
    (root / "organized/knowledge/inference.md").write_text("# inference\n\n## §1 引擎\n\n- vLLM\n", encoding="utf-8")
    manifest = {
        "job": "bench",
        "created": "2026-10-30T21:00:00+08:00",
        "items": [
            {
                "id": "e1_prep:inference",
                "topic": "inference",
                "knowledge": "organized/knowledge/inference.md",
                "materials": materials,
            }
        ],
    }
    (root / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return root / "manifest.json"


def wall_times(delay: float, n: int) -> None:
    sizes: dict[str, int] = {}
    server = stub_server(delay, sizes)
    host, port = server.server_address[:2]
    with tempfile.TemporaryDirectory() as tmp:
        kb = loading.load_kb(make_kb(Path(tmp), n))
        doc = knowledge.parse_knowledge(kb.knowledge_material.path, kb.knowledge_material.text)
        settings = LLMSettings(
            base_url=f"http://{host!s}:{port}/v1",
            api_key="sk-test-not-a-real-key",
            model="stub",
            use_cache=False,
            timeout=30,
        )
        print(f"stub server answering after {delay:.2f} s; {n} materials, one request each")
        start = time.perf_counter()
        LLMProducer(settings, concurrency=1).produce(replace(kb, materials=kb.materials[:1]), doc)
        print(
            f"  warm-up, one call (the first call in a process pays lazy imports): {time.perf_counter() - start:.2f} s"
        )
        for concurrency in (n, 1):
            sizes.clear()
            start = time.perf_counter()
            production = LLMProducer(settings, concurrency=concurrency).produce(kb, doc)
            wall = time.perf_counter() - start
            print(
                f"  concurrency {concurrency}: {wall:6.2f} s wall, {production.usage.calls} calls, "
                f"{wall / delay:4.1f}x one call's delay"
            )
        print("  material chars -> prompt chars per request (system + user messages):")
        for material in kb.materials:
            print(f"    {len(material.text):6d} -> {sizes[material.path]:6d}")
    server.shutdown()
    server.server_close()


def recorded_tokens() -> None:
    """Real prompt tokens (SmolLM2 tokenizer, as the llama-cpp-python server counted them)."""
    entries = cassettes.load_manifest()["cassettes"]
    if not entries:
        print("no cassettes recorded yet")
        return
    print("\nrecorded cassettes, replayed offline: prompt tokens per material vs its size")
    print(f"  {'material':60s} {'chars':>6s} {'chunks':>6s} {'calls':>5s} {'prompt tok':>10s} {'tok/call':>8s}")
    for entry in entries:
        kb = loading.load_kb(ROOT / "evals" / "golden" / entry["case"] / "manifest.json")
        doc = knowledge.parse_knowledge(kb.knowledge_material.path, kb.knowledge_material.text)
        with cassettes.replaying(entry["case"], entry["prompt_id"]) as settings:
            producer = LLMProducer(settings)
            producer.produce(kb, doc)
        print(f"  {entry['case']}")
        for material in kb.materials:
            stats = producer.material_usage.get(material.path)
            if stats is None or not stats.calls:
                continue
            chunks = len(chunk_material(material, settings.chunk_chars))
            print(
                f"    {material.path[-58:]:58s} {len(material.text):6d} {chunks:6d} {stats.calls:5d} "
                f"{stats.prompt_tokens:10d} {stats.prompt_tokens // stats.calls:8d}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--delay", type=float, default=0.5)
    parser.add_argument("--materials", type=int, default=8)
    parser.add_argument("--no-recorded", action="store_true", help="skip the replay of the recorded cassettes")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)
    wall_times(args.delay, args.materials)
    if not args.no_recorded:
        recorded_tokens()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
