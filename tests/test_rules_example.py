"""The rules backend on the bundled example (evals/golden/2026-10-25-inference)."""

from __future__ import annotations

import json

import pytest

from conftest import BLOGS, EXAMPLE_MANIFEST, example_with
from e1prep.brief.models import EvidenceLevel, MaterialStatus
from e1prep.read.numbers import normalize, occurs_in

MATERIALS = json.loads(EXAMPLE_MANIFEST.read_text(encoding="utf-8"))["items"][0]["materials"]
REFRESHED = ("rec", "Rapid-MLX", "flare", "EAGLE-4", "Lore-Hex")  # the names the issue and the seed use


def _inc(brief, needle: str):
    found = [i for i in brief.increments if needle.lower() in i.key.lower()]
    assert len(found) == 1, [i.key for i in brief.increments]
    return found[0]


@pytest.mark.parametrize("needle", ["DeepInfer", "aisimulate"])
def test_increments_with_source_url_and_verified(example_brief, needle: str) -> None:
    inc = _inc(example_brief, needle)
    assert inc.sources == [BLOGS]
    assert inc.url and inc.url.startswith("https://")
    assert needle.lower() in inc.url.lower()
    # read in full, but each item states a limitation of its own (DeepInfer: a vendor-claim line;
    # aisimulate: "集群实跑结果未核"): the most restrictive reading is partial
    assert inc.evidence is EvidenceLevel.partial
    assert inc.points
    assert any(h.hits == 0 for h in inc.doc_hits)  # novelty evidence: a name with zero hits


def test_exactly_two_increments(example_brief) -> None:
    assert len(example_brief.increments) == 2


@pytest.mark.parametrize("needle", REFRESHED)
def test_cards_are_refreshes_not_increments(example_brief, needle: str) -> None:
    assert any(needle.lower() in r.key.lower() for r in example_brief.refreshes)
    assert not any(needle.lower() in i.key.lower() for i in example_brief.increments)


def test_rec_refresh_has_old_and_new_counts(example_brief) -> None:
    rec = next(r for r in example_brief.refreshes if r.key == "rec")
    changes = {c.field: (c.old, c.new) for c in rec.changes}
    assert changes["stars"] == ("182", "191")
    assert changes["stars_weekly"] == ("+77", "+63")
    assert rec.evidence is EvidenceLevel.card


def test_anchors_exactly(example_brief) -> None:
    assert {a.arxiv: a.status for a in example_brief.anchors} == {"2610.30418": "anchored"}


def test_all_materials_in_sources_read(example_brief) -> None:
    mats = [s for s in example_brief.sources if s.role == "material"]
    assert [s.path for s in mats] == MATERIALS
    assert len(mats) == 8
    assert all(s.status is MaterialStatus.read for s in mats)
    roles = {s.path: s.role for s in example_brief.sources}
    assert roles["organized/knowledge/inference.md"] == "baseline"
    assert roles["organized/paper_cards/147-2602-10238.md"] == "spot_check"


@pytest.mark.parametrize("vendor_number", ["155 万亿", "155", "38 美元"])
def test_vendor_numbers_not_in_points(example_brief, vendor_number: str) -> None:
    for inc in example_brief.increments:
        for p in inc.points:
            assert not occurs_in(vendor_number, normalize(p)), (inc.key, p)


def test_brief_has_no_rejected_objects(example_brief, example_kb) -> None:
    from e1prep.verify.verifier import Verifier

    assert example_brief.rejected == []
    kb, doc = example_kb
    assert Verifier(kb, doc).verify(example_brief).violations == []


def test_header_and_baseline(example_brief) -> None:
    h = example_brief.header
    assert (h.job, h.item, h.topic, h.date) == (
        "e627b203-77c1-4f5a-a634-26925ef1b683",
        "e1_prep:inference",
        "inference",
        "2026-10-25",
    )
    assert example_brief.baseline.version == "vOct25午"
    assert example_brief.baseline.sections > 10
    assert "8 份材料" in example_brief.judgement
    assert example_brief.run.backend == "rules"


def test_draft_is_deterministic(example_brief) -> None:
    from e1prep.pipeline import draft_brief

    again = draft_brief(EXAMPLE_MANIFEST)
    assert again.model_dump(exclude={"run"}) == example_brief.model_dump(exclude={"run"})


def _example_with(tmp_path, rel: str, text: str):
    """The brief of the bundled example with the note ``rel`` added to its manifest."""
    from e1prep.pipeline import draft_brief

    return draft_brief(example_with(tmp_path / "kb", {rel: text}))


RECHECKS = """---
author: jay
date: 2026-10-25
kind: blogs-discovery
---
# 复查批次

## 1. llm-d：跟进

- URL：https://example.org/known/1
- 核查：已核查原文
- 要点：llm-d 见活文档 §3.2；本轮复查吞吐提升 12%。

## 2. llm-d：跟进

- URL：https://example.org/known/2
- 核查：已核查原文
- 要点：llm-d 见活文档 §3.2；本轮复查吞吐提升 15%。
"""


def test_two_items_rechecking_one_known_subject_make_one_refresh(tmp_path) -> None:
    """The rules once stated the same refresh for each item, and the verifier rejected every copy but the
    first (6,698 rejections on a batch of rechecks): the same recheck is one refresh, nothing rejected."""
    rel = "inbox/jay/2026-10-25T2000-recheck.md"
    brief = _example_with(tmp_path, rel, RECHECKS)
    assert [r.key for r in brief.refreshes if rel in r.sources] == ["llm-d"]
    assert not brief.rejected


def test_an_item_of_more_key_points_than_a_brief_lists_names_the_rest_by_its_lines(tmp_path) -> None:
    """An item of 3,000 measured lines made an increment of 3,000 key points and 6,000 citations (a 2 MB
    note: a 47 MB brief). The increment lists ``POINTS_LISTED`` of them and points to the rest by the
    note's lines; that pointer is the brief's bookkeeping, and the verifier accepts it as written."""
    from e1prep.brief.render import render_markdown
    from e1prep.produce.rules import POINTS_LISTED

    head = "# 笔记\n\n## 1. Quillon 推理引擎更新\n\n- URL：https://example.org/quillon\n- 核查：已核查原文\n- 要点：\n"
    lines = [f"  - 指标 {n}：吞吐提升 {n}%" for n in range(1, 3001)]
    brief = _example_with(tmp_path, "inbox/jay/2026-10-25T2000-metrics.md", head + "\n".join(lines) + "\n")
    (inc,) = [i for i in brief.increments if i.key == "Quillon"]
    assert inc.evidence is EvidenceLevel.verified  # ``指标 401：`` counts a label: no HTTP status
    assert len(inc.points) == POINTS_LISTED
    assert inc.points[-1] == f"指标 {POINTS_LISTED}：吞吐提升 {POINTS_LISTED}%"
    first = 7 + POINTS_LISTED + 1  # the note's line of the first point not listed
    assert inc.boundary == [f"笔记第 {first}–3007 行的其余内容未逐条列出，见原文"]
    assert len(inc.numbers) == 2 * POINTS_LISTED
    assert not brief.rejected and "[unverified]" not in render_markdown(brief)
