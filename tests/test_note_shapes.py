"""Shapes of notes met on held-out day t, each tested on both sides: status-word headings titled by a
field under them, footnotes at a note's end, a source's argued modality, and an item's posted date."""

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
