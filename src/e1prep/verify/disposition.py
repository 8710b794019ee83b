"""What becomes of an object that fails a check: rejected only when its subject fails, else repaired
claim by claim, every repair listed with its rule (nothing is hidden, nothing honest is thrown away).

An object is rejected when its subject is ungrounded (its key, an anchor's arXiv id), when it is
``new`` but the living document names it, when it names no read material, or when it duplicates
another object. Every other failure is one claim's, and is repaired:

* a number in an increment's key points that is not quotable, or not cited, moves with its sentence
  to the evidence boundary, marked with its level (``unverified`` when nothing carries it); in any
  other text, its sentence is marked ``[unverified]`` where it stands;
* a sentence that names what no material holds (a name, an identifier, a URL, an arXiv id, a section,
  a hit count the living document contradicts) is withdrawn: it stands only in the list of repairs;
* an overstated level is capped to what the material supports, and the object's numbers become
  unquotable;
* a citation that its material does not bear out (number, quote, source) is removed, so the numbers
  it carried are checked again as uncited;
* a wrong hit count or anchor status is corrected from the living document, an anchor that claims to
  be citable when only material that establishes nothing cites it is listed as not citable with its
  reason (``read.citing``); a section or URL that exists nowhere is removed.

Repairs are applied, then the object is checked again, until nothing is left to repair; what still
fails after that is rejected with its violations.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..brief.models import (
    Anchor,
    Brief,
    Contradiction,
    EvidenceLevel,
    Increment,
    Refresh,
    Rejected,
    Repair,
    RepairAction,
    Violation,
    field_or,
)
from ..read.markers import strictest
from .report import Report

#: rounds of repair and re-check an object gets before what still fails rejects it
_ROUNDS = 4
#: the lists of brief objects the verifier checks, in order
OBJECT_LISTS = ("increments", "refreshes", "contradictions", "anchors")
#: what a repaired text is marked with where it stands
UNVERIFIED_MARK = "[unverified] "
#: a sentence already marked with the level it stands at
_MARK = re.compile(r"\[(?:partial|summary|snippet|card|vendor|unverified)\] ")
_MARK_ANYWHERE = re.compile(r"(?<![^\s。！？；;!?.])\[(?:partial|summary|snippet|card|vendor|unverified)\] ")

Obj = Increment | Refresh | Contradiction | Anchor
#: rules whose failing sentence names something no material holds: it is withdrawn, not marked
INVENTED = frozenset(
    {
        "name-ungrounded",
        "identifier-ungrounded",
        "url-not-in-material",
        "arxiv-not-in-material",
        "arxiv-malformed",
        "section-unknown",
        "hit-count-wrong",
    }
)
#: where one sentence of a text ends
_SENTENCE_END = re.compile(r"(?<=[。！？；;!?])|(?<=\.)\s+|\n")
_FIELD = re.compile(r"^\.(\w+)(?:\[(\d+)\])?(.*)$")


def rejects(violation: Violation, prefix: str, obj: Obj, read_left: bool) -> bool:
    """Whether ``violation`` rejects its whole object rather than one claim of it. ``read_left``:
    whether the object still names some read material."""
    rest = violation.path[len(prefix) :]
    if violation.rule in ("source-not-read", "source-empty"):
        return rest == ".sources" and not read_left
    if violation.rule in ("known-as-new", "object-duplicate"):
        return True
    if violation.rule in ("key-ungrounded", "quantity-uncited") and rest == ".key":  # the subject itself
        return True
    return isinstance(obj, Anchor) and rest == ".arxiv"  # an anchor's subject is its id


@dataclass
class Settler:
    """Repairs and rejects the objects of a brief, given a check of one object and the read materials."""

    check: Callable[[str, Obj], list[Violation]]
    readable: Callable[[str], bool]
    fresh_hits: Callable[[str], int]
    anchored: Callable[[str], bool]
    #: why an arXiv id may not be cited ("" when it may): ``read.citing``
    uncitable: Callable[[str], str] = lambda arxiv: ""

    def settle(self, brief: Brief, first: dict[str, list[Violation]]) -> Report:
        """``first``: each object's violations (by its path prefix, e.g. ``increments[3]``) from a
        whole-brief check, which also finds what only the whole brief shows (duplicates)."""
        kept: dict[str, list[Any]] = {}
        repairs: list[Repair] = []
        rejected: list[Rejected] = []
        for name in OBJECT_LISTS:
            keep = []
            for n, obj in enumerate(getattr(brief, name)):
                prefix = f"{name}[{n}]"
                outcome = self._object(name, prefix, obj, first.get(prefix, []))
                if isinstance(outcome, Rejected):
                    rejected.append(outcome)
                else:
                    repaired, done = outcome
                    keep.append(repaired)
                    repairs += done
            kept[name] = keep
        return Report(repairs=repairs, rejected=rejected, brief=brief.model_copy(update=kept))

    def _object(
        self, name: str, prefix: str, obj: Obj, violations: list[Violation]
    ) -> Rejected | tuple[Obj, list[Repair]]:
        found = list(violations)
        done: list[Repair] = []
        current = obj
        for _ in range(_ROUNDS):
            if not violations:
                if done and not _says_something(current):  # every claim it made failed: nothing stands
                    reason = "every claim of the object was withdrawn or marked unverified by its repairs"
                    last = Violation(path=prefix, rule="claims-all-failed", text=obj.key, reason=reason)
                    return _rejected(name, obj, [*found, last])
                return current, done
            read_left = any(self.readable(s) for s in current.sources)
            if any(rejects(v, prefix, current, read_left) for v in violations):
                return _rejected(name, obj, violations)
            current, made = self._repair(name, prefix, current, violations)
            if not made:
                break
            done += made
            violations = self.check(prefix, current)
        if not violations:
            return current, done
        return _rejected(name, obj, violations)

    def _repair(self, name: str, prefix: str, obj: Obj, violations: list[Violation]) -> tuple[Obj, list[Repair]]:
        repairing = _Repairing(obj, name, self)
        for v in violations:
            m = _FIELD.match(v.path[len(prefix) :])
            if m is not None:
                repairing.apply(v, m.group(1), int(m.group(2)) if m.group(2) is not None else None, m.group(3))
        return repairing.result()


@dataclass
class _Repairing:
    """One round of repairs of one object: its fields as data, changed violation by violation."""

    obj: Obj
    name: str
    settler: Settler
    data: dict[str, Any] = field(init=False)
    made: list[Repair] = field(default_factory=list)
    moved: set[int] = field(default_factory=set)
    dropped: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.data = self.obj.model_dump()

    def note(self, v: Violation, action: RepairAction) -> None:
        self.made.append(
            Repair(
                list_name=self.name,
                key=self.obj.key,
                path=v.path,
                rule=v.rule,
                text=v.text,
                reason=v.reason,
                action=action,
                producer=field_or(self.obj, "producer", "rules"),
            )
        )

    def apply(self, v: Violation, fname: str, at: int | None, tail: str) -> None:
        data = self.data
        if fname == "numbers" and at is not None:
            self.citation(v, at, tail)
        elif fname == "evidence" and v.rule == "evidence-overstated":
            self.cap(v)
        elif fname == "points" and at is not None and isinstance(self.obj, Increment) and v.rule not in INVENTED:
            self.to_boundary(v, at)
        elif (fname in ("section", "url") and not tail) or fname == "location":
            data[fname] = None
            self.note(v, "removed")
        elif fname == "doc_hits" and v.rule == "hit-count-wrong":
            for h in data["doc_hits"]:
                h["hits"] = self.settler.fresh_hits(h["term"])
            self.note(v, "corrected")
        elif fname == "status" and v.rule == "anchor-status-wrong":
            data["status"] = "anchored" if self.settler.anchored(data["arxiv"]) else "new"
            self.note(v, "corrected")
        elif fname == "citable" and v.rule == "anchor-not-citable":  # listed as not citable, with its reason
            data["citable"], data["reason"] = False, self.settler.uncitable(data["arxiv"]) or v.reason
            self.note(v, "corrected")
        elif fname in ("members", "sections") and at is not None:
            data[fname][at] = None
            self.note(v, "removed")
        elif fname == "sources":
            data["sources"] = [s for s in data["sources"] if s != v.text]
            self.note(v, "removed")
        elif isinstance(data.get(fname), str | list):
            self.sentence(v, fname, at)

    def citation(self, v: Violation, at: int, tail: str) -> None:
        """An overstated citation is capped; one its material does not bear out is removed."""
        if v.rule == "evidence-overstated" and not tail:
            cite = self.data["numbers"][at]
            cite["evidence"] = strictest(EvidenceLevel(cite["evidence"]), v.level or EvidenceLevel.unverified)
            cite["quotable"] = False
            self.note(v, "level-capped")
        elif at not in self.dropped:
            self.dropped.add(at)
            self.note(v, "removed")

    def cap(self, v: Violation) -> None:
        """The object's level capped to what its material supports; its numbers become unquotable."""
        level = v.level or EvidenceLevel.unverified
        self.data["evidence"] = strictest(EvidenceLevel(self.data["evidence"]), level)
        for cite in self.data.get("numbers", []):
            cite["quotable"] = False
            cite["evidence"] = strictest(EvidenceLevel(cite["evidence"]), level)
        self.note(v, "level-capped")

    def to_boundary(self, v: Violation, at: int) -> None:
        """A key point that fails moves to the evidence boundary, marked with its level."""
        if at in self.moved:
            return
        self.moved.add(at)
        level = v.level if v.rule == "not-quotable-as-finding" and v.level else EvidenceLevel.unverified
        self.data["boundary"].append(f"[{level.value}] {self.data['points'][at]}")
        self.note(v, "moved-to-boundary")

    def sentence(self, v: Violation, fname: str, at: int | None) -> None:
        """The sentence of a text that holds what failed: withdrawn when it names what no material
        holds, else marked ``[unverified]`` where it stands."""
        text = self.data[fname] if at is None else self.data[fname][at]
        if not isinstance(text, str):
            return
        parts = _sentences(text)
        hit = [n for n, part in enumerate(parts) if v.text and v.text in part] or list(range(len(parts)))
        if v.rule in INVENTED:
            kept = _withdraw(text, v.text)
            action: RepairAction = "removed"
        else:
            kept = "".join(
                UNVERIFIED_MARK + part if n in hit and not _MARK.match(part.lstrip()) else part
                for n, part in enumerate(parts)
            )
            action = "marked-unverified"
        if kept == text:
            return
        if at is None:
            self.data[fname] = kept
        else:
            self.data[fname][at] = kept
        self.note(v, action)

    def result(self) -> tuple[Obj, list[Repair]]:
        data = self.data
        if self.moved:
            data["points"] = [p for n, p in enumerate(data["points"]) if n not in self.moved]
        if self.dropped:
            data["numbers"] = [c for n, c in enumerate(data["numbers"]) if n not in self.dropped]
        for name in ("points", "boundary"):  # an entry whose every sentence was withdrawn is gone
            if isinstance(data.get(name), list):
                data[name] = [e for e in data[name] if not isinstance(e, str) or e.strip()]
        for name in ("members", "sections"):
            if data.get(name) and None in data[name]:
                data[name] = [m for m in data[name] if m is not None]
        return type(self.obj).model_validate(data), self.made


