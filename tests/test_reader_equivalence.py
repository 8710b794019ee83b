"""The read stage's fast paths read exactly what their plain forms read.

Each fast path that stays (``benchmarks/FASTPATHS.md``: it saves at least 3% of its stage on a benchmark
input) is compared with its plain form, written here in a line or two as its specification, on the
golden and held-out notes' lines and on generated text mixing the shapes' own words with noise.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from e1prep.brief.models import EvidenceLevel
from e1prep.read import evidence, markers, notes
from e1prep.read.markers import RANK, find, strip_urls
from e1prep.text.lexicon import lexicon

ROOT = Path(__file__).resolve().parents[1]


def _lines() -> list[str]:
    out: list[str] = []
    for folder in ("evals/golden", "evals/heldout", "tests/data"):
        for path in sorted((ROOT / folder).rglob("*.md")):
            out += path.read_text(encoding="utf-8").split("\n")
    return out


_NOISE = ["ſ", "ı", "İ", "\u212a", " ", "\n", "：", ":", "，", "1", "19", "20", "2026", "年", "-", "/", ".", "**", "`"]


# --- item_date: a year pre-check, then the guarded pattern ------------------------------------------


def _plain_date(text: str) -> str | None:
    """The specification: a labelled date anywhere, else a date that opens a line of fields, else a date the note
    gives a piece it calls old (``2023-08 的旧文``)."""
    m = notes._DATE_LINE.search(text) or notes._FIELD_DATE.match(text) or notes._OLD_PIECE_DATE.search(text)
    if not m:
        return None
    year, month, day = m.group(1), int(m.group(2)), m.group(3)
    return f"{year}-{month:02d}" + (f"-{int(day):02d}" if day else "")


_DATE_WORDS = ["发布日期", "发布", "日期", "原文日期", "刊期", "published", "PUBLISHED", "Date", "issue date", "DATE"]


def test_item_date_reads_real_lines_as_before() -> None:
    lines = _lines()
    assert len(lines) > 500
    for line in lines:
        assert notes.item_date(line) == _plain_date(line), line


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_DATE_WORDS + _NOISE + ["2024", "1999", "01", "3", "月"]) | st.text(max_size=3)))
def test_item_date_reads_generated_text_as_before(parts: list[str]) -> None:
    text = "".join(parts)
    assert notes.item_date(text) == _plain_date(text)


# --- _clean_title: anchored matches instead of ``sub``, a link's text only where a link can stand ----------


_TITLE_PARTS = [
    "🟢 ",
    "✔ ",
    "1. ",
    "3) ",
    "①",
    "条目 2：",
    "Item 4: ",
    "【标题】",
    "【",
    "】",
    "[t](https://a.b/c)",
    "](",
]


def _same_title_steps(raw: str) -> None:
    for rx in (notes._STATUS_SIGN, notes._ORDINAL_LEAD):
        assert notes._cut_lead(rx, raw) == rx.sub("", raw)
    assert notes._unbracketed(raw) == notes._LENTICULAR_TITLE.sub(r"\1", raw)
    assert notes._link_texts(raw) == notes.MD_LINK.sub(r"\1", raw)


def test_title_steps_read_real_lines_as_their_substitutions() -> None:
    for line in _lines():
        _same_title_steps(line)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_TITLE_PARTS + _NOISE) | st.text(max_size=3), max_size=10))
def test_title_steps_read_generated_text_as_their_substitutions(parts: list[str]) -> None:
    _same_title_steps("".join(parts))


# --- read_item: one remark match per line, a legend-free item not searched for legend lines -------------


_ITEM_PARTS = [
    "核查：",
    "Check: ",
    "状态：",
    "图例：✔ 全文读过 / ◯ 只有摘要",
    "Legend: ",
    "已读原文",
    "只看了摘要",
    "✔",
    "◯",
    "没有读完全文",
    "可能",
    "https://x.org/a?b",
    "- ",
    "| ",
]


_CTX = evidence.note_context(["图例：✔ 全文读过 / ◯ 只有摘要", "第 1 条只看了摘要"], [1], [1, 2])


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(_ITEM_PARTS + _NOISE) | st.text(max_size=3), max_size=12),
    st.sampled_from([None, "已读原文", "", "  ", "✔", "只看了摘要"]),
    st.sampled_from([None, 1, 2]),
)
def test_a_legend_free_item_reads_as_one_searched_for_legend_lines(
    parts: list[str], cell: str | None, number: int | None
) -> None:
    text = "".join(parts)
    if not any(evidence.legend_line(ln) for ln in text.split("\n")):
        assert evidence.read_item(text, _CTX, number, cell, legend_free=True) == evidence.read_item(
            text, _CTX, number, cell
        )


def test_a_stripped_remark_reads_as_the_remark() -> None:
    for line in _lines():
        assert evidence._read_stripped(line, strip_urls(line), None) == evidence.read_remark(line)


def test_date_year_precheck_is_part_of_every_date_match() -> None:
    """The pre-check's shape is written out in ``_DATE_LINE``: a match of that holds a match of this."""
    assert r"((?:19|20)\d{2})[-/.年]" in notes._DATE_LINE.pattern
    assert notes._DATE_YEAR.pattern == r"(?:19|20)\d{2}[-/.年]"
    assert re.compile(notes._DATE_YEAR.pattern, re.I).pattern == notes._DATE_YEAR.pattern


