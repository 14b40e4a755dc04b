"""The JSON Schema subset as data, in the style of the official
JSON-Schema-Test-Suite: a group is ``(description, schema, [(description,
instance, valid), ...])``; every schema must pass ``check_schema`` and every
instance must be valid exactly when ``valid`` says so
(tests/unit/test_schema_keywords.py, and the fast acceptor against the same cases in
tests/unit/test_schema_acceptor.py)."""

from __future__ import annotations

from typing import Any

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


def flatten(groups: list[Group]) -> tuple[list[tuple[Any, Any, bool]], list[str]]:
    params, ids = [], []
    for description, schema, cases in groups:
        for case, instance, valid in cases:
            params.append((schema, instance, valid))
            ids.append(f"{description} / {case}")
    return params, ids


SUITE, SUITE_IDS = flatten(GROUPS)
