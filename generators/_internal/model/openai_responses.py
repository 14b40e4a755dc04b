"""OpenAI Responses events (``events``).

Output items share one index space (``output_index``): a client call is a
``function_call`` item (``response.output_item.added``, then
``function_call_arguments.delta`` events routed by the item's ``id``,
``function_call_arguments.done`` restating the text, and the closing
``output_item.done``); every other item (reasoning, message, server tools)
is kept verbatim.  The turn ends with ``response.completed`` (or
``.incomplete`` / ``.failed``), whose ``response.output`` may list the
closing items.  A string ``arguments`` on the added item is the first part
of the call's text.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from .. import jsontext as jt
from ..jsontext import Draw
from ..schemas import unicode_text_chars
from .placing import PAD_LETTERS, NewBlocks, draw_text, insert, text_block_span, text_blocks
from .turn import MISSING, Block, Call, Step, StepKind, Turn, apply_patch, first_given, put
from .wire import Wire, modelable, new_block_call, started_as

RESPONSE_ENDINGS = {
    "response.completed": "completed",
    "response.incomplete": "incomplete",
    "response.failed": "failed",
}


def _parse_events(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    steps: list[Step] = []
    calls: list[Call] = []
    blocks: list[Block] = []
    by_index: dict[int, Call | Block] = {}
    by_item: dict[str, Call | Block] = {}
    for raw in stream:
        event = copy.deepcopy(raw)
        kind = event.get("type") if isinstance(event, dict) else None
        if kind == "response.output_item.added":
            index = event["output_index"]
            item = event["item"]
            target: Call | Block
            if item.get("type") == "function_call":
                target = Call(
                    choice=0,
                    index=index,
                    id=first_given(item.get("call_id", MISSING)),
                    name=first_given(item.get("name", MISSING)),
                    start_input=item.get("arguments", MISSING),
                    item_id=item.get("id", MISSING),
                )
                calls.append(target)
            else:
                target = Block(index=index)
                blocks.append(target)
            by_index[index] = target
            if isinstance(item.get("id"), str):
                by_item[item["id"]] = target
            steps.append(Step("start", target=target, raw=event))
        elif kind == "response.output_item.done":
            target = by_index[event["output_index"]]
            if isinstance(target, Call):
                item = event["item"]
                for attr, key in (("id", "call_id"), ("name", "name")):
                    if getattr(target, attr) is MISSING:
                        setattr(target, attr, first_given(item.get(key, MISSING)))
            steps.append(Step("stop", target=target, raw=event))
        elif kind == "response.function_call_arguments.delta":
            target = by_item[event["item_id"]]
            steps.append(Step("frag", target=target, text=event.get("delta", MISSING), raw=event))
        elif kind == "response.function_call_arguments.done":
            steps.append(Step("restate", target=by_item[event["item_id"]], raw=event))
        elif kind in RESPONSE_ENDINGS:
            steps.append(Step("finish", text=kind, raw=event))
        else:
            owner: Any = None
            if isinstance(event, dict):
                item_id = event.get("item_id")
                if isinstance(item_id, str):
                    owner = by_item.get(item_id)
                elif isinstance(event.get("output_index"), int):
                    owner = by_index.get(event["output_index"])
            if isinstance(owner, Block):
                steps.append(Step("delta", target=owner, raw=event))
            else:
                steps.append(Step("raw", raw=event))
    turn = Turn(
        wire=WIRE,
        tool_schemas=schemas,
        request=request,
        steps=steps,
        calls=calls,
        blocks=blocks,
    )
    # Restatements equal to the text streamed so far are "faithful"
    # (re-rendered from the text); identity fields the model would render
    # otherwise are kept as overrides, so that any seed round-trips.
    so_far = streamed_so_far(turn)
    for n, step in enumerate(steps):
        call = step.target
        if not isinstance(call, Call) or step.kind not in ("start", "stop", "restate"):
            continue
        text = so_far[n]
        if step.kind == "restate":
            said = step.raw.get("arguments", MISSING)
            step.text = None if said == text else said
            continue
        item = step.raw["item"]
        if step.kind == "stop":
            said = item.get("arguments", MISSING)
            step.text = None if said == text else said
        rendered = _responses_item(step, call, text)
        inner = {}
        for key in ("id", "call_id", "name", "arguments"):
            if key in ("arguments",) and step.kind == "stop":
                continue
            if rendered.get(key, MISSING) != item.get(key, MISSING):
                inner[key] = item.get(key, MISSING)
        step.inner = inner or None
    events = [s.raw for s in steps]
    turn.sequenced = bool(events) and all(
        isinstance(e, dict) and e.get("sequence_number") == n for n, e in enumerate(events)
    )
    finishes = [s.raw for s in steps if s.kind == "finish"]
    turn.snapshot = bool(finishes) and all(
        isinstance(e.get("response"), dict) and e["response"].get("output") == _closing_items(steps)
        for e in finishes
    )
    return turn


def _closing_items(steps: list[Step]) -> list[Any]:
    """The item of each output index's first ``output_item.done``, in output
    order (what ``response.completed`` lists as ``response.output``)."""
    found: dict[int, Any] = {}
    for step in steps:
        if step.kind == "stop" and step.ident is None and step.raw is not None:
            found.setdefault(step.raw.get("output_index"), step.raw.get("item"))
    return [found[k] for k in sorted(k for k in found if isinstance(k, int))]


def streamed_so_far(turn: Turn) -> dict[int, str]:
    """Responses: for each step position, the text its call's events carried
    before it (the added item's string ``arguments``, then the string
    deltas): what a faithful server restates at that point."""
    text: dict[int, str] = {}
    out: dict[int, str] = {}
    for n, step in enumerate(turn.steps):
        call = step.target
        if not isinstance(call, Call) or step.ident is not None:
            continue
        key = id(call)
        if key not in text:
            text[key] = call.start_input if isinstance(call.start_input, str) else ""
        if step.kind == "frag" and isinstance(step.text, str):
            text[key] += step.text
        out[n] = text[key]
    return out


def _responses_item(step: Step, call: Call, restated: str) -> dict[str, Any]:
    """The ``item`` of a call's ``output_item.added`` / ``.done``
    (``restated``: the faithful restatement at that point)."""
    base = (step.raw or {}).get("item")
    closing = step.kind == "stop"
    if isinstance(base, dict):
        item = copy.deepcopy(base)
    else:
        item = {
            "id": None,
            "type": "function_call",
            "status": "completed" if closing else "in_progress",
            "arguments": None,
            "call_id": None,
            "name": None,
        }
    item["type"] = "function_call"
    if step.ident is not None:
        item_id: Any = f"{call.item_id}_2" if isinstance(call.item_id, str) else "fc_2"
        call_id, name = step.ident
        arguments: Any = ""
    else:
        item_id = call.item_id
        call_id, name = call.id, call.name
        if not closing:
            if "id" in call.late_identity:
                call_id = call.blank
            if "name" in call.late_identity:
                name = call.blank
            arguments = call.start_input
        elif step.text is None:
            arguments = restated
        else:
            arguments = step.text
    put(item, "id", item_id)
    put(item, "arguments", arguments)
    put(item, "call_id", call_id)
    put(item, "name", name)
    if step.inner:
        for key, value in step.inner.items():
            put(item, key, value)
    return item


def _render(turn: Turn) -> list[Any]:
    out: list[Any] = []
    closing: dict[int, Any] = {}
    finishes: list[dict[str, Any]] = []
    so_far = streamed_so_far(turn)
    for n, step in enumerate(turn.steps):
        kind = step.kind
        target = step.target
        event: Any
        if kind == "raw":
            event = copy.deepcopy(step.raw)
        elif kind == "finish":
            if step.raw is not None:
                event = copy.deepcopy(step.raw)
            else:
                status = RESPONSE_ENDINGS.get(step.text, "completed")
                event = {
                    "type": None,
                    "response": {"id": "resp_gen", "object": "response", "status": status},
                }
            event["type"] = step.text
            finishes.append(event)
        elif isinstance(target, Block):
            event = copy.deepcopy(step.raw)
            if kind in ("start", "stop") or "output_index" in event:
                event["output_index"] = target.index
            if kind == "stop":
                closing.setdefault(target.index, event.get("item"))
        elif kind in ("start", "stop"):
            assert isinstance(target, Call)
            event = (
                copy.deepcopy(step.raw)
                if step.raw is not None
                else {"type": None, "output_index": None, "item": None}
            )
            event["type"] = (
                "response.output_item.done" if kind == "stop" else "response.output_item.added"
            )
            event["output_index"] = target.index
            event["item"] = _responses_item(step, target, so_far.get(n, ""))
            if kind == "stop":
                closing.setdefault(target.index, event["item"])
        elif kind == "frag" and isinstance(target, Call) and target.withheld:
            # Delivered whole: the text still counts in the restatements
            # (``so_far``), but no delta is sent.
            continue
        elif kind in ("frag", "restate"):
            assert isinstance(target, Call)
            field_name = "delta" if kind == "frag" else "arguments"
            if step.raw is not None:
                event = copy.deepcopy(step.raw)
            else:
                event = {"type": None, "item_id": None, "output_index": None, field_name: None}
            event["type"] = (
                "response.function_call_arguments.delta"
                if kind == "frag"
                else "response.function_call_arguments.done"
            )
            put(event, "item_id", target.item_id)
            if "output_index" in event:
                event["output_index"] = target.index
            if kind == "frag" or step.text is not None:
                put(event, field_name, step.text)
            else:
                event[field_name] = so_far.get(n, "")
        else:  # pragma: no cover
            raise AssertionError(kind)
        out.append(apply_patch(event, step.patch))
    if turn.snapshot:
        output = [closing[k] for k in sorted(closing)]
        for event in finishes:
            response = event.get("response")
            if isinstance(response, dict):
                response["output"] = copy.deepcopy(output)
    if turn.sequenced:
        for number, event in enumerate(out):
            if isinstance(event, dict):
                event["sequence_number"] = number
    return out


def set_ending(step: Step, kind: str, detail: str = "max_output_tokens") -> None:
    """Make a ``finish`` step end with ``kind``; its response object follows
    (``status``, ``incomplete_details``, ``error``)."""
    step.text = kind
    raw = copy.deepcopy(step.raw) if isinstance(step.raw, dict) else {"type": kind}
    response = raw.get("response")
    if not isinstance(response, dict):
        response = raw["response"] = {"id": "resp_gen", "object": "response"}
    response["status"] = RESPONSE_ENDINGS[kind]
    response.pop("incomplete_details", None)
    response.pop("error", None)
    if kind == "response.incomplete":
        response["incomplete_details"] = {"reason": detail}
    elif kind == "response.failed":
        response["error"] = {"code": "server_error", "message": "The model failed"}
    step.raw = raw


def item_ids(turn: Turn) -> set[str]:
    """Every item id in the stream (calls and other items)."""
    out = {c.item_id for c in turn.calls if isinstance(c.item_id, str)}
    for step in turn.steps:
        raw = step.raw
        if isinstance(raw, dict):
            item = raw.get("item")
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                out.add(item["id"])
            if isinstance(raw.get("item_id"), str):
                out.add(raw["item_id"])
    return out


def fresh_item_id(turn: Turn, stem: str) -> str:
    """``stem`` plus the first number that makes an unused item id."""
    used = item_ids(turn)
    n = 1
    while f"{stem}{n}" in used:
        n += 1
    return f"{stem}{n}"


def _new_call(turn: Turn, name: str) -> tuple[Call, list[Step]]:
    # Item ids route the argument events: each late call has its own.
    number = fresh_item_id(turn, "fc_late").removeprefix("fc_late")
    call, steps = new_block_call(
        turn, f"call_late{number}", name, item_id=f"fc_late{number}", start_input=""
    )
    steps.insert(2, Step("restate", target=call))
    return call, steps


def _text_block(turn: Turn, block: Block) -> bool:
    return started_as(turn, block, "item", "message")


def _item_event(kind: str, item_id: str, **fields: Any) -> dict[str, Any]:
    """A Responses event about item ``item_id`` (its ``output_index`` is set
    at render time)."""
    return {"type": kind, "item_id": item_id, "output_index": 0, **fields}


def _noise(draw: Draw, turn: Turn) -> None:
    kinds = ["in_progress", "reasoning_item", "message_item", "server_item"]
    frags = [i for i, s in enumerate(turn.steps) if s.kind == "frag" and s.ident is None]
    if frags:
        kinds.append("obfuscation")
    texts = text_blocks(turn)
    if texts:
        kinds.append("text_delta")
    kind = draw(st.sampled_from(kinds))
    if kind == "in_progress":
        created = next(
            (
                s.raw
                for s in turn.steps
                if isinstance(s.raw, dict) and s.raw.get("type") == "response.created"
            ),
            None,
        )
        response = (created or {}).get("response")
        if not isinstance(response, dict):
            response = {"id": "resp_gen", "object": "response", "status": "in_progress"}
        limit = turn.finish_index(0)
        at = draw(st.integers(1, len(turn.steps) if limit is None else limit))
        raw = {"type": "response.in_progress", "response": copy.deepcopy(response)}
        insert(turn, at, Step("raw", raw=raw))
        return
    if kind == "obfuscation":
        step = turn.steps[draw(st.sampled_from(frags))]
        pad = draw(st.text(st.sampled_from(PAD_LETTERS), min_size=1, max_size=16))
        step.patch = dict(step.patch or {}, obfuscation=pad)
        return
    if kind == "text_delta":
        block, start, stop = text_block_span(draw, turn, texts)
        item_id = turn.steps[start].raw["item"]["id"]
        raw = _item_event(
            "response.output_text.delta", item_id, content_index=0, delta=draw_text(draw)
        )
        insert(turn, draw(st.integers(start + 1, stop)), Step("delta", target=block, raw=raw))
        return
    new = NewBlocks(draw, turn)
    add = new.add

    def item(kind: str, body: dict[str, Any]) -> dict[str, Any]:
        return {"type": kind, "output_index": 0, "item": body}

    if kind == "reasoning_item":
        rid = fresh_item_id(turn, "rs_noise")
        summary: list[Any] = []
        add(
            "start",
            item("response.output_item.added", {"id": rid, "type": "reasoning", "summary": []}),
        )
        if draw(st.booleans()):
            text = draw_text(draw)
            part = {"type": "summary_text", "text": text}
            add(
                "delta",
                _item_event(
                    "response.reasoning_summary_part.added",
                    rid,
                    summary_index=0,
                    part={"type": "summary_text", "text": ""},
                ),
            )
            add(
                "delta",
                _item_event(
                    "response.reasoning_summary_text.delta", rid, summary_index=0, delta=text
                ),
            )
            add(
                "delta",
                _item_event(
                    "response.reasoning_summary_text.done", rid, summary_index=0, text=text
                ),
            )
            add(
                "delta",
                _item_event(
                    "response.reasoning_summary_part.done", rid, summary_index=0, part=part
                ),
            )
            summary = [part]
        add(
            "stop",
            item("response.output_item.done", {"id": rid, "type": "reasoning", "summary": summary}),
        )
    elif kind == "message_item":
        mid = fresh_item_id(turn, "msg_noise")
        head = {"id": mid, "type": "message", "status": "in_progress", "role": "assistant"}
        add("start", item("response.output_item.added", {**head, "content": []}))
        empty = {"type": "output_text", "text": "", "annotations": []}
        add("delta", _item_event("response.content_part.added", mid, content_index=0, part=empty))
        pieces = [draw_text(draw) for _ in range(draw(st.integers(0, 2)))]
        for piece in pieces:
            add(
                "delta",
                _item_event("response.output_text.delta", mid, content_index=0, delta=piece),
            )
        full = {"type": "output_text", "text": "".join(pieces), "annotations": []}
        add(
            "delta",
            _item_event("response.output_text.done", mid, content_index=0, text=full["text"]),
        )
        add("delta", _item_event("response.content_part.done", mid, content_index=0, part=full))
        add(
            "stop",
            item("response.output_item.done", {**head, "status": "completed", "content": [full]}),
        )
    else:
        wid = fresh_item_id(turn, "ws_noise")
        add(
            "start",
            item(
                "response.output_item.added",
                {"id": wid, "type": "web_search_call", "status": "in_progress"},
            ),
        )
        for phase in ("in_progress", "searching", "completed"):
            add("delta", _item_event(f"response.web_search_call.{phase}", wid))
        action = {"type": "search", "query": "weather"}
        add(
            "stop",
            item(
                "response.output_item.done",
                {"id": wid, "type": "web_search_call", "status": "completed", "action": action},
            ),
        )
    new.insert()


def _scratch(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
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
        wire=WIRE,
        tool_schemas=schemas,
        request={"tool_choice": "auto"},
        steps=steps,
        calls=calls,
        blocks=blocks,
        sequenced=True,
        snapshot=True,
    )


# A Responses ending.
_FOREIGN_SAMPLE = {
    "type": "response.completed",
    "response": {"id": "resp_foreign", "object": "response", "status": "completed"},
}

WIRE = Wire(
    profile="openai-responses",
    noise=_noise,
    scratch=_scratch,
    foreign_sample=_FOREIGN_SAMPLE,
    refuses=("openai", "anthropic", "bedrock", "gemini", "cohere"),
    id_prefix="call_",
    stream_key="events",
    parse=modelable("openai-responses", _parse_events),
    render=_render,
    blocky=True,
    tool_reason=None,
    # Not response.failed: the validator also reads it as the provider's
    # error (provider_error), so it is no operator's one code.
    wrong_reasons=("response.incomplete",),
    repeat_reasons=tuple(e for e in RESPONSE_ENDINGS if e != "response.failed"),
    index_key="output_index",
    index_kinds=("start", "stop"),
    error_events=tuple(
        {"type": "error", "code": code, "message": "The server had an error", "param": None}
        for code in ("server_error", "rate_limit_exceeded")
    ),
    error_endings=("response.failed",),
    begun_by_any_event=True,
    end_details=("max_output_tokens", "content_filter"),
    set_end=set_ending,
    start_text=True,
    late_identity=True,
    text_block=_text_block,
    cleared_start="",
    empty_starts=("", None, MISSING),
    restates=True,
    new_call=_new_call,
)
