"""Split a free-form inbox note into items and read each item's URL, evidence remark and names."""

from __future__ import annotations

import bisect
import csv
import functools
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import NamedTuple

from ..brief.models import EvidenceLevel
from ..brief.phrases import Phrase
from ..kb.knowledge import arxiv_ids
from ..kb.loading import Material
from ..text.lexicon import lexicon
from ..text.naming import github_repo, plain_title
from ..text.regexgate import guarded
from . import evidence as _ev
from . import exports, markers
from . import footnotes as _fn
from .chat import own_words, speaker_lines, thread_posts, writer_of
from .labels import (
    CLOCK,
    COLONLESS_FIELD,
    COMMIT,
    FIELD_WORD,
    NUMBERING,
    TITLE_MAX,
    WORD_LABEL,
    Label,
    commit_heads,
    declared_states,
    form_value,
    is_field,
    labelled,
    labelled_by_field,
    read_label,
    sentence_head,
    title_field,
    title_under,
)
from .lines import (
    BULLET_ENTRY,
    FIELD_LINE,
    TABLE_ROW,
    TABLE_SEP,
    URL_RE,
    heading,
    is_field_line,
    lone_counter,
    points_at,
    table_cells,
)
from .mail import message, postscript, replies
from .markup import SHELL_PROMPT, to_markdown
from .numbers import identifiers, scan
from .scope import QUOTED_CLAIM

#: what a line holds besides a URL when it is only the URL: link marks, brackets, punctuation, spaces
_URL_ONLY_REST = re.compile(r"[\s<>()\[\]（）【】《》\"'`*_.,;:!?，。；：！？、·|\-–—]*")


def url_only(text: str) -> str | None:
    """The URL, when ``text`` only says where something is: a URL (or a link whose text is its URL), maybe
    under a field label (``Paper: …``, ``链接：…``) and with the ids, versions and dates of what it points
    at (``(arXiv:2611.05555, v2, 2026-11-28)``), and punctuation; else None.

    Such a line is no key point: the URL stays the item's URL (or its citation)."""
    found = URL_RE.findall(text)
    if not found or not _URL_ONLY_REST.fullmatch(_unlabelled(URL_RE.sub("", text))):
        return None
    return str(found[0]).rstrip(".,;:)")


_FIELD_LABEL = re.compile(r"^\s*(?:[-*+]\s+)?([^:：\s][^:：]{0,24}?)\s*[:：]")
_ARXIV_WORD = re.compile(r"arxiv\s*[:：]?", re.I)


def field_value(line: str) -> str:
    """A line less the field label it opens with (``Paper: …``, ``链接：…``; labels from ``writing.toml``)."""
    m = _FIELD_LABEL.match(line)
    return line[m.end() :] if m and lexicon().is_label(m.group(1)) else line


def _unlabelled(rest: str) -> str:
    """What a URL line says besides its URL, less a field label, ids, versions and dates."""
    rest = field_value(rest)
    for t in sorted(identifiers(rest), key=lambda t: -t.start):
        if t.type in ("arxiv", "version", "date"):
            rest = rest[: t.start] + rest[t.end :]
    return _ARXIV_WORD.sub("", rest)


#: a numbered item in any style: ``1.`` ``1)`` ``(1)`` ``①`` ``一、`` ``a.`` ``IV.``, bare or in bold (``**3. Title**``)
_NUMBERED = re.compile(
    r"^(?:\*\*|__)?\s*(?:\(?\d{1,3}\)|\d{1,3}(?:\.(?!\d)|、)|[①-⑳]|[一二三四五六七八九十]{1,3}[、.]|（\d{1,3}）|[a-h][.)]"
    r"|(?:I{1,3}|IV|VI{0,3}|IX|XI{0,3})\.(?=\s))(?:\*\*)?\s*(.+)$"
)
#: a paragraph whose title is a Markdown link: ``[Title](url)`` or ``**[Title](url)**`` at a line's start
_LINK_TITLE = re.compile(r"^(?:\*\*)?\[([^\]]{2,200})\]\((https?://[^)\s]+)\)")
#: a top-level bullet: Markdown's, or a sign an export writes for one (Notion's toggle ``▸``, ``•``)
#: (a line of three or more dashes or stars, spaced or not, is a thematic break, never a bullet: ``- - - -``)
_TOP_BULLET = re.compile(r"^(?!(?:-[ \t]*){3,}$|(?:\*[ \t]*){3,}$)[-*+•▸▹‣]\s+(.+)$")

# The words of evidence remarks are in one table, ``data/markers.toml`` (see e1prep.read.markers); the
# graded reading of an item is e1prep.read.evidence.


@dataclass(slots=True)
class NoteItem:
    """One item of a note: its text and line span, and what the rules read from it."""

    material: str
    index: int
    title: str
    text: str
    line_start: int
    line_end: int
    urls: list[str] = field(default_factory=list)
    evidence: EvidenceLevel = EvidenceLevel.unverified
    remark: str = ""
    access_blocked: str | None = None
    date: str | None = None
    arxiv: tuple[str, ...] = ()  # tuples: most items hold none, and share the one empty tuple
    #: the graded reading behind ``evidence``: deciding words, remarks read, remarks not understood
    reading: _ev.Reading = _ev.UNSTATED
    #: the note's legend, symbol → the note's own words for it (the verifier's plain rule reads these)
    legend: dict[str, str] = field(default_factory=dict)
    #: which layout recogniser produced the item (heading, numbered, table, bullet, link-paragraph, whole-note)
    recogniser: str = "heading"
    #: a table row's check cell (its remark) and its other cells, by the header's meaning
    check_cell: str | None = None
    cells: tuple[str, ...] = ()
    #: the index of an earlier item of the same note with the same text and the same note-level
    #: statements about it (a pasted-twice note, a feed that repeats): it adds nothing of its own
    duplicate_of: int | None = None
    #: the running code the note heads the item with (``B-03``, ``🟢 C1``), when its title stands elsewhere
    label: str | None = None
    #: the headings the note files the item under (``二、数据库 / 向量检索（不归 inference）``), outermost first
    group: str = ""

    @property
    def remarks_not_understood(self) -> list[str]:
        """Check remarks of this item that the reader could not understand (the item is unverified)."""
        return list(self.reading.not_understood)

    @property
    def url(self) -> str | None:
        return self.urls[0] if self.urls else None

    @property
    def said(self) -> str:
        """The words a reading of the item is made of: its text, or a JSON object's values less the source's own
        title and address (its quotes are the format's, and ``"title": "Do Agents Forget?"`` asks nothing)."""
        return exports.json_values(self.text) if self.recogniser == "jsonl" else self.text

    @property
    def symbols(self) -> list[str]:
        """The note's legend symbols this item carries (read through the note's legend)."""
        return [sym for sym in self.legend if sym in self.text]

    @property
    def body_lines(self) -> list[tuple[int, str]]:
        """Every line of the item with its 1-based line number in the material."""
        return list(enumerate(self.text.split("\n"), start=self.line_start))


def line_evidence(line: str) -> EvidenceLevel | None:
    """A level that a single line's own wording imposes on its numbers (vendor, unverified...)."""
    return markers.line_level(line)


_BLOCK_START = re.compile(r"([-*+]|\d{1,3}[.)、]|\|)\s")


def blocks(text: str) -> list[tuple[int, str]]:
    """Bullet blocks of an item: a bullet line with its continuation lines, as (line offset, text). A heading
    inside an item is a block of its own: it names a part, the lines under it are the part."""
    out: list[tuple[int, list[str]]] = []  # each block's first line offset and its lines, joined at the end
    for n, line in enumerate(text.split("\n")):
        stripped = line.lstrip()
        if not out or not stripped or _BLOCK_START.match(stripped) or heading(out[-1][1][0]) is not None:
            out.append((n, [line]))
        elif len(stripped) < len(line):  # indented, and no bullet (a bullet would have started a block)
            out[-1][1].append(line)
        else:
            out.append((n, [line]))
    return [(n, b) for n, lines in out if (b := "\n".join(lines)).strip()]


def item_evidence(text: str, ctx: _ev.NoteContext | None = None) -> tuple[EvidenceLevel, str, str | None]:
    """(level, the words that decided it, access problem) for an item, by the graded reading.

    The most restrictive statement wins (see e1prep.read.evidence); the level is then capped by the
    verifier's plain rule, so that the rules never claim a level the verifier would refuse.
    """
    reading = read_evidence(text, ctx)
    return reading.level, reading.remark, reading.blocked


def read_evidence(
    text: str,
    ctx: _ev.NoteContext | None = None,
    number: int | None = None,
    check_cell: str | None = None,
    *,
    legend_free: bool = False,
    position: int | None = None,
) -> _ev.Reading:
    """The graded reading of an item, capped by the verifier's plain rule (:func:`markers.plain_quotable`).

    ``legend_free``, ``position``: see :func:`e1prep.read.evidence.read_item`.
    """
    reading = _ev.read_item(text, ctx, number, check_cell, legend_free=legend_free, position=position)
    if reading.level is EvidenceLevel.verified:
        ok, word = markers.plain_quotable(text, ctx.legend_words if ctx else None, scoped=True)
        if not ok:
            reading = replace(
                reading,
                reader_level=reading.level,
                level=EvidenceLevel.partial,
                deciding=(
                    *reading.deciding,
                    Phrase("remark.lowering", word=word) if word else Phrase("remark.no_full_read"),
                ),
            )
    return reading


def off_topic(text: str) -> str | None:
    """The remark by which a note says an item is off its topic (``和推理引擎无关``), if any."""
    return lexicon().verdict("off_topic", text)


def index_only(text: str) -> str | None:
    """The words by which a card or note says it is only an index of other work."""
    return lexicon().verdict("index_only", text)


def said_known(text: str) -> str | None:
    """The words by which a note says the living document already holds the item (``回看，非新增``)."""
    return lexicon().verdict("known", text)


def said_lead(text: str) -> str | None:
    """The words by which a note calls the item a lead, not a finding (``Lead, not a finding``)."""
    return lexicon().verdict("lead", text)


def said_empty(text: str) -> str | None:
    """The words by which a note says what was seen of the item holds nothing of substance
    (``片段无实质内容``, ``the snippet is just the title``)."""
    return lexicon().verdict("empty", text)


def said_same(text: str) -> str | None:
    """The clause in which a note says the item is another item of the batch under another name (``Same thing as
    the Hyperframe post in Mira's letter.``): the words around the verdict, where the other's name stands."""
    words = lexicon().verdict("same", text)
    if words is None:
        return None
    at = text.find(words)
    start = max((text.rfind(c, 0, at) for c in ".。;；\n!?！？"), default=-1) + 1
    ends = [e for c in ".。;；\n!?！？" if (e := text.find(c, at + len(words))) != -1]
    return text[start : min(ends, default=len(text))].strip()


def said_new(text: str) -> str | None:
    """The words by which a note says the item is new to the team (``Verdict: new for us``), unless it
    also says the document holds it."""
    return lexicon().verdict("new", text) if said_known(text) is None else None


#: the labels of an item's own date (``writing.toml [dates]``), longest first
_DATE_LABELS = tuple(sorted(lexicon().date_labels, key=len, reverse=True))
#: a date's year, month and maybe day, as groups 1–3 (``2024-05-14``, ``2024年5月``, ``2023-08``)
_DATE_PARTS = r"((?:19|20)\d{2})[-/.年]\s?(\d{1,2})(?:[-/.月]\s?(\d{1,2}))?"
_DATE_LINE = re.compile(
    # the label, then a colon or a copula (``正文日期是 2024-05-14``, ``date is 2024-05-14``)
    rf"(?:{'|'.join(_DATE_LABELS)})\s*(?:[:：]|是|为|\bis\b|\bwas\b)?\s*{_DATE_PARTS}",
    re.I,
)


#: the year and separator that every ``_DATE_LINE`` match holds (digits and these signs ignore case)
_DATE_YEAR = re.compile(r"(?:19|20)\d{2}[-/.年]")
#: ``_DATE_LINE`` behind a lookahead for its first characters (the same matches and groups)
_DATE_LINE_GUARDED = guarded(_DATE_LINE)
_LONGEST_DATE_LABEL = max(map(len, _DATE_LABELS))


def item_date(text: str) -> str | None:
    """The item's own date when the note states one (``发布日期：2024-01-15``), or opens its line of fields
    with it (``- 2024-05-21 | [Linkpost] Scaling Monosemanticity | https://… | 老帖``)."""
    m = _date_match(text) or _FIELD_DATE.match(text) or _OLD_PIECE_DATE.search(text)
    if not m:
        return None
    year, month, day = m.group(1), int(m.group(2)), m.group(3)
    return f"{year}-{month:02d}" + (f"-{int(day):02d}" if day else "")


def _date_match(text: str) -> re.Match[str] | None:
    """Equivalent to ``_DATE_LINE.search(text)``; begun where the first year's label, colon and spaces can start."""
    year_at = _DATE_YEAR.search(text)  # every match holds a year (most items none)
    if not year_at:
        return None
    start = year_at.start()
    while start and text[start - 1].isspace():  # ``\s`` is ``str.isspace``
        start -= 1
    if start and text[start - 1] in ":：":
        start -= 1
    while start and text[start - 1].isspace():
        start -= 1
    return _DATE_LINE_GUARDED.search(text, max(start - _LONGEST_DATE_LABEL, 0))


#: a date the note gives a piece it calls old (``读完发现是 2023-08 的旧文``, ``a 2024-01 old post``)
_OLD_PIECE_DATE = re.compile(
    rf"{_DATE_PARTS}日?\s*的?\s*(?:{'|'.join(re.escape(w) for w in lexicon().old_pieces) or '(?!)'})", re.I
)
#: a date that opens a line of fields parted by bars: the entry's own date
_FIELD_DATE = re.compile(r"\s*(?:[-*]\s+)?(\d{4})-(\d{1,2})-(\d{1,2})\s*[|｜]")

#: an item whose own date is this many days before the batch is stale (an old or reissued newsletter)
STALE_DAYS = 180


def days_between(earlier: str, later: str) -> int | None:
    """Days from one ``YYYY-MM[-DD]`` date to another; None when either is not a date."""
    from datetime import date

    def parse(s: str) -> date | None:
        m = re.match(r"(\d{4})-(\d{2})(?:-(\d{2}))?", s)
        try:
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)) if m else None
        except ValueError:
            return None

    a, b = parse(earlier), parse(later)
    return (b - a).days if a and b else None


def is_stale(item: NoteItem, batch_date: str) -> bool:
    age = days_between(item.date, batch_date) if item.date else None
    return age is not None and age > STALE_DAYS


_STATUS_SIGN = re.compile(r"^[^\w\s【\[(（《「\"'*#`@]{1,4}\s+")
#: an ordinal before a title (``3.``, ``3)``, ``③``, ``条目 3：``, ``Item 3``, ``3 · `` as a doc's numbered heading)
_ORDINAL_LEAD = re.compile(
    r"^(?:\d{1,3}(?:[.)、]|\s?[·・]\s)|[①-⑳]|条目\s*\d+\s*[:：]?|Item\s*\d+\s*[:：]?"
    # a counter in tortoise-shell brackets (``〔二〕voxeval 文档页``)
    r"|〔(?:\d{1,3}|[一二三四五六七八九十]{1,3})〕)\s*"
)
_LENTICULAR_TITLE = re.compile(r"^【([^】]{2,200})】.*$")
_TITLE_FIELD = re.compile(r"^(?:\*\*)?([^\s:：*]{1,16})(?:\*\*)?\s*[:：]\s*")
#: a Markdown link ``[text](target)``: its text, then its target
MD_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")


