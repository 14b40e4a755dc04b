"""One function per assertion keyword, registered in :data:`KEYWORDS` in evaluation order.

Each function receives the :class:`~toolstream.schema._validator.Scope` of the
schema node being applied, the keyword's value, the instance and the whole
schema node, and yields :class:`~toolstream.schema._validator.Violation`
objects.  A keyword that does not apply to the instance's JSON type yields
nothing (``required`` on a string, ``minimum`` on an object...).

The functions assume the schema passed :func:`~toolstream.schema.check_schema`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from toolstream.findings import ProtocolError
from toolstream.messages import excerpt
from toolstream.schema import _json, _regex
from toolstream.schema._json import short

if TYPE_CHECKING:
    from toolstream.schema._validator import Scope, Violation

Keyword = Callable[["Scope", Any, Any, dict[str, Any]], Iterator["Violation"]]

MAX_ANYOF_DETAIL = 160
"""Longest summary of the branches' first errors in an ``anyOf`` message."""


def _number_problem(scope: Scope, keyword: str, instance: Any) -> Violation | None:
    if _json.is_finite_number(instance):
        return None
    return scope.error(keyword, f"{short(instance)} is not a finite number")


# --- any type -------------------------------------------------------------------------------


def type_(scope: Scope, value: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Violation]:
    names = [value] if isinstance(value, str) else value
    if not any(_json.has_type(instance, name) for name in names):
        wanted = ", ".join(repr(name) for name in names)
        yield scope.error("type", f"{short(instance)} is not of type {wanted}")


def enum(scope: Scope, value: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Violation]:
    if not any(_json.json_equal(instance, option) for option in value):
        yield scope.error("enum", f"{short(instance)} is not one of {short(value)}")


def const(scope: Scope, value: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Violation]:
    if not _json.json_equal(instance, value):
        yield scope.error("const", f"{short(instance)} is not the constant {short(value)}")


# --- numbers --------------------------------------------------------------------------------


def minimum(scope: Scope, value: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Violation]:
    if _json.is_number(instance):
        problem = _number_problem(scope, "minimum", instance)
        if problem is not None:
            yield problem
        elif instance < value:
            yield scope.error(
                "minimum", f"{short(instance)} is less than the minimum of {short(value)}"
            )


def maximum(scope: Scope, value: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Violation]:
    if _json.is_number(instance):
        problem = _number_problem(scope, "maximum", instance)
        if problem is not None:
            yield problem
        elif instance > value:
            yield scope.error(
                "maximum", f"{short(instance)} is greater than the maximum of {short(value)}"
            )


