"""Exports pasted into a note, each read as the rows of a table: a reference manager's BibTeX, a query's records in
expanded display, one JSON object a line, an e-reader's clippings, records written in code, a TAP report's test
points, a Gherkin file's scenarios. Each entry is an item; its fields are read by what their names mean, as a
table's header cells are (``data/writing.toml`` [columns])."""

from __future__ import annotations

import json
import re
from typing import NamedTuple

from ..text.lexicon import lexicon
from .markup import CLIPPING_END, CLIPPING_META, gherkin_keywords, is_feature_file, is_tap_stream


class Entry(NamedTuple):
    """One item of an export: its title, its lines (0-based, end exclusive), what read it, its check and its other
    values (a table row's check cell and cells)."""

    title: str
    start: int
    end: int
    recogniser: str
    check: str | None = None
    cells: tuple[str, ...] = ()


def _opened_runs(lines: list[str], opener: re.Pattern[str]) -> list[tuple[int, int]]:
    """Each run of ``lines`` from a line ``opener`` matches to the next one (the last to the end), when two or more
    lines open one: an export's entries or records, one per item."""
    starts = [i for i, line in enumerate(lines) if opener.match(line)]
    if len(starts) < 2:
        return []
    return list(zip(starts, [*starts[1:], len(lines)], strict=True))


#: a BibTeX entry's first line (``@Article{Zhao2027npukv,``): its type and citation key
_BIB_ENTRY = re.compile(r"^\s*@(?P<type>[A-Za-z]+)\s*\{\s*(?P<key>[^,\s{}]+)\s*,")
#: an entry's title field on one line (``title = {{NPU-Paged KV}: Keeping the {KV} Cache …},``)
_BIB_TITLE = re.compile(r"^\s*title\s*=\s*[{\"](?P<title>.*)[}\"]\s*,?\s*$", re.I)


def bibtex(lines: list[str]) -> list[Entry]:
    """A reference manager's BibTeX export pasted in (``@Article{key,`` over ``field = {value},`` lines): each entry
    an item, to its closing brace, titled by its ``title`` field without the braces that keep its capitals, or by its
    citation key when it has none. Its fields stay in its text: the writer's ``comment`` says how far it was read."""
    spans = []
    for start, limit in _opened_runs(lines, _BIB_ENTRY):
        end, depth = limit, 0
        for i in range(start, limit):
            depth += lines[i].count("{") - lines[i].count("}")
            if depth <= 0:
                end = i + 1
                break
        title = _BIB_ENTRY.match(lines[start])["key"]  # type: ignore[index]
        for i in range(start + 1, end):
            if (m := _BIB_TITLE.match(lines[i])) is not None:
                title = " ".join(m["title"].replace("{", "").replace("}", "").split()) or title
                break
        spans.append(Entry(title, start, end, "bibtex"))
    return spans


#: a record of a query's output in expanded display (psql's ``\\x``: ``-[ RECORD 3 ]------``)
_RECORD_HEAD = re.compile(r"^\s*-\[ RECORD \d+ \]-*\s*$")
#: a column of a record: its name, a bar, its value; a value wrapped over lines goes on under an empty name, each
#: line but its last closed by ``+``
_RECORD_COLUMN = re.compile(r"^\s*(?P<name>[^|\s][^|]*?)?\s*\|\s?(?P<value>.*?)\s*\+?\s*$")


def records(lines: list[str]) -> list[Entry]:
    """A query's rows pasted in expanded display (``-[ RECORD 1 ]---`` over ``title | …`` lines): a table turned on
    its side. Each record is an item, its columns read by what their names mean as a table's header cells are: its
    title column titles it, its check column (``depth | abstract``) says how far it was read, its other values are
    what it says."""
    spans = []
    for start, end in _opened_runs(lines, _RECORD_HEAD):
        values: dict[str, list[str]] = {}
        name = ""
        for i in range(start + 1, end):
            if (m := _RECORD_COLUMN.match(lines[i])) is None:
                end = i  # the query's output ends (its closing fence, the writer's next words)
                break
            name = (m["name"] or name).strip()
            values.setdefault(name, []).append(m["value"])
        said = {col: " ".join(" ".join(v).split()) for col, v in values.items()}
        spans.append(_fields_entry(said, start, end, "record", lines[start].strip()))
    return spans


def clippings(lines: list[str]) -> list[Entry]:
    """An e-reader's clippings pasted in (each a book's title, a ``- Your Highlight on page N | Added on …`` line, the
    passage or the reader's note, then ``==========``): the clippings of one title in a row are one item, titled by
    it; the clippings repeat their title, the item names it once."""
    ends = [i for i, line in enumerate(lines) if CLIPPING_END.match(line)]
    if len(ends) < 2:
        return []
    clips: list[tuple[int, int, str]] = []
    start = 0
    for end in ends:
        body = [i for i in range(start, end) if lines[i].strip()]
        # its title is the line right over its meta line (a preamble above the first clipping is no part of it)
        meta = next((k for k, i in enumerate(body) if CLIPPING_META.match(lines[i])), None)
        if meta is None or meta == 0:
            return []
        first = body[meta - 1]
        clips.append((first, end + 1, lines[first].strip()))
        start = end + 1
    spans: list[Entry] = []
    for first, end, title in clips:
        if spans and spans[-1].title == title and spans[-1].end == first:
            spans[-1] = spans[-1]._replace(end=end)
        else:
            spans.append(Entry(title, first, end, "clipping"))
    return spans


