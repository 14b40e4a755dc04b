"""Cohere v2 chat stream events (``events``).

Each event's ``type`` names it.  ``message-start``, then calls keyed by the
``index`` of the ``tool-call-*`` events: ``tool-call-start`` (its
``delta.message.tool_calls`` is one object with ``id``, ``type``,
``function.name`` and ``function.arguments``, normally ``""``: the first
part of the text), ``tool-call-delta`` argument fragments, ``tool-call-end``.
``message-end`` carries ``delta.finish_reason``.  Only calls are slots: the
content events number their own ``index`` and carry no tool data, so they
are kept verbatim with the tool plan and the rest (``raw``).  The arguments
are text, as in OpenAI's chunks: a call without any is ``""``.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from .. import jsontext as jt
from ..jsontext import Draw
from ..schemas import unicode_text_chars
from .placing import after_begin, draw_text, insert
from .turn import MISSING, Call, Step, Turn, apply_patch, put
from .wire import Wire, modelable, new_block_call


def tool_call(event: dict[str, Any]) -> dict[str, Any]:
    """The ``delta.message.tool_calls`` object of a ``tool-call-*`` event."""
    found = ((event.get("delta") or {}).get("message") or {}).get("tool_calls")
    return found if isinstance(found, dict) else {}


def _parse_events(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    steps: list[Step] = []
    calls: list[Call] = []
    by_index: dict[int, Call] = {}
    for raw in stream:
        event = copy.deepcopy(raw)
        kind = event.get("type") if isinstance(event, dict) else None
        if kind == "message-start":
            steps.append(Step("begin", raw=event))
        elif kind == "tool-call-start":
            body = tool_call(event)
            function = body.get("function") or {}
            call = Call(
                choice=0,
                index=event["index"],
                id=body.get("id", MISSING),
                name=function.get("name", MISSING),
                start_input=function.get("arguments", MISSING),
            )
            calls.append(call)
            by_index[call.index] = call
            steps.append(Step("start", target=call, raw=event))
        elif kind == "tool-call-delta":
            function = tool_call(event).get("function") or {}
            text = function.get("arguments", MISSING)
            steps.append(Step("frag", target=by_index[event["index"]], text=text, raw=event))
        elif kind == "tool-call-end":
            steps.append(Step("stop", target=by_index[event["index"]], raw=event))
        elif kind == "message-end":
            steps.append(Step("finish", text=event["delta"]["finish_reason"], raw=event))
        else:
            steps.append(Step("raw", raw=event))
    return Turn(wire=WIRE, tool_schemas=schemas, request=request, steps=steps, calls=calls)


def _event(kind: str, index: Any, tool_calls: dict[str, Any] | None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": kind, "index": index}
    if tool_calls is not None:
        event["delta"] = {"message": {"tool_calls": tool_calls}}
    return event


def _render(turn: Turn) -> list[Any]:
    out: list[Any] = []
    for step in turn.steps:
        kind = step.kind
        target = step.target
        if kind in ("raw", "begin"):
            out.append(copy.deepcopy(step.raw))
            continue
        if kind == "finish":
            event = (
                copy.deepcopy(step.raw)
                if step.raw is not None
                else {"type": "message-end", "delta": {"finish_reason": None}}
            )
            delta = event.get("delta")
            if not isinstance(delta, dict):
                delta = event["delta"] = {}
            delta["finish_reason"] = step.text
            out.append(apply_patch(event, step.patch))
            continue
        assert isinstance(target, Call)
        if kind == "start":
            base = tool_call(step.raw) if step.raw is not None and step.ident is None else {}
            body = {k: copy.deepcopy(v) for k, v in base.items()}
            body.setdefault("type", "function")
            function = body.get("function")
            function = dict(function) if isinstance(function, dict) else {}
            if step.ident is not None:
                body["id"], function["name"], function["arguments"] = (*step.ident, "")
            else:
                put(body, "id", target.id)
                put(function, "name", target.name)
                put(function, "arguments", target.start_input)
            body["function"] = function
            event = _event("tool-call-start", target.index, body)
        elif kind == "frag":
            function = {}
            put(function, "arguments", step.text)
            event = _event("tool-call-delta", target.index, {"function": function})
        elif kind == "stop":
            event = _event("tool-call-end", target.index, None)
        else:  # pragma: no cover
            raise AssertionError(kind)
        out.append(apply_patch(event, step.patch))
    return out


def plan_delta(text: str) -> dict[str, Any]:
    """A ``tool-plan-delta`` event."""
    return {"type": "tool-plan-delta", "delta": {"message": {"tool_plan": text}}}


def _new_call(turn: Turn, name: str) -> tuple[Call, list[Step]]:
    return new_block_call(turn, "late_call_1", name, start_input="")


def _noise(draw: Draw, turn: Turn) -> None:
    # Content and citation events number their own index and carry no tool
    # data: verbatim items, anywhere before the message's end.
    kind = draw(st.sampled_from(["plan", "content", "citation", "debug"]))
    items: list[dict[str, Any]]
    if kind == "plan":
        items = [plan_delta(draw_text(draw))]
    elif kind == "content":
        opening = {"message": {"content": {"type": "text", "text": ""}}}
        items = [{"type": "content-start", "index": 0, "delta": opening}]
        for _ in range(draw(st.integers(0, 2))):
            piece = {"message": {"content": {"text": draw_text(draw)}}}
            items.append({"type": "content-delta", "index": 0, "delta": piece})
        items.append({"type": "content-end", "index": 0})
    elif kind == "citation":
        cited = {"start": 0, "end": 4, "text": "Rain", "sources": []}
        items = [
            {"type": "citation-start", "index": 0, "delta": {"message": {"citations": cited}}},
            {"type": "citation-end", "index": 0},
        ]
    else:
        items = [{"type": "debug", "prompt": draw_text(draw)}]
    limit = turn.finish_index(0)
    at = draw(st.integers(after_begin(turn), len(turn.steps) if limit is None else limit))
    insert(turn, at, *(Step("raw", raw=item) for item in items))


def _scratch(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    message = {"role": "assistant", "content": [], "tool_plan": "", "tool_calls": []}
    start = {"id": "gen", "type": "message-start", "delta": {"message": message}}
    steps: list[Step] = [Step("begin", raw=start)]
    if draw(st.booleans()):
        plan = draw(st.text(unicode_text_chars, max_size=20))
        steps.append(
            Step("raw", raw={"type": "tool-plan-delta", "delta": {"message": {"tool_plan": plan}}})
        )
    for call in calls:
        assert call.expected is not None
        call.start_input = ""
        steps.append(Step("start", target=call))
        for piece in jt.draw_split(draw, call.expected):
            steps.append(Step("frag", target=call, text=piece))
        steps.append(Step("stop", target=call))
    end = {"type": "message-end", "delta": {"finish_reason": "TOOL_CALL"}}
    steps.append(Step("finish", text="TOOL_CALL", raw=end))
    return Turn(wire=WIRE, tool_schemas=schemas, request=None, steps=steps, calls=calls)


# A v2 chat stream's end.
_FOREIGN_SAMPLE = {
    "type": "message-end",
    "id": "cohere-foreign",
    "delta": {"finish_reason": "TOOL_CALL", "usage": {"billed_units": {"output_tokens": 9}}},
}

WIRE = Wire(
    profile="cohere",
    noise=_noise,
    scratch=_scratch,
    foreign_sample=_FOREIGN_SAMPLE,
    # It reads the event's name first (``type``): an item of any other wire
    # is an unknown event.
    refuses=(
        "openai",
        "anthropic",
        "openai-responses",
        "bedrock",
        "gemini",
        "bedrock-invoke",
        "gemini-interactions",
    ),
    id_prefix="call_",
    stream_key="events",
    parse=modelable("cohere", _parse_events),
    render=_render,
    blocky=True,
    closed_world=True,
    tool_reason="TOOL_CALL",
    wrong_reasons=("COMPLETE", "MAX_TOKENS", "STOP_SEQUENCE", "TIMEOUT"),
    repeat_reasons=("TOOL_CALL", "COMPLETE"),
    index_key="index",
    index_kinds=("start", "frag", "stop"),
    # Cohere's stream has no error event: an error ends the message.
    error_events=(),
    error_endings=("ERROR",),
    error_ending_wrong=False,
    start_text=True,
    cleared_start="",
    empty_starts=("", None, MISSING),
    blank_fragments=True,
    new_call=_new_call,
)
