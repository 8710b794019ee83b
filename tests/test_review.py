"""Issue 25, item 5: the review page without a browser. One self-contained file that loads nothing, every
material of the manifest on it with an id per line, every claim linked to its line, rejected and repaired
claims with their rule, KB and brief text escaped; ``draft --html`` and ``review`` write it."""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import BLOGS, EXAMPLE_MANIFEST, MakeKB, error_lines
from e1prep.brief.models import Brief
from e1prep.brief.review import render_review
from e1prep.cli import main
from e1prep.kb.loading import load_kb
from e1prep.pipeline import draft_brief, draft_from_objects

HOSTILE_NOTE = """# 10-25 hostile

1. **EvilTool** <script>window.__pwned = 1</script> 新推理引擎，已核查原文，全文读完。
   - 吞吐 120 tokens/s </textarea><img src=x onerror="window.__pwned=2">
   - 链接 javascript:window.__pwned=3 与 "onmouseover="window.__pwned=4" x="
   - 终端 \x1b[31mRED\x1b[0m 与 \u202eevil\u202c 文本
   - 地址 https://example.com/evil"onmouseover="window.__pwned=5
"""


def files_of(kb_manifest: Path) -> list[object]:
    kb = load_kb(kb_manifest)
    return [*kb.materials, *kb.spot_checks, kb.knowledge_material]


class Tags(HTMLParser):
    """Every start tag with its attributes, and the text, as a browser's tokenizer sees them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(page: str) -> Tags:
    tags = Tags()
    tags.feed(page)
    tags.close()
    return tags


@pytest.fixture(scope="module")
def example_page() -> tuple[Brief, str]:
    brief = draft_brief(EXAMPLE_MANIFEST)
    return brief, render_review(brief, files_of(EXAMPLE_MANIFEST))


def test_the_page_is_one_file_that_loads_nothing(example_page: tuple[Brief, str]) -> None:
    _, page = example_page
    tags = parse(page)
    names = {t for t, _ in tags.tags}
    assert not names & {"script", "link", "img", "iframe", "object", "embed", "source", "video", "audio", "base"}
    for tag, attrs in tags.tags:
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)  # no event handler anywhere
            if name in ("src", "srcset", "data", "poster", "action", "formaction"):
                pytest.fail(f"<{tag} {name}={value!r}> loads something")
            if name == "href" and tag != "a":
                pytest.fail(f"<{tag} href={value!r}>")
            if name == "href" and not (value or "").startswith("#"):
                assert attrs.get("class") == "ext" and re.match(r"https?://", value or ""), (tag, attrs)
    assert not re.search(r"@import|url\(", page)  # the stylesheet fetches nothing either
    csp = [a["content"] for t, a in tags.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in (csp[0] or "") and "script-src" not in (csp[0] or "")


def test_every_material_of_the_manifest_is_on_the_page_line_by_line(example_page: tuple[Brief, str]) -> None:
    _, page = example_page
    manifest = json.loads(EXAMPLE_MANIFEST.read_text(encoding="utf-8"))["items"][0]
    ids = {a.get("id") for _, a in parse(page).tags}
    by_path = {m.path: m for m in files_of(EXAMPLE_MANIFEST)}  # type: ignore[attr-defined]
    for path in [*manifest["materials"], manifest["knowledge"]]:
        heading = re.search(r'<h3 id="(m\d+)">' + re.escape(path) + " <", page)
        assert heading, path
        index = heading.group(1)
        lines = by_path[path].text.split("\n")
        assert f"src-{index}-L1" in ids and f"src-{index}-L{len(lines)}" in ids, path
        assert f"src-{index}-L{len(lines) + 1}" not in ids


def test_every_cited_number_links_to_its_line_and_the_line_is_marked(example_page: tuple[Brief, str]) -> None:
    brief, page = example_page
    index = {p: m for m, p in re.findall(r'<h3 id="(m\d+)">([^<]+?) <', page)}
    cited = [n for obj in [*brief.increments, *brief.refreshes, *brief.contradictions] for n in obj.numbers]
    with_line = [n for n in cited if n.source.line_start]
    assert len(with_line) >= 20
    for n in with_line:
        anchor = f"src-{index[n.source.path]}-L{n.source.line_start}"
        assert f'href="#{anchor}">{n.text}</a>' in page, (n.text, anchor)
        line = re.search(rf'<div id="{anchor}" data-n="\d+" class="c">(.*?)</div>', page)
        assert line and f'<mark class="n">{n.text}</mark>' in line.group(1), (n.text, anchor)


def test_a_citation_without_a_line_is_found_by_its_quote(example_page: tuple[Brief, str]) -> None:
    """Rapid-MLX's bilingual mismatch cites its two numbers by quote alone: each still points at its line."""
    brief, page = example_page
    con = next(c for c in brief.contradictions if c.key == "Rapid-MLX")
    assert all(n.source.line_start is None for n in con.numbers)
    card = next(m for m in files_of(EXAMPLE_MANIFEST) if m.path == con.sources[0])  # type: ignore[attr-defined]
    for n in con.numbers:
        line = next(i for i, ln in enumerate(card.text.split("\n"), 1) if n.source.quote in ln)  # type: ignore[attr-defined]
        assert re.search(rf'href="#src-m\d+-L{line}">{re.escape(n.text)}</a>', page), n.text
    assert "0 of" not in page and re.search(r"(\d+) of \1 claims located", page)


