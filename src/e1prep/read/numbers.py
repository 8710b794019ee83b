"""Find and classify every number in mixed Chinese/English text.

A *quantity* (count, percent, range, multiplier, money, ...) is a claim and needs a cited
evidence level. An *identifier* (version, date, section, arXiv id, issue, a name that carries
digits, a list ordinal) only needs to be found in a source. The scanner works left to right:
URLs are skipped whole, identifier patterns are tried before quantity patterns, and every
match consumes its span so that no digit is classified twice.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Literal

from ..kb.numbering import SECTION_ID
from ..text.lexicon import lexicon
from ..text.memo import run_memo
from ..text.regexgate import guarded

Kind = Literal["quantity", "identifier"]

QUANTITY_TYPES = ("count", "decimal", "percent", "change", "range", "multiplier", "money", "magnitude", "measure")
IDENTIFIER_TYPES = ("version", "date", "time", "section", "arxiv", "issue", "name", "ordinal")

_FULLWIDTH = dict(zip("０１２３４５６７８９．，％＋－：", "0123456789.,%+-:", strict=True))
_DASHES = {"–": "-", "—": "-", "−": "-", "～": "~", "〜": "~", "‑": "-", "‒": "-"}


def _replacer(table: dict[str, str]) -> Callable[[str], str]:
    """``str.translate`` for a small table, by one C scan for its characters: ``translate`` looks every
    character of a non-ASCII text up in a dict, which costs more than the rest of normalising."""
    found = re.compile("[" + "".join(map(re.escape, table)) + "]")

    def swap(m: re.Match[str]) -> str:
        return table[m.group()]

    return functools.partial(found.sub, swap)


_to_ascii_digits = _replacer(_FULLWIDTH)
#: both in one pass (their keys are disjoint, and what the first yields is ASCII, which the second keeps)
_to_ascii_digits_and_dashes = _replacer({**_FULLWIDTH, **_DASHES})


@dataclass(frozen=True)
class NumberToken:
    """A number-bearing span of text and what it is."""

    text: str
    start: int
    end: int
    kind: Kind
    type: str
    unit: str | None = None

    @property
    def cores(self) -> tuple[str, ...]:
        """The bare numerals in the token (``'64–128 卡'`` → ``('64', '128')``)."""
        return number_cores(self.text)


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_NUMERAL = re.compile(r"\d+(?:\.\d+)?")


def _normalize(text: str) -> str:
    if not text.isascii():
        text = _to_ascii_digits_and_dashes(text)
    if "," in text:
        text = _THOUSANDS.sub("", text)
    return "".join(text.split())  # str.split() splits on exactly what ``\s`` matches


@run_memo
def normalize(text: str) -> str:
    """Full-width digits to ASCII, dashes unified, thousands separators and spaces removed.

    Cached: the verifier normalises the same quoted line once per number cited from it."""
    return _normalize(text)


@run_memo
def number_cores(text: str) -> tuple[str, ...]:
    norm = normalize(text)
    return tuple(m.group(0).lstrip("0") or "0" for m in _NUMERAL.finditer(norm))


def line_cores(normalized: str) -> tuple[str, ...]:
    """``number_cores`` of one normalised line, each numeral once, uncached.

    A normalised line has no whitespace left, and normalising it again can only drop thousands
    separators that stood after a space (``1 ,234`` → ``1,234`` → ``1234``); a numeral never spans lines.
    """
    if "," in normalized:
        normalized = _THOUSANDS.sub("", normalized)
    found = _NUMERAL.findall(normalized)
    if len(found) < 2:  # most lines hold one numeral or none
        return (found[0].lstrip("0") or "0",) if found else ()
    return tuple(dict.fromkeys([n.lstrip("0") or "0" for n in found]))


def normalize_line(line: str) -> str:
    """``normalize`` of one line of a material (or one name), uncached: each is read once, or when asked.

    A material's normalised lines, joined, are ``normalize`` of its text: a line break is whitespace,
    and a thousands separator needs a digit on both sides, which a line break never is.
    """
    return _normalize(line)


@run_memo
def number_pattern(needle: str) -> re.Pattern[str] | None:
    """A pattern for a number as written, normalised, with digit boundaries on both sides."""
    core = normalize(needle)
    if not core:
        return None
    pattern = re.escape(core)
    if core[0].isdigit():
        pattern = r"(?<![\d.])" + pattern
    if core[-1].isdigit():
        pattern += r"(?![\d])(?!\.\d)"
    return re.compile(pattern)


def occurs_in(needle: str, haystack_normalized: str) -> bool:
    """Does a number, as written, occur in a normalised text with digit boundaries on both sides?

    The same test as ``number_pattern(needle).search``, by substring search (no regex per needle).
    """
    core = normalize(needle)
    if not core:
        return False
    lead, trail = core[0].isdigit(), core[-1].isdigit()
    at = haystack_normalized.find(core)
    while at >= 0:
        end = at + len(core)
        before = haystack_normalized[at - 1] if at else ""
        after = haystack_normalized[end : end + 2]
        # (``isdecimal`` is what ``\d`` matches)
        ok_before = not lead or not before or not (before.isdecimal() or before == ".")
        ok_after = not trail or not after or not (after[0].isdecimal() or (after[0] == "." and after[1:2].isdecimal()))
        if ok_before and ok_after:
            return True
        at = haystack_normalized.find(core, at + 1)
    return False


# --- the patterns, tried in order at each position -------------------------------------------

_NUM = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?"  # a comma only as a thousands separator (``2,`` is 2)
_MAG = r"(?:万亿|亿|万|千|[kKMBT](?![A-Za-z\d]))"
_UNIT = (
    r"(?:tokens?/s|tok/s|tokens?/天|tokens?/day|req/s|qps|QPS|TPM|rps|GB/s|GiB|GB|MiB|MB|TB|ms|μs|us|ns|"
    r"s(?![A-Za-z])|min|h(?![A-Za-z])|小时|分钟|秒|天|周|月|年|⭐|stars?|卡|次|行|条|张|篇|个|倍|人|家|页|台|"
    r"轮|份|件|项|层|头|步|engine steps|steps|tokens?|tok|lines|papers|repos|GPUs?|nodes?|节点|W|kW|K(?![A-Za-z]))"
)
_VERSIONED = (
    r"(?:CUDA|CANN|Python|PyTorch|torch|cuDNN|vLLM|SGLang|TensorRT-LLM|TensorRT|TRT-LLM|Ollama|llama\.cpp|"
    r"Node(?:\.js)?|Java|Go|Rust|Ubuntu|Kubernetes|K8s|Dynamo|llm-d|ROCm|NCCL|Triton|transformers|LMDeploy|"
    r"FlashInfer|FlashAttention|macOS|iOS|Android|Windows|gcc|HTTP|TLS|OpenAI API|MLX|mlx-lm|Linux|CentOS|"
    r"Debian|Helm|Ray|JAX|numpy|pip|instructor|openai|pydantic|Chrome|Firefox|Spark)"
)
_NAMED = (
    r"(?:Ascend|Llama|LLaMA|Qwen|GPT|Gemini|Claude|DeepSeek|Kimi|Rubin|Xeon|Tesla|Mistral|Mixtral|Phi|Gemma|"
    r"Nemotron|GLM|Yi|Baichuan|InternLM|MiniMax|Hopper|Ampere|Ada|Blackwell|Grace|Apple M|Snapdragon|"
    r"Top|TOP|Series|iPhone|Pixel|Epoch|Era|Stage|Phase|Tier|Level|L)"
)

_PATTERNS: list[tuple[str, str, re.Pattern[str]]] = [
    ("identifier", "url", re.compile(r"(?:https?://|www\.)[^\s<>()\[\]（）【】,，。;；\"'`]+")),
    (
        "identifier",
        "name",
        re.compile(r"(?<![\w\-])(?!(?:19|20)\d{2}-\d{2}-\d{2})\d+-[\w.\-]*\.(?:md|json|ya?ml|txt|py|sh|gguf|whl)\b"),
    ),
    (
        "identifier",
        "arxiv",
        re.compile(r"(?:arXiv[:：]\s*)?(?<![\w.\-/])\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}(?:v\d+)?(?![\w.]*\d)", re.I),
    ),
    (
        "identifier",
        "section",
        re.compile(rf"(?-i:{SECTION_ID})|(?:Section|Sec\.|章节)\s*\d+(?:\.\d+)*(?:\s*[-–]\s*\d+)?", re.I),
    ),
    (
        "identifier",
        "date",
        re.compile(
            r"(?<!\d)(?:19|20)\d{2}[-/.年]\s?\d{1,2}(?:[-/.月]\s?\d{1,2}日?|月)?(?!\d)"
            r"|(?<!\d)\d{1,2}\s?月\s?\d{1,2}\s?日"
            r"|(?<!\d)\d{1,2}\s?月(?![\d份])"
            r"|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?\s?\d{1,2}(?:\s?[-–]\s?\d{1,2})?"
            r"(?:,?\s?(?:19|20)\d{2})?(?!\d)"
            r"|\b(?:19|20)\d{2}\s?(?:Q[1-4]|H[12])\b"
            r"|(?<![\d.,+\-$¥])(?:19|20)\d{2}(?=\s?年|\b)(?![\d.%]|\s?(?:年\d|[万亿kKM×x倍%]))"
            # a year is no count of things: ``2026 tokens/s`` is a quantity
            r"(?!\s?(?:tokens?|tok|req|qps|QPS|rps|ms|GB|MB|TB|卡|次|倍|stars?|⭐|steps?|条|篇|个|张|行|人|台))"
        ),
    ),
    ("identifier", "time", re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?![\d:])|(?<=\d)T\d{4}\b|\bT\d{4}\b")),
    (
        "identifier",
        "name",
        # an HTTP status; followed by a unit it is a quantity (``451 篇``, ``403 tokens``), not a status, and
        # by a size's letter a model size (``401B``)
        # (``WP-502``, ``403期`` name other things; ``login/403`` is one)
        re.compile(
            rf"(?:HTTP\s?)?(?<![\w.\-])(?:401|403|404|429|451|502|503)(?![\d.])(?![BT](?![A-Za-z]))(?!\s?(?:%|期|号|{_UNIT}))"
        ),
    ),
    (
        "identifier",
        "issue",
        re.compile(r"#\d+\b|\b(?:issues|pull|pulls|discussions)/\d+\b|\b(?:issue|PR)\s?#?\d+\b", re.I),
    ),
    (
        "identifier",
        "ordinal",
        re.compile(
            r"[①-⑳⑴-⒇❶-❿]|第\s?\d+\s?[条项节章轮期版页篇集卷号回]|\d+\s?[期号](?![\w])"
            r"|(?:条目|增量|矛盾|来源|Item|item|Step|step|Part|part)\s?\d+(?!\.\d)(?!\s?[条件个项处])"
            r"|(?:\b(?:No|NO|Nr|Vol|VOL|Ep|EP)\.?|\b(?:Episode|episode|Chapter|chapter|Volume|volume|Weekly|weekly)|№"
            r"|周刊|周报|月刊|日报|期刊)\s?#?\d+\b"
            r"|\bT-\d+\b|\b[A-Z]-\d\b|(?m:^\s*(?:\d+\\?[.)、](?!\d)|\(\d+\)))|(?<=[\s(（])\(?\d{1,2}\)(?=\s)"
            r"|(?<=[\s；;：:。，,])\d{1,2}\.(?=\s)"
        ),
    ),
    (
        "identifier",
        "version",
        re.compile(
            r"(?<![\w.])[vV]\d+(?:\.\d+)*(?:[\w.\-]*)?(?![\w])"
            rf"|(?<![\w\-]){_VERSIONED}\s?\d+(?:\.\d+)*(?:[\w.\-]*\w)?(?![\d.%×倍])(?!,\d{{3}}(?!\d))"
            rf"(?!\s?(?:{_UNIT[3:-1]}|[万亿]))"
            r"|(?<![\w.])\d+\.\d+\.\d+(?:[\w.\-]*\w)?"
            r"|(?<![\w.])\d+\.\d+(?:rc|a|b|dev|post)\d*[\w.]*"
        ),
    ),
    (
        "identifier",
        "name",
        re.compile(
            r"(?<![\w])\d+\s?[×xX]\s?\d+(?:\s?[×xX]\s?\d+)?(?!\s?(?:倍|[%kKM]))(?![\w.])"
            # atomic (?>…): giving letters back can never help, and trying it is quadratic on a long word
            r"|(?<![\w\-.])[A-Za-z](?>[A-Za-z_]*)(?:[\-_.]?[A-Za-z]*\d[\w]*)+(?:[\-_.][\w]+)*"
            r"|(?<![\w\-.])\d+(?:\.\d+)?[BT](?![A-Za-z])(?=[\s\-,，、)）]|$)(?<=[BT])"
            rf"|(?<![\w\-.])(?!\d+(?:\.\d+)?\s?(?:{_UNIT[3:-1]}|万亿|亿|万|千|[kKM]|[xX])(?![A-Za-z\d_]))"
            r"\d+[A-Za-z]+[\w\-]*(?!/)"
            rf"|(?<![\w\-]){_NAMED}\s\d+(?:\.\d+)?[A-Za-z]*(?![\d.%×倍])(?!\s?(?:{_UNIT[3:-1]}|[万亿]))"
        ),
    ),
    (
        "quantity",
        "number",
        re.compile(
            r"(?P<cmp>[>≥<≤~约近超逾]\s?)?"
            r"(?P<sign>(?<![\w.\-])[+\-−](?=[$¥€£]?\d))?"
            r"(?P<cur>[$¥€£])?"
            r"(?!(?:19|20)\d{2}[-/.年]\s?\d)"
            rf"(?P<num>{_NUM})"
            rf"(?P<mag1>\s?{_MAG})?"
            rf"(?P<range>\s?[–—\-~～至到]\s?[+\-−]?[$¥€£]?{_NUM}(?:\s?{_MAG})?)?"
            r"(?P<pct>\s?%)?"
            r"(?P<mult>\s?(?:×|倍|[xX](?![A-Za-z])))?"
            r"(?P<curw>\s?(?:美元|美金|元|人民币|USD|usd|刀))?"
            rf"(?P<unit>\s?{_UNIT}(?![A-Za-z\d_]))?"
        ),
    ),
]

_MEASURE_UNITS = re.compile(
    r"tok|token|req/s|qps|tpm|rps|/s|gib|gb|mib|mb|tb|ms|μs|us|ns|^s$|min|^h$|小时|分钟|秒|^天$|^周$|^w$|kw", re.I
)


_MAG_END = re.compile(_MAG + "$")


def _quantity_type(m: re.Match[str]) -> tuple[str, str | None]:
    unit = (m.group("unit") or "").strip() or None
    if m.group("cur") or m.group("curw"):
        return "money", (m.group("curw") or m.group("cur") or "").strip()
    if m.group("range"):
        return "range", unit
    if m.group("sign"):
        return "change", unit
    if m.group("mult") or unit == "倍":
        return "multiplier", unit
    if m.group("pct"):
        return "percent", "%"
    if m.group("mag1") or _MAG_END.search(m.group("num")):
        return "magnitude", unit
    if unit and unit.lower() in ("k",):
        return "magnitude", unit
    if unit and _MEASURE_UNITS.search(unit):
        return "measure", unit
    if "." in m.group("num"):
        return "decimal", unit
    return "count", unit


_HAS_DIGIT = re.compile(r"[\d①-⑳⑴-⒇❶-❿]")


def _next_match(rx: re.Pattern[str], typ: str, text: str, pos: int) -> re.Match[str] | None:
    """The pattern's first usable match at or after ``pos`` (non-empty, and holding a digit)."""
    start = pos
    while start < len(text):
        m = rx.search(text, start)
        if m is None:
            return None
        if _usable(typ, m):
            return m
        start = m.start() + 1
    return None


