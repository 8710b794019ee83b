"""The note structures and note context as ``e1prep.read.notes`` and ``e1prep.read.evidence`` read them before the split
stage was made faster: the oracle ``test_reader_equivalence`` compares the faster readers with. Not collected."""

# ruff: noqa
from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass

from e1prep.text.lexicon import lexicon
from e1prep.read import notes as _new
from e1prep.read.notes import URL_RE, _HEADING, _NUMBERED, _TABLE_ROW, _TABLE_SEP, _TOP_BULLET, _LINK_TITLE


@dataclass(slots=True)
class _Span:
    title: str
    start: int  # 0-based line index
    end: int  # exclusive
    recogniser: str = "heading"
    check: str | None = None  # a table row's check cell
    cells: tuple[str, ...] = ()  # a table row's other cells (not title, URL, number, check)


_BR = re.compile(r"<br\s*/?>")
_CELL_PIPE = re.compile(r"(?<!\\)\|")
_NUMBER_CELL = re.compile(r"[#\d\s.]+")


def _cells(row: str) -> list[str]:
    """A table row's cells: split on unescaped pipes, ``<br>`` read as a line break."""
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [_BR.sub(" ", c).replace("\\|", "|").strip() for c in _CELL_PIPE.split(inner)]


def _table_spans(lines: list[str]) -> tuple[list[_Span], list[list[str]]]:
    """One item per table row; columns are read by what their header cells mean, in any order."""
    spans: list[_Span] = []
    rows: list[list[str]] = []
    header: list[str] | None = None
    meanings: list[str | None] = []  # what each header cell names, read once per table
    for i, line in enumerate(lines):
        m = _TABLE_ROW.match(line)
        if not m:
            header, meanings = None, []
            continue
        if _TABLE_SEP.match(line):
            continue
        cells = _cells(line)
        if header is None and i + 1 < len(lines) and _TABLE_SEP.match(lines[i + 1]):
            header = cells
            meanings = [lexicon().column_meaning(h) for h in header]
            continue
        title_col = meanings.index("title") if "title" in meanings else _title_column(header or [], cells)
        check_col = meanings.index("check") if "check" in meanings else None
        title = cells[title_col] if title_col < len(cells) else cells[0]
        check = cells[check_col] if check_col is not None and check_col < len(cells) else None
        other = tuple(
            c
            for n, c in enumerate(cells)
            if n not in (title_col, check_col) and c and not URL_RE.fullmatch(c) and not _NUMBER_CELL.fullmatch(c)
        )
        spans.append(_Span(title, i, i + 1, "table", check, other))
        rows.append(cells)
    # what issue 23 added (a field table lists one item's fields): the new reader's own function
    return _new._without_field_tables(spans, rows)  # type: ignore[arg-type]


def _title_column(header: list[str], cells: list[str]) -> int:
    for n, cell in enumerate(cells):
        if cell and not _NUMBER_CELL.fullmatch(cell) and not URL_RE.fullmatch(cell) and len(cell) > 3:
            return n
    return 0


def _heading_spans(lines: list[str]) -> list[_Span]:
    heads = [(i, len(m.group(1)), m.group(2)) for i, line in enumerate(lines) if (m := _HEADING.match(line))]
    numbered = [h for h in heads if re.match(r"^(?:\d{1,3}[.)、]|[①-⑳]|条目|增量|Item\s*\d)", h[2])]
    chosen = numbered if len(numbered) >= 1 else [h for h in heads if h[1] >= 2]
    if not chosen:
        return []
    level = min(h[1] for h in chosen)
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
        spans.append(_Span(title, i, end))
    return spans


_FIELD_LINE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?([^\s:：*]{1,12})(?:\*\*)?\s*[:：]")


def _is_field_line(text: str) -> bool:
    """A line that is one field of an item (``链接：…``, ``URL: …``, ``arXiv:…``), never an item itself."""
    if ":" not in text and "：" not in text:
        return False
    m = _FIELD_LINE.match(text)
    return bool(m and lexicon().is_label(m.group(1)))


class _UrlLines:
    """Which lines hold a URL, and whether a run of lines does, in O(1) (a URL never spans a line break)."""

    def __init__(self, lines: list[str]) -> None:
        self.before = [0]
        for line in lines:
            self.before.append(self.before[-1] + (1 if "://" in line and URL_RE.search(line) else 0))
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


