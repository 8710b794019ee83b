"""How two names are compared: without case, spaces, punctuation or an ``arXiv:`` prefix."""

from __future__ import annotations

import re


def norm_name(name: str) -> str:
    """``DeepSeek DeepInfer`` and ``deepseek-deepinfer`` compare equal; ``arXiv:2610.30418`` equals ``2610.30418``."""
    name = re.sub(r"^arxiv[:：]\s*", "", name.strip(), flags=re.I)
    return re.sub(r"[\s\-_/.·:：,，()（）\[\]「」'\"`*]+", "", name.lower())
