"""Blocks opened by a running code, titled by a field; fields set apart without a colon.

Held-out d5, e5 and f5 (first contact 0.000 each) keep their items as forms of their trades: an inspection report
(``批号 Z-01`` over ``物料名称：…``), an evidence register (``物证号　　WM-271022-01`` over ``名称　　　…``), radiology
reports (``**检查号** QR-271026-01`` over ``**检查项目** 《…》``). The code that opens each block is a label; the
title stands on a title field whose label is a compound of a title word (``物料名称``, ``检查项目``). A Chinese label
in bold, or set apart by a gap of spaces (full-width ones too), is a field without its colon.
"""

from __future__ import annotations

import pytest

from e1prep.read import notes
from e1prep.read.labels import field_parts, title_field
from e1prep.text.lexicon import lexicon


def _items(text: str) -> list[notes.NoteItem]:
    return notes.split_note("inbox/x/note.md", text)


@pytest.mark.parametrize("label", ["名称", "标题", "物料名称", "检查项目", "货物名称", "报告题目"])
def test_a_compound_headed_by_a_title_word_labels_a_title(label: str) -> None:
    assert lexicon().is_title_label(label)


@pytest.mark.parametrize("label", ["检查方法", "检验方式", "封存状态", "数据来源", "名", "项"])
def test_other_labels_label_no_title(label: str) -> None:
    assert not lexicon().is_title_label(label)


@pytest.mark.parametrize(
    "line,parts",
    [
        ("**检查项目** 《GB/T 解读》", ("检查项目", "《GB/T 解读》")),
        ("名称　　　tidewater-ai/markserve —— 检测服务", ("名称", "tidewater-ai/markserve —— 检测服务")),
        ("物证号  WM-01", ("物证号", "WM-01")),
        ("标题：FlashKV", ("标题", "FlashKV")),
    ],
)
def test_a_chinese_label_set_apart_without_a_colon_is_a_field(line: str, parts: tuple[str, str]) -> None:
    assert field_parts(line) == parts


@pytest.mark.parametrize(
    "line", ["**vLLM** 发布了 v0.30", "**检查项目**", "这是一个句子，中间没有空档。", "- **注意**："]
)
def test_a_bold_word_in_latin_a_label_with_nothing_after_it_or_a_sentence_is_no_such_field(line: str) -> None:
    assert field_parts(line) is None


SHIPPING = """收货登记 · 2027-01-05

**运单号** SF-1001
**货物名称** FlashKV: tiered KV cache for long context
**链接** https://arxiv.org/abs/2701.12345
**查验** 全文读完

**运单号** SF-1002
**货物名称** 《某公众号：vLLM 新版本解读》
**链接** https://mp.weixin.qq.com/s/abc
**查验** 只看了摘要
"""

REGISTER = """登记簿

登记号　　R-01
题目　　　ShardSpec: speculative decoding across shards
来源　　　https://arxiv.org/abs/2702.00001

登记号　　R-02
题目　　　kestrel-kv 仓库
来源　　　https://github.com/acme/kestrel-kv
"""


@pytest.mark.parametrize(
    "text,titles",
    [
        (SHIPPING, ["FlashKV: tiered KV cache for long context", "某公众号：vLLM 新版本解读"]),
        (REGISTER, ["ShardSpec: speculative decoding across shards", "kestrel-kv 仓库"]),
    ],
)
def test_blocks_opened_by_a_running_code_are_titled_by_their_title_field(text: str, titles: list[str]) -> None:
    assert [i.title for i in _items(text)] == titles


def test_a_block_that_names_nothing_is_still_no_item() -> None:
    """The other side: a code that opens blocks with no title field and no name (``Q-1`` questions about one
    paper) makes no items of them."""
    text = "访谈 · FlashKV\nhttps://arxiv.org/abs/2701.12345\n\n**问** Q-1\n读到哪了？\n\n**问** Q-2\n代码呢？\n"
    assert all(not i.title.startswith("Q-") for i in _items(text))


def test_a_title_field_that_opens_its_block_gives_its_own_value() -> None:
    assert title_field("名称：CaseLink-zh") == "CaseLink-zh"
    text = (
        "名称：CaseLink-zh\n链接：https://github.com/a/caselink\n\n名称：衡律 ContractPilot 3\n链接：https://x.cn/cp\n"
    )
    assert [i.title for i in _items(text)] == ["CaseLink-zh", "衡律 ContractPilot 3"]


