"""How a living document numbers its sections, and how a § id is written in a note or a brief.

Writers number in many ways: ``§1.2``, ``1.2``, ``1-2``, ``Section 1``, ``第 3 节``, letters (``S2.2``, ``B.1``,
``C4``, ``M3-1``), and counters that extend their parent's (``R5`` → ``R5.c``, ``1`` → ``1a``, ``1`` → ``1(c)``,
``[W]`` → ``W-1``, ``甲`` → ``甲-1``, ``【贰】`` → ``贰·1``, ``HW`` → ``hw.01``, ``II`` → ``II-a``, ``III`` → ``III-2``,
``I`` → ``I(a)``, ``R1`` → ``R1/a``, ``B`` → ``B/iii``).
A bare letter or a letter and digits (``H100``, ``Q4``) numbers nothing by its shape alone: the sibling
headings decide, and a counter is a number only when the document's own headings use it as one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

#: the counters of a Chinese sequence (天干: ``甲``, ``乙``, ``丙`` …) and the Chinese numerals, plain and formal
#: (``三``, ``叁``: ``## 【贰】`` over ``### 贰·1``), number sections as letters do, and so do Greek letters (``## β``
#: over ``### β3``)
_STEMS = "甲乙丙丁戊己庚辛壬癸一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾αβγδεζηθικλμνξοπρστυφχψω"
_GREEK = "αβγδεζηθικλμνξοπρστυφχψω"

#: a section's id as the brief and the notes write it: ``§`` and the number as the document writes it
#: (``§1.2``, ``§S2.2``, ``§B.1``, ``§C4``, ``§A``, ``§R5.c``, ``§3b``, ``§W-3``, ``§丙-4``, ``§甲``, ``§β3``,
#: ``§BEN:1``, ``§K·2``); a document that signs its sections with a pilcrow (``¶22``) is read the same; the id
#: without its sign is group 1
SECTION_ID = (
    rf"[§¶]\s*((?:[A-Z]{{1,4}}[.\-:·]?|[a-z]{{2,4}}[.\-:/]?(?=\d)|[{_STEMS}][-·]?)?\d+(?:\.\d+)*(?:[-:]\d+(?![\d.]))?(?:[./]?[a-z](?![A-Za-z0-9])|\([a-z]\))?"
    rf"|[A-Z]{{1,4}}[\u2460-\u2473]"
    rf"|[IVX]{{1,4}}(?:-(?:[a-z]|\d+)|\([a-z]\))?(?![A-Za-z0-9])|[A-Z](?:/(?:[ivx]{{1,4}}|\d+))?(?![A-Za-z0-9])"
    rf"|[{_STEMS}](?![\-·\d]))"
)
#: a chapter's id that is a code of letters only (``§WL``, ``§OQ`` over ``§OQ-1``), as the id of a section the brief
#: names; the code is group 1 (no number: the scanner of numbers never reads it)
SECTION_CODE = r"[§¶]\s*([A-Z]{2,4})(?![A-Za-z0-9])"
#: a heading's section number, whole (``§2.3｜Late interaction`` is §2.3, never §2), and what ends it:
#: ``§1.2``, ``1.2``, ``1-2`` (small numbers joined by a hyphen, never a date's ``2026-10``), ``Section 1``,
#: ``第 3 节``, maybe in brackets (``[§5.2]``, ``【§2】``); the number is group ``n``
_SECTION_NUM = re.compile(
    r"^(?:(?P<open>[\[【])\s*)?(?:[§¶]\s*|Section\s+|第)?(?P<n>\d{1,2}(?:-\d{1,2})+(?![\d.])|\d+(?:\.\d+)*)(?!\.?\d)"
    r"(?(open)\s*[\]】])(?:[.、)｜|·:：—–-]|\s|节|$)",
    re.I,
)
#: a heading numbered with letters (``S2.2 间接注入``, ``Q1.2 硬件矩阵``, ``B.1 语义 ID``, ``C4 系统``, ``M3-1 指标``,
#: ``A. 读法``): a section number only when the document's sibling headings are lettered so (:func:`_lettering`),
#: never by the shape alone
_LETTERED_NUM = re.compile(
    r"^(?P<letters>[A-Z]{1,2})(?P<n>\.?\d+(?:\.\d+)*(?:[-:]\d+)?)?(?![.\-:]?\d)\.?(?:[、)｜|·:：—–-]|\s|$)"
)
#: a heading's leading counter, whatever its shape (``R5.c``, ``1a``, ``[W]``, ``【A】``, ``W-1``, ``甲-1``): a section
#: number only where it extends its parent heading's or is extended by its children's (:func:`extended`)
_COUNTER = re.compile(
    rf"^(?:(?P<open>[\[【])\s*)?(?P<n>(?:[A-Z]{{1,4}}|[a-z]{{2,4}}(?=[.\-/:]?\d|\s+[·|｜:：—–-])|[IVX]{{1,4}}|[{_STEMS}])"
    r"(?:[.\-/:·]?\d+(?:[.\-/:]\d+)*|[\u2460-\u2473])?"
    r"(?:[.\-/]?(?:[ivx]{2,4}|[a-z])|\([a-z]\))?"
    r"|\d+(?:\.\d+)*(?:\.?[a-z]|\([a-z]\))?)(?(open)\s*[\]】]|(?:[.、)｜|·:：—–-]|\s|$))"
)
#: what a child's counter adds to its parent's: one more counter (a number, a letter, a small Roman numeral),
#: maybe after a dot, a hyphen, a slash or a colon, or in brackets, or a circled number (``M3`` → ``M3-1``, ``B`` →
#: ``B/iii``, ``BEN`` → ``BEN:1``, ``D`` → ``D①``)
_ONE_MORE = re.compile(r"[.\-/:·]?(?:\d+|[ivx]{2,4}|[a-z])|\([a-z]\)|[\u2460-\u2473]")
#: a document numbers by extension when at least this many headings extend their parent's counter
_EXTENSIONS = 2

#: how a document letters its sections: one prefix before every number (``S``: ``S1``, ``S2.2``), or a letter
#: that counts the top-level sections (``*``: ``A``, ``B.1``, ``C4``)
_COUNTING_LETTERS = "*"


@dataclass(frozen=True)
class Heading:
    """A heading of the document: its 1-based line, its level (``##`` is 2) and its text."""

    line: int
    level: int
    title: str


def lettering(titles: Sequence[str]) -> str:
    """How the document's section numbers are lettered, told by its sibling headings (three or more lettered
    headings, one of them a subsection): the one prefix they all share (``S`` of ``## S2`` … ``### S2.2``), or
    ``*`` when single letters count the top-level sections (``## A``, ``## B``, ``### B.1``); else ``""``. A
    lone ``## H100 租赁`` or ``## Q4 计划`` numbers nothing."""
    found: Counter[str] = Counter()
    nested: set[str] = set()
    for title in titles:
        if m := _LETTERED_NUM.match(title):
            found[m.group("letters")] += 1
            if m.group("n"):
                nested.add(m.group("letters"))
    # letters that count: two or more single letters, each opening a section and what it holds
    counters = [p for p, count in found.items() if len(p) == 1 and count >= 2]
    if len(counters) >= 2 and nested & set(counters):
        return _COUNTING_LETTERS
    shared = [p for p, count in found.most_common() if count >= 3 and p in nested]
    return shared[0] if shared else ""


def section_number(title: str, lettering: str) -> tuple[re.Match[str] | None, str]:
    """A heading's section number and its id (``§1.2``; ``§S2.2``, ``§B.1`` in a lettered document)."""
    if (num := _SECTION_NUM.match(title)) is not None:
        return num, "§" + num.group("n")
    if not lettering or (num := _LETTERED_NUM.match(title)) is None:
        return None, ""
    letters, n = num.group("letters"), num.group("n") or ""
    if letters == lettering or (lettering == _COUNTING_LETTERS and len(letters) == 1):
        return num, "§" + letters + n
    return None, ""


def extended(headings: Sequence[Heading], numbered: dict[int, str]) -> dict[int, tuple[str, str]]:
    """The headings numbered by extension, by line: their id (``§R5.c``) and title (what follows the counter).

    ``numbered`` holds the ids the other shapes gave (by line). A heading's counter is a number when it is its
    parent's counter and one more (``R5`` → ``R5.c``: both are numbers), or when it has the shape of such a
    parent at that parent's level (``## 丁 配比`` beside ``## 甲``, whose ``### 甲-1`` extends it). A document
    numbers so only when at least two headings extend their parent's: one ``## H100`` with a ``### H100-1``
    beneath it is no numbering."""
    counters: dict[int, tuple[str, re.Match[str] | None]] = {}
    for h in headings:
        if h.line in numbered:
            counters[h.line] = (numbered[h.line][1:], None)
        elif m := _COUNTER.match(h.title):
            counters[h.line] = (m.group("n"), m)
    found: dict[int, str] = {}
    parents: set[tuple[int, str]] = set()  # (level, shape) of the parents whose children extend them
    extensions = 0
    stack: list[Heading] = []
    for h in headings:
        while stack and stack[-1].level >= h.level:
            stack.pop()
        parent = stack[-1] if stack else None
        stack.append(h)
        if parent is None or h.line not in counters or parent.line not in counters:
            continue
        mine, theirs = counters[h.line][0], counters[parent.line][0]
        # a code's case is the writer's (``## HW`` over ``### hw.01``)
        if mine.lower().startswith(theirs.lower()) and _ONE_MORE.fullmatch(mine[len(theirs) :]):
            found[h.line] = mine
            found[parent.line] = theirs
            parents.add((parent.level, _shape(theirs)))
            extensions += 1
    if extensions < _EXTENSIONS:
        return {}
    for h in headings:  # a parent's sibling of its shape: ``## 丁`` with no subsection
        if h.line in counters and (h.level, _shape(counters[h.line][0])) in parents:
            found.setdefault(h.line, counters[h.line][0])
    out: dict[int, tuple[str, str]] = {}
    for h in headings:
        m = counters.get(h.line, ("", None))[1]
        if h.line in found and m is not None:
            out[h.line] = ("§" + found[h.line], h.title[m.end() :].strip(" ：:-—–｜|·、"))
    return out


def _shape(counter: str) -> str:
    """A counter's shape: each digit run ``9``, a Roman numeral ``Ⅰ`` (``IV`` is the shape of ``II``), a capital
    ``A``, a small letter ``a``, a stem ``甲``."""
    shape = re.sub(r"^[IVX]+(?![A-Z])", "Ⅰ", counter)
    shape = re.sub(r"\d+", "9", shape)
    shape = re.sub(r"[A-Z]", "A", shape)
    shape = re.sub(r"[a-z]", "a", shape)
    shape = re.sub(f"[{_GREEK}]", "α", shape)
    return re.sub(f"[{_STEMS}]", "甲", shape)
