"""Evidence levels the reader gives the held-out notes of another hand, against that hand's labels.

Counts items read at the labelled level, lower (safe), and higher (an overstatement). Exit 1 when
an item the labels put below ``verified`` is read as ``verified``: a hedge, question, relayed check
or stated limitation that still leaves an item verified.

Run from the checkout: python evals/heldout-levels/measure.py
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from e1prep.brief.models import EvidenceLevel
from e1prep.read.markers import RANK
from e1prep.read.notes import NoteItem, split_note

HERE = Path(__file__).resolve().parent
log = logging.getLogger("heldout-levels")


def _item_for(title: str, items: list[NoteItem]) -> NoteItem | None:
    """The reader's item for a labelled title (titles are compared by their first characters)."""
    head = title[:12]
    return next((it for it in items if head in it.title or it.title[:12] in title or head in it.text), None)


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    labels = json.loads((HERE / "labels.json").read_text(encoding="utf-8"))
    by_file: dict[str, list[dict[str, object]]] = {}
    for row in labels:
        by_file.setdefault(str(row["file"]), []).append(row)
    same = lower = higher = verified_wrongly = unmatched = read = 0
    for rel, rows in by_file.items():
        items = split_note(rel, (HERE / rel).read_text(encoding="utf-8"))
        read += len(items)
        for row in rows:
            item = _item_for(str(row["title"]), items)
            if item is None:
                unmatched += 1
                log.info("%s: no item for %r", rel, row["title"])
                continue
            want, got = EvidenceLevel(str(row["level"])), item.evidence
            if RANK[got] > RANK[want]:
                higher += 1
                verified_wrongly += got is EvidenceLevel.verified
                log.info("%s: %r read %s, labelled %s (%s)", rel, row["title"], got.value, want.value, item.remark)
            elif RANK[got] < RANK[want]:
                lower += 1
            else:
                same += 1
    log.info(
        "labelled %d, reader items %d: same %d, lower %d, higher %d (verified though labelled lower: %d), unmatched %d",
        len(labels),
        read,
        same,
        lower,
        higher,
        verified_wrongly,
        unmatched,
    )
    return 1 if verified_wrongly else 0


if __name__ == "__main__":
    raise SystemExit(main())
