"""The deterministic ``rules`` backend: no model, no network; reads notes and cards by rule.

It decides, per item, new vs already present against the living document (zero hits of the
item's own name: new), keeps non-quotable numbers out of the key points, and leaves counts,
anchors and cross-document conflicts to the detectors, which run for every backend.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePosixPath

from ..brief.models import (
    DocHits,
    EvidenceLevel,
    Increment,
    MaterialKind,
    MaterialStatus,
    NumberCitation,
    Refresh,
    SourceRef,
)
from ..brief.phrases import Lang, Phrases, phrases
from ..check.detectors import display_name, doc_counts
from ..check.grouping import ExclusionGroups
from ..kb.knowledge import ARXIV_RE, KnowledgeDoc
from ..kb.loading import KB, Material, card_field_line, card_repo, card_section, card_title
from ..read import markers
from ..read.filing import filed_elsewhere, topic_tags
from ..read.identity import identify, may_be_known_as_a_lead
from ..read.instructions import reads_as_instruction
from ..read.lines import URL_RE, is_heading
from ..read.notes import (
    MD_LINK,
    NoteItem,
    blocks,
    index_only,
    is_stale,
    line_evidence,
    note_items,
    off_topic,
    said_empty,
    said_known,
    said_lead,
    said_new,
    said_same,
    url_only,
)
from ..read.numbers import NumberToken, card_counts, names_a_size, parse_value, quantities, stats_sentences
from ..read.quotes import quote_of
from ..text.lexicon import lexicon
from ..text.naming import repository_key
from ..text.textindex import term_set, terms
from .producer import Production
from .routing import route, same_meaning

log = logging.getLogger(__name__)

#: a name written out in three or more capitalised words (``Vision-Language-Action``), whose initials may be
#: the document's acronym for it; and how many initials make such an acronym (two letters meet by chance)
_SPELLED_OUT = re.compile(r"\b[A-Z][a-z]+(?:[-\s][A-Z][a-z]+){2,5}\b")
_INITIALS = 3
#: items whose vocabulary barely overlaps the living document are off-topic for it
MIN_TOPIC_OVERLAP = 0.12
#: the key points and boundary lines an increment lists from its item (the hand briefs list up to a dozen); an
#: item of more is listed to here, and the rest is named by its lines
POINTS_LISTED = 64
#: a product-like name: inner capitals or digits (``vLLM``, ``SGLang``, ``GB10``) or a hyphenated name (``llm-d``)
_ENTITY = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z]+[A-Z0-9][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9-]*[A-Za-z0-9])(?![A-Za-z0-9])"
)

_POINT_LINE = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)、])\s+(.*\S)\s*$")
_META_PREFIX = re.compile(
    r"^(?:URL|链接|来源|核查|部分核查|证据|日期|发布日期|发布|文档最后更新|Check|Checked|Evidence|Date|Source|"
    r"Link|要点|Key points|Points|初判|关联|Status|状态|"
    + "|".join(re.escape(w) for w in sorted(lexicon().title_labels))  # the title field: the item's title
    + r")\s*[:：]",
    re.I,
)
_BOUNDARY_PREFIX = re.compile(r"^(?:边界|证据边界|注意|限定|Caveat|Boundary|Limits?)\s*[:：]", re.I)


#: how many of the names a known subject's update brings the relation names
NAMES_SAID = 4


@dataclass
class SectionIndex:
    """The document's vocabulary and names, for telling an item's topic; where an item belongs is routed."""

    vocabulary: frozenset[str]
    #: product-like names the document uses (``vLLM``, ``SGLang``, ``GB10``, ``llm-d``), lowercased
    entities: frozenset[str]
    #: the document an item is routed to a section of (``e1prep.produce.routing``, built on the first increment)
    doc: KnowledgeDoc
    #: the names of the draft's topic, lower-cased: the manifest's topic, its document's name, their translations
    topic: frozenset[str] = frozenset()

    @classmethod
    def build(cls, doc: KnowledgeDoc, topic: str = "") -> SectionIndex:
        entities = frozenset(
            m.group(0).lower() for m in _ENTITY.finditer(doc.text) if not lexicon().is_generic(m.group(0))
        )
        named = {n.lower() for n in (topic, PurePosixPath(doc.path).stem) if n}
        return cls(frozenset(terms(doc.text)), entities, doc, frozenset(w for n in named for w in same_meaning(n)))

    def filed_elsewhere(self, text: str, legend: dict[str, str] | None = None) -> str | None:
        """The words by which a note files an item under another topic, or not under this one
        (``e1prep.read.filing``), its legend's marks read as their words (``⇢`` → ``不是 inference 的``)."""
        return filed_elsewhere(markers.expand_symbols(text, legend), self.topic) if self.topic else None

    def names_entity(self, text: str) -> str | None:
        """A product-like name of ``text`` that the document also uses (the item is about its subject matter),
        or a name the item writes out whose initials the document uses (``Vision-Language-Action`` for ``VLA``):
        across two languages, the acronym is often the only word they share."""
        for m in _ENTITY.finditer(text):
            if m.group(0).lower() in self.entities:
                return m.group(0)
        for m in _SPELLED_OUT.finditer(text):
            words = re.split(r"[-\s]+", m.group(0))
            for a in range(len(words)):  # any run of its words (``Vision-Language-Action`` in ``… Action Policies``)
                for b in range(a + _INITIALS, len(words) + 1):
                    if "".join(w[0] for w in words[a:b]).lower() in self.entities:
                        return " ".join(words[a:b])
        return None

    def suggest(self, text: str, title: str = "", names: Iterable[str] = (), say: Phrases | None = None) -> str | None:
        """建议归入: the section that clearly matches the item, or the undecided line naming the candidates
        (in the brief's language ``say``, default Chinese)."""
        return route(self.doc, text, title, names).said(say or phrases())

    def overlap(self, text: str) -> float:
        bag = term_set(text)
        if not bag:
            return 0.0
        return sum(1 for t in bag if t in self.vocabulary) / len(bag)


