"""Brief objects a caller made itself (an agent worker with its own model), handed in as they are.

Every object is marked with the caller's producer name, whatever it said: the pipeline tells a
reader's objects from the rules' by that name (``e1prep.produce.unify``), and the verifier checks
them like any other. An ``Excluded`` entry is the caller's verdict on a subject: the rules object
of that subject moves to the excluded list beside it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from ..brief.models import Contradiction, Excluded, Increment, Refresh
from ..errors import InputError, validation_problem
from ..kb.knowledge import KnowledgeDoc
from ..kb.loading import KB, Material
from .extracted import material_words
from .producer import Production

_LISTS: dict[str, type[Increment] | type[Refresh] | type[Contradiction] | type[Excluded]] = {
    "increments": Increment,
    "refreshes": Refresh,
    "contradictions": Contradiction,
    "excluded": Excluded,
}


def _objects(name: str, values: Iterable[Any], producer: str) -> list[Any]:
    model = _LISTS[name]
    out = []
    for n, value in enumerate(values):
        try:
            obj = value if isinstance(value, model) else model.model_validate(value)
        except ValidationError as exc:
            loc, msg = validation_problem(exc)
            raise InputError(f"{name}[{n}]", f"is not a {model.__name__} ({loc}: {msg})") from None
        out.append(obj if isinstance(obj, Excluded) else obj.model_copy(update={"producer": producer}))
    return out


def _grounded_note(inc: Increment, materials: dict[str, Material]) -> Increment:
    """An increment's ``evidence_note`` stays only as the material's own words for its level (what lets
    a reader overrule the rules' exclusion); any other note moves to its evidence boundary, checked there."""
    note = inc.evidence_note.strip()
    if not note or any(material_words(note, materials[s]) for s in inc.sources if s in materials):
        return inc
    return inc.model_copy(update={"evidence_note": "", "boundary": [*inc.boundary, note]})


class SubmittedProducer:
    """A producer that hands in the caller's objects (``increments``, ``refreshes``, ``contradictions``,
    ``excluded``: model instances or their JSON dicts)."""

    def __init__(self, objects: Mapping[str, Iterable[Any]], *, name: str = "agent", model: str | None = None) -> None:
        unknown = sorted(set(objects) - set(_LISTS))
        if unknown:
            raise InputError("objects", f"unknown lists {', '.join(unknown)} (known: {', '.join(_LISTS)})")
        if name == "rules":
            raise InputError("objects", "the producer name 'rules' is e1prep's own; name the caller")
        self.name = name
        self.model = model
        self.objects = {k: _objects(k, v, name) for k, v in objects.items()}

    def produce(self, kb: KB, doc: KnowledgeDoc) -> Production:
        paths = {m.path for m in kb.materials}
        for name, objs in self.objects.items():
            for n, obj in enumerate(objs):
                outside = [s for s in obj.sources if s not in paths]
                if outside:
                    raise InputError(f"{name}[{n}]", f"names sources outside the manifest: {', '.join(outside)}")
        materials = {m.path: m for m in kb.materials}
        increments = [_grounded_note(inc, materials) for inc in self.objects.get("increments", [])]
        return Production(
            increments=increments,
            refreshes=list(self.objects.get("refreshes", [])),
            contradictions=list(self.objects.get("contradictions", [])),
            verdicts=list(self.objects.get("excluded", [])),
            model=self.model,
        )
