"""Text primitives every stage shares: literal gates before regexes, bags of terms, name comparison,
and how people write (``data/writing.toml``), as data.
"""
