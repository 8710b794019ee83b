"""The deterministic verifier: no number without a cited evidence level, nothing ungrounded.

Rule ids are stable; a report lists (object path, rule, offending text, reason). The verifier
never calls a model and never trusts the level a citation claims: it re-reads the level from
the material line the number stands on.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from ..brief.models import (
    Anchor,
    Brief,
    Contradiction,
    ContradictionKind,
    EvidenceLevel,
    Increment,
    MaterialKind,
    MaterialStatus,
    NumberCitation,
    Refresh,
    SourceRef,
    Violation,
    field_or,
)
from ..kb.knowledge import ARXIV_RE, KnowledgeDoc, arxiv_ids, occurrences
from ..kb.loading import KB
from ..read.markers import RANK as _RANK
from ..read.markers import strictest
from ..read.notes import URL_RE, NoteItem
from ..read.numbers import NumberToken, normalize, number_cores, occurs_in, scan
from ..text.lexicon import lexicon
from ..text.regexgate import guarded
from .bookkeeping import Bookkeeping
from .disposition import Settler, blank_marked
from .facts import MaterialFacts, filed, packed
from .report import Report
from .values import Value, bears, carries, date_of, digits_alike, hidden, values
from .whole import check_brief

#: name-like words: compounds joined by - _ . / (``nvidia_flake8_2019``, ``recursive-oss/rec``),
#: words mixing letters and digits (``flake8``), and bracketed labels (``[flake8]``, ``【X】``)
_NAME_WORD = guarded(
    re.compile(
        r"(?<![\w\-./])[A-Za-z][A-Za-z0-9]*(?:[\-_./][A-Za-z0-9]+)+(?![\w\-/])"
        r"|(?<![\w\-./])[A-Za-z]+\d[A-Za-z0-9]*(?![\w\-/])"
    )
)
_BRACKET = re.compile(r"\[([^\[\]\n]{1,60})\](?!\()|【([^【】\n]{1,60})】")
_URLISH = re.compile(r"(?:https?://|www\.)\S+|\S+\.(?:md|json|ya?ml|txt)\b|§\s*\d+(?:\.\d+)*")

#: the tool's own vocabulary (material kinds, evidence levels, contradiction kinds) needs no source
_VOCABULARY = frozenset(
    {k.value for k in MaterialKind} | {k.value for k in EvidenceLevel} | {k.value for k in ContradictionKind}
)

# names are bounded (200 characters): an unbounded lazy \S+? rescans a long token from every start (quadratic)
_HIT_CLAIM = re.compile(r"「([^「」]{1,200})」\s*=?\s*(\d+)\s*命中|(\S{1,200}?)\s*=\s*(\d+)\s*命中")
#: its first alternative alone: without an ``=`` the second cannot match, and it costs a scan of up
#: to 200 characters from every place of the text
_HIT_CLAIM_QUOTED = re.compile(r"「([^「」]{1,200})」\s*=?\s*(\d+)\s*命中")
_NOT_FOUND = re.compile(r"「([^「」]{1,200})」\s*(?:未命中|零命中|无命中)")
#: a key's Latin words (its names) and CJK runs, and what is not a name among the words
_KEY_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9+#]*(?:[\-_.][A-Za-z0-9+#]+)*")
#: a word that is a name: a digit, an inner capital, two capitals, or a joiner inside it
_NAME_LIKE = re.compile(r"\d|[a-z][A-Z]|[A-Z]{2}|\w[\-_./]\w")
_ISSUE_KEY = re.compile(r"([\w.\-]+)#(\d+)")
_IDENT_GAP = re.compile(r"(?<=[A-Za-z])[ -](?=\d)")
#: a capitalised word with a small letter in it, a word with an inner capital (``SiliconServe``), and
#: the separators of a list of names (``vLLM / SGLang / Lumina``, ``MLX + llama.cpp + X``)
_CAPITALISED = re.compile(r"(?<![\w\-./])[A-Z](?=[A-Za-z]*[a-z])[A-Za-z]{2,}(?![\w\-/])")
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
_LISTED = re.compile(r"\s*(?:/|、|\+|＋|，|,|或|和|与|及|vs\.?)\s*")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
_FUNCTION_WORDS = frozenset({"vs", "and", "or", "the", "of", "in", "on", "for", "with", "to", "a", "an", "by"})
#: the share of a CJK key's character pairs its sources must hold
_CJK_SHARE = 0.6
_VERSION = re.compile(r"v?(\d+\.\d+)(?:\.0)?")
#: the end of a range of sections (``§2.1–2.4``): not a quantity
_SECTION_RANGE = re.compile(r"§\s*\d+(?:\.\d+)*\s*[-–~]\s*(\d+(?:\.\d+)*)")
#: a setting and its value: a command-line flag (``--max-num-batched-tokens 8192``) or an assignment
#: (``VLLM_USE_FLASHINFER_MOE_FP4=0``); the value is an identifier, not a quantity
_PARAMETER = re.compile(r"(?:--[A-Za-z][\w.-]*[ =]|\b[A-Za-z_][\w.]*=)\s*(\d+(?:\.\d+)?)(?![\w.%])")
_LAST_QUOTED = re.compile(r"「([^「」]+)」\s*$")
_ARXIV_ID = re.compile(r"\d{4}\.\d{4,5}(?:v\d+)?")
#: hit counts said in other words: ``「X」共 8 处命中``, ``「X」命中 8 次``, ``X has 8 hits``
_HIT_OTHER = re.compile(
    r"「([^「」]{1,200})」\s*(?:共|有)?\s*(\d+)\s*处命中|「([^「」]{1,200})」\s*命中\s*(\d+)\s*次"
    r"|([\w.\-/]{2,80})\s+has\s+(\d+)\s+hits?\b"
)
_SECTION_ID = re.compile(r"(?:§|\bSection\s?|\bSec\.\s?|章节\s?)(\d+(?:\.\d+)*)", re.I)
_TEXT_FIELDS = (
    "title",
    "points",
    "relation",
    "boundary",
    "summary",
    "claim",
    "detail",
    "action",
    "evidence_note",
    "section",
)

#: texts whose ungrounded names the verifier remembers at a time
_MEMO_TEXTS = 4096
#: what one citation carries: its numerals, and their values
_Cited = tuple[frozenset[str], tuple[Value, ...]]
#: a text checked for an object: the text, the object's sources, what its citations carry
_TextKey = tuple[str, tuple[str, ...], tuple[_Cited, ...]]


class Verifier:
    """Checks brief objects against the KB the brief was drafted from."""

    def __init__(self, kb: KB, doc: KnowledgeDoc) -> None:
        self.kb = kb
        self.doc = doc
        self.facts: dict[str, MaterialFacts] = {}
        for m in (*kb.materials, *kb.spot_checks, kb.knowledge_material):
            if m.status is MaterialStatus.read:
                self.facts[m.path] = MaterialFacts.build(m)
        self.scope = {m.path for m in (*kb.materials, *kb.spot_checks)}
        self._texts = [m.text for m in (*kb.materials, *kb.spot_checks) if m.status is MaterialStatus.read]
        self.section_ids = {s.id for s in doc.sections}
        self.bookkeeping = Bookkeeping.of(kb, doc)
        #: every read material of the batch, and the living document
        self.batch = list(self.facts.values())
        #: every URL (per text: where each stands, filed under its hash) and arXiv id of the materials,
        #: what is looked up: most lookups end here, the rest search the texts once each (a set of
        #: every word, or of every URL as a string, would cost several times a dump in memory)
        self._urls = [packed((m.group(), m.start()) for m in URL_RE.finditer(t)) for t in self._texts]
        self._arxiv = {a for text in self._texts for a in arxiv_ids(text)}
        self._in_materials: dict[str, bool] = {}
        self._hits: dict[str, int] = {}
        self._squashed_doc: str | None = None
        self._items_memo: dict[tuple[int, str], list[int]] = {}
        #: the ungrounded names of a text read against some grounds (a batch repeats its sentences)
        self._ungrounded: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}
        #: what a text's check found (rule, words, reason), by the text, its object's sources and citations
        self._checked: dict[_TextKey, tuple[tuple[str, str, str], ...]] = {}

    def in_materials(self, text: str) -> bool:
        """Does ``text`` occur verbatim in a material? (URLs, arXiv ids: answered once each.)"""
        found = self._in_materials.get(text)
        if found is None:
            whole_token = text.startswith(("http://", "https://", "www.")) or _ARXIV_ID.fullmatch(text) is not None
            # a URL or an arXiv id stands whole or not at all (a prefix of a real one is another one)
            found = self._is_token(text) or (not whole_token and self._in_texts(text))
            self._in_materials[text] = found
        return found

    def _is_token(self, text: str) -> bool:
        """Whether ``text`` is one of the materials' arXiv ids, or exactly one of their URLs."""
        if text in self._arxiv:
            return True
        for t, urls in zip(self._texts, self._urls, strict=True):
            for at in filed(urls, text):
                m = URL_RE.match(t, at)
                if m is not None and m.group() == text:
                    return True
        return False

    def _in_texts(self, text: str) -> bool:
        """In one material's text; a text with a line break may also run from one material into the next
        (the materials read as one text joined by line breaks)."""
        if "\n" in text:
            return text in "\n".join(self._texts)
        return any(text in t for t in self._texts)

    # --- what the whole-brief checks ask (verify.whole) ------------------------------------------

    def carried_by(self, brief: Brief) -> list[_Cited]:
        """What every citation of the brief carries, and the brief's own counts (its objects, excluded
        items, materials): the brief's own sentences may restate any of it."""
        counts = {
            len(brief.increments),
            len(brief.refreshes),
            len(brief.contradictions),
            len(brief.anchors),
            len(brief.excluded),
            sum(max(len(e.members), 1) for e in brief.excluded),
            sum(max(len(c.members), 1) for c in brief.contradictions),
            len(brief.sources),
            len(self.kb.item.materials),
            sum(1 for m in self.kb.materials if m.status is MaterialStatus.read),
        }
        own = [(frozenset({str(n)}), (Value(float(n), None, None),)) for n in counts]
        return own + list(
            {
                _carried(c): None
                for name in ("increments", "refreshes", "contradictions")
                for o in getattr(brief, name)
                for c in o.numbers
            }
        )

    def check_text(self, path: str, text: str, grounds: list[MaterialFacts], carried: list[_Cited]) -> list[Violation]:
        """A text that belongs to no object, checked as an object's would be."""
        text = blank_marked(text)
        return self._text(path, text, grounds, carried) if text.strip() else []

    def grounds_of(self, sources: list[str]) -> list[MaterialFacts]:
        return [self.facts[s] for s in (*sources, self.doc.path) if s in self.facts]

    def named(self, name: str, grounds: list[MaterialFacts]) -> bool:
        """A key-like name (a member of a group) stands in a ground as written or by its subject's words."""
        return self._named(name, grounds) or self._every_word_named(name, grounds)

    def named_all(self, names: list[str], grounds: list[MaterialFacts]) -> set[str]:
        """Those of many names that stand in a ground as written, in one pass over each ground."""
        return {name for f in grounds for name in f.names_all(names)}

    def _every_word_named(self, name: str, grounds: list[MaterialFacts]) -> bool:
        """Every Latin word of a name stands in a ground, and most of its CJK character pairs do (a
        title as the rules clean it, less its link marks and spacing)."""
        bare = self.bookkeeping.pattern.sub(" ", name)
        words = [w for w in _KEY_WORD.findall(bare) if w.casefold() not in _FUNCTION_WORDS and not w.isdigit()]
        pairs = [run[i : i + 2] for run in _CJK_RUN.findall(bare) for i in range(len(run) - 1)]
        if not words and not pairs:
            return False
        if not all(self._named(w, grounds) for w in words):
            return False
        return not pairs or sum(1 for p in pairs if any(f.names(p) for f in grounds)) / len(pairs) >= _CJK_SHARE

    def level_stated(self, path: str, entry: Any) -> list[Violation]:
        """An entry's level against what its material states (``_object_level``)."""
        return self._object_level(path, entry)

    def known(self, name: str) -> bool:
        """Whether the living document names ``name``, however it is spaced (``AgentMosaic``,
        ``Agent　Mosaic`` and ``Agent-Mosaic`` are ``Agent Mosaic``)."""
        if self.hits(name) or self.hits(unicodedata.normalize("NFKC", name)):
            return True
        squashed = _squash(name)
        if len(squashed) < _SQUASHED_MIN:
            return False
        if self._squashed_doc is None:
            self._squashed_doc = _squash(self.doc.text)
        return squashed in self._squashed_doc

    def hits(self, term: str) -> int:
        if term not in self._hits:
            self._hits[term] = self.doc.search(term).hits
        return self._hits[term]

    # --- whole brief ---------------------------------------------------------------------------

    def verify(self, brief: Brief) -> Report:
        report = Report()
        for name in ("increments", "refreshes", "contradictions", "anchors"):
            for n, obj in enumerate(getattr(brief, name)):
                report.violations += self.check_object(f"{name}[{n}]", obj)
        report.violations += check_brief(self, brief)
        return report

    def settle(self, brief: Brief) -> Report:
        """Verify ``brief``, then repair what is a claim's failure and reject what is its object's:
        ``Report.brief`` keeps the repaired objects; every repair and rejection is listed."""
        report = self.verify(brief)
        first: dict[str, list[Violation]] = {}
        for v in report.violations:
            first.setdefault(_object_prefix(v.path), []).append(v)
        settler = Settler(
            check=self.check_object,
            readable=lambda path: path in self.facts,
            fresh_hits=self.hits,
            anchored=self.doc.anchored,
        )
        settled = settler.settle(brief, first)
        settled.violations = report.violations
        return settled

    def check_object(self, path: str, obj: Increment | Refresh | Contradiction | Anchor) -> list[Violation]:
        self._items_memo.clear()  # the items each of its sources holds of it, for its citations
        out: list[Violation] = self._sources(path, obj)
        if isinstance(obj, Anchor):
            return out + self._anchor(path, obj) + self._anchor_text(path, obj)
        out += self._object_level(path, obj)
        out += self._key(path, obj)
        members = obj.members if isinstance(obj, Contradiction) else []
        grounds = self._grounds(obj) if members else []
        named = {m for f in grounds for m in f.names_all(members)}
        for n, member in enumerate(members):
            if member not in named and not self._named(member, grounds):
                reason = "a grouped item that occurs in none of the object's sources"
                out.append(Violation(path=f"{path}.members[{n}]", rule="key-ungrounded", text=member, reason=reason))
        if isinstance(obj, Contradiction) and obj.location is not None:
            out += self._location(f"{path}.location", obj.location, obj)
        section = field_or(obj, "section")
        if section and not self.section_exists(section):
            out.append(
                Violation(
                    path=f"{path}.section",
                    rule="section-unknown",
                    text=section,
                    reason="names no section of the living document",
                )
            )
        citations = obj.numbers
        for n, cite in enumerate(citations):
            out += self._citation(f"{path}.numbers[{n}]", cite, obj)
        # what each citation carries, once per object (distinct ones only)
        cited = list({_carried(c): None for c in citations})
        for field_path, text in _texts(path, obj):
            out += self._text_checked(field_path, text, obj, cited)
        out += self._key_numbers(path, obj, cited)
        if isinstance(obj, Increment):
            out += self._points_quotable(path, obj)
            if obj.kind == "new" and self.known(obj.key):
                out.append(
                    Violation(
                        path=f"{path}.key",
                        rule="known-as-new",
                        text=obj.key,
                        reason="the living document already names it (under this or another spelling): not new",
                    )
                )
        for h in field_or(obj, "doc_hits", []):
            fresh = self.hits(h.term)
            if fresh != h.hits:
                out.append(
                    Violation(
                        path=f"{path}.doc_hits",
                        rule="hit-count-wrong",
                        text=f"{h.term}={h.hits}",
                        reason=f"a fresh search finds {fresh}",
                    )
                )
        url = field_or(obj, "url")
        if url and not self.in_materials(url):
            out.append(
                Violation(path=f"{path}.url", rule="url-not-in-material", text=url, reason="URL occurs in no material")
            )
        return _once_per_name(out)

    # --- pieces --------------------------------------------------------------------------------

    def section_exists(self, section: str) -> bool:
        """A section field names sections by id (``§1.2``, ``Section 1.2``), perhaps in a sentence: every
        id it names exists, and it names at least one."""
        ids = ["§" + m.group(1) for m in _SECTION_ID.finditer(section)]
        return bool(ids) and all(i in self.section_ids for i in ids)

    def _sources(self, path: str, obj: Increment | Refresh | Contradiction | Anchor) -> list[Violation]:
        out: list[Violation] = []
        for src in obj.sources:
            if src == self.doc.path and src in self.facts:  # the living document: what the batch is measured against
                continue
            if src not in self.scope:
                reason = "not a material of this manifest item"
                out.append(Violation(path=f"{path}.sources", rule="source-not-read", text=src, reason=reason))
            elif src not in self.facts:
                reason = "material was not read"
                out.append(Violation(path=f"{path}.sources", rule="source-not-read", text=src, reason=reason))
            elif self.facts[src].empty:
                reason = "the material holds no text"
                out.append(Violation(path=f"{path}.sources", rule="source-empty", text=src, reason=reason))
        return out

    def _grounds(self, obj: Increment | Refresh | Contradiction) -> list[MaterialFacts]:
        return [self.facts[s] for s in (*obj.sources, self.doc.path) if s in self.facts]

    def _named(self, name: str, grounds: list[MaterialFacts], near: SourceRef | None = None) -> bool:
        """A name occurs in a ground (its text or its file name), whole or (``a/b``) part by part;
        the header's date and version count. ``near``: the object's own place, looked at first."""
        if name in _VOCABULARY or self.bookkeeping.is_word(name) or self._in_header(name):
            return True
        if near is not None and near.line_start is not None:
            span = (near.line_start, near.line_end or near.line_start)
            if any(f.material.path == near.path and f.names(name, span) for f in grounds):
                return True
        if any(f.names(name) for f in grounds):
            return True
        issue = _ISSUE_KEY.fullmatch(name)  # ``vllm#61007``: the issue's own URL names it
        if issue and any(
            re.search(rf"/{re.escape(issue.group(1))}/(?:issues|pull)/{issue.group(2)}(?!\d)", f.material.text, re.I)
            for f in grounds
        ):
            return True
        parts = [p for p in name.split("/") if p]
        return len(parts) > 1 and all(any(f.names(p) for f in grounds) for p in parts)

    def _key_numbers(self, path: str, obj: Increment | Refresh | Contradiction, cited: list[_Cited]) -> list[Violation]:
        """A key is the item's title as its material writes it; a number in a key no source writes so
        (``DeepInfer 吞吐 977 倍``) needs a citation like any other."""
        src, _, line = obj.key.rpartition(":")
        if src in obj.sources and line.isdigit():  # a detector's ``material:line`` key names its own line
            return []
        if not any(tok.kind == "quantity" for tok in scan(obj.key)) or self._named(obj.key, self._grounds(obj)):
            return []
        out = []
        for tok in scan(obj.key):
            if tok.kind == "quantity":
                out += self._quantity(f"{path}.key", tok, cited)
        return out

    def _key(self, path: str, obj: Increment | Refresh | Contradiction) -> list[Violation]:
        """The key names something in the object's sources or the living document (a detector's
        ``material:line`` key names its own source line)."""
        key = obj.key.strip()
        grounds = self._grounds(obj)
        if self._named(key, grounds, field_or(obj, "location")):
            return []
        src, _, line = key.rpartition(":")
        if src in obj.sources and line.isdigit():
            return []
        plain = normalize(key).casefold().replace("`", "").replace("*", "")
        if plain and any(plain in f.unmarked for f in grounds):  # a title as written, less its Markdown marks
            return []
        if self._subject_named(key, grounds) or self._subject_named(key, self.batch):
            return []
        return [
            Violation(
                path=f"{path}.key",
                rule="key-ungrounded",
                text=key,
                reason="occurs in none of the object's sources nor the living document",
            )
        ]

    def _subject_named(self, key: str, grounds: list[MaterialFacts]) -> bool:
        """A key written as a description (``DeepInfer 性能与单价数字``) is grounded by its subject: every
        Latin word of it (its names) occurs in a ground, and there is at least one; a key of CJK words
        only, by most of its character pairs."""
        bare = self.bookkeeping.pattern.sub(" ", key)
        words = [w for w in _KEY_WORD.findall(bare) if w.casefold() not in _FUNCTION_WORDS and not w.isdigit()]
        if words:
            # a name (``FooServe``, ``GB10``, ``sm_121``) must stand in a ground; of plain words
            # (``Bug``, ``Adaptive``) most do, and at least one word does
            names = [w for w in words if _NAME_LIKE.search(w)]
            plain = [w for w in words if not _NAME_LIKE.search(w)]
            found = sum(1 for w in plain if self._named(w, grounds))
            return (
                all(self._named(w, grounds) for w in names) and found >= len(plain) // 2 and (bool(names) or found > 0)
            )
        pairs = [run[i : i + 2] for run in _CJK_RUN.findall(bare) for i in range(len(run) - 1)]
        if not pairs:
            return False
        found = sum(1 for pair in pairs if any(f.names(pair) for f in grounds))
        return found / len(pairs) >= _CJK_SHARE

    def _location(self, path: str, loc: SourceRef, obj: Contradiction) -> list[Violation]:
        out: list[Violation] = []
        facts = self.facts.get(loc.path)
        if (loc.path not in self.scope and loc.path != self.doc.path) or facts is None:
            return [
                Violation(
                    path=f"{path}.path",
                    rule="source-not-read",
                    text=loc.path,
                    reason="not a read material of this manifest item",
                )
            ]
        if loc.quote and not facts.has_quote(loc.quote, (loc.line_start, loc.line_end)):
            out.append(
                Violation(
                    path=f"{path}.quote",
                    rule="quote-not-in-source",
                    text=loc.quote[:80],
                    reason=f"not verbatim in {loc.path}",
                )
            )
        if loc.url and not self.in_materials(loc.url):
            reason = "URL occurs in no material"
            out.append(Violation(path=f"{path}.url", rule="url-not-in-material", text=loc.url, reason=reason))
        return out

    def _names_in(self, path: str, text: str, grounds: list[MaterialFacts]) -> list[Violation]:
        """Name-like words and bracketed labels of a text occur in a ground."""
        key = (text, tuple(f.material.path for f in grounds))
        names = self._ungrounded.get(key)
        if names is None:
            if len(self._ungrounded) >= _MEMO_TEXTS:  # bounded: a dump's texts are not all held twice
                self._ungrounded.clear()
            names = self._ungrounded[key] = self._ungrounded_names(text, grounds)
        reason = "found in none of the object's sources nor the living document"
        return [Violation(path=path, rule="name-ungrounded", text=name, reason=reason) for name in names]

    def _ungrounded_names(self, text: str, grounds: list[MaterialFacts]) -> tuple[str, ...]:
        out: list[str] = []
        bare = self.bookkeeping.pattern.sub(" ", _URLISH.sub(" ", text))
        seen: set[str] = set()
        labels = [m.group(1) or m.group(2) for m in _BRACKET.finditer(bare)]
        words = [m.group(0).rstrip(".") for m in _NAME_WORD.finditer(bare)]
        for name in (*labels, *words):
            name = name.strip()
            if not name or name in seen:
                continue
            seen.add(name)
            if not self._named(name, grounds):
                out.append(name)
        # a capitalised word names something (``Lumina``, ``SiliconServe``): some material of the batch
        # or the living document holds it, whatever the object's own sources
        generic = lexicon().generic
        for m in _CAPITALISED.finditer(bare):
            name = m.group(0)
            listed = _LISTED.search(bare, max(m.start() - 3, 0), m.start()) or _LISTED.match(bare, m.end())
            paired = _CAPITALISED.match(bare, m.end() + 1) if bare[m.end() : m.end() + 1] == " " else None
            if paired is not None:  # two capitalised words in a row name one thing (``Orchestra Deploy``)
                name = f"{name} {paired.group(0)}"
            elif not (_INNER_CAPITAL.search(name) or listed):  # a plain word, not named among names
                continue
            if name not in seen and name.casefold() not in _FUNCTION_WORDS and name.casefold() not in generic:
                seen.add(name)
                if not all(self._named(w, grounds) or self._named(w, self.batch) for w in name.split(" ")):
                    out.append(name)
        return tuple(out)

    def _object_level(self, path: str, obj: Increment | Refresh | Contradiction) -> list[Violation]:
        """An object's own level, re-derived from its source items by the plain rule, whoever made it."""
        if not obj.evidence.quotable:
            return []
        notes = [f for s in obj.sources if (f := self.facts.get(s)) is not None and f.items]
        if not notes:
            return []
        # its item: the one with its URL, else the ones whose title names it, else whose text does
        # (looked up in per-material indexes, not by scanning every item per object)
        matched = [p for f in notes for p in self._items_of(obj, f)]
        if not matched:
            return [
                Violation(
                    path=f"{path}.evidence",
                    rule="evidence-overstated",
                    text=obj.evidence.value,
                    reason="no item of its sources names it, so nothing states a full read of it",
                    level=EvidenceLevel.unverified,
                )
            ]
        if any(level.quotable for _, level in matched):  # (a name several items share: one suffices)
            return []
        worst = min(matched, key=lambda m: _RANK[m[1]])
        return [
            Violation(
                path=f"{path}.evidence",
                rule="evidence-overstated",
                text=obj.evidence.value,
                reason=f"its item in {worst[0].material} (line {worst[0].line_start}) is {worst[1].value} "
                f"({worst[1].label}) by the plain rule",
                level=worst[1],
            )
        ]

    def _citation(self, path: str, cite: NumberCitation, obj: Increment | Refresh | Contradiction) -> list[Violation]:
        facts = self.facts.get(cite.source.path)
        if facts is None:
            return [
                Violation(
                    path=f"{path}.source",
                    rule="source-not-read",
                    text=cite.source.path,
                    reason="cited material is not in scope or was not read",
                )
            ]
        out = self._citation_place(path, cite, obj, facts)
        if not self._bears(facts, cite):
            out.append(
                Violation(
                    path=path, rule="citation-not-in-source", text=cite.text, reason=f"not found in {cite.source.path}"
                )
            )
        if cite.source.quote and not facts.has_quote(cite.source.quote, (cite.source.line_start, cite.source.line_end)):
            out.append(
                Violation(
                    path=f"{path}.source.quote",
                    rule="quote-not-in-source",
                    text=cite.source.quote[:80],
                    reason=f"not verbatim in {cite.source.path}",
                )
            )
        if cite.source.url and not self.in_materials(cite.source.url):
            out.append(
                Violation(
                    path=f"{path}.source.url",
                    rule="url-not-in-material",
                    text=cite.source.url,
                    reason="URL occurs in no material",
                )
            )
        line = cite.source.line_start
        actual = facts.level_of(cite.text, line)
        if actual is None and line is not None and 0 < line <= facts.line_count:  # borne by value on its line
            actual = facts.line_level(line - 1)
        if actual is not None and (cite.quotable or cite.evidence.quotable) and not actual.quotable:
            out.append(
                Violation(
                    path=path,
                    rule="evidence-overstated",
                    text=cite.text,
                    reason=f"its line in {cite.source.path} is {actual.value} ({actual.label}), "
                    f"but the citation says {cite.evidence.value}, quotable={cite.quotable}",
                    level=actual,
                )
            )
        return out

    def _bears(self, facts: MaterialFacts, cite: NumberCitation) -> bool:
        """The cited number stands in its material: as written, or by value on the cited line (a card's
        ``stars_weekly: 63`` bears ``+63``; ``0.23.0`` bears ``0.23``)."""
        if facts.contains(cite.text):
            return True
        line = cite.source.line_start
        if line is not None and 0 < line <= facts.line_count:
            last = min(cite.source.line_end or line, facts.line_count)
            raw = "\n".join(facts.raw_line(n) for n in range(line - 1, last))
            if bears(raw, cite.text):
                return True
        version = _VERSION.fullmatch(cite.text.strip())  # ``0.23`` and ``0.23.0`` name one version
        if version is None:
            return False
        short = version.group(1)
        return any(
            occurs_in(short, facts.line(n)) or occurs_in(short + ".0", facts.line(n))
            for n in facts.lines_with(max(number_cores(short), key=len))
        )

    def _citation_place(
        self, path: str, cite: NumberCitation, obj: Increment | Refresh | Contradiction, facts: MaterialFacts
    ) -> list[Violation]:
        """A citation comes from one of its object's own sources (or the living document), and from a
        line of the item the object speaks of."""
        src = cite.source.path
        if src not in obj.sources and src != self.doc.path:
            reason = "the cited material is not one of the object's sources"
            return [Violation(path=f"{path}.source", rule="citation-foreign-source", text=src, reason=reason)]
        line = cite.source.line_start
        if line is None or not facts.items or not 0 < line <= len(facts.line_items):
            return []
        n = facts.line_items[line - 1]
        if n < 0:  # a line of no item (the note's header): nothing to hold it against
            return []
        item = facts.items[n]
        if isinstance(obj, Contradiction):  # a registration speaks of the item it locates, or its members'
            loc = obj.location
            if loc is None or loc.path != src or loc.line_start is None:
                return []
            if item.line_start <= loc.line_start <= item.line_end:
                return []
            text = item.text.casefold()
            if any(member.casefold() in text for member in obj.members):
                return []
        ours = self._items_memo.get((id(obj), src))
        if ours is None:
            ours = self._items_memo[(id(obj), src)] = [id(i) for i, _ in self._items_of(obj, facts)]
        if id(item) not in ours and (ours or isinstance(obj, Contradiction)):
            reason = f"line {line} of {src} lies outside the item the object speaks of"
            return [Violation(path=f"{path}.source", rule="citation-foreign-source", text=cite.text, reason=reason)]
        return []

    def _items_of(
        self, obj: Increment | Refresh | Contradiction, facts: MaterialFacts
    ) -> list[tuple[NoteItem, EvidenceLevel]]:
        """The items of a note an object speaks of: the one with its URL, else those whose title
        names its key, else those whose text does."""
        key = obj.key.casefold()
        found = (
            facts.items_with_url(field_or(obj, "url"))
            or facts.items_naming(key, "title")
            or facts.items_naming(key, "text")
        )
        if found:
            return found
        # a key written as a description: the items whose text names each of its names
        bare = self.bookkeeping.pattern.sub(" ", obj.key)  # ``T-2 …``: the brief's own numbering names no item
        words = [w.casefold() for w in _KEY_WORD.findall(bare) if _NAME_LIKE.search(w) or len(w) > 3]
        if not words:
            return []
        each = [{id(i): (i, lvl) for i, lvl in facts.items_naming(word, "text")} for word in words]
        common = {k: v for k, v in each[0].items() if all(k in other for other in each[1:])}
        if common:
            return list(common.values())
        # a key that names several items (``A / B 性能数字``): the items of each of its names
        return list({k: v for found in each for k, v in found.items()}.values())

    def _text_checked(
        self, path: str, text: str, obj: Increment | Refresh | Contradiction, cited: list[_Cited]
    ) -> list[Violation]:
        """``_text``, remembered for a text checked against the same sources and citations (a batch
        repeats its sentences in object after object; a grouped line's members are read each time)."""
        if ".points[" not in path:  # a sentence marked with its level states no finding (a key point does)
            text = blank_marked(text)
        if not text.strip():
            return []
        if isinstance(obj, Contradiction) and obj.members:
            return self._text(path, text, self._grounds(obj), cited, obj.members)
        key = (text, tuple(obj.sources), tuple(cited))
        found = self._checked.get(key)
        if found is None:
            if len(self._checked) >= _MEMO_TEXTS:  # bounded, as the names' memo
                self._checked.clear()
            found = self._checked[key] = tuple(
                (v.rule, v.text, v.reason) for v in self._text("", text, self._grounds(obj), cited)
            )
        return [Violation(path=path, rule=rule, text=said, reason=reason) for rule, said, reason in found]

    def _text(
        self,
        path: str,
        text: str,
        grounds: list[MaterialFacts],
        cited: list[_Cited],
        members: list[str] | None = None,
    ) -> list[Violation]:
        """One text's claims checked against its grounds and what its object's citations carry."""
        out: list[Violation] = []
        carried = list(cited)
        if members:  # a grouped registration states its own size
            carried.append((frozenset({str(len(members))}), (Value(float(len(members)), None, None),)))
        # what needs no citation: a hit count (checked against a fresh search), bookkeeping, the
        # names of a grouped registration's members (each checked as grounded)
        skip = [*self.bookkeeping.spans(text), *(m.span(1) for m in _SECTION_RANGE.finditer(text))]
        skip += [m.span(1) for m in _PARAMETER.finditer(text)]
        out += self._settings(path, text, grounds)
        for m in _hit_claim_matches(text):
            # a searched name found in the object's grounds is a name, whatever digits it holds; one
            # found nowhere is read like any text (a number cannot hide in it)
            term = 1 if m.group(1) else 3
            whole = self._named(m.group(term), grounds)
            skip.append(m.span() if whole else m.span(term + 1))
        if members:
            skip += _spans_of(text, members)
        out += self._hit_claims(path, text)
        for tok in scan(text):
            if any(a <= tok.start < b for a, b in skip):
                continue
            if tok.kind == "quantity" or (tok.type == "ordinal" and _large(tok.text)):
                out += self._quantity(path, tok, carried)
            elif tok.type == "section":
                sid = "§" + re.sub(r"^(?:§|Section|Sec\.|章节)\s*", "", tok.text, flags=re.I).split("-")[0].strip()
                if sid not in self.section_ids:
                    out.append(
                        Violation(
                            path=path,
                            rule="section-unknown",
                            text=tok.text,
                            reason="no such section in the living document",
                        )
                    )
            elif tok.type == "arxiv":
                out += self._arxiv_text(path, tok.text)
            elif tok.type in ("version", "issue", "name", "date") and not self._grounded(tok.text, grounds):
                out.append(
                    Violation(
                        path=path,
                        rule="identifier-ungrounded",
                        text=tok.text,
                        reason="found in none of the object's sources nor the living document",
                    )
                )
        out += self._hidden(path, text, skip, carried)
        reported = {v.text for v in out}
        out += [v for v in self._names_in(path, text, grounds) if v.text not in reported]
        for url in URL_RE.findall(text):
            url = url.rstrip(".,;:)")
            if not self.in_materials(url):
                out.append(
                    Violation(path=path, rule="url-not-in-material", text=url, reason="URL occurs in no material")
                )
        return out

    def _settings(self, path: str, text: str, grounds: list[MaterialFacts]) -> list[Violation]:
        """A setting's value (``--gpu-memory-utilization 0.9``) is no finding; the setting must stand in a ground."""
        out = []
        for m in _PARAMETER.finditer(text):
            if not self._grounded(m.group(0).strip(), grounds) and not any(f.spells(m.group(1)) for f in grounds):
                reason = "a setting found in none of the object's sources"
                out.append(Violation(path=path, rule="identifier-ungrounded", text=m.group(0), reason=reason))
        return out

    def _hidden(self, path: str, text: str, skip: list[tuple[int, int]], carried: list[_Cited]) -> list[Violation]:
        """Numbers written without digits (``三倍``, ``一百五十五万亿``, ``② 倍``) need a citation too."""
        out = []
        for start, _end, said, value in hidden(text):
            if any(a <= start < b for a, b in skip) or any(carries(c[1], value) for c in carried):
                continue
            alike = any(digits_alike(value.amount, v.amount) for c in carried for v in c[1])
            rule = "number-mismatch" if alike else "quantity-uncited"
            out.append(Violation(path=path, rule=rule, text=said, reason="a number written without digits"))
        return out

    def _quantity(self, path: str, tok: NumberToken, carried: list[_Cited]) -> list[Violation]:
        """A quantity is bound to a citation that carries its value; one that only shares its digits
        with a citation (another unit, magnitude, sign or kind) is a different number."""
        wanted = values(tok.text)
        if wanted and all(any(carries(c[1], w) for c in carried) for w in wanted):
            return []
        cores = set(tok.cores)
        if not wanted and any(cores <= c[0] for c in carried):
            return []
        if wanted and any(cores <= c[0] for c in carried):
            reason = "its digits are cited, but as another number (unit, magnitude, sign or kind differ)"
            return [Violation(path=path, rule="number-mismatch", text=tok.text, reason=reason)]
        reason = "no number citation of this object carries it"
        return [Violation(path=path, rule="quantity-uncited", text=tok.text, reason=reason)]

    def _hit_claims(self, path: str, text: str) -> list[Violation]:
        """``「name」N 命中`` and ``「name」未命中`` claims, checked against a fresh search."""
        out: list[Violation] = []
        if "命中" not in text and "hit" not in text:
            return out
        claims = [
            (m, *next((m.group(g), m.group(g + 1)) for g in range(1, m.re.groups, 2) if m.group(g)))
            for rx in (_hit_claim_matches(text), _HIT_OTHER.finditer(text))
            for m in rx
        ]
        for m, said, count in claims:
            quoted = _LAST_QUOTED.search(said)  # ``全文检索「X」=0 命中``: the name is what the brackets hold
            term = quoted.group(1) if quoted else said
            fresh = self.hits(term)
            if fresh != int(count):
                out.append(
                    Violation(
                        path=path,
                        rule="hit-count-wrong",
                        text=m.group(0),
                        reason=f"a fresh search finds {fresh} hit(s) of {term!r}",
                    )
                )
        for m in _NOT_FOUND.finditer(text):
            if self.hits(m.group(1)):
                out.append(
                    Violation(
                        path=path,
                        rule="hit-count-wrong",
                        text=m.group(0),
                        reason=f"{m.group(1)!r} occurs {self.hits(m.group(1))} time(s)",
                    )
                )
        return out

    def _grounded(self, token: str, grounds: list[MaterialFacts]) -> bool:
        if self.bookkeeping.is_word(token) or any(f.contains(token) for f in grounds) or self._in_header(token):
            return True
        spaced = _IDENT_GAP.sub("-", token)  # ``Llama 3.1`` is written ``Llama-3.1`` too, and the other way
        if any(f.spells(token) or (spaced != token and f.spells(spaced)) for f in grounds):
            return True
        day = date_of(token)
        return day is not None and any(f.has_date(day) for f in grounds)

    def _in_header(self, token: str) -> bool:
        # each part on its own: normalize() drops spaces, and joined dates would run into each other
        parts = (self.kb.date, self.kb.manifest.created, self.doc.version or "")
        return any(part and occurs_in(token, normalize(str(part))) for part in parts)

    def _arxiv_text(self, path: str, text: str) -> list[Violation]:
        ids = [m.group(1) for m in ARXIV_RE.finditer(text)]
        if not ids:
            return [Violation(path=path, rule="arxiv-malformed", text=text, reason="not a well-formed arXiv id")]
        return [
            Violation(path=path, rule="arxiv-not-in-material", text=i, reason="occurs in no material")
            for i in ids
            if not self.in_materials(i) and not self.doc.anchored(i)
        ]

    def _anchor_text(self, path: str, anchor: Anchor) -> list[Violation]:
        """An anchor's key and title name its paper as its sources do; its sections exist."""
        grounds = self.grounds_of(anchor.sources)
        out = []
        key = anchor.key.strip()
        words = [w for w in _KEY_WORD.findall(key) if w.casefold() not in _FUNCTION_WORDS]
        if (
            key
            and key != anchor.arxiv
            and not self._named(key, grounds)
            and not all(self._named(w, grounds) for w in words)
        ):  # a paper's title: every word of it stands in its sources
            reason = "occurs in none of the anchor's sources nor the living document"
            out.append(Violation(path=f"{path}.key", rule="key-ungrounded", text=key, reason=reason))
        if anchor.title:
            out += self.check_text(f"{path}.title", anchor.title, grounds, [])
        for n, section in enumerate(anchor.sections):
            if not self.section_exists(section):
                reason = "no such section in the living document"
                out.append(Violation(path=f"{path}.sections[{n}]", rule="section-unknown", text=section, reason=reason))
        return out

    def _anchor(self, path: str, anchor: Anchor) -> list[Violation]:
        out = []
        if not re.fullmatch(r"\d{2}(0[1-9]|1[0-2])\.\d{4,5}", anchor.arxiv):
            out.append(
                Violation(
                    path=f"{path}.arxiv", rule="arxiv-malformed", text=anchor.arxiv, reason="not a well-formed arXiv id"
                )
            )
        if not self.in_materials(anchor.arxiv):
            out.append(
                Violation(
                    path=f"{path}.arxiv",
                    rule="arxiv-not-in-material",
                    text=anchor.arxiv,
                    reason="occurs in no material",
                )
            )
        actual = "anchored" if self.doc.anchored(anchor.arxiv) else "new"
        if anchor.status != actual:
            out.append(
                Violation(
                    path=f"{path}.status",
                    rule="anchor-status-wrong",
                    text=anchor.status,
                    reason=f"the living document says {actual}",
                )
            )
        return out

    def _points_quotable(self, path: str, inc: Increment) -> list[Violation]:
        """A number read at a non-quotable level must not be a finding in the key points (written in
        digits or not: ``一百五十五万亿`` is the vendor's ``155 万亿``)."""
        out = []
        cited = [(c, _carried(c)) for c in inc.numbers]
        for n, point in enumerate(inc.points):
            skip = [*self.bookkeeping.spans(point), *(m.span(1) for m in _PARAMETER.finditer(point))]
            found = [
                (tok.text, set(tok.cores), values(tok.text))
                for tok in scan(point)
                if tok.kind == "quantity" and not any(a <= tok.start < b for a, b in skip)
            ]
            found += [(said, set(), (value,)) for start, _end, said, value in hidden(point)]
            for said, cores, wanted in found:
                binding = [
                    c
                    for c, (numerals, held) in cited
                    if (wanted and all(carries(held, w) for w in wanted)) or (cores and cores <= numerals)
                ]
                level = self._unquotable(binding)
                if level is not None:
                    reason = "read at a non-quotable level; belongs in the evidence boundary"
                    out.append(
                        Violation(
                            path=f"{path}.points[{n}]",
                            rule="not-quotable-as-finding",
                            text=said,
                            reason=reason,
                            level=level,
                        )
                    )
        return out

    def _unquotable(self, binding: list[NumberCitation]) -> EvidenceLevel | None:
        """The level that keeps a number bound to ``binding`` out of the key points (None: quotable): every
        citation says it is not quotable, or its line is read below verified (a card's count aside)."""
        levels = [
            self.facts[c.source.path].level_of(c.text, c.source.line_start)
            for c in binding
            if c.source.path in self.facts
        ]
        low = [lvl for lvl in levels if lvl is not None and not lvl.quotable and lvl is not EvidenceLevel.card]
        if not ((binding and all(not c.quotable or not c.evidence.quotable for c in binding)) or low):
            return None
        stated = [c.evidence for c in binding if not c.evidence.quotable]
        return strictest(*low, *stated) if low or stated else EvidenceLevel.unverified


