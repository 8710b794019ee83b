"""Issue 25, item 4: reading mistakes a researcher would act on, each reproduced on a small KB of its own
(``tests/data/reading-mistakes``: a manifest, a living document, a note, a repo card and a paper card in
the formats of ``evals/golden``) and fixed as a mechanism, not a phrase:

* an anchor is citable as the items that cite it were read (a 403 snippet's arXiv id is not citable);
* a truncated page is ``partial``, not access-blocked;
* a repo card's own counts (stars, forks, issues) are ``card``, not the vendor's claim;
* versions, bit widths and model sizes are identifiers, never quantities;
* a title is unescaped where it is read (``2\\.``, ``\\_``, ``()``), and rendered escaped once;
* a URL alone is no key point.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from e1prep import draft_brief, render_markdown, verify_brief
from e1prep.brief.models import Brief, ContradictionKind, EvidenceLevel
from e1prep.read import numbers
from e1prep.read.evidence import read_remark
from e1prep.read.notes import split_note, url_only
from e1prep.text.naming import plain_title

KB = Path(__file__).parent / "data" / "reading-mistakes"
MANIFEST = KB / "manifest.json"
NOTE = "inbox/ana/2026-12-01T0930-blogs-discovery.md"
CARD = "organized/repo_cards/5120-tidewater-kvdock.md"
PAPER = "organized/paper_cards/902-2611-04417.md"


@pytest.fixture(scope="module")
def brief() -> Brief:
    return draft_brief(MANIFEST)


def _numbers(brief: Brief) -> list[tuple[str, str, EvidenceLevel]]:
    """(object key, number as written, level) of every number citation of the brief's objects."""
    objects = [*brief.increments, *brief.refreshes, *brief.contradictions]
    return [(o.key, n.text, n.evidence) for o in objects for n in o.numbers]


def test_the_small_kb_drafts_clean(brief: Brief) -> None:
    """The KB is honest input: the verifier repairs or rejects nothing of what the rules drew from it."""
    assert not brief.rejected and not brief.repairs
    assert verify_brief(brief, MANIFEST).clean
    assert {i.key for i in brief.increments} == {"Flintlock", "Ember", "kvdock"}


# --- 1. anchors: citable as the items that cite them were read ------------------------------------------


def test_an_id_seen_only_in_a_403_snippet_is_listed_as_not_citable(brief: Brief) -> None:
    by_id = {a.arxiv: a for a in brief.anchors}
    assert set(by_id) == {"2611.04417", "2611.05555", "2611.09876"}  # listed, never dropped
    snippet = by_id["2611.09876"]
    assert snippet.citable is False
    assert snippet.evidence is EvidenceLevel.snippet
    assert "403" in snippet.reason and EvidenceLevel.snippet.label in snippet.reason
    read = by_id["2611.05555"]  # cited by an item read in full
    assert read.citable is True and read.evidence is EvidenceLevel.verified
    card = by_id["2611.04417"]  # a paper card's own id: the collector read it off arXiv
    assert card.citable is True and card.evidence is EvidenceLevel.card and not card.reason
    for lang in ("zh", "en"):
        row = next(ln for ln in render_markdown(brief, lang).splitlines() if "2611.09876" in ln)
        assert ("不可引用" if lang == "zh" else "not citable") in row and "403" in row


def test_the_verifier_corrects_an_anchor_called_citable_by_anyone(brief: Brief) -> None:
    """A brief written by anyone that calls the snippet-only id citable is corrected, visibly."""
    forged = brief.model_copy(
        update={"anchors": [a.model_copy(update={"citable": True, "reason": ""}) for a in brief.anchors]}
    )
    report = verify_brief(forged, MANIFEST)
    assert [(v.path, v.rule) for v in report.violations] == [("anchors[2].citable", "anchor-not-citable")]
    [repair] = report.repairs
    assert repair.rule == "anchor-not-citable" and repair.action == "corrected" and repair.key == "2611.09876"
    assert report.brief is not None
    fixed = {a.arxiv: a for a in report.brief.anchors}
    assert fixed["2611.09876"].citable is False and "403" in fixed["2611.09876"].reason
    assert fixed["2611.04417"].citable is True  # a paper card's own id is left as it is


def test_an_anchored_id_stays_citable_whatever_cites_it() -> None:
    """The document already cites it: this batch's snippet does not make it less citable."""
    from e1prep.read.citing import Citing, citable

    assert citable(Citing(EvidenceLevel.snippet, "403"), anchored=True) == (True, "")
    assert citable(Citing(EvidenceLevel.partial), anchored=False) == (True, "")
    for level in (EvidenceLevel.summary, EvidenceLevel.snippet, EvidenceLevel.vendor, EvidenceLevel.unverified):
        ok, why = citable(Citing(level), anchored=False)
        assert not ok and level.label in why


