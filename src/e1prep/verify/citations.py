"""Citations held against their materials: the number borne out by value on its line, the quote verbatim,
the material one of the object's own and the line in the item it speaks of, the level the line states."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..brief.models import (
    Contradiction,
    EvidenceLevel,
    Increment,
    NumberCitation,
    Refresh,
    Violation,
    field_or,
)
from ..read.markers import RANK as _RANK
from ..read.markers import strictest
from ..read.notes import NoteItem
from ..read.numbers import normalize, number_cores, occurs_in, scan
from .facts import MaterialFacts
from .grounding import _KEY_WORD, _NAME_LIKE, _PARAMETER, Grounding
from .indexes import Carried, CitedIndex, NumberMemo, Spans
from .values import Value, bears, hidden

_VERSION = re.compile(r"v?(\d+\.\d+)(?:\.0)?")


#: a number of a key point as the binding asks for it: its numerals, and its values
#: a number of a key point (its numerals, its values) and the citations that quote the point's own line
_Bound = tuple[frozenset[str], tuple[Value, ...], tuple[int, ...]]


def _same_line(point: str, quote: str | None) -> bool:
    """Whether a key point is the line a citation quotes (spacing and emphasis aside)."""
    return bool(quote) and normalize(point.replace("*", "")) == normalize(str(quote).replace("*", ""))


class _PointLevels:
    """The citations of one increment, indexed once, and what keeps each number of its key points out of
    them: every number is bound by lookups, and each citation's level is read once, not once per number
    bound to it (a thousand identical bullets cite one line a thousand times)."""

    def __init__(self, citations: Sequence[NumberCitation], facts: dict[str, MaterialFacts], memo: NumberMemo) -> None:
        self.citations = citations
        self.facts = facts
        self.index = CitedIndex([memo.carried(c) for c in citations])
        self._levels: dict[int, EvidenceLevel | None] = {}
        self._found: dict[_Bound, EvidenceLevel | None] = {}

    def level(self, cores: frozenset[str], wanted: tuple[Value, ...], point: str = "") -> EvidenceLevel | None:
        """The level that keeps a number out of the key points (None: quotable), once per distinct number.

        A point that is the very line a citation of the number quotes is bound by that line alone: the same
        number in another sentence (``their 3.1× … and BlockCache's self-reported 11×``) is another claim."""
        bound = self._binding(cores, wanted)
        own = [n for n in bound if point and _same_line(point, self.citations[n].source.quote)]
        key: _Bound = (cores, wanted, tuple(own))
        if key not in self._found:
            self._found[key] = self._unquotable(own or bound)
        return self._found[key]

    def _binding(self, cores: frozenset[str], wanted: tuple[Value, ...]) -> list[int]:
        """The citations (in order) that carry every value of a number, or hold all its numerals."""
        bound: set[int] = set()
        if wanted:
            bound = set.intersection(*(set(self.index.carrying(w)) for w in wanted))
        if cores:
            bound |= self.index.holding(cores)
        return sorted(bound)

    def _read(self, n: int) -> EvidenceLevel | None:
        """The level citation ``n``'s material states for its number on its line, read once."""
        if n not in self._levels:
            cite = self.citations[n]
            self._levels[n] = self.facts[cite.source.path].level_of(cite.text, cite.source.line_start)
        return self._levels[n]

    def _unquotable(self, bound: list[int]) -> EvidenceLevel | None:
        """The level that keeps a number bound to citations ``bound`` out of the key points (None:
        quotable): every citation says it is not quotable, or its line is read below verified (a card's
        count aside)."""
        binding = [self.citations[n] for n in bound]
        levels = [self._read(n) for n in bound if self.citations[n].source.path in self.facts]
        low = [lvl for lvl in levels if lvl is not None and not lvl.quotable and lvl is not EvidenceLevel.card]
        if not ((binding and all(not c.quotable or not c.evidence.quotable for c in binding)) or low):
            return None
        stated = [c.evidence for c in binding if not c.evidence.quotable]
        return strictest(*low, *stated) if low or stated else EvidenceLevel.unverified


class Citations(Grounding):
    """The checks of a citation, and of the key points' numbers against their citations' levels."""

    def _citation(self, path: str, cite: NumberCitation, obj: Increment | Refresh | Contradiction) -> list[Violation]:
        facts = self.facts.get(cite.source.path)
        if facts is None:
            return [
                Violation(
                    path=f"{path}.source",
                    rule="source-not-read",
                    text=cite.source.path,
                    reason="cited material is not in scope or was not read",
                )
            ]
        out = self._citation_place(path, cite, obj, facts)
        if not self._bears(facts, cite):
            out.append(
                Violation(
                    path=path, rule="citation-not-in-source", text=cite.text, reason=f"not found in {cite.source.path}"
                )
            )
        if cite.source.quote and not facts.has_quote(cite.source.quote, (cite.source.line_start, cite.source.line_end)):
            out.append(
                Violation(
                    path=f"{path}.source.quote",
                    rule="quote-not-in-source",
                    text=cite.source.quote[:80],
                    reason=f"not verbatim in {cite.source.path}",
                )
            )
        if cite.source.url and not self.in_materials(cite.source.url):
            out.append(
                Violation(
                    path=f"{path}.source.url",
                    rule="url-not-in-material",
                    text=cite.source.url,
                    reason="URL occurs in no material",
                )
            )
        line = cite.source.line_start
        actual = facts.level_of(cite.text, line)
        if actual is None and line is not None and 0 < line <= facts.line_count:  # borne by value on its line
            actual = facts.line_level(line - 1)
        if actual is not None and (cite.quotable or cite.evidence.quotable) and not actual.quotable:
            out.append(
                Violation(
                    path=path,
                    rule="evidence-overstated",
                    text=cite.text,
                    reason=f"its line in {cite.source.path} is {actual.value} ({self.say.level(actual)}), "
                    f"but the citation says {cite.evidence.value}, quotable={cite.quotable}",
                    level=actual,
                )
            )
        return out

    def _bears(self, facts: MaterialFacts, cite: NumberCitation) -> bool:
        """The cited number stands in its material: as written, or by value on the cited line (a card's
        ``stars_weekly: 63`` bears ``+63``; ``0.23.0`` bears ``0.23``)."""
        line = cite.source.line_start
        if facts.contains(cite.text, line):
            return True
        if line is not None and 0 < line <= facts.line_count:
            last = min(cite.source.line_end or line, facts.line_count)
            raw = "\n".join(facts.raw_line(n) for n in range(line - 1, last))
            if bears(raw, cite.text):
                return True
        version = _VERSION.fullmatch(cite.text.strip())  # ``0.23`` and ``0.23.0`` name one version
        if version is None:
            return False
        short = version.group(1)
        return any(
            occurs_in(short, facts.line(n)) or occurs_in(short + ".0", facts.line(n))
            for n in facts.lines_with(max(number_cores(short), key=len))
        )

    def _citation_place(
        self, path: str, cite: NumberCitation, obj: Increment | Refresh | Contradiction, facts: MaterialFacts
    ) -> list[Violation]:
        """A citation comes from one of its object's own sources (or the living document), and from a
        line of the item the object speaks of."""
        src = cite.source.path
        if src not in obj.sources and src != self.doc.path:
            reason = "the cited material is not one of the object's sources"
            return [Violation(path=f"{path}.source", rule="citation-foreign-source", text=src, reason=reason)]
        line = cite.source.line_start
        if line is None or not facts.items or not 0 < line <= len(facts.line_items):
            return []
        n = facts.line_items[line - 1]
        if n < 0:  # a line of no item (the note's header): nothing to hold it against
            return []
        item = facts.items[n]
        if isinstance(obj, Contradiction):  # a registration speaks of the item it locates, or its members'
            loc = obj.location
            if loc is None or loc.path != src or loc.line_start is None:
                return []
            if item.line_start <= loc.line_start <= item.line_end:
                return []
            text = item.text.casefold()
            if any(member.casefold() in text for member in obj.members):
                return []
        ours = self._items_memo.get((id(obj), src))
        if ours is None:
            ours = self._items_memo[(id(obj), src)] = [id(i) for i, _ in self._items_of(obj, facts)]
        if id(item) not in ours and (ours or isinstance(obj, Contradiction)):
            reason = f"line {line} of {src} lies outside the item the object speaks of"
            return [Violation(path=f"{path}.source", rule="citation-foreign-source", text=cite.text, reason=reason)]
        return []

    def _items_of(
        self, obj: Increment | Refresh | Contradiction, facts: MaterialFacts
    ) -> list[tuple[NoteItem, EvidenceLevel]]:
        """The items of a note an object speaks of: the one with its URL, else those whose title
        names its key, else those whose text does."""
        key = obj.key.casefold()
        found = (
            facts.items_with_url(field_or(obj, "url"))
            or facts.items_naming(key, "title")
            or facts.items_naming(key, "text")
        )
        if found:
            return found
        # a key written as a description: the items whose text names each of its names
        bare = self.bookkeeping.pattern.sub(" ", obj.key)  # ``T-2 …``: the brief's own numbering names no item
        words = [w.casefold() for w in _KEY_WORD.findall(bare) if _NAME_LIKE.search(w) or len(w) > 3]
        if not words:
            return []
        each = [{id(i): (i, lvl) for i, lvl in facts.items_naming(word, "text")} for word in words]
        common = {k: v for k, v in each[0].items() if all(k in other for other in each[1:])}
        if common:
            return list(common.values())
        # a key that names several items (``A / B 性能数字``): the items of each of its names
        return list({k: v for found in each for k, v in found.items()}.values())

    def _object_level(self, path: str, obj: Increment | Refresh | Contradiction) -> list[Violation]:
        """An object's own level, re-derived from its source items by the plain rule, whoever made it."""
        if not obj.evidence.quotable:
            return []
        notes = [f for s in obj.sources if (f := self.facts.get(s)) is not None and f.items]
        if not notes:
            return []
        # its item: the one with its URL, else the ones whose title names it, else whose text does
        # (looked up in per-material indexes, not by scanning every item per object)
        matched = [p for f in notes for p in self._items_of(obj, f)]
        if not matched:
            return [
                Violation(
                    path=f"{path}.evidence",
                    rule="evidence-overstated",
                    text=obj.evidence.value,
                    reason="no item of its sources names it, so nothing states a full read of it",
                    level=EvidenceLevel.unverified,
                )
            ]
        if any(level.quotable for _, level in matched):  # (a name several items share: one suffices)
            return []
        worst = min(matched, key=lambda m: _RANK[m[1]])
        return [
            Violation(
                path=f"{path}.evidence",
                rule="evidence-overstated",
                text=obj.evidence.value,
                reason=f"its item in {worst[0].material} (line {worst[0].line_start}) is {worst[1].value} "
                f"({self.say.level(worst[1])}) by the plain rule",
                level=worst[1],
            )
        ]

    def _points_quotable(self, path: str, inc: Increment) -> list[Violation]:
        """A number read at a non-quotable level must not be a finding in the key points (written in
        digits or not: ``一百五十五万亿`` is the vendor's ``155 万亿``)."""
        out = []
        bound = _PointLevels(inc.numbers, self.facts, self.numbers)
        for n, point in enumerate(inc.points):
            skip = Spans.of([*self.bookkeeping.spans(point), *(m.span(1) for m in _PARAMETER.finditer(point))])
            found = [
                (tok.text, frozenset(tok.cores), self.numbers.values(tok.text))
                for tok in scan(point)
                if tok.kind == "quantity" and not skip.cover(tok.start)
            ]
            found += [(said, frozenset(), (value,)) for start, _end, said, value in hidden(point)]
            for said, cores, wanted in found:
                level = bound.level(cores, wanted, point)
                if level is not None:
                    reason = "read at a non-quotable level; belongs in the evidence boundary"
                    out.append(
                        Violation(
                            path=f"{path}.points[{n}]",
                            rule="not-quotable-as-finding",
                            text=said,
                            reason=reason,
                            level=level,
                        )
                    )
        return out

    def _carried_of(self, citations: Sequence[NumberCitation]) -> Carried:
        """What an object's citations carry, each distinct entry once, indexed (one index for the same
        entries: the memo of checked texts then finds it by identity)."""
        entries = tuple(dict.fromkeys(self.numbers.carried(c) for c in citations))
        found = self._carried.get(entries)
        if found is None:
            found = self._carried[entries] = Carried(entries)
        return found