# --- the note's structures: shared starts, candidates only, pre-checks -----------------------------------

_LINE_SHAPES = [
    "",
    "   ",
    "# 博客发现",
    "## 1. DeepSeek 开源推理栈",
    "## 2) Title ##",
    "### 待核查线索",
    "####### not a heading",
    "1. 第一条 https://a.example/1",
    "2、第二条",
    "**3. 加粗标题**",
    "(4) four",
    "① 圈号",
    "a. letter item https://b.example/x",
    "- URL：https://swyx.example/p/1",
    "- 核查：已读原文",
    "- [园艺周刊 1：番茄](https://garden.example/1) —— 推荐，读者来信 1 封。",
    "* bullet without url",
    "+ bullet https://c.example/y",
    "| # | 标题 | URL | 核查 | 要点 |",
    "|---|---|---|---|---|",
    "| :-- | --: |",
    "| 3 | SSD 推理 | https://zhuanlan.example/p/3 | 仅搜索摘要 | 摘要<br>第二行 |",
    "| 4 | a \\| b | https://d.example/4 | 已读 | x |",
    "| 5 | 标题 | 6 |",
    "[Link Title](https://e.example/z) 段落",
    "**Bold Title**",
    "【方括号标题】 正文",
    "▶ A titled line",
    ">> 另一个标题",
    "https://f.example/bare",
    "  <https://g.example/angle>  ",
    "链接：https://h.example/q",
    "已读 —— 标题 —— https://i.example/s —— 备注",
    "x -- y -- https://j.example/t",
    "a — b — c",
    "标题 – https://k.example/u",
]


def _spans(spans: list) -> list[tuple]:
    return [(s.title, s.start, s.end, s.recogniser, s.check, s.cells) for s in spans]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_LINE_SHAPES) | st.text(max_size=6), max_size=40))
def test_the_best_structure_is_the_best_scoring_candidate(lines: list[str]) -> None:
    urls = notes._UrlLines(lines)
    candidates = [
        lambda: notes._heading_spans(lines),
        lambda: notes._list_spans(lines, notes._NUMBERED, "numbered"),
        lambda: notes._table_spans(lines)[0],
        lambda: notes._list_spans(lines, notes._TOP_BULLET, "bullet", with_url=urls),
        lambda: notes._link_paragraph_spans(lines),
        lambda: notes._titled_url_spans(lines, urls),
        lambda: notes._segmented_spans(lines),
    ]

    def score(spans: list) -> int:
        return urls.count(spans) * 10 + min(len(spans), 9)

    plain = max(filter(None, (make() for make in candidates)), key=score, default=[])
    assert _spans(notes._best_structure(candidates, score, urls.total() * 10 + 9)) == _spans(plain)


_REPEATED = st.lists(st.sampled_from([*_ITEM_PARTS, *_LINE_SHAPES[:12], "\n"]), max_size=10).map("".join)


@settings(max_examples=300, deadline=None)
@given(_REPEATED, st.sampled_from([None, "已读原文", "只看了摘要"]), st.sampled_from([None, 1, 2]))
def test_a_repeated_item_reads_as_itself(text: str, cell: str | None, number: int | None) -> None:
    def make(index: int, title: str, start: int, group: str = "") -> notes.NoteItem:
        return notes.make_item(
            "m.md", index, title, text, start, start + 1, ctx=_CTX, number=number, check_cell=cell, group=group
        )

    # the repeat keeps its own place, label and grouping (filed under another heading, it says so)
    again = notes._reread(make(1, "t", 3), 5, "u", 9, 10, label=None, group="二、数据库")
    assert again == replace(make(5, "u", 9, group="二、数据库"), duplicate_of=1)


