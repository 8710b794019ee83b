"""A pasted e-mail: one message, about what its subject says.

People forward a thread to the team's inbox as it is: header fields (``From:``, ``Subject:``), the
writer's reply, the earlier messages quoted under it. Such a note is one message about one thing; the
points its body numbers are the reply's, not items of their own. The header fields are data
(``data/writing.toml`` ``[mail]``).
"""

from __future__ import annotations

import re
from functools import cache

from ..text.lexicon import lexicon

#: a header field's line: its name and its value; a mail client's export may bold the name (``**From:** …``,
#: ``**From**: …``)
_FIELD = re.compile(r"^\s*(\*\*)?([A-Za-z-]{2,12}|[\u4e00-\u9fff]{2,4})(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*(.*?)\s*$")
#: how far into a note its header block may start (a line of the writer's own may precede it)
_REACH = 3
#: a signature's delimiter (``-- ``), and how many lines a signature may run to
_SIGNATURE = re.compile(r"^--\s?$")
_SIGNATURE_LINES = 6
#: a quoted line of an earlier message, and the line that attributes it (``On Tue, … wrote:``)
_QUOTED = re.compile(r"^\s{0,3}>")
_ATTRIBUTION = re.compile(r"\b(?:wrote|schrieb|a écrit)\s*:\s*$|写道\s*[:：]\s*$")
#: a reply of this many lines of its own is the message; the thread it quotes is context
_REPLY_LINES = 4
#: a mailing list's tag before a subject (``[serving]``)
_LIST_TAG = re.compile(r"^\s*[\[【][^\]】\n]{1,30}[\]】]\s*")


def message(lines: list[str]) -> tuple[str, list[str]] | None:
    """The e-mail ``lines`` open with, if they do: its subject and its lines as its writer wrote them
    (one line for one line: line numbers stay), the header fields, the signature and, under a reply of
    its own, the earlier messages it quotes made blank lines."""
    subject = _subject(lines)
    if subject is None:
        return None
    own = list(lines)
    header_end = next(i for i, line in enumerate(lines) if _is_header(line))
    while header_end < len(own) and (_is_header(own[header_end]) or not own[header_end].strip()):
        own[header_end] = ""
        header_end += 1
    sign = next((i for i in range(len(own) - 1, -1, -1) if _SIGNATURE.match(own[i])), None)
    if sign is not None and len(own) - sign <= _SIGNATURE_LINES:
        own[sign:] = [""] * (len(own) - sign)
    quoted = {i for i, line in enumerate(own) if _QUOTED.match(line) or _ATTRIBUTION.search(line)}
    reply = sum(1 for i, line in enumerate(own) if line.strip() and i not in quoted)
    if reply >= _REPLY_LINES:
        for i in sorted(quoted):
            own[i] = ""
    return subject, own


@cache
def _postscript_mark() -> re.Pattern[str]:
    """What opens a postscript's line (``P.S.``, ``**PS:**``, ``附言：``; ``writing.toml [mail] postscript``)."""
    words = "|".join(re.escape(w) for w in sorted(lexicon().mail["postscript"], key=len, reverse=True))
    return re.compile(rf"^\s*(?:\*\*)?(?:{words})(?:\*\*)?[\s:：,，]*", re.I)


def postscript(lines: list[str]) -> tuple[int, str] | None:
    """Where a message's afterthought starts (``P.S. 还有一篇《…》``, ``附言：``), and that line without its mark."""
    opens = _postscript_mark()
    for i, line in enumerate(lines):
        if (m := opens.match(line)) and (m.end() == len(line) or not line[m.end() - 1].isalnum()):
            return i, line[m.end() :]
    return None


def replies(lines: list[str]) -> bool:
    """Whether the note quotes an earlier message it attributes (``On Thu, … Mei wrote:``, ``…写道：``)."""
    return any(_ATTRIBUTION.search(line) for line in lines)


def _subject(lines: list[str]) -> str | None:
    """The subject of the e-mail ``lines`` open with, without a reply's prefixes and a list's tag: the
    note starts (within its first lines) with two or more header fields, one of them its subject."""
    mail = lexicon().mail
    subjects = set(mail["subject"])
    found: dict[str, str] = {}
    filled = (line for line in lines if line.strip())  # read only as far as the header block goes
    for n, line in enumerate(filled):
        m = _FIELD.match(line)
        if m and _is_header(line):
            found.setdefault(m.group(2).lower(), m.group(3))
        elif found or n >= _REACH:
            break
    subject = next((found[s] for s in subjects if s in found), None)
    if subject is None or len(found) < 2:
        return None
    return _plain_subject(subject, mail["reply_prefixes"]) or None


def _is_header(line: str) -> bool:
    m = _FIELD.match(line)
    return bool(m and m.group(2).lower() in lexicon().mail["headers"])


def _plain_subject(subject: str, prefixes: tuple[str, ...]) -> str:
    """``Re: Fwd: [serving] Sluice`` → ``Sluice``."""
    reply = re.compile(rf"^\s*(?:{'|'.join(re.escape(p) for p in prefixes)})\s*[:：]\s*", re.I)
    while True:
        bare = _LIST_TAG.sub("", reply.sub("", subject, count=1), count=1)
        if bare == subject:
            return subject.strip()
        subject = bare
