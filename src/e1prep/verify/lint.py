"""Lint a hand-written brief: quantities whose sentence carries no evidence marker and no source."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..brief.models import EVIDENCE_LABELS, EvidenceLevel
from ..errors import InputError
from ..kb.loading import decode
from ..read import markers
from ..read.numbers import scan

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
SOURCE_MARKERS = re.compile(r"https?://|inbox/|organized/|来源|source|§\s*\d|arXiv[:：]|github\.com|\.md\b", re.I)
_SENTENCE = re.compile(r"[^。；;！？!?\n]+[。；;！？!?]?")


@dataclass(frozen=True)
class LintFinding:
    line: int
    token: str
    context: str


def lint_text(text: str) -> list[LintFinding]:
    """Each quantity whose sentence, list item and table row carry neither a marker nor a source."""
    findings = []
    lines = text.replace("\r\n", "\n").split("\n")
    for n, line in enumerate(lines, start=1):
        block = line if line.lstrip().startswith("|") else _item_of(lines, n - 1)
        for m in _SENTENCE.finditer(line):
            sentence = m.group(0)
            quantities = [t for t in scan(sentence) if t.kind == "quantity"]
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


def _marked(text: str) -> bool:
    low = text.lower()
    return any(m.lower() in low for m in EVIDENCE_MARKERS) or bool(SOURCE_MARKERS.search(text))


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
