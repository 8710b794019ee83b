"""Mechanisms the sixth session's fresh other-hand trio (held-out z3, a4, b4) exposed, each tested on both sides
with notes written here, not copied from those cases: a living document whose subsections are bold lines, a
reading log whose legend codes are set off by bars, a reading label that asks a question, a line of tags, a
quoted slogan, a title in book-title brackets, and a note's "the document has it" beside the section it names."""

from __future__ import annotations

import re

import pytest
from tests.conftest import MakeKB

from e1prep.brief.models import EvidenceLevel
from e1prep.kb.knowledge import parse_knowledge
from e1prep.pipeline import draft_brief
from e1prep.read import evidence, identity, notes, subjects
from e1prep.read.labels import sentence_head

# --- the living document -------------------------------------------------------------------------------------

BOLD_SECTIONS = """# demo 活文档

## QX · 量化

**QX-1 权重量化**

- AWQ 与 GPTQ 的对照。

**QX-2 KV 量化**

- FP8 KV 已是默认。

**注意**

- 这一行不是小节。

## SV · 服务

**SV-1 调度**

- chunked prefill。
"""


def test_bold_lines_under_a_heading_number_its_subsections_when_their_counters_extend_it() -> None:
    doc = parse_knowledge("demo.md", BOLD_SECTIONS)
    ids = {s.id: (s.start, s.end) for s in doc.sections}
    assert {"§QX", "§QX-1", "§QX-2", "§SV", "§SV-1"} <= set(ids)
    # a bold line that extends no counter numbers nothing, and ends the subsection above it
    assert not any("注意" in s.title for s in doc.sections)
    assert ids["§QX-2"][1] < BOLD_SECTIONS.split("\n").index("**注意**") + 1
    assert doc.section_text("§QX-2").count("FP8") == 1


def test_a_bold_line_inside_a_numbered_section_leaves_its_numbering_as_it_was() -> None:
    text = "# d\n\n## §1 引擎\n\n### §1.1 vLLM\n\n**要点**\n\n- PagedAttention。\n\n"
    text += "### §1.2 SGLang\n\n- RadixAttention。\n"
    doc = parse_knowledge("d.md", text)
    assert [(s.id, s.end) for s in doc.sections] == [("§1", 14), ("§1.1", 10), ("§1.2", 14)]


# --- what a note says about its reading ----------------------------------------------------------------------


@pytest.mark.parametrize("label", ["How much I read", "How much we read", "Read"])
def test_a_short_label_that_names_the_reading_is_a_remark(label: str) -> None:
    line = f"**{label}:** the whole paper, appendix included."
    assert evidence.remark_line(line) is not None


@pytest.mark.parametrize("label", ["How much did they charge", "What I read on the train today"])
def test_a_label_without_a_reading_word_or_of_many_words_is_none(label: str) -> None:
    assert evidence.remark_line(f"**{label}:** the whole paper, appendix included.") is None


LOG_LEGEND = "甲 = 全文读完 ｜ 乙 = 只读了摘要 ｜ QR = 只看了 README 首屏 ｜ 丙 = 只有标题"


def test_a_legend_whose_entries_are_parted_by_bars_defines_each_code() -> None:
    legend = evidence.parse_legend(["代号：", LOG_LEGEND], unlabelled={0, 1})
    levels = {code: evidence.read_remark(st.text).level for code, st in legend.items()}
    assert levels["甲"] is EvidenceLevel.verified
    assert levels["乙"] is EvidenceLevel.summary
    assert "QR" in legend and "丙" in legend
    # a line of bars that states no reading defines nothing
    assert evidence.parse_legend(["左 = 东 ｜ 右 = 西 ｜ 上 = 北"], unlabelled={0}) == {}


def test_a_code_set_off_by_a_bar_where_a_part_opens_is_its_legend_mark() -> None:
    legend = evidence.parse_legend([LOG_LEGEND], unlabelled={0})
    assert "乙" in evidence.legend_symbols("10:05 — 乙｜Foo-Net: a paper", legend)
    # the same character inside a word, or without its bar, is no mark
    assert "乙" not in evidence.legend_symbols("10:05 — 乙醇 的新论文 Foo-Net", legend)


