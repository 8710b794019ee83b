"""A graded, conservative reading of what a note states about how far an item was checked.

Every word comes from the marker table (``data/markers.toml`` through :mod:`e1prep.read.markers`).
The reading never takes the first marker: each statement gives a level and the most restrictive
one wins.

* A **remark** (``核查：…`` / ``Check: …``, a table's check cell, or the item's whole text when it
  has no remark line) is read as one statement. A hedge, a question or a relayed check anywhere in
  it makes it ``unverified``; a negated full read (``没有读完全文``) or one in quotation marks
  (``作者说「原文已读」``) is not the writer's own check. A full or partial read with a stated
  limitation (truncated, login, 403, vendor's claim, not checked) is at most ``partial``; a remark
  that says only a summary or a snippet was seen is that, whatever else it says.
* A note's **legend** (``标记说明：✔ 全文读过 / ◑ 读了一部分 / ◯ 只有摘要 / ✘ 打不开``) maps its own
  symbols to statements; a symbol in a remark is read through it.
* A note-level **range statement** (``前两条读了原文，其余只看了摘要``, ``第 1、2 条读了原文``) is a
  statement about the items it names.
* Lines of the item that are not remarks can only lower it: any limitation or hedge there caps the
  item at ``partial``.
* Several statements on one item combine to the most restrictive. A remark with no marker at all is
  **not understood**: the item is ``unverified`` and the remark is listed.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from ..brief.models import EvidenceLevel
from ..brief.phrases import Phrase
from ..text import visible
from ..text.lexicon import lexicon
from ..text.regexgate import guarded
from .labels import title_field
from .markers import (
    LOWERING_KINDS,
    RANK,
    Hit,
    denied,
    find,
    in_quotes,
    negated,
    reported,
    strictest,
    strip_urls,
    without_part_names,
)
from .scope import claim_only, names_a_part, same_sentence, sentences


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


#: what sets a field's label off from its value, besides the colon: bold, or the corner and lenticular brackets
#: of a CJK editor's export (``「阅读进度」：``, ``【核查】：``)
_LABEL_OPEN = r"(?:\*\*|「|【)?"
_LABEL_CLOSE = r"(?:\*\*|」|】)?"
#: a remark line: its label (``writing.toml``: ``remark_labels``) says that the line is about the check
REMARK_LINE = re.compile(
    rf"^\s*(?:[-*+>]\s*)?{_LABEL_OPEN}(?P<label>{_alternation(lexicon().remark_labels)}){_LABEL_CLOSE}\s*[:：](?:\*\*)?",
    re.I,
)
#: labels too general to be sure the line is about the check (``状态：已合并`` is an issue's state)
_WEAK_LABELS = lexicon().weak_remark_labels

LEGEND_LINE = re.compile(
    rf"^\s*(?:[-*>]\s*)?(?:\*\*)?[^:：|\n]{{0,12}}?(?:{_alternation(lexicon().legend_labels)})(?:\*\*)?"
    r"\s*(?:（[^）\n]{0,60}）|\([^)\n]{0,60}\))?\s*[:：]\s*(?P<rest>.*)$",
    re.I,
)


#: a legend label alone, as ``LEGEND_LINE`` compares it (guarded: ``re`` tries a case-folded alternation
#: at every position, its first characters first is cheaper)
_LEGEND_LABEL = guarded(_alternation(lexicon().legend_labels), re.I)
#: whether no label holds a colon (then a label ends before the line's first colon)
_LABELS_WITHOUT_COLON = not any(c in w for w in lexicon().legend_labels for c in ":：")


def legend_line(line: str) -> re.Match[str] | None:
    """Equivalent to ``LEGEND_LINE.match(line)``; no label before the first colon (none holds one): None at once."""
    colon = line.find(":")
    wide = line.find("：", 0, colon if colon >= 0 else len(line))
    if wide >= 0:
        colon = wide
    if colon < 0:
        return None
    if _LABELS_WITHOUT_COLON and not _LEGEND_LABEL.search(line, 0, colon):
        return None
    return LEGEND_LINE.match(line)


#: a field's label, words only, and what follows it (``阅读范围：全文读完``, ``**Read:** 全文``, ``Read:: full``); a
#: label with signs in it is a sentence's lead, not a field's (``据 Jay（他读过全文）：…`` relays a read)
_FIELD_LABEL = re.compile(
    rf"^\s*(?:[-*+>]\s*)?{_LABEL_OPEN}(?P<label>[^\W_][\w -]{{0,15}}?){_LABEL_CLOSE}"
    r"\s*[:：]{1,2}(?:\*\*)?(?P<value>.*)$"
)
_READING_WORDS = tuple(w.lower() for w in lexicon().reading_label_words)
#: the end of a sentence or a field: the line after it opens one of its own
_LINE_ENDS = tuple(".!?。！？:：;；)）")


def remark_line(line: str, previous: str | None = None) -> re.Match[str] | None:
    """The match of a remark line's label: a label of ``REMARK_LINE``, or a short label that names the reading
    (:func:`_names_the_reading`) over a value that says how far, on a line that opens a sentence of its own
    (``previous``, the line above it, does not run on into it). A field table's row is read as its field."""
    if line.lstrip().startswith("|") and len(cells := line.strip().strip("|").split("|")) == 2:
        line = f"{cells[0].strip()}：{cells[1].strip()}"  # a field table's row (``| 阅读程度 | … |``) is its field
    if m := REMARK_LINE.match(line):
        # a weak label over no words of a reading is no remark (``状态：已合并``, Logseq's ``status:: reading``)
        return m if m["label"].lower() not in _WEAK_LABELS or read_remark(line[m.end() :]).words else None
    m = _FIELD_LABEL.match(line)
    if m is None or not _names_the_reading(m["label"]) or _runs_on(previous, line):
        return None
    return m if read_remark(m["value"]).words or _read_with_its_label(line, m.start("value")) else None


def _read_with_its_label(line: str, value_start: int) -> bool:
    """Whether a statement of the line takes in its label (``「阅读进度」：全文 100%``: the label says what
    ``全文`` is the answer to), so that the value alone says nothing."""
    return any(h.start < value_start < h.end for h in find(line))


def _names_the_reading(label: str) -> bool:
    """Whether a field's label names the reading by one of its words (``writing.toml``: ``[remark_labels]
    reading``): at most four Latin words, one of them such a word (``Read``, ``How much I read``), or a few CJK
    characters holding one."""
    words = re.split(r"[\s-]+", label.lower().strip())
    if not words or len(words) > 4 or sum("\u3400" <= c <= "\u9fff" for c in label) > 6:
        return False
    return any(w in words if w.isascii() else w in label for w in _READING_WORDS)


def _runs_on(previous: str | None, line: str) -> bool:
    """Whether ``line`` carries on the sentence of the line above it (``…nothing else to`` over ``read: no paper``):
    it opens in lower case under a line of text, no field, that ends no sentence."""
    above = (previous or "").rstrip()
    if not above or not line.lstrip()[:1].islower() or above.endswith(_LINE_ENDS):
        return False
    return _FIELD_LABEL.match(above) is None  # under a field, a field is its sibling (``status:: …`` / ``read-to:: …``)


