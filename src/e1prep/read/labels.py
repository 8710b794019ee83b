"""Labels are not titles: sibling items whose headings are one label shape apart are labelled items.

A note that heads its items ``## B-01``, ``## B-02`` or ``### 🟢 C1``, ``### 🔴 C2`` names each item by a
running code; the item's title stands on a title field (``Title:``, ``标题：``) or on its first line of
substance. The shape is read from the siblings (one prefix, a counter that runs), never from a list of
label words; a single heading is a label only when it holds nothing but a counter or a sign.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..text.lexicon import lexicon

#: a label once signs are dropped: a short prefix of letters (or a few CJK characters), an optional
#: separator, a counter, an optional letter (``B-01``, ``C3``, ``条目 2``, ``Item 4a``, ``第 3 条``)
_LABEL = re.compile(
    r"(?P<prefix>[A-Za-z]{0,6}|[\u3400-\u9fff]{1,3})\s*[-_.#:：]?\s*(?P<counter>\d{1,4})(?P<suffix>[A-Za-z]?|[条项个])"
)
#: what a label's signs are made of: anything but letters, digits and CJK (status marks, emoji, bold, ``#``)
_SIGNS = re.compile(r"[^\w\u3400-\u9fff-]+")
#: a Chinese label set apart from its value without a colon: in bold (``**检查项目** 《…》``), or by a form's gap of
#: spaces, full-width ones too (``名称　　　tidewater-ai/markserve``); the label is ``bold`` or ``aligned``
_COLONLESS = (
    r"(?:\*\*(?P<bold>[\u3400-\u9fff]{1,6})\*\*\s+|(?P<aligned>[\u3400-\u9fff]{1,6})(?:\u3000+\s*|[ \t]{2,}))"
    r"(?P<colonless>[^\s:：].*)$"
)
#: such a field at the very start of a line (the opener of a note's paragraphs: ``**检查号** QR-01``)
COLONLESS_FIELD = re.compile("^" + _COLONLESS)
_FIELD = re.compile(
    r"^\s*(?:[-*+>]\s+)?(?:\*\*)?(?P<label>[^\s:：*]{1,16})(?:\*\*)?\s*[:：]\s*(?:\*\*(?=\s))?\s*(?P<value>.*)$"
    rf"|^\s*{_COLONLESS}"
)
_BULLET = re.compile(r"^\s*(?:[-*+>]|\d{1,3}[.)、])\s+")
_URL_ONLY = re.compile(r"^\s*<?https?://\S+>?\s*$")
#: where a first line of substance ends as a title: its first sentence, at most this many characters
TITLE_MAX = 80
#: where a sentence ends; a full stop after a lone capital is an initial (``M. Halvorsen``), no end
_SENTENCE_END = re.compile(r"[。；;！!？?]|(?<![\s(\[][A-Z])(?<!^[A-Z])\.(?:\s|$)")


@dataclass(frozen=True, slots=True)
class Label:
    """A heading's label: its shape (prefix and kind of counter), the label as written, and the title
    written after it on the same line (empty when the heading is the label alone)."""

    shape: str
    text: str
    rest: str = ""


#: a label that leads a title on its line: a code of at most two letters and a counter (``A1  ColFuse``,
#: ``B-03 vLLM``, ``Q7: …``), or a CJK word and a counter before a colon (``线索 1：Milvus …``). A counter
#: is never part of a decimal (``vLLM 0.34`` holds no label), and ``v2`` is a version, not a code; or a
#: bracketed code with a counter (``[00:09] 第一件…``, ``[3] …``, ``【线索 2】…``), never a link's text; or
#: a clock stamp (``09:40 看了…``)
_LEAD = re.compile(
    # a tracker's code in capitals and its counters, before a dash (``PPML-27-41 — Tessera …``, ``WMK-ADV-2027-031 —
    # …``), read before a short code takes its head (``QA-7-01`` is no ``QA-7``)
    r"(?P<code>[A-Z][A-Z0-9]{1,7}(?:-[A-Z]{2,6})*(?:[-_]\d{1,6}){1,3})\s+[—–]\s*(?P<corest>\S.*)"
    r"|(?P<label>(?P<prefix>(?![vV]\d)[A-Za-z]{1,2})[-_#]?(?P<counter>\d{1,4})(?![\d.,]\d)(?P<suffix>[a-z]?)(?=[\s:：.)、—-]))"
    r"[\s:：.)、—-]+(?P<rest>\S.*)"
    r"|(?P<cjk>(?P<cprefix>[\u3400-\u9fff]{1,3})\s*(?P<ccounter>\d{1,4}))\s*[:：]\s*(?P<crest>\S.*)"
    r"|(?P<bracket>[\[【](?P<binner>[^\]】\n]{0,11}\d[^\]】\n]{0,11})[\]】])(?!\()\s*(?P<brest>\S.*)"
    r"|(?P<clock>(?<![\d:：])\d{1,2}[:：][0-5]\d(?![\d:：]))\s+(?P<krest>\S.*)"
    # a word and a counter before a dash (``SERIAL 01 — SignSpan (paper)``, ``Paper 2 – …``): a colon after a word
    # and a number is a sentence's (``Table 2: PHOENIX …``)
    r"|(?P<word>(?P<wprefix>[A-Za-z]{3,10})\s(?P<wcounter>\d{1,4}))\s+[—–]\s*(?P<wrest>\S.*)"
    # an abbreviated word and its counter, set apart from the title by a gap or a dash (``No. 27-41   SpliceMark``,
    # ``Nr. 3 — …``); in a sentence it is a reference (``Fig. 3 shows …``)
    r"|(?P<abbr>(?P<aprefix>[A-Za-z]{1,4})\.\s?\d{1,4}(?:[-/]\d{1,4})?)(?:[ \t]{2,}|\s+[—–]\s*)(?P<arest>\S.*)"
)
#: the shape of a clock stamp (``09:40 看了…``), bracketed or not
CLOCK = "#:#"
#: the end of the shape of a word's counter before a dash (``SERIAL 01 — …`` is ``serial #—``)
WORD_LABEL = " #—"
#: the end of the shape of an abbreviated word's counter (``No. 27-41   SpliceMark`` is ``no.#-# №``)
NUMBERING = " №"
#: a line headed as a commit message is (``feat(read): pgvector 1.0 …``, ``chore: skip …``): its type, maybe a scope
_COMMIT = re.compile(r"(?P<type>[a-z]{2,12})(?P<scope>\([^()\s]{1,24}\))?!?:\s+(?P<rest>\S.*)")
#: the shape of such a head
COMMIT = "type(scope):"


def commit_heads(lines: list[str]) -> dict[int, str]:
    """The lines of a terse log headed as commit messages are, by index, each with what follows its head: where
    two or more heads carry a scope (``feat(read):``, ``fix(card):``), every line headed by a type one of them
    uses (``chore:`` beside ``chore(refresh):``). A lower-case ``word:`` alone is any field's label."""
    found = {i: m for i, line in enumerate(lines) if line[:1].islower() and (m := _COMMIT.match(line))}
    scoped = [m["type"] for m in found.values() if m["scope"]]
    if len(scoped) < 2:
        return {}
    return {i: m["rest"] for i, m in found.items() if m["type"] in scoped}