# --- the note's context: a legend label before the first colon, repeated lines read once, guarded ranges ----

_CONTEXT_SHAPES = [
    "图例：✔ 全文读过 / ◯ 只有摘要 / ✘ 打不开",
    "**标记说明**（本文）：● 已读原文 · ◐ 读了一半",
    "Legend: A = full text read, B = abstract only",
    "ſymbols: ✔ read",
    "\u212aey: ✔ read",
    "KEY（x：y）: ✔ read in full",
    "- 符号：",
    "- ✔ 全文读过",
    "- ◯ 只有摘要",
    "✔ 全文读过 ◯ 只有摘要",
    "[x] 读了原文 [ ] 只看摘要",
    "第 1、2 条读了原文；第 3–7 条只拿到搜索摘要",
    "前两条读了原文，其余只看了摘要",
    "The first 2 items were read in full; the rest only abstracts.",
    "items 3-5: snippet only",
    "最后 1 条打不开",
    "本轮扫了 AINews",
    "等级",
    "| ✔ | 全文 |",
    "@handle 说",
    "",
    "---",
]


def _statements(found: dict) -> list:
    return [(k, v.level, v.words, v.understood, v.positive, v.blocked, v.text, v.full) for k, v in found.items()]


def _same_context(lines: list[str]) -> None:
    labelled = {}
    for i, line in enumerate(lines):
        fast, plain = evidence.legend_line(line), evidence.LEGEND_LINE.match(line)
        assert (fast and (fast.span(), fast.groupdict())) == (plain and (plain.span(), plain.groupdict())), line
        labelled.update({i: fast} if fast else {})
    known: dict = {}
    for line in lines * 2:  # each line read twice: the second answer is the remembered one
        plain = evidence._entry_statements(evidence._legend_entries(evidence._LEGEND_LEAD.sub("", line).strip()))
        assert _statements(evidence._line_entries(line, known)) == _statements(plain)
    for unlabelled in (None, set(range(len(lines)))):
        assert _statements(evidence.parse_legend(lines, unlabelled, labelled)) == _statements(
            evidence.parse_legend(lines, unlabelled)
        )
    plain_selector = re.compile(evidence._SELECTOR_SOURCE, re.I)
    for line in lines:
        found = [(m.span(), m.groupdict()) for m in evidence._SELECTOR.finditer(line)]
        assert found == [(m.span(), m.groupdict()) for m in plain_selector.finditer(line)]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from([*_CONTEXT_SHAPES, *_NOISE, "（", "）", "(", ")", "|"]) | st.text(max_size=3), max_size=4
        ).map("".join),
        max_size=25,
    )
)
def test_note_context_shortcuts_read_generated_notes_as_specified(lines: list[str]) -> None:
    _same_context(lines)


def test_note_context_shortcuts_read_real_notes_as_specified() -> None:
    for folder in ("evals", "tests/data"):
        for path in sorted((ROOT / folder).rglob("*.md")):
            _same_context(path.read_text(encoding="utf-8").split("\n"))


def test_a_repeated_legend_line_after_another_still_decides() -> None:
    """A line read before is read again in its place: the later of two legends of a symbol wins."""
    lines = ["✔ 全文读过 ◯ 只有摘要", "✔ 只看了摘要 ◯ 打不开", "✔ 全文读过 ◯ 只有摘要"] * 3
    legend = evidence.parse_legend(lines, set(range(len(lines))))
    assert legend["✔"].words == evidence.parse_legend(lines[:1], {0})["✔"].words


# --- one remark: nothing found, nothing read; an item's arXiv ids only where a dot stands before a digit ---


def _statement(st: evidence.Statement) -> tuple:
    return (st.level, st.words, st.understood, st.positive, st.blocked, st.text, st.full)


_LEGEND = evidence.parse_legend(["图例：✔ 全文读过 / ◯ 只有摘要 / ✘ 打不开"])


def _plain_remark(text: str, legend: dict | None) -> evidence.Statement:
    """The specification of ``read_remark``: every remark goes through the full reading of its hits."""
    body = strip_urls(text)
    return evidence._read_hits(text, body, find(body), evidence._symbols(body, legend or {}))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_ITEM_PARTS + _CONTEXT_SHAPES + _NOISE) | st.text(max_size=3), max_size=10))
