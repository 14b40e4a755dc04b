"""A minimal fixture for every finding code, for each profile where it applies.

Each entry must produce exactly its one code and status ``blocked``.  The
same entries feed ``docs/findings.md`` (``scripts/render_docs.py``), so the
docs show fixtures that are tested.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.support.builders import (
    anthropic,
    anthropic_turn,
    block_stop,
    call,
    chunk,
    json_delta,
    message_delta,
    message_start,
    message_stop,
    openai,
    text_chunk,
    text_start,
    tool_block,
    tool_start,
    weather_call,
)


@dataclass(frozen=True)
class Entry:
    code: str
    profile: str
    title: str
    fixture: Any


def _chat(code: str, title: str, chunks: list[Any], **kw: Any) -> list[Entry]:
    """The same chunks under the openai and mistral profiles."""
    return [
        Entry(code, profile, title, openai(chunks, profile=profile, **kw))
        for profile in ("openai", "mistral")
    ]


def _args(text: str, schemas: dict[str, Any] | None = None) -> tuple[list[Entry], Entry]:
    """A complete call whose whole arguments text is ``text``, per profile."""
    chat_chunks = [chunk(call(0, "call_1", "weather", text)), chunk(finish="tool_calls")]
    chat = [
        Entry("", p, "", openai(chat_chunks, profile=p, schemas=schemas))
        for p in ("openai", "mistral")
    ]
    ant = Entry(
        "", "anthropic", "", anthropic(anthropic_turn(tool_block(parts=(text,))), schemas=schemas)
    )
    return chat, ant


def _args_entries(code: str, title: str, text: str, schemas: Any = None) -> list[Entry]:
    chat, ant = _args(text, schemas)
    return [Entry(code, e.profile, title, e.fixture) for e in [*chat, ant]]


def _build() -> list[Entry]:
    out: list[Entry] = []
    add = out.extend

    add(
        [
            Entry(
                "invalid_envelope",
                "openai",
                "an openai fixture with an Anthropic 'events' key",
                {"profile": "openai", "tool_schemas": {}, "events": []},
            ),
            Entry(
                "invalid_envelope",
                "mistral",
                "an unknown top-level key",
                {"profile": "mistral", "tool_schemas": {}, "chunks": [], "extra": 1},
            ),
            Entry(
                "invalid_envelope",
                "anthropic",
                "tool_schemas missing",
                {"profile": "anthropic", "events": []},
            ),
        ]
    )
    add(
        _chat(
            "unsupported_event",
            "a chunk that is not an object, inside a tool stream",
            [*weather_call()[:2], "not a chunk", weather_call()[2]],
        )
    )
    add(
        [
            Entry(
                "unsupported_event",
                "anthropic",
                "an unknown event type inside a tool turn",
                anthropic(anthropic_turn(tool_block(), [{"type": "content_block_flush"}])),
            )
        ]
    )
    add(
        _chat(
            "provider_error",
            "an error object mid-stream",
            [
                *weather_call()[:2],
                {"error": {"message": "overloaded", "type": "server_error"}},
                weather_call()[2],
            ],
        )
    )
    add(
        [
            Entry(
                "provider_error",
                "anthropic",
                "an error event mid-stream",
                anthropic(
                    anthropic_turn(
                        tool_block(),
                        [{"type": "error", "error": {"type": "overloaded_error", "message": "x"}}],
                    )
                ),
            )
        ]
    )
    # -- the closed world -----------------------------------------------------
    add(
        _chat(
            "unsupported_event",
            "a Gemini chunk under a chat profile (no choices, usage or error)",
            [
                {
                    "candidates": [{"content": {"parts": [{"text": "Hi"}]}}],
                    "usageMetadata": {"totalTokenCount": 3},
                }
            ],
        )
    )
    add(
        _chat(
            "unsupported_event",
            "a delta member the profile does not know, in a text-only turn",
            [
                {"choices": [{"index": 0, "delta": {"tool_call": {"name": "weather"}}}]},
                text_chunk("", finish="stop"),
            ],
        )
    )
    add(
        _chat(
            "provider_error",
            "an OpenAI-compatible error object (object: error) instead of a reply",
            [{"object": "error", "message": "model overloaded", "type": "server_error"}],
        )
    )
    add(
        _chat(
            "duplicate_terminal",
            "finish_reason tool_calls repeated on the usage chunk",
            [
                *weather_call(),
                {
                    "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
                    "usage": {"total_tokens": 9},
                },
            ],
        )
    )
    add(
        [
            Entry(
                "unsupported_event",
                "anthropic",
                "an OpenAI chunk in a text-only turn",
                anthropic(
                    [
                        message_start(),
                        {"choices": [{"index": 0, "delta": {"content": "Hi"}}]},
                        message_delta("end_turn"),
                        message_stop(),
                    ]
                ),
            ),
            Entry(
                "unsupported_event",
                "anthropic",
                "a content block type the profile has never seen",
                anthropic(
                    [
                        message_start(),
                        {
                            "type": "content_block_start",
                            "index": 0,
                            "content_block": {"type": "future_block"},
                        },
                        {
                            "type": "content_block_delta",
                            "index": 0,
                            "delta": {"type": "future_delta"},
                        },
                        block_stop(0),
                        text_start(1),
                        block_stop(1),
                        message_delta("end_turn"),
                        message_stop(),
                    ]
                ),
            ),
            Entry(
                "provider_error",
                "anthropic",
                "an error event in a text-only turn (no call at all)",
                anthropic(
                    [
                        message_start(),
                        {"type": "error", "error": {"type": "overloaded_error", "message": "x"}},
                    ]
                ),
            ),
        ]
    )
    add(
        _chat(
            "ambiguous_choice",
            "complete calls in choice 0 and choice 1",
            [
                chunk(call(0, "call_1", "weather", '{"city":"Paris"}'), choice=0),
                chunk(call(0, "call_2", "weather", '{"city":"Rome"}'), choice=1),
                chunk(finish="tool_calls", choice=0),
                chunk(finish="tool_calls", choice=1),
            ],
        )
    )
    add(
        [
            Entry(
                "invalid_slot_index",
                "openai",
                "tool_calls[].index is null",
                openai([chunk(call(None, "call_1", "weather", '{"city":"Paris"}'))]),
            ),
            Entry(
                "invalid_slot_index",
                "mistral",
                "tool_calls[].index is negative",
                openai(
                    [chunk(call(-1, "call_1", "weather", '{"city":"Paris"}'), finish="tool_calls")],
                    profile="mistral",
                ),
            ),
            Entry(
                "invalid_slot_index",
                "anthropic",
                "content block index is a string",
                anthropic([message_start(), tool_start("1"), json_delta("1", "{}")]),
            ),
        ]
    )
    add(
        _chat(
            "missing_slot",
            "indices 0 and 2, no 1",
            [
                chunk(call(0, "call_1", "weather", '{"city":"Paris"}')),
                chunk(call(2, "call_3", "weather", '{"city":"Rome"}')),
                chunk(finish="tool_calls"),
            ],
        )
    )
    add(
        [
            Entry(
                "missing_slot",
                "anthropic",
                "content blocks 0 and 2, no 1",
                anthropic(anthropic_turn(tool_block(0, "toolu_1"), tool_block(2, "toolu_3"))),
            ),
            Entry(
                "unknown_slot",
                "anthropic",
                "input_json_delta for a block that was never started",
                anthropic(anthropic_turn(tool_block(0), [json_delta(1, "{}")])),
            ),
        ]
    )
    add(
        _chat(
            "identity_collision",
            "a second call reuses index 0 with a new id",
            [
                chunk(call(0, "call_1", "weather", '{"city":"Paris"}')),
                chunk(call(0, "call_2", "weather", '{"city":"Rome"}')),
                chunk(finish="tool_calls"),
            ],
        )
    )
    add(
        [
            Entry(
                "identity_collision",
                "anthropic",
                "block 0 started twice",
                anthropic(
                    anthropic_turn(
                        [tool_start(0, "toolu_1"), tool_start(0, "toolu_2")],
                        [json_delta(0, '{"city":"Paris"}'), block_stop(0)],
                    )
                ),
            )
        ]
    )
    add(
        _chat(
            "duplicate_id",
            "two slots carry the same id",
            [
                chunk(call(0, "call_1", "weather", '{"city":"Paris"}')),
                chunk(call(1, "call_1", "weather", '{"city":"Rome"}')),
                chunk(finish="tool_calls"),
            ],
        )
    )
    add(
        [
            Entry(
                "duplicate_id",
                "anthropic",
                "two tool_use blocks with the same id",
                anthropic(anthropic_turn(tool_block(0, "toolu_1"), tool_block(1, "toolu_1"))),
            )
        ]
    )
    add(
        _chat(
            "missing_id",
            "no fragment carries an id",
            [chunk(call(0, None, "weather", '{"city":"Paris"}')), chunk(finish="tool_calls")],
        )
    )
    add(
        [
            Entry(
                "missing_id",
                "anthropic",
                "tool_use block with an empty id",
                anthropic(anthropic_turn(tool_block(0, ""))),
            )
        ]
    )
    add(
        _chat(
            "missing_name",
            "no fragment carries a function name",
            [chunk(call(0, "call_1", None, '{"city":"Paris"}')), chunk(finish="tool_calls")],
        )
    )
    add(
        [
            Entry(
                "missing_name",
                "anthropic",
                "tool_use block with a null name",
                anthropic(
                    anthropic_turn(
                        [tool_start(0, "toolu_1", None), json_delta(0, "{}"), block_stop(0)]
                    )
                ),
            )
        ]
    )
    add(
        _chat(
            "unsupported_call_type",
            "a tool call of type 'custom'",
            [
                chunk(call(0, "call_1", "weather", '{"city":"Paris"}', type_="custom")),
                chunk(finish="tool_calls"),
            ],
        )
    )
    add(
        _chat(
            "non_string_fragment",
            "arguments sent as a JSON object",
            [chunk(call(0, "call_1", "weather", {"city": "Paris"})), chunk(finish="tool_calls")],
        )
    )
    add(
        [
            Entry(
                "non_string_fragment",
                "anthropic",
                "partial_json is an object",
                anthropic(
                    anthropic_turn([tool_start(0), json_delta(0, {"city": "Paris"}), block_stop(0)])
                ),
            )
        ]
    )
    add(
        _chat(
            "missing_terminal",
            "arguments parse, but the stream ends without finish_reason",
            [chunk(call(0, "call_1", "weather", '{"city":"Paris"}'))],
        )
    )
    add(
        [
            Entry(
                "missing_terminal",
                "anthropic",
                "no content_block_stop for the tool block",
                anthropic(
                    [
                        message_start(),
                        tool_start(0),
                        json_delta(0, '{"city":"Paris"}'),
                        message_delta(),
                        message_stop(),
                    ]
                ),
            )
        ]
    )
    add(
        _chat(
            "wrong_terminal_reason",
            "finish_reason 'length' with a complete call",
            [chunk(call(0, "call_1", "weather", '{"city":"Paris"}')), chunk(finish="length")],
        )
    )
    add(
        [
            Entry(
                "wrong_terminal_reason",
                "anthropic",
                "stop_reason 'max_tokens' after a complete block",
                anthropic(anthropic_turn(tool_block(), reason="max_tokens")),
            )
        ]
    )
    add(
        _chat(
            "duplicate_terminal",
            "finish_reason sent twice",
            [*weather_call(), chunk(finish="tool_calls")],
        )
    )
    add(
        [
            Entry(
                "duplicate_terminal",
                "anthropic",
                "content_block_stop sent twice",
                anthropic(anthropic_turn([*tool_block(), block_stop(0)])),
            )
        ]
    )
    add(
        _chat(
            "delta_after_terminal",
            "an arguments fragment after finish_reason",
            [*weather_call(), chunk(call(0, args=" "))],
        )
    )
    add(
        [
            Entry(
                "delta_after_terminal",
                "anthropic",
                "input_json_delta after the block's stop",
                anthropic(anthropic_turn([*tool_block(), json_delta(0, " ")])),
            )
        ]
    )
    add(
        _chat(
            "terminal_without_calls",
            "finish_reason 'tool_calls' on a text-only turn",
            [text_chunk("Hello"), text_chunk("", finish="tool_calls")],
        )
    )
    add(
        [
            Entry(
                "terminal_without_calls",
                "anthropic",
                "stop_reason 'tool_use' without a tool_use block",
                anthropic([message_start(), message_delta("tool_use"), message_stop()]),
            ),
            Entry(
                "conflicting_input",
                "anthropic",
                "a non-empty start input and non-empty deltas",
                anthropic(
                    anthropic_turn(
                        [
                            tool_start(0, input={"city": "Paris"}),
                            json_delta(0, '{"city":"Rome"}'),
                            block_stop(0),
                        ]
                    )
                ),
            ),
        ]
    )
    add(
        _chat(
            "empty_arguments",
            "a call whose arguments are the empty string",
            [chunk(call(0, "call_1", "weather", "")), chunk(finish="tool_calls")],
        )
    )
    add(
        [
            Entry(
                "empty_arguments",
                "anthropic",
                "a tool_use block with no input and no deltas",
                anthropic(
                    anthropic_turn(
                        [
                            {
                                "type": "content_block_start",
                                "index": 0,
                                "content_block": {"type": "tool_use", "id": "t", "name": "weather"},
                            },
                            block_stop(0),
                        ]
                    )
                ),
            )
        ]
    )
    add(_args_entries("malformed_json", "arguments cut mid-string", '{"city": "Par'))
    add(_args_entries("trailing_data", "arguments sent twice", '{"city":"Paris"}{"city":"Paris"}'))
    add(_args_entries("non_finite_number", "NaN in the arguments", '{"city":"Paris","n":NaN}'))
    add(_args_entries("non_object_arguments", "a JSON array as arguments", '["Paris"]'))
    add(_args_entries("duplicate_key", "the key city twice", '{"city":"Paris","city":"Rome"}'))
    add(_args_entries("invalid_unicode", "a lone surrogate escape", '{"city":"\\ud800"}'))
    add(
        _args_entries(
            "limit_exceeded", "nesting deeper than 128", '{"city":' + "[" * 200 + "]" * 200 + "}"
        )
    )
    add(
        _args_entries(
            "unknown_tool",
            "a call to a tool not in tool_schemas",
            '{"city":"Paris"}',
            schemas={"clock": {"type": "object"}},
        )
    )
    add(
        _args_entries(
            "unsupported_schema_keyword",
            "the tool's schema uses oneOf",
            '{"city":"Paris"}',
            schemas={"weather": {"type": "object", "oneOf": [{"required": ["city"]}]}},
        )
    )
    add(
        _args_entries(
            "invalid_schema",
            "the tool's schema has type 'strnig'",
            '{"city":"Paris"}',
            schemas={"weather": {"type": "object", "properties": {"city": {"type": "strnig"}}}},
        )
    )
    add(_args_entries("schema_violation", "city is a number", '{"city": 75001}'))
    return out


CATALOGUE: list[Entry] = _build()


def _build_responses_and_bedrock() -> list[Entry]:
    """Entries for the openai-responses and bedrock profiles.

    Not applicable: ``ambiguous_choice`` (no choices in either API),
    ``conflicting_input`` (Anthropic's start input), ``terminal_without_calls``
    for openai-responses (its end reasons never claim tool use),
    ``empty_arguments`` for bedrock (a tool block without input text is the
    no-argument call ``{}``) and ``arguments_mismatch`` for bedrock (nothing
    restates the arguments).
    """
    from tests.support.builders import (
        bedrock,
        bedrock_tool,
        bedrock_turn,
        br_delta,
        br_message_start,
        br_message_stop,
        br_start,
        br_stop,
        br_text,
        fc_added,
        fc_args_done,
        fc_delta,
        fc_item_done,
        item_added,
        item_done,
        message_item,
        resp_created,
        resp_end,
        responses,
        responses_call,
        responses_turn,
    )

    R = "openai-responses"
    B = "bedrock"
    out: list[Entry] = []

    def resp(code: str, title: str, events: list[Any], **kw: Any) -> None:
        out.append(Entry(code, R, title, responses(events, **kw)))

    def br(code: str, title: str, events: list[Any], **kw: Any) -> None:
        out.append(Entry(code, B, title, bedrock(events, **kw)))

    def resp_args(text: str) -> list[Any]:
        return responses_turn(responses_call(parts=(text,)))

    def br_args(text: str) -> list[Any]:
        return bedrock_turn(bedrock_tool(parts=(text,)))

    # -- the stream ------------------------------------------------------------
    out.append(
        Entry(
            "invalid_envelope",
            R,
            "an openai-responses fixture with a 'chunks' key",
            {"profile": R, "tool_schemas": {}, "chunks": []},
        )
    )
    out.append(
        Entry(
            "invalid_envelope",
            B,
            "a bedrock fixture without 'events'",
            {"profile": B, "tool_schemas": {}},
        )
    )
    call = responses_call()
    resp(
        "unsupported_event",
        "an unknown event type inside a tool turn",
        responses_turn([*call[:2], {"type": "response.function_call_arguments.flush"}, *call[2:]]),
    )
    br(
        "unsupported_event",
        "an unknown event type inside a tool turn",
        bedrock_turn([*bedrock_tool(), {"contentBlockFlush": {"contentBlockIndex": 0}}]),
    )
    resp(
        "provider_error",
        "an error event mid-stream",
        responses_turn(
            [*call[:2], {"type": "error", "code": "server_error", "message": "x"}, *call[2:]]
        ),
    )
    br(
        "provider_error",
        "a modelStreamErrorException event mid-stream",
        bedrock_turn(
            [
                *bedrock_tool()[:2],
                {"modelStreamErrorException": {"message": "x"}},
                *bedrock_tool()[2:],
            ]
        ),
    )
    resp(
        "unsupported_event",
        "an output item type the profile does not know",
        responses_turn(
            [item_added(0, "future_tool_call", "ftc_1"), item_done(0, "future_tool_call", "ftc_1")]
        ),
    )
    resp(
        "unsupported_event",
        "an Anthropic event in a text-only turn",
        responses_turn(message_item(0), [{"type": "message_stop"}]),
    )
    br(
        "unsupported_event",
        "an unknown contentBlockStart member",
        bedrock_turn(
            [{"contentBlockStart": {"contentBlockIndex": 0, "start": {"video": {}}}}, br_stop(0)],
            reason="end_turn",
        ),
    )
    resp(
        "provider_error",
        "response.failed on a text-only turn",
        [
            *responses_turn(message_item(0))[:-1],
            {
                "type": "response.failed",
                "response": {
                    "id": "resp_1",
                    "status": "failed",
                    "error": {"code": "server_error", "message": "x"},
                },
            },
        ],
    )
    br(
        "provider_error",
        "a throttlingException on a text-only turn",
        [
            br_message_start(),
            br_text(0, "Hi"),
            br_stop(0),
            {"throttlingException": {"message": "slow down"}},
        ],
    )
    resp(
        "arguments_mismatch",
        "no deltas, and the two done events deliver different arguments",
        responses_turn(
            [
                fc_added(),
                fc_args_done("fc_1", '{"city": "Paris"}'),
                fc_item_done(arguments='{"city": "Rome"}'),
            ]
        ),
    )
    resp(
        "unsupported_call_type",
        "a tool_search_call the client is to run",
        responses_turn(
            [
                {
                    "type": "response.output_item.added",
                    "output_index": 0,
                    "item": {"id": "ts_1", "type": "tool_search_call", "execution": "client"},
                },
                item_done(0, "tool_search_call", "ts_1"),
            ]
        ),
    )
    resp(
        "invalid_slot_index",
        "output_item.added without output_index",
        [resp_created(), fc_added(None), resp_end()],
    )
    br(
        "invalid_slot_index",
        "contentBlockIndex is a string",
        [br_message_start(), br_start("0"), br_delta("0", "{}"), br_stop("0")],
    )
    resp(
        "missing_slot",
        "output items 0 and 2, no 1",
        responses_turn(responses_call(0, "fc_1", "call_1"), responses_call(2, "fc_3", "call_3")),
    )
    br(
        "missing_slot",
        "content blocks 0 and 2, no 1",
        bedrock_turn(bedrock_tool(0, "tooluse_1"), bedrock_tool(2, "tooluse_3")),
    )
    resp(
        "unknown_slot",
        "an arguments delta for an item that was never added",
        responses_turn(call, [fc_delta("fc_9", "{}")]),
    )
    br(
        "unknown_slot",
        "a toolUse delta for a block that was never started",
        bedrock_turn(bedrock_tool(0), [br_delta(1, "{}")]),
    )
    resp(
        "identity_collision",
        "a delta whose output_index disagrees with its item's",
        responses_turn(
            [
                fc_added(0, "fc_1"),
                fc_delta("fc_1", '{"city"', 0),
                fc_delta("fc_1", ': "Paris"}', 1),
                *call[-2:],
            ]
        ),
    )
    br(
        "identity_collision",
        "block 0 started twice",
        bedrock_turn(
            [
                br_start(0, "tooluse_1"),
                br_start(0, "tooluse_2"),
                br_delta(0, '{"city":"Paris"}'),
                br_stop(0),
            ]
        ),
    )
    resp(
        "duplicate_id",
        "two function_call items with the same call_id",
        responses_turn(responses_call(0, "fc_1", "call_1"), responses_call(1, "fc_2", "call_1")),
    )
    br(
        "duplicate_id",
        "two toolUse blocks with the same toolUseId",
        bedrock_turn(bedrock_tool(0, "tooluse_1"), bedrock_tool(1, "tooluse_1")),
    )
    resp(
        "missing_id",
        "a function_call item without call_id",
        responses_turn(
            [
                fc_added(0, "fc_1", None),
                fc_delta("fc_1", '{"city": "Paris"}'),
                fc_args_done("fc_1", '{"city": "Paris"}'),
                fc_item_done(0, "fc_1", None),
            ]
        ),
    )
    br(
        "missing_id",
        "a toolUse block with an empty toolUseId",
        bedrock_turn(bedrock_tool(0, "")),
    )
    resp(
        "missing_name",
        "a function_call item without name",
        responses_turn(
            [
                fc_added(0, "fc_1", "call_1", None),
                fc_delta("fc_1", '{"city": "Paris"}'),
                fc_args_done("fc_1", '{"city": "Paris"}'),
                fc_item_done(0, "fc_1", "call_1", None),
            ]
        ),
    )
    br(
        "missing_name",
        "a toolUse block with a null name",
        bedrock_turn([br_start(0, "tooluse_1", None), br_delta(0, "{}"), br_stop(0)]),
    )
    resp(
        "unsupported_call_type",
        "a custom_tool_call item",
        responses_turn(
            [item_added(0, "custom_tool_call", "ctc_1"), item_done(0, "custom_tool_call", "ctc_1")]
        ),
    )
    br(
        "unsupported_call_type",
        "a toolUse block of an unknown type",
        bedrock_turn([br_start(0, type_="client_side_tool"), br_delta(0, "{}"), br_stop(0)]),
    )
    resp(
        "non_string_fragment",
        "an arguments delta that is a JSON object",
        responses_turn(
            [
                fc_added(),
                fc_delta("fc_1", {"city": "Paris"}),
                fc_args_done("fc_1", '{"city": "Paris"}'),
                fc_item_done(),
            ]
        ),
    )
    br(
        "non_string_fragment",
        "toolUse.input sent as an object (the non-streaming shape)",
        bedrock_turn([br_start(0), br_delta(0, {"city": "Paris"}), br_stop(0)]),
    )
    resp(
        "missing_terminal",
        "arguments done, then response.completed without output_item.done",
        responses_turn(call[:-1]),
    )
    br(
        "missing_terminal",
        "no contentBlockStop for the tool block",
        [br_message_start(), br_start(0), br_delta(0, '{"city":"Paris"}'), br_message_stop()],
    )
    resp(
        "wrong_terminal_reason",
        "response.incomplete after a complete call",
        responses_turn(call, end="response.incomplete"),
    )
    br(
        "wrong_terminal_reason",
        "stopReason max_tokens after a complete block",
        bedrock_turn(bedrock_tool(), reason="max_tokens"),
    )
    resp(
        "duplicate_terminal",
        "response.completed sent twice",
        [*responses_turn(call), resp_end()],
    )
    br(
        "duplicate_terminal",
        "contentBlockStop sent twice",
        bedrock_turn([*bedrock_tool(), br_stop(0)]),
    )
    resp(
        "delta_after_terminal",
        "an arguments delta after output_item.done",
        responses_turn(call, [fc_delta("fc_1", " ")]),
    )
    br(
        "delta_after_terminal",
        "a toolUse delta after the block's stop",
        bedrock_turn([*bedrock_tool(), br_delta(0, " ")]),
    )
    br(
        "terminal_without_calls",
        "stopReason tool_use on a text-only turn",
        bedrock_turn([br_text(0, "Hello"), br_stop(0)]),
    )
    resp(
        "empty_arguments",
        "a function_call whose arguments are the empty string",
        responses_turn([fc_added(), fc_args_done("fc_1", ""), fc_item_done(arguments="")]),
    )
    resp(
        "arguments_mismatch",
        "function_call_arguments.done restates other arguments than the deltas",
        responses_turn(responses_call(restated='{"city": "Rome"}')),
    )

    # -- the arguments -------------------------------------------------------
    for code, title, text in [
        ("malformed_json", "arguments cut mid-string", '{"city": "Par'),
        ("trailing_data", "arguments sent twice", '{"city":"Paris"}{"city":"Paris"}'),
        ("non_finite_number", "NaN in the arguments", '{"city":"Paris","n":NaN}'),
        ("non_object_arguments", "a JSON array as arguments", '["Paris"]'),
        ("duplicate_key", "the key city twice", '{"city":"Paris","city":"Rome"}'),
        ("invalid_unicode", "a lone surrogate escape", '{"city":"\\ud800"}'),
        ("limit_exceeded", "nesting deeper than 128", '{"city":' + "[" * 200 + "]" * 200 + "}"),
        ("schema_violation", "city is a number", '{"city": 75001}'),
    ]:
        resp(code, title, resp_args(text))
        br(code, title, br_args(text))
    for code, title, schemas in [
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
    ]:
        resp(code, title, resp_args('{"city":"Paris"}'), schemas=schemas)
        br(code, title, br_args('{"city":"Paris"}'), schemas=schemas)
    return out


CATALOGUE.extend(_build_responses_and_bedrock())


# -- gemini, gemini-interactions, cohere, bedrock-invoke ------------------------------
def _build_gemini_cohere_invoke() -> list[Entry]:
    from tests.support.catalogue_gemini_cohere_invoke import build

    return build(CATALOGUE, Entry)


CATALOGUE.extend(_build_gemini_cohere_invoke())
