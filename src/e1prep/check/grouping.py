"""Bulk grouped: many registrations of one kind, or exclusions for one reason, from one material
become one line whose ``members`` keep every item's key.

The policy lives here, below the detectors and the pipeline, so that a detector producing bulk can
group as it goes (``group_contradictions`` takes any iterable and keeps, per bucket that reaches
``GROUP_MIN``, only what the grouped line shows: the first registration, every key, the strictest level).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Generic, NamedTuple, Protocol, TypeVar

from ..brief.models import Contradiction, ContradictionKind, EvidenceLevel, Excluded
from ..brief.phrases import Phrases, phrases
from ..read.markers import strictest

#: this many items of one kind from one material (or more) become one grouped line (the golden
#: cases, like the hand-written briefs, list up to 7 per material one by one)
GROUP_MIN = 10
#: examples named in a grouped line
GROUP_EXAMPLES = 3
_DETAIL = re.compile(r"（[^（）]*）|\([^()]*\)|「[^」]*」|\d{4}-\d{2}-\d{2}|\d+")


@lru_cache(maxsize=256)
def _reason_kind(reason: str) -> str:
    """A reason without its item's particulars (dates, remarks, quoted words): what items share.

    Remembered for a few hundred reasons: a dump's excluded items repeat a handful of them.
    """
    return _SPACE_BEFORE.sub(r"\1", re.sub(r"\s+", " ", _DETAIL.sub("", reason))).strip(" ，,")


#: a space left before a punctuation mark where a detail was taken out (``summary only (…): a lead``)
_SPACE_BEFORE = re.compile(r" ([,:;.])")


def _examples(keys: list[str], say: Phrases) -> str:
    return say.join(keys[:GROUP_EXAMPLES]) + (say("group.more") if len(keys) > GROUP_EXAMPLES else "")


def group_excluded(excluded: list[Excluded], say: Phrases | None = None) -> list[Excluded]:
    """Items excluded from one material for one reason become one line once there are ``GROUP_MIN``.
    ``say``: the brief's phrases (default: Chinese)."""
    say = say or phrases()
    buckets: dict[tuple[tuple[str, ...], str], list[Excluded]] = {}
    for e in excluded:
        buckets.setdefault((tuple(e.sources), _reason_kind(e.reason)), []).append(e)
    out: list[Excluded] = []
    for (sources, why), entries in buckets.items():
        if len(entries) < GROUP_MIN or any(e.members for e in entries):
            out += entries
            continue
        level = strictest(*(e.evidence for e in entries))
        out.append(_excluded_group(sources, why, [e.key for e in entries], level, say))
    return out


def _excluded_group(
    sources: tuple[str, ...], why: str, keys: list[str], evidence: EvidenceLevel, say: Phrases
) -> Excluded:
    return Excluded(
        key=keys[0],
        sources=list(sources),
        evidence=evidence,
        reason=say("group.excluded", why=why, n=len(keys), examples=_examples(keys, say)),
        members=keys,
    )


@dataclass
class _Exclusion:
    """An exclusion not yet made into an ``Excluded`` (only a shown one ever is)."""

    key: str
    sources: tuple[str, ...]
    evidence: EvidenceLevel
    reason: str
    url: str | None


class _Entry(Protocol):
    """What a bucket reads of what it holds."""

    @property
    def key(self) -> str: ...

    @property
    def evidence(self) -> EvidenceLevel: ...


E = TypeVar("E", bound=_Entry)


@dataclass
class _Bucket(Generic[E]):
    """The entries of one bucket (one material, one kind or reason) seen so far. Once there are
    ``GROUP_MIN`` it is a group: it holds only its first entry, every key and the strictest level."""

    held: list[E] = field(default_factory=list)  # in full, until the bucket is a group
    keys: list[str] = field(default_factory=list)
    evidence: EvidenceLevel | None = None  # the strictest level so far

    @property
    def grouped(self) -> bool:
        return len(self.keys) >= GROUP_MIN

    def add(self, entry: E) -> None:
        self.keys.append(entry.key)
        self.evidence = entry.evidence if self.evidence is None else strictest(self.evidence, entry.evidence)
        if self.grouped:
            del self.held[1:]
        else:
            self.held.append(entry)


