"""Shapes of notes met on held-out days (t, k2, v2, x2), each tested on both sides: status-word headings
titled by a field under them, footnotes at a note's end, a source's argued modality, an item's posted or
signed date, blocks opened by one field, log entries that introduce their item, lines of fields parted by bars."""

from __future__ import annotations

from e1prep.brief.models import EvidenceLevel
from e1prep.read.evidence import read_remark
from e1prep.read.labels import labelled_by_field
from e1prep.read.notes import item_date, split_note

STATUS_WORDS = """discovery — Ravi

### SNIPPET
title: ZhiPing January board
url: https://zp.invalid/139004512
access: 403 — only the search snippet[^1]

### NEW
title: Benchmarks are leaking: a contamination audit
url: https://evalnotes.invalid/p/leaking
read: yes, whole post

### DUP
title: Style control explained (translation)
url: https://cn.invalid/139011876
read: yes — nothing new against §2.1

---
[^1]: tried 17:50 and 18:30, both 403.
"""


def test_sibling_headings_titled_by_a_field_under_them_are_labels() -> None:
    items = split_note("inbox/ravi/n.md", STATUS_WORDS)
    assert [i.title for i in items] == [
        "ZhiPing January board",
        "Benchmarks are leaking: a contamination audit",
        "Style control explained (translation)",
    ]
    assert [i.label for i in items] == ["SNIPPET", "NEW", "DUP"]


def test_a_heading_is_a_label_by_its_title_field_only_among_siblings_and_when_short() -> None:
    field = ["title: Something else", "url: https://x.invalid"]
    assert labelled_by_field(["NEW"], [field]) == [None]  # one heading alone: its words stay its title
    long = "A heading of many words that is a title"
    found = labelled_by_field([long, "NEW", "DUP"], [field, field, field])
    assert found[0] is None and found[1] is not None and found[2] is not None
    # a sibling without a title field under it keeps its words
    found = labelled_by_field(["NEW", "DUP", "OLD"], [field, field, ["url: https://y.invalid"]])
    assert found[2] is None


def test_footnotes_at_the_note_end_are_not_the_last_items_text() -> None:
    last = split_note("inbox/ravi/n.md", STATUS_WORDS)[-1]
    assert "both 403" not in last.text and "[^1]" not in last.text
    assert last.evidence is not EvidenceLevel.snippet


def test_what_the_source_argues_is_no_hedge_on_the_reading() -> None:
    argued = read_remark("read: yes, whole post; argues every benchmark should ship a canary GUID.")
    assert argued.level is EvidenceLevel.verified
    assert read_remark("通读全文。作者主张所有基准都应该带 canary。").level is EvidenceLevel.verified
    # the writer's own doubt still hedges the read
    assert read_remark("read: yes, whole post; the numbers should be fine").level is EvidenceLevel.unverified
    assert read_remark("通读全文，应该没问题").level is EvidenceLevel.unverified


def test_a_posted_date_is_the_items_own_date() -> None:
    assert item_date("posted: 2024-05-20\nread: yes") == "2024-05-20"
    assert item_date("Posted on 2026-12-01") == "2026-12-01"
    assert item_date("reposted the link at 18:30") is None


BOARD = """ren · board

图例  ● 原文读完   ◐ 读了一部分   ✕ 进不去（403 / 要登录）   ⇢ 不是 inference 的

【跟进中】
✕  Halyard 中文解读（知乎专栏）
   知乎要登录，只看到搜索结果那两行
   https://zhuanlan.zhihu.invalid/p/774130662
◐  Sundial（zhou 转的）
   README 扫了一眼

【转走】
⇢  Mnemos v2 —— agent 长期记忆框架，归 agent
   https://github.com/mnemos-ai/mnemos
"""


def test_lines_opened_by_the_notes_legend_marks_are_items_and_lanes_are_not() -> None:
    items = split_note("inbox/ren/board.md", BOARD)
    assert [i.title for i in items] == [
        "Halyard 中文解读（知乎专栏）",
        "Sundial（zhou 转的）",
        "Mnemos v2 —— agent 长期记忆框架，归 agent",
    ]
    assert "【转走】" not in items[1].text


def test_signs_the_note_never_defines_open_no_items() -> None:
    note = "× 第一条，从头看到尾，https://a.invalid/1\n  细节\n× 第二条 https://b.invalid/2\n"
    assert all(i.recogniser != "sign-line" for i in split_note("inbox/lin/n.md", note))


VERDICT_TABLE = """| 结论 | 啥 | 读到哪 | 链接 |
|---|---|---|---|
| 🆕 新，重要 | Pellucid 开源 Halyard | 全文读完 | https://pellucid.invalid/blog/halyard |
| 旧的，无新 | Stratum v0.9 design doc | 重新从头读了一遍 | https://stratum.invalid/docs |
"""


def test_a_verdict_column_is_no_title_column() -> None:
    items = split_note("inbox/mei/t.md", VERDICT_TABLE)
    assert [i.title for i in items] == ["Pellucid 开源 Halyard", "Stratum v0.9 design doc"]
    assert items[1].evidence is EvidenceLevel.verified  # read again from the start: the whole


CLOCK_LOG = """kai 上午流水

09:40  arXiv 2612.20417 "Speculation at the Seam" —— abstract only
       讲草稿模型放哪个池
       https://arxiv.org/abs/2612.20417
10:05  重读 DriftGuard，只改 typo，nothing new
10:30  quillserve 官网 benchmark 页 403
       https://quillserve.invalid/benchmarks
"""


def test_clock_stamps_with_lines_of_their_own_under_them_are_entries() -> None:
    items = split_note("inbox/kai/log.md", CLOCK_LOG)
    assert [i.label for i in items] == ["09:40", "10:05", "10:30"]
    # a chat whose every line is stamped stays one conversation
    chat = "09:40 ana: look at https://a.invalid\n09:41 bo: ok\n09:42 ana: read it all\n"
    assert not any(i.label == "09:40" for i in split_note("inbox/ana/chat.md", chat))


def test_a_page_that_says_something_is_no_relayed_check() -> None:
    assert read_remark("README 全部读完。design.md 说实现的是那篇论文").level is EvidenceLevel.verified
    assert read_remark("tom 说他读完了").level is EvidenceLevel.unverified


def test_a_quoted_part_of_the_page_is_no_title() -> None:
    chat = 'Kestrel 的 P/D 配方那篇出来了 叫 Orrery https://k.invalid/orrery\n我读到 "Recipe" 那节为止\n'
    items = split_note("inbox/ollie/chat.md", chat)
    assert items and items[0].title != "Recipe"


TEMPLATE = """<!-- template v3 -->
日期：2027-01-23　填写：ling

━━━━━━━━━━ 1 ━━━━━━━━━━
标题：图像 Embedding 缓存命中率为什么上不去？（附开源 PixHash）
链接：
https://blog.csdn.invalid/145720931
阅读程度：[x] 全文　[ ] 一部分　[ ] 只看了摘要　[ ] 搜索片段
要不要进文档：要

━━━━━━━━━━ 2 ━━━━━━━━━━
标题：DocRAG-Lite 0.6 发布
链接：
https://juejin.invalid/7459921034410
阅读程度：[ ] 全文　[x] 一部分　[ ] 只看了摘要　[ ] 搜索片段
要不要进文档：不进 multimodal，转给 rag
"""


def test_a_templates_numbered_separators_head_its_items_read_as_written() -> None:
    items = split_note("inbox/ling/form.md", TEMPLATE)
    titles = [i.title for i in items]
    assert titles == ["图像 Embedding 缓存命中率为什么上不去？（附开源 PixHash）", "DocRAG-Lite 0.6 发布"]
    assert items[0].text.splitlines()[0] == "━━━━━━━━━━ 1 ━━━━━━━━━━"  # the line as written: quotes stay verbatim


def test_only_a_forms_checked_option_is_stated() -> None:
    items = split_note("inbox/ling/form.md", TEMPLATE)
    # the whole checked, and the question in the title field is the title's, as in a first line: the read
    # stands beside it (partial, as a full read beside any claim's hedge), it does not fall to unverified
    assert items[0].evidence is EvidenceLevel.partial
    assert items[0].reading.read_in_full
    assert items[1].evidence is EvidenceLevel.partial
    # a task list's unchecked box is no form: its words are still read
    assert read_remark("- [ ] 全文没读，只看了摘要").level is EvidenceLevel.summary


