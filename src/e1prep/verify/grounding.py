"""What the materials and the living document hold: names, identifiers, URLs, arXiv ids, sections and
hit counts, looked up once per batch (the state every check reads)."""

from __future__ import annotations

import bisect
import re
import unicodedata
from array import array
from collections.abc import Iterable, Iterator
from itertools import accumulate

from ..brief.models import (
    Contradiction,
    ContradictionKind,
    EvidenceLevel,
    Increment,
    MaterialKind,
    MaterialStatus,
    Refresh,
    SourceRef,
    Violation,
)
from ..brief.phrases import Phrases, phrases
from ..kb.knowledge import KnowledgeDoc, arxiv_ids
from ..kb.loading import KB
from ..kb.numbering import SECTION_CODE, SECTION_ID
from ..read.lines import URL_RE
from ..read.numbers import normalize, occurs_in
from ..text.lexicon import lexicon
from ..text.regexgate import guarded
from .bookkeeping import Bookkeeping
from .facts import MaterialFacts, NameSearch, filed, packed
from .indexes import Carried, Cited, NumberMemo
from .values import date_of

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
#: ``_URLISH`` less its file-name branch, and that branch's end (``_blank_urlish`` joins them)
_URL_OR_SECTION = re.compile(r"(?:https?://|www\.)\S+|§\s*\d+(?:\.\d+)*")
_FILE_END = re.compile(r"\.(?:md|json|ya?ml|txt)\b")
_RUN = re.compile(r"\S+")


def _blank_urlish(text: str) -> str:
    """``_URLISH.sub(" ", text)`` in linear time: its branch ``\\S+\\.md`` rescans a word to its end from
    every place of the word where it fails (seconds for a claim that lists ten thousand numbers)."""
    if _FILE_END.search(text) is None:  # the file-name branch cannot match: the rest is linear
        return _URL_OR_SECTION.sub(" ", text)
    out, at = [], 0
    for start, end in _urlish_spans(text):
        out += [text[at:start], " "]
        at = end
    out.append(text[at:])
    return "".join(out)


def _urlish_spans(text: str) -> list[tuple[int, int]]:
    """``_URLISH.finditer``'s spans. Its file-name branch matches at a place of a word (a run of
    non-spaces) when a file ending (``.md``) begins after it in that word, and ends after the word's last
    one: each word's last ending is found once; the other branches are searched as they are."""
    runs = [m.span() for m in _RUN.finditer(text)]
    starts = [a for a, _ in runs]
    last: dict[int, tuple[int, int]] = {}  # per word: where its last file ending begins and ends
    for m in _FILE_END.finditer(text):
        last[bisect.bisect_right(starts, m.start()) - 1] = m.span()
    #: the words whose file-name branch matches from their first character
    whole = sorted(n for n, (dot, _) in last.items() if dot > starts[n])

    def file_from(pos: int) -> tuple[int, int] | None:
        """The file-name branch's first match at or after ``pos``."""
        n = bisect.bisect_right(starts, pos) - 1
        if n >= 0 and pos < runs[n][1] and n in last and last[n][0] > pos:  # within a word that holds one
            return pos, last[n][1]
        k = bisect.bisect_right(whole, n)
        return (starts[whole[k]], last[whole[k]][1]) if k < len(whole) else None

    spans: list[tuple[int, int]] = []
    pos, other = 0, _URL_OR_SECTION.search(text)
    while True:
        if other is not None and other.start() < pos:
            other = _URL_OR_SECTION.search(text, pos)
        named = file_from(pos)
        # at one place the branches are tried in order: a URL, then a file name, then a section
        if named is not None and (
            other is None or named[0] < other.start() or (named[0] == other.start() and other.group().startswith("§"))
        ):
            spans.append(named)
        elif other is not None:
            spans.append(other.span())
        else:
            return spans
        pos = spans[-1][1]