_ISSUE_PATH = re.compile(r"\b(?:issues|pull|pulls|discussions)/\d+")


def _tokens_of(kind: str, typ: str, m: re.Match[str], text: str) -> list[NumberToken]:
    start, end = m.start(), m.end()
    if typ == "number":
        qtype, unit = _quantity_type(m)
        return [NumberToken(text[start:end].strip(), start, end, "quantity", qtype, unit)]
    if typ == "url":
        issues = _ISSUE_PATH.finditer(m.group(0))
        return [NumberToken(x.group(0), start + x.start(), start + x.end(), "identifier", "issue") for x in issues]
    return [NumberToken(text[start:end].strip(), start, end, "identifier", typ)]


def scan(text: str) -> list[NumberToken]:
    """Every number-bearing token in ``text``, left to right; URLs are skipped but for issue numbers.

    All patterns are searched as one alternation, from the end of the last token on, so the scan
    stays linear in the text's length. A text is scanned once per process: the rules,
    the detectors and the verifier ask for the same lines (tokens are immutable).
    """
    return list(_scan(text))


@run_memo
def _scan(text: str) -> tuple[NumberToken, ...]:
    if not text.isascii():
        text = _to_ascii_digits(text)
    if holds_no_token(text):
        return ()
    return named(text, _scan_all(text))