def test_an_email_with_no_items_and_no_link_is_one_message() -> None:
    mail = (
        "From: Mira <mira@x.invalid>\nTo: team\nSubject: [mm-radar] Tessera-VL tech report (2612.18347)\n\n"
        "Hi all,\n\nI read the whole report, appendix included.\nThe visual token budget is an input.\n\nMira\n"
    )
    items = split_note("inbox/mira/mail.md", mail)
    assert [i.title for i in items] == ["Tessera-VL tech report (2612.18347)"]
    assert "From:" not in items[0].text


REFERENCED = """| verdict | what | how far I read |
|---|---|---|
| 🟢 new | Ferrule-Rerank-3 launch post [1] | whole post, top to bottom |
| 🟡 repo | loomwright/quire [2] | README only, skimmed |

[1]
https://ferrule.invalid/blog/rerank-3
[2]: https://github.com/loomwright/quire
"""


def test_rows_that_cite_references_are_items_with_the_references_urls() -> None:
    items = split_note("inbox/jay/refs.md", REFERENCED)
    assert [i.title for i in items] == ["Ferrule-Rerank-3 launch post [1]", "loomwright/quire [2]"]
    assert [i.url for i in items] == ["https://ferrule.invalid/blog/rerank-3", "https://github.com/loomwright/quire"]


def test_a_bracketed_word_in_a_title_is_no_reference_without_a_definition() -> None:
    note = "1. vLLM [beta] flag https://a.invalid/1\n2. SGLang [wip] https://b.invalid/2\n"
    assert [i.urls for i in split_note("inbox/a/n.md", note)] == [["https://a.invalid/1"], ["https://b.invalid/2"]]


KEY_VALUE_BLOCKS = """# eng screen · kofi

---
item: Ripple-2 (Inflect Labs)
url: https://inflect.invalid/blog/ripple-2
read: vendor's own blog post, read end to end.

---
item: ParaDiT parallel VAE decode
url: https://github.com/paradit-org/ParaDiT/blob/main/docs/parallel_vae.md
read: docs page read in full
"""


def test_a_field_that_opens_every_block_gives_its_title() -> None:
    """Held-out x2's ``item: …`` blocks were keyed ``item``: the word that opens each sibling block is a label,
    its value (a name, not a rating) the title."""
    titles = [i.title for i in split_note("inbox/kofi/n.md", KEY_VALUE_BLOCKS)]
    assert titles == ["Ripple-2 (Inflect Labs)", "ParaDiT parallel VAE decode"]
    # the other side: one such block has no siblings to say its field word is a label
    one = KEY_VALUE_BLOCKS.split("\n---\n")[0] + "\n---\n" + KEY_VALUE_BLOCKS.split("\n---\n")[1]
    assert [i.title for i in split_note("inbox/kofi/n.md", one)] != ["Ripple-2 (Inflect Labs)"]


DIARY = """3/31 · diffusion 雷达（流水账）

09:40  arXiv 日更扫了一遍，diffusion 相关就一篇值得记：
       GuideFree-Flow: Flow Matching Models That Do Not Need Classifier-Free Guidance
       https://arxiv.org/abs/2703.11407
       【只读了 abstract，PDF 没下】

11:15  拿关键词搜 OpenReview，冒出一篇：
       https://openreview.net/forum?id=Rd7tGx2QpL
       跟生成模型没关系，不收。
"""


def test_a_log_entry_that_ends_on_a_colon_is_titled_by_what_it_introduces() -> None:
    items = split_note("inbox/mei/n.md", DIARY)
    assert items[0].title.startswith("GuideFree-Flow")
    # the other side: a colon before a bare URL introduces no title; the entry keeps its own words
    assert items[1].title.startswith("拿关键词搜 OpenReview")


BARS = """# 中文站发现

墨衡 MohengByte-7B 中文字节模型｜https://moheng.invalid/blog/mohengbyte-7b｜正文被截断，只看到训练设置
SentencePiece 中文分词实战｜https://blog.csdn.invalid/pp_nlp/article/details/90311877｜已核查原文，2019 年的老文章
- 2024-05-21 | [Linkpost] Scaling Monosemanticity | https://af.invalid/posts/qm7 | 只看了第一段 | 老帖
"""


def test_a_line_of_fields_parted_by_bars_is_one_item_titled_by_the_field_before_its_url() -> None:
    """Held-out k2's ``标题｜链接｜读到哪`` lines were one prose item; v2's ``日期 | 标题 | 链接 | …`` bullets were
    titled by the whole line."""
    titles = [i.title for i in split_note("inbox/qiao/n.md", BARS)]
    assert titles == [
        "墨衡 MohengByte-7B 中文字节模型",
        "SentencePiece 中文分词实战",
        "[Linkpost] Scaling Monosemanticity",
    ]
    # the other side: bars without a URL field are no such line
    assert len(split_note("inbox/qiao/n.md", "# x\n\nA ｜ B ｜ C\nD ｜ E ｜ F\n")) <= 1


def test_a_signed_date_is_the_items_own_date() -> None:
    assert item_date("文章落款 2023-12-05，是老文") == "2023-12-05"


def test_a_bracketed_tag_that_opens_a_title_is_no_part_of_its_name() -> None:
    """Held-out v2's ``[Linkpost] Scaling Monosemanticity: …`` was keyed ``Linkpost``."""
    from e1prep.read.subjects import strip_outlet

    assert strip_outlet("[Linkpost] Scaling Monosemanticity: Extracting Features")[0].startswith("Scaling")
    assert strip_outlet("【速读】 Canary Drift")[0] == "Canary Drift"
    # the other side: a bracketed title with nothing after it is the title
    assert strip_outlet("[SPLICE]")[0] == "[SPLICE]"


def test_a_date_that_opens_a_line_of_fields_is_the_items_date() -> None:
    """Held-out v2's ``- 2024-05-21 | [Linkpost] … | 老帖`` (a re-pushed 2024 post) was an increment."""
    assert item_date("- 2024-05-21 | [Linkpost] Scaling | https://af.invalid/p | 老帖") == "2024-05-21"
    # the other side: a date inside a sentence before a bar is no field
    assert item_date("see 2024-05-21 | x") is None


def test_a_day_heading_written_with_spaces_is_a_day_of_the_log() -> None:
    """Held-out y2's ``## 4 月 1 日（周三）`` over a numbered entry became an increment keyed by the day."""
    note = (
        "# lin\n\n## 3 月 31 日（周二）\n\n1. Alpha —— https://a.invalid/x （全文读完）\n\n"
        "## 4 月 1 日（周三）\n\n2. Beta —— https://b.invalid/y （全文读完）\n"
    )
    titles = [i.title for i in split_note("inbox/lin/n.md", note)]
    assert not any("月" in t for t in titles), titles
    # the other side: a heading that only opens with a number is no day
    assert notes_day("## 4 个新模型") is None


def notes_day(heading: str) -> object:
    from e1prep.read.notes import _DAY_HEADING

    return _DAY_HEADING.match(heading.lstrip("# "))


ROMAN = """# federated 雷达（hana）

I. LoRA-Leak —— arXiv:2703.11842（全文读完）
    https://arxiv.org/abs/2703.11842
    - 平均 token 级恢复率 61.4%

II. FedMoE-Route v2 —— arXiv:2612.20931v2（只看了 Comments 字段）
    https://arxiv.org/abs/2612.20931v2

III. FedDrift-Bench —— arXiv:2703.09177（只读了 abstract）
    https://arxiv.org/abs/2703.09177
"""


def test_an_outline_numbered_in_roman_numerals_is_a_list_of_items() -> None:
    """Held-out a3's ``I.`` / ``II.`` / ``III.`` outline was one item from its first title field to the end, so
    LoRA-Leak, read in full, read as the abstract of the third."""
    items = split_note("inbox/hana/n.md", ROMAN)
    assert [i.title.split(" ")[0] for i in items] == ["LoRA-Leak", "FedMoE-Route", "FedDrift-Bench"]
    assert items[0].reading.level is EvidenceLevel.verified
    # the other side: a word that opens with the letters is no numeral (``IVF.``, ``VI.2``)
    from e1prep.read.notes import _NUMBERED

    assert _NUMBERED.match("IVF. index built") is None and _NUMBERED.match("VI.2 setup") is None


TOGGLES = """# 图学习雷达 · 04-06

▸ **Gryphon — 图基础模型（arXiv:2703.14821）**　读到：全文 + 附录 B、C
    链接：https://arxiv.org/abs/2703.14821
    ▸ 结果
        零样本节点分类平均 63.2%（Table 3）。

▸ **GFM-Atlas 上了 v3（arXiv:2609.04417）**　读到：只看了 abs 页的 Comments 字段
    v3 日期 2027-04-02，只是版本号变了，卡片那边被引数也在涨。
"""