def _list_spans(lines: list[str], rx: re.Pattern[str], name: str, with_url: _UrlLines | None = None) -> list[_Span]:
    """One item per line ``rx`` matches; given ``with_url`` (the lines' URL counts), only items holding a URL."""
    starts = [
        (i, m.group(m.lastindex or 1))
        for i, line in enumerate(lines)
        if (m := rx.match(line)) and not _is_field_line(line)
    ]
    spans = []
    for n, (i, title) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        # an item ends at the next top-level line that is neither indented nor blank
        for j in range(i + 1, end):
            if lines[j][:1] == "#" and not rx.match(lines[j]) and _HEADING.match(lines[j]):
                end = j
                break
        if with_url is not None and not with_url.any(i, end):
            continue
        spans.append(_Span(title, i, end, name))
    return spans


_BARE_URL_LINE = re.compile(
    r"^\s*(?:[-*+:：]\s*)?(?:(?:URL|链接|Link)\s*[:：]\s*)?<?https?://\S+>?\s*$", re.I
)  # ``: https://…`` is a definition list's value line


def _titled_url_spans(lines: list[str], urls: _UrlLines) -> list[_Span]:
    """Items written as a title line (any leading mark: ``>>``, ``▶``, ``■``…) with a bare URL line under it
    (``urls``: which lines hold a URL, counted once for every structure)."""
    starts: list[tuple[int, str]] = []
    bare = [("://" in line and _BARE_URL_LINE.match(line) is not None) for line in lines]
    for i, line in enumerate(lines):
        if not line.strip() or bare[i] or urls.any(i, i + 1):
            continue
        nxt = next((j for j in range(i + 1, min(i + 3, len(lines))) if lines[j].strip()), None)
        if nxt is not None and bare[nxt] and len(line.strip()) <= 160:
            title = re.sub(r"^[\s>»▶►■□◆◇•·→※#*+-]+", "", line).strip()
            if title:
                starts.append((i, title))
    spans = []
    for n, (i, title) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        # a heading between two items (a section of a digest) ends the item before it
        end = next((j for j in range(i + 1, end) if lines[j][:1] == "#" and _HEADING.match(lines[j])), end)
        spans.append(_Span(title, i, end, "titled-url"))
    return spans


_BOLD_TITLE = re.compile(r"^\*\*([^*\n]{2,200})\*\*$")
#: a paragraph titled in lenticular brackets: ``【Title】 text …``
_LENTICULAR = re.compile(r"^【([^】\n]{2,200})】")
#: a line cut into fields by long dashes (``状态 —— 标题 —— 链接 —— 备注``)
_SEGMENTS = re.compile(r"\s+(?:——|—|–|--)\s+")


def _segmented_spans(lines: list[str]) -> list[_Span]:
    """One item per line made of dash-separated fields with a URL; its title is the field before the URL
    (the other fields are its check and notes, read as its text)."""
    spans = []
    for i, line in enumerate(lines):
        if "://" not in line or not ("—" in line or "–" in line or "--" in line):
            continue  # no URL field or no dash separator: not this layout
        parts = _SEGMENTS.split(line.strip())
        url_at = next((k for k, p in enumerate(parts) if URL_RE.fullmatch(p.strip())), None)
        if len(parts) >= 3 and url_at is not None and url_at > 0:
            spans.append(_Span(parts[url_at - 1], i, i + 1, "segmented"))
    return spans


def _link_paragraph_spans(lines: list[str]) -> list[_Span]:
    """Prose items: a paragraph that opens with a Markdown link (or a title line set in bold) is an item
    titled by that text; a link inside a paragraph is not a new item."""
    starts = []
    for i, line in enumerate(lines):
        if i > 0 and lines[i - 1].strip():
            continue  # not a paragraph's first line
        m = _LINK_TITLE.match(line.strip()) or _BOLD_TITLE.match(line.strip()) or _LENTICULAR.match(line.strip())
        if m and not _is_field_line(line):
            starts.append((i, m.group(1)))
    spans = []
    for n, (i, title) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        for j in range(i + 1, end):
            if _HEADING.match(lines[j]):
                end = j
                break
        spans.append(_Span(title, i, end, "link-paragraph"))
    return spans