def holds_no_token(text: str) -> bool:
    """No digit in ``text``: then ``_scan_all(text)`` is ``()`` (every usable match holds a digit; a URL
    gives only its issue numbers). Nearly half of a note's lines hold none, and the alternation costs
    about a microsecond a character to learn so."""
    return _HAS_DIGIT.search(text) is None


def _scan_all(text: str) -> tuple[NumberToken, ...]:
    """The tokens of the patterns alone (before their neighbours are read: :func:`named`)."""
    rx = _alternation()
    tokens: list[NumberToken] = []
    pos, end = 0, len(text)
    while pos < end:
        m = rx.search(text, pos)
        if m is None:
            break
        kind, typ, _ = _PATTERNS[int(m.lastgroup[1:])]  # type: ignore[index]
        if not _usable(typ, m):
            return _scan_each(text)  # the first pattern's next match may lie further on: ask each
        tokens += _tokens_of(kind, typ, m, text)
        pos = max(m.end(), m.start() + 1)
    return tuple(tokens)


# --- what a number's neighbours say it is ------------------------------------------------------------
#
# A version, a bit width or a model size names a thing; the patterns above read some of them as
# quantities (``Ember 0.4`` a decimal, the 4 of ``4-bit`` a count, ``7B/13B`` magnitudes). The
# recogniser below reads each quantity with the words beside it (``data/writing.toml``: ``[numbers]``)
# and makes it the identifier it is. A quantity with a unit, a percent, a currency or a sign stays one.


