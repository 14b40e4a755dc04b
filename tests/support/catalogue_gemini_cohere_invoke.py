"""Catalogue entries for four wire formats (gemini,
gemini-interactions, cohere, bedrock-invoke): a minimal fixture for every
code that applies to each, and one for each partialArgs rule.  Appended to
``tests.support.catalogue.CATALOGUE``; the codes that do not apply are listed in
:data:`NOT_APPLICABLE` with the reason in ``docs/validator.md``."""

from __future__ import annotations

import copy
from typing import Any

from tests.support.builders import anthropic_turn, message_start, tool_start
from tests.support.builders_gemini_cohere_invoke import (
    bedrock_invoke,
    co_call,
    co_delta,
    co_end,
    co_message_end,
    co_message_start,
    co_start,
    co_turn,
    cohere,
    gem_call,
    gem_chunk,
    gem_finish,
    gem_more,
    gem_open,
    gemini,
    gi_call,
    gi_completed,
    gi_created,
    gi_delta,
    gi_start,
    gi_stop,
    gi_turn,
    interactions,
    invoke_tool,
    invoke_turn,
    pa,
    streamed_city,
    wrap,
)

CLAUDE = {"modelId": "anthropic.claude-3-haiku-20240307-v1:0"}

_ARGUMENT_CODES = {"malformed_json", "trailing_data", "duplicate_key"}
_PARTIAL_CODES = {
    "invalid_json_path",
    "invalid_partial_arg",
    "broken_string_continuation",
    "duplicate_assignment",
    "path_type_conflict",
    "array_index_gap",
}
GEMINI_COHERE_INVOKE_CODES = frozenset({*_PARTIAL_CODES, "unsupported_model_family"})
"""The codes only these four formats have: none applies to the other five profiles."""
NOT_APPLICABLE: dict[str, set[str]] = {
    "gemini": {
        "missing_slot",  # calls are numbered by the profile, in order
        "missing_id",  # ids are optional: identity is position
        "unsupported_call_type",  # a functionCall has no type
        "conflicting_input",
        "arguments_mismatch",
        "unsupported_model_family",
        "empty_arguments",  # a whole call without args is the call {}
        *_ARGUMENT_CODES,  # arguments are an object, not text
    },
    "gemini-interactions": {
        "ambiguous_choice",
        "unsupported_call_type",  # an unknown step type is unsupported_event
        "arguments_mismatch",
        "unsupported_model_family",
        *_PARTIAL_CODES,
    },
    "cohere": {
        "ambiguous_choice",
        "conflicting_input",  # the start's arguments are the first fragment
        "arguments_mismatch",
        "unsupported_model_family",
        *_PARTIAL_CODES,
    },
    "bedrock-invoke": {
        "ambiguous_choice",
        "unsupported_call_type",
        "arguments_mismatch",
        *_PARTIAL_CODES,
    },
}


def build(catalogue: list[Any], entry_type: Any) -> list[Any]:
    """The entries; ``catalogue`` holds the anthropic entries to wrap."""
    out: list[Any] = []

    def add(code: str, profile: str, title: str, fixture: Any) -> None:
        out.append(entry_type(code, profile, title, fixture))

    _gemini(add)
    _interactions(add)
    _cohere(add)
    _invoke(add, catalogue)
    return out