def _spans_of(lines: list[str]) -> list[_Span]:
    """The best single structure of a block of lines: the one whose items carry the most URLs."""
    urls = _UrlLines(lines)
    tables = _table_spans(lines)[0]
    # each structure is made when it is scored, and dropped unless it is the best so far (a dump of
    # ten thousand lines gives ten thousand spans under several structures)
    candidates: list[Callable[[], list[_Span]]] = [
        lambda: _refine(lines, _heading_spans(lines), urls, tables),
        lambda: _list_spans(lines, _NUMBERED, "numbered"),
        lambda: _new._label_line_spans(lines),  # issue 23: label-led lines, the new reader's own
        lambda: tables,
        lambda: _list_spans(lines, _TOP_BULLET, "bullet", with_url=urls),
        lambda: _new._link_paragraph_spans(lines),  # issue 23 added bold run-in paragraphs to it
        lambda: _titled_url_spans(lines, urls),
        lambda: _segmented_spans(lines),
    ]
    best: list[_Span] = []
    best_score = -1
    for make in candidates:
        spans = make()
        if not spans:
            continue
        with_url = sum(1 for s in spans if urls.any(s.start, s.end))
        score = with_url * 10 + min(len(spans), 9)
        if score > best_score:
            best, best_score = spans, score
    return best


def _refine(lines: list[str], spans: list[_Span], urls: _UrlLines, tables: list[_Span]) -> list[_Span]:
    """A heading that holds a table or list of several items with URLs is split into those items.

    ``tables`` are the table rows of all ``lines``: those under a heading are the rows its lines alone
    give (a heading line is never a table row or rule, so no table runs into or out of a section).
    """
    out: list[_Span] = []
    starts = [t.start for t in tables]
    for span in spans:
        first = span.start + 1  # the heading's own line is not inside it
        inner = lines[first : span.end]
        rows = tables[bisect.bisect_left(starts, first) : bisect.bisect_left(starts, span.end)]
        own_rows = [_Span(t.title, t.start - first, t.end - first, t.recogniser, t.check, t.cells) for t in rows]
        listed = _list_spans(inner, _NUMBERED, "numbered", with_url=urls.window(first, span.end))
        sub: list[_Span] = []
        for candidate in (own_rows, listed):
            with_url = [s for s in candidate if urls.any(first + s.start, first + s.end)]
            # several items with URLs; or, under a topic heading with no URL of its own, bold-numbered items
            bold = [s for s in with_url if inner[s.start].lstrip().startswith("**")]
            if len(with_url) >= 2 or (bold and not urls.any(span.start, first)):
                sub = with_url
                break
        own_url = urls.any(span.start, first + (sub[0].start if sub else 0))
        if sub and not own_url:
            out.extend(_Span(s.title, s.start + first, s.end + first, s.recogniser, s.check, s.cells) for s in sub)
        elif own_url or urls.any(first, span.end) or re.match(r"^(?:\d{1,3}[.)、]|[①-⑳])", span.title):
            out.append(span)
    return out


# --- evidence (note context) as it was ---------------------------------------------------------------
from e1prep.read.evidence import (
    LEGEND_LINE,
    Statement,
    _CODE,
    _LIST,
    _N,
    _SEPARATOR,
    _SYMBOL_RUN,
    _norm_symbol,
    _num,
    _numbers,
    read_remark,
)


def legend_line(line: str) -> re.Match[str] | None:
    """``LEGEND_LINE.match``; a line without a colon is never one (the common case, answered at once)."""
    return LEGEND_LINE.match(line) if ":" in line or "：" in line else None


def _legend_entries(rest: str) -> list[tuple[str, str]]:
    """(symbol, description) pairs of a legend, split where a symbol stands after a separator.

    Entries are found by shape, not by the separator: ``◐ 读了一半 / 正文截断`` is one entry, and
    ``● full text read · ◐ partly read`` are two.
    """
    starts: list[tuple[int, int]] = []
    for m in _SYMBOL_RUN.finditer(rest):
        if not re.match(r"[\w\u3400-\u9fff]", rest[m.end() : m.end() + 1]):  # ``@handle`` is a name, not a sign
            starts.append((m.start(), m.end()))
    for m in _CODE.finditer(rest):
        starts.append((m.start(1), m.end(1)))
    starts.sort()
    kept: list[tuple[int, int]] = []
    for a, b in starts:
        before = rest[:a].rstrip()
        after_separator = (
            a == 0 or not before or _SEPARATOR.fullmatch(rest[a - 1]) or before[-1] in "：:/／|·・;；,，、*_"
        )
        if after_separator and (not kept or a >= kept[-1][1]):
            kept.append((a, b))
    out = []
    for n, (a, b) in enumerate(kept):
        end = kept[n + 1][0] if n + 1 < len(kept) else len(rest)
        desc = rest[b:end].strip().lstrip("=:：＝-–— ").rstrip(" /／|·・;；,，、")
        if desc:
            out.append((_norm_symbol(rest[a:b]), desc))
    return out


