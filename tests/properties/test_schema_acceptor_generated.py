"""The acceptor's generated source (``toolstream.schema._accept.generate``)
against the closures it replaces (``closure_acceptor``, ``_Compiler.node``):
on drawn schemas of the shapes it covers (plain objects and arrays, fused
leaves) with nodes it leaves to the closures (``anyOf``, ``$ref``, other
keywords) mixed in, and drawn instances near those schemas, both give the
same answer at every level and for every budget, spend the same budget when
they say yes, and a yes is always ``first_violation``'s ``None``.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolstream.findings import ProtocolError
from toolstream.schema import acceptor, check_schema, first_violation
from toolstream.schema._accept import (
    _FACTORIES,
    _MAX_LOOKUPS,
    WORK_BUDGET,
    _Compiler,
    _Source,
    closure_acceptor,
    generate,
    generated_acceptor,
)
from toolstream.schema._validator import MAX_VALIDATION_DEPTH

# -- schemas ---------------------------------------------------------------------------------

_NAMES = [chr(ord("a") + i) for i in range(16)]  # more than _MAX_LOOKUPS: both object paths
assert len(_NAMES) > _MAX_LOOKUPS
_BOUNDS = st.sampled_from([-1, 0, 1, 2, 0.5, 1.5, -0.5, 2**63])
_ANNOTATION = st.sampled_from([{}, {"description": "d"}, {"title": "t", "default": None}])

_FUSED_LEAVES = st.one_of(
    st.builds(
        lambda name: {"type": name},
        st.sampled_from(["integer", "number", "string", "boolean", "null", "object", "array"]),
    ),
    st.builds(
        lambda name, keyword, bound: {"type": name, keyword: bound},
        st.sampled_from(["integer", "number"]),
        st.sampled_from(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]),
        _BOUNDS,
    ),
    st.builds(
        lambda keyword, size: {"type": "string", keyword: size},
        st.sampled_from(["minLength", "maxLength"]),
        st.integers(0, 3),
    ),
    st.builds(
        lambda options: {"type": "string", "enum": options},
        st.lists(st.sampled_from(["", "a", "ab", "x y", 1, 1.0, None, True]), max_size=4),
    ),
)
# Leaves the generator leaves to the closures (not fused, or not leaves).
_OTHER_LEAVES = st.sampled_from(
    [
        True,
        False,
        {},
        {"minimum": 1},
        {"maxLength": 1},
        {"type": ["string", "null"]},
        {"type": "string", "pattern": "^a"},
        {"type": "string", "minLength": 1, "maxLength": 2},
        {"type": "integer", "multipleOf": 2},
        {"type": "boolean", "enum": [True]},
        {"const": 1},
        {"enum": ["a", None]},
        {"$ref": "#/$defs/item"},
        {"$ref": "#/$defs/tree"},
    ]
)
_DEFS = {
    "item": {
        "type": "object",
        "properties": {"a": {"type": "integer", "minimum": 0}, "b": {"type": "string"}},
        "required": ["a"],
        "additionalProperties": False,
    },
    "tree": {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/tree"}]}},
}


def _with(annotation: dict[str, Any], schema: Any) -> Any:
    return {**annotation, **schema} if isinstance(schema, dict) else schema


def _object(
    properties: dict[str, Any], required: list[str], closed: Any, typed: bool
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"} if typed else {}
    if properties or typed:
        schema["properties"] = properties
    if required:
        schema["required"] = required
    if closed is not None:
        schema["additionalProperties"] = closed
    return schema


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    objects = st.builds(
        _object,
        st.dictionaries(st.sampled_from(_NAMES), inner, max_size=len(_NAMES)),
        st.lists(st.sampled_from([*_NAMES[:4], "z"]), max_size=3),
        st.sampled_from([None, True, False, False]),
        st.booleans() | st.just(True),
    )
    arrays = st.builds(lambda items: {"type": "array", "items": items}, inner)
    anyofs = st.builds(
        lambda branches: {"anyOf": branches}, st.lists(inner, min_size=1, max_size=3)
    )
    return st.one_of(
        objects,
        arrays,
        anyofs,
        st.builds(_with, _ANNOTATION, objects),
        st.builds(_with, _ANNOTATION, arrays),
    )


_SCHEMAS = st.recursive(
    st.one_of(_FUSED_LEAVES, st.builds(_with, _ANNOTATION, _FUSED_LEAVES), _OTHER_LEAVES),
    _containers,
    max_leaves=12,
)


def _generated_root(schema: Any) -> bool:
    compiler = _Compiler(schema, [0])
    compiler.node(schema)
    return compiler.shapes.get(id(schema)) in ("array", "object")


_ROOTS = (
    _containers(_SCHEMAS)
    .filter(lambda schema: isinstance(schema, dict) and schema.get("type") in ("object", "array"))
    .map(lambda schema: {**schema, "$defs": _DEFS})
    .filter(_generated_root)
)


# -- instances near a schema -------------------------------------------------------------------

_SCALARS = [
    None, True, False, 0, 1, 2, -1, 3, 2**63, 2**63 + 1, 1.0, 0.5, 1.5, -0.5, 2.0,
    "", "a", "ab", "abc", "x y", "\U0001f600",
]  # fmt: skip
_ANY = st.recursive(
    st.sampled_from(_SCALARS),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from([*_NAMES[:4], "z"]), inner, max_size=3)
    ),
    max_leaves=6,
)


def _draw_instance(draw: Any, schema: Any, level: int = 0) -> Any:
    """Mostly an instance shaped like ``schema`` (so that valid ones are
    common), sometimes any value; present nulls and extra members included."""
    if level > 12 or draw(st.integers(0, 9)) == 0:
        return draw(_ANY)
    if not isinstance(schema, dict):
        return draw(_ANY)
    if "$ref" in schema:
        target = _DEFS[schema["$ref"].rsplit("/", 1)[1]]
        return _draw_instance(draw, target, level + 1)
    if "anyOf" in schema:
        return _draw_instance(draw, draw(st.sampled_from(schema["anyOf"])), level + 1)
    if schema.get("type") == "array" or "items" in schema:
        items = schema.get("items", True)
        size = draw(st.integers(0, 3))
        return [_draw_instance(draw, items, level + 1) for _ in range(size)]
    if schema.get("type") == "object" or "properties" in schema:
        instance: dict[str, Any] = {}
        for name, sub in schema.get("properties", {}).items():
            choice = draw(st.integers(0, 5))
            if choice == 0:
                continue
            instance[name] = None if choice == 1 else _draw_instance(draw, sub, level + 1)
        if draw(st.integers(0, 5)) == 0:
            instance[draw(st.sampled_from([*_NAMES, "z"]))] = draw(_ANY)
        # The members in another order than the schema's (the closures take
        # them in the instance's, which the budget can tell).
        order = draw(st.permutations(list(instance)))
        return {name: instance[name] for name in order}
    return draw(st.sampled_from(_SCALARS))


@st.composite
def _instances(draw: Any, schema: Any) -> Any:
    return _draw_instance(draw, schema)


def _answer(node: Any, instance: Any, *args: Any) -> bool:
    try:
        return bool(node(instance, *args))
    except (RecursionError, ProtocolError):
        return False


# -- the properties ----------------------------------------------------------------------------

_SETTINGS = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@_SETTINGS
@given(st.data(), _ROOTS)
def test_generated_predicate_agrees_with_the_closures(data: Any, schema: Any) -> None:
    check_schema(schema)
    compiler = _Compiler(schema, [0])
    compiler.node(schema)
    assert generate(compiler, schema, 0) is not None  # the generated path is the one tested
    new, old = generated_acceptor(schema), closure_acceptor(schema)
    for _ in range(4):
        instance = data.draw(_instances(schema))
        answer = new(instance)
        assert answer is old(instance), instance
        if answer:
            assert first_violation(schema, instance) is None, instance


@_SETTINGS
@given(
    st.data(),
    _ROOTS,
    st.sampled_from([0, 1, MAX_VALIDATION_DEPTH - 3, MAX_VALIDATION_DEPTH - 2,
                     MAX_VALIDATION_DEPTH - 1, MAX_VALIDATION_DEPTH, MAX_VALIDATION_DEPTH + 1]),
    st.integers(0, 6) | st.just(WORK_BUDGET),
)  # fmt: skip
def test_generated_node_agrees_at_every_depth_and_budget(
    data: Any, schema: Any, depth: int, budget: int
) -> None:
    # The node applied at a level near the depth limit, with a budget that
    # may run out: the same answer as its closure, the same budget left
    # after a yes (budget[0] is shared by both and by the closures the
    # generated source calls).
    check_schema(schema)
    compiler = _Compiler(schema, [0])
    node = compiler.node(schema)
    generated = generate(compiler, schema, depth)
    assert generated is not None
    for _ in range(3):
        instance = data.draw(_instances(schema))
        compiler.budget[0] = budget
        expected = _answer(node, instance, depth)
        left = compiler.budget[0]
        compiler.budget[0] = budget
        assert _answer(generated, instance) is expected, (instance, depth, budget)
        if expected:
            assert compiler.budget[0] == left
            if depth == 0 and budget == WORK_BUDGET:
                assert first_violation(schema, instance) is None


# -- edge cases, by hand ---------------------------------------------------------------------


def _nested(levels: int) -> tuple[dict[str, Any], Any]:
    """An object of an array of an object... ``levels`` deep, and an instance
    that fills it (ints at the bottom)."""
    schema: dict[str, Any] = {"type": "integer", "minimum": 0}
    instance: Any = 1
    for level in range(levels):
        if level % 2:
            schema = {"type": "array", "items": schema}
            instance = [instance]
        else:
            schema = {
                "type": "object",
                "properties": {"n": schema, "s": {"type": "string"}},
                "required": ["n"],
                "additionalProperties": False,
            }
            instance = {"n": instance, "s": "x"}
    return schema, instance


@pytest.mark.parametrize("levels", [1, 2, 7, 12, 30])
def test_deep_schemas_keep_the_depth_limit_at_every_level(levels: int) -> None:
    # Deeper than _MAX_LOOPS, the levels go to functions of their own (part);
    # wherever the limit falls, the answer is the closure's.
    schema, instance = _nested(levels)
    check_schema(schema)
    compiler = _Compiler(schema, [0])
    node = compiler.node(schema)
    assert generated_acceptor(schema)(instance) is True
    for depth in range(MAX_VALIDATION_DEPTH - levels - 2, MAX_VALIDATION_DEPTH + 2):
        generated = generate(compiler, schema, depth)
        assert generated is not None
        for value in (instance, {}, [], {"n": None}, [None]):
            compiler.budget[0] = WORK_BUDGET
            expected = _answer(node, value, depth)
            compiler.budget[0] = WORK_BUDGET
            assert _answer(generated, value) is expected, (depth, value)
    deep_instance: Any = instance
    assert first_violation(schema, deep_instance) is None


def test_the_depth_limit_is_the_validators() -> None:
    # 200 nested objects put the innermost value at level 200 (accepted), 201
    # at 201, where the validator raises limit_exceeded: not known.
    def chain(levels: int) -> tuple[dict[str, Any], Any]:
        schema: dict[str, Any] = {"type": "string"}
        instance: Any = "x"
        for _ in range(levels):
            schema = {"type": "object", "properties": {"a": schema}, "required": ["a"]}
            instance = {"a": instance}
        return schema, instance

    for levels, valid in ((MAX_VALIDATION_DEPTH, True), (MAX_VALIDATION_DEPTH + 1, False)):
        schema, instance = chain(levels)
        compiler = _Compiler(schema, [0])
        compiler.node(schema)
        assert generate(compiler, schema, 0) is not None
        assert generated_acceptor(schema)(instance) is valid
        assert closure_acceptor(schema)(instance) is valid
        if not valid:
            with pytest.raises(ProtocolError):
                first_violation(schema, instance)


@pytest.mark.parametrize("closed", [False, True])
def test_the_budget_runs_out_as_in_the_closures(closed: bool) -> None:
    item = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"anyOf": [{"type": "array"}, {}]}},
        "additionalProperties": not closed,
    }
    schemas: list[dict[str, Any]] = [
        {"type": "array", "items": item},
        {"type": "array", "items": {**item, "properties": {"a": {"type": "integer"}}}},
        {"type": "object", "properties": {"x": {"type": "array", "items": item}, "y": item}},
    ]
    # A branch of anyOf that runs out of budget and a later branch that
    # spends none: the anyOf holds, and what was spent before it decides
    # whether the budget runs out after it.  So members are taken in the
    # instance's order when one calls such a node.
    spending = {"anyOf": [{"type": "array", "items": {}}, {}]}
    schemas.append(
        {
            "type": "object",
            "properties": {"a": spending, "b": {"type": "array", "items": {}}},
            "additionalProperties": not closed,
        }
    )
    instances: list[Any] = [
        {"b": [], "a": []},
        {"a": [], "b": []},
        [{"a": 1}, {"a": 2, "b": [[]]}, {"b": []}],
        [{"a": 1}] * 5,
        {"y": {"a": 1}, "x": [{"a": 1, "b": 1}, {"b": [1]}]},
        {"x": [{"a": 1}] * 3, "y": {"b": {}}},
    ]
    for schema in schemas:
        compiler = _Compiler(schema, [0])
        node = compiler.node(schema)
        generated = generate(compiler, schema, 0)
        assert generated is not None
        for instance in instances:
            for budget in range(12):
                compiler.budget[0] = budget
                expected = _answer(node, instance, 0)
                left = compiler.budget[0]
                compiler.budget[0] = budget
                assert _answer(generated, instance) is expected, (schema, instance, budget)
                if expected:
                    assert compiler.budget[0] == left


@pytest.mark.parametrize("closed", [False, True])
def test_present_null_members_are_tested(closed: bool) -> None:
    schema = {
        "type": "object",
        "properties": {
            "s": {"type": "string"},
            "n": {"type": "null"},
            "i": {"type": "integer", "minimum": 0},
            "t": True,
            "f": False,
            "r": True,
        },
        "required": ["s", "r"],
        "additionalProperties": not closed,
    }
    accept, old = generated_acceptor(schema), closure_acceptor(schema)
    cases: list[tuple[Any, bool]] = [
        ({"s": "x"}, False),
        ({"s": "x", "r": None}, True),
        ({"s": None, "r": 1}, False),
        ({"r": [], "s": "x", "n": None}, True),
        ({"s": "x", "n": 0, "r": 0}, False),
        ({"s": "x", "i": None, "r": 0}, False),
        ({"s": "x", "t": None, "r": False}, True),
        ({"s": "x", "f": None, "r": 0}, False),
        ({"s": "x", None: 1, "r": 0}, not closed),
        ({"s": "x", "z": None, "r": 0}, not closed),
        ({}, False),
    ]
    for instance, valid in cases:
        assert (first_violation(schema, instance) is None) is valid, instance
        assert accept(instance) is valid, instance
        assert old(instance) is valid, instance


def test_exact_types() -> None:
    class Text(str):
        pass

    class Number(int):
        pass

    class Mapping(dict[str, Any]):
        pass

    schema = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "b": {"type": "boolean"},
                "i": {"type": "integer", "maximum": 5},
                "n": {"type": "number"},
                "e": {"type": "string", "enum": ["a"]},
            },
        },
    }
    accept, old = generated_acceptor(schema), closure_acceptor(schema)
    instances: list[Any] = [
        [{"i": True}], [{"i": 1.0}], [{"i": 5.5}], [{"i": 6}], [{"n": True}], [{"n": 1.5}],
        [{"b": 1}], [{"b": False}], [{"e": Text("a")}], [{"e": "b"}], [{"i": Number(3)}],
        [Mapping(i=1)], [{"n": float("nan")}], [{"n": float("inf")}], [{"i": 10**400}],
    ]  # fmt: skip
    for instance in instances:
        answer = accept(instance)
        assert answer is old(instance), instance
        if answer:
            assert first_violation(schema, instance) is None, instance


def test_shared_nodes_past_the_size_cap_are_called() -> None:
    # A schema built in Python may share a node (the same dict) many times:
    # inlined each time up to _MAX_GENERATED nodes, then called.
    leaf = {"type": "string", "maxLength": 2}
    node: dict[str, Any] = {"type": "array", "items": leaf}
    for _ in range(11):
        node = {"type": "object", "properties": {"a": node, "b": node}}
    check_schema(node, max_nodes=10**6)
    instance: Any = ["ab"]
    for _ in range(11):
        instance = {"a": instance, "b": instance}
    assert generated_acceptor(node)(instance) is True
    assert closure_acceptor(node)(instance) is True


def test_schema_values_are_never_source() -> None:
    # Names, bounds and enums are parameters of the generated factory, so
    # nothing in the schema is source text, and two schemas of one shape
    # share one compiled source.
    hostile = '"]; import os #'
    schema = {
        "type": "object",
        "properties": {hostile: {"type": "string", "enum": [hostile]}, "n\n": {"minimum": 1}},
        "required": [hostile],
    }
    check_schema(schema)
    compiler = _Compiler(schema, [0])
    compiler.node(schema)
    text = _Source(compiler).text(schema, 0)
    assert hostile not in text
    assert "import" not in text
    accept = generated_acceptor(schema)
    assert accept({hostile: hostile, "n\n": 2}) is True
    assert accept({hostile: "x"}) is False
    other = {
        "type": "object",
        "properties": {"p": {"type": "string", "enum": ["q"]}, "r": {"minimum": 5}},
        "required": ["p"],
    }
    compiler = _Compiler(other, [0])
    compiler.node(other)
    assert _Source(compiler).text(other, 0) == text
    assert text in _FACTORIES
    assert generated_acceptor(other)({"p": "q", "r": 5}) is True
    assert generated_acceptor(other)({"p": "q", "r": 4}) is False


def test_the_public_acceptor_runs_the_closures_once_then_the_generated_source() -> None:
    schema = {
        "type": "object",
        "properties": {"p": {"type": "string", "minLength": 1}, "n": {"type": "integer"}},
        "required": ["p"],
        "additionalProperties": False,
    }
    check_schema(schema)
    _FACTORIES.clear()  # a cache: emptied, it is filled again
    accept = acceptor(schema)
    assert accept({"p": "q"}) is True
    assert not _FACTORIES  # one call: no source written
    instances: list[Any] = [{"p": "q", "n": 1}, {"p": ""}, {"n": 1}, []]
    answers = [accept(instance) for instance in instances]
    assert answers == [True, False, False, False]
    assert len(_FACTORIES) == 1  # written at the second call, kept after