def cite_numbers(
    text: str, level: EvidenceLevel, material: Material, quote: str, line: int | None
) -> list[NumberCitation]:
    """A citation for every quantity in ``text``, as written, with the level it was read at."""
    return _citations(quantities(text), level, material, quote, line)


def _citations(
    tokens: list[NumberToken], level: EvidenceLevel, material: Material, quote: str, line: int | None
) -> list[NumberCitation]:
    first: dict[tuple[str, str | None], NumberToken] = {}
    for tok in tokens:  # a number repeated in one text is cited once, at its first place
        first.setdefault((tok.text, tok.unit), tok)
    out = []
    for tok in first.values():
        out.append(
            NumberCitation(
                text=tok.text,
                value=parse_value(tok.text),
                unit=tok.unit,
                evidence=level,
                source=SourceRef(path=material.path, line_start=line, line_end=line, quote=quote_of(quote, tok)),
                quotable=level.quotable,
            )
        )
    return out


@dataclass
class _Digest:
    """What a note's item says, as a brief lists it."""

    points: list[str]
    boundary: list[str]
    numbers: list[NumberCitation]


class RulesProducer:
    """The embedded default backend; ``lang``: the language of the sentences it writes (``say``)."""

    name = "rules"

    def __init__(self, lang: Lang = "zh") -> None:
        self.say: Phrases = phrases(lang)
        self.lang: Lang = self.say.lang

    def produce(self, kb: KB, doc: KnowledgeDoc) -> Production:
        index = SectionIndex.build(doc, kb.item.topic)
        out = Production()
        excluded = ExclusionGroups(self.say)  # a dump's excluded items are grouped as they come, not held as objects
        batch_date = kb.date  # read from the manifest once, not once per item
        leads: dict[str, tuple[str, str]] = {}  # a repository a note calls a lead: the note, its words
        same: list[tuple[int, str]] = []  # an increment its note calls another item under another name: its words
        for material in kb.materials:
            if material.status is not MaterialStatus.read:
                continue
            if material.kind is MaterialKind.repo_card:
                self._repo_card(material, doc, index, out, excluded)
            elif material.kind is MaterialKind.paper_card:
                self._paper_card(material, doc, out, excluded)
            elif material.kind in (MaterialKind.inbox_note, MaterialKind.other):
                items = note_items(material)
                tagged = topic_tags([item.title for item in items], index.topic) if index.topic else {}
                for n, item in enumerate(items):
                    if n in tagged:  # the note tags it with another topic: filed there, in the note's words
                        reason = self.say("rules.said_off_topic", remark=tagged[n])
                        self._exclude(material, item, _short_title(item), reason, out, excluded, off_topic=True)
                        continue
                    made = len(out.increments)
                    self._note_item(batch_date, material, item, doc, index, out, excluded)
                    if len(out.increments) > made and (clause := said_same(item.text)) is not None:
                        same.append((made, clause))
                    if item.url and (words := said_lead(item.text)) is not None:
                        leads.setdefault(repository_key(item.url), (material.path, words))
        out.increments = self._same_as_another(out.increments, same, excluded)
        out.increments = self._cards_called_leads(out.increments, leads, excluded)
        out.excluded = excluded.lines()
        out.refreshes = _once(out.refreshes)
        return out

    def _same_as_another(
        self, increments: list[Increment], same: list[tuple[int, str]], excluded: ExclusionGroups
    ) -> list[Increment]:
        """An increment whose note says it is the same as another item of the batch, named in that clause (``Same
        thing as the Hyperframe post in Mira's letter``), is that increment: its source joins it, and it is
        listed apart no more (the excluded list says why, in the note's words)."""
        absorbed: set[int] = set()
        for n, clause in same:
            inc = increments[n]
            target = next(
                (
                    k
                    for k, other in enumerate(increments)
                    if k != n and k not in absorbed and _norm(other.key) != _norm(inc.key) and _names(clause, other.key)
                ),
                None,
            )
            if target is None:
                continue
            absorbed.add(n)
            kept = increments[target]
            increments[target] = kept.model_copy(update={"sources": list(dict.fromkeys([*kept.sources, *inc.sources]))})
            reason = self.say("rules.same_as", words=clause, key=kept.key)
            excluded.add(inc.key, inc.sources, inc.evidence, reason, inc.url)
        return [inc for k, inc in enumerate(increments) if k not in absorbed]

    def _cards_called_leads(
        self, increments: list[Increment], leads: dict[str, tuple[str, str]], excluded: ExclusionGroups
    ) -> list[Increment]:
        """A new repository's card is a lead when a note of the batch calls that repository a lead in its
        own words (``Lead, not a finding``): the card's metadata says no more than the note that read it."""
        if not leads:
            return increments
        kept = []
        for inc in increments:
            lead = leads.get(repository_key(inc.url)) if inc.url and inc.evidence is EvidenceLevel.card else None
            if lead is None:
                kept.append(inc)
                continue
            note, words = lead
            reason = self.say("rules.card_called_lead", note=note, words=words)
            excluded.add(inc.key, inc.sources, inc.evidence, reason, inc.url)
        return kept

    # --- inbox notes --------------------------------------------------------------------------

    def _note_item(
        self,
        batch_date: str,
        material: Material,
        item: NoteItem,
        doc: KnowledgeDoc,
        index: SectionIndex,
        out: Production,
        excluded: ExclusionGroups,
    ) -> None:
        say = self.say
        if item.duplicate_of is not None:
            key = _short_title(item) or f"{material.path}#{item.index}"
            self._exclude(material, item, key, say("rules.duplicate", n=item.duplicate_of), out, excluded)
            return
        # read in full, only the numbers are the vendor's own: an increment whose numbers are not quotable
        vendor_read = item.evidence is EvidenceLevel.vendor and item.reading.read_in_full
        low = (item.evidence not in (EvidenceLevel.verified, EvidenceLevel.partial) and not vendor_read) or (
            # a part read that its note says holds nothing (``Title only``, ``只看到标题``) is seen no further
            item.evidence is EvidenceLevel.partial and _said_empty(item) is not None
        )
        # a level below a read limits what may be quoted, not whether the item is news (issue 23): what was
        # seen of it (a summary, a snippet, a vendor's post, a card) may still say something of its own.
        # ``clue``: why it is a lead to check and no increment, where what was seen cannot make it one
        clue = self._clue(item) if low else None
        # what was seen of it must give a point of its own, more than its title and the topic's names; else it
        # is a lead (``mute``: why, unless the note's own words say more)
        digest = self._digest(material, item) if low and clue is None else None
        told = frozenset(term_set(item.title)) | index.topic if digest is not None else frozenset()
        mute = None
        if (
            digest is not None
            and not any(_says_what(p, told, index) for p in digest.points)
            and not _title_says_what(item, index)
        ):
            mute = say("rules.lead_nothing_said", level=say.level(item.evidence), remark=self._remark(item))
        stale = is_stale(item, batch_date)
        title = _short_title(item)
        # excluded whatever the document holds (stale, or a lead it cannot know), under its title:
        # who it is needs no subject candidates and no name searches
        lead = clue is not None or mute is not None
        unsearched = bool(title) and (stale or (lead and not may_be_known_as_a_lead(item, doc)))
        ident = None if unsearched else identify(item, doc)
        known = ident is not None and ident.known(item.evidence, vendor_read)
        if low and not lead and ident is not None and ident.key_hits:
            # a subject the document names, seen no further than this: nothing is shown to be new of it
            clue = say("rules.lead_known", level=say.level(item.evidence), key=ident.key, remark=self._remark(item))
        excluded_reason, filed_away = None, False
        if stale:
            excluded_reason = say("rules.stale", date=item.date)
        elif not known:
            excluded_reason, filed_away = self._why_not(item, clue, index, low, mute)
        if excluded_reason:
            key = title or (ident.key if ident else "")
            self._exclude(material, item, key, excluded_reason, out, excluded, off_topic=filed_away)
            return
        assert ident is not None  # only an excluded item goes unidentified
        key, hits, url_known, anchored = ident.key, ident.hits, ident.url_known, ident.anchored
        version = new_version(item, doc) if known else None
        fact = _update_fact(item, doc, key, version, say) if known else None
        if fact is not None:
            inc = self._increment(material, item, key, hits, index)
            out.increments.append(inc.model_copy(update={"kind": "update", "relation": fact}))
            return
        if known:
            where = sorted({s for h in hits for s in h.sections})
            summary = say(
                "rules.known",
                key=key,
                where=say("rules.known_where", sections=say.join(where)) if where else "",
                url=say("rules.known_url") if url_known else "",
                anchor=say("rules.known_anchor", arxiv=anchored) if anchored else "",
                # a release that moves only the number: the refresh names it
                verdict=say("rules.version_only", version=version) if version is not None else say("rules.not_new"),
            )
            if version is not None:
                key = f"{key} {version}"
            out.refreshes.append(
                Refresh(key=key, sources=[material.path], evidence=item.evidence, summary=summary, doc_hits=hits)
            )
            return
        out.increments.append(self._increment(material, item, key, hits, index, digest=digest))

    def _why_not(
        self, item: NoteItem, clue: str | None, index: SectionIndex, low: bool, mute: str | None
    ) -> tuple[str | None, bool]:
        """Why a fresh item the document does not hold is no increment, if it is none, and whether it is
        filed away as another topic's (then its numbers register nothing: ``out.off_topic``). An item seen
        below a read (``low``) that its own words put off the topic is still registered as not citable; one
        that gave no point of its own (``mute``) is a lead for that, unless its note's own words say more."""
        say = self.say
        if item.group and (remark := off_topic(item.group) or index.filed_elsewhere(item.group)):
            # filed by the note under another topic: the whole group is another document's, whatever its level
            return say("rules.other_topic", group=item.group[:60], remark=remark), True
        if clue is not None:
            return clue, False
        if (words := said_lead(item.text)) is not None:
            return say("rules.said_lead", words=words), False
        if mute is None and not _has_substance(item):
            return say("rules.no_substance"), False
        if remark := off_topic(item.text) or index.filed_elsewhere(item.text, item.legend):
            return say("rules.said_off_topic", remark=remark), not low
        if mute is not None:
            return mute, False
        if index.overlap(item.text) < MIN_TOPIC_OVERLAP and not index.names_entity(item.text):
            return say("rules.off_topic"), not low
        return None, False

    def _clue(self, item: NoteItem) -> str | None:
        """Why an item read below ``partial`` is a lead whatever the document holds: nothing of it was seen
        (``unverified``), or its note says what was seen holds nothing of substance (``片段无实质内容``)."""
        say = self.say
        if item.evidence is EvidenceLevel.unverified:
            return say("rules.lead", level=say.level(item.evidence), remark=self._remark(item))
        if (words := _said_empty(item)) is not None:
            return say("rules.said_empty", level=say.level(item.evidence), words=words)
        return None

    def _remark(self, item: NoteItem) -> str:
        """The item's deciding check remark, in the brief's language."""
        return self.say.remark(item.reading.deciding) or self.say("rules.no_remark")

    @staticmethod
    def _exclude(
        material: Material,
        item: NoteItem,
        key: str,
        reason: str,
        out: Production,
        excluded: ExclusionGroups,
        *,
        off_topic: bool = False,
    ) -> None:
        """A note's item excluded with its reason; one filed away as another topic's is also remembered as
        such (``out.off_topic``: the detectors register nothing of it)."""
        excluded.add(key, [material.path], item.evidence, reason, item.url)
        if off_topic:
            out.off_topic.add((material.path, item.line_start))

    def _increment(
        self,
        material: Material,
        item: NoteItem,
        key: str,
        hits: list[DocHits],
        index: SectionIndex,
        *,
        digest: _Digest | None = None,
    ) -> Increment:
        """The increment of a note's item (``digest``: its points, boundary and numbers, if read already)."""
        digest = digest or self._digest(material, item)
        say = self.say
        rel = say.join((say("rules.hits", term=h.term, hits=h.hits) for h in hits[:3]), "semi")
        said = say.remark(item.reading.deciding)  # ``item.remark``, in the brief's language
        remark = say("rules.remark_note", remark=said) if said else say("rules.no_remark_note")
        return Increment(
            key=key,
            title=item.title,
            sources=[material.path],
            url=item.url,
            evidence=item.evidence,
            evidence_note=remark,
            points=digest.points,
            relation=rel + (say("rules.is_new") if any(h.term == key and h.hits == 0 for h in hits) else ""),
            doc_hits=hits[:3],
            section=index.suggest(item.text, item.title, [key], say),
            boundary=digest.boundary,
            numbers=digest.numbers,
        )

    def _digest(self, material: Material, item: NoteItem) -> _Digest:
        """What an item says, as a brief lists it: its key points, its boundary, the citations of its numbers."""
        points: list[str] = []
        boundary: list[str] = []
        numbers: list[NumberCitation] = []
        listed = 0
        # a table row's item says what it is in its other cells (``要点``, ``Notes``), each on the row's line;
        # a cell read otherwise than written (a sheet's quoted value, ``<br>`` as a break) is no quotable point
        cells = [c for c in item.cells if c in item.text and (_CLAUSE.search(c) or quantities(c))]
        parts = [(0, c) for c in cells] if item.cells else blocks(item.text)[1:]
        for at, (offset, block) in enumerate(parts):
            first = _strip_bullet(block.strip().split("\n")[0])
            # a field, or a heading inside the item (``### 要点``): it names a part of the item, no point
            if _META_PREFIX.match(first) or is_heading(block):
                continue
            if listed == POINTS_LISTED:  # a brief digests an item: the rest is pointed to, not copied
                rest = parts[at:]
                last = rest[-1][0] + rest[-1][1].count("\n")
                boundary.append(
                    self.say("rules.more_points", first=item.line_start + offset, last=item.line_start + last)
                )
                break
            text = _point_text(block, self.say)
            # a URL alone is no key point (it stays the item's URL); an instruction to a model is none either
            # (the detectors register it as suspected injection)
            if not text or url_only(text) or reads_as_instruction(text):
                continue
            # quoted as written (``**55.4**``, ``**数字**：…``, a link as its Markdown): the point is written out
            written = block.strip() if item.cells else _as_written(block)
            tokens = quantities(written)
            # the level a block's own words impose is read for its numbers (most blocks hold none), and for a
            # magnitude it holds that reads as a model's size (``1.4B 也没写是源端还是双端 token``: unchecked)
            own = line_evidence(block) if tokens or names_a_size(written) else None
            level = own or item.evidence
            cited = _citations(tokens, level, material, written, item.line_start + offset)
            numbers += cited
            listed += 1
            if _BOUNDARY_PREFIX.match(first) or (own is not None and not own.quotable and not tokens):
                boundary.append(text)
            elif cited and not level.quotable:
                boundary.append(self.say("rules.unquotable", text=text, level=self.say.level(level)))
            else:
                points.append(text)
        numbers += [
            c.model_copy(update={"source": c.source.model_copy(update={"quote": None})})
            for c in cite_numbers(item.title, item.evidence, material, "", item.line_start)
        ]
        return _Digest(points, boundary, numbers)

    # --- cards ---------------------------------------------------------------------------------

    def _repo_card(
        self, material: Material, doc: KnowledgeDoc, index: SectionIndex, out: Production, excluded: ExclusionGroups
    ) -> None:
        say = self.say
        repo = card_repo(material)
        short = repo.split("/")[-1]
        hits = [doc.search(repo), doc.search(short)]
        # a document that lists its repositories as ``owner/name`` and not this one names another thing by this
        # name (``Sextant`` the reading-order paper beside ``sextant-dev/sextant``): the card is new, keyed by its
        # repository, which the document does not hold
        url = str(material.front.get("url") or "")
        namesake = not hits[0].hits and bool(hits[1].hits) and doc.lists_other_repos(repo, url)
        if any(h.hits for h in hits) and not namesake:
            # known: the count_refresh detector compares the counts the document records; a repository the
            # document names without a count is still a refresh (re-collected, nothing new)
            if not doc_counts(doc, repo):
                where = sorted({sec for h in hits for sec in h.sections})
                out.refreshes.append(
                    Refresh(
                        key=display_name(doc, repo),
                        sources=[material.path],
                        evidence=EvidenceLevel.card,
                        summary=say(
                            "rules.card_known",
                            repo=repo,
                            where=say("rules.known_where", sections=say.join(where)) if where else "",
                        ),
                        doc_hits=hits,
                    )
                )
            return
        summary = card_section(material.body, ("Summary", "简介", "Description")) or material.body.strip()[:200]
        about = (
            " ".join(t for t in (card_section(material.body, (h,)) for h in ("Summary", "简介", "Description")) if t)
            or material.body
        )
        reason = None
        if index.overlap(about) < MIN_TOPIC_OVERLAP and not index.names_entity(about):
            reason = say("rules.card_off_topic")
        elif index_only(material.body) or short.lower().startswith("awesome"):
            reason = say("rules.index_only")
        if reason:
            excluded.add(short, [material.path], EvidenceLevel.card, reason, url or None)
            return
        stars, weekly = material.front.get("stars"), material.front.get("stars_weekly")
        boundary = []
        numbers: list[NumberCitation] = []
        if stars is not None:
            seen = material.front.get("last_seen") or material.front.get("first_seen") or ""
            boundary.append(say("rules.card_counts", stars=stars, weekly=weekly or 0, seen=seen))
            for field in ("stars", "stars_weekly"):
                value = material.front.get(field)
                if value is not None:
                    numbers.append(_card_citation(material, field, value))
            if weekly is None:
                numbers.append(_card_citation(material, "stars_weekly", 0, quote=False))
        stats, first = _stats_and_summary(summary)
        if stats:  # the card's own counts (``⭐ 1,204 stars · 61 forks``): collected, not the project's claim
            boundary.append(say("rules.card_numbers", point=stats))
            numbers += _citations(card_counts(stats), EvidenceLevel.card, material, stats, None)
        points = [first] if first else []
        point_numbers = [c for p in points for c in _card_or_vendor(p, material)]
        if point_numbers:
            claimed = any(c.evidence is EvidenceLevel.vendor for c in point_numbers)
            boundary.append(say("rules.repo_numbers" if claimed else "rules.card_numbers", point=points[0]))
            numbers += point_numbers
            points = []
        elif points and markers.find(points[0], markers.LOWERING_KINDS):
            # the card says part of its own summary is a claim (``the author's own claim``): not a finding
            boundary.append(say("rules.repo_claim", point=points[0]))
            points = []
        relation = say.join((say("rules.hits", term=h.term, hits=h.hits) for h in hits), "semi")
        if namesake:
            relation += say("rules.card_namesake", name=short, repo=repo)
        out.increments.append(
            Increment(
                key=repo if namesake else short,
                title=repo,
                sources=[material.path],
                url=url or None,
                evidence=EvidenceLevel.card,
                evidence_note=say("rules.repo_note"),
                points=points,
                relation=relation,
                doc_hits=hits,
                section=index.suggest(material.body, repo + " " + summary.partition("\n")[0], [short], say),
                boundary=boundary,
                numbers=numbers,
            )
        )

    def _paper_card(self, material: Material, doc: KnowledgeDoc, out: Production, excluded: ExclusionGroups) -> None:
        arxiv = str(material.front.get("arxiv") or "")
        title = card_title(material) or arxiv or material.path
        say = self.say
        if arxiv and doc.anchored(arxiv):
            where = say.join(doc.anchors[arxiv]) or say("rules.appendix")
            out.refreshes.append(
                Refresh(
                    key=title,
                    sources=[material.path],
                    evidence=EvidenceLevel.card,
                    summary=say("rules.anchored", arxiv=arxiv, where=where),
                )
            )
            return
        excluded.add(
            title,
            [material.path],
            EvidenceLevel.summary,
            say("rules.paper_card"),
        )


