"""Bag-of-terms for overlap scoring: Latin words and CJK bigrams (no tokenizer dependency)."""

from __future__ import annotations

import re
from collections import Counter

_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9\-_.]{2,}")
#: every CJK character bigram, overlapping ones included (a lookahead that captures two characters)
_CJK_BIGRAM = re.compile(r"(?=([\u4e00-\u9fff]{2}))")
STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "from",
        "that",
        "this",
        "are",
        "was",
        "were",
        "has",
        "have",
        "not",
        "but",
        "its",
        "into",
        "via",
        "per",
        "use",
        "using",
        "http",
        "https",
        "www",
        "com",
        "org",
        "html",
        "github",
        "blob",
        "main",
        "md",
        "url",
        "note",
        "notes",
    ]
)
CJK_STOP = frozenset({"本轮", "一个", "可以", "没有", "以及", "我们", "这个", "已经", "需要", "进行", "材料", "笔记"})


def terms(text: str) -> Counter[str]:
    """Lowercased Latin words (3+ chars) and CJK character bigrams, with counts."""
    words = (w.lower().strip(".-_") for w in _LATIN.findall(text))
    bag = Counter(w for w in words if w not in STOP and len(w) >= 3)
    bag.update(g for g in _CJK_BIGRAM.findall(text) if g not in CJK_STOP)
    return bag


def term_set(text: str) -> tuple[str, ...]:
    """The distinct terms of ``text`` in first-seen order."""
    return tuple(terms(text))
