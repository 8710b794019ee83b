"""Shapes met on held-out days a2, b2 and c2, each tested on both sides: headings that group items by how far
they were read, paragraphs opened by one field label, a document whose section numbers carry a letter
prefix, a negation that files an item away, a card named beside a read, parts that could not be read, named
sections read, URLs run into CJK text, a ranking of worth after a full read, a status table under a list,
and paragraphs brought in by an arXiv id."""

from __future__ import annotations

import pytest

from e1prep.brief.models import EvidenceLevel
from e1prep.kb.knowledge import parse_knowledge
from e1prep.produce.routing import routed_id
from e1prep.read import markers
from e1prep.read.evidence import read_remark
from e1prep.read.filing import filed_elsewhere
from e1prep.read.notes import item_date, split_note

GROUPED = """# safety radar · 0204

今天量不大，按读到哪一步分三堆。

## 读完的

1. **Relay Poisoning: Injection Survives Summarization**
   arXiv:2701.18342 · https://arxiv.invalid/abs/2701.18342
   正文 + appendix 全读完了，已核查原文。

## 只看了摘要的

- **Quiet Effort**（arXiv:2701.09127）—— abstract 说 linear probe 能读出 sandbagging，我只看了 abstract。
- **RerankArena** —— 一个 reranker 的 leaderboard，这个是 rag 的。

## 没打开的

- 《Hidden in the Scratchpad》—— 群里有人转了个标题，没链接。
"""

NOT_GROUPED = """# radar

## Ferrite 0.5

https://ferrite.invalid/blog/0.5
全文读完。

## 总结

- **结论**：今天没什么大事。
- **明天**：再看 Ferrite 的 benchmark。
"""


def test_headings_beside_a_group_heading_are_groups_and_their_entries_items() -> None:
    items = split_note("inbox/lin/n.md", GROUPED)
    assert [i.title.split("（")[0].split("—")[0].split(":")[0].strip() for i in items] == [
        "Relay Poisoning",
        "Quiet Effort",
        "RerankArena",
        "《Hidden in the Scratchpad》",
    ]
    assert items[1].group.endswith("只看了摘要的")


def test_a_heading_with_no_group_beside_it_keeps_its_bullets_as_text() -> None:
    # Ferrite's heading is an item of its own (its URL), not a group: 总结's bullets are no items
    titles = [i.title for i in split_note("inbox/lin/n.md", NOT_GROUPED)]
    assert titles == ["Ferrite 0.5"]


QUESTIONS = """notes to self — Thu 4 Feb

Q: The sandbagging-probe paper everyone is excited about — does it hold up?
Found: "Quiet Effort: Linear Probes Detect Sandbagging", arXiv:2701.09127.
How far I got: abstract, intro, §2.

Q: Refusal Drift showed up again in the feed as "v2" — anything new?
Found: same paper we already have (arXiv:2611.20457), main table unchanged.

Q: What is the "Kestrel red-team report" that keeps getting cited?
Found: nothing, only a screenshot of a slide.
"""

INTERVIEW = """读论文记录 · priya

Q: 今天主要读哪篇？
A: RotorQuant-KV，arXiv:2612.14207（https://arxiv.invalid/abs/2612.14207）。

Q: 读到哪儿了？
A: 第 1 到第 5 节逐字读完。

Q: 代码呢？
A: 论文说 will be released，没给链接。
"""


def test_paragraphs_opened_by_one_label_that_name_their_subjects_are_items() -> None:
    items = split_note("inbox/mara/n.md", QUESTIONS)
    assert len(items) == 3
    assert items[1].title.startswith("Refusal Drift")
    assert "arXiv:2611.20457" in items[1].text and "2701.09127" not in items[1].text


def test_an_interview_about_one_paper_is_not_split_at_its_questions() -> None:
    # its questions name nothing (``读到哪儿了？``, ``代码呢？``): they ask about the one paper
    items = split_note("inbox/priya/n.md", INTERVIEW)
    assert len(items) == 1


PREFIXED = """# safety 活文档

## S1 越狱与拒答

### S1.1 攻击谱系

多轮攻击。

## S3 防护层

### S3.3 沙箱与工具权限

工具权限。

## 附录 A
"""