def test_rejected_and_repaired_claims_are_shown_with_their_rule_at_their_line() -> None:
    objects = {
        "increments": [
            {"key": "DeepInfer", "sources": [BLOGS], "evidence": "partial",
             "points": ["架构按 vision encode / prefill / decode 三阶段解耦；", "线上规模 155 万亿 tokens/天"]},
            {"key": "Fake", "sources": [BLOGS], "evidence": "verified", "points": ["Fake does 999 tokens/s"],
             "numbers": [{"text": "999", "evidence": "verified", "quotable": True,
                          "source": {"path": BLOGS, "line_start": 3, "quote": "999 tokens"}}]},
        ]
    }  # fmt: skip
    brief = draft_from_objects(EXAMPLE_MANIFEST, objects, name="tester")
    assert brief.rejected and brief.repairs
    page = render_review(brief, files_of(EXAMPLE_MANIFEST))
    rejected = page.split("rejected by the verifier")[1].split("<h2>")[0]
    for violation in brief.rejected[0].violations:
        assert f'<span class="rule">{violation.rule}</span>' in rejected
    repaired = page.split("repaired by the verifier")[1].split("<h2>")[0]
    repair = brief.repairs[0]
    assert (repair.rule, repair.action) == ("quantity-uncited", "moved-to-boundary")
    assert f'<span class="rule">{repair.rule}</span> → {repair.action}' in repaired
    blogs = load_kb(EXAMPLE_MANIFEST).material(BLOGS)
    assert blogs is not None
    line = next(i for i, ln in enumerate(blogs.lines, 1) if repair.text in ln)
    assert re.search(rf'<a class="claim repaired" id="c\d+" href="#src-m\d+-L{line}">', repaired)


def test_hostile_kb_text_is_text(make_kb: MakeKB) -> None:
    manifest = make_kb({"inbox/eve/2026-10-25-hostile.md": HOSTILE_NOTE})
    page = render_review(draft_brief(manifest), files_of(manifest))
    tags = parse(page)
    assert not [t for t, _ in tags.tags if t in ("script", "img", "textarea")]
    assert not [a for _, a in tags.tags for name in a if name.startswith("on")]
    assert "javascript:" not in " ".join(str(v) for _, a in tags.tags for v in a.values())
    text = "".join(tags.text)
    assert "<script>window.__pwned = 1</script>" in text and "</textarea><img src=x" in text
    assert "\x1b" not in page and "\\x1b[31mRED" in text  # ESC shown, never sent
    assert 'evil"onmouseover="window.__pwned=5' in text


def test_hostile_brief_json_text_is_text(example_page: tuple[Brief, str]) -> None:
    """A brief JSON written by anyone (``review``): its own strings are data too, invisible characters shown."""
    brief, _ = example_page
    evil = '<img src=x onerror="window.__pwned=1">\u202eevil\u202c"><script>alert(1)</script>'
    inc = brief.increments[0].model_copy(
        update={"title": evil, "url": "javascript:window.__pwned=2", "points": [evil], "key": evil}
    )
    page = render_review(brief.model_copy(update={"increments": [inc], "judgement": evil}), files_of(EXAMPLE_MANIFEST))
    tags = parse(page)
    assert not [t for t, _ in tags.tags if t in ("script", "img")]
    assert not [v for _, a in tags.tags for v in a.values() if v and "javascript:" in v]
    assert "\u202e" not in page and "\\u202eevil\\u202c" in "".join(tags.text)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_draft_html_writes_the_page_beside_the_markdown_and_review_rebuilds_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md, js, page = tmp_path / "b.md", tmp_path / "b.json", tmp_path / "b.html"
    code, out, _ = run(
        ["draft", str(EXAMPLE_MANIFEST), "--out", str(md), "--json", str(js), "--html", str(page)], capsys
    )
    assert code == 0 and out == ""
    assert md.read_text(encoding="utf-8").startswith("# inference")
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "DeepInfer" in html
    code, out, err = run(["review", str(js), "--manifest", str(EXAMPLE_MANIFEST)], capsys)
    assert code == 0, err
    assert out == html  # the saved JSON gives the same page, on stdout by default
    again = tmp_path / "again.html"
    assert main(["review", str(js), "--manifest", str(EXAMPLE_MANIFEST), "--html", str(again)]) == 0
    assert again.read_text(encoding="utf-8") == html


