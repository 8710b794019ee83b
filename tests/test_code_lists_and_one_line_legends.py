"""u4, v4 and w4 (other hands, 2026-12-07): reading lists kept as code, legends one entry a line, boxed titles,
a Douban shelf's marks, and a compound that says "unrelated" of no item."""

from __future__ import annotations

from tests.conftest import MakeKB

from e1prep.brief.models import EvidenceLevel
from e1prep.pipeline import draft_brief
from e1prep.read import evidence, notes


def test_a_compound_with_unrelated_in_it_is_no_verdict_on_the_item() -> None:
    # 训练无关 is "training-free": a word of the method, not the writer's verdict on the topic
    assert notes.off_topic("视频 DiT 用的训练无关稀疏模式：空间上保留局部窗口") is None
    assert notes.off_topic("删了表情和无关闲聊") is None
    # the verdict itself, at a clause's end or before a particle, still judges
    assert notes.off_topic("和 LLM 推理无关，记一笔") is not None
    assert notes.off_topic("这条跟我们无关了") is not None
    assert notes.off_topic("跟本主题无关") is not None


def _items(text: str) -> list[notes.NoteItem]:
    return notes.split_note("inbox/x/note.md", text)


# --- a reading list kept as code ---------------------------------------------------------------------------------

CODE_LIST = '''My list, kept as code so a script can print what is left.

```python
class Seen(Enum):
    WHOLE = "read end to end"
    PART = "read only the parts in `read=`"
    BLURB = "abstract or listing blurb only"


PILE = [
    Entry(
        title="Gannet: Streaming Top-k for Paged Caches",
        link="https://arxiv.org/abs/2711.00412",
        seen=Seen.PART,
        notes="""
        - per-page bounds kept inside the kernel loop
        - their 2.4x is from the part I skipped
        """,
    ),
    Entry(
        title="Petrel",
        link="https://github.com/acme/petrel",
        seen=Seen.WHOLE,
        topic="retrieval",  # not ours: the retrieval doc
    ),
]
```
'''


#: the two records every list kept as code in these tests holds: (title, URL)
RECORDS = [
    ("Gannet: Streaming Top-k for Paged Caches", ["https://arxiv.org/abs/2711.00412"]),
    ("Petrel", ["https://github.com/acme/petrel"]),
]


def test_records_written_in_code_are_items_titled_by_their_title_field() -> None:
    items = _items(CODE_LIST)
    assert [(i.title, i.urls) for i in items] == RECORDS
    # the enum in capitals, one member a line, is the note's legend: each record's depth field reads through it
    assert [i.evidence for i in items] == [EvidenceLevel.partial, EvidenceLevel.verified]
    assert "the retrieval doc" in items[1].text


def test_one_record_in_code_is_a_snippet_not_a_list() -> None:
    note = """Tried the new schedule:

```python
cfg = dict(
    lr=3e-4,
    warmup=2000,
)
```

- Gannet https://arxiv.org/abs/2711.00412 read in full
- Petrel https://github.com/acme/petrel abstract only
"""
    items = _items(note)
    assert [i.urls for i in items] == [["https://arxiv.org/abs/2711.00412"], ["https://github.com/acme/petrel"]]


# --- a legend written one entry a line ---------------------------------------------------------------------------


def test_a_legend_of_codes_one_a_line_is_read_through_the_table_that_uses_them() -> None:
    note = """The depth column says how far I got:

* `all`  — whole text incl. appendix
* `part` — only the sections in `where`, the rest unread
* `none` — not opened

| item | link | depth | where |
|---|---|---|---|
| Gannet | https://arxiv.org/abs/2711.00412 | part | §1-§3 |
| Petrel | https://github.com/acme/petrel | all | |
| Heron | https://example.org/heron | none | |
"""
    levels = {i.title: i.evidence for i in _items(note)}
    assert levels == {
        "Gannet": EvidenceLevel.partial,
        "Petrel": EvidenceLevel.verified,
        "Heron": EvidenceLevel.unverified,
    }


