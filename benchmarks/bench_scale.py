"""Benchmark: drafting scales linearly with the input, against a plain reference pass.

Each size runs in a fresh process (so peak RSS is its own); times are CPU seconds (user + system).
The reference is a plain pass over the same note: read it, split lines, one regex each for URLs,
numbers, headings, table rows and evidence markers. Targets (issue 11):

- a 2 MB note drafts in at most 10x the reference pass of the same run;
- a 5 MB note in at most 2.5x the 2 MB time (linear, not superlinear);
- the bundled example drafts against its living document at 100x its size in at most 1.5 s;
- peak memory at most 10x the input (measured above the process's start-up baseline).

Kinds of note: ``repeat`` (a real note pasted until the size: every copy after the first is a
duplicate), ``distinct`` (the same, each copy's URLs numbered: every item is read in full), ``offtopic``
(an RSS dump of one-line off-topic items, each different).

Run: python benchmarks/bench_scale.py [--sizes 0.1,1,2,5] [--kind repeat|distinct|offtopic]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import sys
import tempfile
from pathlib import Path

from _kb import EXAMPLE, example_with_note, fill, run_child

ROOT = Path(__file__).resolve().parents[1]
NOTE = "inbox/jay/2026-10-25T2000-big-discovery.md"
BLOGS = EXAMPLE / "inbox" / "jay" / "2026-10-25T1335-blogs-discovery.md"
OFFTOPIC = (
    "- [园艺周刊 {n}：阳台番茄的第 {m} 种种法](https://garden.example.org/feed/{n})"
    " —— 本周推荐盆栽、施肥与浇水节奏，读者来信 {m} 封。\n"
)


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def make_note(kind: str, megabytes: float) -> str:
    target = int(megabytes * 1024 * 1024)
    if kind == "offtopic":
        return fill("# RSS 归档（与推理无关的订阅源全文导出）\n\n", lambda n: OFFTOPIC.format(n=n, m=n % 97), target)
    body = BLOGS.read_text(encoding="utf-8")
    parts, size = [], 0
    while size < target:
        # distinct: each copy's URLs carry the copy's number, so no item repeats another word for word
        # (a repeated item is read once and listed as a duplicate: ``repeat`` measures that path)
        copy = re.sub(r"(https?://[^\s)|>]+)", rf"\1#copy-{len(parts)}", body) if kind == "distinct" else body
        parts.append(copy)
        size += len(copy.encode())
    return "\n".join(parts)


def make_kb(target: Path, kind: str, megabytes: float) -> Path:
    return example_with_note(target, NOTE, make_note(kind, megabytes))


_REF = [
    re.compile(r"https?://\S+"),
    re.compile(r"\d[\d,]*(?:\.\d+)?"),
    re.compile(r"^#{1,6}\s", re.M),
    re.compile(r"^\s*\|.*\|\s*$", re.M),
    re.compile(r"已核查|仅摘要|搜索片段|未核实|厂商|登录|403|paywall|verified|summary", re.I),
]


def reference(path: Path) -> int:
    """The plain pass: read, split lines, one regex each per line."""
    text = path.read_text(encoding="utf-8")
    found = 0
    for line in text.split("\n"):
        for rx in _REF:
            found += len(rx.findall(line))
    return found


def child_draft(manifest: str, out_dir: str) -> None:
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    from e1prep.brief.render import render_markdown
    from e1prep.pipeline import draft_brief

    note = Path(manifest).parent / NOTE
    c0 = _cpu()
    reference(note)
    ref = _cpu() - c0
    import_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    c1 = _cpu()
    brief = draft_brief(manifest)
    md = render_markdown(brief)
    js = brief.model_dump_json()
    draft = _cpu() - c1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    Path(out_dir, "brief.md").write_text(md, encoding="utf-8")
    print(
        json.dumps(
            {
                "ref": ref,
                "draft": draft,
                "peak_mb": peak / 1024,
                "growth_mb": (peak - max(import_rss, base_rss)) / 1024,
                "md_kb": len(md.encode()) / 1024,
                "json_kb": len(js.encode()) / 1024,
                "input_kb": note.stat().st_size / 1024,
                "increments": len(brief.increments),
                "contradictions": len(brief.contradictions),
                "excluded": len(brief.excluded),
            }
        )
    )


def child_doc(times: int, out_dir: str) -> None:
    """Draft the bundled example against its living document repeated ``times`` times."""
    target = Path(out_dir) / "kb"
    shutil.copytree(EXAMPLE, target)
    living = target / "organized" / "knowledge" / "inference.md"
    living.write_text("\n".join([living.read_text(encoding="utf-8")] * times), encoding="utf-8")
    from e1prep.pipeline import draft_brief

    c0 = _cpu()
    draft_brief(target / "manifest.json")
    print(json.dumps({"seconds": _cpu() - c0, "mb": living.stat().st_size / 1024 / 1024}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="0.1,1,2,5")
    ap.add_argument("--kind", choices=("repeat", "distinct", "offtopic"), default="repeat")
    args = ap.parse_args()
    sizes = [float(s) for s in args.sizes.split(",")]
    print(f"kind={args.kind}; CPU seconds; ratio = draft / reference pass of the same run")
    head = f"{'MB':>5} {'ref s':>7} {'draft s':>8} {'ratio':>7} {'growth MB':>9} {'x input':>7} "
    print(head + f"{'md KB':>7} {'json KB':>8} {'inc':>5} {'con':>6} {'exc':>6}")
    drafts: dict[float, float] = {}
    verdicts: list[str] = []
    for mb in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            manifest = make_kb(Path(tmp) / "kb", args.kind, mb)
            r = run_child(__file__, "--child-draft", str(manifest), tmp)
        drafts[mb] = r["draft"]
        print(
            f"{mb:5.1f} {r['ref']:7.3f} {r['draft']:8.2f} {r['draft'] / max(r['ref'], 1e-6):7.1f} "
            f"{r['growth_mb']:9.1f} {r['growth_mb'] * 1024 / r['input_kb']:7.1f} {r['md_kb']:7.1f} "
            f"{r['json_kb']:8.1f} {r['increments']:5.0f} {r['contradictions']:6.0f} {r['excluded']:6.0f}"
        )
        if mb == 2.0:
            ratio, times = r["draft"] / max(r["ref"], 1e-6), r["growth_mb"] * 1024 / r["input_kb"]
            verdicts.append(f"2 MB ratio {ratio:.1f} (target <= 10): {_verdict(ratio <= 10)}")
            verdicts.append(f"2 MB peak memory growth {times:.1f}x the input (target <= 10): {_verdict(times <= 10)}")
    if 2.0 in drafts and 5.0 in drafts:
        growth = drafts[5.0] / drafts[2.0]
        verdicts.append(f"5 MB / 2 MB draft time: {growth:.2f} (target <= 2.5): {_verdict(growth <= 2.5)}")
    with tempfile.TemporaryDirectory() as tmp:
        d = run_child(__file__, "--child-doc", "100", tmp)
    doc_ok = _verdict(d["seconds"] <= 1.5)
    verdicts.append(
        f"living document x100 ({d['mb']:.1f} MB): rules draft {d['seconds']:.2f} s (target <= 1.5): {doc_ok}"
    )
    print("\n".join(verdicts))


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[1] == "--child-draft":
        child_draft(sys.argv[2], sys.argv[3])
    elif len(sys.argv) > 3 and sys.argv[1] == "--child-doc":
        child_doc(int(sys.argv[2]), sys.argv[3])
    else:
        main()
