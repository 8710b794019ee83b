"""The deterministic verifier: no number without a cited evidence level, nothing ungrounded.

Rule ids are stable; a report lists (object path, rule, offending text, reason). The verifier
never calls a model and never trusts the level a citation claims: it re-reads the level from
the material line the number stands on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..brief.models import (
    Anchor,
    Brief,
    Contradiction,
    Increment,
    Refresh,
    SourceRef,
    Violation,
    field_or,
)
from ..read.citing import Citing, citable, citing
from ..read.numbers import normalize, scan
from ..text.memo import in_one_run
from .claims import Claims, _texts
from .disposition import Settler
from .grounding import _FUNCTION_WORDS, _KEY_WORD
from .indexes import NOTHING, Carried
from .report import Report
from .whole import check_brief


def _object_prefix(path: str) -> str:
    """``increments[3]`` of ``increments[3].points[1]``; a brief-level path as it is."""
    head, sep, _ = path.partition("]")
    return head + sep if sep else path


_UNGROUNDED = frozenset({"key-ungrounded", "identifier-ungrounded", "name-ungrounded"})


def _once_per_name(violations: list[Violation]) -> list[Violation]:
    """An ungrounded name is reported once per object (at its first place: the key when it is the key)."""
    seen: set[str] = set()
    out = []
    for v in violations:
        if v.rule in _UNGROUNDED:
            if v.text in seen:
                continue
            seen.add(v.text)
        out.append(v)
    return out


def _all_texts(brief: Brief) -> Iterator[str]:
    """Every text of the brief a check reads for names: its objects' fields, and the brief's own sentences."""
    for name in ("increments", "refreshes", "contradictions"):
        for n, obj in enumerate(getattr(brief, name)):
            yield obj.key
            yield from (text for _, text in _texts(f"{name}[{n}]", obj))
    for anchor in brief.anchors:
        yield from (anchor.key, anchor.title or "")
    yield brief.judgement or ""
    yield from (action.text for action in brief.actions)
    for entry in brief.excluded:
        yield from (entry.reason, *entry.members)


class Verifier(Claims):
    """Checks brief objects against the KB the brief was drafted from."""

    #: how the best-read item citing each arXiv id was read (``read.citing``), worked out when first asked
    _citing: dict[str, Citing] | None = None

    @in_one_run
    def verify(self, brief: Brief) -> Report:
        report = Report()
        self.learn_names(_all_texts(brief))
        for name in ("increments", "refreshes", "contradictions", "anchors"):
            for n, obj in enumerate(getattr(brief, name)):
                report.violations += self.check_object(f"{name}[{n}]", obj)
        report.violations += check_brief(self, brief)
        return report

    @in_one_run
    def settle(self, brief: Brief) -> Report:
        """Verify ``brief``, then repair what is a claim's failure and reject what is its object's:
        ``Report.brief`` keeps the repaired objects; every repair and rejection is listed."""
        report = self.verify(brief)
        first: dict[str, list[Violation]] = {}
        for v in report.violations:
            first.setdefault(_object_prefix(v.path), []).append(v)
        settler = Settler(
            check=self.check_object,
            readable=lambda path: path in self.facts,
            fresh_hits=self.hits,
            anchored=self.doc.anchored,
            uncitable=self.uncitable,
        )
        settled = settler.settle(brief, first)
        settled.violations = report.violations
        return settled

    def check_object(self, path: str, obj: Increment | Refresh | Contradiction | Anchor) -> list[Violation]:
        self._items_memo.clear()  # the items each of its sources holds of it, for its citations
        out: list[Violation] = self._sources(path, obj)
        if isinstance(obj, Anchor):
            return out + self._anchor(path, obj) + self._anchor_text(path, obj)
        out += self._object_level(path, obj)
        out += self._key(path, obj)
        members = obj.members if isinstance(obj, Contradiction) else []
        grounds = self._grounds(obj) if members else []
        named = {m for f in grounds for m in f.names_all(members)}
        for n, member in enumerate(members):
            if member not in named and not self._named(member, grounds):
                reason = "a grouped item that occurs in none of the object's sources"
                out.append(Violation(path=f"{path}.members[{n}]", rule="key-ungrounded", text=member, reason=reason))
        if isinstance(obj, Contradiction) and obj.location is not None:
            out += self._location(f"{path}.location", obj.location, obj)
        section = field_or(obj, "section")
        if section and not self.section_exists(section):
            out.append(
                Violation(
                    path=f"{path}.section",
                    rule="section-unknown",
                    text=section,
                    reason="names no section of the living document",
                )
            )
        citations = obj.numbers
        for n, cite in enumerate(citations):
            out += self._citation(f"{path}.numbers[{n}]", cite, obj)
        # what each citation carries, once per object (distinct ones only), indexed by numeral and value
        cited = self._carried_of(citations)
        for field_path, text in _texts(path, obj):
            out += self._text_checked(field_path, text, obj, cited)
        out += self._key_numbers(path, obj, cited)
        if isinstance(obj, Increment):
            out += self._points_quotable(path, obj)
            if obj.kind == "update" and not self.new_fact(obj):
                out.append(
                    Violation(
                        path=f"{path}.points",
                        rule="update-without-new-fact",
                        text=obj.key,
                        reason="every name, version and term of the update's points the living document already holds",
                    )
                )
            if obj.kind == "new" and self.known(obj.key):
                out.append(
                    Violation(
                        path=f"{path}.key",
                        rule="known-as-new",
                        text=obj.key,
                        reason="the living document already names it (under this or another spelling): not new",
                    )
                )
        for h in field_or(obj, "doc_hits", []):
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
        url = field_or(obj, "url")
        if url and not self.in_materials(url):
            out.append(
                Violation(path=f"{path}.url", rule="url-not-in-material", text=url, reason="URL occurs in no material")
            )
        return _once_per_name(out)

    def _sources(self, path: str, obj: Increment | Refresh | Contradiction | Anchor) -> list[Violation]:
        out: list[Violation] = []
        for src in obj.sources:
            if src == self.doc.path and src in self.facts:  # the living document: what the batch is measured against
                continue
            if src not in self.scope:
                reason = "not a material of this manifest item"
                out.append(Violation(path=f"{path}.sources", rule="source-not-read", text=src, reason=reason))
            elif src not in self.facts:
                reason = "material was not read"
                out.append(Violation(path=f"{path}.sources", rule="source-not-read", text=src, reason=reason))
            elif self.facts[src].empty:
                reason = "the material holds no text"
                out.append(Violation(path=f"{path}.sources", rule="source-empty", text=src, reason=reason))
        return out

    def _key_numbers(self, path: str, obj: Increment | Refresh | Contradiction, cited: Carried) -> list[Violation]:
        """A key is the item's title as its material writes it; a number in a key no source writes so
        (``DeepInfer 吞吐 977 倍``) needs a citation like any other."""
        src, _, line = obj.key.rpartition(":")
        if src in obj.sources and line.isdigit():  # a detector's ``material:line`` key names its own line
            return []
        if not any(tok.kind == "quantity" for tok in scan(obj.key)) or self._named(obj.key, self._grounds(obj)):
            return []
        out = []
        for tok in scan(obj.key):
            if tok.kind == "quantity":
                out += self._quantity(f"{path}.key", tok, cited)
        return out

    def _key(self, path: str, obj: Increment | Refresh | Contradiction) -> list[Violation]:
        """The key names something in the object's sources or the living document (a detector's
        ``material:line`` key names its own source line)."""
        key = obj.key.strip()
        grounds = self._grounds(obj)
        if self._named(key, grounds, field_or(obj, "location")):
            return []
        src, _, line = key.rpartition(":")
        if src in obj.sources and line.isdigit():
            return []
        plain = normalize(key).casefold().replace("`", "").replace("*", "")
        if plain and any(plain in f.unmarked for f in grounds):  # a title as written, less its Markdown marks
            return []
        if self._subject_named(key, grounds) or self._subject_named(key, self.batch):
            return []
        return [
            Violation(
                path=f"{path}.key",
                rule="key-ungrounded",
                text=key,
                reason="occurs in none of the object's sources nor the living document",
            )
        ]

    def _location(self, path: str, loc: SourceRef, obj: Contradiction) -> list[Violation]:
        out: list[Violation] = []
        facts = self.facts.get(loc.path)
        if (loc.path not in self.scope and loc.path != self.doc.path) or facts is None:
            return [
                Violation(
                    path=f"{path}.path",
                    rule="source-not-read",
                    text=loc.path,
                    reason="not a read material of this manifest item",
                )
            ]
        if loc.quote and not facts.has_quote(loc.quote, (loc.line_start, loc.line_end)):
            out.append(
                Violation(
                    path=f"{path}.quote",
                    rule="quote-not-in-source",
                    text=loc.quote[:80],
                    reason=f"not verbatim in {loc.path}",
                )
            )
        if loc.url and not self.in_materials(loc.url):
            reason = "URL occurs in no material"
            out.append(Violation(path=f"{path}.url", rule="url-not-in-material", text=loc.url, reason=reason))
        return out

    def _anchor_text(self, path: str, anchor: Anchor) -> list[Violation]:
        """An anchor's key and title name its paper as its sources do; its sections exist."""
        grounds = self.grounds_of(anchor.sources)
        out = []
        key = anchor.key.strip()
        words = [w for w in _KEY_WORD.findall(key) if w.casefold() not in _FUNCTION_WORDS]
        if (
            key
            and key != anchor.arxiv
            and not self._named(key, grounds)
            and not all(self._named(w, grounds) for w in words)
        ):  # a paper's title: every word of it stands in its sources
            reason = "occurs in none of the anchor's sources nor the living document"
            out.append(Violation(path=f"{path}.key", rule="key-ungrounded", text=key, reason=reason))
        if anchor.title:
            out += self.check_text(f"{path}.title", anchor.title, grounds, NOTHING)
        for n, section in enumerate(anchor.sections):
            if not self.section_exists(section):
                reason = "no such section in the living document"
                out.append(Violation(path=f"{path}.sections[{n}]", rule="section-unknown", text=section, reason=reason))
        return out

    def uncitable(self, arxiv: str) -> str:
        """Why the materials do not let ``arxiv`` be cited ("" when they do): ``read.citing``, read once."""
        if self._citing is None:
            self._citing = citing(self.kb.materials)
        ok, why = citable(self._citing.get(arxiv), self.doc.anchored(arxiv), self.say, arxiv)
        return "" if ok else why

    def _anchor(self, path: str, anchor: Anchor) -> list[Violation]:
        out = []
        if not re.fullmatch(r"\d{2}(0[1-9]|1[0-2])\.\d{4,5}", anchor.arxiv):
            out.append(
                Violation(
                    path=f"{path}.arxiv", rule="arxiv-malformed", text=anchor.arxiv, reason="not a well-formed arXiv id"
                )
            )
        if not self.in_materials(anchor.arxiv):
            out.append(
                Violation(
                    path=f"{path}.arxiv",
                    rule="arxiv-not-in-material",
                    text=anchor.arxiv,
                    reason="occurs in no material",
                )
            )
        actual = "anchored" if self.doc.anchored(anchor.arxiv) else "new"
        if anchor.citable and (why := self.uncitable(anchor.arxiv)):
            out.append(Violation(path=f"{path}.citable", rule="anchor-not-citable", text="true", reason=why))
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
