"""Text as a person sees it: what the evidence reader must read, and nothing a renderer hides.

Two layers, because they serve two purposes:

* :func:`without_hidden` runs once on every file the KB gives (``kb.loading``). It removes what no
  reader of the rendered note ever sees: HTML comments (their line breaks stay, so line numbers
  hold) and invisible format characters (zero-width spaces, bidi controls, soft hyphens, tag
  characters). Numbers, quotes and citations are then made from the text a person reads.
* :func:`projection` is the marker reader's view of one remark or item (``read.markers``). It folds
  what looks alike into the marker vocabulary's own letters (full-width and mathematical letters,
  Cyrillic and Greek look-alikes, traditional characters) and joins what the eye joins (emphasis
  split inside a word, a soft line wrap, a zero-width joiner or variation selector). It keeps a map
  from each of its characters back to the text, so every hit is still reported where it was written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

import opencc

#: HTML comments, as CommonMark reads them (``<!-- … -->``, across lines); an unclosed one runs to the end
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
#: format characters a renderer does not draw: zero-width space/non-joiner, marks, bidi controls, word
#: joiner and invisible operators, the BOM, the soft hyphen, and tag characters (U+E0000–E007F). The
#: zero-width joiner stays here (it builds emoji sequences); the projection drops it inside words.
_HIDDEN = re.compile(
    "[\u00ad\u180e\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\U000e0000-\U000e007f]"
)


#: a Marp slide deck: front matter that says ``marp: true``. Marp shows a comment that is no directive to the
#: presenter beside its slide (its speaker notes): the writer's own words, read as such
_MARP = re.compile(r"\A---[ \t]*\n(?:(?!---)[^\n]*\n)*?marp[ \t]*:[ \t]*true[ \t]*\n")
#: a Marp directive in a comment (``<!-- _class: lead -->``, ``<!-- paginate: false -->``): the deck's settings
_DIRECTIVE = re.compile(r"<!--\s*_?[\w-]+\s*:[^\n]*?-->")


@dataclass(frozen=True)
class Hidden:
    """What :func:`without_hidden` took out, and the speaker notes it kept: counts for the material's warning."""

    comments: int = 0
    characters: int = 0
    notes: int = 0

    def __bool__(self) -> bool:
        return bool(self.comments or self.characters or self.notes)

    def describe(self) -> str:
        parts = []
        if self.comments:
            parts.append(f"{self.comments} HTML comment(s)")
        if self.characters:
            parts.append(f"{self.characters} invisible format character(s)")
        said = " and ".join(parts) + " removed: a reader of the rendered note never sees them" if parts else ""
        kept = f"{self.notes} speaker note(s) of a Marp deck read as the writer's text" if self.notes else ""
        return "; ".join(x for x in (said, kept) if x)


def without_hidden(text: str) -> tuple[str, Hidden]:
    """``text`` with HTML comments blanked (their line breaks kept) and invisible format characters removed; in a
    Marp deck, a comment that is no directive is a speaker note: its words stay, its ``<!--`` and ``-->`` go."""
    comments = notes = 0
    if "<!--" in text:
        deck = _MARP.match(text) is not None

        def blank(m: re.Match[str]) -> str:
            nonlocal comments, notes
            if deck and not _DIRECTIVE.fullmatch(m.group(0)) and m.group(0).endswith("-->"):
                notes += 1
                return "    " + m.group(0)[4:-3] + "   "  # the same columns: quotes stay verbatim
            comments += 1
            return "\n" * m.group(0).count("\n")

        text = _COMMENT.sub(blank, text)
    characters = 0
    if not text.isascii():
        text, characters = _HIDDEN.subn("", text)
    return text, Hidden(comments, characters, notes)


_UNSEEN_IN_SYMBOLS = re.compile(r"\*\*|~~|[\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]|" + _HIDDEN.pattern)


def bare_symbols(text: str) -> str:
    """``text`` with what never changes how a symbol reads removed: joiners, variation selectors, hidden
    characters, bold and strike-through marks (a single ``*`` stays: a legend may use it as a symbol)."""
    return _UNSEEN_IN_SYMBOLS.sub("", text)


# --- the marker reader's projection -------------------------------------------------------------

#: Cyrillic and Greek letters drawn like Latin ones (the lower case the reader compares in; upper case
#: folds through ``str.lower`` first). A mixed-script word is how a disguised ``unverified`` is written.
_LOOKALIKES = {
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l",
    "ԛ": "q", "ԝ": "w", "ɡ": "g", "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ℓ": "l", "ı": "i",
}  # fmt: skip


