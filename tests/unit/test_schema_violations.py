"""What a violation says and in which order (``toolstream.schema``): paths,
messages, and the documented evaluation order.
"""

from __future__ import annotations

from typing import Any

from toolstream.schema import (
    EVALUATION_ORDER,
    Violation,
    check_schema,
    first_violation,
    iter_violations,
)

# --- violation details ----------------------------------------------------------------------


def test_nested_violation_path() -> None:
    schema = {
        "properties": {
            "items": {
                "type": "array",
                "items": {"type": "object", "properties": {"name": {"type": "string"}}},
            }
        }
    }
    violation = first_violation(schema, {"items": [{"name": "a"}, {"name": "b"}, {"name": 3}]})
    assert violation == Violation(
        path="/items/2/name",
        keyword="type",
        message="3 is not of type 'string'",
        schema_path="/properties/items/items/properties/name/type",
    )


def test_messages() -> None:
    def message(schema: Any, instance: Any) -> str:
        violation = first_violation(schema, instance)
        assert violation is not None
        return violation.message

    assert message({"required": ["city"]}, {}) == "'city' is a required property"
    assert message({"type": "integer"}, "x") == "'x' is not of type 'integer'"
    assert message({"type": ["integer", "null"]}, "x") == "'x' is not of type 'integer', 'null'"
    assert message({"type": "integer"}, True) == "true is not of type 'integer'"
    assert message({"enum": ["a", None]}, 1) == "1 is not one of ['a', null]"
    assert message({"const": {"a": 1}}, {}) == "{} is not the constant {'a': 1}"
    assert message({"minimum": 5}, 3) == "3 is less than the minimum of 5"
    assert message({"exclusiveMaximum": 5}, 5) == (
        "5 is greater than or equal to the exclusive maximum of 5"
    )
    assert message({"multipleOf": 0.01}, 0.075) == "0.075 is not a multiple of 0.01"
    assert message({"minLength": 3}, "ab") == "'ab' is shorter than 3 characters"
    assert message({"maxItems": 1}, [1, 2]) == "[1, 2] has more than 1 item"
    assert message({"pattern": "^a$"}, "b") == "'b' does not match '^a$'"
    assert message({"additionalProperties": False}, {"x": 1}) == (
        "additional property 'x' is not allowed"
    )
    assert message(False, 1) == "1 is not allowed (the schema is false)"


def test_messages_never_dump_huge_values() -> None:
    cases: list[tuple[Any, Any]] = [
        ({"type": "integer"}, "x" * 1_000_000),
        ({"type": "string"}, list(range(100_000))),
        ({"type": "string"}, {str(i): i for i in range(10_000)}),
        ({"type": "string"}, 10**10_000),  # str() of this raises in Python 3.11+
        ({"enum": [str(i) * 50 for i in range(1_000)]}, "y" * 10_000),
        ({"required": ["k" * 10_000]}, {}),
        ({"anyOf": [{"const": "a" * 1_000}] * 50}, "b" * 1_000),
    ]
    for schema, instance in cases:
        check_schema(schema)
        violation = first_violation(schema, instance)
        assert violation is not None
        assert len(violation.message) <= 300, violation.message


def test_paths_escape_keys() -> None:
    schema = {"properties": {"a/b": {"properties": {"~": {"type": "null"}}}}}
    violation = first_violation(schema, {"a/b": {"~": 1}})
    assert violation is not None
    assert violation.path == "/a~1b/~0"
    assert violation.schema_path == "/properties/a~1b/properties/~0/type"


def test_required_points_at_the_object() -> None:
    schema = {"properties": {"address": {"required": ["city"]}}}
    violation = first_violation(schema, {"address": {}})
    assert violation is not None
    assert (violation.path, violation.keyword, violation.schema_path) == (
        "/address",
        "required",
        "/properties/address/required",
    )


def test_additional_property_points_at_the_property() -> None:
    violation = first_violation({"additionalProperties": False}, {"extra": 1})
    assert violation is not None
    assert (violation.path, violation.keyword) == ("/extra", "additionalProperties")


