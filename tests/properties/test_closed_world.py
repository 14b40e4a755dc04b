"""The closed world: every item of a turn is understood by its
profile or blocks the turn.

An item taken from another wire's vocabulary, inserted anywhere in a valid
stream of a profile (a tool turn or a text-only one), must give
``unsupported_event`` and ``blocked``: never ``not_applicable`` (which
would say "no tool activity" about a stream the profile could not read) and
never ``pass``.  Provider errors, which every wire has under the name
``error``, are the one shared item: they block with ``provider_error``.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.builders import (
    anthropic,
    anthropic_turn,
    bedrock,
    bedrock_tool,
    bedrock_turn,
    br_message_start,
    br_message_stop,
    br_metadata,
    br_start,
    br_stop,
    br_text,
    chunk,
    json_delta,
    message_delta,
    message_item,
    message_start,
    message_stop,
    openai,
    resp_created,
    resp_end,
    responses,
    responses_call,
    responses_turn,
    text_chunk,
    text_delta,
    text_start,
    tool_block,
    tool_start,
    weather_call,
)
from tests.support.builders_gemini_cohere_invoke import (
    bedrock_invoke,
    co_call,
    co_turn,
    cohere,
    gem_call,
    gem_chunk,
    gem_finish,
    gemini,
    gi_call,
    gi_turn,
    interactions,
    streamed_city,
)
from tests.support.builders_gemini_cohere_invoke import (
    wrap as invoke_frame,
)
from toolstream import validate
from toolstream.profiles import anthropic as anthropic_profile
from toolstream.profiles import (
    anthropic_members,
    bedrock_members,
    cohere_members,
    gemini_interactions_members,
    gemini_members,
    openai_chat,
)
from toolstream.profiles import gemini as gemini_profile
from toolstream.profiles import openai_responses_members as responses_members
from toolstream.profiles.dialects import BY_MEMBER, DOCS, REGISTRY

# -- each wire's vocabulary (errors aside) ------------------------------------

CHAT = [
    text_chunk("Hello"),
    chunk(finish="tool_calls"),
    *weather_call(),
    {"id": "c", "object": "chat.completion.chunk", "choices": [], "usage": {"total_tokens": 3}},
]
ANTHROPIC = [
    message_start(),
    tool_start(0),
    text_start(0),
    text_delta(0, "Hi"),
    json_delta(0, "{}"),
    {"type": "content_block_stop", "index": 0},
    message_delta(),
    message_stop(),
    {"type": "ping"},
]
RESPONSES = [
    resp_created(),
    *responses_call(),
    *message_item(0),
    resp_end(),
    {"type": "response.in_progress", "sequence_number": 1, "response": {"id": "resp_1"}},
]
BEDROCK = [
    br_message_start(),
    br_start(0),
    br_text(0, "Hi"),
    *bedrock_tool(),
    br_stop(0),
    br_message_stop(),
    br_metadata(),
]
# Wires no profile reads: what a forced --profile meets.
GEMINI = [
    {
        "candidates": [
            {"content": {"role": "model", "parts": [{"functionCall": {"name": "w", "args": {}}}]}}
        ],
        "usageMetadata": {"totalTokenCount": 3},
    },
    {"candidates": [{"content": {"parts": [{"text": ""}]}, "finishReason": "STOP"}]},
]
COHERE = [
    {"type": "message-start", "id": "m", "delta": {"message": {"role": "assistant"}}},
    {
        "type": "tool-call-start",
        "index": 0,
        "delta": {"message": {"tool_calls": {"id": "c", "type": "function"}}},
    },
    {"type": "tool-call-delta", "index": 0, "delta": {"message": {"tool_calls": {}}}},
    {"type": "message-end", "delta": {"finish_reason": "TOOL_CALL", "usage": {}}},
]

VOCABULARY: dict[str, Any] = {
    "chat": CHAT,
    "anthropic": ANTHROPIC,
    "responses": RESPONSES,
    "bedrock": BEDROCK,
    "gemini": GEMINI,
    "cohere": COHERE,
}
# (profile, its own vocabulary, how to wrap a stream, valid streams)
PROFILES: dict[str, tuple[str, Any, list[list[Any]]]] = {
    "openai": (
        "chat",
        lambda events: openai(events),
        [weather_call(), [text_chunk("Hello"), text_chunk("", finish="stop")]],
    ),
    "mistral": (
        "chat",
        lambda events: openai(events, profile="mistral"),
        [weather_call(), [text_chunk("Hello"), text_chunk("", finish="stop")]],
    ),
    "anthropic": (
        "anthropic",
        anthropic,
        [
            anthropic_turn(tool_block()),
            anthropic_turn(
                [text_start(0), text_delta(0, "Hi"), {"type": "content_block_stop", "index": 0}],
                reason="end_turn",
            ),
        ],
    ),
    "openai-responses": (
        "responses",
        responses,
        [responses_turn(responses_call()), responses_turn(message_item(0))],
    ),
    "bedrock": (
        "bedrock",
        bedrock,
        [
            bedrock_turn(bedrock_tool()),
            bedrock_turn([br_text(0, "Hi"), br_stop(0)], reason="end_turn"),
        ],
    ),
    # (A chunk without candidates is a usage chunk only when it holds nothing
    # but GenerateContentResponse members: another wire's chunk is refused.)
    "gemini": (
        "gemini",
        gemini,
        [
            [gem_chunk(gem_call()), *streamed_city("Lyon", (2,)), gem_finish()],
            [gem_chunk({"text": "Hi"}), gem_finish()],
        ],
    ),
}


def test_the_valid_streams_are_valid() -> None:
    # The property below is only worth something if the streams it breaks
    # were right to begin with: a tool turn passes, a text turn has no
    # tool activity.
    for profile, (_, wrap, (tool, text)) in PROFILES.items():
        assert validate(wrap(tool)).status == "pass", profile
        assert validate(wrap(text)).status == "not_applicable", profile


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_an_item_of_another_wire_blocks_the_turn(data: st.DataObject) -> None:
    profile = data.draw(st.sampled_from(sorted(PROFILES)), label="profile")
    own, wrap, streams = PROFILES[profile]
    stream = list(data.draw(st.sampled_from(streams), label="stream"))
    wire = data.draw(st.sampled_from(sorted(set(VOCABULARY) - {own})), label="wire")
    item = data.draw(st.sampled_from(VOCABULARY[wire]), label="item")
    where = data.draw(st.integers(0, len(stream)), label="where")
    stream.insert(where, item)
    report = validate(wrap(stream))
    assert report.status == "blocked", report.to_json()
    assert "unsupported_event" in report.codes, report.to_json()


ERRORS = {
    "openai": {"error": {"message": "overloaded", "type": "server_error"}},
    "mistral": {"object": "error", "message": "overloaded", "type": "server_error", "code": 503},
    "anthropic": {"type": "error", "error": {"type": "overloaded_error", "message": "x"}},
    "openai-responses": {"type": "error", "code": "server_error", "message": "x"},
    "bedrock": {"modelStreamErrorException": {"message": "x"}},
    "gemini": {"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}},
}


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("kind", ["tool", "text"])
def test_a_provider_error_blocks_whatever_else_the_turn_holds(profile: str, kind: str) -> None:
    _, wrap, (tool, text) = PROFILES[profile]
    stream = list(tool if kind == "tool" else text)
    for where in range(len(stream) + 1):
        report = validate(wrap([*stream[:where], ERRORS[profile], *stream[where:]]))
        assert report.status == "blocked", report.to_json()
        assert "provider_error" in report.codes, report.to_json()


# -- members outside the profile and every reviewed dialect ---------------------------------

_KNOWN_NAMES = (
    openai_chat.DELTA_MEMBERS
    | openai_chat.CHUNK_MEMBERS
    | openai_chat.CHOICE_MEMBERS
    | {d.member for d in REGISTRY}
    | {"index", "delta", "finish_reason", "logprobs", "message", "text", "error"}
)
_UNKNOWN_NAME = st.text(
    st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=12
).filter(lambda name: name not in _KNOWN_NAMES)
_ANY_VALUE: st.SearchStrategy[Any] = st.one_of(
    st.none(), st.integers(), st.text(max_size=4), st.just({}), st.just([])
)


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_the_chat_turn(data: st.DataObject) -> None:
    # The chat profile's levels, all closed: a delta, a choice, a chunk with
    # choices and one without.  Whatever the name, unless a reviewed dialect
    # lists it.
    profile = data.draw(st.sampled_from(["openai", "mistral"]), label="profile")
    _, wrap, streams = PROFILES[profile]
    stream = [dict(item) for item in data.draw(st.sampled_from(streams), label="stream")]
    name = data.draw(_UNKNOWN_NAME, label="name")
    value = data.draw(_ANY_VALUE, label="value")
    where = data.draw(st.integers(0, len(stream)), label="where")
    level = data.draw(
        st.sampled_from(["delta", "choice", "chunk", "bare chunk", "tool call", "function"]),
        label="level",
    )
    if level in ("tool call", "function"):
        # What carries the call: a tool_calls entry and its function.
        known = (
            openai_chat.TOOL_CALL_MEMBERS if level == "tool call" else openai_chat.FUNCTION_MEMBERS
        )
        name = data.draw(_UNKNOWN_NAME.filter(lambda n: n not in known), label="call member")
        function: dict[str, Any] = {"arguments": ""}
        entry: dict[str, Any] = {"index": 0, "function": function}
        (entry if level == "tool call" else function)[name] = value
        stream.insert(where, {"choices": [{"index": 0, "delta": {"tool_calls": [entry]}}]})
        report = validate(wrap(stream))
        path = "choices[].delta.tool_calls[]" + (".function" if level == "function" else "")
        assert report.status == "blocked", report.to_json()
        named = any(f"{path}.{name[:40]} is not one" in f.message for f in report.findings)
        finished = any(
            choice.get("finish_reason") for item in stream[:where] for choice in item["choices"]
        )
        # After the finish the late call may be delta_after_terminal, which
        # the machine reports in place of the entry's members.
        late = finished and "delta_after_terminal" in report.codes
        assert named or late, report.to_json()
        return
    if level == "delta":
        stream.insert(where, {"choices": [{"index": 0, "delta": {name: value}}]})
    elif level == "choice":
        stream.insert(where, {"choices": [{"index": 0, "delta": {}, name: value}]})
    elif level == "chunk":
        stream.insert(where, {"id": "c", "choices": [{"index": 0, "delta": {}}], name: value})
    else:
        stream.insert(where, {"id": "c", name: value})
    report = validate(wrap(stream))
    assert report.status == "blocked", report.to_json()
    assert "unsupported_event" in report.codes, report.to_json()
    assert report.dialects == ()


@settings(max_examples=200, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_a_gemini_call(data: st.DataObject) -> None:
    # Every level that can hold a call: the chunk, the candidate, its
    # content, a part, the functionCall.
    level = data.draw(
        st.sampled_from(["chunk", "candidate", "content", "part", "functionCall"]), label="level"
    )
    known = {
        "chunk": {"candidates", "promptFeedback", "usageMetadata", "modelVersion", "error"}
        | {"responseId", "createTime", "modelStatus"},
        "candidate": gemini_profile.CANDIDATE_MEMBERS,
        "content": {"parts", "role"},
        "part": gemini_profile.NO_TOOL_DATA_PARTS | {"functionCall", "toolCall"},
        "functionCall": {"name", "id", "args", "partialArgs", "willContinue"},
    }[level]
    name = data.draw(_UNKNOWN_NAME.filter(lambda n: n not in known), label="name")
    value = data.draw(_ANY_VALUE, label="value")
    call = {"functionCall": {"name": "weather", "args": {"city": "Paris"}}}
    first = gem_chunk(call)
    target = {
        "chunk": first,
        "candidate": first["candidates"][0],
        "content": first["candidates"][0]["content"],
        "part": call,
        "functionCall": call["functionCall"],
    }[level]
    target[name] = value
    report = validate(gemini([first, gem_finish()]))
    assert report.status == "blocked", report.to_json()
    assert "unsupported_event" in report.codes, report.to_json()
    assert any(name[:40] in f.message for f in report.findings), report.to_json()


_GEMINI_CHUNK = gemini_members.CHUNK_LEVELS


def _gemini_with(level: str, inner: dict[str, Any], text: bool) -> list[dict[str, Any]]:
    # A valid Gemini turn (a call, or text) whose finishing chunk carries
    # ``inner`` at ``level`` (an object, or the one entry of an array).
    base, _, array = level.partition(".")
    value: dict[str, Any] = {array.removesuffix("[]"): [inner]} if array else inner
    first = gem_chunk({"text": "Hi"}) if text else gem_chunk(gem_call())
    finish = gem_finish()
    finish[base] = value
    return [first, finish]


@settings(max_examples=200, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_gemini_usage_and_feedback(
    data: st.DataObject,
) -> None:
    # usageMetadata, promptFeedback and the entries of their arrays (token
    # counts by modality, safety ratings), in a tool turn and a text turn.
    level = data.draw(st.sampled_from(sorted(_GEMINI_CHUNK)), label="level")
    name = data.draw(_unknown_at("gemini", level, _GEMINI_CHUNK[level]), label="name")
    inner = {name: data.draw(_ANY_VALUE, label="value")}
    stream = _gemini_with(level, inner, data.draw(st.booleans(), label="text turn"))
    _blocks_naming(validate(gemini(stream)), "gemini", level, name)


def test_every_member_gemini_lists_is_accepted() -> None:
    # No false red: each level holding every member it lists (nulls; a
    # blockReason is a blocked prompt, so it is left out of the tool turn).
    for level, known in _GEMINI_CHUNK.items():
        inner = dict.fromkeys(known - {"blockReason"})
        assert validate(gemini(_gemini_with(level, inner, False))).status == "pass", level
        text = validate(gemini(_gemini_with(level, inner, True)))
        assert text.status == "not_applicable", level


_BEDROCK_LEVELS = {
    # (event position in bedrock_turn(bedrock_tool()), path inside the event, known members)
    "messageStart": (0, ("messageStart",), {"role", "p"}),
    "contentBlockStart": (1, ("contentBlockStart",), {"contentBlockIndex", "start", "p"}),
    "toolUse start": (1, ("contentBlockStart", "start", "toolUse"), {"toolUseId", "name", "type"}),
    "contentBlockDelta": (2, ("contentBlockDelta",), {"contentBlockIndex", "delta", "p"}),
    "toolUse delta": (2, ("contentBlockDelta", "delta", "toolUse"), {"input"}),
    "contentBlockStop": (4, ("contentBlockStop",), {"contentBlockIndex", "p"}),
    "messageStop": (5, ("messageStop",), {"stopReason", "additionalModelResponseFields", "p"}),
}


@settings(max_examples=150, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_a_bedrock_call(data: st.DataObject) -> None:
    # Every object that carries the call or frames it (metadata carries none).
    level = data.draw(st.sampled_from(sorted(_BEDROCK_LEVELS)), label="level")
    at, path, known = _BEDROCK_LEVELS[level]
    name = data.draw(_UNKNOWN_NAME.filter(lambda n: n not in known), label="name")
    stream = bedrock_turn(bedrock_tool())
    target = stream[at]
    for key in path:
        target = target[key]
    target[name] = data.draw(_ANY_VALUE, label="value")
    report = validate(bedrock(stream))
    assert report.status == "blocked", report.to_json()
    assert "unsupported_event" in report.codes, report.to_json()
    assert any(name[:40] in f.message for f in report.findings), report.to_json()


_BR_METADATA = bedrock_members.METADATA_LEVELS
_BR_DELTAS = bedrock_members.DELTA_LEVELS


def _bedrock_block_delta(path: str, part: dict[str, Any]) -> dict[str, Any]:
    # A delta of a non-call block at index 1, its object (or toolResult's
    # one entry) being ``part``.
    delta_type = path.split(".")[2].removesuffix("[]")
    value: Any = [part] if path.endswith("[]") else part
    return {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {delta_type: value}}}


@settings(max_examples=200, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_bedrock_metadata_and_block_deltas(
    data: st.DataObject,
) -> None:
    # What carries no call: metadata and every closed object in it, in a
    # tool turn and a text turn, and the deltas of the non-call blocks.
    level = data.draw(st.sampled_from(sorted([*_BR_METADATA, *_BR_DELTAS])), label="level")
    text = data.draw(st.booleans(), label="text turn")
    stream = (
        bedrock_turn([br_text(0, "Hi"), br_stop(0)], reason="end_turn")
        if text
        else bedrock_turn(bedrock_tool())
    )
    value = data.draw(_ANY_VALUE, label="value")
    if level in _BR_METADATA:
        name = data.draw(_unknown_at("bedrock", level, _BR_METADATA[level]), label="name")
        _put(stream, -1, tuple(level.split(".")), name, value)
    else:
        name = data.draw(_unknown_at("bedrock", level, _BR_DELTAS[level]), label="name")
        # after the first block, before messageStop
        stream[-2:-2] = [_bedrock_block_delta(level, {name: value}), br_stop(1)]
    _blocks_naming(validate(bedrock(stream)), "bedrock", level, name)


def test_every_member_bedrock_lists_is_accepted() -> None:
    # No false red: each closed level holding every member it lists (nulls),
    # and the open maps holding any key, leave the tool turn passing.
    for level, known in _BR_METADATA.items():
        stream = bedrock_turn(bedrock_tool())
        _put(stream, -1, tuple(level.split("."))[:-1], level.split(".")[-1], {})
        target = stream[-1]
        for key in level.split("."):
            target = target[key]
        target.update(dict.fromkeys(known))
        assert validate(bedrock(stream)).status == "pass", (level, stream[-1])
    for level, known in _BR_DELTAS.items():
        stream = bedrock_turn(bedrock_tool())
        stream[-2:-2] = [_bedrock_block_delta(level, dict.fromkeys(known)), br_stop(1)]
        assert validate(bedrock(stream)).status == "pass", level
    for level in bedrock_members.OPEN_LEVELS:
        stream = bedrock_turn(bedrock_tool())
        path = tuple(level.split("."))
        at = next(i for i, event in enumerate(stream) if path[0] in event)
        _put(stream, at, path, "my-own-key", {"anything": 1})
        assert validate(bedrock(stream)).status == "pass", level


_COHERE_LEVELS = {
    # (event position in co_turn(co_call())), path inside the event, known members)
    "start": (2, (), {"type", "index", "delta"}),
    "start delta": (2, ("delta",), {"message"}),
    "start message": (2, ("delta", "message"), {"tool_calls"}),
    "start call": (2, ("delta", "message", "tool_calls"), {"id", "type", "function"}),
    "start function": (2, ("delta", "message", "tool_calls", "function"), {"name", "arguments"}),
    "delta": (3, (), {"type", "index", "delta"}),
    "delta call": (3, ("delta", "message", "tool_calls"), {"function"}),
    "delta function": (3, ("delta", "message", "tool_calls", "function"), {"arguments"}),
    "end": (5, (), {"type", "index"}),
}


@settings(max_examples=150, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_a_cohere_call(data: st.DataObject) -> None:
    # Every level of the events that carry the call.
    level = data.draw(st.sampled_from(sorted(_COHERE_LEVELS)), label="level")
    at, path, known = _COHERE_LEVELS[level]
    name = data.draw(_UNKNOWN_NAME.filter(lambda n: n not in known), label="name")
    stream = co_turn(co_call())
    target = stream[at]
    for key in path:
        target = target[key]
    target[name] = data.draw(_ANY_VALUE, label="value")
    report = validate(cohere(stream))
    assert report.status == "blocked", report.to_json()
    assert "unsupported_event" in report.codes, report.to_json()
    assert any(name[:40] in f.message for f in report.findings), report.to_json()


_CO_EVENTS = cohere_members.EVENT_LEVELS


def _cohere_with(level: str) -> tuple[list[dict[str, Any]], int, tuple[str, ...]]:
    # The valid call turn, with the event of ``level``'s type at a position
    # (message-start, the tool plan and message-end are in it already; the
    # others are inserted after the plan): the stream, the event's
    # position, the path inside it.
    kind, *path = level.split(".")
    stream = co_turn(co_call())
    positions = {"message-start": 0, "tool-plan-delta": 1, "message-end": len(stream) - 1}
    if kind in positions:
        return stream, positions[kind], tuple(path)
    event: dict[str, Any] = {"type": kind}
    if "index" in _CO_EVENTS[kind]:
        event["index"] = 0
    stream.insert(2, event)
    return stream, 2, tuple(path)


@settings(max_examples=200, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_a_cohere_event_without_a_call(
    data: st.DataObject,
) -> None:
    # message-start, message-end and every event that carries no tool data,
    # at every closed object inside them.
    level = data.draw(st.sampled_from(sorted(_CO_EVENTS)), label="level")
    name = data.draw(_unknown_at("cohere", level, _CO_EVENTS[level]), label="name")
    stream, at, path = _cohere_with(level)
    _put(stream, at, path, name, data.draw(_ANY_VALUE, label="value"))
    _blocks_naming(validate(cohere(stream)), "cohere", level, name)


def test_every_member_cohere_lists_is_accepted() -> None:
    # No false red: each object holding every member it lists (nulls, where
    # the valid turn does not already hold the member) leaves the turn passing.
    for level, known in _CO_EVENTS.items():
        stream, at, path = _cohere_with(level)
        for member in sorted(known):
            target = stream[at]
            for key in path:
                target = target.setdefault(key, {})
            target.setdefault(member, None)
        assert validate(cohere(stream)).status == "pass", (level, stream[at])


@pytest.mark.parametrize(
    "calls", [[{"id": "c", "type": "function"}], {"id": "c"}, "x"], ids=["array", "object", "text"]
)
def test_calls_in_cohere_message_start_block(calls: Any) -> None:
    # message-start restates the message's arrays, empty: calls there are
    # outside the tool-call events, which is all the profile reads.
    stream = co_turn(co_call())
    stream[0]["delta"]["message"]["tool_calls"] = calls
    report = validate(cohere(stream))
    assert report.status == "blocked", report.to_json()
    assert any("message-start.delta.message.tool_calls" in f.message for f in report.findings)


def _put(stream: list[Any], at: int, path: tuple[str, ...], name: str, value: Any) -> None:
    """Set ``name`` on the object at ``path`` inside ``stream[at]``, making
    the objects of the path that the valid stream leaves out (a usage)."""
    target = stream[at]
    for key in path:
        target = target.setdefault(key, {})
    target[name] = value


def _blocks_naming(report: Any, profile: str, level: str, name: str) -> None:
    assert report.status == "blocked", report.to_json()
    assert "unsupported_event" in report.codes, report.to_json()
    # The unknown-member finding: it names the member's path and the page
    # that says how to review it.
    named = [f.message for f in report.findings if f".{name[:40]} is not one" in f.message]
    assert named and all(DOCS in message for message in named), report.to_json()
    assert report.dialects == (), report.to_json()


def _unknown_at(profile: str, level: str, known: Any) -> st.SearchStrategy[str]:
    # Outside the level's members and outside every reviewed dialect there.
    return _UNKNOWN_NAME.filter(lambda n: n not in known and (profile, level, n) not in BY_MEMBER)


_MESSAGE = anthropic_members.MESSAGE_LEVELS
_TEXT_LEVELS = {
    "text block": anthropic_profile.TEXT_BLOCK_MEMBERS,
    "result block": anthropic_members.RESULT_BLOCK_MEMBERS,
    "text delta": anthropic_profile.TEXT_DELTA_MEMBERS,
}
_ANTHROPIC_LEVELS = {
    # (event position in anthropic_turn(tool_block())), path inside the event, known members)
    **{
        level: (
            -1 if level.startswith("message_stop") else -2 if level.startswith("message_d") else 0,
            tuple(level.split(".")[1:]),
            own,
        )
        for level, own in _MESSAGE.items()
        if level != "ping"
    },
    "content_block_start": (1, (), {"type", "index", "content_block"}),
    "tool_use block": (
        1,
        ("content_block",),
        {"type", "id", "name", "input", "caller", "toolset_name"},
    ),
    "content_block_delta": (2, (), {"type", "index", "delta"}),
    "input_json_delta": (3, ("delta",), {"type", "partial_json"}),
    "content_block_stop": (4, (), {"type", "index"}),
}


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_an_anthropic_turn(data: st.DataObject) -> None:
    # Every object that carries the call, the block events around it, and
    # every message-level object (message_start, its message and usage,
    # message_delta, its delta and usage, message_stop, ping), in a tool
    # turn and in a text turn, read directly or inside Bedrock InvokeModel
    # frames (whose chunk payload is a level too).
    level = data.draw(
        st.sampled_from(sorted([*_ANTHROPIC_LEVELS, "ping", "invoke chunk", *_TEXT_LEVELS])),
        label="level",
    )
    framed = level == "invoke chunk" or data.draw(st.booleans(), label="bedrock-invoke")
    text = level in _TEXT_LEVELS or (level in _MESSAGE and data.draw(st.booleans(), "text turn"))
    if text:
        stream = anthropic_turn(
            [text_start(0), text_delta(0, "Hi"), {"type": "content_block_stop", "index": 0}],
            reason="end_turn",
        )
    else:
        stream = anthropic_turn(tool_block())
    value = data.draw(_ANY_VALUE, label="value")
    if level == "invoke chunk":
        name = data.draw(_unknown_at("bedrock-invoke", "chunk", {"bytes"}), label="name")
        frames = [invoke_frame(event) for event in stream]
        at = data.draw(st.integers(0, len(frames) - 1), label="frame")
        frames[at]["chunk"][name] = value
        _blocks_naming(validate(bedrock_invoke(frames)), "bedrock-invoke", level, name)
        return
    if level in _TEXT_LEVELS:
        # A text or thinking block, or a text-like delta, in the text turn
        # (start at 1, delta at 2): an unknown member beside its own.
        own = data.draw(st.sampled_from(sorted(_TEXT_LEVELS[level])), label="type")
        text_known = _TEXT_LEVELS[level][own]
        name = data.draw(_unknown_at("anthropic", level, text_known), label="name")
        at, member = (1, "content_block") if level.endswith("block") else (2, "delta")
        stream[at][member] = {"type": own, name: value}
    elif level == "ping":
        name = data.draw(_unknown_at("anthropic", "ping", _MESSAGE["ping"]), label="name")
        where = data.draw(st.integers(1, len(stream) - 1), label="where")
        stream.insert(where, {"type": "ping", name: value})
    else:
        at, path, known = _ANTHROPIC_LEVELS[level]
        name = data.draw(_unknown_at("anthropic", level, known), label="name")
        _put(stream, at, path, name, value)
    fixture = bedrock_invoke([invoke_frame(e) for e in stream]) if framed else anthropic(stream)
    _blocks_naming(validate(fixture), "anthropic", level, name)


_CALLERS = anthropic_members.CALLERS
_CITATIONS = anthropic_members.CITATIONS


def _anthropic_with(where: str, typed: Any) -> tuple[list[dict[str, Any]], str]:
    # A valid tool turn holding ``typed`` (a caller or a citation) where
    # ``where`` says: the call block's caller, a text block's citations
    # (at index 1, beside the call), or a citations_delta of that text
    # block; and the path its finding names.
    stream = anthropic_turn(tool_block())
    if where == "call caller":
        stream[1]["content_block"]["caller"] = typed
        return stream, "content_block.caller"
    block = {"type": "text", "text": "", "citations": []}
    delta: dict[str, Any] = {"type": "text_delta", "text": "Hi"}
    level = "content_block.citations[]"
    if where == "block citation":
        block["citations"] = [typed]
    else:
        delta = {"type": "citations_delta", "citation": typed}
        level = "delta.citation"
    start = {"type": "content_block_start", "index": 1, "content_block": block}
    more = {"type": "content_block_delta", "index": 1, "delta": delta}
    # after the call block, before message_delta
    stream[-2:-2] = [start, more, {"type": "content_block_stop", "index": 1}]
    return stream, level


@settings(max_examples=200, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_an_anthropic_caller_or_citation(
    data: st.DataObject,
) -> None:
    # A call block's caller, a text block's citations entry, a
    # citations_delta's citation: closed by their type, read directly or in
    # Bedrock InvokeModel frames.
    where = data.draw(
        st.sampled_from(["call caller", "block citation", "delta citation"]), label="where"
    )
    by_type = _CALLERS if where == "call caller" else _CITATIONS
    own = data.draw(st.sampled_from(sorted(by_type)), label="type")
    name = data.draw(_unknown_at("anthropic", where, by_type[own]), label="name")
    typed = {"type": own, name: data.draw(_ANY_VALUE, label="value")}
    stream, level = _anthropic_with(where, typed)
    framed = data.draw(st.booleans(), label="bedrock-invoke")
    fixture = bedrock_invoke([invoke_frame(e) for e in stream]) if framed else anthropic(stream)
    report = validate(fixture)
    _blocks_naming(report, "anthropic", level, name)
    assert any(f"{level}.{name[:40]}" in f.message for f in report.findings), report.to_json()


@pytest.mark.parametrize("where", ["call caller", "block citation", "delta citation"])
def test_an_anthropic_caller_or_citation_of_another_type_blocks(where: str) -> None:
    # Closed by type: an unknown type, or no object, is not read either;
    # each known type with every member it lists is.
    by_type = _CALLERS if where == "call caller" else _CITATIONS
    others: list[Any] = [{"type": "telepathy"}, "direct", None if where != "call caller" else 3]
    for other in others:
        report = validate(anthropic(_anthropic_with(where, other)[0]))
        assert report.status == "blocked", (other, report.to_json())
        assert "unsupported_event" in report.codes, report.to_json()
    for own, known in by_type.items():
        typed = dict.fromkeys(known) | {"type": own}
        assert validate(anthropic(_anthropic_with(where, typed)[0])).status == "pass", own


_CALL_ITEM = {"type", "id", "call_id", "name", "arguments", "status"}
_CALL_ITEM |= {"caller", "namespace", "async"}
_RESPONSES_LEVELS = {
    # (event position in responses_turn(responses_call())), path inside the event, known members)
    "output_item.added": (1, (), {"type", "item", "output_index", "sequence_number"}),
    "added item": (1, ("item",), _CALL_ITEM),
    "arguments.delta": (
        2,
        (),
        {"type", "item_id", "output_index", "delta", "sequence_number", "obfuscation"},
    ),
    "arguments.done": (4, (), {"type", "item_id", "output_index", "arguments", "sequence_number"}),
    "output_item.done": (5, (), {"type", "item", "output_index", "sequence_number"}),
    "done item": (5, ("item",), _CALL_ITEM),
}


_RESPONSE = responses_members.RESPONSE_LEVELS
_PARTS = sorted(
    (item_type, array, part_type)
    for item_type, arrays in responses_members.ITEM_PARTS.items()
    for array, part_types in arrays.items()
    for part_type in part_types
)
_LIFECYCLE = sorted(responses_members.LIFECYCLE_EVENTS)


def _lifecycle(kind: str) -> dict[str, Any]:
    status = {"response.created": "in_progress", "response.queued": "queued"}
    reason = kind.rsplit(".", 1)[1]
    return {
        "type": kind,
        "sequence_number": 0,
        "response": {"id": "resp_1", "object": "response", "status": status.get(kind, reason)},
    }


def _item_events(item_type: str) -> list[dict[str, Any]]:
    # An output item of each type that carries no client call, added at
    # index 1 beside the call and closed.
    item: dict[str, Any] = {"type": item_type, "id": "it_1"}
    if item_type.startswith("tool_search"):
        item["execution"] = "server"
    added = {"type": "response.output_item.added", "output_index": 1, "item": item}
    done = {"type": "response.output_item.done", "output_index": 1, "item": dict(item)}
    return [added, done]


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_a_responses_turn(data: st.DataObject) -> None:
    # Every object that carries the call; every lifecycle event, its response
    # object, usage and token details, and the items of response.output; the
    # items of every other known type, added or done.
    where = data.draw(
        st.sampled_from(["call", "lifecycle", "item", "output item", "part"]), label="where"
    )
    item_type = data.draw(st.sampled_from(sorted(responses_members.ITEM_MEMBERS)), label="item")
    stream = responses_turn(responses_call(), _item_events(item_type))
    assert validate(responses(stream)).status == "pass"
    call_item = dict(stream[-4]["item"])  # the call's output_item.done
    value = data.draw(_ANY_VALUE, label="value")
    if where == "call":
        level = data.draw(st.sampled_from(sorted(_RESPONSES_LEVELS)), label="level")
        at, path, call_known = _RESPONSES_LEVELS[level]
        name = data.draw(_unknown_at("openai-responses", "call", call_known), label="name")
        _put(stream, at, path, name, value)
    elif where == "part":
        # A part of a message's content or of a reasoning item's summary or
        # content, in the item as added or as done, or in response.output.
        item_type, array, part_type = data.draw(st.sampled_from(_PARTS), label="part")
        part_known = responses_members.ITEM_PARTS[item_type][array][part_type]
        part: dict[str, Any] = {"type": part_type}
        part["refusal" if "refusal" in part_known else "text"] = "x"
        name = data.draw(
            _unknown_at("openai-responses", f"item.{array}[]", part_known), label="name"
        )
        part[name] = value
        stream = responses_turn(responses_call(), _item_events(item_type))
        assert validate(responses(stream)).status == "pass"
        at = data.draw(st.sampled_from([-3, -2, -1]), label="added, done or completed")
        if at == -1:
            item = {"type": item_type, "id": "it_1", array: [part]}
            stream[at]["response"]["output"] = [item, call_item]
            level = f"response.completed.response.output[].{array}[]"
        else:
            stream[at]["item"][array] = [part]
            level = f"item.{array}[]"
    elif where == "item":
        at = data.draw(st.sampled_from([-3, -2]), label="added or done")
        known = responses_members.ITEM_MEMBERS[item_type]
        name = data.draw(_unknown_at("openai-responses", "item", known), label="name")
        _put(stream, at, ("item",), name, value)
        level = f"item ({item_type})"
    else:
        kind = data.draw(st.sampled_from(_LIFECYCLE), label="event")
        event = _lifecycle(kind)
        if kind in ("response.created", "response.completed"):
            # The turn's own first or last event, else one more event.
            at = 0 if kind == "response.created" else -1
            stream[at] = event
        else:
            at = data.draw(st.integers(1, len(stream) - 1), label="at")
            stream.insert(at, event)
        if where == "output item":
            output = [{"type": item_type, "id": "it_1"}, call_item]
            chosen = data.draw(st.integers(0, 1), label="which output item")
            output_known = frozenset(
                responses_members.ITEM_MEMBERS[item_type] if chosen == 0 else _CALL_ITEM
            )
            name = data.draw(_unknown_at("openai-responses", "item", output_known), label="name")
            output[chosen][name] = value
            event["response"]["output"] = output
            level = "response.output[]"
        else:
            level = data.draw(st.sampled_from(sorted(_RESPONSE)), label="level")
            path = () if level == "event" else tuple(level.split("."))
            name = data.draw(_unknown_at("openai-responses", level, _RESPONSE[level]), "name")
            _put(stream, at, path, name, value)
    _blocks_naming(validate(responses(stream)), "openai-responses", level, name)


_PROGRESS = responses_members.PROGRESS_EVENTS
_EVENT_PARTS = sorted(
    (kind, part_type)
    for kind, part_types in responses_members.EVENT_PARTS.items()
    for part_type in part_types
)
_ANNOTATION_TYPES = sorted(responses_members.ANNOTATIONS)
_ANNOTATION_EVENTS = sorted(kind for kind in _PROGRESS if "annotation" in _PROGRESS[kind])


def _progress(kind: str) -> dict[str, Any]:
    # An event of ``kind`` about the message item at output index 1, holding
    # the routing members its type has.
    routing = {"item_id": "it_1", "output_index": 1, "sequence_number": 5}
    routing |= {"content_index": 0, "summary_index": 0}
    return {"type": kind} | {k: v for k, v in routing.items() if k in _PROGRESS[kind]}


def _with_progress(*events: dict[str, Any]) -> list[dict[str, Any]]:
    # The call turn with a message item beside the call, ``events`` before
    # the item's output_item.done.
    stream = responses_turn(responses_call(), _item_events("message"))
    stream[-2:-2] = list(events)
    return stream


def _text_part(**more: Any) -> dict[str, Any]:
    return {"type": "output_text", "text": "x", "annotations": [], **more}


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_a_responses_progress_event(
    data: st.DataObject,
) -> None:
    # Every text, refusal, reasoning, audio and built-in tool progress event;
    # the part of a content or summary part event; an annotation (of the
    # annotation event, of a text part in a part event or in the message
    # item); a logprobs entry and its top_logprobs (of a text event or part).
    where = data.draw(
        st.sampled_from(["event", "part", "annotation", "logprob", "top logprob"]), label="where"
    )
    value = data.draw(_ANY_VALUE, label="value")
    if where == "event":
        kind = data.draw(st.sampled_from(sorted(_PROGRESS)), label="event")
        level = kind
        name = data.draw(_unknown_at("openai-responses", level, _PROGRESS[kind]), label="name")
        stream = _with_progress(_progress(kind) | {name: value})
    elif where == "part":
        kind, part_type = data.draw(st.sampled_from(_EVENT_PARTS), label="part")
        level = f"{kind}.part"
        known = responses_members.EVENT_PARTS[kind][part_type]
        name = data.draw(_unknown_at("openai-responses", level, known), label="name")
        stream = _with_progress(_progress(kind) | {"part": {"type": part_type, name: value}})
    elif where == "annotation":
        annotation_type = data.draw(st.sampled_from(_ANNOTATION_TYPES), label="type")
        known = responses_members.ANNOTATIONS[annotation_type]
        name = data.draw(_unknown_at("openai-responses", "annotation", known), label="name")
        annotation = {"type": annotation_type, name: value}
        holder = data.draw(st.sampled_from(["event", "part event", "item"]), label="in")
        if holder == "event":
            kind = data.draw(st.sampled_from(_ANNOTATION_EVENTS), label="event")
            level = f"{kind}.annotation"
            stream = _with_progress(_progress(kind) | {"annotation": annotation})
        elif holder == "part event":
            kind = "response.content_part.done"
            level = f"{kind}.part.annotations[]"
            part = _text_part(annotations=[annotation])
            stream = _with_progress(_progress(kind) | {"part": part})
        else:
            level = "item.content[].annotations[]"
            stream = _with_progress()
            stream[-2]["item"]["content"] = [_text_part(annotations=[annotation])]
    else:
        top = where == "top logprob"
        known = responses_members.TOP_LOGPROB if top else responses_members.LOGPROB
        name = data.draw(_unknown_at("openai-responses", "logprobs", known), label="name")
        entry: dict[str, Any] = {"token": "x", "logprob": -0.1, "top_logprobs": []}
        if top:
            entry["top_logprobs"] = [{"token": "x", "logprob": -0.1, name: value}]
        else:
            entry[name] = value
        kind = data.draw(
            st.sampled_from(
                ["response.output_text.delta", "response.output_text.done", "part event"]
            ),
            label="in",
        )
        if kind == "part event":
            level = "response.content_part.done.part.logprobs[]"
            part = _text_part(logprobs=[entry])
            stream = _with_progress(_progress("response.content_part.done") | {"part": part})
        else:
            level = f"{kind}.logprobs[]"
            stream = _with_progress(_progress(kind) | {"logprobs": [entry]})
        level += ".top_logprobs[]" if top else ""
    report = validate(responses(stream))
    _blocks_naming(report, "openai-responses", level, name)
    assert any(f"{level}.{name[:40]}" in f.message for f in report.findings), report.to_json()


@settings(max_examples=100, deadline=None, database=None)
@given(
    prefix=st.sampled_from(
        sorted({kind.rsplit(".", 1)[0] + "." for kind in responses_members.PROGRESS_EVENTS})
    ),
    suffix=st.text(st.characters(min_codepoint=0x61, max_codepoint=0x7A), min_size=1, max_size=8),
)
def test_an_unknown_progress_event_type_blocks(prefix: str, suffix: str) -> None:
    # The progress events are a list, not a prefix: another event named
    # like them is not read.
    kind = prefix + suffix
    if kind in responses_members.PROGRESS_EVENTS or kind in responses_members.LIFECYCLE_EVENTS:
        return
    stream = _with_progress({"type": kind, "item_id": "it_1", "output_index": 1})
    report = validate(responses(stream))
    assert report.status == "blocked", report.to_json()
    assert any("unknown event type" in f.message for f in report.findings), report.to_json()


def test_every_member_a_progress_event_lists_is_accepted() -> None:
    # No false red: each event holding every member it lists (nulls, but a
    # part of each of its types), each annotation type and logprobs entry
    # holding all of theirs, leave the call turn passing.
    full_logprob = dict.fromkeys(responses_members.LOGPROB) | {
        "top_logprobs": [dict.fromkeys(responses_members.TOP_LOGPROB)]
    }
    annotations = [
        dict.fromkeys(known) | {"type": annotation_type}
        for annotation_type, known in responses_members.ANNOTATIONS.items()
    ]
    for kind, known in _PROGRESS.items():
        event = _progress(kind) | dict.fromkeys(known - {"type", "part"})
        parts = responses_members.EVENT_PARTS.get(kind)
        no_part: list[tuple[str | None, frozenset[str]]] = [(None, frozenset())]
        for part_type, part_known in [*parts.items()] if parts else no_part:
            if part_type is not None:
                event["part"] = dict.fromkeys(part_known) | {"type": part_type}
                if part_type == "output_text":
                    event["part"] |= {"annotations": annotations, "logprobs": [full_logprob]}
            if "logprobs" in known:
                event["logprobs"] = [full_logprob]
            if "annotation" in known:
                for annotation in annotations:
                    stream = _with_progress(event | {"annotation": annotation})
                    assert validate(responses(stream)).status == "pass", (kind, annotation)
            report = validate(responses(_with_progress(event)))
            assert report.status == "pass", (kind, part_type, report.to_json())
    stream = _with_progress()
    stream[-2]["item"]["content"] = [_text_part(annotations=annotations, logprobs=[full_logprob])]
    assert validate(responses(stream)).status == "pass"


_INTERACTIONS = gemini_interactions_members.EVENT_LEVELS
_INTERACTION_CALL = gemini_interactions_members.CALL_LEVELS
_STEPS = gemini_interactions_members.STEP_MEMBERS


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_a_gemini_interactions_turn(
    data: st.DataObject,
) -> None:
    # Every event (error aside: it blocks as provider_error by itself), the
    # interaction of the lifecycle events and every usage object, the
    # function_call step and the arguments_delta.
    levels = sorted(level for level in [*_INTERACTIONS, *_INTERACTION_CALL] if level != "error")
    level = data.draw(st.sampled_from([*levels, "block step"]), label="level")
    stream = gi_turn(gi_call())
    if level == "block step":
        # A step that carries no call, beside the call: its own members.
        step_type = data.draw(st.sampled_from(sorted(_STEPS)), label="step")
        name = data.draw(
            _unknown_at("gemini-interactions", "step.start.step", _STEPS[step_type]), label="name"
        )
        step = {"type": step_type, name: data.draw(_ANY_VALUE, label="value")}
        start = {"event_type": "step.start", "index": 1, "step": step}
        stream[-1:-1] = [start, {"event_type": "step.stop", "index": 1}]
        _blocks_naming(validate(interactions(stream)), "gemini-interactions", level, name)
        return
    # created, step.start, two step.delta, step.stop, completed
    kind = level.split(".")[0] + "." + level.split(".")[1]
    positions = {
        "interaction.created": [0],
        "step.start": [1],
        "step.delta": [2, 3],
        "step.stop": [4],
        "interaction.completed": [5],
    }
    if kind == "interaction.status_update":
        status = {"event_type": kind, "interaction_id": "v1_1", "status": "in_progress"}
        at = data.draw(st.integers(1, len(stream) - 1), label="where")
        stream.insert(at, status)
    else:
        at = data.draw(st.sampled_from(positions[kind]), label="at")
    known = {**_INTERACTIONS, **_INTERACTION_CALL}[level]
    name = data.draw(_unknown_at("gemini-interactions", level, known), label="name")
    path = tuple(level.split(".")[2:])
    _put(stream, at, path, name, data.draw(_ANY_VALUE, label="value"))
    _blocks_naming(validate(interactions(stream)), "gemini-interactions", level, name)


def test_every_member_a_closed_level_lists_is_accepted() -> None:
    # The other half of the closed world: no false red.  Each level closed
    # here, holding every member it lists (nulls, which the API sends for an
    # absent value), leaves the valid turn passing.
    for item_type, arrays in responses_members.ITEM_PARTS.items():
        for array, part_types in arrays.items():
            for part_type, known in part_types.items():
                part = {member: None for member in known} | {"type": part_type}
                stream = responses_turn(responses_call(), _item_events(item_type))
                stream[-2]["item"][array] = [part]
                report = validate(responses(stream))
                assert report.status == "pass", (item_type, array, report.to_json())
    for level in ("stop_details", "container", "context_management", "diagnostics"):
        for at, path in (
            (0, ("message",)),
            (-2, ("delta",) if level != "context_management" else ()),
        ):
            stream = anthropic_turn(tool_block())
            where = ".".join([stream[at]["type"], *path, level])
            if where not in _MESSAGE:  # diagnostics: message_start only
                continue
            _put(stream, at, path, level, {member: None for member in _MESSAGE[where]})
            assert validate(anthropic(stream)).status == "pass", (level, path)
    for level, by_type in _TEXT_LEVELS.items():
        for own, known in by_type.items():
            stream = anthropic_turn(
                [text_start(0), text_delta(0, "Hi"), {"type": "content_block_stop", "index": 0}],
                reason="end_turn",
            )
            at, member = (1, "content_block") if level.endswith("block") else (2, "delta")
            stream[at][member] = {name: None for name in known} | {"type": own}
            if own == "citations_delta":
                # (its citation is an object of a known type: closed by it)
                stream[at][member]["citation"] = {"type": "char_location"}
            report = validate(anthropic(stream))
            assert report.status == "not_applicable", (own, report.to_json())
    for step_type, known in _STEPS.items():
        step = {member: None for member in known} | {"type": step_type}
        stream = gi_turn(gi_call())
        stream[-1:-1] = [
            {"event_type": "step.start", "index": 1, "step": step},
            {"event_type": "step.stop", "index": 1},
        ]
        report = validate(interactions(stream))
        assert report.status == "pass", (step_type, report.to_json())


@settings(max_examples=50, deadline=None, database=None)
@given(name=_UNKNOWN_NAME, value=st.text(max_size=8))
def test_a_deliberately_open_level_takes_any_member(name: str, value: str) -> None:
    # The levels left open on purpose (with the reason beside each in the
    # members module) are not closed levels, and they do take any member:
    # the caller's own metadata keys echoed on the response.
    assert not set(responses_members.OPEN_LEVELS) & set(_RESPONSE)
    for level in responses_members.OPEN_LEVELS:
        stream = responses_turn(responses_call())
        _put(stream, -1, tuple(level.split(".")), name, value)
        report = validate(responses(stream))
        assert report.status == "pass", (level, report.to_json())
