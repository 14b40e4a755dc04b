"""Tests for toolstream.strict_json: strict RFC 8259 parsing of arguments."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolstream.findings import Code, ProtocolError
from toolstream.strict_json import find_lone_surrogate, loads_strict

ALL_CODES = {
    Code.MALFORMED_JSON,
    Code.TRAILING_DATA,
    Code.NON_FINITE_NUMBER,
    Code.DUPLICATE_KEY,
    Code.INVALID_UNICODE,
    Code.LIMIT_EXCEEDED,
}


def rejection(text: str, **kwargs: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        loads_strict(text, **kwargs)
    return caught.value


def padded(inner: str) -> str:
    """Embed ``inner`` in an object-heavy document long enough to take the
    fast route for dense texts (the exact route must agree with it)."""
    rows = ",".join(f'{{"id":{i},"name":"row {i}","ok":true}}' for i in range(80))
    return f'{{"rows":[{rows}],"payload":{inner}}}'


# --------------------------------------------------------------------------
# Valid input: same value as json.loads

VALID = [
    ("object", '{"city": "Paris", "days": 3}'),
    ("empty-object", "{}"),
    ("empty-array", "[]"),
    ("nested", '{"a": [1, {"b": [true, false, null]}, []], "c": {"d": {}}}'),
    ("top-level-string", '"just a string"'),
    ("top-level-number", "42"),
    ("top-level-literal", "null"),
    ("raw-unicode", '{"ville": "São Paulo", "emoji": "😀", "cjk": "東京"}'),
    ("escaped-unicode", '{"ville": "S\\u00e3o Paulo", "k\\u00e9y": 1}'),
    ("astral-pair", '"\\ud83d\\ude00"'),
    ("astral-pair-uppercase", '"\\uD83D\\uDE00"'),
    ("escaped-backslash-then-u", '"\\\\ud800"'),
    ("all-escapes", '"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0000"'),
    ("minus-zero", "-0"),
    ("minus-zero-float", "-0.0"),
    ("exponent-upper", "1E5"),
    ("exponent-lower-fraction", "0.5e-3"),
    ("exponent-signed", "[1e+2, 2E-2, 1.5e308]"),
    ("underflow-is-fine", "1e-400"),
    ("big-int-allowed", "1" * 1000),
    ("big-float-allowed", "0." + "1" * 998),
    ("whitespace-around", ' \t\r\n {"a" : [ 1 , 2 ] } \n\t '),
    ("depth-128", "[" * 128 + "]" * 128),
    ("object-depth-128", '{"a":' * 127 + "{}" + "}" * 127),
    ("brackets-in-strings", '{"code": "f([{x}])[[[", "more": "]]]}}}"}'),
    ("colons-in-strings", '{"url": "https://x.y/a:b", "t": "12:30:00"}'),
    ("same-key-different-objects", '[{"a": 1}, {"a": 2}, {"b": {"a": 3}}]'),
    ("keys-differing-by-escape", '{"a": 1, "\\u0041": 2, "a\\u0000": 3}'),
    ("control-chars-escaped", '{"t": "line1\\nline2\\ttab"}'),
    ("dense-valid", padded('{"x": [1, 2.5, "three:", {"y": "[{"}]}')),
]


@pytest.mark.parametrize("text", [t for _, t in VALID], ids=[i for i, _ in VALID])
def test_valid_input_parses_like_json_loads(text: str) -> None:
    assert loads_strict(text) == json.loads(text)


def test_minus_zero_keeps_its_sign() -> None:
    value = loads_strict("-0.0")
    assert value == 0.0 and math.copysign(1.0, value) == -1.0
    assert loads_strict("-0") == 0 and type(loads_strict("-0")) is int


def test_types_match_json_loads() -> None:
    value = loads_strict('{"i": 1, "f": 1.0, "e": 1e2, "b": true, "n": null, "s": "x"}')
    assert [type(v) for v in value.values()] == [int, float, float, bool, type(None), str]


# --------------------------------------------------------------------------
# Rejections, one code per input

REJECTED = [
    # syntax
    ("empty", "", Code.MALFORMED_JSON),
    ("whitespace-only", " \n\t ", Code.MALFORMED_JSON),
    ("single-quotes", "{'a': 1}", Code.MALFORMED_JSON),
    ("single-quoted-value", "{\"a\": 'x'}", Code.MALFORMED_JSON),
    ("line-comment", '// hi\n{"a": 1}', Code.MALFORMED_JSON),
    ("block-comment", '{"a": /* no */ 1}', Code.MALFORMED_JSON),
    ("trailing-comma-object", '{"a": 1,}', Code.MALFORMED_JSON),
    ("trailing-comma-array", "[1, 2,]", Code.MALFORMED_JSON),
    ("missing-comma", '{"a": 1 "b": 2}', Code.MALFORMED_JSON),
    ("unquoted-key", "{a: 1}", Code.MALFORMED_JSON),
    ("raw-control-char", '{"a": "x\x01y"}', Code.MALFORMED_JSON),
    ("raw-newline-in-string", '{"a": "x\ny"}', Code.MALFORMED_JSON),
    ("raw-tab-in-string", '"a\tb"', Code.MALFORMED_JSON),
    ("invalid-escape", '"\\x41"', Code.MALFORMED_JSON),
    ("short-unicode-escape", '"\\u12"', Code.MALFORMED_JSON),
    ("leading-zero", "01", Code.MALFORMED_JSON),
    ("leading-zero-negative", "-01", Code.MALFORMED_JSON),
    ("leading-zero-nested", '{"a": 012}', Code.MALFORMED_JSON),
    ("bare-word", "hello", Code.MALFORMED_JSON),
    ("python-none", "None", Code.MALFORMED_JSON),
    ("python-true", "True", Code.MALFORMED_JSON),
    ("plus-sign", "+1", Code.MALFORMED_JSON),
    ("leading-dot", ".5", Code.MALFORMED_JSON),
    ("trailing-dot", "1.", Code.MALFORMED_JSON),
    ("trailing-dot-nested", "[1.]", Code.MALFORMED_JSON),
    ("dangling-exponent", "1e", Code.MALFORMED_JSON),
    ("dangling-exponent-sign", "1E+", Code.MALFORMED_JSON),
    ("hex-number", "0x10", Code.MALFORMED_JSON),
    ("minus-alone", "-", Code.MALFORMED_JSON),
    ("minus-nan", "-NaN", Code.MALFORMED_JSON),
    ("literal-run-on", "truex", Code.MALFORMED_JSON),
    ("unterminated-string", '{"a": "abc', Code.MALFORMED_JSON),
    ("unterminated-object", '{"a": 1', Code.MALFORMED_JSON),
    ("unterminated-array", "[1, 2", Code.MALFORMED_JSON),
    ("truncated-after-colon", '{"a":', Code.MALFORMED_JSON),
    ("byte-order-mark", '\ufeff{"a": 1}', Code.MALFORMED_JSON),
    ("lone-closer", "]", Code.MALFORMED_JSON),
    ("mismatched-closer", '{"a": [1}', Code.MALFORMED_JSON),
    ("dense-malformed", padded("[1, 2,]"), Code.MALFORMED_JSON),
    # trailing data
    ("two-objects", '{"a":1}{"a":1}', Code.TRAILING_DATA),
    ("object-then-word", '{"a":1} x', Code.TRAILING_DATA),
    ("two-empty-objects", "{} {}", Code.TRAILING_DATA),
    ("two-strings", '"a""b"', Code.TRAILING_DATA),
    ("two-numbers", "1 2", Code.TRAILING_DATA),
    ("number-comma", "1,2", Code.TRAILING_DATA),
    ("array-then-garbage", "[1]x", Code.TRAILING_DATA),
    ("stray-closer", '{"a": 1}}', Code.TRAILING_DATA),
    ("trailing-nul", '{"a": 1}\x00', Code.TRAILING_DATA),
    ("trailing-garbage-json-like", '{"a": 1} {"a": 1, "a": 2}', Code.TRAILING_DATA),
    ("arguments-sent-twice", padded("1") + padded("1"), Code.TRAILING_DATA),
    # non-finite numbers
    ("nan", "NaN", Code.NON_FINITE_NUMBER),
    ("infinity", "Infinity", Code.NON_FINITE_NUMBER),
    ("minus-infinity", "-Infinity", Code.NON_FINITE_NUMBER),
    ("nan-in-array", "[1, NaN]", Code.NON_FINITE_NUMBER),
    ("infinity-in-object", '{"a": {"b": -Infinity}}', Code.NON_FINITE_NUMBER),
    ("dense-nan", padded("NaN"), Code.NON_FINITE_NUMBER),
    # duplicate keys
    ("duplicate", '{"a": 1, "a": 2}', Code.DUPLICATE_KEY),
    ("duplicate-same-value", '{"a": 1, "a": 1}', Code.DUPLICATE_KEY),
    ("duplicate-after-unescape", '{"a": 1, "\\u0061": 2}', Code.DUPLICATE_KEY),
    ("duplicate-nested", '{"outer": [{"x": 1, "x": 2}]}', Code.DUPLICATE_KEY),
    ("duplicate-empty-key", '{"": 1, "": 2}', Code.DUPLICATE_KEY),
    ("dense-duplicate", padded('{"k": 1, "k": 2}'), Code.DUPLICATE_KEY),
    ("dense-duplicate-colon-strings", padded('{"k": "a:b", "k": "c:d"}'), Code.DUPLICATE_KEY),
    # lone surrogates
    ("lone-high", '"\\ud800"', Code.INVALID_UNICODE),
    ("lone-low", '"\\udc00"', Code.INVALID_UNICODE),
    ("high-then-text", '"\\ud83dx"', Code.INVALID_UNICODE),
    ("high-then-high", '"\\ud83d\\ud83d"', Code.INVALID_UNICODE),
    ("reversed-pair", '"\\ude00\\ud83d"', Code.INVALID_UNICODE),
    ("high-at-end", '"abc\\uDBFF"', Code.INVALID_UNICODE),
    ("lone-in-key", '{"\\ud800": 1}', Code.INVALID_UNICODE),
    ("escaped-backslash-before-lone", '"\\\\\\ud800"', Code.INVALID_UNICODE),
    ("pair-split-by-escaped-backslash", '"\\ud83d\\\\ude00"', Code.INVALID_UNICODE),
    ("raw-lone-surrogate", '{"a": "\ud800"}', Code.INVALID_UNICODE),
    ("dense-lone", padded('["\\udfff"]'), Code.INVALID_UNICODE),
    ("dense-raw-lone", padded('{"k:": "\udfff"}'), Code.INVALID_UNICODE),
    # limits
    ("depth-129-arrays", "[" * 129 + "]" * 129, Code.LIMIT_EXCEEDED),
    ("depth-129-objects", '{"a":' * 128 + "{}" + "}" * 128, Code.LIMIT_EXCEEDED),
    ("depth-129-unclosed", "[" * 129, Code.LIMIT_EXCEEDED),
    ("dense-depth-129", padded("[" * 128 + "]" * 128), Code.LIMIT_EXCEEDED),
    ("number-1001-digits", "1" * 1001, Code.LIMIT_EXCEEDED),
    ("negative-number-1001-chars", "-" + "1" * 1000, Code.LIMIT_EXCEEDED),
    ("float-1001-chars", "0." + "1" * 999, Code.LIMIT_EXCEEDED),
    ("nested-long-number", '{"n": [' + "9" * 2000 + "]}", Code.LIMIT_EXCEEDED),
    ("int-past-python-limit", "[" + "7" * 5000 + "]", Code.LIMIT_EXCEEDED),
    ("overflow", "1e400", Code.LIMIT_EXCEEDED),
    ("overflow-negative", "-1e400", Code.LIMIT_EXCEEDED),
    ("overflow-nested", '{"a": [1e308, 1e309]}', Code.LIMIT_EXCEEDED),
    ("overflow-by-mantissa", "9" * 400 + ".0", Code.LIMIT_EXCEEDED),
    ("dense-overflow", padded("1.8e308"), Code.LIMIT_EXCEEDED),
]


@pytest.mark.parametrize(
    ("text", "code"), [(t, c) for _, t, c in REJECTED], ids=[i for i, _, _ in REJECTED]
)
def test_rejected_input_gets_its_code(text: str, code: Code) -> None:
    assert rejection(text).code is code


# --------------------------------------------------------------------------
# Messages, offsets and paths


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ('{"a": 1 "b": 2}', 8),
        ("[1, 2,]", 6),
        ('{"a": "x\x01"}', 8),
        ("", 0),
    ],
    ids=["missing-comma", "trailing-comma", "control-char", "empty"],
)
def test_malformed_message_has_offset(text: str, offset: int) -> None:
    error = rejection(text)
    assert error.code is Code.MALFORMED_JSON
    assert error.message.startswith(f"malformed JSON at offset {offset}: ")


def test_malformed_message_names_the_problem() -> None:
    assert rejection('{"a": 1 "b": 2}').message == (
        "malformed JSON at offset 8: expecting ',' delimiter"
    )


@pytest.mark.parametrize(
    ("text", "path", "offset"),
    [
        ('{"a": 1, "a": 2}', "", 9),
        ('{"outer": [{"x": 1, "x": 2}]}', "/outer/0", 20),
        ('{"a": {"b": {"c": 1, "c": 2}}}', "/a/b", 21),
        ('[{"a~/b": {"k": 1, "k": 1}}]', "/0/a~0~1b", 19),
        ('[[], [], {"z": {}, "z": []}]', "/2", 19),
        ('{"a": 1, "b": {"x": 1, "x": 2}, "a": 2}', "/b", 23),
        ('{"a": 1, "a": {"x": 1, "x": 2}}', "", 9),
    ],
    ids=["top", "array-member", "deep", "escaped-pointer", "index", "inner-first", "outer-first"],
)
def test_duplicate_key_reports_pointer_and_offset(text: str, path: str, offset: int) -> None:
    error = rejection(text)
    assert error.code is Code.DUPLICATE_KEY
    assert error.path == path
    assert f"at offset {offset}" in error.message


def test_duplicate_key_path_on_dense_route() -> None:
    error = rejection(padded('{"list": [{}, {"k": 1, "k": 2}]}'))
    assert error.code is Code.DUPLICATE_KEY
    assert error.path == "/payload/list/1"


def test_duplicate_key_message_truncates_long_keys() -> None:
    key = "k" * 500
    error = rejection(f'{{"{key}": 1, "{key}": 2}}')
    assert len(error.message) < 150


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[1, NaN]", "NaN at offset 4"),
        ('{"x": -Infinity}', "-Infinity at offset 6"),
        ('[1, "1e400", 1e400]', "out of range at offset 13"),
        ("[" * 200 + "]" * 200, "deeper than 128 levels at offset 128"),
        ('["ok", "\\ud800"]', "lone surrogate escape at offset 8"),
        ('["ok", "\ud800"]', "lone surrogate code point at offset 8"),
        ('{"a": 1} []', "trailing data at offset 9"),
        ("[" + "1" * 1001 + "]", "at offset 1 is longer than 1000"),
    ],
    ids=["nan", "infinity", "overflow", "depth", "escape", "raw", "trailing", "long-number"],
)
def test_message_locates_the_problem(text: str, fragment: str) -> None:
    assert fragment in rejection(text).message


def test_message_never_echoes_much_input() -> None:
    secret = "s" * 1000
    for text in (
        f'{{"{secret}": 1, "{secret}": 2}}',
        f'{{"a": "{secret}"}} garbage {secret}',
        f'{{"a": "{secret}", "b": NaN}}',
        f'{{"a": "{secret}\x01"}}',
    ):
        assert len(rejection(text).message) < 120


# --------------------------------------------------------------------------
# Precedence between problems (first problem the parser meets wins; nesting,
# then surrogates, are checked once the value is complete; then trailing data)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('[{"a": 1, "a": 2}, NaN]', Code.DUPLICATE_KEY),
        ('[NaN, {"a": 1, "a": 2}]', Code.NON_FINITE_NUMBER),
        ('[{"a": 1, "a": 2}, 1,]', Code.DUPLICATE_KEY),
        ('{"a": 1, "a": 2} x', Code.DUPLICATE_KEY),
        ('["\\ud800"] x', Code.INVALID_UNICODE),
        ('["\\ud800", 1,]', Code.MALFORMED_JSON),
        ("[" * 129 + '"\\ud800"' + "]" * 129, Code.LIMIT_EXCEEDED),
        ("[" * 129 + "]" * 129 + " x", Code.LIMIT_EXCEEDED),
        ("[" * 129 + "1,]", Code.LIMIT_EXCEEDED),
        ("x" + "[" * 200, Code.MALFORMED_JSON),
        ("[] " + "[" * 200, Code.TRAILING_DATA),
    ],
    ids=[
        "dup-before-nan",
        "nan-before-dup",
        "dup-before-syntax",
        "dup-before-trailing",
        "surrogate-before-trailing",
        "syntax-before-surrogate",
        "depth-before-surrogate",
        "depth-before-trailing",
        "depth-before-syntax",
        "syntax-before-depth",
        "trailing-deep-garbage",
    ],
)
def test_precedence(text: str, code: Code) -> None:
    assert rejection(text).code is code


def test_dense_and_exact_routes_agree_on_precedence() -> None:
    # Same faults as above, inside a text big and dense enough for the fast route.
    assert rejection(padded('[{"a": 1, "a": 2}, NaN]')).code is Code.DUPLICATE_KEY
    assert rejection(padded('[NaN, {"a": 1, "a": 2}]')).code is Code.NON_FINITE_NUMBER


# --------------------------------------------------------------------------
# Parameters


def test_max_depth_parameter() -> None:
    assert loads_strict("[[[]]]", max_depth=3) == [[[]]]
    assert rejection("[[[[]]]]", max_depth=3).code is Code.LIMIT_EXCEEDED
    assert loads_strict("1", max_depth=0) == 1
    assert rejection("[]", max_depth=0).code is Code.LIMIT_EXCEEDED
    deep = "[" * 300 + "]" * 300
    assert loads_strict(deep, max_depth=300) == json.loads(deep)


def test_max_number_chars_parameter() -> None:
    assert loads_strict("[12345]", max_number_chars=5) == [12345]
    assert rejection("[123456]", max_number_chars=5).code is Code.LIMIT_EXCEEDED
    assert rejection("[-12345]", max_number_chars=5).code is Code.LIMIT_EXCEEDED
    assert rejection("[1.5e10]", max_number_chars=5).code is Code.LIMIT_EXCEEDED
    assert loads_strict('["123456789"]', max_number_chars=5) == ["123456789"]
    assert rejection("0", max_number_chars=0).code is Code.LIMIT_EXCEEDED
    assert loads_strict('"text"', max_number_chars=0) == "text"


def test_allow_lone_surrogates() -> None:
    assert loads_strict('{"a": "\\ud800"}', allow_lone_surrogates=True) == {"a": "\ud800"}
    assert loads_strict('"\ud800"', allow_lone_surrogates=True) == "\ud800"
    dense = padded('["\\ud800", "\udc00", {"k:": "\\udfff"}]')
    assert loads_strict(dense, allow_lone_surrogates=True) == json.loads(dense)
    assert rejection('{"a": NaN}', allow_lone_surrogates=True).code is Code.NON_FINITE_NUMBER


# --------------------------------------------------------------------------
# find_lone_surrogate


@pytest.mark.parametrize(
    ("s", "index"),
    [
        ("", -1),
        ("plain ascii", -1),
        ("São Paulo 😀", -1),
        ("\ud800", 0),
        ("ab\udc00", 2),
        ("é\ud83d\ude00", 1),  # two code points, not an astral character
        ("\\ud800", -1),  # an escape in text is not a code point
    ],
    ids=["empty", "ascii", "non-ascii", "high", "low", "separate-pair", "escape-text"],
)
def test_find_lone_surrogate(s: str, index: int) -> None:
    assert find_lone_surrogate(s) == index


# --------------------------------------------------------------------------
# Hostile input: must be fast (no assertion on time, but each finishes in
# well under a second) and must fail with a ProtocolError, never
# RecursionError or ValueError.


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 100_000,
        '{"a":' * 100_000 + "1" + "}" * 100_000,
        '[{"a":' * 50_000,
        '["[[[[", ' + "[" * 100_000,
    ],
    ids=["open", "closed", "objects-open", "objects-closed", "mixed", "after-string"],
)
def test_deep_nesting_is_a_limit(text: str) -> None:
    error = rejection(text)
    assert error.code is Code.LIMIT_EXCEEDED
    assert "offset" in error.message


def test_deep_nesting_with_large_max_depth_does_not_escape() -> None:
    error = rejection("[" * 100_000 + "]" * 100_000, max_depth=1_000_000)
    assert error.code is Code.LIMIT_EXCEEDED


def test_million_digit_number() -> None:
    assert rejection("1" * 1_000_000).code is Code.LIMIT_EXCEEDED
    assert rejection('{"n": ' + "1" * 1_000_000 + "}").code is Code.LIMIT_EXCEEDED
    assert rejection("0." + "1" * 1_000_000).code is Code.LIMIT_EXCEEDED
    assert rejection("1e" + "9" * 1_000_000).code is Code.LIMIT_EXCEEDED


def test_million_digit_number_allowed_by_limit_is_still_safe() -> None:
    error = rejection("1" * 1_000_000, max_number_chars=2_000_000)
    assert error.code is Code.LIMIT_EXCEEDED


def test_big_string_value_parses() -> None:
    big = "x" * 20_000_000
    assert loads_strict('{"data": "' + big + '"}') == {"data": big}


def test_big_string_value_with_escapes_parses() -> None:
    chunk = 'line with "quotes", [brackets], {braces}: and \\ backslashes\n'
    big = chunk * 300_000
    text = json.dumps({"data": big})
    assert loads_strict(text) == {"data": big}
    assert loads_strict(json.dumps({"data": big}, ensure_ascii=False)) == {"data": big}


def test_big_string_with_lone_surrogate_at_the_end() -> None:
    text = '{"data": "' + "x" * 5_000_000 + '\\udc00"}'
    assert rejection(text).code is Code.INVALID_UNICODE


def test_many_small_objects() -> None:
    rows = [
        {"id": i, "name": f"n{i}", "tags": ["a", "b"], "geo": {"x": 1.5}} for i in range(20_000)
    ]
    text = json.dumps(rows)
    assert loads_strict(text) == rows
    dup = text[:-1] + ', {"k": 1, "k": 2}]'
    error = rejection(dup)
    assert error.code is Code.DUPLICATE_KEY and error.path == "/20000"


def test_dense_text_with_escaped_quotes_and_colons() -> None:
    rows = [{"arguments": '{"city": "S\\u00e3o", "n": [1, 2]}', "i": i} for i in range(3_000)]
    for ensure_ascii in (True, False):
        text = json.dumps({"chunks": rows}, ensure_ascii=ensure_ascii, indent=2)
        assert loads_strict(text) == {"chunks": rows}
        broken = text.replace('"i": 7\n', '"i": 7, "i": 8\n', 1)
        assert broken != text
        error = rejection(broken)
        assert error.code is Code.DUPLICATE_KEY and error.path == "/chunks/7"


# --------------------------------------------------------------------------
# Properties

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=8), children, max_size=6)
    ),
    max_leaves=40,
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(json_values, st.booleans(), st.sampled_from([None, 1, 2]))
def test_round_trip_matches_json_loads(value: Any, ensure_ascii: bool, indent: int | None) -> None:
    text = json.dumps(value, ensure_ascii=ensure_ascii, indent=indent)
    assert loads_strict(text) == json.loads(text)


small_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(small_json_values, min_size=60, max_size=120), st.booleans())
def test_round_trip_of_dense_documents(values: list[Any], ensure_ascii: bool) -> None:
    text = json.dumps(
        [{"row": i, "value": v} for i, v in enumerate(values)], ensure_ascii=ensure_ascii
    )
    assert loads_strict(text) == json.loads(text)


def check_total(text: str) -> None:
    """loads_strict either agrees with json.loads or raises a known ProtocolError."""
    try:
        value = loads_strict(text)
    except ProtocolError as error:
        assert error.code in ALL_CODES
        assert isinstance(error.message, str) and error.message
        return
    assert value == json.loads(text) or value != value  # nan never comes back


@settings(max_examples=1000)
@given(st.text())
@example("")
@example("[" * 2000)
@example('{"a":1,"a":2}')
@example('"\\ud800"')
@example("1e999")
@example("\\")
@example('"\\')
def test_fuzz_arbitrary_text(text: str) -> None:
    check_total(text)


json_alphabet = st.sampled_from([*'{}[]:,"\\ \n0123456789.eE+-tfnulrsaNIyi', "\\u", "\\ud800"])


@settings(max_examples=1000)
@given(st.lists(json_alphabet, max_size=60).map("".join))
def test_fuzz_json_like_text(text: str) -> None:
    check_total(text)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    small_json_values, st.integers(min_value=0, max_value=10_000), st.text(min_size=1, max_size=3)
)
def test_fuzz_mutated_documents(value: Any, position: int, insert: str) -> None:
    text = json.dumps({"rows": [value] * 30, "v": value})
    position %= len(text) + 1
    check_total(text[:position] + insert + text[position:])
    check_total(text[:position] + text[position + len(insert) :])


# Keys and strings made of the characters the structure scans care about.
tricky_text = st.text(
    alphabet=st.sampled_from(list(':"\\[]{},/ bfnrtu\nx\u00e9\U0001f600')), max_size=8
)


@st.composite
def documents_maybe_with_duplicates(draw: st.DrawFn) -> tuple[str, str | None]:
    """A dense document (JSON text) and the pointer of an object into which a
    duplicate key was written, or None."""
    rows = draw(
        st.lists(
            st.dictionaries(
                tricky_text,
                st.one_of(
                    tricky_text,
                    st.integers(),
                    st.lists(tricky_text, max_size=3),
                    st.dictionaries(tricky_text, tricky_text, max_size=3),
                ),
                min_size=1,
                max_size=4,
            ),
            min_size=30,
            max_size=60,
        )
    )
    ensure_ascii = draw(st.booleans())
    indent = draw(st.sampled_from([None, 1]))
    parts = [json.dumps(row, ensure_ascii=ensure_ascii, indent=indent) for row in rows]
    duplicate = None
    if draw(st.booleans()):
        index = draw(st.integers(min_value=0, max_value=len(rows) - 1))
        key = next(iter(rows[index]))
        extra = json.dumps({key: draw(tricky_text)}, ensure_ascii=ensure_ascii)
        parts[index] = parts[index][:-1].rstrip() + ", " + extra[1:]
        duplicate = f"/rows/{index}"
    return '{"rows": [' + ", ".join(parts) + "]}", duplicate


def has_duplicate_keys(text: str) -> bool:
    found = False

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal found
        found = found or len({k for k, _ in pairs}) != len(pairs)
        return dict(pairs)

    json.loads(text, object_pairs_hook=hook)
    return found


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(documents_maybe_with_duplicates())
def test_duplicates_are_found_exactly_in_dense_documents(case: tuple[str, str | None]) -> None:
    text, duplicate = case
    assert has_duplicate_keys(text) == (duplicate is not None)
    if duplicate is None:
        assert loads_strict(text) == json.loads(text)
    else:
        error = rejection(text)
        assert error.code is Code.DUPLICATE_KEY
        assert error.path == duplicate
