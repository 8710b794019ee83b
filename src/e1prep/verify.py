"""The deterministic verifier: no number without a cited evidence level, nothing ungrounded.

Rule ids are stable; a report lists (object path, rule, offending text, reason). The verifier
never calls a model and never trusts the level a citation claims: it re-reads the level from
the material line the number stands on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .knowledge import ARXIV_RE, KnowledgeDoc
from .loading import KB, Material
from .markers import RANK as _RANK
from .markers import line_level, plain_level
from .models import (
    Anchor,
    Brief,
    Contradiction,
    EvidenceLevel,
    Increment,
    MaterialKind,
    MaterialStatus,
    NumberCitation,
    Refresh,
    Violation,
)
from .notes import URL_RE, NoteItem, blocks, note_items
from .numbers import normalize, number_cores, occurs_in, scan

RULES: dict[str, str] = {
    "quantity-uncited": "every quantity in an object's text is bound to a number citation",
    "citation-not-in-source": "the cited number occurs in the cited material",
    "quote-not-in-source": "the citation's verbatim quote occurs in the cited material",
    "source-not-read": "a citation or object names a material that is not in scope or was not read",
    "evidence-overstated": "a citation claims a level above the one its material line carries",
    "not-quotable-as-finding": "a number at a non-quotable level appears as a finding in an increment's key points",
    "identifier-ungrounded": "a version, date, name or issue number is not found in any source",
    "section-unknown": "a § section reference does not exist in the living document",
    "arxiv-malformed": "an arXiv id is not well formed",
    "arxiv-not-in-material": "an arXiv id does not occur in any material",
    "anchor-status-wrong": "an anchor's status disagrees with the living document",
    "url-not-in-material": "a URL does not occur in any material",
    "hit-count-wrong": "a hit count disagrees with a fresh search of the living document",
    "known-as-new": "an increment of kind 'new' whose key the living document already names",
    "sources-incomplete": "a material of the manifest is missing from the sources",
}

# names are bounded (200 characters): an unbounded lazy \S+? rescans a long token from every start (quadratic)
_HIT_CLAIM = re.compile(r"「([^「」]{1,200})」\s*=?\s*(\d+)\s*命中|(\S{1,200}?)\s*=\s*(\d+)\s*命中")
_NOT_FOUND = re.compile(r"「([^「」]{1,200})」\s*(?:未命中|零命中|无命中)")
_TEXT_FIELDS = ("title", "points", "relation", "boundary", "summary", "claim", "detail", "action", "evidence_note")


@dataclass
class MaterialFacts:
    """A material prepared for checks: normalised text and the evidence level of each line."""

    material: Material
    normalized: str
    lines: list[str] = field(default_factory=list)
    line_set: set[str] = field(default_factory=set)
    levels: list[EvidenceLevel | None] = field(default_factory=list)
    core_lines: dict[str, list[int]] = field(default_factory=dict)
    #: each item of a note with the level the plain rule gives it
    item_levels: list[tuple[NoteItem, EvidenceLevel]] = field(default_factory=list)
    level_memo: dict[str, EvidenceLevel | None] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, material: Material) -> MaterialFacts:
        facts = cls(material, normalize(material.text))
        lines = material.text.split("\n")
        levels: list[EvidenceLevel | None] = [None] * len(lines)
        if material.kind in (MaterialKind.inbox_note, MaterialKind.other):
            # the verifier's own plain rule, from the marker table: whatever level the reader (or
            # a producer) gave the item, a line is quotable only if its item states an unhedged full
            # read and no limitation, hedge or relayed check anywhere (markers.plain_quotable)
            for item in note_items(material):
                item_level = plain_level(item.text)
                facts.item_levels.append((item, item_level))
                for offset, block in blocks(item.text):
                    level = line_level(block) or item_level
                    first = item.line_start + offset
                    for k in range(block.count("\n") + 1):
                        if 0 < first + k <= len(levels):
                            levels[first + k - 1] = level
        elif material.kind in (MaterialKind.repo_card, MaterialKind.paper_card, MaterialKind.knowledge):
            levels = [EvidenceLevel.card] * len(lines)
        facts.levels = levels
        facts.lines = [normalize(line) for line in lines]
        facts.line_set = set(facts.lines)
        for n, norm in enumerate(facts.lines):
            for core in set(number_cores(norm)):
                facts.core_lines.setdefault(core, []).append(n)
        return facts

    def _candidates(self, needle: str) -> list[int] | None:
        """Lines that may hold ``needle``: those holding its longest numeral (None: it has none)."""
        cores = number_cores(needle)
        if not cores:
            return None
        return self.core_lines.get(max(cores, key=len), [])

    def contains(self, needle: str) -> bool:
        """``occurs_in`` over the material, looking only at the lines that hold the needle's numeral."""
        candidates = self._candidates(needle)
        if candidates is None:
            return occurs_in(needle, self.normalized)
        return any(occurs_in(needle, self.lines[n]) for n in candidates) or (
            len(candidates) > 0 and occurs_in(needle, self.normalized)
        )

    def has_quote(self, quote: str) -> bool:
        parts = [normalize(line) for line in quote.split("\n") if line.strip()]
        if parts and all(p in self.line_set for p in parts):
            return True
        return normalize(quote) in self.normalized

    def level_of(self, number: str) -> EvidenceLevel | None:
        """The strictest level among the lines where ``number`` stands (None: found nowhere)."""
        if number not in self.level_memo:  # once per number: a number repeated on every line is cited on each
            self.level_memo[number] = self._level_of(number)
        return self.level_memo[number]

    def _level_of(self, number: str) -> EvidenceLevel | None:
        candidates = self._candidates(number)
        if not candidates:
            return None
        found = [lvl for n in candidates if (lvl := self.levels[n]) is not None and occurs_in(number, self.lines[n])]
        if not found:
            return None
        return next((lvl for lvl in found if not lvl.quotable), found[0])


