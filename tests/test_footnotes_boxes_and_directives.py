"""Mechanisms the seventh session's fresh other-hand trio (held-out c4, d4, e4) exposed, each tested on both sides
with notes written here, not copied from those cases: prose whose sources are footnotes, a filing verb before a
thing rather than a topic, a name set in bold in running text, reStructuredText directives, a README read alone,
an item its note calls another under another name, a status report's set-in list, "the rest" said before any item
is named, and a star count beside a full read."""

from __future__ import annotations

from tests.conftest import MakeKB

from e1prep.brief.models import EvidenceLevel
from e1prep.pipeline import draft_brief
from e1prep.read import evidence, filing, footnotes, notes

# --- footnotes -----------------------------------------------------------------------------------------------

FOOTNOTED = """# Reading, Thursday

This week's find is **QuillCheck** (acme/quillcheck), a validator for episode files.[^a] It refuses an episode
whose clocks disagree instead of resampling it.

A second paragraph with no source of its own and nothing cited.

Sam mentioned a benchmark in passing.[^b] His number, not mine.

[^a]: https://acme.example/quillcheck/docs — read the design page end to end.
[^b]: Sam, in person, Tuesday.
"""


def _items(text: str) -> list[notes.NoteItem]:
    return notes.split_note("inbox/x/note.md", text)


def test_a_paragraph_that_cites_a_footnote_with_a_url_is_an_item_and_the_footnote_says_how_far_it_was_read() -> None:
    items = _items(FOOTNOTED)
    assert [i.title for i in items] == ["QuillCheck"]
    (item,) = items
    assert item.urls == ["https://acme.example/quillcheck/docs"]
    assert item.evidence == EvidenceLevel.verified
    # the definition is no item of its own, and the item's lines stay its paragraph's
    assert (item.line_start, item.line_end) == (3, 4)


def test_a_footnote_that_holds_no_url_brings_no_item_in() -> None:
    # Sam's paragraph cites [^b], which points nowhere: as before, a paragraph with no source is no item
    assert all("Sam" not in i.title for i in _items(FOOTNOTED))


def test_an_uncited_footnote_definition_stays_where_it_is() -> None:
    text = "# n\n\nNothing cites the note below.\n\n[^z]: https://example.org/z — skimmed\n"
    items = _items(text)
    assert len(items) == 1 and items[0].urls == ["https://example.org/z"]


def test_footnote_definitions_span_their_set_in_lines() -> None:
    lines = ["[^1]: first line", "    goes on here", "not part of it", "[^2]: https://x.org/2 — abstract only"]
    found = footnotes.footnotes(lines)
    assert (found["1"].start, found["1"].end, found["1"].text) == (0, 2, "first line goes on here")
    assert found["2"].url == "https://x.org/2"
    assert [n.label for n in footnotes.cited("see [^2] and [^1] and [^2]", found)] == ["2", "1"]


def test_a_footnote_citation_is_no_word_of_a_title() -> None:
    text = "# n\n\nA post on browser agents.[^4] Not ours.\n\n[^4]: https://example.org/p — title only\n"
    assert _items(text)[0].title.startswith("A post on browser agents.")
    assert "[^4]" not in _items(text)[0].title


# --- filing --------------------------------------------------------------------------------------------------

THIS = frozenset({"robotics"})


def test_a_filing_verb_before_a_thing_with_its_article_files_nothing() -> None:
    assert filing.filed_elsewhere("the docs say fixing belongs in the converter, not the checker.", THIS) is None
    assert filing.filed_elsewhere("that part belongs to the scheduler.", THIS) is None


def test_a_topic_named_bare_or_with_what_it_is_is_still_a_filing() -> None:
    assert filing.filed_elsewhere("belongs in rag, not here", THIS) == "belongs in rag"
    assert filing.filed_elsewhere("this belongs in the agent doc.", THIS) == "belongs in the agent doc"


# --- a name in bold ------------------------------------------------------------------------------------------


def test_a_name_set_in_bold_in_prose_titles_its_paragraph() -> None:
    text = "# n\n\nWorth a look: **Corvid-2**, released today. https://example.org/c2 — read in full.\n"
    assert _items(text)[0].title == "Corvid-2"


