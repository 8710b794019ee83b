"""The deterministic ``rules`` backend: no model, no network; reads notes and cards by rule.

It decides, per item, new vs already present against the living document (zero hits of the
item's own name: new), keeps non-quotable numbers out of the key points, and leaves counts,
anchors and cross-document conflicts to the detectors, which run for every backend.
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

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
from ..check.detectors import display_name, doc_counts
from ..check.grouping import ExclusionGroups
from ..kb.knowledge import KnowledgeDoc
from ..kb.loading import KB, Material, card_field_line, card_repo, card_section
from ..read import markers
from ..read.identity import identify, may_be_known_as_a_lead
from ..read.notes import MD_LINK, NoteItem, blocks, index_only, is_stale, line_evidence, note_items, off_topic
from ..read.numbers import NumberToken, parse_value, quantities
from ..read.quotes import quote_of
from ..text.lexicon import lexicon
from ..text.textindex import term_set, terms
from .producer import Production

log = logging.getLogger(__name__)

#: items whose vocabulary barely overlaps the living document are off-topic for it
MIN_TOPIC_OVERLAP = 0.12
#: a product-like name: inner capitals or digits (``vLLM``, ``SGLang``, ``GB10``) or a hyphenated name (``llm-d``)
_ENTITY = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z]+[A-Z0-9][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9-]*[A-Za-z0-9])(?![A-Za-z0-9])"
)

_POINT_LINE = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)、])\s+(.*\S)\s*$")
_META_PREFIX = re.compile(
    r"^(?:URL|链接|来源|核查|部分核查|证据|日期|发布日期|发布|文档最后更新|Check|Checked|Evidence|Date|Source|"
    r"Link|要点|Key points|Points|初判|关联|Status|状态)\s*[:：]",
    re.I,
)
_BOUNDARY_PREFIX = re.compile(r"^(?:边界|证据边界|注意|限定|Caveat|Boundary|Limits?)\s*[:：]", re.I)


@dataclass
class SectionIndex:
    """Term weights per §x.y section, for suggesting where an item belongs."""

    sections: list[tuple[str, Counter[str]]]
    idf: dict[str, float]
    vocabulary: frozenset[str]
    #: product-like names the document uses (``vLLM``, ``SGLang``, ``GB10``, ``llm-d``), lowercased
    entities: frozenset[str] = frozenset()
    #: term -> the sections holding it (derived from ``sections``)
    postings: dict[str, list[int]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.postings = {}
        for n, (_, sec) in enumerate(self.sections):
            for t in sec:
                self.postings.setdefault(t, []).append(n)

    @classmethod
    def build(cls, doc: KnowledgeDoc) -> SectionIndex:
        lines = doc.text.split("\n")
        leaves = [s for s in doc.sections if s.id.count(".") >= 1] or doc.sections
        sections = [(s.id, terms("\n".join(lines[s.start - 1 : s.end]))) for s in leaves]
        df: Counter[str] = Counter()
        for _, bag in sections:
            df.update(bag.keys())
        n = max(len(sections), 1)
        idf = {t: math.log((n + 1) / (c + 0.5)) for t, c in df.items()}
        entities = frozenset(
            m.group(0).lower() for m in _ENTITY.finditer(doc.text) if not lexicon().is_generic(m.group(0))
        )
        return cls(sections, idf, frozenset(terms(doc.text)), entities)

    def names_entity(self, text: str) -> str | None:
        """A product-like name of ``text`` that the document also uses (the item is about its subject matter)."""
        for m in _ENTITY.finditer(text):
            if m.group(0).lower() in self.entities:
                return m.group(0)
        return None

    def suggest(self, text: str) -> str | None:
        """The section whose terms weigh most in ``text`` (the first one on a tie; None: no shared term)."""
        scores = [0.0] * len(self.sections)
        for t in term_set(text):  # only the sections that hold a term are touched (an inverted index)
            weight = self.idf.get(t, 0.0)
            for n in self.postings.get(t, ()):
                scores[n] += weight
        best, best_score = None, 0.0
        for (sid, _), score in zip(self.sections, scores, strict=True):
            if score > best_score:
                best, best_score = sid, score
        return best

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


class RulesProducer:
    """The embedded default backend."""

    name = "rules"

    def produce(self, kb: KB, doc: KnowledgeDoc) -> Production:
        index = SectionIndex.build(doc)
        out = Production()
        excluded = ExclusionGroups()  # a dump's excluded items are grouped as they come, not held as objects
        batch_date = kb.date  # read from the manifest once, not once per item
        for material in kb.materials:
            if material.status is not MaterialStatus.read:
                continue
            if material.kind is MaterialKind.repo_card:
                self._repo_card(material, doc, index, out, excluded)
            elif material.kind is MaterialKind.paper_card:
                self._paper_card(material, doc, out, excluded)
            elif material.kind in (MaterialKind.inbox_note, MaterialKind.other):
                for item in note_items(material):
                    self._note_item(batch_date, material, item, doc, index, out, excluded)
        out.excluded = excluded.lines()
        return out

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
        if item.duplicate_of is not None:
            excluded.add(
                _short_title(item) or f"{material.path}#{item.index}",
                [material.path],
                item.evidence,
                f"与本材料前文一条逐字相同（第 {item.duplicate_of} 条），只计一次",
                item.url,
            )
            return
        # read in full, only the numbers are the vendor's own: an increment whose numbers are not quotable
        vendor_read = item.evidence is EvidenceLevel.vendor and item.reading.read_in_full
        low = item.evidence not in (EvidenceLevel.verified, EvidenceLevel.partial) and not vendor_read
        stale = is_stale(item, batch_date)
        title = _short_title(item)
        # excluded whatever the document holds (stale, or a lead it cannot know), under its title:
        # who it is needs no subject candidates and no name searches
        unsearched = bool(title) and (stale or (low and not may_be_known_as_a_lead(item, doc)))
        ident = None if unsearched else identify(item, doc)
        known = ident is not None and ident.known(item.evidence, vendor_read)
        excluded_reason = None
        if stale:
            excluded_reason = f"内容日期 {item.date}，远早于批次日期（旧刊/旧内容），不作增量"
        elif known:
            pass
        elif low:
            excluded_reason = f"{item.evidence.label}（{item.remark or '无核查说明'}），列为待核查线索，不作增量"
        elif remark := off_topic(item.text):
            excluded_reason = f"笔记自述与本主题无关（「{remark}」），不作增量"
            out.off_topic.add((material.path, item.line_start))
        elif index.overlap(item.text) < MIN_TOPIC_OVERLAP and not index.names_entity(item.text):
            excluded_reason = "与活文档主题词几乎不重合，判为非本主题"
            out.off_topic.add((material.path, item.line_start))
        if excluded_reason:
            excluded.add(
                title or (ident.key if ident else ""), [material.path], item.evidence, excluded_reason, item.url
            )
            return
        assert ident is not None  # only an excluded item goes unidentified
        key, hits, url_known, anchored = ident.key, ident.hits, ident.url_known, ident.anchored
        if known and (version := new_version(item, doc)) is not None:
            # a known subject with a version the document has not recorded: an update in place
            inc = self._increment(material, item, key, hits, index)
            fact = f"{key} 活文档已收；本条的版本 {version} 活文档未记（新事实）。"
            out.increments.append(inc.model_copy(update={"kind": "update", "relation": fact}))
            return
        if known:
            where = sorted({s for h in hits for s in h.sections})
            summary = (
                f"{key}：活文档已收"
                + (f"（{'、'.join(where)}）" if where else "")
                + ("，同一 URL 已在文档中" if url_known else "")
                + (f"，arXiv:{anchored} 已是锚点" if anchored else "")
                + "；本轮不构成增量。"
            )
            out.refreshes.append(
                Refresh(key=key, sources=[material.path], evidence=item.evidence, summary=summary, doc_hits=hits)
            )
            return
        out.increments.append(self._increment(material, item, key, hits, index))

    def _increment(
        self, material: Material, item: NoteItem, key: str, hits: list[DocHits], index: SectionIndex
    ) -> Increment:
        points: list[str] = []
        boundary: list[str] = []
        numbers: list[NumberCitation] = []
        for offset, block in blocks(item.text)[1:]:
            first = _strip_bullet(block.strip().split("\n")[0])
            if _META_PREFIX.match(first):
                continue
            text = _point_text(block)
            if not text:
                continue
            tokens = quantities(text)
            # the level a block's own words impose is read only for its numbers (most blocks hold none)
            level = (line_evidence(block) or item.evidence) if tokens else item.evidence
            cited = _citations(tokens, level, material, text, item.line_start + offset)
            numbers += cited
            if _BOUNDARY_PREFIX.match(first):
                boundary.append(text)
            elif cited and not level.quotable:
                boundary.append(f"{text}（{level.label}，数字不可引用）")
            else:
                points.append(text)
        numbers += [
            c.model_copy(update={"source": c.source.model_copy(update={"quote": None})})
            for c in cite_numbers(item.title, item.evidence, material, "", item.line_start)
        ]
        rel = "；".join(f"活文档全文检索「{h.term}」{h.hits} 命中" for h in hits[:3])
        return Increment(
            key=key,
            title=item.title,
            sources=[material.path],
            url=item.url,
            evidence=item.evidence,
            evidence_note=f"笔记自述「{item.remark}」，本轮未开原网页复核" if item.remark else "笔记无核查说明",
            points=points,
            relation=rel
            + ("——是新条目，不是既有条目的复述。" if any(h.term == key and h.hits == 0 for h in hits) else ""),
            doc_hits=hits[:3],
            section=index.suggest(item.text),
            boundary=boundary,
            numbers=numbers,
        )

    # --- cards ---------------------------------------------------------------------------------

    def _repo_card(
        self, material: Material, doc: KnowledgeDoc, index: SectionIndex, out: Production, excluded: ExclusionGroups
    ) -> None:
        repo = card_repo(material)
        short = repo.split("/")[-1]
        hits = [doc.search(repo), doc.search(short)]
        if any(h.hits for h in hits):
            # known: the count_refresh detector compares the counts the document records; a repository the
            # document names without a count is still a refresh (re-collected, nothing new)
            if not doc_counts(doc, repo):
                where = sorted({sec for h in hits for sec in h.sections})
                out.refreshes.append(
                    Refresh(
                        key=display_name(doc, repo),
                        sources=[material.path],
                        evidence=EvidenceLevel.card,
                        summary=f"{repo}：活文档已收"
                        + (f"（{'、'.join(where)}）" if where else "")
                        + "，未记计数；卡片重采不构成新观点。",
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
            reason = "卡片内容与活文档主题词几乎不重合，判为非本主题，不作增量"
        elif index_only(material.body) or short.lower().startswith("awesome"):
            reason = "资源索引/汇总列表，不含新的技术内容，不作增量"
        if reason:
            url = str(material.front.get("url") or "") or None
            excluded.add(short, [material.path], EvidenceLevel.card, reason, url)
            return
        stars, weekly = material.front.get("stars"), material.front.get("stars_weekly")
        boundary = []
        numbers: list[NumberCitation] = []
        if stars is not None:
            seen = material.front.get("last_seen") or material.front.get("first_seen") or ""
            boundary.append(f"卡片采集：{stars} ⭐ / 周增 +{weekly or 0}（{seen} 采集，计数不作结论）")
            for field in ("stars", "stars_weekly"):
                value = material.front.get(field)
                if value is not None:
                    numbers.append(_card_citation(material, field, value))
            if weekly is None:
                numbers.append(_card_citation(material, "stars_weekly", 0, quote=False))
        points = [summary.split("\n")[0].strip()] if summary else []
        point_numbers = [c for p in points for c in cite_numbers(p, EvidenceLevel.vendor, material, p, None)]
        if point_numbers:
            boundary.append(f"{points[0]}（仓库自述，数字不可引用）")
            numbers += point_numbers
            points = []
        elif points and markers.find(points[0], markers.LOWERING_KINDS):
            # the card says part of its own summary is a claim (``the author's own claim``): not a finding
            boundary.append(f"{points[0]}（仓库自述，未经核实）")
            points = []
        out.increments.append(
            Increment(
                key=short,
                title=repo,
                sources=[material.path],
                url=str(material.front.get("url") or "") or None,
                evidence=EvidenceLevel.card,
                evidence_note="repo_card 采集元数据；仓库本身本轮未打开",
                points=points,
                relation="；".join(f"活文档全文检索「{h.term}」{h.hits} 命中" for h in hits),
                doc_hits=hits,
                section=index.suggest(material.body),
                boundary=boundary,
                numbers=numbers,
            )
        )

    def _paper_card(self, material: Material, doc: KnowledgeDoc, out: Production, excluded: ExclusionGroups) -> None:
        arxiv = str(material.front.get("arxiv") or "")
        title = str(material.front.get("title") or arxiv or material.path)
        if arxiv and doc.anchored(arxiv):
            where = "、".join(doc.anchors[arxiv]) or "附录"
            out.refreshes.append(
                Refresh(
                    key=title,
                    sources=[material.path],
                    evidence=EvidenceLevel.card,
                    summary=f"arXiv:{arxiv} 已是活文档锚点（{where}）；卡片刷新不构成新观点。",
                )
            )
            return
        excluded.add(
            title,
            [material.path],
            EvidenceLevel.summary,
            "paper_card 只有 TLDR/摘要级信息，未读原文：列为候选，不作增量",
        )


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


def new_version(item: NoteItem, doc: KnowledgeDoc) -> str | None:
    """The version a known item's title names that the living document does not hold, read in full
    or in part only (a version from a snippet is a lead, not a fact); None otherwise."""
    if item.evidence not in (EvidenceLevel.verified, EvidenceLevel.partial):
        return None
    for m in _VERSION.finditer(item.title):
        if not _holds_version(doc.text, m.group(0).lstrip("vV")):
            return m.group(0)
    return None


@lru_cache(maxsize=64)  # a batch names the same versions item after item; the text's hash is computed once
def _holds_version(text: str, bare: str) -> bool:
    """Whether ``text`` holds the version ``bare`` (``0.5.21`` is held by ``v0.5.21`` and ``SGLang 0.5.21``)."""
    return re.search(r"(?<![\d.])" + re.escape(bare) + r"(?![\d])", text) is not None


def _strip_bullet(line: str) -> str:
    return _BULLET_LEAD.sub("", line).strip()


def _point_text(block: str) -> str:
    if "\n" in block:
        head, *rest = block.split("\n")
        text = " ".join(x for x in (_strip_bullet(head), *(ln.strip() for ln in rest)) if x)
    else:  # most blocks are one line
        text = _strip_bullet(block)
    if "](" in text:  # every link holds it
        text = MD_LINK.sub(r"\1（\2）", text)
    return text.replace("**", "").strip()


def _short_title(item: NoteItem) -> str:
    """The item's title without asides, as a reader would name it (``DeepInfer 源码级拆解``)."""
    title = _ASIDE.sub("", item.title) if "(" in item.title or "（" in item.title else item.title
    return title.strip(" ：:")[:60]
