"""The model backend for the golden evals: replayed from the case's cassette, offline, never recorded."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from . import cassettes
from .backend import LLMProducer


def replay_producer(
    case: Path, cassette_dir: Path, prompt_id: str = "extract_material"
) -> tuple[LLMProducer, AbstractContextManager[Any]]:
    """(producer, context): run ``producer.produce`` inside ``context`` to replay ``case``'s cassette.

    The cassette is looked up by the case folder's name in ``cassette_dir``'s ``MANIFEST.json``.
    Raises ``ConfigError`` when there is none (the message says how to record it).
    """
    try:
        entry = cassettes.manifest_entry(Path(case).name, cassette_dir, prompt_id)
    except LookupError as exc:
        raise ConfigError(str(exc)) from None
    producer = LLMProducer(cassettes.replay_settings(entry))
    return producer, cassettes.replay(cassette_dir / entry["file"])
