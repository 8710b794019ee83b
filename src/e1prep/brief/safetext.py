"""Data stays data on the way out: one escaping layer for Markdown and one for the terminal.

``md(text)`` makes any string from the KB or a model safe to place inside one line of the brief:
no line break, heading, list marker, table cell, HTML tag, link, control or tag character survives,
and the text stays readable (``a | b`` renders as ``a | b``). ``terminal_safe(text)`` makes it
safe for stderr: control characters (ESC, BEL, CR, line breaks) are shown as ``\\x1b``-style
escapes, so KB text can neither move the cursor nor forge a second line.
"""

from __future__ import annotations

import logging
import re

#: C0 and C1 controls, DEL, the invisible format characters that reorder or hide text, and the tag
#: characters (U+E0000–U+E007F), which spell invisible ASCII inside text a reader sees as something else
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)
#: every kind of line break, with the blanks around it
_BREAKS = re.compile("[ \t]*[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+[ \t]*")
#: a pipe with the backslashes before it (an even number would leave the pipe live)
_PIPE = re.compile(r"(\\*)\|")
#: what makes a line a heading, quote, list item, rule or table row when it starts the line
_LEADING = re.compile(r"^(?:#{1,6}(?=\s|$)|>|[-+*](?=\s|$)|([-*_=~])(?:\s*\1){2})")
_ORDINAL = re.compile(r"^(\d{1,9})([.)])(?=\s|$)")


def md(text: object) -> str:
    """One line of inert Markdown text for any value taken from the KB or a model."""
    s = ("" if text is None else str(text)).replace("\t", " ")
    s = _BREAKS.sub(" ", s)
    s = _CONTROL.sub("", s).strip()
    s = _PIPE.sub(lambda m: m.group(1) * 2 + "\\|", s)
    if s.count("`") % 2:  # an unpaired backtick would open a code span across the brief's own text
        s = s.replace("`", "\\`")
    s = s.replace("<", "&lt;").replace("[", "\\[")
    if _LEADING.match(s):
        return "\\" + s
    return _ORDINAL.sub(r"\1\\\2", s)


def md_comment(text: object) -> str:
    """A value inside an HTML comment: one line, no control character, no ``--`` or ``>`` that could close it."""
    s = _CONTROL.sub("", _BREAKS.sub(" ", ("" if text is None else str(text)).replace("\t", " "))).strip()
    return s.replace("--", "- -").replace("<", "&lt;").replace(">", "&gt;")


def _escape_char(m: re.Match[str]) -> str:
    c = ord(m.group(0))
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}"


_TERMINAL = re.compile("[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\U000e0000-\U000e007f]")
_TERMINAL_KEEP_NL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\U000e0000-\U000e007f]")


def terminal_safe(text: object, *, keep_newlines: bool = False) -> str:
    """``text`` with control characters shown as escapes (``\\x1b``), one line unless ``keep_newlines``."""
    rx = _TERMINAL_KEEP_NL if keep_newlines else _TERMINAL
    return rx.sub(_escape_char, str(text))


class TerminalSafeFormatter(logging.Formatter):
    """A formatter whose records can carry KB text: each record is one line, without control characters."""

    def format(self, record: logging.LogRecord) -> str:
        return terminal_safe(super().format(record))