def _stats_and_summary(summary: str) -> tuple[str, str]:
    """(the card's stats sentences, its first line of summary that is not only stats)."""
    stats: list[str] = []
    for line in summary.split("\n"):
        counted, rest = stats_sentences(line.strip()) if line.strip() else ("", "")
        stats += [counted] if counted else []
        if rest:
            return " ".join(stats), rest
    return " ".join(stats), ""


def _card_or_vendor(text: str, material: Material) -> list[NumberCitation]:
    """A card summary's numbers: its own counts (``1.2k stars``) at ``card``, every other at ``vendor``."""
    counts = card_counts(text)
    claims = [t for t in quantities(text) if t not in counts]
    return [
        *_citations(counts, EvidenceLevel.card, material, text, None),
        *_citations(claims, EvidenceLevel.vendor, material, text, None),
    ]


def _card_citation(material: Material, field: str, value: object, quote: bool = True) -> NumberCitation:
    line, line_text = card_field_line(material, field)
    text = str(value)
    return NumberCitation(
        text=text,
        value=parse_value(text),
        unit="⭐" if field.startswith("stars") else None,
        evidence=EvidenceLevel.card,
        source=SourceRef(
            path=material.path,
            line_start=line,
            line_end=line,
            quote=line_text if (line and quote) else None,
        ),
        quotable=False,
    )