def test_a_remark_reads_as_its_full_reading(parts: list[str]) -> None:
    text = "".join(parts)
    for legend in (None, _LEGEND):
        assert _statement(evidence.read_remark(text, legend)) == _statement(_plain_remark(text, legend))


def test_real_remarks_read_as_their_full_reading() -> None:
    for line in _lines():
        for legend in (None, _LEGEND):
            assert _statement(evidence.read_remark(line, legend)) == _statement(_plain_remark(line, legend))


def test_an_items_arxiv_ids_are_found_behind_the_dot_gate() -> None:
    from e1prep.kb.knowledge import ARXIV_ID, ARXIV_RE, arxiv_ids

    assert ARXIV_ID.startswith(r"\d{2}(?:0[1-9]|1[0-2])\.\d")  # every id: a dot before a digit
    assert f"({ARXIV_ID})" in ARXIV_RE.pattern
    for line in [*_lines(), "arXiv:2401.12345", "2401.1234", "x.5", "https://arxiv.org/abs/2312.00001v2"]:
        item = notes.make_item("m", 1, "t", line, 1, 1)
        assert item.arxiv == tuple(arxiv_ids(line))


def test_an_unstated_reading_has_no_remark() -> None:
    assert evidence.UNSTATED.remark == ""
    assert evidence.Reading(deciding=("a", "b", "a")).remark == "a、b"


# --- regexgate: a source guarded without a first compile, a gate given a source, ASCII literals in one scan --


def test_a_source_is_guarded_as_its_compiled_pattern() -> None:
    import tomllib

    from e1prep.text.regexgate import guarded

    raw = (ROOT / "src/e1prep/data/markers.toml").read_text(encoding="utf-8")
    sources = ["|".join(f"(?:{rx})" for rx in row["regex"]) for row in tomllib.loads(raw)["pattern"]]
    for source in [*sources, r"abc|de", r"(?<![a-z])x\d", r"a*", r"(?i)abc", r"[a-z]+\d", r"\bread\b"]:
        for flags in (0, re.I):
            by_source, by_pattern = guarded(source, flags), guarded(re.compile(source, flags))
            assert (by_source.pattern, by_source.flags) == (by_pattern.pattern, by_pattern.flags)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["says", "SAYS", "ſays", "told", " told", "İ", "x", " "]) | st.text(max_size=3)))
def test_a_gate_opens_by_source_as_by_pattern_and_never_closes_a_match(parts: list[str]) -> None:
    from e1prep.text.regexgate import Gates, Source

    text = "".join(parts)
    patterns = [re.compile(r"\w+ says"), re.compile(r"told|says", re.I), re.compile("İx")]
    by_pattern = Gates(patterns).open(text)
    assert Gates([*patterns[:2], Source(patterns[2].pattern, patterns[2].flags)]).open(text) == by_pattern
    for n, rx in enumerate(patterns):
        if rx.search(text):
            assert n in by_pattern


# --- a line that states nothing imposes no level --------------------------


def _plain_line_level(line: str) -> EvidenceLevel | None:
    """The specification of ``markers.line_level``: the first kind found, in order, decides."""
    hits = find(strip_urls(line))
    kinds = {h.marker.kind for h in hits} | {"access" for h in hits if h.marker.access}
    order = [("vendor", EvidenceLevel.vendor), ("snippet", EvidenceLevel.snippet), ("access", EvidenceLevel.snippet)]
    order += [("summary", EvidenceLevel.summary)]
    order += [(k, EvidenceLevel.unverified) for k in ("unverified", "noquote", "relay")]
    return next((level for want, level in order if want in kinds), None)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([*_LINE_SHAPES, *_ITEM_PARTS, " ", "  - ", "\n", "\n  "]) | st.text(max_size=3)))
def test_line_levels_read_as_specified(parts: list[str]) -> None:
    text = "".join(parts)
    for line in text.split("\n"):
        assert markers.line_level(line) == _plain_line_level(line)


def test_real_line_levels_read_as_specified() -> None:
    for line in _lines():
        assert markers.line_level(line) == _plain_line_level(line)


# --- the structures' items never overlap (what lets _spans_of stop at the best score a note allows) ----------