READING_LOG = f"""# 阅读流水

{LOG_LEGEND}

10:05 — 乙｜Foo-Net: Sparse Routing for Tiny Models（arXiv:2701.00001）。摘要说路由开销减半。

10:40 — 丙｜某周报里的标题 "Bar-Former Scales to Long Context"，没链接。

11:20 — 甲｜Baz-Serve 引擎（对标 vLLM）的 release notes，https://baz.invalid/n ，新增 --prefill-chunk 开关。
"""


def test_a_legend_code_is_no_word_of_its_entrys_title() -> None:
    items = notes.split_note("inbox/a/log.md", READING_LOG)
    titles = [it.title for it in items]
    assert titles[0].startswith("Foo-Net") and titles[2].startswith("Baz-Serve")
    assert not any(re.match(r"[甲乙丙]｜", t) for t in titles)
    # a longer word before a bar is a title's own (``vLLM｜release notes``)
    assert notes._clean_title("vLLM｜release notes") == "vLLM｜release notes"


def test_an_entry_its_legend_mark_calls_title_only_is_a_lead(make_kb: MakeKB) -> None:
    brief = draft_brief(make_kb({"inbox/a/2026-10-25T2000-log.md": READING_LOG}))
    keys = " ".join(inc.key for inc in brief.increments)
    assert "Bar-Former" not in keys  # 丙 = 只有标题: what was seen holds nothing
    assert "Baz-Serve" in keys  # 甲 = 全文读完, with a flag of its own


# --- items and their titles ------------------------------------------------------------------------------------

TAGGED = """# 周末零碎

看了 Foo-Net 的仓库 https://github.com/foo/foo-net ，README 从头读到尾，新增 --tiny 模式。

另一个是 Bar-Serve，https://bar.invalid/ ，只看了首页。

#量化 #服务 #周末
"""


def test_a_line_of_tags_is_no_heading_so_a_note_of_paragraphs_keeps_its_items() -> None:
    items = notes.split_note("inbox/a/n.md", TAGGED)
    assert [it.recogniser for it in items] == ["prose", "prose"]
    # a heading in the body is structure: then the paragraphs are not read as prose items
    assert notes._prose_spans(["# t", "", "## 小节", "", "正文 https://x.invalid/"], notes._UrlLines([])) == []


def test_a_quoted_claim_of_a_result_titles_nothing_but_a_quoted_name_does() -> None:
    claim = '顺手看了 Qux 的产品页，说能把场景压到 38 MB，"30× compression, visually lossless"。'
    quote = next(notes._QUOTED_TITLE.finditer(claim))
    assert not notes._quotes_a_title(claim, quote)
    named = '看了论文 "Sparse Routing for Tiny Models" 的摘要。'
    assert notes._quotes_a_title(named, next(notes._QUOTED_TITLE.finditer(named)))


def test_a_sentence_does_not_end_inside_a_book_title() -> None:
    assert sentence_head("CSDN《为什么要回放？一文讲透》。后面是正文。") == "CSDN《为什么要回放？一文讲透》"
    assert sentence_head("第一句？第二句。") == "第一句"


def test_a_piece_with_no_name_but_its_book_title_is_named_by_that_title() -> None:
    names = [c.name for c in subjects.candidates("CSDN《为什么要回放？一文讲透》")]
    assert names == ["为什么要回放"]
    # a name in the title comes first: the piece is about it
    assert subjects.candidates("公众号《Foo-Net 已死：一文看懂》")[0].name.startswith("Foo-Net")


# --- known against the document ---------------------------------------------------------------------------------


def test_a_note_that_says_the_section_it_names_holds_it_makes_it_known() -> None:
    doc = parse_knowledge("demo.md", BOLD_SECTIONS)
    text = "14:26 — 某博客《回放的比例》。全文看完：就是老结论的复述。没新东西，QX-2 都有。"
    item = notes.split_note("inbox/a/n.md", f"# n\n\n{text}\n")[0]
    ident = identity.identify(item, doc)
    assert ident.cites_section and ident.known(item.evidence)
    # a section named far from any such words, or such words with no section, make nothing known
    far = "14:26 — 某博客《回放的比例》。全文看完，没新东西。" + "正文很长，" * 12 + "对照了 QX-2 的写法。"
    item = notes.split_note("inbox/a/n.md", f"# n\n\n{far}\n")[0]
    assert not identity.identify(item, doc).known(item.evidence)
    assert identity.cites_a_section("见 §QX-1 与 SV-1", doc) and not identity.cites_a_section("QX-9 与 1.2 版", doc)


