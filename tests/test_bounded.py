"""A brief bounded by what matters, not by the input: bulk is grouped, the Markdown stays small."""

from __future__ import annotations

import json

from conftest import MakeKB, repo_card
from e1prep.brief.models import ContradictionKind
from e1prep.brief.render import MAX_MARKDOWN, render_markdown
from e1prep.check.grouping import GROUP_MIN
from e1prep.pipeline import draft_brief

NOTE = "inbox/jay/2026-10-25-rss-archive.md"
OFF_TOPIC = """## {n}. 园艺周刊第 {n} 期：阳台番茄种植

- URL：https://garden.example.org/feed/{n}
- 核查：已核查原文（全文读完）
- 数据：肥料增产 {m}%，每盆 {m} 颗（厂商自述）。

"""
ON_TOPIC = """## {n}. Turbine{n} 推理引擎发布

- URL：https://github.com/acme/turbine{n}
- 核查：已核查原文（全文读完）
- 要点：基于 vLLM 0.11 的参考引擎，兼容 acme/widget 仓库计数。

"""
LEAD = """## {n}. Widget{n} 推理引擎传闻

- URL：https://blog.example.org/widget{n}
- 核查：仅搜索摘要，无正文
- 要点：据称 vLLM 0.11 引擎吞吐提升 {m}%。

"""


def _note(off_topic: int, on_topic: int = 0, leads: int = 0) -> str:
    parts = ["# 订阅源归档\n\n"]
    n = 0
    for template, count in ((OFF_TOPIC, off_topic), (ON_TOPIC, on_topic), (LEAD, leads)):
        for _ in range(count):
            n += 1
            parts.append(template.format(n=n, m=n % 89 + 2))
    return "".join(parts)


def test_an_off_topic_dump_is_one_grouped_line_and_registers_nothing(make_kb: MakeKB) -> None:
    items = 1200
    manifest = make_kb({NOTE: _note(items)})
    brief = draft_brief(manifest)
    dump = [e for e in brief.excluded if NOTE in e.sources]
    assert len(dump) == 1
    assert len(dump[0].members) == items
    assert "非本主题" in dump[0].reason and str(items) in dump[0].reason
    # excluded as off-topic: no not_quotable (nor access_blocked) registration for its items
    assert not [c for c in brief.contradictions if NOTE in c.sources]
    md = render_markdown(brief)
    assert len([ln for ln in md.splitlines() if NOTE in ln and "非本主题" in ln]) == 1
    assert len(md.encode()) < 16 * 1024


def test_repeated_registrations_of_one_kind_in_one_material_are_grouped(make_kb: MakeKB) -> None:
    leads = 60
    manifest = make_kb({NOTE: _note(0, leads=leads)})
    brief = draft_brief(manifest)
    mine = [c for c in brief.contradictions if NOTE in c.sources]
    kinds = [c.kind for c in mine]
    assert kinds.count(ContradictionKind.not_quotable) == 1
    group = next(c for c in mine if c.kind is ContradictionKind.not_quotable)
    assert len(group.members) == leads
    assert f"{leads} 条" in group.claim
    excluded = [e for e in brief.excluded if NOTE in e.sources]
    assert len(excluded) == 1 and len(excluded[0].members) == leads


def test_a_few_registrations_stay_one_line_each(make_kb: MakeKB) -> None:
    manifest = make_kb({NOTE: _note(0, leads=GROUP_MIN - 1)})
    brief = draft_brief(manifest)
    mine = [c for c in brief.contradictions if c.kind is ContradictionKind.not_quotable]
    assert len(mine) == GROUP_MIN - 1
    assert not any(c.members for c in mine)


