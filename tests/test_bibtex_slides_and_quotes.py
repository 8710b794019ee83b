"""Mechanisms the eighth session's other-hand trio (held-out l4, m4, n4) exposed, each tested on both sides with
notes written here, not copied from those cases: a reference manager's BibTeX export, a Marp deck's speaker notes,
a maker's page quoted on its own product, and someone named as the agent of a passive."""

from __future__ import annotations

import json

from tests.conftest import MakeKB

from e1prep.brief.models import EvidenceLevel
from e1prep.read import exports, markers, notes
from e1prep.read.lines import URL_RE
from e1prep.text import visible


def _items(text: str) -> list[notes.NoteItem]:
    return notes.split_note("inbox/x/note.md", text)


# --- BibTeX ------------------------------------------------------------------------------------------------

BIB = """exported from my library tonight

```bibtex
@Article{lin2027quill,
  author     = {Lin, Mei and Okoro, Ada},
  title      = {{QuillNet}: Sparse Routing for {GNN} Serving},
  year       = {2027},
  url        = {https://arxiv.org/abs/2709.01234},
  readstatus = {skimmed},
  comment    = {Intro and Table 1 only. The router is the contribution.},
}

@Misc{blogpost0902,
  url     = {https://example.org/posts/graph-serving},
  comment = {read the whole post, nothing new},
}
```
"""


def test_each_entry_of_a_bibtex_export_is_an_item_titled_by_its_title_field() -> None:
    items = _items(BIB)
    assert [i.title for i in items] == ["QuillNet: Sparse Routing for GNN Serving", "blogpost0902"]
    quill, post = items
    # the URL stops at the field's closing brace; the writer's comment says how far each was read
    assert quill.urls == ["https://arxiv.org/abs/2709.01234"]
    assert quill.evidence == EvidenceLevel.partial
    assert post.evidence == EvidenceLevel.verified
    assert (quill.line_start, quill.line_end) == (4, 11)


def test_one_entry_or_an_at_sign_in_prose_is_no_export() -> None:
    # one entry alone is read as the other layouts read it; an address in prose opens nothing
    one = BIB.split("@Misc")[0] + "```\n"
    assert [i.recogniser for i in _items(one)] != ["bibtex"]
    prose = "# n\n\n@lin said {this} is fine, see https://example.org/a\n\n@ada agreed: https://example.org/b\n"
    assert all(i.recogniser != "bibtex" for i in _items(prose))


def test_a_brace_ends_a_url_and_nothing_else_does_newly() -> None:
    assert URL_RE.findall("url = {https://arxiv.org/abs/2709.01234},") == ["https://arxiv.org/abs/2709.01234"]
    assert URL_RE.findall("see https://example.org/a,b/c?x=1") == ["https://example.org/a,b/c?x=1"]


# --- a Marp deck's speaker notes -----------------------------------------------------------------------------

DECK = """---
marp: true
paginate: true
---

<!-- _class: lead -->

## QuillNet

<!--
read it all, appendix too. goes into our serving section.
-->
"""


def test_a_marp_decks_speaker_notes_are_the_writers_text_and_its_directives_are_not() -> None:
    text, hidden = visible.without_hidden(DECK)
    assert "read it all, appendix too." in text
    assert "_class" not in text and "<!--" not in text and "-->" not in text
    assert (hidden.notes, hidden.comments) == (1, 1)
    assert "speaker note" in hidden.describe()
    # columns stay: the note's line is the one the file has, less its comment marks
    assert text.split("\n")[10] == DECK.split("\n")[10]


def test_a_comment_outside_a_marp_deck_is_still_hidden() -> None:
    plain = DECK.replace("marp: true", "title: slides")
    text, hidden = visible.without_hidden(plain)
    assert "read it all" not in text
    assert (hidden.notes, hidden.comments) == (0, 2)
    # nor does a deck's front matter that only mentions marp make one
    text, _ = visible.without_hidden(DECK.replace("marp: true", "tool: marp"))
    assert "read it all" not in text


# --- a maker's page quoted on its own product ----------------------------------------------------------------


def _kinds(text: str) -> set[str]:
    return {h.marker.kind for h in markers.find(text)}