def test_lines_that_define_words_without_a_reading_are_no_legend() -> None:
    lines = ["Columns:", "* `lr` — learning rate", "* `bs` — batch size, per device"]
    assert evidence.parse_legend(lines, set(range(len(lines)))) == {}
    # and one line alone is no legend either
    one = ["* `all` — whole text incl. appendix"]
    assert evidence.parse_legend(one, {0}) == {}


HANDOFF = """Handoff. How I know things goes on the "Hx" line:
  Hx: DIRECT      = I read the primary source myself, end to end
  Hx: CHART ONLY  = abstract / card / listing only, nothing underneath
  Hx: COLLATERAL  = someone told me; I have not seen the source

────────────────────────────────────────
#1  Gannet lands in the kernel library
────────────────────────────────────────
S  Gannet's top-k path is merged. https://github.com/acme/kernels/pull/88
B  Hx: DIRECT (the PR and its tests, read in full)

────────────────────────────────────────
#2  Petrel numbers
────────────────────────────────────────
S  Wei says Petrel is 3x faster. https://github.com/acme/petrel
B  Hx: COLLATERAL. A direct comparison was never run.
"""


def test_a_title_boxed_between_two_drawn_rules_heads_its_item() -> None:
    items = _items(HANDOFF)
    assert [i.line_start for i in items] == [7, 13]
    assert "Gannet lands in the kernel library" in items[0].title


def test_a_legend_word_in_capitals_is_read_as_written_not_as_the_word() -> None:
    items = _items(HANDOFF)
    assert [i.evidence for i in items] == [EvidenceLevel.verified, EvidenceLevel.unverified]
    # the lower-case "direct" of the second item's prose is the word, no code of the legend
    assert "DIRECT" not in items[1].remark


def test_a_drawn_rule_under_a_line_is_no_underline() -> None:
    from e1prep.read.markup import to_markdown

    lines = ["Gannet lands", "────────────", "more words"]
    assert to_markdown(lines)[0] == "Gannet lands"


# --- a shelf's marks -------------------------------------------------------------------------------------------

SHELF = """我的标记：**想读** = 还没看内容；**在读** = 看了一部分；**读过** = 从头到尾看完了。

### 读过 ★★★★☆ 　《Gannet: Streaming Top-k for Paged Caches》
arXiv:2711.00412 · https://arxiv.org/abs/2711.00412

短评：块大小 64 时掉 2.1 分。

### 想读 　《Heron: A Benchmark》
https://arxiv.org/abs/2711.00999
"""


def test_a_shelf_mark_before_the_title_is_read_through_the_legend_and_is_no_word_of_the_title() -> None:
    items = _items(SHELF)
    assert [i.title for i in items] == ["Gannet: Streaming Top-k for Paged Caches", "Heron: A Benchmark"]
    assert [i.evidence for i in items] == [EvidenceLevel.verified, EvidenceLevel.unverified]


def test_a_title_that_merely_starts_with_a_legend_word_carries_no_mark() -> None:
    legend = evidence.parse_legend([SHELF.split("\n")[0]], {0})
    assert set(legend) == {"想读", "在读", "读过"}
    assert evidence.legend_symbols("### 读过的书单《Heron》", legend) == []


def test_a_verdict_word_inside_a_hyphenated_name_is_no_verdict() -> None:
    assert notes.off_topic("Gannet: Bound-and-Skip KV Tiles") is None
    assert notes.off_topic("skip — not ours") is not None


# --- a word and a counter before a dash ---------------------------------------------------------------------------

SITREP = """1. SITUATION.
   Light traffic. Two contacts logged.

2. CONTACTS.

   SERIAL 01 — Gannet (paper)
     WHERE:   https://arxiv.org/abs/2711.00412
     ACCESS:  read in full
     DETAIL:
       a. Streaming top-k inside the kernel loop.
       b. Table 2: 2.1 points lost at 128K.

   SERIAL 02 — petrel (repo)
     WHERE:   https://github.com/acme/petrel
     ACCESS:  abstract only

   SERIAL 03 — Heron (blog)
     WHERE:   https://example.org/heron
     ACCESS:  not opened
"""


