"""The verifier's work grows with its input, not with its square (issue 26, finding 5): what citations
carry is indexed once, by numeral and by value, and every check is a lookup. These tests count the
lookups (never wall-clock time), and hold each index to the scan it replaces."""

from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import example_with, repo_card
from e1prep.brief.models import EvidenceLevel
from e1prep.kb.loading import load_kb
from e1prep.pipeline import draft_brief, living_document
from e1prep.produce import rules as rules_module
from e1prep.read import markers
from e1prep.read.numbers import scan
from e1prep.text.memo import forget
from e1prep.verify import citations as citations_module
from e1prep.verify import claims as claims_module
from e1prep.verify import facts as facts_module
from e1prep.verify import grounding
from e1prep.verify import indexes as indexes_module
from e1prep.verify import values as values_module
from e1prep.verify.grounding import _URLISH, _blank_urlish
from e1prep.verify.indexes import Carried, CitedIndex, Spans
from e1prep.verify.values import Value, carries, digits_alike
from e1prep.verify.verifier import Verifier

NOTE = "inbox/jay/2026-10-25-hostile.md"
HEAD = (
    "# 笔记\n\n## 1. Quillon 推理引擎更新\n\n"
    "- URL：https://example.org/quillon\n- 核查：已核查原文（全文读完）\n- 要点：\n"
)


def identical(count: int) -> str:
    """``count`` identical sub-bullets: every key point binds every citation by value."""
    return HEAD + "  - 吞吐提升 37%，延迟 12 ms\n" * count


def numbered(count: int) -> str:
    """``count`` lines, each with numbers of its own."""
    return HEAD + "".join(f"  - 指标 {n}：吞吐提升 {n}%\n" for n in range(1, count + 1))


def commas(count: int) -> str:
    """One ``1,234,`` run of ``count`` numbers on one bullet."""
    return HEAD + "  - 数字：" + "1,234," * count + "\n"


@contextmanager
def counting(owner: Any, name: str) -> Iterator[list[int]]:
    """Count the calls of ``owner.name`` while the block runs (the count is ``[n]``)."""
    original = getattr(owner, name)
    calls = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    setattr(owner, name, counted)
    try:
        yield calls
    finally:
        setattr(owner, name, original)


def _verified(tmp_path: Path, note: str, owner: Any, name: str) -> tuple[int, int]:
    """Draft ``note``, then verify the brief counting ``owner.name``: (its calls, the note's citations)."""
    manifest = example_with(tmp_path / f"kb-{len(note)}", {NOTE: note})
    with pytest.MonkeyPatch.context() as patch:  # every line cited, as a model's brief may cite them
        patch.setattr(rules_module, "POINTS_LISTED", 1_000_000)
        brief = draft_brief(manifest)
    kb = load_kb(manifest)
    verifier = Verifier(kb, living_document(kb))
    with counting(owner, name) as calls:
        verifier.verify(brief)
    objects = [o for name in ("increments", "refreshes", "contradictions") for o in getattr(brief, name)]
    cited = sum(1 for o in objects for c in o.numbers if c.source.path == NOTE)
    return calls[0], cited


# (a ``1,234,`` run cites its one number once per line since the quotes were bounded: tests/test_quotes.py)
@pytest.mark.parametrize("shape", [identical, numbered], ids=["identical", "numbered"])
def test_a_level_is_read_once_per_citation_not_once_per_number_per_citation(
    tmp_path: Path, shape: Callable[[int], str]
) -> None:
    """``_points_quotable`` once read a citation's level for every number of the key points it binds."""
    small, small_cited = _verified(tmp_path, shape(100), facts_module.MaterialFacts, "level_of")
    large, large_cited = _verified(tmp_path, shape(400), facts_module.MaterialFacts, "level_of")
    assert small_cited >= 100 and large_cited >= 4 * small_cited * 0.9
    # a citation's level is read by its own check and once for the key points: never per point
    assert small <= 3 * small_cited + 50
    assert large <= 3 * large_cited + 50


@pytest.mark.parametrize("shape", [identical, numbered, commas], ids=["identical", "numbered", "commas"])
def test_values_compared_grow_with_the_input_not_its_square(tmp_path: Path, shape: Callable[[int], str]) -> None:
    """Every quantity of a text was held against every citation of its object (``Value.same``)."""
    small, _ = _verified(tmp_path, shape(100), values_module.Value, "same")
    large, _ = _verified(tmp_path, shape(400), values_module.Value, "same")
    assert large <= 6 * max(small, 50)  # four times the input: about four times the comparisons, not sixteen


