"""The objects inside the Responses echoes and items, closed by type
(``openai_responses_members.UNIONS``) or as one kind (``SHAPES``): the tool
choice, the prompt's variables, a function call's caller, the built-in
tools' items and the echoed tools.  An unknown member at each blocks naming
its path, an unknown type blocks naming the type, every listed member is
accepted, and the open levels take any member."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.support.every_level.openai_responses import CASES
from tests.support.every_level.walk import level_name, objects
from toolstream import validate
from toolstream.profiles import openai_responses_members as members

_CASES = dict(CASES)
_CALL_TURN = "function call, response echoes and reports"
_BUILT_IN = "built-in tools' items, tools of every kind, allowed tools"
_TOOL_SEARCH = "a tool search the provider runs, other tool shapes, an MCP tool choice"
_TEXT_TURN = "text only, json_schema text format"

Path = tuple[str | int, ...]

LOCATIONS: dict[str, tuple[str, Path]] = {
    # unions by type
    "tool": (_BUILT_IN, ("tools", 1)),
    "tool_choice": (_CALL_TURN, ("tool_choice",)),
    "moderation": (_CALL_TURN, ("moderation", "input")),
    "input_transformations[]": (_CALL_TURN, ("input_transformations", 0)),
    "prompt_cache_diagnostics": (_CALL_TURN, ("prompt_cache_diagnostics",)),
    "tool_choice.tools[]": (_BUILT_IN, ("tool_choice", "tools", 0)),
    "prompt.variables": (_CALL_TURN, ("prompt", "variables", "style")),
    "web_search_call.action": (_BUILT_IN, ("output", 0, "action")),
    "web_search_call.action.sources[]": (_BUILT_IN, ("output", 0, "action", "sources", 0)),
    "code_interpreter_call.outputs[]": (_BUILT_IN, ("output", 2, "outputs", 0)),
    "mcp_call.error": (_BUILT_IN, ("output", 6, "error")),
    "caller": (_CALL_TURN, ("output", 0, "caller")),
    "file_search.filters": (_BUILT_IN, ("tools", 1, "filters")),
    "network_policy": (_BUILT_IN, ("tools", 3, "container", "network_policy")),
    "code_interpreter.container": (_BUILT_IN, ("tools", 3, "container")),
    "shell.environment": (_BUILT_IN, ("tools", 5, "environment")),
    "skills[]": (_BUILT_IN, ("tools", 5, "environment", "skills", 0)),
    "inline_skill.source": (_BUILT_IN, ("tools", 5, "environment", "skills", 1, "source")),
    "custom.format": (_BUILT_IN, ("tools", 6, "format")),
    "namespace.tools[]": (_BUILT_IN, ("tools", 7, "tools", 0)),
    # objects of one kind
    "file_search_call.results[]": (_BUILT_IN, ("output", 1, "results", 0)),
    "image_generation_call.error": (_BUILT_IN, ("output", 4, "error")),
    "image_generation_call.error.moderation_details": (
        _BUILT_IN,
        ("output", 4, "error", "moderation_details"),
    ),
    "image_generation_call.svg_usage": (_BUILT_IN, ("output", 3, "svg_usage")),
    "mcp_list_tools.tools[]": (_BUILT_IN, ("output", 5, "tools", 0)),
    "prompt_cache_breakpoint": (
        _CALL_TURN,
        ("prompt", "variables", "style", "prompt_cache_breakpoint"),
    ),
    "file_search.ranking_options": (_BUILT_IN, ("tools", 1, "ranking_options")),
    "file_search.ranking_options.hybrid_search": (
        _BUILT_IN,
        ("tools", 1, "ranking_options", "hybrid_search"),
    ),
    "web_search.filters": (_TOOL_SEARCH, ("tools", 0, "filters")),
    "user_location": (_TOOL_SEARCH, ("tools", 0, "user_location")),
    "mcp.allowed_tools": (_BUILT_IN, ("tools", 2, "allowed_tools")),
    "mcp.require_approval": (_BUILT_IN, ("tools", 2, "require_approval")),
    "network_policy.domain_secrets[]": (
        _BUILT_IN,
        ("tools", 3, "container", "network_policy", "domain_secrets", 0),
    ),
    "local.skills[]": (_TOOL_SEARCH, ("tools", 2, "environment", "skills", 0)),
    "image_generation.input_image_mask": (_BUILT_IN, ("tools", 4, "input_image_mask")),
    "image_generation.svg": (_BUILT_IN, ("tools", 4, "svg")),
    "image_generation.svg.reasoning": (_BUILT_IN, ("tools", 4, "svg", "reasoning")),
    # the echoed instructions as input items
    "instructions[]": (_TEXT_TURN, ("instructions", 0)),
    "instructions[].content[]": (_TEXT_TURN, ("instructions", 0, "content", 0)),
    "annotation": (_TEXT_TURN, ("instructions", 1, "content", 0, "annotations", 0)),
    "logprob": (_TEXT_TURN, ("instructions", 1, "content", 0, "logprobs", 0)),
    "top_logprob": (
        _TEXT_TURN,
        ("instructions", 1, "content", 0, "logprobs", 0, "top_logprobs", 0),
    ),
}
"""Shape -> a case and the path, in its ``response.completed`` response, of
an object of that shape."""

_UNKNOWN = "zzUnknown"


def test_every_shape_has_a_location() -> None:
    assert set(LOCATIONS) == set(members.UNIONS) | set(members.SHAPES)


def _placements(shape: str) -> list[tuple[dict[str, Any], Path, str]]:
    """(case, path of the object from the case's events, the level a finding
    names): in the completed response, and, for what is inside an output
    item, in the item's output_item.done event too."""
    name, path = LOCATIONS[shape]
    case = copy.deepcopy(_CASES[name])
    # (each event its own copy: the cases share the echoed objects between
    # their lifecycle events, and a change here is to one event)
    case["events"] = events = [copy.deepcopy(event) for event in case["events"]]
    completed = len(events) - 1
    level = "response.completed." + level_name(("response", *path))
    out = [(case, (completed, "response", *path), level)]
    if path[0] == "output":
        index = path[1]
        done = next(
            i
            for i, event in enumerate(events)
            if event["type"] == "response.output_item.done" and event["output_index"] == index
        )
        inner = path[2:]
        out.append((case, (done, "item", *inner), level_name(("item", *inner))))
    return out


