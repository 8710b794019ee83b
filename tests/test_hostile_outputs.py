"""Issue 13, rows 1, 2, 10: outputs never touch an input, are written atomically; data cannot forge the brief."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from conftest import EXAMPLE_MANIFEST, ROOT, error_lines, repo_card, tree_digest
from e1prep.brief import outputs
from e1prep.brief.models import Brief, Rejected, Violation
from e1prep.brief.render import render_markdown
from e1prep.brief.safetext import TerminalSafeFormatter, md, terminal_safe
from e1prep.cli import main

NOTE = "inbox/jay/2026-10-25-blogs-discovery.md"
CARD = "organized/repo_cards/1-acme-widget.md"
PAPER = "organized/paper_cards/2-2610-00001.md"
DOC = "organized/knowledge/inference.md"


@pytest.fixture
def kb(make_kb) -> Path:
    return make_kb({NOTE: "# n\n\n## 1. Foo-Serve\n- URL：https://x.org/foo\n", CARD: repo_card()})


# --- row 1: outputs never overwrite an input -------------------------------------------------------


@pytest.mark.parametrize("option", ["--out", "--json"])
@pytest.mark.parametrize("victim", ["manifest.json", DOC, NOTE, CARD, "link-to-doc", "hardlink-to-note", "new.md"])
def test_output_onto_an_input_is_refused_and_the_kb_is_untouched(
    kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, victim: str
) -> None:
    root = kb.parent
    outside = tmp_path / "outside"
    outside.mkdir()
    if victim == "link-to-doc":
        target = outside / "link.md"
        target.symlink_to(root / DOC)
    elif victim == "hardlink-to-note":
        target = outside / "hard.md"
        os.link(root / NOTE, target)
    else:
        target = root / victim  # a KB file, or a new file inside the KB root
    before = tree_digest(root)
    assert main(["draft", str(kb), option, str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # nothing written, not even stdout
    assert len(error_lines(err)) == 1 and "Traceback" not in err
    assert tree_digest(root) == before
    assert not (root / "new.md").exists()


def test_out_and_json_on_one_path_are_refused(kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    same = tmp_path / "brief.md"
    same.write_text("previous\n", encoding="utf-8")
    assert main(["draft", str(kb), "--out", str(same), "--json", str(tmp_path / "." / "brief.md")]) == 2
    assert "same file" in error_lines(capsys.readouterr().err)[0]
    assert same.read_text(encoding="utf-8") == "previous\n"


def test_manifest_outside_the_kb_is_protected_too(make_kb, tmp_path: Path) -> None:
    kb = make_kb({NOTE: "# n\n"})
    moved = tmp_path / "m.json"
    moved.write_bytes(kb.read_bytes())
    before = moved.read_bytes()
    assert main(["draft", str(moved), "--kb", str(kb.parent), "--json", str(moved)]) == 2
    assert moved.read_bytes() == before


# --- row 10: bad targets, closed stdout, atomic writes ---------------------------------------------


@pytest.mark.parametrize("where", ["folder", "missing-parent", "dev-full"])
def test_bad_output_targets_are_one_line_exit_2(
    kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    previous = tmp_path / "b.json"
    previous.write_text('{"previous": true}\n', encoding="utf-8")
    if where == "dev-full":
        if not Path("/dev/full").exists():
            pytest.skip("no /dev/full")
        out = "/dev/full"
    else:
        out = str(tmp_path) if where == "folder" else str(tmp_path / "no" / "such" / "b.md")
    assert main(["draft", str(kb), "--json", str(previous), "--out", out]) == 2
    err = capsys.readouterr().err
    assert len(error_lines(err)) == 1 and "Traceback" not in err
    assert previous.read_text(encoding="utf-8") == '{"previous": true}\n'  # not written half-way
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_write_that_dies_half_way_leaves_the_previous_files_whole(
    kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    md_path, json_path = tmp_path / "b.md", tmp_path / "b.json"
    md_path.write_text("old md\n", encoding="utf-8")
    json_path.write_text("old json\n", encoding="utf-8")
    real_fsync = os.fsync
    calls = {"n": 0}

    def dying_fsync(fd: int) -> None:
        calls["n"] += 1
        if calls["n"] == 2:  # the second file: the first is staged, nothing renamed yet
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(outputs.os, "fsync", dying_fsync)
    assert main(["draft", str(kb), "--out", str(md_path), "--json", str(json_path)]) == 2
    assert md_path.read_text(encoding="utf-8") == "old md\n"
    assert json_path.read_text(encoding="utf-8") == "old json\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json", "b.md", "kb"]


def test_kill_9_while_writing_leaves_the_previous_json(kb: Path, tmp_path: Path) -> None:
    """A real SIGKILL between staging and renaming: the previous file is intact, never 0 bytes."""
    json_path = tmp_path / "b.json"
    json_path.write_text("old json\n", encoding="utf-8")
    code = (
        "import os, signal, sys\n"
        "from e1prep.brief import outputs\n"
        "real = os.replace\n"
        "outputs.os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)\n"
        "from e1prep.cli import main\n"
        f"main(['draft', {str(kb)!r}, '--json', {str(json_path)!r}, '--out', {str(tmp_path / 'b.md')!r}])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120, check=False)
    assert proc.returncode == -9
    assert json_path.read_text(encoding="utf-8") == "old json\n"
    assert not (tmp_path / "b.md").exists()


def test_closed_stdout_is_one_line_exit_2_and_writes_nothing(kb: Path, tmp_path: Path) -> None:
    json_path = tmp_path / "b.json"
    proc = subprocess.run(
        [sys.executable, "-m", "e1prep", "draft", str(kb), "--json", str(json_path)],
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
        cwd=ROOT,
        preexec_fn=lambda: os.close(1),
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert len(error_lines(err)) == 1 and "Traceback" not in err
    assert not json_path.exists()


# --- row 2: data cannot forge the brief -------------------------------------------------------------

FORGERY = "widget\n## 6. 今晚给活文档的最小动作建议\n1. 删掉 §1\n| fake | table |\n<script>alert(1)</script>\x1b[2J\x07"


LIVE_PIPE = re.compile(r"(?<!\\)(?:\\\\)*\|")


def _structure(markdown: str) -> list[str]:
    """Each line's Markdown kind: heading level, table row with its cell count, list, quote, rule, text."""
    kinds = []
    for line in markdown.split("\n"):
        assert not re.search(r"<(?!!-- backend=)[A-Za-z!/?]", line), line  # no live HTML but the footer comment
        assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", line), repr(line)
        if m := re.match(r"^ {0,3}(#{1,6})(?:\s|$)", line):
            kinds.append(f"H{len(m.group(1))}")
        elif line.lstrip().startswith("|"):
            kinds.append(f"T{len(LIVE_PIPE.findall(line))}")
        elif re.match(r"^ {0,3}(?:[-*_=]\s*){3,}$", line):
            kinds.append("rule")
        elif m := re.match(r"^(\s*)(?:[-+*]|\d{1,9}[.)])(?:\s|$)", line):
            kinds.append(f"L{len(m.group(1))}")
        elif line.startswith(">"):
            kinds.append("Q")
        else:
            kinds.append("P" if line.strip() else "")
    return kinds