def test_every_point_is_still_held_to_every_citation_that_binds_it(tmp_path: Path) -> None:
    """Bound by lookups, a number of the key points is still kept out by any unquotable citation of it:
    the note's citations made vendor claims, every ``37%`` and ``12 ms`` of the points is reported."""
    manifest = example_with(tmp_path / "kb", {NOTE: identical(50)})
    brief = draft_brief(manifest)
    [inc] = [i for i in brief.increments if NOTE in i.sources]
    numbers = [
        c.model_copy(update={"quotable": False, "evidence": EvidenceLevel.vendor}) if c.source.path == NOTE else c
        for c in inc.numbers
    ]
    forged = inc.model_copy(update={"numbers": numbers})
    kb = load_kb(manifest)
    found = Verifier(kb, living_document(kb)).check_object("increments[0]", forged)
    flagged = [v for v in found if v.rule == "not-quotable-as-finding"]
    assert len(inc.points) == 50
    assert sorted({v.text for v in flagged}) == ["12 ms", "37%"]
    assert len(flagged) == 2 * len(inc.points)
    assert {v.level for v in flagged} == {EvidenceLevel.vendor}


# -- each index against the scan it replaces -------------------------------------------------------------

_AMOUNTS = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, 37.0, 1234.0, 1e-9, 1e-300, 5e-324, 1e300, 1.7e308, math.inf, -math.inf]),
    st.floats(allow_nan=False, allow_infinity=True),
    st.integers(-3000, 3000).map(float),
    st.integers(1, 40).map(lambda k: 37.0 * 10.0**k),
    st.integers(1, 40).map(lambda k: 37.0 * 10.0**-k),
)
_VALUES = st.builds(
    Value,
    _AMOUNTS,
    st.sampled_from([None, "percent", "multiplier", "money"]),
    st.sampled_from([None, "time", "rate", "size"]),
    st.one_of(st.none(), _AMOUNTS),
)
_NUMERALS = st.frozensets(st.sampled_from(["1", "2", "12", "37", "234", "1234"]), max_size=3)
_ENTRIES = st.lists(st.tuples(_NUMERALS, st.lists(_VALUES, max_size=3).map(tuple)), max_size=8)


@settings(max_examples=300, deadline=None)
@given(_ENTRIES, _VALUES, _NUMERALS)
def test_an_index_answers_as_a_scan_of_its_entries(entries: list[Any], wanted: Value, cores: frozenset[str]) -> None:
    index = CitedIndex(entries)
    scanned = frozenset(n for n, (_, held) in enumerate(entries) if carries(held, wanted))
    assert index.carrying(wanted) == scanned
    assert index.carries(wanted) == any(carries(held, wanted) for _, held in entries)
    assert index.holding(cores) == frozenset(n for n, (numerals, _) in enumerate(entries) if cores <= numerals)
    alike = any(digits_alike(wanted.amount, v.amount) for _, held in entries for v in held)
    assert index.alike(wanted.amount) == alike


def test_digits_alike_is_found_by_window_at_every_power_of_ten() -> None:
    values = [Value(37.0 * 10.0**k, None, None) for k in range(-20, 21)] + [Value(38.0, None, None)]
    index = CitedIndex([(frozenset(), (v,)) for v in values])
    for amount in (3.7, 370.0, 3.7e14, 3.7e-13, 5.0, 0.0, 1e308, 5e-324):
        assert index.alike(amount) == any(digits_alike(amount, v.amount) for v in values), amount


def test_carried_indexes_are_equal_by_their_entries() -> None:
    entry = (frozenset({"37"}), (Value(37.0, "percent", None),))
    assert Carried([entry]) == Carried([entry]) and hash(Carried([entry])) == hash(Carried([entry]))
    assert Carried([entry]) != Carried([entry, entry])
    assert Carried([entry]).plus(entry) == Carried([entry, entry])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), max_size=12), st.integers(-5, 70))
def test_spans_cover_what_a_scan_of_them_covers(spans: list[tuple[int, int]], at: int) -> None:
    assert Spans.of(spans).cover(at) == any(a <= at < b for a, b in spans)


_URLISH_PIECES = st.sampled_from(
    [
        *("a", "md", ".", ".md", ".json", ".yaml", ".yml", "txt", " ", "\n", "§", "§ ", "1", "。", "、", "_", "-"),
        *("é", "http://", "https://", "www.", "\u3000", ".mdx", "x.md)", "§1.2", "b.txt"),
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_URLISH_PIECES, max_size=16).map("".join))
def test_urlish_text_is_blanked_as_the_pattern_blanks_it(text: str) -> None:
    assert _blank_urlish(text) == _URLISH.sub(" ", text)