def test_a_quoted_title_still_comes_before_a_bold_word() -> None:
    text = '# n\n\nThe post "Scaling Tactile Skins Cheaply" is **good**. https://example.org/t — read it all.\n'
    assert _items(text)[0].title == "Scaling Tactile Skins Cheaply"


# --- reStructuredText directives, and a repository's front page read alone ------------------------------------

RST = """Screen, Friday
==============

.. contents:: 3 entries

lumenkit
--------

`acme/lumenkit <https://github.com/acme/lumenkit>`_

.. note:: README only. Did not clone.

A toolkit for batching scans.

Scaling skins
-------------

https://example.org/skins

.. warning:: Read the whole post. The linked
   benchmark is behind a login; I did not read that.

Quiet release
-------------

https://example.org/quiet

Nothing said here about how far it was read.
"""


def test_an_admonition_is_the_writers_own_words_and_other_directives_are_machinery() -> None:
    items = {i.title: i for i in _items(RST)}
    assert set(items) == {"lumenkit", "Scaling skins", "Quiet release"}
    assert items["lumenkit"].evidence is EvidenceLevel.partial
    # the directive's set-in line is read with its first: the limit is of the linked benchmark, not the post
    assert items["Scaling skins"].reading.read_in_full
    assert items["Quiet release"].evidence is EvidenceLevel.unverified
    assert not any("contents" in i.text for i in items.values())


def test_a_front_page_read_alone_is_a_partial_read_in_either_language() -> None:
    for remark in ("README only, did not run it.", "Only the model card.", "只看了 README，没 clone。"):
        assert notes.item_evidence(remark)[0] is EvidenceLevel.partial, remark
    # beside a full read of it, the README is what was read in full
    assert notes.item_evidence("Full read of the README and the design doc.")[0] is EvidenceLevel.verified


# --- the same item under another name -----------------------------------------------------------------------

LETTER = """# Letter

**Quillfire streams decode in the vLLM engine.**
Quillfire's blog describes tiledec, their engine plugin for vLLM: decode runs in chunks on a second stream.
https://quillfire.invalid/blog/tiledec
(read the whole post)
"""

SCREEN = """# Screen

## tiledec

https://github.com/quillfire-ai/tiledec

Read the README in full. New vLLM engine flag --overlap 2 for chunked decode. {verdict}
"""


def test_an_increment_its_note_calls_another_of_the_batch_joins_it(make_kb: MakeKB) -> None:
    same = SCREEN.format(verdict="Same thing as the Quillfire post in the letter; treat it as the same item.")
    brief = draft_brief(make_kb({"inbox/a/2026-10-25T0900-letter.md": LETTER, "inbox/b/2026-10-25T1000-s.md": same}))
    (inc,) = [i for i in brief.increments if "Quillfire" in i.key or "tiledec" in i.key]
    assert inc.key == "Quillfire"
    assert "inbox/b/2026-10-25T1000-s.md" in inc.sources
    # said visibly, in the note's words: nothing is dropped
    assert any("Same thing as the Quillfire post" in e.reason and e.key == "tiledec" for e in brief.excluded)


def test_without_the_notes_word_two_names_stay_two_increments(make_kb: MakeKB) -> None:
    apart = SCREEN.format(verdict="Worth a line of its own.")
    brief = draft_brief(make_kb({"inbox/a/2026-10-25T0900-letter.md": LETTER, "inbox/b/2026-10-25T1000-s.md": apart}))
    keys = {i.key for i in brief.increments}
    assert {"Quillfire", "tiledec"} <= keys


# --- a status report ------------------------------------------------------------------------------------------

STATUS = """Eng screen, Monday
owner: kim

OVERALL: AMBER — one real bug, one release worth a line, the rest is vendor talk.

RED
  * foo-sim issue #12 — sampler not reproducible
    https://github.com/acme/foo-sim/issues/12
    Reproduced it myself and read the whole thread.

AMBER
  * Halcyon Health federated network (vendor blog)
    Skimmed only; the rest is a form. Link lost, sorry.

GREEN
  * BarFL 2.0 — read the full release notes
    https://barfl.invalid/2.0/notes
    New: client-side adapter merge.
  * OldFL — still no release. Nothing to change.
"""