def test_draft_html_dash_takes_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    md = tmp_path / "b.md"
    code, out, _ = run(["draft", str(EXAMPLE_MANIFEST), "--html", "-", "--out", str(md)], capsys)
    assert code == 0 and out.startswith("<!DOCTYPE html>") and md.is_file()
    code, out, err = run(["draft", str(EXAMPLE_MANIFEST), "--html", "-", "--json", "-"], capsys)
    assert code == 2 and out == ""
    assert error_lines(err) == [
        "e1prep: error: --json and --html both name standard output; give one of them a file path "
        "(one stream, one document)"
    ]


@pytest.mark.parametrize("where", ["manifest", "kb", "fifo", "package"])
def test_the_page_is_never_written_onto_an_input_a_fifo_or_the_package(
    where: str, tmp_path: Path, make_kb: MakeKB, capsys: pytest.CaptureFixture[str]
) -> None:
    import e1prep

    manifest = make_kb({"inbox/a/2026-10-25-a.md": "# a\n\n1. **Widget** 新工具，已读原文。\n"})
    target = {
        "manifest": manifest,
        "kb": manifest.parent / "inbox" / "a" / "out.html",
        "fifo": tmp_path / "fifo",
        "package": Path(e1prep.__file__).parent / "review.html",
    }[where]
    if where == "fifo":
        os.mkfifo(target)
    before = manifest.read_bytes()
    js = tmp_path / "b.json"
    assert main(["draft", str(manifest), "--json", str(js), "--out", str(tmp_path / "b.md")]) == 0
    capsys.readouterr()
    for argv in (
        ["draft", str(manifest), "--out", str(tmp_path / "c.md"), "--html", str(target)],
        ["review", str(js), "--manifest", str(manifest), "--html", str(target)],
    ):
        code, out, err = run(argv, capsys)
        assert code == 2 and out == ""
        assert len(error_lines(err)) == 1 and "--html" in err, err
    assert manifest.read_bytes() == before
    assert where == "fifo" or not (where != "manifest" and target.exists())


@pytest.mark.parametrize(
    ("content", "says"),
    [(None, "no such file"), ("{", "is not valid JSON"), ('{"header": 1}', "")],
)
def test_review_of_a_bad_brief_is_one_line_exit_2(
    content: str | None, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    brief = tmp_path / "brief.json"
    if content is not None:
        brief.write_text(content, encoding="utf-8")
    code, out, err = run(["review", str(brief), "--manifest", str(EXAMPLE_MANIFEST)], capsys)
    assert code == 2 and out == ""
    lines = error_lines(err)
    assert len(lines) == 1 and str(brief) in lines[0] and says in lines[0], err


def test_review_of_a_folder_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["review", str(tmp_path), "--manifest", str(EXAMPLE_MANIFEST)], capsys)
    assert code == 2 and out == "" and len(error_lines(err)) == 1, err


def test_review_says_which_material_it_could_not_read(
    tmp_path: Path, make_kb: MakeKB, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = make_kb(
        {"inbox/a/2026-10-25-a.md": "# a\n\n1. **Widget** 新工具。\n"}, ["inbox/a/2026-10-25-a.md", "inbox/a/gone.md"]
    )
    js = tmp_path / "b.json"
    assert main(["draft", str(manifest), "--json", str(js), "--out", str(tmp_path / "b.md")]) == 1
    capsys.readouterr()
    code, out, err = run(["review", str(js), "--manifest", str(manifest)], capsys)
    assert code == 1
    assert "inbox/a/gone.md" in out and "no such file in the KB" in out
    assert "e1prep: inbox/a/gone.md: missing: no such file in the KB" in err


def test_review_into_a_closed_pipe_is_a_quiet_exit_141(tmp_path: Path) -> None:
    import subprocess
    import sys

    from conftest import ROOT

    js = tmp_path / "b.json"
    assert main(["draft", str(EXAMPLE_MANIFEST), "--json", str(js), "--out", str(tmp_path / "b.md")]) == 0
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "e1prep", "review", str(js), "--manifest", str(EXAMPLE_MANIFEST)],
            stdout=write_end, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, cwd=ROOT, timeout=120,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert proc.returncode == 141 and proc.stderr == ""