def test_a_toggle_list_is_a_list_and_a_reading_label_before_the_whole_text_is_a_full_read() -> None:
    """Held-out z2's Notion export: each ``▸`` toggle at the margin is an item (the indented ones are its parts),
    so the next toggle's ``只看了`` and ``卡片`` no longer lowered Gryphon; ``读到：全文`` and ``读了全文`` are full
    reads."""
    items = split_note("inbox/lin/n.md", TOGGLES)
    assert items[0].title.startswith("Gryphon") and "GFM-Atlas" not in items[0].text
    assert items[0].reading.level is EvidenceLevel.verified
    assert read_remark("读了全文").level is EvidenceLevel.verified
    # the other side: a negated read, and a reading label before a part, are no full read
    assert read_remark("没读全文").level is EvidenceLevel.unverified
    assert read_remark("读到：标题 + 摘要").level is EvidenceLevel.summary


def test_the_originals_date_dates_the_item() -> None:
    """Held-out u2's CSDN repost (``文末注明原文 2024-07``), read in full, became an increment once its depth
    was read."""
    assert item_date("CSDN 转载（文末注明原文 2024-07）") == "2024-07"
    # the other side: ``原文`` with no date after it dates nothing
    assert item_date("已核查原文，2024 年的数据") is None


LISTING = """# docai radar

Out[2]:

    SpanTab: Cross-Page Table Reconstruction for Long PDFs
    v1 · submitted 2027-04-09 · cs.CV · 14 pp + appendix
    https://arxiv.org/abs/2704.05128

**读到哪：PDF 全文读完。**

Out[3]:

    GlyphDrift: Measuring Hallucinated Text in OCR-free Parsers
    Li · Wang · Okafor
    https://arxiv.org/abs/2704.02291

**读到哪：只读了 abstract。**
"""


def test_a_listings_metadata_line_is_no_title() -> None:
    """Held-out b3's notebook printed each paper as title, ``v1 · submitted … · cs.CV · 14 pp``, URL: the metadata
    line was the title (keyed ``submitted``)."""
    titles = [i.title for i in split_note("inbox/mei/n.md", LISTING)]
    assert titles[0].startswith("SpanTab")
    # the other side: a line of names parted by dots is no metadata; it stays the title over its URL
    assert titles[1] == "Li · Wang · Okafor"


REPLY = """Subject: Re: before tonight's E1 — Fathom / Cirrus-3

On Thu, 16 Apr 2027 at 15:02, Mei wrote:
> Fathom (2704.11207): abstract says week 3-4 CRPS 12% better. Can we put the 12% into II-1?

No. I read the whole paper, v2 PDF including appendices: the v2 abstract has no headline percentage.

> Lin mentioned that Brightline launched "Cirrus-3". Anything real?

Only their own launch post (https://www.brightline.invalid/blog/cirrus-3). Under V-2 it does not go in.

-- O.
"""


def test_a_reply_between_the_quoted_lines_is_one_item_per_answer() -> None:
    """Held-out c3's e-mail answered Mei's questions one by one: it was one item about its subject line."""
    items = split_note("inbox/oskar/n.md", REPLY)
    assert [i.title[:6] for i in items] == ["Fathom", "Lin me"]
    assert "12%" not in items[0].text.replace(items[0].title, "")  # the question's words are not the answer's
    # the other side: quoted entries with no message they come from (no ``wrote:``) are not answers
    pasted = REPLY.replace("On Thu, 16 Apr 2027 at 15:02, Mei wrote:\n", "")
    assert [i.recogniser for i in split_note("inbox/oskar/n.md", pasted)] != ["answered", "answered"]


def test_nothing_new_said_colloquially_says_the_document_holds_it() -> None:
    """Held-out x2's and k2's CSDN rows end ``内容就是 ADD 那套，没新东西`` (``没有新东西`` was read,
    ``没新东西`` not)."""
    from e1prep.read.notes import said_known

    assert said_known("内容就是 ADD 那套，没新东西") == "没新东西"
    assert said_known("没有新东西") == "没有新东西"
    # the other side: new things are no verdict of known
    assert said_known("有新东西：加了 --split-prefill") is None


BOLD_FIELD_BLOCKS = """# 4/30 上午 中文社区扫一遍

**名称**：CaseLink-zh（jurilink/CaseLink-zh）
**来源**：GitHub https://github.com/jurilink/CaseLink-zh
**看到哪**：README 看到"快速开始"为止，后面的评测说明没看；CSDN 那篇只看到第三节
**我的判断**：值得进 1.2。

---

**名称**：衡律 ContractPilot 3
**来源**：转载 https://mp.example.invalid/s/contractpilot-3
**看到哪**：转载的发布稿全文看完了；但这就是厂商自己的稿子
**我的判断**：厂商自述，只登记。
"""


def test_blocks_opened_by_a_bold_title_field_are_items_titled_by_its_value() -> None:
    """Held-out g3's blocks opened ``**名称**：…``: both items were keyed ``名称``, the field's label."""
    items = split_note("inbox/lin/n.md", BOLD_FIELD_BLOCKS)
    assert [i.title for i in items] == ["CaseLink-zh（jurilink/CaseLink-zh）", "衡律 ContractPilot 3"]
    assert [i.evidence for i in items] == [EvidenceLevel.partial, EvidenceLevel.vendor]
    # the other side: a bold run-in title before a colon, different in each paragraph, stays the title
    titled = BOLD_FIELD_BLOCKS.replace("**名称**：CaseLink-zh（jurilink/CaseLink-zh）", "**CaseLink-zh**: a repo")
    titled = titled.replace("**名称**：衡律 ContractPilot 3", "**ContractPilot 3**: a launch")
    assert [i.title for i in split_note("inbox/lin/n.md", titled)] == ["CaseLink-zh", "ContractPilot 3"]


BOLD_ID_TITLES = """Papers this week.

**arXiv:2612.03391 — TierSpill: Cost-Aware KV Cache Placement.** I read the whole paper.

**arXiv:2609.14472 — LatticeKV (v2).** v2 went up on Dec 3; I diffed it against v1.
"""


def test_a_bold_title_that_opens_with_an_id_and_its_colon_is_no_field() -> None:
    """The other side of the bold field label: ``**arXiv:… — Title.**`` is a bold run-in title, whose bold goes on
    past the colon (a first version of the bold label made first-contact f's LatticeKV the whole paragraph)."""
    titles = [i.title for i in split_note("inbox/ben/n.md", BOLD_ID_TITLES)]
    assert titles == ["2612.03391 — TierSpill: Cost-Aware KV Cache Placement", "2609.14472 — LatticeKV (v2)"]


STANDUP = """# Standup — Thu 2027-04-23

## Yesterday

- BinderBench weekly regression on main: everything within noise, no regressions.
- LabPilot (arXiv:2704.10455): abstract only. Belongs to the agent topic.

## Today

- Tessera (arXiv:2704.11873): code at https://github.com/tessera-design/tessera. README only so far.

## Blockers

- Boltwood v1.0 ships wheels for CUDA 12.8 only; we stay on v0.9.3.
- The GenomeWeb piece on Kestrel Bio is paywalled: snippet only, don't quote it.
"""


def test_a_standups_days_hold_its_items() -> None:
    """Held-out e3's stand-up: ``## Today`` became one increment keyed ``Today``, ``## Yesterday`` one item, and
    the bullets under ``## Blockers`` none. Days named relative to the writing are a log's days like dated ones,
    and their sibling headings are the log's other parts: each bullet is an entry."""
    titles = [i.title[:12] for i in split_note("inbox/marco/n.md", STANDUP)]
    assert titles == ["BinderBench ", "LabPilot (ar", "Tessera (arX", "Boltwood v1.", "The GenomeWe"]
    # the other side: one such heading among headings that are no days names an item as before
    single = STANDUP.replace("## Yesterday", "## BinderBench").replace("## Blockers", "## Boltwood")
    assert "Today" in [i.title for i in split_note("inbox/marco/n.md", single)]


WECHAT = """# 群聊整理 · reading club · 4/22 晚

阿杰 21:04
Tessera 出来了 https://arxiv.org/abs/2704.11873

小周 21:06
一作推上说 hit rate 30%，先别当真

阿杰 21:31
NovaBind 发博客了 https://novabind.ai/blog/atlas-ab-open-weights

温老师 21:35
NovaBind 自己的数，先记着

---

## 我的整理

1. **Tessera**（arXiv:2704.11873）：我没读论文，Hanna 在读全文。
2. **NovaBind Atlas-Ab**：官方博客我从头到尾读了，只有这篇博客，没有论文。
"""