_BULLET_LEAD = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)、])\s+")
_ASIDE = re.compile(r"[（(][^）)]*[）)]")


#: a release's version in an item's title: ``v0.5.21``, ``0.26.1``, ``V4.1`` (two parts at least)
_VERSION = re.compile(r"(?<![\w.])[vV]?\d+\.\d+(?:\.\d+)*(?:rc\d+)?(?![\w.%])")

#: a pre-release tag standing alone (``rc2``, ``beta1``): part of a version, not a new name
_PRE_RELEASE = re.compile(r"(?:rc|alpha|beta|dev|post)\d+", re.I)


def _norm(key: str) -> str:
    return key.strip().lower()


def _names(clause: str, key: str) -> bool:
    """Whether ``clause`` names ``key`` as a word (a Latin name not inside a longer one), case aside."""
    name, low = key.strip().lower(), clause.lower()
    if len(name) < 3:
        return False
    at = low.find(name)
    while at != -1:
        end = at + len(name)
        before, after = low[at - 1 : at], low[end : end + 1]
        if not (before.isascii() and before.isalnum()) and not (after.isascii() and after.isalnum()):
            return True
        at = low.find(name, at + 1)
    return False


def _said_empty(item: NoteItem) -> str | None:
    """The words by which the note says what was seen of the item holds nothing: in its text, or in its legend's
    words for the mark it carries (``题｜…`` under ``题 = 只有标题``: its deciding remark)."""
    return said_empty(item.text) or said_empty(" ".join(item.reading.deciding))