ONE_PREFIXED = """# 活文档

## §1 推理引擎

### §1.1 vLLM

## H100 租赁价格

## Q4 计划
"""


def test_section_numbers_with_a_prefix_the_sibling_headings_share_are_sections() -> None:
    doc = parse_knowledge("organized/knowledge/safety.md", PREFIXED)
    assert [s.id for s in doc.sections] == ["§S1", "§S1.1", "§S3", "§S3.3"]
    assert routed_id("§S3.3（沙箱与工具权限）") == "§S3.3"


def test_a_lone_heading_that_opens_with_letters_and_digits_numbers_no_section() -> None:
    doc = parse_knowledge("organized/knowledge/inference.md", ONE_PREFIXED)
    assert [s.id for s in doc.sections] == ["§1", "§1.1"]


def test_a_negation_that_ends_its_clause_with_this_topic_files_the_item_away() -> None:
    this = frozenset({"robotics"})
    assert filed_elsewhere("a GUI-agent benchmark. Not robotics. Parking it.", this) == "Not robotics"
    assert filed_elsewhere("我觉得不是 robotics。", this) == "不是 robotics"
    # the other side: the name goes on, or the negation is no statement about the item
    assert filed_elsewhere("cheap arms, not robotics-grade", this) is None
    assert filed_elsewhere("this is not robotics related work", this) is None


def test_a_url_ends_where_cjk_text_runs_on_after_it() -> None:
    assert markers.strip_urls("见 https://a.invalid/x?y=1，没读").endswith("，没读")


def test_a_count_of_labels_is_no_relayed_mark() -> None:
    assert not any(h.marker.kind == "relay" for h in markers.find("每对语言上人工标了 2,000 篇做评估"))
    assert any(h.marker.kind == "relay" for h in markers.find("上游标了待核"))


STATUS_TABLE = """Engineering screen — oskar

1. EgoLatent (arXiv:2701.11385)
   https://arxiv.invalid/abs/2701.11385
   Read the whole thing, appendix included.

2. Clickstorm (arXiv:2701.04471) — a GUI-agent benchmark. Not robotics.

Status
| # | item       | how far I read        | goes to  |
|---|------------|-----------------------|----------|
| 1 | EgoLatent  | full paper + appendix | robotics |
| 2 | Clickstorm | abstract              | agent    |
"""


def test_a_status_table_under_a_list_is_not_the_last_items_text() -> None:
    items = split_note("inbox/oskar/n.md", STATUS_TABLE)
    assert [i.title.split(" (")[0] for i in items] == ["EgoLatent", "Clickstorm"]
    assert "full paper" not in items[1].text
    assert items[1].reading.read_in_full is False


PARAGRAPHS = """# datasets 雷达 · 2/6 下午（wenhui）

今天主要看 Brackish-Web，论文 arXiv:2701.18842（https://arxiv.invalid/abs/2701.18842），正文从头读到尾。

OpenLoom-CC v2（arXiv:2611.05528）顺带复查了一下，规模和文档里记的一致。

还有一点没法下结论：论文第 6 节说语料对常见评测集做过去污染，用的是 13-gram 重合，{tail}
"""


def test_paragraphs_under_a_title_are_items_when_a_url_or_an_opening_arxiv_id_brings_them_in() -> None:
    tail = "这个正好是我们 3.2 说的那种只能证明没有字面重合的做法，引了 QuaRot（arXiv:2404.00456）。"
    items = split_note("inbox/wenhui/n.md", PARAGRAPHS.format(tail=tail))
    assert len(items) == 2
    assert "OpenLoom-CC v2" in items[1].text
    # an id deep in a paragraph is a reference of its text, not an item's pointer
    assert not any("QuaRot" in i.text for i in items)


def test_a_date_given_with_a_copula_is_the_items_own_date() -> None:
    text = "feed 时间 2027-02-03 23:40，但点开看正文日期是 2024-05-14 —— 他们迁站重推了一遍。"
    assert item_date(text) == "2024-05-14"
    assert item_date("the date is 2023-08-17") == "2023-08-17"
    # the other side: a date with no label is no item's date
    assert item_date("feed 时间 2027-02-03 23:40") is None


