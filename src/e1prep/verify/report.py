"""What the verifier reports: its rules, by stable id, and the violations it found."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..brief.models import (
    Violation,
)

RULES: dict[str, str] = {
    "quantity-uncited": "every quantity in an object's text is bound to a number citation",
    "citation-not-in-source": "the cited number occurs in the cited material",
    "quote-not-in-source": "the citation's verbatim quote occurs in the cited material",
    "source-not-read": "a citation or object names a material that is not in scope or was not read",
    "evidence-overstated": "a citation claims a level above the one its material line carries",
    "not-quotable-as-finding": "a number at a non-quotable level appears as a finding in an increment's key points",
    "identifier-ungrounded": "a version, date, name or issue number is not found in any source",
    "section-unknown": "a § section reference does not exist in the living document",
    "arxiv-malformed": "an arXiv id is not well formed",
    "arxiv-not-in-material": "an arXiv id does not occur in any material",
    "anchor-status-wrong": "an anchor's status disagrees with the living document",
    "url-not-in-material": "a URL does not occur in any material",
    "hit-count-wrong": "a hit count disagrees with a fresh search of the living document",
    "known-as-new": "an increment of kind 'new' whose key the living document already names",
    "sources-incomplete": "a material of the manifest is missing from the sources",
    "key-ungrounded": "an object's key names nothing that occurs in its sources or the living document",
    "name-ungrounded": "a name or bracketed label in an object's text occurs in none of its sources nor the document",
    "source-empty": "an object is drawn from a material that holds no text",
}


@dataclass
class Report:
    violations: list[Violation] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.violations

    def for_object(self, prefix: str) -> list[Violation]:
        return [v for v in self.violations if v.path == prefix or v.path.startswith(prefix + ".")]

    def render(self) -> str:
        if self.clean:
            return "verification: clean (0 violations)"
        lines = [f"verification: {len(self.violations)} violation(s)"]
        for v in self.violations:
            lines.append(f"  {v.path}  [{v.rule}]  {v.text!r}: {v.reason}")
        return "\n".join(lines)