def test_a_list_set_in_under_plain_group_labels_keeps_its_entries_without_a_link() -> None:
    items = _items(STATUS)
    assert [i.title.split(" ")[0] for i in items] == ["foo-sim", "Halcyon", "BarFL", "OldFL"]


def test_set_in_entries_under_an_outer_lists_entries_are_its_points() -> None:
    text = "# n\n\n1. **foo**\n   - https://github.com/acme/foo\n   - 核查：README 全文\n   - 小工具\n"
    text += "2. **bar**\n   - https://github.com/acme/bar\n   - 核查：只看了标题\n   - 先挂着\n"
    assert [i.title for i in _items(text)] == ["foo", "bar"]


def test_the_rest_said_before_any_item_is_named_is_said_of_the_items_that_say_nothing() -> None:
    items = {i.title.split(" ")[0]: i for i in _items(STATUS)}
    assert items["foo-sim"].evidence is EvidenceLevel.verified  # its own full read stands
    assert items["OldFL"].evidence is EvidenceLevel.vendor  # it says nothing: the rest is vendor talk
    # once items are named, "the rest" is the others, as before
    got = evidence.range_statements(["前两条读了原文，其余只看了摘要"], [1, 2, 3, 4])
    assert got[3][0].level is EvidenceLevel.summary and got[1][0].level is EvidenceLevel.verified


def test_a_star_count_beside_a_full_read_limits_nothing_and_alone_is_a_cards() -> None:
    read = "Reproduced it and read the whole thread.\n  Side note: the repo hit HN; stars went 2.3k -> 2,486."
    assert notes.item_evidence(read)[0] is EvidenceLevel.verified
    assert notes.item_evidence("stars 2,486 (+176 this week)")[0] is EvidenceLevel.card


# --- an annotated bibliography, a technical word, a todo.txt list ---------------------------------------------

BIBLIOGRAPHY = """文献雷达

[1] Okafor, C., & Brandt, L. (2027). *Sparse Relay: Buffered Aggregation
    for Stragglers.* arXiv:2706.08827, v2.
    https://arxiv.org/abs/2706.08827v2

    全文读完。服务端再用截断 SVD 把更新投回各自的秩。

[2] Ferreira, M., et al. (2027). Leaky Gates. arXiv:2707.02961.
    https://arxiv.org/abs/2707.02961

    只读了摘要。
"""


def test_a_reference_in_author_year_style_is_titled_by_the_work_it_cites() -> None:
    titles = [i.title for i in _items(BIBLIOGRAPHY)]
    assert titles == ["Sparse Relay: Buffered Aggregation for Stragglers", "Leaky Gates"]


def test_a_label_line_that_is_no_reference_keeps_its_sentence_as_title() -> None:
    log = "09:10 Foo-Serve (2027) 出了 2.0，https://foo.invalid/2\n全文读完。\n\n10:20 Bar-KV，https://bar.invalid/\n只看了标题。\n"
    assert _items(log)[0].title.startswith("Foo-Serve (2027)")


def test_truncated_as_a_technical_word_is_no_truncated_page() -> None:
    assert _items(BIBLIOGRAPHY)[0].evidence is EvidenceLevel.verified
    for word in ("上下文截断到 4k", "用截断 SVD 投回去"):
        assert notes.item_evidence(word)[0] is EvidenceLevel.unverified, word
    for cut in ("正文截断", "截断了", "PDF 截断在第 6 页", "页面被截断"):
        assert notes.item_evidence(cut)[0] is EvidenceLevel.partial, cut


TODO = """# kim · todo.txt

x 2027-07-20 2027-07-18 读完 Skiff 团队的跨设备复盘 https://skiff.invalid/post —— 实测每轮掉线约 22% +fl @blog read:full
x 2027-07-20 acme/splicer https://github.com/acme/splicer 只看了 README：客户端只跑前几层 +fl +repo read:readme
(C) 2027-07-20 https://arxiv.org/abs/2707.09140 +fl @arxiv read:none
(D) 2027-07-20 问 lee 要博客的链接 +fl @lee
"""


