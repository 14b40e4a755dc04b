"""A minimal fixture for every finding code, for each profile where it applies.

Each entry must produce exactly its one code and status ``blocked``.  The
same entries feed ``docs/findings.md`` (``scripts/render_docs.py``), so the
docs show fixtures that are tested.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.builders import (
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
                anthropic([message_start(), tool_start("1"), json_delta("1", "{}")]),  # type: ignore[arg-type]
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
