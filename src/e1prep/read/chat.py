"""A pasted chat: whose words say how far the note's writer read.

People paste a group chat into their inbox note as it is: a speaker and a time over each message
(``kai 20:41``, Feishu's and Slack's copies) or on its line (``[14:31] ollie: …``). Only the writer's own
messages say how far the writer read; another speaker's question (``标题党？``) is no doubt about that
reading, and another speaker's read is theirs, not the writer's. The writer is the note's owner, the person
whose inbox folder holds it (``inbox/kai/…``).
"""

from __future__ import annotations

import re
from functools import cache

from ..text.lexicon import lexicon

#: a speaker and a time over a message (``kai 20:41``, ``flyp  16:02``, WeChat's ``阿杰 21:04``, a Slack export's
#: ``**mei**  09:12``, a Slack paste's ``**东东**  7:33 PM``), or opening it (``[14:31] ollie: …``)
_OVER = re.compile(
    r"^\s*(?P<bold>\*\*)?(?P<name>[A-Za-z\u4e00-\u9fff][\w.\-\u4e00-\u9fff]{0,23})(?(bold)\*\*)\s+\d{1,2}:\d{2}"
    r"(?:\s?[AaPp]\.?[Mm]\.?)?\s*$"
)
_OPENING = re.compile(r"^\s*\[\d{1,2}:\d{2}\]\s*(?P<name>[A-Za-z][\w.-]{0,23})\s*[:：]")
#: a chat is this many messages at least, from two speakers or more
_MESSAGES = 3


def writer_of(material: str) -> str | None:
    """The note's owner: the folder under ``inbox/`` that holds it (``inbox/kai/…`` → ``kai``)."""
    parts = material.split("/")
    return parts[parts.index("inbox") + 1].lower() if "inbox" in parts[:-2] else None


def own_words(text: str, writer: str | None) -> str:
    """``text`` with the messages of speakers other than ``writer`` made blank lines (one line for one
    line), when ``text`` is a chat in which the writer speaks; else ``text`` as it is."""
    if writer is None:
        return text
    lines = text.split("\n")
    speakers: list[str | None] = []  # who speaks on each line (None: before the first message)
    current: str | None = None
    starts = 0
    for line in lines:
        m = _OVER.match(line) or _OPENING.match(line)
        if m is not None:
            current = m["name"].lower()
            starts += 1
        speakers.append(current)
    names = {s for s in speakers if s is not None}
    if starts < _MESSAGES or len(names) < 2 or writer not in names:
        return text
    return "\n".join(line if who in (None, writer) else "" for line, who in zip(lines, speakers, strict=True))


@cache
def _posted() -> re.Pattern[str]:
    """A copied thread's post header: its author, maybe a role, what they did, and when (``**ericsun** commented
    on May 30, 2027``, ``**ko-mcore** (Member) commented on …``); the verbs are ``writing.toml [threads]``."""
    verbs = "|".join(re.escape(v) for v in sorted(lexicon().thread_posts, key=len, reverse=True))
    return re.compile(
        rf"^\s*(?P<bold>\*\*)?@?(?P<name>[A-Za-z][\w.\-]{{0,38}})(?(bold)\*\*)(?:\s+\([^)\n]{{1,20}}\))?"
        rf"(?:\s+(?:{verbs})\b.{{0,40}}|{_DOTTED_DATE})$"
    )


#: a discussion forum's post header after its author: maybe a role, then the date, parted by middle dots
#: (``**hzheng-kiln** · Maintainer · Jun 24, 2027``)
_DOTTED_DATE = r"(?:\s*·\s*[^·\n]{1,24}?)?\s*·\s*(?:[A-Z][a-z]{2,8}\.? \d{1,2}, \d{4}|\d{4}-\d{2}-\d{2})\s*"


def thread_posts(lines: list[str]) -> list[int]:
    """The header lines of a copied thread's posts (``**ericsun** commented on May 30, 2027``), when there are
    three or more from two authors or more; else none."""
    posted = _posted()
    found = {i: m["name"].lower() for i, line in enumerate(lines) if (m := posted.match(line))}
    return sorted(found) if len(found) >= _MESSAGES and len(set(found.values())) >= 2 else []


def speaker_lines(lines: list[str]) -> frozenset[int]:
    """The lines that stand over a chat's messages (``阿杰 21:04``) or a copied thread's posts (``**ericsun**
    commented on May 30, 2027``), when the lines hold a conversation: three messages or more, from two speakers
    or more. They head messages of one conversation, never items of a list."""
    posted = _posted()
    over = {i: m["name"].lower() for i, line in enumerate(lines) if (m := _OVER.match(line) or posted.match(line))}
    if len(over) < _MESSAGES or len(set(over.values())) < 2:
        return frozenset()
    return frozenset(over)
