"""The eval runner's matching, scoring and thresholds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from e1prep.brief.golden import ExpectedContradiction, ExpectedObject, load_golden
from e1prep.brief.models import ContradictionKind
from e1prep.cli import main
from e1prep.evals.runner import Score, check_thresholds, matches, name_score, pair

SRC = "inbox/jay/2026-10-25T1335-blogs-discovery.md"
DEEPINFER = ExpectedObject(key="DeepInfer", aliases=["DeepSeek DeepInfer"], sources=[SRC])


def test_exact_key_matches_best() -> None:
    assert matches({"key": "DeepInfer", "sources": [SRC]}, DEEPINFER) == 3


def test_an_alias_matches() -> None:
    assert matches({"key": "deepseek deepinfer", "sources": [SRC]}, DEEPINFER) == 2


def test_a_source_local_name_matches_through_the_title() -> None:
    obj = {"key": "DeepSeek", "title": "DeepSeek DeepInfer", "sources": [SRC]}
    assert matches(obj, DEEPINFER) == 2


def test_a_right_key_with_a_wrong_source_does_not_match() -> None:
    assert matches({"key": "DeepInfer", "sources": ["inbox/other.md"]}, DEEPINFER) == 0


@pytest.mark.parametrize("near_miss", ["DeepSeek", "Deep", "DeepInfra", "DSpark"])
def test_a_near_miss_key_does_not_match(near_miss: str) -> None:
    assert matches({"key": near_miss, "sources": [SRC]}, DEEPINFER) == 0


def test_contradictions_must_agree_on_kind() -> None:
    expected = ExpectedContradiction(key="Lore-Hex", kind=ContradictionKind.count_mismatch, sources=[SRC])
    assert matches({"key": "Lore-Hex", "kind": "count_mismatch", "sources": [SRC]}, expected) == 3
    assert matches({"key": "Lore-Hex", "kind": "bilingual_mismatch", "sources": [SRC]}, expected) == 0


def test_all_words_of_a_multiword_key_in_a_longer_title_match_weakly() -> None:
    expected = ExpectedObject(key="DGX Spark disaggregated 基准", sources=[SRC])
    assert name_score(["DGX Spark 上 disaggregated inference 基准"], expected) == 1
    assert name_score(["DGX Spark 上 vLLM 单节点"], expected) == 0


def test_pairing_is_one_to_one_and_prefers_exact_keys() -> None:
    generic = ExpectedObject(key="DeepInfer 源码级拆解", sources=[SRC])
    objects = [{"key": "DeepInfer 源码级拆解", "sources": [SRC]}, {"key": "DeepInfer", "sources": [SRC]}]
    assert sorted(pair(objects, [DEEPINFER, generic])) == [(0, 1), (1, 0)]
    assert pair(objects[:1], [DEEPINFER, generic]) == [(0, 1)]


def test_score_arithmetic() -> None:
    s = Score(tp=2, fp=1, fn=1)
    assert (round(s.precision, 3), round(s.recall, 3), round(s.f1, 3)) == (0.667, 0.667, 0.667)
    assert Score().f1 == 1.0  # nothing expected and nothing produced is a perfect score


def test_thresholds_name_the_failing_figure() -> None:
    figures = {"increments_f1": 0.5, "not_quotable_as_findings_share": 0.1}
    failures = check_thresholds(figures, {"increments_f1_min": 0.6, "not_quotable_as_findings_share_max": 0.0})
    assert len(failures) == 2
    assert "increments_f1" in failures[0] and "below" in failures[0]
    assert "not_quotable_as_findings_share" in failures[1] and "above" in failures[1]
    assert check_thresholds(figures, {"increments_f1_min": 0.5}) == []


@pytest.mark.parametrize("case", sorted(p.parent.name for p in (ROOT / "evals" / "golden").glob("*/expected.json")))
def test_every_golden_case_loads_and_names_only_real_files(case: str) -> None:
    folder = ROOT / "evals" / "golden" / case
    golden = load_golden(folder / "expected.json")
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    [item] = manifest["items"]
    assert golden.materials == len(item["materials"])
    in_scope = set(item["materials"]) | set(item.get("spot_check", []))
    for group in (golden.increments, golden.refreshes, golden.contradictions, golden.distractors):
        for obj in group:
            assert set(obj.sources) <= in_scope, (case, obj.key)
    for n in golden.not_quotable:
        assert n.text in (folder / n.source).read_text(encoding="utf-8")


def test_eval_cli_writes_a_report_and_passes_its_thresholds(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    report = tmp_path / "r.json"
    assert main(["eval", "--backend", "rules", "--report", str(report)]) == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["overall"]["sources_coverage"] == 1.0
    assert data["overall"]["not_quotable_as_findings_share"] == 0.0
    assert "overall" in capsys.readouterr().out


def test_eval_cli_fails_naming_a_threshold(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    strict = tmp_path / "t.toml"
    strict.write_text("[rules]\nincrements_f1_min = 1.01\n", encoding="utf-8")
    assert main(["eval", "--backend", "rules", "--thresholds", str(strict)]) == 1
    assert "increments_f1" in capsys.readouterr().err


def test_eval_cli_unknown_case_is_exit_2(monkeypatch, capsys) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["eval", "--case", "no-such-case"]) == 2
    assert "no-such-case" in capsys.readouterr().err


def test_a_set_of_cases_is_gated_on_its_own_floors(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    split = tmp_path / "t.toml"
    split.write_text(
        "[rules]\nincrements_f1_min = 0.5\n"
        '[rules.set.hard]\ncases = ["2026-11-11-otherhand-b"]\nincrements_f1_min = 1.01\n',
        encoding="utf-8",
    )
    assert main(["eval", "--backend", "rules", "--thresholds", str(split)]) == 1
    err = capsys.readouterr().err
    assert "[hard] increments_f1" in err
    assert "rules: increments_f1" not in err  # the other cases pass their own floor


def test_eval_warnings_name_their_case_and_are_said_once_per_case() -> None:
    """Issue 25, finding 6: not 88 anonymous card warnings, one line per case and problem."""
    proc = subprocess.run(
        [sys.executable, "-m", "e1prep", "eval", "--backend", "rules"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    warnings = [ln for ln in proc.stderr.splitlines() if ln.startswith("e1prep: WARNING: ")]
    assert warnings, "the golden cases hold cards that warn"
    assert len(warnings) == len(set(warnings)), "a repeated warning is said once per case"
    cases = {p.name for p in (ROOT / "evals" / "golden").iterdir() if p.is_dir()}
    named = [ln.removeprefix("e1prep: WARNING: case ").split(":", 1)[0] for ln in warnings]
    assert set(named) <= cases, warnings  # every warning names a golden case (not a layout variant)
    assert (
        "e1prep: WARNING: case 2026-11-03-unusual-structure: organized/repo_cards/4793-pardus-ai-lanternd.md: "
        "card has no front matter; metadata read from '- key: value' bullets"
    ) in warnings


def test_case_warnings_name_the_case_once_and_keep_layout_variants_quiet(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from e1prep.evals.casewarnings import case_warnings, eval_run

    log = logging.getLogger("e1prep.kb.loading")
    with caplog.at_level(logging.WARNING), eval_run():
        for _ in range(3):
            with case_warnings("case-a"):
                log.warning("%s: card has no front matter", "x.md")
        with case_warnings("case-b"):
            log.warning("%s: card has no front matter", "x.md")
        with case_warnings("case-a", "cards-table"):
            log.warning("%s: read from a field table", "x.md")  # a layout variant: shown with -v only
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        "case case-a: x.md: card has no front matter",
        "case case-b: x.md: card has no front matter",
    ]
