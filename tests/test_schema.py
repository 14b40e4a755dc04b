"""The JSON Schema subset (``toolstream.schema``).

Most cases are data, in the style of the official JSON-Schema-Test-Suite: a
group is ``(description, schema, [(description, instance, valid), ...])``;
every schema must pass ``check_schema`` and every instance must be valid
exactly when ``valid`` says so.  Then come the schemas that must be refused
(with the code and schema path), violation details, the evaluation order,
the ``pattern`` engine, limits, and property-based fuzzing.
"""

from __future__ import annotations

import math
import random
import re
import time
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolstream.findings import Code, ProtocolError
from toolstream.schema import (
    EVALUATION_ORDER,
    SUPPORTED,
    Violation,
    _regex,
    acceptor,
    check_schema,
    first_violation,
    iter_violations,
)

Case = tuple[str, Any, bool]
Group = tuple[str, Any, list[Case]]

BIG = 9007199254740993  # 2**53 + 1: not representable as a float

GROUPS: list[Group] = [
    # --- type -------------------------------------------------------------------------------
    (
        "type integer",
        {"type": "integer"},
        [
            ("an int", 1, True),
            ("1.0 is an integer", 1.0, True),
            ("-0.0 is an integer", -0.0, True),
            ("1e300 is an integer", 1e300, True),
            ("a big int", 10**40, True),
            ("1.5 is not", 1.5, False),
            ("true is not", True, False),
            ("false is not", False, False),
            ("a numeric string is not", "1", False),
            ("null is not", None, False),
        ],
    ),
    (
        "type number",
        {"type": "number"},
        [
            ("an int", 1, True),
            ("a float", 1.5, True),
            ("true is not a number", True, False),
            ("a string is not", "1.5", False),
            ("null is not", None, False),
        ],
    ),
    (
        "type boolean",
        {"type": "boolean"},
        [
            ("true", True, True),
            ("false", False, True),
            ("0 is not", 0, False),
            ("1 is not", 1, False),
            ("null is not", None, False),
        ],
    ),
    (
        "type null",
        {"type": "null"},
        [
            ("null", None, True),
            ("false is not", False, False),
            ("0 is not", 0, False),
            ("empty string is not", "", False),
        ],
    ),
    (
        "type string",
        {"type": "string"},
        [
            ("empty string", "", True),
            ("a string", "x", True),
            ("a number is not", 1, False),
            ("an array of strings is not", ["x"], False),
        ],
    ),
    (
        "type object",
        {"type": "object"},
        [("an object", {}, True), ("an array is not", [], False), ("a string is not", "{}", False)],
    ),
    (
        "type array",
        {"type": "array"},
        [("an array", [], True), ("an object is not", {}, False), ("a string is not", "[]", False)],
    ),
    (
        "type list string or null",
        {"type": ["string", "null"]},
        [("a string", "a", True), ("null", None, True), ("a number is not", 1, False)],
    ),
    (
        "type list integer or boolean",
        {"type": ["integer", "boolean"]},
        [("true", True, True), ("1", 1, True), ("2.0", 2.0, True), ("1.5 is not", 1.5, False)],
    ),
    # --- enum / const ---------------------------------------------------------------------------
    (
        "enum of 1",
        {"enum": [1]},
        [
            ("1", 1, True),
            ("1.0 equals 1", 1.0, True),
            ("true is not 1", True, False),
            ("'1' is not 1", "1", False),
            ("2", 2, False),
        ],
    ),
    (
        "enum of true",
        {"enum": [True]},
        [("true", True, True), ("1 is not true", 1, False), ("1.0 is not true", 1.0, False)],
    ),
    (
        "enum of false and null",
        {"enum": [False, None]},
        [
            ("false", False, True),
            ("null", None, True),
            ("0 is not false", 0, False),
            ("'' is not null", "", False),
        ],
    ),
    (
        "enum with structures",
        {"enum": ["a", {"b": [1, 2]}]},
        [
            ("the string", "a", True),
            ("the object", {"b": [1, 2]}, True),
            ("numbers compare by value inside", {"b": [1.0, 2.0]}, True),
            ("array order matters", {"b": [2, 1]}, False),
            ("an extra key", {"b": [1, 2], "c": 1}, False),
            ("true is not 1 inside", {"b": [True, 2]}, False),
        ],
    ),
    ("empty enum", {"enum": []}, [("nothing is valid", None, False)]),
    (
        "enum with a big int stays exact",
        {"enum": [BIG]},
        [
            ("the exact int", BIG, True),
            ("the int below", BIG - 1, False),
            ("the nearest float is not equal", float(BIG), False),
        ],
    ),
    (
        "const object",
        {"const": {"a": 1, "b": 2}},
        [
            ("same object", {"a": 1, "b": 2}, True),
            ("key order does not matter", {"b": 2, "a": 1}, True),
            ("1.0 equals 1", {"a": 1.0, "b": 2}, True),
            ("true is not 1", {"a": True, "b": 2}, False),
            ("a missing key", {"a": 1}, False),
            ("an extra key", {"a": 1, "b": 2, "c": 3}, False),
        ],
    ),
    (
        "const array",
        {"const": [1]},
        [
            ("[1]", [1], True),
            ("[1.0]", [1.0], True),
            ("[true] is not [1]", [True], False),
            ("1 is not [1]", 1, False),
            ("[1, 1]", [1, 1], False),
        ],
    ),
    (
        "const false",
        {"const": False},
        [("false", False, True), ("0 is not false", 0, False), ("null", None, False)],
    ),
    (
        "const null",
        {"const": None},
        [("null", None, True), ("false is not null", False, False), ("0", 0, False)],
    ),
    (
        "const 0",
        {"const": 0},
        [("0", 0, True), ("0.0", 0.0, True), ("-0.0", -0.0, True), ("false", False, False)],
    ),
    # --- numbers ----------------------------------------------------------------------------
    (
        "minimum",
        {"minimum": 1.1},
        [
            ("equal", 1.1, True),
            ("above", 2, True),
            ("below", 0.6, False),
            ("ignores strings", "0", True),
            ("ignores booleans (not numbers)", False, True),
        ],
    ),
    (
        "maximum",
        {"maximum": 3},
        [("equal", 3, True), ("3.0", 3.0, True), ("above", 3.5, False), ("ignores", "x", True)],
    ),
    (
        "exclusiveMinimum (a number, draft 6+)",
        {"exclusiveMinimum": 1.1},
        [("equal is invalid", 1.1, False), ("above", 1.2, True), ("below", 1, False)],
    ),
    (
        "exclusiveMaximum",
        {"exclusiveMaximum": 3},
        [("equal is invalid", 3, False), ("3.0 is equal", 3.0, False), ("below", 2.9, True)],
    ),
    (
        "minimum with a big int",
        {"minimum": 2**64},
        [
            ("equal", 2**64, True),
            ("one less", 2**64 - 1, False),
            ("the equal float", float(2**64), True),
            ("a smaller float", 1.8e19, False),
        ],
    ),
    (
        "maximum with a big int",
        {"maximum": BIG - 1},
        [("equal", BIG - 1, True), ("one more is exact", BIG, False)],
    ),
    (
        "multipleOf 2",
        {"multipleOf": 2},
        [
            ("10", 10, True),
            ("7", 7, False),
            ("4.0", 4.0, True),
            ("-4", -4, True),
            ("ignores strings", "7", True),
            ("ignores booleans", True, True),
        ],
    ),
    (
        "multipleOf 0.01",
        {"multipleOf": 0.01},
        [
            ("0.07 (float % would say no)", 0.07, True),
            ("19.99", 19.99, True),
            ("1.1", 1.1, True),
            ("an int", 5, True),
            ("0.075", 0.075, False),
            ("1e308", 1e308, True),
        ],
    ),
    (
        "multipleOf 0.1",
        {"multipleOf": 0.1},
        [("0.3", 0.3, True), ("-0.7", -0.7, True), ("0.35", 0.35, False)],
    ),
    (
        "multipleOf 1.5",
        {"multipleOf": 1.5},
        [("4.5", 4.5, True), ("35", 35, False), ("0", 0, True)],
    ),
    (
        "multipleOf 0.0001",
        {"multipleOf": 0.0001},
        [("0.0075", 0.0075, True), ("0.00751", 0.00751, False)],
    ),
    (
        "multipleOf 3 with big ints",
        {"multipleOf": 3},
        [("3**100", 3**100, True), ("3**100 + 1", 3**100 + 1, False)],
    ),
    (
        "multipleOf 1e-8",
        {"multipleOf": 1e-8},
        [("a big int", 12391239123, True), ("a small float", 1.5e-8, False)],
    ),
    # --- strings ----------------------------------------------------------------------------
    (
        "minLength",
        {"minLength": 2},
        [
            ("long enough", "ab", True),
            ("too short", "a", False),
            ("empty", "", False),
            ("one astral character is one code point", "\U0001f600", False),
            ("two astral characters", "\U0001f600\U0001f600", True),
            ("ignores numbers", 1, True),
        ],
    ),
    (
        "maxLength",
        {"maxLength": 2},
        [
            ("exact", "ab", True),
            ("too long", "abc", False),
            ("two astral characters (four UTF-16 units)", "\U0001f600\U0001f600", True),
            ("two CJK characters", "日本", True),
            ("ignores arrays", [1, 2, 3], True),
        ],
    ),
    (
        "minLength given as 2.0",
        {"minLength": 2.0},
        [("long enough", "ab", True), ("too short", "a", False)],
    ),
    (
        "pattern anchored",
        {"pattern": "^a*$"},
        [
            ("matches", "aaa", True),
            ("empty", "", True),
            ("does not match", "abc", False),
            ("ignores numbers", 123, True),
        ],
    ),
    (
        "pattern is searched, not matched",
        {"pattern": "b"},
        [("in the middle", "abc", True), ("absent", "xyz", False)],
    ),
    (
        "pattern $ is the end of the string",
        {"pattern": "^[a-z]+$"},
        [("plain", "abc", True), ("a trailing newline does not match", "abc\n", False)],
    ),
    (
        "pattern \\d is ASCII",
        {"pattern": "^\\d+$"},
        [("ASCII digits", "123", True), ("Arabic-Indic digits", "١٢٣", False)],
    ),
    (
        "pattern \\w is ASCII",
        {"pattern": "^\\w+$"},
        [("ASCII word", "hello_1", True), ("an accented letter", "héllo", False)],
    ),
    (
        "pattern \\s is ECMA white space",
        {"pattern": "\\s"},
        [
            ("a tab", "\t", True),
            ("no-break space", "\u00a0", True),
            ("ideographic space", "\u3000", True),
            ("BOM", "\ufeff", True),
            ("none", "x", False),
        ],
    ),
    (
        "pattern dot",
        {"pattern": "^.$"},
        [
            ("a letter", "a", True),
            ("an astral character is one", "\U0001f600", True),
            ("not a newline", "\n", False),
            ("not a line separator", "\u2028", False),
        ],
    ),
    (
        "pattern [^] and []",
        {"pattern": "^[^]$|^[]"},
        [("a newline", "\n", True), ("empty", "", False), ("two characters", "ab", False)],
    ),
    (
        "pattern with nested quantifiers",
        {"pattern": "^(a+)+$"},
        [("matches", "aaa", True), ("does not match", "aab", False)],
    ),
    (
        "pattern word boundary",
        {"pattern": "\\bfoo\\b"},
        [("a word", "a foo.", True), ("alone", "foo", True), ("inside a word", "afoo", False)],
    ),
    (
        "pattern escapes",
        {"pattern": "^\\u00e9\\x41\\t\\cJ\\u{1F600}\\uD83D\\uDE00[\\b]\\$\\.$"},
        [("all of them", "éA\t\n\U0001f600\U0001f600\b$.", True), ("not quite", "é", False)],
    ),
    (
        "pattern counted repetition",
        {"pattern": "^x{2,3}$"},
        [("two", "xx", True), ("three", "xxx", True), ("one", "x", False), ("four", "xxxx", False)],
    ),
    (
        "pattern alternation and groups",
        {"pattern": "^(?:ab|cd)*$|^(?<year>\\d{4})-\\d{2}$"},
        [("pairs", "abcdab", True), ("a date", "2024-01", True), ("odd", "abc", False)],
    ),
    (
        "pattern alternation binds loosest",
        {"pattern": "^a|b$"},
        [("starts with a", "ax", True), ("ends with b", "xb", True), ("neither", "xa", False)],
    ),
    (
        "pattern email-ish",
        {"pattern": "^[\\w.+-]+@[\\w-]+\\.[a-z]{2,}$"},
        [("an address", "a.b+c@d-e.io", True), ("no dot", "a@b", False)],
    ),
    (
        "pattern class with a trailing dash",
        {"pattern": "^[\\d-]+$"},
        [("digits and dashes", "12-3", True), ("a letter", "1a", False)],
    ),
    # --- arrays -----------------------------------------------------------------------------
    (
        "minItems",
        {"minItems": 1},
        [("one", [1], True), ("none", [], False), ("ignores strings", "", True)],
    ),
    (
        "maxItems",
        {"maxItems": 2},
        [("two", [1, 2], True), ("three", [1, 2, 3], False), ("ignores objects", {"a": 1}, True)],
    ),
    (
        "items",
        {"items": {"type": "integer"}},
        [
            ("all integers", [1, 2.0], True),
            ("empty", [], True),
            ("a string item", [1, "x"], False),
            ("a boolean item", [True], False),
            ("ignores non-arrays", "abc", True),
        ],
    ),
    ("items true", {"items": True}, [("anything", [1, "x", None], True)]),
    ("items false", {"items": False}, [("empty", [], True), ("any item", [1], False)]),
    (
        "nested items",
        {"items": {"items": {"type": "string"}}},
        [("strings", [["a"], []], True), ("a number deep inside", [["a"], [1]], False)],
    ),
    # --- objects ----------------------------------------------------------------------------
    (
        "required",
        {"required": ["a"]},
        [
            ("present", {"a": None}, True),
            ("absent", {}, False),
            ("another key", {"b": 1}, False),
            ("ignores strings", "a", True),
            ("ignores arrays", ["a"], True),
            ("ignores null", None, True),
        ],
    ),
    ("required empty", {"required": []}, [("empty object", {}, True)]),
    (
        "required with duplicates",
        {"required": ["a", "a"]},
        [("present", {"a": 1}, True), ("absent", {}, False)],
    ),
    (
        "properties",
        {"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}},
        [
            ("does not imply required", {}, True),
            ("both valid", {"a": 1, "b": "x"}, True),
            ("a wrong", {"a": "x"}, False),
            ("b wrong", {"b": 1}, False),
            ("extra keys allowed", {"c": [1]}, True),
            ("ignores arrays", [1], True),
        ],
    ),
    (
        "properties with odd names",
        {"properties": {"a/b": {"type": "integer"}, "~t": {"type": "null"}, "": {"const": 1}}},
        [("valid", {"a/b": 1, "~t": None, "": 1}, True), ("empty name wrong", {"": 2}, False)],
    ),
    (
        "additionalProperties false",
        {"properties": {"a": {}}, "additionalProperties": False},
        [
            ("declared only", {"a": 1}, True),
            ("empty", {}, True),
            ("an extra key", {"a": 1, "b": 2}, False),
            ("ignores arrays", [1], True),
        ],
    ),
    (
        "additionalProperties false alone",
        {"additionalProperties": False},
        [("empty", {}, True), ("any key", {"a": 1}, False)],
    ),
    (
        "additionalProperties true",
        {"properties": {"a": {}}, "additionalProperties": True},
        [("anything", {"x": 1}, True)],
    ),
    (
        "strict tool schema",
        {
            "type": "object",
            "properties": {
                "city": {"type": "string", "minLength": 1},
                "unit": {"enum": ["c", "f"]},
                "days": {"type": "integer", "minimum": 1, "maximum": 14},
            },
            "required": ["city", "unit"],
            "additionalProperties": False,
        },
        [
            ("valid", {"city": "Paris", "unit": "c"}, True),
            ("with days", {"city": "Paris", "unit": "f", "days": 3.0}, True),
            ("missing unit", {"city": "Paris"}, False),
            ("days too many", {"city": "Paris", "unit": "c", "days": 15}, False),
            ("days fractional", {"city": "Paris", "unit": "c", "days": 1.5}, False),
            ("unknown unit", {"city": "Paris", "unit": "k"}, False),
            ("extra key", {"city": "Paris", "unit": "c", "x": 1}, False),
            ("not an object", ["Paris"], False),
        ],
    ),
    # --- anyOf ------------------------------------------------------------------------------
    (
        "anyOf",
        {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 2}]},
        [
            ("a string", "x", True),
            ("an int", 3, True),
            ("too small", 1, False),
            ("null", None, False),
        ],
    ),
    ("anyOf with true", {"anyOf": [{"type": "null"}, True]}, [("anything", [1], True)]),
    ("anyOf with only false", {"anyOf": [False]}, [("nothing", 1, False)]),
    (
        "nested anyOf",
        {"anyOf": [{"anyOf": [{"type": "null"}, {"type": "boolean"}]}, {"type": "string"}]},
        [("null", None, True), ("true", True, True), ("a string", "s", True), ("1", 1, False)],
    ),
    # --- boolean and empty schemas -----------------------------------------------------------
    ("true schema", True, [("a number", 1, True), ("null", None, True), ("an object", {}, True)]),
    (
        "false schema",
        False,
        [("a number", 1, False), ("null", None, False), ("an object", {}, False)],
    ),
    ("empty schema", {}, [("anything", {"a": [1, None]}, True)]),
    (
        "false property schema",
        {"properties": {"a": False}},
        [("absent", {}, True), ("present", {"a": 1}, False)],
    ),
    # --- $ref -------------------------------------------------------------------------------
    (
        "$ref to $defs",
        {"$defs": {"int": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/int"}}},
        [("valid", {"a": 1}, True), ("invalid", {"a": "x"}, False)],
    ),
    (
        "$ref to definitions",
        {"definitions": {"int": {"type": "integer"}}, "items": {"$ref": "#/definitions/int"}},
        [("valid", [1, 2], True), ("invalid", [1, "2"], False)],
    ),
    (
        "$ref with pointer escapes",
        {
            "$defs": {
                "a/b": {"type": "integer"},
                "t~x": {"type": "string"},
                "sp ace": {"type": "null"},
                "%25": {"type": "boolean"},
            },
            "properties": {
                "p": {"$ref": "#/$defs/a~1b"},
                "q": {"$ref": "#/$defs/t~0x"},
                "r": {"$ref": "#/$defs/sp%20ace"},
                "s": {"$ref": "#/$defs/%2525"},
            },
        },
        [
            ("valid", {"p": 1, "q": "x", "r": None, "s": True}, True),
            ("~1 unescaped", {"p": "x"}, False),
            ("~0 unescaped", {"q": 1}, False),
            ("percent-decoded", {"r": 1}, False),
            ("percent-decoded once", {"s": 1}, False),
        ],
    ),
    (
        "$ref to a property schema and into anyOf",
        {
            "properties": {
                "a": {"type": "integer"},
                "b": {"$ref": "#/properties/a"},
                "c": {"anyOf": [{"type": "null"}, {"type": "string"}]},
                "d": {"$ref": "#/properties/c/anyOf/1"},
            }
        },
        [
            ("valid", {"b": 1, "d": "x"}, True),
            ("b wrong", {"b": "1"}, False),
            ("d null", {"d": None}, False),
        ],
    ),
    (
        "$ref siblings apply too",
        {"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "maxLength": 2},
        [("valid", "ab", True), ("sibling violated", "abc", False), ("target violated", 1, False)],
    ),
    (
        "$ref chain",
        {
            "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/c"}, "c": {"minimum": 0}},
            "$ref": "#/$defs/a",
        },
        [("valid", 1, True), ("invalid", -1, False)],
    ),
    (
        "$ref to a boolean schema",
        {"$defs": {"no": False}, "properties": {"a": {"$ref": "#/$defs/no"}}},
        [("absent", {}, True), ("present", {"a": 1}, False)],
    ),
    (
        "recursive tree through #",
        {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#"}},
            },
            "required": ["name"],
            "additionalProperties": False,
        },
        [
            ("a leaf", {"name": "a"}, True),
            (
                "a tree",
                {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]},
                True,
            ),
            ("a deep error", {"name": "a", "children": [{"name": "b", "children": [{}]}]}, False),
            ("a deep extra key", {"name": "a", "children": [{"name": "b", "x": 1}]}, False),
        ],
    ),
    (
        "recursive linked list through anyOf",
        {
            "$defs": {
                "node": {
                    "type": "object",
                    "properties": {
                        "value": {"type": "integer"},
                        "next": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/node"}]},
                    },
                    "required": ["value", "next"],
                }
            },
            "$ref": "#/$defs/node",
        },
        [
            ("two nodes", {"value": 1, "next": {"value": 2, "next": None}}, True),
            ("bad value deep", {"value": 1, "next": {"value": "2", "next": None}}, False),
            ("missing next deep", {"value": 1, "next": {"value": 2}}, False),
        ],
    ),
    # --- annotations ------------------------------------------------------------------------
    (
        "annotations are not asserted",
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.com/tool.json",
            "$comment": "c",
            "title": "t",
            "description": "d",
            "default": 5,
            "examples": [1, "x"],
            "format": "date-time",
            "deprecated": True,
            "readOnly": False,
            "writeOnly": False,
        },
        [("not a date-time", "yesterday", True), ("a number", 1, True)],
    ),
    (
        "annotations nested",
        {"properties": {"a": {"description": "d", "format": "email", "type": "string"}}},
        [("not an email", {"a": "x"}, True), ("not a string", {"a": 1}, False)],
    ),
]


