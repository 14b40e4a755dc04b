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

from hypothesis import strategies as st

from .. import jsontext as jt
from ..jsontext import Draw
from ..schemas import unicode_text_chars
from .placing import PAD_LETTERS, NewBlocks, draw_text, insert, text_blocks
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


def _bedrock_event(kind: str, **body: Any) -> dict[str, Any]:
    """A Bedrock event (its ``contentBlockIndex`` is set at render time)."""
    return {kind: {"contentBlockIndex": 0, **body}}


def _noise(draw: Draw, turn: Turn) -> None:
    kinds = ["padding", "metadata", "text_block", "reasoning_block", "server_tool"]
    texts = text_blocks(turn)
    if texts:
        kinds.append("text_delta")
    kind = draw(st.sampled_from(kinds))
    if kind == "padding":
        step = turn.steps[draw(st.integers(0, len(turn.steps) - 1))]
        pad = draw(st.text(st.sampled_from(PAD_LETTERS), min_size=1, max_size=40))
        step.patch = dict(step.patch or {}, p=pad)
        return
    if kind == "metadata":
        latency = draw(st.integers(1, 5000))
        raw = {
            "metadata": {
                "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
                "metrics": {"latencyMs": latency},
            }
        }
        insert(turn, draw(st.integers(0, len(turn.steps))), Step("raw", raw=raw))
        return
    if kind == "text_delta":
        block = draw(st.sampled_from(texts))
        opened = turn.opening_index(block)
        stop = turn.step_of("stop", block)
        assert opened is not None and stop is not None
        # Before the first delta of a block without a start, the new delta
        # becomes the one that opens it.
        low = opened + 1 if turn.step_of("start", block) is not None else opened
        raw = _bedrock_event("contentBlockDelta", delta={"text": draw_text(draw)})
        insert(turn, draw(st.integers(low, stop)), Step("delta", target=block, raw=raw))
        return
    new = NewBlocks(draw, turn)
    add = new.add

    if kind == "text_block":
        explicit = draw(st.booleans())
        if explicit:
            add("start", _bedrock_event("contentBlockStart", start={}))
        for _ in range(draw(st.integers(0 if explicit else 1, 2))):
            add("delta", _bedrock_event("contentBlockDelta", delta={"text": draw_text(draw)}))
    elif kind == "reasoning_block":
        if draw(st.booleans()):
            content = {"redactedContent": "ZW5jcnlwdGVk"}
            add("delta", _bedrock_event("contentBlockDelta", delta={"reasoningContent": content}))
        else:
            thought = {"text": draw_text(draw)}
            add("delta", _bedrock_event("contentBlockDelta", delta={"reasoningContent": thought}))
            signed = {"signature": "c2lnbmF0dXJl"}
            add("delta", _bedrock_event("contentBlockDelta", delta={"reasoningContent": signed}))
    else:
        # A tool the provider runs itself, and its result: two blocks, never
        # executable.
        tool = {"toolUseId": "srvtool_noise", "name": "web_search", "type": "server_tool_use"}
        add("start", _bedrock_event("contentBlockStart", start={"toolUse": tool}))
        for piece in jt.draw_split(draw, '{"query": "weather"}', max_cuts=2):
            add("delta", _bedrock_event("contentBlockDelta", delta={"toolUse": {"input": piece}}))
        add("stop")
        new.result_block()
        start = {"toolResult": {"toolUseId": "srvtool_noise", "status": "success"}}
        add("start", _bedrock_event("contentBlockStart", start=start))
    add("stop")
    new.insert()


def _scratch(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    steps: list[Step] = [Step("begin", raw={"messageStart": {"role": "assistant"}})]
    blocks: list[Block] = []
    if draw(st.booleans()):
        block = Block(index=0)
        blocks.append(block)
        for call in calls:
            call.index += 1
        text = draw(st.text(unicode_text_chars, max_size=20))
        steps.append(
            Step(
                "delta",
                target=block,
                raw={"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": text}}},
            )
        )
        steps.append(Step("stop", target=block))
    for call in calls:
        assert call.expected is not None
        steps.append(Step("start", target=call))
        if call.expected == "{}" and draw(st.booleans()):
            pass  # the no-argument call: no input text at all
        else:
            pieces = jt.draw_split(draw, call.expected)
            if draw(st.booleans()):
                pieces = ["", *pieces]  # Claude on Bedrock opens with an empty input
            for piece in pieces:
                steps.append(Step("frag", target=call, text=piece))
        steps.append(Step("stop", target=call))
    steps.append(Step("finish", text="tool_use", raw={"messageStop": {"stopReason": "tool_use"}}))
    if draw(st.booleans()):
        usage = {"inputTokens": 20, "outputTokens": 10, "totalTokens": 30}
        steps.append(Step("raw", raw={"metadata": {"usage": usage, "metrics": {"latencyMs": 100}}}))
    return Turn(
        wire=WIRE,
        tool_schemas=schemas,
        request=None,
        steps=steps,
        calls=calls,
        blocks=blocks,
    )


# Bedrock's end of message: one member that is no chunk member (chat), no
# "type" (Anthropic, Responses).
_FOREIGN_SAMPLE = {"messageStop": {"stopReason": "tool_use"}}

WIRE = Wire(
    profile="bedrock",
    noise=_noise,
    scratch=_scratch,
    foreign_sample=_FOREIGN_SAMPLE,
    # ConverseStream is a binary event stream: every item is a frame, and a
    # multi-member item could not be sent as one (toolstream serve plays it).
    refuses=("bedrock-invoke",),
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