def _substitute(obj: Any, f: Any) -> Any:
    """Every KB- or model-sourced string of a brief replaced by ``f(string)``; enums and fixed literals kept."""
    if isinstance(obj, BaseModel):
        keep = {"role", "list_name", "schema_version", "item"}
        update = {k: _substitute(getattr(obj, k), f) for k in type(obj).model_fields if k not in keep}
        return obj.model_copy(update=update)
    if isinstance(obj, Enum):
        return obj
    if isinstance(obj, str):
        return f(obj)
    if isinstance(obj, list):
        return [_substitute(x, f) for x in obj]
    return obj


@pytest.fixture(scope="module")
def full_brief() -> Brief:
    from e1prep.pipeline import draft_brief

    brief = draft_brief(EXAMPLE_MANIFEST)
    brief.rejected.append(
        Rejected(
            list_name="increments",
            key="k",
            violations=[Violation(path="increments[0].points[0]", rule="quantity-uncited", text="t", reason="r")],
            item={},
        )
    )
    brief.run.model = "m"
    assert brief.increments and brief.refreshes and brief.contradictions and brief.anchors and brief.actions
    return brief


HOSTILE = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("#|<>`\\-*_=~[]()!\n\r\t\x1b\x07\x00\x85\u2028 1.")),
        st.characters(codec="utf-8"),
    ),
    max_size=40,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pool=st.lists(HOSTILE, min_size=1, max_size=6))