#: characters that separate legend entries or stand in ordinary text; never part of a symbol
_PLAIN = r"\w\s\u3400-\u9fff（）()【】「」『』:：,，;；/／|｜·・、=＝.。!！'\"`*_"
#: a legend symbol: a run of sign characters, a checkbox (``[x]``), or a short code before ``=`` (``A=``, ``L1``)
_SYMBOL_RUN = re.compile(rf"\[[^\]\n]{{0,2}}\]|[^{_PLAIN}]+")
_CODE = re.compile(r"(?<![A-Za-z0-9])([A-Z]\d{0,2})(?=\s*[=:：＝]|\s+[^\sA-Za-z])")
#: a tag with its value, as TaskPaper writes one (``@read(abs)``, ``@read(part: §1–3)``): a sign of its own
TAG = re.compile(r"(?<![\w@])@[A-Za-z][\w-]*\([^()\n]{0,24}\)")
_SEPARATOR = re.compile(r"[/／|·・;；,，、]|\s")
_DASHES = re.compile(r"[-–—―]+")
#: a legend's entry that defines a word (``abs = 只看了 abstract``, ``full = 全文读完``), a CJK code of one or two
#: characters (``全 = 全文看完　摘 = 只看了摘要``) or a digit of a scale (``0 = 没打开 | 4 = 全文读完``), after a
#: separator
_WORD_ENTRY = re.compile(
    r"(?:^|[：:；;，,。\u3000｜|·—]|\s{2})\s*(?:\*\*|`)?"
    # a code of up to three words in capitals (``FULL RECORD``, ``HEADNOTE ONLY``), or of a few words in bold or code
    # (``**Press release**``), a word, a CJK code of one or two characters, a digit
    r"((?<=\*\*)[A-Za-z][A-Za-z -]{0,22}[A-Za-z](?=\*\*)|(?<=`)[A-Za-z][A-Za-z -]{0,22}[A-Za-z](?=`)"
    r"|[A-Z][A-Z-]{1,11}(?: [A-Z][A-Z-]{1,11}){1,2}(?=\s*[=＝])|[A-Za-z][A-Za-z-]{1,11}|[\u4e00-\u9fff]{1,2}|\d)"
    r"(?:\*\*|`)?"
    # (two blanks part entries, as they open one: ``COMPLETED = 从头读到尾    TIMEOUT = 读到一半断了``; so does a
    # middle dot: ``FULL = the whole thing · MAIN = main text read``); a CJK code may be defined after a colon, as a
    # run of them is (``——全检：正文逐段读完；抽检：只读了部分章节``)
    r"\s*(?:[=＝]|(?<=[\u4e00-\u9fff])[:：])\s*((?:(?!\s{2})[^；;，,。\n\u3000｜|·])+)"
)
#: a description that is one string literal of code, maybe ended by a comma (``"read end to end",``)
_QUOTED_DESC = re.compile(r"""^(?P<q>["'])(?P<inner>[^"'\n]+)(?P=q)\s*,?$""")
#: a line that defines one sign, code or word by ``=`` or a dash (``* `secs` — only the sections in `where` ``, ``Hx:
#: CHART ONLY  = abstract / card only``): a legend written one entry a line, each line perhaps under the same short
#: label (a colon after a word is a label's: ``图例：``)
_ONE_ENTRY = re.compile(
    r"^\s*(?:[-*+>]\s*)?(?:[A-Za-z]{1,6}\s*[:：]\s*)?"
    r"(?:`(?P<code>[^`\n]{1,12})`|\*\*(?P<bold>[^*\n]{1,12})\*\*"
    r"|(?P<word>[A-Z][A-Z-]{1,11}(?: [A-Z][A-Z-]{1,11})?|[\u4e00-\u9fff]{1,2})"
    # (or a sign, its description after a space: ``■ 已拆封·全检 —— 原文整份检完``; a bullet's mark is no sign)
    rf"|(?P<sign>[^{_PLAIN}\-+>•▸▹‣►▶]{{1,3}})(?=\s))"
    # (a code in capitals may be set apart from its description by a form's gap: ``READ-FULL    whole paper``)
    r"(?:\s*(?:[=＝]|[—–]{1,2}|-(?=\s))\s*|(?<=[A-Z])[ \t]{2,}|(?<=[^\w\s*`])\s+)(?P<desc>\S.*)$"
)
#: symbols that look like check marks: without a legend they are not understood
_CHECK_SYMBOLS = re.compile(f"[{re.escape(lexicon().check_symbols)}]")


@dataclass(slots=True)
class Statement:
    """What one remark, legend symbol or range statement says."""

    level: EvidenceLevel
    words: list[str] = field(default_factory=list)
    understood: bool = True
    positive: bool = False  # the writer's own full or partial read
    blocked: str | None = None  # an access problem, when nothing was read in full
    text: str = ""
    full: bool = False  # the writer's own full read (un-negated, unquoted, unhedged)
    truncated: str | None = None  # the page was cut off (part of it was read), when nothing was read in full


@dataclass(frozen=True, slots=True)
class Reading:
    """The reading of one item: its level, the words that decided it, and what was not understood.

    Immutable: the items of a note that states nothing about them share one reading (``UNSTATED``).
    """

    level: EvidenceLevel = EvidenceLevel.unverified
    deciding: tuple[str, ...] = ()
    understood: bool = True
    remarks: tuple[str, ...] = ()
    not_understood: tuple[str, ...] = ()
    blocked: str | None = None
    #: the words that say the page was cut off (the reader saw part of it: no access problem)
    truncated: str | None = None
    stated: bool = False  # the note says anything about this item's check
    #: the level before the verifier's plain rule capped it (``level`` is the capped one), if capped
    reader_level: EvidenceLevel | None = None
    #: the writer states an un-negated, unquoted full read of the item (its numbers may still be capped)
    read_in_full: bool = False

    @property
    def remark(self) -> str:
        """The deciding words, short (what the brief quotes as the note's own remark)."""
        return "、".join(dict.fromkeys(self.deciding)) if self.deciding else ""


def _norm_symbol(s: str) -> str:
    return visible.bare_symbols(s).strip()


# --- one remark -----------------------------------------------------------------------------------


def read_remark(text: str, legend: dict[str, Statement] | None = None) -> Statement:
    """Read one remark into a statement (most restrictive reading, never the first marker)."""
    return _read_stripped(text, strip_urls(text), legend)


def _read_stripped(text: str, body: str, legend: dict[str, Statement] | None) -> Statement:
    """Equivalent to ``_read_hits(text, body, find(body), _symbols(body, legend or {}))``: nothing found, nothing
    read. :func:`read_remark` of ``text`` whose URLs are already out (``body``): a caller that needs it strips once."""
    hits = find(body)
    symbol_statements = _symbols(body, legend) if legend else []  # no legend, no symbol read through it
    if not hits and not symbol_statements:  # nothing stated (most lines): what the full reading ends with
        understood = not body.strip() and not _CHECK_SYMBOLS.search(body)  # a blank body is searched
        return Statement(EvidenceLevel.unverified, [], understood, False, None, text)
    return _read_hits(text, body, hits, symbol_statements)


