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