def new_version(item: NoteItem, doc: KnowledgeDoc) -> str | None:
    """The version a known item's title names that the living document does not hold, read in full
    or in part only (a version from a snippet is a lead, not a fact); None otherwise."""
    if item.evidence not in (EvidenceLevel.verified, EvidenceLevel.partial):
        return None
    for m in _VERSION.finditer(item.title):
        if not _holds_version(doc.text, m.group(0).lstrip("vV")):
            return m.group(0)
    return None


def _update_fact(item: NoteItem, doc: KnowledgeDoc, key: str, version: str | None, say: Phrases) -> str | None:
    """What makes a known subject's item, read at least in part, an update in place: a version the
    document has not recorded, or the note's own word that it is new, either with names the document lacks
    (new names alone do not make one: on the all-known golden day every recheck names some). None: a
    recheck."""
    if item.evidence not in (EvidenceLevel.verified, EvidenceLevel.partial):
        return None
    if version is not None:
        return say("rules.new_version", key=key, version=version) if _new_entities(item, doc, key, version) else None
    remark = said_new(item.text)
    names = _new_entities(item, doc, key, None) if remark is not None else []
    if remark is None or not names:
        return None
    return say("rules.said_new", key=key, remark=remark, names=say.join(names[:NAMES_SAID]))


