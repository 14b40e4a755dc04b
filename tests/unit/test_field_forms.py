"""Every documented form of every field a profile reads (issue 13): one row
per form in the per-profile tables of ``docs/validator.md``, one case here
per row, keyed by the row's id.  A row without a case, or a case without a
row, fails ``test_every_table_row_has_a_case``.

Each case is (fixture, status, codes[, check]): the verdict the form
deserves per the provider's API reference and SDK types, worked out from
those, not from running the validator.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.builders import (
    anthropic,
    anthropic_turn,
    bedrock,
    bedrock_tool,
    bedrock_turn,
    block_stop,
    br_delta,
    br_message_start,
    br_start,
    br_stop,
    br_text,
    call,
    chunk,
    fc_added,
    fc_args_done,
    fc_delta,
    fc_item_done,
    item_added,
    item_done,
    json_delta,
    message_item,
    message_start,
    message_stop,
    openai,
    resp_created,
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
from toolstream import Report, validate

DOC = Path(__file__).resolve().parents[2] / "docs" / "validator.md"
PASS = ("pass", ())
NONE = ("not_applicable", ())
Check = Callable[[Report], bool]


def blocked(*codes: str) -> tuple[str, tuple[str, ...]]:
    return ("blocked", codes)


def text_turn(*deltas: dict[str, Any]) -> list[dict[str, Any]]:
    chunks = [{"choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
    return [*chunks, text_chunk("", finish="stop")]


def with_delta(**members: Any) -> list[dict[str, Any]]:
    """A valid call whose first chunk's delta also holds ``members``."""
    chunks = weather_call()
    chunks[0]["choices"][0]["delta"].update(members)
    return chunks


def item_done_without_arguments() -> dict[str, Any]:
    event = fc_item_done()
    del event["item"]["arguments"]
    return event


def server_names(report: Report) -> list[str | None]:
    return [c.name for c in report.calls if c.kind == "server" and not c.validated]


def one_client(name: str, arguments: str | None = None) -> Check:
    def check(report: Report) -> bool:
        clients = list(report.client_calls())
        return [c.name for c in clients] == [name] and (
            arguments is None or clients[0].arguments == arguments
        )

    return check


USAGE = {"prompt_tokens": 3, "completion_tokens": 5, "total_tokens": 8}
WHOLE_CALL = {
    "type": "tool_use",
    "id": "toolu_9",
    "name": "weather",
    "input": {"city": "Paris"},
    "caller": {"type": "code_execution_20250825", "tool_id": "srvtoolu_1"},
}


def whole_message(content: list[Any], reason: str | None) -> list[dict[str, Any]]:
    start = message_start()
    start["message"].update(content=content, stop_reason=reason)
    return [start, message_stop()]


def resp_item(index: int, item: dict[str, Any], done: dict[str, Any] | None = None) -> list[Any]:
    return [
        {"type": "response.output_item.added", "output_index": index, "item": item},
        {"type": "response.output_item.done", "output_index": index, "item": done or item},
    ]


def failed() -> dict[str, Any]:
    error = {"code": "server_error", "message": "x"}
    return {
        "type": "response.failed",
        "response": {"id": "resp_1", "status": "failed", "error": error},
    }


def br_block_start(index: int, start: dict[str, Any]) -> dict[str, Any]:
    return {"contentBlockStart": {"contentBlockIndex": index, "start": start}}


def br_block_delta(index: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"contentBlockDelta": {"contentBlockIndex": index, "delta": delta}}


def mistral(chunks: list[Any]) -> dict[str, Any]:
    return openai(chunks, profile="mistral")


