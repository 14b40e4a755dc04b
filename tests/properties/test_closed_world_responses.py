"""The Responses request echoes and reports closed in this round: an unknown
member at each of them blocks the turn naming it; every listed member is
accepted (``openai_responses_members.RESPONSE_LEVELS``, ``TOOLS``)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.every_level.openai_responses import CASES
from toolstream import validate
from toolstream.profiles import openai_responses_members as members

_TURN: dict[str, Any] = dict(CASES)["function call, response echoes and reports"]
_ECHO_LEVELS = sorted(
    level
    for level in members.RESPONSE_LEVELS
    if level.startswith("response.")
    and level != "response.usage"
    and not level.startswith("response.usage.")
)
_UNKNOWN = st.from_regex(r"[a-zA-Z_][a-zA-Z0-9_]{0,30}", fullmatch=True)
_LIFECYCLE_AT = (0, 1, -1)
"""response.created, response.in_progress, response.completed in the turn."""


def _object(response: dict[str, Any], level: str) -> dict[str, Any]:
    target = response
    for key in level.split(".")[1:]:
        if not isinstance(target.get(key), dict):
            target[key] = {}
        target = target[key]
    return target


def _blocked_naming(case: dict[str, Any], name: str) -> bool:
    report = validate(case)
    return report.status == "blocked" and any(
        f.code == "unsupported_event" and f".{name} is not one" in f.message
        for f in report.findings
    )


@settings(max_examples=200, deadline=None, database=None)
@given(data=st.data())
def test_an_unknown_member_of_a_response_echo_blocks_naming_it(data: st.DataObject) -> None:
    level = data.draw(st.sampled_from(_ECHO_LEVELS), label="level")
    at = data.draw(st.sampled_from(_LIFECYCLE_AT), label="event")
    known = members.RESPONSE_LEVELS[level]
    name = data.draw(_UNKNOWN.filter(lambda n: n not in known), label="name")
    case = copy.deepcopy(_TURN)
    _object(case["events"][at]["response"], level)[name] = data.draw(st.integers(), label="v")
    assert _blocked_naming(case, name)


@settings(max_examples=200, deadline=None, database=None)
@given(data=st.data())
def test_an_unknown_member_of_an_echoed_tool_blocks_naming_it(data: st.DataObject) -> None:
    tool_type = data.draw(st.sampled_from(sorted(members.TOOLS)), label="tool")
    name = data.draw(_UNKNOWN.filter(lambda n: n not in members.TOOLS[tool_type]), label="name")
    case = copy.deepcopy(_TURN)
    at = data.draw(st.sampled_from(_LIFECYCLE_AT), label="event")
    case["events"][at]["response"]["tools"].append({"type": tool_type, name: 1})
    assert _blocked_naming(case, name)


@settings(max_examples=50, deadline=None, database=None)
@given(
    kind=st.from_regex(r"[a-z_0-9]{1,30}", fullmatch=True).filter(lambda k: k not in members.TOOLS)
)
def test_a_tool_of_an_unknown_type_blocks_naming_its_type(kind: str) -> None:
    case = copy.deepcopy(_TURN)
    case["events"][-1]["response"]["tools"].append({"type": kind})
    report = validate(case)
    assert report.status == "blocked"
    assert any("response.tools[].type=" in f.message for f in report.findings)


@settings(max_examples=100, deadline=None, database=None)
@given(data=st.data())
def test_every_listed_member_is_accepted(data: st.DataObject) -> None:
    case = copy.deepcopy(_TURN)
    response = case["events"][-1]["response"]
    level = data.draw(st.sampled_from(_ECHO_LEVELS), label="level")
    nested = members.RESPONSE_NESTED.get(level, ())
    target = _object(response, level)
    for member in data.draw(
        st.sets(st.sampled_from(sorted(members.RESPONSE_LEVELS[level]))), label="members"
    ):
        if member not in nested:
            target[member] = None
    tool_type = data.draw(st.sampled_from(sorted(members.TOOLS)), label="tool")
    if tool_type != "function":
        # Only tools of other types: the function tool's name is the one
        # the call uses.
        response["tools"].append(
            {member: None for member in members.TOOLS[tool_type]} | {"type": tool_type}
        )
    report = validate(case)
    assert report.status == "pass", report.to_json()
