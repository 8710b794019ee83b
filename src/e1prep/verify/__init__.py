"""Verifying a brief, whoever wrote it.

``facts`` prepares each material (its lines indexed, each line's level by the plain rule), ``verifier``
checks every object against them, ``report`` holds the rules and what was found; ``lint`` checks a
hand-written Markdown brief.
"""
