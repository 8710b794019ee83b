"""What the verifier reports: its rules, by stable id, the violations it found, and what became of
them (the claims repaired, the objects rejected)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..brief.models import Brief, Rejected, Repair, Violation

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
    "anchor-not-citable": "an anchor is called citable, but only material that establishes nothing cites it",
    "url-not-in-material": "a URL does not occur in any material",
    "hit-count-wrong": "a hit count disagrees with a fresh search of the living document",
    "known-as-new": "an increment of kind 'new' whose key the living document already names",
    "update-without-new-fact": "an increment of kind 'update' whose every term the living document already holds",
    "sources-incomplete": "a material of the manifest is missing from the sources",
    "key-ungrounded": "an object's key names nothing that occurs in its sources or the living document",
    "name-ungrounded": "a name or bracketed label in an object's text occurs in none of its sources nor the document",
    "source-empty": "an object is drawn from a material that holds no text",
    "citation-foreign-source": "a citation comes from a material that is not its object's, or from outside its item",
    "number-mismatch": "a number in the text differs from its citation in value, unit, magnitude or sign",
    "object-duplicate": "the same object stands twice in the brief",
    "source-status-wrong": "a source's status disagrees with what was read",
    "claims-all-failed": "every claim of an object failed its checks, so nothing of it stands",
}


@dataclass
class Report:
    """The violations a check found; after ``Verifier.settle``, also the repairs and rejections they led
    to and the brief as settled (repaired objects kept, rejected ones removed)."""

    violations: list[Violation] = field(default_factory=list)
    repairs: list[Repair] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    brief: Brief | None = None

    @property
    def clean(self) -> bool:
        return not self.violations

    def for_object(self, prefix: str) -> list[Violation]:
        return [v for v in self.violations if v.path == prefix or v.path.startswith(prefix + ".")]

    def render(self) -> str:
        """The violations, then what was repaired and what was rejected, one line each."""
        if self.clean:
            return "verification: clean (0 violations)"
        lines = [f"verification: {len(self.violations)} violation(s)"]
        lines += [f"  {v.path}  [{v.rule}]  {v.text!r}: {v.reason}" for v in self.violations]
        if self.brief is not None:
            lines.append(f"repaired: {len(self.repairs)} claim(s)")
            lines += [f"  {r.path}  [{r.rule}]  {r.action}  {r.text!r}" for r in self.repairs]
            lines.append(f"rejected: {len(self.rejected)} object(s)")
            for rej in self.rejected:
                rules = ", ".join(dict.fromkeys(v.rule for v in rej.violations))
                lines.append(f"  {rej.list_name}  {rej.key!r}  [{rules}]")
        return "\n".join(lines)
