"""Exports pasted into a note, each read as the rows of a table: a reference manager's BibTeX, a query's records in
expanded display, one JSON object a line, an e-reader's clippings. Each entry is an item; its fields are read by what
their names mean, as a table's header cells are (``data/writing.toml`` [columns])."""

from __future__ import annotations

import json
import re
from typing import NamedTuple

from ..text.lexicon import lexicon
from .markup import CLIPPING_END, CLIPPING_META


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
