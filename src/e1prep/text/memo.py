"""Memos of what a text reads as, kept for one run.

The reader, the rules, the detectors and the verifier ask about the same texts (a line's markers, its
numbers). A memo capped at a fixed count of texts served a batch below the cap and, past it, had the
stages evict each other's answers, so a larger batch read its texts again: the cost of a megabyte
grew with the batch. A run memo keeps every answer until the run ends, and the outermost public entry
point (``draft_brief``, ``verify_brief``, ``Verifier.verify``) empties them all when it returns, so a
long-lived process holds nothing of a finished batch. Called outside any run, a memo still remembers;
the next run's end empties it.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_clears: list[Callable[[], None]] = []
_lock = threading.Lock()
_runs = 0  # runs under way (nested entry points and concurrent threads alike)


def run_memo(fn: Callable[P, R]) -> Callable[P, R]:
    """``functools.cache`` of ``fn``, emptied when a run ends (``one_run``). ``fn`` must be pure."""
    cached = functools.cache(fn)
    _clears.append(cached.cache_clear)
    return cached  # type: ignore[return-value]


def forget() -> None:
    """Empty every run memo."""
    for clear in _clears:
        clear()


@contextmanager
def one_run() -> Iterator[None]:
    """A run: when the last run under way ends, every run memo is emptied."""
    global _runs
    with _lock:
        _runs += 1
    try:
        yield
    finally:
        with _lock:
            _runs -= 1
            if _runs == 0:
                forget()


def in_one_run(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` as a run (``one_run``): a public entry point."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with one_run():
            return fn(*args, **kwargs)

    return run
