"""Schemas ``check_schema`` refuses (``toolstream.schema``): keywords outside
the subset (``unsupported_schema_keyword``) and malformed schemas
(``invalid_schema``), with the code and the schema path.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from toolstream.findings import Code, ProtocolError
from toolstream.schema import (
    EVALUATION_ORDER,
    SUPPORTED,
    check_schema,
)

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