def test_a_quotation_from_a_products_own_release_notes_is_its_makers_claim() -> None:
    assert "vendor" in _kinds('Expected: release notes: "up to 1.3x faster decode vs 8-bit KV"')
    assert "vendor" in _kinds("the README says “2x faster than llama.cpp”")
    # reading those pages is no claim, and a section the README names in quotes is none either
    assert "vendor" not in _kinds("Docs read: release notes in full")
    assert "vendor" not in _kinds('followed the README "Quick start" section, it works')


def test_someone_named_as_the_agent_of_a_passive_relays_nothing() -> None:
    assert "relay" not in _kinds("Read all of it. Our open question, answered by somebody else.")
    assert "relay" in _kinds("somebody in the group said the numbers hold")
    assert "relay" in _kinds("someone else checked the table")


SLIDES = """# Friday picks

## QuillNet
arxiv.org/abs/2709.01234

- sparse routing for serving

---

## Router
github.com/acme/router

- a cache-aware router

---

## Discussion

1. QuillNet: new family or not?
2. is the router's cache hit rate real?
3. who presents next week?
"""


def test_slides_headed_over_an_address_without_its_scheme_are_the_items() -> None:
    """Held-out m4's deck wrote ``arxiv.org/abs/…`` under each slide's title: with no URL anywhere, its closing list
    of questions had been read as the items."""
    assert [i.title for i in _items(SLIDES)] == ["QuillNet", "Router"]


def test_a_file_name_or_a_version_is_no_address() -> None:
    bare = notes._BARE_ADDRESS
    assert bare.search("see llama.cpp/ggml and model.safetensors/ for it") is None
    assert bare.search("v0.6.0/notes and a/b/c") is None
    assert bare.search("(huggingface.co/acme/quill-7b)").group(0) == "huggingface.co/acme/quill-7b"  # type: ignore[union-attr]


# --- posts parted by their counters, a query's records, a wiki page ----------------------------------------------

REPOSTS = """saved reposts, my comment first

①
read the README from top to bottom, haven't installed it. an OpenAI-compatible server on the phone.
> @dev：weekend project pocketserve github.com/acme/pocketserve

②
no source, no picture, just hearsay
> @someone：a new phone runs 7B at 48 tok/s
"""


def test_posts_parted_by_a_counter_alone_on_its_line_are_items_titled_by_their_text() -> None:
    """Held-out l4's reposts were parted by ``①`` lines: the whole note was one item. Each counter heads its post;
    the counter is no title, and an address written without its scheme points at the item."""
    items = _items(REPOSTS)
    assert items[0].title.startswith("read the README from top to bottom")
    assert items[0].urls == ["github.com/acme/pocketserve"]
    # a counter inside a line, or a counter with words after it, heads nothing
    assert notes.heading("① read the README") is None
    assert notes.heading("see (3) below") is None
    assert notes.heading("（3）") == (2, "（3）")


RECORDS = """today's rows from my reads table. depth = full / abstract / title

```
reads=# select id, title, url, depth, note from reads;
-[ RECORD 1 ]--------------------------------
id    | 11
title | QuillNet: Sparse Routing for GNN Serving
url   | https://arxiv.org/abs/2709.01234
depth | abstract
note  | routing table only, no numbers we can +
      | use yet
-[ RECORD 2 ]--------------------------------
id    | 12
title | Router Bench
url   | https://example.org/router-bench
depth | full
note  | the whole post, nothing new for us
```
"""


def test_a_querys_records_in_expanded_display_are_items_read_as_a_tables_rows() -> None:
    """Held-out n4 pasted psql's ``\\x`` output: one item for the whole note. Each record is a row turned on its side:
    its ``title`` titles it, its ``depth`` is its check, a value wrapped with ``+`` is one value."""
    quill, bench = _items(RECORDS)
    assert (quill.title, quill.recogniser, quill.check_cell) == (
        "QuillNet: Sparse Routing for GNN Serving",
        "record",
        "abstract",
    )
    assert quill.evidence == EvidenceLevel.summary
    assert "routing table only, no numbers we can use yet" in quill.cells
    assert bench.urls == ["https://example.org/router-bench"]
    # one record alone is no export of a table, and a line of bars is no record
    assert all(i.recogniser != "record" for i in _items(RECORDS.split("-[ RECORD 2")[0] + "```\n"))