def test_a_todo_txt_list_is_one_item_a_task_its_tags_no_words_of_the_title() -> None:
    items = _items(TODO)
    assert [i.recogniser for i in items] == ["todo"] * 4
    assert items[0].title.startswith("读完 Skiff 团队的跨设备复盘") and "+fl" not in items[0].title
    assert items[2].urls == ["https://arxiv.org/abs/2707.09140"]
    assert [i.evidence for i in items[:3]] == [EvidenceLevel.verified, EvidenceLevel.partial, EvidenceLevel.unverified]


def test_lines_with_a_plus_or_an_at_are_no_todo_list_without_its_marks() -> None:
    note = "# n\n\n- Foo +1 on this https://foo.invalid/ @kim\n- Bar, C++ port https://bar.invalid/ @lee\n"
    assert all(i.recogniser != "todo" for i in _items(note))


# --- a reviewer's text boxes, pages read, a README that changed -----------------------------------------------

BOXES = """Review sheet, Monday

+--------------------------------------------------------------+
| ITEM     Sparse Relay — arXiv:2706.08827                      |
| Link     https://relay.invalid/whitepaper.pdf                 |
| Read     pp.1–6 only: the viewer dies after p.6. I have the   |
|          exec summary and the architecture.                   |
+--------------------------------------------------------------+
 PROS
  + A concrete design at last.
 VERDICT  Register as partial.

+--------------------------------------------------------------+
| ITEM     Acme BarFL 2.9                                       |
| Read     release notes in full                                |
+--------------------------------------------------------------+
 VERDICT  Features in.
"""


def test_a_text_box_is_read_as_the_fields_it_frames() -> None:
    items = _items(BOXES)
    assert [i.title for i in items] == ["Sparse Relay — arXiv:2706.08827", "Acme BarFL 2.9"]
    assert [i.recogniser for i in items] == ["opener-field"] * 2
    assert [i.evidence for i in items] == [EvidenceLevel.partial, EvidenceLevel.verified]


def test_a_grid_table_of_several_columns_is_no_box() -> None:
    from e1prep.read.markup import to_markdown

    grid = ["+-----+-----+", "| a   | b   |", "+-----+-----+"]
    assert to_markdown(grid) == grid


def test_a_readme_that_only_changed_is_no_readme_read_alone() -> None:
    assert notes.item_evidence("the README only changed a CI badge")[0] is EvidenceLevel.unverified
    assert notes.item_evidence("README only (skim)")[0] is EvidenceLevel.partial


def test_a_list_of_records_set_in_is_no_list_of_titles() -> None:
    records = 'items:\n\n  - n: 1\n    title: "Foo"\n    url: https://foo.invalid/\n'
    records += '  - n: 2\n    title: "Bar"\n    url: https://bar.invalid/\n'
    assert notes._set_in_list(records.split("\n"), notes._UrlLines(records.split("\n"))) == []


def test_a_repository_named_by_its_key_and_by_anothers_link_is_one_subject() -> None:
    from e1prep.brief.models import Increment
    from e1prep.produce.unify import merge

    level = EvidenceLevel.partial
    a = Increment(key="ledgerline", sources=["inbox/a.md"], url="https://github.com/kw/ledgerline", evidence=level)
    b = Increment(key="kw/ledgerline", sources=["inbox/b.md"], evidence=level)
    c = Increment(key="kw/other", sources=["inbox/c.md"], evidence=level)
    merged = merge([a, b, c])
    assert [m.key for m in merged] == ["ledgerline", "kw/other"]
    assert merged[0].sources == ["inbox/a.md", "inbox/b.md"]


def test_one_paper_by_its_link_and_by_its_id_in_a_name_is_one_subject() -> None:
    from e1prep.brief.models import Increment
    from e1prep.produce.unify import merge

    level = EvidenceLevel.verified
    a = Increment(key="Heterogeneous-Rank", sources=["a.md"], url="https://arxiv.org/abs/2707.11352", evidence=level)
    b = Increment(key="RankMix", title="RankMix — arXiv:2707.11352", sources=["b.md"], evidence=level)
    c = Increment(key="Other", title="Other — arXiv:2707.11353", sources=["c.md"], evidence=level)
    assert [m.key for m in merge([a, b, c])] == ["Heterogeneous-Rank", "Other"]


