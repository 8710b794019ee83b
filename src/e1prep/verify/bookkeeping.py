"""The brief's own bookkeeping, which is not a claim and needs no grounding.

Source paths and material keys, card field names in any case, section ids, evidence labels, the
tool's vocabulary (the compounds of ``data/phrases.toml``) and the team's stage names
(``data/writing.toml`` ``[bookkeeping]``): a brief names them to say where a claim comes from, not to claim anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..brief.models import EVIDENCE_LABELS, EVIDENCE_LABELS_EN, ContradictionKind, EvidenceLevel, MaterialKind
from ..brief.phrases import tool_words
from ..kb.knowledge import KnowledgeDoc
from ..kb.loading import KB
from ..text.lexicon import lexicon

#: a word joined inside (``full-text``, ``e.g``, ``paper_card``)
_COMPOUND = re.compile(r"\w[\-_./]\w")


@dataclass
class Bookkeeping:
    """What of a brief's text is bookkeeping, for one KB."""

    words: frozenset[str]
    pattern: re.Pattern[str]
    _spans: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    @classmethod
    def of(cls, kb: KB, doc: KnowledgeDoc) -> Bookkeeping:
        lex = lexicon()
        words = {w.casefold() for w in lex.bookkeeping}
        words |= {k.value for k in (*EvidenceLevel, *MaterialKind, *ContradictionKind)}
        words |= set(EVIDENCE_LABELS.values()) | {w.casefold() for w in EVIDENCE_LABELS_EN.values()}
        # the compounds of the sentences e1prep itself writes (``full-text``, ``mix-up``) name nothing; its
        # plain words are not taken: a capitalised word a reader wrote is still a name to ground
        words |= {w.casefold() for w in tool_words() if _COMPOUND.search(w)}
        for m in (*kb.materials, *kb.spot_checks):
            words.add(m.path.casefold())
            for name in m.front:
                key = str(name).casefold()
                words.add(key)
                words.update(part for part in key.split("_") if len(part) > 1)
        words |= {s.id.casefold() for s in doc.sections}
        named = "|".join(re.escape(w) for w in sorted(lex.bookkeeping, key=len, reverse=True))
        shapes = [*lex.bookkeeping_shapes, rf"(?<![\w-])(?:{named})(?![\w-])"]
        return cls(frozenset(words), re.compile("|".join(f"(?:{s})" for s in shapes)))

    def is_word(self, word: str) -> bool:
        """A bookkeeping word as a whole (any case)."""
        return word.strip().casefold() in self.words or self.pattern.fullmatch(word.strip()) is not None

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where bookkeeping tokens stand in ``text`` (remembered for the verification: its texts recur)."""
        found = self._spans.get(text)
        if found is None:
            found = self._spans[text] = [m.span() for m in self.pattern.finditer(text)]
        return found
