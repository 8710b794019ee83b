"""One subject, one object: what several producers made of the same thing becomes one object.

Both merges run after verification, so each object was checked as its producer made it and a
rejected model object never takes a rules object with it. ``unify`` runs first, then ``merge``:

- ``unify``: across producers, by identity: the same URL, the same GitHub repository, issue or
  pull request, the same arXiv id, the same card, the same key, or (within one material) a name
  that holds the other. A reader (a model, an agent, a reference answer) decides what the subject
  is: its object stands, with its grounded key and title, and the rules object of the same subject
  is absorbed into it (its sources and, in the same class, its citations). A reader's verdict
  (``lead``, ``stale``, ``off_topic``, ``not_an_item``) moves the rules object to the excluded list
  with the reader's reason. A reader's increment of a subject the rules excluded overrules them only
  with the material's own words for its level (``_against_exclusion``). What no reader covered
  stays as the rules read it; rules-only input is returned unchanged.
- ``merge``: the same kind and key named twice becomes one object with all its sources and citations.

Nothing is dropped silently: every absorbed object's material is among the sources of the object
that stands for it, and an excluded entry names who decided.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self, TypeVar

from ..brief.models import Excluded, Increment, NumberCitation, Refresh, field_or
from ..brief.phrases import Phrases, phrases
from ..kb.knowledge import arxiv_ids
from ..text.naming import github_ref, norm_name

RULES = "rules"
_CARD_DIRS = ("repo_cards/", "paper_cards/")


class _Mergeable(Protocol):
    key: str
    sources: list[str]
    numbers: list[NumberCitation]

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self: ...


T = TypeVar("T", bound=_Mergeable)


def _norm_key(key: str) -> str:
    return re.sub(r"[\s\-_/.·]+", "", key.lower())


def merge(objects: Sequence[T]) -> list[T]:
    """The same thing named twice (same kind, same key) becomes one object with all its sources."""
    out: list[T] = []
    index: dict[tuple[str, str], int] = {}
    # per merged object: its sources and citations so far (citations keyed by their JSON: linear, not n²)
    sources: dict[int, dict[str, None]] = {}
    numbers: dict[int, dict[str, NumberCitation]] = {}
    for entry in objects:
        if field_or(entry, "members"):  # a grouped line stays its own line (its members keep the keys)
            out.append(entry)
            continue
        kind = field_or(entry, "kind", type(entry).__name__)
        keys = [(str(kind), token) for token in _same_subject(entry)]
        shown, asked = _stems(entry)
        n = next((index[k] for k in [*keys, *((str(kind), t) for t in asked)] if k in index), None)
        keys += [(str(kind), t) for t in shown]
        if n is not None:
            index.update(dict.fromkeys(keys, n))
            if n not in sources:
                sources[n] = dict.fromkeys(out[n].sources)
                numbers[n] = {c.model_dump_json(): c for c in out[n].numbers}
            sources[n].update(dict.fromkeys(entry.sources))
            for cite in entry.numbers:
                numbers[n].setdefault(cite.model_dump_json(), cite)
            continue
        index.update(dict.fromkeys(keys, len(out)))
        out.append(entry)
    for n in sources:
        out[n] = out[n].model_copy(update={"sources": list(sources[n]), "numbers": list(numbers[n].values())})
    return out


#: a version or counter that ends a name (``Corvid-1``, ``Foo v2.1``): the name less it names its family
_VERSION_END = re.compile(r"[\s\-_]*v?\d+(?:\.\d+)*$", re.I)


def _stems(entry: _Mergeable) -> tuple[list[str], list[str]]:
    """The tokens by which a model and its repository meet (``Corvid-1`` and ``rookery-labs/corvid``): a
    repository shows its name and asks for a versioned name's stem; a versioned name shows its stem and asks for a
    repository's name. Two repositories, or two versions, never meet this way (``Foo-1`` is not ``Foo-2``)."""
    ref = github_ref(field_or(entry, "url") or "")
    if ref is not None and not ref[2]:
        repo = _norm_key(ref[1])
        return [f"repo:{repo}"], [f"stem:{repo}"]
    stem = _VERSION_END.sub("", entry.key.strip())
    if stem == entry.key.strip() or len(stem) < 3:
        return [], []
    return [f"stem:{_norm_key(stem)}"], [f"repo:{_norm_key(stem)}"]