def test_a_boxs_rows_stay_verbatim_so_a_quote_of_them_is_the_sources() -> None:
    from e1prep.read.markup import to_markdown

    box = ["+------------------+", "| ITEM     Foo 2.0 |", "| Read     in full |", "+------------------+"]
    assert to_markdown(box) == ["", "ITEM     Foo 2.0", "Read     in full", ""]
    assert all(line in src for line, src in zip(to_markdown(box)[1:3], box[1:3], strict=True))


def test_a_note_that_says_the_team_tracks_it_already_calls_it_known() -> None:
    assert notes.said_known("We track tripwire already (S6 of our doc).") is not None
    assert notes.said_known("Nothing that changes what we say about it.") is not None
    assert notes.said_known("We should track tripwire from now on.") is None


# --- a kanban board, a notebook's days ------------------------------------------------------------------------

BOARD = """Board export · video

━━━━━━━━ To read (3) ━━━━━━━━

□ Foo-Serve 2.0 release notes
  https://foo.invalid/2.0
  ▸ read: search snippet only

□ Bar-KV design doc
  https://bar.invalid/design
  ▸ read: 只看了标题

□ Qux weekly #88 (paywall)
  ▸ read: 付费墙，链接没存

━━━━━━━━ Done (1) ━━━━━━━━

■ Baz-Cache walkthrough
  https://baz.invalid/walk
  ▸ read: 全文看完
"""


def test_a_boards_cards_are_items_under_its_lanes() -> None:
    items = _items(BOARD)
    assert [i.title for i in items] == ["Foo-Serve 2.0 release notes", "Bar-KV design doc", "Baz-Cache walkthrough"]
    assert items[2].evidence is EvidenceLevel.verified
    # a card with no link is no part of the card above it
    assert "Qux" not in items[1].text and "付费墙" not in items[1].text


def test_a_rule_drawn_around_a_title_makes_it_a_heading_and_a_dash_in_a_sentence_does_not() -> None:
    from e1prep.read.lines import heading
    from e1prep.read.markup import to_markdown

    assert [heading(line) for line in ("—— 7/12（周一）——", "── 小节 ──")] == [(2, "7/12（周一）"), (2, "小节")]
    assert heading("—— 这是破折号 ——后面还有字") is None and heading("———") is None
    # read as written: the line stays itself, so a quote of it is verbatim
    assert to_markdown(["━━━━ 待看（3） ━━━━"]) == ["━━━━ 待看（3） ━━━━"]


def test_a_sign_inside_a_paragraph_is_no_card() -> None:
    feed = "[feed] Foo-Serve 2.0 — https://foo.invalid/\n★ Read the whole post.\n  - new flag --tiny\n\n"
    feed += "[feed] Bar-KV — https://bar.invalid/\n★ Title only.\n  - nothing else\n"
    from e1prep.read.markup import to_markdown

    assert not any(line.startswith("#") for line in to_markdown(feed.split("\n")))


def test_headings_that_say_nothing_of_their_own_are_groups_over_their_items() -> None:
    note = "## Groups A\n\n### Foo-Serve\n\nhttps://foo.invalid/ 全文读完\n\n"
    note += "### Bar-KV\n\nhttps://bar.invalid/ 只看了标题\n\n"
    note += "## Groups B\n\n### Baz-Cache\n\nhttps://baz.invalid/ 全文读完\n"
    assert [i.title for i in _items(note)] == ["Foo-Serve", "Bar-KV", "Baz-Cache"]
    # a heading with lines of its own is an item in sections, as before
    owned = "## Foo-Serve 2.0\n\nhttps://foo.invalid/ 全文读完\n\n### 要点\n\n- a\n\n### 存疑\n\n- b\n\n"
    owned += "## Bar-KV\n\nhttps://bar.invalid/\n\n### 要点\n\n- c\n"
    assert [i.title for i in _items(owned)] == ["Foo-Serve 2.0", "Bar-KV"]


# --- a numbered argument, a headline that names nothing ---------------------------------------------------------

ARGUMENT = """对今天这批的异议

命题 1
　主张：Foo-Cache 让 Bar 3.1 提速 4.6×。
　反驳：
　　a. 原帖我没点开，只看了摘抄。
　　b. 跟 C2 的共识差太多。
　结论：不进正文。

命题 2
　主张：Baz-Serve 首帧 0.8 s。
　反驳：
　　a. 原文我也读完了。
　结论：机制进 C3。
"""