CASES: dict[str, tuple[Any, ...]] = {
    # -- openai / mistral -----------------------------------------------------------------
    "chat-choices-list": (openai(weather_call()), *PASS),
    "chat-choices-empty": (
        openai([*weather_call(), {"id": "c", "choices": [], "usage": USAGE}]),
        *PASS,
    ),
    "chat-usage-alone": (
        openai(
            [
                {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"},
                *weather_call(),
                {"id": "c", "usage": USAGE, "obfuscation": "x", "provider": "p"},
            ]
        ),
        *PASS,
    ),
    "chat-no-choices": (
        openai([*weather_call(), {"id": "c", "candidates": []}]),
        *blocked("unsupported_event"),
    ),
    "chat-object-other": (
        openai([*weather_call(), {"id": "c", "object": "chat.completion", "usage": USAGE}]),
        *blocked("unsupported_event"),
    ),
    "chat-type-member": (
        openai([*weather_call(), {"type": "message_delta", "usage": USAGE}]),
        *blocked("unsupported_event"),
    ),
    "chat-error": (openai([{"error": {"message": "overloaded"}}]), *blocked("provider_error")),
    "chat-object-error": (
        openai([{"object": "error", "message": "bad", "type": "BadRequestError", "code": 400}]),
        *blocked("provider_error"),
    ),
    "chat-choice-index-absent": (
        openai(
            [
                {
                    "choices": [
                        {
                            "delta": {
                                "tool_calls": [call(0, "call_1", "weather", '{"city":"Paris"}')]
                            }
                        }
                    ]
                },
                {"choices": [{"delta": {}, "finish_reason": "tool_calls"}]},
            ]
        ),
        *PASS,
    ),
    "chat-choice-message": (
        openai([{"choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"}}]}]),
        *blocked("unsupported_event"),
    ),
    "chat-choice-extra": (
        openai(
            [
                {"choices": [{**c, "logprobs": None, "native_finish_reason": None}]}
                for c in (chunk["choices"][0] for chunk in weather_call())
            ]
        ),
        *PASS,
    ),
    "chat-delta-null": (
        openai([{"choices": [{"index": 0, "delta": None, "finish_reason": "stop"}]}]),
        *NONE,
    ),
    "chat-delta-text": (
        openai(
            text_turn({"role": "assistant", "content": ""}, {"content": "Hi"}, {"refusal": None})
        ),
        *NONE,
    ),
    "chat-delta-reasoning": (
        openai(with_delta(reasoning_content="think", reasoning="think", reasoning_details=[])),
        *PASS,
    ),
    "chat-delta-audio": (
        openai(text_turn({"audio": {"id": "a", "transcript": "Hi"}}, {"annotations": []})),
        *NONE,
    ),
    "chat-delta-unknown": (
        openai(text_turn({"tool_call": {"name": "weather"}})),
        *blocked("unsupported_event"),
    ),
    "chat-function-call": (
        openai([{"choices": [{"index": 0, "delta": {"function_call": {"name": "weather"}}}]}]),
        *blocked("unsupported_call_type"),
    ),
    "chat-index-absent-openai": (
        openai(
            [
                chunk(
                    call(id="call_1", name="weather", args="{}", omit_index=True),
                    finish="tool_calls",
                )
            ]
        ),
        *blocked("invalid_slot_index"),
    ),
    "chat-index-absent-mistral": (
        mistral(
            [
                chunk(
                    call(id="call_1", name="weather", args='{"city":"Paris"}', omit_index=True),
                    finish="tool_calls",
                )
            ]
        ),
        *PASS,
    ),
    "chat-type-absent": (
        openai(
            [chunk(call(0, "call_1", "weather", '{"city":"Paris"}')), chunk(finish="tool_calls")]
        ),
        *PASS,
    ),
    "chat-type-other": (
        openai(
            [chunk(call(0, "call_1", "weather", "{}", type_="custom")), chunk(finish="tool_calls")]
        ),
        *blocked("unsupported_call_type"),
    ),
    "chat-id-null": (
        openai(
            [
                chunk(call(0, "call_1", "weather", '{"city"')),
                {
                    "choices": [
                        {
                            "index": 0,
                            "delta": {
                                "tool_calls": [
                                    {
                                        "index": 0,
                                        "id": None,
                                        "function": {"name": "", "arguments": ':"Paris"}'},
                                    }
                                ]
                            },
                        }
                    ]
                },
                chunk(finish="tool_calls"),
            ]
        ),
        *PASS,
    ),
    "chat-finish-stop-forced": (
        openai(weather_call(finish="stop"), request={"tool_choice": "required"}),
        *PASS,
    ),
    "chat-finish-stop": (openai(weather_call(finish="stop")), *blocked("wrong_terminal_reason")),
    "chat-finish-repeated": (
        openai(
            [
                *weather_call(),
                {
                    "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
                    "usage": USAGE,
                },
            ]
        ),
        *blocked("duplicate_terminal"),
        lambda r: "only adds usage" in r.findings[0].message and "repeats" in r.findings[0].message,
    ),
    # -- anthropic -------------------------------------------------------------------------
    "anthropic-ping": (
        anthropic(
            [*anthropic_turn(tool_block())[:2], {"type": "ping"}, *anthropic_turn(tool_block())[2:]]
        ),
        *PASS,
    ),
    "anthropic-event-unknown": (
        anthropic(
            anthropic_turn(
                [text_start(0), {"type": "content_block_flush"}, block_stop(0)], reason="end_turn"
            )
        ),
        *blocked("unsupported_event"),
    ),
    "anthropic-error": (
        anthropic(
            [message_start(), {"type": "error", "error": {"type": "api_error", "message": "x"}}]
        ),
        *blocked("provider_error"),
    ),
    "anthropic-whole-message": (
        anthropic(whole_message([WHOLE_CALL], "tool_use")),
        *PASS,
        one_client("weather", '{"city":"Paris"}'),
    ),
    "anthropic-whole-message-text": (
        anthropic(whole_message([{"type": "text", "text": "Hi"}], "end_turn")),
        *NONE,
    ),
    "anthropic-whole-message-no-reason": (
        anthropic(whole_message([WHOLE_CALL], None)),
        *blocked("missing_terminal"),
    ),
    "anthropic-start-input-whole": (
        anthropic(anthropic_turn([tool_start(0, input={"city": "Paris"}), block_stop(0)])),
        *PASS,
        one_client("weather", '{"city":"Paris"}'),
    ),
    "anthropic-start-input-empty": (anthropic(anthropic_turn(tool_block())), *PASS),
    "anthropic-start-input-and-deltas": (
        anthropic(
            anthropic_turn(
                [
                    tool_start(0, input={"city": "Paris"}),
                    json_delta(0, '{"city":"Rome"}'),
                    block_stop(0),
                ]
            )
        ),
        *blocked("conflicting_input"),
    ),
    "anthropic-caller": (
        anthropic(
            anthropic_turn(
                [
                    {
                        **tool_start(0),
                        "content_block": {
                            **tool_start(0)["content_block"],
                            "caller": {"type": "direct"},
                        },
                    },
                    json_delta(0, '{"city":"Paris"}'),
                    block_stop(0),
                ]
            )
        ),
        *PASS,
    ),
    "anthropic-server-tool-use": (
        anthropic(
            anthropic_turn(
                [
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": {
                            "type": "server_tool_use",
                            "id": "srvtoolu_1",
                            "name": "web_search",
                            "input": {},
                        },
                    },
                    json_delta(0, '{"query":"x"}'),
                    block_stop(0),
                ],
                [
                    {
                        "type": "content_block_start",
                        "index": 1,
                        "content_block": {
                            "type": "web_search_tool_result",
                            "tool_use_id": "srvtoolu_1",
                            "content": [],
                        },
                    },
                    block_stop(1),
                ],
                reason="end_turn",
            )
        ),
        *NONE,
        lambda r: server_names(r) == ["web_search"],
    ),
    "anthropic-mcp-tool-use": (
        anthropic(
            anthropic_turn(
                [
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": {
                            "type": "mcp_tool_use",
                            "id": "mcptoolu_1",
                            "name": "echo",
                            "server_name": "s",
                            "input": {},
                        },
                    },
                    block_stop(0),
                ],
                [
                    {
                        "type": "content_block_start",
                        "index": 1,
                        "content_block": {
                            "type": "mcp_tool_result",
                            "tool_use_id": "mcptoolu_1",
                            "content": [],
                        },
                    },
                    block_stop(1),
                ],
                tool_block(2),
            )
        ),
        *PASS,
        lambda r: server_names(r) == ["echo"],
    ),
    "anthropic-result-blocks": (
        anthropic(
            anthropic_turn(
                *[
                    [
                        {
                            "type": "content_block_start",
                            "index": i,
                            "content_block": {
                                "type": kind,
                                "tool_use_id": "srvtoolu_1",
                                "content": {},
                            },
                        },
                        block_stop(i),
                    ]
                    for i, kind in enumerate(
                        [
                            "web_fetch_tool_result",
                            "code_execution_tool_result",
                            "bash_code_execution_tool_result",
                            "text_editor_code_execution_tool_result",
                            "tool_search_tool_result",
                            "container_upload",
                        ]
                    )
                ],
                reason="end_turn",
            )
        ),
        *NONE,
    ),
    "anthropic-block-unknown": (
        anthropic(
            anthropic_turn(
                [
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": {"type": "future_tool_use"},
                    },
                    block_stop(0),
                ],
                tool_block(1),
            )
        ),
        *blocked("unsupported_event"),
    ),
    "anthropic-text-deltas": (
        anthropic(
            anthropic_turn(
                [
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": {"type": "thinking", "thinking": ""},
                    },
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "thinking_delta", "thinking": "hm"},
                    },
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "signature_delta", "signature": "s"},
                    },
                    block_stop(0),
                ],
                [
                    text_start(1),
                    text_delta(1, "Hi"),
                    {
                        "type": "content_block_delta",
                        "index": 1,
                        "delta": {"type": "citations_delta", "citation": {}},
                    },
                    block_stop(1),
                ],
                reason="end_turn",
            )
        ),
        *NONE,
    ),
    "anthropic-delta-unknown": (
        anthropic(
            anthropic_turn(
                [
                    text_start(0),
                    {"type": "content_block_delta", "index": 0, "delta": {"type": "future_delta"}},
                    block_stop(0),
                ],
                reason="end_turn",
            )
        ),
        *blocked("unsupported_event"),
    ),
    "anthropic-stop-reason-other": (
        anthropic(anthropic_turn(tool_block(), reason="pause_turn")),
        *blocked("wrong_terminal_reason"),
    ),
    "anthropic-stop-reason-tool-use-alone": (
        anthropic(anthropic_turn([text_start(0), block_stop(0)])),
        *blocked("terminal_without_calls"),
    ),
    # -- openai-responses --------------------------------------------------------------------
    "responses-passive-events": (
        responses(
            [
                resp_created(),
                {"type": "response.in_progress", "response": {"id": "resp_1"}},
                *responses_call(),
                {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}},
            ]
        ),
        *PASS,
    ),
    "responses-event-unknown": (
        responses(responses_turn(message_item(0), [{"type": "response.future_event"}])),
        *blocked("unsupported_event"),
    ),
    "responses-error": (
        responses([resp_created(), {"type": "error", "code": "server_error", "message": "x"}]),
        *blocked("provider_error"),
    ),
    "responses-failed": (
        responses([*responses_turn(message_item(0))[:-1], failed()]),
        *blocked("provider_error"),
    ),
    "responses-incomplete": (
        responses(responses_turn(responses_call(), end="response.incomplete")),
        *blocked("wrong_terminal_reason"),
    ),
    "responses-arguments-streamed": (responses(responses_turn(responses_call())), *PASS),
    "responses-arguments-whole-args-done": (
        responses(
            responses_turn(
                [
                    fc_added(),
                    fc_args_done("fc_1", '{"city":"Paris"}'),
                    item_done_without_arguments(),
                ]
            )
        ),
        *PASS,
        one_client("weather", '{"city":"Paris"}'),
    ),
    "responses-arguments-whole-item-done": (
        responses(responses_turn([fc_added(), fc_item_done(arguments='{"city":"Paris"}')])),
        *PASS,
        one_client("weather", '{"city":"Paris"}'),
    ),
    "responses-arguments-whole-both": (
        responses(
            responses_turn(
                [
                    fc_added(),
                    fc_args_done("fc_1", '{"city":"Paris"}'),
                    fc_item_done(arguments='{"city":"Paris"}'),
                ]
            )
        ),
        *PASS,
    ),
    "responses-arguments-whole-disagree": (
        responses(
            responses_turn(
                [
                    fc_added(),
                    fc_args_done("fc_1", '{"city":"Paris"}'),
                    fc_item_done(arguments='{"city":"Rome"}'),
                ]
            )
        ),
        *blocked("arguments_mismatch"),
    ),
    "responses-arguments-none": (
        responses(responses_turn([fc_added(), item_done_without_arguments()])),
        *blocked("missing_terminal"),
    ),
    "responses-arguments-streamed-mismatch": (
        responses(responses_turn(responses_call(restated='{"city":"Rome"}'))),
        *blocked("arguments_mismatch"),
    ),
    "responses-arguments-streamed-no-args-done": (
        responses(
            responses_turn(
                [
                    fc_added(),
                    fc_delta("fc_1", '{"city":"Paris"}'),
                    fc_item_done(arguments='{"city":"Paris"}'),
                ]
            )
        ),
        *blocked("missing_terminal"),
    ),
    "responses-server-items": (
        responses(
            responses_turn(
                *[
                    resp_item(i, {"id": f"it_{i}", "type": kind, "status": "completed"})
                    for i, kind in enumerate(
                        [
                            "web_search_call",
                            "file_search_call",
                            "code_interpreter_call",
                            "image_generation_call",
                            "mcp_call",
                            "mcp_list_tools",
                            "mcp_approval_request",
                        ]
                    )
                ],
                responses_call(7),
            )
        ),
        *PASS,
        lambda r: len(server_names(r)) == 7,
    ),
    "responses-tool-search-server": (
        responses(
            responses_turn(
                resp_item(
                    0,
                    {
                        "id": "ts_1",
                        "type": "tool_search_call",
                        "execution": "server",
                        "arguments": {},
                    },
                ),
                resp_item(
                    1,
                    {
                        "id": "tso_1",
                        "type": "tool_search_output",
                        "execution": "server",
                        "tools": [],
                    },
                ),
                responses_call(2),
            )
        ),
        *PASS,
        lambda r: server_names(r) == ["tool_search_call"],
    ),
    "responses-tool-search-client": (
        responses(
            responses_turn(
                resp_item(
                    0,
                    {
                        "id": "ts_1",
                        "type": "tool_search_call",
                        "execution": "client",
                        "arguments": {},
                    },
                )
            )
        ),
        *blocked("unsupported_call_type"),
    ),
    "responses-tool-search-unsaid": (
        responses(
            responses_turn(
                resp_item(0, {"id": "ts_1", "type": "tool_search_call", "arguments": {}})
            )
        ),
        *blocked("unsupported_call_type"),
    ),
    "responses-execution-server": (
        responses(
            responses_turn(
                resp_item(0, {"id": "x_1", "type": "future_search_call", "execution": "server"}),
                responses_call(1),
            )
        ),
        *PASS,
        lambda r: server_names(r) == ["future_search_call"],
    ),
    "responses-client-items": (
        responses(
            responses_turn(
                [
                    item_added(0, "custom_tool_call", "ctc_1"),
                    item_done(0, "custom_tool_call", "ctc_1"),
                ]
            )
        ),
        *blocked("unsupported_call_type"),
    ),
    "responses-block-items": (
        responses(
            responses_turn(
                message_item(0),
                resp_item(1, {"id": "rs_1", "type": "reasoning", "summary": []}),
                resp_item(2, {"id": "cmp_1", "type": "compaction", "encrypted_content": "x"}),
            )
        ),
        *NONE,
    ),
    "responses-item-unknown": (
        responses(
            responses_turn(resp_item(0, {"id": "f_1", "type": "future_item"}), responses_call(1))
        ),
        *blocked("unsupported_event"),
    ),
    # -- bedrock ------------------------------------------------------------------------------
    "bedrock-type-absent": (bedrock(bedrock_turn(bedrock_tool())), *PASS),
    "bedrock-type-tool-use": (
        bedrock(
            bedrock_turn(
                [br_start(0, type_="tool_use"), br_delta(0, '{"city":"Paris"}'), br_stop(0)]
            )
        ),
        *PASS,
    ),
    "bedrock-type-server-tool-use": (
        bedrock(
            bedrock_turn(
                [
                    br_start(0, "srv_1", "web_grounding", type_="server_tool_use"),
                    br_delta(0, "{}"),
                    br_stop(0),
                ],
                bedrock_tool(1),
            )
        ),
        *PASS,
        lambda r: server_names(r) == ["web_grounding"],
    ),
    "bedrock-type-other": (
        bedrock(
            bedrock_turn([br_start(0, type_="client_side_tool"), br_delta(0, "{}"), br_stop(0)])
        ),
        *blocked("unsupported_call_type"),
    ),
    "bedrock-start-blocks": (
        bedrock(
            bedrock_turn(
                [br_block_start(0, {}), br_text(0, "Hi"), br_stop(0)],
                [
                    br_block_start(1, {"toolResult": {"toolUseId": "srv_1"}}),
                    br_block_delta(1, {"toolResult": [{"text": "r"}]}),
                    br_stop(1),
                ],
                [
                    br_block_start(2, {"reasoningContent": {"reasoningText": {"signature": "s"}}}),
                    br_block_delta(2, {"reasoningContent": {"text": "hm"}}),
                    br_stop(2),
                ],
                [br_block_delta(3, {"citation": {"title": "t"}}), br_stop(3)],
                reason="end_turn",
            )
        ),
        *NONE,
    ),
    "bedrock-start-unknown": (
        bedrock(bedrock_turn([br_block_start(0, {"video": {}}), br_stop(0)], reason="end_turn")),
        *blocked("unsupported_event"),
    ),
    "bedrock-delta-unknown": (
        bedrock(bedrock_turn([br_block_delta(0, {"video": {}}), br_stop(0)], reason="end_turn")),
        *blocked("unsupported_event"),
    ),
    "bedrock-input-object": (
        bedrock(bedrock_turn([br_start(0), br_delta(0, {"city": "Paris"}), br_stop(0)])),
        *blocked("non_string_fragment"),
    ),
    "bedrock-input-none": (
        bedrock(bedrock_turn([br_start(0, name="clock"), br_delta(0, ""), br_stop(0)])),
        *PASS,
        one_client("clock", "{}"),
    ),
    "bedrock-stop-reason-other": (
        bedrock(bedrock_turn(bedrock_tool(), reason="max_tokens")),
        *blocked("wrong_terminal_reason"),
    ),
    "bedrock-exception": (
        bedrock(
            [
                br_message_start(),
                br_text(0, "Hi"),
                br_stop(0),
                {"internalServerException": {"message": "x"}},
            ]
        ),
        *blocked("provider_error"),
    ),
    "bedrock-event-unknown": (
        bedrock(
            bedrock_turn(
                [br_text(0, "Hi"), br_stop(0), {"contentBlockFlush": {}}], reason="end_turn"
            )
        ),
        *blocked("unsupported_event"),
    ),
}


@pytest.mark.parametrize("row", sorted(CASES))
def test_a_documented_form_gets_its_verdict(row: str) -> None:
    fixture, status, codes, *check = CASES[row]
    report = validate(fixture)
    assert (report.status, tuple(report.codes)) == (status, codes), report.to_json()
    if check:
        assert check[0](report), report.to_json()


_ROW = re.compile(r"^\| `([a-z0-9-]+)` \|", re.MULTILINE)


def test_every_table_row_has_a_case() -> None:
    documented = _ROW.findall(DOC.read_text(encoding="utf-8"))
    assert len(documented) == len(set(documented)), "a row id is used twice"
    assert sorted(documented) == sorted(CASES)
