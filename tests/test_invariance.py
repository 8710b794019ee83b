"""Layout invariance: the golden cases re-rendered in other layouts give the same brief."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from e1prep.evals.invariance import LAYOUTS, NOTE_LAYOUTS, Signature, score, write_variants

EXAMPLE = Path(__file__).resolve().parents[1] / "evals" / "golden" / "2026-10-25-inference"
URL = re.compile(r"https?://[^\s)|>]+")


def _notes(case: Path) -> dict[str, str]:
    return {str(p.relative_to(case)): p.read_text(encoding="utf-8") for p in sorted((case / "inbox").rglob("*.md"))}


@pytest.mark.parametrize("layout", sorted(NOTE_LAYOUTS))
def test_a_note_layout_rewrites_the_notes_and_keeps_every_url(tmp_path: Path, layout: str) -> None:
    [variant] = write_variants(EXAMPLE, tmp_path, (layout,)).values()
    before, after = _notes(EXAMPLE), _notes(variant)
    assert before.keys() == after.keys()
    assert any(before[k] != after[k] for k in before), "the layout changed no note"
    for name, text in before.items():
        want = {u.rstrip(".,;）") for u in URL.findall(text)}
        got = {u.rstrip(".,;）") for u in URL.findall(after[name])}
        assert want <= got, (layout, name, want - got)


def test_card_layouts_rewrite_the_cards(tmp_path: Path) -> None:
    for layout, variant in write_variants(EXAMPLE, tmp_path, ("cards-bullets", "cards-table")).items():
        card = (variant / "organized/repo_cards/4572-recursive-oss-rec.md").read_text(encoding="utf-8")
        assert not card.startswith("---"), layout
        assert "191" in card  # the count survives the layout


def test_the_bundled_example_is_layout_invariant(tmp_path: Path) -> None:
    result = score([EXAMPLE], tmp_path)
    assert result.checked == len(LAYOUTS)
    assert result.share == 1.0, result.differences


def test_a_changed_level_is_a_difference() -> None:
    base = Signature({("increments", "deepinfer", "verified")}, {("2610.30418", "anchored")})
    lower = Signature({("increments", "deepinfer", "partial")}, {("2610.30418", "anchored")})
    assert base.diff(lower)
    assert not base.diff(Signature(set(base.objects), set(base.anchors)))
