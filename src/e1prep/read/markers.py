"""The evidence-marker table (``data/markers.toml``) and the plain rule the verifier applies with it.

The table is the only place where the words of an evidence remark are listed: literal phrases
(``[[marker]]`` rows) and shapes of words (``[[pattern]]`` rows). Two readers use it: the graded
reader in :mod:`e1prep.read.evidence` (the rules backend's level of an item), and the deliberately simple
:func:`plain_quotable` here (the verifier's own rule): an item's numbers are quotable only when the item
states an unhedged full read and no limitation, hedge or relayed check that reaches the whole item (a
legend symbol counts as exactly the words the note's legend gives it). How far a statement reaches is
:mod:`e1prep.read.scope`: a limitation of another object, or of one bullet's own numbers, stays there.
"""

from __future__ import annotations

import bisect
import re
import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from ..brief.models import EvidenceLevel
from ..text import visible
from ..text.memo import run_memo
from ..text.regexgate import Gates, Source, guarded
from . import scope
from .numbers import NumberToken, scan

#: kinds of markers, as the table names them
POSITIVE_KINDS = frozenset({"full", "partial"})
#: everything that lowers or caps a level: what the verifier's plain rule refuses anywhere in an item
LOWERING_KINDS = frozenset(
    {"partial", "summary", "snippet", "vendor", "limitation", "unverified", "noquote", "hedge", "relay"}
)
ALL_KINDS = POSITIVE_KINDS | LOWERING_KINDS | {"negation"}

#: most restrictive first: the order in which readings combine
RANK: dict[EvidenceLevel, int] = {
    EvidenceLevel.unverified: 0,
    EvidenceLevel.snippet: 1,
    EvidenceLevel.summary: 2,
    EvidenceLevel.vendor: 3,
    EvidenceLevel.card: 4,
    EvidenceLevel.partial: 5,
    EvidenceLevel.verified: 6,
}


def strictest(*levels: EvidenceLevel) -> EvidenceLevel:
    """The most restrictive of some levels (``unverified`` when none)."""
    if len(levels) == 2:  # the common call: what ``min`` gives, the first of two equally strict
        first, second = levels
        return second if RANK[second] < RANK[first] else first
    return min(levels, key=RANK.__getitem__, default=EvidenceLevel.unverified)


@dataclass(frozen=True)
class Marker:
    text: str
    kind: str
    level: EvidenceLevel
    lang: str
    access: bool = False
    explains: bool = False
    #: a bare word (``摘要``, ``abstract``) that states a level only when no read is stated beside it
    weak: bool = False
    #: a clause that qualifies a full read before it on its line (``读过，但图表没加载出来``); alone it says nothing
    qualifies: bool = False
    #: the page was cut off (``body truncated``): the reader saw part of it; no access problem
    truncates: bool = False
    #: the source was never opened (``没打开``): no partial read can be of it
    unopened: bool = False


@cache
def _table() -> dict[str, Any]:
    """``markers.toml`` as parsed (read once: its phrases and its shapes are both made from it)."""
    raw = resources.files("e1prep.data").joinpath("markers.toml").read_text(encoding="utf-8")
    return tomllib.loads(raw)


#: the flags a row of the table may set, a phrase row or a shape row alike (each a field of :class:`Marker`)
_FLAGS = ("access", "explains", "weak", "qualifies", "truncates", "unopened")


def _flags(row: dict[str, Any]) -> dict[str, bool]:
    return {flag: bool(row.get(flag, False)) for flag in _FLAGS}


@cache
def markers() -> tuple[Marker, ...]:
    """All rows of the table, longest text first (so the longest marker wins at one place)."""
    rows = _table()["marker"]
    out: list[Marker] = []
    for row in rows:
        kind = row["kind"]
        if kind not in ALL_KINDS:
            raise ValueError(f"markers.toml: unknown kind {kind!r}")
        for text in row["text"]:
            out.append(Marker(text, kind, EvidenceLevel(row["level"]), row["lang"], **_flags(row)))
    return tuple(sorted(out, key=lambda m: -len(m.text)))


def of_kind(*kinds: str) -> tuple[Marker, ...]:
    return tuple(m for m in markers() if m.kind in kinds)


def texts(*kinds: str) -> tuple[str, ...]:
    """The marker words of some kinds, longest first."""
    return tuple(m.text for m in of_kind(*kinds))


_WORDLIKE = re.compile(r"[a-z0-9][a-z0-9 '\-]*[a-z0-9]|[a-z0-9]")


@cache
def _regex(kinds: frozenset[str]) -> re.Pattern[str]:
    """One alternation in linear time: word-like ASCII markers behind one word-boundary guard, the
    others grouped by first character behind a character-class guard; longest first within each."""
    words: dict[str, list[str]] = {}
    others: dict[str, list[str]] = {}
    for m in markers():
        if m.kind not in kinds:
            continue
        low = m.text.lower()
        target = words if _WORDLIKE.fullmatch(low) else others
        target.setdefault(low[0], []).append(re.escape(low))

    def grouped(groups: dict[str, list[str]]) -> str:
        firsts = "".join(re.escape(c) for c in groups)
        alts = "|".join(
            f"{re.escape(c)}(?:{'|'.join(p[len(re.escape(c)) :] for p in pats)})" for c, pats in groups.items()
        )
        return f"(?=[{firsts}])(?:{alts})"

    parts = []
    if words:
        parts.append(rf"(?<![a-z0-9]){grouped(words)}(?![a-z0-9])")
    if others:
        parts.append(grouped(others))
    return re.compile("|".join(parts))


