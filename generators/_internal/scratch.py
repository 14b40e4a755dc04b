"""Valid turns built from scratch for given tool schemas, so that the property
tests do not depend on the seeds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import strategies as st

from . import jsontext as jt
from .model import (
    MISSING,
    PROFILES,
    WIRES,
    Block,
    Call,
    Step,
    StepKind,
    Turn,
    compact,
    gemini,
    render,
)
from .model.chat import DEFAULT_CHUNK
from .schemas import unicode_text_chars, values

RESPONSES = "openai-responses"
BEDROCK = "bedrock"
GEMINI = "gemini"

_ID_CHARS = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def valid_turns(
    profile: str, tool_schemas: Mapping[str, Any], max_calls: int = 3
) -> st.SearchStrategy[dict[str, Any]]:
    """Passing fixtures for ``profile`` calling 1..``max_calls`` of the tools
    in ``tool_schemas`` (parallel calls), with arguments drawn from each
    tool's schema (Unicode-rich strings; the schemas must use the keywords
    of :data:`generators._internal.schemas.GENERATED_KEYWORDS`) and
    serialized in a drawn style, fragmented at drawn points.

    OpenAI: role chunk, fragmented calls, ``finish_reason: "tool_calls"``,
    maybe a usage chunk.  Mistral: whole calls without ``index`` (or, drawn,
    indexed fragments).  Anthropic: ``message_start``, maybe a text block,
    ``tool_use`` blocks with start input ``{}``, ``message_delta`` with
    ``tool_use``, ``message_stop``.  Responses: ``response.created``, maybe
    ``response.in_progress``, maybe a reasoning item and/or a message item,
    ``function_call`` items (added with ``arguments: ""``, deltas,
    ``function_call_arguments.done``, ``output_item.done`` restating the
    text), ``response.completed`` listing the output items; every event has
    its ``sequence_number``.  Bedrock: ``messageStart``, maybe a text block
    opened by its first delta, ``toolUse`` blocks (start, deltas, maybe a
    leading empty delta; an empty object maybe without any delta), stop,
    ``messageStop`` with ``tool_use``, maybe ``metadata``.  Gemini: maybe
    a text chunk, each call whole (``args``, maybe none for ``{}``;
    consecutive whole calls maybe in one chunk) or streamed
    (``partialArgs``, strings split and entries grouped as drawn, ended by
    ``{}`` or by the last entries' part), a ``finishReason: "STOP"`` chunk
    (or, drawn, on the last call's chunk), maybe a usage-only chunk.
    Gemini Interactions: ``interaction.created``, maybe a ``model_output`` step,
    ``function_call`` steps (start ``arguments: {}``, deltas; an empty
    object maybe without any), ``interaction.completed`` with
    ``requires_action``.  Cohere: ``message-start``, maybe a
    ``tool-plan-delta``, calls (start with ``arguments: ""``, deltas, end),
    ``message-end`` with ``TOOL_CALL``.  Bedrock InvokeModel: the Anthropic
    turn in ``chunk`` frames, with the request's Claude ``modelId``.

    Shrinks toward: one call of the first tool, the simplest valid
    arguments, compact text in one fragment, no optional noise.
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}")
    if not tool_schemas:
        raise ValueError("tool_schemas is empty")
    if max_calls < 1:
        raise ValueError("max_calls must be at least 1")
    return _turns(profile, dict(tool_schemas), max_calls)


@st.composite
def _turns(draw: Any, profile: str, schemas: dict[str, Any], max_calls: int) -> dict[str, Any]:
    names = list(schemas)
    count = draw(st.integers(1, max_calls))
    calls: list[Call] = []
    ids: set[str] = set()
    for index in range(count):
        name = draw(st.sampled_from(names))
        value = draw(values(schemas[name]))
        if not isinstance(value, dict):
            raise ValueError(f"schema of {name!r} does not describe an object")
        if draw(st.booleans()):
            text = jt.dumps(jt.draw_reorder(draw, value), **jt.draw_style(draw))
        else:
            text = jt.dumps(value, item_sep=", ", key_sep=": ")
        suffix = draw(st.text(_ID_CHARS, min_size=1, max_size=10))
        id_ = WIRES[profile].id_prefix + suffix
        while id_ in ids:
            id_ += "x"
        ids.add(id_)
        calls.append(
            Call(
                choice=0,
                index=index,
                id=id_,
                name=name,
                expected=text,
                type_field=profile == "openai",
                indexed=profile != "mistral",
            )
        )
    return render(BUILDERS[profile](draw, calls, schemas))


def _chat(draw: Any, profile: str, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    steps: list[Step] = []
    if draw(st.booleans()):
        steps.append(
            Step(
                "raw",
                raw={
                    **{k: v for k, v in DEFAULT_CHUNK.items() if k != "choices"},
                    "choices": [
                        {
                            "index": 0,
                            "delta": {"role": "assistant", "content": ""},
                            "finish_reason": None,
                        }
                    ],
                },
            )
        )
    fragmented = profile == "openai" or draw(st.booleans())
    for call in calls:
        assert call.expected is not None
        if fragmented:
            pieces = jt.draw_split(draw, call.expected)
            call.indexed = True
        else:
            pieces = [call.expected]
        for n, piece in enumerate(pieces):
            steps.append(
                Step("frag", target=call, text=piece, carries_id=n == 0, carries_name=n == 0)
            )
    join = profile == "mistral" and draw(st.booleans())
    steps.append(Step("finish", text="tool_calls", join=join))
    if draw(st.booleans()):
        steps.append(
            Step(
                "raw",
                raw={
                    **{k: v for k, v in DEFAULT_CHUNK.items() if k != "choices"},
                    "choices": [],
                    "usage": {"prompt_tokens": 20, "completion_tokens": 10, "total_tokens": 30},
                },
            )
        )
    return Turn(
        wire=WIRES[profile],
        tool_schemas=schemas,
        request={"tool_choice": "auto"},
        steps=steps,
        calls=calls,
        chunk_template=None,
    )


def _anthropic(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
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
        wire=WIRES["anthropic"],
        tool_schemas=schemas,
        request=None,
        steps=steps,
        calls=calls,
        blocks=blocks,
    )


def _responses(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    response = {"id": "resp_gen", "object": "response", "status": "in_progress", "output": []}
    steps: list[Step] = [Step("raw", raw={"type": "response.created", "response": dict(response)})]
    if draw(st.booleans()):
        steps.append(Step("raw", raw={"type": "response.in_progress", "response": dict(response)}))
    blocks: list[Block] = []

    def item_step(kind: StepKind, block: Block, item: dict[str, Any]) -> Step:
        event = "response.output_item.added" if kind == "start" else "response.output_item.done"
        return Step(kind, target=block, raw={"type": event, "output_index": 0, "item": item})

    if draw(st.booleans()):
        block = Block(index=len(blocks))
        blocks.append(block)
        item = {"id": "rs_gen", "type": "reasoning", "summary": []}
        steps += [item_step("start", block, item), item_step("stop", block, item)]
    if draw(st.booleans()):
        block = Block(index=len(blocks))
        blocks.append(block)
        text = draw(st.text(unicode_text_chars, max_size=20))
        head = {"id": "msg_gen", "type": "message", "status": "in_progress", "role": "assistant"}
        part = {"type": "output_text", "text": text, "annotations": []}
        steps.append(item_step("start", block, {**head, "content": []}))
        steps.append(
            Step(
                "delta",
                target=block,
                raw={
                    "type": "response.output_text.delta",
                    "item_id": "msg_gen",
                    "output_index": 0,
                    "content_index": 0,
                    "delta": text,
                },
            )
        )
        steps.append(item_step("stop", block, {**head, "status": "completed", "content": [part]}))
    for call in calls:
        assert call.expected is not None
        call.index += len(blocks)
        call.item_id = "fc_" + call.id.removeprefix("call_")
        call.start_input = ""
        steps.append(Step("start", target=call))
        for piece in jt.draw_split(draw, call.expected):
            steps.append(Step("frag", target=call, text=piece))
        steps.append(Step("restate", target=call))
        steps.append(Step("stop", target=call))
    steps.append(
        Step(
            "finish",
            text="response.completed",
            raw={
                "type": "response.completed",
                "response": {**response, "status": "completed"},
            },
        )
    )
    return Turn(
        wire=WIRES[RESPONSES],
        tool_schemas=schemas,
        request={"tool_choice": "auto"},
        steps=steps,
        calls=calls,
        blocks=blocks,
        sequenced=True,
        snapshot=True,
    )


def _bedrock(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
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
        wire=WIRES[BEDROCK],
        tool_schemas=schemas,
        request=None,
        steps=steps,
        calls=calls,
        blocks=blocks,
    )


def _gemini(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    template = {
        "candidates": [{"content": {"role": "model", "parts": []}}],
        "modelVersion": "gemini-scratch",
    }
    turn = Turn(
        wire=WIRES[GEMINI],
        tool_schemas=schemas,
        request=None,
        steps=[],
        calls=calls,
        chunk_template=template,
    )
    if draw(st.booleans()):
        text = draw(st.text(unicode_text_chars, max_size=20))
        candidate = {"content": {"role": "model", "parts": [{"text": text}]}}
        turn.steps.append(Step("raw", raw={**template, "candidates": [candidate]}))
    for call in calls:
        assert call.expected is not None
        value = jt.loads(call.expected)
        call.expected = compact(value)
        call.start_input = value
        previous = turn.steps[-1] if turn.steps else None
        whole_before = (
            previous is not None
            and previous.kind == "start"
            and isinstance(previous.target, Call)
            and not previous.target.streamed
        )
        start = Step("start", target=call, tmpl_chunk=template, carries_id=True)
        start.join = whole_before and draw(st.booleans())
        turn.steps.append(start)
        if gemini.leaves(value) is not None and draw(st.booleans()):
            items = gemini.draw_entries(draw, value)
            gemini.stream(draw, turn, call, items, end=draw(st.booleans()))
        elif value == {} and draw(st.booleans()):
            call.start_input = MISSING  # the whole call without args: {}
    turn.steps.append(Step("finish", text="STOP", join=draw(st.booleans())))
    if draw(st.booleans()):
        usage = {"promptTokenCount": 20, "candidatesTokenCount": 10, "totalTokenCount": 30}
        turn.steps.append(
            Step("raw", raw={"usageMetadata": usage, "modelVersion": "gemini-scratch"})
        )
    return turn


def _interactions(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
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
        wire=WIRES["gemini-interactions"],
        tool_schemas=schemas,
        request=None,
        steps=steps,
        calls=calls,
        blocks=blocks,
    )


def _cohere(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
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
    return Turn(wire=WIRES["cohere"], tool_schemas=schemas, request=None, steps=steps, calls=calls)


def _bedrock_invoke(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    turn = _anthropic(draw, calls, schemas)
    turn.wire = WIRES["bedrock-invoke"]
    turn.request = {"modelId": "anthropic.claude-sonnet-4-20250514-v1:0"}
    return turn


BUILDERS: dict[str, Callable[[Any, list[Call], dict[str, Any]], Turn]] = {
    "openai": lambda draw, calls, schemas: _chat(draw, "openai", calls, schemas),
    "mistral": lambda draw, calls, schemas: _chat(draw, "mistral", calls, schemas),
    "anthropic": _anthropic,
    RESPONSES: _responses,
    BEDROCK: _bedrock,
    GEMINI: _gemini,
    "gemini-interactions": _interactions,
    "cohere": _cohere,
    "bedrock-invoke": _bedrock_invoke,
}
"""The from-scratch builder of each wire, one row per profile."""
