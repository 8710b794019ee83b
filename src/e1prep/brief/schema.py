"""Published JSON Schemas: generated from the models, checked for drift, used to validate output."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
from pydantic import BaseModel, ValidationError

from .._resources import package_dir
from ..errors import InputError
from .extraction import ExtractionSet
from .golden import GoldenCase
from .models import Brief
from .schemacheck import Check, compile_schema

SCHEMAS: dict[str, type[BaseModel]] = {
    "brief.schema.json": Brief,
    "golden-case.schema.json": GoldenCase,
    "extraction.schema.json": ExtractionSet,
}


def schema_dir() -> Path:
    """The published schemas, shipped inside the package (``e1prep/schemas/``; ``schemas/`` links there)."""
    return package_dir("schemas")


def generate(name: str) -> dict[str, Any]:
    schema = SCHEMAS[name].model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://e1prep.invalid/schemas/{name}"
    return schema


def dumps(schema: dict[str, Any]) -> str:
    return json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write_all(folder: Path) -> list[Path]:
    """Write every schema into ``folder`` (in a checkout: ``src/e1prep/schemas``); never a default target."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMAS:
        path = folder / name
        path.write_text(dumps(generate(name)), encoding="utf-8")
        written.append(path)
    return written


def drift(folder: Path | None = None) -> list[str]:
    """Names of published schemas that differ from what the models generate now (default: the packaged ones)."""
    folder = folder or schema_dir()
    stale = []
    for name in SCHEMAS:
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != dumps(generate(name)):
            stale.append(name)
    return stale


@lru_cache(maxsize=4)
def _published(name: str) -> dict[str, Any]:
    path = schema_dir() / name
    if path.exists():
        loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return loaded
    return generate(name)


@lru_cache(maxsize=1)
def _brief_validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_published("brief.schema.json"))


@lru_cache(maxsize=1)
def _brief_check() -> Check | None:
    return compile_schema(_published("brief.schema.json"))


def validate_brief_json(data: Any, *, where: str = "brief") -> None:
    """Validate against the published brief schema; ``InputError`` names the first problem.

    The compiled check answers whether it is valid in one pass (``schemacheck``); ``jsonschema`` is asked
    only when it says no (or the schema is not one it compiles), for the problem to name."""
    check = _brief_check()
    if check is not None and check(data):
        return
    error = jsonschema.exceptions.best_match(_brief_validator().iter_errors(data))
    if error is not None:
        loc = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        raise InputError(where, f"does not match schemas/brief.schema.json at {loc}: {error.message}")


def load_brief(path: str | Path) -> Brief:
    """Read a brief JSON file written by anyone: it must match the published schema, then the model.

    Raises ``InputError`` (one line naming the file) when it is missing, not JSON, or not a brief.
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(path, f"is not valid JSON ({exc})") from None
    validate_brief_json(data, where=str(path))
    try:
        return Brief.model_validate(data)
    except ValidationError as exc:
        raise InputError(path, f"is not a brief: {exc.errors()[0]['msg']}") from None
