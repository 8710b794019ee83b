"""The living document: sections, anchors, version, and the name search."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from e1prep.kb.knowledge import arxiv_ids, parse_knowledge

DOC = """# inference 活文档

> 更新标记：vOct25午

## §1 引擎与运行时

intro line

### §1.1 引擎

- recursive-oss/rec（rec）：182 ⭐。Rec is great. REC again.
- a record of things; recursive is not rec.

### §1.2 量化

- Rapid-MLX 比 mlx-lm 快。推测解码见 arXiv:2610.30418。

## §2 KV Cache

### 2.1 Offload

- 长上下文 SSD 卸载：见 https://arxiv.org/abs/2501.12345v2
- 深度求索的推理栈。

## 附录

- 2602.10238 mentioned outside numbered sections
"""


@pytest.fixture(scope="module")
def doc():
    return parse_knowledge("organized/knowledge/inference.md", DOC)


def test_sections_numbering_and_nesting(doc) -> None:
    ids = [s.id for s in doc.sections]
    assert ids == ["§1", "§1.1", "§1.2", "§2", "§2.1"]
    by_id = {s.id: s for s in doc.sections}
    assert by_id["§1"].title == "引擎与运行时"
    assert by_id["§1"].start == 5
    assert by_id["§1"].end >= by_id["§1.2"].end  # §1 contains its subsections
    assert by_id["§1.1"].end < by_id["§1.2"].start
    assert by_id["§2.1"].title == "Offload"


def test_section_at(doc) -> None:
    lines = DOC.split("\n")
    at = {ln: n for n, ln in enumerate(lines, start=1)}
    assert doc.section_at(at["intro line"]).id == "§1"
    rec_line = next(n for n, ln in enumerate(lines, start=1) if "182 ⭐" in ln)
    assert doc.section_at(rec_line).id == "§1.1"
    ssd_line = next(n for n, ln in enumerate(lines, start=1) if "SSD" in ln)
    assert doc.section_at(ssd_line).id == "§2.1"
    assert doc.section_at(1) is None


def test_version_marker(doc) -> None:
    assert doc.version == "vOct25午"


def test_version_english_marker() -> None:
    assert parse_knowledge("k.md", "# Doc\nversion: 2026-10-25b\n").version == "2026-10-25b"
    assert parse_knowledge("k.md", "# Doc\nno marker\n").version is None


def test_anchors(doc) -> None:
    assert doc.anchored("2610.30418")
    assert doc.anchors["2610.30418"] == ["§1.2"]
    assert doc.anchored("2501.12345")  # in an arxiv.org URL, version suffix dropped
    assert doc.anchors["2501.12345"] == ["§2.1"]
    assert doc.anchored("2602.10238")
    assert not doc.anchored("2610.99999")


def test_arxiv_ids_rejects_bad_months_and_versions_and_embedded() -> None:
    text = "arXiv:2610.30418v3, 2613.12345 (month 13), v1.2.3, 2601.00001, 12601.00002, 2601.00001 again"
    assert arxiv_ids(text) == ["2610.30418", "2601.00001"]


def test_line_count() -> None:
    assert parse_knowledge("k", "a\nb\n").line_count == 2
    assert parse_knowledge("k", "a\nb").line_count == 2
    assert parse_knowledge("k", "").line_count == 0


def test_search_case_insensitive_and_whole_word(doc) -> None:
    hits = doc.search("rec")
    # rec / Rec / REC / "not rec." -- but not record, recursive
    assert hits.hits == 5
    assert hits.sections == ["§1.1"]
    assert doc.search("record").hits == 1
    assert doc.search("recursive").hits == 2  # "recursive-oss" and "recursive is": '-' ends a word
    assert doc.search("recursive-oss/rec").hits == 1


def test_search_chinese_and_sections(doc) -> None:
    h = doc.search("深度求索")
    assert (h.hits, h.sections) == (1, ["§2.1"])
    h2 = doc.search("SSD")
    assert h2.sections == ["§2.1"]
    assert doc.search("mlx-lm").hits == 1
    assert doc.search("  ").hits == 0
    assert doc.search("DeepInfer").hits == 0


def test_search_sections_are_distinct_in_order(doc) -> None:
    h = doc.search("rapid-mlx")
    assert (h.hits, h.sections) == (1, ["§1.2"])
    h = doc.search("arxiv")
    assert h.sections == ["§1.2", "§2.1"]


def test_unnumbered_heading_closes_section(doc) -> None:
    lines = DOC.split("\n")
    appendix = next(n for n, ln in enumerate(lines, start=1) if ln.startswith("## 附录"))
    assert doc.section_at(appendix + 2) is None
    assert doc.anchors["2602.10238"] == []


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789.a١٢ \n", max_size=30))
def test_the_arxiv_gate_finds_exactly_four_digits_a_dot_and_a_digit(text: str) -> None:
    """The gate opens with the dot (for a fast scan) and holds exactly where ``\\d{4}\\.\\d`` does."""
    import re

    from e1prep.kb.knowledge import _ARXIV_DIGITS

    assert bool(_ARXIV_DIGITS.search(text)) == bool(re.search(r"\d{4}\.\d", text))


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(["2610", "1234", "0", "1", "9", ".", "v2", "arXiv:", "arxiv.org/abs/", "-", "/", "a", " "]),
        max_size=14,
    ).map("".join)
)
def test_arxiv_matches_are_the_patterns_own_matches(text: str) -> None:
    """Trying the pattern only four places before a qualifying dot finds exactly what finditer finds."""
    from e1prep.kb.knowledge import ARXIV_RE, arxiv_matches

    assert [(m.span(), m.group(1)) for m in arxiv_matches(text)] == [
        (m.span(), m.group(1)) for m in ARXIV_RE.finditer(text)
    ]


@pytest.mark.parametrize("sep", ["｜", " | ", "·", "：", ": ", " — ", " - ", "、", " "])
def test_a_section_number_is_read_whole_whatever_separates_it_from_its_title(sep: str) -> None:
    """``### §2.3｜Late interaction`` was read as §2 (the number cut back to where ``.`` could end it): the
    other hand's RAG document filed ColFuse under §2, and its refreshes named §8 for §8.1."""
    doc = parse_knowledge("k.md", f"# Doc\n## §2 Retrieval\n\ntext\n\n### §2.3{sep}Late interaction\n\nColFuse\n")
    assert [s.id for s in doc.sections] == ["§2", "§2.3"]
    assert doc.sections[-1].title == "Late interaction"


def test_a_bold_lead_in_that_numbers_a_subsection_of_its_section_is_that_subsection() -> None:
    """An other hand's document numbered its subsections in bold (``**§2.1 FlashAttention lineage** — …``):
    they were no sections, so FlashMLA's count was 'recorded in §2' and items routed to chapters. A bold
    number that is not a subsection of the heading it stands under (an index's ``**§1.1**``) stays text."""
    text = (
        "# Doc\n## §2 Kernels\n\n**§2.1 FlashAttention lineage** — FA-2, FA-3.\n\n"
        "**§2.2 MLA kernels** — FlashMLA 13,100 stars.\n\n## §7 Index\n\n**§1.1 vLLM** — see above\n**§7 all**\n"
    )
    doc = parse_knowledge("k.md", text)
    assert [(s.id, s.title) for s in doc.sections] == [
        ("§2", "Kernels"),
        ("§2.1", "FlashAttention lineage"),
        ("§2.2", "MLA kernels"),
        ("§7", "Index"),
    ]
    assert doc.section_at(text.split("\n").index("**§2.2 MLA kernels** — FlashMLA 13,100 stars.") + 1).id == "§2.2"
    assert doc.sections[2].end < doc.sections[3].start  # a subsection ends where the next heading starts