def _says_something(obj: Obj) -> bool:
    """Whether an object still states a claim that is not marked unverified: a key point or a relation
    (an increment), a summary or a count change (a refresh), a claim or members (a contradiction)."""
    if isinstance(obj, Anchor):
        return True
    if isinstance(obj, Increment):
        texts = [*obj.points, obj.relation]
    elif isinstance(obj, Refresh):
        texts = [obj.summary]
        if obj.changes:
            return True
    else:
        texts = [obj.claim]
        if obj.members:
            return True
    return any(blank_marked(t).strip() for t in texts)


def blank_marked(text: str) -> str:
    """``text`` with every sentence marked with its level (``[unverified] …``) blanked out, offsets kept:
    a marked sentence states no finding, so there is nothing in it to check."""
    if "] " not in text:
        return text
    out, at = [], 0
    for m in _MARK_ANYWHERE.finditer(text):
        if m.start() < at:
            continue
        end = _SENTENCE_END.search(text, m.end())
        stop = end.end() if end is not None and end.end() > m.end() else len(text)
        out += [text[at : m.start()], " " * (stop - m.start())]
        at = stop
    out.append(text[at:])
    return "".join(out)


def _withdraw(text: str, what: str) -> str:
    """``text`` less the smallest clause that holds ``what``: its parenthesis when it stands in one,
    else its clause between commas or sentence ends (the whole text when ``what`` is not in it)."""
    at = text.find(what) if what else -1
    if at < 0:
        return ""
    opened = max(text.rfind(o, 0, at) for o in _OPENERS)
    closed = min((c for c in (text.find(x, at + len(what)) for x in _CLOSERS) if c >= 0), default=-1)
    if opened >= 0 and closed >= 0 and not any(text.find(x, opened + 1, at) >= 0 for x in _CLOSERS):
        return text[:opened] + text[closed + 1 :]
    start = max(text.rfind(d, 0, at) for d in _CLAUSE_ENDS) + 1
    ends = [e for e in (text.find(d, at + len(what)) for d in _CLAUSE_ENDS) if e >= 0]
    stop = min(ends) + 1 if ends else len(text)
    return (text[:start] + text[stop:]).strip()


_OPENERS = ("（", "(")
_CLOSERS = ("）", ")")
_CLAUSE_ENDS = ("，", ",", "；", ";", "。", "！", "？", "!", "?", "\n")


def _sentences(text: str) -> list[str]:
    """A text cut into its sentences, each keeping its end and the space after it (joined, the text)."""
    parts, at = [], 0
    for m in _SENTENCE_END.finditer(text):
        if m.end() > at:
            parts.append(text[at : m.end()])
            at = m.end()
    if at < len(text):
        parts.append(text[at:])
    return parts or [text]


def _rejected(name: str, obj: Obj, violations: list[Violation]) -> Rejected:
    return Rejected(
        list_name=name,
        key=obj.key,
        producer=field_or(obj, "producer", "rules"),
        violations=violations,
        item=obj.model_dump(mode="json"),
    )