def test_a_word_and_its_counter_before_a_dash_number_the_entries_and_are_no_words_of_their_titles() -> None:
    items = _items(SITREP)
    assert [i.title for i in items] == ["Gannet (paper)", "petrel (repo)", "Heron (blog)"]
    assert [i.evidence for i in items] == [EvidenceLevel.verified, EvidenceLevel.summary, EvidenceLevel.unverified]


def test_a_word_and_a_number_before_a_colon_open_no_entry() -> None:
    note = """Notes on Gannet https://arxiv.org/abs/2711.00412, read in full.

Table 2: 2.1 points lost at 128K.
Table 3: 0.4 points lost at 32K.
"""
    assert [i.title for i in _items(note)] != ["Table 2: 2.1 points lost at 128K.", "Table 3: 0.4 points lost at 32K."]
    assert all(not i.title.startswith("Table") for i in _items(note))


# --- files whose format is a tool's: TAP, Gherkin, vim folds ----------------------------------------------------

TAP = """TAP version 13
# how to read: `depth:` says how far I read
1..3
ok 1 - Gannet: Streaming Top-k for Paged Caches (arXiv:2711.00412) # TODO appendix
  ---
  url: https://arxiv.org/abs/2711.00412
  depth: read the main text in full; the appendix skimmed
  ...
ok 2 - Petrel code is public
  ---
  url: https://github.com/acme/petrel
  depth: README only
  ...
ok 3 - https://example.org/x # SKIP not opened
# 3 ok
"""


def test_a_tap_reports_test_points_are_items_with_their_yaml_blocks() -> None:
    items = _items(TAP)
    assert [i.title for i in items][:2] == [
        "Gannet: Streaming Top-k for Paged Caches (arXiv:2711.00412)",
        "Petrel code is public",
    ]
    assert [i.urls for i in items][:2] == [["https://arxiv.org/abs/2711.00412"], ["https://github.com/acme/petrel"]]
    assert items[0].evidence is EvidenceLevel.partial
    # the report's `#` lines are its comments, no headings
    assert all("how to read" not in i.title for i in items)


GHERKIN = """# language: zh-CN
# 读到哪写在"假如"那一行

功能: 今日筛选

  场景: Gannet 发布 2.0（分页缓存的流式 top-k）
    假如 原文读完 "https://example.org/gannet/releases/2.0"
    那么 新加了流式 top-k

  场景: Petrel 的分数
    假如 别人转述：群里说 92.6%
    那么 这个数先别用
"""


def test_a_gherkin_files_scenarios_are_items_and_its_step_keywords_no_conditions() -> None:
    items = _items(GHERKIN)
    assert [i.title for i in items] == ["Gannet 发布 2.0（分页缓存的流式 top-k）", "Petrel 的分数"]
    # 假如 is the file's "Given": ``假如 原文读完`` says the original was read, it sets no condition on it
    assert [i.evidence for i in items] == [EvidenceLevel.verified, EvidenceLevel.unverified]


def test_an_if_in_prose_still_makes_a_read_a_condition() -> None:
    assert evidence.read_remark("假如 原文读完，再说").level is not EvidenceLevel.verified


def test_vim_fold_markers_head_their_folds() -> None:
    note = """" 晚上过 RSS，读到哪：屏 已读/总屏

== Gannet：分页缓存的流式 top-k {{{1
https://example.org/gannet
全文读完。
}}}

== Petrel 2.0 发布 {{{1
https://github.com/acme/petrel
只看了摘要。
}}}
"""
    items = _items(note)
    assert [i.title for i in items] == ["Gannet：分页缓存的流式 top-k", "Petrel 2.0 发布"]
    assert [i.evidence for i in items] == [EvidenceLevel.verified, EvidenceLevel.summary]


def test_a_legend_code_that_closes_a_title_is_no_word_of_it() -> None:
    note = """```
#   DONE = 从头读到尾          HALF = 读到一半断了（页面截断）
```

## 0928_1 · Gannet release notes — DONE
https://example.org/gannet

## 0928_2 · Petrel — HALF
https://github.com/acme/petrel
"""
    items = _items(note)
    assert [i.title for i in items] == ["0928_1 · Gannet release notes", "0928_2 · Petrel"]
    assert [i.evidence for i in items] == [EvidenceLevel.verified, EvidenceLevel.partial]


