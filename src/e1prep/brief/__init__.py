"""The brief: its objects (every stage passes these along), their published schemas, and how they are written out.

Below every stage: it imports nothing of e1prep but ``errors`` and ``_resources``.
"""