def test_a_pasted_chats_speakers_head_messages_not_items() -> None:
    """Held-out e3's WeChat paste (``阿杰 21:04`` over each message) became thirteen items keyed by speaker and
    time, and the writer's own summary after it none: a chat's speaker lines head messages of one
    conversation, as Latin names over messages already did (``kai 20:41``)."""
    items = split_note("inbox/qiao/n.md", WECHAT)
    assert [i.title[:7] for i in items] == ["Tessera", "NovaBin"]
    assert items[1].evidence is EvidenceLevel.vendor
    # the other side: two speaker lines are no chat (three messages make one); the lines stay as they were read
    two = "\n".join(WECHAT.split("\n")[:9])
    assert [i.title[:2] for i in split_note("inbox/qiao/n.md", two)] != ["Te", "No"]


def test_a_citation_titles_paper_is_named_by_the_part_before_its_colon() -> None:
    """Held-out e3's Zotero export heads each paper ``Okafor, Lindqvist, Chen et al. (2027) · Tessera: All-Atom …
    · arXiv:2704.11873``: the paper was keyed ``All-Atom``, a word of its subtitle. A title's part written as
    ``Name: description`` names its subject, wherever the parts put it."""
    from e1prep.read.subjects import candidates

    title = "Okafor, Lindqvist et al. (2027) · Tessera: All-Atom Flow Matching for Binder Design · arXiv:2704.11873"
    assert candidates(title)[0].name == "Tessera"
    # the other side: a title with no part so written is read as before
    assert candidates("Okafor et al. (2027) · All-Atom Flow Matching for Binder Design")[0].name != "Tessera"


SWEEP = """inbox sweep — sun/mon 26–27 apr (wm stuff only)

- [x] DriveLoom tech report, arXiv 2704.03391 — rd §1–§3 (method) only, stopped at §4 evals → new, III.2 imo
  - abs/intro claim −38% FVD vs GAIA-2 — did NOT check the tables, don't quote
- [x] open-genie v0.7.0 release notes → skim. nothing doc-worthy
- [ ] "Latent Action Pretraining at Scale" — title only, from a screenshot on X, no link / no authors → park
- [x] TurboDiT-Video (4-step distill of a video DiT) — abs only → pure sampling speed, no world-model angle → fwd tom
"""


def test_a_checklists_tasks_are_its_items_with_or_without_a_url() -> None:
    """Held-out f3's inbox sweep: a line of it was taken for a spreadsheet's header (``- [ ] "…" — title only,
    from a screenshot, no link``: three cells, one naming a column), so the note was one "table row"; and with no
    URLs, only the bullet with an arXiv id was an item. A list's entry is no sheet's header, and a checklist's
    tasks are its items."""
    items = split_note("inbox/dmitri/n.md", SWEEP)
    assert [i.title[:8] for i in items] == ["DriveLoo", "open-gen", '"Latent ', "TurboDiT"]
    assert items[0].evidence is EvidenceLevel.partial  # ``rd §1–§3 (method) only``
    assert items[3].evidence is EvidenceLevel.summary  # ``abs only``
    # the other side: bullets with no task box and no URL stay the points of one note, as before
    plain = SWEEP.replace("- [x] ", "- ").replace("- [ ] ", "- ")
    assert len(split_note("inbox/dmitri/n.md", plain)) < 4


def test_a_verdict_that_the_document_has_it_reads_as_known() -> None:
    """Held-out f3's reading log said ``I.1 已经有了，不算新`` in its 结论 column: DreamerV3 became an increment."""
    from e1prep.read.notes import said_known

    assert said_known("I.1 已经有了，不算新") is not None
    assert said_known("文档里已经有了") is not None
    # the other side: something else that already exists is no verdict on the item
    assert said_known("代码已经有了，权重还没放") is None


MEMO = """# 语音备忘 0511 晚

[00:04] 好，记一下今天看的几个东西。第一个是 Quill Labs 那个 Quill-Math 2。

[00:21] 他们那篇官方博客我是从头到尾读完了。没有技术报告，博客里写的是 technical report coming soon。

[00:40] 他们报的几个数：IMO 2026 六道题拿了 35/42。这些全是他们博客自己写的，就当厂商自述。

[01:58] 第二个，知乎上有个帖子说 Hanlin-Math，CMO 2027 拿了 117 分。要登录，我只看到搜索结果里那一行片段。

[02:30] 哦对，lean-gym-server 又涨星了，我顺手看了眼 GitHub。
"""


def test_a_spoken_logs_topics_run_over_its_stamps() -> None:
    """Held-out j3's voice memo: each stamped paragraph was an item, so a spoken sentence
    (``他们那篇官方博客我是从头到尾读完了``) became a key and Quill-Math 2, read in its vendor's post, no item. Where
    two or more stamped paragraphs open a topic (``第一个是…``, ``第二个，…``, ``哦对，…``; ``writing.toml [spoken]``),
    each topic runs over the paragraphs that open none."""
    items = split_note("inbox/rui/n.md", MEMO)
    assert [i.title[:7] for i in items] == ["第一个是 Qu", "第二个，知乎上", "哦对，lean"]
    assert items[0].evidence is EvidenceLevel.vendor and "35/42" in items[0].text
    # the other side: a log of stamps that opens no topics keeps each stamped paragraph its own, as before
    plain = MEMO.replace("第一个是", "是").replace("第二个，", "").replace("哦对，", "")
    assert len(split_note("inbox/rui/n.md", plain)) == 5


LOGSEQ = (
    "title:: 2027-05-04 journal\n"
    "\n"
    "- 09:05 晨间扫 HF daily papers\n"
    "  collapsed:: false\n"
    "\t- [[SeaCrawl-2]] — SEA 语言平行语料 #paper\n"
    "\t  source:: https://arxiv.org/abs/2704.20931\n"
    "\t  status:: reading\n"
    "\t  read-to:: §3 开头（filtering 那节只看了第一段）\n"
    "\t\t- §2 = crawl pipeline\n"
    "\t- TODO [[CSBench]]\n"
    "\t  status:: todo\n"
    "\t\t- 只看到一个标题，没链接\n"
    "- 09:20 [[Kestrel-MT]] (Halden AI) — 看 HF model card\n"
    "  source:: https://huggingface.co/halden-ai/Kestrel-MT-9B\n"
)


def test_an_outliners_blocks_with_properties_are_items() -> None:
    """Held-out h3's Logseq journal: a time block (``- 09:05 晨间扫 …``) held two blocks with properties of their own
    and was one item; its ``status:: reading`` (a weak label over no words of a reading) was a remark not understood,
    and ``read-to::`` no remark, under a field it was read as a wrapped line."""
    items = split_note("inbox/kai/n.md", LOGSEQ)
    assert [i.title[:10] for i in items] == ["SeaCrawl-2", "CSBench", "09:20 Kest"]
    assert items[0].evidence is EvidenceLevel.partial and items[0].reading.remarks[0].startswith("read-to::")
    # the other side: one block with properties under the time block is not a group of items
    one = LOGSEQ.replace("\t- TODO [[CSBench]]\n\t  status:: todo\n", "\t- TODO [[CSBench]]\n")
    assert split_note("inbox/kai/n.md", one)[0].title.startswith("晨间扫")


FEISHU = """**RoundTrip-AF: Round-Trip Autoformalization**

| 字段 | 内容 |
|---|---|
| 链接 | https://arxiv.org/abs/2704.21957 |
| 阅读程度 | 摘要、引言、§3 方法读完了；§4 实验**没读** |
| 关键数字 | 表 2 第一行好像是 83.1%，实验设置我没看，先别引 |
"""


def test_a_field_tables_reading_row_is_the_items_remark() -> None:
    """Held-out j3's Feishu doc: the ``| 阅读程度 | … |`` row was no remark, so a hedge of one number (``好像是
    83.1%``) made the partly read paper unverified."""
    [item] = split_note("inbox/mei/n.md", FEISHU)
    assert item.evidence is EvidenceLevel.partial
    assert item.reading.remarks[0].startswith("| 阅读程度 |")


def test_a_check_put_off_is_a_lead_and_a_status_over_no_reading_is_no_remark() -> None:
    """First-contact i's ``| 看到哪一步 | … |`` row became a remark, so ``我今天核不了，留给明天`` only capped the
    partly seen model card and it leaked as an increment: a check put off is the writer's lead verdict. A weak
    label over no words of a reading (Logseq's ``status:: reading``) is no remark at all, as writing.toml says."""
    from e1prep.read.evidence import remark_line
    from e1prep.read.notes import said_lead

    assert said_lead("可能很重要，但我今天核不了，留给明天") is not None
    assert remark_line("status:: reading") is None and remark_line("状态：已合并") is None
    assert remark_line("| 状态 | 已合并 |") is None  # a field table's row is read as its field, by the same rule
    # the other side: a weak label over words of a reading stays a remark
    assert remark_line("状态：全文读完") is not None


