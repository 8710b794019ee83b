"""e1prep: draft E1 pre-digestion briefs from a research knowledge base, and verify their numbers."""

from typing import TYPE_CHECKING, Any

from ._version import __version__
from .errors import E1PrepError, InputError, ManifestError

if TYPE_CHECKING:
    from .models import Anchor, Brief, Contradiction, EvidenceLevel, Increment, Refresh
    from .pipeline import draft_brief, verify_brief
    from .render import Lang, render_markdown
    from .verify import Report, Verifier

#: public names imported on first use, so that ``e1prep --help`` pays for none of them
_LAZY = {
    "Anchor": "models",
    "Brief": "models",
    "Contradiction": "models",
    "EvidenceLevel": "models",
    "Increment": "models",
    "Refresh": "models",
    "draft_brief": "pipeline",
    "verify_brief": "pipeline",
    "Lang": "render",
    "render_markdown": "render",
    "Report": "verify",
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
    "Lang",
    "ManifestError",
    "Refresh",
    "Report",
    "Verifier",
    "__version__",
    "draft_brief",
    "render_markdown",
    "verify_brief",
]