def _gemini(add: Any) -> None:
    g = "gemini"
    whole = [gem_chunk(gem_call()), gem_finish()]

    def args(value: Any, schemas: Any = None) -> Any:
        return gemini([gem_chunk(gem_call(args=value)), gem_finish()], schemas=schemas)

    def stream(*parts: Any, schemas: Any = None) -> Any:
        return gemini(
            [gem_chunk(gem_open()), *(gem_chunk(p) for p in parts), gem_finish()],
            schemas=schemas,
        )

    add(
        "invalid_envelope",
        g,
        "a gemini fixture with an 'events' key",
        {"profile": g, "tool_schemas": {}, "events": []},
    )
    add(
        "unsupported_event",
        g,
        "a part with an unknown member",
        gemini([gem_chunk(gem_call(), {"hologram": {"name": "x"}}), gem_finish()]),
    )
    add(
        "provider_error",
        g,
        "an error object mid-stream",
        gemini(
            [gem_chunk(gem_call()), {"error": {"code": 503, "message": "overloaded"}}, gem_finish()]
        ),
    )
    add(
        "ambiguous_choice",
        g,
        "calls in candidates 0 and 1",
        gemini(
            [
                gem_chunk(gem_call(), candidate=0),
                gem_chunk(gem_call(), candidate=1),
                gem_finish(candidate=0),
                gem_finish(candidate=1),
            ]
        ),
    )
    add(
        "invalid_slot_index",
        g,
        "candidate index is negative",
        gemini([gem_chunk(gem_call(), candidate=-1), gem_finish()]),
    )
    add(
        "unknown_slot",
        g,
        "a continuation part before any call",
        gemini([gem_chunk(gem_more(pa("$.city", "Paris"), more=False)), gem_finish()]),
    )
    add(
        "identity_collision",
        g,
        "a new call while a streamed call continues",
        gemini([gem_chunk(gem_open(), gem_call()), gem_finish()]),
    )
    add(
        "identity_collision",
        g,
        "a streamed call's part carries another id",
        gemini(
            [
                gem_chunk(gem_open(id="c1")),
                gem_chunk(gem_more(pa("$.city", "Paris"), more=False, id="c2")),
                gem_finish(),
            ]
        ),
    )
    add(
        "duplicate_id",
        g,
        "two calls with the same id",
        gemini(
            [gem_chunk(gem_call(id="c1"), gem_call(args={"city": "Rome"}, id="c1")), gem_finish()]
        ),
    )
    add(
        "missing_name",
        g,
        "a functionCall whose name is empty",
        gemini([gem_chunk(gem_call(name="")), gem_finish()]),
    )
    add(
        "non_string_fragment",
        g,
        "functionCall.name is a number",
        gemini([gem_chunk(gem_call(name=7)), gem_finish()]),
    )
    add("missing_terminal", g, "a streamed call that never ends", gemini(streamed_city()[:-1]))
    add(
        "missing_terminal",
        g,
        "the stream ends while a string continues",
        gemini([gem_chunk(gem_open()), gem_chunk(gem_more(pa("$.city", "Par", more=True)))]),
    )
    add(
        "wrong_terminal_reason",
        g,
        "finishReason MAX_TOKENS after a whole call",
        gemini([gem_chunk(gem_call()), gem_finish("MAX_TOKENS")]),
    )
    add("duplicate_terminal", g, "finishReason twice", gemini([*whole, gem_finish()]))
    add(
        "delta_after_terminal",
        g,
        "a continuation part after the call ended",
        gemini([*streamed_city(), gem_chunk(gem_more(more=False)), gem_finish()]),
    )
    add(
        "delta_after_terminal",
        g,
        "a new call after finishReason",
        gemini([*whole, gem_chunk(gem_call(args={"city": "Rome"}))]),
    )
    add(
        "terminal_without_calls",
        g,
        "MALFORMED_FUNCTION_CALL on a turn without a call",
        gemini([gem_chunk({"text": "Let me check."}), gem_finish("MALFORMED_FUNCTION_CALL")]),
    )
    add(
        "non_finite_number",
        g,
        "numberValue spelled NaN",
        stream(
            gem_more(pa("$.city", "Paris"), pa("$.n", "NaN", kind="numberValue"), more=False),
            schemas={"weather": {"type": "object"}},
        ),
    )
    add("non_object_arguments", g, "args is an array", args(["Paris"]))
    add("invalid_unicode", g, "a lone surrogate in a string value", args({"city": "\ud800"}))
    add(
        "limit_exceeded",
        g,
        "args nested deeper than 128",
        args({"city": _nest(200)}, schemas={"weather": {"type": "object"}}),
    )
    add(
        "limit_exceeded",
        g,
        "a jsonPath deeper than 128",
        stream(gem_more(pa("$" + ".a" * 200, 1), more=False)),
    )
    add(
        "unknown_tool",
        g,
        "a call to a tool not in tool_schemas",
        args({"city": "Paris"}, {"clock": {"type": "object"}}),
    )
    add(
        "unsupported_schema_keyword",
        g,
        "the tool's schema uses oneOf",
        args({"city": "Paris"}, {"weather": {"type": "object", "oneOf": [{"required": ["city"]}]}}),
    )
    add(
        "invalid_schema",
        g,
        "the tool's schema has type 'strnig'",
        args(
            {"city": "Paris"},
            {"weather": {"type": "object", "properties": {"city": {"type": "strnig"}}}},
        ),
    )
    add("schema_violation", g, "city is a number", args({"city": 75001}))
    add(
        "schema_violation",
        g,
        "streamed: city is a number",
        stream(gem_more(pa("$.city", 75001), more=False)),
    )
    # -- the partialArgs rules
    add(
        "invalid_json_path",
        g,
        "a jsonPath without '$'",
        stream(gem_more(pa("city", "Paris"), more=False)),
    )
    add(
        "invalid_json_path",
        g,
        "an index with a leading zero",
        stream(gem_more(pa("$.city", "Paris"), pa("$.days[01]", 1), more=False)),
    )
    add("invalid_json_path", g, "the root itself", stream(gem_more(pa("$", "Paris"), more=False)))
    add(
        "invalid_partial_arg",
        g,
        "an entry with two values",
        stream(
            gem_more({"jsonPath": "$.city", "stringValue": "Paris", "boolValue": True}, more=False)
        ),
    )
    add(
        "invalid_partial_arg",
        g,
        "willContinue on a number",
        stream(
            gem_more(
                pa("$.city", "Paris"),
                {"jsonPath": "$.n", "numberValue": 1, "willContinue": True},
                more=False,
            )
        ),
    )
    add(
        "invalid_partial_arg",
        g,
        "whole args and partialArgs in one call",
        gemini(
            [
                gem_chunk(
                    {
                        "functionCall": {
                            "name": "weather",
                            "args": {"city": "Paris"},
                            "partialArgs": [pa("$.city", "Paris")],
                        }
                    }
                ),
                gem_finish(),
            ]
        ),
    )
    add(
        "broken_string_continuation",
        g,
        "a string continued on another path",
        stream(gem_more(pa("$.city", "Pa", more=True)), gem_more(pa("$.town", "ris"), more=False)),
    )
    add(
        "broken_string_continuation",
        g,
        "a string continued after it ended",
        stream(
            gem_more(pa("$.city", "Pa", more=True)),
            gem_more(pa("$.city", "ri")),
            gem_more(pa("$.city", "s"), more=False),
        ),
    )
    add(
        "broken_string_continuation",
        g,
        "the call ends while a string continues",
        stream(gem_more(pa("$.city", "Pa", more=True), more=False)),
    )
    add(
        "duplicate_assignment",
        g,
        "the same path assigned twice",
        stream(gem_more(pa("$.city", "Paris")), gem_more(pa("$.city", "Rome"), more=False)),
    )
    add(
        "path_type_conflict",
        g,
        "$.a used as an object and as an array",
        stream(gem_more(pa("$.city", "Paris"), pa("$.a.b", 1), pa("$.a[0]", 2), more=False)),
    )
    add(
        "path_type_conflict",
        g,
        "a path below a number",
        stream(gem_more(pa("$.city", "Paris"), pa("$.a", 1), pa("$.a.b", 2), more=False)),
    )
    add(
        "array_index_gap",
        g,
        "index 2 of an empty array",
        stream(gem_more(pa("$.city", "Paris"), pa("$.days[2]", 1), more=False)),
    )


