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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

#: the counters of a Chinese sequence (天干: ``甲``, ``乙``, ``丙`` …) and the Chinese numerals, plain and formal
#: (``三``, ``叁``: ``## 【贰】`` over ``### 贰·1``), number sections as letters do, and so do Greek letters (``## β``
#: over ``### β3``)
_STEMS = "甲乙丙丁戊己庚辛壬癸一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾αβγδεζηθικλμνξοπρστυφχψω"
_GREEK = "αβγδεζηθικλμνξοπρστυφχψω"

#: the Chinese counters alone (no Greek letter): one opens a code or follows a joint (``三（五）``, ``甲-1``), never
#: a number directly (``§1.2一致`` is §1.2 and a word)
_CJK_STEMS = _STEMS.replace(_GREEK, "")
#: one piece of a section code, as documents number by their own signs (``chr1``, ``1q1``, ``0x33``, ``250Hz-2``,
#: ``(110)``, ``①-1``, ``∂3.2``, ``R3α``, ``D+1.3``, ``二（一）``): a number, a run of up to four Latin letters, a
#: Greek letter, a circled number, the sign ``∂``, or pieces in brackets
_PIECE = (
    rf"(?:\d+(?!\d)|[A-Za-z]{{1,4}}(?![A-Za-z])|[{_GREEK}\u2460-\u2473∂]"
    rf"|\((?:\d+|[A-Za-z]{{1,4}}|[{_CJK_STEMS}])\)|（[\d{_CJK_STEMS}]{{1,3}}）)"
)
#: a section code whatever its signs: pieces, maybe joined by ``.``, ``-``, ``+``, ``:``, ``/`` or ``·``; a
#: Chinese counter opens it or follows a joint or stands in brackets
SECTION_CODE_ANY = rf"(?:{_PIECE}|[{_CJK_STEMS}])(?:[.\-+:/·]?{_PIECE}|[.\-+:/·][{_CJK_STEMS}])*"
#: what may not follow a whole code (else it is a longer code's head, or a word)
_CODE_END = r"(?![A-Za-z0-9.\-+:/·(（])"
#: a code counts: a number, a Greek letter, a circled number, ``∂`` or a Chinese counter within its first signs
#: (``§and`` is no id)
_HAS_COUNTER = rf"[^\s§¶，。；、]{{0,11}}?[\d{_STEMS}\u2460-\u2473∂]"