TRIAGE = """# [radar] world-models · overnight links — triage #118

Overnight radar hits:

1. https://helixlabs.ai/blog/tessera-2 — Helix Labs, "Tessera-2: real-time playable worlds" (launch post)
2. https://worldarena.org/leaderboard — WorldArena April refresh
3. https://arxiv.org/abs/2704.10066 — "MemGraph-Agent: Episodic Graph Memory for Tool-Using LLM Agents"

---

**mona** commented on 2027-04-27 10:12

Helix post (1): read it end to end — but it's the only thing I read. "10+ minutes" of stable play, their claim.

---

**xiaoyu** commented on 2027-04-27 13:05

(2) Opened the leaderboard page itself, read all of it. Top-3 same as our snapshot. Nothing new for us.
"""


def test_comments_that_answer_a_lists_entries_by_number_are_those_entries() -> None:
    """Held-out f3's triage issue: the opener listed the links, the comments answered them by number. Each comment
    was an item of its own, one keyed by its author (``mona commented on …``) and one by its first word (``Opened``),
    while the entries they answer had no reading at all."""
    items = split_note("inbox/rui/n.md", TRIAGE)
    titles = [i.title[:12] for i in items]
    assert titles == ['"MemGraph-Ag', "Helix Labs, ", "WorldArena A"]
    # the answer's reading is the entry's (the entry alone says nothing of one), and it points where the entry points
    assert items[1].evidence is not EvidenceLevel.unverified
    assert items[1].urls == ["https://helixlabs.ai/blog/tessera-2"]
    assert items[2].evidence is EvidenceLevel.verified
    # the other side: parts that answer by no number stay items of their own, and the list's entries stay
    unnumbered = TRIAGE.replace("Helix post (1)", "Helix post").replace("(2) Opened", "Opened")
    assert [i.title[:6] for i in split_note("inbox/rui/n.md", unnumbered)][:3] == ["Helix ", "WorldA", '"MemGr']


def test_filing_under_a_section_of_the_document_files_it_nowhere_else() -> None:
    """Held-out l3: ``I'd file it under T4.a`` (the document's own section) read as filing the item under another
    topic, ``T4``, so the fully read TemplateTrap was excluded as off-topic."""
    from e1prep.read.filing import filed_elsewhere

    topic = frozenset({"llm-security"})
    assert filed_elsewhere("I'd file it under T4.a and soften the safe-default sentence", topic) is None
    # the other side: a topic named as one is still another topic
    assert filed_elsewhere("file it under rag", topic) == "file it under rag"


def test_a_thing_introduced_by_its_title_is_named_by_it() -> None:
    """Held-out l3's ``Talk titled "Sleeping in the Weights: …"`` was keyed ``Talk``."""
    from e1prep.read.subjects import candidates

    title = 'Talk titled "Sleeping in the Weights: delayed-trigger backdoors", on the accepted-talks list of SecML 2027'
    assert candidates(title)[0].name == "Sleeping in the Weights"
    # the other side: without the word that introduces it, the title's own first name stands
    assert candidates("Sleeper talk at SecML 2027")[0].name != "Sleeping in the Weights"


SIDEWAYS = """# edge-inference 雷达 · 5/21

| | Burrow | EdgeSpec（复查） | MobileKV-Bench |
|---|---|---|---|
| 链接 | https://github.com/ravel-ai/burrow | https://arxiv.org/abs/2612.04471 | https://arxiv.org/abs/2705.09917 |
| 读到哪 | README 从头读到 Quick start 为止 | v3 只重读了 §4–§5，前面没重看 | 只有标题，摘要页都没点进去 |
| 结论 | 新。建议放三（五） | 没新东西，不用动文档 | 挂着等人读 |
"""


def test_a_comparison_table_written_sideways_has_its_items_as_columns() -> None:
    """Held-out m3's matrix had the items as columns and what each row says in its first column: its rows
    (``链接``, ``关键说法``, ``结论``) became items. Two or more row names that are column words turn it upright."""
    items = split_note("inbox/qiao/n.md", SIDEWAYS)
    assert [i.title for i in items] == ["Burrow", "EdgeSpec（复查）", "MobileKV-Bench"]
    assert [i.evidence for i in items] == [EvidenceLevel.partial] * 3  # ``读到 … 为止``, ``只重读了``, ``只有标题``
    assert items[0].urls == ["https://github.com/ravel-ai/burrow"]
    # the other side: a table whose header names its columns stays as it is, one item a row
    upright = "| 标题 | 链接 | 读到哪 |\n|---|---|---|\n| Burrow | https://github.com/ravel-ai/burrow | 全文 |\n"
    upright += "| EdgeSpec | https://arxiv.org/abs/2612.04471 | 只看了摘要 |\n"
    assert [i.title for i in split_note("inbox/qiao/n.md", upright)] == ["Burrow", "EdgeSpec"]


CALLOUT = """## 1. [[MemFold-IF]] —— 膜蛋白的逆折叠

arXiv:2704.09126 · https://arxiv.org/abs/2704.09126

> [!note] 读到哪
> 摘要、Intro、§3 方法读到 3.2 为止。
> §4 实验、附录 **都没看**。

- 思路：加一组 lipid-context tokens。
"""


def test_an_obsidian_callout_is_the_writers_own_words() -> None:
    """Held-out e3's ``> [!note] 读到哪`` callout said how far the writer read; read as a quotation, the read was
    someone else's (``引述``) and the partly read paper unverified."""
    [item] = split_note("inbox/lin/n.md", CALLOUT)
    assert item.evidence in (EvidenceLevel.partial, EvidenceLevel.summary)  # the abstract, and §3 up to 3.2
    assert not any("引述" in str(word) for word in item.reading.deciding)
    assert item.title == "MemFold-IF —— 膜蛋白的逆折叠"
    # the other side: a plain quotation of someone else's read stays theirs
    quoted = CALLOUT.replace("> [!note] 读到哪\n", "> Jay 说：\n")
    assert split_note("inbox/lin/n.md", quoted)[0].evidence is EvidenceLevel.unverified


NOTION_TOGGLES = """# TS radar — week 22

Created by: Lina
Tags: time-series, radar

<aside>
📌 Two things this week.
</aside>

<details>
<summary>Kestrel-TS — arXiv:2705.09317 — "Kestrel-TS: In-Context Covariates" ✅ read in full</summary>

**How far I read:** the whole PDF, main text and appendices.

**What it is**
- 240M-parameter decoder-only forecaster with a covariate gate per layer.

**Results (Table 2 of the paper)**
- GIFT-Eval, zero-shot: MASE 0.681 on 90 of the 97 configurations.

**Code / license**
- github.com/kestrel-lab/kestrel-ts, Apache-2.0.

</details>

<details>
<summary>Tidewater — arXiv:2705.11111 — skim only</summary>

**How far I read:** the abstract.

- A tidal-gauge forecaster.

</details>
"""


def test_a_notion_toggle_is_one_item_titled_by_its_summary() -> None:
    """Held-out p3's Notion export: each ``<details>`` toggle is one item about what its summary names. The
    bold lines inside a toggle (``**What it is**``, ``**Results**``) had become three items, and the toggle's
    full read was lost to them."""
    items = split_note("inbox/lina/radar.md", NOTION_TOGGLES)
    assert [i.title.split(" — ")[0] for i in items] == ["Kestrel-TS", "Tidewater"]
    kestrel, tidewater = items
    assert "covariate gate" in kestrel.text and "MASE 0.681" in kestrel.text
    assert kestrel.evidence.value == "verified" and tidewater.evidence.value != "verified"
    assert "<details>" not in kestrel.text and "</summary>" not in kestrel.text


READING_NOTES = """# 读书笔记 · CASID（arXiv:2705.09317）

xiaoyu · 2027-05-28 09:10

**读到什么程度**：v2 的 PDF 全文，正文 + 附录 A、B 都读完。
**标题**：CASID: Collision-Aware Semantic IDs for Generative Retrieval
**链接**：https://arxiv.org/abs/2705.09317

---

**摘抄 1**（§1 Introduction）

> "At 60M items, a three-level RQ-VAE assigns the same code tuple to 11.4% of items."

感想：第一次看到千万级目录上的碰撞率实测。

**摘抄 2**（Table 2）

> CASID — collision rate 0.8% (60M catalog); Recall@100 +3.1 pt.

感想：注意版本，v1 摘要写的是 0.3%。
"""


