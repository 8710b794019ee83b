"""How often two hands agree on 建议归入, and how the rules' routing compares with each (``evals/routing-agreement``).

The golden sections come from the hand-written briefs. A second hand, blind to them and to the tool's source,
filed the same golden increments in the same living documents (``second-hand.json``). This prints, per item,
the golden section, the second hand's, and the rules' route, then three agreement rates over the items the
rules drafted as increments: second hand with golden, rules with golden, rules with the second hand. The first
is the ceiling a router of these documents can be expected to reach against one hand's labels.

Run: python scripts/routing_agreement.py [--labels evals/routing-agreement/second-hand.json]
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from e1prep.brief.golden import load_golden
from e1prep.evals.runner import pair
from e1prep.pipeline import draft_brief
from e1prep.produce.routing import routed_id

ROOT = Path(__file__).resolve().parents[1]
log = logging.getLogger("routing_agreement")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--labels", type=Path, default=ROOT / "evals" / "routing-agreement" / "second-hand.json")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rows = json.loads(args.labels.read_text(encoding="utf-8"))["items"]
    routed: dict[tuple[str, str], str | None] = {}
    golden: dict[tuple[str, str], str | None] = {}
    for case in sorted({row["case"] for row in rows}):
        folder = ROOT / "evals" / "golden" / case
        expected = load_golden(folder / "expected.json").increments
        objects = json.loads(draft_brief(folder / "manifest.json").model_dump_json())["increments"]
        for e in expected:
            golden[case, e.key] = e.section
        for i, j in pair(objects, expected):
            routed[case, expected[j].key] = routed_id(objects[i].get("section"))
    both = second_golden = rules_golden = rules_second = all_second_golden = 0
    log.info("%-30s %-24s %-7s %-7s %s", "case", "item", "golden", "second", "rules")
    for row in rows:
        at = (row["case"], row["key"])
        want, second = golden[at], row["section"]
        all_second_golden += second == want
        drafted = at in routed
        got = routed.get(at)
        log.info("%-30s %-24s %-7s %-7s %s", at[0], at[1][:24], want, second, got if drafted else "(not drafted)")
        if drafted:
            both += 1
            second_golden += second == want
            rules_golden += got == want
            rules_second += got == second
    log.info(
        "\nall %d items: second hand = golden %.3f\n"
        "the %d the rules drafted: second hand = golden %.3f, rules = golden %.3f, rules = second hand %.3f",
        len(rows),
        all_second_golden / len(rows),
        both,
        second_golden / both,
        rules_golden / both,
        rules_second / both,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
