"""A note's Markdown footnotes (``…a linter for LeRobot datasets.[^1]`` over ``[^1]: https://… — read both end
to end``): a definition is the writer's own note on the text that cites it, often the only place that says
where a source is and how far it was read. It belongs to that text, not to whatever item it trails."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .lines import URL_RE

#: a footnote's definition: its label, then its first line's words (``[^2]: Marcus, in person, Tue 7/13.``)
DEFINITION = re.compile(r"^\s{0,3}\[\^(?P<label>[^\]\s]{1,20})\]:[ \t]*(?P<text>.*)$")
#: a citation of a footnote in running text (``…datasets.[^1]``), not its definition
CITATION = re.compile(r"\[\^([^\]\s]{1,20})\](?!:)")
#: a definition goes on in lines set in under it (CommonMark: four spaces, or a tab)
_CONTINUED = re.compile(r"^(?: {2,}|\t)\S")


@dataclass(frozen=True)
class Footnote:
    """One definition: the lines it spans (``start:end``), its words and the first URL in them."""

    label: str
    start: int
    end: int
    text: str
    url: str | None


def footnotes(lines: list[str]) -> dict[str, Footnote]:
    """The note's footnote definitions by label (the first definition of a label stands)."""
    out: dict[str, Footnote] = {}
    for i, line in enumerate(lines):
        if "[^" not in line or (m := DEFINITION.match(line)) is None:
            continue
        end = i + 1
        while end < len(lines) and _CONTINUED.match(lines[end]) and not DEFINITION.match(lines[end]):
            end += 1
        text = " ".join([m["text"].strip(), *(ln.strip() for ln in lines[i + 1 : end])]).strip()
        url = URL_RE.search(text)
        out.setdefault(m["label"], Footnote(m["label"], i, end, text, url.group(0).rstrip(".,;:)") if url else None))
    return out


def cited(text: str, notes: dict[str, Footnote]) -> list[Footnote]:
    """The footnotes ``text`` cites, in order of first citation."""
    if not notes or "[^" not in text:
        return []
    return [notes[label] for label in dict.fromkeys(CITATION.findall(text)) if label in notes]


def definition_lines(notes: dict[str, Footnote]) -> frozenset[int]:
    """The lines of every definition."""
    return frozenset(i for note in notes.values() for i in range(note.start, note.end))
