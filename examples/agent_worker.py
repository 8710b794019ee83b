#!/usr/bin/env python
"""An agent worker that reads with its own model hands e1prep what it read; e1prep does the rest.

The worker asks its model, per material of the night's manifest, for the items in the v2 extraction
format (``schemas/extraction.schema.json``; the prompt e1prep would use is ``prompts/extract_items.md``).
e1prep merges those items with the rules' facts (one object per subject), verifies every name, quote,
level and number against the materials, and renders the brief. No HTTP server is involved.

Run from the repository root:  python examples/agent_worker.py

Here the "model" is a stand-in that returns the reference answers a person wrote for the bundled
case (``evals/reference/``): reference answers, not model output. Replace ``read_with_my_model`` with
your own model call.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from e1prep import Extraction, draft_from_extractions, render_markdown

CASE = Path("evals/golden/2026-10-25-inference")
REFERENCE = Path("evals/reference/2026-10-25-inference.json")


def read_with_my_model(path: str, text: str) -> dict[str, object]:
    """Your model's reading of one material, as a dict in the v2 extraction format.

    A real worker sends ``text`` (with the prompt of ``prompts/extract_items.md``) to its model and
    returns the JSON it answers. This stand-in returns the reference answer for the bundled case.
    """
    answers = json.loads(REFERENCE.read_text(encoding="utf-8"))["materials"]
    return answers.get(path, {"items": []})


def main() -> int:
    manifest = json.loads((CASE / "manifest.json").read_text(encoding="utf-8"))
    materials = manifest["items"][0]["materials"]
    extractions = {}
    for path in materials:
        text = (CASE / path).read_text(encoding="utf-8")
        # validate early: a malformed answer is the worker's to retry, before e1prep sees it
        extractions[path] = Extraction.model_validate(read_with_my_model(path, text))
    brief = draft_from_extractions(CASE / "manifest.json", extractions)
    sys.stdout.write(render_markdown(brief))
    # what the verifier refused or repaired is in the brief (and its appendix), never dropped
    print(
        f"{len(brief.increments)} increments, {len(brief.refreshes)} refreshes, "
        f"{len(brief.rejected)} rejected, {len(brief.repairs)} repaired",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