def test_a_label_alone_over_a_block_set_in_is_an_item_and_its_lettered_points_are_not() -> None:
    items = _items(ARGUMENT)
    assert [i.recogniser for i in items] == ["label-line", "label-line"]
    assert "Foo-Cache" in items[0].title and "Baz-Serve" in items[1].title


def test_a_numbered_list_at_the_margin_is_still_the_notes_items() -> None:
    note = "# n\n\n1. Foo-Serve 2.0 https://foo.invalid/\n   全文读完\n2. Bar-KV https://bar.invalid/\n   只看了标题\n"
    assert [i.recogniser for i in _items(note)] == ["numbered", "numbered"]


def test_a_headline_that_names_nothing_is_its_own_subject() -> None:
    from e1prep.kb.knowledge import parse_knowledge
    from e1prep.read.identity import identify

    doc = parse_knowledge("d.md", "# d\n\n## §1 蒸馏\n\n- classifier-free guidance 在蒸馏时的作用。\n")
    text = "## Why guidance distillation eats your motion\n\nhttps://example.org/n\n\nRead the whole note."
    (item,) = _items(text)
    assert identify(item, doc).key == "Why guidance distillation eats your motion"
    # a line of fewer than three words is no headline (``1:1 with kasia``)
    from e1prep.read.identity import _headline

    assert _headline("1:1 with kasia") is None
    # a title that names a product keeps the product as its key
    (named,) = _items("## Foo-Serve cuts decode time\n\nhttps://example.org/f\n\nRead the whole post.")
    assert identify(named, doc).key == "Foo-Serve"


def test_a_logs_day_with_no_structure_of_its_own_is_titled_by_its_first_line_not_its_date() -> None:
    log = "—— 7/14（周三）——\n读完 Foo-Serve 2.0 发布说明\nhttps://foo.invalid/2\n→ 新增 --tiny\n\n"
    log += "—— 7/15（周四）——\n回看 Foo-Serve 2.0 的评测\n→ 真机数字是厂商自述\n"
    titles = [i.title for i in _items(log)]
    assert titles[1] == "回看 Foo-Serve 2.0 的评测"
    assert not any(t.startswith("7/1") for t in titles)


def test_numbered_entries_set_in_under_group_labels_open_their_own_blocks() -> None:
    radar = "radar\n\nA. retrieval\n   1. ● Foo-Serve — arXiv:2612.04417\n      https://arxiv.org/abs/2612.04417\n"
    radar += "      - new retrieval unit\n\nB. other\n   2. ○ Bar-KV — arXiv:2611.30517\n      - abstract only\n"
    assert [i.recogniser for i in _items(radar)] == ["numbered", "numbered"]


def test_a_blank_line_opens_no_bracketed_paragraph() -> None:
    assert not notes._opens_paragraph_with_bracket(["", ""], 1)
    assert notes._opens_paragraph_with_bracket(["", "[00:09] 第一件"], 1)


# --- g4: an abstract read beside a failed fetch, a section named as where, open tabs, tagged memos -------------


def test_an_access_problem_beside_an_abstract_read_takes_nothing_from_it() -> None:
    assert notes.item_evidence("只看了摘要。PDF 今天一直 502，明天再试。")[0] is EvidenceLevel.summary
    assert notes.item_evidence("abstract only; the PDF link 404s")[0] is EvidenceLevel.summary
    # a search engine's summary of a page behind a login: the page was never opened
    assert notes.item_evidence("需登录，只有搜索摘要")[0] is EvidenceLevel.snippet
    assert notes.item_evidence("打不开（403）")[0] is EvidenceLevel.snippet


def test_filing_under_a_section_of_the_document_files_nothing_away() -> None:
    this = frozenset({"reinforcement-learning"})
    for said in ("结论：收，归 A-2。", "file it under FLT-1.", "放 §3.2"):
        assert filing.filed_elsewhere(said, this) is None, said
    assert filing.filed_elsewhere("这归 inference，", this) == "归 inference"