def test_a_full_read_that_is_awaited_is_no_full_read() -> None:
    assert read_remark("keep it out of the doc until I have the full paper").level is not EvidenceLevel.verified
    assert read_remark("I read the full paper.").level is EvidenceLevel.verified


def test_a_source_section_quoted_from_its_note_is_no_claim_about_the_document() -> None:
    from pathlib import Path

    from e1prep.kb.loading import load_kb
    from e1prep.pipeline import draft_brief, living_document
    from e1prep.verify.verifier import Verifier

    manifest = Path(__file__).parents[1] / "evals/heldout/2027-02-04-otherhand-b2/manifest.json"
    kb = load_kb(manifest)
    verifier = Verifier(kb, living_document(kb))
    brief = draft_brief(manifest)
    quoting = next(i for i in brief.increments if any("§2" in p for p in i.points))
    assert not [v for v in verifier.verify(brief).violations if v.rule == "section-unknown"]
    # the other side: a section neither the document nor the note has is still refused
    quoting.points.append("归入 §9.9。")
    assert "section-unknown" in {v.rule for v in verifier.verify(brief).violations}


DAYS = """# recsys 雷达 · 2/9 – 2/11

## 2月9日（周一）

群里转了《2027 生成式推荐落地全解》 https://blog.invalid/a/1 （全文）。是 2024 年的旧文。

## 2月11日（周三）

Odile 挑出来的 Lodestar，我下午读完了：arXiv:2702.04415 https://arxiv.invalid/abs/2702.04415 （全文）。

它做了两件事。一是沿着 SessionGR（arXiv:2612.18840）的思路，把语义 ID 建在会话片段上。

主表 Recall@10 0.0712，SessionGR 是 0.0667。我的看法：可以进 B.2。
"""

WEEK = """# quant 周记 W04

## 1/25 周一

- [全] MixEx: Frequency-Aware Mixed-Precision Quantization
  arXiv:2612.09317 https://arxiv.invalid/abs/2612.09317
- [abs] QDraft: Quantized Draft Heads https://arxiv.invalid/abs/2701.03890

## 1/26 周二

- MixEx 复现：平均差 0.4 点
"""


def test_a_logs_day_is_no_item_its_items_are() -> None:
    items = split_note("inbox/linlan/n.md", DAYS)
    assert [i.title[:10] for i in items] == ["2027 生成式推荐", "Odile 挑出来的"]
    # the day's one item keeps the day's text: its body, its numbers, its filing
    assert "0.0712" in items[1].text and "可以进 B.2" in items[1].text
    week = split_note("inbox/kai/n.md", WEEK)
    # a day with no structure of its own is titled by its first line, not its date (a date is a label, no title)
    assert [i.title.split(":")[0] for i in week] == ["[全] MixEx", "[abs] QDraft", "MixEx 复现：平均差 0.4 点"]


def test_one_dated_heading_is_an_items_title() -> None:
    # a single date heading has no sibling days: it stays what it is
    titles = [
        i.title for i in split_note("inbox/x/n.md", "# log\n\n## 2月9日 Lodestar\n\nhttps://a.invalid/1 全文读完\n")
    ]
    assert titles == ["2月9日 Lodestar"]


DIGEST = """gh notifications, pasted. my line under each.

---

From: tessera-lang/tessera <notifications@github.invalid>
To: tessera-lang/tessera <tessera@noreply.github.invalid>
Subject: [tessera-lang/tessera] Release v0.4.0 - tessera-lang/tessera

## Tessera v0.4.0

AMD backend (beta).

Reply to this email directly, view it on GitHub:
https://github.invalid/tessera-lang/tessera/releases/tag/v0.4.0

-- ines: read the whole release page.

---

From: apache/tvm <notifications@github.invalid>
To: apache/tvm <tvm@noreply.github.invalid>
Subject: [apache/tvm] Release v1.0.0-rc0 - apache/tvm

Reply to this email directly, view it on GitHub:
https://github.invalid/apache/tvm/releases/tag/v1.0.0-rc0

-- ines: just the subject line.
"""


