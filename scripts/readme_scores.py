#!/usr/bin/env python
"""The README's score tables, rendered from the eval runner's JSON reports: no score is typed by hand.

The block between ``<!-- scores:begin -->`` and ``<!-- scores:end -->`` in README.md is this script's
output. Every change that moves a score (the rules, the verifier, a golden case) moves the block, so
regenerating it is one command, and CI fails when it was forgotten:

    python scripts/readme_scores.py --run     # run the four evals (reports into .ci-work/), rewrite the block
    python scripts/readme_scores.py           # rewrite the block from the reports already in .ci-work/
    python scripts/readme_scores.py --check   # exit 1 with a diff when the block differs (CI, after its evals)

Timings (``seconds``) are left out: they differ on every run and say nothing about the scores.
"""

from __future__ import annotations

import argparse
import difflib
import json
import logging
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("readme_scores")

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- scores:begin -->", "<!-- scores:end -->"
REGENERATE = "python scripts/readme_scores.py --run"


@dataclass(frozen=True)
class Run:
    """One eval run the README shows: its report file in the reports folder and its command line."""

    label: str
    report: str
    args: tuple[str, ...]

    @property
    def backend(self) -> str:
        return self.args[self.args.index("--backend") + 1]

    @property
    def command(self) -> str:
        return "python -m e1prep eval " + " ".join(self.args)


#: the runs, in the README's order; the report names are those .ci/run writes into .ci-work/
RUNS = (
    Run("rules", "eval-rules.json", ("--backend", "rules")),
    Run("llm, v1 prompt (SmolLM2-135M-Instruct, replayed)", "eval-llm.json", ("--backend", "llm")),
    Run(
        "llm, v2 prompt (SmolLM2-135M-Instruct, replayed)",
        "eval-llm-v2.json",
        ("--backend", "llm", "--prompt", "extract_items"),
    ),
    Run("reference: the ceiling", "eval-reference.json", ("--backend", "reference")),
)

HEAD = ("case", "inc F1", "ref F1", "con F1", "con(rule) R", "anc F1", "nq-leak", "distr", "viol", "src")
LEGEND = (
    "Columns: F1 of increments, refreshes and contradictions; recall of the contradictions a rule can find; "
    "anchors F1; numbers the brief presents as findings although not quotable (must be 0); distractors that "
    "leaked into increments; verifier violations in the draft (the violations of rejected objects and the "
    "repaired claims, both listed in each brief); the share of the manifest's materials listed as sources."
)


class ReportError(Exception):
    """A report that is missing, unreadable, or of another backend: one line, exit 2."""


def load_report(folder: Path, run: Run) -> dict[str, Any]:
    path = folder / run.report
    try:
        report: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ReportError(f"{path}: no such report (write it with: {run.command} --report {path})") from None
    except (OSError, ValueError) as exc:
        raise ReportError(f"{path}: cannot be read as an eval report ({exc})") from None
    if report.get("backend") != run.backend or "cases" not in report or "overall" not in report:
        raise ReportError(f"{path}: not a report of `{run.command}`")
    return report


def _f(x: float) -> str:
    return f"{x:.2f}"


