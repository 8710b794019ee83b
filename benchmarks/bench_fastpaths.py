"""Benchmark: does a fast path pay? Each one against its plain form, in the stage it lives in.

A fast path (a pre-check before a regex, a memo, a guarded regex, a shortcut) stays only where it saves
at least 3% of its stage on one benchmark input (issue 24). For each fast path listed in ``PLAIN`` this
copies ``src/`` twice, writes the plain form into one copy (the edit is the fast path's own plain form,
written here as old text → new text), and times the stage in fresh processes, the two trees alternating
(the machine is shared: both see the same load). A stage is timed in process (CPU seconds), ``--reps``
times in each process with the per-text caches emptied in between; the best of all is reported.

Inputs: ``bench_scale``'s generated notes (``distinct``, ``repeat``, ``offtopic``),
``bench_hostile_sizes``'s ``plain`` note and ``bench_shapes``' ``known`` and ``names`` notes (items named
by the living document; items with distinct names), each ``--mb`` MB in the bundled example's KB. The
verify stage is the verifier's set-up and its check of the rules brief (drafted once per process).

Run: python benchmarks/bench_fastpaths.py [--only NAME,...] [--mb 1] [--rounds 3] [--reps 3]
An edit whose old text is no longer in the source (the plain form is in the code) is reported and skipped.
"""

# ruff: noqa: E501 (the plain forms are the source lines they replace, verbatim)
from __future__ import annotations

import argparse
import functools
import gc
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _kb import example_with_note
from bench_hostile_sizes import plain_note
from bench_scale import NOTE, make_note
from bench_shapes import known_kb, names_kb

ROOT = Path(__file__).resolve().parents[1]
#: the source measured (its fast paths as written): ``src/``, or another checkout's
SRC = Path(os.environ.get("FASTPATHS_SRC", ROOT / "src"))
STAGES = ("load", "split", "rules", "detect", "verify")
INPUTS = ("distinct", "repeat", "offtopic", "hostile-plain", "shapes-known", "shapes-names")

