"""Issue 25, finding 1: a model server nobody can reach fails fast and honestly.

A refused connection (a real closed port on 127.0.0.1) is not retried, the materials after it are
not attempted, one warning says so, and the brief is the rules' draft, saying so, counting the
materials it read and naming the model that was configured.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import openai
import pytest

from conftest import EXAMPLE_MANIFEST, ROOT
from e1prep import pipeline
from e1prep.kb.loading import load_kb
from e1prep.llm.backend import LLMProducer
from e1prep.llm.client import is_transient, is_unreachable
from e1prep.llm.settings import LLMSettings
from e1prep.produce.producer import Production


def closed_port() -> int:
    """A port on 127.0.0.1 that refuses connections: bound, read, closed."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_server_gives_the_rules_brief_at_once_and_says_so(tmp_path: Path) -> None:
    port = closed_port()
    env = {
        **os.environ,
        "E1PREP_MODEL": "my-model",
        "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1",
        "E1PREP_CACHE_DIR": str(tmp_path / "cache"),
    }
    env.pop("E1PREP_BASE_URL", None)
    brief_json = tmp_path / "brief.json"
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "e1prep", "draft", str(EXAMPLE_MANIFEST), "--backend", "llm", "--json", str(brief_json)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    seconds = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr
    assert seconds < 10, f"{seconds:.1f} s: the refused connection was retried"
    warnings = [ln for ln in proc.stderr.splitlines() if "WARNING" in ln]
    assert len(warnings) == 1, proc.stderr
    assert f"the model server at http://127.0.0.1:{port}/v1 could not be reached: connection refused" in warnings[0]
    assert "Traceback" not in proc.stderr and "retrying" not in proc.stderr

    markdown = proc.stdout
    assert "规则版初稿（rule-based first pass）" in markdown  # the notice
    assert "内容全部来自规则" in markdown
    assert "本批 8 份材料（读取 8 份" in markdown  # every material was read, by the rules
    assert "model=my-model" in markdown  # the model configured, in the footer
    summary = proc.stderr.splitlines()[-1]
    assert "backend llm, model my-model" in summary

    brief = json.loads(brief_json.read_text(encoding="utf-8"))
    assert brief["run"]["model"] == "my-model"
    assert brief["run"]["first_pass"].startswith("规则版初稿（rule-based first pass）")
    assert "could not be reached" in brief["run"]["first_pass"]
    assert brief["run"]["usage"]["calls"] <= 4  # at most the calls already in flight (concurrency 4)
    assert brief["run"]["usage"]["retries"] == 0
    assert all(s["status"] == "read" for s in brief["sources"] if s["role"] == "material")
    assert all(
        obj["producer"] == "rules" for name in ("increments", "refreshes", "contradictions") for obj in brief[name]
    )


def test_after_the_first_refusal_no_other_material_is_attempted() -> None:
    kb = load_kb(EXAMPLE_MANIFEST)
    doc = pipeline.living_document(kb)
    settings = LLMSettings(base_url=f"http://127.0.0.1:{closed_port()}/v1", model="m", use_cache=False, concurrency=1)
    producer = LLMProducer(settings)
    production = producer.produce(kb, doc)
    assert production.usage.calls == 1 and production.usage.retries == 0
    assert production.failures == {}
    assert len(producer.fallback_paths) == len([m for m in kb.materials if m.text.strip()])
    assert production.model == "m"
    assert "connection refused" in producer.fallback
    assert pipeline.fell_back(producer) == (producer.fallback, producer.fallback_paths)


def test_a_partial_reading_is_said_to_be_partly_the_rules() -> None:
    """The server answered, then went away: the materials left are named as the rules' alone."""
    kb = load_kb(EXAMPLE_MANIFEST)
    why = "the model server at X could not be reached: connection refused"
    note = pipeline.first_pass_note(kb, "llm", Production(model="m"), (why, [kb.materials[0].path]))
    assert note.startswith("部分为规则版（partly rule-based）")
    assert f"1/{len(kb.materials)}" in note and kb.materials[0].path in note


def _connection_error(cause: BaseException) -> openai.APIConnectionError:
    try:
        raise cause
    except BaseException as inner:
        try:
            raise openai.APIConnectionError(request=None) from inner  # type: ignore[arg-type]
        except openai.APIConnectionError as exc:
            return exc


@pytest.mark.parametrize(
    ("cause", "unreachable"),
    [
        (ConnectionRefusedError(111, "Connection refused"), True),
        (socket.gaierror(-2, "Name or service not known"), True),
        (ConnectionResetError(104, "Connection reset by peer"), False),
        (TimeoutError("timed out"), False),
    ],
)
def test_only_a_connection_that_cannot_be_made_is_not_retried(cause: BaseException, unreachable: bool) -> None:
    exc = _connection_error(cause)
    assert is_unreachable(exc) is unreachable
    assert is_transient(exc) is not unreachable
