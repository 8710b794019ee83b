"""Benchmark: hostile sizes through ``draft`` and ``verify`` (rules backend) stay linear.

Hostile notes, each at two sizes (half and full), beside a plain note of the same byte size measured in
the same run (the reference pass). Three shapes that stress the reader:

* ``token``     one 100 KB token (letters only: no digit to end the name pattern) in an item title;
* ``line``      a 5 MB note on one line (words, numbers, URLs, no newline);
* ``bullets``   200,000 one-line bullets;

and five that stress the verifier (issue 26), each a 2 MB note of one fully read item:

* ``numbered``  numbered lines, each with its own numbers (``指标 n：吞吐提升 n%``);
* ``identical`` identical sub-bullets (``吞吐提升 37%，延迟 12 ms``), every one citing the same values;
* ``commas``    one ``1,234,`` run (wrapped into lines of 4,000 characters by the reader);
* ``row``       one table row of ``1%`` cells;
* ``ranges``    range-statement lines (``延迟 12–210 ms，吞吐 30–150%``).

Each note is drafted as a process (``python -m e1prep draft M --json B --out MD``), and its brief verified
as one (``python -m e1prep verify B --manifest M``): wall seconds and peak memory of each, the brief's
size, the ratio against the plain note of the same size, and the growth from the half size to the full
one above the fixed cost of the example KB (about 2 for linear work, about 4 for quadratic). Exit status
1 if any hostile draft or verify takes 5 s or more, or fails.

Run: python benchmarks/bench_hostile_sizes.py [--cases numbered,row,...]
     python benchmarks/bench_hostile_sizes.py --smoke   (each case once, small: exit 1 if a draft or verify fails)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _kb import example_with_note, fill

NOTE = "inbox/jay/2026-10-25T2000-hostile-discovery.md"
LIMIT_SECONDS = 5.0
#: a run that takes longer is stopped and reported as failed (the quadratic ones took minutes)
TIMEOUT_SECONDS = 120.0
#: address space a run may take (a run past it fails, it does not take the machine down)
MEMORY_LIMIT = 6 << 30
#: briefs larger than this are not read back for the note's status
READ_BACK_LIMIT = 50 << 20
MB = 1_000_000
PLAIN_ITEM = """## {n}. 批量条目 {n}：某推理框架更新 item-{n}

- URL：https://example.org/post/{n}
- 核查：仅搜索摘要
- 要点：吞吐提升 {n}%，延迟 {m} ms，见 v0.{n}.1。

"""
#: one fully read item: the verifier's shapes are its key points and their citations
READ_ITEM = (
    "# 笔记\n\n## 1. Quillon 推理引擎更新\n\n"
    "- URL：https://example.org/quillon\n- 核查：已核查原文（全文读完）\n- 要点：\n"
)


def token_note(size: int) -> str:
    return f"# 笔记\n\n## 1. {'a' * size} 推理框架\n\n- URL：https://example.org/t\n- 核查：已核查原文\n"


def line_note(size: int) -> str:
    unit = "DeepInfer 吞吐提升 37% 见 https://example.org/p v0.3.1 与 vLLM 0.11 对比，约 155 万亿 tokens/天；"
    text = unit * (size // len(unit.encode()) + 1)
    return text.encode()[:size].decode("utf-8", errors="ignore")  # size bytes of UTF-8 on one line


def bullets_note(count: int) -> str:
    return "# 笔记\n\n" + "".join(f"- b{n}\n" for n in range(count))


def numbered_note(size: int) -> str:
    return fill(READ_ITEM, lambda n: f"  - 指标 {n}：吞吐提升 {n}%\n", size)


def identical_note(size: int) -> str:
    return fill(READ_ITEM, lambda n: "  - 吞吐提升 37%，延迟 12 ms\n", size)


def commas_note(size: int) -> str:
    return READ_ITEM + "  - 数字：" + "1,234," * (size // 6) + "\n"


def row_note(size: int) -> str:
    return READ_ITEM + "\n| " + " | ".join(["1%"] * (size // 5)) + " |\n"


def ranges_note(size: int) -> str:
    return fill(
        READ_ITEM,
        lambda n: f"  - 批次 b{n}：延迟 {n % 97 + 1}–{n % 89 + 200} ms，吞吐 {n % 50 + 10}–{n % 60 + 100}%\n",
        size,
    )


def plain_note(size: int) -> str:
    return fill("# 大笔记\n\n", lambda n: PLAIN_ITEM.format(n=n, m=n % 997), size)


#: name: (note of a size, full size, smoke size)
CASES: dict[str, tuple[Callable[[int], str], int, int]] = {
    "token": (token_note, 100_000, 2_000),
    "line": (line_note, 5 * MB, 20_000),
    "bullets": (bullets_note, 200_000, 500),
    "numbered": (numbered_note, 2 * MB, 20_000),
    "identical": (identical_note, 2 * MB, 20_000),
    "commas": (commas_note, 2 * MB, 20_000),
    "row": (row_note, 2 * MB, 20_000),
    "ranges": (ranges_note, 2 * MB, 20_000),
}


def _limits() -> None:
    """In the child: no more address space than ``MEMORY_LIMIT``."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_process(cmd: list[str], folder: Path, name: str) -> dict[str, Any]:
    """``cmd`` as a fresh process: exit code (None when stopped at the timeout or killed), wall seconds and
    peak MB (the child's own usage: RUSAGE_CHILDREN would sum every child so far)."""
    with open(folder / f"{name}.err", "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=_limits)
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        while pid == 0 and time.perf_counter() - t0 < TIMEOUT_SECONDS:
            time.sleep(0.01)
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid == 0:
            proc.kill()
            _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
    proc.returncode = rc = None if os.WIFSIGNALED(status) else os.waitstatus_to_exitcode(status)
    tail = (folder / f"{name}.err").read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:]
    return {"rc": rc, "wall": wall, "peak_mb": usage.ru_maxrss / 1024, "stderr": tail[0] if tail else ""}