def _read_hits(text: str, body: str, hits: list[Hit], symbol_statements: list[Statement]) -> Statement:
    """The reading of a remark from its markers and legend symbols."""
    # what the source argues, reported with its own modality (``argues every benchmark should …``), is a
    # claim of the page: no statement about the reading
    hits = [h for h in hits if h.marker.kind != "hedge" or not reported(body, h)]
    hedges = [h for h in hits if h.marker.kind in ("hedge", "relay")]
    positives, refused = _own_reads(body, hits)
    claims: list[Hit] = []
    if positives:
        # someone else's word in a sentence of its own is their check, beside the writer's stated read: it
        # neither raises nor lowers it (``我从头到尾读完了 v2。…ken 说他看了代码仓库``)
        hits = [h for h in hits if h.marker.kind != "relay" or _beside(body, h, positives)]
        hedges = [h for h in hedges if h in hits]
    if positives and hedges:
        # a hedge on a claim of its own sentence limits that claim's numbers, not the stated read
        claims = [h for h in hedges if _claim_hedge(body, h, positives)]
        hedges = [h for h in hedges if h not in claims]
    if hedges or refused:
        words = [h.marker.text for h in hedges] + refused
        # hedged, the page still could not be read: that is said too (``打不开（404），可能被删了``)
        blocked = None if positives else next((h.marker.text for h in hits if h.marker.access), None)
        return Statement(EvidenceLevel.unverified, words, True, False, blocked, text)
    limits = [
        h for h in hits if h.marker.kind in LOWERING_KINDS and h.marker.kind != "partial" and not denied(body, h, hits)
    ]
    full_read = any(h.marker.kind == "full" for h in positives) or any(
        s.positive and s.level is EvidenceLevel.verified for s in symbol_statements
    )
    if positives or any(s.positive for s in symbol_statements):
        # ``原文（摘要 + 正文）``, ``标题与目录已核（预告级摘要）``: beside a stated read, a bare word names
        # what was read; right after a partial read it is all that was read (``只看了 abstract``)
        limits = [h for h in limits if not h.marker.weak or _what_a_partial_read_read(body, h, positives)]
    pos_levels = [h.marker.level for h in positives] + [s.level for s in symbol_statements if s.positive]
    words = [h.marker.text for h in positives] + [w for s in symbol_statements for w in s.words]
    if not pos_levels and not limits and not symbol_statements:
        understood = not body.strip() and not _CHECK_SYMBOLS.search(body)  # a blank body is searched
        return Statement(EvidenceLevel.unverified, [], understood, False, None, text)
    levels: list[EvidenceLevel] = []
    if pos_levels:
        levels.append(strictest(*pos_levels))
    levels += [s.level for s in symbol_statements if not s.positive]
    # "not read" / "not checked" beside an access problem or a summary explains it, and beside a stated
    # partial read it says what was left unread (``只看了 PR 的描述，代码没看``), unless it says the source
    # was never opened (``只看到标题、没打开``); alone it decides (a claim's hedge is no limitation it explains)
    explained = any(not h.marker.explains and h not in claims for h in limits) or any(
        s.level in _SEEN_LEVELS for s in symbol_statements
    )
    # (a legend's sign or code for a partial read is one too: ``EXCERPTS — §1–§4. Not read: §5``)
    partly_read = any(h.marker.kind == "partial" for h in positives) or any(
        s.positive and s.level is EvidenceLevel.partial for s in symbol_statements
    )
    # what was seen is a summary (``只看了摘要。PDF 今天一直 502``): the access problem says why no more was read,
    # it takes nothing from the summary that was
    summary_seen = any(h.marker.kind == "summary" and not h.marker.weak and not h.marker.unopened for h in limits)
    for h in limits:
        words.append(h.marker.text)
        if summary_seen and h.marker.access:
            continue
        # only a summary, a snippet, or the vendor's own numbers: that, whatever else was read
        # (a claim's own sentence, apart from a stated full or partial read, limits that claim: ``teaser only:
        # 1.8×``, ``"down 71%" —— 数是他们自己说的``)
        # (so is a claim left unchecked in a bullet of its own: ``- [ ] "also helps multiplication" … not checked``)
        claim_limit = (
            h.marker.kind in ("summary", "snippet", "vendor", "unverified")
            and (full_read or partly_read)
            and _claim_hedge(body, h, positives)
        )
        exclusive = (
            h.marker.kind in ("summary", "snippet", "vendor")
            and not claim_limit
            and not (h.marker.kind == "vendor" and _another_source_read_in_full(body, h, positives))
        )
        # (a part of it never opened beside a stated read says what was left unread: ``read §1–§6; App. D not opened``)
        part_unread = (partly_read or full_read) and h.marker.unopened and names_a_part(body, h.start, h.end)
        explaining = h.marker.explains and (explained or (partly_read and (not h.marker.unopened or part_unread)))
        # a full read with another stated limitation is partial; a partial check keeps the limitation's
        # level, but an explanation adds none, and a claim's hedge stays with the claim's numbers
        if full_read and not exclusive:
            levels.append(EvidenceLevel.partial)
        elif h not in claims and not explaining and not claim_limit:
            levels.append(h.marker.level)
    if any(not s.understood for s in symbol_statements):
        levels.append(EvidenceLevel.unverified)
    level = strictest(*levels)
    blocked = truncated = None
    if not full_read:
        blocked = next((h.marker.text for h in hits if h.marker.access), None) or next(
            (s.blocked for s in symbol_statements if s.blocked), None
        )
        truncated = next((h.marker.text for h in hits if h.marker.truncates), None) or next(
            (s.truncated for s in symbol_statements if s.truncated), None
        )
    understood = all(s.understood for s in symbol_statements)
    return Statement(level, words, understood, bool(pos_levels), blocked, text, full=full_read, truncated=truncated)


#: where a statement about the reading passes from one source to another (``CHANGELOG.md 全读 + GitHub release
#: 公告全读``, ``README 从头到尾看了一遍，顺带把新闻稿也看了``); a sentence after a full read that says whose
#: numbers they are (``full text read; the numbers are NVIDIA's own``) is about the same source
_NEXT_SOURCE = re.compile(r"\s[+＋&]\s|\s?[+＋]\s?(?=\S)|[，,]\s*(?:顺带|顺手|另外|also\b|plus\b)", re.I)


def _another_source_read_in_full(body: str, vendor: Hit, positives: list[Hit]) -> bool:
    """Whether, beside the vendor's own source at ``vendor``, the statement reads another source in full: the
    vendor's page is then one source of a fuller read (the project's changelog and its release post), not all
    that was seen, and it limits the read to partial rather than making it the vendor's word."""
    cuts = [0, *(m.end() for m in _NEXT_SOURCE.finditer(body)), len(body) + 1]
    part = next(k for k in range(len(cuts) - 1) if cuts[k] <= vendor.start < cuts[k + 1])
    return any(p.marker.kind == "full" and not cuts[part] <= p.start < cuts[part + 1] for p in positives)


#: between a partial read and the part it names: a particle, a blank, an article, emphasis (``只看了 abstract``,
#: ``only read the **TLDR**``), nothing that ends the clause or names another part
_READ_OBJECT_GAP = re.compile(r"[\s了过的*_`]{0,5}(?:(?:at|into|over)\s+)?(?:the\s+|its\s+)?[*_`]{0,2}", re.I)


