"""Gemini's ``Schema`` (a select subset of OpenAPI 3.0) -> JSON Schema.

Gemini ``functionDeclarations[].parameters`` are written in the OpenAPI
subset of the Gemini API / Vertex AI ``Schema`` object: upper-case ``type``
names (``OBJECT``, ``STRING``...), ``nullable`` instead of a ``"null"``
type, 64-bit integers (``minItems``, ``maxLength``...) as decimal strings in
proto JSON, and snake_case spellings (``min_items``, ``any_of``) from SDKs
that serialise field names as declared.  :func:`gemini_schema` converts one
such schema into the JSON Schema the validator checks, with one small
function per field in :data:`FIELDS`.

The conversion fails closed: a field that is not in the table (``ref``,
``defs``, anything new), a type it cannot name (``TYPE_UNSPECIFIED``), a
string ``enum`` on a non-string type (Gemini's way of listing integers,
whose meaning as JSON is not stated), or a malformed value raises
:class:`~toolstream.importer.errors.InputError` naming the path, so that no
fixture is written with a schema looser than the one that was sent.

Rules:

* ``type`` -> the lower-case JSON Schema type; ``nullable: true`` then adds
  ``"null"`` to it (and ``null`` to an ``enum``, and ``{"type": "null"}`` to
  an ``anyOf`` without a type);
* ``properties``, ``items``, ``anyOf``, ``additionalProperties`` (Vertex)
  convert recursively; ``required``, ``enum``, ``pattern``, ``minimum``,
  ``maximum`` and the counts keep their names;
* ``title``, ``description``, ``default``, ``format`` are annotations, kept
  (``format`` is never asserted by the validator, as in Gemini);
  ``example`` becomes ``examples: [example]``; ``propertyOrdering`` is an
  output-ordering hint with no JSON Schema meaning and is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolstream.importer.errors import InputError
from toolstream.importer.errors import kind_of as _kind
from toolstream.importer.errors import shown as _show

MAX_DEPTH = 64
"""Nesting of schemas inside schemas beyond which a declaration is refused."""

GEMINI_BUILTIN_TOOLS = frozenset(
    {
        "googleSearch",
        "google_search",
        "googleSearchRetrieval",
        "google_search_retrieval",
        "codeExecution",
        "code_execution",
        "urlContext",
        "url_context",
        "retrieval",
        "computerUse",
        "computer_use",
        "fileSearch",
        "file_search",
        "googleMaps",
        "google_maps",
        "enterpriseWebSearch",
        "enterprise_web_search",
    }
)
"""Members of a Gemini ``Tool`` that the provider runs itself (no client schema)."""

TYPES = {
    "STRING": "string",
    "NUMBER": "number",
    "INTEGER": "integer",
    "BOOLEAN": "boolean",
    "ARRAY": "array",
    "OBJECT": "object",
    "NULL": "null",
}

Field = Callable[[Any, str, int], dict[str, Any]]
"""``(value, path, depth) -> JSON Schema members`` for one Gemini field."""


def gemini_schema(value: Any, at: str) -> dict[str, Any]:
    """The JSON Schema of one Gemini ``Schema`` (see the module docstring)."""
    return _convert(value, at, 0)


def _convert(node: Any, at: str, depth: int) -> dict[str, Any]:
    if not isinstance(node, dict):
        raise InputError(f"{at} is {_kind(node)}, not a Gemini Schema object")
    if depth > MAX_DEPTH:
        raise InputError(f"{at}: schemas nested more than {MAX_DEPTH} deep")
    out: dict[str, Any] = {}
    seen: dict[str, str] = {}
    nullable = False
    for raw, value in node.items():
        key = _camel(str(raw))
        if key in seen:
            raise InputError(f"{at}: {seen[key]!r} and {raw!r} are the same field")
        seen[key] = str(raw)
        where = f"{at}.{raw}"
        if key == "nullable":
            if not isinstance(value, bool):
                raise InputError(f"{where} is {_kind(value)}, not a boolean")
            nullable = value
            continue
        convert = FIELDS.get(key)
        if convert is None:
            raise InputError(
                f"{where}: {str(raw)[:40]!r} is not a Gemini Schema field this importer"
                " converts (pass --schemas with the tool's JSON Schema)"
            )
        out.update(convert(value, where, depth))
    enum = out.get("enum")
    kind = out.get("type")
    if enum is not None and kind not in (None, "string"):
        raise InputError(
            f"{at}: an enum of strings on a {str(kind).upper()} (Gemini's form for listing"
            " numbers) does not convert to JSON Schema"
        )
    if nullable:
        if kind is not None:
            out["type"] = [kind, "null"]
        if enum is not None:
            out["enum"] = [*enum, None]
        if kind is None and "anyOf" in out:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
    return out


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


# -- one function per field -------------------------------------------------------


def _type(value: Any, at: str, depth: int) -> dict[str, Any]:
    name = value.upper() if isinstance(value, str) else None
    if name not in TYPES:
        raise InputError(f"{at} is {_show(value)}, not a Gemini type ({', '.join(TYPES)})")
    return {"type": TYPES[name]}


def _properties(value: Any, at: str, depth: int) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{at} is {_kind(value)}, not an object of schemas")
    return {
        "properties": {
            name: _convert(schema, f"{at}[{name!r}]", depth + 1) for name, schema in value.items()
        }
    }


def _items(value: Any, at: str, depth: int) -> dict[str, Any]:
    return {"items": _convert(value, at, depth + 1)}


def _any_of(value: Any, at: str, depth: int) -> dict[str, Any]:
    if not isinstance(value, list) or not value:
        raise InputError(f"{at} is {_kind(value)}, not a non-empty list of schemas")
    return {"anyOf": [_convert(s, f"{at}[{n}]", depth + 1) for n, s in enumerate(value)]}


def _additional_properties(value: Any, at: str, depth: int) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"additionalProperties": value}
    return {"additionalProperties": _convert(value, at, depth + 1)}


def _strings(keyword: str) -> Field:
    def convert(value: Any, at: str, depth: int) -> dict[str, Any]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InputError(f"{at} is {_kind(value)}, not a list of strings")
        return {keyword: list(value)}

    return convert


def _count(keyword: str) -> Field:
    """A non-negative integer; proto JSON writes int64 as a decimal string."""

    def convert(value: Any, at: str, depth: int) -> dict[str, Any]:
        if isinstance(value, str) and value.isdigit() and value.isascii():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InputError(f"{at} is {_show(value)}, not a non-negative integer")
        return {keyword: value}

    return convert


def _number(keyword: str) -> Field:
    def convert(value: Any, at: str, depth: int) -> dict[str, Any]:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InputError(f"{at} is {_show(value)}, not a number")
        return {keyword: value}

    return convert


def _string(keyword: str) -> Field:
    def convert(value: Any, at: str, depth: int) -> dict[str, Any]:
        if not isinstance(value, str):
            raise InputError(f"{at} is {_kind(value)}, not a string")
        return {keyword: value}

    return convert


def _kept(keyword: str) -> Field:
    def convert(value: Any, at: str, depth: int) -> dict[str, Any]:
        return {keyword: value}

    return convert


def _example(value: Any, at: str, depth: int) -> dict[str, Any]:
    return {"examples": [value]}


def _ordering(value: Any, at: str, depth: int) -> dict[str, Any]:
    _strings("propertyOrdering")(value, at, depth)  # checked, then dropped: a hint only
    return {}


FIELDS: dict[str, Field] = {
    "type": _type,
    "format": _string("format"),
    "title": _string("title"),
    "description": _string("description"),
    "default": _kept("default"),
    "example": _example,
    "enum": _strings("enum"),
    "properties": _properties,
    "required": _strings("required"),
    "additionalProperties": _additional_properties,
    "minProperties": _count("minProperties"),
    "maxProperties": _count("maxProperties"),
    "propertyOrdering": _ordering,
    "items": _items,
    "minItems": _count("minItems"),
    "maxItems": _count("maxItems"),
    "minLength": _count("minLength"),
    "maxLength": _count("maxLength"),
    "pattern": _string("pattern"),
    "minimum": _number("minimum"),
    "maximum": _number("maximum"),
    "anyOf": _any_of,
}
"""Every Gemini ``Schema`` field converted (``nullable`` is applied last, in
:func:`_convert`); any other field is refused."""
