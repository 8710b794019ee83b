"""The README tells the truth (issue 25, finding 6): every snippet runs as written, its score tables are the
eval runner's, its install ranges are pyproject's, and what it points at ships with a clone.

A fenced block is a snippet when its language is python, bash, sh or shell. An HTML comment on the line
before it says what becomes of it:

- no comment (python) or ``<!-- snippet: run -->`` (shell): run here, in a temporary folder beside the
  checkout (each top-level entry linked in), offline, with the checkout's source; it must exit 0, or the
  status the comment states (``run (exit 1)``, which the README must say in its text too);
- ``<!-- snippet: ci -->``: installs packages; ``.ci/run`` runs each of its commands as written;
- ``<!-- snippet: install -->``: installs or compiles packages; not run here;
- ``<!-- snippet: model server -->``: needs a model server, and the README says so in the text just before
  it; a Python one runs here against ``scripts/stub_openai_server.py`` on 127.0.0.1, a shell one not at all.

A shell block with no comment, or a Python block with any comment but ``model server``, fails the test.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from conftest import ROOT

README = ROOT / "README.md"
SHELL = ("bash", "sh", "shell")
MARKS = ("run", "ci", "install", "model server")
_EXIT = re.compile(r"^run \(exit (\d+)\)$")
_FENCE = re.compile(r"(?:<!-- snippet: (?P<mark>[^>]*?) -->\n)?```(?P<lang>[\w-]*)\n(?P<body>.*?)^```$", re.S | re.M)


@dataclass(frozen=True)
class Snippet:
    line: int
    lang: str
    mark: str | None
    body: str
    before: str  # the README's text before the block (its marker comment left out)

    @property
    def runs(self) -> bool:
        return self.mark == "run" or self.exit != 0 or (self.lang == "python" and self.mark is None)

    @property
    def exit(self) -> int:
        """The exit status the snippet is documented to end with."""
        stated = _EXIT.match(self.mark or "")
        return int(stated.group(1)) if stated else 0

    def __str__(self) -> str:
        return f"README.md:{self.line} ({self.lang}{', ' + self.mark if self.mark else ''})"


def snippets(text: str | None = None) -> list[Snippet]:
    text = README.read_text(encoding="utf-8") if text is None else text
    found = []
    for m in _FENCE.finditer(text):
        if m.group("lang") in ("python", *SHELL):
            line = text.count("\n", 0, m.start("lang")) + 1
            found.append(Snippet(line, m.group("lang"), m.group("mark"), m.group("body"), text[: m.start()]))
    return found


SNIPPETS = snippets()


def test_the_parser_sees_every_snippet() -> None:
    fences = re.findall(r"^```(python|bash|sh|shell)$", README.read_text(encoding="utf-8"), re.M)
    assert len(SNIPPETS) == len(fences) >= 10
    assert sum(s.runs for s in SNIPPETS) >= 4


@pytest.mark.parametrize("snippet", SNIPPETS, ids=str)
def test_every_snippet_says_what_becomes_of_it(snippet: Snippet) -> None:
    if snippet.lang == "python":
        assert snippet.mark in (None, "model server"), f"{snippet}: a Python snippet runs unless it needs a server"
    else:
        assert snippet.mark in MARKS or snippet.exit, (
            f"{snippet}: mark it <!-- snippet: run|ci|install|model server -->"
        )
    if snippet.exit:
        paragraph = snippet.before.rstrip().rsplit("\n\n", 1)[-1]
        assert f"exits {snippet.exit}" in paragraph, f"{snippet}: say 'exits {snippet.exit}' just before it"
    if snippet.mark == "model server":  # said to the reader, not only in the comment
        paragraph = snippet.before.rstrip().rsplit("\n\n", 1)[-1]
        assert "model server" in paragraph, f"{snippet}: say 'needs a model server' just before it"


@pytest.fixture(scope="module")
def beside_checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a link to each top-level entry of the checkout: what a snippet writes lands here."""
    where = tmp_path_factory.mktemp("readme")
    for entry in ROOT.iterdir():
        if entry.name not in (".git", ".venv", ".ci-work") and not entry.name.startswith("."):
            (where / entry.name).symlink_to(entry)
    return where


def _env(where: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("E1PREP_", "OPENAI_"))}
    env.update(
        PYTHONPATH=str(ROOT / "src"),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        XDG_CACHE_HOME=str(where / ".cache"),
        # offline: a snippet that asked a model server would meet a closed port, not the internet
        E1PREP_BASE_URL="http://127.0.0.1:9/v1",
        OPENAI_API_KEY="sk-test-dummy",
    )
    return env


