"""Numbers compared by value: a text's number and its citation, a citation and its material.

Writing does not change a number: thousands separators, full-width digits, spacing, a ``+`` on a
positive change, ``1.2万`` for ``12000``. What does change it: a sign, a magnitude (``万``, ``亿``, ``k``),
a kind (``12%`` is not ``12 倍`` nor ``12 ms``) or a unit of measure (``ms`` is not ``s``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ..read.numbers import scan
from ..text.memo import run_memo

#: what a magnitude word multiplies by
_SCALE = {"万亿": 1e12, "亿": 1e8, "万": 1e4, "千": 1e3, "k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}
_PART = re.compile(r"(?P<sign>[+\-])?[$¥€£]?(?P<num>\d+(?:\.\d+)?)\s?(?P<mag>万亿|亿|万|千|[kKMBT](?![A-Za-z]))?")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
#: a unit of measure in its base unit (seconds, bytes): ``42.3 ms`` is not ``42.3 s``
_UNIT_SCALE = {
    "ns": 1e-9,
    "μs": 1e-6,
    "us": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "秒": 1.0,
    "min": 60.0,
    "分钟": 60.0,
    "h": 3600.0,
    "小时": 3600.0,
    "天": 86400.0,
    "周": 604800.0,
    "kb": 1e3,
    "mb": 1e6,
    "gb": 1e9,
    "tb": 1e12,
    "mib": 2**20,
    "gib": 2**30,
}
#: units of measure, by what they measure: two numbers in different units of one row differ
_MEASURES = (
    ("time", re.compile(r"^(?:ms|μs|us|ns|s|min|h|小时|分钟|秒|天|周)$", re.I)),
    ("rate", re.compile(r"/s$|/天|/day|qps|rps|tpm", re.I)),
    ("size", re.compile(r"^(?:gib|gb|mib|mb|tb|kb)$", re.I)),
)


@dataclass(frozen=True)
class Value:
    """One number as a value: its amount (signed, magnitude applied), its kind and its measure."""

    amount: float
    kind: str | None  # "percent", "multiplier", "money" or None
    measure: str | None  # "time", "rate", "size" or None
    #: the amount as written, before its unit's scale (``152.6ms``: 152.6)
    written: float | None = None

    def same(self, other: Value) -> bool:
        """Equal amounts, and no kind or measure that one states and the other contradicts. A number
        that states no measure is compared as written (``152.6→42.3ms``: the unit stands once, at the end)."""
        if (self.measure is None) != (other.measure is None):
            mine = self.amount if self.written is None else self.written
            theirs = other.amount if other.written is None else other.written
            if not _close(mine, theirs) and not _close(self.amount, other.amount):
                return False
        elif not _close(self.amount, other.amount):
            return False
        if self.kind != other.kind and None not in (self.kind, other.kind):
            return False
        if (self.kind is None) != (other.kind is None) and "percent" in (self.kind, other.kind):
            return False  # ``12%`` is not ``12``, nor ``12 ms``
        return self.measure == other.measure or None in (self.measure, other.measure)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


@run_memo  # a citation's text is asked for by its object's claims, its key points and the brief's
def values(text: str) -> tuple[Value, ...]:
    """The values of every quantity in ``text`` (a range gives both ends)."""
    out: list[Value] = []
    for tok in scan(text):
        if tok.kind != "quantity":
            continue
        out += _token_values(tok.text, tok.type, tok.unit)
    return tuple(out)


@lru_cache(maxsize=256)  # a note's numbers share a handful of units; most have none (no table is read)
def _measure(unit: str) -> str | None:
    """What a unit measures (the first of ``_MEASURES`` that reads it), None when nothing does."""
    return next((name for name, rx in _MEASURES if rx.search(unit)), None)


def _token_values(text: str, typ: str, unit: str | None) -> list[Value]:
    norm = _THOUSANDS.sub("", unicodedata.normalize("NFKC", text)).replace("−", "-").replace("–", "-")
    kind = {"percent": "percent", "multiplier": "multiplier", "money": "money"}.get(typ)
    if kind is None and "%" in norm:
        kind = "percent"
    measure = _measure(unit.strip()) if unit else None
    found: list[Value] = []
    scale = _UNIT_SCALE.get((unit or "").strip().lower(), 1.0)
    for m in _PART.finditer(norm):
        written = float(m.group("num")) * _SCALE.get(m.group("mag") or "", 1.0)
        if m.group("sign") == "-" and (m.start() == 0 or not norm[m.start() - 1].isdigit()):
            written = -written
        found.append(Value(written * scale, kind, measure, written))
    if typ == "range" and len(found) == 2 and found[1].amount < 0 <= found[0].amount:
        first = found[1]  # ``64-128``: the dash is not a sign
        found[1] = Value(-first.amount, kind, measure, None if first.written is None else -first.written)
    return found


def carries(cited: tuple[Value, ...], value: Value) -> bool:
    """Whether one of a citation's values is ``value``."""
    return any(value.same(c) for c in cited)


def bears(line: str, cite_text: str) -> bool:
    """Whether every value of a citation stands on a material line (spaces as written: a line is not
    normalised first, so ``GLM-5.2 8 卡`` never fuses into ``GLM-5.28``)."""
    wanted = values(cite_text)
    if not wanted:
        return False
    present = values(line)
    return all(any(w.same(p) for p in present) for w in wanted)