TABS = """tabs I still had open today.

https://foo.invalid/blog/postmortem
  "Why our run died at step 1,900" -- Foo eng blog
  read the whole thing, twice.
  fix: BF16 KV during rollout.

https://github.com/acme/gymkit
  README only, skimmed, didn't run anything
  procedurally generated envs
"""


def test_a_dump_of_open_tabs_is_one_item_a_link_titled_by_what_it_quotes() -> None:
    items = _items(TABS)
    assert items[0].title == "Why our run died at step 1,900"
    assert [i.evidence for i in items] == [EvidenceLevel.verified, EvidenceLevel.partial]
    assert items[1].urls == ["https://github.com/acme/gymkit"]


MEMOS = """memos 0730

Foo-RL (arXiv:2707.09918) 全文读完，也看了 config。核心：turn 级优势。
#new #全文 #D-1

Bar-Gym — README 从头到尾读了。环境是程序生成的。
#new #readme #D-2

(other topic) 一篇 judge 漂移的文章，只看到标题。
#not-rl #title-only
"""


def test_memos_closed_by_a_line_of_tags_are_items_and_a_depth_tag_is_their_check() -> None:
    items = _items(MEMOS)
    assert [i.recogniser for i in items] == ["tagged"] * 3
    assert items[0].evidence is EvidenceLevel.verified and items[0].check_cell == "全文"
    assert items[1].evidence is EvidenceLevel.verified  # no depth tag: its own words say it


def test_one_paragraph_with_tags_is_no_list_of_memos() -> None:
    assert notes._tagged_paragraph_spans(["Foo 全文读完。", "#new #全文"]) == []


def test_worth_logging_first_is_an_opinion_on_filing_no_doubt() -> None:
    read = "Bar-Gym README 从头到尾读了，没跑。我觉得值得先记一笔，标 experimental 就行。"
    assert notes.item_evidence(read)[0] is EvidenceLevel.verified


# --- f4 / h4: a rule of box-drawing characters, review forms, a fetch log, a sentence's opening capital ---------


def test_a_rule_of_box_drawing_characters_parts_a_note_as_a_thematic_break_does() -> None:
    note = "摘抄本\n\n〔一〕Foo 博客《Foo-Serve Report》\nhttps://foo.invalid/r\n【全文读完】\n\n━━━━━━━━━━\n\n"
    note += "〔二〕以下只有搜索结果摘要，先记下：\n· 「Bar 0.3B」——某搜索结果摘要。【仅摘要】 arXiv:2707.01234\n"
    items = _items(note)
    assert [i.title for i in items][:1] == ["Foo 博客《Foo-Serve Report》"]  # the counter in 〔〕 is no word of it
    assert len(items) == 2 and "Bar 0.3B" not in items[0].text


def test_a_bracketed_counter_after_a_rule_opens_its_paragraph() -> None:
    form = "screen\n\n" + "-" * 40 + "\n[1] Foo-Serve: A Paper — v2\nRead: full text\n\n" + "-" * 40
    form += '\n[2] (not a paper) M. Hal, "Why every metric lies to you"\nRead: full, twice\n'
    titles = [i.title for i in _items(form)]
    assert titles[0].startswith("Foo-Serve: A Paper") and titles[1].startswith("(not a paper) M. Hal")


def test_an_initial_ends_no_sentence() -> None:
    from e1prep.read.labels import sentence_head

    assert sentence_head('M. Halvorsen, "Designability". Next one') == 'M. Halvorsen, "Designability"'
    assert sentence_head("Foo 2.0 is out. Next") == "Foo 2.0 is out"


def test_a_compounds_only_is_no_partial_read() -> None:
    assert notes.item_evidence("Confidence: 4 on the backbone-only part")[0] is EvidenceLevel.unverified
    assert notes.item_evidence("only read part of it")[0] is EvidenceLevel.partial


FETCH_LOG = """# fetch log (kim)
# if the status says 200 I read the page.

$ curl -sL -w '%{http_code}\\n' https://foo.invalid/p/metric-post
200
# read all of it. Kim Lee, "Your metric is a property of your pipeline".
# -> KEEP, D1

$ curl -sI https://bar.invalid/news | head -1
HTTP/2 403
# "Enzymes reach the clinic" (title from the search page only). not retrying.
"""


