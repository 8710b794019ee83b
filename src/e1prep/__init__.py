"""e1prep: draft E1 pre-digestion briefs from a research knowledge base, and verify their numbers."""

from typing import TYPE_CHECKING, Any

from ._version import __version__
from .errors import E1PrepError, InputError, ManifestError

if TYPE_CHECKING:
    from .brief.extraction import Extraction, ExtractionSet
    from .brief.models import Anchor, Brief, Contradiction, EvidenceLevel, Increment, Refresh
    from .brief.render import Lang, render_markdown
    from .pipeline import draft_brief, draft_from_extractions, draft_from_objects, verify_brief
    from .verify.report import Report
    from .verify.verifier import Verifier

#: public names imported on first use, so that ``e1prep --help`` pays for none of them
_LAZY = {
    "Anchor": "brief.models",
    "Brief": "brief.models",
    "Contradiction": "brief.models",
    "EvidenceLevel": "brief.models",
    "Increment": "brief.models",
    "Refresh": "brief.models",
    "draft_brief": "pipeline",
    "draft_from_extractions": "pipeline",
    "draft_from_objects": "pipeline",
    "Extraction": "brief.extraction",
    "ExtractionSet": "brief.extraction",
    "verify_brief": "pipeline",
    "Lang": "brief.render",
    "render_markdown": "brief.render",
    "Report": "verify.report",
    "Verifier": "verify.verifier",
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
    "Extraction",
    "ExtractionSet",
    "Increment",
    "InputError",
    "Lang",
    "ManifestError",
    "Refresh",
    "Report",
    "Verifier",
    "__version__",
    "draft_brief",
    "draft_from_extractions",
    "draft_from_objects",
    "render_markdown",
    "verify_brief",
]
