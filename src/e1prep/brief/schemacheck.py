"""A JSON Schema compiled to plain checks: whether a document is valid, in one pass over it.

``jsonschema`` walks the schema for every value of the document (a validator object, a reference
lookup and an error generator per keyword): a brief of a hundred thousand citations took it seconds.
The published schemas use a few keywords; ``compile_schema`` turns a schema of only those into nested
closures that answer valid or not, and gives ``None`` for a schema with any other keyword (the caller
then asks ``jsonschema`` alone). It only says *whether*: the caller asks ``jsonschema`` *why* when it
says no, so the one-line error stays ``jsonschema``'s best match. Its semantics are the 2020-12 ones
``jsonschema`` implements (a bool is no number, ``1.0`` is an integer, ``pattern`` is ``re.search``);
``tests/test_schemacheck.py`` holds it to ``jsonschema`` on generated documents.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Check = Callable[[Any], bool]

#: keywords that assert nothing
_ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$id", "$schema"}
)
_TYPES: dict[str, Check] = {
    "null": lambda x: x is None,
    "boolean": lambda x: isinstance(x, bool),
    "string": lambda x: isinstance(x, str),
    "array": lambda x: isinstance(x, list),
    "object": lambda x: isinstance(x, dict),
    "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
    "integer": lambda x: (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer()),
}


class Unsupported(Exception):
    """The schema uses a keyword (or a form of one) that is not compiled here."""


def compile_schema(schema: Mapping[str, Any]) -> Check | None:
    """A check of documents against ``schema`` (local ``#/$defs/…`` references only), or ``None``
    when the schema uses anything else."""
    defs = schema.get("$defs", {})
    compiled: dict[str, Check] = {}

    def ref(target: str) -> Check:
        name = target.removeprefix("#/$defs/")
        if name == target or name not in defs:
            raise Unsupported(target)

        def check(x: Any) -> bool:  # bound late: a definition may refer to itself
            return compiled[name](x)

        return check

    def node(s: Any) -> Check:
        if s is True:
            return lambda x: True
        if s is False or not isinstance(s, Mapping):
            raise Unsupported(repr(s))
        checks: list[Check] = []
        for key, value in s.items():
            if key in _ANNOTATIONS or key == "$defs":
                continue
            maker = _KEYWORDS.get(key)
            if maker is None:
                raise Unsupported(key)
            checks.append(maker(value, s, node, ref))
        return _all(checks)

    try:
        for name, sub in defs.items():
            compiled[name] = node(sub)
        return node(schema)
    except Unsupported:
        return None


Node = Callable[[Any], Check]
Ref = Callable[[str], Check]


def _all(checks: list[Check]) -> Check:
    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    return lambda x: all(c(x) for c in checks)


def _type(value: Any, s: Mapping[str, Any], node: Node, ref: Ref) -> Check:
    names = [value] if isinstance(value, str) else list(value)
    if not all(isinstance(n, str) and n in _TYPES for n in names):
        raise Unsupported(f"type {value!r}")
    tests = [_TYPES[n] for n in names]
    return tests[0] if len(tests) == 1 else (lambda x: any(t(x) for t in tests))


def _strings(values: Any) -> frozenset[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise Unsupported("enum or const of other than strings")
    return frozenset(values)


def _enum(value: Any, s: Mapping[str, Any], node: Node, ref: Ref) -> Check:
    allowed = _strings(value)
    return lambda x: isinstance(x, str) and x in allowed


def _const(value: Any, s: Mapping[str, Any], node: Node, ref: Ref) -> Check:
    allowed = _strings([value])
    return lambda x: isinstance(x, str) and x in allowed


def _properties(value: Any, s: Mapping[str, Any], node: Node, ref: Ref) -> Check:
    if "patternProperties" in s:
        raise Unsupported("patternProperties")
    props = {k: node(v) for k, v in value.items()}
    extra = s.get("additionalProperties", True)
    rest: Check | None = None if extra is False else node(extra)

    def check(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        for k, v in x.items():
            c = props.get(k, rest)
            if c is None or not c(v):
                return False
        return True

    return check


def _additional(value: Any, s: Mapping[str, Any], node: Node, ref: Ref) -> Check:
    if "properties" in s:  # compiled with them
        return lambda x: True
    if "patternProperties" in s:
        raise Unsupported("patternProperties")
    if value is False:
        return lambda x: not isinstance(x, dict) or not x
    rest = node(value)
    return lambda x: not isinstance(x, dict) or all(rest(v) for v in x.values())


def _required(value: Any, s: Mapping[str, Any], node: Node, ref: Ref) -> Check:
    keys = frozenset(value)
    return lambda x: not isinstance(x, dict) or keys <= x.keys()


def _items(value: Any, s: Mapping[str, Any], node: Node, ref: Ref) -> Check:
    if "prefixItems" in s:
        raise Unsupported("prefixItems")
    each = node(value)
    return lambda x: not isinstance(x, list) or all(each(v) for v in x)


def _bound(name: str, ok: Callable[[Any, Any], bool], applies: Check) -> Callable[[Any, Any, Node, Ref], Check]:
    def make(value: Any, s: Mapping[str, Any], node: Node, ref: Ref) -> Check:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise Unsupported(name)
        return lambda x: not applies(x) or ok(x, value)

    return make


def _pattern(value: Any, s: Mapping[str, Any], node: Node, ref: Ref) -> Check:
    rx = re.compile(value)
    return lambda x: not isinstance(x, str) or rx.search(x) is not None


def _any_of(value: Any, s: Mapping[str, Any], node: Node, ref: Ref) -> Check:
    options = [node(v) for v in value]
    return lambda x: any(o(x) for o in options)


def _ref(value: Any, s: Mapping[str, Any], node: Node, ref: Ref) -> Check:
    return ref(value)


_KEYWORDS: dict[str, Callable[[Any, Mapping[str, Any], Node, Ref], Check]] = {
    "type": _type,
    "enum": _enum,
    "const": _const,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "items": _items,
    "minItems": _bound("minItems", lambda x, n: len(x) >= n, _TYPES["array"]),
    "maxItems": _bound("maxItems", lambda x, n: len(x) <= n, _TYPES["array"]),
    "minLength": _bound("minLength", lambda x, n: len(x) >= n, _TYPES["string"]),
    "maxLength": _bound("maxLength", lambda x, n: len(x) <= n, _TYPES["string"]),
    "minimum": _bound("minimum", lambda x, n: x >= n, _TYPES["number"]),
    "maximum": _bound("maximum", lambda x, n: x <= n, _TYPES["number"]),
    "pattern": _pattern,
    "anyOf": _any_of,
    "$ref": _ref,
}
