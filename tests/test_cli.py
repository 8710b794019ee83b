"""The command line through e1prep.cli.main(argv)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import jsonschema
import pytest

from conftest import EXAMPLE, EXAMPLE_MANIFEST, ROOT, SEEDS
from e1prep.brief.schema import SCHEMAS, schema_dir
from e1prep.cli import main

CASSETTE = ROOT / "tests" / "cassettes" / "llm" / "2026-10-25-inference__extract_material-v1.yaml"

SCHEMA = json.loads((ROOT / "schemas" / "brief.schema.json").read_text(encoding="utf-8"))
NOTE = "inbox/jay/2026-10-25-blogs-discovery.md"


def _tree_hash(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def drafted(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("draft")
    before = _tree_hash(EXAMPLE)
    code = main(["draft", str(EXAMPLE_MANIFEST), "--json", str(out / "brief.json"), "--out", str(out / "brief.md")])
    assert code == 0
    assert _tree_hash(EXAMPLE) == before  # the KB is never written
    return out


def test_draft_json_validates(drafted: Path) -> None:
    data = json.loads((drafted / "brief.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert data["header"]["item"] == "e1_prep:inference"
    assert len([s for s in data["sources"] if s["role"] == "material"]) == 8


def test_draft_markdown_file(drafted: Path) -> None:
    md = (drafted / "brief.md").read_text(encoding="utf-8")
    assert md.startswith("# inference · E1 预消化简报（2026-10-25）")


def test_draft_stdout_and_lang_en(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", str(EXAMPLE_MANIFEST), "--lang", "en"]) == 0
    out, err = capsys.readouterr()
    assert "## 1. Increments (2)" in out
    assert "E1 pre-digestion brief" in out
    assert "2 increments" in err


def test_draft_missing_material_exit_1(make_kb, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = make_kb({NOTE: "# x\n"}, materials=[NOTE, "inbox/jay/gone.md"])
    out = tmp_path / "b.json"
    assert main(["draft", str(manifest), "--json", str(out), "--out", str(tmp_path / "b.md")]) == 1
    data = json.loads(out.read_text(encoding="utf-8"))
    status = {s["path"]: s["status"] for s in data["sources"]}
    assert status == {NOTE: "read", "inbox/jay/gone.md": "missing", "organized/knowledge/inference.md": "read"}
    assert "gone.md: missing" in capsys.readouterr().err


@pytest.mark.parametrize("content", ["{broken", '{"job": "j", "items": []}'], ids=["invalid-json", "no-items"])
def test_draft_malformed_manifest_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    bad = tmp_path / "bad-manifest.json"
    bad.write_text(content, encoding="utf-8")
    assert main(["draft", str(bad)]) == 2
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("e1prep: error")]
    assert len(lines) == 1
    assert "bad-manifest.json" in lines[0]
    assert "Traceback" not in err


def test_draft_missing_manifest_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", str(tmp_path / "none.json")]) == 2
    err = capsys.readouterr().err
    assert "none.json" in err and "Traceback" not in err


def test_draft_strict_fails_on_rejections(make_kb, tmp_path: Path) -> None:
    # a clean batch: --strict does not change the exit code
    manifest = make_kb({NOTE: "# x\n\n## 1. Alpha\n- URL: https://example.com/a\n- 核查：已核查原文\n"})
    assert main(["draft", str(manifest), "--strict", "--out", str(tmp_path / "o.md")]) == 0


def test_verify_clean_and_tampered(drafted: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    brief = drafted / "brief.json"
    assert main(["verify", str(brief), "--manifest", str(EXAMPLE_MANIFEST)]) == 0
    assert "clean" in capsys.readouterr().out
    data = json.loads(brief.read_text(encoding="utf-8"))
    data["anchors"][0]["status"] = "new"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["verify", str(tampered), "--manifest", str(EXAMPLE_MANIFEST)]) == 1
    assert "anchor-status-wrong" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("missing.json", None),
        ("invalid.json", "{nope"),
        ("notabrief.json", '{"foo": 1}'),
        ("wrongtype.json", '{"header": 3}'),
    ],
)
def test_verify_bad_input_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: str | None
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["verify", str(path), "--manifest", str(EXAMPLE_MANIFEST)]) == 2
    err = capsys.readouterr().err
    assert name in err and "Traceback" not in err


@pytest.mark.parametrize("seed", sorted(SEEDS.glob("*.txt")) if SEEDS.exists() else [], ids=lambda p: p.name)
def test_lint_seeds_run(seed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["lint", str(seed)])
    assert code in (0, 1)
    out = capsys.readouterr().out
    last = out.rstrip().splitlines()[-1]
    count = int(last.split()[0])
    assert last == f"{count} finding(s)"
    assert code == (1 if count else 0)
    assert len(out.rstrip().splitlines()) == count + 1


def test_lint_finds_unmarked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "b.md"
    p.write_text("# 简报\n\n- 吞吐提升 287%\n", encoding="utf-8")
    assert main(["lint", str(p)]) == 1
    out = capsys.readouterr().out
    assert "b.md:3: '287%'" in out
    assert "1 finding(s)" in out


def test_lint_marked_is_fine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "b.md"
    p.write_text("# 简报\n\n- 吞吐提升 287%（厂商自述）\n", encoding="utf-8")
    assert main(["lint", str(p)]) == 0
    assert "0 finding(s)" in capsys.readouterr().out


def test_lint_missing_file_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", str(tmp_path / "nope.md")]) == 2
    assert "nope.md" in capsys.readouterr().err


def test_schema_check() -> None:
    assert main(["schema", "--check"]) == 0


def test_the_checkout_schemas_folder_is_the_packaged_one() -> None:
    """One copy: the documented schemas/ and prompts/ are links into the package."""
    assert (ROOT / "schemas").resolve() == schema_dir().resolve() == (ROOT / "src" / "e1prep" / "schemas").resolve()
    assert (ROOT / "prompts").resolve() == (ROOT / "src" / "e1prep" / "prompts").resolve()


def test_schema_writes_only_where_it_is_told(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = {name: (schema_dir() / name).stat().st_mtime_ns for name in SCHEMAS}
    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["title"] == "Brief"
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(SCHEMAS)
    assert {name: (schema_dir() / name).stat().st_mtime_ns for name in SCHEMAS} == before
    assert main(["schema", "--check", "--out", str(tmp_path)]) == 0
    (tmp_path / "brief.schema.json").write_text("{}\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["schema", "--check", "--out", str(tmp_path)]) == 1
    assert "brief.schema.json drifted" in capsys.readouterr().err


def test_usage_error_returns_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    assert main([]) == 2


def test_draft_llm_replays_the_bundled_example_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No server runs and non-loopback sockets are blocked: every exchange comes from the cassette."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-live-should-never-leak-0123456789")
    monkeypatch.setenv("E1PREP_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "b.json"
    md = tmp_path / "b.md"
    args = ["draft", str(EXAMPLE_MANIFEST), "--backend", "llm", "--cassette", str(CASSETTE)]
    code = main([*args, "--json", str(out), "--out", str(md)])
    assert code in (0, 1)  # 1: the small model failed some materials, and the brief says which
    data = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads((ROOT / "schemas" / "brief.schema.json").read_text(encoding="utf-8")))
    run = data["run"]
    assert run["backend"] == "llm" and run["model"]
    assert run["usage"]["calls"] > 0 and run["usage"]["prompt_tokens"] > 0
    failed = [s for s in data["sources"] if s["status"] == "failed"]
    assert (code == 1) == bool(failed)
    text = out.read_text(encoding="utf-8") + md.read_text(encoding="utf-8")
    assert "sk-live-should-never-leak" not in text
    # whatever the model said, the rules' findings and the deterministic anchors are there
    assert {"DeepInfer", "aisimulate"} <= {i["key"] for i in data["increments"]}
    assert [(a["arxiv"], a["status"]) for a in data["anchors"]] == [("2610.30418", "anchored")]


def test_a_cassette_needs_the_llm_backend(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", str(EXAMPLE_MANIFEST), "--cassette", str(CASSETTE)]) == 2
    assert "--cassette goes with --backend llm" in capsys.readouterr().err


def test_a_cassette_replays_a_copy_of_the_example_kb_in_another_folder(tmp_path: Path) -> None:
    """The cassette is named, not guessed from the folder: a copy elsewhere replays the same."""
    import shutil

    copy = tmp_path / "copykb"
    shutil.copytree(EXAMPLE, copy)
    out = tmp_path / "b.json"
    args = ["draft", str(copy / "manifest.json"), "--backend", "llm", "--cassette", str(CASSETTE), "--no-cache"]
    assert main([*args, "--json", str(out), "--out", str(tmp_path / "b.md")]) in (0, 1)
    assert json.loads(out.read_text(encoding="utf-8"))["run"]["usage"]["calls"] > 0


@pytest.mark.parametrize("problem", ["missing", "unlisted", "not yaml"])
def test_a_bad_cassette_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], problem: str) -> None:
    cassette = tmp_path / "x.yaml"
    if problem == "unlisted":
        cassette.write_text("interactions: []\n", encoding="utf-8")
    if problem == "not yaml":
        cassette = tmp_path / CASSETTE.name
        cassette.write_text("interactions: [\n: bad", encoding="utf-8")
        (tmp_path / "MANIFEST.json").write_bytes((CASSETTE.parent / "MANIFEST.json").read_bytes())
    assert main(["draft", str(EXAMPLE_MANIFEST), "--backend", "llm", "--cassette", str(cassette)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "Traceback" not in err  # the progress line, then one error line
    assert str(cassette) in err.splitlines()[-1]


def test_replay_without_vcrpy_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "vcr", None)  # as if the replay extra were not installed
    assert main(["draft", str(EXAMPLE_MANIFEST), "--backend", "llm", "--cassette", str(CASSETTE)]) == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("e1prep: error:") and "pip install 'e1prep[replay]'" in last


@pytest.mark.parametrize("missing", ["openai", "instructor", "tenacity"])
def test_backend_llm_without_the_extra_is_one_line_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], missing: str
) -> None:
    import importlib.util

    import e1prep.llm

    real = importlib.util.find_spec
    monkeypatch.setattr(e1prep.llm, "find_spec", lambda name: None if name == missing else real(name))
    assert main(["draft", str(EXAMPLE_MANIFEST), "--backend", "llm"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines()[-1] == (
        f"e1prep: error: --backend llm needs the llm extra ({missing} not installed): pip install 'e1prep[llm]'"
    )


@pytest.mark.parametrize("backend", ["rules", "llm"])
def test_eval_outside_a_checkout_says_what_to_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], backend: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "--backend", backend]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--golden DIR" in err and "--thresholds FILE" in err
    monkeypatch.chdir(ROOT)
    assert main(["eval", "--golden", str(ROOT / "evals" / "golden"), "--thresholds", str(tmp_path / "no.toml")]) == 2
    assert "no.toml: thresholds file not found" in capsys.readouterr().err
