"""The brief's languages: every phrase e1prep itself writes, from one table (``data/phrases.toml``).

A brief is drafted in one language (``lang``); each stage that writes a sentence (the rules, the
detectors, grouping, a reader's verdicts, the judgement, actions and notices, the Markdown) is handed
the ``Phrases`` of that language and asks it by key. The KB's own text is filled into the phrases as
written. The table is data, loaded once, and checked when it is: every entry has both languages
with the same placeholders, so no language can lack a sentence the other has.
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal, get_args

from ..errors import ConfigError
from .models import EVIDENCE_LABELS, EVIDENCE_LABELS_EN, EvidenceLevel

#: the languages a brief can be written in
Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = get_args(Lang)
#: where the table ships, inside the package
TABLE = "phrases.toml"
_LEVEL_LABELS: dict[Lang, Mapping[EvidenceLevel, str]] = {"zh": EVIDENCE_LABELS, "en": EVIDENCE_LABELS_EN}


@dataclass(frozen=True)
class Phrases:
    """The phrases of one language: ``say("rules.stale", date=...)`` is that entry, filled in."""

    lang: Lang
    table: Mapping[str, str]

    def __call__(self, key: str, /, **values: object) -> str:
        return self.table[key].format(**values)

    def join(self, items: Iterable[object], joint: str = "sep") -> str:
        """``items`` joined the way this language lists them (``joint``: a ``punct`` entry)."""
        return self.table[f"punct.{joint}"].join(str(x) for x in items)

    def level(self, level: EvidenceLevel) -> str:
        """The label of an evidence level in this language (``仅摘要`` / ``summary only``)."""
        return _LEVEL_LABELS[self.lang][level]

    def said(self, word: str) -> str:
        """A word as this language says it: a ``Phrase`` in this language, any other text as written."""
        if not isinstance(word, Phrase):
            return word
        values = {k: self.join(self.said(w) for w in v) if isinstance(v, tuple) else v for k, v in word.values.items()}
        return self(word.key, **values)

    def remark(self, words: Iterable[str]) -> str:
        """The words that decided a reading (``Reading.deciding``), each once, as this language lists them."""
        return self.join(self.said(w) for w in dict.fromkeys(words))


class Phrase(str):
    """A phrase made before the brief's language is known (a note's reading is made once, in no
    language): as a ``str``, its Chinese text (what the reading compares and caches); ``Phrases.said``
    says it in the brief's language from its key and values (the KB's own words; a tuple is a list)."""

    key: str
    values: dict[str, str | tuple[str, ...]]

    def __new__(cls, key: str, **values: str | tuple[str, ...]) -> Phrase:
        zh = phrases("zh")
        text = zh(key, **{k: zh.join(v) if isinstance(v, tuple) else v for k, v in values.items()})
        made = super().__new__(cls, text)
        made.key, made.values = key, values
        return made


def _placeholders(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name is not None)


def _flatten(node: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, Mapping[str, Any]]]:
    """Each entry of the table (a table that holds strings) under its dotted key."""
    for name, value in node.items():
        if not isinstance(value, Mapping):
            continue
        key = f"{prefix}{name}"
        if any(isinstance(v, str) for v in value.values()):
            yield key, value
        else:
            yield from _flatten(value, key + ".")


def parse_table(raw: str, where: str = TABLE) -> dict[Lang, dict[str, str]]:
    """The table per language; a ``ConfigError`` naming the entry when one lacks a language, has another,
    or fills in other placeholders in one language than in the other."""
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not TOML ({exc})") from None
    out: dict[Lang, dict[str, str]] = {lang: {} for lang in LANGS}
    for key, entry in _flatten(data):
        if set(entry) != set(LANGS) or not all(isinstance(entry[lang], str) for lang in LANGS):
            raise ConfigError(f"{where}: [{key}] must have exactly {' and '.join(LANGS)} strings, has {sorted(entry)}")
        names = {lang: _placeholders(entry[lang]) for lang in LANGS}
        if len(set(names.values())) > 1:
            raise ConfigError(f"{where}: [{key}] fills in other placeholders per language: {names}")
        for lang in LANGS:
            out[lang][key] = entry[lang]
    return out


@cache
def _tables() -> dict[Lang, dict[str, str]]:
    raw = resources.files("e1prep.data").joinpath(TABLE).read_text(encoding="utf-8")
    return parse_table(raw)


#: a word of the table's own text: what stands between spaces and punctuation
_WORD = re.compile(r"[^\s,;:()\"'“”。，；：、（）「」]+")


@cache
def tool_words() -> frozenset[str]:
    """Every word the table itself writes, in both languages, its placeholders left out (``full-text``,
    ``mix-up``): the tool's own vocabulary, which names nothing a material must hold."""
    words: set[str] = set()
    for table in _tables().values():
        for template in table.values():
            literal = " ".join(text for text, _, _, _ in string.Formatter().parse(template))
            words.update(w.strip(".") for w in _WORD.findall(literal))
    return frozenset(w for w in words if w)


@cache
def phrases(lang: str = "zh") -> Phrases:
    """The phrases of ``lang`` (``"zh"``, the default, or ``"en"``); a ``ConfigError`` for another."""
    if lang not in LANGS:
        raise ConfigError(f"lang must be 'zh' or 'en', not {lang!r}")
    known: Lang = "en" if lang == "en" else "zh"
    return Phrases(known, _tables()[known])