#: a fast path: (its stage, [(file under src/e1prep, old text, new text: the plain form)])
Edit = tuple[str, str, str]
PLAIN: dict[str, tuple[str, list[Edit]]] = {
    "A/A control (split): no edit": ("split", []),
    "A/A control (rules): no edit": ("rules", []),
    "A/A control (verify): no edit": ("verify", []),
    "notes.url_only: '://' pre-check": (
        "rules",
        [("read/notes.py", '    if "://" not in text:\n        return None\n    found', "    found")],
    ),
    "notes._unlabelled: digit pre-check": (
        "rules",
        [("read/notes.py", "    if not any(c.isdigit() for c in rest):\n        return rest\n", "")],
    ),
    "notes.blocks: one line is its own block": (
        "rules",
        [
            (
                "read/notes.py",
                '    if "\\n" not in text:  # one line (a dump\'s items mostly): it is its only block, unless blank\n'
                "        return [(0, text)] if text.strip() else []\n",
                "",
            )
        ],
    ),
    "numbers._scan: digit pre-check": (
        "rules",
        [
            (
                "read/numbers.py",
                "    if holds_no_token(text):\n        return ()\n",
                "",
            )
        ],
    ),
    "numbers.holds_no_token: digit pre-check (verify)": (
        "verify",
        [("read/numbers.py", "    if holds_no_token(text):\n        return ()\n", "")],
    ),
    "lexicon.verdicts: guarded (verify)": (
        "verify",
        [("text/lexicon.py", 'verdicts={k: guarded("|".join(v), re.I)', 'verdicts={k: re.compile("|".join(v), re.I)')],
    ),
    "whole._duplicates: texts in the cheap key": (
        "verify",
        [("verify/whole.py", ", _texts_of(obj))\n", ")\n")],
    ),
    "grounding._bares: each text bared once": (
        "verify",
        [
            (
                "verify/grounding.py",
                "        bare = self._bares.get(text)\n        if bare is None:\n            bare = self._bare(text)\n",
                "        bare = self._bare(text)\n",
            )
        ],
    ),
    "numbers._scan: per-text memo": (
        "rules",
        [("read/numbers.py", "@run_memo\ndef _scan(", "def _scan(")],
    ),
    "subjects._read_name: per-name memo": (
        "rules",
        [("read/subjects.py", "@run_memo\ndef _read_name(", "def _read_name(")],
    ),
    "notes._heading callers: line[:1] == '#' before _HEADING": (
        "split",
        [
            (
                "read/notes.py",
                'lines[j][:1] == "#" and not rx.match(lines[j]) and _heading(lines[j])',
                "not rx.match(lines[j]) and _heading(lines[j])",
            ),
            ("read/notes.py", 'if line[:1] == "#" and (h := _heading(line))', "if (h := _heading(line))"),
            ("read/notes.py", 'lines[j][:1] == "#" and _heading(lines[j])', "_heading(lines[j])"),
            (
                "read/notes.py",
                '_heading(lines[span.start]) if lines[span.start][:1] == "#" else None',
                "_heading(lines[span.start])",
            ),
        ],
    ),
    "notes._UrlLines: '://' in line before URL_RE": (
        "split",
        [("read/notes.py", 'if "://" in line and URL_RE.search(line):', "if URL_RE.search(line):")],
    ),
    "notes.make_item: '://' pre-check, one-URL list": (
        "split",
        [
            ("read/notes.py", 'found = URL_RE.findall(text) if "://" in text else []', "found = URL_RE.findall(text)"),
            (
                "read/notes.py",
                'urls = [found[0].rstrip(".,;:)")] if len(found) == 1 else list(dict.fromkeys(u.rstrip(".,;:)") for u in found))',
                'urls = list(dict.fromkeys(u.rstrip(".,;:)") for u in found))',
            ),
        ],
    ),
    "notes._date_match: year pre-check, guarded, start offset": (
        "split",
        [("read/notes.py", "m = _date_match(text)\n", "m = _DATE_LINE.search(text)\n")],
    ),
    "notes._clean_title: anchored matches, pre-checks": (
        "split",
        [
            (
                "read/notes.py",
                "    if m := _STATUS_SIGN.match(raw):\n        raw = raw[m.end() :]\n    title = raw.strip()\n"
                "    if m := _ORDINAL_LEAD.match(title):\n        title = title[m.end() :]\n"
                '    if title.startswith("【") and (m := _LENTICULAR_TITLE.match(title)):\n'
                "        title = m.group(1) + title[m.end() :]\n"
                '    if "](" in title:\n        title = MD_LINK.sub(_first_group, title)\n',
                '    raw = _STATUS_SIGN.sub("", raw)\n    title = _ORDINAL_LEAD.sub("", raw.strip())\n'
                '    title = _LENTICULAR_TITLE.sub(r"\\1", title)\n    title = MD_LINK.sub(r"\\1", title)\n',
            ),
        ],
    ),
    "notes._split_cells: str.split when no escape or <br>": (
        "split",
        [
            (
                "read/notes.py",
                '    if "\\\\|" not in inner and "<br" not in inner:  # every pipe splits, no break to read\n'
                '        return [c.strip() for c in inner.split("|")]\n',
                "",
            )
        ],
    ),
    "notes._table_spans: '|' in line before _TABLE_ROW": (
        "split",
        [("read/notes.py", 'm = _TABLE_ROW.match(line) if "|" in line else None', "m = _TABLE_ROW.match(line)")],
    ),
    "notes._table_spans: header meanings memo": (
        "split",
        [
            (
                "read/notes.py",
                "meanings = known.get(tuple(header)) or known.setdefault(\n"
                "                tuple(header), [lexicon().column_meaning(h) for h in header]\n            )",
                "meanings = [lexicon().column_meaning(h) for h in header]",
            )
        ],
    ),
    "notes._table_spans: '://' in cell before URL_RE": (
        "split",
        [("read/notes.py", 'and not ("://" in c and URL_RE.fullmatch(c))', "and not URL_RE.fullmatch(c)")],
    ),
    "notes._is_field_line: colon pre-check": (
        "split",
        [("read/notes.py", '    if ":" not in text and "：" not in text:\n        return False\n', "")],
    ),
    "notes._list_spans: starts shared by _spans_of and _refine": (
        "split",
        [
            (
                "read/notes.py",
                'lambda: _list_spans(lines, _NUMBERED, "numbered", starts=numbered),',
                'lambda: _list_spans(lines, _NUMBERED, "numbered"),',
            ),
            ("read/notes.py", "with_url=window, starts=[i - first for i in at])", "with_url=window)"),
        ],
    ),
    "notes._titled_url_spans: only lines above a bare URL line": (
        "split",
        [
            (
                "read/notes.py",
                "    above: set[int] = set()\n    for j, is_bare in enumerate(bare):\n        if is_bare and j >= 1:\n"
                "            above.add(j - 1)\n            if j >= 2 and not lines[j - 1].strip():\n"
                "                above.add(j - 2)\n    for i in sorted(above):\n        line = lines[i]\n"
                "        if not line.strip() or bare[i] or urls.any(i, i + 1) or len(line.strip()) > 160:\n            continue\n",
                "    for i, line in enumerate(lines):\n"
                "        if not line.strip() or bare[i] or urls.any(i, i + 1) or len(line.strip()) > 160:\n            continue\n"
                "        nxt = next((j for j in range(i + 1, min(i + 3, len(lines))) if lines[j].strip()), None)\n"
                "        if nxt is None or not bare[nxt]:\n            continue\n",
            )
        ],
    ),
    "notes._segmented_spans: dash count before split": (
        "split",
        [
            (
                "read/notes.py",
                "        if len(_DASH_AFTER_SPACE.findall(stripped)) < 2:\n"
                "            continue  # two separators need two dashes each right after a space: there are not two\n",
                "",
            )
        ],
    ),
    "notes._spans_of: stop at the best score possible": (
        "split",
        [("read/notes.py", "        if best_score >= bound:\n            break\n", "")],
    ),
    "notes.split_note: a repeated item's reading reused": (
        "split",
        [
            (
                "read/notes.py",
                "        if first is not None and ctx.ranges",
                "        if False and first is not None and ctx.ranges",
            )
        ],
    ),
    "notes.split_note: legend-free items": (
        "split",
        [("read/notes.py", "legend_free=_none_within(legend_at, span.start, span.end),", "legend_free=False,")],
    ),
    "evidence.legend_line: label before the first colon": (
        "split",
        [
            (
                "read/evidence.py",
                '    colon = line.find(":")\n    wide = line.find("：", 0, colon if colon >= 0 else len(line))\n'
                "    if wide >= 0:\n        colon = wide\n    if colon < 0:\n        return None\n"
                "    if _LABELS_WITHOUT_COLON and not _LEGEND_LABEL.search(line, 0, colon):\n        return None\n",
                "",
            )
        ],
    ),
    "evidence._read_stripped: nothing found, nothing read": (
        "split",
        [
            (
                "read/evidence.py",
                "    if not hits and not symbol_statements:  # nothing stated (most lines): what the full reading ends with\n"
                "        understood = not body.strip() and not _CHECK_SYMBOLS.search(body)  # a blank body is searched\n"
                "        return Statement(EvidenceLevel.unverified, [], understood, False, None, text)\n",
                "",
            )
        ],
    ),
    "evidence.parse_legend: a repeated line read once": (
        "split",
        [("read/evidence.py", "            found = known.get(line)\n", "            found = None\n")],
    ),
    "evidence.note_context: legend_line matches passed on": (
        "split",
        [
            (
                "read/evidence.py",
                "legend = parse_legend(lines, set(outside), labelled)",
                "legend = parse_legend(lines, set(outside))",
            )
        ],
    ),
    "evidence._SELECTOR: guarded": (
        "split",
        [("read/evidence.py", "_SELECTOR = guarded(\n", "_SELECTOR = re.compile(\n")],
    ),
    "markers._find: per-text memo (lru_cache)": (
        "split",
        [("read/markers.py", "@run_memo\ndef _find(", "def _find(")],
    ),
    "markers._find_in_view: literal gates": (
        "split",
        [("read/markers.py", "    opened = _gates().open(text)", "    opened = _gates().everything  #")],
    ),
    "markers.patterns: guarded shape rows": (
        "split",
        [
            (
                "read/markers.py",
                "out.append(Pattern(guarded(joined, re.I if folded else 0), proto, folded))",
                "out.append(Pattern(re.compile(joined, re.I if folded else 0), proto, folded))",
            )
        ],
    ),
    "markers._scoped_starts/_block_level: per-text memos": (
        "rules",
        [
            ("read/markers.py", "@run_memo\ndef _scoped_starts(", "def _scoped_starts("),
            ("read/markers.py", "@run_memo\ndef _block_level(", "def _block_level("),
        ],
    ),
    "numbers._PATTERNS: guarded": (
        "rules",
        [("read/numbers.py", "_PATTERNS = [(kind, typ, guarded(rx)) for kind, typ, rx in _PATTERNS]", "")],
    ),
    "lexicon.verdict: literal gates": (
        "rules",
        [
            (
                "text/lexicon.py",
                "        if kind not in _verdicts_possible(text):\n            return None\n",
                "",
            )
        ],
    ),
    "lexicon.verdicts: guarded": (
        "rules",
        [
            (
                "text/lexicon.py",
                'verdicts={k: guarded("|".join(v), re.I)',
                'verdicts={k: re.compile("|".join(v), re.I)',
            )
        ],
    ),
    "naming.github_repo/github_ref: 'github.com/' pre-check": (
        "rules",
        [
            (
                "text/naming.py",
                '    if "github.com/" not in url:  # both patterns hold it verbatim (they ignore no case)\n'
                "        return None\n",
                "",
            ),
            ("text/naming.py", 'm = _GITHUB.match(url) if "github.com/" in url else None', "m = _GITHUB.match(url)"),
        ],
    ),
    "knowledge.arxiv_ids: dot gate and matches from dots": (
        "split",
        [
            (
                "kb/knowledge.py",
                "    if not _ARXIV_DIGITS.search(text):  # every id holds four digits, a dot and a digit: most text has none\n"
                "        return []\n",
                "",
            ),
            (
                "kb/knowledge.py",
                "    for m in arxiv_matches(text):\n        seen.setdefault",
                "    for m in ARXIV_RE.finditer(text):\n        seen.setdefault",
            ),
        ],
    ),
    "knowledge.holds_url: URLs keyed after '://'": (
        "detect",
        [
            (
                "kb/knowledge.py",
                '        at = url.find("://")\n',
                '        return url in self.text\n        at = url.find("://")\n',
            )
        ],
    ),
}


