"""Whether a note's HTTP status reads as an access problem, and an identifier or count does not.

Each line of another hand's notes is read as a one-item note; the reader's ``access_blocked`` is
compared with the hand's label (``status``: the page could not be read; ``identifier``: the number is
an issue, an issue of a periodical, a page, a count...). Missing a status is the costly side (an
unread page would not lower what its item says); reading an identifier as a status only lowers.

Exit 1 when a line labelled ``status`` in ``heldout.jsonl`` (never tuned on) is not read as an access
problem; identifiers read as statuses are listed and counted (they only lower an item).

Run from the checkout: python evals/heldout-status/measure.py
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from e1prep.read.notes import split_note

HERE = Path(__file__).resolve().parent
log = logging.getLogger("heldout-status")


def measure(name: str) -> tuple[int, int, int, int, list[str]]:
    """(statuses read, statuses, identifiers read as statuses, identifiers, statuses missed)."""
    rows = [json.loads(line) for line in (HERE / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    status = found = identifier = misread = 0
    missed: list[str] = []
    for row in rows:
        (item,) = split_note(name, row["text"])
        blocked = bool(item.access_blocked)
        if row["label"] == "status":
            status += 1
            found += blocked
            if not blocked:
                missed.append(row["text"])
        else:
            identifier += 1
            misread += blocked
            if blocked:
                log.info("%s: identifier read as a status: %s", name, row["text"])
    return found, status, misread, identifier, missed


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    failed = False
    for name in ("tuned.jsonl", "heldout.jsonl"):
        found, status, misread, identifier, missed = measure(name)
        for text in missed:
            log.info("%s: status not read as an access problem: %s", name, text)
        log.info(
            "%s: statuses read %d/%d; identifiers read as statuses %d/%d", name, found, status, misread, identifier
        )
        failed |= name == "heldout.jsonl" and bool(missed)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