@dataclass(frozen=True)
class Hit:
    start: int
    end: int
    marker: Marker


@cache
def _by_text() -> dict[str, Marker]:
    out: dict[str, Marker] = {}
    for m in markers():
        out.setdefault(m.text.lower(), m)
    return out


@dataclass(frozen=True)
class Pattern:
    """A table row that names a shape of words rather than one phrase (``只看了…摘要``)."""

    regex: re.Pattern[str]  # one table row: its shapes as one alternation
    proto: Marker  # what a match means; its text is the matched words
    folded: bool  # matched on the lower-cased text (else on the text as written)

    def marker(self, words: str) -> Marker:
        return replace(self.proto, text=words)


@cache
def patterns() -> tuple[Pattern, ...]:
    out = []
    for row in _table().get("pattern", []):
        if row["kind"] not in ALL_KINDS:
            raise ValueError(f"markers.toml: unknown kind {row['kind']!r}")
        proto = Marker(
            "",
            row["kind"],
            EvidenceLevel(row["level"]),
            row["lang"],
            **_flags(row),
        )
        folded = not row.get("case", False)
        joined = "|".join(f"(?:{rx})" for rx in row["regex"])
        out.append(Pattern(guarded(joined, re.I if folded else 0), proto, folded))
    if "truncation" in _table():
        out.append(_truncation_clause(_table()["truncation"]))
    return tuple(out)


#: within one clause: no clause-ending punctuation between what was cut and that it was cut
_IN_CLAUSE = r"[^,.;:!?，。；：！？|（）()【】\n]"


def _truncation_clause(rows: dict[str, list[str]]) -> Pattern:
    """``[truncation]`` of the table as one shape: what was cut (``part``) and that it was cut (``cut``),
    in either order within one clause (``the text was only partly shown``, ``正文只显示了前两段``)."""
    part = "|".join(f"(?:{rx})" for rx in rows["part"])
    cut = "|".join(f"(?:{rx})" for rx in rows["cut"])
    # the nearest part before the cut (``原文读完，但正文被截断``: the body, not the original), so no part
    # word stands in between
    gap = f"(?:(?!{part}){_IN_CLAUSE})"
    joined = f"(?:{part}){gap}{{0,24}}?(?:{cut})|(?:{cut}){_IN_CLAUSE}{{0,6}}?(?:{part})"
    proto = Marker("", "limitation", EvidenceLevel.partial, "any", truncates=True)
    return Pattern(guarded(joined, re.I), proto, True)


@cache
def _gates() -> Gates:
    """The shape rows' gates, and last the phrases' (index ``_phrases_gate()``): one literal scan tells
    which rows, and whether any phrase, can match a text at all. The phrases are matched on the
    lower-cased text, so their gate is given them case-insensitively; it holds for the phrases of any kinds."""
    phrases = "|".join(re.escape(m.text.lower()) for m in markers())  # each phrase whole: its own literal
    return Gates([*(p.regex for p in patterns()), Source(phrases, re.I)])


def _phrases_gate() -> int:
    """The phrases' index among the gates (after every shape row)."""
    return len(patterns())


def find(text: str, kinds: frozenset[str] = ALL_KINDS) -> list[Hit]:
    """Non-overlapping marker occurrences in ``text``, left to right (the longest at a place).

    Phrases and shapes (``[[pattern]]`` rows) both count; where two overlap the longer one stands.
    Answers are remembered per text (a dump repeats its lines; a line is read by several readers).
    """
    return list(_find(text, kinds))


#: the reader, the rules, the detectors and the verifier ask for the same texts (a 2 MB batch asks for
#: some 30,000 distinct ones): each is read once per run
@run_memo
def _find(text: str, kinds: frozenset[str]) -> tuple[Hit, ...]:
    """The hits in the reader's view of ``text`` (:func:`visible.projection`), placed where they were written."""
    view = visible.projection(text)
    hits = _find_in_view(view.text, kinds)
    if view.origin is None or not hits:
        return hits
    return tuple(Hit(*view.span(h.start, h.end), h.marker) for h in hits)


