"""Verifying a brief, whoever wrote it: the JSON verifier, and the lint of a hand-written Markdown brief."""