def _flatten(groups: list[Group]) -> tuple[list[tuple[Any, Any, bool]], list[str]]:
    params, ids = [], []
    for description, schema, cases in groups:
        for case, instance, valid in cases:
            params.append((schema, instance, valid))
            ids.append(f"{description} / {case}")
    return params, ids


SUITE, SUITE_IDS = _flatten(GROUPS)


def test_suite_ids_are_unique() -> None:
    assert len(set(SUITE_IDS)) == len(SUITE_IDS)


@pytest.mark.parametrize(("schema", "instance", "valid"), SUITE, ids=SUITE_IDS)
def test_suite(schema: Any, instance: Any, valid: bool) -> None:
    check_schema(schema)
    violations = list(iter_violations(schema, instance))
    first = first_violation(schema, instance)
    assert (first is None) == valid, violations
    assert (not violations) == valid
    if violations:
        assert first == violations[0]
        for violation in violations:
            assert isinstance(violation, Violation)
            assert violation.path == "" or violation.path.startswith("/")
            assert violation.keyword in {*EVALUATION_ORDER, "false"}
            assert 0 < len(violation.message) <= 500


# --- schemas outside the subset -------------------------------------------------------------

UNSUPPORTED: list[tuple[str, Any, str]] = [
    ("oneOf", {"oneOf": [{}]}, "/oneOf"),
    ("allOf", {"allOf": [{}]}, "/allOf"),
    ("not", {"not": {}}, "/not"),
    ("if", {"if": {}, "then": {}}, "/if"),
    ("then alone", {"then": {}}, "/then"),
    ("patternProperties", {"patternProperties": {"^a": {}}}, "/patternProperties"),
    ("dependentRequired", {"dependentRequired": {"a": ["b"]}}, "/dependentRequired"),
    ("dependentSchemas", {"dependentSchemas": {"a": {}}}, "/dependentSchemas"),
    ("dependencies", {"dependencies": {"a": ["b"]}}, "/dependencies"),
    ("prefixItems", {"prefixItems": [{}]}, "/prefixItems"),
    ("uniqueItems", {"uniqueItems": True}, "/uniqueItems"),
    ("contains", {"contains": {}}, "/contains"),
    ("propertyNames", {"propertyNames": {}}, "/propertyNames"),
    ("minProperties", {"minProperties": 1}, "/minProperties"),
    ("maxProperties", {"maxProperties": 1}, "/maxProperties"),
    ("unevaluatedProperties", {"unevaluatedProperties": False}, "/unevaluatedProperties"),
    ("contentMediaType", {"contentMediaType": "text/plain"}, "/contentMediaType"),
    ("nullable (OpenAPI)", {"type": "string", "nullable": True}, "/nullable"),
    ("$anchor", {"$anchor": "a"}, "/$anchor"),
    ("$dynamicRef", {"$dynamicRef": "#a"}, "/$dynamicRef"),
    ("$recursiveRef", {"$recursiveRef": "#"}, "/$recursiveRef"),
    ("draft-4 id", {"id": "x"}, "/id"),
    ("misspelled requried", {"requried": ["a"]}, "/requried"),
    ("misspelled nested", {"properties": {"a": {"tpye": "string"}}}, "/properties/a/tpye"),
    ("vendor extension", {"properties": {"a/b": {"x-order": 1}}}, "/properties/a~1b/x-order"),
    (
        "schema-valued additionalProperties",
        {"additionalProperties": {"type": "string"}},
        "/additionalProperties",
    ),
    ("empty-schema additionalProperties", {"additionalProperties": {}}, "/additionalProperties"),
    ("array-valued items", {"items": [{"type": "string"}]}, "/items"),
    ("remote $ref", {"$ref": "other.json#/a"}, "/$ref"),
    ("absolute $ref", {"$ref": "https://example.com/s.json"}, "/$ref"),
    ("anchor $ref", {"$defs": {"a": {}}, "$ref": "#a"}, "/$ref"),
    ("$id below the root", {"properties": {"a": {"$id": "a.json"}}}, "/properties/a/$id"),
    ("inside $defs", {"$defs": {"x": {"oneOf": [{}]}}}, "/$defs/x/oneOf"),
    ("inside items", {"items": {"not": {}}}, "/items/not"),
    ("inside anyOf", {"anyOf": [{"type": "string"}, {"allOf": []}]}, "/anyOf/1/allOf"),
    ("in a $ref target outside $defs", {"$ref": "#/x", "x": {}}, "/x"),
    ("pattern backreference", {"pattern": "(a)\\1"}, "/pattern"),
    ("pattern named backreference", {"pattern": "(?<n>a)\\k<n>"}, "/pattern"),
    ("pattern lookahead", {"pattern": "a(?=b)"}, "/pattern"),
    ("pattern negative lookahead", {"pattern": "a(?!b)"}, "/pattern"),
    ("pattern lookbehind", {"pattern": "(?<=a)b"}, "/pattern"),
    ("pattern script property", {"pattern": "\\p{Script=Greek}"}, "/pattern"),
    ("pattern binary property", {"pattern": "\\P{Alphabetic}"}, "/pattern"),
    ("pattern inline flags", {"pattern": "(?i)abc"}, "/pattern"),
    ("pattern unknown escape", {"pattern": "\\a"}, "/pattern"),
    ("pattern literal brace", {"pattern": "a{"}, "/pattern"),
    ("pattern literal bracket", {"pattern": "a]"}, "/pattern"),
    ("pattern huge repetition", {"pattern": "a{100000}"}, "/pattern"),
    ("pattern too many states", {"pattern": "(?:a{1000}){10}"}, "/pattern"),
    ("pattern too long", {"pattern": "a" * 1001}, "/pattern"),
    ("nested pattern", {"properties": {"s": {"pattern": "(?=x)"}}}, "/properties/s/pattern"),
]