def _put(case: dict[str, Any], path: Path, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(case)
    target: Any = out["events"]
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return out


def _get(case: dict[str, Any], path: Path) -> Any:
    target: Any = case["events"]
    for step in path:
        target = target[step]
    return target


def _messages(case: dict[str, Any]) -> list[str]:
    report = validate(case)
    assert report.status == "blocked", report.to_json()
    return [f.message for f in report.findings if f.code == "unsupported_event"]


def _names(message: str, path: str) -> bool:
    """The unknown-member finding names ``path`` (its last 77 characters
    when the message shortens it)."""
    if len(path) > 80:
        return f"member ...{path[-77:]} is not one" in message
    return f"member {path} is not one" in message


def _variants(shape: str) -> list[tuple[str | None, frozenset[str]]]:
    union = members.UNIONS.get(shape)
    if union is None:
        return [(None, members.SHAPES[shape])]
    return sorted(union.items())


_SITES = [
    (shape, kind, at)
    for shape in sorted(LOCATIONS)
    for kind, _ in _variants(shape)
    for at in range(len(_placements(shape)))
]


def _object(kind: str | None, known: frozenset[str]) -> dict[str, Any]:
    # Every member the type lists, as the null the API sends for an absent value.
    obj: dict[str, Any] = dict.fromkeys(known)
    if kind is not None:
        obj["type"] = kind
    return obj


@pytest.mark.parametrize(("shape", "kind", "at"), _SITES)
def test_every_listed_member_is_accepted(shape: str, kind: str | None, at: int) -> None:
    case, path, _ = _placements(shape)[at]
    known = dict(_variants(shape))[kind]
    report = validate(_put(case, path, _object(kind, known)))
    assert not report.findings, (shape, kind, report.to_json())


@pytest.mark.parametrize(("shape", "kind", "at"), _SITES)
def test_an_unknown_member_blocks_naming_its_path(shape: str, kind: str | None, at: int) -> None:
    case, path, level = _placements(shape)[at]
    known = dict(_variants(shape))[kind]
    obj = _object(kind, known) | {_UNKNOWN: 1}
    messages = _messages(_put(case, path, obj))
    # (an array entry's level ends in [] in the path, as the walker names it;
    # a long path keeps its end)
    assert any(_names(m, f"{level}.{_UNKNOWN}") for m in messages), messages


@pytest.mark.parametrize("shape", sorted(members.UNIONS))
def test_an_unknown_type_blocks_naming_it(shape: str) -> None:
    for case, path, level in _placements(shape):
        messages = _messages(_put(case, path, {"type": "zz_type"}))
        assert any(_names(m, f"{level}.type='zz_type'") for m in messages), messages


def test_the_shapes_in_the_cases_are_valid_as_written() -> None:
    # (the placements point at objects of their shape)
    for shape in LOCATIONS:
        for case, path, _ in _placements(shape):
            assert isinstance(_get(case, path), dict), shape
            assert not validate(case).findings, shape


def test_a_function_calls_caller_is_closed_where_the_call_is_added_and_done() -> None:
    case = _CASES[_CALL_TURN]
    for i, event in enumerate(case["events"]):
        if event["type"] not in ("response.output_item.added", "response.output_item.done"):
            continue
        changed = _put(case, (i, "item", "caller"), {"type": "program", "caller_id": "p", "zz": 1})
        assert any("member item.caller.zz is not one" in m for m in _messages(changed))
        changed = _put(case, (i, "item", "caller"), {"type": "zz_caller"})
        assert any(
            "member item.caller.type='zz_caller' is not one" in m for m in _messages(changed)
        )


def test_a_prompt_variable_of_an_unknown_type_blocks_naming_the_variable() -> None:
    case = _CASES[_CALL_TURN]
    path = (len(case["events"]) - 1, "response", "prompt", "variables", "tone")
    messages = _messages(_put(case, path, {"type": "input_audio", "data": "x"}))
    expected = "member response.completed.response.prompt.variables.tone.type='input_audio'"
    assert any(expected in m for m in messages), messages
    # a string value, and any variable name, are the caller's
    report = validate(_put(case, path, "calm"))
    assert report.status == "pass", report.to_json()


def test_a_tool_choice_string_is_not_an_object_to_close() -> None:
    case = _CASES[_CALL_TURN]
    for choice in ("none", "auto", "required"):
        path = (len(case["events"]) - 1, "response", "tool_choice")
        assert validate(_put(case, path, choice)).status == "pass", choice


@pytest.mark.parametrize("kind", ["zz_item", "computer_call", "function_call_output"])
def test_an_item_the_profile_does_not_read_in_the_output_blocks_unless_added(kind: str) -> None:
    # An item in response.output that no output_item.added announced, of a
    # type the profile has no set for: it blocks, named by its type.
    case = _CASES[_CALL_TURN]
    completed = len(case["events"]) - 1
    output = [*_get(case, (completed, "response", "output")), {"type": kind, "id": "x_1"}]
    messages = _messages(_put(case, (completed, "response", "output"), output))
    expected = f"member response.completed.response.output[].type={kind!r} is not one"
    assert any(expected in m for m in messages), messages


def test_an_added_item_of_an_unknown_type_is_reported_once_where_it_is_added() -> None:
    case = copy.deepcopy(_CASES[_BUILT_IN])
    events = case["events"]
    head = {"type": "zz_item", "id": "zz_1"}
    at = len(events) - 1
    events[at:at] = [
        {"type": "response.output_item.added", "output_index": 9, "item": head},
        {"type": "response.output_item.done", "output_index": 9, "item": head},
    ]
    # (the output indices of the case run 0..8: the unknown item is the next)
    events[-1]["response"]["output"].append(dict(head))
    report = validate(case)
    assert report.status == "blocked"
    unknown = [f for f in report.findings if "zz_item" in f.message]
    assert len(unknown) == 1 and "unknown output item type 'zz_item'" in unknown[0].message


def test_every_open_level_takes_any_member() -> None:
    # The levels open on purpose, wherever a case holds them: a member
    # nobody knows there leaves the case valid.
    opened = {**members.OPEN_LEVELS, **members.OPEN_ARRAY_LEVELS}
    seen: set[str] = set()
    for name, case in CASES:
        for number, event in enumerate(case["events"]):
            for path in objects(event):
                level = level_name(path)
                if level not in opened:
                    continue
                seen.add(level)
                changed = copy.deepcopy(case)
                target: Any = changed["events"][number]
                for step in path:
                    target = target[step]
                target[_UNKNOWN] = 1
                report = validate(changed)
                assert not report.findings, (name, level, report.to_json())
    assert seen == set(opened)


@pytest.mark.parametrize(
    ("entry", "named"),
    [
        (
            {"type": "function_call", "call_id": "c", "name": "weather", "arguments": "{}"},
            "instructions[].type='function_call'",
        ),
        ({"role": "developer", "content": "Be brief."}, "response.instructions[]"),
        (
            {"type": "message", "role": "developer", "content": [{"type": "zz"}]},
            "instructions[].content[].type='zz'",
        ),
    ],
    ids=["another item type", "no type", "unknown content part"],
)
def test_an_instructions_entry_of_another_type_blocks(entry: dict[str, Any], named: str) -> None:
    # The echoed instructions as input items: messages only, each part by type.
    case = copy.deepcopy(_CASES[_TEXT_TURN])
    case["events"][0]["response"]["instructions"].append(entry)
    report = validate(case)
    assert report.status == "blocked", report.to_json()
    assert any(named in f.message for f in report.findings), report.to_json()