WIKI = """copied from the team wiki's talk page

<pre>
== New method: LogProbe ==
'''LogProbe''', [https://arxiv.org/abs/2708.01166 arXiv:2708.01166]. read the whole paper; haven't run their code.
: +1, agreed. --[[User:Dmitri|Dmitri]]

== LiveBench leak? ==
a search result only: https://example.org/q/1
</pre>
"""


def test_a_wiki_pages_headings_part_its_threads() -> None:
    items = _items(WIKI)
    assert [i.title for i in items] == ["New method: LogProbe", "LiveBench leak?"]
    assert items[0].evidence == EvidenceLevel.verified
    # one ``==`` line, or a line of ``=`` signs under a title, is no wiki page
    assert [i.recogniser for i in _items("# n\n\na == b ==\n\nhttps://example.org/x read in full\n")] != ["heading"] * 2


def test_not_yet_running_or_installing_leaves_the_reading_as_it_was() -> None:
    from e1prep.read.evidence import read_remark

    assert read_remark("全文读完了，附录也看了；作者的代码还没跑。").level == EvidenceLevel.verified
    assert read_remark("README 从头看到尾了，还没装。").level == EvidenceLevel.verified
    assert read_remark("还没看").level == EvidenceLevel.unverified
    assert read_remark("正文还没读完").level == EvidenceLevel.unverified


def test_pages_counted_against_the_whole_are_a_part_read() -> None:
    from e1prep.read.evidence import read_remark

    assert read_remark("pp. 1–9 of 23 (main text to the end of §4)").level == EvidenceLevel.partial
    sheet = (
        "**QuillNet: Sparse Routing**\narxiv.org/abs/2709.01234 · pp. 1–9 of 23\n\n"
        "| cue | notes |\n|---|---|\n| beats it? | yes |\n"
    )
    (item,) = _items("# sheets\n\n" + sheet + "\n---\n\n**Other**\nexample.org/x/y · whole post\n")[:1]
    assert item.evidence == EvidenceLevel.partial  # the cue column's question hedges no reading


# --- the second trio (held-out o4, p4, q4): JSON lines, a legend after a preamble, AsciiDoc ----------------------

_RECORDS = [
    {
        "id": "a1",
        "title": "ForgetBench: Do Agents Forget What They Are Told to Forget?",
        "url": "https://arxiv.org/abs/2709.00871",
        "reading_progress": 1.0,
        "notes": "read the whole thing incl. appendix B.",
    },
    {
        "id": "a2",
        "title": None,
        "site_name": "openreview.net",
        "url": "https://openreview.net/forum?id=q7TzRkM2xP",
        "notes": "never loaded, timeout, so no title.",
    },
    {
        "ts": "2027-08-26T21:14",
        "url": "https://arxiv.org/abs/2708.01893",
        "t": "Lumen: Attributing Energy to Kernels",
        "lvl": "abs",
        "v": "abstract page only",
    },
]
JSONL = (
    'reader export, my comments in "notes"\n\n```jsonl\n' + "".join(json.dumps(r) + "\n" for r in _RECORDS) + "```\n"
)


def test_each_json_object_of_an_export_is_an_item_read_by_its_values() -> None:
    """Held-out q4 and o4 pasted exports one JSON object a line: each object is an item, its keys read as a table's
    header cells are (``title``, ``t``; ``url``; ``lvl``), and its reading made of the writer's values: the quotes are
    JSON's, and the source's own title asks nothing (``…Forget?`` is no hedge)."""
    forget, nameless, lumen = _items(JSONL)
    assert forget.title.startswith("ForgetBench") and forget.recogniser == "jsonl"
    assert forget.evidence == EvidenceLevel.verified
    assert forget.urls == ["https://arxiv.org/abs/2709.00871"]
    assert nameless.title == "openreview.net"  # no title: the next field that names it
    assert (lumen.title, lumen.check_cell) == ("Lumen: Attributing Energy to Kernels", "abs")
    assert "?" not in forget.said and "read the whole thing" in forget.said


def test_a_line_of_braces_that_is_no_json_object_is_no_export_item() -> None:
    text = '# n\n\n{not json} see https://example.org/a\n\n{"only": "one object"} https://example.org/b\n'
    assert all(i.recogniser != "jsonl" for i in _items(text))
    assert exports.json_values("{not json}") == "{not json}"


