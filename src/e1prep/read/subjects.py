"""An item's subject: the name it is about, scored from its title, spans, URLs and repository.

A note's title carries more than its subject: an outlet (``NVIDIA Technical Blog：``), a field
label (``URL``, ``来源``), an id prefix (``arXiv``), an announcement verb, a tagline. Candidates
are scored so that product-like names (versions, hyphens, inner capitals, ``owner/repo``), bold or
code spans and names the URL agrees with rank first, and words the lexicon lists as outlets,
labels or generic words never stand as a subject at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlparse

from ..text.lexicon import lexicon
from ..text.memo import run_memo
from ..text.naming import github_ref
from .notes import MD_LINK

_CJK = "\u3400-\u9fff"
#: a name: Latin words joined by ``-_./+``, a CJK tail after a hyphen (``vLLM-昆仑芯``), an issue number
_NAME = re.compile(rf"@?[A-Za-z][A-Za-z0-9_+]*(?:[-./][A-Za-z0-9_+]+|-[{_CJK}]+)*(?:\s?#\d{{1,7}})?")
#: several capitalised words in a row are one name (``Session-Aware Agentic Inference``)
_PHRASE = re.compile(
    r"[A-Z][A-Za-z0-9\-]*(?:\s+(?:[A-Z][A-Za-z0-9\-]*|of|for|in|on|the|from|with|and|to|at|a|an|by|via))*\s+[A-Z][A-Za-z0-9\-]*"
)
_SPAN = re.compile(r"\*\*([^*\n]{2,80})\*\*|`([^`\n]{2,60})`")
_VERSION_TAIL = re.compile(r"(?:\s+v?|\s*\bv)\d+(?:\.\d+)+\S*$")
_BARE_VERSION = re.compile(r"v?\d+(?:\.\d+)*")
_ISSUE_REF = re.compile(r"#\d")
_SEGMENT = re.compile(r"\s*(?:[：:|｜]|\s[—–-]{1,2}\s|——)\s*")


@dataclass(frozen=True)
class Candidate:
    """A name an item may be about, with its score and where it came from."""

    name: str
    score: float
    origin: str


_JOINED = re.compile(r"[/+#_]|-[A-Za-z0-9](?![A-Za-z0-9])|-[A-Z0-9]|[A-Za-z0-9]-[A-Z]")
_INNER_CAPITAL_OR_DIGIT = re.compile(r"[a-z][A-Z]|[0-9]")
_CJK_TAIL = re.compile(r"-[\u3400-\u9fff]")
_ASIDE = re.compile(r"[（(]([^）)]*)[）)]")
_OWNER_REPO = re.compile(r"[\w.\-]+/[\w.\-]+")
_EMPHASIS = re.compile(r"[*`]")
#: a piece's title in book-title brackets (how Chinese writing names an article, a book or a post), and where
#: its name ends: a colon or a question mark before a subtitle (``…回放？一文讲透``, ``…当立：一文看懂…``)
_BOOK_TITLE = re.compile(r"《([^》\n]{2,60})》")
_TITLE_TAIL = re.compile(r"\s*[：:？?]\s*")
_CJK_HEAD = re.compile(r"\s*([^\s，。：:、（(—-]{2,16})")
_URL_PATH_BREAK = re.compile(r"[/_.]")


def _product_like(name: str) -> bool:
    """A name shaped like a product: inner capitals after a lowercase letter (``vLLM``, ``DeepInfer``),
    digits, or joined parts (``llm-d``, ``owner/repo``); an all-capitals acronym (``NVIDIA``) is not."""
    if " " in name.strip() or name.startswith("@"):
        return False
    core = name.strip()
    joined = bool(_JOINED.search(core))
    return bool(_INNER_CAPITAL_OR_DIGIT.search(core) or joined or _CJK_TAIL.search(core))


def _junk(name: str) -> bool:
    lex = lexicon()
    words = name.lower().split()
    low = name.strip().lower()
    return (
        len(low) < 2
        or lex.is_outlet(name)
        or lex.is_label(name)
        or all(lex.is_generic(w) or lex.is_label(w) for w in words)
        or bool(_BARE_VERSION.fullmatch(low))
        or low in ("arxiv", "https", "http", "www")
        or name.startswith("@")  # an author's handle: who wrote it, not what it is about
    )


#: a bracketed tag opening a title, when a title follows it
_LEAD_TAG = re.compile(r"^[\[【][^\]】\n]{1,20}[\]】]\s*(?=\S)")


def strip_outlet(title: str) -> tuple[str, list[str]]:
    """The title without outlet labels at its start or end, nor the bracketed tag that opens it (``[Linkpost]
    Scaling Monosemanticity``, ``[agent] Cobalt Memory``: a kind, a topic or a site), and the asides in
    parentheses."""
    title = _LEAD_TAG.sub("", title, count=1) if title[:1] in "[【" else title
    asides = _ASIDE.findall(title)
    core = _ASIDE.sub(" ", title)
    segments = [s for s in _SEGMENT.split(core) if s.strip()]
    kept = [
        s
        for s in segments
        if not lexicon().is_outlet(s.strip()) and not lexicon().is_label(s.strip()) and not s.strip().startswith("@")
    ]
    return (" — ".join(kept) if kept else core).strip(), asides


@run_memo
def _read_name(raw: str) -> tuple[str, bool, bool]:
    """A candidate as the board reads it: trimmed (a version tail dropped), junk or not, product-like or
    not. Remembered for the run: an item's names recur across items (``vLLM``, a vendor)."""
    name = _VERSION_TAIL.sub("", raw.strip(" .,;:：，。-—/")) if not _ISSUE_REF.search(raw) else raw.strip()
    junk = _junk(name)
    return name, junk, not junk and _product_like(name)


