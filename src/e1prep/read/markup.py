"""Other markups' structure, written in the reader's own Markdown before any item is looked for: setext and
reStructuredText titles and directives, org-mode, notebooks, toggles, mind maps, Obsidian callouts, text boxes,
sideways tables. Each rewrite is one line for one line, so every line number the brief cites stays the note's own."""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from itertools import pairwise
from typing import NamedTuple

from ..text.lexicon import lexicon
from .lines import BULLET_ENTRY, TABLE_ROW, TABLE_SEP, heading, is_field_line, points_at, table_cells


def to_markdown(lines: list[str]) -> list[str]:
    """The note's lines with every other markup it uses written as Markdown (one line for one line)."""
    marked = _cards(
        _plain_markup(_directives(_boxes(_hash_comments(_wiki(_org(_folds(_tap_yaml(_gherkin(_notebook(lines))))))))))
    )
    return _transposed_tables(_callouts(_outline_root(_toggles(marked))))


#: a shell prompt opening a line (``$ curl -sL …``): a command typed in a terminal
SHELL_PROMPT = re.compile(r"^\$\s+\S")
#: a shell comment (``# read all of it (~25 min).``)
_SHELL_COMMENT = re.compile(r"^#[ \t]")


#: a TAP stream's first lines: its version line or its plan (``TAP version 13``, ``1..4``)
_TAP_HEAD = re.compile(r"^(?:TAP version \d+|1\.\.\d+)\s*$")


def is_tap_stream(lines: list[str]) -> bool:
    """Whether the note is a TAP report: its version line or its plan among its first three lines."""
    return any(_TAP_HEAD.match(line) for line in lines[:3])


#: a Gherkin file's language line (``# language: zh-CN``)
_GHERKIN_LANGUAGE = re.compile(r"^#\s*language:\s*[\w-]+\s*$")


def _hash_comments(lines: list[str]) -> list[str]:
    """The note's lines with ``# `` comments as the writer's plain text, no headings: in a note of two or more
    commands typed at a ``$`` prompt (a fetch log), and in a file whose format makes ``#`` a comment (a TAP
    report, a Gherkin feature file, opened by their own first lines). The comment's words stay as written (a quote
    of them is verbatim). One line for one line."""
    commented = is_tap_stream(lines) or any(_GHERKIN_LANGUAGE.match(line) for line in lines[:3])
    if not commented and sum(1 for line in lines if SHELL_PROMPT.match(line)) < 2:
        return lines
    return [line[2:] if _SHELL_COMMENT.match(line) else line for line in lines]


class GherkinKeywords(NamedTuple):
    """A Gherkin file's keywords as patterns: the feature's line, a scenario's line (its name is ``name``), a step's
    line (its keyword dropped: ``indent`` and ``rest``)."""

    feature: re.Pattern[str]
    scenario: re.Pattern[str]
    step: re.Pattern[str]


@cache
def gherkin_keywords() -> GherkinKeywords | None:
    """The patterns of Gherkin's keywords in the languages ``data/writing.toml`` [gherkin] lists (None: none listed)."""
    words = lexicon().gherkin
    if not words:
        return None

    def any_of(kind: str) -> str:
        return "|".join(map(re.escape, words.get(kind, ()))) or "(?!)"

    return GherkinKeywords(
        re.compile(rf"^\s*(?:{any_of('feature')})\s*[:：]"),
        re.compile(rf"^\s*(?:{any_of('scenario')})\s*[:：]\s*(?P<name>\S.*)$"),
        re.compile(rf"^(?P<indent>\s*)(?:{any_of('steps')})\s+(?P<rest>\S.*)$"),
    )


def is_feature_file(lines: list[str]) -> bool:
    """Whether the note is a Gherkin feature file: a feature's line and two scenarios or more."""
    keys = gherkin_keywords()
    if keys is None or not any(":" in line or "：" in line for line in lines):
        return False
    return any(keys.feature.match(line) for line in lines) and sum(1 for ln in lines if keys.scenario.match(ln)) >= 2


def _gherkin(lines: list[str]) -> list[str]:
    """The note's lines with a Gherkin feature file's steps as its scenarios' points: a step's keyword (``Given``,
    ``假如``, ``那么``, ``data/writing.toml`` [gherkin]) is the file's structure and no word of the step
    (``假如 原文读完`` says the original was read, no "if"); the step is a bullet. One line for one line."""
    keys = gherkin_keywords()
    if keys is None or not is_feature_file(lines):
        return lines
    return [f"{m['indent']}- {m['rest']}" if (m := keys.step.match(line)) else line for line in lines]