# --- 2. truncation is partial, not an access problem ---------------------------------------------------


def test_title_checked_body_truncated_is_partial_not_access_blocked(brief: Brief) -> None:
    ember = next(i for i in brief.increments if i.key == "Ember")
    assert ember.evidence is EvidenceLevel.partial
    blocked = [c for c in brief.contradictions if c.kind is ContradictionKind.access_blocked]
    assert [c.key for c in blocked] == ["Search leads"]  # the 403 only
    listed = next(c for c in brief.contradictions if c.key == "Ember")
    assert "原文不可读" not in listed.claim and "有权限" not in listed.action
    assert "只读到一部分：body truncated" in listed.claim  # it says what happened: the page was cut off


@pytest.mark.parametrize(
    "remark",
    [
        "title checked, body truncated",
        "正文被截断",
        "the text was only partly shown",
        "正文只显示了前两段",
        "页面后半截没加载出来",
        "the page cut off before the benchmark table",
        "read what loaded; the article got cut off after section 2",
    ],
)
def test_a_truncation_clause_reads_partial_and_never_blocked(remark: str) -> None:
    st_ = read_remark(remark)
    assert st_.level is EvidenceLevel.partial, st_
    assert st_.blocked is None and st_.truncated


@pytest.mark.parametrize("remark", ["403, search snippet only", "付费墙，正文被截断", "paywalled, body truncated"])
def test_an_access_problem_beside_a_truncation_still_blocks(remark: str) -> None:
    assert read_remark(remark).blocked


# --- 3. a card's own counts are card, not vendor -------------------------------------------------------


def test_a_cards_counts_are_card_and_its_claims_vendor(brief: Brief) -> None:
    levels = {text: level for key, text, level in _numbers(brief) if key == "kvdock"}
    assert levels["1,204 stars"] is EvidenceLevel.card
    assert levels["61"] is EvidenceLevel.card and levels["9"] is EvidenceLevel.card
    assert levels["3×"] is EvidenceLevel.vendor  # the README's claim stays the vendor's
    kvdock = next(i for i in brief.increments if i.key == "kvdock")
    stats = next(b for b in kvdock.boundary if "61 forks" in b)
    assert "仓库自述" not in stats and "卡片采集" in stats


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("⭐ 1,204 stars · 61 forks · 9 open issues.", ["1,204 stars", "61", "9"]),
        ("Stars: 1204 | Forks: 61", ["1204", "61"]),
        ("面向 KV 卸载，1.2k stars，比 Ollama 快 4.2 倍。", ["1.2k stars"]),
        ("Up to 4× faster than mlx-lm on the same weights", []),
    ],
)
def test_card_counts_are_recognised_by_their_field(text: str, counts: list[str]) -> None:
    assert [t.text for t in numbers.card_counts(text)] == counts


# --- 4. versions, bit widths and model sizes are identifiers ---------------------------------------------


def test_versions_and_bit_widths_are_not_listed_as_numbers(brief: Brief) -> None:
    written = {text for _, text, _ in _numbers(brief)}
    assert not written & {"0.4", "4", "2", "8", "70B", "7B"}, written
    ember = next(i for i in brief.increments if i.key == "Ember")
    assert any("Ember 0.4" in p and "4-bit" in p for p in ember.points)  # a name, not a non-quotable number
    assert {t for k, t, _ in _numbers(brief) if k == "Ember"} == {"31%"}


@pytest.mark.parametrize(
    ("text", "identifiers"),
    [
        ("Flintlock 0.4 ships 4-bit (W4A16) and int8 KV paths", ["0.4", "4-bit", "W4A16", "int8"]),
        ("version 0.4 and v0.4 and 0.4.1", ["0.4", "v0.4", "0.4.1"]),
        ("版本 0.4 支持 4bit 量化", ["0.4", "4bit"]),
        ("tested on 7B/13B/70B models and an 8x7B MoE", ["7B", "13B", "70B", "8x7B"]),
        ("a 1.5B params model and a 70B 模型", ["1.5B", "70B"]),
        ("8 × 7B and fp16, bf16, 32-bit", ["8 × 7B", "fp16", "bf16", "32-bit"]),
        ("part 2 of the series", ["part 2"]),
    ],
)
def test_names_are_identifiers(text: str, identifiers: list[str]) -> None:
    scanned = numbers.scan(text)
    assert [t.text for t in scanned if t.kind == "identifier"] == identifiers
    assert not [t for t in scanned if t.kind == "quantity"]


@pytest.mark.parametrize(
    ("text", "quantity"),
    [
        ("TTFT 0.4 s on 7B models", "0.4 s"),
        ("Recall 0.4 on the hard split", "0.4"),
        ("About 0.4 of requests", "0.4"),
        ("raised $1.4B", "$1.4B"),
        ("the 8× speedup", "8×"),
        ("a 4-bit model loses 1.2 points", "1.2"),
    ],
)
def test_real_quantities_beside_names_stay_quantities(text: str, quantity: str) -> None:
    assert quantity in [t.text for t in numbers.quantities(text)]