def test_blanking_a_long_word_searches_it_a_few_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """``\\S+\\.md`` rescans a word from every place of it where it fails (a claim listing ten thousand
    numbers is one word): the blanker searches the text a few times, however long the word."""
    searches = []
    for count in (1_000, 4_000):
        text = "数字 " + "1、1%、" * count + " a.md"
        counted = _CountedPattern(grounding._URL_OR_SECTION)
        monkeypatch.setattr(grounding, "_URL_OR_SECTION", counted)
        blanked = _blank_urlish(text)
        monkeypatch.undo()
        assert blanked == _URLISH.sub(" ", text)
        searches.append(counted.calls)
    assert searches[0] == searches[1] <= 3


class _CountedPattern:
    """A compiled pattern whose searches are counted."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.calls = pattern, 0

    def search(self, *args: Any) -> re.Match[str] | None:
        self.calls += 1
        return self.pattern.search(*args)

    def sub(self, *args: Any) -> str:
        return self.pattern.sub(*args)


def test_each_number_is_worked_out_once_per_verification_whatever_a_process_cache_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process-wide cache of 65,536 numbers forgot them on the 2 MB numbered note (140,000 distinct),
    and each was worked out again for its object's claims, its key points and the brief's (verify grew
    2.3-2.8 times from 1 to 2 MB). Here that cache holds 8: the verification still works each out once."""
    manifest = example_with(tmp_path / "kb", {NOTE: numbered(150)})
    monkeypatch.setattr(rules_module, "POINTS_LISTED", 1_000_000)  # every line cited
    brief = draft_brief(manifest)
    kb = load_kb(manifest)
    verifier = Verifier(kb, living_document(kb))
    computed: list[str] = []
    original = values_module.values.__wrapped__  # type: ignore[attr-defined]

    def worked_out(text: str) -> tuple[Value, ...]:
        computed.append(text)
        return original(text)  # type: ignore[no-any-return]

    small = functools.lru_cache(maxsize=8)(worked_out)
    for module in (values_module, indexes_module, citations_module, claims_module):
        if hasattr(module, "values"):
            monkeypatch.setattr(module, "values", small)
    if hasattr(citations_module, "_carried_text"):
        monkeypatch.setattr(
            citations_module,
            "_carried_text",
            functools.lru_cache(maxsize=8)(citations_module._carried_text.__wrapped__),
        )
    assert verifier.verify(brief).clean
    assert len(computed) >= 300 and len(computed) == len(set(computed))


def _label_counters(text: str) -> dict[str, set[str]]:
    """Each line's label (``指标 401：`` after an optional bullet): its prefix, case-folded, and its counters."""
    out: dict[str, set[str]] = {}
    for line in text.split("\n"):
        m = re.match(
            r"[ \t]*(?:[-*+>][ \t]+)?(?:\*\*)?([\u3400-\u9fff]{1,4}|[A-Za-z]{1,12})[ \t]*(\d{1,6})(?:\*\*)?[ \t]*[:：]",
            line,
        )
        if m:
            out.setdefault(m.group(1).casefold(), set()).add(m.group(2))
    return out


def _held_by_a_number(text: str, start: int, end: int) -> bool:
    """The specification of ``markers._part_of_a_number``: the first token of its line that holds the
    status code decides (a count with a unit, a price or a share, an identifier other than a bare status),
    and a bare status that counts the label leading its line, in a run of sibling labels, is a counter."""
    first = text.rfind("\n", 0, start) + 1
    last = text.find("\n", end)
    line = text[first : len(text) if last < 0 else last]
    for tok in scan(line):
        if tok.start <= start - first and end - first <= tok.end:
            if tok.kind == "quantity":
                return tok.type in ("money", "percent") or (tok.type == "count" and bool(tok.unit))
            if re.fullmatch(r"(?:HTTP\s?)?\d{3}", tok.text, re.I) is None:
                return True
            lead = re.match(
                r"[ \t]*(?:[-*+>][ \t]+)?(?:\*\*)?([\u3400-\u9fff]{1,4}|[A-Za-z]{1,12})[ \t]*(\d{1,6})", line
            )
            if lead is None or lead.start(2) != tok.start or lead.end(2) != tok.end:
                return False
            if not re.match(r"(?:\*\*)?[ \t]*[:：]", line[lead.end(2) :]):
                return False
            counters = _label_counters(text).get(lead.group(1).casefold(), set())
            statuses = {mk.text for mk in markers.markers() if mk.access and mk.text.isdigit()}
            return lead.group(1).casefold() != "http" and len(counters) >= 2 and not counters <= statuses
    return False


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *("返回 ", "404", "HTTP 429", " 篇", "#", "503", " ms", "issue ", "第 ", " 期", "¥", "，", "v1.", "x"),
                *("\n- 指标 ", "：", "%", "12", "\n"),  # a label's counter among siblings, a share
            ]
        ),
        max_size=12,
    )
)
def test_a_status_code_is_looked_up_among_its_text_s_numbers(parts: list[str]) -> None:
    text = "".join(parts)
    for m in re.finditer(r"\d{3}", text):
        hit = markers.Hit(m.start(), m.end(), None)  # type: ignore[arg-type]
        assert markers._part_of_a_number(text, hit) == _held_by_a_number(text, m.start(), m.end())