def measure(note: str) -> dict[str, Any]:
    """Draft ``note`` (in the example KB) and verify its brief, each as a process."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        manifest = example_with_note(folder / "kb", NOTE, note)
        brief = folder / "brief.json"
        py = [sys.executable, "-m", "e1prep"]
        draft = run_process(
            [*py, "draft", str(manifest), "--json", str(brief), "--out", str(folder / "b.md")], folder, "draft"
        )
        ok = draft["rc"] == 0 and brief.exists()
        verify = run_process([*py, "verify", str(brief), "--manifest", str(manifest)], folder, "verify") if ok else None
        size = brief.stat().st_size if ok else 0
        status = _status(brief) if ok and size <= READ_BACK_LIMIT else "-"
    return {"draft": draft, "verify": verify, "brief_mb": size / MB, "status": status}


def _status(brief: Path) -> str:
    """The hostile note's status in the brief's sources."""
    data = json.loads(brief.read_text(encoding="utf-8"))
    return next((str(s["status"]) for s in data["sources"] if s["path"] == NOTE), "?")


def _done(run: dict[str, Any] | None, verify: bool) -> bool:
    """A draft exits 0; a verify exits 0 (clean) or 1 (violations listed): anything else failed."""
    return run is not None and run["rc"] in ((0, 1) if verify else (0,))


def _seconds(run: dict[str, Any] | None) -> float:
    return float(run["wall"]) if run is not None else float("inf")


def smoke(names: list[str]) -> int:
    """Each case once at its small size: a draft and a verify that complete; no times."""
    failed = 0
    for name in names:
        make, _, size = CASES[name]
        r = measure(make(size))
        ok = _done(r["draft"], False) and _done(r["verify"], True)
        why = (
            ""
            if ok
            else f" (draft {r['draft']['rc']}: {r['draft']['stderr']}; verify {r['verify'] and r['verify']['rc']})"
        )
        failed += not ok
        print(f"smoke {name:9s} {size:>7d}: {'ok' if ok else 'FAILED'}{why}", flush=True)
    print(json.dumps({"smoke": "ok" if not failed else "failed", "failed": failed}))
    return 1 if failed else 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--smoke", action="store_true", help="each case once, small: exit 1 if a draft or verify fails")
    ap.add_argument("--cases", default=",".join(CASES), help="comma-separated, of: " + ", ".join(CASES))
    args = ap.parse_args()
    names = args.cases.split(",")
    if args.smoke:
        return smoke(names)
    base = measure(plain_note(0))
    base_d, base_v = _seconds(base["draft"]), _seconds(base["verify"])
    print(f"empty note (the example KB alone): draft {base_d:.2f} s, verify {base_v:.2f} s")
    print("each: wall s and peak MB of the process; ratio: against a plain note of the same size; growth: half -> full")
    print(
        f"{'case':<10} {'bytes':>9} {'draft s':>8} {'MB':>6} {'verify s':>9} {'MB':>6} {'brief MB':>9} "
        f"{'ratio d/v':>11} {'half d/v s':>12} {'growth d/v':>11} status"
    )
    slow = False
    for name in names:
        make, size, _ = CASES[name]
        note = make(size)
        nbytes = len(note.encode())
        full, half, plain = measure(note), measure(make(size // 2)), measure(plain_note(nbytes))
        d, v = full["draft"], full["verify"]
        ok = _done(d, False) and _done(v, True)
        slow |= not ok or _seconds(d) >= LIMIT_SECONDS or _seconds(v) >= LIMIT_SECONDS
        ratio = f"{_seconds(d) / _seconds(plain['draft']):.1f}/{_seconds(v) / _seconds(plain['verify']):.1f}"
        halves = f"{_seconds(half['draft']):.2f}/{_seconds(half['verify']):.2f}"
        growth_d = (_seconds(d) - base_d) / max(_seconds(half["draft"]) - base_d, 1e-3)
        growth_v = (_seconds(v) - base_v) / max(_seconds(half["verify"]) - base_v, 1e-3)
        state = full["status"] if ok else f"FAILED (draft {d['rc']}, verify {v and v['rc']})"
        print(
            f"{name:<10} {nbytes:>9} {_seconds(d):>8.2f} {d['peak_mb']:>6.0f} {_seconds(v):>9.2f} "
            f"{(v or {}).get('peak_mb', 0):>6.0f} {full['brief_mb']:>9.1f} {ratio:>11} {halves:>12} "
            f"{f'{growth_d:.1f}/{growth_v:.1f}':>11} {state}",
            flush=True,
        )
    print(f"limit {LIMIT_SECONDS:.0f} s per hostile draft and verify: {'FAIL' if slow else 'ok'}")
    return 1 if slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
