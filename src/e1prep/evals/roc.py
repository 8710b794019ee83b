"""The verifier measured on both sides: honest briefs it must not refuse, forgeries it must catch.

``evals/verifier/honest/<case>.brief.json`` are hand briefs transcribed into brief JSON by another hand;
``<case>.repairs.json`` beside each lists the repairs the verifier is expected to make there, each with
why it is right (written from the seed and the material, never from the verifier's output). Every
other repair, and any rejection, is a false refusal.

``evals/verifier/forgeries.jsonl`` are honest briefs edited to lie (RFC 6902 operations on the honest
JSON), each with the rule a correct verifier reports. A forgery is caught when its findings, compared
with the honest brief's, hold a new finding of that rule. An ``equivalent`` line is an honest rewrite
(``12 %`` for ``12%``): it must bring no new finding at all.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..brief.models import Brief, Violation
from ..errors import InputError
from ..kb.loading import load_kb
from ..pipeline import living_document
from ..read.numbers import normalize
from ..verify.verifier import Verifier
from .casewarnings import case_warnings


@dataclass
class HonestCase:
    case: str
    objects: int
    rejected: list[str]
    repairs: list[tuple[str, str]]
    unexpected: list[tuple[str, str]]
    stale: list[tuple[str, str]]


@dataclass
class Forgery:
    id: str
    case: str
    cls: str
    expect: str | None
    caught: bool
    new_rules: list[str]


@dataclass
class RocReport:
    honest: list[HonestCase] = field(default_factory=list)
    forgeries: list[Forgery] = field(default_factory=list)

    @property
    def honest_objects(self) -> int:
        return sum(h.objects for h in self.honest)

    @property
    def honest_rejected(self) -> int:
        return sum(len(h.rejected) for h in self.honest)

    @property
    def honest_unexpected(self) -> int:
        return sum(len(h.unexpected) + len(h.stale) for h in self.honest)

    def by_rule(self) -> dict[str, tuple[int, int]]:
        """Per expected rule: (caught, forged)."""
        out: dict[str, list[int]] = {}
        for f in self.forgeries:
            if f.expect is None:
                continue
            slot = out.setdefault(f.expect, [0, 0])
            slot[0] += f.caught
            slot[1] += 1
        return {rule: (c, n) for rule, (c, n) in sorted(out.items())}

    def figures(self) -> dict[str, float]:
        forged = [f for f in self.forgeries if f.expect is not None]
        equivalent = [f for f in self.forgeries if f.expect is None]
        return {
            "honest_objects": self.honest_objects,
            "honest_rejected": self.honest_rejected,
            "honest_false_reject_rate": self.honest_rejected / max(self.honest_objects, 1),
            "honest_unexpected_repairs": self.honest_unexpected,
            "forgeries": len(forged),
            "forgeries_caught": sum(f.caught for f in forged),
            "forgeries_catch_rate": sum(f.caught for f in forged) / max(len(forged), 1),
            "equivalents": len(equivalent),
            "equivalents_passing": sum(f.caught for f in equivalent) / max(len(equivalent), 1),
        }

    def render(self) -> str:
        fig = self.figures()
        lines = [
            "verifier, honest side (evals/verifier/honest):",
            f"  objects {fig['honest_objects']:.0f}, rejected {fig['honest_rejected']:.0f} "
            f"(false-reject rate {fig['honest_false_reject_rate']:.2f}), repairs not in the expectations "
            f"{fig['honest_unexpected_repairs']:.0f}",
        ]
        for h in self.honest:
            for what in h.rejected:
                lines.append(f"  {h.case}: rejected {what}")
            for path, rule in h.unexpected:
                lines.append(f"  {h.case}: unexpected [{rule}] {path}")
            for path, rule in h.stale:
                lines.append(f"  {h.case}: expected but not made [{rule}] {path}")
        lines.append("verifier, forgery side (evals/verifier/forgeries.jsonl):")
        lines.append(
            f"  caught {fig['forgeries_caught']:.0f}/{fig['forgeries']:.0f} ({fig['forgeries_catch_rate']:.0%}); "
            f"equivalent rewrites passing {fig['equivalents_passing']:.0%} of {fig['equivalents']:.0f}"
        )
        lines += [f"  {rule:26} {c}/{n}" for rule, (c, n) in self.by_rule().items()]
        missed = [f for f in self.forgeries if not f.caught]
        lines += [
            f"  missed {f.id} ({f.case}, {f.cls}): expected {f.expect or 'no new finding'}, new {f.new_rules or '-'}"
            for f in missed
        ]
        return "\n".join(lines)


def measure(folder: Path, golden: Path, catalogue: Path | None = None) -> RocReport:
    """Verify every honest brief and every forgery of ``folder`` (``catalogue``: another file of them)
    against its case in ``golden``."""
    report = RocReport()
    verifiers: dict[str, Verifier] = {}
    honest_dir = folder / "honest"
    bases: dict[str, tuple[dict[str, Any], Counter[tuple[str, str]]]] = {}
    for path in sorted(honest_dir.glob("*.brief.json")):
        case = path.name.removesuffix(".brief.json")
        verifier = verifiers[case] = _verifier(golden / case)
        data = json.loads(path.read_text(encoding="utf-8"))
        settled = verifier.settle(Brief.model_validate(data))
        findings = _findings(settled.violations)
        bases[case] = (data, findings)
        report.honest.append(_honest(case, data, settled, honest_dir / f"{case}.repairs.json"))
    catalogue = catalogue or folder / "forgeries.jsonl"
    for n, line in enumerate(catalogue.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row["case"] not in bases:
            raise InputError(catalogue, f"line {n}: no honest brief for case {row['case']!r}")
        data, base = bases[row["case"]]
        forged = apply_ops(data, row["ops"])
        found = _findings(verifiers[row["case"]].verify(Brief.model_validate(forged)).violations)
        new = sorted({rule for rule, _ in found - base})
        expect = row.get("expect")
        caught = (expect in new) if expect else not new
        report.forgeries.append(Forgery(row["id"], row["case"], row.get("class", ""), expect, caught, new))
    return report


def _findings(violations: list[Violation]) -> Counter[tuple[str, str]]:
    """Findings by rule and text as normalised (a rewrite that only respaces a number is the same)."""
    return Counter((v.rule, normalize(v.text)) for v in violations)


def _verifier(case: Path) -> Verifier:
    with case_warnings(case.name):
        kb = load_kb(case / "manifest.json")
    return Verifier(kb, living_document(kb))


def _honest(case: str, data: dict[str, Any], settled: Any, expectations: Path) -> HonestCase:
    objects = sum(len(data.get(name, [])) for name in ("increments", "refreshes", "contradictions", "anchors"))
    made = [(r.path, r.rule) for r in settled.repairs]
    # what belongs to no object (the judgement, actions, excluded items, sources) is checked, not repaired:
    # every such finding must be justified too
    owners = ("increments[", "refreshes[", "contradictions[", "anchors[")
    made += [(v.path, v.rule) for v in settled.violations if not v.path.startswith(owners)]
    expected = []
    if expectations.exists():
        expected = [(e["path"], e["rule"]) for e in json.loads(expectations.read_text(encoding="utf-8"))]
    rejected = [f"{r.list_name} {r.key!r}" for r in settled.rejected]
    unexpected = [m for m in made if m not in expected]
    stale = [e for e in expected if e not in made]
    return HonestCase(case, objects, rejected, made, unexpected, stale)


def apply_ops(data: dict[str, Any], ops: list[dict[str, Any]]) -> dict[str, Any]:
    """RFC 6902 ``add``, ``replace`` and ``remove`` on a copy of ``data``."""
    out = copy.deepcopy(data)
    for op in ops:
        *parents, last = [p.replace("~1", "/").replace("~0", "~") for p in op["path"].split("/")[1:]]
        target: Any = out
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if isinstance(target, list):
            if op["op"] == "add":
                target.insert(len(target) if last == "-" else int(last), op["value"])
            elif op["op"] == "replace":
                target[int(last)] = op["value"]
            else:
                del target[int(last)]
        elif op["op"] == "remove":
            del target[last]
        else:
            target[last] = op["value"]
    return out