#: the bounds of a TAP test point's YAML block set in under it (``  ---``, ``  ...``)
_YAML_BOUND = re.compile(r"^[ \t]+(?:---|\.\.\.)\s*$")


def _tap_yaml(lines: list[str]) -> list[str]:
    """The note's lines with a TAP report's YAML blocks unbounded: their ``---`` and ``...`` lines are the blocks'
    delimiters, no rules that part the report (each block belongs to the test point above it). One line for one
    line."""
    if not is_tap_stream(lines):
        return lines
    return ["" if _YAML_BOUND.match(line) else line for line in lines]


#: a vim fold's opening marker closing a line (``== Lean FRO：… {{{1``), and its closing marker alone on a line
_FOLD_OPEN = re.compile(r"^(?P<title>.*?\S)\s*\{\{\{(?P<level>\d)?\s*$")
_FOLD_CLOSE = re.compile(r"^\s*(?:\"\s*)?\}\}\}\d?\s*$")


def _folds(lines: list[str]) -> list[str]:
    """The note's lines with vim's fold markers read as its outline (a note kept with ``foldmethod=marker``): a
    line that opens a fold (``{{{1``) is a heading a level below the note's title, its level the marker's, and a
    line that closes one (``}}}``) is blank. Two folds or more. One line for one line."""
    opened = [i for i, line in enumerate(lines) if "{{{" in line and _FOLD_OPEN.match(line)]
    if len(opened) < 2:
        return lines
    out = list(lines)
    for i in opened:
        m = _FOLD_OPEN.match(lines[i])
        title = m["title"].strip().strip('"=#').strip()  # type: ignore[index]
        out[i] = "#" * min(int(m["level"] or 1) + 1, 6) + " " + title  # type: ignore[index]
    for i, line in enumerate(lines):
        if "}}}" in line and _FOLD_CLOSE.match(line):
            out[i] = ""
    return out


#: a card's first line: a status sign (a symbol, ``□``, ``◐``, ``■``, ``✕``), a space, its title
_CARD = re.compile(r"^(?P<sign>\S)[ \t]+\S")
#: a line set in under a card (its body)
_SET_IN = re.compile(r"^[ \t]{2,}\S")
#: the signs that are a list's bullets, never a card's status
_BULLET_SIGNS = frozenset("-*+•▸▹‣")
#: a link alone on its line at the margin: a card of a dump of open tabs (``https://…`` over its remarks set in)
_LINK_LINE = re.compile(r"^https?://\S+\s*$")


def _status_sign(line: str) -> bool:
    """Whether a line opens with a status sign (a symbol, not a bullet: ``□``, ``✕``, or an arrow ``→``) and a space."""
    m = _CARD.match(line)
    if m is None or m["sign"] in _BULLET_SIGNS:
        return False
    kind = unicodedata.category(m["sign"])
    return kind == "So" or (kind == "Sm" and not m["sign"].isascii())  # ``+``, ``=``, ``>`` are Markdown's


def _cards(lines: list[str]) -> list[str]:
    """The note's lines with a board's cards as headings one level below the heading they stand under (a kanban
    board dumped as text: ``□ Wan 3.1 昇腾 910C 部署踩坑`` opening a paragraph, its lines set in under it): two or
    more paragraphs opened by a status sign or by a link alone (a dump of open tabs), each over a body set in, are
    items, the sign their status. A sign on a line inside a paragraph is that paragraph's (a starred remark under
    its feed line). One line for one line."""
    cards = [
        i
        for i, line in enumerate(lines[:-1])
        if (_status_sign(line) or _LINK_LINE.match(line))
        and _SET_IN.match(lines[i + 1])
        and (i == 0 or not lines[i - 1].strip() or heading(lines[i - 1]) is not None)
    ]
    if len(cards) < 2:
        return lines
    out = list(lines)
    level = 1
    at = 0
    for i in cards:
        for k in range(at, i):
            if (h := heading(lines[k])) is not None:
                level = h[0]
        at = i
        out[i] = "#" * min(level + 1, 6) + " " + lines[i]
    return out


#: a text box's border (``+------+``) and a line inside it, one cell wide (``| ITEM     RankMix |``)
_BOX_BORDER = re.compile(r"^\s*\+[-=]{3,}\+\s*$")
_BOX_ROW = re.compile(r"^\s*\|(?P<inner>[^|]*)\|\s*$")