@pytest.mark.parametrize("snippet", [s for s in SNIPPETS if s.runs], ids=str)
def test_the_snippet_runs_as_written(snippet: Snippet, beside_checkout: Path) -> None:
    if snippet.lang == "python":
        command = [sys.executable, "-c", snippet.body]
    else:
        command = ["bash", "-euo", "pipefail", "-c", snippet.body]
    done = subprocess.run(
        command, cwd=beside_checkout, env=_env(beside_checkout), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == snippet.exit, f"{snippet} exited {done.returncode}:\n{done.stderr[-3000:]}"


@pytest.fixture(scope="module")
def stub_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """scripts/stub_openai_server.py on 127.0.0.1: the model server a 'model server' Python snippet asks."""
    port_file = tmp_path_factory.mktemp("stub") / "port"
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "stub_openai_server.py"), "--port-file", str(port_file)]
    )
    try:
        for _ in range(100):
            if port_file.is_file() and port_file.read_text().strip():
                break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port_file.read_text().strip()}/v1"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.parametrize("snippet", [s for s in SNIPPETS if s.lang == "python" and not s.runs], ids=str)
def test_a_python_snippet_that_needs_a_server_runs_against_a_stub_one(
    snippet: Snippet, beside_checkout: Path, stub_server: str
) -> None:
    env = _env(beside_checkout) | {"E1PREP_BASE_URL": stub_server, "E1PREP_MODEL": "stub-model"}
    done = subprocess.run(
        [sys.executable, "-c", snippet.body], cwd=beside_checkout, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{snippet} exited {done.returncode}:\n{done.stderr[-3000:]}"


def test_the_python_api_snippet_checks_what_it_shows() -> None:
    (api,) = [s for s in SNIPPETS if "render_markdown(brief" in s.body and "verify_brief" in s.body]
    assert "assert report.clean" in api.body and "assert [i.key for i in brief.increments]" in api.body


def test_the_ci_snippets_are_what_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    blocks = [s for s in SNIPPETS if s.mark == "ci"]
    assert blocks
    for block in blocks:
        commands = [line for line in block.body.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        assert commands
        for command in commands:
            assert any(line == command or line.startswith(command + " ") for line in ci), command


def test_the_agent_worker_example_runs_as_written() -> None:
    done = subprocess.run(
        [sys.executable, "examples/agent_worker.py"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "## 1. 增量" in done.stdout and "DeepInfer" in done.stdout
    assert "0 rejected" in done.stderr


def test_a_shell_block_without_a_mark_is_caught() -> None:
    (plain,) = snippets("text\n\n```bash\necho hi\n```\n")
    (marked,) = snippets("text\n\n<!-- snippet: run -->\n```bash\necho hi\n```\n")
    assert plain.mark is None and not plain.runs
    assert marked.mark == "run" and marked.runs


# --- what the README points at ships with a clone ------------------------------------------------------------


def test_the_kb_contract_ships_in_docs_and_nothing_points_outside_the_clone() -> None:
    assert "## Layout" in (ROOT / "docs" / "kb-contract.md").read_text(encoding="utf-8")
    assert "(docs/kb-contract.md)" in README.read_text(encoding="utf-8")
    files = [README, *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "src").rglob("*.py"))]
    assert [str(f.relative_to(ROOT)) for f in files if "../shared" in f.read_text(encoding="utf-8")] == []


def test_the_help_epilog_points_at_the_shipped_contract(capsys: pytest.CaptureFixture[str]) -> None:
    from e1prep.cli import main

    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    assert "docs/kb-contract.md" in text and "../shared" not in text


def test_the_readme_quotes_the_llm_extra_s_ranges() -> None:
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    line = next(x for x in README.read_text(encoding="utf-8").splitlines() if x.startswith('pip install "e1prep[llm]"'))
    assert line.split("# the model backend: ", 1)[1] == ", ".join(extra["llm"])


def test_the_llm_extra_admits_the_recorded_stack() -> None:
    from packaging.requirements import Requirement

    pins = dict(
        line.split("==", 1)
        for line in (ROOT / "constraints" / "llm-recorded.txt").read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.startswith("#")
    )
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    for spec in extra["llm"]:
        req = Requirement(spec)
        assert pins[req.name] in req.specifier, f"{spec} does not admit the recorded {req.name}=={pins[req.name]}"


# --- the score tables are the eval runner's -------------------------------------------------------------------


def _scores_script() -> ModuleType:
    """scripts/readme_scores.py, imported once (its dataclasses need it in ``sys.modules``)."""
    if "readme_scores" not in sys.modules:
        spec = importlib.util.spec_from_file_location("readme_scores", ROOT / "scripts" / "readme_scores.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules["readme_scores"] = module
        spec.loader.exec_module(module)
    return sys.modules["readme_scores"]


def _report(backend: str, inc_f1: float) -> dict[str, object]:
    score = {"f1": inc_f1, "recall": 1.0}
    case = {
        "case": "2026-10-25-inference",
        "scores": {k: score for k in ("increments", "refreshes", "contradictions", "contradictions_rule_findable")}
        | {"anchors": {"f1": 1.0, "recall": 1.0}},
        "not_quotable_as_findings": 0,
        "distractors_leaked": [],
        "violations": 3,
        "sources_coverage": 1.0,
        "seconds": 12.345,
    }
    overall = {
        "increments_f1": inc_f1,
        "refreshes_f1": 1.0,
        "contradictions_f1": 0.5,
        "contradictions_rule_findable_recall": 1.0,
        "anchors_f1": 1.0,
        "distractors_leaked": 0,
        "violations": 3,
        "sources_coverage": 1.0,
        "seconds": 99.5,
    }
    return {"backend": backend, "overall": overall, "cases": [case]}


def _write_reports(folder: Path, inc_f1: float = 0.91) -> None:
    import json

    script = _scores_script()
    folder.mkdir(parents=True, exist_ok=True)
    for run in script.RUNS:
        (folder / run.report).write_text(json.dumps(_report(run.backend, inc_f1)), encoding="utf-8")


def test_the_readme_has_one_generated_score_block() -> None:
    script = _scores_script()
    text = README.read_text(encoding="utf-8")
    assert text.count(script.BEGIN) == 1 and text.count(script.END) == 1
    block = text[text.index(script.BEGIN) : text.index(script.END)]
    assert script.REGENERATE in block.split("| case |", 1)[0]  # how to regenerate, at the top
    assert block.count("| case |") == len(script.RUNS)
    assert "| sec" not in block and "seconds" not in block.split("Columns:", 1)[0]


def test_the_score_block_renders_from_reports_without_timings(tmp_path: Path) -> None:
    script = _scores_script()
    _write_reports(tmp_path / "reports")
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n\n{script.BEGIN}\nstale\n{script.END}\n\nafter\n", encoding="utf-8")
    assert script.main(["--reports", str(tmp_path / "reports"), "--readme", str(readme)]) == 0
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("intro\n\n") and text.endswith("\n\nafter\n") and "stale" not in text
    assert "| 2026-10-25-inference | 0.91 | 0.91 | 0.91 | 1.00 | 1.00 | 0 | 0 | 3 | 100% |" in text
    assert "12.3" not in text and "99.5" not in text
    assert script.main(["--reports", str(tmp_path / "reports"), "--readme", str(readme), "--check"]) == 0


def test_check_fails_with_a_diff_when_a_score_moved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _scores_script()
    _write_reports(tmp_path / "reports")
    readme = tmp_path / "README.md"
    readme.write_text(f"{script.BEGIN}\n{script.END}\n", encoding="utf-8")
    assert script.main(["--reports", str(tmp_path / "reports"), "--readme", str(readme)]) == 0
    written = readme.read_text(encoding="utf-8")
    _write_reports(tmp_path / "reports", inc_f1=0.8)
    capsys.readouterr()
    assert script.main(["--reports", str(tmp_path / "reports"), "--readme", str(readme), "--check"]) == 1
    diff = capsys.readouterr().out
    assert "-| 2026-10-25-inference | 0.91" in diff and "+| 2026-10-25-inference | 0.80" in diff
    assert readme.read_text(encoding="utf-8") == written  # --check writes nothing


def test_a_missing_report_is_one_line_exit_2(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    script = _scores_script()
    readme = tmp_path / "README.md"
    readme.write_text(f"{script.BEGIN}\n{script.END}\n", encoding="utf-8")
    assert script.main(["--reports", str(tmp_path), "--readme", str(readme), "--check"]) == 2
    assert "eval-rules.json: no such report" in caplog.text
