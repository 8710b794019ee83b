"""Lint a hand-written brief: quantities whose sentence carries no evidence marker and no source."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..brief.models import EVIDENCE_LABELS, EvidenceLevel
from ..errors import InputError
from ..kb.loading import decode
from ..read import markers
from ..read.numbers import parse_value, scan
from ..text.visible import without_hidden
from .report import RULES

EVIDENCE_MARKERS: tuple[str, ...] = (
    *EVIDENCE_LABELS.values(),
    *(lvl.value for lvl in EvidenceLevel),
    "已核查",
    "已核实",
    "核实",
    "已核",
    "官方",
    "tweet",
    "✓",
    "核查",
    "摘要",
    "snippet",
    "不可引用",
    "不得引用",
    "待核实",
    "未核实",
    "待核查",
    "自述",
    "口径",
    "采集",
    "卡面",
    "证据",
    "✅",
    "🔍",
    "⚠",
    # the words by which a level is stated, from the one marker table (data/markers.toml)
    *markers.texts("full", "partial", "summary", "snippet", "vendor", "limitation", "unverified", "noquote"),
)
#: a source: a URL, a KB path, a § section, an arXiv id, or the work-guard manifest (a batch's job, score and
#: material count are the manifest's, and a brief that names it has said where they come from)
SOURCE_MARKERS = re.compile(
    r"https?://|inbox/|organized/|来源|source|§\s*\d|arXiv[:：]|github\.com|\.md\b|work-guard|manifest", re.I
)
_SENTENCE = re.compile(r"[^。；;！？!?\n]+[。；;！？!?]?")


@dataclass(frozen=True)
class LintFinding:
    line: int
    token: str
    context: str


def lint_text(text: str) -> list[LintFinding]:
    """Each quantity whose sentence, list item and table row carry neither a marker nor a source.

    Only what a reader sees is linted: HTML comments (a drafted brief's usage line) are blanked first, as
    the loader does for the KB. A Markdown heading's count of its own entries (``## 1. 增量（2 条）``) is
    the brief's bookkeeping when it agrees with the entries under the heading; a count that does not
    agree is listed like any other number. A heading titles the entry below it, and a list item its nested
    items: their lines (a source, an evidence level) speak for its numbers too. A line tagged with a
    verifier rule (``[quantity-uncited] …``, a drafted brief's appendix) is the verifier's verdict on what it
    quotes, a marker like any other.
    """
    findings = []
    lines = without_hidden(text.replace("\r\n", "\n"))[0].split("\n")
    for n, line in enumerate(lines, start=1):
        block = line if line.lstrip().startswith("|") else _item_of(lines, n - 1) + _body_of(lines, n - 1)
        entries = _entries_under(lines, n - 1)
        for m in _SENTENCE.finditer(line):
            sentence = m.group(0)
            quantities = [
                t
                for t in scan(sentence)
                if t.kind == "quantity" and not (entries is not None and parse_value(t.text) == entries)
            ]
            if not quantities:
                continue
            scope = sentence + " " + block
            if _marked(scope):
                continue
            for tok in quantities:
                findings.append(LintFinding(n, tok.text, sentence.strip()[:120]))
    return findings


_ITEM_START = re.compile(r"^\s*(?:#|条目|增量|矛盾|[①-⑳]|\d{1,2}[.、)]\s|[一二三四五六七八九十]+、|\|)")


def _item_of(lines: list[str], idx: int) -> str:
    """The item a line belongs to: back to the item's first line (a heading, ``条目 N``, ``1.`` ...)."""
    start = idx
    while start > 0 and not _ITEM_START.match(lines[start]) and lines[start - 1].strip():
        start -= 1
    return "\n".join(lines[start : idx + 1])


_HEADING = re.compile(r"^(#{1,6})\s")
_LIST_ITEM = re.compile(r"^[-*+]\s|^\d{1,3}[.)]\s")
_TABLE_RULE = re.compile(r"^\|[\s:|-]+\|?\s*$")


def _body_of(lines: list[str], idx: int) -> str:
    """What a heading or a list item titles: a heading's lines up to the next heading, a list item's
    nested lines (indented deeper, up to the first that is not); "" for any other line."""
    line = lines[idx]
    heading = bool(_HEADING.match(line))
    if not heading and not _LIST_ITEM.match(line.lstrip()):
        return ""
    indent = len(line) - len(line.lstrip())
    body = []
    for nxt in lines[idx + 1 :]:
        if _HEADING.match(nxt) if heading else (not nxt.strip() or len(nxt) - len(nxt.lstrip()) <= indent):
            break
        body.append(nxt)
    return "\n" + "\n".join(body)


def _entries_under(lines: list[str], idx: int) -> int | None:
    """How many entries a Markdown heading has (None: the line is no heading): its own list items and table
    rows before its first sub-heading, or else its direct sub-headings."""
    head = _HEADING.match(lines[idx])
    if not head:
        return None
    level = len(head.group(1))
    own = subs = 0
    in_own = True
    table_rows = 0
    for line in lines[idx + 1 :]:
        deeper = _HEADING.match(line)
        if deeper:
            if len(deeper.group(1)) <= level:
                break
            in_own = False
            subs += len(deeper.group(1)) == level + 1
        elif in_own and _LIST_ITEM.match(line):
            own += 1
        elif in_own and line.startswith("|"):
            table_rows += not _TABLE_RULE.match(line)
    if table_rows:
        own += table_rows - 1  # the header row is no entry
    return own or subs


#: a verifier rule tag (``[quantity-uncited]``): the line is the verifier's verdict on what it quotes
_RULE_TAG = re.compile(r"\[(" + "|".join(map(re.escape, RULES)) + r")\]")


def _marked(text: str) -> bool:
    low = text.lower()
    return (
        any(m.lower() in low for m in EVIDENCE_MARKERS)
        or bool(SOURCE_MARKERS.search(text))
        or bool(_RULE_TAG.search(text))
    )


def lint_file(path: str | Path) -> list[LintFinding]:
    where = Path(path)
    try:
        data = where.read_bytes()
    except FileNotFoundError:
        raise InputError(where, "no such file") from None
    except OSError as exc:
        raise InputError(where, f"cannot be read ({exc.strerror})") from None
    text, _, _ = decode(data)
    return lint_text(text)