def _clear_caches(package: str) -> None:
    """Empty every per-text memo of ``package`` (its run memos, and each bounded ``lru_cache``), so that each
    timing starts cold."""
    importlib.import_module(package + ".text.memo").forget()
    for name, module in list(sys.modules.items()):
        if not name.startswith(package + "."):
            continue
        for obj in list(vars(module).values()):
            if isinstance(obj, functools._lru_cache_wrapper) and obj.cache_parameters()["maxsize"]:
                obj.cache_clear()


def _stage(package: str, manifest: str, stage: str) -> Callable[[], float]:
    """A timer of ``stage`` of ``package`` (``e1prep`` or its plain copy) on ``manifest``: CPU seconds, cold memos."""
    pipeline = importlib.import_module(f"{package}.pipeline")
    producer = importlib.import_module(f"{package}.produce.rules").RulesProducer
    detect_all = importlib.import_module(f"{package}.check.detectors").detect_all
    group = importlib.import_module(f"{package}.check.grouping").group_contradictions
    verifier_of = importlib.import_module(f"{package}.verify.verifier").Verifier
    kb = pipeline.load_kb(manifest)
    doc = pipeline.living_document(kb)
    brief = None  # the verify stage's input: the rules brief before verification, drafted once

    def split() -> None:
        for m in kb.materials:
            m.items_cache = None
        pipeline._report_materials(kb)

    def run() -> float:
        nonlocal kb, doc, brief
        _clear_caches(package)
        gc.collect()
        if stage == "load":
            t = time.process_time()
            kb = pipeline.load_kb(manifest)
            doc = pipeline.living_document(kb)
            return time.process_time() - t
        if stage == "split":
            t = time.process_time()
            split()
            return time.process_time() - t
        split()
        if stage == "rules":
            gc.collect()
            t = time.process_time()
            producer().produce(kb, doc)
            return time.process_time() - t
        if stage == "verify":
            if brief is None:
                production = producer().produce(kb, doc)
                findings = detect_all(kb, doc, production.off_topic)
                contradictions = group(findings.contradictions)
                brief = pipeline.assemble(kb, doc, "rules", production, contradictions, findings.refreshes)
            _clear_caches(package)
            split()
            fresh = pipeline.living_document(kb)
            gc.collect()
            t = time.process_time()
            pipeline.apply_verification(brief, verifier_of(kb, fresh))
            return time.process_time() - t
        production = producer().produce(kb, doc)
        _clear_caches(package)
        split()
        fresh = pipeline.living_document(kb)  # a fresh document: its own memos cold
        gc.collect()
        t = time.process_time()
        detect_all(kb, fresh, production.off_topic)
        return time.process_time() - t

    return run