def test_a_note_about_one_source_is_one_item_whatever_parts_it_has() -> None:
    """Held-out o3's 读书笔记 opens with the source's fields (title, link, how far it was read), then quotes and
    comments (``**摘抄 1**`` / ``感想：``): one paper, read in full. Each 摘抄 had become an item titled by its
    quotation, none of them the paper. Two title fields are two items' (a list of cards), not one source's."""
    items = split_note("inbox/xiaoyu/notes.md", READING_NOTES)
    assert [i.title for i in items] == ["CASID: Collision-Aware Semantic IDs for Generative Retrieval"]
    assert "11.4%" in items[0].text and "v1 摘要写的是 0.3%" in items[0].text
    two = READING_NOTES.replace("感想：第一次看到", "**标题**：Another paper\n感想：第一次看到")
    assert len(split_note("inbox/xiaoyu/notes.md", two)) >= 2


def test_a_bold_title_field_gives_its_value_without_the_bold() -> None:
    from e1prep.read.labels import title_field

    assert title_field("**Title:** FlashKV: tiered KV") == "FlashKV: tiered KV"
    assert title_field("**标题**：CASID") == "CASID"


MIND_MAP = """# blogs-discovery 2027-06-01 (yuki) — XMind 导出

- 今日 blogs / feeds（yuki, 2027-06-01 上午）
  - TimesFM 2.5 模型卡（复读）
    - 哪里：Hugging Face google/timesfm-2.5-200m-pytorch 的 model card
      - 读到哪：整页从头读到尾
        - 版本还是 2.5，和我们文档里写的一致
  - "Scaling Laws for Zero-Shot Forecasting, Revisited"
    - 哪里：arXiv 每日列表里划过去的一行
      - 读到哪：只看到标题和编号，没有点开
        - arXiv:2705.20877
  - DataWise（自动生成预测看板的 agent）
    - 哪里：Product Hunt 页面
      - → 归 agent 专题，不进 time-series
"""

ONE_ITEM_WITH_POINTS = """# radar

- FlashKV（https://github.com/flashkv/flashkv）
  - README 读完
  - tiered KV cache over CXL
  - 1.4× throughput on their bench
"""


def test_a_mind_maps_centre_is_no_item_its_branches_are() -> None:
    """Held-out p3's XMind export: one entry at the margin (the map's centre) over three branches with branches of
    their own. The whole map had been one item titled by its centre, and its recheck of TimesFM was lost."""
    items = split_note("inbox/yuki/map.md", MIND_MAP)
    assert [i.title[:12] for i in items] == ["TimesFM 2.5 ", '"Scaling Law', "DataWise（自动生"]
    assert items[0].evidence.value == "verified"  # the model card read in full is the page, no KB card
    # one entry with plain points under it is one item, as it was
    assert len(split_note("inbox/x/radar.md", ONE_ITEM_WITH_POINTS)) == 1


ADRS = """# Architecture decision records

## ADR-041 · Quiver SeqRank (in-engine sequence ranking)

**Context.**
Quiver launched SeqRank: sequence ranking inside the retrieval engine. I read https://quiver.invalid/seqrank
top to bottom, but it's their own post: the only numbers are the vendor's.

**Decision.**
Do not adopt now.

## ADR-042 · Fennel rerank cache

**Context.**
A cache of rerank scores keyed by user state, https://fennel.invalid/blog/rerank-cache (abstract only).

**Decision.**
Watch.
"""


def test_a_bold_line_that_opens_every_block_is_a_parts_name() -> None:
    """Held-out o3's ADRs open each part with the same bold line (``**Context.**`` / ``**Decision.**``): those
    lines had become the items (nine of them, three called ``Context.``), and the vendor's product was keyed
    ``Context``. Each ADR is one item; the maker's own post read in full is the vendor's word."""
    items = split_note("inbox/hamid/adr.md", ADRS)
    assert [i.title for i in items] == [
        "ADR-041 · Quiver SeqRank (in-engine sequence ranking)",
        "ADR-042 · Fennel rerank cache",
    ]
    assert items[0].evidence.value == "vendor"


ORG_LOG = """#+TITLE: t2s reading log — week 23
#+AUTHOR: kenji
#+TODO: TODO NEXT | DONE REFILED

* DONE DriftBench: Evaluating Text-to-SQL Systems Under Schema Evolution
  CLOSED: [2027-06-10 Thu 16:20]
  :PROPERTIES:
  :URL:      https://arxiv.org/abs/2705.18342
  :READ:     full text, every table
  :END:
  - Main result: best system 71.4% EX before drift, 48.9% after.
** What to watch
   stale column descriptions hurt more than none.

* DONE Re-check OmniSQL releases
  :PROPERTIES:
  :REPO:     RUCKBReasoning/OmniSQL
  :ARXIV:    2503.02240
  :END:
  Latest release is still v1.1.

* TODO [#C] VeriSQL-Decode: Verifier-Guided Beam Search
  :PROPERTIES:
  :ARXIV:    2706.01129
  :READ:     title only
  :END:

* 今天看过、没东西的
  - 两篇 Medium 入门文章，没新内容。
"""


def test_an_org_mode_file_is_read_by_its_headings_and_drawers() -> None:
    """Held-out s3's org-mode log (``* DONE …`` headings with ``:PROPERTIES:`` drawers) was read as one bullet:
    its recheck and its title-only pointer were lost. A starred heading is a heading, a drawer's fields are
    fields, and a field that holds an arXiv id or a repository points at the item as a URL does."""
    items = split_note("inbox/kenji/log.md", ORG_LOG)
    assert [i.title for i in items] == [
        "DriftBench: Evaluating Text-to-SQL Systems Under Schema Evolution",
        "Re-check OmniSQL releases",
        "VeriSQL-Decode: Verifier-Guided Beam Search",
    ]
    drift = items[0]
    assert drift.evidence.value == "verified" and ":PROPERTIES:" not in drift.text
    # a heading inside the item names a part: the lines under it are the point, without the heading's marks
    from e1prep.read.notes import blocks

    assert [b for _, b in blocks(drift.text) if "stale column" in b] == [
        "   stale column descriptions hurt more than none."
    ]


SLACK_EXPORT = """# #mi-radar · Slack export · 2027-06-03

**mei**  09:12
new promptable 3D seg repo trending this morning → https://github.com/kaiyuan-lab/TriPlaneSAM
caveat: I only read the top of the README.

    **lucas**  09:20
    stars are going vertical

**lucas**  10:42
Vireo Health's VireoScan FM press release: https://www.vireo-health.com/newsroom/vireoscan-fm
I've read the product page and the PR, nothing else.

**wenqi**  11:15
ok
"""


def test_a_slack_exports_bold_speaker_lines_head_messages_not_items() -> None:
    """Held-out q3's Slack export sets each speaker in bold over a time (``**mei**  09:12``): the speakers had
    become the items (``wenqi``, ``xiaoyu``). They head messages; a message that shares a link is the item, titled
    by what it says, not by who said it."""
    from e1prep.read.chat import speaker_lines

    assert speaker_lines(SLACK_EXPORT.split("\n")) == frozenset({2, 6, 9, 13})
    items = split_note("inbox/mei/slack.md", SLACK_EXPORT)
    assert [i.title[:30] for i in items] == ["new promptable 3D seg repo tre", "Vireo Health's VireoScan FM pr"]


ISSUE_THREAD = """# Megatron-LM #4127 — expert bias never updates w/ dist-opt + EP>1

**My summary (marcus, 06-08 14:15)**

- tl;dr: with the expert bias on, the distributed optimizer and EP > 1, the bias stays at 0.0.
- How far I got: the opening post and the first page of comments only.

Copied from https://github.com/NVIDIA/Megatron-LM/issues/4127

---

**hliu-ml** opened this issue on May 29, 2027

**Describe the bug**
`router.expert_bias` stays exactly zero for the whole run.

**Environment**
megatron-core 0.18.2, 64 experts top-8.

---

**ericsun** commented on May 30, 2027

Can repro on 0.18.2.

---

**ko-mcore** (Member) commented on May 31, 2027

The tokens-per-expert counts are never all-reduced across the EP group. Fix is PR #4188.
"""