# --- a report's findings: labelled sub-headings, each with a field table ------------------------------------------

FINDINGS = """# Quarterly review

## Overview

Two findings matter; details below.

## Findings

### QA-7-01 — Gannet: fused dequant kernels

| Field | Value |
|---|---|
| Impact | High |
| Target | https://github.com/acme/gannet |

Kernel library with fused dequant.

### QA-7-02 — Osprey scheduler

| Field | Value |
|---|---|
| Impact | Low |
| Target | https://arxiv.org/abs/2703.01234 |

A scheduler paper.
"""


def test_labelled_sub_headings_are_the_items_and_their_field_tables_are_fields() -> None:
    """``### QA-7-01 — Gannet …`` under ``## Findings``: sibling headings that share a tracker's code shape are the
    items, whatever the headings above them say; the two-column tables whose first cells recur under each are one
    form's fields, no items."""
    items = _items(FINDINGS)
    assert [i.title for i in items] == ["Gannet: fused dequant kernels", "Osprey scheduler"]
    assert [i.url for i in items] == ["https://github.com/acme/gannet", "https://arxiv.org/abs/2703.01234"]


def test_a_two_column_table_alone_is_still_a_list() -> None:
    """The other side: one two-column table of names and links is a list of items, not a form."""
    text = (
        "## Links\n\n| Name | Link |\n|---|---|\n| Gannet | https://github.com/acme/gannet |\n"
        "| Osprey | https://arxiv.org/abs/2703.01234 |\n"
    )
    assert [i.title for i in _items(text)] == ["Gannet", "Osprey"]


# --- case briefs: an abbreviated word numbers the entries; a spaced rule is no bullet ------------------------------

BRIEFS = """Case briefs, week 42.

- - - - - - - - - - - - - - - -

No. 12-01   Gannet — fused dequant kernels
https://github.com/acme/gannet
Read the README end to end.

- - - - - - - - - - - - - - - -

No. 12-02   Osprey scheduler
https://arxiv.org/abs/2703.01234
Only the abstract. Fig. 3 shows the queue, which I did not check.
"""


def test_an_abbreviated_word_and_its_counter_number_entries_and_a_spaced_rule_is_no_bullet() -> None:
    items = _items(BRIEFS)
    assert [i.title for i in items] == ["Gannet — fused dequant kernels", "Osprey scheduler"]


# --- legends: codes of several words, in capitals or in bold; CJK codes defined by a colon; a legend that wraps -----


@pytest.mark.parametrize(
    "lines,codes",
    [
        (
            ["  FULL RECORD = read the whole thing · EXCERPTS = only the parts named · NOT OBTAINED = never opened"],
            {"FULL RECORD", "EXCERPTS", "NOT OBTAINED"},
        ),
        (
            [
                "Scale: **Whole text** = read end to end; **Abstract only** = read the abstract;",
                "**Not opened** = never opened, only the link.",
            ],
            {"Whole text", "Abstract only", "Not opened"},
        ),
        (
            ["　　查验方式——全检：正文逐段读完；抽检：只读了部分章节；目视：只看到搜索结果那一行"],
            {"全检", "抽检", "目视"},
        ),
    ],
)
def test_a_legend_of_codes_of_several_words_or_defined_by_a_colon_is_read(lines: list[str], codes: set[str]) -> None:
    from e1prep.read.evidence import parse_legend

    assert codes <= set(parse_legend(lines, unlabelled=set(range(len(lines)))))


def test_a_line_of_fields_that_state_no_reading_is_no_legend() -> None:
    from e1prep.read.evidence import parse_legend

    lines = ["负责人：周；日期：10-19；地点：二号楼"]
    assert parse_legend(lines, unlabelled={0}) == {}


# --- a list of links under topic headings (an awesome list) --------------------------------------------------------