def _new_entities(item: NoteItem, doc: KnowledgeDoc, key: str, version: str | None) -> list[str]:
    """The product-like names of the item (``MXFP4``, ``manifestSignature``) the living document does not
    hold, other than the subject, its version and the item's label: what makes a known subject's item an
    update rather than a refresh (a release that only moves the number is a refresh, as the hand briefs
    file it). None when the note says the document already has it."""
    if said_known(item.text) is not None:
        return []
    own = {key.lower(), (item.label or "").lower()}
    if version is not None:
        own |= {version.lower(), version.lstrip("vV").lower()}
    found: list[str] = []
    # a URL's path names no new thing, and a version's parts (``v0`` of ``v0.34.0``) are no name
    for m in _ENTITY.finditer(_VERSION.sub(" ", URL_RE.sub(" ", item.text))):
        name = m.group(0)
        if name.lower() in own or name in found or lexicon().is_generic(name):
            continue
        if not _VERSION.fullmatch(name) and not _PRE_RELEASE.fullmatch(name) and doc.search(name).hits == 0:
            found.append(name)
    return found


@lru_cache(maxsize=64)  # a batch names the same versions item after item; the text's hash is computed once
def _holds_version(text: str, bare: str) -> bool:
    """Whether ``text`` holds the version ``bare`` (``0.5.21`` is held by ``v0.5.21`` and ``SGLang 0.5.21``)."""
    return re.search(r"(?<![\d.])" + re.escape(bare) + r"(?![\d])", text) is not None


