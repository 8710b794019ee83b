"""Issue 26, findings 2, 3, 4, 6 and 7: every string serialises, no output lands on anything e1prep reads or
owns, the cache folder is guarded, a FIFO never blocks, and the low items (progress line, tag characters,
temporary files, over-long names). Each probe that touches a KB checks it is byte-identical afterwards."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import e1prep
from conftest import EXAMPLE, ROOT, error_lines, probe_draft, repo_card, tree_digest
from e1prep import cli
from e1prep.brief import outputs
from e1prep.brief.outputs import Target, check_targets
from e1prep.brief.safetext import md, md_comment, terminal_safe
from e1prep.cli import main
from e1prep.kb import loading
from e1prep.llm import cache as llm_cache
from test_llm_server import StubServer, write_kb

NOTE = "inbox/jay/2026-10-25-blogs-discovery.md"
CARD = "organized/repo_cards/1-acme-widget.md"
DOC = "organized/knowledge/inference.md"
CASSETTE = ROOT / "tests" / "cassettes" / "llm" / "2026-10-25-inference__extract_material-v1.yaml"
CASE = "2026-10-25-inference"
PACKAGE = Path(e1prep.__file__).resolve().parent
TAGS = "\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065"  # "ignore", spelt in invisible tags


def _no_temporaries(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.fixture
def kb(make_kb) -> Path:
    return make_kb({NOTE: "# n\n\n## 1. Foo-Serve\n- URL：https://x.org/foo\n", CARD: repo_card()})


@pytest.fixture
def example_copy(tmp_path: Path) -> Path:
    """The bundled example's KB, copied: the cassette replays it from any folder."""
    copy = tmp_path / "example"
    shutil.copytree(EXAMPLE, copy)
    return copy


def _draft(
    manifest: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str, kb_root: Path | None = None
) -> tuple[int, str, dict]:
    """``conftest.probe_draft``: the KB byte-identical, a brief or exactly one error line."""
    return probe_draft(manifest, tmp_path, capsys, *extra, kb_root=kb_root)


def _materials(brief: dict) -> set[str]:
    return {s["path"] for s in brief["sources"] if s["role"] == "material"}


# --- finding 2: every string is safe to serialise -----------------------------------------------------------


def _set_field(manifest: Path, field: str, value: str) -> str:
    """Put ``value`` into one manifest field; return the field's name as the warning gives it."""
    data = json.loads(manifest.read_text(encoding="utf-8"))
    item = data["items"][0]
    if field in ("job", "created"):
        data[field] = value
        named = field
    elif field == "materials":
        item["materials"].append(f"inbox/{value}.md")
        named = f"items[0].materials[{len(item['materials']) - 1}]"
    elif field == "spot_check":
        item["spot_check"] = [f"organized/repo_cards/{value}.md"]
        named = "items[0].spot_check[0]"
    else:
        item[field] = value
        named = f"items[0].{field}"
    manifest.write_text(json.dumps(data), encoding="utf-8")  # ASCII JSON: the surrogate as a "\udcff" escape
    return named


@pytest.mark.parametrize("field", ["job", "created", "id", "topic", "output", "materials", "spot_check"])
@pytest.mark.parametrize("bad", ["x\udcff", "\ud800y", "a\udfffb\udc80"])
def test_a_lone_surrogate_in_any_manifest_string_gets_a_brief_and_one_warning(
    kb: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    field: str,
    bad: str,
) -> None:
    named = _set_field(kb, field, bad)
    code, _err, brief = _draft(kb, tmp_path, capsys)
    assert code in (0, 1)
    warnings = [r.getMessage() for r in caplog.records if "not valid Unicode" in r.getMessage()]
    assert len(warnings) == 1 and f": {named} holds" in warnings[0], warnings
    wanted = {
        loading.normalize_rel(loading.serialisable(m)) for m in json.loads(kb.read_text())["items"][0]["materials"]
    }
    assert _materials(brief) == wanted
    assert "\ufffd" in (tmp_path / "probe.json").read_text(encoding="utf-8")


