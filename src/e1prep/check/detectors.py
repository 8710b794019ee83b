"""Cross-document detectors: small pure functions over the materials and the living document.

Each returns ``Contradiction`` or ``Refresh`` objects with sources, evidence levels, the numbers
involved (as citations) and a suggested action, worded in the brief's language (``say``). They run
inside ``draft`` for every backend.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from ..brief.models import (
    Contradiction,
    ContradictionKind,
    CountChange,
    EvidenceLevel,
    MaterialKind,
    MaterialStatus,
    NumberCitation,
    Refresh,
    SourceRef,
)
from ..brief.phrases import Phrases, phrases
from ..kb.knowledge import KnowledgeDoc
from ..kb.loading import KB, Material, card_field_line, card_repo, card_section
from ..read.identity import short_title
from ..read.instructions import INSTRUCTION
from ..read.markers import RANK
from ..read.notes import NoteItem, blocks, is_stale, line_evidence, note_items
from ..read.numbers import NumberToken, parse_value, quantities
from ..read.quotes import QUOTE_WHOLE_MAX, quote_around
from ..text.regexgate import guarded
from ..text.textindex import terms
from .grouping import GROUP_MIN, Registration, group_contradictions

CARD_SECTIONS_MIN_OVERLAP = 0.0  # overlap alone is no signal across languages; the kind clash decides

_STARS = re.compile(r"(\d[\d,]*)\s*⭐")
_WEEKLY = re.compile(r"周增\s*([+\-]?\d[\d,]*)")
_DATE = re.compile(r"(20\d{2}-\d{2}-\d{2})")
#: a repository's display name in parentheses right after it (``owner/repo（Name）``)
_ASIDE = re.compile(r"\s*[（(]([^）)，,]{1,40})[）)]", re.I)


@dataclass(frozen=True)
class Findings:
    contradictions: list[Contradiction]
    refreshes: list[Refresh]


def _cite(text: str, level: EvidenceLevel, path: str, quote: str, line: int | None = None) -> NumberCitation:
    return NumberCitation(
        text=text,
        value=parse_value(text),
        unit=None,
        evidence=level,
        source=SourceRef(path=path, line_start=line, line_end=line, quote=quote.strip()),
        quotable=level.quotable,
    )


def _int(value: object) -> int | None:
    try:
        return int(str(value).replace(",", "").strip())
    except ValueError:
        return None


@dataclass(frozen=True)
class DocCount:
    line: int
    text: str
    stars: str | None
    weekly: str | None
    date: str | None


def display_name(doc: KnowledgeDoc, repo: str) -> str:
    """How the document names a repository: ``owner/repo（Name）`` → ``Name``; else the repo's own name.

    The first place where ``re.escape(repo) + _ASIDE`` matches under ``re.I``: the repository's
    places from the document's name index, each tried with the one compiled ``_ASIDE``."""
    for at in doc.names.find(repo):
        m = _ASIDE.match(doc.text, at + len(repo))
        if m:
            return m.group(1).strip()
    return repo.split("/")[-1]


def doc_counts(doc: KnowledgeDoc, repo: str) -> list[DocCount]:
    """Lines of the document that name the repository and record its star count (once per document)."""
    key = ("doc_counts", repo)
    if key not in doc.memo:
        doc.memo[key] = _doc_counts(doc, repo)
    found: list[DocCount] = doc.memo[key]  # type: ignore[assignment]
    return list(found)


def _doc_counts(doc: KnowledgeDoc, repo: str) -> list[DocCount]:
    lines = doc.text.split("\n")
    out = []
    for n in _naming_lines(doc, repo):
        line = lines[n - 1]
        stars = _STARS.search(line)
        if not stars:
            continue
        weekly = _WEEKLY.search(line)
        date = _DATE.search(line)
        out.append(
            DocCount(
                n, line.strip(), stars.group(1), weekly.group(1) if weekly else None, date.group(1) if date else None
            )
        )
    return out


