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
    co_call,
    co_turn,
    cohere,
    gem_call,
    gem_chunk,
    gem_finish,
    gemini,
    streamed_city,
)
from toolstream import validate
from toolstream.profiles import gemini as gemini_profile
from toolstream.profiles import openai_chat
from toolstream.profiles.dialects import REGISTRY

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
    level = data.draw(st.sampled_from(["delta", "choice", "chunk", "bare chunk"]), label="level")
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


_ANTHROPIC_LEVELS = {
    # (event position in anthropic_turn(tool_block())), path inside the event, known members)
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


@settings(max_examples=150, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_an_anthropic_call(data: st.DataObject) -> None:
    # Every object that carries the call, and the block events around it.
    level = data.draw(st.sampled_from(sorted(_ANTHROPIC_LEVELS)), label="level")
    at, path, known = _ANTHROPIC_LEVELS[level]
    name = data.draw(_UNKNOWN_NAME.filter(lambda n: n not in known), label="name")
    stream = anthropic_turn(tool_block())
    target = stream[at]
    for key in path:
        target = target[key]
    target[name] = data.draw(_ANY_VALUE, label="value")
    report = validate(anthropic(stream))
    assert report.status == "blocked", report.to_json()
    assert "unsupported_event" in report.codes, report.to_json()
    assert any(name[:40] in f.message for f in report.findings), report.to_json()


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


@settings(max_examples=150, deadline=None, database=None)
@given(data=st.data())
def test_a_member_outside_every_dialect_blocks_a_responses_call(data: st.DataObject) -> None:
    # Every object that carries the call.
    level = data.draw(st.sampled_from(sorted(_RESPONSES_LEVELS)), label="level")
    at, path, known = _RESPONSES_LEVELS[level]
    name = data.draw(_UNKNOWN_NAME.filter(lambda n: n not in known), label="name")
    stream = responses_turn(responses_call())
    target = stream[at]
    for key in path:
        target = target[key]
    target[name] = data.draw(_ANY_VALUE, label="value")
    report = validate(responses(stream))
    assert report.status == "blocked", report.to_json()
    assert "unsupported_event" in report.codes, report.to_json()
    assert any(name[:40] in f.message for f in report.findings), report.to_json()
