"""Benchmark: drafting inputs of different shapes, each against a plain pass over the same input.

Five shapes, generated from the bundled example (``evals/golden/2026-10-25-inference``) at several sizes:

- ``names``  one note of items whose names are all distinct: the example's blogs note pasted until the size,
             each copy's capitalised names, URLs and arXiv ids given the copy's own suffix (1, 2, 5 MB);
- ``known``  one note whose items are mostly (9 in 10) named by the living document's own sections
             (its bold names and watched repositories), each item with its own URL (1, 2, 5 MB);
- ``cards``  repo cards in the format of ``organized/repo_cards`` (YAML front matter repo/url/stars/...),
             each a distinct repository, all listed in one manifest (100, 1,000 and 3,000 cards);
- ``doc``    the living document grown to 2 and 10 MB by §-numbered sections (``## §7`` / ``### §7.1``,
             200 sections a MB: 2,000 at 10 MB), their bodies the document's own, names made distinct;
- ``notes``  small notes (the example's two small notes, names made distinct), 100, 1,000 and 3,000 in one manifest.

For each shape and size: the wall time and CPU of ``python -m e1prep draft`` as a process (run as an
installed copy runs: from bytecode written beforehand) and its peak memory (the child's ru_maxrss);
then, in a fresh process, the plain pass (bench_scale.reference: read each input file, split lines, a
few regexes a line) over every file the draft reads, and the draft (draft_brief, Markdown and JSON) in
process: CPU seconds, and their ratio. Targets (issue 24), reported
as met or not: at 2 MB (or 1,000 files) the draft within 10x the plain pass and the process within
1.5 s; a note's draft linear from 1 to 5 MB (5 MB / 2 MB at most 2.5).

Run: python benchmarks/bench_shapes.py [--shapes names,known,cards,doc,notes]
     python benchmarks/bench_shapes.py --smoke   (each shape once, tiny; exit 1 if a draft fails)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _kb import EXAMPLE, example_with_files, fill, manifest_inputs, run_child
from bench_scale import reference

DOC = "organized/knowledge/inference.md"
NOTE = "inbox/jay/2026-10-25T2000-shapes-discovery.md"
BLOGS = "inbox/jay/2026-10-25T1335-blogs-discovery.md"
SMALL_NOTES = ("inbox/jay/2026-10-25-1000-rss-raschka.md", "inbox/tom/2026-10-25T0840-agent-rag-longcontext-radar.md")
MB = 1024 * 1024
#: a generated document's density: §-numbered sections a MB (2,000 at 10 MB)
SECTIONS_PER_MB = 200

#: shape: (unit, full sizes, smoke size, the size the targets are read at)
SHAPES: dict[str, tuple[str, tuple[float, ...], float, float]] = {
    "names": ("MB", (1, 2, 5), 0.005, 2),
    "known": ("MB", (1, 2, 5), 0.005, 2),
    "cards": ("files", (100, 1000, 3000), 10, 1000),
    "doc": ("MB", (2, 10), 0.03, 2),
    "notes": ("files", (100, 1000, 3000), 10, 1000),
}
RATIO_TARGET = 10.0
PROCESS_TARGET = 1.5
GROWTH_TARGET = 2.5

# -- making names distinct ------------------------------------------------------------------------------

#: a URL, a capitalised Latin name (``DeepInfer``, ``DeepSeek-V4-Flash``) or a five-digit arXiv id
_UNIQUE = re.compile(
    r"(?P<url>https?://[^\s)|>）]+)"
    r"|(?<![A-Za-z0-9_./-])(?P<name>[A-Z][A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)"
    r"|(?<![\d.])(?P<arxiv>\d{4}\.\d{5})(?!\d)"
)
_ARXIV = re.compile(r"(?<![\d.])(?P<arxiv>\d{4}\.\d{5})(?!\d)")
#: field labels of the notes and the cards' section headings, kept as they are
_LABELS = {"URL", "URLs", "Summary"}


def tag(n: int) -> str:
    """A letters-only counter (``Xa``, ``Xb`` … ``Xaa``): a suffix that adds no number to the text."""
    out = ""
    while True:
        n, r = divmod(n, 26)
        out = chr(97 + r) + out
        if n == 0:
            return "X" + out
        n -= 1


def unique(text: str, n: int) -> str:
    """``text`` with every capitalised name, URL and arXiv id made its own for copy ``n``."""
    t = tag(n)

    def arxiv(m: re.Match[str]) -> str:
        head, tail = m.group("arxiv").split(".")
        return f"{head}.{(int(tail) + 7 * n) % 100000:05d}"

    def swap(m: re.Match[str]) -> str:
        if m.group("url"):
            scheme, _, rest = m.group("url").partition("://")
            host, _, path = rest.partition("/")
            if host.endswith("arxiv.org"):  # its paper's id is what makes it another
                return f"{scheme}://{host}/{_ARXIV.sub(arxiv, path)}"
            parts = path.split("/") if path else [""]
            parts[:2] = [f"{p}-{t}" if p else t for p in parts[:2]]  # a GitHub URL: owner and repository
            return f"{scheme}://{host}/{'/'.join(parts)}"
        if m.group("arxiv"):
            return arxiv(m)
        name = m.group("name")
        return name if name in _LABELS else name + t

    return _UNIQUE.sub(swap, text)


def _split_front(text: str) -> tuple[str, str]:
    """(front matter with its fences, body) of a card or note."""
    if text.startswith("---\n"):
        end = text.index("\n---\n", 4) + 5
        return text[:end], text[end:]
    return "", text


# -- the shapes -----------------------------------------------------------------------------------------


def names_kb(target: Path, mb: float) -> Path:
    front, body = _split_front((EXAMPLE / BLOGS).read_text(encoding="utf-8"))
    note = fill(front + "# 博客发现（名称各异）\n\n", lambda n: unique(body, n) + "\n", int(mb * MB))
    return example_with_files(target, {NOTE: note})


_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_PAREN = re.compile(r"（([A-Za-z][^）]*)）")
_SECTION_HEAD = re.compile(r"^#{2,3} (§[\d.]+) (.+)$")
#: a name in Latin letters (``vLLM``, ``SGLang 0.5.20``, ``MLX / mlx-lm``, ``recursive-oss/rec``)
_LATIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9 ./-]*")


def doc_names() -> list[tuple[str, str, str]]:
    """(name, section id, section title) for the Latin names the living document's § sections hold:
    their bold names and the names in brackets (its watched repositories), each once."""
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    sid = title = ""
    for line in (EXAMPLE / DOC).read_text(encoding="utf-8").split("\n"):
        if line.startswith("#"):
            m = _SECTION_HEAD.match(line)
            sid, title = m.groups() if m else ("", "")
            continue
        if not sid:
            continue
        for name in _BOLD.findall(line) + _PAREN.findall(line):
            if _LATIN_NAME.fullmatch(name) and 3 <= len(name) <= 30 and name not in seen:
                seen.add(name)
                out.append((name, sid, title))
    return out


KNOWN_ITEM = """## {n}. {name}：{title} 跟进

