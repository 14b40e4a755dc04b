"""Amazon Bedrock ConverseStream events (``events``).

Each event is a one-key object (``{"contentBlockDelta": {...}}``).
``messageStart``, then content blocks by ``contentBlockIndex``: a client
call is a ``toolUse`` block (``contentBlockStart`` with ``toolUseId`` and
``name``, ``toolUse.input`` text deltas, ``contentBlockStop``); a text or
reasoning block may be opened by its first delta; every other block is kept
verbatim.  ``messageStop`` carries the ``stopReason``.  A tool block whose
deltas carry no text is the no-argument call ``{}``.
"""

from __future__ import annotations

import copy
from typing import Any

from .turn import MISSING, Block, Call, Step, Turn, apply_patch, put
from .wire import Wire, modelable, new_block_call


def payload(event: Any) -> tuple[str | None, Any]:
    if isinstance(event, dict) and len(event) == 1:
        ((kind, body),) = event.items()
        return kind, body
    return None, None


def _parse_events(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    steps: list[Step] = []
    calls: list[Call] = []
    blocks: list[Block] = []
    by_index: dict[int, Call | Block] = {}
    for raw in stream:
        event = copy.deepcopy(raw)
        kind, body = payload(event)
        if not isinstance(body, dict):
            kind = None
        if kind == "messageStart":
            steps.append(Step("begin", raw=event))
        elif kind == "contentBlockStart":
            index = body["contentBlockIndex"]
            tool = (body.get("start") or {}).get("toolUse")
            target: Call | Block
            if isinstance(tool, dict) and "type" not in tool:
                target = Call(
                    choice=0,
                    index=index,
                    id=tool.get("toolUseId", MISSING),
                    name=tool.get("name", MISSING),
                )
                calls.append(target)
            else:
                target = Block(index=index)
                blocks.append(target)
            by_index[index] = target
            steps.append(Step("start", target=target, raw=event))
        elif kind == "contentBlockDelta":
            index = body["contentBlockIndex"]
            found = by_index.get(index)
            if found is None:  # a text/reasoning block opened by its first delta
                found = by_index[index] = Block(index=index)
                blocks.append(found)
            delta = body.get("delta") or {}
            if isinstance(found, Call) and "toolUse" in delta:
                tool_delta = delta["toolUse"]
                text = tool_delta.get("input", MISSING) if isinstance(tool_delta, dict) else MISSING
                steps.append(Step("frag", target=found, text=text, raw=event))
            else:
                steps.append(Step("delta", target=found, raw=event))
        elif kind == "contentBlockStop":
            steps.append(Step("stop", target=by_index[body["contentBlockIndex"]], raw=event))
        elif kind == "messageStop":
            steps.append(Step("finish", text=body.get("stopReason"), raw=event))
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
        event: Any
        if kind in ("raw", "begin"):
            event = copy.deepcopy(step.raw)
        elif kind == "finish":
            event = copy.deepcopy(step.raw) if step.raw is not None else {"messageStop": {}}
            payload(event)[1]["stopReason"] = step.text
        elif isinstance(target, Block):
            if step.raw is not None:
                event = copy.deepcopy(step.raw)
            else:
                name = {"start": "contentBlockStart", "stop": "contentBlockStop"}[kind]
                event = {name: {}}
            payload(event)[1]["contentBlockIndex"] = target.index
        else:
            assert isinstance(target, Call)
            use_raw = step.raw is not None and step.ident is None
            if kind == "start":
                event = (
                    copy.deepcopy(step.raw)
                    if use_raw
                    else {"contentBlockStart": {"contentBlockIndex": None, "start": {}}}
                )
                body = payload(event)[1]
                body["contentBlockIndex"] = target.index
                start = body.get("start")
                if not isinstance(start, dict):
                    start = body["start"] = {}
                tool = start.get("toolUse")
                if not isinstance(tool, dict):
                    tool = start["toolUse"] = {"toolUseId": None, "name": None}
                id_, name = step.ident if step.ident is not None else (target.id, target.name)
                put(tool, "toolUseId", id_)
                put(tool, "name", name)
            elif kind == "frag":
                event = (
                    copy.deepcopy(step.raw)
                    if use_raw
                    else {"contentBlockDelta": {"contentBlockIndex": None, "delta": {}}}
                )
                body = payload(event)[1]
                body["contentBlockIndex"] = target.index
                old = body.get("delta")
                old_tool = old.get("toolUse") if isinstance(old, dict) else None
                tool = copy.deepcopy(old_tool) if isinstance(old_tool, dict) else {}
                put(tool, "input", step.text)
                body["delta"] = {"toolUse": tool}
            elif kind == "stop":
                event = (
                    copy.deepcopy(step.raw)
                    if use_raw
                    else {"contentBlockStop": {"contentBlockIndex": None}}
                )
                payload(event)[1]["contentBlockIndex"] = target.index
            else:  # pragma: no cover
                raise AssertionError(kind)
        if step.patch:
            body = payload(event)[1]
            if isinstance(body, dict):
                apply_patch(body, step.patch)
        out.append(event)
    return out


def body(event: Any) -> dict[str, Any]:
    """The payload of an event (``{}`` for anything else)."""
    found = payload(event)[1]
    return found if isinstance(found, dict) else {}


def _new_call(turn: Turn, name: str) -> tuple[Call, list[Step]]:
    return new_block_call(turn, "tooluse_late", name)


def _text_block(turn: Turn, block: Block) -> bool:
    return any(
        s.kind == "delta" and s.target is block and "text" in (body(s.raw).get("delta") or {})
        for s in turn.steps
    )


WIRE = Wire(
    profile="bedrock",
    id_prefix="tooluse_",
    stream_key="events",
    parse=modelable("bedrock", _parse_events),
    render=_render,
    blocky=True,
    tool_reason="tool_use",
    wrong_reasons=(
        "max_tokens",
        "end_turn",
        "stop_sequence",
        "guardrail_intervened",
        "content_filtered",
    ),
    repeat_reasons=("tool_use", "end_turn"),
    index_key="contentBlockIndex",
    index_kinds=("start", "frag", "stop"),
    error_events=tuple(
        {kind: {"message": "The model stream failed"}}
        for kind in (
            "modelStreamErrorException",
            "internalServerException",
            "throttlingException",
            "serviceUnavailableException",
            "validationException",
        )
    ),
    implied_arguments=lambda call: "{}",
    empty_arguments=False,
    delta_opens_block=True,
    late_text_delta={"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "late"}}},
    text_block=_text_block,
    new_call=_new_call,
)
