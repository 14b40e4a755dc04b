"""Gemini Interactions API stream events (``events``, steps enabled).

Each event's ``event_type`` names it.  ``interaction.created``, then steps
keyed by ``index``: a client call is a ``function_call`` step
(``step.start`` with ``step.id``, ``step.name`` and the start input
``step.arguments``, ``step.delta`` events whose ``arguments_delta`` carries
text, ``step.stop``); every other step (thought, model output, built-in
tools and their results) is a block, kept verbatim, sharing the index
space.  ``interaction.completed`` carries ``interaction.status``, the end
reason.  As for Anthropic, a call whose deltas carry no text has the
compact JSON of its start input as arguments.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from .. import jsontext as jt
from ..jsontext import Draw
from ..schemas import unicode_text_chars
from .placing import NewBlocks, after_begin, draw_text, insert, text_block_span, text_blocks
from .turn import MISSING, Block, Call, Step, Turn, apply_patch, put
from .wire import Wire, modelable, new_block_call, start_input_arguments, started_as


def _parse_events(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    steps: list[Step] = []
    calls: list[Call] = []
    blocks: list[Block] = []
    by_index: dict[int, Call | Block] = {}
    for raw in stream:
        event = copy.deepcopy(raw)
        kind = event.get("event_type") if isinstance(event, dict) else None
        if kind == "interaction.created":
            steps.append(Step("begin", raw=event))
        elif kind == "interaction.completed":
            steps.append(Step("finish", text=event["interaction"]["status"], raw=event))
        elif kind == "step.start":
            index = event["index"]
            step = event["step"]
            target: Call | Block
            if step.get("type") == "function_call":
                target = Call(
                    choice=0,
                    index=index,
                    id=step.get("id", MISSING),
                    name=step.get("name", MISSING),
                    start_input=step.get("arguments", MISSING),
                )
                calls.append(target)
            else:
                target = Block(index=index)
                blocks.append(target)
            by_index[index] = target
            steps.append(Step("start", target=target, raw=event))
        elif kind == "step.delta":
            found = by_index[event["index"]]
            delta = event.get("delta") or {}
            if isinstance(found, Call) and delta.get("type") == "arguments_delta":
                text = delta.get("arguments", MISSING)
                steps.append(Step("frag", target=found, text=text, raw=event))
            else:
                steps.append(Step("delta", target=found, raw=event))
        elif kind == "step.stop":
            steps.append(Step("stop", target=by_index[event["index"]], raw=event))
        else:
            steps.append(Step("raw", raw=event))
    return Turn(
        wire=WIRE, tool_schemas=schemas, request=request, steps=steps, calls=calls, blocks=blocks
    )


def _render(turn: Turn) -> list[Any]:
    out: list[Any] = []
    for step in turn.steps:
        kind = step.kind
        target = step.target
        event: dict[str, Any]
        if kind in ("raw", "begin"):
            out.append(copy.deepcopy(step.raw))
            continue
        if kind == "finish":
            event = (
                copy.deepcopy(step.raw)
                if step.raw is not None
                else {"event_type": "interaction.completed", "interaction": {}}
            )
            interaction = event.get("interaction")
            if not isinstance(interaction, dict):
                interaction = event["interaction"] = {}
            interaction["status"] = step.text
            out.append(apply_patch(event, step.patch))
            continue
        assert target is not None
        if isinstance(target, Block):
            if step.raw is not None:
                event = copy.deepcopy(step.raw)
            else:
                event = {"event_type": f"step.{kind}"}
            event["index"] = target.index
        elif kind == "start":
            if step.ident is not None:
                body: dict[str, Any] = {
                    "type": "function_call",
                    "id": step.ident[0],
                    "name": step.ident[1],
                    "arguments": {},
                }
            else:
                base = (step.raw or {}).get("step") or {}
                body = {k: copy.deepcopy(v) for k, v in base.items()}
                body["type"] = "function_call"
                put(body, "id", target.id)
                put(body, "name", target.name)
                put(body, "arguments", target.start_input)
            event = {"event_type": "step.start", "index": target.index, "step": body}
        elif kind == "frag":
            delta: dict[str, Any] = {"type": "arguments_delta"}
            put(delta, "arguments", step.text)
            event = {"event_type": "step.delta", "index": target.index, "delta": delta}
        elif kind == "stop":
            event = {"event_type": "step.stop", "index": target.index}
        else:  # pragma: no cover
            raise AssertionError(kind)
        out.append(apply_patch(event, step.patch))
    return out


def step_start(step: dict[str, Any]) -> dict[str, Any]:
    """A ``step.start`` event (its index is set at render time)."""
    return {"event_type": "step.start", "index": 0, "step": step}


def step_delta(delta: dict[str, Any]) -> dict[str, Any]:
    """A ``step.delta`` event (its index is set at render time)."""
    return {"event_type": "step.delta", "index": 0, "delta": delta}


def _new_call(turn: Turn, name: str) -> tuple[Call, list[Step]]:
    return new_block_call(turn, "fc_late", name, start_input={})


def _text_block(turn: Turn, block: Block) -> bool:
    return started_as(turn, block, "step", "model_output")


def _noise(draw: Draw, turn: Turn) -> None:
    kinds = ["status_update", "output_step", "thought_step", "server_tool"]
    texts = text_blocks(turn)
    if texts:
        kinds.append("text_delta")
    kind = draw(st.sampled_from(kinds))
    start, delta = step_start, step_delta
    if kind == "status_update":
        created = next((s.raw for s in turn.steps if s.kind == "begin"), None)
        interaction = (created or {}).get("interaction")
        ident = interaction.get("id") if isinstance(interaction, dict) else None
        raw = {
            "event_type": "interaction.status_update",
            "interaction": {"id": ident if isinstance(ident, str) else "v1_gen"},
            "status": "in_progress",
        }
        insert(turn, draw(st.integers(after_begin(turn), len(turn.steps))), Step("raw", raw=raw))
        return
    if kind == "text_delta":
        block, first, stop = text_block_span(draw, turn, texts)
        raw = delta({"type": "text", "text": draw_text(draw)})
        insert(turn, draw(st.integers(first + 1, stop)), Step("delta", target=block, raw=raw))
        return
    new = NewBlocks(draw, turn)
    add = new.add
    if kind == "output_step":
        add("start", start({"type": "model_output"}))
        for _ in range(draw(st.integers(0, 2))):
            add("delta", delta({"type": "text", "text": draw_text(draw)}))
    elif kind == "thought_step":
        add("start", start({"type": "thought"}))
        summary = {"type": "text", "text": draw_text(draw)}
        add("delta", delta({"type": "thought_summary", "content": summary}))
        add("delta", delta({"type": "thought_signature", "signature": "c2lnbmF0dXJl"}))
    else:
        # A tool the provider runs itself, and its result: two steps, never
        # executable.
        search = {
            "type": "google_search_call",
            "id": "gs_noise",
            "arguments": {"queries": ["weather"]},
        }
        add("start", start(search))
        add("stop")
        new.result_block()
        found = {"type": "google_search_result", "call_id": "gs_noise", "result": []}
        add("start", start(found))
    add("stop")
    new.insert()


def _scratch(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    created = {"id": "v1_gen", "status": "in_progress", "object": "interaction"}
    steps: list[Step] = [
        Step("begin", raw={"event_type": "interaction.created", "interaction": created})
    ]
    blocks: list[Block] = []
    if draw(st.booleans()):
        block = Block(index=0)
        blocks.append(block)
        for call in calls:
            call.index += 1
        text = draw(st.text(unicode_text_chars, max_size=20))
        steps.append(
            Step(
                "start",
                target=block,
                raw={"event_type": "step.start", "index": 0, "step": {"type": "model_output"}},
            )
        )
        steps.append(
            Step(
                "delta",
                target=block,
                raw={
                    "event_type": "step.delta",
                    "index": 0,
                    "delta": {"type": "text", "text": text},
                },
            )
        )
        steps.append(Step("stop", target=block))
    for call in calls:
        assert call.expected is not None
        call.start_input = {}
        steps.append(Step("start", target=call))
        if not (call.expected == "{}" and draw(st.booleans())):  # else the start input stands
            for piece in jt.draw_split(draw, call.expected):
                steps.append(Step("frag", target=call, text=piece))
        steps.append(Step("stop", target=call))
    done = {"id": "v1_gen", "status": "requires_action"}
    steps.append(
        Step(
            "finish",
            text="requires_action",
            raw={"event_type": "interaction.completed", "interaction": done},
        )
    )
    return Turn(
        wire=WIRE,
        tool_schemas=schemas,
        request=None,
        steps=steps,
        calls=calls,
        blocks=blocks,
    )


# The Interactions API's end of an interaction.
_FOREIGN_SAMPLE = {
    "event_type": "interaction.completed",
    "interaction": {"id": "v1_foreign", "status": "requires_action"},
}

WIRE = Wire(
    profile="gemini-interactions",
    noise=_noise,
    scratch=_scratch,
    foreign_sample=_FOREIGN_SAMPLE,
    # It reads the event's name first (``event_type``): an item of any other
    # wire is an unknown event.
    refuses=(
        "openai",
        "anthropic",
        "openai-responses",
        "bedrock",
        "gemini",
        "bedrock-invoke",
        "cohere",
    ),
    id_prefix="fc_",
    stream_key="events",
    parse=modelable("gemini-interactions", _parse_events),
    render=_render,
    blocky=True,
    closed_world=True,
    tool_reason="requires_action",
    wrong_reasons=("completed", "incomplete", "cancelled", "budget_exceeded", "in_progress"),
    repeat_reasons=("requires_action", "completed"),
    index_key="index",
    index_kinds=("start", "frag", "stop"),
    error_events=tuple(
        {"event_type": "error", "error": {"code": code, "message": "The model is overloaded"}}
        for code in ("unavailable", "internal")
    ),
    error_endings=("failed",),
    error_ending_wrong=False,
    implied_arguments=start_input_arguments,
    late_text_delta={
        "event_type": "step.delta",
        "index": 0,
        "delta": {"type": "text", "text": "late"},
    },
    text_block=_text_block,
    cleared_start={},
    start_object=True,
    empty_starts=(MISSING, None),
    blank_fragments=True,
    new_call=_new_call,
)
