"""Mechanisms the seventh session's fresh other-hand trio (held-out c4, d4, e4) exposed, each tested on both sides
with notes written here, not copied from those cases: prose whose sources are footnotes, a filing verb before a
thing rather than a topic, a name set in bold in running text."""

from __future__ import annotations

from e1prep.brief.models import EvidenceLevel
from e1prep.read import filing, footnotes, notes

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
