"""Warnings while the eval reads its golden cases: each names its case and is said once per case.

An eval reads every case several times (the scored draft, the layout check, the verifier's ROC), so
a card that warns would warn once per reading, without saying in which case (issue 25: 88 lines).
Inside ``eval_run()``, a warning logged in ``case_warnings(case)`` is shown as ``case NAME: ...``,
once per case and message. The layout variants are e1prep's own rewrites of a case (cards without
front matter, by design): their warnings speak of the rewrite, not of the KB, and are shown with
``-v`` only.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from contextvars import ContextVar

#: the (case, message) pairs already said in this eval run; None outside ``eval_run``
_said: ContextVar[set[tuple[str, str]] | None] = ContextVar("e1prep_case_warnings", default=None)
_DECIDED = "_e1prep_case_shown"


class _CaseFilter(logging.Filter):
    """On a handler: name the case in an e1prep warning, and drop a warning the case already gave."""

    def __init__(self, case: str, layout: str | None, said: set[tuple[str, str]]) -> None:
        super().__init__()
        self.case, self.layout, self.said = case, layout, said

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING or not record.name.startswith("e1prep"):
            return True
        decided = getattr(record, _DECIDED, None)
        if isinstance(decided, bool):  # the same record on a second handler: the same answer
            return decided
        message = record.getMessage()
        key = (self.case, message)
        shown = key not in self.said and (self.layout is None or _verbose())
        self.said.add(key)
        if shown:
            where = self.case if self.layout is None else f"{self.case}@{self.layout} (a layout variant)"
            record.msg, record.args = f"case {where}: {message}", ()
        setattr(record, _DECIDED, shown)
        return shown


def _verbose() -> bool:
    return logging.getLogger("e1prep").isEnabledFor(logging.INFO)


@contextlib.contextmanager
def eval_run() -> Iterator[None]:
    """One eval run: a warning is said once per case however many times the case is read."""
    token = _said.set(set())
    try:
        yield
    finally:
        _said.reset(token)


@contextlib.contextmanager
def case_warnings(case: str, layout: str | None = None) -> Iterator[None]:
    """While a golden case (or its ``layout`` variant) is read, its warnings name it (see the module)."""
    said = _said.get()
    filt = _CaseFilter(case, layout, said if said is not None else set())
    handlers = {*logging.getLogger().handlers, *logging.getLogger("e1prep").handlers}
    for handler in handlers:
        handler.addFilter(filt)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(filt)