#: after a read's first object, more parts of the source (``… and sections 1–3``, ``摘要和第 2 节``)
_MORE_PARTS = re.compile(
    r"\s*(?:and|&|\+|,|、|和|及|与|以及)\s*(?:the\s+)?(?:§|sections?\b|secs?\b|chapters?\b|第|正文|方法|实验|intro|method)",
    re.I,
)


def _what_a_partial_read_read(body: str, h: Hit, positives: list[Hit]) -> bool:
    """Whether the bare word at ``h`` is the object of a stated partial read (``只看`` + ``abstract``):
    then it is all that was read, not a name of one part of a fuller read. An object that goes on to
    other parts (``Read the abstract and sections 1–3``) was more than the summary."""
    if _MORE_PARTS.match(body, h.end):
        return False
    return any(
        p.marker.kind == "partial"
        and p.end <= h.start
        # read as the markers are: hidden characters and emphasis are not there for the reader
        and _READ_OBJECT_GAP.fullmatch(visible.projection(body[p.end : h.start]).text) is not None
        for p in positives
    )


#: what a legend's mark may say was seen instead of a read: beside it, "not opened" explains, it does not decide
_SEEN_LEVELS = frozenset({EvidenceLevel.summary, EvidenceLevel.snippet, EvidenceLevel.vendor, EvidenceLevel.card})
#: how a partial read says it went no further (``只看了目录``, ``only read the intro``)
_ONLY = ("只", "仅", "only", "just")


def _own_reads(body: str, hits: list[Hit]) -> tuple[list[Hit], list[str]]:
    """The writer's own full or partial reads, and the words of those negated or quoted."""
    positives: list[Hit] = []
    refused: list[str] = []
    for h in hits:
        if h.marker.kind not in ("full", "partial"):
            continue
        if negated(body, h, hits):
            # ``不是只看频率``, ``not only the abstract``: a denied "only" says more was done, never less
            if h.marker.kind == "partial" and h.marker.text.lower().startswith(_ONLY):
                continue
            refused.append(_context(body, h))
        elif in_quotes(body, h.start):
            refused.append(Phrase("remark.quoted", word=h.marker.text))
        else:
            positives.append(h)
    return positives, refused


def _beside(body: str, h: Hit, positives: list[Hit]) -> bool:
    """Whether a hit stands in the sentence of a stated read."""
    return any(same_sentence(body, h.start, p.start) for p in positives)


def _claim_hedge(body: str, h: Hit, positives: list[Hit]) -> bool:
    """A hedge that governs a claim of its own sentence (:func:`scope.claim_only`), apart from every
    stated read, or that stands in the item's title line while every read is stated below it (the title
    asks about the subject, ``vLLM 0.34 到底发了没？``): it does not reach the item."""
    title_end = body.find("\n")
    if 0 <= h.end <= title_end and all(p.start > title_end for p in positives):
        return True
    line_start = body.rfind("\n", 0, h.start) + 1
    line_end = body.find("\n", h.end)
    line_end = len(body) if line_end < 0 else line_end
    in_title_field = title_field(body[line_start:line_end]) is not None
    if in_title_field and all(not line_start <= p.start < line_end for p in positives):
        return True  # the same, on a title field's line (``标题：…为什么上不去？``)
    return claim_only(body, h.start, h.end) and not any(same_sentence(body, h.start, p.start) for p in positives)


def _context(body: str, h: Hit) -> str:
    return Phrase("remark.negated", word=h.marker.text)


def _symbols(body: str, legend: dict[str, Statement]) -> list[Statement]:
    out = []
    for sym in legend_symbols(body, legend):
        st = legend[sym]
        said = tuple(st.words) or (st.text[:30],)  # the legend's deciding words, not its whole sentence
        words: list[str] = [Phrase("remark.legend", symbol=sym, words=said)]
        out.append(Statement(st.level, words, st.understood, st.positive, st.blocked, sym, truncated=st.truncated))
    return out


# --- the note: legend and range statements ----------------------------------------------------------


_WORDLIKE = re.compile(r"[\w\u3400-\u9fff]")


def _legend_entries(rest: str) -> list[tuple[str, str]]:
    """(symbol, description) pairs of a legend, split where a symbol stands after a separator.

    Entries are found by shape, not by the separator: ``◐ 读了一半 / 正文截断`` is one entry, and
    ``● full text read · ◐ partly read`` are two; a sign in an entry's open bracket is one of its words.
    """
    starts: list[tuple[int, int]] = []
    for m in _SYMBOL_RUN.finditer(rest):
        # ``@handle`` is a name, not a sign; a dash (``——``, ``—``, ``-``) is the punctuation of running text
        if not _WORDLIKE.match(rest, m.end()) and not _DASHES.fullmatch(m.group(0).strip()):
            starts.append((m.start(), m.end()))
    for m in _CODE.finditer(rest):
        starts.append((m.start(1), m.end(1)))
    for m in TAG.finditer(rest):  # a tag with its value is one sign (``@read(abs) 只看摘要``)
        starts.append((m.start(), m.end()))
    starts.sort()
    kept: list[tuple[int, int]] = []
    for a, b in starts:
        before = rest[:a].rstrip()
        after_separator = (
            a == 0 or not before or _SEPARATOR.fullmatch(rest[a - 1]) or before[-1] in "：:/／|·・;；,，、*_"
        )
        # a sign inside an entry's open bracket joins its words (``● 已核查原文（摘要 + 正文）``): no new entry
        inside = _open_bracket(rest, kept[-1][1] if kept else 0, a)
        if after_separator and (not kept or a >= kept[-1][1]) and not inside:
            kept.append((a, b))
    out = []
    for n, (a, b) in enumerate(kept):
        end = kept[n + 1][0] if n + 1 < len(kept) else len(rest)
        desc = rest[b:end].strip().lstrip("=:：＝-–— ").rstrip(" /／|·・;；,，、")
        if desc:
            out.append((_norm_symbol(rest[a:b]), desc))
    return out


def _open_bracket(text: str, start: int, end: int) -> bool:
    """Whether a bracket opened in ``text[start:end]`` is still open at ``end``."""
    part = text[start:end]
    return part.count("（") + part.count("(") > part.count("）") + part.count(")")


#: where a legend's lines under its heading end, besides a blank line: a thematic break, a numbered item
_LEGEND_END = re.compile(r"^\s*(?:(?:-{3,}|\*{3,}|_{3,}|={3,})\s*$|\d{1,3}[.)、]\s)")
#: the bullet or quote mark before an unlabelled legend's entries
_LEGEND_LEAD = re.compile(r"^\s*(?:[-*>]\s*)?")
#: how many distinct unlabelled lines ``parse_legend`` remembers at once
_KNOWN_LINES = 512


#: a line wrapped in brackets (``（…）``, ``(…)``), and where a sentence of it ends
_WRAPPED = re.compile(r"^\s*[（(](?P<inner>.*)[）)]\s*$")
_SENTENCE_BREAK = re.compile(r"[。；]|[.;](?=\s)")  # (``？`` and ``!`` may be a legend's signs)


