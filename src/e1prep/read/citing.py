"""Which arXiv ids of a batch may be cited: an id follows the evidence of the items that cite it.

An id is citable when the living document already anchors it (it is cited there already), or when an
item that cites it was read at a level that establishes it: read in full or in part (``verified``,
``partial``), or the id is a paper card's own (``card``: the collector read it off arXiv). An id seen only
in a search snippet, behind a login wall or a 403, in a summary, in a vendor's claim, in a remark nobody
checked, or in the body of a card that is not its own is not citable: it is listed with that reason
(the brief's own rule: no paper whose original was not read is filed to make up the count).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..brief.models import EvidenceLevel, MaterialKind, MaterialStatus
from ..brief.phrases import Phrases, phrases
from ..kb.knowledge import arxiv_ids, well_formed_arxiv
from ..kb.loading import Material
from .markers import RANK
from .notes import note_items

#: the levels at which an item that cites an id establishes it
CITING_LEVELS = frozenset({EvidenceLevel.verified, EvidenceLevel.partial, EvidenceLevel.card})


@dataclass(frozen=True, slots=True)
class Citing:
    """How the best-read item that cites an id was read: its level, and the access problem it states."""

    level: EvidenceLevel
    blocked: str | None = None

    def better(self, other: Citing) -> Citing:
        """The better-read of two (an unblocked reading beats a blocked one at the same level)."""
        if RANK[other.level] != RANK[self.level]:
            return other if RANK[other.level] > RANK[self.level] else self
        return self if self.blocked is None else other


def citing(materials: Iterable[Material]) -> dict[str, Citing]:
    """arXiv id → how the best-read item of ``materials`` that cites it was read."""
    out: dict[str, Citing] = {}

    def seen(arxiv: str, how: Citing) -> None:
        out[arxiv] = out[arxiv].better(how) if arxiv in out else how

    for m in materials:
        if m.status is not MaterialStatus.read:
            continue
        if m.kind in (MaterialKind.paper_card, MaterialKind.repo_card):
            own = str(m.front.get("arxiv") or "") if m.kind is MaterialKind.paper_card else ""
            for arxiv in arxiv_ids(m.text):  # another paper named in a card's text: what the card says of it
                seen(arxiv, Citing(EvidenceLevel.card if arxiv == own else EvidenceLevel.summary))
            continue
        for item in note_items(m):
            for arxiv in item.arxiv:
                seen(arxiv, Citing(item.evidence, item.access_blocked))
        for arxiv in arxiv_ids(m.text):  # outside every item: nothing states how it was read
            seen(arxiv, Citing(EvidenceLevel.unverified))
    return out


def citable(how: Citing | None, anchored: bool, say: Phrases | None = None, arxiv: str = "") -> tuple[bool, str]:
    """(may the id be cited?, why not, in the brief's language ``say``, default Chinese): anchored already,
    or cited by an item at a citing level; never an id ``arxiv`` cut short (``2704.1187``), however it is read."""
    if arxiv and not well_formed_arxiv(arxiv):
        return False, (say or phrases())("citing.cut_short")
    if anchored:
        return True, ""
    if how is not None and how.level in CITING_LEVELS:
        return True, ""
    level = how.level if how is not None else EvidenceLevel.unverified
    say = say or phrases()
    blocked = say("rules.known_where", sections=how.blocked) if how is not None and how.blocked else ""
    return False, say("citing.not_citable", level=say.level(level), blocked=blocked)
