"""How often hands agree on 建议归入, and how the rules' routing compares with each (``evals/routing-agreement``).

The golden sections come from the hand-written briefs. Other hands, each blind to them, to the tool's source and
to each other, filed the same golden increments in the same living documents (``*-hand.json``). This prints, per
item, the golden section, each hand's and the rules' route, then how often every pair of hands agrees (over all
items, and over the items the rules draft as increments) and how often the rules agree with each. Two hands'
agreement is the ceiling a router of these documents can be expected to reach against one hand's labels.

Run: python scripts/routing_agreement.py [--labels evals/routing-agreement/second-hand.json ...]
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
from collections.abc import Mapping
from pathlib import Path

from e1prep.brief.golden import load_golden
from e1prep.evals.runner import pair
from e1prep.pipeline import draft_brief
from e1prep.produce.routing import routed_id

ROOT = Path(__file__).resolve().parents[1]
log = logging.getLogger("routing_agreement")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--labels",
        type=Path,
        action="append",
        help="a hand's labels (repeatable); default: every *-hand.json in evals/routing-agreement",
    )
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    paths = args.labels or sorted((ROOT / "evals" / "routing-agreement").glob("*-hand.json"))
    hands = {path.stem: _labels(path) for path in paths}
    items = list(hands[paths[0].stem])  # in the first hand's order
    golden: dict[tuple[str, str], str | None] = {}
    routed: dict[tuple[str, str], str | None] = {}
    for case in sorted({case for case, _ in items}):
        folder = ROOT / "evals" / "golden" / case
        expected = load_golden(folder / "expected.json").increments
        objects = json.loads(draft_brief(folder / "manifest.json").model_dump_json())["increments"]
        for e in expected:
            golden[case, e.key] = e.section
        for i, j in pair(objects, expected):
            routed[case, expected[j].key] = routed_id(objects[i].get("section"))
    names = list(hands)
    log.info("%-30s %-24s %-7s " + "%-12s " * len(names) + "%s", "case", "item", "golden", *names, "rules")
    for at in items:
        said = [str(hands[n].get(at)) for n in names]
        got = str(routed[at]) if at in routed else "(not drafted)"
        log.info("%-30s %-24s %-7s " + "%-12s " * len(names) + "%s", at[0], at[1][:24], golden[at], *said, got)
    drafted = [at for at in items if at in routed]
    columns = {"golden": golden, **hands}
    log.info(
        "\nagreement over all %d items (the rules: over the %d they draft as increments)", len(items), len(drafted)
    )
    for a, b in itertools.combinations(list(columns), 2):
        log.info("  %-12s = %-12s %.3f", a, b, _agree(columns[a], columns[b], items))
    for a in columns:
        log.info("  %-12s = %-12s %.3f", "rules", a, _agree(routed, columns[a], drafted))
    for a, b in itertools.combinations(list(columns), 2):
        log.info("  on the %d drafted: %-12s = %-12s %.3f", len(drafted), a, b, _agree(columns[a], columns[b], drafted))
    return 0


def _labels(path: Path) -> dict[tuple[str, str], str | None]:
    rows = json.loads(path.read_text(encoding="utf-8"))["items"]
    return {(row["case"], row["key"]): row["section"] for row in rows}


def _agree(
    a: Mapping[tuple[str, str], str | None], b: Mapping[tuple[str, str], str | None], over: list[tuple[str, str]]
) -> float:
    """The share of ``over`` on which both name the same section (both null counts as agreeing)."""
    return sum(a.get(at) == b.get(at) for at in over) / max(len(over), 1)


if __name__ == "__main__":
    raise SystemExit(main())