def test_read_up_to_a_section_written_after_a_colon_is_a_part_read() -> None:
    st = evidence.read_remark("读到：§2.1–§2.3，§3 以后没看")
    assert st.level is EvidenceLevel.partial


# --- a known subject's release, and a name with its generation ----------------------------------------------------

DOC = """# inference 活文档

## §1 引擎

### §1.1 引擎对比
- **Gannet**: paged cache inference engine; FP8 KV cache since 1.4; no streaming top-k yet.
- **Evo 2**：40B 参数，1 Mb 上下文。Evo 初代只有 131k。
"""


def test_a_version_only_the_text_names_leaves_a_known_subjects_release_a_refresh(make_kb: MakeKB) -> None:
    # the hand briefs file a known project's release read from its notes as a refresh and a version to
    # reconcile (n2's warpforge, f4's parla); a version in the title with new names is an update (the golden days)
    note = """## #1 Gannet ships its autumn release
Gannet 1.6.0 release notes: the paged cache inference engine adds streaming top-k and an FP4 KV cache.
https://gannet.example.org/releases/1.6.0
Release notes read in full.
"""
    manifest = make_kb({"inbox/a/n.md": note}, ["inbox/a/n.md"], knowledge=DOC)
    brief = draft_brief(manifest)
    assert brief.increments == []
    assert [r.key for r in brief.refreshes] == ["Gannet"]


def test_a_known_subject_rechecked_with_its_own_version_stays_a_refresh(make_kb: MakeKB) -> None:
    note = """## Gannet recheck
Gannet 1.4 release notes again, read in full: the paged cache inference engine, FP8 KV cache. Nothing new.
https://gannet.example.org/releases/1.4.0
"""
    manifest = make_kb({"inbox/a/n.md": note}, ["inbox/a/n.md"], knowledge=DOC)
    brief = draft_brief(manifest)
    assert brief.increments == []
    assert [r.key for r in brief.refreshes] == ["Gannet"]


def test_a_name_with_its_generation_is_keyed_as_the_document_writes_it(make_kb: MakeKB) -> None:
    note = """## Evo 2 — recheck
https://arcinstitute.org/tools/evo
Re-read §2.3 in full: 1 Mb, as we have it. Nothing new.
"""
    manifest = make_kb({"inbox/a/n.md": note}, ["inbox/a/n.md"], knowledge=DOC)
    assert [r.key for r in draft_brief(manifest).refreshes] == ["Evo 2"]


def test_a_section_id_with_a_middle_dot_is_one_identifier_not_a_number() -> None:
    from e1prep.read.numbers import scan

    tokens = scan("建议归入 §K·2（稀疏解码）")
    assert [(t.text, t.kind, t.type) for t in tokens] == [("§K·2", "identifier", "section")]


# --- a part left unread, and sections named before the read --------------------------------------------------------


def test_a_part_never_opened_beside_a_stated_read_leaves_the_read_partial() -> None:
    assert evidence.read_remark("read §1–§6; App. D not opened").level is EvidenceLevel.partial
    assert evidence.read_remark("只读了 §1–§3，附录没打开").level is EvidenceLevel.partial
    assert evidence.read_remark("read in full; appendix not opened").level is EvidenceLevel.partial
    # alone, or of the whole source, "not opened" still says nothing was seen
    assert evidence.read_remark("附录没看").level is EvidenceLevel.unverified
    assert evidence.read_remark("只看到标题、没打开").level is EvidenceLevel.unverified


def test_sections_named_before_the_read_are_what_was_read() -> None:
    assert evidence.read_remark("§1–§6 and Tables 1–4 read line by line").level is EvidenceLevel.partial
    assert evidence.read_remark("Sections 1-4 read, rest skipped").level is EvidenceLevel.partial
    # a read as a noun, or one to come, is no statement of a reading
    assert evidence.read_remark("§5 is worth a read").level is EvidenceLevel.unverified
    assert evidence.read_remark("§3 to be read later").level is EvidenceLevel.unverified


