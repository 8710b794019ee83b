"""How people write, as data: column meanings, field labels, outlets and generic words.

One loader for ``data/writing.toml`` so that no phrase list of this kind lives in code.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from e1prep.text.memo import run_memo
from e1prep.text.regexgate import Gates, guarded


@dataclass(frozen=True)
class Lexicon:
    columns: dict[str, tuple[str, ...]]
    labels: frozenset[str]
    #: the field labels that give a labelled item its title (lower-cased)
    title_labels: frozenset[str]
    #: the heads of Chinese compound labels that name the title too (``物料名称``)
    title_heads: tuple[str, ...]
    #: the kinds of thing a subject is (``paper``, ``仓库``), lower-cased
    subject_kinds: frozenset[str]
    #: the verdict words an item's label may be (lower-cased)
    verdict_labels: frozenset[str]
    #: an outliner's task states before a heading's title (``DONE``), as written (upper case)
    task_states: frozenset[str]
    outlets: frozenset[str]  # lower-cased
    generic: frozenset[str]
    verdicts: dict[str, re.Pattern[str]]
    #: canonical card field → the names people use for it
    card_fields: dict[str, tuple[str, ...]]
    #: labels of a check remark line, and the general ones among them (lower-cased)
    remark_labels: tuple[str, ...]
    weak_remark_labels: frozenset[str]
    reading_label_words: tuple[str, ...]
    relative_days: tuple[str, ...]
    topic_openers: tuple[str, ...]
    #: labels of a legend line
    legend_labels: tuple[str, ...]
    #: signs that look like check marks
    check_symbols: str
    #: the team's own bookkeeping words (stage names, priorities), and the shapes of bookkeeping tokens
    bookkeeping: frozenset[str] = frozenset()
    bookkeeping_shapes: tuple[str, ...] = ()
    #: what a statement about the reading may be about besides the page read, the words of the page
    #: read itself, and the shapes of a summary read together with the body
    other_objects: tuple[str, ...] = ()
    reading_objects: tuple[str, ...] = ()
    #: the parts of one source, as regex fragments (``附录``, ``app\.\s*[A-Z]``, ``§\s*\d``)
    source_parts: tuple[str, ...] = ()
    read_together: tuple[str, ...] = ()
    whole_item: tuple[str, ...] = ()
    #: words that end in a whole-item word without meaning it (``平均``)
    not_whole: tuple[str, ...] = ()
    #: the neighbours that make a number an identifier (``version 0.4``, ``4-bit``, ``7B model``), and the
    #: names of a repository card's own counts (``stars``, ``forks``): each a list of regex fragments
    numbers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: how a note files an item under a topic: verbs, their negations, verbs after the name, the marks of
    #: a topic's name, and the words for "this topic" (``e1prep.read.filing``)
    filing: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: a pasted e-mail's header fields, its subject's field names, and a reply's subject prefixes
    mail: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: a Gherkin feature file's keywords: ``feature`` and ``scenario`` (``data/writing.toml`` [gherkin])
    gherkin: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: what a copied thread's post header says its author did (``commented``)
    thread_posts: tuple[str, ...] = ()
    #: the labels by which a note gives an item's own date
    date_labels: tuple[str, ...] = ()
    #: what a note calls a piece whose date it gives right before it (``2023-08 的旧文``)
    old_pieces: tuple[str, ...] = ()

    def column_meaning(self, header: str) -> str | None:
        """What a table header cell names (``Status`` → ``check``), or None."""
        cell = header.strip().strip("*`").lower()
        if not cell:
            return None
        for meaning in ("number", "url", "check", "title", "points", "verdict"):
            words = self.columns.get(meaning, ())
            if cell in words or any(len(w) > 1 and w in cell for w in words):
                return meaning
        return None

    def verdict(self, kind: str, text: str) -> str | None:
        """The words by which a note gives its own verdict of ``kind`` on an item, if it does."""
        if kind not in _verdicts_possible(text):
            return None
        m = self.verdicts[kind].search(text)
        return m.group(0) if m else None

    def is_outlet(self, name: str) -> bool:
        return name.strip().lower() in self.outlets

    def is_label(self, name: str) -> bool:
        return name.strip().strip(":：").lower() in self.labels

    def is_title_label(self, name: str) -> bool:
        """Whether a field's label names the item's title: a title word (``writing.toml [labels] title``), or a
        Chinese compound headed by a title head (``title_heads``: ``物料名称``, ``检查项目``: a kind of 名称, of
        项目)."""
        word = name.strip().strip(":：").lower()
        if word in self.title_labels:
            return True
        return len(word) >= 3 and _all_cjk(word) and word.endswith(self.title_heads)

    def is_generic(self, name: str) -> bool:
        return name.strip().lower() in self.generic


def _all_cjk(word: str) -> bool:
    return all("\u3400" <= c <= "\u9fff" for c in word)


@cache
def _verdict_gates() -> tuple[tuple[str, ...], Gates]:
    kinds = tuple(lexicon().verdicts)
    return kinds, Gates([lexicon().verdicts[k] for k in kinds])


@run_memo
def _verdicts_possible(text: str) -> frozenset[str]:
    """The verdict kinds whose required words ``text`` holds (one literal scan for all seven): searching
    only those is searching them all (an item's text is asked for each kind; most hold none)."""
    kinds, gates = _verdict_gates()
    return frozenset(kinds[n] for n in gates.open(text))


@cache
def lexicon() -> Lexicon:
    raw = resources.files("e1prep.data").joinpath("writing.toml").read_text(encoding="utf-8")
    data = tomllib.loads(raw)
    return Lexicon(
        columns={k: tuple(w.lower() for w in v) for k, v in data["columns"].items()},
        labels=frozenset(w.lower() for w in data["labels"]["words"]),
        title_labels=frozenset(w.lower() for w in data["labels"]["title"]),
        title_heads=tuple(data["labels"]["title_heads"]),
        subject_kinds=frozenset(w.lower() for w in data["labels"]["kinds"]),
        verdict_labels=frozenset(w.lower() for w in data["labels"]["verdicts"]),
        task_states=frozenset(data["labels"]["task_states"]),
        outlets=frozenset(n.lower() for n in data["outlets"]["names"]),
        generic=frozenset(w.lower() for w in data["generic"]["words"]),
        verdicts={k: guarded("|".join(v), re.I) for k, v in data["verdicts"].items()},
        card_fields={k: tuple(n.lower() for n in v) for k, v in data["card_fields"].items()},
        remark_labels=(*data["remark_labels"]["strong"], *data["remark_labels"]["weak"]),
        weak_remark_labels=frozenset(w.lower() for w in data["remark_labels"]["weak"]),
        reading_label_words=tuple(data["remark_labels"]["reading"]),
        relative_days=tuple(data["days"]["relative"]),
        topic_openers=tuple(data["spoken"]["topic_openers"]),
        legend_labels=tuple(data["legend_labels"]["words"]),
        check_symbols=data["check_symbols"]["chars"],
        bookkeeping=frozenset(data["bookkeeping"]["words"]),
        bookkeeping_shapes=tuple(data["bookkeeping"]["shapes"]),
        other_objects=tuple(data["scope"]["other_objects"]),
        reading_objects=tuple(data["scope"]["reading"]),
        source_parts=tuple(data["scope"].get("parts", ())),
        read_together=tuple(data["scope"]["read_together"]),
        whole_item=tuple(data["scope"]["whole_item"]),
        not_whole=tuple(data["scope"].get("not_whole", ())),
        numbers={k: tuple(v) for k, v in data.get("numbers", {}).items()},
        filing={k: tuple(v) for k, v in data["filing"].items()},
        mail={k: tuple(v) for k, v in data["mail"].items()},
        thread_posts=tuple(data["threads"]["posted"]),
        gherkin={k: tuple(v) for k, v in data.get("gherkin", {}).items()},
        date_labels=tuple(data["dates"]["labels"]),
        old_pieces=tuple(data["dates"].get("old", ())),
    )
