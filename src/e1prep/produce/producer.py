"""What a producer (the rules backend, a model backend) hands to the pipeline."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..brief.models import Contradiction, Excluded, Increment, Refresh, Usage
from ..kb.knowledge import KnowledgeDoc
from ..kb.loading import KB


@dataclass
class Production:
    """Objects drawn from the materials, plus per-material failures and run accounting."""

    increments: list[Increment] = field(default_factory=list)
    refreshes: list[Refresh] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    excluded: list[Excluded] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)
    model: str | None = None
    prompt_versions: dict[str, str] = field(default_factory=dict)
    #: items excluded as off-topic, as (material path, first line): nothing else is registered for them
    off_topic: set[tuple[str, int]] = field(default_factory=set)
    #: the run was interrupted: materials not finished are in ``failures``
    interrupted: bool = False
    #: a reader's ``off_topic`` / ``not_an_item`` items: excluded, with the rules object of the same
    #: subject moved beside them (``e1prep.produce.unify``)
    verdicts: list[Excluded] = field(default_factory=list)


class Producer(Protocol):
    """Anything that turns a loaded KB into objects. ``name`` is recorded in the brief's ``run``."""

    name: str

    def produce(self, kb: KB, doc: KnowledgeDoc) -> Production: ...
