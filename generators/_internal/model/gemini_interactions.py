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


WIRE = Wire(
    profile="gemini-interactions",
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