#: a field that holds the item's points (its value is substance, not bookkeeping)
_POINTS_PREFIX = re.compile(r"^(?:要点|Key points|Points)\s*[:：]\s*", re.I)
#: the least a body must say, past its URLs, fields and check remark, to be more than a pointer
_SUBSTANCE_MIN = 8


#: a table cell that says something: two words or more, or four CJK characters, or a number (not a tag: ``agent``)
_CLAUSE = re.compile(r"[^\W\d_]+[\s,，、]+[^\W\d_]+|[\u4e00-\u9fff]{4}")
#: words of a line (a Latin word, or one CJK character), and the most a title beside its pointer holds
_WORDS = re.compile(r"[A-Za-z0-9][\w.+-]*|[\u4e00-\u9fff]")
_TITLE_WORDS = 8
#: the terms a point must hold beyond its item's title and the topic's names to say something of it
_NEW_TERMS = 3
#: what is left of a point once its pointers are gone: a letter in any script says something
_SAYS = re.compile(r"[^\W\d_]{2}")
_POINTER = re.compile(r"\barXiv\b\s*[:：]?|\bv\d+\b", re.I)


def _says_what(point: str, told: frozenset[str], index: SectionIndex) -> bool:
    """Whether a key point says what the item is: more than ``told`` (its title and the topic: ``Lead3Serve
    does inference.``), in the document's terms (not ``下周有空精读``), not only where it is
    (``arXiv:2702.11460``, a URL, or a title beside one: ``PagedAttention revisited (arXiv:2611.09876)``), and
    not in words of how far it was read (``Search snippet only.``, ``摘要称…``: a line whose own words put it
    at a level is a remark, or a claim relayed)."""
    rest = _POINTER.sub("", ARXIV_RE.sub("", URL_RE.sub("", point)))
    if _SAYS.search(rest) is None:
        return False
    if rest != point and len(_WORDS.findall(rest)) <= _TITLE_WORDS:
        return False
    if len(set(term_set(rest)) - told) < _NEW_TERMS or index.overlap(rest) < MIN_TOPIC_OVERLAP:
        return False
    return line_evidence(point) is None