def json_lines(lines: list[str]) -> list[Entry]:
    """A log exported one JSON object a line (a read-later app's, a script's: ``{"title": …, "url": …, "notes": …}``):
    each object an item, its keys read by what they mean as a table's header cells are. The line stays as written."""
    found: list[tuple[int, dict[str, object]]] = []
    for i, line in enumerate(lines):
        text = line.strip()
        if text.startswith("{") and text.endswith("}"):
            try:
                obj = json.loads(text)
            except ValueError:
                continue
            if isinstance(obj, dict):
                found.append((i, obj))
    if len(found) < 2:
        return []
    return [_fields_entry({str(k): _json_said(v) for k, v in obj.items()}, i, i + 1, "jsonl", "") for i, obj in found]


def json_values(line: str) -> str:
    """A JSON object's line as the writer's words: each value that says something, one a line, less the source's own
    title and address (``"title": "Do Agents Forget?"`` asks nothing of the reading); ``line`` if it is no object."""
    try:
        obj = json.loads(line)
    except ValueError:
        return line
    if not isinstance(obj, dict):
        return line
    kept = (v for k, v in obj.items() if lexicon().column_meaning(str(k)) not in ("title", "url"))
    return "\n".join(said for v in kept if (said := _json_said(v)))


#: a record opened in code and left open at the line's end: a constructor's call (``Item(``, ``dict(``) or a literal
#: (``{``), maybe as a list's element or a name's value (``ITEMS = [Item(``)
_CODE_OPEN = re.compile(r"^\s*(?:[\w.]+\s*=\s*\[?\s*)?(?:[A-Za-z_][\w.]*\s*\(|\{)\s*$")
#: one field of a record in code: its name, ``=`` or ``:``, its value to the line's end (``name="TileSkip: …",``,
#: ``"url": "https://…",``, ``notes=\"\"\"``)
_CODE_FIELD = re.compile(r"""^\s*(?P<q>["']?)(?P<name>[A-Za-z_]\w*)(?P=q)\s*[=:]\s*(?P<value>\S.*?)\s*$""")
#: a string's quotes: three, or one
_TRIPLE = re.compile(r"\"\"\"|\'\'\'")
#: a string literal on one line, with the comma that ends its field and the comment after it (``"…",  # why``)
_ONE_STRING = re.compile(r"""^(?P<q>["'])(?P<text>.*)(?P=q)\s*,?\s*(?:#\s*(?P<comment>.*))?$""")


#: one field of an indexed record, as MATLAB or JavaScript assign one (``r(3).depth = 4;``, ``items[2].url = "…";``),
#: its value maybe continued on the next lines (MATLAB's ``...``)
_INDEXED_FIELD = re.compile(
    r"^\s*(?P<var>[A-Za-z_]\w*)\s*[(\[]\s*(?P<k>\d{1,4})\s*[)\]]\s*\.\s*(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>.*?)\s*$"
)
#: a string literal in a value (``'…'`` with ``''`` for a quote, or ``"…"``)
_STRING = re.compile(r"'((?:[^']|'')*)'|\"((?:[^\"\\]|\\.)*)\"")


def indexed_records(lines: list[str]) -> list[Entry]:
    """A reading list kept as an array of records assigned field by field (MATLAB's ``r(1).name = '…';`` over
    ``r(1).url = '…';``, a script's ``items[1].url = …``): the fields of one index are one item, from its first
    assignment to its last, read by what their names mean as a table's header cells are. Two records or more, each
    naming a title or an address."""
    fields: dict[tuple[str, str], dict[str, str]] = {}
    spans: dict[tuple[str, str], list[int]] = {}
    i = 0
    while i < len(lines):
        m = _INDEXED_FIELD.match(lines[i])
        if m is None:
            i += 1
            continue
        start, value = i, m["value"]
        while value.rstrip().endswith("...") and i + 1 < len(lines):  # MATLAB's continuation
            i += 1
            value = value.rstrip()[:-3] + " " + lines[i].strip()
        key = (m["var"], m["k"])
        strings = [a.replace("''", "'") or b for a, b in _STRING.findall(value)]
        fields.setdefault(key, {})[m["name"]] = " ".join(strings) if strings else value.rstrip(";").strip()
        spans.setdefault(key, [start, i + 1])[1] = i + 1
        i += 1
    entries = [_fields_entry(said, spans[key][0], spans[key][1], "code", "") for key, said in fields.items()]
    if len(entries) < 2 or any(not e.title for e in entries):
        return []
    return sorted(entries, key=lambda e: e.start)


