"""What one line of a note is: a heading, a table row, a field, a URL's holder. The primitives every reader of a
note's structure shares (``read.markup`` rewrites other markups into these; ``read.notes`` finds items by them)."""

from __future__ import annotations

import re

from ..kb.knowledge import arxiv_ids
from ..text.lexicon import lexicon

#: a URL; a comma stays in it only where the URL goes on after it (``?ids=1,2``, ``/a,b/c``), not where a pasted
#: sheet's next cell begins (``…/datasheet.pdf,full,"vendor PDF"``); a brace is none of it (no URL holds one
#: unescaped: ``url = {https://…},`` in a BibTeX entry)
URL_RE = re.compile(
    r"https?://(?:[^\s<>()\[\]{}（）【】\"'`，。；、|,]|,(?=\d|[^\s<>()\[\]{}（）【】\"'`，。；、|,]*[/?=&#]))+"
)


_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


#: a rule with a counter in it (``━━━━ 1 ━━━━``, ``==== 2 ====``): a template's numbered separator, which heads
#: its block as a second-level heading of that counter would (read as written: its quotes stay verbatim)
_COUNTED_RULE = re.compile(r"^\s*([━─═=\-~*_—#])\1{1,}\s*(?P<counter>\d{1,3})\s*\1{2,}\s*$")
#: a title framed by a rule drawn in box-drawing characters or dashes (a kanban board's lane ``━━━━ 待看（3） ━━━━``,
#: a notebook's day ``—— 7/14（周三）——``): a heading, read as written
_RULED_TITLE = re.compile(r"^\s*([━─═—])\1{1,}[ \t]*(?P<title>[^\s━─═—](?:.*?[^\s━─═—])?)[ \t]*\1{2,}\s*$")


_RULE_CHARS = frozenset("━─═=-~*_—# \t")
#: a counter alone on its line (``①``, ``⑵``, ``❸``, ``（4）``): a pasted run of posts or messages parted by their
#: numbers, each heading its block as a numbered separator does
_LONE_COUNTER = re.compile(r"^\s*(?P<counter>[\u2460-\u2473\u2474-\u2487\u2776-\u277f]|[（(]\d{1,2}[）)])\s*$")


def heading(line: str) -> tuple[int, str] | None:
    """A Markdown heading line as (level, title), a numbered separator as a heading of its counter, a title
    framed by a drawn rule as a heading of its title, or None."""
    m = _HEADING.match(line)
    if m:
        return len(m.group(1)), m.group(2)
    if line[:1] in _RULE_CHARS:
        if (counted := _COUNTED_RULE.match(line)) is not None:
            return 2, counted["counter"]
        if (ruled := _RULED_TITLE.match(line)) is not None:
            return 2, ruled["title"]
    elif line and len(line.strip()) <= 4 and (lone := _LONE_COUNTER.match(line)) is not None:
        return 2, lone["counter"]
    return None


def lone_counter(text: str) -> bool:
    """Whether ``text`` is a counter alone (``①``, ``（4）``): a separator's title, no item's."""
    return _LONE_COUNTER.match(text) is not None


def is_heading(text: str) -> bool:
    """Whether ``text`` is one heading line (``### 要点``, ``━━━━ 1 ━━━━``)."""
    return heading(text) is not None


TABLE_ROW = re.compile(r"^\s*\|(.+)\|\s*$")


TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


_BR = re.compile(r"<br\s*/?>")


_CELL_PIPE = re.compile(r"(?<!\\)\|")


def table_cells(row: str) -> list[str]:
    """A table row's cells: split on unescaped pipes, ``<br>`` read as a line break."""
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [_BR.sub(" ", c).replace("\\|", "|").strip() for c in _CELL_PIPE.split(inner)]


FIELD_LINE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?([^\s:：*]{1,12})(?:\*\*)?\s*[:：]")


#: after an ``arXiv:`` label, an id and then a title after a dash: an item's opening line, not its field
_TITLED_ID = re.compile(r"\s*\d{4}\.\d{4,5}(?:v\d+)?\s*[—–]+\s*\S")


def is_field_line(text: str) -> bool:
    """A line that is one field of an item (``链接：…``, ``URL: …``, ``arXiv:…``), never an item itself. An
    arXiv id that a title follows (``- arXiv:2702.03318 — *ThermoCap: …*``) opens an item: it is no field."""
    m = FIELD_LINE.match(text)
    if not (m and lexicon().is_label(m.group(1))):
        return False
    return not _TITLED_ID.match(text, m.end())


#: a bulleted entry at the margin or set in under another (``- Foo``, ``  ▸ Bar``): its indent (maybe none), its text
BULLET_ENTRY = re.compile(r"^(?P<indent>[ \t]*)[-*+•▸▹‣]\s+(?P<text>\S.*)$")


def points_at(lines: list[str]) -> bool:
    """Whether ``lines`` point at something: a URL, or an arXiv id (``arXiv:2705.04417``)."""
    return any(URL_RE.search(line) or arxiv_ids(line) for line in lines)