- URL：https://example.org/known/{n}
- 核查：已核查原文
- 要点：{name} 见活文档 {sid}（{title}）；本轮复查吞吐提升 {pct}%，延迟 {ms} ms。

"""


def known_kb(target: Path, mb: float) -> Path:
    names = doc_names()

    def item(n: int) -> str:
        name, sid, title = names[n % len(names)]
        if n % 10 == 0:  # one in ten is new to the document
            name = "Nova" + tag(n)
        return KNOWN_ITEM.format(n=n, name=name, sid=sid, title=title, pct=n % 90 + 5, ms=n % 400 + 20)

    header = "---\nauthor: jay\ndate: 2026-10-25\nkind: blogs-discovery\n---\n# 复查批次（多为活文档已有条目）\n\n"
    return example_with_files(target, {NOTE: fill(header, item, int(mb * MB))})


CARD_FRONT = """---
repo: {repo}
url: https://github.com/{repo}
stars: {stars}
stars_weekly: {weekly}
{rest}---
"""


def cards_kb(target: Path, count: float) -> Path:
    real = sorted((EXAMPLE / "organized" / "repo_cards").glob("*.md"))
    files = {}
    for n in range(int(count)):
        front, body = _split_front(real[n % len(real)].read_text(encoding="utf-8"))
        fields = dict(line.split(": ", 1) for line in front.strip("-\n").split("\n"))
        owner, name = fields["repo"].split("/")
        repo, t = f"{owner}-{tag(n)}/{name}-{tag(n)}", tag(n)
        rest = "".join(f"{k}: {v}\n" for k, v in fields.items() if k not in ("repo", "url", "stars", "stars_weekly"))
        text = CARD_FRONT.format(repo=repo, stars=50 + n * 37 % 9000, weekly=n % 97, rest=rest)
        body = unique(body.split("\n", 1)[1], n)  # the heading names the repository: written anew
        files[f"organized/repo_cards/{9000 + n}-{owner}-{name}-{t}.md".lower()] = f"{text}# {repo}\n{body}"
    return example_with_files(target, files)


def _doc_bodies(text: str) -> list[tuple[str, str]]:
    """(title, body) of each ``###`` section of the living document."""
    out: list[tuple[str, str]] = []
    for part in re.split(r"^### ", text, flags=re.M)[1:]:
        head, _, body = part.partition("\n")
        body = re.split(r"^## ", body, flags=re.M)[0]
        out.append((head.split(" ", 1)[1], body))
    return out