#: a verdict as an item's label (``KNOWN — Dynamo 1.2 docs``: ``writing.toml [labels] verdicts``), and its shape
_VERDICT_HEAD = re.compile(r"(?P<word>[A-Za-z]{2,8}|[\u3400-\u9fff]{1,3})\s*(?:[—–]+|\s-\s)\s*(?P<rest>\S.*)")
VERDICT = "verdict"
#: what a bracketed label's shape keeps of it: its digits as ``#``, its letters as ``a``, its signs
_COUNTERS = re.compile(r"\d+")
_LETTERS = re.compile(r"[A-Za-z]+")


def _plain(heading: str) -> str:
    """A heading's words as a label is read from them: without its marks (``#``, bullets, ``>``) and bold."""
    return heading.strip().lstrip("#*>-+ ").replace("**", "")


def read_label(heading: str) -> Label | None:
    """The label a heading is or opens with (``B-01``, ``🟢 C1``, ``✅``, ``A1  ColFuse …``), else None."""
    bare = _SIGNS.sub(" ", heading).strip()
    if not bare:
        return Label("", heading.strip())  # a sign alone
    m = _LABEL.fullmatch(bare)
    if m is not None:
        return Label(m.group("prefix").lower() + "#" + ("a" if m.group("suffix") else ""), bare)
    plain = _plain(heading)
    said = _VERDICT_HEAD.match(plain)
    if said is not None and said.group("word").lower() in lexicon().verdict_labels:
        return Label(VERDICT, said.group("word"), said.group("rest").strip())
    lead = _LEAD.match(plain)
    if lead is None:
        return None
    if lead.group("label"):
        shape = lead.group("prefix").lower() + "#" + ("a" if lead.group("suffix") else "") + ":"
        return Label(shape, lead.group("label"), lead.group("rest").strip())
    if lead.group("cjk"):
        return Label(lead.group("cprefix") + "#:", lead.group("cjk"), lead.group("crest").strip())
    if lead.group("clock"):
        return Label(CLOCK, lead.group("clock"), lead.group("krest").strip())
    if lead.group("word"):
        return Label(lead.group("wprefix").lower() + WORD_LABEL, lead.group("word"), lead.group("wrest").strip())
    if lead.group("abbr"):
        counter = _COUNTERS.sub("#", lead.group("abbr")[len(lead.group("aprefix")) + 1 :].strip())
        shape = lead.group("aprefix").lower() + "." + counter + NUMBERING
        return Label(shape, lead.group("abbr"), lead.group("arest").strip())
    if lead.group("code"):
        return Label(_COUNTERS.sub("#", lead.group("code")) + " —", lead.group("code"), lead.group("corest").strip())
    shape = "[" + _LETTERS.sub("a", _COUNTERS.sub("#", lead.group("binner"))) + "]"
    return Label(shape, lead.group("bracket"), lead.group("brest").strip())


