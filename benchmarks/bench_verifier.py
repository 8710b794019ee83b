"""Benchmark: the verifier on the bundled example (target: median under 50 ms).

Run: python benchmarks/bench_verifier.py [repeats]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from e1prep.kb.loading import load_kb
from e1prep.pipeline import draft_brief, living_document
from e1prep.verify.verifier import Verifier

EXAMPLE = Path(__file__).resolve().parents[1] / "evals" / "golden" / "2026-10-25-inference" / "manifest.json"


def main(repeats: int = 30) -> None:
    brief = draft_brief(EXAMPLE)
    kb = load_kb(EXAMPLE)
    doc = living_document(kb)
    build, check = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        verifier = Verifier(kb, doc)
        t1 = time.perf_counter()
        report = verifier.verify(brief)
        t2 = time.perf_counter()
        build.append(t1 - t0)
        check.append(t2 - t1)
    total = [a + b for a, b in zip(build, check, strict=True)]
    print(f"verifier on the bundled example, {repeats} runs: violations={len(report.violations)}")
    print(f"  index materials : median {statistics.median(build) * 1000:.1f} ms")
    print(f"  verify brief    : median {statistics.median(check) * 1000:.1f} ms")
    print(f"  total           : median {statistics.median(total) * 1000:.1f} ms (target < 50 ms)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