def _section(head: str, bodies: list[tuple[str, str]], s: int, size: int) -> str:
    """``head``, then the document's section bodies from the ``s``-th on, made distinct for ``s``, to ``size`` bytes."""
    return fill(head + "\n\n", lambda k: unique(bodies[(s + k) % len(bodies)][1], s), size)


def doc_kb(target: Path, mb: float) -> Path:
    """The living document grown to ``mb`` by ``SECTIONS_PER_MB`` §-numbered sections a MB, inserted before
    its appendix: ``## §k`` and four ``### §k.j`` a group, each filled from the document's own sections."""
    text = (EXAMPLE / DOC).read_text(encoding="utf-8")
    bodies = _doc_bodies(text)
    sections = max(5, round(SECTIONS_PER_MB * mb))
    per_section = max(1, (int(mb * MB) - len(text.encode())) // sections)
    parts: list[str] = []
    for s in range(sections):
        group, sub = divmod(s, 5)
        title, _ = bodies[s % len(bodies)]
        head = f"## §{7 + group} {unique(title, s)}" if sub == 0 else f"### §{7 + group}.{sub} {unique(title, s)}"
        parts.append(_section(head, bodies, s, per_section))
    appendix = text.index("## 附录 A")
    grown = text[:appendix] + "".join(parts) + text[appendix:]
    return example_with_files(target, {DOC: grown}, listed=False)


def notes_kb(target: Path, count: float) -> Path:
    texts = [(rel, (EXAMPLE / rel).read_text(encoding="utf-8")) for rel in SMALL_NOTES]
    files = {}
    for n in range(int(count)):
        rel, text = texts[n % len(texts)]
        folder, name = rel.rsplit("/", 1)
        files[f"{folder}/gen-{n:05d}-{name}"] = unique(text, n)
    return example_with_files(target, files)


MAKERS: dict[str, Callable[[Path, float], Path]] = {
    "names": names_kb,
    "known": known_kb,
    "cards": cards_kb,
    "doc": doc_kb,
    "notes": notes_kb,
}


def make_kb(shape: str, size: float, target: Path) -> Path:
    """The KB of ``shape`` at ``size`` (MB or files) in ``target``; its manifest's path."""
    return MAKERS[shape](target, size)


# -- measuring ------------------------------------------------------------------------------------------


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


#: the draft process runs as an installed e1prep does: from compiled bytecode. An environment that forbids
#: writing it (``PYTHONDONTWRITEBYTECODE``, as some sandboxes set) would have each process compile e1prep's
#: modules from source first, about 0.1 s that no installed copy pays
_INSTALLED_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _compiled() -> None:
    """Import e1prep once in a child, so that its bytecode is written before any process is timed."""
    subprocess.run([sys.executable, "-c", "import e1prep.cli, e1prep.pipeline"], env=_INSTALLED_ENV, check=True)


def draft_process(manifest: Path, out: Path) -> dict[str, Any]:
    """``python -m e1prep draft manifest`` as a process: exit code, wall and CPU seconds, peak memory."""
    cmd = [sys.executable, "-m", "e1prep", "draft", str(manifest), "--out", str(out / "brief.md")]
    with open(out / "draft.err", "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=_INSTALLED_ENV)
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own usage (RUSAGE_CHILDREN sums them all)
        wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    tail = (out / "draft.err").read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:]
    return {
        "rc": proc.returncode,
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,
        "stderr": tail[0] if tail else "",
    }


def child(manifest: str) -> None:
    """In a fresh process: the plain pass over every input of the draft, then the draft, CPU seconds."""
    from e1prep.brief.render import render_markdown
    from e1prep.pipeline import draft_brief

    inputs = manifest_inputs(Path(manifest))
    c0 = _cpu()
    for path in inputs:
        reference(path)
    ref = _cpu() - c0
    c1 = _cpu()
    brief = draft_brief(manifest)
    render_markdown(brief)
    brief.model_dump_json()
    draft = _cpu() - c1
    print(
        json.dumps(
            {
                "ref": ref,
                "draft": draft,
                "input_mb": sum(p.stat().st_size for p in inputs) / MB,
                "files": len(inputs),
                "increments": len(brief.increments),
                "refreshes": len(brief.refreshes),
                "excluded": len(brief.excluded),
            }
        )
    )


def measure(shape: str, size: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        manifest = make_kb(shape, size, Path(tmp) / "kb")
        proc = draft_process(manifest, Path(tmp))
        inproc = run_child(__file__, "--child", str(manifest)) if proc["rc"] == 0 else {}
    if inproc:
        inproc["ratio"] = inproc["draft"] / max(inproc["ref"], 1e-6)
    return {"shape": shape, "size": size, "unit": SHAPES[shape][0], **inproc, "process": proc}


def smoke() -> int:
    """Each shape once at its tiny size: the draft as a process and in process; no times."""
    failed = 0
    for shape, (unit, _, size, _) in SHAPES.items():
        try:
            r = measure(shape, size)
            ok = r["process"]["rc"] == 0 and "draft" in r
            why = "" if ok else f" (exit {r['process']['rc']}: {r['process']['stderr']})"
        except subprocess.CalledProcessError as exc:
            last = exc.stderr.strip().splitlines()[-1:]
            ok, why = False, f" (in-process draft failed: {last[0] if last else exc.returncode})"
        failed += not ok
        print(f"smoke {shape:6s} {size:g} {unit}: {'ok' if ok else 'FAILED'}{why}")
    print(json.dumps({"smoke": "ok" if not failed else "failed", "failed": failed}))
    return 1 if failed else 0


def verdicts(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The targets, read at each shape's target size, and each shape's growth: from 2 to 5 MB for a note
    (a target), else from the target size to the largest (for information: ``target`` None; at 3,000 files a
    cost per file that grows with the batch shows as growth above 3)."""
    out: list[dict[str, Any]] = []
    by = {(r["shape"], r["size"]): r for r in rows if "draft" in r}

    def check(shape: str, what: str, value: float, target: float | None) -> None:
        met = None if target is None else value <= target
        out.append({"shape": shape, "what": what, "value": value, "target": target, "met": met})

    for shape, (unit, sizes, _, at) in SHAPES.items():
        r = by.get((shape, at))
        if r is None:
            continue
        check(shape, f"{at:g} {unit}: draft / plain pass", r["draft"] / max(r["ref"], 1e-6), RATIO_TARGET)
        check(shape, f"{at:g} {unit}: process wall s", r["process"]["wall"], PROCESS_TARGET)
        lo, hi = (at, sizes[-1]) if sizes[-1] != at else (sizes[0], at)
        if (shape, lo) in by and (shape, hi) in by:
            growth = by[(shape, hi)]["draft"] / max(by[(shape, lo)]["draft"], 1e-6)
            target = GROWTH_TARGET if unit == "MB" and (lo, hi) == (2, 5) else None
            check(shape, f"draft {hi:g} / {lo:g} {unit} (input x{hi / lo:g})", growth, target)
    return out


def _verdict(check: dict[str, Any]) -> str:
    if check["target"] is None:
        return "(no target)"
    return f"(target <= {check['target']:g}): {'met' if check['met'] else 'NOT MET'}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--smoke", action="store_true", help="each shape once, tiny: exit 1 if a draft fails")
    ap.add_argument("--shapes", default=",".join(SHAPES), help="comma-separated, of: " + ", ".join(SHAPES))
    args = ap.parse_args()
    if args.smoke:
        return smoke()
    print("process: python -m e1prep draft (wall and CPU s, peak RSS MB); in process: CPU s of the plain pass")
    print("(bench_scale.reference over every input file) and of the draft (draft_brief + Markdown + JSON)")
    head = f"{'shape':6s} {'size':>10s} {'input MB':>8s} {'files':>5s} {'wall s':>7s} {'cpu s':>7s} {'peak MB':>8s} "
    print(head + f"{'plain s':>8s} {'draft s':>8s} {'ratio':>6s} {'inc':>5s} {'refr':>4s} {'exc':>4s}")
    rows: list[dict[str, Any]] = []
    _compiled()
    for shape in args.shapes.split(","):
        unit, sizes, _, _ = SHAPES[shape]
        for size in sizes:
            r = measure(shape, size)
            rows.append(r)
            p = r["process"]
            line = f"{shape:6s} {f'{size:g} {unit}':>10s} "
            if "draft" not in r:
                print(line + f"draft FAILED (exit {p['rc']}): {p['stderr']}")
                continue
            print(
                line + f"{r['input_mb']:8.2f} {r['files']:5d} {p['wall']:7.2f} {p['cpu']:7.2f} {p['peak_mb']:8.1f} "
                f"{r['ref']:8.3f} {r['draft']:8.2f} {r['ratio']:6.1f} "
                f"{r['increments']:5d} {r['refreshes']:4d} {r['excluded']:4d}",
                flush=True,
            )
    checks = verdicts(rows)
    for c in checks:
        print(f"{c['shape']:6s} {c['what']}: {c['value']:.2f} {_verdict(c)}")
    all_met = all(c["met"] for c in checks if c["target"] is not None)
    print(json.dumps({"rows": rows, "targets": checks, "all_met": all_met}))
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        raise SystemExit(main())