def child(manifest: str, stage: str, reps: int, plain_root: str) -> None:
    """One process, both forms: the stage of ``e1prep`` and of its plain copy, alternating ``reps`` times;
    the best CPU seconds of each, as one JSON line (one process: the same interpreter, the same load)."""
    sys.path.insert(0, plain_root)
    fast, plain = _stage("e1prep", manifest, stage), _stage("e1prep_plain", manifest, stage)
    fast(), plain()  # a first run of each compiles its patterns and fills its tables: not timed
    best = {"fast": float("inf"), "plain": float("inf")}
    for n in range(reps):
        order = (("fast", fast), ("plain", plain)) if n % 2 == 0 else (("plain", plain), ("fast", fast))
        for name, run in order:
            best[name] = min(best[name], run())
    print(json.dumps(best))


def _tree(base: Path, name: str, edits: list[Edit]) -> Path | None:
    """A copy of the package as ``e1prep_plain`` with ``edits`` applied (its imports are relative); its root,
    or None when an edit's old text is not in the source (the plain form is in the code)."""
    target = base / name
    shutil.copytree(SRC / "e1prep", target / "e1prep_plain", ignore=shutil.ignore_patterns("__pycache__"))
    for rel, old, new in edits:
        path = target / "e1prep_plain" / rel
        text = path.read_text(encoding="utf-8")
        if old not in text:
            return None
        path.write_text(text.replace(old, new), encoding="utf-8")
    return target


