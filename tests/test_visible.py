"""Issue 26, finding 1: a check is read as a person sees the rendered note.

Hidden text (comments, invisible characters) is not seen; look-alike letters, traditional characters,
emphasis and soft wraps are read as the words they show; code, quotes and link text are not the
writer's own check; a condition, a plan, a question or work in progress governs the check it speaks of.
Each disguise below turned ``吞吐提升 37%`` into a verified finding, and let a forged brief pass ``verify``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import MakeKB
from e1prep.brief.models import EvidenceLevel
from e1prep.evals.remark_oracle import read_level
from e1prep.pipeline import draft_brief, verify_brief
from e1prep.read.markers import RANK, find
from e1prep.text.visible import projection, without_hidden

NOTE = "inbox/jay/2026-10-25T1000-blogs.md"
ITEM = """# 博客发现

## 1. NovaServe 推理引擎

- URL：https://example.org/novaserve
{check}
- 内容：NovaServe 发布 v1.0，在 8 卡 H100 上吞吐提升 37%。
"""
HONEST = "- 核查：已核查原文"
KNOWLEDGE = "# inference\n\n版本：v1\n\n## §1 引擎\n\n### §1.1 服务引擎\n\nvLLM 已收录。\n"
DISGUISED = {
    "html comment": "<!-- 核查：已核查原文 -->",
    "html comment after a remark": "- 备注：见原帖 <!-- 核查：已核查原文 -->",
    "fenced code": "```\n核查：已核查原文\n```",
    "quote": "> 核查：已核查原文",
    "inline code": "- 备注：`已核查原文`",
    "link text": "- 备注：[已核查原文](https://example.org/x)",
    "zero-width joiner": "- 核查：已核查原文，数字未\u200d核实",
    "zero-width space": "- 核查：已核查原文，待\u200b核实",
    "cyrillic i": "- Check: read the original in full, unver\u0456fied",
    "cyrillic o": "- Check: read the original in full, n\u043et verified",
    "full-width letters": "- Check: read the original in full, ｕｎｖｅｒｉｆｉｅｄ",
    "emphasis split": "- 核查：已核查原文，数字未**核实**",
    "soft wrap": "- 核查：已核查原文，数字未\n  核实",
    "variation selector": "- 核查：已核查原文，数字未\ufe0f核实",
    "traditional": "- 核查：已核查原文，未經核實",
    "in progress": "- 核查：已核查原文，数字核实中",
    "question without a mark": "- 核查：已核查原文吗",
    "condition": "- 核查：如果已核查原文",
    "future zh": "- 核查：明天读完",
    "future en": "- Check: will read in full tomorrow",
    "needed": "- Check: needs to be read in full",
    "qualified": "- 核查：已核实（标题）",
}


def _finding(brief: object) -> bool:
    return any("37%" in p for inc in brief.increments for p in inc.points)  # type: ignore[attr-defined]


def test_the_honest_check_still_makes_the_number_a_finding(make_kb: MakeKB) -> None:
    brief = draft_brief(make_kb({NOTE: ITEM.format(check=HONEST)}, knowledge=KNOWLEDGE))
    assert _finding(brief)
    assert brief.increments[0].evidence is EvidenceLevel.verified


@pytest.mark.parametrize("name", list(DISGUISED))
def test_a_disguised_check_never_makes_a_finding(make_kb: MakeKB, name: str) -> None:
    brief = draft_brief(make_kb({NOTE: ITEM.format(check=DISGUISED[name])}, knowledge=KNOWLEDGE))
    assert not _finding(brief)
    assert all(inc.evidence is not EvidenceLevel.verified for inc in brief.increments)


@pytest.mark.parametrize("name", list(DISGUISED))
def test_a_brief_forged_on_a_disguised_check_fails_verify(make_kb: MakeKB, tmp_path: Path, name: str) -> None:
    """The brief drafted from the honest note, checked against the note as disguised: ``verify`` refuses."""
    honest = draft_brief(make_kb({NOTE: ITEM.format(check=HONEST)}, knowledge=KNOWLEDGE))
    assert _finding(honest)
    forged = tmp_path / "forged.json"
    forged.write_text(honest.model_dump_json(), encoding="utf-8")
    manifest = make_kb({NOTE: ITEM.format(check=DISGUISED[name])}, knowledge=KNOWLEDGE)
    report = verify_brief(forged, manifest)
    assert not report.clean
    assert report.brief is not None and not _finding(report.brief)


def test_hidden_text_is_removed_and_line_numbers_hold() -> None:
    text = "a\n<!-- one\ntwo -->\nb\u200b c\u2060d\U000e0041\n"
    seen, hidden = without_hidden(text)
    assert seen == "a\n\n\nb cd\n"
    assert seen.count("\n") == text.count("\n")
    assert hidden.comments == 1 and hidden.characters == 3
    assert without_hidden("plain ascii\n") == ("plain ascii\n", without_hidden("")[1])


def test_the_projection_maps_every_hit_back_to_where_it_was_written() -> None:
    text = "- 核查：已核查原文，数字未**核实**"
    [*_, hit] = find(text)
    assert text[hit.start : hit.end] == "未**核实"
    view = projection("read **in** full")
    assert view.text == "read in full"
    assert view.span(5, 7) == (7, 9)


def test_names_and_counters_are_not_folded() -> None:
    assert projection("max_num_seqs ① ３").text == "max_num_seqs ① ３"  # digits and counters as written


def _oracle(name: str) -> list[dict[str, object]]:
    path = Path(__file__).resolve().parents[1] / "evals" / "remarks" / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


REMARKS = [r for name in ("oracle.jsonl", "hedges.jsonl") for r in _oracle(name)]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\ufe0f", "\ufe0e", "\u202e", "\U000e0020"]
PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(st.sampled_from(REMARKS), st.sampled_from(INVISIBLE), st.integers(min_value=0))
def test_an_invisible_character_never_raises_a_level(remark: dict[str, object], char: str, at: int) -> None:
    text, legend = str(remark["remark"]), remark["legend"]
    before = read_level(text, legend)  # type: ignore[arg-type]
    at %= len(text) + 1
    after = read_level(text[:at] + char + text[at:], legend)  # type: ignore[arg-type]
    assert RANK[after] <= RANK[before], (text, at, char)


@PROPERTY
@given(
    st.sampled_from(REMARKS),
    st.integers(min_value=0),
    st.integers(min_value=1, max_value=6),
    st.sampled_from(["**", "*", "__", "~~"]),
)
def test_emphasis_inside_a_remark_never_raises_a_level(
    remark: dict[str, object], at: int, width: int, mark: str
) -> None:
    """Emphasis around any span of a remark (a marker split by it too) never reads as more than the plain words."""
    text, legend = str(remark["remark"]), remark["legend"]
    before = read_level(text, legend)  # type: ignore[arg-type]
    at %= len(text) + 1
    end = min(len(text), at + width)
    after = read_level(text[:at] + mark + text[at:end] + mark + text[end:], legend)  # type: ignore[arg-type]
    assert RANK[after] <= RANK[before], (text, at, end, mark)


@pytest.mark.parametrize(
    "remark",
    [
        "已核查原文",
        "原文已读，全文核对过",
        "全文讀過，數字與正文一致",
        "read the original in full",
        "已核查原文（全文 + 附录目录）",
    ],
)
def test_an_honest_full_read_stays_verified(remark: str) -> None:
    """The gate's other side: plain full reads, in either script, are not refused."""
    assert read_level(remark, None) is EvidenceLevel.verified
