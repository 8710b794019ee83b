"""Merging objects from several producers, and the deterministic anchors table."""

from __future__ import annotations

from e1prep.brief.models import Contradiction, ContradictionKind, EvidenceLevel, NumberCitation, SourceRef
from e1prep.pipeline import merge


def _c(key: str, source: str, kind: ContradictionKind = ContradictionKind.not_quotable, n: str = "5") -> Contradiction:
    cite = NumberCitation(text=n, evidence=EvidenceLevel.vendor, source=SourceRef(path=source), quotable=False)
    return Contradiction(key=key, kind=kind, sources=[source], evidence=EvidenceLevel.vendor, numbers=[cite])


def test_same_thing_from_two_materials_becomes_one_object_with_both_sources() -> None:
    merged = merge([_c("Rapid-MLX", "a.md"), _c("rapid mlx", "b.md", n="6")])
    assert len(merged) == 1
    assert merged[0].sources == ["a.md", "b.md"]
    assert [n.text for n in merged[0].numbers] == ["5", "6"]


def test_different_kinds_or_keys_stay_apart() -> None:
    merged = merge(
        [
            _c("Rapid-MLX", "a.md"),
            _c("Rapid-MLX", "a.md", ContradictionKind.bilingual_mismatch),
            _c("Rapid", "a.md"),
        ]
    )
    assert len(merged) == 3


def test_a_repeated_citation_is_kept_once() -> None:
    merged = merge([_c("X", "a.md"), _c("X", "a.md")])
    assert merged[0].sources == ["a.md"]
    assert len(merged[0].numbers) == 1


def test_a_draft_leaves_no_cycles_and_the_collector_as_it_was() -> None:
    """The collector is paused while e1prep's stages run, which is only sound if they make no
    reference cycles: a draft leaves nothing for it to collect, and its state is restored."""
    import gc

    from conftest import EXAMPLE_MANIFEST
    from e1prep.brief.render import render_markdown
    from e1prep.pipeline import draft_brief

    assert gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        brief = draft_brief(EXAMPLE_MANIFEST)
        render_markdown(brief)
        assert gc.collect() == 0
        assert not gc.isenabled()  # a collector the caller paused stays paused
    finally:
        gc.enable()
    draft_brief(EXAMPLE_MANIFEST)
    assert gc.isenabled()