def test_a_middle_dot_parts_a_legends_word_entries() -> None:
    lines = ["DD   FULL = read the whole thing incl. appendix · MAIN = main text read, appendix NOT read"]
    legend = evidence.parse_legend(lines, {0})
    assert {k: v.level for k, v in legend.items()} == {"FULL": EvidenceLevel.verified, "MAIN": EvidenceLevel.partial}


# --- TaskPaper's tags ------------------------------------------------------------------------------------------

TASKPAPER = """screen 2027-10-08:
	tags: @read(full) 整篇读完 · @read(part: …) 只读了冒号后那部分 · @read(abs) 只看摘要 · @read(0) 没打开
Papers:
	- Gannet: Streaming Top-k for Paged Caches @read(full) @done(2027-10-08)
		https://arxiv.org/abs/2711.00412
		Table 3: the predictor hits 91.4% at batch 1.
	- Petrel: A Router Benchmark @read(part: §1–3) @topic(serving)
		https://arxiv.org/abs/2711.00999
	- Heron @read(abs)
		https://github.com/acme/heron
"""


def test_taskpaper_tags_are_read_through_their_legend_and_are_no_words_of_the_title() -> None:
    items = _items(TASKPAPER)
    assert [i.title for i in items] == [
        "Gannet: Streaming Top-k for Paged Caches",
        "Petrel: A Router Benchmark",
        "Heron",
    ]
    # a value in the place the legend holds open (``@read(part: …)``) is read as that tag
    assert [i.evidence for i in items] == [EvidenceLevel.verified, EvidenceLevel.partial, EvidenceLevel.summary]


def test_a_tag_the_legend_does_not_define_says_nothing_of_the_reading() -> None:
    legend = evidence.parse_legend([TASKPAPER.split("\n")[1]], {0})
    assert evidence.legend_symbols("- Heron @read(later)", legend) == []
    assert evidence.legend_symbols("- Heron @read(abs)", legend) == ["@read(abs)"]


# --- records assigned field by field, and a scale of digits --------------------------------------------------------

MATLAB = """Screened this afternoon, kept as a MATLAB struct array.

```matlab
% fields:
%   depth : how far  0 = 没打开 | 1 = 只看到搜索结果里的片段 | 2 = 只看了摘要
%                    3 = 读了一部分 | 4 = 全文读完
r(1).name  = 'Gannet: Streaming Top-k for Paged Caches';
r(1).url   = 'https://arxiv.org/abs/2711.00412';
r(1).depth = 4;
r(1).note  = ['the predictor hits 91.4% at batch 1; ' ...
              'misses fall back to a synchronous load.'];

r(2).name  = 'Petrel';
r(2).url   = 'https://github.com/acme/petrel';
r(2).depth = 2;
```
"""


def test_records_assigned_field_by_field_are_items_and_a_digit_scale_is_their_legend() -> None:
    items = _items(MATLAB)
    assert [(i.title, i.urls) for i in items] == RECORDS
    # a full read only the legend states, and no words of the item's own, stays partial (the reader's rule)
    assert [i.evidence for i in items] == [EvidenceLevel.partial, EvidenceLevel.summary]
    assert "全文读完" in items[0].remark


def test_a_digit_of_a_scale_counts_only_as_a_whole_cell() -> None:
    legend = evidence.parse_legend(["depth  0 = 没打开 | 4 = 全文读完"], {0})
    assert set(legend) == {"0", "4"}
    assert evidence.legend_symbols("核查：4", legend) == ["4"]
    assert evidence.legend_symbols("核查：4 of 12 tables read", legend) == []


def test_a_lone_handle_closing_a_title_is_a_word_of_it() -> None:
    items = _items("## Great thread on paged caches by @karpathy\nhttps://x.com/karpathy/status/1\nread in full\n")
    assert items[0].title == "Great thread on paged caches by @karpathy"
