"""Benchmark: hostile sizes through ``draft`` (rules backend) stay linear.

Three hostile notes, each at two sizes (half and full), beside a plain note of the same byte size
drafted in the same run (the reference pass):

* ``token``   one 100 KB token (letters only: no digit to end the name pattern) in an item title;
* ``line``    a 5 MB note on one line (words, numbers, URLs, no newline);
* ``bullets`` 200,000 one-line bullets.

For each it prints seconds, the ratio against the plain reference of the same size, and the growth
from the half size to the full one (about 2 for linear work, about 4 for quadratic). Each run is a
fresh process. Exit status 1 if any hostile draft takes 5 s or more.

Run: python benchmarks/bench_hostile_sizes.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from _kb import example_with_note, fill, run_child

NOTE = "inbox/jay/2026-10-25T2000-hostile-discovery.md"
LIMIT_SECONDS = 5.0
PLAIN_ITEM = """## {n}. 批量条目 {n}：某推理框架更新 item-{n}

- URL：https://example.org/post/{n}
- 核查：仅搜索摘要
- 要点：吞吐提升 {n}%，延迟 {m} ms，见 v0.{n}.1。

"""


def token_note(size: int) -> str:
    return f"# 笔记\n\n## 1. {'a' * size} 推理框架\n\n- URL：https://example.org/t\n- 核查：已核查原文\n"


def line_note(size: int) -> str:
    unit = "DeepInfer 吞吐提升 37% 见 https://example.org/p v0.3.1 与 vLLM 0.11 对比，约 155 万亿 tokens/天；"
    text = unit * (size // len(unit.encode()) + 1)
    return text.encode()[:size].decode("utf-8", errors="ignore")  # size bytes of UTF-8 on one line


def bullets_note(count: int) -> str:
    return "# 笔记\n\n" + "".join(f"- b{n}\n" for n in range(count))


def plain_note(size: int) -> str:
    return fill("# 大笔记\n\n", lambda n: PLAIN_ITEM.format(n=n, m=n % 997), size)


def make_kb(target: Path, note: str) -> Path:
    return example_with_note(target, NOTE, note)


def child(manifest: str) -> None:
    from e1prep.pipeline import draft_brief

    t0 = time.perf_counter()
    brief = draft_brief(manifest)
    seconds = time.perf_counter() - t0
    [src] = [s for s in brief.sources if s.path == NOTE]
    print(json.dumps({"seconds": seconds, "status": src.status.value}))


def timed(note: str) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as tmp:
        manifest = make_kb(Path(tmp) / "kb", note)
        r = run_child(__file__, "--child", str(manifest))
    return float(r["seconds"]), str(r["status"])


def main() -> int:
    cases = [
        ("token 100 KB", token_note, 100_000),
        ("line 5 MB", line_note, 5_000_000),
        ("bullets 200k", bullets_note, 200_000),
    ]
    base, _ = timed(plain_note(0))
    print(f"empty note (the example KB alone): {base:.2f} s")
    print(f"{'case':<14} {'bytes':>9} {'hostile s':>10} {'plain s':>8} {'ratio':>6} {'half s':>7} {'growth':>7} status")
    slow = False
    for name, make, size in cases:
        note = make(size)
        half = make(size // 2)
        nbytes = len(note.encode())
        hostile, status = timed(note)
        half_s, _ = timed(half)
        plain, _ = timed(plain_note(nbytes))
        # growth of the work above the fixed cost of drafting the example KB
        growth = (hostile - base) / max(half_s - base, 1e-3)
        slow |= hostile >= LIMIT_SECONDS
        print(
            f"{name:<14} {nbytes:>9} {hostile:>10.2f} {plain:>8.2f} {hostile / plain:>6.2f} "
            f"{half_s:>7.2f} {growth:>7.2f} {status}"
        )
    print(f"limit {LIMIT_SECONDS:.0f} s per hostile draft: {'FAIL' if slow else 'ok'}")
    return 1 if slow else 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        raise SystemExit(main())