def _words(key: str) -> str:
    return "|".join(f"(?:{w})" for w in lexicon().numbers.get(key, ())) or "(?!)"


@dataclass(frozen=True)
class _Neighbours:
    """The shapes the recogniser compares a token's neighbours with (made once from the data)."""

    version_before: re.Pattern[str]
    name_before: re.Pattern[str]
    not_names: frozenset[str]
    bit_after: re.Pattern[str]
    size_after: re.Pattern[str]
    size_list_after: re.Pattern[str]
    size_list_before: re.Pattern[str]
    moe_after: re.Pattern[str]


@cache
def _neighbours() -> _Neighbours:
    size = r"\d+(?:\.\d+)?\s?[BT]"
    return _Neighbours(
        # ``version 0.4``, ``版本 0.4``, ``本条的版本 0.4``, ``release 0.4:`` (a Latin word ends before it; a CJK
        # character may stand right before 版本)
        version_before=re.compile(rf"(?<![A-Za-z0-9_])(?:{_words('version_before')})\s?[:：]?\s?$", re.I),
        # a product-like word right before it: upper and lower case letters (``Ember``, ``SGLang``), not all caps
        name_before=re.compile(r"(?<![\w.\-/])([A-Za-z][A-Za-z0-9\-]*[A-Za-z0-9])\s$"),
        not_names=frozenset(w.lower() for w in lexicon().numbers.get("not_names", ())),
        bit_after=re.compile(rf"^\s?-?\s?(?:{_words('bit_after')})(?![A-Za-z])", re.I),
        size_after=re.compile(rf"^[\s\-]?(?:{_words('size_after')})(?![A-Za-z])", re.I),
        size_list_after=re.compile(rf"^\s?(?:/|、|,|，|or|and|和|与|或)\s?{size}(?![A-Za-z])", re.I),
        size_list_before=re.compile(rf"(?<![\w.]){size}\s?(?:/|、|,|，|or|and|和|与|或)\s?$", re.I),
        moe_after=re.compile(rf"^\s?{size}(?![A-Za-z])"),
    )