def test_a_note_that_notes_a_thing_only_so_the_team_knows_it_exists_calls_it_a_lead() -> None:
    assert notes.said_lead("厂商口径，记一下有这么个东西就行。") is not None
    assert notes.said_lead("Vendor page; noting it exists, nothing more.") is not None
    assert notes.said_lead("记一下：新增 --tiny 开关，默认关闭。") is None


COMMIT_LOG = """screen 10-25 — one line per thing

feat(read): Foo-Serve v2.0 release notes 全读, 新增 --tiny-kv 开关.
feat(skim): Bar-Net arXiv:2701.00002 — abstract only.
chore(refresh): acme/widget card → 120 ⭐.
chore: skip 某公众号的转载, 只有标题.
"""


def test_a_log_headed_as_commit_messages_is_one_item_a_line() -> None:
    items = notes.split_note("inbox/a/log.md", COMMIT_LOG)
    assert [it.title.split()[0] for it in items] == ["Foo-Serve", "Bar-Net", "acme/widget", "skip"]
    assert not any(it.title.startswith(("feat", "chore")) for it in items)
    # lower-case fields are no commit heads: one scope or none, and a note of ``key: value`` lines stays as it was
    fields = "# n\n\nurl: https://x.invalid/a\nread: full text\nnote: new flag --tiny\n"
    assert [it.recogniser for it in notes.split_note("inbox/a/f.md", fields)] != ["label-line"] * 3


def test_a_vendor_source_read_beside_a_full_read_of_another_limits_the_read_to_partial() -> None:
    beside = evidence.read_remark("CHANGELOG.md 全读 + GitHub release 公告全读")
    assert beside.level is EvidenceLevel.partial
    also = evidence.read_remark("README 从头到尾看了一遍，顺带把官方新闻稿也看了")
    assert also.level is EvidenceLevel.partial
    # the vendor's page alone, or a full read whose numbers are the vendor's own, is the vendor's word
    assert evidence.read_remark("官方博客全文读完").level is EvidenceLevel.vendor
    assert evidence.read_remark("full text read; throughput numbers are NVIDIA's own claims").level is (
        EvidenceLevel.vendor
    )


INDEXED = """**Screen 10-25 — exported from a doc**

**Mina · headings came out as bold lines**

**0 · How far I read**

0.1 Foo-Net — full text, appendix included.

0.2 Bar blog — abstract only.

**1 · Foo-Net: Sparse Routing for Tiny Models (arXiv:2701.00001)**

1.1 Routing cost halves on their suite.

**2 · Bar — "Anchor to the base"**

2.1 https://bar.invalid/post

2.2 Recipe: the KL reference is the base model.
"""


def test_a_part_that_says_how_far_each_other_part_was_read_is_no_item_but_their_statements() -> None:
    items = notes.split_note("inbox/a/doc.md", INDEXED)
    titles = [it.title for it in items]
    assert not any("How far I read" in t for t in titles)
    by = {t.split()[2] if t[:1].isdigit() else t.split()[0]: it for t, it in zip(titles, items, strict=True)}
    assert by["Foo-Net:"].reading.read_in_full
    assert by["Bar"].evidence is EvidenceLevel.summary
    # statements about the parts numbered 1 and 2 are kept by place, not by the number they print: the note's
    # first two parts, here with text of their own, are not read through them
    opened = INDEXED.replace("**Screen 10-25 — exported from a doc**", "**Screen 10-25**\n\nA quiet day.")
    opened = opened.replace("**Mina · headings came out as bold lines**", "**Mina**\n\nTwo things below.")
    items = notes.split_note("inbox/a/doc.md", opened)
    assert [it.title for it in items[:2]] == ["Screen 10-25", "Mina"]
    assert items[0].evidence is EvidenceLevel.unverified and items[1].evidence is EvidenceLevel.unverified
    assert items[2].reading.read_in_full