def test_a_copied_issue_thread_is_one_item_about_its_issue() -> None:
    """Held-out r3 copied a GitHub issue under the writer's summary: its posts' authors and the opening post's
    template parts (``Describe the bug``, ``Environment``) had become the items. A thread that opens with a list
    of things, each with its link, is about each of them (held-out f3's triage thread keeps its items)."""
    items = split_note("inbox/marcus/issue.md", ISSUE_THREAD)
    assert [i.title for i in items] == ["Megatron-LM #4127 — expert bias never updates w/ dist-opt + EP>1"]
    assert "How far I got" in items[0].text and "Fix is PR #4188" in items[0].text
    listed = ISSUE_THREAD.replace(
        "Copied from https://github.com/NVIDIA/Megatron-LM/issues/4127",
        "1. DeepEP https://github.com/deepseek-ai/DeepEP\n2. MegaBlocks https://github.com/databricks/megablocks",
    )
    assert len(split_note("inbox/marcus/issue.md", listed)) >= 2


def test_an_issue_is_a_subject_of_its_own_not_its_projects_other_names() -> None:
    """r3's key had become ``Megatron-Core`` (a name the text also uses, which the document knows), so the new
    bug read as a recheck of the framework."""
    from e1prep.kb.knowledge import parse_knowledge
    from e1prep.read.identity import identify

    doc = parse_knowledge("k.md", "# moe\n## §1 训练系统\nMegatron-Core 支持 expert bias。\n")
    note = (
        "## Megatron-LM #4127 — expert bias never updates\nhttps://github.com/NVIDIA/Megatron-LM/issues/4127\n"
        "On Megatron-Core 0.18.2 the bias stays 0.0; read the whole thread.\n"
    )
    item = split_note("inbox/marcus/issue.md", note)[0]
    assert "#4127" in identify(item, doc).key


def test_a_plain_field_block_opening_a_note_about_one_source_merges_its_parts() -> None:
    """The same note with its fields written plain (no bold): the block is then no item of its own, and the
    parts under it are still the source's."""
    plain = (
        READING_NOTES.replace("**读到什么程度**", "读到什么程度")
        .replace("**标题**", "标题")
        .replace("**链接**", "链接")
    )
    items = split_note("inbox/xiaoyu/notes.md", plain)
    assert [i.title for i in items] == ["CASID: Collision-Aware Semantic IDs for Generative Retrieval"]


DICTATED = """# 语音备忘 06-09 阿强
（自动转写 没校对）

嗯 今天就说两件事啊 第一个是那个 FloodNet-3 论文 arXiv 2706.01234 我整篇看完了 正文和附录都看了

第二个 就是群里那个 SkyMap 的标题 我没点进去

还有就是 上周那个数据集的下载链接又挂了 先记一下
"""


def test_a_dictated_notes_spoken_topics_are_its_items() -> None:
    """Held-out t3's voice memo, transcribed with no punctuation, had one item: its first paragraph. Paragraphs
    that open a spoken topic (``第一个是…``, ``第二个…``, ``还有就是…``; writing.toml ``[spoken]``) are the items;
    what comes before the first is the memo's preamble, and a paragraph without an opener goes on with the topic
    before it."""
    items = split_note("inbox/qiang/memo.md", DICTATED)
    assert len(items) == 3
    assert "FloodNet-3" in items[0].title and "SkyMap" in items[1].title
    assert "自动转写" not in " ".join(i.text for i in items)
    assert items[0].evidence is EvidenceLevel.verified  # 整篇看完了: the whole paper read
    # the other side: a single topic opener is no list of topics (one paragraph of prose stays as it was)
    one = DICTATED.split("第二个")[0]
    assert len(split_note("inbox/qiang/memo.md", one)) <= 1


SHEET = """radar · 06-09

item,kind,ref,read_depth,remarks
FloodNet-3,paper,arXiv:2706.01234,"full paper, appendix too",new flood segmentation benchmark
NimbusCast,model,https://nimbus.example/blog,"blog, first half","weather nowcasting; filed there, ignore here"
"""


def test_a_pasted_sheet_is_read_by_its_header() -> None:
    """t3's CSV named its columns ``ref`` and ``remarks``, which no list held, so its header read as prose and
    the rows' kinds (``repo``, ``model``) became titles."""
    items = split_note("inbox/priya/radar.md", SHEET)
    assert [i.title for i in items] == ["FloodNet-3", "NimbusCast"]


def test_a_note_that_files_an_item_with_another_topic_says_so() -> None:
    from e1prep.read.notes import off_topic

    assert off_topic("weather nowcasting; filed there, ignore here") is not None
    assert off_topic("weather nowcasting; I filed the ticket, we use it here") is None


RSS = """# Starred — export

[arXiv cs.LG] CellPFN: Prior-Fitted Networks for Spreadsheets — 2027-06-18 — https://arxiv.org/abs/2706.11111
★ Read the whole PDF.
  - Context up to 1M rows (Sec. 3).
  - Weights non-commercial.

[Some Blog] CellPFN explained — 2027-06-20 (feed date) — https://blog.example/cellpfn
★ Opened it: an old post re-surfaced.
"""


def test_a_feed_entrys_title_is_its_named_field_not_its_date() -> None:
    """v3's RSS export wrote ``[feed] Title — date — link``: the field before the link is the date, so every
    item was titled by a date; and the points set in under the entry's annotation had been cut off."""
    items = split_note("inbox/ollie/rss.md", RSS)
    titles = [i.title.split("] ")[-1] for i in items]
    assert titles == ["CellPFN: Prior-Fitted Networks for Spreadsheets", "CellPFN explained"]
    assert "Context up to 1M rows" in items[0].text and "Opened it" not in items[0].text


MAIL_SECTIONS = """From: Ana <ana@example.org>
To: team@example.org
Subject: Re: Re: quarry 2.0 — bump or wait?

Filing this so it does not die in mail.

TL;DR
  1. Quarry 2.0 is out. Do not bump yet.
  2. Ledger has a large-data track now.

---- Quarry 2.0 ----
https://github.com/quarry/quarry/releases/tag/v2.0.0

From the release notes: the default engine changed.

On Mon, 21 Jun 2027 at 22:40, Bo <bo@example.org> wrote:
> 2.0 got tagged on Thursday. Worth it?

Re Bo: confirmed, the default flipped.

---- Ledger v1.3 ----
CHANGELOG: https://github.com/ledger/ledger/blob/main/CHANGELOG.md

Ledger now has a separate large-data track, 14 datasets.
"""


def test_a_plain_text_title_framed_by_dashes_is_a_section() -> None:
    """v3's e-mail digest parted its two subjects by ``---- XGBoost 4.0.0 ----`` lines: it was read as one
    message. A forward's delimiters (``----- forwarded from Slack -----``, ``----- end of forward -----``) frame no
    section: held-out z2's conclusion after the forward stays with its items."""
    items = split_note("inbox/ana/mail.md", MAIL_SECTIONS)
    assert [i.title for i in items] == ["Quarry 2.0", "Ledger v1.3"]
    forward = "----- forwarded from Slack -----\n" + MAIL_SECTIONS.split("\n\n", 2)[2] + "----- end of forward -----\n"
    assert all("forward" not in i.title for i in split_note("inbox/ana/fwd.md", forward))


NOTEBOOK = """# radar（notebook 导出）

**In [1]:**

```python
df = listing(["cs.SD"])
```

**Out [1]:**

```
214
```

**In [2]:**

```python
hits = df[df.title.str.contains("music")]
```

**Out [2]:**

```
0  2706.10001  Chorale-2
1  2706.10002  TuneBench
```

### ① Chorale-2（2706.10001）—— 全文读完，含附录

- 原生联合生成 4 轨，开放权重。
- 规模 2.1B 参数（Table 1）。

参数量就按论文的 2.1B 记。bo 说 HF 卡上写的不一样？我没去看 HF 卡。

### ② TuneBench（2706.10002）—— 只看了 abstract，PDF 还没下

- 歌词可懂度基准，1,200 首歌。
"""


def test_a_notebooks_cell_prompts_title_nothing() -> None:
    """Held-out u3's notebook export set its cells' prompts in bold (``**In [1]:**``): they were read as bold
    run-in titles, eight items titled ``python`` or nothing. The prompts are the notebook's machinery; the
    headings between the cells are the items, and a heading that says after the name how far it was read is
    the item's remark (``—— 全文读完，含附录``)."""
    items = split_note("inbox/mei/radar.md", NOTEBOOK)
    assert [i.title.split("（")[0] for i in items] == ["Chorale-2", "TuneBench"]
    assert items[0].evidence is EvidenceLevel.partial  # read in full; someone else's word lowers it
    assert items[1].evidence is EvidenceLevel.summary
    # the other side: one prompt is no notebook, and a heading that only names its item states nothing
    plain = NOTEBOOK.replace("—— 全文读完，含附录", "—— 方法部分").replace("—— 只看了 abstract，PDF 还没下", "")
    assert split_note("inbox/mei/radar.md", plain)[0].evidence is EvidenceLevel.unverified