def _boxes(lines: list[str]) -> list[str]:
    """The note's lines with each text box drawn in ASCII (``+---+`` over ``| ITEM  RankMix |`` rows, one cell wide)
    read as the lines it frames: the borders blank, each row its words as written (a quote of them stays verbatim).
    One line for one line."""
    out = list(lines)
    i = 0
    while i < len(lines):
        if "+" not in lines[i] or not _BOX_BORDER.match(lines[i]):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and _BOX_ROW.match(lines[j]):
            j += 1
        if j == i + 1 or j == len(lines) or not _BOX_BORDER.match(lines[j]):
            i = j
            continue
        out[i] = out[j] = ""
        for k in range(i + 1, j):
            row = _BOX_ROW.match(lines[k])
            out[k] = row["inner"].strip() if row else ""
        i = j + 1
    return out


#: a reStructuredText directive (``.. note:: README only.``, ``.. contents:: 4 entries``): its name and text
_DIRECTIVE = re.compile(r"^(?P<indent>\s*)\.\.\s+(?P<name>[A-Za-z][\w-]*)::[ \t]*(?P<text>.*)$")
#: the directives that set off the writer's own words (docutils' admonitions); any other is the markup's machinery
_ADMONITIONS = frozenset(
    {"note", "warning", "tip", "hint", "important", "caution", "attention", "danger", "error", "admonition", "seealso"}
)


def _directives(lines: list[str]) -> list[str]:
    """The note's lines with each reStructuredText directive read as its writer meant it: an admonition
    (``.. note:: Read the whole note.`` and the lines set in under it) is the writer's own text, as a callout
    is; any other directive (``.. contents::``, ``.. image::``) is machinery, a blank line. One line for one line."""
    out = list(lines)
    inside = False
    for i, line in enumerate(lines):
        if ".." in line and (m := _DIRECTIVE.match(line)):
            inside = m["name"].lower() in _ADMONITIONS
            out[i] = m["indent"] + m["text"] if inside else ""
        elif inside and line[:1] in (" ", "\t") and line.strip():
            out[i] = line.strip()
        else:
            inside = False
    return out


#: the line that parts an e-reader's clippings (Kindle's ``My Clippings.txt``: ten ``=``), and a clipping's line under
#: its book's title (``- Your Highlight on page 3 | Added on …``): a clippings file's parts, no underlined titles
CLIPPING_END = re.compile(r"^={10}\s*$")
CLIPPING_META = re.compile(r"^-\s+\S.*\|")


def _clippings(lines: list[str]) -> bool:
    """Whether the note is an e-reader's clippings (two or more parting lines and two or more meta lines)."""
    return (
        sum(1 for line in lines if line.startswith("=") and CLIPPING_END.match(line)) >= 2
        and sum(1 for line in lines if line.startswith("-") and CLIPPING_META.match(line)) >= 2
    )


#: a section title's adornment (CommonMark's setext underline, reStructuredText's under- and overline, a rule drawn
#: in box-drawing characters over and under a title)
_ADORNMENT = re.compile(r"^([=\-~^\"─━═])\1{2,}\s*$")


_ADORNING = frozenset('=-~^"─━═')
#: drawn rules: a title only between two of them (a box's lid and floor); one under a line is a break, no underline
_DRAWN = frozenset("─━═")


#: a line that is no paragraph of its own: a bullet, a numbered item, a table row, a quote, a heading
_NOT_A_TITLE = re.compile(r"^\s*(?:[-*+]\s|\d{1,3}[.)]\s|\||>|#{1,6}\s)")


#: a reStructuredText field (``:链接: https://…``): read as the field ``链接: https://…`` when its name is a label
_RST_FIELD = re.compile(r"^(\s*):([^\s:][^:]{0,24}):(?=\s|$)")


_FENCE_LINE = re.compile(r"^\s*```")