def _interactions(add: Any) -> None:
    p = "gemini-interactions"

    def args(text: str, schemas: Any = None) -> Any:
        return interactions(gi_turn(gi_call(parts=(text,))), schemas=schemas)

    add(
        "invalid_envelope",
        p,
        "an interactions fixture with a 'chunks' key",
        {"profile": p, "tool_schemas": {}, "chunks": []},
    )
    add(
        "unsupported_event",
        p,
        "a legacy content.delta event",
        interactions(gi_turn(gi_call(), [{"event_type": "content.delta", "index": 0}])),
    )
    add(
        "unsupported_event",
        p,
        "an unknown step type",
        interactions(gi_turn(gi_call(), [gi_start(1, "hologram"), gi_stop(1)])),
    )
    add(
        "provider_error",
        p,
        "an error event",
        interactions(
            gi_turn(gi_call(), [{"event_type": "error", "error": {"message": "overloaded"}}])
        ),
    )
    add("provider_error", p, "status failed", interactions(gi_turn(gi_call(), status="failed")))
    add(
        "invalid_slot_index",
        p,
        "step index is a string",
        interactions([gi_created(), gi_start("0"), gi_completed()]),
    )
    add(
        "missing_slot",
        p,
        "steps 0 and 2, no 1",
        interactions(gi_turn(gi_call(0, "fc_1"), gi_call(2, "fc_3"))),
    )
    add(
        "unknown_slot",
        p,
        "an arguments delta for a step never started",
        interactions(gi_turn(gi_call(), [gi_delta(1, "{}")])),
    )
    add(
        "identity_collision",
        p,
        "step 0 started twice",
        interactions(
            gi_turn(
                [gi_start(0), gi_start(0, id="fc_2"), gi_delta(0, '{"city":"Paris"}'), gi_stop(0)]
            )
        ),
    )
    add(
        "duplicate_id",
        p,
        "two calls with the same id",
        interactions(gi_turn(gi_call(0, "fc_1"), gi_call(1, "fc_1"))),
    )
    add(
        "missing_id",
        p,
        "a function_call step without id",
        interactions(gi_turn([gi_start(0, id=None), gi_delta(0, '{"city":"Paris"}'), gi_stop(0)])),
    )
    add(
        "missing_name",
        p,
        "a function_call step with an empty name",
        interactions(gi_turn([gi_start(0, name=""), gi_delta(0, '{"city":"Paris"}'), gi_stop(0)])),
    )
    add(
        "non_string_fragment",
        p,
        "delta.arguments is an object",
        interactions(gi_turn([gi_start(0), gi_delta(0, {"city": "Paris"}), gi_stop(0)])),
    )
    add(
        "missing_terminal",
        p,
        "no step.stop for the call",
        interactions(gi_turn([gi_start(0), gi_delta(0, '{"city":"Paris"}')])),
    )
    add(
        "wrong_terminal_reason",
        p,
        "status completed after a call",
        interactions(gi_turn(gi_call(), status="completed")),
    )
    add("duplicate_terminal", p, "step.stop twice", interactions(gi_turn([*gi_call(), gi_stop(0)])))
    add(
        "delta_after_terminal",
        p,
        "an arguments delta after step.stop",
        interactions(gi_turn([*gi_call(), gi_delta(0, " ")])),
    )
    add(
        "terminal_without_calls",
        p,
        "requires_action on a text-only turn",
        interactions(gi_turn([gi_start(0, "model_output"), gi_delta(0, "Hi", "text"), gi_stop(0)])),
    )
    add(
        "conflicting_input",
        p,
        "a start input and delta text",
        interactions(
            gi_turn(
                [
                    gi_start(0, arguments={"city": "Rome"}),
                    gi_delta(0, '{"city":"Paris"}'),
                    gi_stop(0),
                ]
            )
        ),
    )
    add(
        "empty_arguments",
        p,
        "a call without arguments and without deltas",
        interactions(gi_turn([gi_start(0, arguments=None), gi_stop(0)])),
    )
    for code, title, text in _ARGUMENT_TEXTS:
        add(code, p, title, args(text))
    for code, title, schemas in _SCHEMA_CASES:
        add(code, p, title, args('{"city":"Paris"}', schemas))