_MONTHS = {
    m: n for n, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)
}
#: a date in the forms people write: ``2026-10-17``, ``2026/10/17``, ``2026年10月17日``, ``10月17日``,
#: ``Oct 17``, ``OCT. 20, 2026``, ``17 Oct 2026``, ``Oct 2026``, ``1 月``
DATE = re.compile(
    r"(?P<y1>(?:19|20)\d{2})[-/.年]\s?(?P<m1>\d{1,2})(?:[-/.月]\s?(?P<d1>\d{1,2})日?|月)"
    r"|(?P<m2>\d{1,2})\s?月\s?(?P<d2>\d{1,2})\s?日"
    r"|\b(?P<mn3>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s?(?P<d3>\d{1,2})\b(?:,?\s?(?P<y3>(?:19|20)\d{2}))?"
    r"|\b(?P<d4>\d{1,2})\s(?P<mn4>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s(?P<y4>(?:19|20)\d{2})"
    r"|\b(?P<mn5>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s(?P<y5>(?:19|20)\d{2})\b"
    r"|(?<!\d)(?P<m6>\d{1,2})\s?月(?![\d份])",
    re.I,
)

#: (year or 0, month, day or 0)
Day = tuple[int, int, int]


def _day(m: re.Match[str]) -> Day | None:
    g = m.groupdict()
    for n in "123456":
        month = g.get(f"m{n}") or g.get(f"mn{n}")
        if month:
            mon = int(month) if month.isdigit() else _MONTHS[month[:3].lower()]
            day = int(g.get(f"d{n}") or 0)
            if 1 <= mon <= 12 and 0 <= day <= 31:
                return int(g.get(f"y{n}") or 0), mon, day
    return None


def date_of(text: str) -> Day | None:
    """The date a token names, if it is one (``Oct 17`` → (0, 10, 17))."""
    m = DATE.fullmatch(text.strip())
    return _day(m) if m is not None else None


def dates_in(text: str) -> set[Day]:
    """Every date of a text."""
    return {d for m in DATE.finditer(text) if (d := _day(m)) is not None}


def same_day(a: Day, b: Day) -> bool:
    """One date, where both say it: a year or a day left out is not a different one."""
    return a[1] == b[1] and (not a[0] or not b[0] or a[0] == b[0]) and (not a[2] or not b[2] or a[2] == b[2])


_CN_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 1e4, "亿": 1e8}
_ROMAN = {"ⅰ": 1, "ⅱ": 2, "ⅲ": 3, "ⅳ": 4, "ⅴ": 5, "ⅵ": 6, "ⅶ": 7, "ⅷ": 8, "ⅸ": 9, "ⅹ": 10, "ⅺ": 11, "ⅻ": 12}
#: numbers a text writes without its digits: Chinese numerals before 倍, 卡 or tokens, after 百分之, or
#: of hundreds and more (``一个`` is an article, not a count); circled and
#: Roman numerals before one (``三倍``, ``百分之三十五``, ``一百五十五万亿 tokens/天``, ``② 倍``, ``Ⅲ 倍``)
_HIDDEN = re.compile(
    r"(?P<pct>百分之)?(?P<cn>[零〇一二两三四五六七八九十百千万亿]*[一二两三四五六七八九十][零〇一二两三四五六七八九十百千万亿]*)"
    r"(?P<cnunit>\s?(?:倍|%|卡|tokens?|tok))?"
    r"|(?P<sym>[①-⑳Ⅰ-Ⅻⅰ-ⅻ])\s?(?P<symunit>倍|%|×|x|卡|次)"
)


_HIDDEN_GATE = re.compile(r"[一二两三四五六七八九十百千①-⑳Ⅰ-Ⅻⅰ-ⅻ]")


def _chinese(numeral: str) -> float | None:
    """The value of a Chinese numeral (``一百五十五万亿`` → 1.55e14); None when it is not one."""
    total, section, digit = 0.0, 0.0, None
    for ch in numeral:
        if ch in _CN_DIGITS:
            if digit is not None:  # two digits in a row (``一二``): not a numeral
                return None
            digit = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            section += (1 if digit is None else digit) * _CN_UNITS[ch]
            digit = None
        else:  # 万 / 亿 close a section (万亿 multiplies twice)
            total = (total + section + (digit or 0)) * _CN_BIG[ch]
            section, digit = 0.0, None
    return total + section + (digit or 0)


def hidden(text: str) -> list[tuple[int, int, str, Value]]:
    """The quantities of ``text`` written without digits: (start, end, as written, value)."""
    if _HIDDEN_GATE.search(text) is None:  # most texts hold no numeral but digits
        return []
    out = []
    for m in _HIDDEN.finditer(text):
        if m.group("sym"):
            sym = unicodedata.normalize("NFKC", m.group("sym")).lower()
            amount = float(sym) if sym.isdigit() else float(_ROMAN.get(m.group("sym").lower(), 0))
            unit = m.group("symunit")
        elif m.group("pct") or m.group("cnunit") or any(ch in m.group("cn") for ch in "百千万亿"):
            value = _chinese(m.group("cn"))
            if value is None:
                continue
            amount, unit = value, "%" if m.group("pct") else (m.group("cnunit") or "").strip()
        else:
            continue
        if not amount:
            continue
        kind = "percent" if unit == "%" else "multiplier" if unit in ("倍", "×", "x") else None
        out.append((m.start(), m.end(), m.group(0), Value(amount, kind, None)))
    return out


def digits_alike(a: float, b: float) -> bool:
    """Whether two amounts share their significant digits, two at least (``155 亿`` and ``155 万亿``; a
    lone digit shared says nothing)."""
    if not a or not b or len(f"{abs(a):.12g}".replace(".", "").strip("0")) < 2:
        return False
    ratio = abs(a / b)
    return any(_close(ratio, 10.0**k) for k in range(-15, 16))