def _first_group(m: re.Match[str]) -> str:
    """``\\1`` as a function: ``re.sub`` calls it without expanding a template per match."""
    return m.group(1)


def _cut_lead(rx: re.Pattern[str], text: str) -> str:
    """Equivalent to ``rx.sub("", text)`` for a pattern anchored at the start (one match, not a scan)."""
    m = rx.match(text)
    return text[m.end() :] if m else text


def _unbracketed(title: str) -> str:
    """Equivalent to ``_LENTICULAR_TITLE.sub(r"\\1", title)``."""
    m = _LENTICULAR_TITLE.match(title) if title.startswith("【") else None
    return m.group(1) + title[m.end() :] if m else title


#: the longest lenticular bracket read as an entry's depth (``【全文已读，含附录 A、B；附录 C 没细看】``); a longer one
#: is a label of its own (``【零散 snippet：SGLang …】``)
_DEPTH_MAX = 30


def _depth_lead(line: str) -> int:
    """Where a lenticular bracket that opens ``line`` and says how far the item was read ends (``【全文已读，含附录
    A、B】SWE-Drift…``, ``【仅摘要】…``), else 0: the bracket is the item's check, no word of its title."""
    close = line.find("】", 1, _DEPTH_MAX + 2) if line.startswith("【") else -1
    return close + 1 if close > 1 and _ev.states_a_read(line[1:close]) else 0


def _without_depth_lead(title: str) -> str:
    """A title less the bracket that opens it and says how far the item was read (:func:`_depth_lead`)."""
    lead = _depth_lead(title)
    return title[lead:].strip() or title if lead else title


def _link_texts(title: str) -> str:
    """Equivalent to ``MD_LINK.sub(r"\\1", title)``."""
    return MD_LINK.sub(_first_group, title) if "](" in title else title


#: a title's leading capitalised word, maybe an outliner's task state (``TODO``, ``LATER``)
_TASK_STATE = re.compile(r"([A-Z]{3,10})\s+(?=\S)")
#: a wiki link, Obsidian's and Logseq's: the page, and maybe an alias after a bar
_WIKI_LINK = re.compile(r"\[\[([^\]|\n]+)(?:\|([^\]\n]+))?\]\]")


def _clean_title(raw: str) -> str:
    """``_STATUS_SIGN``, ``_ORDINAL_LEAD``, ``_LENTICULAR_TITLE``, ``MD_LINK`` and ``URL_RE`` substituted in turn,
    on the title as its writer meant it (Markdown escapes undone: ``2\\. Foo``; ``naming.plain_title``)."""
    raw = plain_title(raw) if "\\" in raw or "()" in raw or "（）" in raw else raw.strip()
    if " | " in raw or "｜" in raw:  # a line of fields parted by bars (``2024-05-21 | Title | https://… | 读到哪``)
        raw = _segment_title(raw) or raw
    if "[[" in raw:  # a wiki link is its page's name or alias (``[[SeaCrawl-2]]``, ``[[MemFold-IF|MemFold]]``)
        raw = _WIKI_LINK.sub(lambda m: m.group(2) or m.group(1), raw)
    if "｜" in raw and (tag := _TAG_LEAD.match(raw)):
        raw = raw[tag.end() :]  # a short code set off by a bar tags the entry (``摘｜Merge-as-You-Go…``)
    if "《" in raw and (shelf := _SHELF_MARK.match(raw)) is not None:
        raw = shelf["work"]  # a shelf's mark and rating before a work's name (``读过 ★★★★☆ 《…》``) are no words of it
    if "@" in raw and (tags := _TRAILING_TAGS.search(raw)) is not None and _taskpaper_tags(tags.group(0)):
        raw = raw[: tags.start()]  # TaskPaper's tags close an entry (``… @read(full) @done``): no words of it
    if (state := _TASK_STATE.match(raw)) is not None and state.group(1) in lexicon().task_states:
        raw = raw[state.end() :]  # an outliner's task state is no word of the title (``TODO [[CSBench]]``)
    title = _link_texts(
        _unbracketed(_without_depth_lead(_cut_lead(_ORDINAL_LEAD, _cut_lead(_STATUS_SIGN, raw).strip())))
    )
    if "://" in title:
        title = URL_RE.sub("", title)
        title = plain_title(title) if "()" in title or "（）" in title else title  # a link's brackets, emptied
    if (m := _TITLE_FIELD.match(title)) and lexicon().is_title_label(m.group(1)):
        title = title[m.end() :]  # a title field's line gives its value (``Title: FlashKV``)
    if "[^" in title:
        title = _fn.CITATION.sub("", title)  # a footnote's citation (``…agents.[^4]``) is no word of it
    if "｜" in title and (verdict := _CODE_VERDICT.match(title)) is not None:
        # where it goes and what the writer makes of it come first (``C2 ｜新，要加：Routed …``)
        title = verdict["name"]
    return title.replace("**", "").replace("`", "").strip(" -—:：|")


#: a short code, a bar, a verdict that ends on a colon, then the name (``C2 ｜新，要加：Routed Transcoders``)
_CODE_VERDICT = re.compile(r"^[^\s｜]{1,8}\s*｜\s*[^：:｜]{1,24}[：:]\s*(?P<name>\S.*)$")


#: tags that close a TaskPaper entry (``@read(full) @arxiv(2710.08832) @done(2027-10-12 11:40)``)
_TRAILING_TAGS = re.compile(r"(?:\s+@[A-Za-z][\w-]*(?:\([^()\n]*\))?)+\s*$")


def _taskpaper_tags(run: str) -> bool:
    """Whether a run of ``@`` words that closes a title is TaskPaper's tags: one holds a value, or there are two or
    more (a lone ``@karpathy`` closing ``Great thread by @karpathy`` is a handle, a word of the title)."""
    return "(" in run or run.count("@") >= 2


#: a work's name in 《》 with only a short mark and signs before it (``读过 ★★★★☆ 　《Where Sparse Attention …》``)
_SHELF_MARK = re.compile(r"^\s*(?:[\u4e00-\u9fff]{1,2}\s+)?[^\w《]*《(?P<work>[^》\n]+)》\s*$")


#: a short code set off by a fullwidth bar at a title's start: a legend's tag, no word of the title
_TAG_LEAD = re.compile(r"\s*(?:[—–-]+\s*)?(?:[\u4e00-\u9fff]{1,2}|[A-Za-z]{1,3})\s*｜\s*(?=\S)")


@dataclass(slots=True)
class _Span:
    title: str
    start: int  # 0-based line index
    end: int  # exclusive
    recogniser: str = "heading"
    check: str | None = None  # a table row's check cell
    cells: tuple[str, ...] = ()  # a table row's other cells (not title, URL, number, check)

    def moved(self, by: int) -> _Span:
        """The same span ``by`` lines further down (a heading's inner lines read on their own, placed back)."""
        return replace(self, start=self.start + by, end=self.end + by)


_NUMBER_CELL = re.compile(r"[#\d\s.]+")


def _number_cell(cell: str) -> bool:
    """A cell of only numbers, ``#``, dots and spaces (a table's number column)."""
    return _NUMBER_CELL.fullmatch(cell) is not None


def _column_meanings(header: list[str], known: dict[tuple[str, ...], list[str | None]]) -> list[str | None]:
    """Equivalent to ``[lexicon().column_meaning(h) for h in header]``; a header in ``known`` is read once."""
    key = tuple(header)
    if key not in known:
        known[key] = [lexicon().column_meaning(h) for h in header]
    return known[key]


def _table_spans(lines: list[str]) -> tuple[list[_Span], list[list[str]]]:
    """One item per table row; columns are read by what their header cells mean, in any order."""
    spans: list[_Span] = []
    rows: list[list[str]] = []
    header: list[str] | None = None
    meanings: list[str | None] = []  # what each header cell names, read once per table
    known: dict[tuple[str, ...], list[str | None]] = {}  # a repeated header (a pasted dump) is read once
    sheet = _sheet_rows(lines)
    for i, line in enumerate(lines):
        sheet_cells = sheet.get(i)
        m = TABLE_ROW.match(line) if sheet_cells is None else None
        if not m and sheet_cells is None:
            header, meanings = None, []
            continue
        if sheet_cells is None and TABLE_SEP.match(line):
            continue
        cells = sheet_cells if sheet_cells is not None else table_cells(line)
        if header is None and (
            (sheet_cells is not None and i - 1 not in sheet)
            or (sheet_cells is None and i + 1 < len(lines) and TABLE_SEP.match(lines[i + 1]))
        ):
            header = cells
            meanings = _column_meanings(header, known)
            continue
        title_col = meanings.index("title") if "title" in meanings else _title_column(meanings, cells)
        check_col = meanings.index("check") if "check" in meanings else None
        title = cells[title_col] if title_col < len(cells) else cells[0]
        check = cells[check_col] if check_col is not None and check_col < len(cells) else None
        # what the row says besides its title and check: not where it was found (a URL or source column's
        # ``GitHub Releases``), nor a counter
        other = tuple(
            c
            for n, c in enumerate(cells)
            if n not in (title_col, check_col)
            and c
            and not URL_RE.fullmatch(c)
            and not _number_cell(c)
            and (n >= len(meanings) or meanings[n] != "url")
        )
        spans.append(_Span(title, i, i + 1, "table", check, other))
        rows.append(cells)
    return _without_field_tables(spans, rows)


#: the longest first cell of a field table's row (a field's name: ``链接``, ``看到哪一步``, ``Status``)
_FIELD_NAME_MAX = 12


def _without_field_tables(spans: list[_Span], rows: list[list[str]]) -> tuple[list[_Span], list[list[str]]]:
    """Drop the rows of field tables: a two-column table whose first column names fields (short, no URL, no
    digit) lists one item's fields (``| 链接 | … |``), not items, when one of its names at least is a known field
    label, or two of them name rows of another such table (a findings report's ``| Relevance | … |``, ``| Target
    | … |`` under each finding: one form, filled in once per item, told by its siblings)."""
    tables: list[tuple[int, int]] = []  # (first, end) of each table whose rows could be fields
    n = 0
    while n < len(spans):
        end = n + 1  # one table: rows on consecutive lines (its separator line between them)
        while end < len(spans) and spans[end].start - spans[end - 1].start <= 2:
            end += 1
        if end - n >= 2 and all(
            len(cells) == 2
            and 0 < len(cells[0]) <= _FIELD_NAME_MAX
            and not any(c.isdigit() for c in cells[0])
            and "://" not in cells[0]
            for cells in rows[n:end]
        ):
            tables.append((n, end))
        n = end
    names = [{cells[0].strip().casefold() for cells in rows[a:b]} for a, b in tables]
    keep = [True] * len(spans)
    for k, (a, b) in enumerate(tables):
        known = any(lexicon().is_label(cells[0]) for cells in rows[a:b])
        shared = any(len(names[k] & other) >= 2 for j, other in enumerate(names) if j != k)
        if known or shared:
            keep[a:b] = [False] * (b - a)
    return [s for s, k in zip(spans, keep, strict=True) if k], [r for r, k in zip(rows, keep, strict=True) if k]


def _title_column(meanings: list[str | None], cells: list[str]) -> int:
    """Where no header cell names the title: the first cell of words whose header names nothing else
    (not a verdict, a check, a note: ``| 结论 | 啥 | 读到哪 |`` is titled by ``啥``), else the first of words."""
    words = [n for n, c in enumerate(cells) if c and not _number_cell(c) and not URL_RE.fullmatch(c) and len(c) > 3]
    unnamed = [n for n in words if n >= len(meanings) or meanings[n] is None]
    return (unnamed or words or [0])[0]


def _item_level(lines: list[str], heads: list[tuple[int, int, str]], level: int) -> int:
    """The heading level of the items: a lone heading that says nothing of its own before two or more
    deeper siblings is the note's title (``## screen 01-06`` right over its ``###`` items), so the items are
    a level down; a lone heading with a body of its own (fields, a URL) is one item in sections."""
    while at := [h for h in heads if h[1] == level]:
        deeper = [h for h in heads if h[1] > level]
        top = min((h[1] for h in deeper), default=0)
        if sum(1 for h in deeper if h[1] == top) < 2:
            break
        # the deeper headings are labelled items (``### PPML-27-41 — Tessera …`` under a report's ``## Detailed
        # findings``): theirs is the items' level, whatever the headings above them say
        if sum(lab is not None for lab in labelled([h[2] for h in deeper if h[1] == top])) >= 2:
            level = top
            continue
        # the headings of this level say nothing of their own: one is the note's title, several are its groups (a
        # board's lanes, ``## 待看（3）`` over its ``### □ …`` cards)
        if any(_says_something(lines, heads, i) for i, _, _ in at):
            break
        level = top
    return level


def _says_something(lines: list[str], heads: list[tuple[int, int, str]], i: int) -> bool:
    """Whether the heading at line ``i`` has lines of its own before the next heading."""
    below = next((h[0] for h in heads if h[0] > i), len(lines))
    return any(line.strip() for line in lines[i + 1 : below])


def _heading_spans(lines: list[str]) -> list[_Span]:
    heads = [(i, *h) for i, line in enumerate(lines) if (h := heading(line))]
    numbered = [h for h in heads if re.match(r"^(?:\d{1,3}[.)、]|[①-⑳]|条目|增量|Item\s*\d)", h[2])]
    chosen = numbered if len(numbered) >= 1 else [h for h in heads if h[1] >= 2]
    if not chosen:
        return []
    level = _item_level(lines, heads, min(h[1] for h in chosen))
    chosen = [h for h in heads if h[1] == level]
    # the end of each heading: the next heading of its level or above (one pass, a stack)
    closes: dict[int, int] = {}
    stack: list[tuple[int, int]] = []
    for j, other_lvl, _ in heads:
        while stack and stack[-1][1] >= other_lvl:
            closes[stack.pop()[0]] = j
        stack.append((j, other_lvl))
    spans = []
    for n, (i, _lvl, title) in enumerate(chosen):
        end = closes.get(i, len(lines))
        if n + 1 < len(chosen):
            end = min(end, chosen[n + 1][0])
        # a heading that is only a link, or only a counter (``①`` over a pasted post), is titled by its body
        spans.append(_Span(_body_title(lines, i, end) if url_only(title) or lone_counter(title) else title, i, end))
    return spans


def _body_title(lines: list[str], i: int, end: int) -> str:
    """The title of an item headed by its link alone (a tab's URL over its remarks): the title its first line
    quotes (``"Why our GRPO run died at step 1,900" -- Quillworks eng blog``), else that line's first sentence;
    the link itself when the item has no line of its own."""
    first = next((line.strip() for line in lines[i + 1 : end] if line.strip()), "")
    quoted = next((q for q in _QUOTED_TITLE.finditer(first) if _quotes_a_title(first, q)), None)
    return quoted.group(1) if quoted else sentence_head(first) if first else lines[i]


#: a web address written without its scheme, as a slide or a chat shows it (``arxiv.org/abs/2708.04417``,
#: ``github.com/npk-lab/npukv``): a host under a common top-level domain, then a path. It points at the item as a URL
#: does (the structure whose items hold such pointers is the note's), though it is no URL of the item's
_BARE_ADDRESS = re.compile(r"(?<![\w./@:-])(?:[a-z0-9-]+\.)+(?:org|com|io|ai|net|dev|co|cn|edu)/[\w\-./%?=&#~]+")


