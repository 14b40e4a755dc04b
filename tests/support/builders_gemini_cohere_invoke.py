"""Builders for hand-written fixtures of four wire formats: gemini
(whole calls and Vertex ``partialArgs``), gemini-interactions, cohere and
bedrock-invoke.  The project's own fixtures, not captures."""

from __future__ import annotations

import base64
import json
from typing import Any

from tests.support.builders import SCHEMAS, anthropic_turn, tool_block

# -- gemini ---------------------------------------------------------------------------


def gem_call(
    name: Any = "weather", args: Any = None, id: Any = None, **extra: Any
) -> dict[str, Any]:
    """A whole ``functionCall`` part (``args`` defaults to Paris)."""
    call: dict[str, Any] = {"name": name, "args": {"city": "Paris"} if args is None else args}
    if id is not None:
        call["id"] = id
    call.update(extra)
    return {"functionCall": call}


def gem_open(name: Any = "weather", *entries: Any, id: Any = None) -> dict[str, Any]:
    """The first part of a streamed call (``willContinue: true``)."""
    call: dict[str, Any] = {"name": name, "willContinue": True}
    if id is not None:
        call["id"] = id
    if entries:
        call["partialArgs"] = list(entries)
    return {"functionCall": call}


def gem_more(*entries: Any, more: bool = True, **extra: Any) -> dict[str, Any]:
    """A continuation part; ``more=False`` ends the call (``{}`` when bare)."""
    call: dict[str, Any] = {}
    if entries:
        call["partialArgs"] = list(entries)
    if more:
        call["willContinue"] = True
    call.update(extra)
    return {"functionCall": call}


def pa(path: Any, value: Any, more: bool = False, kind: str | None = None) -> dict[str, Any]:
    """A ``partialArgs`` entry; the value field follows the value's type."""
    if kind is None:
        if value is None:
            kind = "nullValue"
        elif isinstance(value, bool):
            kind = "boolValue"
        elif isinstance(value, str):
            kind = "stringValue"
        else:
            kind = "numberValue"
    entry: dict[str, Any] = {"jsonPath": path, kind: value}
    if more:
        entry["willContinue"] = True
    return entry


def gem_chunk(
    *parts: Any, finish: str | None = None, candidate: int | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}}
    if finish is not None:
        body["finishReason"] = finish
    if candidate is not None:
        body["index"] = candidate
    return {"candidates": [body], "modelVersion": "gemini-test"}


def gem_finish(reason: str = "STOP", candidate: int | None = None) -> dict[str, Any]:
    return gem_chunk({"text": ""}, finish=reason, candidate=candidate)