#: a model size as a token reads it: ``7B``, ``1.5B``, ``70 B`` (no currency, sign or range)
_SIZE_TOKEN = re.compile(r"\d+(?:\.\d+)?\s?[BT]")
_PLAIN_DECIMAL = re.compile(r"\d+\.\d+")
#: how far a neighbour is read on each side
_REACH = 24


def named(text: str, tokens: tuple[NumberToken, ...]) -> tuple[NumberToken, ...]:
    """``tokens`` with each quantity that names a version, a bit width or a model size made that identifier.

    * a bit width: a count right before ``bit`` (``4-bit``, ``8 bit``, ``4 比特``);
    * a model size: ``7B`` before a model word (``7B model``, ``1.5B params``, ``70B 模型``), in a list of
      sizes (``7B/13B/70B``), or after ``8x`` (``8x7B`` is one name);
    * a version: a decimal right after a version word (``version 0.4``, ``版本 0.4``) or a product-like name
      (``Ember 0.4``), when no unit, percent or multiplier follows it.

    A quantity with a currency, a sign, a percent or a range is never one of these.
    """
    if not any(t.kind == "quantity" for t in tokens):
        return tokens
    nb = _neighbours()
    out: list[NumberToken] = []
    skip_to = -1
    for n, t in enumerate(tokens):
        if t.start < skip_to:
            continue
        if t.kind != "quantity":
            out.append(t)
            continue
        after = text[t.end : t.end + _REACH]
        before = text[max(0, t.start - _REACH) : t.start]
        merged = _moe_size(t, text, nb, tokens[n + 1 : n + 2])
        if merged is not None:
            out.append(merged)
            skip_to = merged.end
            continue
        typ = _identifier_type(t, before, after, nb)
        if typ == "bits":  # the bit width whole (``4-bit``): the name as written
            end = t.end + len(nb.bit_after.match(after).group(0))  # type: ignore[union-attr]
            out.append(NumberToken(text[t.start : end], t.start, end, "identifier", "name"))
            skip_to = end
        else:
            out.append(NumberToken(t.text, t.start, t.end, "identifier", typ) if typ else t)
    return tuple(out)