def _plain_markup(lines: list[str]) -> list[str]:
    """The note's lines with other markups' structure in the reader's own: a title underlined (and maybe
    overlined) by a run of one punctuation character, as CommonMark's setext headings and
    reStructuredText's section titles are, is a ``#`` heading; a reStructuredText field is a field. One
    line for one line (line numbers stay); an adornment line becomes blank. Levels: CommonMark's (``=`` 1,
    ``-`` 2) beside ``#`` headings, else reStructuredText's, in the order the styles first appear. Fenced
    code is left as written."""
    out = list(lines)
    titles: list[tuple[int, tuple[str, bool]]] = []  # (title line, its style: character, overlined)
    fenced = False
    for i, line in enumerate(lines):
        if "`" in line and _FENCE_LINE.match(line):
            fenced = not fenced
        if not fenced:
            out[i] = _plain_field(line)
            if (style := _title_style(lines, i)) is not None:
                titles.append((i, style))
            elif line[:1] in _ADORNING and (framed := _FRAMED_TITLE.fullmatch(line.strip())):
                title = framed.group("title")
                if not any(word in title.lower() for word in lexicon().mail.get("forward", ())):
                    out[i] = "## " + title
    if not titles or _clippings(lines):  # (a clipping's passage over its parting line is no title)
        return out
    atx = any(heading(line) for line in lines)
    styles: dict[tuple[str, bool], int] = {}
    for i, style in titles:
        level: int | None = 2  # a boxed title is a section's, as a title framed on its own line is (``_FRAMED_TITLE``)
        if style[0] not in _DRAWN:
            level = {"=": 1, "-": 2}.get(style[0]) if atx else styles.setdefault(style, min(len(styles) + 1, 6))
        if level is None:
            continue
        out[i] = "#" * level + " " + lines[i].strip()
        out[i + 1] = ""
        if style[1]:
            out[i - 1] = ""
    return out


#: a plain-text section title framed by one run of a character on each side (a mail's ``---- XGBoost 4.0 ----``)
_FRAMED_TITLE = re.compile(r"(?P<run>([-=~])\2{2,})[ \t]+(?P<title>\S.*?\S)[ \t]+(?P=run)")


def _plain_field(line: str) -> str:
    """A line less a reStructuredText field's opening colon, when the field's name is a label."""
    if ":" in line and (field := _RST_FIELD.match(line)) and lexicon().is_label(field.group(2)):
        return field.group(1) + field.group(2) + ":" + line[field.end() :]
    return line


def _title_style(lines: list[str], i: int) -> tuple[str, bool] | None:
    """The adornment style of line ``i`` when it is a section title: (its character, overlined or not)."""
    under = lines[i + 1] if i + 1 < len(lines) else ""
    if under[:1] not in _ADORNING or not (m := _ADORNMENT.match(under)):  # most lines: one look
        return None
    line = lines[i]
    if not line.strip() or _NOT_A_TITLE.match(line) or _ADORNMENT.match(line):
        return None
    prev = lines[i - 1].strip() if i > 0 else ""
    # an overline opens its title after a blank line (else it is the underline of the title above)
    over = bool(prev) and prev == under.strip() and (i < 2 or not lines[i - 2].strip())
    if not over and (m.group(1) in _DRAWN or (prev and not _ADORNMENT.match(prev) and not heading(prev))):
        return None  # a paragraph of one line, or a drawn rule with no lid over the line
    if m.group(1) == "-" and is_field_line(line):  # ``key: value`` then ``---``: a block's fence
        return None
    return m.group(1), over


#: a notebook cell's prompt, exported to Markdown (``**In [3]:**``, ``Out [3]:``)
_CELL_PROMPT = re.compile(r"\s*(?:\*\*)?(?:In|Out)\s*\[\s*\d*\s*\]:?(?:\*\*)?\s*")


def _notebook(lines: list[str]) -> list[str]:
    """A notebook exported to Markdown, with its cells' prompts blanked (line numbers stay): a prompt is the
    notebook's machinery, never an item's title (``**In [3]:**`` had titled the cells as bold run-in titles
    do). The cells stay: a listing printed in one may name the items the writer annotates between them. Two
    prompts or more make a notebook."""
    prompts = [i for i, line in enumerate(lines) if line[:1] in " *IO" and _CELL_PROMPT.fullmatch(line)]
    if len(prompts) < 2:
        return lines
    out = list(lines)
    for i in prompts:
        out[i] = ""
    return out


#: an HTML block's tags on lines of their own, as Notion and GitHub export toggles and asides (``<details>``,
#: ``</aside>``), and a toggle's summary (``<summary>Kestrel-TS — arXiv:… ✅ read in full</summary>``)
_HTML_BLOCK_TAG = re.compile(r"^\s*</?(?:details|aside)\b[^>]*>\s*$", re.I)


_SUMMARY = re.compile(r"^\s*<summary>(?P<title>.*?)</summary>\s*$", re.I)


#: a line set in bold, whole
_BOLD_LINE = re.compile(r"^\s*\*\*(?P<text>[^*\n]+)\*\*\s*$")