def _find_in_view(text: str, kinds: frozenset[str]) -> tuple[Hit, ...]:
    opened = _gates().open(text)  # most lines hold no row's nor phrase's required words: one literal scan
    if not opened:
        return ()
    low = text.lower()
    phrases = _phrases_gate()
    found: list[Hit] = []
    if phrases in opened:
        table = _by_text()
        found = [Hit(m.start(), m.end(), table[m.group(0)]) for m in _regex(frozenset(kinds)).finditer(low)]
    rows = patterns()
    for n in sorted(opened):
        if n == phrases:
            continue
        p = rows[n]
        if p.proto.kind not in kinds:
            continue
        for m in p.regex.finditer(low if p.folded else text):
            if m.end() > m.start():
                found.append(Hit(m.start(), m.end(), p.marker(m.group(0))))
    found = [h for h in found if not _in_code(low, h) and not _someone_elses_opinion(low, h)]
    if not found:
        return ()  # most texts: nothing to qualify, weigh or order
    hits = _settled(text, low, found)
    full = any(h.marker.kind == "full" for h in hits)
    if full:
        hits = tuple(_governed(low, h) for h in hits)
    if any(h.marker.kind == "hedge" for h in hits):
        g = governing()
        # after a full read, ranking what is worth most in it is an opinion too (``我觉得最值钱的是…``);
        # without one, it would make a title seen in passing worth drafting
        worth = full and g.values.search(low) is not None
        if worth or g.judges.search(low):
            hits = tuple(h for h in hits if h.marker.kind != "hedge" or not _judges_the_item(low, h, worth=worth))
    return hits


def _in_code(low: str, hit: Hit) -> bool:
    """Whether a hit is a word of code, no statement about a reading: a call or an attribute (``summary()``,
    ``res.summary(…)``) or part of an identifier (``read_abstract``); ``abstract(s) only`` is prose."""
    if not low[hit.start : hit.end].isascii():
        return False  # a CJK word before a bracket is prose (``摘要(只看了)``)
    before = low[hit.start - 1] if hit.start else " "
    after = low[hit.end] if hit.end < len(low) else " "
    return before == "_" or after == "_" or low.startswith("()", hit.end) or (before == "." and after not in " \t")


#: a word before a verb of opinion, as its subject is read (``SecAgg+``, ``i'd``)
_WORD_BEFORE = re.compile(r"[\w'’+#./-]+")


@cache
def _opinion() -> tuple[re.Pattern[str], frozenset[str], frozenset[str]]:
    """``[opinion]`` of the table: its verbs (as one pattern), the words that make one the writer's, the words
    between a subject and its verb."""
    rows = _table()["opinion"]
    verbs = re.compile(rf"(?:{'|'.join(map(re.escape, rows['verbs']))})s?")
    return verbs, frozenset(rows["writer"]), frozenset(rows["between"])


#: how many words before a verb of opinion its subject is looked for (``I do not think``, ``we already believe``)
_SUBJECT_REACH = 3


def _someone_elses_opinion(low: str, hit: Hit) -> bool:
    """Whether a verb of opinion has a subject other than the writer (``Existing SecAgg+ assume dense vectors``,
    ``the authors believe``, ``VLM "think" 3 Hz``): what others hold is no doubt about the writer's reading. The
    writer holds it when one of the three words before it in its clause, past ``don't``, ``really`` and the like, is
    the writer's (``I do not think``, ``we already believe``, ``my guess``), or when it opens its clause (``assume
    it's v2``)."""
    if hit.marker.kind != "hedge":
        return False
    verbs, writer, between = _opinion()
    if not verbs.fullmatch(low[hit.start : hit.end]):
        return False
    words = [w.replace("’", "'") for w in _WORD_BEFORE.findall(low[_clause_start(low, hit.start) : hit.start])]
    near = [w for w in words if w not in between][-_SUBJECT_REACH:]
    return bool(near) and not writer.intersection(near)


#: a number with nothing after it (``1.2``, ``3.2``): in a filing clause, a section's number
_BARE_NUMBER = re.compile(r"[\d.]+")


def _judges_the_item(low: str, hit: Hit, *, worth: bool = False) -> bool:
    """Whether a hedge stands in a clause that judges the item's filing (``我觉得这篇值得进 wiki``, ``1.2 可以把
    Quillon 放在最前面？``) or, given ``worth``, opens a ranking of its worth (``我觉得最值钱的是…``), and speaks of
    none of its numbers or results: the writer's opinion on the item, not a doubt about it (``放进文档前我不确定
    3 倍这个数对不对`` doubts; so does a hedge after the ranking, ``the most interesting part is maybe wrong?``)."""
    g = governing()
    start = _clause_start(low, hit.start)
    end = _CLAUSE_END.search(low, hit.end)
    clause = low[start : end.end() if end else len(low)]
    judged = g.judges.search(clause) is not None
    if not judged and worth and (ranked := g.values.search(clause)) is not None:
        judged = hit.end - start <= ranked.start()
    if not judged or g.numbers.search(clause) is not None:
        return False
    return not any(t.kind == "quantity" and not _BARE_NUMBER.fullmatch(t.text) for t in scan(clause))


def _settled(text: str, low: str, found: list[Hit]) -> tuple[Hit, ...]:
    """The hits that stand: qualifying clauses only after a full read, status codes not part of a
    number, and of overlapping hits the one that lowers, else the longer, left to right."""
    if any(h.marker.qualifies for h in found):
        found = [h for h in found if not h.marker.qualifies or _after_full_read(low, h, found)]
    if any(_is_status_code(h) for h in found) and len(low) == len(text):
        found = [h for h in found if not _is_status_code(h) or not _part_of_a_number(text, h)]
    if len(found) < 2:
        return tuple(found)
    found.sort(key=lambda h: (h.start, -(h.end - h.start)))
    out: list[Hit] = []
    for h in found:  # one sweep: of two overlapping hits the one that lowers stands, else the longer
        if out and h.start < out[-1].end:
            if _outranks(h, out[-1]):
                out[-1] = h
            continue
        out.append(h)
    return tuple(out)


