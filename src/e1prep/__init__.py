"""e1prep: draft E1 pre-digestion briefs from a research knowledge base, and verify their numbers."""

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

from .errors import E1PrepError, InputError, ManifestError

if TYPE_CHECKING:
    from .models import Anchor, Brief, Contradiction, EvidenceLevel, Increment, Refresh
    from .pipeline import draft_brief
    from .render import render_markdown
    from .verify import Verifier

#: public names imported on first use, so that ``e1prep --help`` pays for none of them
_LAZY = {
    "Anchor": "models",
    "Brief": "models",
    "Contradiction": "models",
    "EvidenceLevel": "models",
    "Increment": "models",
    "Refresh": "models",
    "draft_brief": "pipeline",
    "render_markdown": "render",
    "Verifier": "verify",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Anchor",
    "Brief",
    "Contradiction",
    "E1PrepError",
    "EvidenceLevel",
    "Increment",
    "InputError",
    "ManifestError",
    "Refresh",
    "Verifier",
    "__version__",
    "draft_brief",
    "render_markdown",
]
