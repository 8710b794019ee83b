"""The name index answers exactly what ``term_pattern(term).finditer(text)`` answers (the spec), and the
detectors' and prompts' repository and name lookups exactly what their former per-name regexes did."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from e1prep.check import detectors
from e1prep.kb.knowledge import _EXTRA_CASES, _WORD, NameIndex, fold, parse_knowledge, term_pattern

#: every code point once (lone surrogates included: ``re`` reads them like any other character)
ALL = "".join(map(chr, range(sys.maxunicode + 1)))
FOLDED_ALL = fold(ALL)

#: characters where case folding, word boundaries or separators are special, and some plain ones
EDGE = "aAbBiIıİsSſkKKßẞσςΣµμ0129-_ \t\n\u3000\xa0/.#()（）深度求索é"
texts = st.text(alphabet=st.sampled_from(EDGE), max_size=60) | st.text(max_size=40)
names = st.text(alphabet=st.sampled_from(EDGE), min_size=1, max_size=8) | st.text(min_size=1, max_size=6)


def spec(term: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in term_pattern(term).finditer(text)]


def _positions(rx: re.Pattern[str]) -> set[int]:
    return {m.start() for m in rx.finditer(ALL)}


def test_folding_keeps_every_offset() -> None:
    assert len(FOLDED_ALL) == len(ALL)
    assert fold(FOLDED_ALL) == FOLDED_ALL  # folded characters are their own fold


def test_the_boundary_class_is_a_folded_word_character() -> None:
    """``(?<![A-Za-z0-9])`` under ``re.I`` also stops at ``ı``, ``ſ``, ``İ`` and the Kelvin sign."""
    word = _positions(re.compile(r"[A-Za-z0-9]", re.I))
    assert word == {i for i, c in enumerate(FOLDED_ALL) if c in _WORD}
    assert {"ı", "ſ", "İ", "\u212a"} <= {ALL[i] for i in word}


def test_the_separator_class_is_hyphen_underscore_or_space() -> None:
    sep = _positions(re.compile(r"[-\s_]", re.I))
    assert sep == {i for i, c in enumerate(FOLDED_ALL) if c in "-_" or c.isspace()}


def test_the_repository_boundary_class_is_word_slash_or_hyphen() -> None:
    for signs, rx in (("/-", r"[\w/-]"), ("-", r"[\w-]")):
        found = _positions(re.compile(rx, re.I))
        assert found == {i for i, c in enumerate(ALL) if detectors._word_or(c, signs)}


def _special() -> str:
    """Pattern characters whose ``re.I`` partners are not plain ``str.lower`` twins: the extra case
    classes, characters whose lowercase is not one character or lands in ASCII, and ASCII itself."""
    out = {chr(c) for k, v in (_EXTRA_CASES or {}).items() for c in (k, *v)}
    out |= {c for c in ALL if len(c.lower()) != 1 or (not c.isascii() and c.lower().isascii())}
    out |= {chr(c) for c in range(128)}
    return "".join(sorted(out)) + "ßẞΣσςé深"


@pytest.mark.skipif(_EXTRA_CASES is None, reason="this Python has no re._casefix")
def test_a_character_matches_exactly_the_characters_of_its_fold() -> None:
    """For each special pattern character: ``re.escape(c)`` under ``re.I`` matches, over every code
    point, exactly those with the same fold."""
    same_fold: dict[str, set[str]] = {}
    for c, f in zip(ALL, FOLDED_ALL, strict=True):
        same_fold.setdefault(f, set()).add(c)
    for c in _special():
        assert set(re.compile(re.escape(c), re.I).findall(ALL)) == same_fold[fold(c)], repr(c)


@settings(max_examples=300)
@given(st.characters(), st.characters())
def test_any_two_characters_match_as_their_folds_say(a: str, b: str) -> None:
    assert bool(re.fullmatch(re.escape(a), b, re.I)) == (fold(a) == fold(b))


@settings(max_examples=1500)
@given(texts, names)
def test_spans_equal_the_pattern(text: str, term: str) -> None:
    assert NameIndex(text).spans(term) == spec(term, text)


@st.composite
def text_and_present_name(draw: st.DrawFn) -> tuple[str, str]:
    """A text and a name cut from it, its case changed and its separators swapped, so that it matches."""
    text = draw(texts.filter(bool))
    i = draw(st.integers(0, len(text) - 1))
    j = draw(st.integers(i + 1, min(len(text), i + 10)))
    swap = str.maketrans({"_": draw(st.sampled_from("-_ ")), "\n": " ", "\t": "-"})
    term = text[i:j].translate(swap)
    term = draw(st.sampled_from([term, term.upper(), term.lower(), term.swapcase()]))
    return text, term


@settings(max_examples=1500)
@given(text_and_present_name())
def test_spans_of_names_found_in_the_text(case: tuple[str, str]) -> None:
    text, term = case
    assert NameIndex(text).spans(term) == spec(term, text)


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["vLLM", "mlx-lm", "MLX LM", "mlx_lm", "DeepSeek-V4", "深度求索", "a-a"]), max_size=8))
def test_repeated_names_many_lookups_one_index(words: list[str]) -> None:
    """One index over a text, asked for many names (its word tokens are built once and reused)."""
    text = " ".join(words) + "\n" + "-".join(words) + "x" + "".join(words)
    index = NameIndex(text)
    for term in ["vllm", "mlx-lm", "mlx lm", "MLX_LM", "deepseek v4", "深度求索", "a-a", "a a", "V4", "x"]:
        assert index.spans(term) == spec(term, text), term


@pytest.mark.parametrize(
    ("term", "text"),
    [
        ("ааа", "а" * 10),  # a self-overlapping name in a run: non-overlapping, left to right
        ("a-a", "-".join("a" * 8)),
        ("ab ab", "ab ab ab ab ab ab ab"),
        ("rec", "rec"),  # at both edges of the text
        ("rec", "Rec.record rec_rec REC-x xrec"),
        ("a - b", "a-_ b a b ab a\u3000b"),  # three optional separators
        ("a-", "a- a-x a-"),  # a trailing separator is given back where the boundary needs it
        ("-foo", "-foo foo _foo x-foo"),  # a leading one: the match may start at the separator
        ("a-_b", "a__b a_b a-_b"),  # ``_`` in a name is literal; only ``-`` and space are optional
        ("kit", "\u212ait ıt KIT kİt"),  # the Kelvin sign and dotless i are ``k`` and ``i`` to re.I
        ("İstanbul", "istanbul İSTANBUL i̇stanbul"),
        ("straße", "STRASSE Straße STRAẞE"),  # ß is not ss
        ("σοφία", "ΣΟΦΊΑ ςοφία"),
        ("深度求索", "深度求索深度求索 深度 求索"),
        ("-", "a-b - c"),  # no literal at all: the regex answers (it matches empty)
        (" - ", "x"),
    ],
)
def test_spans_examples(term: str, text: str) -> None:
    assert NameIndex(text).spans(term) == spec(term, text)


@settings(max_examples=500)
@given(text_and_present_name())
def test_search_counts_the_pattern_hits(case: tuple[str, str]) -> None:
    text, term = case
    hits = parse_knowledge("k", text).search(term).hits
    assert hits == (len(spec(term.strip(), text)) if term.strip() else 0)


# --- the other per-name lookups, against the regexes they replaced -----------------------------------

repos = st.sampled_from(["ai-dynamo/dynamo", "vllm-project/vllm", "raullenchai/rapid-mlx", "owner/", "x/ſglang"])
repo_texts = st.lists(
    st.sampled_from(
        [
            "ai-dynamo/dynamo",
            "AI-Dynamo/Dynamo（Dynamo 推理）",
            "dynamo (NVIDIA Dynamo)",
            "vllm-project/vLLM (vLLM, 2)",
            "VLLM",
            "rapid-mlx",
            "Rapid-MLX-x",
            "/vllm",
            "sglang",
            "SGLANG (ſ)",
            "12k ⭐",
            " ",
            "\n",
            "-",
            "_",
            "(",
            ")",
            "，",
        ]
    ),
    max_size=14,
).map("".join)


@settings(max_examples=800)
@given(repo_texts, repos)
def test_display_name_equals_its_former_regex(text: str, repo: str) -> None:
    doc = parse_knowledge("k", text)
    m = re.search(re.escape(repo) + r"\s*[（(]([^）)，,]{1,40})[）)]", doc.text, re.I)
    assert detectors.display_name(doc, repo) == (m.group(1).strip() if m else repo.split("/")[-1])


@settings(max_examples=800)
@given(repo_texts, repos)
def test_naming_lines_equal_their_former_regexes(text: str, repo: str) -> None:
    doc = parse_knowledge("k", text)
    short = repo.split("/")[-1]
    patterns = [re.compile(re.escape(repo), re.I), re.compile(rf"(?<![\w/-]){re.escape(short)}(?![\w-])", re.I)]
    lines = text.split("\n")
    want = [n for n, line in enumerate(lines, start=1) if any(p.search(line) for p in patterns)]
    assert detectors._naming_lines(doc, repo) == want


@settings(max_examples=500)
@given(texts, names)
def test_folded_containment_is_a_case_insensitive_search(line: str, name: str) -> None:
    """``render_doc_context`` keeps a line when ``fold(name) in fold(line)``."""
    assert (fold(name) in fold(line)) == bool(re.search(re.escape(name), line, re.I))