AWESOME = """# Awesome kernels — my additions

**Legend**: ![full](https://img.shields.io/badge/read-full-green) read end to end ·
![abs](https://img.shields.io/badge/read-abstract-orange) abstract only

## Quantization

- [Gannet](https://github.com/acme/gannet) — fused dequant kernels. ![full](https://img.shields.io/badge/read-full-green)
  > Read the README and the paper end to end; I did not run the benchmarks.

## Scheduling

- [Osprey](https://arxiv.org/abs/2703.01234) — a scheduler. ![abs](https://img.shields.io/badge/read-abstract-orange)
  > The authors say "we read every trace end to end"; the abstract is all I saw.

## Misc

- A talk about kernels, no link yet ![abs](https://img.shields.io/badge/read-abstract-orange)
"""


def test_each_entry_of_a_list_of_links_under_topic_headings_is_an_item() -> None:
    """One entry under each topic heading, each linking its own name: the entries are the items, the headings their
    topics; a badge's image address is no item's address."""
    items = _items(AWESOME)
    assert [i.title.split(" —")[0] for i in items[:2]] == ["Gannet", "Osprey"]
    assert [i.url for i in items[:2]] == ["https://github.com/acme/gannet", "https://arxiv.org/abs/2703.01234"]
    assert all("shields.io" not in u for i in items for u in i.urls)


def test_a_note_set_in_under_an_entry_in_the_first_person_is_the_writers_own() -> None:
    """``  > Read the README … I did not run …`` under an entry is the writer's note on it: its read counts. A quote of
    someone else's words stays theirs (``"we read every trace end to end"``)."""
    items = _items(AWESOME)
    assert items[0].evidence.value == "verified"
    assert items[1].evidence.value != "verified"


def test_no_check_is_a_whole_phrase() -> None:
    from e1prep.read.evidence import read_remark

    assert read_remark("No checkerboard, no blinking LEDs").words == []
    assert read_remark("no check yet").words == ["no check"]


# --- advisories parted by rules of ``=``; a legend of codes set apart by a gap, or of signs ---------------------------

ADVISORIES = """advisories, batch 7

Checked = what I did with the source:
  READ-FULL    whole paper incl. appendix
  READ-ABS     abstract only
  NOT-OPENED   link only

==========================================
SEC-ADV-7-001
Title        : Gannet — fused dequant kernels leak timing
Reference    : https://github.com/acme/gannet
Checked      : READ-FULL

==========================================
SEC-ADV-7-002
Title        : Osprey scheduler starves long prompts
Reference    : arXiv:2703.01234  https://arxiv.org/abs/2703.01234
Checked      : READ-ABS
"""


def test_parts_between_rules_of_equals_are_items_titled_by_their_title_field() -> None:
    items = _items(ADVISORIES)
    assert [i.title for i in items] == [
        "Gannet — fused dequant kernels leak timing",
        "Osprey scheduler starves long prompts",
    ]
    assert [i.evidence.value for i in items] == ["verified", "summary"]


def test_an_equals_rule_under_a_line_of_text_still_underlines_a_title() -> None:
    """The other side: ``=====`` right under a line is that line's underline (a title), no break between parts."""
    text = "Gannet notes\n============\nhttps://github.com/acme/gannet read end to end\n"
    assert len(_items(text)) == 1


def test_a_legend_of_signs_one_a_line_is_read() -> None:
    from e1prep.read.evidence import parse_legend

    lines = ["封存状态：", "  ■ 全文读完", "  ◧ 只读了一部分", "  □ 没打开，只看到标题"]
    assert {"■", "◧", "□"} <= set(parse_legend(lines, unlabelled=set(range(len(lines)))))


# --- a verb of opinion is the writer's doubt only when the writer holds the opinion ---------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Read the paper end to end. Existing SecAgg/SecAgg+ assume dense vectors.",
        "Read the paper end to end; the authors believe it generalizes.",
        'Read the report end to end: VLM "think" 3 Hz, action expert 60 Hz.',
    ],
)
def test_someone_elses_opinion_is_no_doubt_about_the_reading(text: str) -> None:
    from e1prep.read.evidence import read_remark

    assert read_remark(text).level.value == "verified"


@pytest.mark.parametrize(
    "text",
    [
        "Read the paper end to end, but I assume the table is v1.",
        "Only the abstract; my guess is it's v2.",
        "assume it's v2",
        "Read the paper end to end, but I do not think Table 2 is v1.",
        "Read the paper end to end; we already believe it is the old table.",
    ],
)
def test_the_writers_own_opinion_still_hedges(text: str) -> None:
    from e1prep.read.evidence import read_remark

    assert read_remark(text).level.value != "verified"
