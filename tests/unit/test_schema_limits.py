"""The schema limits (``toolstream.schema``): node counts, schema depth,
``$ref`` chains, self-referencing objects and deep instances.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolstream.findings import Code, ProtocolError
from toolstream.schema import (
    check_schema,
    first_violation,
)

# --- limits ---------------------------------------------------------------------------------


def test_max_nodes() -> None:
    schema = {"properties": {f"p{i}": {"type": "string"} for i in range(4)}}
    check_schema(schema, max_nodes=10)  # 1 + 1 + 4 * 2 values
    with pytest.raises(ProtocolError) as caught:
        check_schema(schema, max_nodes=9)
    assert caught.value.code is Code.LIMIT_EXCEEDED


def test_default_max_nodes_counts_enum_values() -> None:
    check_schema({"enum": list(range(9_998))})
    with pytest.raises(ProtocolError) as caught:
        check_schema({"enum": list(range(10_000))})
    assert caught.value.code is Code.LIMIT_EXCEEDED


def _nested_items(depth: int) -> Any:
    schema: Any = {"type": "integer"}
    for _ in range(depth):
        schema = {"items": schema}
    return schema


def test_schema_depth_limit() -> None:
    check_schema(_nested_items(63))
    with pytest.raises(ProtocolError) as caught:
        check_schema(_nested_items(64))
    assert caught.value.code is Code.LIMIT_EXCEEDED
    with pytest.raises(ProtocolError) as caught:
        check_schema(_nested_items(5_000), max_nodes=100_000)
    assert caught.value.code is Code.LIMIT_EXCEEDED


def test_ref_chain_limit() -> None:
    def chain(length: int) -> Any:
        defs: dict[str, Any] = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(length)}
        defs[f"d{length}"] = {"type": "integer"}
        return {"$defs": defs, "$ref": "#/$defs/d0"}

    check_schema(chain(40))
    assert first_violation(chain(40), "x") is not None
    with pytest.raises(ProtocolError) as caught:
        check_schema(chain(60))
    assert caught.value.code is Code.LIMIT_EXCEEDED


def test_self_referencing_python_object_is_bounded() -> None:
    schema: dict[str, Any] = {"properties": {}}
    schema["properties"]["a"] = schema
    with pytest.raises(ProtocolError) as caught:
        check_schema(schema)
    assert caught.value.code is Code.LIMIT_EXCEEDED


def test_deep_instance_against_recursive_schema() -> None:
    schema = {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#"}}]}
    check_schema(schema)
    shallow: Any = 1
    for _ in range(40):
        shallow = [shallow]
    assert first_violation(schema, shallow) is None
    deep: Any = 1
    for _ in range(5_000):
        deep = [deep]
    with pytest.raises(ProtocolError) as caught:
        first_violation(schema, deep)
    assert caught.value.code is Code.LIMIT_EXCEEDED


def test_tree_as_deep_as_the_argument_depth_limit() -> None:
    schema = {"properties": {"children": {"items": {"$ref": "#"}}}, "required": ["name"]}
    check_schema(schema)
    tree: Any = {"name": "leaf"}
    for _ in range(63):  # 127 levels of nesting, under the parser's 128
        tree = {"name": "n", "children": [tree]}
    assert first_violation(schema, tree) is None
    del tree["children"][0]["name"]
    violation = first_violation(schema, tree)
    assert violation is not None
    assert violation.path == "/children/0"


def test_deep_instance_against_schema_that_does_not_descend() -> None:
    deep: Any = []
    for _ in range(10_000):
        deep = [deep]
    assert first_violation({"type": "array"}, deep) is None
    violation = first_violation({"type": "object"}, deep)
    assert violation is not None and len(violation.message) < 100
    violation = first_violation({"const": [[[1]]]}, deep)
    assert violation is not None
