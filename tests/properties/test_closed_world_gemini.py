"""Closed this round for gemini and gemini-interactions.

Gemini: every object below the chunk, candidate and part (a candidate's
reports, a part's inner objects, ``partialArgs`` entries): an unknown member
at any of them blocks naming it, every listed member is accepted
(``gemini_members.CANDIDATE_LEVELS``, ``PART_LEVELS``), and a call with a
name and no ``args`` is still the no-argument call.

Gemini Interactions: every step type and delta type is closed by its
members, and so is every object inside (contents, annotations, media
processing by their own ``type``; the built-in tools' arguments and
results); an unknown type blocks; the events' metadata and the usage arrays'
entries are closed; every listed member is accepted.  The built-in tools'
``arguments`` share their path (``step.arguments``) with a function call's,
which is open, so the walker leaves them out: they are put to the test here.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.builders_gemini_cohere_invoke import (
    gem_call,
    gem_chunk,
    gemini,
    gi_call,
    gi_turn,
    interactions,
)
from tests.support.every_level import gemini as gem_cases
from tests.support.every_level import gemini_interactions as gi_cases
from tests.support.every_level.walk import sites, with_member
from toolstream import validate
from toolstream.profiles import gemini_interactions_members as gi_members
from toolstream.profiles import gemini_members

_UNKNOWN = st.from_regex(r"zz[a-zA-Z0-9_]{0,30}", fullmatch=True)
_VALUE: st.SearchStrategy[Any] = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=4), st.just({}), st.just([])
)


def _blocked(case: dict[str, Any], text: str) -> bool:
    report = validate(case)
    return report.status == "blocked" and any(
        f.code == "unsupported_event" and text in f.message for f in report.findings
    )


def _sites(cases: list[tuple[str, dict[str, Any]]]) -> list[tuple[dict[str, Any], Any]]:
    return [(case, site) for _, case in cases for site in sites(case)]


_GEMINI_SITES = _sites(gem_cases.CASES)
_GI_SITES = _sites(gi_cases.CASES)


# -- gemini ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_an_unknown_member_anywhere_in_a_gemini_turn_blocks_naming_it(
    data: st.DataObject,
) -> None:
    case, site = data.draw(st.sampled_from(_GEMINI_SITES), label="site")
    name = data.draw(_UNKNOWN, label="name")
    value = data.draw(_VALUE, label="value")
    assert _blocked(with_member(case, site, name, value), name[:40]), site.level


def _nested(path: list[str], inner: dict[str, Any]) -> Any:
    # The object at ``path`` (walker notation, ``x[]``: one entry of x),
    # built from the leaf up.
    value: Any = inner
    for step in reversed(path):
        value = {step.removesuffix("[]"): [value] if step.endswith("[]") else value}
    return value


def _candidate_with(level: str, inner: dict[str, Any]) -> dict[str, Any]:
    # A text turn whose finishing candidate holds ``inner`` at ``level``.
    steps = level.split(".")[1:]  # after "candidates[]"
    finish = gem_chunk({"text": "Hi"}, finish="STOP")
    finish["candidates"][0].update(_nested(steps, inner))
    return gemini([gem_chunk({"text": "Sunny"}), finish])


def _part_with(level: str, inner: dict[str, Any]) -> dict[str, Any]:
    # A text turn whose first part holds ``inner`` at ``level``.
    steps = level.split(".")[3:]  # after "candidates[].content.parts[]"
    part: dict[str, Any] = {"text": "Hi", **_nested(steps, inner)}
    return gemini([gem_chunk(part), gem_chunk({"text": "."}, finish="STOP")])


def _with(level: str, inner: dict[str, Any]) -> dict[str, Any]:
    if level.startswith("candidates[].content.parts[]."):
        return _part_with(level, inner)
    return _candidate_with(level, inner)


_GEMINI_LEVELS = {
    **gemini_members.CANDIDATE_LEVELS,
    **{
        level: known
        for level, known in gemini_members.PART_LEVELS.items()
        if level != gemini_members.PARTIAL_ARG_LEVEL  # read by the reassembly
    },
}


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_an_unknown_member_at_each_closed_gemini_level_blocks_naming_it(
    data: st.DataObject,
) -> None:
    level = data.draw(st.sampled_from(sorted(_GEMINI_LEVELS)), label="level")
    name = data.draw(_UNKNOWN, label="name")
    case = _with(level, {name: data.draw(_VALUE, label="value")})
    assert _blocked(case, f".{name[:40]} is not one"), level


def test_every_member_a_gemini_level_lists_is_accepted() -> None:
    for level, known in _GEMINI_LEVELS.items():
        report = validate(_with(level, dict.fromkeys(known)))
        assert not report.findings, (level, report.to_json())


@settings(max_examples=100, deadline=None, database=None)
@given(name=_UNKNOWN)
def test_an_unknown_partial_arg_member_blocks_naming_it(name: str) -> None:
    case = copy.deepcopy(dict(gem_cases.CASES)["streamed and no-argument calls"])
    case["chunks"][1]["candidates"][0]["content"]["parts"][0]["functionCall"]["partialArgs"][0][
        name
    ] = 1
    assert _blocked(case, f"partialArgs[].{name[:40]}")


@settings(max_examples=50, deadline=None, database=None)
@given(with_id=st.booleans(), thought=st.booleans())
def test_a_call_with_a_name_and_no_args_is_the_no_argument_call(
    with_id: bool, thought: bool
) -> None:
    # Issue 25's field case: functionCall {name} (no args) still passes.
    call: dict[str, Any] = {"name": "clock"}
    if with_id:
        call["id"] = "call_1"
    part: dict[str, Any] = {"functionCall": call}
    if thought:
        part["thoughtSignature"] = "c2ln"
    report = validate(gemini([gem_chunk(part, finish="STOP")]))
    assert report.status == "pass", report.to_json()
    assert report.calls[0].arguments == "{}"


def test_a_grounding_chunk_of_an_unknown_kind_names_its_key() -> None:
    case = _candidate_with("candidates[].groundingMetadata", {"groundingChunks": [{"zzKind": {}}]})
    assert _blocked(case, "groundingChunks[].zzKind")


def test_the_open_gemini_objects_take_any_member() -> None:
    # A call's args (checked against the tool's schema), a built-in tool's
    # args and response, the caller's part metadata.
    clock = gem_call("clock", args={"zzAny": {"zzDeeper": 1}})
    tool = {"toolCall": {"id": "t", "toolType": "GOOGLE_SEARCH_WEB", "args": {"zzAny": 1}}}
    reply = {"toolResponse": {"id": "t", "response": {"zzAny": 1}}}
    meta = {"text": "x", "partMetadata": {"zzAny": 1}}
    case = gemini([gem_chunk(tool, reply, meta, clock, finish="STOP")])
    report = validate(case)
    assert report.status == "pass", report.to_json()


# -- gemini-interactions ----------------------------------------------------------------


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_an_unknown_member_anywhere_in_an_interactions_turn_blocks_naming_it(
    data: st.DataObject,
) -> None:
    case, site = data.draw(st.sampled_from(_GI_SITES), label="site")
    name = data.draw(_UNKNOWN, label="name")
    value = data.draw(_VALUE, label="value")
    assert _blocked(with_member(case, site, name, value), name[:40]), site.level


def _with_step(step: dict[str, Any], *deltas: dict[str, Any]) -> dict[str, Any]:
    # A tool turn with ``step`` (and its deltas) at index 1, before the call.
    events = gi_turn(gi_call(0))
    extra = [
        {"event_type": "step.start", "index": 1, "step": step},
        *({"event_type": "step.delta", "index": 1, "delta": d} for d in deltas),
        {"event_type": "step.stop", "index": 1},
    ]
    events[-1:-1] = extra
    return interactions(events)


_TYPED = {**gi_members.STEP_MEMBERS, **gi_members.SERVER_STEP_MEMBERS}


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_an_unknown_member_of_any_step_or_delta_type_blocks_naming_it(
    data: st.DataObject,
) -> None:
    name = data.draw(_UNKNOWN, label="name")
    if data.draw(st.booleans(), label="delta"):
        kind = data.draw(st.sampled_from(sorted(gi_members.DELTA_MEMBERS)), label="delta type")
        case = _with_step({"type": "model_output"}, {"type": kind, name: 1})
        assert _blocked(case, f"step.delta.delta.{name[:40]}"), kind
    else:
        kind = data.draw(st.sampled_from(sorted(_TYPED)), label="step type")
        own = {"id": "s_1"} if kind in gi_members.SERVER_STEP_MEMBERS else {}
        case = _with_step({"type": kind, **own, name: 1})
        assert _blocked(case, f"step.start.step.{name[:40]}"), kind


_BUILT_IN_ARGUMENTS = {
    step: shape
    for step, inner in gi_members.STEP_INNER.items()
    for member, shape in inner.items()
    if member == "arguments"
}


@settings(max_examples=200, deadline=None, database=None)
@given(data=st.data())
def test_a_built_in_tools_arguments_are_closed_in_a_step_a_delta_and_an_interaction(
    data: st.DataObject,
) -> None:
    kind = data.draw(st.sampled_from(sorted(_BUILT_IN_ARGUMENTS)), label="step type")
    name = data.draw(_UNKNOWN, label="name")
    where = data.draw(st.sampled_from(["step", "delta", "interaction"]), label="where")
    arguments = {name: ["x"]}
    if where == "step":
        case = _with_step({"type": kind, "id": "s_1", "arguments": arguments})
    elif where == "delta":
        case = _with_step({"type": kind, "id": "s_1"}, {"type": kind, "arguments": arguments})
    else:
        case = interactions(gi_turn(gi_call(0)))
        step = {"type": kind, "id": "s_1", "arguments": arguments}
        case["events"][-1]["interaction"]["steps"] = [step]
    assert _blocked(case, f"arguments.{name[:40]}"), (kind, where)


@settings(max_examples=100, deadline=None, database=None)
@given(kind=_UNKNOWN, where=st.sampled_from(["content", "annotation", "processing", "step"]))
def test_an_object_of_an_unknown_type_blocks(kind: str, where: str) -> None:
    if where == "step":
        case = interactions(gi_turn(gi_call(0)))
        case["events"][-1]["interaction"]["steps"] = [{"type": kind}]
    else:
        content: dict[str, Any] = {"type": kind}
        if where == "annotation":
            content = {"type": "text", "text": "x", "annotations": [{"type": kind}]}
        elif where == "processing":
            content = {"type": "video", "uri": "gs://b/v", "processing": {"type": kind}}
        case = _with_step({"type": "model_output", "content": [content]})
    assert _blocked(case, f"type={kind[:40]!r}"), where


@settings(max_examples=100, deadline=None, database=None)
@given(data=st.data())
def test_an_unknown_member_of_event_metadata_or_usage_entries_blocks(data: st.DataObject) -> None:
    name = data.draw(_UNKNOWN, label="name")
    events = gi_turn(gi_call(0))
    at = data.draw(st.integers(0, len(events) - 1), label="at")
    array = data.draw(st.sampled_from(["", *sorted(gi_members.USAGE_ARRAYS)]), label="array")
    if array:
        events[at]["metadata"] = {"total_usage": {array: [{name: 1}]}}
    else:
        events[at]["metadata"] = {name: 1}
    assert _blocked(interactions(events), name[:40]), (at, array)


def _all_null(shape: str, kind: str) -> dict[str, Any]:
    return dict.fromkeys(gi_members.SHAPES[shape]) | {"type": kind}


def test_every_member_a_step_delta_or_shape_lists_is_accepted() -> None:
    for kind, known in _TYPED.items():
        own = {"id": "s_1"} if kind in gi_members.SERVER_STEP_MEMBERS else {}
        report = validate(_with_step(dict.fromkeys(known) | {"type": kind, **own}))
        assert not report.findings, (kind, report.to_json())
        case = interactions(gi_turn(gi_call(0)))
        case["events"][-1]["interaction"]["steps"] = [dict.fromkeys(known) | {"type": kind}]
        assert not validate(case).findings, kind
    for kind, known in gi_members.DELTA_MEMBERS.items():
        delta = dict.fromkeys(known) | {"type": kind}
        report = validate(_with_step({"type": "model_output"}, delta))
        assert not report.findings, (kind, report.to_json())
    contents = [_all_null(t, t) for t in gi_members.UNIONS["content"]]
    contents.append(
        {
            "type": "text",
            "text": "x",
            "annotations": [_all_null(t, t) for t in gi_members.UNIONS["annotation"]],
        }
    )
    for media in ("audio", "document", "video"):
        processing = _all_null(f"{media} processing", "static")
        contents.append({"type": media, "processing": processing})
    report = validate(_with_step({"type": "model_output", "content": contents}))
    assert not report.findings, report.to_json()


def test_the_open_interactions_objects_take_any_member() -> None:
    # A function's own result object, an MCP tool's arguments, a function
    # declaration's parameters (a JSON Schema), a file's own metadata.
    steps = [
        {"type": "function_result", "call_id": "c", "result": {"zzAny": {"zzDeeper": 1}}},
        {"type": "mcp_server_tool_call", "id": "m", "arguments": {"zzAny": 1}},
        {
            "type": "function_result",
            "call_id": "c",
            "result": [{"type": "function", "name": "f", "parameters": {"zzAny": 1}}],
        },
        {
            "type": "model_output",
            "content": [
                {
                    "type": "text",
                    "text": "x",
                    "annotations": [{"type": "file_citation", "custom_metadata": {"zzAny": 1}}],
                }
            ],
        },
    ]
    for step in steps:
        assert isinstance(step, dict)
        report = validate(_with_step(step))
        assert not report.findings, (step["type"], report.to_json())