def _best_find_seconds(lines: int) -> float:
    """The best of three reads of an item of ``lines`` status-code lines, every run memo emptied first (no line is
    answered from an earlier read)."""
    best = float("inf")
    for _ in range(3):
        text = "".join(f"- 指标 {k}：返回 404，吞吐 {k}%\n" for k in range(lines))
        forget()
        t0 = time.perf_counter()
        hits = markers.find(text)
        best = min(best, time.perf_counter() - t0)
        assert len(hits) >= lines
    return best


def test_an_item_of_many_status_codes_is_read_in_linear_time() -> None:
    """Each ``404`` of an item walked every number of the item: 8,000 lines took 4.8 s, 2,000 took 0.35 s (x14 for
    x4 the lines). Measured against the reference of the same run (a quarter of the lines), not a wall-clock limit
    that a loaded machine misses: linear is about x4, the quadratic walk x14."""
    assert _best_find_seconds(8_000) / _best_find_seconds(2_000) < 8


def _with_cards(folder: Path, count: int) -> Path:
    """The bundled example KB with ``count`` distinct repo cards added to its manifest."""
    return example_with(
        folder,
        {
            f"organized/repo_cards/gen-{n}.md": repo_card(
                f"owner{n}/forge{n}", stars=100 + n, body=f"Kernel{n}Forge serves Model{n} with a paged cache.\n"
            )
            for n in range(count)
        },
    )


def test_names_are_searched_once_for_the_batch_not_once_per_material(tmp_path: Path) -> None:
    """The brief's names were put into a new search automaton for every material of the batch: names x
    materials (30 s for 1,000 cards). The needles built grow with the batch, not with its square."""
    built: list[int] = []
    original = facts_module.NameSearch.of.__func__  # type: ignore[attr-defined]

    def counted(cls: type[facts_module.NameSearch], names: Any) -> facts_module.NameSearch:
        search = original(cls, names)
        built.append(len(search.needles))
        return search

    def needles(count: int) -> int:
        manifest = _with_cards(tmp_path / f"kb-{count}", count)
        kb = load_kb(manifest)
        brief = draft_brief(manifest)
        built.clear()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(facts_module.NameSearch, "of", classmethod(counted))
            Verifier(kb, living_document(kb)).verify(brief)
        return sum(built)

    small, large = needles(10), needles(40)
    assert small > 0
    assert large <= 6 * small  # four times the cards: about four times the needles, not sixteen


def test_a_name_learnt_for_the_batch_is_answered_as_an_unlearnt_search_answers_it(tmp_path: Path) -> None:
    """Learning names from a shared search changes no answer of ``names``: found, absent, or never learnt."""
    manifest = _with_cards(tmp_path / "kb", 3)
    kb = load_kb(manifest)
    asked = ["Kernel1Forge", "kernel2forge", "Model0", "NotThereAtAll", "owner1", "forge2", "vLLM", "Absent9"]
    fresh = [facts_module.MaterialFacts.build(m) for m in kb.materials if m.text]
    learnt = [facts_module.MaterialFacts.build(m) for m in kb.materials if m.text]
    search = facts_module.NameSearch.of(asked[:-1])  # the last name is never learnt
    for facts in learnt:
        facts.learn_names(search)
    for before, after in zip(fresh, learnt, strict=True):
        assert [before.names(n) for n in asked] == [after.names(n) for n in asked]
    assert any(f.names("Kernel1Forge") for f in learnt) and not any(f.names("NotThereAtAll") for f in learnt)
