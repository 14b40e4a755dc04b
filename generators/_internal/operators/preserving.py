"""Verdict-preserving operators (``insert_noise`` is in :mod:`.noise`):
the turn keeps its verdict (pass) and its calls."""

from __future__ import annotations

import copy
import math
from typing import Any

from hypothesis import strategies as st

from .. import jsontext as jt
from ..edit import remove_steps, set_fragments, set_text
from ..labels import Effects
from ..model import MISSING, Block, Call, Step, Turn, compact
from .common import Draw, call_choice, pick_call, text_of


def refragment(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Re-split one call's arguments text into new fragments.

    Cuts anywhere, preferentially inside escapes (after a backslash, inside
    the four hex digits of ``\\uXXXX``, between the two halves of an escaped
    surrogate pair such as ``\\ud83d\\ude00``), optionally into 1-character
    fragments and with empty fragments.  Reproduces servers and proxies that
    flush at arbitrary byte counts, and clients that parse each fragment.
    Label: pass, same calls (the concatenated text is unchanged; an
    Anthropic start-only call becomes start ``{}`` plus the same text).
    Shrinks toward: the first call, one fragment, no empty fragments.
    """
    call = pick_call(draw, turn)
    set_fragments(turn, call, jt.draw_split(draw, text_of(turn, call), max_cuts=8))


def whole_call(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Deliver one call in a single fragment.

    OpenAI: one ``tool_calls`` entry with index, id, name and all the
    arguments.  Mistral: the same without ``index`` (the profile infers the
    next free index) when that infers the right slot.  Anthropic: one
    ``input_json_delta`` with the whole text, or (drawn) no delta at all and
    the arguments object in ``content_block_start.input``.  Responses: one
    ``function_call_arguments.delta``, or (drawn) no delta and the text in
    the added item's ``arguments``.  Bedrock: one ``toolUse`` delta, or
    (drawn, for an empty object) no delta or one empty delta: the
    no-argument call.
    Reproduces providers and proxies that buffer calls, and non-streaming
    responses converted to streams.
    Label: pass, same calls; for an Anthropic start-only call the arguments
    become the compact JSON of the input
    (``json.dumps(input, ensure_ascii=False, separators=(",", ":"))``); for
    a Bedrock call without delta text they are ``{}``.
    Shrinks toward: the first call, delivered as one text fragment.
    """
    call = pick_call(draw, turn)
    text = text_of(turn, call)
    wire = turn.wire
    # (Text on the added item is streamed text: it needs its
    # arguments.done, which whole_arguments may have dropped.)
    if wire.start_text and (not wire.restates or turn.step_of("restate", call) is not None):
        if draw(st.booleans()):
            set_fragments(turn, call, [])
            call.start_input = text
            return
    elif not wire.empty_arguments:
        if draw(st.booleans()) and jt.loads(text) == {}:
            set_fragments(turn, call, draw(st.sampled_from([[], [""]])))
            call.expected = "{}"
            return
    elif wire.start_object:
        value = jt.loads(text)
        if draw(st.booleans()) and _finite(value):
            set_fragments(turn, call, [])
            call.start_input = value
            call.expected = compact(value)
            return
    set_fragments(turn, call, [text])
    if turn.blocky:
        return
    step = turn.steps[turn.frag_steps(call)[0]]
    step.carries_id = step.carries_name = True
    if wire.inferred_index:
        call.indexed = False


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


def repeat_identity(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Repeat a call's id and/or name on every one of its fragments.

    Reproduces servers that resend the identity with each delta (and
    clients that concatenate it: ``"get_weatherget_weather"``).
    Label: pass, same calls (the same value again is not a collision).
    Shrinks toward: the first call, id and name both repeated, no split.
    """
    call = pick_call(draw, turn)
    if len(turn.frag_steps(call)) < 2 and draw(st.booleans()):
        set_fragments(turn, call, jt.draw_split(draw, text_of(turn, call)))
    which = draw(st.sampled_from(["both", "id", "name"]))
    for i in turn.frag_steps(call):
        if which in ("both", "id"):
            turn.steps[i].carries_id = True
        if which in ("both", "name"):
            turn.steps[i].carries_name = True


def delay_identity(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send a call's id and/or name in a later fragment than its first one
    (still before the terminal); the fragments without them may carry
    ``"id": null`` / ``""`` and ``"name": null`` / ``""`` (absent values).

    Responses: the added item sends the id (``call_id``) and/or name blank
    (key absent, ``null`` or ``""``); only the closing ``output_item.done``
    carries them.

    Reproduces servers that open a slot with an arguments-only delta or
    blank identity fields, and clients that read the identity from the first
    delta only (or overwrite it with the blank).
    Label: pass, same calls.
    Shrinks toward: the first call, both delayed to the second fragment
    (an empty first fragment is added when the call has only one), no
    blank fields.
    """
    call = pick_call(draw, turn)
    if turn.wire.restates:
        # The closing item restates the identity: only it carries it.
        which = draw(st.sampled_from(["both", "id", "name"]))
        call.blank = draw(st.sampled_from([MISSING, None, ""]))
        call.late_identity = {"both": ("id", "name"), "id": ("id",), "name": ("name",)}[which]
        return
    if len(turn.frag_steps(call)) < 2:
        set_fragments(turn, call, ["", *turn.fragments(call)])
    frags = turn.frag_steps(call)
    which = draw(st.sampled_from(["both", "id", "name"]))
    call.blank = draw(st.sampled_from([MISSING, None, ""]))
    for flag in ("id", "name"):
        if which not in ("both", flag):
            continue
        at = draw(st.integers(1, len(frags) - 1))
        for i in frags:
            setattr(turn.steps[i], f"carries_{flag}", False)
        setattr(turn.steps[frags[at]], f"carries_{flag}", True)


def interleave_groups(turn: Turn) -> list[list[Call]]:
    groups: dict[int, list[Call]] = {}
    for call in turn.slot_calls():
        groups.setdefault(call.choice, []).append(call)
    return [g for g in groups.values() if len(g) >= 2]


def interleave(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Interleave the stream items of parallel calls; each call keeps its own
    order (OpenAI/Mistral: fragments; Anthropic, Bedrock: start, deltas,
    stop; Responses: added item, deltas, arguments done, closing item).

    OpenAI/Mistral: consecutive fragments may also share one chunk
    (several ``tool_calls`` entries in one delta).

    Reproduces parallel tool calls streamed concurrently or batched in one
    delta, and reassemblers that assume one call at a time ("append to the
    last call", "the last added item") or read only the first entry of
    ``tool_calls`` (Responses and Bedrock route by item id / block index).
    Label: pass, same calls (slot order is by index, not arrival).
    Shrinks toward: the original, sequential order.
    """
    group = draw(st.sampled_from(interleave_groups(turn)))
    members = {id(c) for c in group}
    kinds = ("start", "frag", "restate", "stop") if turn.blocky else ("frag",)
    positions = [
        i
        for i, s in enumerate(turn.steps)
        if s.kind in kinds and s.ident is None and id(s.target) in members
    ]
    queues = {id(c): [turn.steps[i] for i in positions if turn.steps[i].target is c] for c in group}
    merged = []
    for _ in positions:
        ready = [c for c in group if queues[id(c)]]
        pick = ready[draw(st.integers(0, len(ready) - 1))]
        merged.append(queues[id(pick)].pop(0))
    original = [turn.steps[i] for i in positions]
    if merged == original:
        # Make it a real interleaving: the second call's first item goes
        # right before the first call's last item.
        first, second = group[0], group[1]
        last_a = max(n for n, s in enumerate(merged) if s.target is first)
        first_b = min(n for n, s in enumerate(merged) if s.target is second)
        if last_a < first_b:
            moved = merged.pop(first_b)
            merged.insert(last_a, moved)
    for i, step in zip(positions, merged, strict=True):
        turn.steps[i] = step
    if not turn.blocky and draw(st.booleans()):
        # Several calls' deltas in one chunk (vLLM, Mistral): a fragment may
        # share the chunk of the fragment before it.
        for i in positions[1:]:
            turn.steps[i].join = draw(st.booleans())


def reencode(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Serialize one call's arguments object differently: whitespace and
    indentation, key order, ``\\uXXXX`` escapes instead of raw Unicode (or
    all characters escaped), upper-case hex, escaped solidus; then re-split.

    Reproduces providers that differ in JSON encoders, and clients that
    compare or hash the arguments text.
    Label: pass, same id and name; the label's arguments are the new text
    byte for byte.
    Shrinks toward: the first call, compact raw-Unicode text, one fragment.
    """
    call = pick_call(draw, turn)
    value = jt.draw_reorder(draw, jt.loads(text_of(turn, call)))
    text = jt.dumps(value, **jt.draw_style(draw))
    set_text(draw, turn, call, text)
    call.expected = text


def whole_targets(turn: Turn) -> list[Call]:
    """Responses calls that can be delivered whole: text in their deltas,
    none on the added item, and a closing event that restates it
    faithfully (``function_call_arguments.done`` or the closing item)."""
    out = []
    for call in turn.slot_calls():
        if call.withheld or (isinstance(call.start_input, str) and call.start_input):
            continue
        closing = [turn.step_of(kind, call) for kind in ("restate", "stop")]
        if turn.frag_steps(call) and any(
            at is not None and turn.steps[at].text is None for at in closing
        ):
            out.append(call)
    return out


def whole_arguments(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Responses: send no ``function_call_arguments.delta`` for one call;
    its ``function_call_arguments.done`` and closing ``output_item.done``
    still carry the whole arguments, as the seed's own done events do (the
    closing item keeps or lacks ``arguments`` as in the seed); or (drawn,
    when the closing item carries them) no ``arguments.done`` either, the
    closing item alone delivering them.

    Reproduces servers and proxies that buffer a call and send only its
    final events, and clients that build the arguments from deltas alone
    (and so execute ``""``) or wait for a delta that never comes.
    Label: pass, same calls (the validator's whole-call rule: with no delta
    the first closing event that carries arguments delivers them).
    Shrinks toward: the first such call, both done events kept.
    """
    call = draw(st.sampled_from(whole_targets(turn)))
    call.withheld = True
    restate = turn.step_of("restate", call)
    stop = turn.step_of("stop", call)
    assert stop is not None
    if (
        restate is not None
        and turn.steps[restate].text is None
        and turn.steps[stop].text is None
        and draw(st.booleans())
    ):
        remove_steps(turn, lambda s: s.kind == "restate" and s.target is call)


def forced_choice_stop(draw: Draw, turn: Turn, fx: Effects) -> None:
    """End the turn with ``finish_reason: "stop"`` under a ``tool_choice``
    that forces a call (``"required"``, a named function, Mistral
    ``"any"``).

    Reproduces OpenAI's documented behaviour for forced calls, which
    validators that insist on ``"tool_calls"`` reject.
    Label: pass, same calls.
    Shrinks toward: ``"required"``.
    """
    options: list[Any] = list(turn.wire.forcing_choices)
    names = {c.name for c in turn.calls}
    if len(names) == 1:
        options.append({"type": "function", "function": {"name": next(iter(names))}})
    request = dict(turn.request or {})
    request["tool_choice"] = draw(st.sampled_from(options))
    turn.request = request
    choice = call_choice(turn)
    for step in turn.steps:
        if step.kind == "finish" and step.choice == choice:
            step.text = turn.wire.plain_stop


def whole_message_ready(turn: Turn) -> bool:
    """The turn can be delivered as one message: the format allows it, the
    message has its start, and every call's arguments are an object of
    finite numbers (what an ``input`` can hold)."""
    if not turn.wire.whole_message or not turn.calls:
        return False
    if turn.finish_index(0) is None or not any(s.kind == "begin" for s in turn.steps):
        return False
    if any(s.ident is not None for s in turn.steps):
        return False
    for call in turn.calls:
        try:
            value = jt.loads(text_of(turn, call))
        except ValueError:
            return False
        if not isinstance(value, dict) or not _finite(value):
            return False
    return all(turn.step_of("start", item) is not None for item in turn.blocks_in_order())


def _folded(turn: Turn, item: Call | Block) -> dict[str, Any]:
    """The whole content block of a call or block: its start's
    ``content_block`` with its deltas folded in."""
    start = turn.step_of("start", item)
    assert start is not None
    base = (turn.steps[start].raw or {}).get("content_block") or {}
    block: dict[str, Any] = copy.deepcopy(base)
    if isinstance(item, Call):
        block["type"] = "tool_use"
        for key, value in (("id", item.id), ("name", item.name)):
            if value is MISSING:
                block.pop(key, None)
            else:
                block[key] = value
        block["input"] = jt.loads(text_of(turn, item))
        return block
    partial = ""
    for step in turn.steps:
        if step.kind != "delta" or step.target is not item:
            continue
        delta = (step.raw or {}).get("delta") or {}
        for key, field in (
            ("text_delta", "text"),
            ("thinking_delta", "thinking"),
            ("signature_delta", "signature"),
        ):
            if delta.get("type") == key:
                block[field] = (block.get(field) or "") + delta.get(field, "")
        if delta.get("type") == "citations_delta":
            block.setdefault("citations", []).append(delta.get("citation"))
        if delta.get("type") == "input_json_delta":
            partial += delta.get("partial_json", "")
    if partial:
        block["input"] = jt.loads(partial)
    return block


def whole_message(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Deliver the whole message in its ``message_start``: every content
    block (calls, text, thinking, server tools) complete in
    ``message.content``, a call's arguments as its ``input`` object, and no
    block events at all; the stop reason in ``message.stop_reason`` (the
    ``message_delta`` then left out or, drawn, kept with usage only) or
    (drawn) still in the ``message_delta``.  Then ``message_stop``.  In a
    Bedrock InvokeModel stream, the same inside the frames.  Nothing else
    applies after it (the stream has no block events left to edit).

    Reproduces programmatic tool calling (calls issued by the provider's
    code execution arrive whole, with a ``caller``), and clients that only
    read block events (and so see no call) or wait for deltas.
    Label: pass, same calls; their arguments are the compact JSON of the
    input (``json.dumps(input, ensure_ascii=False, separators=(",",
    ":"))``), the validator's whole-message rule.
    Shrinks toward: the reason in the message, no ``message_delta``.
    """
    content = [_folded(turn, item) for item in turn.blocks_in_order()]
    finish = turn.finish_index(0)
    assert finish is not None
    reason = turn.steps[finish].text
    where = draw(st.sampled_from(["message", "message_usage", "delta"]))
    begin = next(i for i, s in enumerate(turn.steps) if s.kind == "begin")
    event = copy.deepcopy(turn.steps[begin].raw)
    message = event.get("message")
    message = dict(message) if isinstance(message, dict) else {}
    message["content"] = content
    message["stop_reason"] = reason if where != "delta" else None
    event["message"] = message
    turn.steps[begin] = Step("begin", raw=event)
    usage = {"type": "message_delta", "delta": {}, "usage": {"output_tokens": 1}}
    steps = []
    for i, step in enumerate(turn.steps):
        if i == finish and where != "delta":
            if where == "message_usage":
                steps.append(Step("raw", raw=usage))
        elif step.kind not in ("start", "frag", "delta", "stop"):
            steps.append(step)
    turn.steps = steps
    for call in turn.calls:
        value = jt.loads(text_of(turn, call))
        call.start_input = value
        call.expected = compact(value)
    fx.sealed = True