def parse_legend(
    lines: list[str], unlabelled: set[int] | None = None, labelled: dict[int, re.Match[str]] | None = None
) -> dict[str, Statement]:
    """A note's own legend: symbol → the statement its description makes.

    A legend is a labelled line (``图例：``, ``Legend:``…) or, among the lines ``unlabelled`` allows
    (those outside every item), any line made of two or more ``symbol description`` entries whose
    descriptions state evidence levels. ``labelled``: the ``legend_line`` matches of ``lines`` by index,
    when the caller has them already.
    """
    legend: dict[str, Statement] = {}
    for i, line in enumerate(lines):
        m = labelled.get(i) if labelled is not None else legend_line(line)
        if m:
            rest = m.group("rest").strip()
        elif unlabelled is not None and i in unlabelled and not line.lstrip().startswith("|"):
            rest = re.sub(r"^\s*(?:[-*>]\s*)?", "", line).strip()
        else:
            continue
        entries = _legend_entries(rest) if rest else []
        if m and not rest:  # a legend heading followed by one symbol per bullet line
            for follow in lines[i + 1 : i + 12]:
                if not follow.strip():
                    break
                entries += _legend_entries(re.sub(r"^\s*[-*+]\s*", "", follow))
        found: dict[str, Statement] = {}
        for sym, desc in entries:
            st = read_remark(desc)
            st.text = desc
            if not st.words:
                st.understood = False
            found[sym] = st
        if m or (len(found) >= 2 and sum(1 for st in found.values() if st.words) >= 2):
            legend.update(found)
    return legend


_SELECTOR = re.compile(
    rf"(?P<first>前|头)\s*(?P<fn>{_N})\s*条|(?P<last>后|最后)\s*(?P<ln>{_N})\s*条|第\s*(?P<list>{_LIST})\s*条|"
    rf"(?P<rest>其余|其他|其它|剩下|剩余)(?:的)?(?:\s*{_N}\s*条)?|"
    r"(?:the\s+)?first\s+(?P<efn>\d{1,3}|two|three|four|five|six)\b(?:\s+(?:items?|entries|links|posts|ones))?|"
    r"(?:the\s+)?last\s+(?P<eln>\d{1,3}|two|three|four|five|six)\b(?:\s+(?:items?|entries|links|posts|ones))?|"
    r"items?\s+(?P<elist>\d{1,3}(?:\s*(?:,|and|&|-|–|to)\s*\d{1,3})*)|"
    r"(?P<erest>the\s+rest|the\s+others|the\s+remaining(?:\s+(?:items|ones))?)",
    re.I,
)
_EN_NUM = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def range_statements(lines: list[str], numbers: list[int]) -> dict[int, list[Statement]]:
    """Statements a note makes about ranges of its items, by the items' numbers."""
    out: dict[int, list[Statement]] = {}
    all_numbers = sorted(set(numbers))
    seen: set[str] = set()  # a statement repeated word for word (a pasted dump) says nothing new
    for line in lines:
        matches = list(_SELECTOR.finditer(line))
        if not matches or line in seen:
            continue
        seen.add(line)
        named: set[int] = set()
        for k, m in enumerate(matches):
            end = matches[k + 1].start() if k + 1 < len(matches) else len(line)
            desc = line[m.end() : end]
            st = read_remark(desc)
            if m.group("first") or m.group("efn"):
                chosen = set(all_numbers[: _num(m.group("fn") or m.group("efn"))])
            elif m.group("last") or m.group("eln"):
                n = _num(m.group("ln") or m.group("eln"))
                chosen = set(all_numbers[-n:]) if n else set()
            elif m.group("list") or m.group("elist"):
                chosen = _numbers(m.group("list") or m.group("elist"))
            else:
                chosen = set(all_numbers) - named
            named |= chosen
            if not st.words:
                continue
            st.text = (m.group(0) + desc).strip(" ，,；;。.")
            for n in chosen:
                out.setdefault(n, []).append(st)
    return out


# --- one remark, read in full whatever it holds ---------------------------------------------------------
from e1prep.read.evidence import _CHECK_SYMBOLS, _context, _symbols  # noqa: E402
from e1prep.read.markers import LOWERING_KINDS, Hit, find, in_quotes, negated, strictest, strip_urls  # noqa: E402
from e1prep.brief.models import EvidenceLevel  # noqa: E402


def read_remark_as_it_was(text: str, legend: dict[str, Statement] | None = None) -> Statement:
    """Read one remark into a statement (most restrictive reading, never the first marker)."""
    return _read_stripped(text, strip_urls(text), legend)