def code_records(lines: list[str]) -> list[Entry]:
    """A reading list kept as code (``Item(name="…", url="…", depth=Depth.SECTIONS, notes=\"\"\"…\"\"\"),`` or one
    dict literal an item): each record an item, its fields read by what their names mean as a table's header cells
    are. Two records or more, each naming a title or an address; a field's string is its words, a comment after it
    the writer's too. The record's lines stay as written."""
    spans = []
    i = 0
    while i < len(lines):
        if not _CODE_OPEN.match(lines[i]):
            i += 1
            continue
        said, end = _code_fields(lines, i + 1)
        if said is not None:
            spans.append(_fields_entry(said, i, end, "code", ""))
        i = max(end, i + 1)
    if len(spans) < 2 or any(not e.title for e in spans):
        return []
    return spans


def _code_fields(lines: list[str], start: int) -> tuple[dict[str, str] | None, int]:
    """The fields of a record in code from ``start`` to its closing bracket, and the line after it; None when a line in
    between is no field (then it is no record of this kind)."""
    said: dict[str, str] = {}
    i = start
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith((")", "}")):
            return said, i + 1
        m = _CODE_FIELD.match(lines[i])
        if m is None:
            return None, i
        value = m["value"]
        if (opened := _TRIPLE.match(value)) is not None:
            words = [value[3:]]
            while _TRIPLE.search(words[-1]) is None and i + 1 < len(lines):
                i += 1
                words.append(lines[i])
            said[m["name"]] = " ".join(" ".join(words).split(opened.group(0))[0].split())
        elif (one := _ONE_STRING.match(value)) is not None:
            said[m["name"]] = " ".join(w for w in (one["text"], one["comment"] or "") if w)
        else:
            said[m["name"]] = value.rstrip(",").strip()
        i += 1
    return None, i


#: a TAP stream's test point (``ok 1 - VeriLoop: … # TODO appendix C``, ``not ok 3 - …``): its description, less the
#: directive after ``#`` (the directive says how far it went: it stays in the item's text)
_TAP_POINT = re.compile(r"^(?:not )?ok\b\s*(?:\d+)?\s*(?:-\s*)?(?P<desc>.*?)(?:\s+#\s*(?:TODO|SKIP)\b.*)?$", re.I)


def tap_points(lines: list[str]) -> list[Entry]:
    """A report in the Test Anything Protocol (``TAP version 13``, a plan ``1..4``, ``ok 1 - …`` lines each over its
    YAML block): each test point an item to the next, titled by its description. Two points or more."""
    if not is_tap_stream(lines):
        return []
    starts = [i for i, line in enumerate(lines) if line[:2] in ("ok", "no") and _TAP_POINT.match(line)]
    if len(starts) < 2:
        return []
    spans = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1
        desc = _TAP_POINT.match(lines[start])["desc"].strip()  # type: ignore[index]
        spans.append(Entry(desc or lines[start].strip(), start, end, "tap"))
    return spans


def gherkin_scenarios(lines: list[str]) -> list[Entry]:
    """A feature file in Gherkin (``Feature:`` / ``功能:`` over ``Scenario:`` / ``场景:`` blocks of steps, in any of
    Gherkin's languages, ``data/writing.toml`` [gherkin]): each scenario an item, titled by its name, its steps its
    text (``假如 原文读完 "https://…"`` says how far it was read). A feature and two scenarios or more."""
    keys = gherkin_keywords()
    if keys is None or not is_feature_file(lines):
        return []
    starts = [(i, m["name"].strip()) for i, line in enumerate(lines) if (m := keys.scenario.match(line))]
    ends = [*(i for i, _ in starts[1:]), len(lines)]
    return [Entry(name, start, end, "gherkin") for (start, name), end in zip(starts, ends, strict=True)]


def _json_said(value: object) -> str:
    """A JSON value as words: a string as it is, a list of strings joined, nothing for a number, a flag or a null (a
    count or a fraction is no words of an item's)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(v for v in value if isinstance(v, str))
    return ""


def _fields_entry(said: dict[str, str], start: int, end: int, recogniser: str, fallback: str) -> Entry:
    """An item written as named fields (a record, a JSON object): its title, check, URL and other values by what the
    fields' names mean (``data/writing.toml`` [columns])."""
    meaning = {name: lexicon().column_meaning(name) for name in said}
    title = next((said[n] for n, what in meaning.items() if what == "title" and said[n]), "")
    check = next((said[n] for n, what in meaning.items() if what == "check" and said[n]), None)
    url = next((said[n] for n, what in meaning.items() if what == "url" and said[n]), "")
    other = tuple(v for n, v in said.items() if v and meaning[n] not in ("title", "check", "url", "number"))
    return Entry(title or url or fallback, start, end, recogniser, check, other)
