"""The model backend: prompts, an OpenAI-compatible client, a cache and cassettes.

Only this package imports ``openai`` and ``instructor``; its names are loaded on first use so that
``e1prep.llm.settings`` can be read without them.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError

if TYPE_CHECKING:
    from .backend import LLMProducer
    from .settings import LLMSettings, load_settings

__all__ = ["LLM_EXTRA", "LLMProducer", "LLMSettings", "load_settings", "require_stack"]

#: how to install the model stack
LLM_EXTRA = "pip install 'e1prep[llm]'"
_STACK = ("openai", "instructor", "tenacity")


def require_stack() -> None:
    """Raise ``ConfigError`` (one line naming the ``llm`` extra) when the model stack is not installed."""
    missing = [name for name in _STACK if find_spec(name) is None]
    if missing:
        raise ConfigError(f"--backend llm needs the llm extra ({', '.join(missing)} not installed): {LLM_EXTRA}")


def __getattr__(name: str) -> Any:
    if name == "LLMProducer":
        require_stack()
        from .backend import LLMProducer

        return LLMProducer
    if name in ("LLMSettings", "load_settings"):
        from . import settings

        return getattr(settings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