#: how much more than its title the first line of an item written as one paragraph holds (its other sentences)
_PARAGRAPH_MORE = 20
#: a title that names its subject before a colon and says what it is after, in clauses of the writer's own
#: (``Lumora AI 上线了 DocParse v1：托管 API，多页 PDF / 扫描件直接出结构化 JSON…``): an item written as one paragraph
#: says it in its first sentence. A paper's subtitle (``Tessera: All-Atom Flow Matching for …``) is one clause,
#: its title still
_DESCRIBED = re.compile(r"^(?P<head>[^：:\n]{2,60})(?:：|:\s)(?P<what>[^，,；;\n]{4,}[，,；;].{8,})$")


def _title_says_what(item: NoteItem, index: SectionIndex) -> bool:
    """Whether an item written as one paragraph says what its subject is in the first sentence that titles it,
    after the colon that ends its name, as a key point would. A title that is its whole line (a headline over
    its notes: ``星衡 HX-2 量产版发布：连续作业 8 小时，…``) is the source's words, never the writer's point."""
    first = item.text.lstrip("\n").split("\n", 1)[0]
    if len(first) < len(item.title) + _PARAGRAPH_MORE or (m := _DESCRIBED.match(item.title)) is None:
        return False
    return _says_what(m["what"], frozenset(term_set(m["head"])) | index.topic, index)


def _has_substance(item: NoteItem) -> bool:
    """Whether the item says something beyond its title and pointer: a table row's other cells, or a
    line of its body that is not a URL, a field of bookkeeping (URL, 核查, 日期 ...) or its check remark."""
    if item.cells:
        return True
    said = 0
    for line in item.text.split("\n")[1:]:
        text = _strip_bullet(line.strip())
        if points := _POINTS_PREFIX.match(text):
            text = text[points.end() :]  # a points field's value is what the item says
        elif _META_PREFIX.match(text):
            continue
        said += len(URL_RE.sub("", text).strip(" -—:：|*【】[]()（）<>"))
    title_rest = URL_RE.sub("", item.text.split("\n", 1)[0]).replace(item.title, "")
    return said + len(title_rest.strip(" #-—:：|*【】[]()（）")) >= _SUBSTANCE_MIN


def _strip_bullet(line: str) -> str:
    return _BULLET_LEAD.sub("", line).strip()


def _as_written(block: str) -> str:
    """A block's lines as its source has them, less its bullet and line breaks: what a citation quotes."""
    head, *rest = block.split("\n")
    return " ".join(x for x in (_strip_bullet(head), *(ln.strip() for ln in rest)) if x).strip()


def _point_text(block: str, say: Phrases | None = None) -> str:
    """A block as one key point: bullet and bold marks gone, a Markdown link written out (``say``: the
    brief's phrases, default Chinese)."""
    text = _as_written(block)
    if "](" in text:  # every link holds it
        link = (say or phrases()).table["punct.link"]
        text = MD_LINK.sub(lambda m: link.format(text=m.group(1), url=m.group(2)), text)
    return text.replace("**", "").strip()


def _short_title(item: NoteItem) -> str:
    """The item's title without asides, as a reader would name it (``DeepInfer 源码级拆解``)."""
    title = _ASIDE.sub("", item.title) if "(" in item.title or "（" in item.title else item.title
    return title.strip(" ：:")[:60]


def _once(refreshes: list[Refresh]) -> list[Refresh]:
    """Each refresh once: items of one note that recheck the same known subject, word for word the same
    refresh, are one recheck (stated twice, the verifier would reject every copy but the first)."""
    seen: set[str] = set()
    out = []
    for refresh in refreshes:
        said = refresh.model_dump_json()
        if said not in seen:
            seen.add(said)
            out.append(refresh)
    return out
