"""Benchmark: draft a batch holding one large note (1, 2 and 5 MB): wall time and peak memory.

Each size runs in a fresh process so peak RSS is its own. Run: python benchmarks/bench_large_note.py
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from _kb import EXAMPLE, example_with_note, fill, run_child

ITEM = """## {n}. 批量条目 {n}：某推理框架更新 item-{n}

- URL：https://example.org/post/{n}
- 核查：仅搜索摘要
- 要点：吞吐提升 {n}%，延迟 {m} ms，见 v0.{n}.1。

"""


def make_kb(target: Path, megabytes: float) -> Path:
    text = fill("# 大笔记\n\n", lambda n: ITEM.format(n=n, m=n % 997), int(megabytes * 1024 * 1024))
    return example_with_note(target, "inbox/jay/2026-10-25T2000-big-discovery.md", text)


def child(manifest: str) -> None:
    from e1prep.pipeline import draft_brief

    t0 = time.perf_counter()
    brief = draft_brief(manifest)
    seconds = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mb": peak_mb, "excluded": len(brief.excluded)}))


def main() -> None:
    print(f"{'note MB':>8} {'seconds':>8} {'peak RSS MB':>12} {'items drawn':>12}")
    for mb in (0, 1, 2, 5):
        with tempfile.TemporaryDirectory() as tmp:
            manifest = make_kb(Path(tmp) / "kb", mb) if mb else EXAMPLE / "manifest.json"
            r = run_child(__file__, "--child", str(manifest))
            print(f"{mb:>8} {r['seconds']:8.2f} {r['peak_mb']:12.1f} {r['excluded']:12d}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        main()