def _naming_lines(doc: KnowledgeDoc, repo: str) -> list[int]:
    """The lines (1-based, ascending) where ``re.search(re.escape(repo), line, re.I)`` or
    ``re.search(rf"(?<![\\w/-]){re.escape(short)}(?![\\w-])", line, re.I)`` matches (``short``: the
    repository's own name), from the places the document's name index holds them."""
    text, short = doc.text, repo.split("/")[-1]
    found = {doc.line_of(at) for at in doc.names.find(repo) if "\n" not in text[at : at + len(repo)]}
    for at in doc.names.find(short):
        end = at + len(short)
        before, after = text[at - 1 : at], text[end : end + 1]  # a line's ends stand next to "\n" (no word)
        if "\n" not in text[at:end] and not _word_or(before, "/-") and not _word_or(after, "-"):
            found.add(doc.line_of(at))
    return sorted(found)


def _word_or(char: str, signs: str) -> bool:
    """``char`` (one or none) matches ``\\w`` or is one of ``signs`` (``[\\w/-]`` of ``re``, even under ``re.I``)."""
    return bool(char) and (char.isalnum() or char == "_" or char in signs)


def _cards(kb: KB, kind: MaterialKind, with_spot: bool = False) -> Iterable[Material]:
    pool = [*kb.materials, *(kb.spot_checks if with_spot else [])]
    return (m for m in pool if m.kind is kind and m.status is MaterialStatus.read)


# --- counts -------------------------------------------------------------------------------------


def count_refresh(kb: KB, doc: KnowledgeDoc, say: Phrases | None = None) -> Findings:
    """A card whose repository the document already records: a refresh with old and new counts."""
    say = say or phrases()
    refreshes = []
    for card in _cards(kb, MaterialKind.repo_card):
        repo = card_repo(card)
        counts = doc_counts(doc, repo)
        if not counts:
            continue
        base = next((c for c in counts if c.weekly is not None), counts[0])
        stars, weekly = card.front.get("stars"), card.front.get("stars_weekly")
        seen = str(card.front.get("last_seen") or card.front.get("last_commit") or kb.date)
        changes = [CountChange(field="stars", old=base.stars, new=str(stars), old_date=base.date, new_date=seen)]
        numbers = []
        if stars is not None:
            line, quote = card_field_line(card, "stars")
            numbers.append(_cite(str(stars), EvidenceLevel.card, card.path, quote, line))
        if weekly is not None:
            changes.append(
                CountChange(field="stars_weekly", old=base.weekly, new=f"+{weekly}", old_date=base.date, new_date=seen)
            )
            line, quote = card_field_line(card, "stars_weekly")
            numbers.append(_cite(str(weekly), EvidenceLevel.card, card.path, quote, line))
        numbers.append(_cite(base.stars or "", EvidenceLevel.card, doc.path, base.text, base.line))
        if base.weekly:
            numbers.append(_cite(base.weekly, EvidenceLevel.card, doc.path, base.text, base.line))
        moved = _int(stars) != _int(base.stars) or (base.weekly is not None and _int(weekly) != _int(base.weekly))
        sec = doc.section_at(base.line)
        summary = say(
            "detect.counts",
            stars=stars,
            weekly=weekly,
            seen=seen,
            where=sec.id if sec else say("detect.document"),
            old=base.stars,
            old_weekly=say("detect.old_weekly", weekly=base.weekly) if base.weekly else "",
            old_date=say("detect.old_date", date=base.date) if base.date else "",
            verdict=say("detect.moved") if moved else say("detect.same"),
        )
        refreshes.append(
            Refresh(
                key=display_name(doc, repo),
                sources=[card.path],
                evidence=EvidenceLevel.card,
                summary=summary,
                changes=changes if moved else [],
                numbers=[n for n in numbers if n.text],
            )
        )
    return Findings([], refreshes)


def _where(doc: KnowledgeDoc, line: int, say: Phrases) -> str:
    sec = doc.section_at(line)
    return sec.id if sec else say("detect.document")


