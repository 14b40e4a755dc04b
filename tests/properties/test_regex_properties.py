"""Unicode property escapes in ``pattern``: general categories
are run, from :mod:`unicodedata`; scripts and binary properties are refused
with the same finding as every other unsupported form."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolstream.findings import Code, ProtocolError
from toolstream.schema import check_schema
from toolstream.schema._regex import PatternError, compile_pattern

# (escape, what unicodedata says of a character it matches)
FORMS = [
    ("\\p{L}", lambda cat: cat[0] == "L"),
    ("\\p{Letter}", lambda cat: cat[0] == "L"),
    ("\\p{gc=L}", lambda cat: cat[0] == "L"),
    ("\\p{General_Category=Letter}", lambda cat: cat[0] == "L"),
    ("\\P{L}", lambda cat: cat[0] != "L"),
    ("\\p{Lu}", lambda cat: cat == "Lu"),
    ("\\p{LC}", lambda cat: cat in ("Lu", "Ll", "Lt")),
    ("\\p{Nd}", lambda cat: cat == "Nd"),
    ("\\p{digit}", lambda cat: cat == "Nd"),
    ("\\p{punct}", lambda cat: cat[0] == "P"),
    ("\\p{Combining_Mark}", lambda cat: cat[0] == "M"),
    ("\\p{Zs}", lambda cat: cat == "Zs"),
    ("\\p{Cn}", lambda cat: cat == "Cn"),
    ("\\P{Cn}", lambda cat: cat != "Cn"),
]


@settings(max_examples=300, deadline=None)
@given(
    form=st.sampled_from(FORMS),
    char=st.characters(codec=None) | st.sampled_from("aÉ1٣ _-\u0301\u2028\U0001f600\U000e0001"),
    in_class=st.booleans(),
)
def test_a_general_category_matches_what_unicodedata_says(
    form: tuple[str, object], char: str, in_class: bool
) -> None:
    escape, expected = form
    pattern = f"^[{escape}]$" if in_class else f"^{escape}$"
    assert compile_pattern(pattern).search(char) is expected(unicodedata.category(char))  # type: ignore[operator]


def test_categories_combine_with_the_rest_of_the_syntax() -> None:
    program = compile_pattern("^[\\p{Lu}\\d_]+$")
    assert program.search("ÉTÉ_2024") is True
    assert program.search("été") is False
    assert compile_pattern("^[^\\p{L}]+$").search("123 !") is True
    assert compile_pattern("^\\p{L}{2,3}$").search("日本語") is True


@pytest.mark.parametrize(
    ("pattern", "code", "words"),
    [
        ("\\p{Script=Greek}", Code.UNSUPPORTED_SCHEMA_KEYWORD, "script"),
        ("\\p{sc=Grek}", Code.UNSUPPORTED_SCHEMA_KEYWORD, "script"),
        ("\\p{scx=Latn}", Code.UNSUPPORTED_SCHEMA_KEYWORD, "script"),
        ("\\p{Alphabetic}", Code.UNSUPPORTED_SCHEMA_KEYWORD, "binary properties"),
        ("[\\P{ASCII}]", Code.UNSUPPORTED_SCHEMA_KEYWORD, "binary properties"),
        ("\\p{Greek}", Code.UNSUPPORTED_SCHEMA_KEYWORD, "not a general category"),
        ("\\p{gc=Letters}", Code.INVALID_SCHEMA, "unknown general category"),
        ("\\p", Code.INVALID_SCHEMA, "needs a {property}"),
        ("\\p{L", Code.INVALID_SCHEMA, "needs a {property}"),
    ],
)
def test_what_cannot_be_decided_is_refused(pattern: str, code: Code, words: str) -> None:
    with pytest.raises(PatternError) as caught:
        compile_pattern(pattern)
    assert caught.value.code is code
    assert words in str(caught.value)
    with pytest.raises(ProtocolError) as checked:
        check_schema({"type": "string", "pattern": pattern})
    assert checked.value.code is code
    assert checked.value.path == "/pattern"


def test_a_category_pattern_passes_the_schema_check() -> None:
    check_schema({"type": "string", "pattern": "^\\p{L}[\\p{L}\\p{Nd} ]*$"})