@dataclass(frozen=True)
class Governing:
    """``[governing]`` of the table: words that make a stated check a condition, a plan, a question or
    work in progress (each an alternation), and the parts a parenthesis may narrow a full read to."""

    condition: re.Pattern[str]
    indirect: re.Pattern[str]
    reported: re.Pattern[str]
    before: re.Pattern[str]
    right_before: re.Pattern[str]
    speech: re.Pattern[str]
    first_person: re.Pattern[str]
    maybe_past: re.Pattern[str]
    done: re.Pattern[str]
    after: re.Pattern[str]
    right_after: re.Pattern[str]
    clause_end: re.Pattern[str]
    judges: re.Pattern[str]
    values: re.Pattern[str]
    numbers: re.Pattern[str]
    parts: re.Pattern[str]
    whole: re.Pattern[str]


@cache
def governing() -> Governing:
    rows = _table()["governing"]

    def alt(key: str, template: str = "(?:{})") -> re.Pattern[str]:
        return re.compile(template.format("|".join(f"(?:{rx})" for rx in rows[key])), re.I)

    return Governing(
        condition=alt("condition"),
        indirect=alt("indirect", r"(?:{})\s*$"),
        reported=alt("reported"),
        before=alt("before"),
        right_before=alt("right_before", r"(?:{})\s*$"),
        speech=alt("speech"),
        first_person=alt("first_person"),
        maybe_past=alt("maybe_past"),
        done=alt("done", r"^(?:{})"),
        after=alt("after"),
        right_after=alt("right_after", r"^(?:{})"),
        clause_end=alt("clause_end", r"(?:{})\s*$"),
        judges=alt("judges"),
        values=alt("values"),
        numbers=alt("numbers"),
        parts=alt("parts"),
        whole=alt("whole"),
    )


#: where a sentence ends: a condition governs the whole sentence it stands in
_SENTENCE_END = re.compile(r"[。;；!！?？\n|]|\.(?:\s|$)")
#: where a clause ends: the other governing words of a check are read inside its own clause only
#: a spaced slash parts a one-liner's fields (``代码说 camera-ready 后放 / 【全文读完】``) as a cell's pipe does
_CLAUSE_END = re.compile(r"[，,。;；!！?？\n|]|\.(?:\s|$)|\s/\s")
#: where an indirect question (``to know if …``) ends: a clause's end or a dash
_QUESTION_END = re.compile(r"[，,。;；!！?？\n|—–]|\.(?:\s|$)")


def reported(text: str, hit: Hit) -> bool:
    """Whether a hedge at ``hit`` stands in a clause that reports what the source argues (``argues every
    benchmark should ship a canary``): the source's own modality, not the writer's doubt."""
    return governing().reported.search(text, _clause_start(text, hit.start), hit.start) is not None


def _clause_start(text: str, at: int) -> int:
    """Where the clause that holds ``text[at]`` starts (after the last clause end before it)."""
    return max((m.end() for m in _CLAUSE_END.finditer(text, 0, at)), default=0)


def _governed(low: str, hit: Hit) -> Hit:
    """A read of a text that holds a full read, as its sentence reads it. The full read: a hedge when a condition,
    plan, question, work in progress or someone else's word governs it, ``partial`` when a parenthesis right after
    it names a part, else itself. A partial read someone else is reported to have made (``他自己也说只看了
    abstract``): a relay, their check and not the writer's."""
    if hit.marker.kind == "partial":
        start = _clause_start(low, hit.start)
        if _reported_check(governing(), low[start : hit.start]):
            return Hit(hit.start, hit.end, replace(hit.marker, kind="relay", level=EvidenceLevel.unverified))
        return hit
    if hit.marker.kind != "full":
        return hit
    g = governing()
    sentence_start = max((m.end() for m in _SENTENCE_END.finditer(low, 0, hit.start)), default=0)
    sentence_end_m = _SENTENCE_END.search(low, hit.end)
    sentence_end = sentence_end_m.start() if sentence_end_m else len(low)
    # a condition anywhere in its sentence governs the read, unless it asks what the reader looked for
    # (``to see if they fixed it``: an indirect question, "whether"); a read inside that question, before a
    # clause or a dash ends it, is what is asked (``check if they read it in full``)
    conditions = [
        *g.condition.finditer(low, sentence_start, hit.start),
        *g.condition.finditer(low, hit.end, sentence_end),
    ]
    if any(
        not g.indirect.search(low, sentence_start, m.start())
        or (m.end() <= hit.start and not _QUESTION_END.search(low, m.end(), hit.start))
        for m in conditions
    ):
        return Hit(hit.start, hit.end, replace(hit.marker, kind="hedge", level=EvidenceLevel.unverified))
    start = _clause_start(low, hit.start)
    end_m = _CLAUSE_END.search(low, hit.end)
    end = end_m.start() if end_m else len(low)
    before, after = low[start : hit.start], low[hit.end : end]
    if (
        g.before.search(before)
        or _reported_check(g, before)
        or (g.maybe_past.search(before) and not g.done.match(after))
        or g.right_before.search(before)
        or g.after.search(after)
        or g.right_after.match(after)
        or g.clause_end.search(after)
    ):
        return Hit(hit.start, hit.end, replace(hit.marker, kind="hedge", level=EvidenceLevel.unverified))
    if hit.marker.kind == "full":
        narrowed = _PAREN.match(low, hit.end)
        if narrowed and g.parts.search(narrowed.group(1)) and not g.whole.search(narrowed.group(1)):
            return Hit(hit.start, narrowed.end(), replace(hit.marker, kind="partial", level=EvidenceLevel.partial))
    return hit