#: a section's id as the brief and the notes write it: ``§`` and the number as the document writes it
#: (``§1.2``, ``§S2.2``, ``§B.1``, ``§C4``, ``§A``, ``§R5.c``, ``§3b``, ``§W-3``, ``§丙-4``, ``§甲``, ``§β3``,
#: ``§BEN:1``, ``§K·2``, and any code a document's sibling headings number by: ``§0x33``, ``§(110)``); a
#: document that signs its sections with a pilcrow (``¶22``) is read the same; the id without its sign is group 1
SECTION_ID = (
    rf"[§¶]\s*((?={_HAS_COUNTER})(?:{SECTION_CODE_ANY}){_CODE_END}|(?:[A-Z]{{1,4}}[.\-:·]?|[a-z]{{2,4}}[.\-:/]?(?=\d)|[{_STEMS}][-·]?)?\d+(?:\.\d+)*(?:[-:]\d+(?![\d.]))?(?:[./]?[a-z](?![A-Za-z0-9])|\([a-z]\))?"
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


def _with_parents(headings: Sequence[Heading]) -> Iterator[tuple[Heading, Heading | None]]:
    """Each heading, in document order, with the heading it stands under (the nearest one above of a higher level)."""
    stack: list[Heading] = []
    for h in headings:
        while stack and stack[-1].level >= h.level:
            stack.pop()
        yield h, stack[-1] if stack else None
        stack.append(h)


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
    for h, parent in _with_parents(headings):
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


#: a heading's leading code whatever its signs (``0x33 · 循环不变量``, ``(110) 数据库``, ``二（一）通用运行时``): whole,
#: before a space or a separator, or closed by its bracket; a code in brackets is the code (``[3b]``, ``〈2-1〉`` are
#: §3b, §2-1)
_HEAD_CODE = re.compile(
    rf"^(?P<open>[\[〈【〔])?(?P<n>{SECTION_CODE_ANY})(?(open)[\]〉】〕]|(?:(?<=[)）])|(?=[\s·｜|:：、—–]|$)))"
)
#: what makes a code a counter: a number, a Greek letter, a circled number, ``∂``, a Chinese counter
_COUNTS = re.compile(rf"[\d{_STEMS}\u2460-\u2473∂]")
#: a year is a date's, not a counter (``## 2026-10 动态``)
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
#: a shape numbers sections when at least this many headings have it ...
_SIBLINGS = 3
#: ... and their codes rise from one to the next in this share of the steps, in document order
_RISING = 2 / 3
#: what a child's code adds to its parent's: a joint and a piece, or a piece (``∂1`` → ``∂1.1``, ``R1`` → ``R1α``,
#: ``二`` → ``二（一）``)
_JOINED = re.compile(rf"[.\-+:/·]?(?:{_PIECE}|[{_CJK_STEMS}])")


def by_shape(headings: Sequence[Heading], numbered: set[int]) -> dict[int, tuple[str, str]]:
    """The headings numbered by their siblings' shape, by line: their id (``§0x33``) and title.

    Writers number by signs of their field (``chr1`` over ``1q1``, ``(110)``, ``①-1``, ``0x33``, ``250Hz-2``,
    ``∂3.2``, ``R3α``, ``D+1.3``, ``二（一）``). A heading's leading code is a section number when three or more
    headings open with codes of its shape (digits, letters, signs in the same places: ``0x10`` and ``0x11`` at any
    level), all different, rising in document order as counters do; so is a heading whose numbered children extend
    its code (``∂1`` over ``∂1.1``), with its siblings of its shape. Lines in ``numbered`` are numbered already. A lone
    ``## H100``, a year (``## 2026Q1``) or ``## H100``, ``## A100``, ``## B200`` (which count nothing) number
    nothing."""
    codes: dict[int, re.Match[str]] = {}
    groups: dict[str, list[Heading]] = {}
    for h in headings:
        if h.line in numbered or (m := _HEAD_CODE.match(h.title)) is None:
            continue
        if _COUNTS.search(m["n"]) and not _YEAR.search(m["n"]):
            codes[h.line] = m
            groups.setdefault(_shape(m["n"]), []).append(h)
    found: set[int] = set()
    for members in groups.values():
        written = [codes[h.line]["n"] for h in members]
        keys = [_order(code) for code in written]
        rising = sum(a < b for a, b in pairwise(keys))
        if len(written) >= _SIBLINGS and len(set(written)) == len(written) and rising >= _RISING * (len(keys) - 1):
            found.update(h.line for h in members)
    # a heading whose numbered children extend its code (``∂1`` over ``∂1.1``), and its siblings of its shape
    parents: set[tuple[int, str]] = set()
    for h, parent in _with_parents(headings):
        if parent is None or h.line not in found or parent.line not in codes or parent.line in found:
            continue
        mine, theirs = codes[h.line]["n"], codes[parent.line]["n"]
        if mine.startswith(theirs) and _JOINED.fullmatch(mine[len(theirs) :]):
            found.add(parent.line)
            parents.add((parent.level, _shape(theirs)))
    found.update(h.line for h in headings if h.line in codes and (h.level, _shape(codes[h.line]["n"])) in parents)
    return {
        h.line: ("§" + codes[h.line]["n"], h.title[codes[h.line].end() :].strip(" ：:-—–｜|·、"))
        for h in headings
        if h.line in found
    }


def _order(code: str) -> tuple[tuple[int, int | str], ...]:
    """A code's place among its siblings: numbers by value, letters in the alphabet, a Chinese or Greek counter or
    a circled number by its rank."""
    key: list[tuple[int, int | str]] = []
    for piece in re.findall(r"\d+|[A-Za-z]+|.", code):
        if piece.isascii() and piece.isdigit():
            key.append((0, int(piece)))
        elif piece.isascii() and piece.isalpha():
            key.append((1, piece))
        else:
            key.append((2, _STEMS.find(piece) if piece in _STEMS else ord(piece)))
    return tuple(key)


def _shape(counter: str) -> str:
    """A counter's shape: each digit run ``9``, a Roman numeral ``Ⅰ`` (``IV`` is the shape of ``II``), a capital
    ``A``, a small letter ``a``, a stem ``甲``."""
    shape = re.sub(r"^[IVX]+(?![A-Z])", "Ⅰ", counter)
    shape = re.sub(r"\d+", "9", shape)
    shape = re.sub(r"[A-Z]", "A", shape)
    shape = re.sub(r"[a-z]", "a", shape)
    shape = re.sub(f"[{_GREEK}]", "α", shape)
    shape = re.sub("[\u2460-\u2473]", "①", shape)
    return re.sub(f"[{_STEMS}]", "甲", shape)
