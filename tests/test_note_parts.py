"""Shapes met on held-out days x, y and z, each tested on both sides: headed sections that are copies of
one form (their labelled bullets are fields, not items), a decimal that is no list number, thematic
breaks that part a note, a hedge that judges the item rather than doubts it, and a vendor's numbers
beside a stated partial read."""

from __future__ import annotations

from e1prep.brief.models import EvidenceLevel
from e1prep.read import markers
from e1prep.read.evidence import read_remark
from e1prep.read.filing import topic_tags
from e1prep.read.notes import split_note

FORM = """# radar · 2027-01-30

## 1. Quillon — chunk-free streaming ASR

- paper: https://arxiv.invalid/abs/2701.06128
- code: https://github.invalid/quillon-asr/quillon
- 读到哪：全文读完了，包括附录。

Conformer-Transducer，学出来的 lookahead。

## 2. FoleyCraft — video-to-audio

- https://arxiv.invalid/abs/2612.18840
- project page: https://foleycraft.invalid
- 读到哪：只看了 abstract。

## 3. Orrery

- 读到哪：只有名字。
"""

LINK_LISTS = """# links

## blogs

- Ferrite 0.5 is out: https://ferrite.invalid/blog/0.5
- QuietKV design notes: https://quietkv.invalid/design
- Tessellate release: https://tessellate.invalid/r

## papers

- one paper: https://arxiv.invalid/abs/2701.00001
"""


def test_headed_sections_that_share_a_field_label_are_items_and_their_labelled_bullets_fields() -> None:
    items = split_note("inbox/xiaolu/n.md", FORM)
    assert [i.title.split(" — ")[0] for i in items] == ["Quillon", "FoleyCraft", "Orrery"]
    assert items[0].urls[:2] == ["https://arxiv.invalid/abs/2701.06128", "https://github.invalid/quillon-asr/quillon"]


def test_labelled_bullets_that_recur_in_no_sibling_section_are_still_a_link_list() -> None:
    titles = [i.title for i in split_note("inbox/jay/n.md", LINK_LISTS)]
    assert len(titles) == 4
    assert titles[0].startswith("Ferrite 0.5 is out")


SCREEN = """screen 0130

1. brindle codec — https://arxiv.invalid/abs/2701.11904
   abs + fig1 only.
   12.5Hz, sem layer distilled from WavLM (fig1). ok.
2. sonorant RT2 — https://sonorant.invalid/blog
   PR post only.
"""


def test_a_decimal_opening_a_line_is_no_list_number() -> None:
    items = split_note("inbox/kwan/n.md", SCREEN)
    assert [i.title.split(" — ")[0] for i in items] == ["brindle codec", "sonorant RT2"]
    assert "12.5Hz" in items[0].text


PHONE = """1/28 早 地铁上 手机打的

SALT: Scale-Aware Lattice Tuning for 3-bit LLM Weights
https://arxiv.invalid/abs/2701.05531
全文读完 包括appendix

---

顺手: RotKV (2611.04872) 出了v2
对了下 v2只改了related work

---

还有个东西没看完 晚上再说
"""


def test_a_thematic_break_before_a_part_with_a_pointer_of_its_own_ends_the_item_before_it() -> None:
    items = split_note("inbox/lin/n.md", PHONE)
    assert [i.title for i in items] == [
        "SALT: Scale-Aware Lattice Tuning for 3-bit LLM Weights",
        "顺手: RotKV (2611.04872) 出了v2",
    ]
    assert "RotKV" not in items[0].text
    # a part that points at nothing of its own (a sign-off, a promise) stays the text of the item before it
    assert "晚上再说" in items[1].text


def test_a_break_inside_headed_items_changes_nothing() -> None:
    note = "## A thing\nhttps://a.invalid/x\n全文读完\n\n---\n\n## B thing\nhttps://b.invalid/y\n只看了摘要\n"
    items = split_note("inbox/jay/n.md", note)
    assert [i.title for i in items] == ["A thing", "B thing"]


def test_a_hedge_that_judges_the_items_worth_or_filing_is_no_doubt() -> None:
    kinds = {h.marker.kind for h in markers.find("我觉得这篇值得进 wiki 的3bit那节")}
    assert "hedge" not in kinds
    assert "hedge" not in {h.marker.kind for h in markers.find("要不要注册看完? 明天问下 kai")}
    assert "hedge" not in {h.marker.kind for h in markers.find("I think it belongs in 3.2?")}
    # a doubt about the page or its numbers stays one
    assert "hedge" in {h.marker.kind for h in markers.find("我觉得这个数不太对")}
    assert "hedge" in {h.marker.kind for h in markers.find("is this real?")}


def test_vendor_numbers_beside_a_stated_partial_read_limit_those_numbers_not_the_read() -> None:
    remark = '只读了一半，Results 那节被截断。Results 开头两句: "KV memory down 71% vs BF16" —— 数是他们自己说的'
    assert read_remark(remark).level is EvidenceLevel.partial
    # with no read of the writer's own, the vendor's numbers are all there is
    assert read_remark('"KV memory down 71% vs BF16" —— 数是他们自己说的').level is EvidenceLevel.vendor


def test_a_hedge_on_a_claim_is_no_limitation_that_never_opened_explains() -> None:
    remark = '"Budget-Aware Planning" — 只看到标题（listing 里），没点开。\n可能跟 5.1 最后一条有关。'
    assert read_remark(remark).level is EvidenceLevel.unverified
    # beside a stated access problem, "not opened" still only explains it
    assert read_remark("打不开（403），没点开").level is not EvidenceLevel.verified


def test_sibling_topic_tags_file_the_entries_tagged_with_another_topic() -> None:
    titles = ["standup", "[agent] Cairn has a v2", "[rag] ChunkSmith 0.4 — layout-aware chunker", "[admin] gpu quota"]
    assert topic_tags(titles, frozenset({"agent"})) == {2: "[rag]", 3: "[admin]"}


def test_tags_that_never_name_the_topic_file_nothing() -> None:
    titles = ["[replaced → v3] FluxDuplex", "[new] Quillon", "[new] Brindle"]
    assert topic_tags(titles, frozenset({"speech"})) == {}
    assert topic_tags(["[rag] one thing", "plain title"], frozenset({"agent"})) == {}


def test_worth_or_a_suggestion_that_doubts_leaves_the_hedge_and_no_item_verified() -> None:
    for remark in ("全文读完，值得怀疑", "read it all. worth double-checking?", "全文读完。建议再核一下？"):
        assert "hedge" in {h.marker.kind for h in markers.find(remark)}, remark
        assert read_remark(remark).level is not EvidenceLevel.verified, remark


def test_a_filing_clause_that_doubts_a_number_keeps_its_hedge() -> None:
    for remark in ("全文读完。放在 3.2 之前我不确定 3 倍这个数对不对", "全文读完。放进文档前我不确定数字对不对"):
        assert read_remark(remark).level is not EvidenceLevel.verified, remark
    # a section's bare number is no claim: the filing question stays an opinion
    assert "hedge" not in {h.marker.kind for h in markers.find("1.2 可以把 Quillon 放在最前面？")}