def _after_preamble(line: str) -> str | None:
    """What a line says after its first sentences, its brackets undone (``（拍照转文字。√√ 读完　√ 只看摘要）``:
    the legend follows a sentence about the note), or None when it has one sentence only."""
    inner = m["inner"] if (m := _WRAPPED.match(line)) else line
    parts = _SENTENCE_BREAK.split(inner)
    return parts[-1].strip() or None if len(parts) > 1 else None


def _stating_words(line: str) -> dict[str, Statement]:
    """The words a legend line defines whose description states a reading (``全 = 全文看完``), each read once;
    where a word is defined twice, its last stating definition."""
    found: dict[str, Statement] = {}
    for word, desc in _WORD_ENTRY.findall(line):
        st = _entry_statements([(word, desc)])[word]
        if st.words:
            found[word] = st
    return found


def _entry_statements(entries: list[tuple[str, str]]) -> dict[str, Statement]:
    """Symbol → the statement its description makes (a description stating no level is not understood)."""
    found: dict[str, Statement] = {}
    for sym, desc in entries:
        st = read_remark(desc)
        st.text = desc
        if not st.words:
            st.understood = False
        found[sym] = st
    return found


def _line_entries(line: str, known: dict[str, dict[str, Statement]]) -> dict[str, Statement]:
    """Equivalent to ``_entry_statements(_legend_entries(_LEGEND_LEAD.sub("", line).strip()))``; a line in ``known``
    is read once (a pasted dump repeats its lines; ``known`` is bounded, keyed by the line itself)."""
    found = known.get(line)
    if found is None:
        lead = _LEGEND_LEAD.match(line)  # always matches, maybe empty: what ``sub`` took away
        rest = line[lead.end() if lead else 0 :].strip()
        if len(known) >= _KNOWN_LINES:
            known.clear()
        found = known[line] = _entry_statements(_legend_entries(rest) if rest else [])
    return found


def parse_legend(
    lines: list[str], unlabelled: set[int] | None = None, labelled: dict[int, re.Match[str]] | None = None
) -> dict[str, Statement]:
    """A note's own legend: symbol → the statement its description makes.

    A legend is a labelled line (``图例：``, ``Legend:``…) or, among the lines ``unlabelled`` allows
    (those outside every item), any line made of two or more ``symbol description`` entries whose
    descriptions state evidence levels. ``labelled``: the ``legend_line`` matches of ``lines`` by index,
    when the caller has them already.
    """
    legend: dict[str, Statement] = {}
    known: dict[str, dict[str, Statement]] = {}
    run: list[tuple[str, Statement, bool]] = []  # the entries of the lines just above, one a line (is it a sign)
    for i, line in enumerate(lines):
        m = labelled.get(i) if labelled is not None else legend_line(line)
        one = _ONE_ENTRY.match(line) if not m and unlabelled is not None and i in unlabelled else None
        if one is not None and (len(_line_entries(line, known)) >= 2 or len(_WORD_ENTRY.findall(line)) >= 2):
            # a line of several entries is a legend of its own (``✅ 全文 · 📄 摘要``, ``全 = 全文　摘 = 摘要``)
            one = None
        if one is None:
            _close_run(run, legend)
        else:
            sym = one["code"] or one["bold"] or one["word"] or one["sign"]
            desc = one["desc"].strip()
            if (whole := _QUOTED_DESC.match(desc)) is not None:
                desc = whole["inner"]  # a code's enum (``FULL = "read end to end"``): the string's words, no quotation
            run.append((sym, _entry_statements([(sym, desc)])[sym], bool(one["sign"])))
            continue
        if m:
            rest = m.group("rest").strip()
            entries = _legend_entries(rest) if rest else []
            # words defined on the label's own line (``我的标记：**想读** = 还没看；**读过** = 看完了``)
            words: dict[str, Statement] = _stating_words(rest) if "=" in rest or "＝" in rest else {}
            if not rest:  # a legend heading followed by one symbol, or words, per bullet line
                for follow in lines[i + 1 : i + 12]:
                    if not follow.strip() or _LEGEND_END.match(follow):
                        break
                    follow = re.sub(r"^\s*[-*+]\s*", "", follow)
                    entries += _legend_entries(follow)
                    words.update(_stating_words(follow))
            legend.update(_entry_statements(entries))
            legend.update(words)  # a word (Latin, or CJK characters) is never a symbol: the keys do not meet
        elif unlabelled is not None and i in unlabelled and not line.lstrip().startswith("|"):
            found = _line_entries(line, known)
            if len(found) < 2 and (tail := _after_preamble(line)) is not None:
                found = _line_entries(tail, known)
            if len(found) >= 2 and sum(1 for st in found.values() if st.words) >= 2:
                legend.update(found)
            elif any(c in line for c in "=＝：:"):
                legend.update(_word_legend(lines, i))
    _close_run(run, legend)
    return legend


def _word_legend(lines: list[str], i: int) -> dict[str, Statement]:
    """The words a legend of word entries defines from line ``i`` (``全 = 全文　摘 = 摘要``), when two or more of them
    state a reading. A line that ends on an entry's separator goes on in the next (``**Full** = …; **Partial** =
    …;`` over ``**Press release** = …; **Title only** = …``)."""
    text, j = lines[i], i
    while text.rstrip().endswith((";", "；")) and j + 1 < len(lines) and lines[j + 1].strip():
        j += 1
        text += " " + lines[j]
    words = _entry_statements(_WORD_ENTRY.findall(text))
    stating = {w: st for w, st in words.items() if st.words}
    return stating if len(stating) >= 2 else {}


def _close_run(run: list[tuple[str, Statement, bool]], legend: dict[str, Statement]) -> None:
    """A run of lines that define one entry each (symbol, statement, whether it is a sign) is a legend when two or
    more of its entries state a reading (a later definition of a symbol wins), and no sign stands again where its
    symbol stood before: the marks of a list's lines (``→ …`` ⏎ ``→ …``) are no legend. The stating entries enter
    ``legend``; the run is emptied either way."""
    last = {sym: st for sym, st, _ in run}
    stating = {sym: st for sym, st in last.items() if st.words}
    seen: set[str] = set()
    repeated = False
    for sym, _, sign in run:
        repeated = repeated or (sign and sym in seen)
        seen.add(sym)
    if len(stating) >= 2 and not repeated:
        legend.update(stating)
    run.clear()


def legend_symbols(body: str, legend: dict[str, Statement]) -> list[str]:
    """The legend's symbols that stand in ``body`` as whole symbols (``★`` is not read inside ``★★★``)."""
    if not legend:
        return []
    norm = _norm_symbol(body)
    runs = {_norm_symbol(m.group(0)) for m in _SYMBOL_RUN.finditer(norm)}
    out = [sym for sym in legend if sym in runs]
    # a tag the legend defines, value and all (``@read(abs)``), or a value in its place (``@read(part: …)``)
    if "@" in body:
        for tag in dict.fromkeys(TAG.findall(body)):
            sym = tag if tag in legend else _tag_in_place(tag, legend)
            if sym is not None and sym not in out:
                out.append(sym)
    for sym in legend:  # a code (``A``, ``L1``) counts at the remark's start or right after its label
        if re.fullmatch(r"[A-Z]\d{0,2}", sym) and re.search(rf"(?:^|[:：])\s*{sym}(?![A-Za-z0-9])", norm.strip()):
            out.append(sym)
    out += _defined_words(body, legend)
    if not out:  # a run of several known symbols written together (``✅⚠``)
        for run in runs:
            out += [sym for sym in legend if sym in run and sym not in out and len(run) > len(sym)]
    return out