def count_mismatch(kb: KB, doc: KnowledgeDoc, say: Phrases | None = None) -> Findings:
    """The document records two different star counts for one repository of the batch."""
    say = say or phrases()
    out = []
    for card in _cards(kb, MaterialKind.repo_card):
        repo = card_repo(card)
        counts = doc_counts(doc, repo)
        values = {_int(c.stars) for c in counts}
        if len(values) < 2:
            continue
        cites = [_cite(c.stars or "", EvidenceLevel.card, doc.path, c.text, c.line) for c in counts]
        line, quote = card_field_line(card, "stars")
        if card.front.get("stars") is not None:
            cites.append(_cite(str(card.front["stars"]), EvidenceLevel.card, card.path, quote, line))
        places = say.join((say("detect.place", where=_where(doc, c.line, say), stars=c.stars) for c in counts), "semi")
        out.append(
            Contradiction(
                key=display_name(doc, repo),
                kind=ContradictionKind.count_mismatch,
                sources=[card.path],
                evidence=EvidenceLevel.card,
                claim=say("detect.count_mismatch", repo=repo, places=places, stars=card.front.get("stars")),
                detail=say("detect.count_mismatch_detail"),
                action=say("detect.count_mismatch_action"),
                numbers=cites,
            )
        )
    return Findings(out, [])


def weekly_exceeds_total(kb: KB, doc: KnowledgeDoc, say: Phrases | None = None) -> Findings:
    """A card whose weekly star growth is larger than its total star count."""
    say = say or phrases()
    out = []
    for card in _cards(kb, MaterialKind.repo_card):
        stars, weekly = _int(card.front.get("stars", "")), _int(card.front.get("stars_weekly", ""))
        if stars is None or weekly is None or weekly <= stars:
            continue
        sl, sq = card_field_line(card, "stars")
        wl, wq = card_field_line(card, "stars_weekly")
        out.append(
            Contradiction(
                key=card_repo(card).split("/")[-1],
                kind=ContradictionKind.weekly_exceeds_total,
                sources=[card.path],
                evidence=EvidenceLevel.card,
                claim=say("detect.weekly", weekly=weekly, stars=stars),
                action=say("detect.weekly_action"),
                numbers=[
                    _cite(str(weekly), EvidenceLevel.card, card.path, wq, wl),
                    _cite(str(stars), EvidenceLevel.card, card.path, sq, sl),
                ],
            )
        )
    return Findings(out, [])


# --- note items ---------------------------------------------------------------------------------


def _items(kb: KB) -> Iterable[tuple[Material, NoteItem]]:
    for m in kb.materials:
        if m.status is MaterialStatus.read and m.kind in (MaterialKind.inbox_note, MaterialKind.other):
            for item in note_items(m):
                if item.duplicate_of is None:  # a repeated item says nothing its first copy did not
                    yield m, item


def _where_item(material: Material, item: NoteItem) -> SourceRef:
    return SourceRef(path=material.path, url=item.url, line_start=item.line_start, line_end=item.line_end)


def stale(kb: KB, doc: KnowledgeDoc, say: Phrases | None = None) -> Findings:
    """An item whose own date is long before the batch (an old or reissued newsletter)."""
    say = say or phrases()
    out = []
    batch_date = kb.date
    for material, item in _items(kb):
        if not is_stale(item, batch_date):
            continue
        out.append(
            Contradiction(
                key=short_title(item),  # a registration names its item as a reader names a lead
                kind=ContradictionKind.stale,
                sources=[material.path],
                evidence=item.evidence,
                claim=say("detect.stale", date=item.date, batch=batch_date),
                action=say("detect.stale_action"),
                location=_where_item(material, item),
            )
        )
    return Findings(out, [])


def not_quotable(
    kb: KB, doc: KnowledgeDoc, say: Phrases | None = None, skip: Collection[tuple[str, int]] = ()
) -> Findings:
    """Numbers read at a level that is not quotable, and summary-only leads, listed with their level.

    ``skip``: items (material, first line) excluded as off-topic, which register nothing here. The
    registrations are grouped as they are made, so a dump of ten thousand leads never sits in memory whole.
    ``say``: the brief's phrases (default: Chinese).
    """
    say = say or phrases()
    return Findings(group_contradictions(_not_quotable(kb, skip, say), say), [])


#: the most restrictive level (no level is stricter: a group's line that holds it keeps it)
_STRICTEST = min(RANK, key=RANK.__getitem__)