def exclusive_minimum(
    scope: Scope, value: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[Violation]:
    if _json.is_number(instance):
        problem = _number_problem(scope, "exclusiveMinimum", instance)
        if problem is not None:
            yield problem
        elif instance <= value:
            yield scope.error(
                "exclusiveMinimum",
                f"{short(instance)} is less than or equal to the exclusive minimum of"
                f" {short(value)}",
            )


def exclusive_maximum(
    scope: Scope, value: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[Violation]:
    if _json.is_number(instance):
        problem = _number_problem(scope, "exclusiveMaximum", instance)
        if problem is not None:
            yield problem
        elif instance >= value:
            yield scope.error(
                "exclusiveMaximum",
                f"{short(instance)} is greater than or equal to the exclusive maximum of"
                f" {short(value)}",
            )


def multiple_of(
    scope: Scope, value: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[Violation]:
    if _json.is_number(instance):
        problem = _number_problem(scope, "multipleOf", instance)
        if problem is not None:
            yield problem
            return
        exact = _json.is_multiple(instance, value)
        if exact is None:
            yield scope.error(
                "multipleOf",
                f"{short(instance)} is too large to check against multipleOf {short(value)}",
            )
        elif not exact:
            yield scope.error(
                "multipleOf", f"{short(instance)} is not a multiple of {short(value)}"
            )


# --- strings --------------------------------------------------------------------------------


def _chars(count: Any) -> str:
    return "character" if count == 1 else "characters"


def min_length(
    scope: Scope, value: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[Violation]:
    # len() of a str counts code points: an astral character counts one.
    if isinstance(instance, str) and len(instance) < value:
        yield scope.error(
            "minLength", f"{short(instance)} is shorter than {short(value)} {_chars(value)}"
        )


def max_length(
    scope: Scope, value: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[Violation]:
    if isinstance(instance, str) and len(instance) > value:
        yield scope.error(
            "maxLength", f"{short(instance)} is longer than {short(value)} {_chars(value)}"
        )


def pattern(scope: Scope, value: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Violation]:
    if not isinstance(instance, str):
        return
    try:
        program = _regex.compile_pattern(value)
    except _regex.PatternError as error:
        raise ProtocolError(
            error.code, f"pattern: {error.message}", path=_json.join(scope.schema_path, "pattern")
        ) from None
    found = program.search(instance)
    if found is None:
        yield scope.error(
            "pattern",
            f"{short(instance)} could not be checked against pattern {short(value)}"
            " within the work budget",
        )
    elif not found:
        yield scope.error("pattern", f"{short(instance)} does not match {short(value)}")


# --- arrays ---------------------------------------------------------------------------------


def _items_word(count: Any) -> str:
    return "item" if count == 1 else "items"


def min_items(
    scope: Scope, value: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[Violation]:
    if isinstance(instance, list) and len(instance) < value:
        yield scope.error(
            "minItems", f"{short(instance)} has fewer than {short(value)} {_items_word(value)}"
        )


def max_items(
    scope: Scope, value: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[Violation]:
    if isinstance(instance, list) and len(instance) > value:
        yield scope.error(
            "maxItems", f"{short(instance)} has more than {short(value)} {_items_word(value)}"
        )


def items(scope: Scope, value: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Violation]:
    if isinstance(instance, list):
        where = _json.join(scope.schema_path, "items")
        for index, item in enumerate(instance):
            yield from scope.descend(value, item, where, index)


# --- objects --------------------------------------------------------------------------------


def required(
    scope: Scope, value: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[Violation]:
    if isinstance(instance, dict):
        seen: set[str] = set()
        for name in value:
            if name not in instance and name not in seen:
                seen.add(name)
                yield scope.error("required", f"{short(name)} is a required property")


def properties(
    scope: Scope, value: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[Violation]:
    if isinstance(instance, dict):
        where = _json.join(scope.schema_path, "properties")
        for name, item in instance.items():
            if name in value:
                yield from scope.descend(value[name], item, _json.join(where, name), name)


def additional_properties(
    scope: Scope, value: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[Violation]:
    if value is False and isinstance(instance, dict):
        declared = schema.get("properties", {})
        for name in instance:
            if name not in declared:
                yield scope.error(
                    "additionalProperties",
                    f"additional property {short(name)} is not allowed",
                    token=name,
                )


# --- applicators ----------------------------------------------------------------------------


def any_of(scope: Scope, value: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Violation]:
    where = _json.join(scope.schema_path, "anyOf")
    firsts: list[Violation] = []
    for index, branch in enumerate(value):
        first = scope.first(branch, instance, _json.join(where, index))
        if first is None:
            return
        firsts.append(first)
    details = []
    for index, first in enumerate(firsts):
        at = "" if first.path == scope.path else f" at {short(first.path, 40)}"
        details.append(f"[{index}]{at}: {first.message}")
    summary = excerpt("; ".join(details), MAX_ANYOF_DETAIL)
    yield scope.error(
        "anyOf", f"{short(instance)} is not valid under any of the anyOf schemas ({summary})"
    )


KEYWORDS: dict[str, Keyword] = {
    "type": type_,
    "enum": enum,
    "const": const,
    "minimum": minimum,
    "maximum": maximum,
    "exclusiveMinimum": exclusive_minimum,
    "exclusiveMaximum": exclusive_maximum,
    "multipleOf": multiple_of,
    "minLength": min_length,
    "maxLength": max_length,
    "pattern": pattern,
    "minItems": min_items,
    "maxItems": max_items,
    "items": items,
    "required": required,
    "properties": properties,
    "additionalProperties": additional_properties,
    "anyOf": any_of,
}
"""Assertion and applicator keywords, in evaluation order.  ``$ref`` is applied
after all of them (it is handled by the validator loop itself, so that a chain
of references does not grow the Python stack)."""

EVALUATION_ORDER: tuple[str, ...] = (*KEYWORDS, "$ref")

ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "format",
        "$schema",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
"""Accepted and never asserted (``format`` included: ``"date-time"`` is not checked)."""

CONTAINERS = frozenset({"$defs", "definitions"})
"""Hold subschemas for ``$ref``; never applied by themselves."""

ROOT_ONLY = frozenset({"$id"})
"""Accepted at the root only: an ``$id`` elsewhere would change how ``$ref`` resolves."""

SUPPORTED = frozenset({*EVALUATION_ORDER, *ANNOTATIONS, *CONTAINERS, *ROOT_ONLY})