def _defined_words(body: str, legend: dict[str, Statement]) -> list[str]:
    """The words, codes and digits the legend defines that stand in ``body`` as a cell or a clause writes them.

    A word (``abs = 只看了 abstract``) opens or closes a cell or clause, as a depth cell writes it (``abs only，PDF
    没开``, ``release notes full``): inside a sentence it is only a word (``the full table``). A word defined in
    capitals (``DIRECT``, ``CHART ONLY``) is a code: found as written, never as the word ``direct``. A digit of a scale
    is a whole cell (``depth = 4``, read as ``核查：4``). A CJK code stands in brackets (``[厂][全] 瀚语AI 开源…``), set
    off by a bar where a part opens (``14:05 — 摘｜Merge-as-You-Go…``), or first in the title (``### 读过 《…》``).
    """
    written = [p.strip() for p in _PARTS.split(body)]
    parts = [p.lower() for p in written]
    out = []
    for sym in legend:
        if sym[:1].isalpha() and sym.isascii():
            found = (
                any(_word_at_an_end(p, sym) for p in written if p)
                if sym.isupper() and len(sym) > 1
                else any(_word_at_an_end(p, sym.lower()) for p in parts if p)
            )
        elif sym.isdigit():
            found = sym in parts
        else:
            found = _CJK_CODE.fullmatch(sym) is not None and (
                f"[{sym}]" in body or f"【{sym}】" in body or _tagged(body, sym) or _opens_the_title(body, sym)
            )
        if found:
            out.append(sym)
    return out


#: a legend's CJK code: one or two characters
_CJK_CODE = re.compile(r"[\u4e00-\u9fff]{1,2}")


#: a legend's placeholder for a tag's value (``@read(part: …)``, ``@waiting(x)``)
_PLACEHOLDER = re.compile(r"(?:…|\.\.\.|\bx\b)\)$")


def _tag_in_place(tag: str, legend: dict[str, Statement]) -> str | None:
    """The legend's tag whose value is a placeholder that ``tag``'s value fills (``@read(part: §1–3)`` is
    ``@read(part: …)``)."""
    for sym in legend:
        if sym.startswith("@") and (m := _PLACEHOLDER.search(sym)) is not None and tag.startswith(sym[: m.start()]):
            return sym
    return None


def _opens_the_title(body: str, code: str) -> bool:
    """Whether ``code`` is the first word of the item's title line, set off by a blank, as a shelf's mark stands before
    the book (``### 读过 ★★★★☆ 《…》``)."""
    return re.match(rf"\s*(?:#{{1,6}}\s+)?(?:\*\*)?{re.escape(code)}(?:\*\*)?[ \t\u3000]", body) is not None


def _tagged(body: str, code: str) -> bool:
    """Whether ``code`` opens a part of ``body`` as a tag, set off by a bar after it (``摘｜…``, ``全 | …``)."""
    return re.search(rf"(?:^|[\s—–:：-])\s*{re.escape(code)}\s*[｜|]", body) is not None


#: where a cell, a clause or a label ends
_PARTS = re.compile(r"[|｜，,；;：:（）()\n]")


def _word_at_an_end(text: str, word: str) -> bool:
    """Whether ``word`` (one word or several) opens or closes ``text``, whole: no letter or hyphen runs on into it."""
    w = re.escape(word)
    return bool(re.match(rf"[\W_]*{w}(?![A-Za-z-])", text) or re.search(rf"(?<![A-Za-z-]){w}[\W_]*$", text))


_CN_NUM = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_N = r"(?:\d{1,3}|[一二两三四五六七八九十])"
_LIST = rf"{_N}(?:\s*(?:[、,，和及与]|[-–—~～到至])\s*{_N})*"
#: guarded (:func:`e1prep.text.regexgate.guarded`): its alternatives open with look-alike words that ``re``
#: would otherwise try at every position
_SELECTOR_SOURCE = (
    rf"(?P<first>前|头)\s*(?P<fn>{_N})\s*条|(?P<last>后|最后)\s*(?P<ln>{_N})\s*条|第\s*(?P<list>{_LIST})\s*条|"
    rf"(?P<rest>其余|其他|其它|剩下|剩余)(?:的)?(?:\s*{_N}\s*条)?|"
    r"(?:the\s+)?first\s+(?P<efn>\d{1,3}|two|three|four|five|six)\b(?:\s+(?:items?|entries|links|posts|ones))?|"
    r"(?:the\s+)?last\s+(?P<eln>\d{1,3}|two|three|four|five|six)\b(?:\s+(?:items?|entries|links|posts|ones))?|"
    r"items?\s+(?P<elist>\d{1,3}(?:\s*(?:,|and|&|-|–|to)\s*\d{1,3})*)|"
    r"(?P<erest>the\s+rest|the\s+others|the\s+remaining(?:\s+(?:items|ones))?)"
)
_SELECTOR = guarded(_SELECTOR_SOURCE, re.I)
_EN_NUM = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _num(s: str) -> int:
    s = s.strip().lower()
    return int(s) if s.isdigit() else _CN_NUM.get(s) or _EN_NUM.get(s, 0)


def _numbers(spec: str) -> set[int]:
    out: set[int] = set()
    parts = re.split(r"\s*(?:[、,，和及与&]|and)\s*", spec)
    for part in parts:
        rng = re.split(r"\s*(?:[-–—~～到至]|to)\s*", part)
        if len(rng) == 2 and rng[0] and rng[1]:
            a, b = _num(rng[0]), _num(rng[1])
            if 0 < a <= b <= a + 200:
                out.update(range(a, b + 1))
        elif part:
            n = _num(part)
            if n:
                out.add(n)
    return out


#: a line outside the items that names one of them and says something of it (``- XGBoost: the full release page``)
#: (``0.1 Plasticity Budgets — full text``: an outline's number before the name, a dash after it)
_NAMED_LINE = re.compile(
    r"\s*(?:[-*+•]\s+|\d{1,2}(?:\.\d{1,2})+\s+)?(?P<name>[^\s:：|#>][^:：|\n—–]{0,38}?)"
    r"\s*(?:[:：]|\s[—–]{1,2}\s)\s*(?P<value>\S.*)"
)


def named_statements(
    lines: list[str], titles: dict[int, str], exclude: int | None = None
) -> dict[int, list[Statement]]:
    """Statements a note makes, outside its items, about one item it names by a word of its title (a mail's
    ``What I actually read:`` list, ``XGBoost: the full release page…``), by the item's key in ``titles``
    (``exclude``: a key whose title is read as no one's, the part that holds ``lines``). A name that no title or
    more than one holds, a field's label, and a line that says nothing of the reading name nothing."""
    out: dict[int, list[Statement]] = {}
    for line in lines:
        m = _NAMED_LINE.fullmatch(line)
        if m is None or lexicon().is_label(m["name"]) or remark_line(line) is not None:
            continue
        holders = _holders(m["name"].strip().lower(), titles, exclude)
        if len(holders) != 1:
            continue
        st = read_remark(m["value"])
        if st.words:
            st.text = line.strip()
            out.setdefault(holders[0], []).append(st)
    return out


