"""The exception family: catch ``E1PrepError`` to catch everything e1prep raises on purpose."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import ValidationError


class E1PrepError(Exception):
    """Root of every error e1prep raises deliberately."""


class InputError(E1PrepError):
    """Bad input from the user: a file that is missing, malformed or outside the contract."""

    def __init__(self, path: str | Path | None, problem: str) -> None:
        self.path = str(path) if path is not None else None
        self.problem = problem
        super().__init__(f"{self.path}: {problem}" if self.path else problem)


class ManifestError(InputError):
    """The work-guard manifest cannot be used."""


class BackendError(E1PrepError):
    """A producer (rules or model) failed on one material; the brief marks it ``failed``."""


class ModelCallError(BackendError):
    """The model server kept failing or kept answering with invalid objects."""


class ConfigError(E1PrepError):
    """Settings (environment variables, options) are inconsistent."""


class Interrupted(E1PrepError):
    """The run was interrupted (Ctrl-C); ``brief`` holds what finished, if anything did."""

    def __init__(self, brief: Any = None) -> None:
        self.brief = brief
        super().__init__("interrupted")


def validation_problem(exc: ValidationError) -> tuple[str, str]:
    """Where (the field path, dotted; "" at the top level) and what the first problem of a pydantic
    ``ValidationError`` is: the one line an ``InputError`` shows."""
    first = exc.errors()[0]
    return ".".join(str(x) for x in first["loc"]), first["msg"]