def test_the_markdown_brief_stays_under_its_bound_for_a_large_batch(make_kb: MakeKB, tmp_path) -> None:
    files: dict[str, str | bytes] = {NOTE: _note(800, on_topic=300, leads=400)}
    for n in range(40):
        files[f"organized/repo_cards/{n}-acme-tool{n}.md"] = repo_card(f"acme/tool{n}", stars=100 + n, weekly=n)
    manifest = make_kb(files)
    brief = draft_brief(manifest)
    assert len(brief.increments) > 100  # a batch that would render far beyond the bound unbounded
    for lang in ("zh", "en"):
        md = render_markdown(brief, lang=lang)
        assert len(md.encode()) <= MAX_MARKDOWN, (lang, len(md.encode()))
        assert [ln[:5] for ln in md.splitlines() if ln.startswith("## ")][:8] == [f"## {n}." for n in range(8)]
    md = render_markdown(brief)
    assert "另" in md and "JSON" in md  # what is not shown is counted, and where it is
    # the JSON keeps every item, grouped, and stays proportional to the input
    data = json.loads(brief.model_dump_json())
    from_note = [e for e in data["excluded"] if NOTE in e["sources"]]
    assert len(from_note) == 2  # one line for the off-topic items, one for the leads
    assert sum(len(e["members"]) or 1 for e in from_note) == 800 + 400
    size_in = sum(len(v.encode() if isinstance(v, str) else v) for v in files.values())
    assert len(brief.model_dump_json().encode()) <= 3 * size_in


def test_a_grouped_brief_validates_against_the_published_schema(make_kb: MakeKB) -> None:
    import jsonschema

    from conftest import ROOT

    manifest = make_kb({NOTE: _note(30, on_topic=2, leads=30)})
    data = json.loads(draft_brief(manifest).model_dump_json())
    assert any(e["members"] for e in data["excluded"]) and any(c["members"] for c in data["contradictions"])
    schema = json.loads((ROOT / "schemas" / "brief.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)


def test_a_grouped_brief_passes_the_verifier_and_a_tampered_group_does_not(make_kb: MakeKB) -> None:
    from e1prep.kb.loading import load_kb
    from e1prep.pipeline import living_document
    from e1prep.verify.verifier import Verifier

    manifest = make_kb({NOTE: _note(30, on_topic=2, leads=30)})
    brief = draft_brief(manifest)
    kb = load_kb(manifest)
    verifier = Verifier(kb, living_document(kb))
    assert verifier.verify(brief).clean, verifier.verify(brief).render()
    tampered = brief.model_copy(deep=True)
    group = next(c for c in tampered.contradictions if c.members)
    group.members.append("flake8_2019")
    rules = {v.rule for v in verifier.verify(tampered).violations}
    assert "key-ungrounded" in rules  # an invented member
    assert "quantity-uncited" in rules  # the claim's count no longer matches the members


def test_a_group_whose_members_hold_numerals_passes_the_verifier_and_only_those(make_kb: MakeKB) -> None:
    """A grouped line names a few members as examples (``园艺周刊 1、园艺周刊 2``): numerals inside a
    member's name are not quantities. A numeral anywhere else in the claim still needs a citation."""
    from e1prep.pipeline import verify_brief

    dump = "# RSS\n\n" + "".join(
        f"- [园艺周刊 {n}：阳台番茄](https://garden.example.org/feed/{n}) —— 读者来信。\n" for n in range(1, 40)
    )
    manifest = make_kb({NOTE: dump})
    brief = draft_brief(manifest)
    group = next(c for c in brief.contradictions if c.members)
    assert "园艺周刊 1" in group.claim  # the examples carry numerals
    assert verify_brief(brief, manifest).clean, verify_brief(brief, manifest).render()
    tampered = brief.model_copy(deep=True)
    bad = next(c for c in tampered.contradictions if c.members)
    bad.claim += "吞吐提升 37%。"
    assert "quantity-uncited" in {v.rule for v in verify_brief(tampered, manifest).violations}


def test_a_group_is_never_merged_into_a_registration_of_another_material(make_kb: MakeKB) -> None:
    """Registrations are grouped per material before they are verified; a registration of the same
    name in another material stays its own line, and the group keeps all its members."""
    other = "inbox/tom/2026-10-25-one-lead.md"
    files = {other: "# 一条\n\n" + LEAD.format(n=1, m=3), NOTE: _note(0, leads=GROUP_MIN + 2)}
    brief = draft_brief(make_kb(files, materials=[other, NOTE]))
    quotable = [c for c in brief.contradictions if c.kind is ContradictionKind.not_quotable]
    group = next(c for c in quotable if c.members)
    assert group.sources == [NOTE] and len(group.members) == GROUP_MIN + 2
    assert f"{GROUP_MIN + 2} 条" in group.claim
    assert any(c.sources == [other] and not c.members for c in quotable)