#: the tool's own vocabulary (material kinds, evidence levels, contradiction kinds) needs no source
_VOCABULARY = frozenset(
    {k.value for k in MaterialKind} | {k.value for k in EvidenceLevel} | {k.value for k in ContradictionKind}
)
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
#: the longest name of a setting or a fact's term read whole: a pattern tried at every place of a
#: long word reads at most this far from each (the word ``a.a.a…`` of 4,000 characters cost its square)
NAME_REACH = 64
#: a setting and its value: a command-line flag (``--max-num-batched-tokens 8192``) or an assignment
#: (``VLLM_USE_FLASHINFER_MOE_FP4=0``); the value is an identifier, not a quantity
_PARAMETER = re.compile(
    rf"(?:--[A-Za-z][\w.-]{{0,{NAME_REACH}}}[ =]|\b[A-Za-z_][\w.]{{0,{NAME_REACH}}}=)\s*(\d+(?:\.\d+)?)(?![\w.%])"
)
_ARXIV_ID = re.compile(r"\d{4}\.\d{4,5}(?:v\d+)?")
#: a section id (its letters as the document writes them, ``§S2.2``), or a section named in words (any case)
_SECTION_ID = re.compile(
    rf"(?-i:{SECTION_ID})|(?:\bSection\s?|\bSec\.\s?|章节\s?)(\d+(?:\.\d+)*)|(?-i:{SECTION_CODE})", re.I
)
#: the terms of a fact: versions (``0.5.20``, ``v0.30``), identifiers with digits, Latin words of four letters+
_FACT_TERM = re.compile(
    rf"[vV]?\d{{1,{NAME_REACH}}}(?:\.\d+)+|[A-Za-z][\w.\-]{{0,{NAME_REACH}}}\d[\w.\-]*|[A-Za-z][A-Za-z\-]{{3,}}"
)
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{4,}")
#: a text checked for an object: the text, the object's sources, what its citations carry, its own name's spans
_TextKey = tuple[str, tuple[str, ...], Carried, tuple[tuple[int, int], ...]]
#: a name squashed shorter than this is too common a string to be searched without its spacing
_SQUASHED_MIN = 6


_SEPARATORS = re.compile(r"[\s\-_·]+")


def _squash(text: str) -> str:
    """A text without case, spacing, hyphens or underscores (NFKC first)."""
    return _SEPARATORS.sub("", unicodedata.normalize("NFKC", text)).casefold()


class _Squashed:
    """A text squashed (:func:`_squash`), and where a separator stood between two of its characters: a name
    squashed is found in it whole, never as part of a word (``ReMask`` is not in ``remasking``), however the
    text spaces it (``Agent Mosaic``, ``AgentMosaic``)."""

    def __init__(self, text: str) -> None:
        norm = unicodedata.normalize("NFKC", text)
        parts: list[str] = []
        self.joins = array("L")  # positions of the squashed text where a separator run was dropped
        at = last = 0
        for m in _SEPARATORS.finditer(norm):
            parts.append(norm[last : m.start()])
            at += m.start() - last
            last = m.end()
            self.joins.append(at)
        parts.append(norm[last:])
        self.text = "".join(parts).casefold()
        if len(self.text) != at + len(norm) - last:  # casefolding changed a length (``ß`` is ``ss``)
            self.joins = array("L", accumulate(len(part.casefold()) for part in parts[:-1]))

    def holds(self, name: str) -> bool:
        """Whether squashed ``name`` stands in the text with a word boundary at either end."""
        at = self.text.find(name)
        while at >= 0:
            if self._boundary(at) and self._boundary(at + len(name)):
                return True
            at = self.text.find(name, at + 1)
        return False

    def _boundary(self, p: int) -> bool:
        if p <= 0 or p >= len(self.text) or not (_word_char(self.text[p - 1]) and _word_char(self.text[p])):
            return True
        i = bisect.bisect_left(self.joins, p)
        return i < len(self.joins) and self.joins[i] == p


def _word_char(c: str) -> bool:
    return c.isascii() and c.isalnum()