class _UrlLines:
    """Which lines hold a URL (or an address without its scheme), and whether a run of lines does, in O(1) (a URL
    never spans a line break)."""

    def __init__(self, lines: list[str]) -> None:
        self.before = before = [0]
        total = 0
        for line in lines:
            if URL_RE.search(line) or ("/" in line and _BARE_ADDRESS.search(line)):
                total += 1
            before.append(total)
        self.offset, self.size = 0, len(lines)

    def window(self, first: int, end: int) -> _UrlLines:
        """The same answers for the lines ``first:end``, counted from 0 (no line is searched again)."""
        view = object.__new__(_UrlLines)
        view.before = self.before
        view.offset = self.offset + first
        view.size = max(0, min(end, self.size) - first)
        return view

    def any(self, start: int, end: int) -> bool:
        end = min(end, self.size)
        return start < end and self.before[self.offset + end] - self.before[self.offset + start] > 0

    def total(self) -> int:
        """How many lines hold a URL."""
        return self.before[self.offset + self.size] - self.before[self.offset]

    def count(self, spans: list[_Span]) -> int:
        """How many of ``spans`` hold a URL (``any`` of each, in one loop: a dump has thousands)."""
        before, offset, size = self.before, self.offset, self.size
        n = 0
        for s in spans:
            end = min(s.end, size)
            if s.start < end and before[offset + end] - before[offset + s.start] > 0:
                n += 1
        return n


#: a status box that opens an item's line: empty, ``x``, or one sign (``[ ]``, ``[x]``, ``[~]``, ``[?]``)
_STATUS_BOX = re.compile(r"^\[(?:[xX ]|[^\w\s\]])?\]\s+")


#: an arXiv id as a line's pointer, maybe labelled (``arXiv:2702.11460``, ``2702.11460``) or as its page's address
#: written without a scheme (``arxiv.org/abs/2708.04417``, as a slide shows it)
_ID_LEAD = r"(?:arxiv\s*[:：]?\s*|arxiv\.org/(?:abs|pdf)/)?\d{4}\.\d{4,5}(?!\d)"
#: a line that opens with an arXiv id (``arXiv:2702.11460 · https://…``): a section's pointer line
_ID_LINE = re.compile(rf"^\s*{_ID_LEAD}", re.I)
#: a list item's line that opens with an arXiv id (``- arXiv:2702.03318 — *ThermoCap …*``): its pointer
_OPENING_ID = re.compile(rf"^\s*(?:[-*+]|\d{{1,3}}[.)])\s+(?:\*\*)?{_ID_LEAD}", re.I)


#: a list item indented under another: a sub-bullet, a sub-task
_NESTED_ITEM = re.compile(r"^[ \t]{2,}(?:[-*+]|\d{1,3}[.)])\s+\S")


def _holds_a_list(lines: list[str], start: int, end: int) -> bool:
    """Whether the lines of an item hold a list of its own (an indented bullet right under it)."""
    return start < end and _NESTED_ITEM.match(lines[start]) is not None


def _list_spans(
    lines: list[str],
    rx: re.Pattern[str],
    name: str,
    with_url: _UrlLines | None = None,
    fields: frozenset[int] = frozenset(),
    siblings: bool = False,
) -> list[_Span]:
    """One item per line ``rx`` matches; given ``with_url`` (the lines' URL counts), only items holding a URL,
    or with ``siblings``, all of them where enough of them do. A field line (a known label, or a line of
    ``fields``) is never an item."""
    starts = [
        (i, m.group(m.lastindex or 1))
        for i, line in enumerate(lines)
        if (m := rx.match(line)) and i not in fields and not is_field_line(line)
    ]
    if sum(1 for _, title in starts if title.startswith("[") and _STATUS_BOX.match(title)) >= 2:
        # sibling items that open with a status box (``- [x] …``, ``- [ ] …``, ``- [~] …``): the box says
        # where the item stands (a task list's mark, or a legend's symbol, read with the item's text)
        starts = [(i, _STATUS_BOX.sub("", title)) for i, title in starts]
    ends = []
    for n, (i, _title) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        # an item ends at the next heading, or where a table of the note's own begins after a blank line
        # (a status table under the list: its rows restate the items, they are not the last item's text)
        for j in range(i + 1, end):
            if not rx.match(lines[j]) and (heading(lines[j]) or _table_after_blank(lines, j)):
                end = j
                break
        ends.append(end)
    # ``siblings``: the entries are one list's, set in under the note's plain group labels (a status report's
    # ``RED`` / ``AMBER``): when two or more of them, and a third at least, point at something, the others are items
    # of the same kind whose writer did not keep the link (``Link is somewhere in #fl, forgot to copy it``). Under
    # items' own titles (``**1. ShardSpec**`` over ``- …``) a list is their points, and only a link makes an item
    unlinked_too = False
    if siblings and with_url is not None:
        pointing = sum(1 for (i, _), end in zip(starts, ends, strict=True) if with_url.any(i, end))
        unlinked_too = pointing >= _LINKED_SIBLINGS and pointing * _LINKED_SHARE >= len(starts)
    spans = []
    for (i, title), end in zip(starts, ends, strict=True):
        depth = _depth_bracket(title)
        # given ``with_url``, an item points at something: a URL in it, or an arXiv id opening it; or it holds
        # a list of its own (``- [ ] Loom-256k`` over its ``  - [ ] …`` claims: the nesting makes it an item); or
        # a bracket says how far it was read; or its siblings do
        if (
            with_url is not None
            and not unlinked_too
            and not with_url.any(i, end)
            and not _OPENING_ID.match(lines[i])
            and not _holds_a_list(lines, i + 1, end)
            and not _read_as_its_bracket_says(title, depth)
        ):
            continue
        check, lead = (depth.text, depth.lead) if depth else (None, 0)
        spans.append(_Span(_paragraph_title(title, lead), i, end, name, check))
    return spans


#: a list whose entries point at something (a URL) this often, two of them at least, is a list of items, link or not
_LINKED_SIBLINGS = 2
_LINKED_SHARE = 3


def _margin_bullets(lines: list[str]) -> re.Pattern[str] | None:
    """A list set in as a whole (``  * fedsim-x issue #412`` under a status line): its entries are the bullets at
    the shallowest indentation, when no bullet stands at the margin (those are ``_TOP_BULLET``'s)."""
    widths = [len(m["indent"]) for line in lines if (m := _INDENTED_BULLET.match(line))]
    if not widths or min(widths) == 0:
        return None
    # set in under plain lines (``RED``, ``AMBER``), not under entries of an outer list (``1. **llm-echo**``)
    outer = re.compile(rf"^ {{0,{min(widths) - 1}}}(?:[-*+•▸▹‣]|\d{{1,3}}[.)、])\s+\S")
    if any(outer.match(line) for line in lines):
        return None
    return re.compile(rf"^ {{{min(widths)}}}[-*+•▸▹‣]\s+(.+)$")


def _set_in_list(lines: list[str], urls: _UrlLines) -> list[_Span]:
    """The entries of a list set in under the note's plain group labels (``_margin_bullets``), if it has one."""
    rx = _margin_bullets(lines)
    if rx is None or any((m := rx.match(line)) and _RECORD_FIELD.match(m.group(1)) for line in lines):
        return []  # a list of records (``  - n: 1`` over ``title: …``, as YAML writes it) is no list of titles
    return _list_spans(lines, rx, "bullet", with_url=urls, siblings=True)


#: an entry that opens with a field of its record (``n: 1``, ``title: "…"``)
_RECORD_FIELD = re.compile(r"^[A-Za-z_][\w-]{0,20}:\s")


_INDENTED_BULLET = re.compile(r"^(?P<indent> *)[-*+•▸▹‣]\s+\S")


#: a list item longer than this is a paragraph: its first sentence is its title
_PARAGRAPH_ITEM = 2 * TITLE_MAX


def _read_as_its_bracket_says(entry: str, depth: _Depth | None) -> bool:
    """Whether a list entry says in a bracket how far it was read (``depth``, :func:`_depth_bracket`), and so was
    read, link or not: a bracket that closes it (``… Could matter for III. [title only]``), or one that opens it
    over an arXiv id in its first sentence (``【仅摘要】Self-Verify-then-Patch: …（arXiv:2706.09951）：…``)."""
    if depth is None:
        return False
    if not depth.lead or _depth_tail(entry) is not None:
        return True
    head = _SENTENCE_END.split(entry[depth.lead : depth.lead + 2 * _BRINGS_IN], maxsplit=1)[0]  # a title, its id
    return bool(arxiv_ids(head))


def _depth_tail(entry: str) -> str | None:
    """What a bracket that closes a list entry holds, when it says how far the entry was read (``→ VI-a [full]``)."""
    tail = _DEPTH_TAIL.search(entry)
    return tail.group(1) if tail is not None and _ev.states_a_read(tail.group(1)) else None


class _Depth(NamedTuple):
    """A list entry's bracket that says how far it was read: what it holds, and where it ends when it opens the
    entry (0: it closes the entry)."""

    text: str
    lead: int


def _depth_bracket(entry: str) -> _Depth | None:
    """The bracket that opens or closes a list entry and says how far it was read: the entry's check, as a table's
    check cell is its row's (``[full]`` alone is no statement in the entry's running text)."""
    if lead := _depth_lead(entry):
        return _Depth(entry[1 : lead - 1], lead)
    tail = _depth_tail(entry)
    return _Depth(tail, 0) if tail is not None else None


#: a bracket that closes a list entry (``[README top]``, ``【只看了标题】``)
_DEPTH_TAIL = re.compile(r"[\[【]([^\]】\n]{2,60})[\]】]\s*[.。]?\s*$")


def _paragraph_title(line: str, lead: int = 0) -> str:
    """A list item's title: the line, or the first sentence of a line that is a paragraph (``1. Tessera: … —
    arXiv:2702.14385, https://…. One tile program, with layouts as type parameters …``), after the bracket that
    opens it and says how far it was read, ending at ``lead`` (``【全文已读；附录 C 没细看】SWE-Drift: …``)."""
    if len(line) <= _PARAGRAPH_ITEM:
        return line
    return sentence_head(line[lead:]) or line


def _table_after_blank(lines: list[str], j: int) -> bool:
    """Whether a top-level table starts at line ``j``, or under a one-line caption there (``Status``),
    after a blank line: its header row over its rule row, at the left margin."""
    if j == 0 or lines[j - 1].strip():
        return False
    head = j + 1 if j + 2 < len(lines) and not lines[j].startswith("|") and lines[j].strip() else j
    return (
        head + 1 < len(lines)
        and lines[head].startswith("|")
        and TABLE_ROW.match(lines[head]) is not None
        and TABLE_SEP.match(lines[head + 1]) is not None
    )


_BARE_URL_LINE = re.compile(
    r"^\s*(?:[-*+:：]\s*)?(?:(?:URL|链接|Link)\s*[:：]\s*)?<?https?://\S+>?\s*$", re.I
)  # ``: https://…`` is a definition list's value line


#: the marks a title line may open with (``>>``, ``▶``, ``■``…): not part of the title
_TITLE_MARKS = re.compile(r"^[\s>»▶►■□◆◇•·→※#*+-]+")


#: a reference's label alone (``[1]``, ``[^2]:``): the URL under it is cited by the text elsewhere
_REFERENCE_LABEL = re.compile(r"\[\^?\w{1,4}\]:?")


#: a field of a listing's metadata: a version, a date, an arXiv category, a page count
_META_FIELD = re.compile(r"v\d+|\d{4}-\d{2}-\d{2}|[a-z]{2,8}\.[A-Z]{2}|\d+\s*pp\b", re.I)


def _listing_meta(line: str) -> bool:
    """Whether a line is a listing's metadata: fields parted by ``·`` of which two or more are a version, a date,
    a category or a page count (``v1 · submitted 2027-04-09 · cs.CV · 14 pp + appendix``)."""
    fields = line.split(" · ")
    return len(fields) >= 3 and sum(1 for f in fields if _META_FIELD.search(f)) >= 2


def _titled_url_spans(lines: list[str], urls: _UrlLines) -> list[_Span]:
    """Items written as a title line (any leading mark: ``>>``, ``▶``, ``■``…) with a bare URL line under it
    (``urls``: which lines hold a URL, counted once for every structure)."""
    starts: list[tuple[int, str]] = []
    bare = [_BARE_URL_LINE.match(line) is not None for line in lines]
    for i, line in enumerate(lines):
        if not line.strip() or bare[i] or urls.any(i, i + 1) or len(line.strip()) > 160:
            continue
        nxt = next((j for j in range(i + 1, min(i + 3, len(lines))) if lines[j].strip()), None)
        if nxt is None or not bare[nxt]:
            continue  # a title's next non-blank line, one of the two after it, is a bare URL line
        lead = _TITLE_MARKS.match(line)
        title = (line[lead.end() :] if lead else line).strip()
        if _listing_meta(title) and i > 0 and lines[i - 1].strip() and not urls.any(i - 1, i):
            # a listing's metadata line (``v1 · submitted 2027-04-09 · cs.CV``) under its title: the title opens it
            i, title = i - 1, lines[i - 1].strip()
        if title and not _REFERENCE_LABEL.fullmatch(title):  # ``[1]`` over a URL: a reference, not an item
            starts.append((i, title))
    spans = []
    for n, (i, title) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        # a heading between two items (a section of a digest) ends the item before it
        spans.append(_Span(title, i, _to_heading(lines, i + 1, end), "titled-url"))
    return spans


_BOLD_TITLE = re.compile(r"^\*\*([^*\n]{2,200})\*\*$")
#: a paragraph that opens with a bold run-in title and goes on in the same line
_BOLD_RUN_IN = re.compile(r"^\*\*([^*\n]{2,200})\*\*\s*\S")
#: a paragraph titled in lenticular brackets: ``【Title】 text …``
_LENTICULAR = re.compile(r"^【([^】\n]{2,200})】")
#: a line cut into fields by long dashes or bars (``状态 —— 标题 —— 链接 —— 备注``, ``标题｜链接｜读到哪``,
#: ``2027-03-23 | 标题 | 链接``), not a table's row (it opens with its bar)
_SEGMENTS = re.compile(r"\s+(?:——|—|–|--)\s+|\s*｜\s*|\s+\|\s+")


#: a field set in bold (``✅ **Ferrite 0.5: …**``): the writer's title among the fields
_BOLD_FIELD = re.compile(r"\*\*([^*\n]{2,200})\*\*")


def _segmented_spans(lines: list[str]) -> list[_Span]:
    """One item per line made of fields parted by dashes or bars with a URL, with the prose under it up to a blank
    line; its title is the field the writer set in bold, else the field before the URL (the other fields
    are its check and notes, read as its text). Two fields make the layout only when one is that bold title
    (``✅ **xgrammar 0.3 is out** — https://…``)."""
    spans = []
    for i, line in enumerate(lines):
        if (title := _segment_title(line)) is not None:
            spans.append(_Span(title, i, _paragraph_end(lines, i), "segmented"))
    # a field line runs on over its prose, never into the next field line
    return [replace(span, end=min(span.end, after.start)) for span, after in pairwise(spans)] + spans[-1:]


