"""A long line is quoted around each number, not whole once per number (issue 26, finding 5): a brief's
size grows with its note, not with the square of a line's length. Lines of ordinary length are quoted
whole, as before (the golden and held-out briefs are byte-identical)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import example_with
from e1prep.brief.models import ContradictionKind
from e1prep.check.detectors import NOT_QUOTABLE_SHOWN
from e1prep.kb.loading import load_kb
from e1prep.pipeline import draft_brief, living_document, verify_brief
from e1prep.read.numbers import quantities
from e1prep.read.quotes import CUT, QUOTE_REACH, QUOTE_WHOLE_MAX, quote_around, quote_of, uncut
from e1prep.verify.facts import MaterialFacts

NOTE = "inbox/jay/2026-10-25-hostile.md"
HEAD = "# 笔记\n\n## 1. Quillon 推理引擎更新\n\n- URL：https://example.org/quillon\n- 核查：{check}\n- 要点：\n"
READ = HEAD.format(check="已核查原文（全文读完）")
SNIPPET = HEAD.format(check="仅搜索摘要")


def row(cells: int, head: str = READ) -> str:
    """One table row of ``cells`` numbered ``n%`` cells."""
    return head + "\n| " + " | ".join(f"{n}%" for n in range(cells)) + " |\n"


def _brief_size(tmp_path: Path, note: str) -> tuple[int, dict[str, object]]:
    manifest = example_with(tmp_path / f"kb-{len(note)}", {NOTE: note})
    brief = draft_brief(manifest)
    assert verify_brief(brief, manifest).clean
    text = brief.model_dump_json()
    return len(text), json.loads(text)


def test_a_short_text_is_quoted_whole() -> None:
    text = "指标 1：吞吐提升 37%，延迟 12 ms"
    assert quote_around(text, 10, 13) == text
    [tok, *_] = quantities(text)
    assert quote_of("  " + text + "  ", tok) == text  # a token read from another text: the text, whole


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(st.text(alphabet="ab 12,，|%字", min_size=1, max_size=30), min_size=60, max_size=200),
    at=st.integers(min_value=0),
)
def test_a_window_holds_its_number_verbatim_and_is_bounded(words: list[str], at: int) -> None:
    text = "".join(words)
    if len(text) <= QUOTE_WHOLE_MAX:
        text = text * (QUOTE_WHOLE_MAX // len(text) + 1)
    start = at % (len(text) - 3)
    end = start + 3
    window = quote_around(text, start, end)
    inner = uncut(window)
    assert text[start:end].strip() in inner or not text[start:end].strip()
    assert inner.strip() == inner and inner in text
    assert len(window) <= 2 * QUOTE_REACH + 3 + 2 * len(CUT)


def test_a_long_row_is_quoted_by_windows_each_number_once(tmp_path: Path) -> None:
    """A row of 2,000 cells made 2,000 copies of itself per place it was cited (the brief grew with the
    square of the row); now each number is quoted by the clause around it."""
    small, _ = _brief_size(tmp_path, row(500))
    large, data = _brief_size(tmp_path, row(2_000))
    assert large < 5 * small  # four times the row: about four times the brief, not sixteen
    quotes = [
        c["source"]["quote"]
        for key in ("increments", "contradictions")
        for obj in data[key]  # type: ignore[attr-defined]
        for c in obj["numbers"]
        if c["source"]["path"] == NOTE
    ]
    assert quotes and all(len(q) <= 2 * QUOTE_REACH + 10 for q in quotes)
    assert any(q.startswith(CUT) for q in quotes) and any(q.endswith(CUT) for q in quotes)


def test_a_number_repeated_on_a_long_line_is_cited_once(tmp_path: Path) -> None:
    """A ``1,234,`` run cited its one number once per place it stood, each with the whole line."""
    _, data = _brief_size(tmp_path, READ + "  - 数字：" + "1,234," * 3_000 + "\n")
    cited = [
        (c["text"], c["source"]["line_start"])
        for obj in data["increments"]  # type: ignore[attr-defined]
        for c in obj["numbers"]
        if c["source"]["path"] == NOTE
    ]
    assert cited and len(cited) == len(set(cited))


def test_a_registration_of_a_dump_names_its_first_numbers_and_says_there_are_more(tmp_path: Path) -> None:
    _, data = _brief_size(tmp_path, SNIPPET + "".join(f"  - 指标 {n}：吞吐提升 {n}%\n" for n in range(1, 200)))
    [reg] = [
        c
        for c in data["contradictions"]  # type: ignore[attr-defined]
        if c["kind"] == ContradictionKind.not_quotable.value and NOTE in c["sources"]
    ]
    assert len(reg["numbers"]) == NOT_QUOTABLE_SHOWN
    assert "12%等 的证据等级" in reg["claim"]


def test_a_window_is_checked_verbatim_between_its_cuts(tmp_path: Path) -> None:
    manifest = example_with(tmp_path / "kb", {NOTE: row(2_000)})
    kb = load_kb(manifest)
    facts = MaterialFacts.build(next(m for m in kb.materials if m.path == NOTE))
    line = row(2_000).split("\n")[-2]
    at = line.index("| 1000% |")
    window = quote_around(line, at + 2, at + 7)
    assert window.startswith(CUT) and window.endswith(CUT)
    assert facts.has_quote(window, (9, 9))
    assert not facts.has_quote(window.replace("1000%", "1000 %x"), (9, 9))
    assert not facts.has_quote(CUT + "吞吐提升 99% 远超基线" + CUT, (9, 9))
    assert living_document(kb) is not None


def test_a_key_points_numbers_quote_the_line_as_written(tmp_path: Path) -> None:
    """A point is written out (bold marks gone, a link spelled out), but its citations quote the line as its source
    has it: held-out g3's ``**数字**：…`` and d3's bold-labelled lines were quoted without their marks, and the
    verifier removed every such quote (``quote-not-in-source``) and marked the numbers unverified."""
    note = READ + "- **吞吐**：同一台 8×H100 上提升 **37%**，见 [原文](https://example.org/quillon#bench)\n"
    _, brief = _brief_size(tmp_path, note)
    [inc] = [i for i in brief["increments"] if "Quillon" in i["key"]]  # type: ignore[attr-defined]
    quotes = {c["source"]["quote"] for c in inc["numbers"] if c["source"]["quote"]}
    assert quotes == {"**吞吐**：同一台 8×H100 上提升 **37%**，见 [原文](https://example.org/quillon#bench)"}
    assert all("**" not in p for p in inc["points"])  # the point itself is written out


def test_a_size_shaped_number_the_writer_did_not_check_is_boundary(tmp_path: Path) -> None:
    """Held-out h3: ``这两个数我都没在正文里核对过（§4 没读）；1.4B 也没写是源端还是双端 token`` was a key point, so the
    not-quotable 1.4B stood among the findings: ``1.4B`` reads as a model's size, a name, so the line's own
    limitation was never read."""
    unchecked = "- 1.4B 也没写是源端还是双端 token，这个数我没在正文里核对过（§4 没读）\n"
    note = READ + unchecked + "- 1.4B 参数的小模型，README 写的\n"
    _, brief = _brief_size(tmp_path, note)
    [inc] = [i for i in brief["increments"] if "Quillon" in i["key"]]  # type: ignore[attr-defined]
    assert not any("核对过" in p for p in inc["points"])
    assert any("核对过" in b for b in inc["boundary"])
    # the other side: a size with no limitation of its own stays a point
    assert any("参数的小模型" in p for p in inc["points"])
