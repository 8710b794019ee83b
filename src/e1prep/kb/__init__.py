"""The knowledge base: the manifest and its materials, read tolerantly, and the living document."""