def _segment_title(line: str) -> str | None:
    """The title of a line of fields parted by dashes or bars with a URL field: the field set in bold, else
    the field before the URL; None when the line is not so made (a table's row opens with its bar)."""
    if "://" not in line or not ("—" in line or "–" in line or "--" in line or "｜" in line or " | " in line):
        return None  # no URL field or no separator: not this layout
    stripped = line.strip().removeprefix("- ").removeprefix("* ")
    if stripped.startswith(("|", "｜")):
        return None
    parts = _SEGMENTS.split(stripped)
    bold = next((m.group(1) for p in parts if (m := _BOLD_FIELD.search(p))), None)
    if len(parts) < (2 if bold else 3):
        return None  # too few fields: not this layout, whichever field holds the URL
    url_at = next((k for k, p in enumerate(parts) if URL_RE.fullmatch(p.strip())), None)
    if url_at is None or url_at == 0:
        return None
    # a date between the title and the URL is the entry's metadata (``Title — 2027-06-18 — https://…``)
    named = [p for p in parts[:url_at] if not _DATE_FIELD.fullmatch(p.strip())]
    return bold or (named[-1] if named else parts[url_at - 1])


#: a field that is a date only, maybe with a bracketed word on it (``2027-06-20 (feed date)``)
_DATE_FIELD = re.compile(r"\d{4}-\d{1,2}-\d{1,2}(?:\s*[(（][^)）\n]{0,20}[)）])?")


def _to_heading(lines: list[str], start: int, end: int) -> int:
    """Where an item that runs to ``end`` ends: at the first heading from ``start`` on (a section of the note), or at
    ``end``."""
    return next((j for j in range(start, end) if heading(lines[j])), end)


def _paragraph_end(lines: list[str], i: int) -> int:
    """Where the paragraph that line ``i`` opens ends: its lines of prose run on to a blank line, a heading
    or another line of structure (the item's text goes on under its field line)."""
    end = i + 1
    while end < len(lines) and lines[end].strip() and _in_paragraph(lines[end]):
        end += 1
    return end


def _in_paragraph(line: str) -> bool:
    """Whether a line goes on with the paragraph above it: prose, or a list entry under it, set in or at the margin
    (a title line's points: ``Foo — https://…`` over ``- new --tiny flag``)."""
    return BULLET_ENTRY.match(line) is not None or not _STRUCTURED_LINE.match(line)


def _link_paragraph_spans(lines: list[str]) -> list[_Span]:
    """Prose items: a paragraph that opens with a Markdown link (or a title line set in bold) is an item
    titled by that text; a link inside a paragraph is not a new item. Paragraphs that open with a bold
    run-in title (``**arXiv:2612.03391 — TierSpill.** I read …``) are items when two or more do."""
    starts = []
    run_in = []
    speakers = speaker_lines(lines)  # a chat's ``**mei**  09:12`` heads a message, it titles nothing
    for i, line in enumerate(lines):
        if (i > 0 and lines[i - 1].strip()) or i in speakers:
            continue  # not a paragraph's first line
        m = _LINK_TITLE.match(line.strip()) or _BOLD_TITLE.match(line.strip()) or _LENTICULAR.match(line.strip())
        if m and not is_field_line(line):
            starts.append((i, m.group(1)))
        elif (r := _BOLD_RUN_IN.match(line.strip())) and not r.group(1).rstrip().endswith((":", "：")):
            # (a bold field label, ``**Summary:** …``, ends at its colon: a field, not a title)
            run_in.append((i, r.group(1).rstrip(" .。:：")))
    # a bold lead that opens several paragraphs word for word is a label, told by its siblings: a field's
    # (``**名称**：CaseLink-zh`` … ``**名称**：衡律 ContractPilot 3``) or a speaker's (``**Wei Zhang** · 4:58 PM``);
    # titles differ
    repeated = Counter(title for _, title in run_in)
    run_in = [(i, title) for i, title in run_in if repeated[title] < 2]
    # so is a bold line that several blocks open with (an ADR's ``**Context.**`` / ``**Decision.**`` under each
    # of its headings): a part's name, each time, no item's title
    bold = Counter(title for i, title in starts if _BOLD_TITLE.match(lines[i].strip()))
    starts = [(i, title) for i, title in starts if bold[title] < 2 or not _BOLD_TITLE.match(lines[i].strip())]
    if len(run_in) >= 2:  # siblings: the paragraphs' run-in titles are a layout, not emphasis
        starts = sorted(starts + run_in)
    spans = []
    for n, (i, title) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        spans.append(_Span(title, i, _to_heading(lines, i + 1, end), "link-paragraph"))
    return _without_title_block(lines, spans)


def _without_title_block(lines: list[str], spans: list[_Span]) -> list[_Span]:
    """The items less the bold lines that open the note with nothing under them before the next (a doc's title and
    byline exported as bold lines: ``**CL screen — Thu 9 Jul**`` over ``**Priya · exported from Google Docs**``):
    they head the note, they title no item. One with a link, or with text of its own, stays an item."""
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    k = 0
    while (
        k + 1 < len(spans)
        and spans[k].start == first
        and _BOLD_TITLE.match(lines[first].strip())
        and not any(line.strip() for line in lines[spans[k].start + 1 : spans[k].end])
        and "://" not in lines[first]
    ):
        first = spans[k + 1].start
        k += 1
    return spans[k:]


def _opens_paragraph(lines: list[str], i: int) -> bool:
    """Whether line ``i`` opens a paragraph: the note's first, or after a blank line or a thematic break."""
    return i == 0 or not lines[i - 1].strip() or _THEMATIC_BREAK.match(lines[i - 1]) is not None


def _opens_paragraph_with_bracket(lines: list[str], i: int) -> bool:
    return lines[i][:1] in ("[", "【") and _opens_paragraph(lines, i)


#: a line opened by a clock stamp, and a line indented under another (a continuation)
_CLOCK_LINE = re.compile(r"^\d{1,2}[:：][0-5]\d\s")
_INDENTED = re.compile(r"^[ \t]{2,}\S")


#: a word and a counter before a dash, set in under the paragraph that lists them (``   SERIAL 01 — SignSpan``)
_WORD_LABEL_SET_IN = re.compile(r"^[ \t]+[A-Za-z]{3,10}\s\d{1,4}\s+[—–]\s*\S")


def _label_line_spans(lines: list[str]) -> list[_Span]:
    """Items opened by a label at the start of a line (``A1  ColFuse …`` then indented fields), when two
    or more lines open with one label shape; each runs to the next such line or heading."""
    starts = []
    # a clock that opens a line with indented lines of its own under it opens an entry, however close the
    # entries stand (``09:40  arXiv …`` then its notes, indented): the stamps are the log's items
    continued = any(_CLOCK_LINE.match(line) and _INDENTED.match(lines[i + 1]) for i, line in enumerate(lines[:-1]))
    speakers = speaker_lines(lines)  # a chat's ``阿杰 21:04`` heads a message of one conversation, no item
    commits = commit_heads(lines)  # a log headed as commits are (``feat(read): …``): each line one item
    for i, line in enumerate(lines):
        if i in speakers:
            continue
        if i in commits:
            starts.append((i, Label(COMMIT, "", commits[i])))
            continue
        # a label opens the line itself, unindented; or a bracketed code opens a paragraph (``[00:09] 第一件…``):
        # a bracket on each line of a run of lines is a log's stamp (a chat's ``[14:58] oskar: …``), one
        # conversation, not items
        if (
            not line[:1].isalnum()
            and not _opens_paragraph_with_bracket(lines, i)
            and not _WORD_LABEL_SET_IN.match(line)
        ):
            continue
        label = read_label(line)
        if label is not None and label.rest:
            if label.shape == CLOCK and not (_opens_paragraph(lines, i) or continued):
                continue  # a clock on each line of a run of lines stamps a log's lines, not items
            starts.append((i, label))
        elif label is not None and label.shape != CLOCK and i + 1 < len(lines) and _SET_IN_LINE.match(lines[i + 1]):
            # a label alone on its line over a block set in under it (``命题 1`` over ``　主张：…``): the block is
            # its item, titled by the block's first line
            starts.append((i, replace(label, rest=_field_value(lines[i + 1].strip()))))
    shapes = Counter(label.shape for _, label in starts)
    starts = [(i, label) for i, label in starts if shapes[label.shape] >= 2]
    topics = _spoken_topics([label.rest for _, label in starts])
    spans: list[_Span] = []
    for n, (i, label) in enumerate(starts):
        if topics is not None and n not in topics and spans:
            continue  # the talk goes on about the topic before it: its stamp is no item
        later = [m for m in range(n + 1, len(starts)) if topics is None or m in topics]
        end = starts[later[0]][0] if later else len(lines)
        stop = _to_heading(lines, i + 1, end)
        # a line that runs on after its label is titled by its first sentence (a spoken paragraph); one that
        # ends on a colon introduces what it is about on the next line (``09:40  扫了一遍，就一篇值得记：``); a
        # spoken topic by the sentence that opens it (``好，记一下。第一个是 Quill-Math 2``)
        title = _introduced(lines[i + 1 : stop]) if label.rest.rstrip().endswith((":", "：")) else None
        check = None
        if topics is not None and n in topics:
            title = sentence_head(label.rest[topics[n] :])
            # the paragraph that opens the topic, when it says how far it was read: the talk after it can only lower
            # that, a doubt about one of its claims limiting that claim (``[01:02] 嗯，有一个地方我不太信…``)
            talk = any(starts[m][0] < stop for m in range(n + 1, len(starts)))
            check = label.rest if talk and _ev.read_remark(label.rest).words else None
        # a reference in author-year style is titled by the work it cites, not its authors
        cited = _cited_work(" ".join([label.rest, *_run_on(lines, i + 1, stop)]))
        named = title or cited or sentence_head(label.rest)
        # a word's counter (``SERIAL 02 — signpose``, ``No. 27-41   SpliceMark``) only numbers the entry: the words
        # after it are its title
        span = _Span(
            named if label.shape.endswith((WORD_LABEL, NUMBERING)) else f"{label.text} {named}",
            i,
            stop,
            "label-line",
            check,
        )
        spans.append(span)
    return spans


#: a reference in author-year style (``Zhao, K., Lindqvist, A., & Mori, T. (2027). *Rank Drift: …* arXiv:…``): its
#: authors, the year in brackets, then the work; the authors hold an initial or ``et al``
_CITATION_HEAD = re.compile(r"^(?P<authors>[^()\n]{2,200}?)\s*\((?:19|20)\d{2}[a-z]?\)[.,]?\s+(?P<rest>\S.*)$")
_AUTHORS = re.compile(r"\b[A-Z]\.|\bet al\b")
#: a work's title set in italics where a reference opens its rest (``*Rank Drift: …*``, ``_…_``)
_ITALIC_LEAD = re.compile(r"^\*([^*]{3,300})\*|^_([^_]{3,300})_")


def _cited_work(text: str) -> str | None:
    """The title of the work a reference in author-year style cites: its italics, or its rest up to a full stop."""
    m = _CITATION_HEAD.match(text.strip())
    if m is None or not _AUTHORS.search(m["authors"]):
        return None
    rest = m["rest"]
    italic = _ITALIC_LEAD.match(rest)
    title = (italic.group(1) or italic.group(2)) if italic else re.split(r"\.\s", rest, maxsplit=1)[0]
    return " ".join(title.split()).rstrip(".") or None


def _run_on(lines: list[str], start: int, stop: int) -> list[str]:
    """The lines that go on from a line in ``start:stop``, up to the first blank one, stripped."""
    out = []
    for line in lines[start:stop]:
        if not line.strip():
            break
        out.append(line.strip())
    return out


def _nested_numbering(lines: list[str]) -> bool:
    """Whether a note's numbered entries all stand inside blocks set in under lines at the margin (``命题 1`` over
    ``　主张：…`` and ``　　a. 原帖我没点开…``): set in deeper than the blocks' own lines, they are those blocks'
    points, not the note's items. Entries set in under group labels (``A. retrieval`` over ``   1. ● PagePress``)
    open their own blocks: they stay items."""
    entries = {i: _indent(line) for i, line in enumerate(lines) if _NUMBERED.match(line)}
    if not entries or 0 in entries.values():
        return False
    block = [_indent(line) for i, line in enumerate(lines) if line.strip() and i not in entries and _indent(line) > 0]
    return bool(block) and min(entries.values()) > min(block)


def _indent(line: str) -> int:
    """How far a line is set in: its leading spaces, tabs and ideographic spaces."""
    return len(line) - len(line.lstrip(" \t\u3000"))


#: a line set in under the line above it, by spaces or an ideographic space (``　主张：…``)
_SET_IN_LINE = re.compile(r"^[ \t\u3000]{2,}\S|^\u3000\S")


def _field_value(line: str) -> str:
    """A line less a short field label that opens it (``主张：DeltaCache 让…`` → ``DeltaCache 让…``)."""
    m = _LABELLED_LINE.match(line)
    return line[m.end() :].strip() if m and line[m.end() :].strip() else line


#: how far into a stamped paragraph its topic opener may stand (after ``好，记一下今天看的几个东西。``)
_OPENER_REACH = 40


def _spoken_paragraph_spans(lines: list[str]) -> list[_Span]:
    """A dictated note's topics: plain paragraphs, unstamped, of which two or more open a spoken topic
    (``第一个就是那个 TempoCrop…``, ``第二个 嗯 Planet…``; ``writing.toml [spoken]``). Each topic runs over the
    paragraphs after it to the next; what comes before the first is the note's preamble, no item."""
    paragraphs = [(a, end) for a, end in _paragraphs(lines) if not _STRUCTURED_LINE.match(lines[a])]
    topics = _spoken_topics([lines[a] for a, _ in paragraphs])
    if topics is None:
        return []
    opened = sorted(topics)
    spans = []
    for k, n in enumerate(opened):
        a = paragraphs[n][0]
        end = paragraphs[opened[k + 1]][0] if k + 1 < len(opened) else len(lines)
        spans.append(_Span(sentence_head(lines[a][topics[n] :])[:TITLE_MAX], a, end, "spoken"))
    return spans


def _spoken_topics(rests: list[str]) -> dict[int, int] | None:
    """The stamped paragraphs of a spoken log that open a topic (``writing.toml [spoken]``), by index, with where
    the sentence that opens it starts; None unless two or more do (then the others go on with the topic before)."""
    opener = _topic_opener()
    found: dict[int, int] = {}
    for n, rest in enumerate(rests):
        if (m := opener.search(rest, 0, _OPENER_REACH)) is not None:
            found[n] = max(rest.rfind(stop, 0, m.start()) for stop in ("。", "！", "？", ". ", "! ", "? ")) + 1
    return found if len(found) >= 2 else None


@functools.cache
def _topic_opener() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{rx})" for rx in lexicon().topic_openers), re.I)


def _introduced(lines: list[str]) -> str | None:
    """The line a colon introduces: the next line of substance, unless it is only a URL or a field."""
    line = next((ln.strip() for ln in lines if ln.strip()), "")
    if not line or url_only(line) or is_field_line(line) or _ev.remark_line(line):
        return None
    return sentence_head(line) or line


#: a line opened by a sign of its own (a legend's mark, a status emoji: ``✕  Halyard 中文解读``), not a
#: list's bullet, a quote, a table or a heading, and the text after it
_SIGN_LINE = re.compile(r"^(?P<sign>[^\w\s【\[(（《「\"'*#`@\-+>|<~=_.,:;，。：；!?！？•]{1,2})[ \t]+(?P<rest>\S.*)")


#: a line's bold lead (its title, when the rest are fields)
_BOLD_LEAD = re.compile(r"\*\*([^*\n]{1,200})\*\*")
#: a board's lane: a line that is only a bracketed name (``【跟进中】``, ``[done]``)
_LANE = re.compile(r"^\s*[【\[][^\]】\n]{1,20}[】\]]\s*$")