@pytest.mark.parametrize(
    ("schema", "path"), [(s, p) for _, s, p in UNSUPPORTED], ids=[i for i, _, _ in UNSUPPORTED]
)
def test_unsupported(schema: Any, path: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        check_schema(schema)
    assert caught.value.code is Code.UNSUPPORTED_SCHEMA_KEYWORD, caught.value.message
    assert caught.value.path == path
    assert len(caught.value.message) < 300


def test_unsupported_messages_explain() -> None:
    with pytest.raises(ProtocolError, match="did you mean 'required'"):
        check_schema({"requried": ["a"]})
    with pytest.raises(ProtocolError, match="backreference"):
        check_schema({"pattern": "(a)\\1"})
    with pytest.raises(ProtocolError, match="lookaround"):
        check_schema({"pattern": "a(?=b)"})
    with pytest.raises(ProtocolError, match="only true or false"):
        check_schema({"additionalProperties": {}})
    with pytest.raises(ProtocolError, match="not local"):
        check_schema({"$ref": "https://example.com/s.json"})


# --- malformed schemas ----------------------------------------------------------------------

INVALID: list[tuple[str, Any, str]] = [
    ("type misspelled", {"type": "strnig"}, "/type"),
    ("type list misspelled", {"type": ["string", "strnig"]}, "/type/1"),
    ("type empty list", {"type": []}, "/type"),
    ("type number", {"type": 1}, "/type"),
    ("required string", {"required": "a"}, "/required"),
    ("required non-string item", {"required": ["a", 1]}, "/required/1"),
    ("minLength negative", {"minLength": -1}, "/minLength"),
    ("minLength fractional", {"minLength": 1.5}, "/minLength"),
    ("minLength string", {"minLength": "1"}, "/minLength"),
    ("minLength boolean", {"minLength": True}, "/minLength"),
    ("maxItems negative", {"maxItems": -1}, "/maxItems"),
    ("multipleOf zero", {"multipleOf": 0}, "/multipleOf"),
    ("multipleOf negative", {"multipleOf": -1}, "/multipleOf"),
    ("multipleOf string", {"multipleOf": "1"}, "/multipleOf"),
    ("minimum string", {"minimum": "0"}, "/minimum"),
    ("minimum boolean", {"minimum": False}, "/minimum"),
    (
        "exclusiveMinimum boolean (draft 4)",
        {"minimum": 0, "exclusiveMinimum": True},
        "/exclusiveMinimum",
    ),
    ("minimum NaN", {"minimum": math.nan}, "/minimum"),
    ("maximum infinity", {"maximum": math.inf}, "/maximum"),
    ("enum not an array", {"enum": 3}, "/enum"),
    ("properties array", {"properties": []}, "/properties"),
    ("property schema a number", {"properties": {"a": 3}}, "/properties/a"),
    ("property schema null", {"properties": {"a/b": None}}, "/properties/a~1b"),
    ("items a string", {"items": "string"}, "/items"),
    ("additionalProperties a string", {"additionalProperties": "no"}, "/additionalProperties"),
    ("anyOf empty", {"anyOf": []}, "/anyOf"),
    ("anyOf object", {"anyOf": {}}, "/anyOf"),
    ("anyOf item a number", {"anyOf": [{}, 1]}, "/anyOf/1"),
    ("$defs array", {"$defs": []}, "/$defs"),
    ("$defs entry a string", {"$defs": {"a": "x"}}, "/$defs/a"),
    ("pattern unbalanced", {"pattern": "("}, "/pattern"),
    ("pattern unmatched paren", {"pattern": "a)"}, "/pattern"),
    ("pattern range out of order", {"pattern": "[z-a]"}, "/pattern"),
    ("pattern nothing to repeat", {"pattern": "*a"}, "/pattern"),
    ("pattern double quantifier", {"pattern": "a**"}, "/pattern"),
    ("pattern possessive", {"pattern": "a*+"}, "/pattern"),
    ("pattern quantified anchor", {"pattern": "^*a"}, "/pattern"),
    ("pattern bounds reversed", {"pattern": "a{3,1}"}, "/pattern"),
    ("pattern trailing backslash", {"pattern": "a\\"}, "/pattern"),
    ("pattern bad hex", {"pattern": "\\xZZ"}, "/pattern"),
    ("pattern unterminated class", {"pattern": "[a"}, "/pattern"),
    ("pattern not a string", {"pattern": 5}, "/pattern"),
    ("root a number", 3, ""),
    ("root a string", "string", ""),
    ("root an array", [], ""),
    ("root null", None, ""),
    ("$ref unresolved", {"$ref": "#/$defs/missing"}, "/$ref"),
    ("$ref bad array index", {"anyOf": [{}], "items": {"$ref": "#/anyOf/01"}}, "/items/$ref"),
    ("$ref bad escape", {"$defs": {"a": {}}, "$ref": "#/$defs/a~2"}, "/$ref"),
    ("$ref not a string", {"$ref": 5}, "/$ref"),
    ("$ref to a non-schema", {"enum": [1], "properties": {"a": {"$ref": "#/enum"}}}, "/enum"),
    ("$ref to itself", {"$ref": "#"}, "/$ref"),
    ("$ref to itself with siblings", {"type": "object", "$ref": "#"}, "/$ref"),
    (
        "$ref mutual cycle",
        {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
        "/$defs/b/$ref",
    ),
    ("$ref cycle through anyOf", {"anyOf": [{"type": "null"}, {"$ref": "#"}]}, "/anyOf/1/$ref"),
    ("$ref cycle in unused $defs", {"$defs": {"a": {"$ref": "#/$defs/a"}}}, "/$defs/a/$ref"),
    ("description not a string", {"description": 3}, "/description"),
    ("title null", {"title": None}, "/title"),
    ("examples not an array", {"examples": 3}, "/examples"),
    ("deprecated a string", {"deprecated": "yes"}, "/deprecated"),
    ("$id not a string", {"$id": 3}, "/$id"),
    ("a tuple is not JSON", {"enum": (1, 2)}, "/enum"),
    ("a non-string key", {"properties": {1: {}}}, "/properties"),
    ("NaN in a const", {"const": [math.nan]}, "/const/0"),
]


@pytest.mark.parametrize(
    ("schema", "path"), [(s, p) for _, s, p in INVALID], ids=[i for i, _, _ in INVALID]
)
def test_invalid(schema: Any, path: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        check_schema(schema)
    assert caught.value.code is Code.INVALID_SCHEMA, caught.value.message
    assert caught.value.path == path
    assert len(caught.value.message) < 300


def test_cycle_message_names_the_cycle() -> None:
    schema = {
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
        "$ref": "#/$defs/a",
    }
    with pytest.raises(ProtocolError, match="#/\\$defs/a -> #/\\$defs/b -> #/\\$defs/a"):
        check_schema(schema)


def test_first_problem_in_document_order_wins() -> None:
    with pytest.raises(ProtocolError) as caught:
        check_schema({"type": "strnig", "oneOf": []})
    assert (caught.value.code, caught.value.path) == (Code.INVALID_SCHEMA, "/type")
    with pytest.raises(ProtocolError) as caught:
        check_schema({"oneOf": [], "type": "strnig"})
    assert (caught.value.code, caught.value.path) == (Code.UNSUPPORTED_SCHEMA_KEYWORD, "/oneOf")


def test_supported_keywords_are_exactly_the_documented_subset() -> None:
    assert set(SUPPORTED) == {
        *EVALUATION_ORDER,
        "$defs",
        "definitions",
        "$id",
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
    numeric = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
    counts = {"minLength", "maxLength", "minItems", "maxItems"}
    for keyword in sorted(SUPPORTED - {"const", "default"}):
        # Every supported keyword's value is checked (const and default take any JSON).
        bad = "1" if keyword in numeric | counts else 1
        with pytest.raises(ProtocolError) as caught:
            check_schema({keyword: bad})
        assert (caught.value.code, caught.value.path) == (Code.INVALID_SCHEMA, f"/{keyword}")


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


# --- pattern: backtracking and the engine -----------------------------------------------------


@pytest.mark.parametrize(
    "pattern",
    ["^(a+)+$", "^(a|aa)*$", "^(\\w*)*$", "\\d+\\d+x", "^(.*a){12}$", "^(a|a?)+$"],
)
def test_catastrophic_patterns_finish_quickly(pattern: str) -> None:
    schema = {"type": "object", "properties": {"s": {"pattern": pattern}}}
    check_schema(schema)
    subject = ("1" if "\\d" in pattern else "a") * 100_000 + "!"
    started = time.perf_counter()
    violation = first_violation(schema, {"s": subject})
    elapsed = time.perf_counter() - started
    assert elapsed < 3.0
    assert violation is not None
    assert (violation.path, violation.keyword) == ("/s", "pattern")


def test_pattern_work_budget_fails_closed() -> None:
    # An exponential DFA: every position is a new automaton state.
    schema = {"pattern": "(a|b)*a(a|b){40}c"}
    check_schema(schema)
    chooser = random.Random(0)
    subject = "".join(chooser.choice("ab") for _ in range(100_000))
    started = time.perf_counter()
    violation = first_violation(schema, subject)
    assert time.perf_counter() - started < 5.0
    assert violation is not None and "work budget" in violation.message


def test_pattern_on_a_long_string_is_linear() -> None:
    schema = {"pattern": "^[a-z0-9._-]+@[a-z0-9-]+(?:\\.[a-z]{2,})+$"}
    started = time.perf_counter()
    assert first_violation(schema, "a" * 1_000_000 + "@b.io") is None
    assert first_violation(schema, "a" * 1_000_000 + "@b") is not None
    assert time.perf_counter() - started < 5.0


# A tiny regex grammar whose meaning is the same in ECMA-262 and in Python's re
# (with re.ASCII, and Python's \Z for ECMA's $), for a differential test.
_LEAVES = st.sampled_from(
    ["a", "b", "1", "[ab]", "[^a]", "[a-c1]", "\\d", "\\w", "\\W", "\\b", "\\n"]
)


def _quantified(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    quantifier = st.sampled_from(["*", "+", "?", "{2}", "{0,2}", "{1,}", "*?", "+?"])
    return st.tuples(inner, quantifier).map(lambda t: f"(?:{t[0]}){t[1]}")


_REGEX = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map("".join),
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: "(?:" + "|".join(xs) + ")"),
        _quantified(inner),
        inner.map(lambda x: f"({x})"),
    ),
    max_leaves=6,
)


@settings(max_examples=400, deadline=None)
@given(
    body=_REGEX,
    start=st.booleans(),
    end=st.booleans(),
    subjects=st.lists(st.text(alphabet="ab1c_ \n", max_size=8), min_size=1, max_size=5),
)
def test_pattern_engine_agrees_with_re_on_the_common_subset(
    body: str, start: bool, end: bool, subjects: list[str]
) -> None:
    ecma = ("^" if start else "") + body + ("$" if end else "")
    python = ("^" if start else "") + body + ("\\Z" if end else "")
    program = _regex.compile_pattern(ecma)
    compiled = re.compile(python, re.ASCII)
    for subject in subjects:
        assert program.search(subject) is (compiled.search(subject) is not None), subject


def test_pattern_engine_refusals_and_errors() -> None:
    for pattern, code in [
        ("(a)\\1", Code.UNSUPPORTED_SCHEMA_KEYWORD),
        ("(?", Code.INVALID_SCHEMA),
        ("[\\d-z]", Code.UNSUPPORTED_SCHEMA_KEYWORD),
        ("\\u{110000}", Code.INVALID_SCHEMA),
        ("\\00", Code.UNSUPPORTED_SCHEMA_KEYWORD),
        ("(" * 40 + ")" * 40, Code.UNSUPPORTED_SCHEMA_KEYWORD),
    ]:
        with pytest.raises(_regex.PatternError) as caught:
            _regex.compile_pattern(pattern)
        assert caught.value.code is code, pattern


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


def test_first_violation_does_not_evaluate_everything() -> None:
    schema = {"items": {"pattern": "^(a|b)*a(a|b){40}c"}}
    chooser = random.Random(0)
    subject = "".join(chooser.choice("ab") for _ in range(20_000))
    started = time.perf_counter()
    assert first_violation(schema, [1, "x", *([subject] * 100)]) is not None
    assert time.perf_counter() - started < 1.0


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