def _reported_check(g: Governing, before: str) -> bool:
    """Whether a check's clause, before it, reports someone's word that it happened (``Tom 说原文读过了``),
    not the writer's own check that follows their word (``先说我读到哪一层：我把全文读完了``)."""
    said = [m.end() for m in g.speech.finditer(before)]
    return bool(said) and not g.first_person.search(before, said[-1])


_PAREN = re.compile(r"\s?[（(]([^）)\n]{1,40})[）)]")


def _is_status_code(hit: Hit) -> bool:
    return hit.marker.access and hit.marker.text.isdigit()


def _part_of_a_number(text: str, hit: Hit) -> bool:
    """Whether the number grammar reads a status code's digits as part of something else: an issue
    or pull request (``#404``, ``issue 404``), an ordinal (``第 403 期``, ``No. 429``), a name
    (``WP-502``), a version, a date, a count, price or share (``503 篇``, ``¥429``, ``401%``), or the
    counter of a running label (``指标 401：``, beside ``指标 400：``). A bare number
    (``返回 403``, ``HTTP 404``) stays a status, and so does one before a measure (``429 s``,
    ``403 ms``, ``404 倍``): in doubt, the page was not read."""
    line = text.rfind("\n", 0, hit.start) + 1  # a number stands within its line: only that line is read
    end = text.find("\n", hit.end)
    starts, tokens = _number_tokens(text[line : len(text) if end < 0 else end])
    n = bisect.bisect_right(starts, hit.start - line) - 1  # tokens stand apart, in order: only this one may hold it
    if n < 0 or line + tokens[n].end < hit.end:
        return False
    tok = tokens[n]
    if tok.kind == "quantity":  # a count of something, a price or a share; a bare number stays a status
        return tok.type in ("money", "percent") or (tok.type == "count" and bool(tok.unit))
    if _BARE_STATUS.fullmatch(tok.text):
        return _label_counter(text, line, line + tok.start, line + tok.end)
    return True


#: a line led by a label: a word and a counter before a colon (``指标 401：``, ``Case 12:``)
_COUNTER_LABEL = re.compile(
    r"^[ \t]*(?:[-*+>][ \t]+)?(?:\*\*)?(?P<prefix>[\u3400-\u9fff]{1,4}|[A-Za-z]{1,12})[ \t]*(?P<counter>\d{1,6})"
    r"(?:\*\*)?[ \t]*[:：]",
    re.M,
)


def _label_counter(text: str, line: int, start: int, end: int) -> bool:
    """Whether the number at ``start:end`` counts the label that leads its line (which starts at ``line``:
    ``指标 401：吞吐…``) in a run of sibling labels: one prefix, several counters, not all of them status
    codes. A list of statuses (``HTTP 401:``, ``HTTP 403:``) or a lone ``返回 401：`` stays a status."""
    m = _COUNTER_LABEL.match(text, line)
    if m is None or m.start("counter") != start or m.end("counter") != end:
        return False
    return m.group("prefix").casefold() in _running_labels(text)


@lru_cache(maxsize=64)
def _running_labels(text: str) -> frozenset[str]:
    """The label prefixes of a text whose counters run: two or more, one at least not a status code."""
    counters: dict[str, set[str]] = {}
    for m in _COUNTER_LABEL.finditer(text):
        counters.setdefault(m.group("prefix").casefold(), set()).add(m.group("counter"))
    statuses = {mk.text for mk in markers() if mk.access and mk.text.isdigit()}
    return frozenset(
        prefix for prefix, seen in counters.items() if prefix != "http" and len(seen) >= 2 and not seen <= statuses
    )


@lru_cache(maxsize=64)
def _number_tokens(text: str) -> tuple[list[int], tuple[NumberToken, ...]]:
    """A line's number tokens and where each starts, once per line: a status code is looked up among them
    (an item of thousands of ``返回 404`` lines walked every token of the item for each)."""
    tokens = tuple(scan(text))
    return [t.start for t in tokens], tokens


_BARE_STATUS = re.compile(r"(?:HTTP\s?)?\d{3}", re.I)


def _after_full_read(low: str, hit: Hit, hits: list[Hit]) -> bool:
    """Whether a full-read statement stands before ``hit`` in the same line or table cell."""
    start = max(low.rfind("\n", 0, hit.start), low.rfind("|", 0, hit.start), low.rfind("<br", 0, hit.start)) + 1
    return any(h.marker.kind == "full" and start <= h.start < hit.start for h in hits)