@dataclass
class Report:
    violations: list[Violation] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.violations

    def for_object(self, prefix: str) -> list[Violation]:
        return [v for v in self.violations if v.path == prefix or v.path.startswith(prefix + ".")]

    def render(self) -> str:
        if self.clean:
            return "verification: clean (0 violations)"
        lines = [f"verification: {len(self.violations)} violation(s)"]
        for v in self.violations:
            lines.append(f"  {v.path}  [{v.rule}]  {v.text!r}: {v.reason}")
        return "\n".join(lines)


class Verifier:
    """Checks brief objects against the KB the brief was drafted from."""

    def __init__(self, kb: KB, doc: KnowledgeDoc) -> None:
        self.kb = kb
        self.doc = doc
        self.facts: dict[str, MaterialFacts] = {}
        for m in (*kb.materials, *kb.spot_checks, kb.knowledge_material):
            if m.status is MaterialStatus.read:
                self.facts[m.path] = MaterialFacts.build(m)
        self.scope = {m.path for m in (*kb.materials, *kb.spot_checks)}
        self.all_text = "\n".join(m.text for m in (*kb.materials, *kb.spot_checks) if m.status is MaterialStatus.read)
        self.section_ids = {s.id for s in doc.sections}
        self._hits: dict[str, int] = {}

    def hits(self, term: str) -> int:
        if term not in self._hits:
            self._hits[term] = self.doc.search(term).hits
        return self._hits[term]

    # --- whole brief ---------------------------------------------------------------------------

    def verify(self, brief: Brief) -> Report:
        report = Report()
        for name in ("increments", "refreshes", "contradictions", "anchors"):
            for n, obj in enumerate(getattr(brief, name)):
                report.violations += self.check_object(f"{name}[{n}]", obj)
        listed = {s.path for s in brief.sources}
        for path in self.kb.item.materials:
            if path not in listed:
                report.violations.append(
                    Violation(
                        path="sources",
                        rule="sources-incomplete",
                        text=path,
                        reason="material of the manifest has no entry in the sources",
                    )
                )
        return report

    def check_object(self, path: str, obj: Increment | Refresh | Contradiction | Anchor) -> list[Violation]:
        out: list[Violation] = []
        for src in obj.sources:
            if src not in self.scope:
                out.append(
                    Violation(
                        path=f"{path}.sources",
                        rule="source-not-read",
                        text=src,
                        reason="not a material of this manifest item",
                    )
                )
            elif src not in self.facts:
                out.append(
                    Violation(path=f"{path}.sources", rule="source-not-read", text=src, reason="material was not read")
                )
        if isinstance(obj, Anchor):
            return out + self._anchor(path, obj)
        out += self._object_level(path, obj)
        citations = obj.numbers
        for n, cite in enumerate(citations):
            out += self._citation(f"{path}.numbers[{n}]", cite)
        for field_path, text in _texts(path, obj):
            out += self._text(field_path, text, obj, citations)
        if isinstance(obj, Increment):
            out += self._points_quotable(path, obj)
            if obj.kind == "new" and self.hits(obj.key):
                out.append(
                    Violation(
                        path=f"{path}.key",
                        rule="known-as-new",
                        text=obj.key,
                        reason=f"the living document already names it ({self.hits(obj.key)} hit(s)): not new",
                    )
                )
        for h in getattr(obj, "doc_hits", []):
            fresh = self.hits(h.term)
            if fresh != h.hits:
                out.append(
                    Violation(
                        path=f"{path}.doc_hits",
                        rule="hit-count-wrong",
                        text=f"{h.term}={h.hits}",
                        reason=f"a fresh search finds {fresh}",
                    )
                )
        url = getattr(obj, "url", None)
        if url and url not in self.all_text:
            out.append(
                Violation(path=f"{path}.url", rule="url-not-in-material", text=url, reason="URL occurs in no material")
            )
        return out

    # --- pieces --------------------------------------------------------------------------------

    def _object_level(self, path: str, obj: Increment | Refresh | Contradiction) -> list[Violation]:
        """An object's own level, re-derived from its source items by the plain rule, whoever made it."""
        if not obj.evidence.quotable:
            return []
        notes = [f for s in obj.sources if (f := self.facts.get(s)) is not None and f.item_levels]
        if not notes:
            return []
        url = getattr(obj, "url", None)
        key = obj.key.casefold()
        pairs = [pair for f in notes for pair in f.item_levels]
        # its item: the one with its URL, else the ones whose title names it, else whose text does
        matched = (
            [p for p in pairs if url and url in p[0].urls]
            or [p for p in pairs if key and key in p[0].title.casefold()]
            or [p for p in pairs if key and key in p[0].text.casefold()]
        )
        if not matched:
            return [
                Violation(
                    path=f"{path}.evidence",
                    rule="evidence-overstated",
                    text=obj.evidence.value,
                    reason="no item of its sources names it, so nothing states a full read of it",
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
                f"({worst[1].label}) by the plain rule",
            )
        ]

    def _citation(self, path: str, cite: NumberCitation) -> list[Violation]:
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
        out = []
        if not facts.contains(cite.text):
            out.append(
                Violation(
                    path=path, rule="citation-not-in-source", text=cite.text, reason=f"not found in {cite.source.path}"
                )
            )
        if cite.source.quote and not facts.has_quote(cite.source.quote):
            out.append(
                Violation(
                    path=f"{path}.source.quote",
                    rule="quote-not-in-source",
                    text=cite.source.quote[:80],
                    reason=f"not verbatim in {cite.source.path}",
                )
            )
        if cite.source.url and cite.source.url not in self.all_text:
            out.append(
                Violation(
                    path=f"{path}.source.url",
                    rule="url-not-in-material",
                    text=cite.source.url,
                    reason="URL occurs in no material",
                )
            )
        actual = facts.level_of(cite.text)
        if actual is not None and (cite.quotable or cite.evidence.quotable) and not actual.quotable:
            out.append(
                Violation(
                    path=path,
                    rule="evidence-overstated",
                    text=cite.text,
                    reason=f"its line in {cite.source.path} is {actual.value} ({actual.label}), "
                    f"but the citation says {cite.evidence.value}, quotable={cite.quotable}",
                )
            )
        return out

    def _text(
        self, path: str, text: str, obj: Increment | Refresh | Contradiction, cites: list[NumberCitation]
    ) -> list[Violation]:
        out: list[Violation] = []
        cited_cores = [set(number_cores(c.text)) for c in cites]
        hit_spans = [m.span() for m in _HIT_CLAIM.finditer(text)] if "命中" in text else []
        out += self._hit_claims(path, text)
        grounds = [self.facts[s] for s in (*obj.sources, self.doc.path) if s in self.facts]
        for tok in scan(text):
            if any(a <= tok.start < b for a, b in hit_spans):
                continue
            if tok.kind == "quantity":
                cores = set(tok.cores)
                if not any(cores <= c for c in cited_cores):
                    out.append(
                        Violation(
                            path=path,
                            rule="quantity-uncited",
                            text=tok.text,
                            reason="no number citation of this object carries it",
                        )
                    )
            elif tok.type == "section":
                sid = "§" + re.sub(r"^(?:§|Section|Sec\.|章节)\s*", "", tok.text, flags=re.I).split("-")[0].strip()
                if sid not in self.section_ids:
                    out.append(
                        Violation(
                            path=path,
                            rule="section-unknown",
                            text=tok.text,
                            reason="no such section in the living document",
                        )
                    )
            elif tok.type == "arxiv":
                out += self._arxiv_text(path, tok.text)
            elif tok.type in ("version", "issue", "name", "date") and not self._grounded(tok.text, grounds):
                out.append(
                    Violation(
                        path=path,
                        rule="identifier-ungrounded",
                        text=tok.text,
                        reason="found in none of the object's sources nor the living document",
                    )
                )
        for url in URL_RE.findall(text):
            url = url.rstrip(".,;:)")
            if url not in self.all_text:
                out.append(
                    Violation(path=path, rule="url-not-in-material", text=url, reason="URL occurs in no material")
                )
        return out

    def _hit_claims(self, path: str, text: str) -> list[Violation]:
        """``「name」N 命中`` and ``「name」未命中`` claims, checked against a fresh search."""
        out: list[Violation] = []
        if "命中" not in text:
            return out
        for m in _HIT_CLAIM.finditer(text):
            term, count = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            fresh = self.hits(term)
            if fresh != int(count):
                out.append(
                    Violation(
                        path=path,
                        rule="hit-count-wrong",
                        text=m.group(0),
                        reason=f"a fresh search finds {fresh} hit(s) of {term!r}",
                    )
                )
        for m in _NOT_FOUND.finditer(text):
            if self.hits(m.group(1)):
                out.append(
                    Violation(
                        path=path,
                        rule="hit-count-wrong",
                        text=m.group(0),
                        reason=f"{m.group(1)!r} occurs {self.hits(m.group(1))} time(s)",
                    )
                )
        return out

    def _grounded(self, token: str, grounds: list[MaterialFacts]) -> bool:
        return any(f.contains(token) for f in grounds) or self._in_header(token)

    def _in_header(self, token: str) -> bool:
        header = normalize(f"{self.kb.date} {self.kb.manifest.created} {self.doc.version or ''}")
        return occurs_in(token, header)

    def _arxiv_text(self, path: str, text: str) -> list[Violation]:
        ids = [m.group(1) for m in ARXIV_RE.finditer(text)]
        if not ids:
            return [Violation(path=path, rule="arxiv-malformed", text=text, reason="not a well-formed arXiv id")]
        return [
            Violation(path=path, rule="arxiv-not-in-material", text=i, reason="occurs in no material")
            for i in ids
            if i not in self.all_text and not self.doc.anchored(i)
        ]

    def _anchor(self, path: str, anchor: Anchor) -> list[Violation]:
        out = []
        if not re.fullmatch(r"\d{2}(0[1-9]|1[0-2])\.\d{4,5}", anchor.arxiv):
            out.append(
                Violation(
                    path=f"{path}.arxiv", rule="arxiv-malformed", text=anchor.arxiv, reason="not a well-formed arXiv id"
                )
            )
        if anchor.arxiv not in self.all_text:
            out.append(
                Violation(
                    path=f"{path}.arxiv",
                    rule="arxiv-not-in-material",
                    text=anchor.arxiv,
                    reason="occurs in no material",
                )
            )
        actual = "anchored" if self.doc.anchored(anchor.arxiv) else "new"
        if anchor.status != actual:
            out.append(
                Violation(
                    path=f"{path}.status",
                    rule="anchor-status-wrong",
                    text=anchor.status,
                    reason=f"the living document says {actual}",
                )
            )
        return out

    def _points_quotable(self, path: str, inc: Increment) -> list[Violation]:
        """A number read at a non-quotable level must not be a finding in the key points."""
        out = []
        bad = [c for c in inc.numbers if not c.quotable or not c.evidence.quotable]
        for n, point in enumerate(inc.points):
            for tok in scan(point):
                if tok.kind != "quantity":
                    continue
                cores = set(tok.cores)
                binding = [c for c in inc.numbers if cores <= set(number_cores(c.text))]
                levels = [self.facts[c.source.path].level_of(c.text) for c in binding if c.source.path in self.facts]
                if (binding and all(c in bad for c in binding)) or any(
                    lvl is not None and not lvl.quotable and lvl is not EvidenceLevel.card for lvl in levels
                ):
                    out.append(
                        Violation(
                            path=f"{path}.points[{n}]",
                            rule="not-quotable-as-finding",
                            text=tok.text,
                            reason="read at a non-quotable level; belongs in the evidence boundary",
                        )
                    )
        return out


def _texts(path: str, obj: Any) -> Iterator[tuple[str, str]]:
    for name in _TEXT_FIELDS:
        value = getattr(obj, name, None)
        if isinstance(value, str) and value:
            yield f"{path}.{name}", value
        elif isinstance(value, list):
            for n, v in enumerate(value):
                if isinstance(v, str):
                    yield f"{path}.{name}[{n}]", v
