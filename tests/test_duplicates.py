"""An item repeated word for word in one note (a note pasted twice, a feed that repeats) counts once.

The first copy is read and drafted as usual; every later copy is listed as excluded ("逐字相同") and
registers nothing of its own. Only exactly the same words read in the same context are duplicates:
a note-level statement that names one copy by its number keeps the copies apart.
"""

from __future__ import annotations

from conftest import MakeKB
from e1prep.brief.models import ContradictionKind
from e1prep.pipeline import draft_brief

NOTE = "inbox/jay/2026-10-25-pasted-twice.md"
ITEMS = """## Turbine 推理引擎发布

- URL：https://github.com/acme/turbine
- 核查：已核查原文（全文读完）
- 要点：基于 vLLM 0.11 的参考引擎，兼容 acme/widget 仓库计数。

## Widget 推理引擎传闻

- URL：https://blog.example.org/widget
- 核查：仅搜索摘要，无正文
- 要点：据称 vLLM 0.11 引擎吞吐提升 37%。

"""


def test_a_note_pasted_twice_drafts_each_item_once(make_kb: MakeKB) -> None:
    once = draft_brief(make_kb({NOTE: "# 笔记\n\n" + ITEMS}))
    twice = draft_brief(make_kb({NOTE: "# 笔记\n\n" + ITEMS + ITEMS}))  # the same KB, the note pasted twice
    assert [i.key for i in twice.increments] == [i.key for i in once.increments] != []
    quotable = [c for c in twice.contradictions if c.kind is ContradictionKind.not_quotable]
    assert len(quotable) == len([c for c in once.contradictions if c.kind is ContradictionKind.not_quotable]) == 1
    repeated = [e for e in twice.excluded if "逐字相同" in e.reason]
    assert len(repeated) == 2  # both items of the second paste, each naming the item it repeats
    assert "第 1 条" in repeated[0].reason and "第 2 条" in repeated[1].reason


def test_a_long_repeated_dump_is_one_grouped_line(make_kb: MakeKB) -> None:
    brief = draft_brief(make_kb({NOTE: "# 笔记\n\n" + ITEMS * 30}))
    repeated = [e for e in brief.excluded if "逐字相同" in e.reason]
    assert len(repeated) == 1 and len(repeated[0].members) == 58
    assert len(brief.increments) == 1


def test_the_same_words_under_a_statement_naming_one_copy_are_not_duplicates(make_kb: MakeKB) -> None:
    same = "## Turbine 推理引擎发布\n\n- URL：https://github.com/acme/turbine\n- 要点：吞吐提升 37%。\n\n"
    plain = draft_brief(make_kb({NOTE: "# 笔记\n\n" + same + same}))
    assert len([e for e in plain.excluded if "逐字相同" in e.reason]) == 1
    # a range statement outside the items names the first by its place: the copies now read differently
    ranged = draft_brief(make_kb({NOTE: "# 笔记\n\n前一条只看了摘要，其余读了全文。\n\n" + same + same}))
    assert not [e for e in ranged.excluded if "逐字相同" in e.reason]


def test_copies_that_differ_in_one_line_break_are_read_separately(make_kb: MakeKB) -> None:
    a = "## Widget 推理引擎\n\n- URL：https://blog.example.org/widget\n- 核查：仅搜索摘要\n\n"
    b = "## Widget 推理引擎\n\n- URL：https://blog.example.org/widget\n- 核查：\n  仅搜索摘要\n\n"
    brief = draft_brief(make_kb({NOTE: "# 笔记\n\n" + a + b}))
    assert not [e for e in brief.excluded if "逐字相同" in e.reason]