class Grounding:
    """The verifier's view of one batch: its read materials, the living document, and the lookups on them."""

    def __init__(self, kb: KB, doc: KnowledgeDoc, say: Phrases | None = None) -> None:
        self.kb = kb
        self.doc = doc
        #: the brief's phrases: a reason names a level with its label in the brief's language (default: Chinese)
        self.say = say or phrases()
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
        #: every URL and arXiv id of the materials, what is looked up: most lookups end here, the rest
        #: search the texts once each. One index for the batch (one per material made a lookup cost as
        #: many steps as the batch has materials); it files each URL's occurrence number under the URL's
        #: hash, and the occurrence says in which text and where (a set of every URL as a string, or of
        #: every word, would cost several times a dump in memory)
        self._url_text, self._url_at = array("I"), array("q")
        self._urls = packed(self._url_occurrences())
        self._arxiv = {a for text in self._texts for a in arxiv_ids(text)}
        self._in_materials: dict[str, bool] = {}
        self._hits: dict[str, int] = {}
        self._squashed_doc: _Squashed | None = None
        self._items_memo: dict[tuple[int, str], list[int]] = {}
        #: what each number cited or written in the brief carries, for this verification
        self.numbers = NumberMemo()
        #: the ungrounded names of a text read against some grounds (a batch repeats its sentences)
        self._ungrounded: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}
        #: each text of the brief without its URLs, file names and bookkeeping (``_bare``), as
        #: ``learn_names`` made it: the checks that follow read the same texts
        self._bares: dict[str, str] = {}
        #: what a text's check found (rule, words, reason), by the text, its object's sources and citations
        self._checked: dict[_TextKey, tuple[tuple[str, str, str], ...]] = {}
        #: one index per distinct set of what an object's citations carry (the memo above compares
        #: the same index by identity, not entry by entry)
        self._carried: dict[tuple[Cited, ...], Carried] = {}

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
        for n in filed(self._urls, text):
            m = URL_RE.match(self._texts[self._url_text[n]], self._url_at[n])
            if m is not None and m.group() == text:
                return True
        return False

    def _url_occurrences(self) -> Iterator[tuple[str, int]]:
        """Each URL of the materials with its occurrence number, recording where the occurrence stands."""
        for i, t in enumerate(self._texts):
            for m in URL_RE.finditer(t):
                self._url_text.append(i)
                self._url_at.append(m.start())
                yield m.group(), len(self._url_at) - 1

    def _in_texts(self, text: str) -> bool:
        """In one material's text; a text with a line break may also run from one material into the next
        (the materials read as one text joined by line breaks)."""
        if "\n" in text:
            return text in "\n".join(self._texts)
        return any(text in t for t in self._texts)

    def grounds_of(self, sources: list[str]) -> list[MaterialFacts]:
        return [self.facts[s] for s in (*sources, self.doc.path) if s in self.facts]

    def named(self, name: str, grounds: list[MaterialFacts]) -> bool:
        """A key-like name (a member of a group) stands in a ground as written or by its subject's words."""
        return self._named(name, grounds) or self._every_word_named(name, grounds)

    def named_all(self, names: list[str], grounds: list[MaterialFacts]) -> set[str]:
        """Those of many names that stand in a ground as written, in one pass over each ground."""
        return {name for f in grounds for name in f.names_all(names)}

    def named_by_words(self, names: list[str], grounds: list[MaterialFacts]) -> set[str]:
        """``_every_word_named`` for many names at once: their words and character pairs are looked up in
        one pass over each ground."""
        ids: dict[str, int] = {}  # each distinct word or pair once; a name holds its parts as small numbers
        parts = []
        for name in names:
            words, pairs = self._word_parts(name)
            parts.append(
                (tuple(ids.setdefault(w, len(ids)) for w in words), tuple(ids.setdefault(p, len(ids)) for p in pairs))
            )
        tokens = list(ids)
        held = {ids[t] for t in self.named_all(tokens, grounds)} if tokens else set()
        held |= {ids[t] for t in tokens if self.bookkeeping.is_word(t) or self._in_header(t)}
        out = set()
        for name, (words_ids, pair_ids) in zip(names, parts, strict=True):
            if not words_ids and not pair_ids:
                continue
            if not all(w in held for w in words_ids):
                continue
            if not pair_ids or sum(1 for p in pair_ids if p in held) / len(pair_ids) >= _CJK_SHARE:
                out.add(name)
        return out

    def _word_parts(self, name: str) -> tuple[list[str], list[str]]:
        """A name's Latin words (less bookkeeping and function words) and its CJK character pairs."""
        bare = self.bookkeeping.pattern.sub(" ", name)
        words = [w for w in _KEY_WORD.findall(bare) if w.casefold() not in _FUNCTION_WORDS and not w.isdigit()]
        pairs = [run[i : i + 2] for run in _CJK_RUN.findall(bare) for i in range(len(run) - 1)]
        return words, pairs

    def _every_word_named(self, name: str, grounds: list[MaterialFacts]) -> bool:
        """Every Latin word of a name stands in a ground, and most of its CJK character pairs do (a
        title as the rules clean it, less its link marks and spacing)."""
        return name in self.named_by_words([name], grounds)

    def known(self, name: str) -> bool:
        """Whether the living document names ``name``, however it is spaced (``AgentMosaic``,
        ``Agent　Mosaic`` and ``Agent-Mosaic`` are ``Agent Mosaic``)."""
        if self.hits(name) or self.hits(unicodedata.normalize("NFKC", name)):
            return True
        squashed = _squash(name)
        if len(squashed) < _SQUASHED_MIN:
            return False
        if self._squashed_doc is None:
            self._squashed_doc = _Squashed(self.doc.text)
        return self._squashed_doc.holds(squashed)

    def new_fact(self, inc: Increment) -> bool:
        """Whether an update states something the living document lacks: a name, version or term of
        its points or relation, or four characters in a row of its Chinese, that the document does not
        hold. An update with no such term at all is not judged here."""
        texts = [*inc.points, inc.relation]
        terms = {m.group(0).strip(".-") for t in texts for m in _FACT_TERM.finditer(t)}
        terms = {t for t in terms if len(t) >= 3}
        # a fact written in Chinese: a four-character window of it the document does not hold
        windows = {run[i : i + 4] for t in texts for run in _CJK_RUN.findall(t) for i in range(len(run) - 3)}
        if not terms and not windows:
            return True
        return any(not self.known(t) for t in terms) or any(w not in self.doc.text for w in windows)

    def hits(self, term: str) -> int:
        if term not in self._hits:
            self._hits[term] = self.doc.search(term).hits
        return self._hits[term]

    def section_exists(self, section: str) -> bool:
        """A section field names sections by id (``§1.2``, ``Section 1.2``), perhaps in a sentence: every
        id it names exists, and it names at least one."""
        ids = ["§" + (m.group(1) or m.group(2) or m.group(3)) for m in _SECTION_ID.finditer(section)]
        return bool(ids) and all(i in self.section_ids for i in ids)

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

    def _names_in(self, path: str, text: str, grounds: list[MaterialFacts]) -> list[Violation]:
        """Name-like words and bracketed labels of a text occur in a ground."""
        key = (text, tuple(f.material.path for f in grounds))
        names = self._ungrounded.get(key)
        if names is None:
            names = self._ungrounded[key] = self._ungrounded_names(text, grounds)
        reason = "found in none of the object's sources nor the living document"
        return [Violation(path=path, rule="name-ungrounded", text=name, reason=reason) for name in names]

    def learn_names(self, texts: Iterable[str]) -> None:
        """Whether each name-like word of many texts occurs in each read material, found in one pass over
        each material (``MaterialFacts.learn_names``), before the texts are checked one by one."""
        names: set[str] = set()
        self._bares = {}
        for text in texts:
            bare = self._bares[text] = self._bare(text)
            found = [m.group(1) or m.group(2) for m in _BRACKET.finditer(bare)]
            found += [m.group(0).rstrip(".") for m in _NAME_WORD.finditer(bare)]
            found += [m.group(0) for m in _CAPITALISED.finditer(bare)]
            for name in found:
                name = name.strip()
                names.add(name)
                names.update(part for part in name.split("/") if part)
        search = NameSearch.of(names)
        for facts in self.batch:
            facts.learn_names(search)

    def _bare(self, text: str) -> str:
        """``text`` with its URLs, file names, section ids and bookkeeping tokens blanked: where names are read."""
        return self.bookkeeping.pattern.sub(" ", _blank_urlish(text))

    def _ungrounded_names(self, text: str, grounds: list[MaterialFacts]) -> tuple[str, ...]:
        out: list[str] = []
        bare = self._bares.get(text)
        if bare is None:
            bare = self._bare(text)
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

    def _quoted_section(self, ref: str, grounds: list[MaterialFacts]) -> bool:
        """Whether a section reference stands, as written, in one of the object's own materials (not the
        living document): the source's section, quoted by the note that read it."""
        return any(f.material.path != self.doc.path and f.contains(ref) for f in grounds)

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
