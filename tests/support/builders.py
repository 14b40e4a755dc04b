"""Small builders for hand-written fixtures (the project's own, not captures).

The one set of stream-piece builders every test uses: the named fixtures of
the diff, adapter and client tests (tests/support/diff_fixtures.py) are built
from these too.  Each builder's defaults are the least a real stream carries;
a suite that needs more (an SDK that wants ``usage``) passes it.
"""

from __future__ import annotations

import copy
from typing import Any

WEATHER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}
SCHEMAS: dict[str, Any] = {"weather": WEATHER_SCHEMA, "clock": {"type": "object"}}


# -- OpenAI / Mistral chunks ----------------------------------------------


def call(
    index: Any = 0,
    id: Any = None,
    name: Any = None,
    args: Any = None,
    *,
    type_: Any = None,
    omit_index: bool = False,
) -> dict[str, Any]:
    out: dict[str, Any] = {} if omit_index else {"index": index}
    if id is not None:
        out["id"] = id
    if type_ is not None:
        out["type"] = type_
    function: dict[str, Any] = {}
    if name is not None:
        function["name"] = name
    if args is not None:
        function["arguments"] = args
    out["function"] = function
    return out


def tc(
    index: Any = 0,
    id: str | None = None,
    name: str | None = None,
    args: Any = None,
    *,
    omit_index: bool = False,
) -> dict[str, Any]:
    """A tool-call entry as the SDKs send it: ``"type": "function"`` beside
    every ``id`` (:func:`call` for any other combination)."""
    return call(
        index, id, name, args, type_="function" if id is not None else None, omit_index=omit_index
    )


def chunk(*calls: dict[str, Any], finish: str | None = None, choice: int = 0) -> dict[str, Any]:
    delta: dict[str, Any] = {}
    if calls:
        delta["tool_calls"] = list(calls)
    return {"choices": [{"index": choice, "delta": delta, "finish_reason": finish}]}