def _outranks(new: Hit, old: Hit) -> bool:
    """Of two overlapping hits, a lowering or negating one beats a positive one (``没读完全文``), and
    of two alike the more restrictive level, then the longer."""
    new_pos, old_pos = new.marker.kind in POSITIVE_KINDS, old.marker.kind in POSITIVE_KINDS
    if new_pos != old_pos:
        return old_pos
    if (new.marker.kind == "negation") != (old.marker.kind == "negation"):
        return old.marker.kind == "negation"  # a stated limitation says more than a bare negator
    if new.marker.level is not old.marker.level:  # the more restrictive reading stands
        return RANK[new.marker.level] < RANK[old.marker.level]
    return new.end - new.start > old.end - old.start


#: a URL as it stands in prose: it ends at a blank, and at the CJK text or full-width punctuation that runs on
#: after it with no blank (``…/2701.18842），正文加附录我从头读到尾``: the read is the writer's, not the URL's)
_URL = re.compile(r"(?:https?://|www\.)[^\s\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+")
_OPEN_QUOTES = '「『“"‘'
_CLOSE_QUOTES = '」』”"’'


def strip_urls(text: str) -> str:
    """URLs out (a ``?`` in a query string is not a question), and the options a form's row of checkboxes
    leaves unchecked (``阅读程度：[x] 全文　[ ] 一部分　[ ] 只看了摘要``: only the checked one is stated)."""
    text = _URL.sub(" ", text)
    if "[ ]" not in text:
        return text
    return "\n".join(_checked_only(line) if "[ ]" in line else line for line in text.split("\n"))


#: a checkbox, and an unchecked option (its box and its words, up to the next box or a wide space)
_BOX = re.compile(r"\[[ xX✓✔]\]")
_UNCHECKED = re.compile(r"\[ \][ \t]*[^\[\]\n　|]*")


def _checked_only(line: str) -> str:
    """A line of two or more checkboxes (a form's options) with its unchecked options out."""
    return _UNCHECKED.sub(" ", line) if len(_BOX.findall(line)) >= 2 else line


def in_quotes(text: str, at: int) -> bool:
    """Whether position ``at`` stands in someone else's words or in markup that is not the writer's own
    statement: quotation marks, inline code, a fenced code block, a ``>`` quote, or a link's text."""
    line_start = text.rfind("\n", 0, at) + 1
    before = text[line_start:at]
    opened = 0
    for ch in before:
        if ch in "「『“‘":
            opened += 1
        elif ch in "」』”’" and opened:
            opened -= 1
    straight = before.count('"') % 2 == 1
    return opened > 0 or straight or _in_markup(text, line_start, at)


_QUOTE_LINE = re.compile(r"\s{0,3}(?:[-*+]\s+)?>")
_FENCE = re.compile(r"^\s{0,3}(?:```|~~~)", re.M)


def _in_markup(text: str, line_start: int, at: int) -> bool:
    """Inline code (an odd number of backticks before ``at`` on its line), a link's text (an open ``[``
    whose ``](`` follows), a ``>`` quote line, or the inside of a fenced code block."""
    before = text[line_start:at]
    if before.count("`") % 2 == 1 or (_QUOTE_LINE.match(text, line_start) and not _own_note(text, line_start)):
        return True
    if before.rfind("[") > before.rfind("]"):
        line_end = text.find("\n", at)
        if "](" in text[at : line_end if line_end >= 0 else len(text)]:
            return True
    opened = text[:line_start]
    return ("```" in opened or "~~~" in opened) and len(_FENCE.findall(text, 0, line_start)) % 2 == 1


#: a quote set in under a list entry, by its indentation (``  > Read the paper end to end …``)
_NESTED_QUOTE = re.compile(r"[ \t]{2,}>")


@cache
def _first_person() -> re.Pattern[str]:
    """The writer's own person, as ``[own_note]`` of the table lists it (``I``, ``my``, ``we``, ``我``): Latin
    words whole, as written."""
    words = _table()["own_note"]["first_person"]
    latin = [re.escape(w) for w in words if w.isascii()]
    other = [re.escape(w) for w in words if not w.isascii()]
    return re.compile("|".join([rf"\b(?:{'|'.join(latin)})\b", *other]))


def _own_note(text: str, line_start: int) -> bool:
    """Whether a ``>`` line is the writer's own note on a list entry, not someone's words: set in under the entry,
    and speaking in the first person (``  > Read the paper end to end … I did not run the code``)."""
    line_end = text.find("\n", line_start)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    return _NESTED_QUOTE.match(line) is not None and _first_person().search(line) is not None


def negated(text: str, hit: Hit, hits: list[Hit]) -> bool:
    """A negator right before a positive marker (``未读原文``, ``did not read the original``)."""
    for other in hits:
        if other.marker.kind not in ("negation", "hedge", "unverified") or other.end > hit.start:
            continue
        gap = visible.projection(text[other.end : hit.start]).text  # the gap as seen: emphasis is no distance
        if "\n" in gap.strip(" \t") and "\n" not in text[other.start : other.end]:
            continue  # a negator ends with its line: the next line's read is another statement
        if other.marker.lang == "zh" and len(gap.strip()) <= 2:
            return True
        if other.marker.lang == "en" and len(gap) <= 12 and not re.search(r"[;；。，,.]", gap):
            return True
    return False