def test_a_fetch_logs_comments_are_its_words_and_each_fetch_an_item() -> None:
    items = _items(FETCH_LOG)
    assert [i.recogniser for i in items] == ["session", "session"]
    assert items[0].title == "Your metric is a property of your pipeline"
    assert items[0].evidence is EvidenceLevel.verified


def test_hash_lines_are_headings_where_no_commands_are_typed() -> None:
    from e1prep.read.markup import to_markdown

    note = ["# Radar", "", "$ only one command", "", "# Foo-Serve"]
    assert to_markdown(note) == note


def test_a_titles_opening_capital_is_no_name_where_the_document_writes_the_word_in_lower_case() -> None:
    from e1prep.kb.knowledge import parse_knowledge
    from e1prep.read.identity import identify

    doc = parse_knowledge("d.md", "# d\n\n## §1 指标\n\n- designability 是骨架本身的性质。\n- Dynamo 的调度。\n")
    (item,) = _items("## Designability is a property of your pipeline\n\nhttps://e.org/d\n\nRead all of it.")
    assert identify(item, doc).key == "Designability is a property of your pipeline"
    (named,) = _items("## Dynamo adds session routing\n\nhttps://e.org/y\n\nRead all of it.")
    assert identify(named, doc).key == "Dynamo"


def test_a_dash_is_no_legend_mark() -> None:
    from e1prep.read.evidence import parse_legend

    line = '→ 群里有人说 Foo 的开源是"阉割版" —— 没给来源；可能是一回事'
    assert parse_legend([line], unlabelled={0}) == {}
    assert set(parse_legend(["● 全文读完   ◐ 读了一部分   ○ 只看了摘要"], unlabelled={0})) == {"●", "◐", "○"}


def test_a_model_and_its_repository_are_one_subject_two_versions_are_not() -> None:
    from e1prep.brief.models import Increment
    from e1prep.produce.unify import merge

    level = EvidenceLevel.vendor
    model = Increment(key="Corvid-1", sources=["inbox/a.md"], evidence=level)
    repo = Increment(key="corvid", url="https://github.com/rookery/corvid", sources=["cards/c.md"], evidence=level)
    assert [m.key for m in merge([model, repo])] == ["Corvid-1"]
    assert [m.key for m in merge([repo, model])] == ["corvid"]
    two = [
        Increment(key="Foo-1", sources=["a.md"], evidence=level),
        Increment(key="Foo-2", sources=["b.md"], evidence=level),
    ]
    assert len(merge(two)) == 2
    repos = [
        Increment(key="a/llm", url="https://github.com/a/llm", sources=["a.md"], evidence=level),
        Increment(key="b/llm", url="https://github.com/b/llm", sources=["b.md"], evidence=level),
    ]
    assert len(merge(repos)) == 2


# --- j4: a pass over the document, entry by entry ---------------------------------------------------------------

PASS = """按活文档分节过一遍（8/10）

→ C2 ｜新，要加：Foo Transcoders（arXiv:2708.04417）
  全文读完，附录也看了。per-expert transcoder。

→ M1 ｜新，会动现有结论：Bar Research 博客《Probes don't survive fine-tuning》
  https://bar.invalid/blog/probes
  全文读了。用一个跟欺骗完全无关的 LoRA 微调，probe 就失效。

→ T2 ｜只是计数：dictlearn 卡刷新到 2,388 ⭐。
"""


def test_arrow_entries_over_a_body_set_in_are_items_titled_after_their_code_and_verdict() -> None:
    items = _items(PASS)
    assert [i.title for i in items][:2] == [
        "Foo Transcoders（arXiv:2708.04417）",
        "Bar Research 博客《Probes don't survive fine-tuning》",
    ]


def test_an_attribute_that_says_unrelated_is_no_verdict_on_the_item() -> None:
    assert notes.off_topic("用一个跟欺骗完全无关的 LoRA 微调") is None
    assert notes.off_topic("这条和本主题无关，跳过") is not None


def test_an_ascii_operator_opens_no_card() -> None:
    from e1prep.read.markup import to_markdown

    note = ["+ a", "  b", "", "+ c", "  d"]
    assert to_markdown(note) == note
