"""Verifying a brief, whoever wrote it, claim by claim.

``facts`` indexes each material (its lines, numbers, items and their levels); ``grounding`` looks up
what the materials and the living document hold; ``values`` compares numbers by value; ``citations``
holds each citation against its material; ``claims`` checks every text claim by claim; ``whole`` checks
what only the whole brief shows; ``verifier`` runs them per object; ``disposition`` repairs a failing claim
or rejects its object; ``report`` holds the rules and what was found; ``bookkeeping`` is what needs no
grounding. ``lint`` checks a hand-written Markdown brief.
"""