#: the limitations that say what the reading was only (``只看摘要``, ``only the abstract``): a negator right
#: before one denies it (``不是只看摘要``, ``not only the abstract``)
_DENIABLE = frozenset({"summary", "snippet"})


#: the negators that say what something is not (``not``, ``no``, ``不是``, ``非``), and the gap after one that
#: still names what it is not (``not a chip vendor``, ``不是厂商``); ``don't trust vendor numbers`` is no such
_NOT_BEING = frozenset({"not", "no", "不是", "非"})
_NOT_A = re.compile(r"\s*(?:(?:a|an|the)\s+(?:[A-Za-z-]+\s+)?)?", re.I)


def denied(text: str, hit: Hit, hits: list[Hit]) -> bool:
    """A limitation denied by a negator right before it, as :func:`negated` places one (``附录也翻了，不是只看
    摘要``): it says what the reading was not, and limits nothing."""
    negators = [h for h in hits if h.marker.kind == "negation"]
    if hit.marker.kind == "vendor":
        # who the source is not (``not a chip vendor``, ``不是厂商``): a negation of being, right before it
        return any(
            other.end <= hit.start
            and text[other.start : other.end].lower() in _NOT_BEING
            and _NOT_A.fullmatch(text[other.end : hit.start]) is not None
            for other in negators
        )
    if hit.marker.kind not in _DENIABLE:
        return False
    return negated(text, hit, negators)


def expand_symbols(text: str, legend: Mapping[str, str] | None) -> str:
    """The item's text with each symbol of its note's legend followed by the legend's words for it."""
    if not legend:
        return text
    out = text.replace("\ufe0f", "")
    for sym in sorted(legend, key=len, reverse=True):
        if len(sym) > 1 or not sym.isalnum():
            out = out.replace(sym, f" {legend[sym]} ")
    return out


#: a heading or a bold line of three words at most (``### Doubts``, ``**Limitations**``), the bold one maybe
#: in a quoted block after its sign (a highlight block's title, ``> 💡 **高亮 · 一句话**``)
_PART_NAME = re.compile(
    r"[ \t]*(?:>[ \t]*(?:[^\w\s*#>]{1,3}[ \t]*)?(?=\*\*))?"
    r"(?P<mark>#{1,6}[ \t]+|\*\*)(?:[^\s*#:：。.!?！？；;,，]{1,16}[ \t]+){0,2}[^\s*#:：。.!?！？；;,，]{1,16}"
    r"(?:\*\*)?[ \t]*[:：]?(?:\*\*)?[ \t]*"
)


def without_part_names(text: str) -> str:
    """``text`` with the lines that name parts of the writer's note blanked (offsets kept): sibling headings,
    or sibling bold lines, of three words at most below the item's first line (``### Method`` / ``### Results``
    / ``### Doubts``). They name what follows (the writer's critique); they state nothing about the reading.
    A lone short heading, and the item's own title line, are read as they stand."""
    if "#" not in text and "**" not in text:
        return text
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), -1)
    named = {
        i: m.group("mark").strip() for i, line in enumerate(lines) if i != first and (m := _PART_NAME.fullmatch(line))
    }
    kinds = Counter(named.values())
    parts = [i for i, mark in named.items() if kinds[mark] >= 2]
    if not parts:
        return text
    for i in parts:
        lines[i] = " " * len(lines[i])
    return "\n".join(lines)


def plain_quotable(text: str, legend: Mapping[str, str] | None = None, *, scoped: bool = False) -> tuple[bool, str]:
    """The verifier's plain rule over an item's whole text: (quotable?, the words that decided).

    The note's legend symbols are replaced by their legend words first (``✔`` → ``全文读过``), so a
    symbol counts exactly as the words the note defines it by; nothing else of the reader is used.

    Quotable only if some full-read marker stands un-negated and outside quotation marks, no full-read
    marker anywhere is negated or quoted (``没有读完全文``, ``作者说「原文已读」``), and no marker of a lowering
    kind (partial, summary, snippet, vendor, limitation, unverified, do-not-quote, hedge, relay), unless
    denied (``不是只看摘要``: :func:`denied`), reaches the item: anywhere in it but the lines that name parts of
    the note (``### Doubts`` beside ``### Method``: :func:`without_part_names`), or with ``scoped`` (the
    verifier's reading) anywhere but a clause of another object or a bullet of its own numbers
    (``read.scope``), which limit only what they speak of.
    """
    body = strip_urls(without_part_names(expand_symbols(text, legend)))
    hits = find(body)  # every lowering word counts here, the bare ones (``摘要``) too: this rule stays simple
    lowering = next(
        (
            h
            for h in hits
            if h.marker.kind in LOWERING_KINDS and not denied(body, h, hits) and not (scoped and _scoped(body, h))
        ),
        None,
    )
    if lowering is not None:
        return False, lowering.marker.text
    full = [h for h in hits if h.marker.kind == "full"]
    refused = next((h for h in full if negated(body, h, hits) or in_quotes(body, h.start)), None)
    if refused is not None:
        return False, refused.marker.text
    return (True, full[0].marker.text) if full else (False, "")