class _Board:
    """Candidates collected from the parts of an item, each scored once (the best score stands)."""

    def __init__(self, slugs: set[str]) -> None:
        self.slugs = slugs
        self.scored: dict[str, Candidate] = {}

    def add(self, name: str, score: float, origin: str) -> None:
        name, junk, product_like = _read_name(name)
        if junk:
            return
        if product_like:
            score += 3
        elif origin == "title" and name[:1].islower():
            score -= 2  # an ordinary word of the title's sentence
        elif origin == "title":
            score += 0.5
        if name.lower().replace(" ", "-") in self.slugs or name.lower() in self.slugs:
            score += 1.5
        old = self.scored.get(name.lower())
        if old is None or old.score < score:
            self.scored[name.lower()] = Candidate(name, score, origin)

    def title(self, segments: list[str]) -> None:
        """The title's head segment weighs most; its first name more than the later ones."""
        for n, segment in enumerate(segments):
            weight = 2.0 if n == 0 else 0.0
            for m in _PHRASE.finditer(segment):
                if not lexicon().is_outlet(m.group(0)):
                    self.add(m.group(0), weight + 1.0 + (1.0 if m.start() == 0 else 0.0), "title-phrase")
            for k, m in enumerate(_NAME.finditer(segment)):
                score = weight + (1.5 if k == 0 else -0.2 * k)
                if _OWNER_REPO.fullmatch(m.group(0)):  # owner/repo: the repository is the subject
                    self.add(m.group(0).rsplit("/", 1)[1], score + 3.5, "repo")
                self.add(m.group(0), score, "title")

    def spans(self, title: str, first_line: str) -> None:
        """Bold or code spans inside the title (not the whole title set in bold)."""
        plain_title = _EMPHASIS.sub("", title).strip()
        for a, b in _SPAN.findall(first_line + "\n" + title):
            span = (a or b).strip()
            if len(span) < 0.8 * len(plain_title):
                self.add(span, 2.0, "span")

    def urls(self, urls: tuple[str, ...] | list[str]) -> None:
        for owner, repo, number in filter(None, map(github_ref, urls)):
            if number:  # an issue or pull request is its own subject: ``vllm#61007``
                self.add(f"{repo}#{number}", 4.0, "issue")
            self.add(f"{owner}/{repo}", 1.0, "repo")
            self.add(repo, 2.5, "repo")
        for url in urls:
            # a link into a repository's tree at a folder or file the title names (``…/glTF/tree/main/…/
            # KHR_gaussian_splatting``) points at that, not at the repository that holds it
            target = _TREE_TARGET.search(url)
            if target and (name := target["name"]).lower() in self.scored:
                self.add(name, 5.0, "url-target")


