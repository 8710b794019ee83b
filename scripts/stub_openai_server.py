#!/usr/bin/env python
"""A tiny OpenAI-compatible chat-completions stub for the wheel smoke test (stdlib only, loopback only).

Every ``POST /v1/chat/completions`` is answered with one forced tool call of the requested answer
model (``Extraction``, v2, or ``MaterialExtraction``, v1) holding one item named after the material;
``GET /v1/models`` lists ``stub-model``.
It binds 127.0.0.1 on a free port, writes the port to ``--port-file`` and serves until killed.
"""

from __future__ import annotations

import argparse
import json
import re
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

MODEL = "stub-model"
_MATERIAL = re.compile(r'<<<MATERIAL path="([^"]+)"')


def completion(material: str, tool: str = "MaterialExtraction") -> dict[str, Any]:
    """One item named after the material, in the answer model the request's tool names (v2 or v1)."""
    name = f"stub item of {Path(material).stem}"[:80]
    if tool == "Extraction":
        item: dict[str, Any] = {
            "name": name,
            "kind": "new",
            "level": "unverified",
            "points": ["A point the stub made up."],
        }
    else:
        item = {
            "name": name,
            "new": True,
            "level": "unverified",
            "point": "A point the stub made up.",
            "section": "",
            "number": "",
            "quote": "",
            "conflict": "",
        }
    call = {
        "id": "call_stub",
        "type": "function",
        "function": {"name": tool, "arguments": json.dumps({"items": [item]})},
    }
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": 0,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": None, "tool_calls": [call]},
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, {"object": "list", "data": [{"id": MODEL, "object": "model"}]})
        else:
            self._send(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"error": {"message": "not found"}})
            return
        text = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
        found = _MATERIAL.search(text)
        tools = body.get("tools") or [{}]
        tool = str(tools[0].get("function", {}).get("name") or "MaterialExtraction")
        self._send(200, completion(found.group(1) if found else "unknown", tool))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port-file", type=Path, required=True, help="write the bound port here")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    tmp = args.port_file.with_suffix(".tmp")
    tmp.write_text(str(server.server_address[1]), encoding="utf-8")
    tmp.replace(args.port_file)  # the reader never sees a half-written port
    server.serve_forever()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