def test_pasted_messages_parted_by_breaks_are_one_item_each_titled_by_their_subjects() -> None:
    items = split_note("inbox/ines/n.md", DIGEST)
    assert [i.title for i in items] == ["Release v0.4.0 - tessera-lang/tessera", "Release v1.0.0-rc0 - apache/tvm"]
    assert items[1].group == ""  # the first message's headings are its own text, no group of the next
    # the other side: parts with no header are no messages
    parts = "SALT 全文读完 https://arxiv.invalid/abs/1\n\n---\n\n顺手: RotKV (2611.04872) 出了v2\n"
    assert all(i.recogniser != "message" for i in split_note("inbox/lin/n.md", parts))


def test_lettered_sections_count_by_their_letters() -> None:
    doc = parse_knowledge(
        "organized/knowledge/rl.md",
        "# rl\n\n## A 算法\n\n### A1 PPO\n\n### A2 GRPO\n\n## B 奖励\n\n### B.1 RLVR\n\n## C 系统\n",
    )
    assert [s.id for s in doc.sections] == ["§A", "§A1", "§A2", "§B", "§B.1", "§C"]
    assert routed_id("§B.1（RLVR）") == "§B.1" and routed_id("§A（算法）") == "§A"


def test_headings_that_open_with_a_word_are_no_letters() -> None:
    doc = parse_knowledge("organized/knowledge/x.md", "# x\n\n## A note on KV\n\n## I think\n\n## §1 引擎\n")
    assert [s.id for s in doc.sections] == ["§1"]


def test_a_heading_that_holds_an_arxiv_id_is_an_item_without_a_url() -> None:
    note = "# radar\n\n## arXiv:2701.14652 — MegaFuse\n\nRead: abstract.\n\n"
    note += "## arXiv:2612.20871 v2 — XferCost\n\nRead: diffed.\n"
    assert [i.title.split(" — ")[-1] for i in split_note("inbox/radu/n.md", note)] == ["MegaFuse", "XferCost"]


SHEET = """# screen (hardware)

pasted from my sheet, depth = how far I got

name,link,depth,note
Halvard Tern-2 datasheet,https://halvard.invalid/tern-2.pdf,full,"vendor PDF, all 9 pages. 350 W TDP"
Corvane LumaLink whitepaper,https://corvane.invalid/lumalink,toc,"registration wall, only saw the TOC"
"""

PROSE_WITH_COMMAS = """# notes

Read it, liked it, filed it, moved on: https://a.invalid/x
Another one, shorter, also fine: https://a.invalid/y
"""


def test_a_pasted_sheet_under_a_header_that_names_columns_is_a_table() -> None:
    items = split_note("inbox/oskar/n.md", SHEET)
    assert [i.title for i in items] == ["Halvard Tern-2 datasheet", "Corvane LumaLink whitepaper"]
    assert items[0].url == "https://halvard.invalid/tern-2.pdf"  # the next cell is no part of the URL
    assert items[0].reading.read_in_full and items[1].evidence is EvidenceLevel.partial
    # lines stay as written: a quote from the row is verbatim in the note
    assert items[0].text in SHEET
    tsv = "item\ttype\tlink\tstatus\nSonorant 2\tvendor API\thttps://s.invalid/2\t官方博客\n"
    assert [i.title for i in split_note("inbox/mira/n.md", tsv)] == ["Sonorant 2"]


def test_lines_with_commas_whose_first_names_no_columns_are_no_sheet() -> None:
    items = split_note("inbox/x/n.md", PROSE_WITH_COMMAS)
    assert all(i.recogniser != "table" for i in items)


def test_a_url_keeps_a_comma_only_where_it_goes_on() -> None:
    from e1prep.read.notes import URL_RE

    assert URL_RE.findall('https://h.invalid/d.pdf,full,"vendor"') == ["https://h.invalid/d.pdf"]
    assert URL_RE.findall("https://x.invalid/a?ids=1,2,3 ok") == ["https://x.invalid/a?ids=1,2,3"]
    assert URL_RE.findall("https://x.invalid/a,b/c") == ["https://x.invalid/a,b/c"]