def _not_quotable(kb: KB, skip: Collection[tuple[str, int]], say: Phrases) -> Iterator[Registration]:
    made: dict[str, int] = {}  # registrations so far, per material
    floored: set[str] = set()  # materials whose line already holds the strictest level
    for material, item in _items(kb):
        if (material.path, item.line_start) in skip:
            continue
        lead = item.evidence in (EvidenceLevel.summary, EvidenceLevel.unverified)
        found: list[_Unquotable] | None = None
        counted_only = made.get(material.path, 0) >= GROUP_MIN - 1  # its material's line is a group
        if lead and counted_only and material.path in floored:
            # a group only counts it and shows the strictest level of all it counts, which is already
            # the strictest there is: no level of this one can show, so none is read (its lines' levels
            # cost a marker scan each); if it were ever built it would say the strictest
            evidence = _STRICTEST
        elif lead and counted_only and (level := _lead_level(item)) is not None:
            evidence = level  # a group only counts it: its numbers need no scan
        else:
            found = _unquotable_numbers(item)
            if not found and not lead:
                continue
            evidence = found[0].level if found else item.evidence
        if evidence is _STRICTEST:
            floored.add(material.path)
        key = short_title(item)  # a registration names its item as a reader names a lead
        made[material.path] = made.get(material.path, 0) + 1
        yield Registration(
            key,
            ContradictionKind.not_quotable,
            (material.path,),
            evidence,
            functools.partial(_not_quotable_line, material, item, key, evidence, found, say),
        )


def _not_quotable_line(
    material: Material,
    item: NoteItem,
    key: str,
    evidence: EvidenceLevel,
    found: list[_Unquotable] | None,
    say: Phrases | None = None,
) -> Contradiction:
    say = say or phrases()
    found = _unquotable_numbers(item) if found is None else found
    # a registration names its item's first numbers, and says there are more: the item's lines (its
    # location) hold them all, and a dump of a hundred thousand numbers is not copied into the brief
    cites = [_cite(u.text, u.level, material.path, u.quote, u.line) for u in found[:NOT_QUOTABLE_SHOWN]]
    levels = sorted({say.level(u.level) for u in found} or {say.level(item.evidence)})
    numbers_text = say.join(dict.fromkeys(c.text for c in cites)) + (
        say("punct.more") if len(found) > len(cites) else ""
    )
    return Contradiction(
        key=key,
        kind=ContradictionKind.not_quotable,
        sources=[material.path],
        evidence=evidence,
        claim=(
            say("detect.unquotable", numbers=numbers_text, levels=say.join(levels, "levels"))
            if cites
            else say("detect.lead", level=say.level(item.evidence))
        )
        + (say("detect.blocked_too", why=item.access_blocked) if item.access_blocked else "")
        + (say("detect.cut_only", part=item.reading.truncated) if _cut_only(item) else ""),
        action=say("detect.unquotable_action"),
        location=_where_item(material, item),
        numbers=cites,
    )


def _cut_only(item: NoteItem) -> bool:
    """The page was cut off (the reader saw part of it), and no access problem is stated besides."""
    return bool(item.reading.truncated) and not item.access_blocked


#: numbers a not-quotable registration cites (the golden cases register up to 10 per item)
NOT_QUOTABLE_SHOWN = 24


_ROW_NUMBER = re.compile(r"^\s*\|\s*\d{1,3}\s*\|")  # a table's running number is not a finding
_URL_LINE = re.compile(r"^\s*(?:URL|链接)")


class _Unquotable(NamedTuple):
    """A quantity read at a level that is not quotable, where it stands (made a citation when shown)."""

    text: str
    level: EvidenceLevel
    quote: str
    line: int


_DIGIT = re.compile(r"\d")  # every quantity holds one (full-width digits are ``\d`` too)


def _unquotable_level(item: NoteItem, block: str) -> EvidenceLevel | None:
    """The level a block's numbers are read at, when they are not quotable (None: quotable, or a
    URL line, whose numbers are no finding)."""
    level = line_evidence(block) or item.evidence
    return None if level.quotable or _URL_LINE.match(block.strip()) else level


def _lead_level(item: NoteItem) -> EvidenceLevel | None:
    """A lead's registration level without scanning its numbers: its own level, when every line
    that could hold an unquotable number is read at that level (None: which line holds one decides)."""
    for _, block in blocks(item.text):
        if not _DIGIT.search(block):
            continue
        level = _unquotable_level(item, block)
        if level is not None and level is not item.evidence:
            return None
    return item.evidence


