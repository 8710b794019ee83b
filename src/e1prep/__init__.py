"""e1prep: draft E1 pre-digestion briefs from a research knowledge base, and verify their numbers."""

from ._version import __version__
from .errors import E1PrepError, InputError, ManifestError
from .models import Anchor, Brief, Contradiction, EvidenceLevel, Increment, Refresh
from .pipeline import draft_brief, verify_brief
from .render import Lang, render_markdown
from .verify import Report, Verifier

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
