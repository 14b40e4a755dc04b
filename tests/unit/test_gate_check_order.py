"""``gate.CALL_CHECK_ORDER`` is the order the gate really checks a call in,
by behaviour (``tests/unit/test_check_order.py`` holds it against the source of
``_check_call`` and the generator's ranks).

One Anthropic call is given two defects at once, for every pair of checks
that can be broken together; the finding must be the check whose step comes
first in ``CALL_CHECK_ORDER``.  (A step with several codes, the strict parse,
is represented by one of them: which of those a text breaks first depends on
where in the text it is; the schema check is held for both of its codes, one
defect each, since the two never meet in one schema here.)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.builders import (
    SCHEMAS,
    anthropic,
    anthropic_turn,
    block_stop,
    json_delta,
    tool_block,
    tool_start,
)
from toolstream import validate
from toolstream.findings import Code
from toolstream.gate import CALL_CHECK_ORDER

Spec = dict[str, Any]


def step(code: Code) -> int:
    """The position of ``code``'s check in the declared order."""
    return next(i for i, codes in enumerate(CALL_CHECK_ORDER) if code in codes)


NONE = object()
"""A start block without an ``input`` member."""

# Each defect sets some fields of the call under test; two defects that set
# the same field cannot be combined.
DEFECTS: dict[Code, tuple[frozenset[str], Callable[[Spec], None]]] = {
    Code.MISSING_ID: (frozenset({"id"}), lambda s: s.update(id=None)),
    Code.MISSING_NAME: (frozenset({"name"}), lambda s: s.update(name=None)),
    Code.DUPLICATE_ID: (frozenset({"id"}), lambda s: s.update(id="toolu_0")),
    Code.CONFLICTING_INPUT: (frozenset({"input"}), lambda s: s.update(input={"city": "Rome"})),
    # No start input at all: with one, the start input would stand.
    Code.EMPTY_ARGUMENTS: (frozenset({"text", "input"}), lambda s: s.update(text="", input=NONE)),
    Code.MALFORMED_JSON: (frozenset({"text"}), lambda s: s.update(text='{"city": ')),
    Code.NON_OBJECT_ARGUMENTS: (frozenset({"text"}), lambda s: s.update(text='["Paris"]')),
    Code.UNKNOWN_TOOL: (frozenset({"name"}), lambda s: s.update(name="no_such_tool")),
    Code.UNSUPPORTED_SCHEMA_KEYWORD: (
        frozenset({"name", "schema"}),
        lambda s: s.update(name="broken_tool", schema={"not": {}}),
    ),
    Code.INVALID_SCHEMA: (
        frozenset({"name", "schema"}),
        lambda s: s.update(name="broken_tool", schema={"type": 5}),
    ),
    Code.SCHEMA_VIOLATION: (frozenset({"text"}), lambda s: s.update(text='{"city": 1}')),
}


def fixture(spec: Spec) -> dict[str, Any]:
    """A turn with a valid call at index 0 (id ``toolu_0``) and the call
    under test at index 1."""
    schemas = dict(SCHEMAS)
    if spec["schema"] is not None:
        schemas["broken_tool"] = spec["schema"]
    start = tool_start(
        1, spec["id"], spec["name"], None if spec["input"] is NONE else spec["input"]
    )
    if spec["input"] is NONE:
        del start["content_block"]["input"]
    if spec["id"] is None:
        del start["content_block"]["id"]
    if spec["name"] is None:
        del start["content_block"]["name"]
    deltas = [json_delta(1, spec["text"])] if spec["text"] else []
    return anthropic(
        anthropic_turn(tool_block(0, "toolu_0"), [start, *deltas, block_stop(1)]),
        schemas=schemas,
    )


def clean() -> Spec:
    return {"id": "toolu_1", "name": "weather", "input": None, "text": '{"city": "Paris"}'}


def codes_of(spec: Spec) -> list[str]:
    return validate(fixture({"schema": None, **spec})).codes


def test_the_clean_call_passes() -> None:
    assert validate(fixture({"schema": None, **clean()})).executable


ORDERED: list[Code] = sorted(DEFECTS, key=step)


@pytest.mark.parametrize("code", ORDERED)
def test_each_defect_alone_gives_its_code(code: Code) -> None:
    spec = clean()
    DEFECTS[code][1](spec)
    assert codes_of(spec) == [code.value]


PAIRS = [
    (first, second)
    for first, second in itertools.combinations(sorted(DEFECTS, key=step), 2)
    if not DEFECTS[first][0] & DEFECTS[second][0]
]


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=lambda c: c.value)
def test_the_check_first_in_order_is_reported(first: Code, second: Code) -> None:
    spec = clean()
    DEFECTS[second][1](spec)
    DEFECTS[first][1](spec)
    assert codes_of(spec) == [first.value]


def test_the_defects_stand_for_every_step_but_the_limits() -> None:
    steps = {step(code) for code in DEFECTS}
    assert steps == set(range(len(CALL_CHECK_ORDER))) - {step(Code.LIMIT_EXCEEDED)}
