"""The golden eval runner: draft each case, match the brief against expected.json, score, gate."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..brief.golden import ExpectedContradiction, ExpectedObject, GoldenCase, load_golden
from ..brief.models import Brief
from ..brief.outputs import Target, check_targets, write_all
from ..errors import InputError
from ..kb.numbering import SECTION_ID
from ..pipeline import draft_brief, draft_from_extractions
from ..produce.producer import Producer
from ..produce.routing import routed_id
from ..read.numbers import normalize, occurs_in
from ..text.naming import norm_name
from .casewarnings import case_warnings, eval_run

if TYPE_CHECKING:
    from .invariance import InvarianceResult

LISTS = ("increments", "refreshes", "contradictions", "anchors")


def name_score(brief_names: list[str], expected: ExpectedObject) -> int:
    """3: exact key, 2: exact alias, 1: one name contains the other (4+ chars), 0: no match."""
    wanted = [norm_name(expected.key)] + [norm_name(a) for a in expected.aliases]
    best = 0
    for raw in brief_names:
        got = norm_name(raw)
        if not got:
            continue
        if got == wanted[0]:
            return 3
        if got in wanted[1:]:
            best = max(best, 2)
        elif _contains(got, wanted) or any(_all_words_in(k, raw) for k in [expected.key, *expected.aliases]):
            best = max(best, 1)
    return best


def _contains(got: str, wanted: list[str]) -> bool:
    """The brief's name holds a wanted name, or is most (60%+) of one; both four characters or more.

    ``DeepSeek 开源 DeepInfer 推理栈`` holds ``DeepInfer``; ``Deep`` or ``DeepSeek`` are only part of
    ``DeepSeek DeepInfer`` and do not match it.
    """
    return any(
        len(w) >= 4 and len(got) >= 4 and (w in got or (got in w and len(got) >= 0.6 * len(w))) for w in wanted if w
    )


def _words(name: str) -> set[str]:
    latin = {w.lower() for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9.+#-]*", name)}
    cjk = {m.group(0) for m in re.finditer(r"[\u4e00-\u9fff]{2,}", name)}
    return latin | cjk


def _all_words_in(key: str, name: str) -> bool:
    """Every word of a key of two or more words stands in the name (``DGX Spark 基准`` in a longer title)."""
    want = _words(key)
    return len(want) >= 2 and want <= _words(name)


def matches(obj: dict[str, Any], expected: ExpectedObject) -> int:
    """Score of a brief object against an expected one; 0 when it does not match at all."""
    if isinstance(expected, ExpectedContradiction) and obj.get("kind") != expected.kind.value:
        return 0
    if expected.sources and not set(obj.get("sources", [])) & set(expected.sources):
        return 0
    names = [obj.get("key", ""), obj.get("title", "")]
    return name_score([n for n in names if n], expected)


def pair(objects: list[dict[str, Any]], expected: list[ExpectedObject]) -> list[tuple[int, int]]:
    """One-to-one matching, best scores first: (object index, expected index)."""
    scored = [(s, i, j) for i, o in enumerate(objects) for j, e in enumerate(expected) if (s := matches(o, e)) > 0]
    used_o: set[int] = set()
    used_e: set[int] = set()
    out = []
    for _, i, j in sorted(scored, key=lambda t: (-t[0], t[1], t[2])):
        if i in used_o or j in used_e:
            continue
        used_o.add(i)
        used_e.add(j)
        out.append((i, j))
    return out


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, other: Score) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    def as_dict(self) -> dict[str, float]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(self.precision, 3),
            "recall": round(self.recall, 3),
            "f1": round(self.f1, 3),
        }


@dataclass
class Routing:
    """建议归入 against the golden sections, over the matched increments whose expectation names one: a
    match is the same § id; an undecided route (no section clearly wins) counts as a miss, and
    ``candidates`` counts the golden section among the two the route names, decided or not."""

    correct: int = 0
    total: int = 0
    undecided: int = 0
    candidates: int = 0

    def add(self, other: Routing) -> None:
        self.correct += other.correct
        self.total += other.total
        self.undecided += other.undecided
        self.candidates += other.candidates

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 1.0

    @property
    def precision(self) -> float:
        """Right among the routes that named a section."""
        decided = self.total - self.undecided
        return self.correct / decided if decided else 1.0


_SECTION_IDS = re.compile(SECTION_ID)


@dataclass
class CaseResult:
    case: str
    scores: dict[str, Score]
    not_quotable_as_findings: int
    not_quotable_total: int
    distractors_leaked: list[str]
    violations: int
    sources_coverage: float
    seconds: float
    missed: dict[str, list[str]] = field(default_factory=dict)
    extra: dict[str, list[str]] = field(default_factory=dict)
    #: objects of a reader (a model, an agent, a reference answer) the verifier rejected
    reader_rejected: int = 0
    routing: Routing = field(default_factory=Routing)


def score_brief(brief: Brief, golden: GoldenCase) -> CaseResult:
    data = json.loads(brief.model_dump_json())
    scores: dict[str, Score] = {}
    missed: dict[str, list[str]] = {}
    extra: dict[str, list[str]] = {}
    routing = Routing()
    for name in ("increments", "refreshes", "contradictions"):
        objects, expected = data[name], getattr(golden, name)
        pairs = pair(objects, expected)
        if name == "increments":
            routing, missed["routing"] = score_routing(objects, expected, pairs)
        scores[name] = Score(tp=len(pairs), fp=len(objects) - len(pairs), fn=len(expected) - len(pairs))
        matched_e = {j for _, j in pairs}
        matched_o = {i for i, _ in pairs}
        missed[name] = [_label(e) for j, e in enumerate(expected) if j not in matched_e]
        extra[name] = [_label_obj(o) for i, o in enumerate(objects) if i not in matched_o]
    findable = [c for c in golden.contradictions if c.rule_findable]
    pairs = pair(data["contradictions"], list(findable))
    scores["contradictions_rule_findable"] = Score(
        tp=len(pairs), fp=len(data["contradictions"]) - len(pairs), fn=len(findable) - len(pairs)
    )
    got = {(a["arxiv"], a["status"]) for a in data["anchors"]}
    want = {(a.arxiv, a.status) for a in golden.anchors}
    scores["anchors"] = Score(tp=len(got & want), fp=len(got - want), fn=len(want - got))
    missed["anchors"] = [f"{a} ({s})" for a, s in sorted(want - got)]
    extra["anchors"] = [f"{a} ({s})" for a, s in sorted(got - want)]
    points = [normalize(p) for inc in data["increments"] for p in inc.get("points", [])]
    leaked_numbers = sum(1 for n in golden.not_quotable if any(occurs_in(n.text, p) for p in points))
    leaks = [e.key for e in golden.distractors if any(matches(o, e) >= 2 for o in data["increments"])]
    listed = {s["path"] for s in data["sources"] if s["role"] == "material"}
    manifest_count = max(golden.materials, 1)
    return CaseResult(
        case=golden.case,
        scores=scores,
        not_quotable_as_findings=leaked_numbers,
        not_quotable_total=len(golden.not_quotable),
        distractors_leaked=leaks,
        # every finding the verifier acted on: the violations of the objects it rejected, and each
        # claim it repaired (``claims-all-failed`` is a verdict on findings already counted)
        violations=sum(1 for r in brief.rejected for v in r.violations if v.rule != "claims-all-failed")
        + len(brief.repairs),
        sources_coverage=min(len(listed) / manifest_count, 1.0),
        seconds=0.0,
        missed=missed,
        extra=extra,
        reader_rejected=sum(1 for r in brief.rejected if r.producer != "rules"),
        routing=routing,
    )


def score_routing(
    objects: list[dict[str, Any]], expected: list[ExpectedObject], pairs: list[tuple[int, int]]
) -> tuple[Routing, list[str]]:
    """How the matched increments were routed against their golden sections, and each miss said."""
    routing = Routing()
    misses = []
    for i, j in pairs:
        section = expected[j].section
        if not section:
            continue
        want = _section_id(section)
        got = objects[i].get("section")
        routed = routed_id(got)
        routing.total += 1
        routing.correct += routed == want
        routing.undecided += routed is None
        routing.candidates += want in ["§" + sid for sid in _SECTION_IDS.findall(got or "")]
        if routed != want:
            misses.append(f"{expected[j].key}: {want}, routed {got or '-'}")
    return routing, misses


def _section_id(section: str) -> str:
    """A golden section as the brief writes it: a document numbered without ``§`` (``## 3.`` / ``### 3.1``)
    has its sections named ``3.1`` by a hand and ``§3.1`` by the brief; both are the one section."""
    section = section.strip().removeprefix("¶")  # a pilcrow signs a section as § does (``¶22`` is §22)
    # a code in the brackets its document sets it in is that code (``[3b]``, ``〈2-1〉`` are §3b, §2-1)
    if (inner := _BRACKETED.fullmatch(section)) is not None:
        section = inner["id"]
    return section if section.startswith("§") else "§" + section


#: a section's id in brackets, as a document sets its numbers (``[3b]``, ``〈2-1〉``, ``【4】``)
_BRACKETED = re.compile(r"[\[〈【〔](?P<id>[^\]〉】〕\s]{1,12})[\]〉】〕]")


def _label(e: ExpectedObject) -> str:
    kind = getattr(e, "kind", None)
    return f"{e.key}" + (f" [{kind.value}]" if kind is not None else "")


def _label_obj(o: dict[str, Any]) -> str:
    return str(o.get("key", "")) + (f" [{o['kind']}]" if "kind" in o else "")


def cases(golden_dir: Path, names: list[str] | None) -> Iterator[Path]:
    folders = sorted(p for p in golden_dir.iterdir() if (p / "expected.json").exists())
    if names:
        unknown = set(names) - {p.name for p in folders}
        if unknown:
            raise InputError(golden_dir, f"no golden case named {', '.join(sorted(unknown))}")
        folders = [p for p in folders if p.name in names]
    yield from folders


#: the checkout's layout, relative to the working directory (``eval`` runs from the repository root)
CHECKOUT_GOLDEN = Path("evals") / "golden"
CHECKOUT_THRESHOLDS = Path("evals") / "thresholds.toml"
CHECKOUT_CASSETTES = Path("tests") / "cassettes" / "llm"
CHECKOUT_REFERENCE = Path("evals") / "reference"

ProducerFactory = Callable[[Path], tuple[Producer | None, AbstractContextManager[Any]]]


def rules_factory(case: Path) -> tuple[Producer | None, AbstractContextManager[Any]]:
    return None, nullcontext()


#: the prompt whose cassettes ``eval --backend llm`` replays unless ``--prompt`` names another: the one
#: that serves the recorded small model better (measured: README, *Golden evals*)
EVAL_PROMPT = "extract_material"


def llm_factory(cassette_dir: Path, prompt_id: str = EVAL_PROMPT) -> ProducerFactory:
    """The model backend replayed from each case's cassette in ``cassette_dir``: offline, never re-recorded.

    Raises ``ConfigError`` naming the extra when the model stack or vcrpy is not installed.
    """
    from ..llm import require_stack

    require_stack()
    from ..llm.evalreplay import replay_producer

    return lambda case: replay_producer(case, cassette_dir, prompt_id)


def reference_brief(case: Path, reference_dir: Path) -> Brief:
    """The case drafted from its reference extractions (written by a person, not a model) through the
    agent API (``draft_from_extractions``): the ceiling of what a reader's items make of the case."""
    path = reference_dir / f"{case.name}.json"
    if not path.is_file():
        raise InputError(path, "no reference extraction for this golden case")
    return draft_from_extractions(case / "manifest.json", path)


def run(
    backend: str,
    golden_dir: Path,
    names: list[str] | None = None,
    cassette_dir: Path | None = None,
    reference_dir: Path | None = None,
    prompt_id: str = EVAL_PROMPT,
) -> list[CaseResult]:
    """Draft and score every golden case; ``cassette_dir`` (llm) defaults to the checkout's cassettes,
    ``reference_dir`` (reference) to the checkout's reference extractions."""
    factory: ProducerFactory = rules_factory
    if backend == "llm":
        factory = llm_factory(cassette_dir or CHECKOUT_CASSETTES, prompt_id)
    results = []
    for case in cases(golden_dir, names):
        golden = load_golden(case / "expected.json")
        producer, ctx = factory(case)
        started = time.perf_counter()
        with case_warnings(case.name):
            if backend == "reference":
                brief = reference_brief(case, reference_dir or CHECKOUT_REFERENCE)
            else:
                with ctx:
                    brief = draft_brief(case / "manifest.json", producer=producer)
        result = score_brief(brief, golden)
        result.seconds = time.perf_counter() - started
        results.append(result)
    return results


def overall(results: list[CaseResult]) -> dict[str, Any]:
    total: dict[str, Score] = {}
    for r in results:
        for name, s in r.scores.items():
            total.setdefault(name, Score()).add(s)
    nq_total = sum(r.not_quotable_total for r in results)
    routing = Routing()
    for r in results:
        routing.add(r.routing)
    return {
        **{f"{name}_f1": round(s.f1, 3) for name, s in total.items()},
        **{f"{name}_recall": round(s.recall, 3) for name, s in total.items()},
        **{f"{name}_precision": round(s.precision, 3) for name, s in total.items()},
        "not_quotable_as_findings_share": round(sum(r.not_quotable_as_findings for r in results) / nq_total, 3)
        if nq_total
        else 0.0,
        "distractors_leaked": sum(len(r.distractors_leaked) for r in results),
        "violations": sum(r.violations for r in results),
        "sources_coverage": round(min((r.sources_coverage for r in results), default=1.0), 3),
        # the worst case, for floors that every case must meet on its own
        "every_case_increments_f1": round(min((r.scores["increments"].f1 for r in results), default=1.0), 3),
        "every_case_refreshes_f1": round(min((r.scores["refreshes"].f1 for r in results), default=1.0), 3),
        "reader_rejected": sum(r.reader_rejected for r in results),
        "routing_accuracy": round(routing.accuracy, 3),
        "routing_precision": round(routing.precision, 3),
        "routing_undecided": routing.undecided,
        "routing_candidates_recall": round(routing.candidates / routing.total if routing.total else 1.0, 3),
        "seconds": round(sum(r.seconds for r in results), 3),
    }


def check_thresholds(figures: dict[str, Any], thresholds: dict[str, Any]) -> list[str]:
    """Names of figures that fail; ``*_min`` keys are floors and ``*_max`` keys are ceilings."""
    failures = []
    for key, limit in thresholds.items():
        if key.endswith("_min"):
            name = key.removesuffix("_min")
            if figures.get(name, 0.0) < limit:
                failures.append(f"{name} = {figures.get(name)} is below its threshold {limit}")
        elif key.endswith("_max"):
            name = key.removesuffix("_max")
            if figures.get(name, 0.0) > limit:
                failures.append(f"{name} = {figures.get(name)} is above its threshold {limit}")
    return failures


def table(results: list[CaseResult], figures: dict[str, Any]) -> str:
    head = (
        f"{'case':32} {'inc F1':>7} {'ref F1':>7} {'con F1':>7} {'con(rule) R':>11} {'anc F1':>7} "
        f"{'nq-leak':>7} {'distr':>5} {'viol':>5} {'src':>5} {'route':>5} {'sec':>6}"
    )
    lines = [head, "-" * len(head)]
    for r in results:
        s = r.scores
        lines.append(
            f"{r.case:32} {s['increments'].f1:7.2f} {s['refreshes'].f1:7.2f} {s['contradictions'].f1:7.2f} "
            f"{s['contradictions_rule_findable'].recall:11.2f} {s['anchors'].f1:7.2f} "
            f"{r.not_quotable_as_findings:7d} {len(r.distractors_leaked):5d} {r.violations:5d} "
            f"{r.sources_coverage:5.0%} {_route(r.routing):>5} {r.seconds:6.2f}"
        )
    lines.append("-" * len(head))
    lines.append(
        f"{'overall':32} {figures['increments_f1']:7.2f} {figures['refreshes_f1']:7.2f} "
        f"{figures['contradictions_f1']:7.2f} {figures['contradictions_rule_findable_recall']:11.2f} "
        f"{figures['anchors_f1']:7.2f} {figures['not_quotable_as_findings_share']:7.2f} "
        f"{figures['distractors_leaked']:5d} {figures['violations']:5d} {figures['sources_coverage']:5.0%} "
        f"{figures['routing_accuracy']:5.2f} {figures['seconds']:6.2f}"
    )
    lines.append(
        f"routing (建议归入 = golden section): accuracy {figures['routing_accuracy']:.3f}, "
        f"of the sections named {figures['routing_precision']:.3f}, undecided {figures['routing_undecided']}, "
        f"golden among the candidates shown {figures['routing_candidates_recall']:.3f}"
    )
    return "\n".join(lines)


def _route(routing: Routing) -> str:
    """A case's routing accuracy, or ``-`` when it expects no section."""
    return f"{routing.accuracy:.2f}" if routing.total else "-"


def _layout_invariance(golden_dir: Path, work: str | None) -> InvarianceResult:
    """Draft every golden case re-rendered in other layouts (e1prep.evals.invariance) and compare."""
    import tempfile

    from .invariance import score as score_layouts

    folders = list(cases(golden_dir, None))
    if work:
        Path(work).mkdir(parents=True, exist_ok=True)
        return score_layouts(folders, Path(work))
    with tempfile.TemporaryDirectory(prefix="e1prep-variants-") as tmp:
        return score_layouts(folders, Path(tmp))


def run_cli(args: argparse.Namespace) -> int:
    golden_dir = Path(args.golden) if args.golden else CHECKOUT_GOLDEN
    thresholds_path = Path(args.thresholds) if args.thresholds else CHECKOUT_THRESHOLDS
    cassette_dir = Path(args.cassettes) if getattr(args, "cassettes", None) else CHECKOUT_CASSETTES
    outside = "outside a checkout, pass --golden DIR and --thresholds FILE"
    if not golden_dir.is_dir():
        raise InputError(golden_dir, f"golden folder not found (run from the repository root; {outside})")
    if not args.cases and not thresholds_path.is_file():
        raise InputError(thresholds_path, f"thresholds file not found (run from the repository root; {outside})")
    if args.backend == "llm" and not cassette_dir.is_dir():
        raise InputError(cassette_dir, "cassette folder not found (run from the repository root or pass --cassettes)")
    reference_dir = Path(args.reference) if getattr(args, "reference", None) else CHECKOUT_REFERENCE
    if args.backend == "reference" and not reference_dir.is_dir():
        raise InputError(reference_dir, "reference folder not found (run from the repository root or pass --reference)")
    prompt_id = getattr(args, "prompt", None) or EVAL_PROMPT
    guard = _ReportGuard.of(args, golden_dir, thresholds_path, cassette_dir, reference_dir)
    guard.check()  # before the run: a report that cannot be written is said at once
    with eval_run():  # a case's warnings are said once, naming the case, however often it is read
        results = run(args.backend, golden_dir, args.cases, cassette_dir, reference_dir, prompt_id)
        figures = overall(results)
        print(table(results, figures))
        if args.backend == "rules":
            figures.update(_rules_figures(golden_dir, args))
    report = {
        "backend": args.backend,
        "overall": figures,
        "cases": [
            {
                **{k: v for k, v in asdict(r).items() if k != "scores"},
                "scores": {k: s.as_dict() for k, s in r.scores.items()},
            }
            for r in results
        ],
    }
    guard.write(json.dumps(report, ensure_ascii=False, indent=2) + "\n")
    if args.cases and not getattr(args, "gate", False):
        return 0  # thresholds are set for the whole set, unless the cases named are gated on their own
    thresholds = _thresholds(thresholds_path, args.backend, prompt_id)
    failures = gate(results, figures, thresholds)
    for f in failures:
        print(f"e1prep eval: FAIL {args.backend}: {f}", file=sys.stderr)
    return 1 if failures else 0


@dataclass(frozen=True)
class _ReportGuard:
    """``--report``, and everything an eval reads that it may never land on: the thresholds, the golden
    cases (manifests, expected.json, materials), and the cassettes, reference extractions, remark oracle
    and verifier catalogues of the backend being scored."""

    targets: list[Target]
    inputs: list[Path]
    folders: list[tuple[Path, str]]

    @classmethod
    def of(
        cls, args: argparse.Namespace, golden_dir: Path, thresholds: Path, cassette_dir: Path, reference_dir: Path
    ) -> _ReportGuard:
        folders = [(golden_dir, "the golden cases")]
        if args.backend == "llm":
            folders.append((cassette_dir, "the cassettes"))
        if args.backend == "reference":
            folders.append((reference_dir, "the reference extractions"))
        if args.backend == "rules":
            folders += [
                (golden_dir.parent / "remarks", "the remark oracle"),
                (golden_dir.parent / "verifier", "the verifier's catalogues"),
            ]
        targets = [Target(args.report, "--report")] if args.report is not None else []
        return cls(targets, [thresholds], folders)

    def check(self) -> None:
        """Raise ``InputError`` (one line, exit 2) when ``--report`` would land on anything the eval reads."""
        check_targets(self.targets, kb_root=None, inputs=self.inputs, folders=self.folders)

    def write(self, text: str) -> None:
        """Write the report, checked once more (a file may have appeared since), atomically."""
        if self.targets:
            self.check()
            write_all([(t, text) for t in self.targets])


def _rules_figures(golden_dir: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The whole-run figures of the rules backend: the remark oracle, layout invariance, the verifier's ROC."""
    from .remark_oracle import score as score_remarks

    figures: dict[str, Any] = {}
    oracle = golden_dir.parent / "remarks" / "oracle.jsonl"
    if oracle.is_file():  # the reader's evidence reading (any backend's facts)
        remarks = score_remarks(oracle)
        figures.update(remarks.figures())
        print(f"\nremark oracle ({oracle}):\n{remarks.table()}")
    hedges = golden_dir.parent / "remarks" / "hedges.jsonl"
    if hedges.is_file():  # checks governed by their shape: conditions, plans, questions, work in progress
        shaped = score_remarks(hedges)
        figures.update({f"remarks_hedges_{k.removeprefix('remarks_')}": v for k, v in shaped.figures().items()})
        figures["remarks_hedges_over_reads"] = shaped.over_reads
        print(f"\nhedge shapes ({hedges}):\n{shaped.table()}\nread above their label: {shaped.over_reads}")
    if not args.cases:  # the reader's independence of the notes' layout
        invariance = _layout_invariance(golden_dir, getattr(args, "variants_dir", None))
        figures["layout_invariance"] = round(invariance.share, 3)
        print(f"\nlayout invariance: {invariance.same}/{invariance.checked} variants agree ({invariance.share:.0%})")
        for name, diff in invariance.differences.items():
            print(f"  {name}: " + "; ".join(diff[:3]))
    verifier_dir = golden_dir.parent / "verifier"
    # the verifier's honest briefs are of the golden cases beside it, whichever cases this run scores
    verified_cases = verifier_dir.parent / "golden"
    if not args.cases and verifier_dir.is_dir():  # the verifier, on both sides
        from .roc import measure

        roc = measure(verifier_dir, verified_cases)
        figures.update({f"verifier_{k}": v for k, v in roc.figures().items()})
        print(f"\n{roc.render()}")
        heldout = verifier_dir / "heldout-forgeries.jsonl"
        if heldout.is_file():  # written by another hand, never tuned on: reported as measured
            held = measure(verifier_dir, verified_cases, catalogue=heldout)
            figures.update(
                {f"verifier_heldout_{k}": v for k, v in held.figures().items() if "forger" in k or "equiv" in k}
            )
            print(
                f"\nheld-out forgeries ({heldout.name}):\n"
                + held.render().split("forgery side", 1)[-1].split("\n", 1)[-1]
            )
    return figures


def _thresholds(path: Path, backend: str, prompt_id: str) -> dict[str, Any]:
    """The backend's floors and ceilings; the cassettes of another prompt have theirs in ``[llm.prompt.ID]``."""
    try:
        thresholds: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8")).get(backend, {})
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    by_prompt = thresholds.pop("prompt", {})
    if backend == "llm" and prompt_id != EVAL_PROMPT:
        thresholds = by_prompt.get(prompt_id, {})
        if not thresholds:
            raise InputError(path, f"no [llm.prompt.{prompt_id}] floors")
    return thresholds


def gate(results: list[CaseResult], figures: dict[str, Any], thresholds: dict[str, Any]) -> list[str]:
    """Check the floors and ceilings of a backend.

    A case added after the floors were measured goes in a set of its own (``[rules.set.NAME]`` with
    ``cases = [...]`` and floors measured on those cases): each set is gated on its own cases, and the
    backend's own floors on the remaining cases, so adding a harder case never lowers an existing floor.
    The figures that are not per case (remark oracle, layout invariance) are gated on the whole run.
    """
    sets: dict[str, Any] = thresholds.get("set", {})
    own = {k: v for k, v in thresholds.items() if k != "set"}
    in_sets = {case for spec in sets.values() for case in spec.get("cases", [])}
    rest = [r for r in results if r.case not in in_sets]
    whole_run = {k: v for k, v in figures.items() if k.startswith(("remarks_", "layout_", "verifier_"))}
    failures = check_thresholds({**overall(rest), **whole_run}, own) if rest else []
    for name, spec in sets.items():
        members = [r for r in results if r.case in spec.get("cases", [])]
        if not members:
            continue
        floors = {k: v for k, v in spec.items() if k != "cases"}
        failures += [f"[{name}] {f}" for f in check_thresholds(overall(members), floors)]
    return failures