def _unquotable_block(item: NoteItem, block: str) -> tuple[EvidenceLevel, str, list[NumberToken]] | None:
    """A block's level, the text its numbers are read from and its quantities, when it holds quantities
    that are not quotable (else None). Of a checked item most lines are quotable, of another most hold no
    quantity: the likelier way out is tried first."""
    if not _DIGIT.search(block):  # most lines of a large note hold no number: neither is read
        return None
    read = _ROW_NUMBER.sub("|", block) if "|" in block else block
    if item.evidence.quotable:
        level = _unquotable_level(item, block)
        tokens = quantities(read) if level is not None else []
    else:
        tokens = quantities(read)
        level = _unquotable_level(item, block) if tokens else None
    return (level, read, tokens) if level is not None and tokens else None


def _unquotable_numbers(item: NoteItem) -> list[_Unquotable]:
    found: list[_Unquotable] = []
    for offset, block in blocks(item.text):
        unquotable = _unquotable_block(item, block)
        if unquotable is not None:
            level, read, tokens = unquotable
            line = item.line_start + offset
            if len(block) <= QUOTE_WHOLE_MAX:  # one quote, shared by the block's numbers
                found += [_Unquotable(q.text, level, block.strip(), line) for q in tokens]
                continue
            # a long block: each number once, quoted by the window around it (the row's number removed
            # from its head only, so a place in what was read is that place in the block, shifted)
            shift = len(block) - len(read)
            first = {q.text: q for q in reversed(tokens)}
            found += [
                _Unquotable(q.text, level, quote_around(block, q.start + shift, q.end + shift), line)
                for q in tokens
                if first[q.text] is q
            ]
    return found


def access_blocked(kb: KB, doc: KnowledgeDoc, say: Phrases | None = None) -> Findings:
    """An item the note says could not be read (login wall, paywall, 403, truncated).

    Its numbers, if any, are listed by ``not_quotable`` as well; a summary-only lead is registered there.
    """
    say = say or phrases()
    out = []
    for material, item in _items(kb):
        if not item.access_blocked or item.evidence in (EvidenceLevel.verified, EvidenceLevel.summary):
            continue
        out.append(
            Contradiction(
                key=short_title(item),  # a registration names its item as a reader names a lead
                kind=ContradictionKind.access_blocked,
                sources=[material.path],
                evidence=item.evidence,
                claim=say("detect.blocked", why=item.access_blocked),
                action=say("detect.blocked_action"),
                location=_where_item(material, item),
            )
        )
    return Findings(out, [])


_VERSION_OF = guarded(
    re.compile(
        r"\b(vLLM|SGLang|TensorRT-LLM|TRT-LLM|llm-d|Dynamo|LMCache|Ollama|llama\.cpp|LMDeploy)"
        r"\s*v?(\d+)\.(\d+)(?:\.\d+)?",
        re.I,
    )
)
_ENV_LINE = guarded(re.compile(r"复现|repro|环境|environment|setup", re.I))
#: a digit, a dot, a digit: every ``_VERSION_OF`` match holds one (``\d`` ignores case), and a plain
#: regex that opens with a literal dot finds it far faster than the version pattern itself
_DOTTED_DIGITS = re.compile(r"\.(?<=\d\.)(?=\d)")


def _baseline_versions(doc: KnowledgeDoc) -> dict[str, tuple[int, int]]:
    found: dict[str, list[tuple[int, int]]] = {}
    for m in _VERSION_OF.finditer(doc.text):
        found.setdefault(m.group(1).lower(), []).append((int(m.group(2)), int(m.group(3))))
    return {k: max(v) for k, v in found.items()}


