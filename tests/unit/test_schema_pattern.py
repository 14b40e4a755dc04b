"""The ``pattern`` engine (``toolstream.schema._regex``): pathological
patterns are bounded, and the engine agrees with ``re`` on the common subset.
(How long they take is a benchmark: ``make bench-patterns``.)
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolstream.findings import Code
from toolstream.schema import (
    _regex,
    check_schema,
    first_violation,
)

# --- pattern: backtracking and the engine -----------------------------------------------------


@pytest.mark.parametrize(
    "pattern",
    ["^(a+)+$", "^(a|aa)*$", "^(\\w*)*$", "\\d+\\d+x", "^(.*a){12}$", "^(a|a?)+$"],
)
def test_catastrophic_patterns_finish_quickly(pattern: str) -> None:
    schema = {"type": "object", "properties": {"s": {"pattern": pattern}}}
    check_schema(schema)
    subject = ("1" if "\\d" in pattern else "a") * 100_000 + "!"
    violation = first_violation(schema, {"s": subject})  # its time: bench/patterns.py
    assert violation is not None
    assert (violation.path, violation.keyword) == ("/s", "pattern")


def test_pattern_work_budget_fails_closed() -> None:
    # An exponential DFA: every position is a new automaton state.
    schema = {"pattern": "(a|b)*a(a|b){40}c"}
    check_schema(schema)
    chooser = random.Random(0)
    subject = "".join(chooser.choice("ab") for _ in range(100_000))
    violation = first_violation(schema, subject)  # its time: bench/patterns.py
    assert violation is not None and "work budget" in violation.message


def test_pattern_on_a_long_string_is_linear() -> None:
    # Whether it is linear is timed by bench/patterns.py; here, the answers.
    schema = {"pattern": "^[a-z0-9._-]+@[a-z0-9-]+(?:\\.[a-z]{2,})+$"}
    assert first_violation(schema, "a" * 1_000_000 + "@b.io") is None
    assert first_violation(schema, "a" * 1_000_000 + "@b") is not None


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