MAIL_READ_LIST = MAIL_SECTIONS.replace(
    "Filing this so it does not die in mail.\n",
    "Filing this so it does not die in mail.\n\nWhat I actually read:\n"
    "  - Quarry: the full GitHub release page for v2.0.0. Did not run anything yet.\n"
    "  - Ledger: the CHANGELOG entry and the discussion post, both in full.\n",
).replace("2.0 got tagged on Thursday. Worth it?", "2.0 got tagged on Thursday. Might be worth it?")


def test_a_message_says_outside_its_parts_what_was_read_of_each_by_name() -> None:
    """Held-out v3's mail listed, above its sections, what its writer read of each (``XGBoost: the full GitHub
    release page…``, ``TabArena: … both in full``): no item said how far, so each was read whole, and a quoted
    reply's question (``Might be worth it?``) left both unverified. A line outside the parts that names one of them
    by a word of its title says how far that one was read; the part's own lines can only lower it."""
    items = split_note("inbox/ana/mail.md", MAIL_READ_LIST)
    assert [i.title for i in items] == ["Quarry 2.0", "Ledger v1.3"]
    assert items[0].evidence is EvidenceLevel.partial  # read in full; the quoted question lowers it
    # read in full, by the line that names it; the verifier's plain rule, which reads the part's own text, caps it
    assert items[1].reading.reader_level is EvidenceLevel.verified
    assert items[1].evidence is EvidenceLevel.partial
    # the other side: a name two parts hold, or none, says nothing of either
    both = MAIL_READ_LIST.replace("  - Ledger:", "  - v1:").replace("---- Ledger v1.3 ----", "---- Ledger v1 ----")
    assert split_note("inbox/ana/mail.md", both.replace("Quarry 2.0 ----", "Quarry v1 ----"))[1].evidence is (
        EvidenceLevel.unverified
    )


TERSE = """# radar 06-09

- Thor latency writeup — https://example.org/thor . 2B VLA, p50 112 ms, p99 187 ms. → VI-a [full]
- Waymo hub: now says 310M miles. Their page, their numbers. → VI-b [vendor page, skimmed]
- "Scaling Laws, Revisited" — saw the title on a slide photo. Could matter for III. [title only]
- Optimus dataset — not ours, filing under robotics. [none]
"""

BRACKETED = """# code-llm 雷达

- 【全文已读，含附录 A、B；附录 C 没细看】DriftBench: Measuring Decay of Coding Tasks（arXiv:2706.20417）：掉 11.4 分。
- 【仅摘要】Verify-then-Patch: Self-Verification for Code Agents（arXiv:2706.09951）：摘要说 +9.2。
- 【只看了标题】知乎《国产代码模型登顶》（群里转的，没点开）。
"""


def test_a_list_entrys_depth_in_brackets_makes_it_an_item_and_is_its_check() -> None:
    """w3's terse bullets ended with their depth in brackets (``[full]``, ``[title only]``) and y3's opened with it in
    lenticular brackets (``【全文已读，…】DriftBench…``): only the entries with a link were items, ``[full]`` alone in
    the running text stated nothing, and the opening bracket had titled the items (``【全文已读``). The bracket is
    the entry's check, as a table's check cell is its row's, and the title follows it."""
    terse = split_note("inbox/kenji/radar.md", TERSE)
    assert len(terse) == 3  # ``[none]`` says nothing of a read
    # read in full by its bracket; the verifier's plain rule, which finds no full read in the running text, caps it
    assert terse[0].reading.reader_level is EvidenceLevel.verified
    assert terse[2].evidence is EvidenceLevel.partial
    bracketed = split_note("inbox/lin/radar.md", BRACKETED)
    assert [i.title.split("（")[0] for i in bracketed][:2] == [
        "DriftBench: Measuring Decay of Coding Tasks",
        "Verify-then-Patch: Self-Verification for Code Agents",
    ]
    assert bracketed[1].evidence is EvidenceLevel.summary
    # the other side: a bracket that gives a verdict, not a read, is no check (held-out i3's ``…【待核实】``)
    verdict = "- Lumora DocParse v1 上线：我只看了官网发布博文，数字都是厂商自己说的。【待核实】\n- 另一条 【待核实】\n"
    assert all(i.check_cell is None for i in split_note("inbox/lin/w19.md", "# 周报\n\n" + verdict))


READING_LIST = """# Reading list — wk26

## Does Pseudo-Simulation Rank Planners Like Closed-Loop? A 41-Planner Study

arXiv:2706.11482 · v1 posted 2027-06-16 · https://arxiv.org/abs/2706.11482

Read the whole paper (main text + Appendix A/B). This is the one I'd push into V-a.

Spearman ρ over all 41 planners: 0.74; on the 9 VLA planners alone: 0.38 (Table 2).

Hedge: Appendix C claims ρ rises to 0.61 with a third stage. I only skimmed Appendix C and couldn't tell
whether it's the same 136 scenes. Treat the 0.61 as unverified.
"""


def test_a_line_under_the_heading_that_opens_by_saying_how_far_is_the_remark() -> None:
    """w3's reading list said how far in a sentence under each heading (``Read the whole paper (main text + Appendix
    A/B).``), with no label: the whole text was read as one remark, and the doubt about Appendix C's one claim left
    the fully read paper unverified. That opening sentence is the item's remark; the rest can only lower it."""
    item = split_note("inbox/mira/list.md", READING_LIST)[0]
    assert item.evidence is EvidenceLevel.partial  # read in full; the doubt of one claim caps it, as a body line may
    assert item.reading.remarks[0].startswith("Read the whole paper")
    # the other side: a channel's name is no heading (``#rag-eng 频道摘录``), and a read said far down is no opening
    chat = "#rag-eng 频道摘录\n\n[14:58] oskar: 今天看了 rerankd，好像不错？不确定\n"
    assert split_note("inbox/oskar/chat.md", chat)[0].evidence is EvidenceLevel.unverified


DISCUSSION = """copied from https://github.com/quarry/quarry/discussions/88 — 2027-06-29

how far I got: opening post read in full, first 3 replies read in full. Also opened the release notes
(https://github.com/quarry/quarry/releases/tag/v0.4.0). Did not run anything.

---

### quarry/quarry · Discussions · Show and tell
## #88  v0.4: tool-call trajectories from the chat template

**hz-quarry** · Maintainer · Jun 24, 2027

v0.4.0 is out. How it works:

1. We feed the aligned model only the chat-template prefix.
2. Each tool call is parsed against the JSON schema.
3. Trajectories where any call fails are dropped.

---

**mtrb** · Jun 25, 2027

Tried it on a 14B model: 41% pass, not 62%.

---

**yuki-s** · Jun 26, 2027

Heads-up on the prefill trick: see arXiv:2704.21096.
"""


def test_a_copied_forum_discussion_is_one_item_titled_by_its_thread() -> None:
    """x3 copied a GitHub Discussions thread whose post headers read ``**hz-quarry** · Maintainer · Jun 24, 2027``:
    they were no post headers, the opening post's numbered steps became six items, and the two links in the
    writer's prose above the thread (the thread's own and its release notes) had read as a triage list."""
    items = split_note("inbox/oskar/thread.md", DISCUSSION)
    assert [i.title for i in items] == ["#88  v0.4: tool-call trajectories from the chat template"]
    # the other side: a thread that opens with a list of things, each with its link, is about each of them
    listed = DISCUSSION.replace(
        "how far I got:",
        "1. Quarry https://github.com/quarry/quarry\n2. Ledger https://github.com/ledger/ledger\n\nhow far I got:",
    )
    assert len(split_note("inbox/oskar/thread.md", listed)) >= 2


def test_a_date_the_note_gives_a_piece_it_calls_old_is_the_pieces_own() -> None:
    """w3's table row said of a re-pushed 公众号 article ``读完发现是 2023-08 的旧文…过时，丢``: no label gave the date,
    so the stale article leaked as the night's increment. A date right before what the note calls an old piece
    (writing.toml ``[dates] old``) is the piece's own date."""
    assert item_date("读完发现是 2023-08 的旧文（v12 发布前的猜测），这周被重新推送。") == "2023-08"
    assert item_date("turns out it's a 2024-01-15 old post, re-shared") == "2024-01-15"
    # the other side: a date before anything else is not the piece's (``2023-08 的数据``, ``2023-08 发布了 v1``)
    assert item_date("用的是 2023-08 的数据") is None
    assert item_date("v1 在 2023-08 发布了，v2 是本周的") is None