def _same_subject(entry: _Mergeable) -> list[str]:
    """What makes two entries of one kind the same thing named twice: the same key, the same GitHub repository,
    whether a key names it (``kestrel-works/ledgerline``) or a URL points at it (``ledgerline`` with its link), or
    the same arXiv paper."""
    tokens = [_norm_key(entry.key)]
    if re.fullmatch(r"[\w.\-]+/[\w.\-]+", entry.key.strip()):
        tokens.append("gh:" + entry.key.strip().lower())
    url = field_or(entry, "url") or ""
    ref = github_ref(url)
    if ref is not None and not ref[2]:  # a repository, not one of its issues
        tokens.append(f"gh:{ref[0].lower()}/{ref[1].lower()}")
    # or the same paper: its arXiv id in the link or the name (``RankMix / "Rank Drift" — arXiv:2707.11352``)
    tokens += [f"arxiv:{a}" for text in (url, entry.key, field_or(entry, "title", "") or "") for a in arxiv_ids(text)]
    return tokens


def identity(obj: Increment | Refresh | Excluded) -> list[str]:
    """The tokens that say which subject an object is, strongest first."""
    tokens: list[str] = []
    url = field_or(obj, "url") or ""
    if url:
        tokens.append("url:" + url.strip().rstrip("/").lower().removeprefix("https://").removeprefix("http://"))
        ref = github_ref(url)
        if ref is not None:
            owner, repo, number = ref
            tokens.append(f"gh:{owner.lower()}/{repo.lower()}" + (f"#{number}" if number else ""))
    names = [obj.key, field_or(obj, "title", "") or ""]
    for text in (url, *names):
        tokens += [f"arxiv:{a}" for a in arxiv_ids(text)]
    if len(obj.sources) == 1 and any(d in obj.sources[0] for d in _CARD_DIRS):  # a card is one subject
        tokens.append("card:" + obj.sources[0])
    for name in names:
        if "/" in name and re.fullmatch(r"[\w.\-]+/[\w.\-]+", name.strip()):
            tokens.append("gh:" + name.strip().lower())
        if norm_name(name):
            tokens.append("key:" + norm_name(name))
    return list(dict.fromkeys(tokens))


Readable = Increment | Refresh


def _absorb(target: Readable | Excluded, other: Readable | Excluded) -> Readable | Excluded:
    """``target`` with ``other``'s sources (and, in the same class, its citations) added."""
    update: dict[str, object] = {"sources": list(dict.fromkeys([*target.sources, *other.sources]))}
    if type(target) is type(other) and not isinstance(target, Excluded) and not isinstance(other, Excluded):
        cites = {c.model_dump_json(): c for c in [*target.numbers, *other.numbers]}
        update["numbers"] = list(cites.values())
        if isinstance(target, Refresh) and isinstance(other, Refresh):
            update["changes"] = [*target.changes, *(c for c in other.changes if c not in target.changes)]
    return target.model_copy(update=update)


def unify(
    increments: list[Increment],
    refreshes: list[Refresh],
    excluded: list[Excluded],
    verdicts: Sequence[Excluded] = (),
    say: Phrases | None = None,
) -> tuple[list[Increment], list[Refresh], list[Excluded]]:
    """One object per subject across producers (see the module's docstring); rules-only input is unchanged.
    ``say``: the brief's phrases, for what unifying adds to a reason (default: Chinese)."""
    readers: list[Readable | Excluded] = [o for o in increments if o.producer != RULES]
    readers += [o for o in refreshes if o.producer != RULES]
    readers += list(verdicts)
    if not readers:
        return increments, refreshes, excluded
    say = say or phrases()
    place = {id(o): n for n, o in enumerate(readers)}
    stands: dict[int, Readable | Excluded] = dict(enumerate(readers))
    read_as: dict[int, set[str]] = {}
    absorbed: set[int] = set()
    find = _Finder(readers)
    absorbed |= _said_twice(readers, stands, find)
    others: list[Readable | Excluded] = [*increments, *refreshes, *excluded]
    for _pass in range(2):  # a second pass finds what shares a key with a rules object absorbed in the first
        for obj in others:
            if id(obj) in place or id(obj) in absorbed or (isinstance(obj, Excluded) and obj.members):
                continue
            match = find(obj)
            if match is None:
                continue
            reader = stands[match]
            if isinstance(obj, Excluded) and isinstance(reader, Increment):
                stands[match] = _against_exclusion(reader, obj, say)
                absorbed.add(id(obj))
                continue
            stands[match] = _absorb(reader, obj)
            read_as.setdefault(match, set()).add(say(_READ_AS[type(obj).__name__]))
            absorbed.add(id(obj))
            find.learn(obj, match)
    out_exc = [e for e in excluded if id(e) not in absorbed]
    for n, obj in stands.items():
        if isinstance(obj, Excluded) and isinstance(readers[n], Excluded) and id(readers[n]) not in absorbed:
            kinds = say.join(sorted(read_as.get(n, ())))
            reason = say("reader.rules_read_as", reason=obj.reason, kinds=kinds) if n in read_as else obj.reason
            out_exc.append(obj.model_copy(update={"reason": reason}))
    out_exc += [o for n, o in stands.items() if isinstance(o, Excluded) and isinstance(readers[n], Increment)]
    out_inc: list[Increment] = []
    out_ref: list[Refresh] = []
    ordered: list[Readable] = [*increments, *refreshes]
    for obj in ordered:  # the original order; a reader's object in its own place
        if id(obj) in absorbed:
            continue
        now = stands[place[id(obj)]] if id(obj) in place else obj
        if isinstance(now, Increment):
            out_inc.append(now)
        elif isinstance(now, Refresh):
            out_ref.append(now)
    return out_inc, out_ref, out_exc


