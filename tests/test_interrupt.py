"""Feedback on long runs: progress on stderr, and Ctrl-C stops with one line and exit 130."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import BLOGS, EXAMPLE_MANIFEST, ROOT
from e1prep import cli, pipeline
from e1prep.errors import Interrupted
from e1prep.kb.loading import load_kb
from e1prep.llm import backend
from e1prep.llm.backend import LLMProducer, MaterialExtraction
from e1prep.llm.client import CallStats
from e1prep.llm.settings import LLMSettings


def test_progress_is_a_plain_line_per_material_when_stderr_is_not_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["draft", str(EXAMPLE_MANIFEST)]) == 0
    err = capsys.readouterr().err
    materials = [ln for ln in err.splitlines() if ln.startswith("e1prep: material ")]
    assert len(materials) == 8
    assert "e1prep: material 1/8 inbox/jay/2026-10-25T1335-blogs-discovery.md: read, 7 items" in err
    assert "e1prep: read 8 materials, 9 note items" in err
    assert "e1prep: verifying " in err
    assert "\r" not in err


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "draft_brief", interrupted)
    assert cli.main(["draft", str(EXAMPLE_MANIFEST)]) == 130
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == "e1prep: interrupted"
    assert "Traceback" not in err


def test_ctrl_c_writes_the_brief_of_what_finished(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished = pipeline.draft_brief(EXAMPLE_MANIFEST)
    real = pipeline.draft_brief

    def interrupted(*args: object, **kwargs: object) -> None:
        raise Interrupted(real(EXAMPLE_MANIFEST))

    monkeypatch.setattr(pipeline, "draft_brief", interrupted)
    out, js = tmp_path / "brief.md", tmp_path / "brief.json"
    assert cli.main(["draft", str(EXAMPLE_MANIFEST), "--out", str(out), "--json", str(js)]) == 130
    assert out.read_text(encoding="utf-8").startswith("# ")
    assert (
        json.loads(js.read_text(encoding="utf-8"))["increments"] == json.loads(finished.model_dump_json())["increments"]
    )
    assert capsys.readouterr().err.splitlines()[-1] == "e1prep: interrupted"


def test_ctrl_c_while_model_calls_are_queued_keeps_what_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first call answers; Ctrl-C arrives during the second; the rest, queued, are never sent."""
    kb = load_kb(EXAMPLE_MANIFEST)
    doc = pipeline.living_document(kb)
    calls: list[str] = []
    lock = threading.Lock()
    release = threading.Event()

    def extract(
        self: object, model: object, messages: object, *, label: str = "", stats: object = None
    ) -> tuple[object, CallStats]:
        with lock:
            calls.append(label)
            n = len(calls)
        if n == 2:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C reaches the main thread while this call is in flight
            release.wait(10)
        return MaterialExtraction(items=[]), CallStats(calls=1)

    monkeypatch.setattr(backend.LLMClient, "extract", extract)
    producer = LLMProducer(LLMSettings(base_url="http://127.0.0.1:9/v1", model="m", use_cache=False, concurrency=1))
    try:
        production = producer.produce(kb, doc)
    finally:
        release.set()
    assert production.interrupted
    assert len(calls) == 2  # nothing queued behind the interruption was sent
    read = [m for m in kb.materials if m.text.strip()]
    assert len(production.failures) == len(read) - 1
    assert all("interrupted" in why for why in production.failures.values())

    calls.clear()
    release.clear()
    try:
        with pytest.raises(Interrupted) as exc:
            pipeline.draft_brief(EXAMPLE_MANIFEST, producer=producer)
    finally:
        release.set()
    brief = exc.value.brief
    assert brief is not None
    failed = [s for s in brief.sources if s.status.value == "failed"]
    assert len(failed) == len(read) - 1
    assert brief.increments  # the rules' findings are still in the brief of what finished


def test_two_sigints_50_ms_apart_still_leave_the_brief_and_count_the_calls_made(tmp_path: Path) -> None:
    """What ``timeout -s INT`` does to a real run against a slow local server: two SIGINTs, 50 ms apart.

    One material is answered at once, the others take 30 s: at the interruption one call has finished
    and two are in flight. The brief of what finished is written, and the summary counts all three.
    """
    from test_llm_server import StubServer

    out, js = tmp_path / "brief.md", tmp_path / "brief.json"
    with StubServer(delay=30.0) as stub:
        stub.delays[BLOGS] = 0.0
        env = {
            **os.environ,
            "E1PREP_BASE_URL": stub.base_url,
            "E1PREP_MODEL": "stub-model",
            "E1PREP_PROMPT": "extract_material",  # the stub answers the small v1 model
            "E1PREP_CONCURRENCY": "2",
            "E1PREP_NO_CACHE": "1",
        }
        args = ["draft", str(EXAMPLE_MANIFEST), "--backend", "llm", "--out", str(out), "--json", str(js)]
        proc = subprocess.Popen(
            [sys.executable, "-m", "e1prep", *args],
            env=env,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            deadline = time.monotonic() + 60
            while stub.total < 3 and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.02)
            assert stub.total == 3, "one answered, two in flight"
            time.sleep(0.2)
            proc.send_signal(signal.SIGINT)
            time.sleep(0.05)
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 130, err
    assert err.splitlines()[-1] == "e1prep: interrupted"
    assert "Traceback" not in err
    brief = json.loads(js.read_text(encoding="utf-8"))
    assert out.read_text(encoding="utf-8").startswith("# ")
    assert any(i["producer"] == "llm" and i["sources"] == [BLOGS] for i in brief["increments"])
    assert brief["run"]["usage"]["calls"] == 3
    summary = [ln for ln in err.splitlines() if "backend llm" in ln]
    assert len(summary) == 1 and ", 3 calls " in summary[0], err
