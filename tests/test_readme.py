"""The README's Python API snippet runs as written (from the repository root, as it says)."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT


def _api_snippet() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## The Python API\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found, "no python block under 'The Python API' in README.md"
    return found.group(1)


def test_the_readme_python_snippet_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    snippet = _api_snippet()
    assert "draft_brief" in snippet and "verify_brief" in snippet and "render_markdown" in snippet
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {}
    exec(compile(snippet, "README.md (The Python API)", "exec"), namespace)
    assert namespace["report"].clean  # type: ignore[attr-defined]
    assert "DeepInfer" in str(namespace["markdown"])


def test_the_readme_two_commands_are_what_ci_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("\n## Two commands\n", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert len(commands) == 2
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    for command in commands:
        assert any(line == command or line.startswith(command + " ") for line in ci), command


def test_the_agent_worker_example_runs_as_written() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "examples/agent_worker.py"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "## 1. 增量" in done.stdout and "DeepInfer" in done.stdout
    assert "0 rejected" in done.stderr