def test_the_verifier_reads_a_json_items_level_from_its_values() -> None:
    """Without it the verifier's plain rule read the raw line, found the title's question mark and capped every
    number of a fully read item (q4: five repairs)."""
    from e1prep.read.markers import plain_level

    (forget, *_) = _items(JSONL)
    assert plain_level(forget.said, forget.legend, scoped=True) == EvidenceLevel.verified


def test_a_legend_that_follows_a_sentence_in_brackets_is_the_notes_legend() -> None:
    """Held-out o4's recognised notebook page opened with ``（…拍照转文字。√√ 读完　√ 只看摘要　○ 没点开）``."""
    from e1prep.read.evidence import parse_legend

    line = "（早上在本子上写的，拍照转文字。√√ 读完　√ 只看摘要　○ 没点开　？听来的）"
    legend = parse_legend([line], unlabelled={0})
    assert legend["√√"].level == EvidenceLevel.verified
    assert legend["√"].level == EvidenceLevel.summary
    assert "○" in legend and legend["○"].level == EvidenceLevel.unverified
    # one sentence with signs in it is no legend
    assert parse_legend(["（今天 ○ 号线停运，晚到。）"], unlabelled={0}) == {}


ADOC = """= Edge compilers — what I read
Ines <ines@>
:toc!:

== IREE 3.7 release notes

link:https://github.com/iree-org/iree/releases/tag/v3.7.0[iree v3.7.0]

Depth:: read the release notes in full

== Ansor, again

link:https://arxiv.org/abs/2006.06762[arXiv:2006.06762]

Depth:: abstract only
"""


def test_an_asciidoc_documents_section_titles_are_its_items_headings() -> None:
    items = _items(ADOC)
    assert [i.title for i in items] == ["IREE 3.7 release notes", "Ansor, again"]
    assert [i.evidence for i in items] == [EvidenceLevel.verified, EvidenceLevel.summary]
    # ``==`` lines without a document title ``= …`` first are no AsciiDoc sections
    assert all(i.title != "IREE 3.7 release notes" for i in _items(ADOC.split("\n", 1)[1]))


# --- a namesake ------------------------------------------------------------------------------------------------

NAMESAKE_DOC = """# drug-discovery 活文档

## A 分析

### A① 主动学习

Orbit 是组内的主动学习项目，batch 384（2027-07 决定）。

## 附 · arXiv 锚点

- arXiv:2401.00001 — Active learning baselines
"""


def test_a_paper_the_document_does_not_anchor_is_no_recheck_of_its_namesake() -> None:
    """Held-out p4's ORBIT, a new benchmark (arXiv:2708.07731), shares its name with the document's Orbit, the team's
    own project: it had been drafted as a recheck. A document that anchors its papers would anchor this one."""
    from e1prep.kb.knowledge import parse_knowledge
    from e1prep.read.identity import identify

    doc = parse_knowledge("organized/knowledge/drug-discovery.md", NAMESAKE_DOC)
    note = "# radar\n\n## ORBIT\n\nhttps://arxiv.org/abs/2708.07731\n\nread in full: a leakage-aware benchmark.\n"
    (item,) = _items(note)
    ident = identify(item, doc)
    assert ident.key == "ORBIT (arXiv:2708.07731)" and not ident.known(item.evidence)
    # the other side: the document's own anchored paper stays known by its id, and a paper of no id by its name
    anchored = note.replace("2708.07731", "2401.00001")
    assert identify(_items(anchored)[0], doc).known(EvidenceLevel.verified)
    no_id = "# radar\n\n## Orbit\n\nhttps://example.org/orbit\n\nread in full: batch size notes.\n"
    assert identify(_items(no_id)[0], doc).key == "Orbit"


REPO_DOC = """# climate 活文档

## dyn · 动力降尺度

### dyn/1 组内运行

- **Kestrel**：组内的 WRF 3 km 对流解析运行。

## repo · 仓库观察

### repo/1 计数

- NVIDIA/earth2studio：1,200 ⭐（2027-08-01 采集）
- Ouranosinc/xclim：980 ⭐（2027-08-01 采集）
"""