def version_mismatch(kb: KB, doc: KnowledgeDoc, say: Phrases | None = None) -> Findings:
    """A material ties a capability to a version a minor or major step away from the document's."""
    say = say or phrases()
    baseline = _baseline_versions(doc)
    out: list[Contradiction] = []
    if not baseline:  # nothing to differ from
        return Findings(out, [])
    for material, item in _items(kb):
        # a block is a run of the item's lines, so a block's match is a match of the whole text
        # (which may hold more: ``\s*`` crosses a line break there): no match in it, none in a block
        if not _DOTTED_DIGITS.search(item.text) or not _VERSION_OF.search(item.text):
            continue
        for offset, block in blocks(item.text):
            if _ENV_LINE.search(block):
                continue
            for m in _VERSION_OF.finditer(block):
                base = baseline.get(m.group(1).lower())
                seen = (int(m.group(2)), int(m.group(3)))
                if base is None or seen == base:
                    continue
                line = item.line_start + offset
                out.append(
                    Contradiction(
                        key=f"{m.group(1)} {m.group(0).split()[-1]}",
                        kind=ContradictionKind.version_mismatch,
                        sources=[material.path],
                        evidence=item.evidence,
                        claim=say("detect.version", said=m.group(0), name=m.group(1), version=f"{base[0]}.{base[1]}"),
                        action=say("detect.version_action"),
                        location=SourceRef(path=material.path, line_start=line, line_end=line, quote=block.strip()),
                    )
                )
                break
    return Findings(out, [])


# --- cards' own text ----------------------------------------------------------------------------


_EN_BASE = re.compile(
    r"(?:faster|slower|better|cheaper|more \w+) than ([A-Za-z][\w\-.' ]*?(?:\([^)]*\))?)(?=[,.;]| on | in | for |$)",
    re.I,
)
_ZH_BASE = re.compile(r"(?:比|相比|较)\s*([A-Za-z][\w\-. ]*?)\s*(?:快|慢|高|低|省|强)")


def _baseline_names(text: str, rx: re.Pattern[str]) -> set[str]:
    out = set()
    for m in rx.finditer(text):
        for word in re.findall(r"[A-Za-z][\w\-.]+", m.group(1)):
            if word.lower() not in {"apple's", "apple", "the", "same", "weights"}:
                out.add(word.lower())
    return out


def _ratios(text: str) -> set[str]:
    return {q.text for q in quantities(text) if q.type in ("multiplier", "percent", "change")}


def _line_with(text: str, token: str) -> str:
    return next((line for line in text.split("\n") if token in line), text.split("\n")[0])


def bilingual_mismatch(kb: KB, doc: KnowledgeDoc, say: Phrases | None = None) -> Findings:
    """A card whose English and Chinese summaries give different numbers or baselines."""
    say = say or phrases()
    out = []
    for card in _cards(kb, MaterialKind.repo_card):
        en = card_section(card.body, ("Summary", "Description", "English"))
        zh = card_section(card.body, ("简介", "中文简介", "摘要"))
        if not en or not zh:
            continue
        en_b, zh_b = _baseline_names(en, _EN_BASE), _baseline_names(zh, _ZH_BASE)
        en_r, zh_r = _ratios(en), _ratios(zh)
        en_v = {v for t in en_r if (v := parse_value(t)) is not None}
        zh_v = {v for t in zh_r if (v := parse_value(t)) is not None}
        base_differs = bool(en_b and zh_b and not (en_b & zh_b))
        nums_differ = bool(en_v and zh_v and en_v != zh_v)
        if not (base_differs or nums_differ):
            continue
        cites = [
            _cite(t, EvidenceLevel.vendor, card.path, _line_with(sec, t))
            for sec, ratios in ((en, en_r), (zh, zh_r))
            for t in sorted(ratios)
        ]
        parts = []
        if base_differs:
            parts.append(say("detect.bilingual_baselines", en="/".join(sorted(en_b)), zh="/".join(sorted(zh_b))))
        if nums_differ:
            parts.append(say("detect.bilingual_numbers", en=say.join(sorted(en_r)), zh=say.join(sorted(zh_r))))
        out.append(
            Contradiction(
                key=card_repo(card).split("/")[-1],
                kind=ContradictionKind.bilingual_mismatch,
                sources=[card.path],
                evidence=EvidenceLevel.vendor,
                claim=say("detect.bilingual", parts=say.join(parts, "semi")),
                action=say("detect.bilingual_action"),
                numbers=cites,
            )
        )
    return Findings(out, [])


_SURVEY = re.compile(r"\b(survey|review|overview)\b|综述|梳理|必读", re.I)
_METHOD = re.compile(r"\b(we propose|method|train|agent|introduce)\b|提出|训练", re.I)


