"""Section routing on notes another hand wrote and labelled (``evals/routing-heldout``), never tuned on:
the labels name sections their documents hold, and the router keeps at least its first-contact figures."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "evals" / "routing-heldout" / "labels.json"
#: first contact (evals/routing-heldout/README.md): 29 of 38 sectioned notes, 2 of 7 nulls left undecided
FLOOR_ACCURACY = 0.76
#: the second set (evals/routing-heldout-2), another hand's, other documents: 23 of 29 at first contact
SECOND = ROOT / "evals" / "routing-heldout-2" / "labels.json"
SECOND_FLOOR = 0.79


@pytest.mark.parametrize(("labels", "count"), [(LABELS, 45), (SECOND, 36)])
def test_every_label_names_a_section_of_its_document(labels: Path, count: int) -> None:
    items = json.loads(labels.read_text(encoding="utf-8"))["items"]
    assert len(items) == count and len({row["id"] for row in items}) == count
    for row in items:
        heads = re.findall(r"^#{2,3} (§\d+(?:\.\d+)?)\s", (ROOT / row["doc"]).read_text(encoding="utf-8"), re.M)
        assert row["section"] is None or row["section"] in heads, row["id"]


@pytest.mark.parametrize(
    ("labels", "notes", "sectioned", "floor"), [(LABELS, 45, 38, FLOOR_ACCURACY), (SECOND, 36, 29, SECOND_FLOOR)]
)
def test_the_router_keeps_its_first_contact_accuracy_on_the_held_out_notes(
    labels: Path, notes: int, sectioned: int, floor: float
) -> None:
    script = str(ROOT / "scripts" / "route_heldout.py")
    run = subprocess.run([sys.executable, script, "--labels", str(labels)], capture_output=True, text=True, check=True)
    figures = json.loads(run.stderr.strip().splitlines()[-1])
    assert figures["notes"] == notes and figures["sectioned"] == sectioned
    assert figures["accuracy"] >= floor, figures