def _holders(name: str, titles: dict[int, str], exclude: int | None = None) -> list[int]:
    """The items (but ``exclude``) whose titles hold ``name`` whole, or else its longest opening words that some
    title holds (``Moonrise blog`` names the item titled ``Moonrise — "Anchor to the base…"``)."""
    words = name.split()
    for n in range(len(words), 0, -1):
        head = " ".join(words[:n])
        if holders := [k for k, title in titles.items() if k != exclude and _holds_word(title.lower(), head)]:
            return holders
    return []


def _holds_word(text: str, word: str) -> bool:
    """Whether ``word`` stands in ``text`` whole: no letter, digit, ``_`` or ``-`` right before or after it."""
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
            return True
        start = text.find(word, start + 1)
    return False


def range_statements(lines: list[str], numbers: list[int]) -> dict[int, list[Statement]]:
    """Statements a note makes about ranges of its items, by the items' numbers."""
    return _ranges(lines, numbers)[0]


def _ranges(lines: list[str], numbers: list[int]) -> tuple[dict[int, list[Statement]], list[Statement]]:
    """Statements a note makes about ranges of its items, by the items' numbers; and what it says of "the rest"
    before it has named any item (``…one release worth a line, the rest is vendor talk``): the items it has not
    accounted for are those that say nothing of their own reading, whichever they are."""
    out: dict[int, list[Statement]] = {}
    unaccounted: list[Statement] = []
    all_numbers = sorted(set(numbers))
    seen: set[str] = set()  # a statement repeated word for word (a pasted dump) says nothing new
    named: set[int] = set()  # the items named so far: "the rest" on a later line is the rest of them
    for line in lines:
        if line in seen:  # only a line that named items is remembered
            continue
        matches = list(_SELECTOR.finditer(line))
        if not matches:
            continue
        seen.add(line)
        for k, m in enumerate(matches):
            end = matches[k + 1].start() if k + 1 < len(matches) else len(line)
            desc = line[m.end() : end]
            st = read_remark(desc)
            if m.group("first") or m.group("efn"):
                chosen = set(all_numbers[: _num(m.group("fn") or m.group("efn"))])
            elif m.group("last") or m.group("eln"):
                n = _num(m.group("ln") or m.group("eln"))
                chosen = set(all_numbers[-n:]) if n else set()
            elif m.group("list") or m.group("elist"):
                chosen = _numbers(m.group("list") or m.group("elist"))
            elif not named:
                if st.words:
                    st.text = (m.group(0) + desc).strip(" ，,；;。.")
                    unaccounted.append(st)
                continue
            else:
                chosen = set(all_numbers) - named
            named |= chosen
            if not st.words:
                continue
            st.text = (m.group(0) + desc).strip(" ，,；;。.")
            for n in chosen:
                out.setdefault(n, []).append(st)
    return out, unaccounted


@dataclass
class NoteContext:
    """What a note says about its items as a whole: its legend and its range statements."""

    legend: dict[str, Statement] = field(default_factory=dict)
    ranges: dict[int, list[Statement]] = field(default_factory=dict)
    legend_lines: set[int] = field(default_factory=set)
    #: what the note says outside its items of one item it names (:func:`named_statements`), by its place in the
    #: note (an item's own number may be another's place: ``CL screen`` first, ``1 · Plasticity Budgets`` third)
    named: dict[int, list[Statement]] = field(default_factory=dict)
    #: what the note says of "the rest" of its items before naming any: said of each item that says nothing itself
    rest: list[Statement] = field(default_factory=list)

    @functools.cached_property
    def legend_words(self) -> dict[str, str]:
        """Symbol → the words the note defines it by (one mapping, shared by the note's items: read only)."""
        return {sym: st.text for sym, st in self.legend.items()}


def note_context(lines: list[str], outside: list[int], numbers: list[int]) -> NoteContext:
    """The legend of a note (any line) and the range statements on lines outside its items."""
    labelled = {i: m for i, line in enumerate(lines) if (m := legend_line(line))}
    legend = parse_legend(lines, set(outside), labelled)
    legend_lines = set(labelled)
    outer = [lines[i] for i in outside if i not in legend_lines and 0 <= i < len(lines)]
    ranges, rest = _ranges(outer, numbers)
    return NoteContext(legend, ranges, legend_lines, rest=rest)


# --- one item -------------------------------------------------------------------------------------


#: the reading of an item its note says nothing about (shared: a dump's items mostly are such)
UNSTATED = Reading()


@dataclass(slots=True)
class _Remarks:
    """The remark lines of one item the reader understood, and those it did not (while reading it)."""

    read: list[str] = field(default_factory=list)
    not_understood: list[str] = field(default_factory=list)


#: the label a table's check cell is read under, as a remark line of its own (the line has no match)
_CELL_LABEL = "核查："
#: the status signs a check cell opens with (``✅ 全文 + 附录``)
_LEADING_SIGNS = re.compile(rf"(?:{_CHECK_SYMBOLS.pattern}|\ufe0f|\s)+")


def _signs_first(cell_line: str) -> str:
    """A check cell's line with the status signs it opens with put before its label (``核查：✅ 全文`` →
    ``✅ 核查：全文``): a sign is the cell's status, read through a legend, and the words after it are the cell's
    words, read as a cell's words are (``核查：全文``)."""
    cell = cell_line[len(_CELL_LABEL) :]
    signs = _LEADING_SIGNS.match(cell)
    return f"{signs.group(0)}{_CELL_LABEL}{cell[signs.end() :]}" if signs else cell_line


def _remark_statements(
    remark_lines: list[tuple[str, re.Match[str] | None]], ctx: NoteContext, said: _Remarks
) -> list[Statement]:
    """One statement per remark line; a remark that is not understood counts as ``unverified`` and is listed."""
    statements = []
    for ln, m in remark_lines:
        st = read_remark(ln if m is not None else _signs_first(ln), ctx.legend)
        weak = m is not None and m.group("label").lower() in _WEAK_LABELS
        if not st.understood or (not st.words and not weak):
            said.not_understood.append(ln.strip())
            # a check cell is said as the cell (its label is the reader's own)
            word = (
                Phrase("remark.cell_not_understood", cell=ln.strip()[len(_CELL_LABEL) : 40])
                if m is None
                else Phrase("remark.not_understood", line=ln.strip()[:40])
            )
            statements.append(Statement(EvidenceLevel.unverified, [word]))
        elif st.words:
            statements.append(st)
            said.read.append(ln.strip())
    return statements


#: a heading's name and, after a dash, a colon or a bar, what it says of the reading (``### X —— 全文读完``)
_HEADING_SAYS = re.compile(r"\s{0,3}#{1,6}\s+(?P<label>[^\n]+?)\s*(?:——|—|–|\s-\s|\||｜|:|：)\s*(?P<value>\S.*)")


#: the kinds of statement that say what of a source was read (a verdict, ``待核实``, says how far it can be trusted)
_READ_KINDS = frozenset({"full", "partial", "summary", "snippet"})


def states_a_read(text: str) -> bool:
    """Whether ``text`` states what of the source was read, whole or a part (``全文已读``, ``abs only``, ``[full]``),
    not only a verdict on it (``待核实``)."""
    return any(h.marker.kind in _READ_KINDS for h in find(strip_urls(text)))