#: a GitHub link into a repository's tree or a file of it, and the last part of its path (less an extension)
_TREE_TARGET = re.compile(
    r"github\.com/[^/\s]+/[^/\s]+/(?:tree|blob)/[^\s?#]*?/(?P<name>[^/\s?#.]+)(?:\.\w+)?/?(?:[?#]|$)"
)
#: a thing introduced by the title it is called by (``Talk titled "…"``, ``a post called "…"``, ``题为《…》``)
_CALLED = re.compile(r"(?:\b(?:titled|called|named|entitled)\s+|题为\s*)[\"“《「](?P<title>[^\"”》」\n]{3,80})")
#: the parts of a title parted by middle dots (``Okafor et al. (2027) · Tessera: … · arXiv:2704.11873``)
_DOTTED = re.compile(r"\s+[·•]\s+")
#: a title that names its subject in one word before a colon and describes it after (a paper's, a post's)
_NAMED_TITLE = re.compile(r"\s*([A-Za-z\u4e00-\u9fff][\w.+\-\u4e00-\u9fff]{1,40})\s*[:：]\s+\S")


def candidates(title: str, text: str = "", urls: tuple[str, ...] | list[str] = ()) -> list[Candidate]:
    """Candidate subjects of an item, best first."""
    plain = MD_LINK.sub(r"\1", title)
    head, asides = strip_outlet(plain)
    board = _Board(_url_words(urls))
    board.title([s for s in _SEGMENT.split(head) if s.strip()] or [head])
    # ``Tessera: Layout-Polymorphic Tile Programs``: Tessera, in the title's first segment that is so written
    # (a citation puts its authors first: ``Okafor, Lindqvist et al. (2027) · Tessera: All-Atom …``)
    if named := next(filter(None, (_NAMED_TITLE.match(part) for part in _DOTTED.split(plain))), None):
        board.add(named.group(1), 6.0, "title-name")
    if called := _CALLED.search(plain):  # ``Talk titled "Sleeping in the Weights: …"``: the title it is called by,
        board.add(re.split(r"[:：]\s", called["title"], maxsplit=1)[0], 5.0, "called")  # its name before a colon
    board.spans(title, text.split("\n", 1)[0])
    for aside in asides:
        names = list(_NAME.finditer(aside))
        for m in names:
            board.add(m.group(0), 5.0 if _names_its_kind(aside, names) and m is names[0] else -1.0, "aside")
    board.urls(urls)
    if not board.scored and (booked := _BOOK_TITLE.search(plain)):
        # no name in it, a piece titled in book-title brackets (``CSDN《持续预训练只要 5% 回放？一文讲透》``) is named
        # by its own title, before a subtitle; a name it holds comes first (``《NeRF 已死…》`` is about NeRF)
        name = _TITLE_TAIL.split(booked.group(1), maxsplit=1)[0]
        board.scored[name] = Candidate(name, 0.0, "book-title")
    if not board.scored:  # a title in Chinese only: its head run of characters
        cjk = _CJK_HEAD.match(head)
        if cjk and not _junk(cjk.group(1)):
            board.scored[cjk.group(1)] = Candidate(cjk.group(1), 0.0, "title-cjk")
    return sorted(board.scored.values(), key=lambda c: -c.score)


def _names_its_kind(aside: str, names: list[re.Match[str]]) -> bool:
    """Whether an aside is a name and the kind of thing it is (``(LACT paper)``, ``(vLLM repo)``): it says what
    the title is about. The name is a proper one (a capital, or shaped like a product); the one other word is a
    kind of subject (``data/writing.toml`` [labels] kinds), not an outlet (``(LMSYS blog)``)."""
    if len(names) != 2 or not (names[0].group(0)[:1].isupper() or _read_name(names[0].group(0))[2]):
        return False
    rest = (aside[: names[0].start()] + aside[names[0].end() :]).split()
    return len(rest) == 1 and rest[0].lower() in lexicon().subject_kinds


def _url_words(urls: tuple[str, ...] | list[str]) -> set[str]:
    words: set[str] = set()
    for url in urls:
        path = urlparse(url).path.lower()
        for part in _URL_PATH_BREAK.split(path):
            if part:
                words.add(part)
                words.update(part.split("-"))
    return words
