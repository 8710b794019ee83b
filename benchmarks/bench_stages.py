"""Benchmark: where a large draft's time goes, stage by stage (CPU seconds, the minimum of N fresh processes).

The stages are those of ``draft_brief``, called one by one: load and parse the living document, split
the notes into items (the reader), the rules, the detectors (with grouping), assembling the brief, the
verifier's set-up, verification (with merging what it accepts), and finishing (Markdown and JSON).
The note is ``bench_scale``'s generated note of the given kind and size. Figures from separate runs
compare only when measured in the same period.

Run: python benchmarks/bench_stages.py [--kind distinct|offtopic|repeat] [--mb 2] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from _kb import run_child
from bench_scale import make_kb

STAGES = ("load", "split", "rules", "detect", "assemble", "verifier set-up", "verify", "finish")


def child(manifest: str) -> None:
    """One fresh process: each stage's CPU seconds, as one JSON line."""
    from e1prep import pipeline
    from e1prep.brief.render import render_markdown
    from e1prep.check.detectors import detect_all
    from e1prep.check.grouping import group_contradictions
    from e1prep.produce.rules import RulesProducer
    from e1prep.verify.verifier import Verifier

    out: dict[str, float] = {}
    last = time.process_time()

    def lap(stage: str) -> None:
        nonlocal last
        now = time.process_time()
        out[stage], last = now - last, now

    kb = pipeline.load_kb(manifest)
    doc = pipeline.living_document(kb)
    lap("load")
    pipeline._report_materials(kb)
    lap("split")
    production = RulesProducer().produce(kb, doc)
    lap("rules")
    findings = detect_all(kb, doc, production.off_topic)
    contradictions = group_contradictions(findings.contradictions)
    lap("detect")
    brief = pipeline.assemble(kb, doc, "rules", production, contradictions, findings.refreshes)
    lap("assemble")
    verifier = Verifier(kb, doc)
    lap("verifier set-up")
    brief = pipeline.apply_verification(brief, verifier)
    lap("verify")
    render_markdown(brief)
    brief.model_dump_json()
    lap("finish")
    print(json.dumps(out))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", choices=("repeat", "distinct", "offtopic"), default="distinct")
    ap.add_argument("--mb", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        manifest = make_kb(Path(tmp) / "kb", args.kind, args.mb)
        runs = []
        for _ in range(args.runs):
            runs.append(run_child(__file__, "--child", str(manifest)))
    best = {stage: min(r[stage] for r in runs) for stage in STAGES}
    print(f"kind={args.kind} {args.mb:g} MB; CPU seconds, the minimum of {args.runs} fresh processes per stage")
    for stage in STAGES:
        print(f"{stage:16s} {best[stage]:7.3f}")
    print(f"{'total':16s} {sum(best.values()):7.3f}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        main()