def plain_level(text: str, legend: Mapping[str, str] | None = None, *, scoped: bool = False) -> EvidenceLevel:
    """The level the plain rule gives an item: ``verified`` when quotable, else the strictest level stated.
    ``scoped``: a limitation reaches only as far as its clause (``read.scope``); the verifier reads so."""
    ok, _ = plain_quotable(text, legend, scoped=scoped)
    if ok:
        return EvidenceLevel.verified
    body = strip_urls(without_part_names(expand_symbols(text, legend)))
    hits = find(body)  # the negators a denial needs (``不是只看摘要``)
    levels = [
        h.marker.level
        for h in find(body, LOWERING_KINDS)
        if not denied(body, h, hits) and not (scoped and _scoped(body, h))
    ]
    if any(h.marker.kind == "full" for h in find(body, frozenset({"full"}))) and not levels:
        return EvidenceLevel.unverified  # a full read that is negated or quoted
    return strictest(*levels) if levels else EvidenceLevel.unverified


def _scoped(body: str, hit: Hit) -> bool:
    """Whether a lowering statement reaches less than the whole item (``read.scope``)."""
    return hit.start in _scoped_starts(body)


@run_memo
def _scoped_starts(body: str) -> frozenset[int]:
    """Where the lowering statements of an item's text start that reach less than the whole item, read
    once per text (a dump repeats its items word for word, less their URLs)."""
    return frozenset(h.start for h in find(body) if h.marker.kind in LOWERING_KINDS and _reaches_less(body, h))


def _reaches_less(body: str, hit: Hit) -> bool:
    """A statement of another object, or of a bullet's own numbers, or a summary read with the body; a
    relayed check never (it is about the check itself)."""
    if hit.marker.kind == "relay":
        return False
    if hit.marker.kind in ("summary", "partial") and scope.read_with_body(body, hit.start, hit.end):
        return True
    if hit.marker.kind in ("vendor", "summary", "partial"):  # about the claims or the reading themselves
        return scope.in_own_numbered_block(body, hit.start, hit.end)
    return scope.other_object(body, hit.start, hit.end) is not None or scope.in_own_numbered_block(
        body, hit.start, hit.end
    )


def scoped_limits(text: str, legend: Mapping[str, str] | None = None) -> tuple[tuple[str, EvidenceLevel], ...]:
    """The limitations of an item that speak of another object: (the object's word, their level). A line
    that names the object carries the limitation (``仓库没打开`` limits what is said of the repository)."""
    body = strip_urls(expand_symbols(text, legend))
    out: dict[str, EvidenceLevel] = {}
    for h in find(body):
        if h.marker.kind not in LOWERING_KINDS or h.marker.kind in ("relay", "vendor", "summary", "partial"):
            continue
        word = scope.other_object(body, h.start, h.end)
        if word is not None:
            key = word.casefold()
            out[key] = strictest(out[key], h.marker.level) if key in out else h.marker.level
    return tuple(out.items())


def block_level(block: str) -> EvidenceLevel | None:
    """The strictest level any lowering statement of a bullet imposes on the bullet's own numbers (a
    hedge or a limitation there limits that claim: ``吞吐提升 3 倍（待确认）``), except a statement of
    another object; None when it states none."""
    return _block_level(strip_urls(block))


@run_memo
def _block_level(body: str) -> EvidenceLevel | None:
    levels = [  # every kind is found first: a qualifying clause stands only after a full read beside it
        h.marker.level
        for h in find(body)
        if h.marker.kind in LOWERING_KINDS
        and (
            h.marker.kind in ("relay", "vendor", "summary", "partial")
            or scope.other_object(body, h.start, h.end) is None
        )
    ]
    return strictest(*levels) if levels else None


def claims_about(block: str, word: str) -> bool:
    """Whether a bullet says something of ``word``'s object in a sentence that is no statement about
    the reading itself (the sentence that excepts the object from the reading limits nothing)."""
    low = block.casefold()
    if word not in low:
        return False
    return any(word in part.casefold() and not find(part, LOWERING_KINDS) for part in scope.sentences(block))


def line_level(line: str, *, scoped: bool = False) -> EvidenceLevel | None:
    """A level a single line's own words impose on its numbers: vendor, then snippet or an access
    problem, then summary, then unverified / do-not-quote / relayed (None: the line states none).
    ``scoped``: a statement of another object (``read.scope``) imposes nothing on the line's numbers."""
    body = strip_urls(line)
    hits = find(body)
    if scoped:
        hits = [
            h
            for h in hits
            if h.marker.kind in ("relay", "vendor", "summary", "partial")
            or scope.other_object(body, h.start, h.end) is None
        ]
    if not hits:  # most lines state nothing
        return None
    kinds = {h.marker.kind for h in hits} | {"access" for h in hits if h.marker.access}
    for want, level in (
        ("vendor", EvidenceLevel.vendor),
        ("snippet", EvidenceLevel.snippet),
        ("access", EvidenceLevel.snippet),
        ("summary", EvidenceLevel.summary),
        ("unverified", EvidenceLevel.unverified),
        ("noquote", EvidenceLevel.unverified),
        ("relay", EvidenceLevel.unverified),
    ):
        if want in kinds:
            return level
    return None