def test_a_depth_column_is_the_check_and_its_whole_read_may_say_what_it_took_in() -> None:
    table = (
        "| # | 标题 | depth | 说了什么 |\n|---|---|---|---|\n"
        "| 1 | ReLay: Layer-Pruned Late Interaction | 全文（含附录 B） | BEIR-13 55.4 |\n"
    )
    items = split_note("inbox/wen/n.md", table)
    assert items[0].check_cell == "全文（含附录 B）"
    assert items[0].reading.read_in_full
    # the other side: a part named in the parenthesis lowers it
    assert read_remark("全文（只看了摘要）").level is EvidenceLevel.summary


FEED = """# arXiv cs.AR feed, Fri 20 Feb

Only one I actually read; the rest is for the queue.

- arXiv:2702.03318 — *ThermoCap: Coolant-Temperature-Aware Power Capping*
  - Read the whole PDF (12 pages + appendix), not just the abstract.
  - Result: **7.8% higher sustained throughput**. Authors are from a university, not a chip vendor.
- arXiv:2702.01877 — *Photonic In-Network All-Reduce* — title only, didn't open.
"""

FIELDED = """## Megatron-Core core_r0.17.0
- rel notes rd in full
- cf KB §2.1: Moonlight ~2× (author claim, arXiv:2502.16982). diff setups
- https://github.invalid/NVIDIA/Megatron-LM/releases/tag/core_r0.17.0

## DAPO re-rd
- re-rd §3 (arXiv:2503.14476) for Skein discussion. nothing new
"""


def test_list_items_that_open_with_an_arxiv_id_and_a_title_are_items_without_urls() -> None:
    items = split_note("inbox/ravi/n.md", FEED)
    assert len(items) == 2 and "ThermoCap" in items[0].title
    # who the authors are not is no vendor limitation
    assert items[0].reading.read_in_full and items[0].evidence is EvidenceLevel.verified


def test_an_arxiv_id_inside_a_bullet_does_not_make_it_an_item() -> None:
    items = split_note("inbox/dmitri/n.md", FIELDED)
    assert items[0].title.startswith("Megatron-Core")


CHECKLIST = """# eng screen 2/25

- [x] R2L digit chunking — https://arxiv.invalid/abs/2701.11846 — read all 14 pp
  - [x] groups digits in 3s from the right
- [ ] Loom-256k (mira's link)
  - [ ] tokenizer files public? page still says coming soon
- [ ] MohengByte-7B blog (qiao's link)
  - [ ] same login wall halfway down
"""


def test_list_items_that_hold_a_list_of_their_own_are_items_without_a_pointer() -> None:
    titles = [i.title.split(" (")[0].split(" —")[0] for i in split_note("inbox/ravi/n.md", CHECKLIST)]
    assert titles == ["R2L digit chunking", "Loom-256k", "MohengByte-7B blog"]
    # the other side: a flat bullet with no pointer beside bullets with URLs is still no item
    flat = "- Ferrite 0.5: https://a.invalid/1\n- QuietKV notes: https://a.invalid/2\n- lunch was good\n"
    assert len(split_note("inbox/x/n.md", flat)) == 2


def test_a_heading_whose_text_opens_with_an_arxiv_id_is_an_item() -> None:
    note = (
        "# edge radar\n\n## TierKV: Tiered KV Cache Paging\n\narXiv:2702.08817 · https://arxiv.invalid/abs/2702.08817\n\n"
        "读到哪：全文读完。\n\n## Thermal-Aware Token Scheduling\n\narXiv:2702.11460\n\n只看到标题，没点开。\n"
    )
    assert [i.title for i in split_note("inbox/priya/n.md", note)] == [
        "TierKV: Tiered KV Cache Paging",
        "Thermal-Aware Token Scheduling",
    ]


RATED = """# blogs sweep

1. https://orbis.invalid/blog/cinevo-2  trust: low
Cinevo 2 from Orbis Studio. Launch post, read all of it.

2. https://framecache.invalid/posts/notes  trust: high
FrameCache authors' blog post. read.
"""


def test_a_rating_that_every_item_carries_is_no_title() -> None:
    titles = [i.title for i in split_note("inbox/lulu/n.md", RATED)]
    assert titles[0].startswith("Cinevo 2") and titles[1].startswith("FrameCache")
    # the other side: one item's short field stays its title when no sibling carries it
    one = "1. https://a.invalid/x  status: new\nSomething.\n\n2. https://a.invalid/y  Ferrite 0.5\nMore.\n"
    assert split_note("inbox/x/n.md", one)[0].title == "status: new"


