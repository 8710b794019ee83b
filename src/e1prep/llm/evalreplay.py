"""The model backend for the golden evals: replayed from the case's cassette, offline, never recorded."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from . import cassettes
from .backend import LLMProducer


def replay_producer(case: Path, prompt_id: str = "extract_material") -> tuple[LLMProducer, AbstractContextManager[Any]]:
    """(producer, context): run ``producer.produce`` inside ``context`` to replay ``case``'s cassette."""
    try:
        entry = cassettes.manifest_entry(Path(case).name, prompt_id)
    except LookupError as exc:
        raise ConfigError(str(exc)) from None
    producer = LLMProducer(cassettes.replay_settings(entry))
    return producer, cassettes.replay(cassettes.CASSETTE_DIR / entry["file"])