@cache
def _fold_table() -> dict[int, str]:
    """One-to-one folds: look-alikes, and every letter whose compatibility form is one ASCII letter
    (full-width ``ｕ``, mathematical ``𝐮``, …); digits and circled counters (``①``) stay as written."""
    table = {ord(k): v for k, v in _LOOKALIKES.items()}
    table.update({ord(k.upper()): v.upper() for k, v in _LOOKALIKES.items() if len(k.upper()) == 1 and k.upper() != k})
    for lo, hi in ((0xFF21, 0xFF3A), (0xFF41, 0xFF5A), (0x1D400, 0x1D6A3), (0x1D00, 0x1D7F), (0x2100, 0x214F)):
        for cp in range(lo, hi + 1):
            ch = chr(cp)
            if not unicodedata.category(ch).startswith("L"):
                continue
            plain = unicodedata.normalize("NFKC", ch)
            if len(plain) == 1 and plain.isascii() and plain.isalpha():
                table[cp] = plain
    return table


@cache
def _to_simplified() -> opencc.OpenCC:
    return opencc.OpenCC("t2s")


def _simplified(text: str) -> str:
    """Traditional characters as simplified ones, one for one (the marker table is written in simplified)."""
    out: str = _to_simplified().convert(text)
    if len(out) == len(text):
        return out
    convert = _to_simplified().convert  # a phrase rule changed the length: fold character by character
    return "".join(c if len(c := str(convert(ch))) == 1 else ch for ch in text)


#: what the eye does not see as letters: emphasis and strike-through delimiters (``未**核实**``,
#: ``n*o*t``; an underscore between two letters or digits is part of a name and stays), the zero-width
#: joiner, variation selectors, and (for text that did not come through the loader) every hidden character
_JOINED = re.compile(
    r"\*+|~~|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])|[\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]|" + _HIDDEN.pattern
)
#: a soft line wrap: a line break (and the next line's indentation) inside one paragraph or list item;
#: a blank line, a new list item, heading, table row, quote or labelled line (``核查：``) starts a new
#: block and is not a wrap
_WRAP = re.compile(r"(?<=\S)[ \t]*\n[ \t]*(?![\s\-*+>#|]|\d{1,3}[.)、]|[^\s:：|]{1,12}[:：]|\Z)")


@dataclass(frozen=True)
class Projection:
    """The reader's view of a text, and where each of its characters came from."""

    text: str
    #: ``origin[i]`` is the index in the written text of the view's character ``i`` (one more entry,
    #: for the end); None when the view is the text itself, character for character
    origin: tuple[int, ...] | None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The written text's span of the view's ``[start, end)``."""
        if self.origin is None:
            return start, end
        last = len(self.origin) - 1  # a hit found in the lower-cased view may run past it (``İ`` lowers to two)
        start, end = min(start, last), min(end, last)
        if end <= start:
            return self.origin[start], self.origin[start]
        return self.origin[start], self.origin[end - 1] + 1


def projection(text: str) -> Projection:
    """What the marker reader compares: ``text`` folded and joined as a reader of the rendered note sees it."""
    view = text if text.isascii() else _simplified(text.translate(_fold_table()))
    removals = _removals(view) if _may_join(view) else []
    if not removals:
        return Projection(view, None)
    pieces: list[str] = []
    origin: list[int] = []
    at = 0
    for start, end, replacement in removals:
        pieces += [view[at:start], replacement]
        origin.extend(range(at, start))
        origin.extend([start] * len(replacement))
        at = end
    pieces.append(view[at:])
    origin.extend(range(at, len(view) + 1))
    return Projection("".join(pieces), tuple(origin))


def _may_join(text: str) -> bool:
    """Whether anything could be joined: one cheap look before the regexes."""
    return not text.isascii() or any(c in text for c in "*_~\n")


def _removals(text: str) -> list[tuple[int, int, str]]:
    """Spans to drop (or to replace by one space), left to right and not overlapping."""
    spans: list[tuple[int, int, str]] = []
    for m in _JOINED.finditer(text):
        spans.append((m.start(), m.end(), ""))
    if "\n" in text:
        for m in _WRAP.finditer(text):
            before, after = text[m.start() - 1], text[m.end()] if m.end() < len(text) else ""
            cjk = _is_cjk(before) and _is_cjk(after)
            spans.append((m.start(), m.end(), "" if cjk else " "))
    spans.sort()
    out: list[tuple[int, int, str]] = []
    for s in spans:
        if out and s[0] < out[-1][1]:
            continue
        out.append(s)
    return out


def _is_cjk(ch: str) -> bool:
    return bool(ch) and ("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff")