def text_chunk(text: str, finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": finish}]}


def openai(
    chunks: list[Any],
    *,
    profile: str = "openai",
    schemas: dict[str, Any] | None = None,
    request: dict[str, Any] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "profile": profile,
        "tool_schemas": SCHEMAS if schemas is None else schemas,
        "chunks": chunks,
    }
    if request is not None:
        out["request"] = request
    return out


def weather_call(
    index: int = 0, id: str = "call_1", city: str = "Paris", finish: str | None = "tool_calls"
) -> list[dict[str, Any]]:
    """A valid fragmented call in three chunks."""
    return [
        chunk(call(index, id, "weather", '{"ci', type_="function")),
        chunk(call(index, args=f'ty": "{city}"}}')),
        chunk(finish=finish),
    ]


# -- Anthropic events ---------------------------------------------------------


MESSAGE: dict[str, Any] = {"id": "msg_1", "type": "message", "role": "assistant", "content": []}
"""The least ``message_start.message`` a stream opens with."""


def message_start(message: dict[str, Any] | None = None) -> dict[str, Any]:
    """``message_start`` with ``message`` (default :data:`MESSAGE`; ``{}`` for
    none at all), copied."""
    body = MESSAGE if message is None else message
    return {"type": "message_start", "message": copy.deepcopy(body)}


def tool_start(
    index: Any, id: Any = "toolu_1", name: Any = "weather", input: Any = None
) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_use", "id": id, "name": name}
    block["input"] = {} if input is None else input
    return {"type": "content_block_start", "index": index, "content_block": block}


def text_start(index: int) -> dict[str, Any]:
    return {
        "type": "content_block_start",
        "index": index,
        "content_block": {"type": "text", "text": ""},
    }


def text_delta(index: int, text: str) -> dict[str, Any]:
    return {
        "type": "content_block_delta",
        "index": index,
        "delta": {"type": "text_delta", "text": text},
    }


def json_delta(index: Any, text: Any) -> dict[str, Any]:
    return {
        "type": "content_block_delta",
        "index": index,
        "delta": {"type": "input_json_delta", "partial_json": text},
    }


def block_stop(index: Any) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def message_delta(
    reason: str | None = "tool_use",
    *,
    stop_sequence: bool = False,
    output_tokens: int | None = 9,
) -> dict[str, Any]:
    """``message_delta`` with its ``stop_reason``; ``stop_sequence`` adds
    ``"stop_sequence": null`` to the delta, ``output_tokens=None`` leaves
    ``usage`` out."""
    delta: dict[str, Any] = {"stop_reason": reason}
    if stop_sequence:
        delta["stop_sequence"] = None
    out: dict[str, Any] = {"type": "message_delta", "delta": delta}
    if output_tokens is not None:
        out["usage"] = {"output_tokens": output_tokens}
    return out


def message_stop() -> dict[str, Any]:
    return {"type": "message_stop"}


def message_end(reason: str | None = "tool_use", **delta: Any) -> list[dict[str, Any]]:
    """``message_delta`` (with :func:`message_delta`'s options) and ``message_stop``."""
    return [message_delta(reason, **delta), message_stop()]


def anthropic(
    events: list[Any],
    *,
    schemas: dict[str, Any] | None = None,
    request: dict[str, Any] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "profile": "anthropic",
        "tool_schemas": SCHEMAS if schemas is None else schemas,
        "events": events,
    }
    if request is not None:
        out["request"] = request
    return out


def tool_block(
    index: int = 0, id: str = "toolu_1", parts: tuple[str, ...] = ('{"city"', ': "Paris"}')
) -> list[dict[str, Any]]:
    """A complete tool_use block: start, deltas, stop."""
    return [tool_start(index, id), *(json_delta(index, p) for p in parts), block_stop(index)]


def anthropic_turn(
    *blocks: list[dict[str, Any]], reason: str = "tool_use"
) -> list[dict[str, Any]]:
    events = [message_start()]
    for block in blocks:
        events.extend(block)
    events.extend(message_end(reason))
    return events


# -- OpenAI Responses events ------------------------------------------------------


def resp_created(id: str = "resp_1") -> dict[str, Any]:
    return {
        "type": "response.created",
        "sequence_number": 0,
        "response": {"id": id, "object": "response", "status": "in_progress", "output": []},
    }


def resp_end(kind: str = "response.completed", status: str = "completed") -> dict[str, Any]:
    return {"type": kind, "response": {"id": "resp_1", "object": "response", "status": status}}


def fc_added(
    index: Any = 0,
    item_id: Any = "fc_1",
    call_id: Any = "call_1",
    name: Any = "weather",
    arguments: Any = "",
) -> dict[str, Any]:
    item: dict[str, Any] = {"id": item_id, "type": "function_call", "status": "in_progress"}
    item["arguments"] = arguments
    if call_id is not None:
        item["call_id"] = call_id
    if name is not None:
        item["name"] = name
    return {"type": "response.output_item.added", "output_index": index, "item": item}


def fc_delta(item_id: Any, text: Any, index: Any = 0) -> dict[str, Any]:
    return {
        "type": "response.function_call_arguments.delta",
        "item_id": item_id,
        "output_index": index,
        "delta": text,
    }


def fc_args_done(item_id: Any, arguments: Any, index: Any = 0) -> dict[str, Any]:
    return {
        "type": "response.function_call_arguments.done",
        "item_id": item_id,
        "output_index": index,
        "arguments": arguments,
    }


def fc_item_done(
    index: Any = 0,
    item_id: Any = "fc_1",
    call_id: Any = "call_1",
    name: Any = "weather",
    arguments: Any = '{"city": "Paris"}',
) -> dict[str, Any]:
    item = {
        "id": item_id,
        "type": "function_call",
        "status": "completed",
        "arguments": arguments,
        "call_id": call_id,
        "name": name,
    }
    return {"type": "response.output_item.done", "output_index": index, "item": item}


def item_added(index: int, item_type: str, item_id: str) -> dict[str, Any]:
    return {
        "type": "response.output_item.added",
        "output_index": index,
        "item": {"id": item_id, "type": item_type, "status": "in_progress"},
    }


def item_done(index: int, item_type: str, item_id: str) -> dict[str, Any]:
    return {
        "type": "response.output_item.done",
        "output_index": index,
        "item": {"id": item_id, "type": item_type, "status": "completed"},
    }


def responses_call(
    index: int = 0,
    item_id: str = "fc_1",
    call_id: str = "call_1",
    name: str = "weather",
    parts: tuple[str, ...] = ('{"city"', ': "Paris"}'),
    restated: str | None = None,
) -> list[dict[str, Any]]:
    """A complete function_call item: added, deltas, arguments.done, item done.
    ``restated`` (default: the joined parts) is what the closing events say."""
    whole = "".join(parts) if restated is None else restated
    return [
        fc_added(index, item_id, call_id, name),
        *(fc_delta(item_id, p, index) for p in parts),
        fc_args_done(item_id, whole, index),
        fc_item_done(index, item_id, call_id, name, whole),
    ]


def message_item(
    index: int, text: str = "Checking.", item_id: str = "msg_1"
) -> list[dict[str, Any]]:
    """A complete assistant message item with one text delta."""
    return [
        item_added(index, "message", item_id),
        {
            "type": "response.output_text.delta",
            "item_id": item_id,
            "output_index": index,
            "content_index": 0,
            "delta": text,
        },
        item_done(index, "message", item_id),
    ]


def responses_turn(
    *items: list[dict[str, Any]], end: str = "response.completed"
) -> list[dict[str, Any]]:
    events = [resp_created()]
    for item in items:
        events.extend(item)
    status = end.rsplit(".", 1)[-1]
    events.append(resp_end(end, status))
    return events


def responses(
    events: list[Any],
    *,
    schemas: dict[str, Any] | None = None,
    request: dict[str, Any] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "profile": "openai-responses",
        "tool_schemas": SCHEMAS if schemas is None else schemas,
        "events": events,
    }
    if request is not None:
        out["request"] = request
    return out


# -- Bedrock ConverseStream events ----------------------------------------------------


def br_message_start() -> dict[str, Any]:
    return {"messageStart": {"role": "assistant"}}


def br_start(
    index: Any, id: Any = "tooluse_1", name: Any = "weather", type_: Any = None
) -> dict[str, Any]:
    tool: dict[str, Any] = {"toolUseId": id, "name": name}
    if type_ is not None:
        tool["type"] = type_
    return {"contentBlockStart": {"contentBlockIndex": index, "start": {"toolUse": tool}}}


def br_delta(index: Any, text: Any) -> dict[str, Any]:
    delta = {"toolUse": {"input": text}}
    return {"contentBlockDelta": {"contentBlockIndex": index, "delta": delta}}


def br_text(index: Any, text: str) -> dict[str, Any]:
    return {"contentBlockDelta": {"contentBlockIndex": index, "delta": {"text": text}}}


def br_stop(index: Any) -> dict[str, Any]:
    return {"contentBlockStop": {"contentBlockIndex": index}}


def br_message_stop(reason: Any = "tool_use") -> dict[str, Any]:
    return {"messageStop": {"stopReason": reason}}


def br_metadata() -> dict[str, Any]:
    return {
        "metadata": {
            "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
            "metrics": {"latencyMs": 100},
        }
    }


def bedrock_tool(
    index: int = 0, id: str = "tooluse_1", parts: tuple[str, ...] = ('{"city"', ': "Paris"}')
) -> list[dict[str, Any]]:
    """A complete toolUse block: start, input deltas, stop."""
    return [br_start(index, id), *(br_delta(index, p) for p in parts), br_stop(index)]


def bedrock_turn(
    *blocks: list[dict[str, Any]], reason: str = "tool_use"
) -> list[dict[str, Any]]:
    events = [br_message_start()]
    for block in blocks:
        events.extend(block)
    events.extend([br_message_stop(reason), br_metadata()])
    return events


def bedrock(events: list[Any], *, schemas: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "profile": "bedrock",
        "tool_schemas": SCHEMAS if schemas is None else schemas,
        "events": events,
    }


# Every keyword of the schema subset, for turns built from scratch.
RICH_SCHEMAS: dict[str, Any] = {
    "rich": {
        "type": "object",
        "properties": {
            "text": {"type": "string", "minLength": 1, "maxLength": 6},
            "count": {"type": "integer", "minimum": -5, "maximum": 5},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            "flag": {"type": "boolean"},
            "mode": {"enum": ["a", "b", "ü"]},
            "fixed": {"const": "k"},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "maxItems": 3},
            "point": {"$ref": "#/$defs/point"},
            "maybe": {"type": ["string", "null"]},
            "either": {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 2}]},
            "code": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{2}$"},
        },
        "required": ["text", "count"],
        "additionalProperties": False,
        "$defs": {
            "point": {
                "type": "object",
                "properties": {"x": {"type": "number"}, "y": {"type": "integer"}},
                "required": ["x", "y"],
                "additionalProperties": False,
            }
        },
    },
    "no_args": {"type": "object", "properties": {}, "additionalProperties": False},
    "open": {"type": "object", "properties": {"q": {"type": "string"}}},
}
