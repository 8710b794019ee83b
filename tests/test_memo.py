"""Run memos: every answer kept while a run lasts, all emptied when the last run under way ends."""

from __future__ import annotations

import threading
from collections.abc import Callable

from conftest import EXAMPLE_MANIFEST
from e1prep import pipeline
from e1prep.read import markers, numbers, subjects
from e1prep.text import memo
from e1prep.verify import values


def _counted() -> tuple[list[str], Callable[[str], int]]:
    calls: list[str] = []

    @memo.run_memo
    def read(text: str) -> int:
        calls.append(text)
        return len(text)

    return calls, read


def test_a_text_is_read_once_per_run_and_again_in_the_next() -> None:
    calls, read = _counted()
    with memo.one_run():
        assert [read("ab"), read("ab"), read("c")] == [2, 2, 1]
        assert calls == ["ab", "c"]
    with memo.one_run():
        read("ab")
    assert calls == ["ab", "c", "ab"]


def test_only_the_last_run_to_end_empties_the_memos() -> None:
    calls, read = _counted()
    with memo.one_run():
        with memo.one_run():  # a public entry point called by another (draft_brief -> Verifier.settle)
            read("x")
        read("x")
        assert calls == ["x"]
    read("x")
    assert calls == ["x", "x"]


def test_a_run_in_another_thread_keeps_the_memos_until_it_ends() -> None:
    calls, read = _counted()
    started, finish = threading.Event(), threading.Event()

    def other_run() -> None:
        with memo.one_run():
            started.set()
            finish.wait(10)

    thread = threading.Thread(target=other_run)
    thread.start()
    started.wait(10)
    with memo.one_run():
        read("y")
    read("y")
    assert calls == ["y"]  # the other run is still under way
    finish.set()
    thread.join(10)
    read("y")
    assert calls == ["y", "y"]


def test_a_draft_leaves_no_text_remembered() -> None:
    """A long-lived worker holds nothing of a finished batch (the memos had kept up to 65,536 texts)."""
    pipeline.draft_brief(EXAMPLE_MANIFEST)
    for cached in (markers._find, numbers._scan, numbers.normalize, values.values, subjects._read_name):
        assert cached.cache_info().currsize == 0, cached  # type: ignore[union-attr]


def test_the_texts_every_stage_asks_about_are_remembered_without_a_cap() -> None:
    """A cap served batches below it and made a larger one read its texts again (a 5 MB note asked
    ``markers._find`` some 75,000 texts, 6,700 of them twice, against a cap of 65,536)."""
    for cached in (markers._find, numbers._scan, numbers.normalize, values.values, subjects._read_name):
        assert cached.cache_info().maxsize is None, cached  # type: ignore[union-attr]
