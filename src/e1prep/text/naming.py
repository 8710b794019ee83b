"""Names: how two are compared (without case, spaces, punctuation or an ``arXiv:`` prefix), and the
repository, issue or pull request a GitHub URL names (parsed here only)."""

from __future__ import annotations

import re


def norm_name(name: str) -> str:
    """``DeepSeek DeepInfer`` and ``deepseek-deepinfer`` compare equal; ``arXiv:2610.30418`` equals ``2610.30418``."""
    name = re.sub(r"^arxiv[:：]\s*", "", name.strip(), flags=re.I)
    return re.sub(r"[\s\-_/.·:：,，()（）\[\]「」'\"`*]+", "", name.lower())


#: a GitHub URL: owner, repository, and the issue or pull-request number when it names one
_GITHUB = re.compile(r"(?:https?://)?(?:www\.)?github\.com/([\w.\-]+)/([\w.\-]+)(?:/(?:issues|pull)/(\d+))?")
_GITHUB_ROOT = re.compile(r"(?:https?://)?(?:www\.)?github\.com/([\w.\-]+)/([\w.\-]+?)(?:\.git)?/?")


def github_repo(url: str, *, root_only: bool = False) -> tuple[str, str] | None:
    """(owner, name) of a GitHub URL; with ``root_only``, only for the repository's own page."""
    m = _GITHUB_ROOT.fullmatch(url) if root_only else _GITHUB.match(url)
    return (m.group(1), m.group(2)) if m else None


def repository_key(url: str) -> str:
    """A repository's URL as one key, any host (``https://github.com/Org/Repo.git/`` and
    ``github.com/org/repo`` are one repository)."""
    bare = re.sub(r"^[a-z]+://(?:www\.)?", "", url.strip().lower())
    host, _, path = bare.partition("/")
    parts = [p.removesuffix(".git") for p in path.split("/") if p][:2]
    return "/".join([host, *parts])


def github_ref(url: str) -> tuple[str, str, str | None] | None:
    """(owner, repository without ``.git``, issue or pull-request number or None) of a GitHub URL."""
    m = _GITHUB.match(url)
    return (m.group(1), m.group(2).removesuffix(".git"), m.group(3)) if m else None


#: a Markdown backslash escape (``2\.``, ``\_``, ``\*``): the character as written
MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|:>~<])")
#: brackets left empty where a link or an id was taken out (``PagedAttention revisited ()``)
_EMPTY_BRACKETS = re.compile(r"\([\s\x00]*\)|（[\s\x00]*）|\[[\s\x00]*\]|【[\s\x00]*】|「[\s\x00]*」")
#: the place of emptied brackets (``\x00``) after a CJK character, or before CJK punctuation
_CJK, _CJK_PUNCT = "\u3000-\u303f\u3400-\u9fff\uff00-\uffef", "\u3000-\u303f\uff00-\uffef"
_GAP_BY_CJK = re.compile(rf"(?<=[{_CJK}])[\s\x00]*\x00[\s\x00]*|[\s\x00]*\x00[\s\x00]*(?=[{_CJK_PUNCT}])")
#: what may dangle at either end of a title once its parts were taken out
_DANGLING = " \t-—–:：|·,，;；"


def plain_title(raw: str) -> str:
    """A title as its writer meant it: Markdown escapes undone (``2\\.`` → ``2.``, ``KV\\_cache`` →
    ``KV_cache``), brackets left empty by a stripped link or id dropped, spaces collapsed, and a dash or
    colon left dangling at either end removed. The renderer escapes what Markdown needs, once."""
    title = MD_ESCAPE.sub(r"\1", raw) if "\\" in raw else raw
    previous = None
    while previous != title:  # ``( [] )``: brackets inside brackets
        previous, title = title, _EMPTY_BRACKETS.sub("\x00", title)
    # where they stood: nothing beside a CJK character or punctuation (``训练（）可能``), else a space
    title = _GAP_BY_CJK.sub("", title).replace("\x00", " ")
    return " ".join(title.split()).strip(_DANGLING)