_SIZE = st.builds(
    lambda whole, frac: f"{whole}{'.' + str(frac) if frac is not None else ''}B",
    st.integers(min_value=1, max_value=999),
    st.one_of(st.none(), st.integers(min_value=1, max_value=9)),
)
_NAME_POSITION = st.sampled_from(
    ["a {s} model", "the {s} params", "{s}-Instruct weights", "Llama 3.1 {s}", "{s}/{s2}", "{s} 模型", "{s} MoE"]
)


@settings(max_examples=200, deadline=None)
@given(_SIZE, _SIZE, _NAME_POSITION, st.integers(min_value=1, max_value=99))
def test_property_a_model_size_in_a_name_position_is_an_identifier(s: str, s2: str, shape: str, pct: int) -> None:
    """Any ``\\d+(\\.\\d+)?B`` size where a name stands is an identifier; a real percentage next to it
    still is a quantity."""
    text = shape.format(s=s, s2=s2) + f" cuts latency by {pct}%"
    scanned = numbers.scan(text)
    sizes = [t for t in scanned if re.fullmatch(r"\d+(?:\.\d+)?B", t.text)]
    assert sizes and all(t.kind == "identifier" for t in sizes), scanned
    assert [t.text for t in scanned if t.kind == "quantity"] == [f"{pct}%"]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["Ember", "SGLang", "FlashKV", "version", "版本", "release"]),
    st.integers(0, 20),
    st.integers(0, 99),
    st.sampled_from([2, 3, 4, 8, 16]),
    st.integers(1, 99),
)
def test_property_versions_and_bit_widths_are_identifiers(
    name: str, major: int, minor: int, bits: int, pct: int
) -> None:
    text = f"{name} {major}.{minor} adds {bits}-bit weights and cuts TTFT by {pct}%"
    scanned = numbers.scan(text)
    assert [t.text for t in scanned if t.kind == "quantity"] == [f"{pct}%"], scanned


# --- 5. titles are unescaped where they are read -------------------------------------------------------


def test_titles_are_unescaped_before_rendering(brief: Brief) -> None:
    titles = {a.arxiv: a.title for a in brief.anchors}
    assert titles["2611.09876"] == "PagedAttention revisited"
    # a URL line names no title (``v2, 2026-11-28``): the title of the item that cites the id
    assert titles["2611.05555"] == "Flintlock: an open-source disaggregated prefill scheduler"
    assert titles["2611.04417"] == "Speculative Paging: KV_cache reuse for *draft* models"
    md = render_markdown(brief)
    assert "\\\\" not in md and "()" not in md and "2\\. PagedAttention" not in md
    assert "| PagedAttention revisited |" in md


@pytest.mark.parametrize(
    ("note", "title"),
    [
        ("## 2\\. PagedAttention\\_v2 revisited\n- Check: read in full\n", "PagedAttention_v2 revisited"),
        ("### Bar (https://x.example/b)\n- Check: read in full\n", "Bar"),
    ],
)
def test_a_heading_title_is_unescaped(note: str, title: str) -> None:
    [item] = split_note("inbox/ana/2026-12-01-x.md", note)
    assert item.title == title


@pytest.mark.parametrize(
    ("raw", "plain"),
    [
        ("2\\. PagedAttention revisited () —", "2. PagedAttention revisited"),
        ("KV\\_cache \\*draft\\* 【】 reuse", "KV_cache *draft* reuse"),
        ("A (B) c", "A (B) c"),
    ],
)
def test_plain_title(raw: str, plain: str) -> None:
    assert plain_title(raw) == plain


# --- 6. a URL alone is no key point ----------------------------------------------------------------


def test_a_url_alone_is_no_key_point(brief: Brief) -> None:
    flintlock = next(i for i in brief.increments if i.key == "Flintlock")
    assert not [p for p in flintlock.points if url_only(p)]
    assert len(flintlock.points) == 3
    assert flintlock.url == "https://flintlock.dev/blog/launch"


@pytest.mark.parametrize(
    ("text", "url"),
    [
        ("https://github.com/flintlock-ai/flintlock", "https://github.com/flintlock-ai/flintlock"),
        ("<https://a.example/x>;", "https://a.example/x"),
        (
            "Paper: https://arxiv.org/abs/2611.05555 (arXiv:2611.05555, v2, 2026-11-28)",
            "https://arxiv.org/abs/2611.05555",
        ),
        ("链接：https://a.example/x", "https://a.example/x"),
        ("Repo: https://github.com/a/b, 3x faster", None),
        ("see https://a.example/x for the code", None),
        ("no url here", None),
    ],
)
def test_url_only(text: str, url: str | None) -> None:
    assert url_only(text) == url