def _identifier_type(t: NumberToken, before: str, after: str, nb: _Neighbours) -> str | None:
    """``version`` or ``name`` when the token's neighbours say it names something, else None."""
    if t.type == "count" and not t.unit and nb.bit_after.match(after):
        return "bits"  # a bit width
    if t.type == "magnitude" and _SIZE_TOKEN.fullmatch(t.text) and _sized(before, after, nb):
        return "name"  # a model size
    if t.type == "decimal" and not t.unit and _PLAIN_DECIMAL.fullmatch(t.text):
        if nb.version_before.search(before):
            return "version"
        m = nb.name_before.search(before)
        word = m.group(1) if m else ""
        if word and not word.isupper() and not word.islower() and word.lower() not in nb.not_names:
            return "version"
    return None


def _sized(before: str, after: str, nb: _Neighbours) -> bool:
    """A size where a name stands: before a model word, or in a list of sizes."""
    return bool(nb.size_after.match(after) or nb.size_list_after.match(after) or nb.size_list_before.search(before))


def _moe_size(t: NumberToken, text: str, nb: _Neighbours, following: tuple[NumberToken, ...]) -> NumberToken | None:
    """``8x7B`` / ``8 × 7B`` (a mixture of experts' size) as one name, where the scan saw a multiplier
    and a size."""
    if t.type != "multiplier" or t.unit or not following:
        return None
    nxt = following[0]
    if nxt.start - t.end > 1 or not _SIZE_TOKEN.fullmatch(nxt.text) or not nb.moe_after.match(text[t.end :]):
        return None
    return NumberToken(text[t.start : nxt.end], t.start, nxt.end, "identifier", "name")


@cache
def _alternation() -> re.Pattern[str]:
    """The patterns as one alternation, in their order, each its own named group ``_<n>``.

    One search gives what searching each pattern and keeping the earliest match would (of matches at
    one place, the earlier pattern's): ``re`` tries the branches in order at each place, left to right.
    A guard on the first characters of all branches makes a place where none can start cheap.
    """
    branches = []
    for n, (_, _, rx) in enumerate(_PATTERNS):
        body = f"(?i:{rx.pattern})" if rx.flags & re.IGNORECASE else rx.pattern
        branches.append(f"(?P<_{n}>{body})")
    return guarded(re.compile("|".join(branches)))


def _usable(typ: str, m: re.Match[str]) -> bool:
    """A match counts when it is non-empty and holds a digit (a URL counts whole: it is skipped)."""
    return m.end() > m.start() and (typ == "url" or _HAS_DIGIT.search(m.group(0)) is not None)