#: a name squashed shorter than this is too common a string to be searched without its spacing
_SQUASHED_MIN = 6


def _squash(text: str) -> str:
    """A text without case, spacing, hyphens or underscores (NFKC first)."""
    return re.sub(r"[\s\-_·]+", "", unicodedata.normalize("NFKC", text)).casefold()


def _large(text: str) -> bool:
    """An ordinal past 999 (``step 40000``) counts something: it is a quantity."""
    return any(len(core) > 3 for core in number_cores(text))


def _carried(cite: NumberCitation) -> _Cited:
    """What a citation carries: the numerals of its number, and their values."""
    return frozenset(number_cores(cite.text)), values(cite.text)


def _object_prefix(path: str) -> str:
    """``increments[3]`` of ``increments[3].points[1]``; a brief-level path as it is."""
    head, sep, _ = path.partition("]")
    return head + sep if sep else path


_UNGROUNDED = frozenset({"key-ungrounded", "identifier-ungrounded", "name-ungrounded"})


def _once_per_name(violations: list[Violation]) -> list[Violation]:
    """An ungrounded name is reported once per object (at its first place: the key when it is the key)."""
    seen: set[str] = set()
    out = []
    for v in violations:
        if v.rule in _UNGROUNDED:
            if v.text in seen:
                continue
            seen.add(v.text)
        out.append(v)
    return out


def _hit_claim_matches(text: str) -> Iterator[re.Match[str]]:
    """The ``name N 命中`` claims of a text (``_HIT_CLAIM``'s matches, found as cheaply as can be)."""
    if "命中" not in text:
        return iter(())
    return (_HIT_CLAIM if "=" in text else _HIT_CLAIM_QUOTED).finditer(text)


def _spans_of(text: str, names: list[str]) -> list[tuple[int, int]]:
    """Where each of ``names`` stands in ``text`` (every occurrence)."""
    spans = []
    for name in dict.fromkeys(n for n in names if n):
        spans += [(at, at + len(name)) for at in occurrences(text, name)]
    return spans


def _texts(path: str, obj: Any) -> Iterator[tuple[str, str]]:
    for name in _TEXT_FIELDS:
        value = field_or(obj, name)
        if isinstance(value, str) and value:
            yield f"{path}.{name}", value
        elif isinstance(value, list):
            for n, v in enumerate(value):
                if isinstance(v, str):
                    yield f"{path}.{name}[{n}]", v