#: a field's label (a word, ``writing.toml [labels]``), and the gap of a fixed-width form that aligns its values
FIELD_WORD = r"(?P<word>[A-Za-z]{1,16}|[\u3400-\u9fff]{1,4})"
_FORM_GAP = r"(?:[ \t]{2,}|\t)"
#: a heading opened by a field: its label and a colon, or a fixed-width form's gap (``Paper: …``, ``论文：…``,
#: ``PAPER    SlackPrefill: …``)
_FIELD_HEAD = re.compile(rf"{FIELD_WORD}(?:\s*[:：]\s*|{_FORM_GAP})(?P<rest>\S.*)")
#: a line of a fixed-width form (``PAPER    SlackPrefill``)
_FORM_FIELD = re.compile(rf"{FIELD_WORD}{_FORM_GAP}(?P<rest>\S.*)")
#: a heading opened by an outliner's task state in capitals (``DONE pagewright``)
_STATE_HEAD = re.compile(r"(?P<word>[A-Z][A-Z_]{1,15})\s+(?P<rest>\S.*)")
#: what else an outliner's headline holds besides its title: a priority cookie before it (``[#A]``) and tags
#: after it (``:serving:kv:``)
_OUTLINE_PARTS = re.compile(r"^\[#[A-Z0-9]\]\s*|\s+:(?:[\w@#%]+:)+\s*$")
#: the shape of a task state
STATE = "state"
#: an org-mode declaration of a note's own task states (``#+TODO: TODO(t) | DONE(d) CANCELLED``)
_STATES_DECLARED = re.compile(r"^#\+(?:SEQ_|TYP_)?TODO:(?P<words>.*)$", re.I | re.M)
_STATE_WORD = re.compile(r"[A-Z][A-Z_]{1,15}")


def declared_states(text: str) -> frozenset[str]:
    """The task states a note declares for its headings (org-mode's ``#+TODO:`` lines), with their
    keys and logging options (``(t)``, ``(d@/!)``) dropped."""
    if "#+" not in text:
        return frozenset()
    return frozenset(
        w for m in _STATES_DECLARED.finditer(text) for w in _STATE_WORD.findall(re.sub(r"\([^)]*\)", " ", m["words"]))
    )


def _head_label(heading: str, states: frozenset[str]) -> Label | None:
    """A label that opens a heading and is not a code: a field's label word (``writing.toml [labels]``) or
    a task state (``DONE``); the title follows it on the line."""
    plain = _plain(heading)
    state = _STATE_HEAD.match(plain)
    if state is not None and state["word"] in (states or lexicon().task_states):
        return Label(STATE, state["word"], _OUTLINE_PARTS.sub("", state["rest"]).strip())
    field = _FIELD_HEAD.match(plain)
    if field is not None and lexicon().is_label(field["word"]):
        return Label("field:" + field["word"].lower(), field["word"], field["rest"].strip())
    return None


