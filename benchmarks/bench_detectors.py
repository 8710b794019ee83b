"""Benchmark: detectors' time as the living document grows (1×, 10×, 100× the example's size).

Run: python benchmarks/bench_detectors.py
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from e1prep.check.detectors import detect_all
from e1prep.kb.knowledge import parse_knowledge
from e1prep.kb.loading import load_kb

EXAMPLE = Path(__file__).resolve().parents[1] / "evals" / "golden" / "2026-10-25-inference" / "manifest.json"


def main() -> None:
    kb = load_kb(EXAMPLE)
    base = kb.knowledge_material.text
    print(f"{'size':>6} {'bytes':>10} {'parse ms':>9} {'detect ms':>10} {'ms per KB':>10}")
    for factor in (1, 10, 100):
        text = "\n".join(base for _ in range(factor))
        parse, detect = [], []
        for _ in range(3):
            t0 = time.perf_counter()
            doc = parse_knowledge(kb.knowledge_material.path, text)
            t1 = time.perf_counter()
            detect_all(kb, doc)
            t2 = time.perf_counter()
            parse.append(t1 - t0)
            detect.append(t2 - t1)
        size = len(text.encode())
        d = statistics.median(detect) * 1000
        print(f"{factor:>5}× {size:>10} {statistics.median(parse) * 1000:9.1f} {d:10.1f} {d / (size / 1024):10.3f}")


if __name__ == "__main__":
    main()