#: a paragraph's first line opened by a field label (``Q: …``, ``Paper: …``, ``问：…``), maybe set in bold
#: (``**名称**：…``, ``**Title:** …``), not a URL's scheme
_OPENER_FIELD = re.compile(rf"^(?:\*\*)?{FIELD_WORD}(?:\*\*)?\s*[:：](?!//)(?:\*\*)?\s*(?P<rest>\S.*)$")
#: or by a label in capitals set apart from its value by a run of spaces, as a form aligns it (``ITEM     RankMix``)
_ALIGNED_FIELD = re.compile(r"^(?P<word>[A-Z]{2,15})[ \t]{2,}(?P<rest>\S.*)$")


def _opening_label(line: str) -> tuple[str, str, int] | None:
    """The label that opens ``line``, the text after it and where that text starts: a label and its colon, a label
    in capitals set apart by a run of spaces, or a Chinese label set apart without a colon, in bold or by a gap
    (``**检查号** QR-01``, ``物证号　　WM-01``: ``labels.COLONLESS_FIELD``)."""
    if (m := _OPENER_FIELD.match(line) or _ALIGNED_FIELD.match(line)) is not None:
        return m["word"], m["rest"], m.start("rest")
    if (c := COLONLESS_FIELD.match(line)) is not None:
        return c["bold"] or c["aligned"], c["colonless"], c.start("colonless")
    return None


def _opener_field_spans(lines: list[str]) -> list[_Span]:
    """Items that are paragraphs opened by one field label (a note to self of ``Q:`` paragraphs, each with
    its ``Found:`` and ``How far I got:`` lines): the label that opens two or more paragraphs and never a
    line inside one is the items' opener, told by its siblings; the other labels are fields. Each item runs
    to the next opener or heading."""
    opens: dict[str, list[int]] = {}
    rests: dict[int, str] = {}  # each opening line's text after its label
    inside: set[str] = set()
    for i, line in enumerate(lines):
        found = _opening_label(line)
        if found is None or line[: found[2]].count("**") == 1:
            continue  # (a bold run that goes on past the colon is a title, ``**arXiv:2612.03391 — …**``)
        word, rest, _ = found
        if _opens_paragraph(lines, i):
            opens.setdefault(word.lower(), []).append(i)
            rests[i] = rest
        else:
            inside.add(word.lower())
    openers = [(word, starts) for word, starts in opens.items() if len(starts) >= 2 and word not in inside]
    if len(openers) != 1:  # none, or two labels that both open paragraphs: no one opener
        return []
    word, starts = openers[0]
    ends = [
        _to_heading(lines, i + 1, starts[n + 1] if n + 1 < len(starts) else len(lines)) for n, i in enumerate(starts)
    ]
    # an opener that is no title field (``批号 Z-01``, ``检查号 QR-01``: a running code) is the item's label: a title
    # field in its paragraph gives the title
    titles = [
        rests[i] if lexicon().is_title_label(word) else next(filter(None, map(title_field, lines[i + 1 : e])), None)
        for i, e in zip(starts, ends, strict=True)
    ]
    # the openers name what their paragraphs are about (``Q: Refusal Drift showed up again …``), or their title
    # fields do (``名称：CaseLink-zh``); an interview about one paper asks questions that name nothing (``Q:
    # 读到哪儿了？``, ``Q: 代码呢？``)
    if sum(1 for i, t in zip(starts, titles, strict=True) if t or _names_something(rests[i])) < 2:
        return []
    spans = []
    for i, end, titled in zip(starts, ends, titles, strict=True):
        spans.append(_Span(titled or rests[i], i, end, "opener-field"))
    return spans


#: a name in Latin letters after the first word of a line (``… as "v2"``, ``Sluice 网关开销 —— CSDN 转载版``)
_LATER_NAME = re.compile(r"(?<=[\s\u3400-\u9fff])[A-Z][A-Za-z0-9]+")
#: a title set in book-title marks (``《一文读懂 vLLM 连续批处理》``)
_BOOK_TITLE = re.compile(r"《[^》\n]{2,}》")


def _names_something(text: str) -> bool:
    """Whether a line names a subject: a URL, an arXiv id, a quoted or book title, or a capitalised name
    after its first word (a question that names nothing, ``代码呢？``, does not)."""
    return bool(
        URL_RE.search(text)
        or arxiv_ids(text)
        or QUOTED_CLAIM.search(text)
        or _BOOK_TITLE.search(text)
        or _LATER_NAME.search(text.strip())
    )


def _sign_line_spans(lines: list[str]) -> list[_Span]:
    """Items opened by a mark of the note's own legend at the start of a line (a status board:
    ``✕  Halyard …``, ``◐  Sundial``), when two or more lines open so; each runs to the next such line,
    heading or lane (a line that is only a bracketed name, ``【跟进中】``)."""
    starts = [(i, m) for i, line in enumerate(lines) if (m := _SIGN_LINE.match(line))]
    if len(starts) < 2:
        return []
    # the marks are the note's own: its legend names them (a sign alone may be anyone's bullet)
    marks = _ev.parse_legend(lines, unlabelled=set(range(len(lines))))
    starts = [(i, m) for i, m in starts if m["sign"] in marks]
    if len(starts) < 2:
        return []
    spans = []
    for n, (i, m) in enumerate(starts):
        limit = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        end = next((j for j in range(i + 1, limit) if heading(lines[j]) or _LANE.match(lines[j])), limit)
        while end > i + 1 and not lines[end - 1].strip():
            end -= 1
        bold = _BOLD_LEAD.match(m["rest"])  # ``✅ **Finch 1.0** — release notes — URL``: the bold is the title
        spans.append(_Span(bold.group(1) if bold else sentence_head(m["rest"]), i, end, "sign-line"))
    return spans


#: a line of structure: a heading, a list item, a table row, a quote (prose has none). A line of tags
#: (``#3dv #工程``) is no heading: a heading's marks end at a space
_STRUCTURED_LINE = re.compile(r"^\s*(?:#{1,6}(?:\s|$)|[-*+•]\s|\d{1,3}[.)、]\s|\||>)")
#: a title quoted in prose: ``the post "Context Parallel Prefill in vLLM"``, ``《…》``, ``「…」``
_QUOTED_TITLE = re.compile(r"[\"“「《]([^\"”」》\n]{6,160})[\"”」》]")
#: what follows a quoted name of a part of the page, not its title (``读到 "Recipe" 那节为止``)
_PART_AFTER = re.compile(r"\s*(?:那|这)?\s*(?:节|章|部分|段)|\s+(?:section|chapter|part)\b", re.I)
#: a short run-in label opening a paragraph (``Worth your time.``, ``Skip.``, ``结论：``)
_RUN_IN_LABEL = re.compile(r"^([^.。:：!！?？\n]{1,24})[.。:：!！]\s+")
#: one word that is a name, not a label: an inner capital, a digit or a hyphen (``ExpertBits``, ``Qwen3``, ``llm-d``)
_NAME_WORD = re.compile(r"[A-Za-z][a-z]*(?:[A-Z0-9-][A-Za-z0-9-]*)+")


def _without_run_in_label(text: str) -> str:
    """A paragraph without the short label that opens it (``Worth your time.``, ``结论：``); a name before a colon
    opens the title (``ExpertBits: Sensitivity-Aware Bit Allocation …``)."""
    m = _RUN_IN_LABEL.match(text)
    return text if m is None or _NAME_WORD.fullmatch(m.group(1).strip()) else text[m.end() :]


def _quotes_a_title(text: str, quoted: re.Match[str]) -> bool:
    """Whether a quote in prose is a title: not the name of a part of the page (``"Recipe" 那节``), nor a claim
    that states a result (``"30× compression, visually lossless"``: a multiplier or a percent is a finding's)."""
    if _PART_AFTER.match(text, quoted.end()):
        return False
    return not any(t.kind == "quantity" and t.type in _RESULTS for t in scan(quoted.group(1)))


#: the quantities that state a result, never a title's words
_RESULTS = frozenset({"multiplier", "percent"})


#: a name set in bold in running text: a few words, no sentence (``**trajcheck**``, ``**Corvid-1**``)
_BOLD_NAME = re.compile(r"\*\*([^*\n.。!?！？]{2,60})\*\*")
#: how far into a paragraph's first line, and its first sentence, an arXiv id brings the paragraph's item
#: in (``OpenLoom-CC v2（arXiv:2611.05528）顺带复查了一下``; not ``它做了两件事。一是沿着 SessionGR（arXiv:…）``)
_BRINGS_IN = 80
#: a paragraph that opens with a quoted name (``「裁判漂移」这篇``, ``《…》``, ``"…"``)
_OPENING_NAME = re.compile(r"\s*(?:「[^」\n]{1,40}」|《[^》\n]{1,60}》|“[^”\n]{1,60}”|\"[^\"\n]{1,60}\")")
_SENTENCE_END = re.compile(r"[。！？!?]|\.\s")


def _prose_spans(lines: list[str], urls: _UrlLines) -> list[_Span]:
    """Prose items, where no other layout fits: in a note of paragraphs only (no heading but its title
    line, no list, table or quote), each paragraph that holds a URL or an arXiv id is an item, titled by the
    title its first two lines quote or else by its first sentence (after a short run-in label such as
    ``Worth your time.``). An arXiv id brings an item in from the paragraph's first sentence (``OpenLoom-CC
    v2（arXiv:2611.05528）顺带复查了一下``); one later in a paragraph is a reference of its text."""
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    titled = heading(lines[first]) is not None if lines else False  # ``# datasets 雷达 · 2/6``: the note's title
    if any(_STRUCTURED_LINE.match(line) for line in lines[first + 1 if titled else 0 :]):
        return []
    spans = []
    speakers = speaker_lines(lines)  # a chat's ``**mei**  09:12`` over a message: the message is what follows
    notes = _fn.footnotes(lines)
    # the definitions the note's text outside them cites (an uncited one stays prose)
    outside = "\n".join(line for k, line in enumerate(lines) if k not in _fn.definition_lines(notes))
    defined = _fn.definition_lines({note.label: note for note in _fn.cited(outside, notes)})
    for start, i in _paragraphs(lines, skip=first if titled else -1):
        if start in defined:
            continue  # a cited footnote's definition is a note on the text that cites it, no item of its own
        head = start + 1 if start in speakers and start + 1 < i else start
        # a paragraph opened by a quoted name (``「裁判漂移」这篇…``) is about it: an arXiv id anywhere brings it in
        named = _OPENING_NAME.match(lines[head]) is not None
        if (
            urls.any(start, i)
            or any(note.url for note in _fn.cited("\n".join(lines[start:i]), notes))
            or arxiv_ids(_SENTENCE_END.split(lines[head][:_BRINGS_IN], maxsplit=1)[0])
            or (named and arxiv_ids(" ".join(lines[head:i])))
        ):
            text = " ".join(lines[head:i])
            # a title is quoted where the paragraph brings the item in: the first sentence of its first two
            # lines (a quote later on is the text's: ``分数越"拿不准"的候选``)
            opening = _without_run_in_label(" ".join(lines[head : min(i, head + 2)]))
            if cut := _SENTENCE_END.search(opening):
                opening = opening[: cut.end()]
            quoted = next((q for q in _QUOTED_TITLE.finditer(opening) if _quotes_a_title(opening, q)), None)
            # or it sets the name it brings in in bold (``The one worth our time is **trajcheck** (…)``)
            bold = _BOLD_NAME.search(opening)
            title = quoted.group(1) if quoted else bold.group(1) if bold else _without_run_in_label(text)[:80]
            spans.append(_Span(title, start, i, "prose"))
    return spans


def _paragraphs(lines: list[str], skip: int = -1) -> list[tuple[int, int]]:
    """The runs of non-blank lines, as (first line, end), the line ``skip`` (a note's title) in none of them."""
    out: list[tuple[int, int]] = []
    start = None
    for i, line in enumerate([*lines, ""]):
        if i == skip:
            continue
        if line.strip() and start is None:
            start = i
        elif not line.strip() and start is not None:
            out.append((start, i))
            start = None
    return out