def table(report: dict[str, Any]) -> list[str]:
    """The run's Markdown table: one row per case and the overall row (no timings)."""
    lines = ["| " + " | ".join(HEAD) + " |", "|---" + "|--:" * (len(HEAD) - 1) + "|"]
    for case in report["cases"]:
        s = case["scores"]
        cells = [
            case["case"],
            _f(s["increments"]["f1"]),
            _f(s["refreshes"]["f1"]),
            _f(s["contradictions"]["f1"]),
            _f(s["contradictions_rule_findable"]["recall"]),
            _f(s["anchors"]["f1"]),
            str(case["not_quotable_as_findings"]),
            str(len(case["distractors_leaked"])),
            str(case["violations"]),
            f"{case['sources_coverage']:.0%}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    o = report["overall"]
    cells = [
        "**overall**",
        _f(o["increments_f1"]),
        _f(o["refreshes_f1"]),
        _f(o["contradictions_f1"]),
        _f(o["contradictions_rule_findable_recall"]),
        _f(o["anchors_f1"]),
        str(sum(case["not_quotable_as_findings"] for case in report["cases"])),
        str(o["distractors_leaked"]),
        str(o["violations"]),
        f"{o['sources_coverage']:.0%}",
    ]
    lines.append("| " + " | ".join(cells) + " |")
    return lines


def rules_figures(o: dict[str, Any]) -> str:
    """The whole-run figures only the rules run reports: the remark oracle, layout invariance, section routing,
    the verifier."""
    parts = []
    if "remarks_accuracy" in o:
        parts.append(
            f"remark oracle accuracy {o['remarks_accuracy']:.3f} (`verified` precision "
            f"{o['remarks_verified_precision']:.2f}); hedge shapes accuracy {o['remarks_hedges_accuracy']:.3f}"
        )
    if "layout_invariance" in o:
        parts.append(f"layout invariance {o['layout_invariance']:.0%} of the variants agree")
    if "routing_accuracy" in o:
        parts.append(
            f"section routing: accuracy {o['routing_accuracy']:.3f} against the golden sections "
            f"(of the sections named {o['routing_precision']:.3f}; {o['routing_undecided']} undecided)"
        )
    if "verifier_forgeries" in o:
        parts.append(
            f"verifier: {o['verifier_honest_rejected']} of {o['verifier_honest_objects']} honest objects rejected, "
            f"{o['verifier_forgeries_caught']}/{o['verifier_forgeries']} forgeries caught, "
            f"{round(o['verifier_equivalents_passing'] * o['verifier_equivalents'])}/{o['verifier_equivalents']} "
            "honest rewrites passing"
        )
    if "verifier_heldout_forgeries" in o:
        parts.append(
            f"held-out catalogue: {o['verifier_heldout_forgeries_caught']}/{o['verifier_heldout_forgeries']} "
            f"forgeries caught ({o['verifier_heldout_forgeries_catch_rate']:.0%}), "
            f"{round(o['verifier_heldout_equivalents_passing'] * o['verifier_heldout_equivalents'])}/"
            f"{o['verifier_heldout_equivalents']} rewrites passing"
        )
    return "The same run: " + "; ".join(parts) + "." if parts else ""


def render(reports: dict[str, dict[str, Any]]) -> str:
    """The whole block, markers included, from the reports of ``RUNS`` (keyed by report file name)."""
    out = [
        BEGIN,
        f"<!-- generated by scripts/readme_scores.py; edits here are overwritten: {REGENERATE} -->",
        "",
        "*Generated from the eval runner's JSON reports, not typed. After a change that moves a score, "
        f"regenerate with `{REGENERATE}` (it runs the four evals); CI fails when this block differs from "
        "its own runs (`python scripts/readme_scores.py --check`).*",
    ]
    for run in RUNS:
        report = reports[run.report]
        out += ["", f"**{run.label}** (`{run.command}`):", "", *table(report)]
        if run.backend == "rules" and (extra := rules_figures(report["overall"])):
            out += ["", extra]
    out += ["", LEGEND, END]
    return "\n".join(out)


def replace_block(readme: str, block: str) -> str:
    """``readme`` with its generated block replaced by ``block``."""
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        raise ReportError(f"README.md has no {BEGIN} ... {END} block")
    return readme[:start] + block + readme[end + len(END) :]


def run_evals(folder: Path) -> None:
    """Run every eval of ``RUNS``, writing its report into ``folder`` (a floor that fails is said, not fatal)."""
    folder.mkdir(parents=True, exist_ok=True)
    for run in RUNS:
        log.info("%s --report %s", run.command, folder / run.report)
        done = subprocess.run(
            [sys.executable, "-m", "e1prep", "eval", *run.args, "--report", str(folder / run.report)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
        )
        if done.returncode == 1:
            log.warning("%s: a figure fell below its threshold (the table shows it as measured)", run.command)
        elif done.returncode:
            raise ReportError(f"{run.command} exited {done.returncode}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--reports", type=Path, default=ROOT / ".ci-work", help="folder of the eval reports")
    p.add_argument("--readme", type=Path, default=ROOT / "README.md", help="the README whose block is rendered")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff when the block differs")
    mode.add_argument("--run", action="store_true", help="run the evals into --reports first, then rewrite")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="readme_scores: %(message)s")
    try:
        if args.run:
            run_evals(args.reports)
        block = render({run.report: load_report(args.reports, run) for run in RUNS})
        before = args.readme.read_text(encoding="utf-8")
        after = replace_block(before, block)
    except (ReportError, OSError) as exc:
        log.error("%s", exc)
        return 2
    if after == before:
        log.info("%s: the score tables match the reports in %s", args.readme.name, args.reports)
        return 0
    if args.check:
        sys.stdout.writelines(
            difflib.unified_diff(
                before.splitlines(keepends=True), after.splitlines(keepends=True), "README.md", "from the reports"
            )
        )
        log.error("%s: the score tables differ from the eval reports; regenerate: %s", args.readme, REGENERATE)
        return 1
    args.readme.write_text(after, encoding="utf-8")
    log.info("%s: score tables rewritten from %s", args.readme.name, args.reports)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
