"""The claims of a text checked one by one: every quantity carried by a citation (by value, written in
digits or not), identifiers and names grounded, sections existing, hit counts agreeing with a search."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..brief.models import (
    Brief,
    Contradiction,
    Increment,
    MaterialStatus,
    Refresh,
    Violation,
    field_or,
)
from ..kb.knowledge import ARXIV_RE, occurrences
from ..kb.numbering import SECTION_ID
from ..read.lines import URL_RE
from ..read.numbers import NumberToken, number_cores, scan
from .citations import Citations
from .disposition import blank_marked
from .facts import MaterialFacts
from .grounding import _PARAMETER
from .indexes import Carried, Spans
from .values import Value, hidden

# names are bounded (200 characters): an unbounded lazy \S+? rescans a long token from every start (quadratic)
_HIT_CLAIM = re.compile(r"「([^「」]{1,200})」\s*=?\s*(\d+)\s*命中|(\S{1,200}?)\s*=\s*(\d+)\s*命中")
#: its first alternative alone: without an ``=`` the second cannot match, and it costs a scan of up
#: to 200 characters from every place of the text
_HIT_CLAIM_QUOTED = re.compile(r"「([^「」]{1,200})」\s*=?\s*(\d+)\s*命中")
#: the same claim as an English brief writes it (``data/phrases.toml`` ``rules.hits``): ``"name": N hits``
_HIT_CLAIM_EN = re.compile(r'"([^"\n]{1,200})"\s*:\s*(\d+)\s+hits?\b')
_NOT_FOUND = re.compile(r"「([^「」]{1,200})」\s*(?:未命中|零命中|无命中)")
#: the end of a range of sections (``§2.1–2.4``): not a quantity
_SECTION_RANGE = re.compile(r"§\s*\d+(?:\.\d+)*\s*[-–~]\s*(\d+(?:\.\d+)*)")
_SECTION_ID = re.compile(SECTION_ID)
_LAST_QUOTED = re.compile(r"「([^「」]+)」\s*$")
#: hit counts said in other words: ``「X」共 8 处命中``, ``「X」命中 8 次``, ``X has 8 hits``
_HIT_OTHER = re.compile(
    r"「([^「」]{1,200})」\s*(?:共|有)?\s*(\d+)\s*处命中|「([^「」]{1,200})」\s*命中\s*(\d+)\s*次"
    r"|([\w.\-/]{2,80})\s+has\s+(\d+)\s+hits?\b"
)
_TEXT_FIELDS = (
    "title",
    "points",
    "relation",
    "boundary",
    "summary",
    "claim",
    "detail",
    "action",
    "evidence_note",
    "section",
)


def _section_of(token: str) -> str:
    """The § id a section token names: ``§W-3`` whole (as the document numbers it), ``Section 2-3`` by its
    first section."""
    if (m := _SECTION_ID.match(token)) is not None:
        return "§" + m.group(1)
    return "§" + re.sub(r"^(?:Section|Sec\.|章节)\s*", "", token, flags=re.I).split("-")[0].strip()


def _large(text: str) -> bool:
    """An ordinal past 999 (``step 40000``) counts something: it is a quantity."""
    return any(len(core) > 3 for core in number_cores(text))


def _hit_claim_matches(text: str) -> Iterator[re.Match[str]]:
    """The ``name N 命中`` (``"name": N hits``) claims of a text, found as cheaply as can be."""
    if "命中" in text:
        yield from (_HIT_CLAIM if "=" in text else _HIT_CLAIM_QUOTED).finditer(text)
    if "hit" in text:
        yield from _HIT_CLAIM_EN.finditer(text)


def _spans_of(text: str, names: list[str]) -> list[tuple[int, int]]:
    """Where each of ``names`` stands in ``text`` (every occurrence)."""
    spans = []
    for name in dict.fromkeys(n for n in names if n):
        spans += [(at, at + len(name)) for at in occurrences(text, name)]
    return spans


def own_name_spans(text: str, names: list[str]) -> list[tuple[int, int]]:
    """Where ``text`` repeats a versioned part of the object's own name (``Store 2.0`` of the key
    ``Mooncake Store 2.0``, ``TensorRT-LLM 1.4``): the numeral there is a name, not a quantity. The
    name itself is checked as grounded (``key-ungrounded``) and its numerals as the key's own."""
    spans: list[tuple[int, int]] = []
    for name in dict.fromkeys(n for n in names if n):
        for tok in scan(name):
            if tok.kind != "quantity":
                continue
            head = re.search(r"([A-Za-z][\w.\-]*)\s*$", name[: tok.start])
            if head is None:  # a numeral that names nothing before it is a quantity wherever it stands
                continue
            phrase = re.compile(re.escape(head.group(1)) + r"\s*" + re.escape(tok.text) + r"(?![\d.])", re.I)
            spans += [m.span() for m in phrase.finditer(text)]
    return spans