#: a line opened by a short label and its colon (``- paper: https://…``, ``- 读到哪：全文``)
_LABELLED_LINE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?([^\s:：*#|>][^:：*|\n]{0,15}?)(?:\*\*)?\s*[:：]")


def _form_fields(lines: list[str], sections: list[_Span]) -> frozenset[int]:
    """The labelled lines of headed sections that are forms: when a label recurs in two or more of the
    sibling sections (each item filled in with ``读到哪：``, ``paper:``), the sections are one form's copies,
    and every labelled line in them is a field of its item, not an item of its own. Labels are told by
    their siblings, not by a list of words."""
    if len(sections) < 2:
        return frozenset()
    at: list[int] = []  # the labelled lines of every section
    sections_with: Counter[str] = Counter()  # label → how many sections hold it
    for span in sections:
        labels: set[str] = set()
        for i in range(span.start + 1, span.end):
            if (m := _LABELLED_LINE.match(lines[i])) and "//" not in m.group(1):
                at.append(i)
                labels.add(m.group(1).strip().casefold())
        sections_with.update(labels)
    return frozenset(at) if any(n >= 2 for n in sections_with.values()) else frozenset()


def _spans_of(lines: list[str]) -> list[_Span]:
    """The best single structure of a block of lines: the one whose items carry the most URLs."""
    urls = _UrlLines(lines)
    tables = _table_spans(lines)[0]
    headed = _heading_spans(lines)
    # made only if a list is scored: most notes end the search at their headings
    fields = functools.cache(lambda: _form_fields(lines, headed))
    # each structure is made when it is scored, and dropped unless it is the best so far (a dump of
    # ten thousand lines gives ten thousand spans under several structures)
    candidates: list[Callable[[], list[_Span]]] = [
        lambda: _refine(lines, headed, urls, tables),
        lambda: [] if _nested_numbering(lines) else _list_spans(lines, _NUMBERED, "numbered", fields=fields()),
        lambda: _label_line_spans(lines),
        lambda: _spoken_paragraph_spans(lines),
        lambda: _opener_field_spans(lines),
        lambda: tables,
        lambda: _list_spans(lines, _TOP_BULLET, "bullet", with_url=urls, fields=fields()),
        lambda: _set_in_list(lines, urls),
        lambda: _task_spans(lines, headed),
        lambda: _sign_line_spans(lines),
        lambda: _todo_spans(lines),
        *(functools.partial(_exported, read, lines) for read in _EXPORTS),
        lambda: _tagged_paragraph_spans(lines),
        lambda: _session_spans(lines),
        lambda: _link_paragraph_spans(lines),
        lambda: _titled_url_spans(lines, urls),
        lambda: _segmented_spans(lines),
        lambda: _break_parts(lines, titled=True),
    ]
    # a structure's items never overlap, so no more of them hold a URL than there are URL lines
    return _best_structure(candidates, lambda spans: urls.count(spans) * 10 + min(len(spans), 9), urls.total() * 10 + 9)


#: a todo.txt line: done (``x``) or of a priority (``(A)``), its dates, then its words (``x 2027-07-20 读完 …``)
_TODO_LINE = re.compile(r"^(?P<mark>x\s+|\([A-Z]\)\s+)(?:\d{4}-\d{2}-\d{2}\s+){0,2}(?P<rest>\S.*)$")
#: what todo.txt writes into a line's words: a ``+project``, an ``@context``, a ``key:value`` (no URL's)
_TODO_TAGS = re.compile(r"(?<![\w+@.])(?:[+@][A-Za-z][^\s+@]*|[A-Za-z][\w-]*:(?!//)[^\s]+)")


#: the exports a note may paste, each read as a table's rows (``read.exports``)
_EXPORTS = (
    exports.bibtex,
    exports.records,
    exports.json_lines,
    exports.clippings,
    exports.code_records,
    exports.indexed_records,
    exports.tap_points,
    exports.gherkin_scenarios,
)


def _exported(read: Callable[[list[str]], list[exports.Entry]], lines: list[str]) -> list[_Span]:
    return [_Span(*entry) for entry in read(lines)]


def _todo_spans(lines: list[str]) -> list[_Span]:
    """A todo.txt list (``(A) 2027-07-20 Leaky Adapters … +fl @wen``, ``x 2027-07-20 … read:full``): each line a
    task, each task an item, when two lines or more open as todo.txt's do and two carry its tags. The tags and
    fields are no words of the title; they stay in the item's text (``read:full`` says how far it was read)."""
    found = [(i, m) for i, line in enumerate(lines) if (m := _TODO_LINE.match(line))]
    if len(found) < 2 or sum(1 for _, m in found if _TODO_TAGS.search(m["rest"])) < 2:
        return []
    spans = []
    for i, m in found:
        words = " ".join(URL_RE.sub(" ", _TODO_TAGS.sub(" ", m["rest"])).split())
        link = URL_RE.search(m["rest"])  # a task that is only a link is titled by it
        spans.append(_Span(sentence_head(words) or (link.group(0) if link else m["rest"]), i, i + 1, "todo"))
    return spans


#: a session's line that is the machine's, no words of the writer: a command, or a status code (``200``, ``HTTP/2 403``)
_MACHINE_LINE = re.compile(r"^\$\s|^\s*(?:HTTP/[\d.]+\s+)?\d{3}\s*$")


def _session_spans(lines: list[str]) -> list[_Span]:
    """A terminal session kept as a log (``$ curl … https://…`` over the status and the writer's comments): from
    its first command on, each paragraph is an item (a fetch, a pasted link, a headline noted), titled by the title
    its comments quote, else by its first line of words."""
    prompts = [i for i, line in enumerate(lines) if SHELL_PROMPT.match(line)]
    if len(prompts) < 2:
        return []
    spans = []
    for start, end in _paragraphs(lines):
        if end <= prompts[0]:
            continue  # the log's preamble
        body = lines[start:end]
        quoted = next((q for ln in body for q in _QUOTED_TITLE.finditer(ln) if _quotes_a_title(ln, q)), None)
        words = next(
            (ln.strip() for ln in body if not _MACHINE_LINE.match(ln) and not URL_RE.fullmatch(ln.strip())), ""
        )
        spans.append(_Span(quoted.group(1) if quoted else sentence_head(words) or body[0], start, end, "session"))
    return spans


#: a line of tags alone (``#new #全文 #D-1 #agent-rl``)
_TAG_LINE = re.compile(r"^\s*#[^\s#]+(?:\s+#[^\s#]+)*\s*$")


def _tagged_paragraph_spans(lines: list[str]) -> list[_Span]:
    """Memos, one paragraph each, closed by a line of tags (``TRACE-RL (arXiv:…) 全文读完…`` over ``#new #全文
    #D-1``): two or more such paragraphs are the note's items. A tag that says how far it was read (``#全文``,
    ``#title-only``) is the item's check, as a table's check cell is; its paragraph's words can only lower it."""
    spans = []
    for start, end in _paragraphs(lines):
        if end - start < 2 or not _TAG_LINE.match(lines[end - 1]):
            continue
        tags = [t.lstrip("#").replace("-", " ") for t in lines[end - 1].split()]
        check = next((t for t in tags if _ev.read_remark(t).words), None)
        spans.append(_Span(sentence_head(lines[start].strip()), start, end, "tagged", check))
    return spans if len(spans) >= 2 else []


#: a list's entry that is a task, done or not (``- [x] DriveLoom …``, ``- [ ] ping lan``)
_TASK = re.compile(r"^[-*+•]\s+\[[ xX~/-]\]\s+\S")


def _task_spans(lines: list[str], headed: list[_Span]) -> list[_Span]:
    """A checklist's entries, whether or not they hold a URL: two or more tasks at the margin of a note with no
    headings of its own (an inbox sweep of ``- [x] …`` one-liners) are its items, each a thing looked at."""
    if len(headed) > 1 or sum(1 for line in lines if _TASK.match(line)) < 2:
        return []
    return _list_spans(lines, _TOP_BULLET, "bullet")


def _best_structure(
    candidates: list[Callable[[], list[_Span]]], score: Callable[[list[_Span]], int], bound: int
) -> list[_Span]:
    """Equivalent to ``max(filter(None, (make() for make in candidates)), key=score, default=[])``.

    A structure that scores ``bound`` (the most any can) ends the search: a tie keeps the earlier, and the
    later ones are never made (a dump of ten thousand lines gives ten thousand spans under several)."""
    best: list[_Span] = []
    best_score = -1
    for make in candidates:
        if best_score >= bound:
            break
        spans = make()
        if spans and (found := score(spans)) > best_score:
            best, best_score = spans, found
    return best


def _several_with_url(candidate: list[_Span], inner: list[str], first: int, urls: _UrlLines) -> list[_Span] | None:
    """The items of ``candidate`` (counted from ``first``) that hold a URL, if they split the heading:
    several items with URLs; or, under a topic heading with no URL of its own, bold-numbered items
    (``**1. Title**``, ``1. **Title**``)."""
    with_url = [s for s in candidate if urls.any(first + s.start, first + s.end)]
    bold = [s for s in with_url if inner[s.start].lstrip().startswith("**") or s.title.startswith("**")]
    if len(with_url) >= 2 or (bold and not urls.any(first - 1, first)):
        return with_url
    return None


#: a field that points at its item: an arXiv id, or a repository as ``owner/name`` (``REPO: RUCKBReasoning/OmniSQL``)
_POINTER_FIELD = re.compile(
    r"^\s*[A-Za-z_\u4e00-\u9fff]{2,12}\s*[:：]\s*(?:(?:arxiv\s*[:：]?\s*)?\d{4}\.\d{4,5}(?!\d)|[\w.-]+/[\w.-]+\s*$)",
    re.I,
)


def _opening_fields(inner: list[str]) -> list[str]:
    """The field lines that open a section's text, up to its first line of another kind (blank lines between
    them skipped: an org drawer's bounds are blank lines once read)."""
    block: list[str] = []
    for line in inner:
        if not line.strip():
            continue
        if not FIELD_LINE.match(line):
            break
        block.append(line)
    return block


#: a Markdown image (``![full](https://img.shields.io/badge/read-full-brightgreen)``)
_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\s]+\)")
#: a list entry that opens with a link on its own name (``- [evcalib](https://github.com/…) — …``)
_LINKED_ENTRY = re.compile(r"^\s{0,3}[-*+]\s+\[[^\]\n]+\]\(https?://")


def _refine(lines: list[str], spans: list[_Span], urls: _UrlLines, tables: list[_Span]) -> list[_Span]:
    """A heading that holds a table or list of several items with URLs is split into those items.

    ``tables`` are the table rows of all ``lines``: those under a heading are the rows its lines alone
    give (a heading line is never a table row or rule, so no table runs into or out of a section).
    """
    out: list[_Span] = []
    starts = [t.start for t in tables]
    groups: set[int] = set()  # the levels of headings split into their items: group headings
    dropped: list[tuple[int, _Span]] = []  # (where in ``out``, heading) of headings that point at nothing
    day_levels = Counter(_heading_level(lines[span.start]) for span in spans if _DAY_HEADING.match(span.title))
    # headings whose text opens with an entry that links its own name (``- [evcalib](https://…) — …``), two or
    # more of them: topics of a list of links (an awesome list), each entry an item
    linked = {
        span.start
        for span in spans
        if _LINKED_ENTRY.match(next((ln for ln in lines[span.start + 1 : span.end] if ln.strip()), ""))
    }
    if len(linked) < 2:
        linked = set()
    # a log's days: two or more sibling headings that are days; their siblings are the log's other parts
    # (a stand-up's ``## Blockers`` beside ``## Yesterday`` and ``## Today``), each holding entries too
    log_level = next((level for level, n in day_levels.items() if n >= 2), None)
    for span in spans:
        first = span.start + 1  # the heading's own line is not inside it
        inner = lines[first : span.end]
        if log_level is not None and _heading_level(lines[span.start]) == log_level:
            out.extend(_day_items(span, inner, first))
            continue
        rows = tables[bisect.bisect_left(starts, first) : bisect.bisect_left(starts, span.end)]
        own_rows = [t.moved(-first) for t in rows]
        sub = _several_with_url(own_rows, inner, first, urls)
        if sub is None:  # the rows do not decide: the heading's numbered list (read only then)
            window = urls.window(first, span.end)
            listed = _list_spans(inner, _NUMBERED, "numbered", with_url=window)
            sub = _several_with_url(listed, inner, first, urls) or []
        if not sub and span.start in linked:  # a list of links under topic headings: its entries, even one alone
            sub = _list_spans(inner, _TOP_BULLET, "bullet", with_url=urls.window(first, span.end))
        own_url = urls.any(span.start, first + (sub[0].start if sub else 0))
        if sub and not own_url:
            out.extend(s.moved(first) for s in sub)
            groups.add(_heading_level(lines[span.start]))
        elif (
            own_url
            or urls.any(first, span.end)
            or re.match(r"^(?:\d{1,3}[.)、]|[①-⑳])", span.title)
            # a pointer of its own, if no URL: in its title (``## arXiv:2701.14652 — MegaFuse``) or on the line
            # that opens its text (``## Thermal-Aware Token Scheduling`` over ``arXiv:2702.11460``)
            or arxiv_ids(span.title)
            or _ID_LINE.match(next((ln for ln in inner if ln.strip()), "")) is not None
            # or in a field of the block of fields that opens its text (an org heading's drawer: ``ARXIV:
            # 2706.01129``, ``REPO: owner/name``)
            or any(_POINTER_FIELD.match(ln) for ln in _opening_fields(inner))
        ):
            out.append(span)
        else:
            dropped.append((len(out), span))
    return _sibling_groups(lines, out, dropped, groups) if groups and dropped else out


#: a heading that is a day of a log (``## 2月11日（周三）``, ``## 4 月 1 日（周三）``, ``## 1/25 周一``,
#: ``### 2027-01-14``, ``## Tue 10 Feb``, ``## Mon 03-08``), or one named relative to the writing
#: (``## Yesterday``, ``## 今天``; ``writing.toml [days]``)
_DAY_HEADING = re.compile(
    r"^(?:(?:\d{4}\s*[-/.年]\s*)?\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?|(?:周|星期)[一二三四五六日天]|"
    r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\.?\s+(?:\d{1,2}[-/.])?\d{1,2}\b|"
    rf"(?i:{'|'.join(re.escape(d) for d in lexicon().relative_days)}))(?=[\s（(,，·:：]|$)"
)


def _day_items(span: _Span, inner: list[str], first: int) -> list[_Span]:
    """A log's day (sibling headings that are dates) is no item: it holds the day's items, read by their own
    structure when it gives two or more; else the day's text is one item, titled by what it is about (its
    one item's title), not by its date."""
    found = _spans_of(inner) or _prose_spans(inner, _UrlLines(inner))
    if len(found) < 2:  # a day's list holds its entries, whether or not each has a URL (a stand-up's bullets)
        listed = _list_spans(inner, _NUMBERED, "numbered") or _list_spans(inner, _TOP_BULLET, "bullet")
        found = listed if len(listed) >= 2 else found
    if len(found) >= 2:
        return [s.moved(first) for s in found]
    if found:
        return [replace(span, title=found[0].title)]
    # no structure of its own: the day's first line says what it is about (``回看 Corvid-1 报告 §5 / §4 的评测``)
    opening = next((line.strip() for line in inner if line.strip() and not heading(line)), "")
    return [replace(span, title=sentence_head(opening))] if opening else [span]


def _heading_level(line: str) -> int:
    return h[0] if (h := heading(line)) else 0


def _sibling_groups(
    lines: list[str], out: list[_Span], dropped: list[tuple[int, _Span]], groups: set[int]
) -> list[_Span]:
    """Headings that point at nothing of their own but stand beside group headings (siblings of the same
    level split into their items: ``## 读完的`` over its papers) are groups too: their list entries are
    items (``## 只看了摘要的`` over ``- **Quiet Effort** …``), whether or not they hold a URL."""
    found: list[tuple[int, list[_Span]]] = []
    for at, span in dropped:
        if _heading_level(lines[span.start]) not in groups:
            continue
        first = span.start + 1
        inner = lines[first : span.end]
        entries = _list_spans(inner, _NUMBERED, "numbered") or _list_spans(inner, _TOP_BULLET, "bullet")
        found.append((at, [e.moved(first) for e in entries]))
    for at, entries in reversed(found):  # from the end, so each place in ``out`` still stands
        out[at:at] = entries
    return out


#: a line's quote markers, every level of them (``> > 1) QuietKV …``)
_QUOTE_MARKS = re.compile(r"^\s{0,3}(?:>[ \t]?)+")


def _answered_quotes(own: list[str], lines: list[str]) -> tuple[list[str], list[_Span]] | None:
    """A reply written between the lines it quotes (``On …, Mei wrote:``, ``> Fathom (2704.11207): …`` then
    the answer, ``> surge-emu card says …`` then the answer), when two or more quoted passages are each
    answered: one item per answer, titled by the first line of the passage it answers. ``own`` is the message
    as its writer wrote it when the note opens with a header (header and signature blank,
    :func:`e1prep.read.mail.message`), else the note's lines; the quoted lines are blanked in the items' text
    (they are the other writer's words), the line numbers stay."""
    quoted = [bool(_QUOTE_MARKS.match(line)) for line in lines]
    starts = [i for i in range(len(lines)) if quoted[i] and (i == 0 or not quoted[i - 1])]
    spans = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        answer = [j for j in range(start, end) if not quoted[j] and own[j].strip()]
        if answer:
            title = sentence_head(_QUOTE_MARKS.sub("", lines[start]).strip())
            spans.append(_Span(title, start, answer[-1] + 1, "answered"))
    if len(spans) < 2:
        return None
    return [("" if quoted[i] else own[i]) for i in range(len(lines))], spans


def _named_in(line: str, lines: list[str]) -> str | None:
    """What a passage that opens with ``line`` points at, named: the title its line quotes (``还有一篇《OmniVoice-ASR:
    …》``), else that line's first sentence when the passage holds a URL or an arXiv id; None when it points at
    nothing (``P.S. Reading group moves to Thursday``)."""
    quoted = next((m for m in _QUOTED_TITLE.finditer(line) if _quotes_a_title(line, m)), None)
    if quoted:
        return quoted.group(1)
    return sentence_head(line) if points_at(lines) else None


#: the longest line before a note's opening paragraph that is its byline, not its text (``xiaoyu · 2027-05-28``)
_BYLINE = 60


def _unquoted(lines: list[str], found: list[_Span]) -> tuple[list[str], list[_Span]] | None:
    """The note's lines without their quote markers, and its items so read, when the markers are its
    layout: read quoted, it shows fewer than two items; unquoted, two or more (cards set as blockquotes,
    the earlier messages of an e-mail thread). A quote among the writer's own items stays a quote."""
    if len(found) >= 2 or not any(_QUOTE_MARKS.match(line) for line in lines):
        return None
    bare = [_QUOTE_MARKS.sub("", line) for line in lines]
    spans = _spans_of(bare)
    return (bare, spans) if len(spans) >= 2 else None