class ExclusionGroups:
    """Exclusions grouped as a producer makes them: the lines ``group_excluded`` would give for them.

    A bucket (material, reason kind) that reaches ``GROUP_MIN`` keeps only every key and the
    strictest level, so ten thousand excluded items of a dump never sit in memory as objects.
    ``say``: the brief's phrases (default: Chinese).
    """

    def __init__(self, say: Phrases | None = None) -> None:
        self.say = say or phrases()
        self._buckets: dict[tuple[tuple[str, ...], str], _Bucket[_Exclusion]] = {}

    def add(self, key: str, sources: list[str], evidence: EvidenceLevel, reason: str, url: str | None = None) -> None:
        entry = _Exclusion(key, tuple(sources), evidence, reason, url)
        self._buckets.setdefault((entry.sources, _reason_kind(reason)), _Bucket()).add(entry)

    def lines(self) -> list[Excluded]:
        out: list[Excluded] = []
        for (sources, why), bucket in self._buckets.items():
            if bucket.grouped and bucket.evidence is not None:
                out.append(_excluded_group(sources, why, bucket.keys, bucket.evidence, self.say))
                continue
            out += [
                Excluded(key=e.key, sources=list(e.sources), evidence=e.evidence, reason=e.reason, url=e.url)
                for e in bucket.held
            ]
        return out


#: registrations grouped per material (cross-document findings, such as counts and cards, never are)
GROUPABLE = frozenset(
    {
        ContradictionKind.not_quotable,
        ContradictionKind.access_blocked,
        ContradictionKind.stale,
        ContradictionKind.version_mismatch,
        ContradictionKind.injection_suspected,
        ContradictionKind.claim_tension,
    }
)


class Registration(NamedTuple):
    """A registration not yet made: what grouping needs to know of it, and how to make it.

    A detector that registers thousands of items yields these, so only the registrations that are
    shown (up to ``GROUP_MIN - 1`` per bucket, or a group's first) are ever built and validated.
    ``make()`` must give a ``Contradiction`` with this key, kind, sources and evidence. Immutable and
    cheap to make (a named tuple: a frozen dataclass cost a microsecond per registration of a dump).
    """

    key: str
    kind: ContradictionKind
    sources: tuple[str, ...]
    evidence: EvidenceLevel
    make: Callable[[], Contradiction]

    def build(self) -> Contradiction:
        c = self.make()
        if (c.key, c.kind, tuple(c.sources), c.evidence) != (self.key, self.kind, self.sources, self.evidence):
            raise ValueError(f"registration {self.key!r} was made as {c.key!r} ({c.kind}, {c.evidence})")
        return c


def _registration_lines(bucket: _Bucket[Contradiction | Registration], say: Phrases) -> list[Contradiction]:
    """A bucket's registrations one by one, or, once it is a group, one line naming them all."""
    held = [c.build() if isinstance(c, Registration) else c for c in bucket.held]
    if not bucket.grouped:
        return held
    first = held[0]
    shown = _examples(list(dict.fromkeys(bucket.keys)), say)
    return [
        Contradiction(
            key=first.key,
            kind=first.kind,
            sources=list(first.sources),
            evidence=bucket.evidence or first.evidence,
            claim=say("group.registered", n=len(bucket.keys), examples=shown, claim=first.claim),
            action=first.action,
            numbers=first.numbers,
            producer=first.producer,
            members=bucket.keys,  # one per registration: a name registered twice counts twice
        )
    ]


def group_contradictions(
    contradictions: Iterable[Contradiction | Registration], say: Phrases | None = None
) -> list[Contradiction]:
    """Registrations of one kind in one material become one line once there are ``GROUP_MIN``.

    The group keeps every item's key (``members``); its key is the first item's, and its claim
    names the count and a few examples. Cross-document findings (counts, cards) are never grouped.
    Registrations may come one at a time (a generator): a bucket that has become a group holds
    only its first registration, so bulk never sits in memory whole; a ``Registration`` is built
    only if it is shown. ``say``: the brief's phrases (default: Chinese).
    """
    say = say or phrases()
    buckets: dict[tuple[ContradictionKind, tuple[str, ...]], _Bucket[Contradiction | Registration]] = {}
    order: list[Contradiction | tuple[ContradictionKind, tuple[str, ...]]] = []
    for c in contradictions:
        if isinstance(c, Registration) and c.kind not in GROUPABLE:
            c = c.build()
        if isinstance(c, Contradiction) and (c.kind not in GROUPABLE or c.members):
            order.append(c)
            continue
        k = (c.kind, tuple(c.sources))
        if k not in buckets:
            buckets[k] = _Bucket()
            order.append(k)
        buckets[k].add(c)
    result: list[Contradiction] = []
    for entry in order:
        result += [entry] if isinstance(entry, Contradiction) else _registration_lines(buckets[entry], say)
    return result