def _toggles(lines: list[str]) -> list[str]:
    """The note's lines with each toggle (``<details><summary>…</summary> … </details>``) written as a heading
    over its text, one level below the heading above it: a toggle is the writer's block about what its summary
    names, and a line set in bold inside it names a part of that block (``**What it is**``, ``**Results**``), no
    item of its own: it is written plain. An aside's tags (``<aside>``) are markup, its text the writer's. One
    line for one line."""
    if not any("<" in line for line in lines):
        return lines
    out = list(lines)
    level = 1  # the level of the last heading outside every toggle
    depth = 0
    for i, line in enumerate(lines):
        if depth == 0 and (head := heading(line)):
            level = head[0]
        elif m := _SUMMARY.match(line):
            out[i] = "#" * min(level + depth, 6) + " " + m["title"].strip()
        elif depth and (bold := _BOLD_LINE.match(line)):
            out[i] = bold["text"]
        elif _HTML_BLOCK_TAG.match(line):
            out[i] = ""
            if line.lstrip()[1:].lower().startswith("details"):
                depth += 1
            elif line.lstrip()[2:].lower().startswith("details"):
                depth = max(depth - 1, 0)
    return out


def _outline_root(lines: list[str]) -> list[str]:
    """The note's lines with a mind map's centre written as a heading, its branches one level up: an outline
    whose one entry at the margin points at nothing (``- 今日 blogs / feeds``) and holds two or more branches
    that have branches of their own (an XMind or a MindNode export) is a map about its branches, each an item.
    One entry with plain points under it is one item, as it was. One line for one line."""
    entries = [(i, m) for i, line in enumerate(lines) if (m := BULLET_ENTRY.match(line))]
    top = [(i, m) for i, m in entries if not m["indent"]]
    if len(top) != 1 or points_at([lines[top[0][0]]]):
        return lines
    root = top[0][0]
    below = [(i, len(m["indent"].expandtabs(4))) for i, m in entries if i > root]
    if not below:
        return lines
    step = min(width for _, width in below)
    branches = [n for n, (_, width) in enumerate(below) if width == step]
    grown = sum(1 for a, b in pairwise([*branches, len(below)]) if b - a > 1)  # a branch with branches under it
    if len(branches) < 2 or grown < 2:
        return lines
    out = list(lines)
    out[root] = "## " + top[0][1]["text"]
    for i, _ in below:
        line = out[i].expandtabs(4)
        out[i] = line[step:] if line[:step].strip() == "" else line
    return out


#: an org-mode keyword line (``#+TITLE: …``, ``#+TODO: TODO | DONE``), a heading (``** DONE …``), and a property
#: drawer's bounds and fields (``:PROPERTIES:`` … ``:READ: full text`` … ``:END:``)
_ORG_KEYWORD = re.compile(r"^#\+(?P<key>[A-Za-z_]+):\s*(?P<value>.*)$")


_ORG_HEADING = re.compile(r"^(?P<stars>\*+)\s+(?P<title>\S.*)$")


_ORG_DRAWER = re.compile(r"^\s*:(?:PROPERTIES|END|LOGBOOK):\s*$", re.I)


_ORG_PROPERTY = re.compile(r"^(?P<indent>\s*):(?P<name>[A-Za-z_][\w-]*):(?P<value>\s.*)?$")


def _org(lines: list[str]) -> list[str]:
    """The note's lines as Markdown when the note is an org-mode file (it declares itself by keyword lines,
    ``#+TITLE:`` / ``#+TODO:``): its title is the note's ``#`` heading, its starred headings are headings one
    level below (``* DONE DriftBench`` is ``## DONE DriftBench``, not a bullet), a property drawer's fields are
    fields (``:READ: full text`` is ``READ: full text``) and its bounds are blank. One line for one line."""
    if not any(line.startswith("#+") and _ORG_KEYWORD.match(line) for line in lines[:20]):
        return lines
    out = list(lines)
    for i, line in enumerate(lines):
        if keyword := _ORG_KEYWORD.match(line):
            # its title heads the note; the other keywords stay as written (``#+TODO:`` declares the states)
            out[i] = "# " + keyword["value"] if keyword["key"].upper() == "TITLE" else line
        elif starred := _ORG_HEADING.match(line):
            out[i] = "#" * min(len(starred["stars"]) + 1, 6) + " " + starred["title"]
        elif _ORG_DRAWER.match(line):
            out[i] = ""
        elif field := _ORG_PROPERTY.match(line):
            out[i] = field["indent"] + field["name"] + ":" + (field["value"] or "")
    return out