def _run(plain_root: Path, manifest: Path, stage: str, reps: int) -> tuple[float, float]:
    env = {"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(manifest), stage, str(reps), str(plain_root)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=Path(__file__).parent,
    )
    found = json.loads(out.stdout.strip().splitlines()[-1])
    return float(found["fast"]), float(found["plain"])


def _inputs(base: Path, mb: float) -> dict[str, Path]:
    out = {}
    for kind in ("distinct", "repeat", "offtopic"):
        out[kind] = example_with_note(base / f"kb-{kind}", NOTE, make_note(kind, mb))
    out["hostile-plain"] = example_with_note(base / "kb-hostile-plain", NOTE, plain_note(int(mb * 1_000_000)))
    out["shapes-known"] = known_kb(base / "kb-shapes-known", mb)
    out["shapes-names"] = names_kb(base / "kb-shapes-names", mb)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="comma-separated substrings of fast-path names")
    ap.add_argument("--mb", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--inputs", default=",".join(INPUTS))
    ap.add_argument("--stages", default=",".join(STAGES))
    args = ap.parse_args()
    wanted = [w for w in args.only.split(",") if w]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        inputs = {k: v for k, v in _inputs(base, args.mb).items() if k in args.inputs.split(",")}
        print("| fast path | stage | input | plain s | fast s | gain % |")
        print("|---|---|---|---|---|---|")
        for n, (name, (stage, edits)) in enumerate(PLAIN.items()):
            if (wanted and not any(w in name for w in wanted)) or stage not in args.stages.split(","):
                continue
            plain_root = _tree(base, f"plain{n}", edits)
            if plain_root is None:
                print(f"| {name} | {stage} | - | (plain form in the code) | | |", flush=True)
                continue
            for label, manifest in inputs.items():
                runs = [_run(plain_root, manifest, stage, args.reps) for _ in range(args.rounds)]
                f, p = min(r[0] for r in runs), min(r[1] for r in runs)
                print(f"| {name} | {stage} | {label} | {p:.4f} | {f:.4f} | {100 * (p - f) / p:+.1f} |", flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 5 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    else:
        main()