def _read_stripped(text: str, body: str, legend: dict[str, Statement] | None) -> Statement:
    """:func:`read_remark` of ``text`` whose URLs are already out (``body``): a caller that needs the
    stripped text too strips it once."""
    hits = find(body)
    symbol_statements = _symbols(body, legend or {})
    hedges = [h for h in hits if h.marker.kind in ("hedge", "relay")]
    positives: list[Hit] = []
    refused: list[str] = []
    for h in hits:
        if h.marker.kind not in ("full", "partial"):
            continue
        if negated(body, h, hits):
            refused.append(_context(body, h))
        elif in_quotes(body, h.start):
            refused.append(f"「{h.marker.text}」（引述）")
        else:
            positives.append(h)
    if hedges or refused:
        words = [h.marker.text for h in hedges] + refused
        # hedged, the page still could not be read: that is said too (``打不开（404），可能被删了``)
        blocked = None if positives else next((h.marker.text for h in hits if h.marker.access), None)
        return Statement(EvidenceLevel.unverified, words, True, False, blocked, text)
    limits = [h for h in hits if h.marker.kind in LOWERING_KINDS and h.marker.kind != "partial"]
    full_read = any(h.marker.kind == "full" for h in positives) or any(
        s.positive and s.level is EvidenceLevel.verified for s in symbol_statements
    )
    if positives or any(s.positive for s in symbol_statements):
        # ``原文（摘要 + 正文）``, ``标题与目录已核（预告级摘要）``: beside a stated read, a bare word names
        # what was read
        limits = [h for h in limits if not h.marker.weak]
    pos_levels = [h.marker.level for h in positives] + [s.level for s in symbol_statements if s.positive]
    words = [h.marker.text for h in positives] + [w for s in symbol_statements for w in s.words]
    if not pos_levels and not limits and not symbol_statements:
        understood = not _CHECK_SYMBOLS.search(body) and not body.strip()
        return Statement(EvidenceLevel.unverified, [], understood, False, None, text)
    levels: list[EvidenceLevel] = []
    if pos_levels:
        levels.append(strictest(*pos_levels))
    levels += [s.level for s in symbol_statements if not s.positive]
    # "not read" / "not checked" beside an access problem or a summary explains it; alone it decides
    explained = any(not h.marker.explains for h in limits)
    for h in limits:
        words.append(h.marker.text)
        # only a summary, a snippet, or the vendor's own numbers: that, whatever else was read
        exclusive = h.marker.kind in ("summary", "snippet", "vendor")
        # a full read with another stated limitation is partial; a partial check keeps the limitation's level
        if full_read and not exclusive:
            levels.append(EvidenceLevel.partial)
        elif h.marker.explains and explained:
            continue
        else:
            levels.append(h.marker.level)
    if any(not s.understood for s in symbol_statements):
        levels.append(EvidenceLevel.unverified)
    level = strictest(*levels)
    blocked = truncated = None
    if not full_read:  # a truncation is no access problem (issue 25): each is said apart
        blocked = next((h.marker.text for h in hits if h.marker.access), None) or next(
            (s.blocked for s in symbol_statements if s.blocked), None
        )
        truncated = next((h.marker.text for h in hits if h.marker.truncates), None) or next(
            (s.truncated for s in symbol_statements if s.truncated), None
        )
    understood = all(s.understood for s in symbol_statements)
    return Statement(level, words, understood, bool(pos_levels), blocked, text, full=full_read, truncated=truncated)


# --- notes.blocks and markers.line_level as they were ------------------------------------------------------
from e1prep.read.notes import _BLOCK_START  # noqa: E402

_BULLET = re.compile(r"[-*+]\s")


def blocks(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for n, line in enumerate(text.split("\n")):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        starts_block = bool(_BLOCK_START.match(stripped)) or not out
        if starts_block or (not stripped):
            out.append((n, line))
        elif out and indent >= 1 and not _BULLET.match(stripped):
            out[-1] = (out[-1][0], out[-1][1] + "\n" + line)
        else:
            out.append((n, line))
    return [(n, b) for n, b in out if b.strip()]


def line_level(line: str) -> EvidenceLevel | None:
    hits = find(strip_urls(line))
    kinds = {h.marker.kind for h in hits} | {"access" for h in hits if h.marker.access}
    for want, level in (
        ("vendor", EvidenceLevel.vendor),
        ("snippet", EvidenceLevel.snippet),
        ("access", EvidenceLevel.snippet),
        ("summary", EvidenceLevel.summary),
        ("unverified", EvidenceLevel.unverified),
        ("noquote", EvidenceLevel.unverified),
        ("relay", EvidenceLevel.unverified),
    ):
        if want in kinds:
            return level
    return None