@example(pool=[FORGERY])
@example(pool=["\n# h", "| a | b |", "---", "1. x", "> q", "<b>", "`", "\\|", "\\\\|"])
def test_no_kb_string_changes_the_brief_structure(full_brief: Brief, pool: list[str]) -> None:
    seen: dict[str, int] = {}

    def number(s: str) -> int:
        return seen.setdefault(s, len(seen))

    def hostile(s: str) -> str:
        # equal strings stay equal and non-empty ones stay non-empty, so the brief takes the same branches
        return s if not s else f"{pool[number(s) % len(pool)]} {number(s)}"

    def plain(s: str) -> str:
        return s if not s else f"x{number(s)}"

    for lang in ("zh", "en"):
        forged = render_markdown(_substitute(full_brief, hostile), lang=lang)
        reference = render_markdown(_substitute(full_brief, plain), lang=lang)
        assert _structure(forged) == _structure(reference)


def test_forged_card_fields_do_not_forge_headings_rows_html_or_escapes(
    make_kb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quoted = FORGERY.replace("\\", "\\\\").replace("\n", "\\n").replace("\x1b", "\\e").replace("\x07", "\\a")
    card = repo_card(repo="acme/widget", stars=120).replace("repo: acme/widget", f'repo: "acme/{quoted}"')
    paper = f'---\narxiv: "2610.00001"\ntitle: "{quoted}"\n---\n## TLDR\n见 arXiv:2610.00001。\n'
    note = "# n\n\n## 1. Foo\x1b[31m-Serve\x07 <script>x</script>\n- URL：https://x.org/foo\n- 核查：已核查原文\n"
    kb = make_kb({NOTE: note, CARD: card, PAPER: paper})
    out = tmp_path / "b.md"
    code = main(["-v", "draft", str(kb), "--out", str(out), "--json", str(tmp_path / "b.json")])
    assert code in (0, 1)
    brief_md = out.read_text(encoding="utf-8")
    assert [ln for ln in brief_md.split("\n") if ln.startswith("## 6.")] == ["## 6. 今晚给活文档的最小动作建议"]
    assert not [ln for ln in brief_md.split("\n") if ln.startswith("| fake")]
    assert "<script" not in brief_md and "\x1b" not in brief_md and "\x07" not in brief_md
    _out, err = capsys.readouterr()
    assert "\x1b" not in err and "\x07" not in err


def test_md_keeps_text_readable() -> None:
    assert md("a | b") == "a \\| b"
    assert md("line one\nline two") == "line one line two"
    assert md("# Title") == "\\# Title"
    assert md("2610.30418") == "2610.30418"
    assert md("<b>x</b>") == "&lt;b>x&lt;/b>"
    assert md("red\x1b[31m!\x07") == "red\\[31m!"
    assert md("`code|x`") == "`code\\|x`"


def test_stderr_records_are_one_line_without_control_characters() -> None:
    import logging

    record = logging.LogRecord(
        "e1prep", logging.WARNING, __file__, 1, "%s: bad", ("x\x1b[2J\ne1prep: error: forged",), None
    )
    line = TerminalSafeFormatter("e1prep: %(levelname)s: %(message)s").format(record)
    assert "\n" not in line and "\x1b" not in line
    assert line == "e1prep: WARNING: x\\x1b[2J\\x0ae1prep: error: forged: bad"
    assert terminal_safe("a\x07b") == "a\\x07b"


def test_md_comment_cannot_close_the_footer() -> None:
    from e1prep.brief.safetext import md_comment

    assert md_comment("-") == "-"
    assert "-->" not in md_comment("m --> <script>\n# x")
