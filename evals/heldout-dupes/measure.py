"""Repeated items in the held-out notes: which exact repeats the reader reads once, and whether it
ever takes two different items for one (a false merge, the error that must not happen).

Run from the checkout: python evals/heldout-dupes/measure.py
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from e1prep.read.notes import NoteItem, split_note

HERE = Path(__file__).resolve().parent
log = logging.getLogger("heldout-dupes")


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    labels = json.loads((HERE / "labels.json").read_text(encoding="utf-8"))
    by_file: dict[str, list[dict[str, object]]] = {}
    for row in labels:
        by_file.setdefault(row["file"], []).append(row)
    found = missed = false_merges = kept = 0
    for rel, rows in by_file.items():
        items = split_note(rel, (HERE / rel).read_text(encoding="utf-8"))
        if len(items) != len(rows):  # split differently: a merge must still be of a labelled repeat's title
            log.info("%s: the reader found %d items, the labels %d (merges by title)", rel, len(items), len(rows))
            repeated = [str(r["title"]) for r in rows if r["repeat_of"] is not None]
            merged = [it for it in items if it.duplicate_of is not None]
            right = sum(1 for it in merged if _titled(it, repeated))
            found += right
            false_merges += len(merged) - right
            missed += len(repeated) - right
            continue
        for item, row in zip(items, rows, strict=True):
            want, got = row["repeat_of"] is not None, item.duplicate_of is not None
            found += want and got
            missed += want and not got
            false_merges += got and not want
            kept += not want and not got
            if want != got:
                log.info("%s item %s (%s): reader %s", rel, row["occurrence"], row["why"], "merged" if got else "kept")
    log.info(
        "exact repeats read once %d of %d, missed %d; false merges %d; distinct items kept %d (aligned notes)",
        found,
        found + missed,
        missed,
        false_merges,
        kept,
    )
    return 1 if false_merges else 0


def _titled(item: NoteItem, titles: list[str]) -> bool:
    return any(t[:20] in item.title or item.title[:20] in t for t in titles)


if __name__ == "__main__":
    raise SystemExit(main())