def _cohere(add: Any) -> None:
    p = "cohere"

    def args(text: str, schemas: Any = None) -> Any:
        return cohere(co_turn(co_call(parts=(text,))), schemas=schemas)

    add(
        "invalid_envelope",
        p,
        "a cohere fixture with a 'chunks' key",
        {"profile": p, "tool_schemas": {}, "chunks": []},
    )
    add(
        "unsupported_event",
        p,
        "an unknown event type",
        cohere(co_turn(co_call(), [{"type": "tool-call-flush", "index": 0}])),
    )
    add("provider_error", p, "finish_reason ERROR", cohere(co_turn(co_call(), reason="ERROR")))
    add(
        "invalid_slot_index",
        p,
        "tool call index is null",
        cohere([co_message_start(), co_start(None), co_message_end()]),
    )
    add(
        "missing_slot",
        p,
        "calls 0 and 2, no 1",
        cohere(co_turn(co_call(0, "w_1"), co_call(2, "w_3"))),
    )
    add(
        "unknown_slot",
        p,
        "a delta for a call never started",
        cohere(co_turn(co_call(), [co_delta(1, "{}")])),
    )
    add(
        "identity_collision",
        p,
        "call 0 started twice",
        cohere(
            co_turn([co_start(0), co_start(0, "w_2"), co_delta(0, '{"city":"Paris"}'), co_end(0)])
        ),
    )
    add(
        "duplicate_id",
        p,
        "two calls with the same id",
        cohere(co_turn(co_call(0, "w_1"), co_call(1, "w_1"))),
    )
    add("missing_id", p, "a call with an empty id", cohere(co_turn(co_call(0, ""))))
    add(
        "missing_name",
        p,
        "a call with a null name",
        cohere(co_turn([co_start(0, name=None), co_delta(0, '{"city":"Paris"}'), co_end(0)])),
    )
    add(
        "unsupported_call_type",
        p,
        "a tool call of type 'retrieval'",
        cohere(co_turn([co_start(0, type="retrieval"), co_delta(0, "{}"), co_end(0)])),
    )
    add(
        "non_string_fragment",
        p,
        "arguments sent as an object",
        cohere(co_turn([co_start(0), co_delta(0, {"city": "Paris"}), co_end(0)])),
    )
    add(
        "missing_terminal",
        p,
        "no tool-call-end",
        cohere(co_turn([co_start(0), co_delta(0, '{"city":"Paris"}')])),
    )
    add(
        "wrong_terminal_reason",
        p,
        "finish_reason MAX_TOKENS after a call",
        cohere(co_turn(co_call(), reason="MAX_TOKENS")),
    )
    add("duplicate_terminal", p, "tool-call-end twice", cohere(co_turn([*co_call(), co_end(0)])))
    add(
        "delta_after_terminal",
        p,
        "a delta after tool-call-end",
        cohere(co_turn([*co_call(), co_delta(0, " ")])),
    )
    add("terminal_without_calls", p, "TOOL_CALL on a turn without a call", cohere(co_turn()))
    add(
        "empty_arguments",
        p,
        "a call with no argument text",
        cohere(co_turn([co_start(0), co_end(0)])),
    )
    for code, title, text in _ARGUMENT_TEXTS:
        add(code, p, title, args(text))
    for code, title, schemas in _SCHEMA_CASES:
        add(code, p, title, args('{"city":"Paris"}', schemas))


