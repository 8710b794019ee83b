"""The model backend: prompts, an OpenAI-compatible client, a cache and cassettes.

Only this package imports ``openai`` and ``instructor``; its names are loaded on first use so that
``e1prep.llm.settings`` can be read without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .backend import LLMProducer
    from .settings import LLMSettings, load_settings

__all__ = ["LLMProducer", "LLMSettings", "load_settings"]


def __getattr__(name: str) -> Any:
    if name == "LLMProducer":
        from .backend import LLMProducer

        return LLMProducer
    if name in ("LLMSettings", "load_settings"):
        from . import settings

        return getattr(settings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
