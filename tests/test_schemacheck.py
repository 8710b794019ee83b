"""The compiled schema check says valid exactly when ``jsonschema`` does (issue 26, finding 5: a brief
of a hundred thousand citations spent most of ``verify`` in ``jsonschema``); ``jsonschema`` still names
the problem of an invalid brief."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLE_MANIFEST
from e1prep.brief import schema as schema_module
from e1prep.brief.schema import _published, validate_brief_json
from e1prep.brief.schemacheck import compile_schema
from e1prep.errors import InputError
from e1prep.pipeline import draft_brief

SCHEMAS = ["brief.schema.json", "golden-case.schema.json", "extraction.schema.json"]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=3)
    | st.sampled_from([0.0, 1.0, 1.5, -0.5, 2.0])
    | st.sampled_from(["", "x", "verified", "partial", "new", "2610.00001", "not_quotable", "card", "rules"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["text", "a", "key"]), inner, max_size=3)
    ),
    max_leaves=6,
)


@lru_cache(maxsize=1)
def _brief() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(draft_brief(EXAMPLE_MANIFEST).model_dump_json())
    return data


def _places(doc: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``doc`` (keys and indexes)."""
    out = [at]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _places(v, (*at, k))
    elif isinstance(doc, list):
        for n, v in enumerate(doc):
            out += _places(v, (*at, n))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_compiled_check_agrees_with_jsonschema_on_mutated_briefs(data: st.DataObject) -> None:
    doc = copy.deepcopy(_brief())
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        places = _places(doc)
        at = data.draw(st.sampled_from(places))
        how = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if not at:
            doc = data.draw(json_values)
            continue
        parent = doc
        for step in at[:-1]:
            parent = parent[step]
        last = at[-1]
        if how == "replace":
            parent[last] = data.draw(json_values)
        elif how == "delete":
            del parent[last]
        elif isinstance(parent[last], dict):
            parent[last][data.draw(st.sampled_from(["extra", "text", "quote", "members"]))] = data.draw(json_values)
        elif isinstance(parent[last], list):
            parent[last].append(data.draw(json_values))
    schema = _published("brief.schema.json")
    check = compile_schema(schema)
    assert check is not None
    assert check(doc) == jsonschema.Draft202012Validator(schema).is_valid(doc)


@pytest.mark.parametrize("name", SCHEMAS)
@settings(max_examples=150, deadline=None)
@given(doc=json_values)
def test_the_compiled_check_agrees_with_jsonschema_on_any_json(name: str, doc: Any) -> None:
    schema = _published(name)
    check = compile_schema(schema)
    assert check is not None
    assert check(doc) == jsonschema.Draft202012Validator(schema).is_valid(doc)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "patternProperties": {"^a": {"type": "string"}}},
        {"type": "array", "prefixItems": [{"type": "string"}]},
        {"enum": [1, "a"]},
        {"$ref": "https://example.org/other.json"},
        {"oneOf": [{"type": "string"}]},
    ],
)
def test_a_schema_with_another_keyword_is_left_to_jsonschema(schema: dict[str, Any]) -> None:
    assert compile_schema(schema) is None


def test_a_valid_brief_is_checked_without_jsonschema(monkeypatch: pytest.MonkeyPatch) -> None:
    """``jsonschema`` walked every value of every brief read (seconds for a large one)."""
    asked = []
    monkeypatch.setattr(schema_module.jsonschema.exceptions, "best_match", lambda errors: asked.append(1))
    validate_brief_json(_brief())
    assert asked == []


def test_an_invalid_brief_is_named_by_jsonschema() -> None:
    doc = copy.deepcopy(_brief())
    doc["increments"][0]["numbers"][0]["source"]["line_start"] = 0
    where = r"at increments/0/numbers/0/source/line_start: 0 is less than the minimum of 1$"
    with pytest.raises(InputError, match=where):
        validate_brief_json(doc, where="b.json")