REPO_CARD = """---
repo: kestrel-ai/kestrel
url: https://github.com/kestrel-ai/kestrel
stars: 412
stars_weekly: 40
---
# kestrel-ai/kestrel

## Summary
A diffusion downscaling library for regional climate fields, from 25 km to 1 km.
"""


def test_a_repository_the_document_does_not_list_is_no_recheck_of_its_namesake(make_kb: MakeKB) -> None:
    """Held-out r4, s4, t4 and n4 each planted a repository named like something their document holds (a paper, the
    team's own runs, a dataset): each card became a refresh. A document that lists its repositories as ``owner/name``
    and not this one names another thing by that name; the card is new, keyed by its repository, and the verifier
    agrees (the document does not hold ``kestrel-ai/kestrel``)."""
    from e1prep.pipeline import draft_brief

    card = "organized/repo_cards/9002-kestrel-ai-kestrel.md"
    brief = draft_brief(make_kb({card: REPO_CARD}, knowledge=REPO_DOC))
    assert [i.key for i in brief.increments] == ["kestrel-ai/kestrel"]
    assert not brief.refreshes and not brief.rejected
    assert "another thing of that name" in brief.increments[0].relation or "同名" in brief.increments[0].relation
    # the other side: a document that lists this repository, or lists none at all, knows it by its name
    listed = REPO_DOC.replace("Ouranosinc/xclim", "kestrel-ai/kestrel")
    assert [r.key for r in draft_brief(make_kb({card: REPO_CARD}, knowledge=listed)).refreshes]
    unlisted = REPO_DOC.split("## repo")[0]
    assert not draft_brief(make_kb({card: REPO_CARD}, knowledge=unlisted)).increments


CLIPPINGS = """kindle export, today's clippings only

Quill: Sparse Routing (arXiv 2709.01234v1) (Mei Lin)
- Your Highlight on page 1 | Added on Tuesday, September 7, 2027 7:41:03 AM

The router sends each token to two of eight experts.
==========
Quill: Sparse Routing (arXiv 2709.01234v1) (Mei Lin)
- Your Note on page 4 | Added on Tuesday, September 7, 2027 7:51:36 AM

read up to the end of §4.
==========
ChunkSmith: Layout-Aware Chunking (arXiv 2709.00318v1) (Priya Raman)
- Your Note on page 1 | Added on Tuesday, September 7, 2027 8:13:02 AM

chunking for retrieval → rag, forwarded. intro only.
==========
"""


def test_an_e_readers_clippings_of_one_title_are_one_item() -> None:
    """Held-out r4 pasted Kindle's My Clippings: each clipping repeats its book's title over a meta line and ends in
    ten ``=`` (which CommonMark would read as the passage's underline). The clippings of one title in a row are one
    item."""
    quill, chunk = _items(CLIPPINGS)
    assert quill.title.startswith("Quill: Sparse Routing") and quill.recogniser == "clipping"
    assert (quill.line_start, quill.line_end) == (3, 12)
    assert quill.evidence == EvidenceLevel.partial
    assert chunk.title.startswith("ChunkSmith")
    # one parting line, or ten ``=`` under a title with no meta lines, is a setext heading as before
    setext = (
        "Title one\n==========\n\nbody https://example.org/a\n\nTitle two\n==========\n\nbody https://example.org/b\n"
    )
    items = _items(setext)
    assert items[0].title == "Title one" and all(i.recogniser != "clipping" for i in items)


def test_the_repo_card_is_the_card_no_other_object() -> None:
    """Found by the hypothesis property of tests/test_evidence.py (a latent case, there before this session): after a
    bullet's numbers, ``only the repo card's star and weekly-growth fields`` says they are the card's; ``repo`` makes
    a compound with ``card``, it names no other object that would leave the numbers as the check line says."""
    from e1prep.read import scope

    text = "- 吞吐提升 3 倍，延迟 120 ms。 only the repo card's star and weekly-growth fields"
    at = text.index("card")
    assert scope.other_object(text, at, at + 4) is None
    assert markers.block_level(text) is not None and not markers.block_level(text).quotable  # type: ignore[union-attr]
    # the other side: an object that is the subject of its own statement is another object
    for said, word in [("卡片采集，未打开仓库", "未打开"), ("the repo was not opened", "not opened")]:
        at = said.index(word)
        assert scope.other_object(said, at, at + len(word)) in ("仓库", "repo")
