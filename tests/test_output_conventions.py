"""Issue 25, finding 2: ``-`` is stdout for --out and --json (never both), and a closed pipe is a quiet
exit 141 in every subcommand. Real pipes, through real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from conftest import EXAMPLE_MANIFEST, ROOT
from e1prep.cli import CLOSED_PIPE, main

CASE = "2026-10-25-inference"


def e1prep(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """``python -m e1prep ARGS`` from the checkout, stdout and stderr captured through pipes."""
    options: dict[str, object] = {"capture_output": True, "text": True, "cwd": ROOT, "timeout": 120, "check": False}
    options.update(kwargs)
    return subprocess.run([sys.executable, "-m", "e1prep", *args], **options)  # type: ignore[call-overload, no-any-return]


def test_json_dash_writes_one_json_document_to_stdout_and_no_markdown(tmp_path: Path) -> None:
    proc = e1prep("draft", str(EXAMPLE_MANIFEST), "--json", "-", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    brief = json.loads(proc.stdout)  # the whole of stdout is the JSON, nothing else
    assert brief["header"]["item"] == "e1_prep:inference"
    assert list(tmp_path.iterdir()) == []  # no file named "-"


def test_json_dash_beside_a_markdown_file(tmp_path: Path) -> None:
    out = tmp_path / "brief.md"
    proc = e1prep("draft", str(EXAMPLE_MANIFEST), "--json", "-", "--out", str(out), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["run"]["backend"] == "rules"
    assert out.read_text(encoding="utf-8").startswith("# inference")


def test_json_dev_stdout_into_a_pipe(tmp_path: Path) -> None:
    out = tmp_path / "brief.md"
    proc = e1prep("draft", str(EXAMPLE_MANIFEST), "--json", "/dev/stdout", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["header"]["item"] == "e1_prep:inference"
    assert out.is_file()


def test_json_to_another_pipe_by_its_dev_fd_name(tmp_path: Path) -> None:
    """``--json /dev/fd/N`` (what ``>(jq .)`` passes) onto a pipe: its link names no file, it opens all the same."""
    read_end, write_end = os.pipe()
    try:
        proc = e1prep(
            "draft", str(EXAMPLE_MANIFEST), "--json", f"/dev/fd/{write_end}", "--out", str(tmp_path / "b.md"),
            pass_fds=(write_end,),
        )  # fmt: skip
        os.close(write_end)
        write_end = -1
        with os.fdopen(read_end, encoding="utf-8") as fh:
            read_end = -1
            data = json.loads(fh.read())
    finally:
        for fd in (read_end, write_end):
            if fd >= 0:
                os.close(fd)
    assert proc.returncode == 0, proc.stderr
    assert data["header"]["item"] == "e1_prep:inference"


@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
def test_both_on_stdout_is_refused_with_exit_2(out: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", str(EXAMPLE_MANIFEST), "--json", "-", "--out", out]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    errors = [ln for ln in captured.err.splitlines() if ln.startswith("e1prep: error")]
    assert errors == [
        "e1prep: error: --out and --json both name standard output; give one of them a file path "
        "(one stream, one document)"
    ]


def _into_a_closed_pipe(args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """Run with stdout a pipe whose reader is already gone: every write fails with EPIPE."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "e1prep", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)


@pytest.fixture(scope="module")
def brief_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("closed-pipe")
    md, js = folder / "brief.md", folder / "brief.json"
    assert main(["draft", str(EXAMPLE_MANIFEST), "--out", str(md), "--json", str(js)]) == 0
    return md, js


@pytest.mark.parametrize("command", ["schema", "lint", "verify", "eval", "draft"])
def test_a_closed_pipe_is_a_quiet_exit_141_in_every_subcommand(
    command: str, brief_files: tuple[Path, Path], tmp_path: Path
) -> None:
    md, js = brief_files
    args = {
        "schema": ["schema"],
        "lint": ["lint", str(md)],
        "verify": ["verify", str(js), "--manifest", str(EXAMPLE_MANIFEST)],
        "eval": ["eval", "--case", CASE],
        "draft": ["draft", str(EXAMPLE_MANIFEST), "--json", str(tmp_path / "b.json")],
    }[command]
    proc = _into_a_closed_pipe(args)
    assert proc.returncode == CLOSED_PIPE == 141, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "BrokenPipe" not in proc.stderr and "Exception ignored" not in proc.stderr
    if command == "draft":  # the reader went away; the files asked for are written all the same
        assert json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))["header"]["item"] == "e1_prep:inference"
    else:
        assert proc.stderr == ""


def test_a_reader_that_stops_early_through_a_real_shell_pipe() -> None:
    """``e1prep schema | head -1``: the first line arrives, and nothing complains."""
    proc = subprocess.run(
        ["bash", "-c", f"{sys.executable} -m e1prep schema | head -1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0
    assert proc.stdout == "{\n"
    assert proc.stderr == ""
