"""e1prep: draft E1 pre-digestion briefs from a research knowledge base, and verify their numbers."""

__version__ = "0.1.0"

from .errors import E1PrepError, InputError, ManifestError  # noqa: E402
from .models import Anchor, Brief, Contradiction, EvidenceLevel, Increment, Refresh  # noqa: E402
from .pipeline import draft_brief  # noqa: E402
from .render import render_markdown  # noqa: E402
from .verify import Verifier  # noqa: E402

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