def _disjoint(spans: list) -> bool:
    return all(s.start <= s.end for s in spans) and all(a.end <= b.start for a, b in itertools.pairwise(spans))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_LINE_SHAPES) | st.text(max_size=6), max_size=40))
def test_no_structure_has_overlapping_items(lines: list[str]) -> None:
    urls = notes._UrlLines(lines)
    tables = notes._table_spans(lines)[0]
    for spans in (
        notes._refine(lines, notes._heading_spans(lines), urls, tables),
        notes._list_spans(lines, notes._NUMBERED, "numbered"),
        tables,
        notes._list_spans(lines, notes._TOP_BULLET, "bullet", with_url=urls),
        notes._link_paragraph_spans(lines),
        notes._titled_url_spans(lines, urls),
        notes._segmented_spans(lines),
    ):
        assert _disjoint(spans)
        assert urls.count(spans) <= urls.total()


# --- ``\s`` is ``str.isspace`` (item_date steps back over spaces with it) ----------------------------------


def test_isspace_agrees_with_re_on_every_character() -> None:
    for code in range(0x110000):
        ch = chr(code)
        assert (re.fullmatch(r"\s", ch) is not None) == ch.isspace()


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *_DATE_WORDS,
                "ISSUE DATE",
                "Published",
                " ",
                "  ",
                "\t",
                "\u3000",
                ":",
                "：",
                "2024-",
                "1999/",
                "2020年",
                "01",
                "1",
                "-",
                "月",
                "x",
                "标题",
                "\n",
            ]
        ),
        max_size=12,
    )
)
def test_item_date_reads_dates_after_gaps_as_before(parts: list[str]) -> None:
    text = "".join(parts)
    assert notes.item_date(text) == _plain_date(text)


_GAP = st.lists(st.sampled_from([" ", "\t", "\u3000", "\xa0"]), max_size=3).map("".join)


@settings(max_examples=1500, deadline=None)
@given(
    st.text(max_size=4),
    st.sampled_from([*_DATE_WORDS, "ISSUE DATE", "Published", "x"]),
    _GAP,
    st.sampled_from(["", ":", "："]),
    _GAP,
    st.sampled_from(["2024-", "1999/", "2020年", "2031.", "2024"]),
    st.sampled_from(["01", "1", "x", " 7"]),
    st.text(max_size=3),
)
def test_item_date_reads_labelled_dates_as_before(
    before: str, label: str, gap: str, colon: str, gap2: str, year: str, month: str, after: str
) -> None:
    text = before + label + gap + colon + gap2 + year + month + after
    assert notes.item_date(text) == _plain_date(text)


# --- strictest of two as min gives it; a manifest's date read once ------------------------------------------


def test_strictest_of_two_is_what_min_gives() -> None:
    levels = list(EvidenceLevel)
    for a in levels:
        for b in levels:
            assert markers.strictest(a, b) is min((a, b), key=RANK.__getitem__)
    assert markers.strictest() is EvidenceLevel.unverified
    assert markers.strictest(EvidenceLevel.card) is EvidenceLevel.card


def test_a_manifest_date_is_read_once_and_the_manifest_stays_equal(tmp_path: Path) -> None:
    import dataclasses

    from e1prep.kb.loading import Manifest

    m = Manifest(tmp_path, "job", "2026-10-25T20:00:00+08:00", ())
    before = dataclasses.asdict(m)
    assert m.date == "2026-10-25" and m.date is m.date
    assert dataclasses.asdict(m) == before and m == Manifest(tmp_path, "job", "2026-10-25T20:00:00+08:00", ())
    assert Manifest(tmp_path, "job", "yesterday", ()).date == "yesterday"


# --- memos: a table's header meanings, a text's markers ---------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(["#", "标题", "Title", "URL", "核查", "Status", "要点", "x", ""]), max_size=5))
)
def test_column_meanings_are_each_headers_meanings(headers: list[list[str]]) -> None:
    known: dict = {}
    for header in headers * 2:
        assert notes._column_meanings(header, known) == [lexicon().column_meaning(h) for h in header]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_ITEM_PARTS + _CONTEXT_SHAPES + _NOISE) | st.text(max_size=3), max_size=10))
def test_remembered_markers_are_the_markers(parts: list[str]) -> None:
    text = "".join(parts)
    for _ in range(2):
        assert markers.find(text) == list(markers._find.__wrapped__(text, markers.ALL_KINDS))