def _said_twice(readers: list[Readable | Excluded], stands: dict[int, Readable | Excluded], find: _Finder) -> set[int]:
    """A reader that named one subject twice (two materials, two names): the later object joins the first."""
    absorbed: set[int] = set()
    for n, obj in enumerate(readers):
        first = find.earlier(obj, n)
        if first is not None and type(readers[first]) is type(obj):
            stands[first] = _absorb(stands[first], obj)
            absorbed.add(id(obj))
            find.redirect(n, first)
    return absorbed


def _against_exclusion(reader: Increment, rules: Excluded, say: Phrases) -> Increment | Excluded:
    """A reader's increment of a subject the rules excluded for what its material states (its date, how
    far it was read, its note's verdict). The reader overrules the rules only with the material's own
    words for its level (``evidence_note``, kept only when the material holds it verbatim); the rules'
    reason then stays in the increment's evidence boundary. Without them the subject stays excluded,
    the reader named as proposer."""
    sources = list(dict.fromkeys([*reader.sources, *rules.sources]))
    if reader.evidence_note.strip():
        boundary = [*reader.boundary, say("reader.rules_excluded", reason=rules.reason)]
        return reader.model_copy(update={"sources": sources, "boundary": boundary})
    reason = say("reader.unquoted", reason=rules.reason, producer=reader.producer)
    return Excluded(key=reader.key, sources=sources, evidence=reader.evidence, reason=reason, url=reader.url)


class _Finder:
    """Which reader object stands for the same subject as a rules object: by identity, else by name."""

    def __init__(self, readers: list[Readable | Excluded]) -> None:
        self.readers = readers
        self.owner: dict[str, int] = {}
        self.by_source: dict[str, list[int]] = {}
        for n, obj in enumerate(readers):
            for token in identity(obj):
                self.owner.setdefault(token, n)
            for src in obj.sources:
                self.by_source.setdefault(src, []).append(n)

    def learn(self, obj: Readable | Excluded, n: int) -> None:
        """A rules object now stands in reader ``n``: its own identities find ``n`` too."""
        for token in identity(obj):
            self.owner.setdefault(token, n)

    def redirect(self, n: int, first: int) -> None:
        """Reader ``n`` was merged into ``first``: what would have found ``n`` finds ``first``."""
        for token, owner in self.owner.items():
            if owner == n:
                self.owner[token] = first
        for src, found in self.by_source.items():
            self.by_source[src] = list(dict.fromkeys(first if i == n else i for i in found))

    def earlier(self, obj: Readable | Excluded, n: int) -> int | None:
        """An earlier reader object with one of ``obj``'s strong identities (URL, repository, arXiv id)."""
        strong = [t for t in identity(obj) if not t.startswith("key:")]
        return next((self.owner[t] for t in strong if self.owner.get(t, n) < n), None)

    def __call__(self, obj: Readable | Excluded) -> int | None:
        match = next((self.owner[t] for t in identity(obj) if t in self.owner), None)
        if match is not None or isinstance(obj, Excluded):  # an exclusion is one item: never found by a name alike
            return match
        return self._named_alike(obj)

    def _named_alike(self, obj: Readable | Excluded) -> int | None:
        """The one reader object of a shared material whose name holds ``obj``'s name or is held in it
        (``Sglang`` and ``Sglang v0.5.21``, ``H100`` and ``H100 租赁价格周报``); None when none or several do."""
        mine = norm_name(obj.key)
        if len(mine) < 4:
            return None
        found = {
            n
            for src in obj.sources
            for n in self.by_source.get(src, [])
            for name in (self.readers[n].key, field_or(self.readers[n], "title", "") or "")
            if len(other := norm_name(name)) >= 4 and (mine in other or other in mine)
        }
        if len(found) > 1:  # several: the one of the same class, if only one is
            found = {n for n in found if type(self.readers[n]) is type(obj)}
        return found.pop() if len(found) == 1 else None


#: what the rules had read a subject as, by class (``data/phrases.toml`` ``[reader]``)
_READ_AS = {"Increment": "reader.as_increment", "Refresh": "reader.as_refresh", "Excluded": "reader.as_excluded"}