#: the longest line read as a pasted sheet's header (``name,link,depth,note``)
_SHEET_HEADER_MAX = 160


#: a line that opens as a table's row or a list's entry: no spreadsheet's header
_SHEET_NOT_HEADER = re.compile(r"\s*(?:\||[-*+•]\s|\d{1,3}[.)]\s)")


def _sheet_rows(lines: list[str]) -> dict[int, list[str]]:
    """The cells of a pasted spreadsheet's lines, by line: a run of two or more lines that split (CSV quoting
    kept; tabs first) into the same number of cells, three or more, the first a header that names columns
    (:func:`_names_columns`). The lines stay as written (quotes are verbatim); only their cells are read."""
    rows: dict[int, list[str]] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        sep = "\t" if "\t" in line else "," if "," in line else None
        # a header is a short line of three or more cells: most lines with a comma are prose, read no further
        short = sep is not None and len(line) <= _SHEET_HEADER_MAX and line.count(sep) >= 2
        # (a list's entry is no header: ``- [ ] "Title" — title only, from a screenshot, no link``)
        header = _sheet_cells(line, sep) if short and not _SHEET_NOT_HEADER.match(line) else None
        if header is None or len(header) < 3 or not _names_columns(header):
            i += 1
            continue
        block = {i: header}
        end = i + 1
        while end < len(lines) and (row := _sheet_cells(lines[end], sep)) is not None and len(row) == len(header):
            block[end] = row
            end += 1
        if len(block) >= 2:
            rows.update(block)
        i = end
    return rows


def _sheet_cells(line: str, sep: str | None) -> list[str] | None:
    if not sep or sep not in line or not line.strip():
        return None
    if sep == "\t":
        return [c.strip() for c in line.split("\t")]
    try:
        return [c.strip() for c in next(csv.reader([line], skipinitialspace=True))]
    except csv.Error:
        return None


def _names_columns(header: list[str]) -> bool:
    """Whether a row is a table's header by what its cells mean: half of them or more name columns
    (``writing.toml [columns]``), one a title or a link (``name,link,depth,note``; ``item  type  link …``)."""
    meanings = [lexicon().column_meaning(h) for h in header]
    named = [m for m in meanings if m is not None]
    return 2 * len(named) >= len(header) and bool({"title", "url"} & set(named))


#: a rule or blank line before a footnote's definition (``_fn.DEFINITION``: ``[^1]: tried twice, both 403``)
_RULE_OR_BLANK = re.compile(r"^\s*(?:(?:[-*_]\s*){3,})?$")


def _without_footnotes(lines: list[str], spans: list[_Span]) -> list[_Span]:
    """The items without the footnote definitions that trail the last of them (``[^1]: …`` at the note's
    end): they are the note's notes on the items that cite them, not the last item's text."""
    if not spans or not any(_fn.DEFINITION.match(lines[i]) for i in range(spans[-1].start + 1, spans[-1].end)):
        return spans
    last = spans[-1]
    end = next(i for i in range(last.start + 1, last.end) if _fn.DEFINITION.match(lines[i]))
    while end > last.start + 1 and _RULE_OR_BLANK.match(lines[end - 1]):
        end -= 1
    last.end = end
    return spans


def _with_footnotes(text: str, span: _Span, notes: dict[str, _fn.Footnote]) -> str:
    """An item's text with the definitions of the footnotes it cites (``[^1]``) that stand outside it: the
    writer's note on where it is and how far it was read is the item's, wherever the note puts it."""
    outside = [note.text for note in _fn.cited(text, notes) if not span.start <= note.start < span.end]
    return "\n".join([text, *outside]) if outside else text


#: a thematic break (``---``, ``* * *``, ``___``, or a rule drawn in box-drawing characters ``━━━━``): the
#: writer's own line between two parts of the note
_THEMATIC_BREAK = re.compile(r"^\s{0,3}([-*_━─═])(?:[ \t]*\1){2,}[ \t]*$")


#: a title that is a field (``trust: low``, ``item: Ripple-2 (Inflect Labs)``): its value is short (a rating
#: beside a URL, not a name) or longer (the name the field gives)
_FIELD_TITLE = re.compile(rf"^{FIELD_WORD}\s*[:：]\s*(?P<value>\S.*)$")
#: how long a field's value may be and still be a rating
_RATING = 12


def _retitle_field_titles(lines: list[str], spans: list[_Span]) -> list[_Span]:
    """Items whose titles open with one field that recurs in their siblings: the field word is a label of
    the notes' own blocks. A short value is a rating beside a URL (``1. https://… trust: low``, ``2. https://…
    trust: high``): the title is the item's next line; a longer one is the name the field gives (``item:
    Ripple-2 (Inflect Labs)`` … ``item: ParaDiT parallel VAE decode``): the title is that value."""
    fields = [_FIELD_TITLE.match(_clean_title(s.title)) for s in spans]
    labels = Counter(m["word"].lower() for m in fields if m)
    if not labels or max(labels.values()) < 2:
        return spans
    out = []
    for span, m in zip(spans, fields, strict=True):
        if m and labels[m["word"].lower()] >= 2:
            value = m["value"].strip()
            if len(value) > _RATING or " " in value:
                span = replace(span, title=value)
            elif nxt := next((ln.strip() for ln in lines[span.start + 1 : span.end] if ln.strip()), None):
                span = replace(span, title=sentence_head(nxt))
        out.append(span)
    return out


def _message_digest(lines: list[str]) -> list[_Span]:
    """The messages of a note of pasted e-mails parted by thematic breaks (notifications, each with its
    ``From:`` / ``Subject:`` header and the reader's line under it): two or more parts that open with a
    message's header are one item each, titled by its subject; a part with no header (a preamble) is none."""
    breaks = [i for i, line in enumerate(lines) if _THEMATIC_BREAK.match(line)]
    if not breaks:
        return []
    bounds = [-1, *breaks, len(lines)]
    spans = []
    for a, b in pairwise(bounds):
        part = lines[a + 1 : b]
        found = message(part)
        if found is not None:
            spans.append(_Span(found[0], a + 1, b, "message"))
    return spans if len(spans) >= 2 else []


#: a rule drawn with ``=`` (``======``): under a line of text it underlines a title; under a blank line it parts
_EQUALS_RULE = re.compile(r"^\s{0,3}={3,}\s*$")


def _break_parts(lines: list[str], titled: bool = False) -> list[_Span]:
    """The parts of a note parted by thematic breaks (``* * *``, ``- - -``, a rule of ``=`` under a blank line), two
    or more of them with an address of their own (a URL, an arXiv id): each is an item, titled by its title field
    or its first line of substance (a fixed-width form's ``PAPER    FooRank: …`` by its value). A part with no
    address (a preamble, a sign-off) is none. Each part is a form's copy: its title stands on a title field (a
    tracker's ``Title        : …``) or, as a last resort (``titled`` false: nothing else structures the note), on
    a fixed-width form's line."""
    breaks = [
        i
        for i, line in enumerate(lines)
        if _THEMATIC_BREAK.match(line) or (_EQUALS_RULE.match(line) and (i == 0 or not lines[i - 1].strip()))
    ]
    if not breaks:
        return []
    spans = []
    for a, b in pairwise([-1, *breaks, len(lines)]):
        part = lines[a + 1 : b]
        addressed = any(URL_RE.search(line) or arxiv_ids(line) for line in part)
        if addressed and (found := title_under(part)) is not None:
            line = part[found[1]]
            if title_field(line) is None and (titled or form_value(line) is None):
                return []  # a part titled by a line of prose: the parts are no form's copies
            spans.append(_Span(found[0], a + 1 + found[1], b, "break-part"))
    return spans if len(spans) >= 2 else []


def _parted_by_breaks(lines: list[str], spans: list[_Span]) -> list[_Span]:
    """The items, where the writer parts the note by thematic breaks: an item that runs over a break into
    a part where no item of its own starts, and that points at something of its own (a URL, an arXiv id, a
    quoted title), ends at that break, and the part is an item, titled by its first line (a phone note:
    ``SALT …`` ⏎ ``---`` ⏎ ``顺手: RotKV (2611.04872) 出了v2``). A part with no pointer (a sign-off, ``晚上再说``)
    stays the text of the item before it."""
    breaks = [i for i, line in enumerate(lines) if _THEMATIC_BREAK.match(line)]
    if not breaks or not spans:
        return spans
    starts = {span.start for span in spans}
    out: list[_Span] = []
    for span in spans:
        current = span
        inner = [b for b in breaks if span.start < b < span.end]
        for b, e in ((b, next((c for c in inner if c > b), span.end)) for b in inner):
            if any(b < s < e for s in starts) or not _points_at_something(lines[b + 1 : e]):
                continue
            out.append(replace(current, end=b))
            first = next(i for i in range(b + 1, e) if lines[i].strip())
            current = _Span(_TITLE_MARKS.sub("", lines[first]).strip(), first, span.end, "break-part")
        out.append(current)
    return out


#: a reference back to an entry of a list by its number (``(2) I only looked at card 5291``, ``Helix post (1): …``)
_BY_NUMBER = re.compile(r"(?<![\w(])\((\d{1,2})\)(?![\w)])")
#: how many lines of substance open an answer (a comment's header, then its first line)
_ANSWER_OPENING = 2


def _one_source(lines: list[str], spans: list[_Span]) -> list[_Span]:
    """The note's one item, when the note is about one source: its opening paragraph is a block of fields that
    gives the source's title and link (``**标题**：CASID: …`` beside ``**链接**：https://…`` or an arXiv id), and no
    other line of the note gives a title. The parts under it (``**摘抄 1**`` / ``感想：``) are that source's."""
    if len(spans) < 2:
        return spans
    titled = [i for i, line in enumerate(lines) if title_field(line) is not None]
    if len(titled) != 1:
        return spans
    at = titled[0]
    start = at
    while start > 0 and lines[start - 1].strip():
        start -= 1
    end = at
    while end < len(lines) and lines[end].strip():
        end += 1
    block = [line for line in lines[start:end] if line.strip()]
    # the opening paragraph: nothing but headings and a byline before it, no item starts before it
    opening = all(not ln.strip() or heading(ln) or len(ln) < _BYLINE for ln in lines[:start])
    if not opening or spans[0].start < start or sum(map(is_field, block)) < 2 or not points_at(block):
        return spans
    title = title_field(lines[at]) or ""
    return [_Span(title, min(start, spans[0].start), max(s.end for s in spans), "one-source")]


#: a list's entry, bulleted or numbered
_LIST_ENTRY = re.compile(r"\s*(?:[-*+•]|\d{1,3}[.)])\s")


def _one_thread(lines: list[str], spans: list[_Span]) -> list[_Span]:
    """The note's one item, when it holds a copied issue or discussion thread (three posts or more: ``**ericsun**
    commented on May 30, 2027``) that points, before its posts, at one thing only (the issue's URL): the thread is
    about its issue, and the writer's summary over it too. Its posts, and the parts of its opening post
    (``**Describe the bug**``), are no items; the item is titled by the note's title heading, else by the first
    item's title."""
    if len(spans) < 2 or not (posts := thread_posts(lines)):
        return spans
    # a thread that opens with a list of things, each with its link (a triage thread), is about each of them; links
    # in the writer's prose above it (the thread's own, its release notes) are about the one thing
    if len({u for line in lines[: posts[0]] if _LIST_ENTRY.match(line) for u in URL_RE.findall(line)}) > 1:
        return spans
    title = next((h[1] for line in lines if (h := heading(line)) is not None and h[0] == 1), None)
    if title is None:  # else the thread's own title, the heading right above its first post (``## #217 v0.4: …``)
        title = next((h[1] for line in reversed(lines[: posts[0]]) if (h := heading(line)) is not None), None)
    first = next((i for i, line in enumerate(lines) if line.strip() and not heading(line)), spans[0].start)
    return [_Span(title or spans[0].title, min(first, spans[0].start), len(lines), "thread")]


def _answers_by_number(lines: list[str], spans: list[_Span]) -> tuple[list[_Span], dict[int, tuple[str, ...]]]:
    """Parts that answer a numbered list's entries by their numbers (a triage thread's comments under the
    opener's ``1. https://…`` … ``4. https://…``: ``(2) I only looked at card 5291…``, ``Helix post (1): read it
    end to end``), each with no URL of its own: the answer is the entry's item, titled by it and pointing where
    it points (its URLs, by index of the answer among the spans returned), and the entry that it answers is no
    item of its own. Unanswered entries stay as they are."""
    listed: dict[int, int] = {}  # the first list's entries: number → index (a later list numbers its answers)
    for i, span in enumerate(spans):
        n = _ev.item_number("\n".join(lines[span.start : span.end])) if span.recogniser == "numbered" else None
        if n is None or n in listed:
            if listed:
                break
            continue
        listed[n] = i
    if len(listed) < 2:
        return spans, {}
    last = max(spans[i].end for i in listed.values())
    answers: dict[int, int] = {}  # the answer's index → the entry's
    for i, span in enumerate(spans):
        if span.start < last:
            continue
        text = lines[span.start : span.end]
        opening = [line for line in text if line.strip()][:_ANSWER_OPENING]
        refs = {int(m.group(1)) for line in opening for m in _BY_NUMBER.finditer(line)}
        if len(refs) == 1 and (ref := refs.pop()) in listed and not any(URL_RE.search(line) for line in text):
            answers[i] = listed[ref]
    if not answers:
        return spans, {}
    answered = set(answers.values())
    out: list[_Span] = []
    cited: dict[int, tuple[str, ...]] = {}
    for i, span in enumerate(spans):
        if i in answered:
            continue
        if i in answers:
            entry = spans[answers[i]]
            urls = URL_RE.findall("\n".join(lines[entry.start : entry.end]))
            cited[len(out)] = tuple(u.rstrip(".,;:)") for u in urls)
            span = replace(span, title=entry.title)
        out.append(span)
    return out, cited


#: what makes a part of a note an item of its own: a URL, an arXiv id, or a quoted title
_POINTER = re.compile(rf"https?://|(?<![\d.])\d{{4}}\.\d{{4,5}}(?![\d])|{QUOTED_CLAIM.pattern}|《[^》\n]{{2,}}》")


def _points_at_something(part: list[str]) -> bool:
    return any(_POINTER.search(line) for line in part)