def _said_in_heading(lines: list[str]) -> tuple[int, re.Match[str]] | None:
    """The item's heading, with its match, when what follows its name states the writer's own read."""
    m = _HEADING_SAYS.fullmatch(lines[0]) if lines and lines[0].lstrip().startswith("#") else None
    return (0, m) if m is not None and states_a_read(m["value"]) else None


#: an ATX heading line (``## Title``; ``#rag-eng`` is a channel's name), or a title set in bold alone on its line
#: (``**Rubric Anchoring: …**``), as a sheet of notes heads its source
_HEADING_LINE = re.compile(r"\s{0,3}#{1,6}\s|\s{0,3}\*\*[^*\n]+\*\*\s*$")
#: a remark line without a label: its first sentence states the read
_UNLABELLED = re.compile(r"(?P<label>)")
#: how many lines of substance under an item's heading its opening statement of the read may come after
_OPENING_LINES = 3


def _said_first(lines: list[str]) -> tuple[int, re.Match[str]] | None:
    """The line under the item's heading, among its first few, whose first sentence is the writer's own read
    (``Read the whole paper (main text + Appendix A/B, …).``), with an empty label's match."""
    if not lines or not _HEADING_LINE.match(lines[0]):
        return None
    seen = 0
    for k in range(1, len(lines)):
        if not lines[k].strip():
            continue
        seen += 1
        if seen > _OPENING_LINES or lines[k].lstrip().startswith(("#", "-", "*", "|", ">")):
            return None
        first = sentences(strip_urls(lines[k]))[:1]
        if first and states_a_read(first[0]):
            return k, _UNLABELLED.match("")  # type: ignore[return-value]
    return None


def _whole_text_statements(lines: list[str], ctx: NoteContext, said: _Remarks) -> list[Statement]:
    """An item with no remark line: its whole text is read as one remark."""
    whole = "\n".join(lines)
    body = strip_urls(whole)
    st = _read_stripped(whole, body, ctx.legend)
    if not st.words and not _CHECK_SYMBOLS.search(body):
        return []  # no remark at all: nothing to understand
    if not st.understood:
        said.not_understood.append(whole.strip()[:200])
        return [Statement(EvidenceLevel.unverified, [Phrase("remark.unknown_symbol")])]
    if st.words:
        said.read.append(whole.strip()[:200])
        return [st]
    return []


def read_item(
    text: str,
    ctx: NoteContext | None = None,
    number: int | None = None,
    check_cell: str | None = None,
    *,
    legend_free: bool = False,
    position: int | None = None,
) -> Reading:
    """The graded reading of one item's text (with its note's legend and range statements).

    ``check_cell`` is a table row's check column (its header said 核查 / Status / Check): it is the
    item's remark, and the row's other cells can only lower it. ``legend_free``: the caller knows that
    no line of ``text`` is a legend line (its note's context lists them), so none is searched again.
    ``position``: the item's place in its note (1-based), by which the note's statements naming it are kept.
    """
    ctx = ctx or NoteContext()
    named = ctx.named.get(position, []) if position is not None else []
    lines = text.split("\n") if legend_free else [ln for ln in text.split("\n") if not legend_line(ln)]
    said = _Remarks()
    marked: list[tuple[str, re.Match[str] | None]] = []
    if check_cell is not None and check_cell.strip():
        remark_lines: list[tuple[str, re.Match[str] | None]] = [(f"{_CELL_LABEL}{check_cell.strip()}", None)]
        lines = [ln.replace(check_cell, " ", 1) for ln in lines]
    else:  # each line is matched once: its match tells both the remark lines and the rest
        marked = [(ln, remark_line(ln, lines[k - 1] if k else None)) for k, ln in enumerate(lines)]
        remark_lines = [(ln, m) for ln, m in marked if m]
        if not remark_lines and (opening := _said_in_heading(lines) or _said_first(lines)) is not None:
            # a heading that says after the name how far it was read (``### ① StemWeaver —— 全文读完，含附录``), or a
            # line under it that opens by saying so (``Read the whole paper (main text + Appendix A/B).``), is the
            # item's remark: the other lines can only lower it
            at, match = opening
            marked = [(ln, match if k == at else None) for k, ln in enumerate(lines)]
            remark_lines = [(lines[at], match)]
    if remark_lines:
        statements = _remark_statements(remark_lines, ctx, said)
        body = [ln for ln, m in marked if not m] if check_cell is None else lines
    elif any(st.positive for st in named):
        # the note says outside the item, by its name, how far it was read: the item's own lines can only lower it
        statements, body = [], lines
    else:
        statements = _whole_text_statements(lines, ctx, said)
        body = []
    if number is not None:
        statements += ctx.ranges.get(number, [])
    statements += named
    if not statements:
        statements = list(ctx.rest)
    if not statements:
        if not said.not_understood and not said.read:
            return UNSTATED
        return Reading(
            understood=not said.not_understood, remarks=tuple(said.read), not_understood=tuple(said.not_understood)
        )
    level = strictest(*(s.level for s in statements))
    deciding = [w for s in statements if s.level is level for w in s.words]
    # lines that are not remarks can only lower the item: a limitation or hedge there caps it
    # (read together: a number is a status code or a label's counter by its sibling lines, ``指标 401：``)
    if RANK[level] > RANK[EvidenceLevel.partial] and body:
        # a title field is the source's title, not the writer's statement (``标题：…命中率为什么上不去？``)
        rest = strip_urls(without_part_names("\n".join(ln for ln in body if title_field(ln) is None)))
        # a limitation of a claim in its own sentence limits that claim's numbers, not the item
        caps = [h for h in find(rest) if h.marker.kind in LOWERING_KINDS and not claim_only(rest, h.start, h.end)]
        if caps:
            level = EvidenceLevel.partial
            deciding.append(caps[0].marker.text)
    return Reading(
        level=level,
        deciding=tuple(deciding or [w for s in statements for w in s.words]),
        understood=not said.not_understood,
        remarks=tuple(said.read),
        not_understood=tuple(said.not_understood),
        blocked=next((s.blocked for s in statements if s.blocked), None)
        if level is not EvidenceLevel.verified
        else None,
        truncated=next((s.truncated for s in statements if s.truncated), None)
        if level is not EvidenceLevel.verified
        else None,
        stated=True,
        read_in_full=level is not EvidenceLevel.unverified and any(st.full for st in statements),
    )


_ITEM_NUMBER = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\|\s*)?(?:\*\*)?\(?(?:条目\s*|Item\s*)?(\d{1,3})\s*(?:[.)、|:：]|\s|\*\*)", re.I
)
_ITEM_CIRCLED = re.compile(r"^\s*(?:#{1,6}\s*)?(?:\*\*)?([①-⑳])")


def item_number(text: str) -> int | None:
    """The number the note gives an item (``## 3. …``, ``| 3 | …``, ``**3. …**``, ``③``), if any."""
    first = text.lstrip("\n").split("\n", 1)[0]
    m = _ITEM_NUMBER.match(first)
    if m:
        return int(m.group(1))
    m = _ITEM_CIRCLED.match(first)
    if m:
        return ord(m.group(1)) - ord("①") + 1
    return None
