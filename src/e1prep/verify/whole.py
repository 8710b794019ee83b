"""Checks only the whole brief can answer: its sources and their statuses, objects stated twice, and the
texts that belong to no object (the judgement, tonight's actions, the excluded items' reasons and
members), which may state nothing that the brief's citations and materials do not carry."""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel

from ..brief.models import Brief, Violation
from ..kb.knowledge import KnowledgeDoc
from ..kb.loading import KB
from .facts import MaterialFacts
from .indexes import NOTHING, Carried


class Verifier(Protocol):
    """What the whole-brief checks ask of the verifier (``verify.verifier.Verifier``)."""

    kb: KB
    doc: KnowledgeDoc
    batch: list[MaterialFacts]

    def carried_by(self, brief: Brief) -> Carried: ...
    def check_text(self, path: str, text: str, grounds: list[MaterialFacts], carried: Carried) -> list[Violation]: ...
    def grounds_of(self, sources: list[str]) -> list[MaterialFacts]: ...
    def named(self, name: str, grounds: list[MaterialFacts]) -> bool: ...
    def named_all(self, names: list[str], grounds: list[MaterialFacts]) -> set[str]: ...
    def named_by_words(self, names: list[str], grounds: list[MaterialFacts]) -> set[str]: ...
    def level_stated(self, path: str, entry: Any) -> list[Violation]: ...
    def in_materials(self, text: str) -> bool: ...
    def section_exists(self, section: str) -> bool: ...


#: the lists of objects, each checked for an object stated twice
_LISTS = ("increments", "refreshes", "contradictions", "anchors")


def check_brief(verifier: Verifier, brief: Brief) -> list[Violation]:
    """Every brief-level violation of ``brief``."""
    return [*_sources(verifier, brief), *_duplicates(brief), *_texts(verifier, brief), *_excluded(verifier, brief)]


def _sources(verifier: Verifier, brief: Brief) -> list[Violation]:
    out = []
    listed = {s.path for s in brief.sources}
    for path in verifier.kb.item.materials:
        if path not in listed:
            reason = "material of the manifest has no entry in the sources"
            out.append(Violation(path="sources", rule="sources-incomplete", text=path, reason=reason))
    actual = {m.path: m.status for m in (*verifier.kb.materials, *verifier.kb.spot_checks)}
    for n, entry in enumerate(brief.sources):
        status = actual.get(entry.path)
        if status is not None and entry.status is not status:
            reason = f"the material was {status.value}, not {entry.status.value}"
            out.append(
                Violation(path=f"sources[{n}].status", rule="source-status-wrong", text=entry.path, reason=reason)
            )
    return out


def _duplicates(brief: Brief) -> list[Violation]:
    """An object stated word for word twice in one list: the later one is the duplicate. Objects are
    compared whole only where their keys, sources and sizes already agree (a dump is thousands of
    objects, some with tens of thousands of citations)."""
    out = []
    for name in _LISTS:
        seen: dict[tuple[object, ...], list[int]] = {}
        objects = getattr(brief, name)
        for n, obj in enumerate(objects):
            cheap = (obj.key, tuple(obj.sources), obj.evidence, len(getattr(obj, "numbers", ())), _texts_of(obj))
            earlier = seen.setdefault(cheap, [])
            same = next((m for m in earlier if objects[m] == obj), None)
            if same is None:
                earlier.append(n)
            else:
                reason = f"the same object as {name}[{same}]"
                out.append(Violation(path=f"{name}[{n}]", rule="object-duplicate", text=obj.key, reason=reason))
    return out


def _texts_of(obj: BaseModel) -> tuple[str, ...]:
    """An object's own text fields: objects equal whole have equal ones, so a batch that states one
    subject a thousand times is not compared a million times."""
    return tuple(v for v in vars(obj).values() if isinstance(v, str))


def _texts(verifier: Verifier, brief: Brief) -> list[Violation]:
    """The brief's own sentences: checked against every read material, their numbers against every
    citation of the brief."""
    out = []
    texts = [("judgement", brief.judgement)] if brief.judgement else []
    for n, action in enumerate(brief.actions):
        texts.append((f"actions[{n}].text", action.text))
        if action.section and not verifier.section_exists(action.section):
            reason = "names no section of the living document"
            out.append(
                Violation(path=f"actions[{n}].section", rule="section-unknown", text=action.section, reason=reason)
            )
    texts += [(f"excluded[{n}].reason", entry.reason) for n, entry in enumerate(brief.excluded)]
    carried = verifier.carried_by(brief)
    for path, text in texts:
        out += verifier.check_text(path, text, verifier.batch, carried)
    return out


def _excluded(verifier: Verifier, brief: Brief) -> list[Violation]:
    """An excluded item's members name items of its sources, its URL stands in a material, and its level
    is what its material states."""
    out = []
    for n, entry in enumerate(brief.excluded):
        grounds = verifier.grounds_of(entry.sources)
        # a group of ten thousand members is named in a few passes over each ground, not one per member;
        # a member its sources name is the item's own title, digits and all
        found = verifier.named_by_words(entry.members, grounds) if entry.members else set()
        for k, member in enumerate(entry.members):
            if member in found:
                continue
            reason = "a grouped item that occurs in none of the entry's sources"
            out.append(Violation(path=f"excluded[{n}].members[{k}]", rule="key-ungrounded", text=member, reason=reason))
            out += verifier.check_text(f"excluded[{n}].members[{k}]", member, grounds, NOTHING)
        if entry.url and not verifier.in_materials(entry.url):
            reason = "URL occurs in no material"
            out.append(Violation(path=f"excluded[{n}].url", rule="url-not-in-material", text=entry.url, reason=reason))
        out += verifier.level_stated(f"excluded[{n}]", entry)
    return out
