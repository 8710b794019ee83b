"""A citation's quote: the text a number stands in, or a window of it around the number when it is long.

A long line quoted whole for each of its numbers is copied once per number: a 2 MB table row of ``1%``
cells would make a brief of terabytes. A line of ordinary length (every line of the golden and held-out
cases) is quoted whole, as a reader quotes it; a longer one gives each number the clause around it, cut
at a word boundary and marked with an ellipsis where it was cut (the verifier reads the marks as cuts).
"""

from __future__ import annotations

import re

from .numbers import NumberToken

#: a text up to this many characters is quoted whole (the longest line of an eval case holds 984)
QUOTE_WHOLE_MAX = 1024
#: characters kept each side of the number in a window of a longer text
QUOTE_REACH = 120
#: marks where a window was cut from its text
CUT = "…"
#: where a window may be cut: a space or a clause's punctuation (CJK text has no spaces)
_BOUNDARY = re.compile(r"[\s,;，；、。|]")


def quote_around(text: str, start: int, end: int) -> str:
    """``text`` (stripped) when it is short; else the window of it around ``text[start:end]``."""
    if len(text) <= QUOTE_WHOLE_MAX:
        return text.strip()
    lo, hi = max(start - QUOTE_REACH, 0), min(end + QUOTE_REACH, len(text))
    if lo > 0:  # start after the first boundary of the reach before the number, when there is one
        cut = _BOUNDARY.search(text, lo, start)
        lo = cut.end() if cut else lo
    if hi < len(text):  # end before the last boundary of the reach after it
        cuts = [m.start() for m in _BOUNDARY.finditer(text, end, hi)]
        hi = cuts[-1] if cuts else hi
    window = text[lo:hi].strip()
    return (CUT if lo > 0 else "") + window + (CUT if hi < len(text) else "")


def quote_of(text: str, token: NumberToken) -> str:
    """The quote of a number of ``text`` (``token``, read from ``text``): ``text`` whole when it is short."""
    if len(text) <= QUOTE_WHOLE_MAX or text[token.start : token.end] != token.text:
        return text.strip()
    return quote_around(text, token.start, token.end)


def uncut(quote: str) -> str:
    """A window's text without the marks of its cuts (a quote not cut is returned as it is)."""
    return quote.removeprefix(CUT).removesuffix(CUT)