def labelled(headings: list[str], states: frozenset[str] = frozenset()) -> list[Label | None]:
    """For each sibling heading, its label when it is a labelled item's heading.

    Siblings are labels when two or more of them share one label shape; a heading that is only a sign
    (or only a counter) is a label on its own. Besides codes, a heading may open with a field's label
    (``Paper: …``) or a task state (``DONE …``): ``states``, when the note declares its own, else an
    outliner's defaults (``writing.toml``).
    """
    labels = [read_label(h) or _head_label(h, states) for h in headings]
    shapes = Counter(lab.shape for lab in labels if lab is not None)
    return [
        lab if lab is not None and (shapes[lab.shape] >= 2 or lab.shape in ("", "#", "#a")) else None for lab in labels
    ]


#: a heading that a title field under it may show to be a label: a few words at most (``SNIPPET``, ``NEW``),
#: and the shape of such a label
LABEL_MAX = 24
TITLED = "titled"


def labelled_by_field(headings: list[str], bodies: list[list[str]]) -> list[Label | None]:
    """For each sibling heading, its label when a title field opens its body: two or more short siblings
    (``### SNIPPET``, ``### NEW``) whose first line is a title field (``title: …``) name their items
    there, whatever words the headings are."""
    found = [
        Label(TITLED, _plain(h)) if len(_plain(h)) <= LABEL_MAX and _opens_with_title_field(b) else None
        for h, b in zip(headings, bodies, strict=True)
    ]
    return found if sum(lab is not None for lab in found) >= 2 else [None] * len(found)


def _opens_with_title_field(lines: list[str]) -> bool:
    return title_field(next((line for line in lines if line.strip()), "")) is not None


def is_field(line: str) -> bool:
    """Whether ``line`` is a field: a short label, a colon, a value (``**链接**：https://…``, ``Read: abstract``),
    or a Chinese label set apart without a colon (``**检查方法** 全文阅读``, ``封存状态　■ 已拆封``)."""
    return field_parts(line) is not None


def field_parts(line: str) -> tuple[str, str] | None:
    """A field's label and value, or None: the line is no field, or an empty one."""
    m = _FIELD.match(line)
    if m is None:
        return None
    label = m["label"] or m["bold"] or m["aligned"]
    value = (m["value"] if m["label"] else m["colonless"]).strip()
    return (label, value) if value else None


def title_field(line: str) -> str | None:
    """The title a title field gives (``Title: FlashKV``, ``标题：…``; ``writing.toml``), or None: the line
    is no title field, or an empty one."""
    parts = field_parts(line)
    return parts[1] if parts is not None and lexicon().is_title_label(parts[0]) else None


def title_under(lines: list[str]) -> tuple[str, int] | None:
    """The title of a labelled item from the lines under its heading, with the line's index.

    A title field (``Title:``, ``标题：``, data in ``writing.toml``) wins; otherwise the first line of
    substance: not blank, not a bare URL, not another field; cut at its first sentence.
    """
    lex = lexicon()
    first: tuple[str, int] | None = None
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        if (value := title_field(line)) is not None:
            return value, i
        parts = field_parts(line)
        if first is not None or _URL_ONLY.match(line):
            continue
        if parts and lex.is_label(parts[0]):
            continue
        text = _BULLET.sub("", line).strip()
        if text:
            first = (first_sentence(_form_value(text)), i)
    return first


def _form_value(line: str) -> str:
    """A line of a fixed-width form less its label (``PAPER    SlackPrefill: …`` → ``SlackPrefill: …``)."""
    return form_value(line) or line


def form_value(line: str) -> str | None:
    """The value of a fixed-width form's line whose label is a field's (``PAPER    SlackPrefill: …``), else None."""
    m = _FORM_FIELD.match(line)
    return m["rest"] if m is not None and lexicon().is_label(m["word"]) else None


def sentence_head(text: str) -> str:
    """A line up to its first sentence end (the whole line when it has none). A title in book-title or corner
    brackets ends no sentence (``CSDN《持续预训练只要 5% 回放？一文讲透》。``)."""
    for m in _SENTENCE_END.finditer(text):
        before = text[: m.start()]
        if before.count("《") <= before.count("》") and before.count("「") <= before.count("」"):
            return before.strip()
    return text.strip()


def first_sentence(text: str) -> str:
    """A line's first sentence, at most ``TITLE_MAX`` characters: what of it stands as a title."""
    return sentence_head(text)[:TITLE_MAX].strip()