def test_a_part_that_names_one_other_part_or_holds_a_url_stays_an_item() -> None:
    one = INDEXED.replace("0.2 Bar blog — abstract only.", "see the list below.")
    assert any("How far I read" in it.title for it in notes.split_note("inbox/a/doc.md", one))
    linked = INDEXED.replace("0.2 Bar blog — abstract only.", "0.2 Bar blog — abstract only, https://bar.invalid/")
    assert any("How far I read" in it.title for it in notes.split_note("inbox/a/doc.md", linked))


def test_a_docs_numbered_heading_prints_its_ordinal_before_a_middle_dot_and_the_title_after_it() -> None:
    assert notes._clean_title("1 · Foo-Net: Sparse Routing") == "Foo-Net: Sparse Routing"
    # a year before a middle dot, or a dot later in the title, is the title's own
    assert notes._clean_title("2027 · Foo-Net 年度回顾") == "2027 · Foo-Net 年度回顾"
    assert notes._clean_title("Foo-Net · 2 个模型") == "Foo-Net · 2 个模型"


def test_a_chapter_id_of_letters_only_is_a_section_the_verifier_knows(make_kb: MakeKB) -> None:
    from e1prep.kb.loading import load_kb
    from e1prep.pipeline import living_document
    from e1prep.verify.verifier import Verifier

    note = "# n\n\n## Foo-Serve 2.0\n\n- 链接：https://foo.invalid/notes\n- 核查：release notes 全文读完\n"
    note += "- 新增 --tiny-kv 开关，KV 量化默认开启。\n"
    manifest = make_kb({"inbox/a/2026-10-25T2000-n.md": note}, knowledge=BOLD_SECTIONS)
    kb = load_kb(manifest)
    verifier = Verifier(kb, living_document(kb))
    brief = draft_brief(manifest)
    inc = brief.increments[0]
    inc.section = "§QX"  # ``## QX · 量化``: a chapter of the document
    assert "section-unknown" not in {v.rule for v in verifier.verify(brief).violations}
    inc.section = "§ZZ"  # the other side: a code the document has no chapter for
    assert "section-unknown" in {v.rule for v in verifier.verify(brief).violations}


def test_bold_lines_that_open_a_doc_with_nothing_under_them_head_the_note_and_title_no_item() -> None:
    titles = [it.title for it in notes.split_note("inbox/a/doc.md", INDEXED)]
    assert not any(t.startswith(("Screen 10-25", "Mina")) for t in titles)
    # a bold line with text of its own under it, or one with nothing under it later in the note, is an item
    opened = INDEXED.replace("**Mina · headings came out as bold lines**", "**Mina**\n\nRead Baz-Serve's notes.")
    assert any(it.title == "Mina" for it in notes.split_note("inbox/a/doc.md", opened))
    later = INDEXED + "\n**3 · Qux-Former: a title seen in a newsletter**\n"
    assert any(it.title.startswith("Qux-Former") for it in notes.split_note("inbox/a/doc.md", later))


def test_a_link_into_a_repositorys_tree_at_a_thing_the_title_names_points_at_that_thing() -> None:
    title = "Khronos 动了：FOO_tiny_ext 正式 ratify"
    deep = ["https://github.com/AcmeGroup/glSpec/tree/main/extensions/FOO_tiny_ext"]
    assert subjects.candidates(title, title, deep)[0].name == "FOO_tiny_ext"  # not the repository, glSpec
    # a link to a file the title does not name leaves the repository the subject
    doc_link = ["https://github.com/acme/FooServe/blob/main/docs/deployment-generation.md"]
    assert subjects.candidates("FooServe：Slurm 部署生成", "", doc_link)[0].name == "FooServe"


def test_a_note_that_says_the_document_is_out_of_date_says_the_item_is_new() -> None:
    assert notes.said_new("我们文档 GS-2 里写的还是 draft，该改了。") is not None
    assert notes.said_new("Our doc still says draft; the document is out of date there.") is not None
    # a change of the note's own, or a document of someone else's, says nothing of ours
    assert notes.said_new("这个 PR 该改了，评审意见很多。") is None