#: remarks and the level each reads at: every mechanism with its other side (``id``: what the row shows)
REMARK_LEVELS = [
    # a card or its collector named beside a stated read does not lower it; the card read is the card
    pytest.param(
        "Read the abstract and Secs 1–3 carefully; Secs 4–5 only the figures. Card 2210 exists for it.",
        EvidenceLevel.partial,
        id="card-beside-a-read",
    ),
    pytest.param(
        "Collector made a paper card for it already. Read the whole paper.", EvidenceLevel.verified, id="collector"
    ),
    pytest.param("only looked at the card", EvidenceLevel.card, id="card-is-what-was-read"),
    pytest.param("card metadata, nothing else", EvidenceLevel.card, id="card-metadata"),
    # a part that could not be read, beside a partial read, says what was left; alone it decides
    pytest.param(
        "Read the abstract and sections 1–3. The appendix is the part I could NOT read.",
        EvidenceLevel.partial,
        id="could-not-read-a-part",
    ),
    pytest.param("could not read it, the PDF kept timing out", EvidenceLevel.unverified, id="could-not-read-it"),
    # a read of the abstract and named sections is more than the summary
    pytest.param("Read the abstract and sections 1–3.", EvidenceLevel.partial, id="abstract-and-sections"),
    pytest.param("Read the abstract.", EvidenceLevel.summary, id="abstract-only"),
    pytest.param("只看了摘要", EvidenceLevel.summary, id="zh-abstract-only"),
    # a URL ends where CJK text runs on after it: the read after it is the writer's
    pytest.param(
        "论文（v1，https://arxiv.invalid/abs/2701.18842），正文加附录我从头读到尾。",
        EvidenceLevel.verified,
        id="url-then-cjk-read",
    ),
    # ranking what an item is worth after a full read is no doubt; without one, or on numbers, it is
    pytest.param(
        "正文加附录我从头读到尾。我觉得最值钱的是语言识别：两阶段分类器。",
        EvidenceLevel.verified,
        id="worth-after-full-read",
    ),
    pytest.param("我觉得最值钱的是语言识别", EvidenceLevel.unverified, id="worth-without-a-read"),
    pytest.param(
        "Read the whole paper. I think the most interesting part is the router.",
        EvidenceLevel.verified,
        id="worth-opened-by-a-hedge",
    ),
    pytest.param(
        "Read the whole paper. The most interesting part is maybe wrong?",
        EvidenceLevel.unverified,
        id="worth-doubted-after",
    ),
    pytest.param(
        "正文读完了。我觉得最值钱的是那个数字，不过数字可能有问题", EvidenceLevel.unverified, id="worth-on-numbers"
    ),
    # 没开 said shortly is not opened; not 没开源
    pytest.param("只看到标题，没开。", EvidenceLevel.unverified, id="not-opened"),
    pytest.param("附录没开，正文全读完了", EvidenceLevel.partial, id="appendix-not-opened"),
    pytest.param("代码没开源，只看了摘要", EvidenceLevel.summary, id="not-open-sourced"),
    # a doubt field that runs over lines onto a quoted claim limits that claim; one quoting none doubts the item
    pytest.param(
        "How far I got: abstract, intro, §2 and §3. So this is a partial read, not a full one.\n"
        "My doubt: the probe is fit per model. I don't see how it\n"
        '"transfers to unseen model families" without refitting.',
        EvidenceLevel.partial,
        id="doubt-field-on-a-claim",
    ),
    pytest.param(
        "How far I got: abstract, intro, §2 and §3.\nMy doubt: the whole thing\nmight be a rerun of last year's paper.",
        EvidenceLevel.unverified,
        id="doubt-field-on-the-item",
    ),
    # someone heard relays a check; someone awaited (a check not done yet) leaves the item unchecked too
    pytest.param("someone in #rag said it is 2x faster", EvidenceLevel.unverified, id="someone-heard"),
    pytest.param(
        "Read the whole paper; I'll cite it once Lin says the numbers are fine.",
        EvidenceLevel.unverified,
        id="awaited-confirmation",
    ),
    pytest.param(
        "Read the whole paper, waiting for someone to confirm Table 3.", EvidenceLevel.unverified, id="awaited-someone"
    ),
    # a vendor word is denied only as what the source is not; a negated verb beside it denies nothing
    pytest.param("Read the whole PDF. Not vendor numbers.", EvidenceLevel.verified, id="not-vendor-numbers"),
    pytest.param("全文读完，作者不是厂商。", EvidenceLevel.verified, id="zh-not-a-vendor"),
    pytest.param("read the whole thing; do not trust vendor numbers", EvidenceLevel.vendor, id="do-not-trust-vendor"),
    pytest.param("全文读完，数字是厂商的", EvidenceLevel.vendor, id="zh-vendor-numbers"),
    # a claim left unchecked in a bullet of its own limits that claim; a bullet naming no claim doubts the item
    pytest.param(
        "R2L digit chunking — read all 14 pp\n"
        "  - [x] 8-digit addition 71.2% → 96.8% (Table 2)\n"
        '  - [ ] "also helps multiplication" (§5) — one table, one seed. not convinced, not checked',
        EvidenceLevel.partial,
        id="unchecked-claim-bullet",
    ),
    pytest.param("Title — read all 14 pp", EvidenceLevel.verified, id="read-all-pages"),
    pytest.param(
        "Title — read all 14 pp\n  - not sure I read the right version", EvidenceLevel.unverified, id="doubt-bullet"
    ),
    # a judgement of whether the document holds the item is the writer's opinion, not a doubt about the read
    pytest.param(
        "read in full, appendix B included · NEW, I don't think we have anything like it",
        EvidenceLevel.verified,
        id="novelty-judged",
    ),
    pytest.param("read in full · probably new", EvidenceLevel.verified, id="probably-new"),
    pytest.param("read in full; maybe the numbers are wrong", EvidenceLevel.unverified, id="doubt-after-a-read"),
    pytest.param("全文读完，应该是新的", EvidenceLevel.verified, id="zh-probably-new"),
    # a design free of any vendor is no vendor's claim; a vendor's post is
    pytest.param("read in full; a vendor-neutral layout algebra", EvidenceLevel.verified, id="vendor-neutral"),
    pytest.param("read the vendor's launch post in full", EvidenceLevel.vendor, id="vendor-post"),
    # a word of code is no statement about the reading (an exported notebook's ``res.summary()``)
    pytest.param("print(res.summary())", EvidenceLevel.unverified, id="code-word"),
    pytest.param("summary only", EvidenceLevel.summary, id="summary-word"),
    # a part of the page that says something is the page (``附录 C 说``); a person who says so relays it
    pytest.param("全文读完。附录 C 说换一个分配器增益缩到 +1.1", EvidenceLevel.verified, id="appendix-says"),
    pytest.param("Li 说全文读完了", EvidenceLevel.unverified, id="person-says"),
    # someone else's word in a sentence of its own is their check beside the writer's read: it does not
    # undo the read; in the read's own sentence it governs the read
    pytest.param("全文读完。据说作者还会放代码。", EvidenceLevel.verified, id="relay-in-its-own-sentence"),
    pytest.param("全文读完，据说作者还会放代码。", EvidenceLevel.unverified, id="relay-beside-the-read"),
    pytest.param("据说全文读完了", EvidenceLevel.unverified, id="relayed-read"),
    # a denied "only" says more was done, never less (``不是只看频率``: a method that looks beyond frequency)
    pytest.param("按敏感度分比特，不是只看频率。全文读完。", EvidenceLevel.verified, id="denied-only"),
    # a spaced slash parts a one-liner's fields: what the code's README says is not said of the read
    pytest.param("代码说 camera-ready 后放 / 【全文读完】", EvidenceLevel.verified, id="slash-parts-fields"),
    pytest.param("代码放出来了 / 他说全文读完了", EvidenceLevel.unverified, id="slash-field-relays-the-read"),
]


@pytest.mark.parametrize(("remark", "level"), REMARK_LEVELS)
def test_a_remark_reads_at_its_level(remark: str, level: EvidenceLevel) -> None:
    assert read_remark(remark).level is level
