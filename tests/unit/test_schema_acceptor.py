"""The fast acceptor (``toolstream.schema.acceptor``): it says "valid"
exactly when ``first_violation`` finds nothing, on the suite and on drawn values.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.schema_suite import SUITE, SUITE_IDS
from toolstream.findings import Code, ProtocolError
from toolstream.schema import (
    acceptor,
    check_schema,
    first_violation,
)

# -- the fast acceptor ---------------------------------------------------------------------
# acceptor() may only say "valid" when first_violation does; on the suite it
# must also say it every time first_violation does, or the gate's fast path
# would quietly never be taken.


@pytest.mark.parametrize(("schema", "instance", "valid"), SUITE, ids=SUITE_IDS)
def test_acceptor_agrees_with_the_suite(schema: Any, instance: Any, valid: bool) -> None:
    check_schema(schema)
    assert acceptor(schema)(instance) is valid


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(-5, 5, allow_nan=False)
    | st.sampled_from(["", "a", "ab", "abc", "2024-01-01", "x/y"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b", "c", "d", "x", "y"]), inner, max_size=4)
    ),
    max_leaves=12,
)
_SUITE_SCHEMAS = list({repr(schema): schema for schema, _, _ in SUITE}.values())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_SUITE_SCHEMAS), _JSON_VALUES)
def test_acceptor_agrees_with_first_violation(schema: Any, instance: Any) -> None:
    check_schema(schema)
    assert acceptor(schema)(instance) is (first_violation(schema, instance) is None)


def test_acceptor_never_accepts_non_json_instances_the_validator_rejects() -> None:
    schema = {
        "type": ["number", "object", "array"],
        "minimum": 0,
        "properties": {"a": {"maxLength": 1}},
        "items": {"const": 1},
    }
    accept = acceptor(schema)
    for instance in [(1, 2), b"ab", math.nan, math.inf, Decimal("NaN"), [math.nan], {"a": "xy"}]:
        assert first_violation(schema, instance) is not None
        assert accept(instance) is False
    assert accept(Decimal("1.5")) is True


def test_acceptor_leaves_the_depth_limit_to_the_validator() -> None:
    schema = {
        "$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}}},
        "$ref": "#/$defs/t",
    }
    check_schema(schema)
    shallow: list[Any] = []
    deep: list[Any] = []
    for _ in range(50):
        shallow = [shallow]
    for _ in range(250):
        deep = [deep]
    assert acceptor(schema)(shallow) is True
    assert acceptor(schema)(deep) is False  # not known: the validator raises limit_exceeded
    with pytest.raises(ProtocolError) as caught:
        first_violation(schema, deep)
    assert caught.value.code is Code.LIMIT_EXCEEDED


_FAST_LEAF_SCHEMAS = [
    {"minimum": 1},
    {"minimum": 1.5},
    {"maximum": -0.5},
    {"exclusiveMinimum": 1},
    {"exclusiveMaximum": 2},
    {"maximum": 9007199254740993},
    {"enum": ["a", 1, None, "b"]},
    {"enum": [1.0, True]},
    {"minLength": 2},
    {"maxLength": 2},
    {"type": "integer"},
    {"type": "number", "minimum": 0},
    {
        "type": "object",
        "properties": {"a": {"type": "integer", "minimum": 1}, "b": {}},
        "required": ["a"],
        "additionalProperties": False,
    },
    {"type": "object", "properties": {"a": {"enum": ["x"]}}, "additionalProperties": True},
]
_FAST_LEAF_INSTANCES = [
    0,
    1,
    2,
    -1,
    1.0,
    1.5,
    True,
    False,
    None,
    "1",
    "",
    "a",
    "ab",
    "abc",
    "\U0001f600\U0001f600",
    "c",
    [],
    ["ab"],
    {},
    10**400,
    -(10**400),
    9007199254740993,
    Decimal("1.5"),
    {"a": 1},
    {"a": 0},
    {"a": 1, "b": [2]},
    {"a": 1, "c": 2},
    {"a": "x", "c": 2},
    {"b": "x"},
]


@pytest.mark.parametrize("schema", _FAST_LEAF_SCHEMAS, ids=repr)
def test_acceptor_fast_leaves_agree_with_their_keywords(schema: Any) -> None:
    # The common keywords and plain objects have shortcuts in the acceptor;
    # on each side of every bound they must give the keyword's own answer.
    check_schema(schema)
    accept = acceptor(schema)
    for instance in _FAST_LEAF_INSTANCES:
        assert accept(instance) is (first_violation(schema, instance) is None), instance


# -- the fused leaves and arrays (_accept._fused_leaf, _plain_array) ------------------------
# Each takes an exact int or str on an inline branch and any other instance
# through the node's own checks: both branches, on both sides of each bound.

_FUSED_SCHEMAS = [
    {"type": "integer", "minimum": 1},
    {"type": "integer", "maximum": 1},
    {"type": "number", "exclusiveMinimum": 1},
    {"type": "number", "exclusiveMaximum": 1.5},
    {"type": "integer"},
    {"type": "number"},
    {"type": "string", "minLength": 2},
    {"type": "string", "maxLength": 2},
    {"type": "string", "enum": ["a", "ab", 1]},
    {"type": "string"},
    {"type": "boolean"},
    {"type": "null"},
    {"type": "object"},
    {"type": "array"},
    {"type": "array", "items": {"type": "integer", "minimum": 0}},
    {"items": {"type": "string", "maxLength": 1}, "type": "array"},
]
_FUSED_INSTANCES: list[Any] = [
    0, 1, 2, -1, True, False, 1.0, 1.5, 2.5, "", "a", "ab", "abc", None,
    [], [0], [-1], [True], ["a"], ["ab"], {}, {"a": 1},
]  # fmt: skip


class _Text(str):
    pass


class _Number(int):
    pass


@pytest.mark.parametrize("schema", _FUSED_SCHEMAS, ids=repr)
def test_fused_leaves_agree_with_first_violation(schema: Any) -> None:
    check_schema(schema)
    accept = acceptor(schema)
    wrapped = acceptor({"type": "object", "properties": {"v": schema}})
    for instance in _FUSED_INSTANCES:
        valid = first_violation(schema, instance) is None
        assert accept(instance) is valid, instance
        assert wrapped({"v": instance}) is valid, instance
    # Look-alikes built in Python: never a yes the validator would not give.
    for instance in (_Text("ab"), _Text(""), _Number(1), _Number(0), [_Number(2)]):
        if accept(instance):
            assert first_violation(schema, instance) is None, instance


def test_fused_leaves_keep_the_depth_limit() -> None:
    # A node past the validator's depth says "not known", whatever it is.
    from toolstream.schema._accept import _Compiler
    from toolstream.schema._validator import MAX_VALIDATION_DEPTH

    for schema in _FUSED_SCHEMAS:
        node = _Compiler(schema, [10**6]).node(schema)
        for instance in _FUSED_INSTANCES:
            assert node(instance, MAX_VALIDATION_DEPTH + 1) is False
            if node(instance, MAX_VALIDATION_DEPTH):
                assert first_violation(schema, instance) is None


def test_inline_member_tests_keep_the_depth_limit() -> None:
    # A plain object's members that are fused leaves are tested inline in its
    # loop; at the depth limit the object's members are past it, so the
    # object says "not known" as each leaf's node would.
    from toolstream.schema._accept import _Compiler
    from toolstream.schema._validator import MAX_VALIDATION_DEPTH

    for schema in _FUSED_SCHEMAS:
        wrapped = {"type": "object", "properties": {"v": schema}}
        node = _Compiler(wrapped, [10**6]).node(wrapped)
        for instance in _FUSED_INSTANCES:
            valid = first_violation(schema, instance) is None
            near = node({"v": instance}, MAX_VALIDATION_DEPTH - 1)
            if type(instance) in (list, dict):
                assert valid or not near, instance  # its items are past the limit
            else:
                assert near is valid, instance
            assert node({"v": instance}, MAX_VALIDATION_DEPTH) is False, instance
            assert node({}, MAX_VALIDATION_DEPTH) is True