#: a MediaWiki heading (``== 新方法：LogProbe ==``, ``=== Notes ===``): as many ``=`` after it as before
_WIKI_HEADING = re.compile(r"^(?P<marks>={2,6})[ \t]*(?P<title>[^=\s](?:.*?[^=\s])?)[ \t]*(?P=marks)[ \t]*$")


def _wiki(lines: list[str]) -> list[str]:
    """The note's lines as Markdown when it is a wiki page's source (two or more MediaWiki headings): a heading of
    ``==`` is a heading a level below the page's title (``== LogProbe ==`` is ``## LogProbe``); else as an AsciiDoc
    document's, if it is one (:func:`_asciidoc`: its titles are not closed by ``=``). One line for one line; the rest
    stays as written."""
    found = [(i, m) for i, line in enumerate(lines) if line.startswith("==") and (m := _WIKI_HEADING.match(line))]
    if len(found) < 2:
        return _asciidoc(lines)
    out = list(lines)
    for i, m in found:
        out[i] = "#" * len(m["marks"]) + " " + m["title"]
    return out


#: an AsciiDoc document's title (``= Edge compilers — what I read``) and its section titles (``== IREE 3.7``)
_ADOC_TITLE = re.compile(r"^=[ \t]+\S")
_ADOC_HEADING = re.compile(r"^(?P<marks>={2,6})[ \t]+(?P<title>\S.*?)[ \t]*$")


def _asciidoc(lines: list[str]) -> list[str]:
    """The note's lines as Markdown when it is an AsciiDoc document (its first line of text is a title ``= …``): a
    section title ``== …`` is a heading a level below it. One line for one line."""
    first = next((line for line in lines if line.strip()), "")
    if not _ADOC_TITLE.match(first):
        return lines
    out = list(lines)
    for i, line in enumerate(lines):
        if line.startswith("=") and (m := _ADOC_HEADING.match(line)):
            out[i] = "#" * len(m["marks"]) + " " + m["title"]
        elif line is first:
            out[i] = "# " + line[1:].strip()
    return out


#: an Obsidian callout's first line (``> [!note] 读到哪``, ``> [!warning]- 摘要里的数字先别用``): its kind and title
_CALLOUT = re.compile(r"^\s*>\s*\[!\w+\][+-]?\s*(?P<title>.*)$")


def _callouts(lines: list[str]) -> list[str]:
    """The note's lines with each Obsidian callout written as the writer's own text: a callout is a block the
    writer sets off (``> [!note] 读到哪`` over ``> 摘要、Intro … 读到 3.2 为止``), not someone else's words quoted.
    Its title stays a line of its own; one line for one line."""
    out = list(lines)
    inside = False
    for i, line in enumerate(lines):
        if m := _CALLOUT.match(line):
            out[i], inside = m["title"], True
        elif inside and line.lstrip().startswith(">"):
            out[i] = line.lstrip()[1:].lstrip()
        else:
            inside = False
    return out


def _transposed_tables(lines: list[str]) -> list[str]:
    """The note's lines with each table written sideways turned upright: a comparison whose columns are the items
    and whose first column names what each row says (``| | Burrow | EdgeSpec |`` over ``| 链接 | … |``, ``| 读到哪 |
    … |``: two or more of its row names are column words, ``writing.toml [columns]``). Each item becomes a row,
    titled by its column's head, in the table's own lines (line numbers stay; the lines left over are blank)."""
    out = list(lines)
    lex = lexicon()
    i = 0
    while i + 2 < len(lines):
        if not (TABLE_ROW.match(lines[i]) and TABLE_SEP.match(lines[i + 1])):
            i += 1
            continue
        end = i + 2
        while end < len(lines) and TABLE_ROW.match(lines[end]):
            end += 1
        head, rows = table_cells(lines[i]), [table_cells(line) for line in lines[i + 2 : end]]
        named = sum(1 for row in rows if row and lex.column_meaning(row[0]) is not None)
        items = len(head) - 1
        if (
            items >= 2
            and named >= 2
            and lex.column_meaning(head[0]) is None
            and all(len(row) == len(head) for row in rows)
            and items <= end - i - 2
        ):
            title = lex.columns["title"][0]
            upright = ["| " + " | ".join([title, *(row[0] for row in rows)]) + " |", "|" + "---|" * (len(rows) + 1)]
            upright += ["| " + " | ".join([head[j], *(row[j] for row in rows)]) + " |" for j in range(1, len(head))]
            out[i:end] = upright + [""] * (end - i - len(upright))
        i = end
    return out
