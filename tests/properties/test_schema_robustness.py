"""The schema code on hostile input (``toolstream.schema``): non-JSON and
Decimal instances, unchecked malformed schemas, and property-based fuzzing
(``check_schema`` is total; ``iter_violations`` only raises ``ProtocolError``).
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolstream.findings import Code, ProtocolError
from toolstream.schema import (
    check_schema,
    first_violation,
    iter_violations,
)

# --- robustness -----------------------------------------------------------------------------


def test_non_json_instances_do_not_crash() -> None:
    schema = {
        "type": ["number", "object", "array"],
        "minimum": 0,
        "multipleOf": 2,
        "enum": [1, [1], {"a": 1}],
        "properties": {"a": {"maxLength": 1}},
        "items": {"const": 1},
    }
    check_schema(schema)
    for instance in [
        (1, 2),
        {1, 2},
        b"ab",
        object(),
        math.nan,
        math.inf,
        -math.inf,
        Decimal("NaN"),
        Decimal("sNaN"),
        Decimal("Infinity"),
        {1: "a"},
        [math.nan],
    ]:
        assert first_violation(schema, instance) is not None
        list(iter_violations(schema, instance))


def test_decimal_instances() -> None:
    assert first_violation({"type": "integer"}, Decimal("1.0")) is None
    assert first_violation({"type": "integer"}, Decimal("1.5")) is not None
    assert first_violation({"multipleOf": 0.01}, Decimal("19.99")) is None
    assert first_violation({"enum": [1]}, Decimal("1.00")) is None
    assert first_violation({"maximum": 10}, Decimal("1E+999999999")) is not None
    violation = first_violation({"multipleOf": 3}, Decimal("1E+999999999"))
    assert violation is not None and "too large" in violation.message


def test_unchecked_malformed_schema_only_raises_protocol_error() -> None:
    # Behaviour on a schema that did not pass check_schema is unspecified,
    # except that nothing but ProtocolError escapes.
    for schema in [
        {"minimum": "x"},
        {"$ref": "#/nope"},
        {"$ref": "#"},
        {"pattern": "("},
        {"items": 3},
        {"required": 3},
        {"type": 3},
        3,
    ]:
        instances: list[Any] = [[1, {"a": 1}], 1, "(", {"a": []}]
        for instance in instances:
            try:
                list(iter_violations(schema, instance))
            except ProtocolError:
                pass
    with pytest.raises(ProtocolError) as caught:
        list(iter_violations({"minimum": "x"}, 1))
    assert caught.value.code is Code.INVALID_SCHEMA
    with pytest.raises(ProtocolError) as caught:
        list(iter_violations({"$ref": "#"}, 1))
    assert caught.value.code is Code.INVALID_SCHEMA


# --- fuzzing --------------------------------------------------------------------------------

_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=_JSON)
def test_check_schema_is_total_on_arbitrary_json(value: Any) -> None:
    try:
        check_schema(value)
    except ProtocolError as error:
        assert error.code in {
            Code.UNSUPPORTED_SCHEMA_KEYWORD,
            Code.INVALID_SCHEMA,
            Code.LIMIT_EXCEEDED,
        }
        assert isinstance(error.path, str)
        assert error.path == "" or error.path.startswith("/")


def _schemas() -> st.SearchStrategy[Any]:
    """Schemas drawn mostly from the subset (with the occasional mistake)."""
    names = st.sampled_from(["a", "b", "c/d", "~"])

    def keyword_values(sub: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        small = st.integers(-3, 5)
        number = st.one_of(small, st.floats(-10, 10, allow_nan=False), st.sampled_from([0.01, 0.5]))
        return st.fixed_dictionaries(
            {},
            optional={
                "type": st.sampled_from(
                    [
                        "integer",
                        "number",
                        "string",
                        "object",
                        "array",
                        "null",
                        "boolean",
                        ["string", "null"],
                        "strnig",
                    ]
                ),
                "enum": st.lists(_JSON, max_size=3),
                "const": _JSON,
                "minimum": number,
                "maximum": number,
                "exclusiveMinimum": number,
                "exclusiveMaximum": number,
                "multipleOf": st.sampled_from([1, 2, 0.5, 0.01, 0, 3.0]),
                "minLength": small,
                "maxLength": small,
                "pattern": st.sampled_from(
                    ["^a", "b+$", "(a|b)*c", "\\d{2}", "[", "(?=a)", "^(a+)+$"]
                ),
                "minItems": small,
                "maxItems": small,
                "items": sub,
                "required": st.lists(names, max_size=3),
                "properties": st.dictionaries(names, sub, max_size=3),
                "additionalProperties": st.booleans(),
                "anyOf": st.lists(sub, min_size=1, max_size=3),
                "$ref": st.sampled_from(["#", "#/$defs/x", "#/properties/a", "#/nope"]),
                "description": st.text(max_size=3),
                "format": st.just("date-time"),
            },
        )

    return st.recursive(
        st.booleans() | st.just({}),
        lambda sub: keyword_values(sub),
        max_leaves=8,
    ).flatmap(
        lambda schema: st.one_of(
            st.just(schema),
            st.fixed_dictionaries({"$defs": st.fixed_dictionaries({"x": st.just(schema)})}).map(
                lambda defs: {**defs, "$ref": "#/$defs/x"}
            ),
        )
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=_schemas(), instances=st.lists(_JSON, min_size=1, max_size=4))
def test_iter_violations_never_raises_on_checked_schemas(schema: Any, instances: list[Any]) -> None:
    try:
        check_schema(schema)
    except ProtocolError:
        return
    for instance in instances:
        violations = list(iter_violations(schema, instance))
        first = first_violation(schema, instance)
        assert first == (violations[0] if violations else None)
        for violation in violations:
            assert violation.path == "" or violation.path.startswith("/")
            assert violation.schema_path == "" or violation.schema_path.startswith("/")


@settings(max_examples=200, deadline=None)
@given(instance=_JSON)
def test_anyof_wrapping_preserves_validity(instance: Any) -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"items": {"type": "string"}}},
        "required": ["a"],
    }
    wrapped = {"anyOf": [{"type": "null"}, schema]}
    valid_wrapped = first_violation(wrapped, instance) is None
    assert valid_wrapped == (instance is None or first_violation(schema, instance) is None)


@settings(max_examples=300, deadline=None)
@given(schema=_JSON | _schemas(), instance=_JSON)
def test_iter_violations_on_unchecked_schemas_only_raises_protocol_error(
    schema: Any, instance: Any
) -> None:
    try:
        list(iter_violations(schema, instance))
    except ProtocolError:
        pass
