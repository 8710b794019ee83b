"""Section routing on the held-out set another hand labelled (``evals/routing-heldout``): measured, never tuned on.

Each labelled note is read as the rules read a note (``split_note``; its key by ``identify``) and routed to a
section of its living document as the rules route an increment. A note labelled with a section is right
when the route names that section; a note labelled null (no section fits) is right when the route says
that no section clearly wins. Printed: accuracy over the sectioned notes, precision of the sections named,
how many were left undecided, and the nulls left undecided.

Run: python scripts/route_heldout.py [--labels evals/routing-heldout/labels.json] [--misses]
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from e1prep.kb.knowledge import parse_knowledge
from e1prep.produce.routing import route
from e1prep.read.identity import identify
from e1prep.read.notes import split_note

ROOT = Path(__file__).resolve().parents[1]
log = logging.getLogger("route_heldout")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--labels", type=Path, default=ROOT / "evals" / "routing-heldout" / "labels.json")
    ap.add_argument("--misses", action="store_true", help="list each note routed otherwise than labelled")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    items = json.loads(args.labels.read_text(encoding="utf-8"))["items"]
    docs = {}
    sectioned = correct = named = named_right = undecided = nulls = nulls_undecided = 0
    for row in items:
        path = row["doc"]
        if path not in docs:
            docs[path] = parse_knowledge(path, (ROOT / path).read_text(encoding="utf-8"))
        doc = docs[path]
        read = split_note(f"routing-heldout/{row['id']}.md", row["text"])
        if len(read) == 1:  # one item, as the rules read it
            text, title, key = read[0].text, read[0].title, identify(read[0], doc).key
        else:  # read as several items (or none): the note whole, under the title its writer gave
            text, title, key = row["text"], row["title"], row["title"]
        got = route(doc, text, title, [key])
        want = row["section"]
        if want is None:
            nulls += 1
            nulls_undecided += got.section is None
        else:
            sectioned += 1
            correct += got.section == want
            undecided += got.section is None
        if got.section is not None:
            named += 1
            named_right += got.section == want
        if args.misses and got.section != want:
            log.info(
                "  %s %s: want %s, routed %s (candidates %s)",
                row["id"],
                title[:50],
                want,
                got.section,
                ", ".join(got.candidates),
            )
    figures = {
        "notes": len(items),
        "accuracy": round(correct / max(sectioned, 1), 3),
        "precision": round(named_right / max(named, 1), 3),
        "undecided": undecided,
        "sectioned": sectioned,
        "nulls_undecided": f"{nulls_undecided}/{nulls}",
    }
    log.info(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
