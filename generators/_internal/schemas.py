"""The generator's reading of the JSON Schema subset: values that satisfy a
schema (for from-scratch turns) and edits that certainly break one (for
``schema_violation``).

Only the conjunctive core is descended into (``properties``, ``items``,
``$ref``, ``allOf``): a violation placed there fails the whole instance
whatever the rest of the schema says.  Disjunctive keywords (``anyOf``,
``oneOf``, ``not``, ``if``...) are never descended into for violations.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

Draw = Callable[..., Any]

GENERATED_KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "enum",
        "const",
        "pattern",
        "$ref",
        "$defs",
        "definitions",
        "description",
        "title",
        "anyOf",
    }
)
"""Keywords the from-scratch generator understands."""

TRICKY_CHARS = [
    "é",
    "ß",
    "日",
    "本",
    "🌍",
    "😀",
    "𝄞",
    "\u0301",
    "\u200d",
    "\u2028",
    "\u2029",
    "\ufeff",
    "\u202e",
    "\x00",
    "\x1f",
    "\x7f",
    "\n",
    "\t",
    '"',
    "\\",
    "/",
    "{",
    "}",
    "[",
    ",",
    ":",
]

unicode_text_chars = st.one_of(
    st.sampled_from(TRICKY_CHARS),
    st.characters(codec="utf-8"),
)


def resolve(schema: Any, root: Any, depth: int = 0) -> Any:
    """Follow local ``$ref`` (``#/$defs/x``, ``#/definitions/x``) chains."""
    while isinstance(schema, dict) and "$ref" in schema and depth < 32:
        ref = schema["$ref"]
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise ValueError(f"unsupported $ref {ref!r}")
        node = root
        for part in [p for p in ref[1:].split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            node = node[part]
        schema = node
        depth += 1
    return schema


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    raise TypeError(type(value).__name__)


def type_allows(types: Any, value: Any) -> bool:
    if types is None:
        return True
    names = [types] if isinstance(types, str) else list(types)
    kind = json_type(value)
    if kind in names:
        return True
    return kind == "integer" and "number" in names


# -- values ------------------------------------------------------------------

_ANY_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.text(unicode_text_chars, max_size=8),
)


def values(schema: Any, root: Any | None = None, depth: int = 0) -> st.SearchStrategy[Any]:
    """Values valid under ``schema`` (which must use only
    :data:`GENERATED_KEYWORDS`)."""
    root = schema if root is None else root
    schema = resolve(schema, root)
    if schema is True or schema == {}:
        return _ANY_SCALAR
    if not isinstance(schema, dict):
        raise ValueError("schema must be an object or true")
    unknown = set(schema) - GENERATED_KEYWORDS
    if unknown:
        raise ValueError(f"cannot generate for keywords {sorted(unknown)}")
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        rest = {k: v for k, v in schema.items() if k != "anyOf"}
        if rest.keys() - {"description", "title"}:
            raise ValueError("anyOf with sibling assertions is not generated")
        return st.one_of([values(branch, root, depth + 1) for branch in schema["anyOf"]])
    types = schema.get("type")
    if types is None:
        if "properties" in schema or "required" in schema:
            types = "object"
        elif "items" in schema:
            types = "array"
        else:
            return _ANY_SCALAR
    names = [types] if isinstance(types, str) else list(types)
    return st.one_of([_values_of(name, schema, root, depth) for name in names])


def _values_of(kind: str, schema: dict[str, Any], root: Any, depth: int) -> st.SearchStrategy[Any]:
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if "multipleOf" in schema and kind in ("integer", "number"):
        step = schema["multipleOf"]
        if not (isinstance(step, int) and not isinstance(step, bool) and step > 0):
            raise ValueError("only a positive integer multipleOf is generated")
        low, high = _bounds(schema, integer=True)
        first, last = -(-low // step), high // step
        if first > last:
            raise ValueError("no multiple of multipleOf within the bounds")
        return st.integers(first, last).map(lambda k: k * step)
    if kind == "integer":
        low, high = _bounds(schema, integer=True)
        return st.integers(low, high)
    if kind == "number":
        low, high = _bounds(schema, integer=False)
        floats = st.floats(
            low,
            high,
            allow_nan=False,
            allow_infinity=False,
            exclude_min=low is not None and "exclusiveMinimum" in schema,
            exclude_max=high is not None and "exclusiveMaximum" in schema,
        ).filter(lambda f: abs(f) < 1e300)
        int_low, int_high = _bounds(schema, integer=True)
        if int_low > int_high:
            return floats
        return st.one_of(st.integers(int_low, int_high), floats)
    if kind == "string":
        low = schema.get("minLength", 0)
        high = schema.get("maxLength")
        if "pattern" in schema:
            # ASCII classes: the validator's patterns are ECMA-262 (\\d is ASCII).
            base = st.from_regex(re.compile(schema["pattern"], re.ASCII), fullmatch=True)
            return base.filter(lambda s: len(s) >= low and (high is None or len(s) <= high))
        cap = high if high is not None else max(low, 24)
        return st.text(unicode_text_chars, min_size=low, max_size=cap)
    if kind == "array":
        low = schema.get("minItems", 0)
        high = schema.get("maxItems", max(low, 4))
        item = schema.get("items", True)
        if depth > 4:
            high = low
        return st.lists(values(item, root, depth + 1), min_size=low, max_size=high)
    if kind == "object":
        return _objects(schema, root, depth)
    raise ValueError(f"unknown type {kind!r}")


def _bounds(schema: dict[str, Any], integer: bool) -> tuple[Any, Any]:
    low = schema.get("minimum")
    high = schema.get("maximum")
    if "exclusiveMinimum" in schema:
        bound = schema["exclusiveMinimum"]
        low = bound if low is None else max(low, bound)
        if integer:
            low = math.floor(bound) + 1 if low == bound else low
    if "exclusiveMaximum" in schema:
        bound = schema["exclusiveMaximum"]
        high = bound if high is None else min(high, bound)
        if integer:
            high = math.ceil(bound) - 1 if high == bound else high
    if integer:
        low = math.ceil(low) if low is not None else -(10**30)
        high = math.floor(high) if high is not None else 10**30
    return low, high


@st.composite
def _objects(draw: Draw, schema: dict[str, Any], root: Any, depth: int) -> dict[str, Any]:
    properties = schema.get("properties", {})
    required = list(schema.get("required", []))
    optional = [k for k in properties if k not in required]
    chosen = set(draw(st.lists(st.sampled_from(optional), unique=True))) if optional else set()
    keys = [k for k in properties if k in required or k in chosen]
    keys += [k for k in required if k not in properties]
    if len(keys) > 1 and draw(st.booleans()):
        keys = draw(st.permutations(keys))
    out: dict[str, Any] = {}
    for key in keys:
        sub = properties.get(key, schema.get("additionalProperties", True))
        if sub is False:
            sub = True
        out[key] = draw(values(sub, root, depth + 1))
    if schema.get("additionalProperties", True) is True and depth < 3:
        # Unknown keys are allowed: Unicode-rich ones, escapes and all.
        extra = draw(st.lists(st.text(unicode_text_chars, max_size=6), max_size=2, unique=True))
        for key in extra:
            if key not in out and key not in properties:
                out[key] = draw(_ANY_SCALAR)
    return out


# -- violations ----------------------------------------------------------------

_SIMPLE = GENERATED_KEYWORDS - {"anyOf"}


def violation_sites(schema: Any, value: Any, root: Any | None = None) -> list[tuple[Any, ...]]:
    """Every ``(path, kind, detail)`` where an edit certainly breaks
    ``schema``.  ``path`` is a tuple of keys/indices into ``value``."""
    root = schema if root is None else root
    sites: list[tuple[Any, ...]] = []
    _collect(schema, value, root, (), sites, 0)
    # The arguments must stay an object (else non_object_arguments comes first).
    return [s for s in sites if s[0] or s[1] not in ("type", "enum", "const")]


def _collect(
    schema: Any,
    value: Any,
    root: Any,
    path: tuple[Any, ...],
    sites: list[tuple[Any, ...]],
    depth: int,
) -> None:
    if depth > 16:
        return
    try:
        schema = resolve(schema, root)
    except (KeyError, TypeError, ValueError):
        return
    if not isinstance(schema, dict):
        return
    for sub in schema.get("allOf", []) if isinstance(schema.get("allOf"), list) else []:
        _collect(sub, value, root, path, sites, depth + 1)
    types = schema.get("type")
    if types is not None:
        sites.append((path, "type", types))
    if "enum" in schema and isinstance(schema["enum"], list):
        sites.append((path, "enum", schema["enum"]))
    if "const" in schema:
        sites.append((path, "const", schema["const"]))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if _is_number(schema.get(key)):
                sites.append((path, key, schema[key]))
        step = schema.get("multipleOf")
        if isinstance(step, int) and _is_count(step) and step > 1 and isinstance(value, int):
            sites.append((path, "multipleOf", step))
    if isinstance(value, str):
        for key in ("minLength", "maxLength"):
            if _is_count(schema.get(key)):
                if key == "minLength" and schema[key] == 0:
                    continue
                sites.append((path, key, schema[key]))
    if isinstance(value, list):
        for key in ("minItems", "maxItems"):
            if _is_count(schema.get(key)) and not (key == "minItems" and schema[key] == 0):
                sites.append((path, key, schema[key]))
        items = schema.get("items")
        if isinstance(items, (dict, bool)):
            for n, item in enumerate(value):
                _collect(items, item, root, (*path, n), sites, depth + 1)
    if isinstance(value, dict):
        required = schema.get("required")
        if isinstance(required, list):
            for key in required:
                if key in value:
                    sites.append((path, "required", key))
        if schema.get("additionalProperties") is False and "patternProperties" not in schema:
            sites.append((path, "additionalProperties", sorted(schema.get("properties", {}))))
        properties = schema.get("properties")
        if isinstance(properties, dict):
            for key, sub in properties.items():
                if key in value:
                    _collect(sub, value[key], root, (*path, key), sites, depth + 1)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _is_count(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


_WRONG_TYPE_VALUES: list[Any] = ["x", 1.5, 7, True, None, [], {}]


def break_at(draw: Draw, value: Any, site: tuple[Any, ...]) -> Any:
    """A copy of ``value`` that violates ``site``."""
    path, kind, detail = site
    import copy

    value = copy.deepcopy(value)
    parent = None
    node = value
    for part in path:
        parent, node = node, node[part]

    def put(new: Any) -> Any:
        if parent is None:
            return new
        parent[path[-1]] = new
        return value

    if kind == "type":
        options = [v for v in _WRONG_TYPE_VALUES if not type_allows(detail, v)]
        return put(draw(st.sampled_from(options)))
    if kind == "enum":
        options = [
            v for v in ["not-in-enum", 424242, None, False, [], {}] if not _member(v, detail)
        ]
        return put(draw(st.sampled_from(options)))
    if kind == "const":
        options = [v for v in ["not-the-const", 424242, None, []] if not _equal(v, detail)]
        return put(draw(st.sampled_from(options)))
    if kind in ("minimum", "exclusiveMinimum"):
        step = draw(st.sampled_from([1, 1000]))
        new = (
            detail - step
            if kind == "minimum"
            else detail - step + (step if draw(st.booleans()) else 0)
        )
        if isinstance(node, int) and isinstance(detail, int):
            return put(int(new))
        return put(float(new))
    if kind in ("maximum", "exclusiveMaximum"):
        step = draw(st.sampled_from([1, 1000]))
        new = (
            detail + step
            if kind == "maximum"
            else detail + step - (step if draw(st.booleans()) else 0)
        )
        if isinstance(node, int) and isinstance(detail, int):
            return put(int(new))
        return put(float(new))
    if kind == "multipleOf":
        return put(node + draw(st.sampled_from([1, -1])))
    if kind == "minLength":
        return put(node[: detail - 1] if len(node) >= detail else "")
    if kind == "maxLength":
        filler = draw(st.sampled_from(["x", "é", "🌍"]))
        return put(node + filler * (detail + 1 - len(node)))
    if kind == "minItems":
        return put(node[: detail - 1])
    if kind == "maxItems":
        extra = node[-1] if node else "x"
        return put(node + [copy.deepcopy(extra) for _ in range(detail + 1 - len(node))])
    if kind == "required":
        del node[detail]
        return value
    if kind == "additionalProperties":
        key = "zq_extra"
        while key in node or key in detail:
            key += "_"
        node[key] = draw(st.sampled_from([1, "x", None, True]))
        return value
    raise AssertionError(kind)


def _equal(a: Any, b: Any) -> bool:
    if json_type(a) != json_type(b) and not (
        json_type(a) in ("integer", "number") and json_type(b) in ("integer", "number")
    ):
        return False
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def _member(value: Any, options: list[Any]) -> bool:
    return any(_equal(value, o) for o in options)