def _texts(path: str, obj: Any) -> Iterator[tuple[str, str]]:
    for name in _TEXT_FIELDS:
        value = field_or(obj, name)
        if isinstance(value, str) and value:
            yield f"{path}.{name}", value
        elif isinstance(value, list):
            for n, v in enumerate(value):
                if isinstance(v, str):
                    yield f"{path}.{name}[{n}]", v


class Claims(Citations):
    """The checks of every text of an object or of the brief, claim by claim."""

    def carried_by(self, brief: Brief) -> Carried:
        """What every citation of the brief carries, and the brief's own counts (its objects, excluded
        items, materials): the brief's own sentences may restate any of it."""
        counts = {
            len(brief.increments),
            len(brief.refreshes),
            len(brief.contradictions),
            len(brief.anchors),
            len(brief.excluded),
            sum(max(len(e.members), 1) for e in brief.excluded),
            sum(max(len(c.members), 1) for c in brief.contradictions),
            len(brief.sources),
            len(self.kb.item.materials),
            sum(1 for m in self.kb.materials if m.status is MaterialStatus.read),
            len(brief.candidates),
            brief.baseline.anchors,
            brief.baseline.sections,
            brief.baseline.lines,
            0,
            *(len(e.members) for e in brief.excluded),
            *(len(c.members) for c in brief.contradictions),
        }
        for name in ("increments", "refreshes", "contradictions", "anchors", "excluded"):  # by level and by kind
            objects = getattr(brief, name)
            counts |= set(Counter(o.evidence for o in objects).values())
            counts |= set(Counter(str(field_or(o, "kind", "")) for o in objects).values())
        cores: set[str] = {str(n) for n in counts}
        held: dict[Value, None] = {Value(float(n), None, None): None for n in counts}
        for name in ("increments", "refreshes", "contradictions"):  # one entry for all: a set, not a list
            for o in getattr(brief, name):
                for c in o.numbers:
                    numerals, found = self.numbers.carried(c)
                    cores |= numerals
                    held.update(dict.fromkeys(found))
        return Carried([(frozenset(cores), tuple(held))])

    def check_text(self, path: str, text: str, grounds: list[MaterialFacts], carried: Carried) -> list[Violation]:
        """A text that belongs to no object, checked as an object's would be."""
        text = blank_marked(text)
        return self._text(path, text, grounds, carried) if text.strip() else []

    def level_stated(self, path: str, entry: Any) -> list[Violation]:
        """An entry's level against what its material states (``_object_level``)."""
        return self._object_level(path, entry)

    def _text_checked(
        self, path: str, text: str, obj: Increment | Refresh | Contradiction, cited: Carried
    ) -> list[Violation]:
        """``_text``, remembered for a text checked against the same sources and citations (a batch
        repeats its sentences in object after object; a grouped line's members are read each time)."""
        if ".points[" not in path:  # a sentence marked with its level states no finding (a key point does)
            text = blank_marked(text)
        if not text.strip():
            return []
        if isinstance(obj, Contradiction) and obj.members:
            return self._text(path, text, self._grounds(obj), cited, obj.members)
        own = (
            tuple(own_name_spans(text, [obj.key, field_or(obj, "title", "")]))
            if any(c.isdigit() for c in obj.key)
            else ()
        )
        key = (text, tuple(obj.sources), cited, own)
        found = self._checked.get(key)
        if found is None:
            found = self._checked[key] = tuple(
                (v.rule, v.text, v.reason) for v in self._text("", text, self._grounds(obj), cited, own=list(own))
            )
        return [Violation(path=path, rule=rule, text=said, reason=reason) for rule, said, reason in found]

    def _text(
        self,
        path: str,
        text: str,
        grounds: list[MaterialFacts],
        cited: Carried,
        members: list[str] | None = None,
        own: list[tuple[int, int]] | None = None,
    ) -> list[Violation]:
        """One text's claims checked against its grounds and what its object's citations carry;
        ``own``: where the text repeats the object's own versioned name (``own_name_spans``)."""
        out: list[Violation] = []
        carried = cited
        if members:  # a grouped registration states its own size
            carried = cited.plus((frozenset({str(len(members))}), (Value(float(len(members)), None, None),)))
        # what needs no citation: a hit count (checked against a fresh search), bookkeeping, the
        # names of a grouped registration's members (each checked as grounded)
        skip = [*self.bookkeeping.spans(text), *(m.span(1) for m in _SECTION_RANGE.finditer(text))]
        skip += [m.span(1) for m in _PARAMETER.finditer(text)]
        skip += own or []
        out += self._settings(path, text, grounds)
        for m in _hit_claim_matches(text):
            # a searched name found in the object's grounds is a name, whatever digits it holds; one
            # found nowhere is read like any text (a number cannot hide in it)
            term = 1 if m.group(1) else 3
            whole = self._named(m.group(term), grounds)
            skip.append(m.span() if whole else m.span(term + 1))
        if members:
            skip += _spans_of(text, members)
        out += self._hit_claims(path, text)
        skipped = Spans.of(skip)
        for tok in scan(text):
            if skipped.cover(tok.start):
                continue
            if tok.kind == "quantity" or (tok.type == "ordinal" and _large(tok.text)):
                out += self._quantity(path, tok, carried)
            elif tok.type == "section":
                sid = _section_of(tok.text)
                # a source's own section, quoted from the note that read it (``How far I got: §2, §3``), is
                # no claim about the living document
                if sid not in self.section_ids and not self._quoted_section(tok.text, grounds):
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
        out += self._hidden(path, text, skipped, carried)
        reported = {v.text for v in out}
        out += [v for v in self._names_in(path, text, grounds) if v.text not in reported]
        for url in URL_RE.findall(text):
            url = url.rstrip(".,;:)")
            if not self.in_materials(url):
                out.append(
                    Violation(path=path, rule="url-not-in-material", text=url, reason="URL occurs in no material")
                )
        return out

    def _settings(self, path: str, text: str, grounds: list[MaterialFacts]) -> list[Violation]:
        """A setting's value (``--gpu-memory-utilization 0.9``) is no finding; the setting must stand in a ground."""
        out = []
        for m in _PARAMETER.finditer(text):
            if not self._grounded(m.group(0).strip(), grounds) and not any(f.spells(m.group(1)) for f in grounds):
                reason = "a setting found in none of the object's sources"
                out.append(Violation(path=path, rule="identifier-ungrounded", text=m.group(0), reason=reason))
        return out

    def _hidden(self, path: str, text: str, skip: Spans, carried: Carried) -> list[Violation]:
        """Numbers written without digits (``三倍``, ``一百五十五万亿``, ``② 倍``) need a citation too."""
        out = []
        for start, _end, said, value in hidden(text):
            if skip.cover(start) or carried.carries(value):
                continue
            alike = carried.alike(value.amount)
            rule = "number-mismatch" if alike else "quantity-uncited"
            out.append(Violation(path=path, rule=rule, text=said, reason="a number written without digits"))
        return out

    def _quantity(self, path: str, tok: NumberToken, carried: Carried) -> list[Violation]:
        """A quantity is bound to a citation that carries its value; one that only shares its digits
        with a citation (another unit, magnitude, sign or kind) is a different number."""
        wanted = self.numbers.values(tok.text)
        if wanted and all(carried.carries(w) for w in wanted):
            return []
        cores = frozenset(tok.cores)
        if not wanted and carried.holds(cores):
            return []
        if wanted and carried.holds(cores):
            reason = "its digits are cited, but as another number (unit, magnitude, sign or kind differ)"
            return [Violation(path=path, rule="number-mismatch", text=tok.text, reason=reason)]
        reason = "no number citation of this object carries it"
        return [Violation(path=path, rule="quantity-uncited", text=tok.text, reason=reason)]

    def _hit_claims(self, path: str, text: str) -> list[Violation]:
        """``「name」N 命中`` and ``「name」未命中`` claims, checked against a fresh search."""
        out: list[Violation] = []
        if "命中" not in text and "hit" not in text:
            return out
        claims = [
            (m, *next((m.group(g), m.group(g + 1)) for g in range(1, m.re.groups, 2) if m.group(g)))
            for rx in (_hit_claim_matches(text), _HIT_OTHER.finditer(text))
            for m in rx
        ]
        for m, said, count in claims:
            quoted = _LAST_QUOTED.search(said)  # ``全文检索「X」=0 命中``: the name is what the brackets hold
            term = quoted.group(1) if quoted else said
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

    def _arxiv_text(self, path: str, text: str) -> list[Violation]:
        ids = [m.group(1) for m in ARXIV_RE.finditer(text)]
        if not ids:
            return [Violation(path=path, rule="arxiv-malformed", text=text, reason="not a well-formed arXiv id")]
        return [
            Violation(path=path, rule="arxiv-not-in-material", text=i, reason="occurs in no material")
            for i in ids
            if not self.in_materials(i) and not self.doc.anchored(i)
        ]
