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
from functools import cache, lru_cache
from typing import Literal

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


@lru_cache(maxsize=1 << 16)
def normalize(text: str) -> str:
    """Full-width digits to ASCII, dashes unified, thousands separators and spaces removed.

    Cached: the verifier normalises the same quoted line once per number cited from it."""
    return _normalize(text)


@lru_cache(maxsize=1 << 16)
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


@lru_cache(maxsize=4096)
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
        re.compile(r"§\s*\d+(?:\.\d+)*|(?:Section|Sec\.|章节)\s*\d+(?:\.\d+)*(?:\s*[-–]\s*\d+)?", re.I),
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
        # an HTTP status; followed by a unit it is a quantity (``451 篇``, ``403 tokens``), not a status
        # (``WP-502``, ``403期`` name other things; ``login/403`` is one)
        re.compile(rf"(?:HTTP\s?)?(?<![\w.\-])(?:401|403|404|429|451|502|503)(?![\d.])(?!\s?(?:%|期|号|{_UNIT}))"),
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
            r"|(?:条目|增量|矛盾|来源|Item|item|Step|step)\s?\d+(?!\.\d)(?!\s?[条件个项处])"
            r"|(?:\b(?:No|NO|Nr|Vol|VOL|Ep|EP)\.?|\b(?:Episode|episode|Chapter|chapter|Volume|volume|Weekly|weekly)|№"
            r"|周刊|周报|月刊|日报|期刊)\s?#?\d+\b"
            r"|\bT-\d+\b|\b[A-Z]-\d\b|(?m:^\s*(?:\d+[.)、](?!\d)|\(\d+\)))|(?<=[\s(（])\(?\d{1,2}\)(?=\s)"
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
#: each behind a one-character test of where a match can start (the same matches, fewer attempts)
_PATTERNS = [(kind, typ, guarded(rx)) for kind, typ, rx in _PATTERNS]

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


@lru_cache(maxsize=1 << 16)
def _scan(text: str) -> tuple[NumberToken, ...]:
    if not text.isascii():
        text = _to_ascii_digits(text)
    if not _HAS_DIGIT.search(text):
        return ()  # every token holds a digit (a URL yields only its issue numbers)
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


def parse_value(token_text: str) -> float | None:
    """The first numeral of a token as a float (thousands separators removed)."""
    cores = number_cores(token_text)
    if not cores:
        return None
    try:
        return float(cores[0])
    except ValueError:
        return None