def _scan_each(text: str) -> tuple[NumberToken, ...]:
    """The scan pattern by pattern: each one's next usable match is cached and searched again only
    once the scan has passed it. The alternation gives the same tokens when every match it finds is
    usable (each pattern needs a digit, so this runs only should a pattern change)."""
    tokens: list[NumberToken] = []
    pos, end = 0, len(text)
    nxt: list[re.Match[str] | None] = [None] * len(_PATTERNS)
    pending = list(range(len(_PATTERNS)))
    while pos < end and pending:
        best: re.Match[str] | None = None
        best_i = -1
        gone = False
        for i in pending:  # in pattern order: of two matches at one place the earlier pattern's stands
            m = nxt[i]
            if m is None or m.start() < pos:
                m = nxt[i] = _next_match(_PATTERNS[i][2], _PATTERNS[i][1], text, pos)
            if m is None:
                gone = True
            elif best is None or m.start() < best.start():
                best, best_i = m, i
        if gone:
            pending = [i for i in pending if nxt[i] is not None]
        if best is None:
            break
        kind, typ, _ = _PATTERNS[best_i]
        tokens += _tokens_of(kind, typ, best, text)
        pos = max(best.end(), best.start() + 1)
    return tuple(tokens)


def quantities(text: str) -> list[NumberToken]:
    return [t for t in scan(text) if t.kind == "quantity"]


def identifiers(text: str) -> list[NumberToken]:
    return [t for t in scan(text) if t.kind == "identifier"]


def names_a_size(text: str) -> bool:
    """Whether a magnitude of ``text`` reads as a model's size (``1.4B``, ``7B model``): a name by its shape, though
    the writer may mean a count (``1.4B tokens``)."""
    return any(t.type == "name" and _SIZE_TOKEN.fullmatch(t.text) for t in scan(text))


def parse_value(token_text: str) -> float | None:
    """The first numeral of a token as a float (thousands separators removed)."""
    cores = number_cores(token_text)
    if not cores:
        return None
    try:
        return float(cores[0])
    except ValueError:
        return None


# --- a repository card's own counts ----------------------------------------------------------------


@cache
def _count_field() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A count field's name right after a number (``61 forks``) or right before it (``⭐ 1,204``, ``Stars: 1204``)."""
    fields = "|".join(f"(?:{w})" for w in lexicon().numbers.get("count_fields", ())) or "(?!)"
    return (
        re.compile(rf"^\s?(?:{fields})(?![A-Za-z])", re.I),
        re.compile(rf"(?<![A-Za-z])(?:{fields})\s?[:：=]?\s?$", re.I),
    )


def card_counts(text: str) -> list[NumberToken]:
    """The quantities of ``text`` that are a repository card's own counts: a count (``1,204``, ``1.2k``)
    named by a count field beside it (``1,204 stars``, ``61 forks``, ``⭐ 1,204``, ``open issues: 9``).

    Such a number is what the collector read off the repository (level ``card``), not the project's claim.
    """
    after, before = _count_field()
    out = []
    for t in quantities(text):
        if t.type not in ("count", "magnitude", "decimal"):
            continue
        named_after = after.match(t.unit or "") or after.match(text[t.end : t.end + 16])
        if named_after or before.search(text[max(0, t.start - 16) : t.start]):
            out.append(t)
    return out


#: where one sentence of a card's summary ends
_SENTENCE = re.compile(r"(?<=[.。;；!！])\s+|(?<=[。；！])")
#: what a stats line holds besides its counts and their names: separators, signs, emoji
_STATS_REST = re.compile(r"[\s·•|,，;；/:：.。()（）\-–—+*_`~]|[^\w\s]")


def stats_sentences(text: str) -> tuple[str, str]:
    """(the card's stats, the rest): the sentences of ``text`` made only of count fields and their numbers
    (``⭐ 1,204 stars · 61 forks · 9 open issues.``), and what is left, each joined by a blank."""
    after = _count_field()[0]
    stats: list[str] = []
    rest: list[str] = []
    for sentence in _SENTENCE.split(text):
        counts = card_counts(sentence)
        left = sentence
        for t in sorted(counts, key=lambda t: -t.start):
            left = left[: t.start] + " " + left[t.end :]
        left = re.sub(after.pattern.lstrip("^"), " ", left, flags=re.I)
        (stats if counts and not _STATS_REST.sub("", left) else rest).append(sentence.strip())
    return " ".join(s for s in stats if s), " ".join(s for s in rest if s)