def streamed_city(city: str = "Paris", cuts: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    """A streamed call of weather({"city": city}), the string cut at ``cuts``,
    each piece its own chunk, ended by an empty ``functionCall``."""
    pieces = [city[a:b] for a, b in zip((0, *cuts), (*cuts, len(city)), strict=True)]
    chunks = [gem_chunk(gem_open())]
    for i, piece in enumerate(pieces):
        chunks.append(gem_chunk(gem_more(pa("$.city", piece, more=i < len(pieces) - 1))))
    chunks.append(gem_chunk(gem_more(more=False)))
    return chunks


def gemini(chunks: list[Any], *, schemas: Any = None, request: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "profile": "gemini",
        "tool_schemas": SCHEMAS if schemas is None else schemas,
        "chunks": chunks,
    }
    if request is not None:
        out["request"] = request
    return out


# -- gemini-interactions ----------------------------------------------------------------


def gi_created() -> dict[str, Any]:
    return {
        "event_type": "interaction.created",
        "interaction": {"id": "v1_1", "status": "in_progress", "object": "interaction"},
    }


def gi_start(index: Any, type_: str = "function_call", **step: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"type": type_}
    if type_ == "function_call":
        body.update({"id": "fc_1", "name": "weather", "arguments": {}})
    body.update(step)
    return {"event_type": "step.start", "index": index, "step": body}


def gi_delta(index: Any, text: Any, type_: str = "arguments_delta") -> dict[str, Any]:
    field = "arguments" if type_ == "arguments_delta" else "text"
    return {"event_type": "step.delta", "index": index, "delta": {"type": type_, field: text}}


def gi_stop(index: Any) -> dict[str, Any]:
    return {"event_type": "step.stop", "index": index}


def gi_completed(status: str = "requires_action") -> dict[str, Any]:
    return {
        "event_type": "interaction.completed",
        "interaction": {"id": "v1_1", "status": status},
    }


def gi_call(
    index: int = 0, id: str = "fc_1", parts: tuple[str, ...] = ('{"city"', ': "Paris"}')
) -> list[dict[str, Any]]:
    return [gi_start(index, id=id), *(gi_delta(index, p) for p in parts), gi_stop(index)]


def gi_turn(
    *steps: list[dict[str, Any]], status: str = "requires_action"
) -> list[dict[str, Any]]:
    events = [gi_created()]
    for step in steps:
        events.extend(step)
    events.append(gi_completed(status))
    return events


def interactions(events: list[Any], *, schemas: Any = None) -> dict[str, Any]:
    return {
        "profile": "gemini-interactions",
        "tool_schemas": SCHEMAS if schemas is None else schemas,
        "events": events,
    }


# -- cohere -------------------------------------------------------------------------


def co_message_start() -> dict[str, Any]:
    return {
        "id": "c0ffee",
        "type": "message-start",
        "delta": {
            "message": {"role": "assistant", "content": [], "tool_plan": "", "tool_calls": []}
        },
    }


def co_start(
    index: Any, id: Any = "weather_1", name: Any = "weather", **call: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": id,
        "type": "function",
        "function": {"name": name, "arguments": ""},
    }
    body.update(call)
    return {"type": "tool-call-start", "index": index, "delta": {"message": {"tool_calls": body}}}


def co_delta(index: Any, text: Any) -> dict[str, Any]:
    return {
        "type": "tool-call-delta",
        "index": index,
        "delta": {"message": {"tool_calls": {"function": {"arguments": text}}}},
    }


def co_end(index: Any) -> dict[str, Any]:
    return {"type": "tool-call-end", "index": index}


def co_plan(text: str = "I will check.") -> dict[str, Any]:
    return {"type": "tool-plan-delta", "delta": {"message": {"tool_plan": text}}}


def co_message_end(reason: Any = "TOOL_CALL", **delta: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"finish_reason": reason, "usage": {"tokens": {"output_tokens": 9}}}
    body.update(delta)
    return {"type": "message-end", "delta": body}


def co_call(
    index: int = 0, id: str = "weather_1", parts: tuple[str, ...] = ('{"city"', ': "Paris"}')
) -> list[dict[str, Any]]:
    return [co_start(index, id), *(co_delta(index, p) for p in parts), co_end(index)]


def co_turn(*calls: list[dict[str, Any]], reason: str = "TOOL_CALL") -> list[dict[str, Any]]:
    events = [co_message_start(), co_plan()]
    for call in calls:
        events.extend(call)
    events.append(co_message_end(reason))
    return events


def cohere(events: list[Any], *, schemas: Any = None) -> dict[str, Any]:
    return {
        "profile": "cohere",
        "tool_schemas": SCHEMAS if schemas is None else schemas,
        "events": events,
    }


# -- bedrock-invoke ------------------------------------------------------------------


def wrap(event: Any) -> dict[str, Any]:
    """One InvokeModelWithResponseStream ``chunk`` event wrapping ``event``."""
    data = json.dumps(event, ensure_ascii=False).encode("utf-8")
    return {"chunk": {"bytes": base64.b64encode(data).decode("ascii")}}


def invoke_turn(
    *blocks: list[dict[str, Any]], reason: str = "tool_use"
) -> list[dict[str, Any]]:
    """A Claude turn (Anthropic Messages events), each event wrapped."""
    return [wrap(e) for e in anthropic_turn(*blocks, reason=reason)]


def invoke_tool(
    parts: tuple[str, ...] = ('{"city"', ': "Paris"}'), index: int = 0
) -> list[dict[str, Any]]:
    return tool_block(index, f"toolu_{index + 1}", parts)


def bedrock_invoke(
    events: list[Any], *, schemas: Any = None, request: Any = None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "profile": "bedrock-invoke",
        "tool_schemas": SCHEMAS if schemas is None else schemas,
        "events": events,
    }
    if request is not None:
        out["request"] = request
    return out
