"""Small builders for hand-written fixtures (the project's own, not captures)."""

from __future__ import annotations

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


def message_start() -> dict[str, Any]:
    return {
        "type": "message_start",
        "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": []},
    }


def tool_start(index: int, id: Any = "toolu_1", name: Any = "weather", input: Any = None) -> dict:
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


def message_delta(reason: str | None = "tool_use") -> dict[str, Any]:
    return {
        "type": "message_delta",
        "delta": {"stop_reason": reason},
        "usage": {"output_tokens": 9},
    }


def message_stop() -> dict[str, Any]:
    return {"type": "message_stop"}


def anthropic(events: list[Any], *, schemas: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "profile": "anthropic",
        "tool_schemas": SCHEMAS if schemas is None else schemas,
        "events": events,
    }


def tool_block(
    index: int = 0, id: str = "toolu_1", parts: tuple[str, ...] = ('{"city"', ': "Paris"}')
) -> list[dict[str, Any]]:
    """A complete tool_use block: start, deltas, stop."""
    return [tool_start(index, id), *(json_delta(index, p) for p in parts), block_stop(index)]


def anthropic_turn(*blocks: list[dict[str, Any]], reason: str = "tool_use") -> list[dict]:
    events = [message_start()]
    for block in blocks:
        events.extend(block)
    events.extend([message_delta(reason), message_stop()])
    return events
