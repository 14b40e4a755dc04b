"""Anthropic Messages events (``events``).

``message_start``, then content blocks: a client call is a ``tool_use``
block (``content_block_start`` with id, name and maybe an ``input``,
``input_json_delta`` text, ``content_block_stop``); every other block
(text, thinking, server tools) is kept verbatim.  ``message_delta`` carries
the ``stop_reason``, ``message_stop`` ends the message.  A block whose deltas
carry no text has the compact JSON of its start ``input`` as arguments.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from .. import jsontext as jt
from ..jsontext import Draw
from ..schemas import unicode_text_chars
from .placing import NewBlocks, draw_text, insert, text_block_span, text_blocks
from .turn import MISSING, Block, Call, Step, Turn, apply_patch
from .wire import Wire, new_block_call, start_input_arguments, started_as


def _parse(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    steps: list[Step] = []
    calls: list[Call] = []
    blocks: list[Block] = []
    by_index: dict[int, Call | Block] = {}
    for raw in stream:
        event = copy.deepcopy(raw)
        kind = event.get("type") if isinstance(event, dict) else None
        if kind == "message_start":
            steps.append(Step("begin", raw=event))
        elif kind == "message_stop":
            steps.append(Step("mstop", raw=event))
        elif kind == "message_delta" and (event.get("delta") or {}).get("stop_reason") is not None:
            steps.append(Step("finish", text=event["delta"]["stop_reason"], raw=event))
        elif kind == "content_block_start":
            index = event["index"]
            block = event["content_block"]
            if block.get("type") == "tool_use":
                call = Call(
                    choice=0,
                    index=index,
                    id=block.get("id", MISSING),
                    name=block.get("name", MISSING),
                    start_input=block.get("input", MISSING),
                )
                calls.append(call)
                target: Call | Block = call
            else:
                target = Block(index=index)
                blocks.append(target)
            by_index[index] = target
            steps.append(Step("start", target=target, raw=event))
        elif kind == "content_block_delta":
            target = by_index[event["index"]]
            delta = event.get("delta") or {}
            if isinstance(target, Call) and delta.get("type") == "input_json_delta":
                steps.append(
                    Step("frag", target=target, text=delta.get("partial_json", MISSING), raw=event)
                )
            else:
                steps.append(Step("delta", target=target, raw=event))
        elif kind == "content_block_stop":
            steps.append(Step("stop", target=by_index[event["index"]], raw=event))
        else:
            steps.append(Step("raw", raw=event))
    return Turn(
        wire=WIRE,
        tool_schemas=schemas,
        request=request,
        steps=steps,
        calls=calls,
        blocks=blocks,
    )


def _render(turn: Turn) -> list[Any]:
    out: list[Any] = []
    for step in turn.steps:
        kind = step.kind
        target = step.target
        if kind in ("raw", "begin", "mstop"):
            out.append(copy.deepcopy(step.raw))
            continue
        if kind == "finish":
            event = (
                copy.deepcopy(step.raw)
                if step.raw is not None
                else {
                    "type": "message_delta",
                    "delta": {"stop_reason": None, "stop_sequence": None},
                    "usage": {"output_tokens": 1},
                }
            )
            reason_delta = event.setdefault("delta", {})
            assert isinstance(reason_delta, dict)
            reason_delta["stop_reason"] = step.text
            out.append(apply_patch(event, step.patch))
            continue
        assert target is not None
        if kind == "start":
            if isinstance(target, Call):
                if step.ident is not None:
                    block: dict[str, Any] = {
                        "type": "tool_use",
                        "id": step.ident[0],
                        "name": step.ident[1],
                        "input": {},
                    }
                else:
                    base = (step.raw or {}).get("content_block") or {}
                    block = {k: copy.deepcopy(v) for k, v in base.items()}
                    block["type"] = "tool_use"
                    for key, value in (
                        ("id", target.id),
                        ("name", target.name),
                        ("input", target.start_input),
                    ):
                        if value is MISSING:
                            block.pop(key, None)
                        else:
                            block[key] = copy.deepcopy(value)
                event = {
                    "type": "content_block_start",
                    "index": target.index,
                    "content_block": block,
                }
            else:
                event = copy.deepcopy(step.raw)
                event["index"] = target.index
        elif kind == "frag":
            delta: dict[str, Any] = {"type": "input_json_delta"}
            if step.text is not MISSING:
                delta["partial_json"] = copy.deepcopy(step.text)
            event = {"type": "content_block_delta", "index": target.index, "delta": delta}
        elif kind == "delta":
            event = copy.deepcopy(step.raw)
            event["index"] = target.index
        elif kind == "stop":
            event = {"type": "content_block_stop", "index": target.index}
        else:  # pragma: no cover
            raise AssertionError(kind)
        out.append(apply_patch(event, step.patch))
    return out


def block_start(content_block: dict[str, Any]) -> dict[str, Any]:
    """A ``content_block_start`` event (its index is set at render time)."""
    return {"type": "content_block_start", "index": 0, "content_block": content_block}


def block_delta(delta: dict[str, Any]) -> dict[str, Any]:
    """A ``content_block_delta`` event (its index is set at render time)."""
    return {"type": "content_block_delta", "index": 0, "delta": delta}


def _new_call(turn: Turn, name: str) -> tuple[Call, list[Step]]:
    return new_block_call(turn, "toolu_late", name, start_input={})


def _text_block(turn: Turn, block: Block) -> bool:
    return started_as(turn, block, "content_block", "text")


def _noise(draw: Draw, turn: Turn) -> None:
    texts = text_blocks(turn)
    kinds = [
        "ping",
        "usage_delta",
        "text_block",
        "thinking_block",
        "redacted_thinking",
        "server_tool",
    ]
    if texts:
        kinds.append("text_delta")
    kind = draw(st.sampled_from(kinds))
    if kind in ("ping", "usage_delta"):
        raw = (
            {"type": "ping"}
            if kind == "ping"
            else {"type": "message_delta", "delta": {}, "usage": {"output_tokens": 2}}
        )
        insert(turn, draw(st.integers(0, len(turn.steps))), Step("raw", raw=raw))
        return
    if kind == "text_delta":
        block, start, stop = text_block_span(draw, turn, texts)
        at = draw(st.integers(start + 1, stop))
        raw = block_delta({"type": "text_delta", "text": draw_text(draw)})
        insert(turn, at, Step("delta", target=block, raw=raw))
        return
    new = NewBlocks(draw, turn)
    add = new.add

    if kind == "text_block":
        add("start", block_start({"type": "text", "text": ""}))
        for _ in range(draw(st.integers(0, 2))):
            add("delta", block_delta({"type": "text_delta", "text": draw_text(draw)}))
    elif kind == "server_tool":
        # A server-side tool call and its result: two blocks, never executable.
        use = {"type": "server_tool_use", "id": "srvtoolu_noise", "name": "web_search"}
        add("start", block_start({**use, "input": {}}))
        for piece in jt.draw_split(draw, '{"query": "weather"}', max_cuts=2):
            add("delta", block_delta({"type": "input_json_delta", "partial_json": piece}))
        add("stop")
        new.result_block()
        found = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_noise", "content": []}
        add("start", block_start(found))
    elif kind == "thinking_block":
        add("start", block_start({"type": "thinking", "thinking": "", "signature": ""}))
        add("delta", block_delta({"type": "thinking_delta", "thinking": draw_text(draw)}))
        signed = {"type": "signature_delta", "signature": "c2lnbmF0dXJl"}
        add("delta", block_delta(signed))
    else:
        redacted = {"type": "redacted_thinking", "data": "ZW5jcnlwdGVk"}
        add("start", block_start(redacted))
    add("stop")
    new.insert()


def _scratch(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    steps: list[Step] = [
        Step(
            "begin",
            raw={
                "type": "message_start",
                "message": {
                    "id": "msg_gen",
                    "type": "message",
                    "role": "assistant",
                    "model": "gen-model",
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 1},
                },
            },
        )
    ]
    blocks: list[Block] = []
    if draw(st.booleans()):
        block = Block(index=0)
        blocks.append(block)
        for call in calls:
            call.index += 1
        steps.append(
            Step(
                "start",
                target=block,
                raw={
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "text", "text": ""},
                },
            )
        )
        steps.append(
            Step(
                "delta",
                target=block,
                raw={
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {
                        "type": "text_delta",
                        "text": draw(st.text(unicode_text_chars, max_size=20)),
                    },
                },
            )
        )
        steps.append(Step("stop", target=block))
    for call in calls:
        assert call.expected is not None
        call.start_input = {}
        steps.append(Step("start", target=call))
        if call.expected == "{}" and draw(st.booleans()):
            pass  # the start input {} stands
        else:
            for piece in jt.draw_split(draw, call.expected):
                steps.append(Step("frag", target=call, text=piece))
        steps.append(Step("stop", target=call))
    steps.append(
        Step(
            "finish",
            text="tool_use",
            raw={
                "type": "message_delta",
                "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                "usage": {"output_tokens": 30},
            },
        )
    )
    steps.append(Step("mstop", raw={"type": "message_stop"}))
    for call in calls:
        if call.start_input is MISSING:
            call.start_input = {}
    return Turn(
        wire=WIRE,
        tool_schemas=schemas,
        request=None,
        steps=steps,
        calls=calls,
        blocks=blocks,
    )


# Anthropic's end of message: a chunk without choices holding "type"
# (chat), an unknown event type (Responses), three members (Bedrock).
_FOREIGN_SAMPLE = {
    "type": "message_delta",
    "delta": {"stop_reason": "tool_use", "stop_sequence": None},
    "usage": {"output_tokens": 12},
}

WIRE = Wire(
    profile="anthropic",
    noise=_noise,
    scratch=_scratch,
    foreign_sample=_FOREIGN_SAMPLE,
    refuses=("openai", "openai-responses", "bedrock", "gemini", "cohere"),
    id_prefix="toolu_",
    stream_key="events",
    parse=_parse,
    render=_render,
    blocky=True,
    tool_reason="tool_use",
    wrong_reasons=("max_tokens", "end_turn", "stop_sequence", "refusal", "pause_turn"),
    repeat_reasons=("tool_use", "end_turn"),
    index_key="index",
    index_kinds=("start", "frag", "stop"),
    error_events=tuple(
        {"type": "error", "error": {"type": kind, "message": "Overloaded"}}
        for kind in ("overloaded_error", "api_error")
    ),
    message_end=("finish", "mstop"),
    turn_end="mstop",
    implied_arguments=start_input_arguments,
    late_text_delta={
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "text_delta", "text": "late"},
    },
    message_stop={"type": "message_stop"},
    text_block=_text_block,
    cleared_start={},
    start_object=True,
    empty_starts=(MISSING, None),
    whole_message=True,
    new_call=_new_call,
)
