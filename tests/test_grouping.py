"""Grouping as registrations stream in gives the same lines as grouping a finished list."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from e1prep.brief.models import Contradiction, ContradictionKind, EvidenceLevel, Excluded
from e1prep.check.grouping import GROUP_MIN, ExclusionGroups, Registration, group_contradictions, group_excluded
from e1prep.read.markers import strictest

KINDS = [ContradictionKind.not_quotable, ContradictionKind.access_blocked, ContradictionKind.count_mismatch]
LEVELS = [EvidenceLevel.summary, EvidenceLevel.unverified, EvidenceLevel.vendor, EvidenceLevel.partial]


def _reg(kind: int, source: int, key: int, level: int) -> Contradiction:
    return Contradiction(
        key=f"item {key}",
        kind=KINDS[kind],
        sources=[f"inbox/a/{source}.md"],
        evidence=LEVELS[level],
        claim=f"登记 {key}",
    )


def _reference(regs: list[Contradiction]) -> list[tuple[str, str, int, str]]:
    """The rule, stated plainly: per (kind, material), ten or more groupable registrations are one line."""
    buckets: dict[tuple[str, str], list[Contradiction]] = {}
    order: list[object] = []
    for c in regs:
        if c.kind is ContradictionKind.count_mismatch:
            order.append(c)
            continue
        k = (c.kind.value, c.sources[0])
        if k not in buckets:
            buckets[k] = []
            order.append(k)
        buckets[k].append(c)
    out = []
    for entry in order:
        if isinstance(entry, Contradiction):
            out.append((entry.kind.value, entry.key, 0, entry.evidence.value))
            continue
        group = buckets[entry]  # type: ignore[index]
        if len(group) < GROUP_MIN:
            out += [(c.kind.value, c.key, 0, c.evidence.value) for c in group]
        else:
            level = strictest(*(c.evidence for c in group))
            out.append((group[0].kind.value, group[0].key, len(group), level.value))
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 30), st.integers(0, 3)), max_size=60))
def test_streamed_grouping_equals_the_rule(specs: list[tuple[int, int, int, int]]) -> None:
    regs = [_reg(*s) for s in specs]
    got = group_contradictions(iter(regs))  # one at a time, as a detector yields them
    assert [(c.kind.value, c.key, len(c.members), c.evidence.value) for c in got] == _reference(regs)
    for c in got:
        if c.members:
            assert c.claim.startswith(f"本材料同类登记 {len(c.members)} 条")


def _lazy(spec: tuple[int, int, int, int], made: list[str]) -> Registration:
    c = _reg(*spec)

    def make() -> Contradiction:
        made.append(c.key)
        return c

    return Registration(c.key, c.kind, tuple(c.sources), c.evidence, make)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 30), st.integers(0, 3)), max_size=60))
def test_lazy_registrations_group_alike_and_only_shown_ones_are_made(specs: list[tuple[int, int, int, int]]) -> None:
    made: list[str] = []
    got = group_contradictions(_lazy(s, made) for s in specs)
    assert [(c.kind.value, c.key, len(c.members), c.evidence.value) for c in got] == _reference(
        [_reg(*s) for s in specs]
    )
    assert len(made) == len(got)  # a group made its first registration only; a line its own


def test_a_registration_made_unlike_its_announcement_is_refused() -> None:
    c = _reg(0, 0, 1, 0)
    wrong = Registration("item 2", c.kind, tuple(c.sources), c.evidence, lambda: c)
    with pytest.raises(ValueError, match="item 2"):
        group_contradictions([wrong])


REASONS = [
    "未核实（无核查说明），列为待核查线索，不作增量",
    "与活文档主题词几乎不重合，判为非本主题",
    "内容日期 2024-01-0{n}，旧内容",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 30), st.integers(0, 3)), max_size=60))
def test_exclusions_grouped_as_they_come_equal_grouping_the_finished_list(
    specs: list[tuple[int, int, int, int]],
) -> None:
    entries = [
        Excluded(
            key=f"item {key}",
            sources=[f"inbox/a/{source}.md"],
            evidence=LEVELS[level],
            reason=REASONS[reason].format(n=key % 9 + 1),
            url=f"https://x.org/{key}",
        )
        for reason, source, key, level in specs
    ]
    streamed = ExclusionGroups()
    for e in entries:
        streamed.add(e.key, list(e.sources), e.evidence, e.reason, e.url)
    assert streamed.lines() == group_excluded(entries)
    assert group_excluded(streamed.lines()) == streamed.lines()  # what the pipeline's finish does again