def test_false_schema_violation() -> None:
    violation = first_violation({"properties": {"a": False}}, {"a": 1})
    assert violation == Violation(
        path="/a",
        keyword="false",
        message="1 is not allowed (the schema is false)",
        schema_path="/properties/a",
    )


def test_schema_path_follows_ref_to_its_target() -> None:
    schema = {
        "$defs": {"addr": {"type": "object", "required": ["city"]}},
        "properties": {"home": {"$ref": "#/$defs/addr"}},
    }
    violation = first_violation(schema, {"home": {}})
    assert violation is not None
    assert (violation.path, violation.schema_path) == ("/home", "/$defs/addr/required")


def test_anyof_reports_one_violation_with_branch_details() -> None:
    schema = {"anyOf": [{"type": "integer"}, {"type": "object", "required": ["x"]}]}
    violations = list(iter_violations(schema, {"y": 1}))
    assert len(violations) == 1
    (violation,) = violations
    assert (violation.path, violation.keyword, violation.schema_path) == ("", "anyOf", "/anyOf")
    assert "[0]: {'y': 1} is not of type 'integer'" in violation.message
    assert "[1]: 'x' is a required property" in violation.message


def test_anyof_branch_detail_mentions_a_deeper_path() -> None:
    schema = {"anyOf": [{"type": "null"}, {"properties": {"a": {"type": "string"}}}]}
    violation = first_violation(schema, {"a": 1})
    assert violation is not None
    assert "[1] at '/a': 1 is not of type 'string'" in violation.message


# --- order ----------------------------------------------------------------------------------


def test_type_is_checked_first() -> None:
    schema = {"minimum": 5, "multipleOf": 2, "type": "integer"}
    assert [v.keyword for v in iter_violations(schema, 1.5)] == ["type", "minimum", "multipleOf"]


def test_schema_key_order_does_not_matter() -> None:
    a = {"type": "string", "minLength": 5, "pattern": "^x"}
    b = {"pattern": "^x", "minLength": 5, "type": "string"}
    assert list(iter_violations(a, "ab")) == list(iter_violations(b, "ab"))
    assert [v.keyword for v in iter_violations(a, "ab")] == ["minLength", "pattern"]


def test_required_before_properties_before_additional() -> None:
    schema = {
        "additionalProperties": False,
        "properties": {"a": {"type": "string"}},
        "required": ["b"],
    }
    violations = list(iter_violations(schema, {"z": 1, "a": 1}))
    assert [(v.keyword, v.path) for v in violations] == [
        ("required", ""),
        ("type", "/a"),
        ("additionalProperties", "/z"),
    ]


def test_properties_follow_the_instance_key_order() -> None:
    schema = {"properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    assert [v.path for v in iter_violations(schema, {"b": 1, "a": 1})] == ["/b", "/a"]
    assert [v.path for v in iter_violations(schema, {"a": 1, "b": 1})] == ["/a", "/b"]


def test_items_in_index_order_and_ref_last() -> None:
    schema = {
        "$defs": {"short": {"maxItems": 1}},
        "$ref": "#/$defs/short",
        "items": {"type": "string"},
        "type": "array",
    }
    violations = list(iter_violations(schema, [1, "a", 2]))
    assert [(v.keyword, v.path, v.schema_path) for v in violations] == [
        ("type", "/0", "/items/type"),
        ("type", "/2", "/items/type"),
        ("maxItems", "", "/$defs/short/maxItems"),
    ]


def test_required_in_schema_order() -> None:
    violations = list(iter_violations({"required": ["b", "a", "c"]}, {"c": 1}))
    assert [v.message for v in violations] == [
        "'b' is a required property",
        "'a' is a required property",
    ]


def test_evaluation_order_is_documented() -> None:
    assert EVALUATION_ORDER == (
        "type",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "items",
        "required",
        "properties",
        "additionalProperties",
        "anyOf",
        "$ref",
    )
    import toolstream.schema

    assert ", ".join(EVALUATION_ORDER) in " ".join((toolstream.schema.__doc__ or "").split())