def card_sections_mismatch(kb: KB, doc: KnowledgeDoc, say: Phrases | None = None) -> Findings:
    """A paper card whose TLDR and reusable-information sections describe different works."""
    say = say or phrases()
    out = []
    for card in _cards(kb, MaterialKind.paper_card, with_spot=True):
        tldr = card_section(card.body, ("TLDR", "TL;DR"))
        reuse = card_section(card.body, ("可复用信息", "Reusable", "Reusable information"))
        if not tldr or not reuse:
            continue
        a, b = set(terms(tldr)), set(terms(reuse))
        overlap = len(a & b) / max(len(a | b), 1)
        tags = card_section(card.body, ("Tags",)) + " " + str(card.front.get("topics", ""))
        kind_clash = (
            bool(_SURVEY.search(reuse) or _SURVEY.search(tags))
            and not _SURVEY.search(tldr)
            and bool(_METHOD.search(tldr))
        )
        if not kind_clash and overlap >= CARD_SECTIONS_MIN_OVERLAP:
            continue
        arxiv = str(card.front.get("arxiv") or "")
        why = say("detect.sections_apart") + (say("detect.sections_kinds") if kind_clash else "")
        out.append(
            Contradiction(
                key=str(card.front.get("title") or arxiv or card.path).split(":")[0],
                kind=ContradictionKind.card_sections_mismatch,
                sources=[card.path],
                evidence=EvidenceLevel.card,
                claim=say("detect.sections_arxiv", arxiv=arxiv, why=why) if arxiv else say("detect.sections", why=why),
                action=say("detect.sections_action"),
            )
        )
    return Findings(out, [])


def _first_hit_per_line(rx: re.Pattern[str], text: str) -> Iterator[tuple[int, str, re.Match[str]]]:
    """(1-based line number, line, first match) for each line of ``text`` where ``rx`` matches.

    One scan of the whole text instead of a search per line: the same answers for a pattern whose
    matches never hold a line break and that reads nothing outside its match (no ``^ $ \\b`` nor
    look-around beyond one character of its own), as then a line's first match in the text is its
    first match alone, and a later one on the same line is skipped.
    """
    line_no, counted, last = 1, 0, 0
    for hit in rx.finditer(text):
        at = hit.start()
        line_no += text.count("\n", counted, at)
        counted = at
        if line_no == last:
            continue
        last = line_no
        end = text.find("\n", at)
        yield line_no, text[text.rfind("\n", 0, at) + 1 : end if end >= 0 else len(text)], hit


def injection_suspected(kb: KB, doc: KnowledgeDoc, say: Phrases | None = None) -> Findings:
    """Text in a material that reads like an instruction to a model: registered, never obeyed."""
    say = say or phrases()
    out = []
    for m in kb.materials:
        if m.status is not MaterialStatus.read:
            continue
        for n, line, hit in _first_hit_per_line(INSTRUCTION, m.text):
            out.append(
                Contradiction(
                    key=f"{m.path}:{n}",
                    kind=ContradictionKind.injection_suspected,
                    sources=[m.path],
                    evidence=EvidenceLevel.unverified,
                    claim=say("detect.injection", hit=hit.group(0)),
                    action=say("detect.injection_action"),
                    location=SourceRef(path=m.path, line_start=n, line_end=n, quote=line.strip()[:300]),
                )
            )
    return Findings(out, [])


DETECTORS: tuple[Callable[[KB, KnowledgeDoc, Phrases | None], Findings], ...] = (
    count_refresh,
    count_mismatch,
    weekly_exceeds_total,
    version_mismatch,
    stale,
    bilingual_mismatch,
    card_sections_mismatch,
    not_quotable,
    access_blocked,
    injection_suspected,
)


def detect_all(
    kb: KB, doc: KnowledgeDoc, off_topic: Collection[tuple[str, int]] = (), say: Phrases | None = None
) -> Findings:
    """Every detector's findings. ``off_topic``: items (material, first line) the brief excludes as
    off-topic; they register no not-quotable numbers (a page that could not be opened is still said).
    ``say``: the brief's phrases (default: Chinese)."""
    say = say or phrases()
    contradictions: list[Contradiction] = []
    refreshes: list[Refresh] = []
    for detector in DETECTORS:
        found = not_quotable(kb, doc, say, off_topic) if detector is not_quotable else detector(kb, doc, say)
        contradictions += found.contradictions
        refreshes += found.refreshes
    return Findings(contradictions, refreshes)