def test_a_surrogate_in_the_living_document_path_is_one_line_exit_2(
    kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _set_field(kb, "knowledge", "organized/knowledge/x\udcff.md")
    code, err, _brief = _draft(kb, tmp_path, capsys)
    assert code == 2 and "living document" in error_lines(err)[0]


def test_an_item_chosen_by_a_surrogate_id_is_found(
    kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _set_field(kb, "id", "a\udcff")
    code, _err, brief = _draft(kb, tmp_path, capsys, "--item", "a\udcff")
    assert code in (0, 1) and brief["header"]["item"] == "a\ufffd"


def test_a_surrogate_escape_in_card_front_matter_is_replaced_with_a_warning(
    make_kb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    card = repo_card().replace("repo: acme/widget", 'repo: "acme/wid\\udcffget"')
    manifest = make_kb({NOTE: "# n\n", CARD: card})
    code, _err, brief = _draft(manifest, tmp_path, capsys)
    assert code in (0, 1)
    [src] = [s for s in brief["sources"] if s["path"] == CARD]
    assert src["status"] == "read"
    assert any("'repo'" in w and "not valid Unicode" in w for w in src["warnings"])


#: what a manifest string can hold: lone surrogates, controls, separators, NUL, climbing, any code point
_HOSTILE_CHARS = st.one_of(
    st.sampled_from(["\udcff", "\ud800", "\udfff", "\x00", "\x1b", "\n", "/", "..", ".", "\u2028", "\ufeff", TAGS]),
    st.characters(exclude_categories=()),
)
_STRING = st.lists(_HOSTILE_CHARS, max_size=12).map("".join)
_MATERIAL = st.one_of(st.sampled_from([NOTE, CARD, "./" + NOTE]), _STRING, _STRING.map(lambda s: f"inbox/{s}.md"))
_KNOWLEDGE = st.one_of(st.just(DOC), st.just(DOC), _STRING)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    job=_STRING,
    created=_STRING,
    item_id=_STRING,
    topic=_STRING,
    output=_STRING,
    knowledge=_KNOWLEDGE,
    materials=st.lists(_MATERIAL, max_size=5),
    spot=st.lists(_MATERIAL, max_size=2),
)
@example(job="\udcff", created="\udcff", item_id="\udcff", topic="\udcff", output="\udcff", knowledge=DOC,
         materials=[NOTE, "x\udcff"], spot=["\udcff"])  # fmt: skip
@example(job="", created="", item_id="", topic="", output="", knowledge=DOC,
         materials=["\ud800\udcff", "\udcff\ud800", NOTE], spot=[])  # fmt: skip
def test_fuzz_manifest_strings_never_escape_and_list_every_material(
    kb: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    job: str,
    created: str,
    item_id: str,
    topic: str,
    output: str,
    knowledge: str,
    materials: list[str],
    spot: list[str],
) -> None:
    item = {"id": item_id, "topic": topic, "output": output, "knowledge": knowledge, "materials": materials}
    item["spot_check"] = spot
    manifest = tmp_path / "fuzzed.json"  # outside the KB: the KB's tree stays the same from example to example
    manifest.write_text(json.dumps({"job": job, "created": created, "items": [item]}), encoding="utf-8")
    code, _err, brief = _draft(manifest, tmp_path, capsys, "--kb", str(kb.parent), kb_root=kb.parent)
    if code == 2:
        return  # one line, nothing written (checked by _draft): e.g. the living document is missing
    as_read = json.loads(manifest.read_text(encoding="utf-8"))["items"][0]["materials"]  # a "\\ud800\\udcff" pair joins
    assert _materials(brief) == {loading.normalize_rel(loading.serialisable(m)) for m in as_read}


# --- finding 3: no output over anything e1prep reads or owns ------------------------------------------------


@pytest.fixture
def cassettes(tmp_path: Path) -> Path:
    """A copy of the example's cassette and the MANIFEST.json that lists it (the originals are never a target)."""
    folder = tmp_path / "cassettes"
    folder.mkdir()
    shutil.copy2(CASSETTE, folder / CASSETTE.name)
    shutil.copy2(CASSETTE.parent / "MANIFEST.json", folder / "MANIFEST.json")
    return folder


@pytest.mark.parametrize("option", ["--out", "--json"])
@pytest.mark.parametrize("victim", ["cassette", "MANIFEST.json"])
def test_an_output_onto_the_cassette_or_its_manifest_is_refused(
    example_copy: Path, cassettes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, victim: str
) -> None:
    cassette = cassettes / CASSETTE.name
    target = cassette if victim == "cassette" else cassettes / "MANIFEST.json"
    before = tree_digest(cassettes)
    args = ["draft", str(example_copy / "manifest.json"), "--backend", "llm", "--cassette", str(cassette)]
    assert main([*args, "--no-cache", option, str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    [line] = error_lines(err)
    assert "would overwrite an input" in line
    assert tree_digest(cassettes) == before


@pytest.fixture
def package_probe() -> Iterator[Path]:
    """A file inside the installed package that exists (created for the test, removed after)."""
    probe = PACKAGE / f"_issue26_probe_{os.getpid()}.py"
    probe.write_text("# a file of the package\n", encoding="utf-8")
    try:
        yield probe
    finally:
        probe.unlink(missing_ok=True)


@pytest.mark.parametrize("option", ["--out", "--json"])
@pytest.mark.parametrize("which", ["existing", "new", "through-a-link"])
def test_an_output_inside_the_installed_package_is_refused(
    kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], package_probe: Path, option: str, which: str
) -> None:
    new = PACKAGE / f"_issue26_new_{os.getpid()}.py"  # e.g. --out src/e1prep/render.py, which does not exist
    link = tmp_path / "render.py"
    link.symlink_to(package_probe)
    target = {"existing": package_probe, "new": new, "through-a-link": link}[which]
    before = tree_digest(PACKAGE)
    try:
        code, err, _brief = _draft(kb, tmp_path, capsys, option, str(target))
    finally:
        new.unlink(missing_ok=True)
    assert code == 2 and "installed e1prep package" in error_lines(err)[0]
    assert tree_digest(PACKAGE) == before


def test_out_src_e1prep_render_py_from_the_checkout_is_refused(
    kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if (ROOT / "src" / "e1prep").resolve() != PACKAGE:
        pytest.skip("e1prep is not imported from this checkout")
    monkeypatch.chdir(ROOT)
    before = tree_digest(PACKAGE)
    try:
        code, err, _brief = _draft(kb, tmp_path, capsys, "--json", "src/e1prep/render.py")
    finally:
        (PACKAGE / "render.py").unlink(missing_ok=True)
    assert code == 2 and "src/e1prep/render.py" in error_lines(err)[0]
    assert tree_digest(PACKAGE) == before


def _run(args: list[str], timeout: float = 60, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """The CLI as a program, bounded in time: a probe that hangs fails instead of blocking the suite."""
    return subprocess.run(
        [sys.executable, "-m", "e1prep", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        check=False,
        stdin=subprocess.DEVNULL,
        **kwargs,  # type: ignore[call-overload]
    )


@pytest.mark.parametrize("option", ["--out", "--json"])
def test_a_fifo_as_an_output_is_refused_at_once_and_never_blocks(kb: Path, tmp_path: Path, option: str) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    before = tree_digest(kb.parent)
    proc = _run(["draft", str(kb), option, str(fifo)], timeout=30)  # a blocked open would time out
    assert proc.returncode == 2, proc.stderr
    [line] = error_lines(proc.stderr)
    assert "FIFO" in line and str(fifo) in line
    assert proc.stdout == "" and tree_digest(kb.parent) == before


def test_a_device_as_an_output_is_refused_and_the_null_device_and_own_stdout_are_not(
    kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err, _brief = _draft(kb, tmp_path, capsys, "--json", "/dev/zero")
    assert code == 2 and "character device" in error_lines(err)[0]
    code, _err, _brief = _draft(kb, tmp_path, capsys, "--out", os.devnull)  # --json still written: a brief
    assert code in (0, 1)
    proc = _run(["draft", str(kb), "--out", os.devnull, "--json", "/dev/stdout"])  # stdout: a pipe we were given
    assert proc.returncode in (0, 1), proc.stderr
    assert json.loads(proc.stdout)["header"]["topic"] == "inference"


def test_check_targets_refuses_a_fifo_and_a_guarded_folder(tmp_path: Path) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    with pytest.raises(e1prep.InputError, match="FIFO"):
        check_targets([Target(str(fifo), "--out")], kb_root=None)
    with pytest.raises(e1prep.InputError, match="inside the golden cases"):
        check_targets(
            [Target(str(tmp_path / "g" / "x"), "--report")],
            kb_root=None,
            folders=[(tmp_path / "g", "the golden cases")],
        )


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    """A golden folder holding a copy of the bundled case, and a thresholds file beside it."""
    folder = tmp_path / "golden"
    shutil.copytree(EXAMPLE, folder / CASE)
    (tmp_path / "thresholds.toml").write_text((ROOT / "evals" / "thresholds.toml").read_text(encoding="utf-8"))
    return folder


@pytest.mark.parametrize(
    "victim", ["thresholds.toml", f"golden/{CASE}/expected.json", f"golden/{CASE}/manifest.json", "golden/new.json"]
)
def test_eval_report_onto_what_the_eval_reads_is_refused(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], victim: str
) -> None:
    thresholds = tmp_path / "thresholds.toml"
    report = tmp_path / victim
    before = {**tree_digest(golden), "thresholds": hashlib.sha256(thresholds.read_bytes()).hexdigest()}
    args = ["eval", "--golden", str(golden), "--thresholds", str(thresholds), "--case", CASE]
    assert main([*args, "--report", str(report)]) == 2
    out, err = capsys.readouterr()
    assert len(error_lines(err)) == 1 and "Traceback" not in err
    assert "overall" not in out  # refused before the run, not after it
    assert {**tree_digest(golden), "thresholds": hashlib.sha256(thresholds.read_bytes()).hexdigest()} == before
    assert not (golden / "new.json").exists()


def test_eval_report_onto_a_cassette_manifest_is_refused(
    golden: Path, cassettes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = tree_digest(cassettes)
    args = ["eval", "--backend", "llm", "--golden", str(golden), "--cassettes", str(cassettes), "--case", CASE]
    assert main([*args, "--report", str(cassettes / "MANIFEST.json")]) == 2
    assert "the cassettes" in error_lines(capsys.readouterr().err)[0]
    assert tree_digest(cassettes) == before


def test_eval_report_to_a_fifo_is_refused_and_a_good_report_is_still_written(golden: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "report.json"
    os.mkfifo(fifo)
    args = ["eval", "--golden", str(golden), "--thresholds", str(tmp_path / "thresholds.toml"), "--case", CASE]
    proc = _run([*args, "--report", str(fifo)], timeout=60)
    assert proc.returncode == 2 and "FIFO" in error_lines(proc.stderr)[0]
    good = tmp_path / "r.json"
    proc = _run([*args, "--report", str(good)], timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(good.read_text(encoding="utf-8"))["cases"][0]["case"] == CASE
    assert _no_temporaries(tmp_path) == []


# --- finding 4: the cache folder (the model backend against the stub server of test_llm_server) --------------


@pytest.fixture
def stub_kb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A KB of three notes, and the environment of a model served by a stub on 127.0.0.1; yields the manifest."""
    manifest = write_kb(tmp_path / "stubkb")
    with StubServer() as stub:
        for key, value in {
            "E1PREP_BASE_URL": stub.base_url,
            "E1PREP_MODEL": "stub-model",
            "E1PREP_PROMPT": "extract_material",
            "E1PREP_RETRIES": "0",
            "E1PREP_TIMEOUT": "5",
        }.items():
            monkeypatch.setenv(key, value)
        monkeypatch.delenv("E1PREP_NO_CACHE", raising=False)
        yield manifest


def _cache_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and "cache" in r.getMessage()]


def _llm_draft(
    manifest: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, str, dict]:
    return _draft(manifest, tmp_path, capsys, "--backend", "llm", *extra)


@pytest.mark.parametrize("how", ["--cache-dir", "E1PREP_CACHE_DIR", "through-a-link"])
def test_a_cache_folder_inside_the_kb_is_refused(
    stub_kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    inside = stub_kb.parent / "inbox" / ".cache"
    extra: list[str] = []
    if how == "through-a-link":
        link = tmp_path / "cache-link"
        link.symlink_to(stub_kb.parent / "inbox")
        extra = ["--cache-dir", str(link / "cache")]
    elif how == "--cache-dir":
        extra = ["--cache-dir", str(inside)]
    else:
        monkeypatch.setenv("E1PREP_CACHE_DIR", str(inside))
    code, err, _brief = _llm_draft(stub_kb, tmp_path, capsys, *extra)  # checks the KB is byte-identical
    assert code == 2 and "inside the KB root" in error_lines(err)[0]
    assert not inside.exists() and not (stub_kb.parent / "inbox" / "cache").exists()


def test_a_cache_folder_outside_the_kb_is_used(stub_kb: Path, tmp_path: Path, capsys) -> None:
    cache = tmp_path / "cache"
    code, _err, brief = _llm_draft(stub_kb, tmp_path, capsys, "--cache-dir", str(cache))
    assert code == 0 and brief["run"]["usage"]["calls"] == 3
    code, _err, brief = _llm_draft(stub_kb, tmp_path, capsys, "--cache-dir", str(cache))
    assert code == 0 and brief["run"]["usage"]["cache_hits"] == 3 and brief["run"]["usage"]["calls"] == 0


@pytest.mark.parametrize("below", [False, True])
def test_a_cache_path_that_is_a_file_runs_uncached_with_one_warning(
    stub_kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, below: bool
) -> None:
    not_a_folder = tmp_path / "cache-file"
    not_a_folder.write_text("x\n", encoding="utf-8")
    cache_dir = not_a_folder / "sub" if below else not_a_folder
    code, _err, brief = _llm_draft(stub_kb, tmp_path, capsys, "--cache-dir", str(cache_dir))
    assert code == 0
    [warning] = _cache_warnings(caplog)
    assert "running uncached" in warning
    assert brief["run"]["usage"]["calls"] == 3 and brief["run"]["usage"]["cache_hits"] == 0
    assert not_a_folder.read_text(encoding="utf-8") == "x\n"


def test_a_read_only_cache_folder_runs_uncached_with_one_warning(
    stub_kb: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = tmp_path / "ro-cache"
    folder.mkdir()
    real_mkstemp, real_mkdir = llm_cache.tempfile.mkstemp, Path.mkdir

    def denied(path: object) -> bool:
        return str(path).startswith(str(folder))

    def mkstemp(*args: object, **kwargs: object) -> tuple[int, str]:  # root writes anywhere: simulate the mode
        if denied(kwargs.get("dir")):
            raise PermissionError(13, "Permission denied")
        return real_mkstemp(*args, **kwargs)  # type: ignore[call-overload,no-any-return]

    def mkdir(self: Path, *args: object, **kwargs: object) -> None:
        if denied(self) and self != folder:
            raise PermissionError(13, "Permission denied")
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(llm_cache.tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(Path, "mkdir", mkdir)
    code, _err, brief = _llm_draft(stub_kb, tmp_path, capsys, "--cache-dir", str(folder))
    assert code == 0
    [warning] = _cache_warnings(caplog)
    assert "Permission denied" in warning and "uncached" in warning
    assert brief["run"]["usage"]["calls"] == 3
    assert list(folder.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_cache_folder_for_real(
    stub_kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "ro-cache"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        code, _err, _brief = _llm_draft(stub_kb, tmp_path, capsys, "--cache-dir", str(folder))
    finally:
        folder.chmod(0o755)
    assert code == 0
    [warning] = _cache_warnings(caplog)
    assert "running uncached" in warning


def test_a_cache_that_fails_mid_run_warns_once(
    stub_kb: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def full(*args: object, **kwargs: object) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(llm_cache.ExtractionCache, "put", full)
    code, _err, _brief = _llm_draft(stub_kb, tmp_path, capsys, "--cache-dir", str(tmp_path / "cache"))
    assert code == 0
    [warning] = _cache_warnings(caplog)
    assert "No space left" in warning


# --- finding 7: the low items -------------------------------------------------------------------------------

FORGED_PATH = "inbox/a\x1b[2Jb\ne1prep: error: forged\r.md"


def test_the_progress_line_escapes_a_material_path(make_kb, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = make_kb({NOTE: "# n\n"}, materials=[NOTE, FORGED_PATH])
    code, err, brief = _draft(manifest, tmp_path, capsys)
    assert code == 1 and FORGED_PATH in _materials(brief)
    assert "\x1b" not in err and "\r" not in err
    assert not [ln for ln in err.splitlines() if ln.startswith("e1prep: error: forged")]
    assert "e1prep: material 2/2 inbox/a\\x1b[2Jb\\x0ae1prep: error: forged\\x0d.md: missing" in err


def test_the_progress_line_on_a_terminal_escapes_too(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    handler = cli._Progress()
    handler.tty = True
    record = logging.LogRecord("e1prep.progress", logging.INFO, __file__, 1, "material %s", (FORGED_PATH,), None)
    handler.emit(record)
    cli._Progress.clear()
    err = capsys.readouterr().err
    assert err.count("\x1b") == 2 and err.count("\r") == 2  # only the line's own "\r\x1b[K", written twice
    assert "\n" not in err


def test_tag_characters_are_stripped_from_the_brief_and_escaped_on_stderr(
    make_kb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert md(f"Foo{TAGS}-Serve") == "Foo-Serve"
    assert md_comment(f"m{TAGS}") == "m"
    assert terminal_safe("a\U000e0041b") == "a\\U000e0041b"
    note = f"# n\n\n## 1. Foo{TAGS}-Serve 推理框架\n- URL：https://x.org/foo{TAGS}\n- 核查：已核查原文{TAGS}\n"
    manifest = make_kb({NOTE: note}, materials=[NOTE, f"inbox/x{TAGS}.md"])
    code, err, _brief = _draft(manifest, tmp_path, capsys)
    assert code == 1
    markdown = (tmp_path / "probe.md").read_text(encoding="utf-8")
    assert "Foo" in markdown
    assert not [c for c in markdown if 0xE0000 <= ord(c) <= 0xE007F]
    assert not [c for c in err if 0xE0000 <= ord(c) <= 0xE007F]


@pytest.mark.parametrize("name", ["n" * 300, "é" * 130, "长" * 90])
def test_a_name_over_255_bytes_is_unreadable_not_missing(
    make_kb, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    where = [f"inbox/no-such-folder/{name}.md", f"inbox/jay/{name}.md"]
    manifest = make_kb({NOTE: "# n\n"}, materials=[NOTE, *where])
    code, _err, brief = _draft(manifest, tmp_path, capsys)
    assert code == 1
    for path in where:
        [src] = [s for s in brief["sources"] if s["path"] == path]
        assert src["status"] == "unreadable" and "File name too long" in src["reason"], src


def _die_while_writing(kb: Path, tmp_path: Path, patch: str) -> subprocess.CompletedProcess[str]:
    """Draft in a child whose ``outputs.os.<call>`` is replaced by ``patch``; the outputs go to ``tmp_path/out``."""
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    (out / "b.json").write_text("old json\n", encoding="utf-8")
    code = (
        "import os, signal, sys\n"
        "from e1prep.brief import outputs\n"
        "real_replace, real_fsync = os.replace, os.fsync\n"
        f"{patch}\n"
        "from e1prep.cli import main\n"
        f"sys.exit(main(['draft', {str(kb)!r}, '--json', {str(out / 'b.json')!r}, '--out', {str(out / 'b.md')!r}]))\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)


def test_sigterm_while_renaming_removes_the_temporary_files(kb: Path, tmp_path: Path) -> None:
    """SIGTERM when the staged files have names (just before the rename): they are removed, exit 143."""
    patch = "outputs.os.replace = lambda *a: os.kill(os.getpid(), signal.SIGTERM)"
    proc = _die_while_writing(kb, tmp_path, patch)
    assert proc.returncode == 143, proc.stderr
    assert proc.stderr.splitlines()[-1] == "e1prep: terminated" and "Traceback" not in proc.stderr
    assert _no_temporaries(tmp_path / "out") == []
    assert (tmp_path / "out" / "b.json").read_text(encoding="utf-8") == "old json\n"


@pytest.mark.skipif(not hasattr(os, "O_TMPFILE"), reason="no anonymous files on this system")
def test_kill_9_while_staging_leaves_no_temporary_file(kb: Path, tmp_path: Path) -> None:
    """A staged file has no name until it is complete: SIGKILL half-way leaves nothing beside the output."""
    patch = "outputs.os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)"
    proc = _die_while_writing(kb, tmp_path, patch)
    assert proc.returncode == -9
    assert _no_temporaries(tmp_path / "out") == []
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["b.json"]


def test_ctrl_c_while_renaming_removes_the_temporary_files(
    kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(outputs.os, "replace", interrupted)
    previous = tmp_path / "b.json"
    previous.write_text("old json\n", encoding="utf-8")
    assert main(["draft", str(kb), "--json", str(previous), "--out", str(tmp_path / "b.md")]) == 130
    assert capsys.readouterr().err.splitlines()[-1] == "e1prep: interrupted"
    assert _no_temporaries(tmp_path) == []
    assert previous.read_text(encoding="utf-8") == "old json\n"


def test_the_named_fallback_is_cleaned_up_too(kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a file system has no anonymous files, the staged file is named from the start and still removed."""
    monkeypatch.setattr(outputs, "_anonymous_files", lambda: False)
    real_replace = outputs.os.replace
    calls: list[str] = []

    def second_fails(src: str, dst: str) -> None:
        calls.append(str(src))
        if len(calls) == 2:
            raise OSError(5, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(outputs.os, "replace", second_fails)
    assert main(["draft", str(kb), "--json", str(tmp_path / "b.json"), "--out", str(tmp_path / "b.md")]) == 2
    assert all(Path(c).name.endswith(".tmp") for c in calls)
    assert _no_temporaries(tmp_path) == []