def _invoke(add: Any, catalogue: list[Any]) -> None:
    p = "bedrock-invoke"
    add(
        "invalid_envelope",
        p,
        "a bedrock-invoke fixture with a 'chunks' key",
        {"profile": p, "tool_schemas": {}, "chunks": []},
    )
    add(
        "unsupported_event",
        p,
        "a chunk cut in half (base64 truncated)",
        bedrock_invoke(_cut(invoke_turn(invoke_tool())), request=CLAUDE),
    )
    add(
        "provider_error",
        p,
        "a modelStreamErrorException mid-stream",
        bedrock_invoke(
            [*invoke_turn(invoke_tool()), {"modelStreamErrorException": {"message": "x"}}],
            request=CLAUDE,
        ),
    )
    add(
        "unsupported_model_family",
        p,
        "a Llama stream (modelId meta.llama3)",
        bedrock_invoke(
            [wrap({"generation": "Hi", "stop_reason": None})],
            request={"modelId": "meta.llama3-70b-instruct-v1:0"},
        ),
    )
    add(
        "unsupported_model_family",
        p,
        "no modelId, and the payload is not Anthropic's",
        bedrock_invoke([wrap({"outputText": "Hi", "index": 0})]),
    )
    # Every Anthropic rule, through the wrapper.
    for entry in catalogue:
        if entry.profile != "anthropic" or entry.code in {
            "invalid_envelope",
            "unsupported_event",
            "provider_error",
        }:
            continue
        fixture = copy.deepcopy(entry.fixture)
        add(
            entry.code,
            p,
            entry.title,
            bedrock_invoke(
                [wrap(e) for e in fixture["events"]],
                schemas=fixture["tool_schemas"],
                request=CLAUDE,
            ),
        )
    add(
        "unsupported_event",
        p,
        "an unknown wrapped event type",
        bedrock_invoke(
            [wrap(e) for e in anthropic_turn(invoke_tool(), [{"type": "content_block_flush"}])],
            request=CLAUDE,
        ),
    )
    add(
        "invalid_slot_index",
        p,
        "a wrapped block index is a string",
        bedrock_invoke([wrap(message_start()), wrap(tool_start("1"))], request=CLAUDE),
    )


def _cut(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = copy.deepcopy(events)
    data = out[0]["chunk"]["bytes"]  # message_start: nothing else depends on it
    out[0]["chunk"]["bytes"] = data[: len(data) // 2]
    return out


def _nest(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


_ARGUMENT_TEXTS = [
    ("malformed_json", "arguments cut mid-string", '{"city": "Par'),
    ("trailing_data", "arguments sent twice", '{"city":"Paris"}{"city":"Paris"}'),
    ("non_finite_number", "NaN in the arguments", '{"city":"Paris","n":NaN}'),
    ("non_object_arguments", "a JSON array as arguments", '["Paris"]'),
    ("duplicate_key", "the key city twice", '{"city":"Paris","city":"Rome"}'),
    ("invalid_unicode", "a lone surrogate escape", '{"city":"\\ud800"}'),
    ("limit_exceeded", "nesting deeper than 128", '{"city":' + "[" * 200 + "]" * 200 + "}"),
    ("schema_violation", "city is a number", '{"city": 75001}'),
]
_SCHEMA_CASES = [
    ("unknown_tool", "a call to a tool not in tool_schemas", {"clock": {"type": "object"}}),
    (
        "unsupported_schema_keyword",
        "the tool's schema uses oneOf",
        {"weather": {"type": "object", "oneOf": [{"required": ["city"]}]}},
    ),
    (
        "invalid_schema",
        "the tool's schema has type 'strnig'",
        {"weather": {"type": "object", "properties": {"city": {"type": "strnig"}}}},
    ),
]