def split_note(material: str, body: str, first_line: int = 1) -> list[NoteItem]:
    """Items of a note: headings, numbered lists, table rows or bullets with a URL, whichever fits."""
    lines = to_markdown(body.split("\n"))
    digest = _message_digest(lines)
    # (parts between thematic breaks, when nothing else structures the note: ``* * *`` over ``PAPER    FooRank: …``)
    best = digest or _spans_of(lines) or _break_parts(lines)
    mail = None if digest else message(lines)
    own = [ln for ln in mail[1] if not _QUOTE_MARKS.match(ln)] if mail else []
    unquoted = _unquoted(lines, best)
    answered = _answered_quotes(mail[1] if mail else lines, lines) if len(best) < 2 and replies(lines) else None
    if answered is not None:
        # a reply that answers the quoted message point by point: each answer is an item, named by its question
        lines, best = answered
    elif mail is not None and _UrlLines(lines).count(best) < 2 and (points_at(own) or not (best or unquoted)):
        # a pasted e-mail that is no digest (fewer than two of its items hold a URL) and points at what it
        # is about in its own words (not only in the thread it quotes), or holds no items, quoted or not: one
        # message, about what its subject says, read as its writer wrote it (``read.mail``)
        subject, lines = mail
        filled = [i for i, line in enumerate(lines) if line.strip()]
        best = [_Span(subject, filled[0], filled[-1] + 1, "message")] if filled else []
        ps = postscript(lines)
        if best and ps is not None and filled[0] < ps[0] and (named := _named_in(ps[1], lines[ps[0] : best[0].end])):
            # its afterthought (``P.S. 还有一篇《…》，我只看到标题``) is about something else: an item of its own
            best = [replace(best[0], end=ps[0]), _Span(named, ps[0], best[0].end, "postscript")]
    elif unquoted is not None:
        lines, best = unquoted
    best = best or _prose_spans(lines, _UrlLines(lines))  # prose only where nothing else fits
    best = _without_footnotes(lines, best)
    notes = _fn.footnotes(lines)
    best = _outline_blocks(lines, best)
    best = _parted_by_breaks(lines, best)
    best = _retitle_field_titles(lines, best)
    best = _one_source(lines, best)
    best = _one_thread(lines, best)
    if not best and body.strip():
        title = next((ln for ln in lines if ln.strip()), "")
        best = [_Span(title.lstrip("# "), 0, len(lines), "whole-note")]
    best, index = _reading_index(lines, best)
    best, answering = _answers_by_number(lines, best)
    item_labels = _retitle_labelled(lines, best)
    groups = [""] * len(best) if digest else _groups(lines, best)  # a message's headings are its own text
    inside = {i for span in best for i in range(span.start, span.end)}
    texts = [_with_footnotes("\n".join(lines[span.start : span.end]).strip("\n"), span, notes) for span in best]
    numbers = [_ev.item_number(t) or n for n, t in enumerate(texts, start=1)]
    outside = [i for i in range(len(lines)) if i not in inside]
    ctx = _ev.note_context(lines, outside, numbers)
    if mail is not None or answered is not None or index:
        # a message says outside its parts what was read of each, by name (``What I actually read:``), and so does
        # a note's own reading index
        titles = {k: span.title for k, span in enumerate(best, start=1)}
        ctx.named = _ev.named_statements(index or [lines[i] for i in outside], titles)
    references = _references(lines)
    legend_at = sorted(ctx.legend_lines)  # a span holds one when an index falls inside it
    items: list[NoteItem] = []
    seen: dict[tuple[str, str | None, str], NoteItem] = {}
    best.reverse()  # taken from the end as the items are made: a span's words are let go once read
    for n, text in enumerate(texts, start=1):
        span = best.pop()
        same = (text, span.check, span.recogniser)  # exactly the same words: line breaks matter to the reader
        first = seen.get(same)
        if (
            first is not None
            and ctx.ranges.get(numbers[n - 1]) == ctx.ranges.get(numbers[first.index - 1])
            and ctx.named.get(n) == ctx.named.get(first.index)
        ):
            # the same words, read in the same context, read the same: the first reading is reused
            items.append(
                _reread(
                    first,
                    n,
                    _clean_title(span.title),
                    first_line + span.start,
                    first_line + span.end - 1,
                    label=item_labels[n - 1],
                    group=groups[n - 1],
                )
            )
            continue
        items.append(
            make_item(
                material,
                n,
                _clean_title(span.title),
                text,
                first_line + span.start,
                first_line + span.end - 1,
                ctx=ctx,
                number=numbers[n - 1],
                recogniser=span.recogniser,
                check_cell=span.check,
                cells=span.cells,
                legend_free=_none_within(legend_at, span.start, span.end),
                label=item_labels[n - 1],
                group=groups[n - 1],
                cited=_cited(text, references) + answering.get(n - 1, ()),
            )
        )
        seen.setdefault(same, items[-1])
    return items


#: an outliner's property line under a block (Logseq's ``type:: paper``, ``source:: https://…``)
_PROPERTY = re.compile(r"^\s+[A-Za-z][\w-]{0,30}::\s")
#: a bullet indented under another: its indentation and the rest
_CHILD_BULLET = re.compile(r"^(?P<indent>[ \t]+)[-*+]\s+\S")
_BULLET_MARK = re.compile(r"^[ \t]*[-*+]\s+")


def _outline_blocks(lines: list[str], spans: list[_Span]) -> list[_Span]:
    """An outliner's bullet whose child blocks carry properties of their own (``- [[SeaCrawl-2]]`` over
    ``type:: paper`` / ``source:: …``), two or more of them, is a group (``- 09:05 晨间扫 HF daily papers``): its
    blocks are the items, each with the blocks under it."""
    out: list[_Span] = []
    for span in spans:
        kids = [] if span.recogniser != "bullet" else _property_children(lines, span.start + 1, span.end)
        if len(kids) < 2:
            out.append(span)
            continue
        for n, i in enumerate(kids):
            end = kids[n + 1] if n + 1 < len(kids) else span.end
            out.append(_Span(_BULLET_MARK.sub("", lines[i]).strip(), i, end, "outline"))
    return out


def _property_children(lines: list[str], start: int, end: int) -> list[int]:
    """The lines of the outermost bullets in ``start:end`` when two or more of them carry properties right under
    them (before any deeper bullet); else none."""
    kids = [(i, len(m["indent"].expandtabs(4))) for i in range(start, end) if (m := _CHILD_BULLET.match(lines[i]))]
    if not kids:
        return []
    outer = min(width for _, width in kids)
    firsts = [i for i, width in kids if width == outer]
    bounds = [*firsts[1:], end]
    with_properties = 0
    for i, stop in zip(firsts, bounds, strict=True):
        block = lines[i + 1 : stop]
        upto = next((k for k, line in enumerate(block) if _CHILD_BULLET.match(line)), len(block))
        with_properties += any(_PROPERTY.match(line) for line in block[:upto])
    return firsts if with_properties >= 2 else []


#: a reference's definition: its label alone on a line, its URL on the next line, or both on one line
_REFERENCE_LINE = re.compile(r"^\s*\[(\^?\w{1,4})\]:?\s*(?P<url>\S*)\s*$")


def _references(lines: list[str]) -> dict[str, str]:
    """The note's references: label → URL (``[1]`` over ``https://…``, or ``[1]: https://…``)."""
    refs: dict[str, str] = {}
    for i, line in enumerate(lines):
        if "[" not in line or (m := _REFERENCE_LINE.match(line)) is None:
            continue
        url = m["url"] or next((ln.strip() for ln in lines[i + 1 : i + 3] if ln.strip()), "")
        if _BARE_URL_LINE.match(url):
            refs.setdefault(m.group(1), url.strip("<> "))
    return refs


def _cited(text: str, references: dict[str, str]) -> tuple[str, ...]:
    """The URLs of the references ``text`` cites (``… launch post [1]``), unless it holds URLs of its own."""
    if not references or "[" not in text or URL_RE.search(text):
        return ()
    return tuple(dict.fromkeys(references[m] for m in _CITATION.findall(text) if m in references))


#: a citation of a reference in running text (``[1]``, ``[^2]``), not a link's text
_CITATION = re.compile(r"\[(\^?\w{1,4})\](?!\(|:)")


def _reread(
    first: NoteItem, index: int, title: str, line_start: int, line_end: int, *, label: str | None, group: str
) -> NoteItem:
    """Equivalent to ``make_item`` of ``first``'s text and context at ``index`` (a duplicate of ``first``)."""
    return replace(
        first,
        index=index,
        title=title,
        line_start=line_start,
        line_end=line_end,
        duplicate_of=first.index,
        label=label,
        group=group,
    )


def _groups(lines: list[str], spans: list[_Span]) -> list[str]:
    """For each item, the headings above it that enclose it, outermost first, above the item's own
    heading: how the note files it (a topic section of its own). One pass, a stack of at most six."""
    heads = [(i, h) for i, line in enumerate(lines) if (h := heading(line))]
    stack: list[tuple[int, str]] = []
    at = 0
    out = []
    for span in spans:  # in the order of the note
        while at < len(heads) and heads[at][0] < span.start:
            level, text = heads[at][1]
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, text))
            at += 1
        own = heading(lines[span.start])
        limit = own[0] if own else 7
        out.append(" / ".join(text for level, text in stack if level < limit))
    return out


def _retitle_labelled(lines: list[str], spans: list[_Span]) -> list[str | None]:
    """Give each labelled item (``## B-03`` over ``Title: …``) the title under its label; its labels.

    A table row's title is its title column, never a label. A long label prefix (``Item 3``, ``Paper 2``)
    is believed only where a title field stands under it: a short prefix or a sign alone is a label
    whatever follows.
    """
    found: list[str | None] = [None] * len(spans)
    headed = [n for n, s in enumerate(spans) if s.recogniser != "table"]
    states = declared_states("\n".join(lines))
    titles = [spans[k].title for k in headed]
    fielded = labelled_by_field(titles, [lines[spans[k].start + 1 : spans[k].end] for k in headed])
    for n, label, by_field in zip(headed, labelled(titles, states), fielded, strict=True):
        label = label or by_field
        if label is None:
            continue
        span = spans[n]
        if label.rest:  # the title follows the label on its line (``线索 1：Milvus …``, ``A1  ColFuse``)
            span.title = label.rest
            found[n] = label.text
            continue
        under = title_under(lines[span.start + 1 : span.end])
        if under is None or (len(label.shape) > 4 and title_field(lines[span.start + 1 + under[1]]) is None):
            continue
        span.title = under[0]
        found[n] = label.text
    return found


def _reading_index(lines: list[str], spans: list[_Span]) -> tuple[list[_Span], list[str]]:
    """The note's items less the part that says how far each of the others was read, naming them (a Google Doc's
    ``0 · How far I read`` over ``0.1 Plasticity Budgets — full text …``), and that part's lines: no item, but what
    the note says of the items it names. A part with a URL, or with fewer than two such lines about two items, is
    an item as it was."""
    if len(spans) < 3:
        return spans, []
    titles = {n: s.title for n, s in enumerate(spans)}  # made once: a part names the others, never itself
    for k, span in enumerate(spans):
        own = lines[span.start + 1 : span.end]
        if any("://" in line and URL_RE.search(line) for line in own):
            continue
        said = _ev.named_statements(own, titles, exclude=k)
        if len(said) >= 2:
            return spans[:k] + spans[k + 1 :], own
    return spans, []


def _none_within(indices: list[int], start: int, end: int) -> bool:
    """Whether no index of the sorted ``indices`` lies in ``start:end``."""
    at = bisect.bisect_left(indices, start)
    return at == len(indices) or indices[at] >= end


def note_items(material: Material) -> list[NoteItem]:
    """The material's items, split once per run and cached on the material."""
    if material.items_cache is None:
        material.items_cache = split_note(material.path, material.body, material.body_line)
    return material.items_cache


def make_item(
    material: str,
    index: int,
    title: str,
    text: str,
    line_start: int,
    line_end: int,
    *,
    ctx: _ev.NoteContext | None = None,
    number: int | None = None,
    recogniser: str = "heading",
    check_cell: str | None = None,
    cells: tuple[str, ...] = (),
    legend_free: bool = False,
    label: str | None = None,
    group: str = "",
    cited: tuple[str, ...] = (),
) -> NoteItem:
    """One item and what the rules read from it (``legend_free``: see :func:`read_evidence`; ``cited``: the
    URLs of the note's references the item cites, ``[1]``). In a pasted chat only the writer's own messages
    say how far the writer read (``read.chat``)."""
    # a JSON object's words are its values (``NoteItem.said``)
    said = exports.json_values(text) if recogniser == "jsonl" else text
    reading = read_evidence(
        own_words(said, writer_of(material)), ctx, number, check_cell, legend_free=legend_free, position=index
    )
    # an image's address (a badge, ``![full](https://img.shields.io/…)``) shows something; it points at nothing
    linked = _IMAGE.sub("", text) if "![" in text else text
    urls = list(dict.fromkeys([*(u.rstrip(".,;:)") for u in URL_RE.findall(linked)), *cited]))
    if not urls and "/" in text:  # an address written without its scheme, as written (``github.com/acme/router``)
        urls = [m.group(0).rstrip(".,;:") for m in _BARE_ADDRESS.finditer(text)]
    if ctx is not None and ctx.legend:
        title = _without_legend_code(title, ctx.legend)
    return NoteItem(
        material=material,
        index=index,
        title=title,
        text=text,
        line_start=line_start,
        line_end=line_end,
        urls=urls,
        evidence=reading.level,
        remark=reading.remark,
        access_blocked=reading.blocked,
        date=item_date(text),
        arxiv=tuple(arxiv_ids(text)),
        reading=reading,
        legend=ctx.legend_words if ctx else {},
        recogniser=recogniser,
        check_cell=check_cell,
        cells=cells,
        label=label,
        group=group,
    )


def _without_legend_code(title: str, legend: Mapping[str, object]) -> str:
    """``title`` less a code of the note's legend that closes it after a dash or a dot (``MP v2027.09.1 release notes —
    COMPLETED``): the code says how far it was read, no word of the name."""
    for code in legend:
        if code[:1].isalpha() and len(code) > 1 and title.endswith(code):
            head = title[: -len(code)].rstrip()
            if head.endswith(("—", "–", "·", " -")) and head.rstrip(" —–·-"):
                return head.rstrip(" —–·-")
    return title


_NAME_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_./][A-Za-z0-9]+)*")
_STOP = {
    "the",
    "and",
    "for",
    "with",
    "from",
    "via",
    "of",
    "on",
    "in",
    "to",
    "a",
    "an",
    "new",
    "open",
    "source",
    "vs",
    "url",
    "blog",
    "note",
    "pdf",
    "readme",
    "docs",
    "github",
    "arxiv",
    "https",
    "http",
    "www",
}


def item_names(item: NoteItem) -> list[str]:
    """Names to search for in the living document: the title's lead name, bold/code names, repo names."""
    names: list[str] = []
    bold = re.findall(r"\*\*([^*]{2,60})\*\*|`([^`]{2,40})`", item.text.split("\n")[0])
    for a, b in bold:
        names.append((a or b).strip())
    lead = _lead_name(item.title)
    if lead:
        names.append(lead)
    for url in item.urls:
        repo = github_repo(url)
        if repo:
            names.append(f"{repo[0]}/{repo[1]}")
            names.append(repo[1])
    out: list[str] = []
    for name in names:
        name = re.split(r"[（(【\[]", name)[0].strip(" ：:()（）")
        if len(name) >= 2 and name.lower() not in _STOP and name not in out:
            out.append(name)
    return out


def _lead_name(title: str) -> str | None:
    """The first Latin-script name in a title: ``'DeepSeek DeepInfer 开源推理栈'`` → ``'DeepSeek DeepInfer'``."""
    tokens: list[tuple[str, int]] = []
    for m in _NAME_TOKEN.finditer(title):
        word = m.group(0)
        if word.lower() in _STOP and not tokens:
            continue
        gap = title[tokens[-1][1] : m.start()] if tokens else ""
        if tokens and gap.strip() not in ("",):
            break
        tokens.append((word, m.end()))
        if len(tokens) == 3:
            break
    if not tokens:
        cjk = re.match(r"\s*([^\s，。：:、（(—-]{2,12})", title)
        return cjk.group(1) if cjk else None
    return " ".join(t[0] for t in tokens)
