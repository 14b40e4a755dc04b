"""Verdict-breaking operators on terminals and turn-level findings: end
reasons, repeated terminals, late deltas, provider errors, index gaps."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from .. import labels as lb
from ..edit import forced, insert, stream_again, text_blocks
from ..labels import Effects
from ..model import Call, Step, Turn
from .common import Draw, after, call_choice, free_calls


def wrong_finish(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Replace the end reason of the choice (message) with calls by one that
    does not mean "execute": OpenAI/Mistral ``stop`` (when the request does
    not force a call), ``length``, ``content_filter``, ``function_call``;
    Anthropic ``max_tokens``, ``end_turn``, ``stop_sequence``, ``refusal``,
    ``pause_turn``; Responses ``response.incomplete`` (with
    ``incomplete_details.reason`` ``max_output_tokens`` or
    ``content_filter``) instead of ``response.completed`` (not
    ``response.failed``, which is also ``provider_error``); Bedrock
    ``stopReason`` ``max_tokens``,
    ``end_turn``, ``stop_sequence``, ``guardrail_intervened``,
    ``content_filtered``.

    Reproduces truncated generations (``length``/``max_tokens``: the last
    call is likely cut) and filtered output that clients still execute.
    Label: blocked ``wrong_terminal_reason`` (turn level).
    Shrinks toward: ``length`` / ``max_tokens`` / ``response.incomplete``.
    """
    wire = turn.wire
    options = list(wire.wrong_reasons)
    if wire.plain_stop is not None and not forced(turn):
        options.insert(1, wire.plain_stop)
    reason = draw(st.sampled_from(options))
    detail = draw(st.sampled_from(wire.end_details)) if wire.end_details else ""
    choice = call_choice(turn)
    for step in turn.steps:
        if step.kind == "finish" and step.choice == choice:
            wire.set_end(step, reason, detail)
    fx.turn("wrong_terminal_reason")


def dup_terminal_targets(turn: Turn, fx: Effects) -> list[str]:
    out = []
    if "duplicate_terminal" not in fx.turn_codes:
        if turn.finish_index(call_choice(turn)) is not None:
            out.append("finish")
        if any(s.kind == "mstop" for s in turn.steps):
            out.append("mstop")
    if (
        turn.blocky
        and not turn.wire.positional_slots
        and any(
            fx.is_free(b) and turn.step_of("stop", b) is not None for b in turn.blocks_in_order()
        )
    ):
        out.append("block")
    return out


def duplicate_terminal(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send a terminal twice: a second ``finish_reason`` in the choice
    (OpenAI/Mistral), a second ``message_delta.stop_reason``, a second
    ``message_stop`` or a second ``content_block_stop`` for a block
    (Anthropic), a second ``response.completed`` (or ``.incomplete``; not
    ``.failed``, also ``provider_error``) or a second ``output_item.done`` for
    a call or an item
    (Responses), a second ``messageStop`` or ``contentBlockStop`` (Bedrock),
    anywhere after the first.

    Reproduces servers that repeat the final chunk (retries, proxies
    replaying buffers); the second may carry another reason.
    Label: blocked ``duplicate_terminal`` (turn level; for a block's or an
    item's second stop the block is claimed, since the finding blocks it).
    Shrinks toward: the finish repeated right after the first.
    """
    kind = draw(st.sampled_from(dup_terminal_targets(turn, fx)))
    if kind == "finish":
        first = turn.finish_index(call_choice(turn))
        assert first is not None
        reason = draw(st.sampled_from(turn.wire.repeat_reasons))
        step = Step(
            "finish",
            text=reason,
            choice=call_choice(turn),
            raw=copy.deepcopy(turn.steps[first].raw),
        )
        turn.wire.set_end(step, reason, turn.wire.end_details[0] if turn.wire.end_details else "")
        insert(turn, after(draw, turn, first), step)
        fx.turn("duplicate_terminal")
    elif kind == "mstop":
        first = max(i for i, s in enumerate(turn.steps) if s.kind == "mstop")
        insert(turn, after(draw, turn, first), Step("mstop", raw=turn.wire.message_stop))
        fx.turn("duplicate_terminal")
    else:
        blocks = [
            b
            for b in turn.blocks_in_order()
            if fx.is_free(b) and turn.step_of("stop", b) is not None
        ]
        block = draw(st.sampled_from(blocks))
        stop = turn.step_of("stop", block)
        assert stop is not None
        # The same stop again (a format that renders stops from scratch
        # ignores what is copied).
        first_stop = turn.steps[stop]
        again = Step(
            "stop",
            target=block,
            raw=copy.deepcopy(first_stop.raw),
            text=first_stop.text,
            inner=copy.deepcopy(first_stop.inner),
        )
        insert(turn, after(draw, turn, stop), again)
        fx.claim(block)
        fx.slot(block, lb.RANK_FEED, "duplicate_terminal")


def end_targets(turn: Turn, fx: Effects) -> list[Call]:
    """Free calls with their own end event."""
    return [c for c in free_calls(turn, fx) if turn.blocky and turn.step_of("stop", c) is not None]


def drop_call_end(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Leave one call without its own end event (Cohere ``tool-call-end``,
    Anthropic ``content_block_stop``, Interactions ``step.stop``, Responses
    ``output_item.done``, Bedrock ``contentBlockStop``); the stream goes on
    to the turn's end as if nothing were missing.

    Reproduces servers and proxies that lose or never send a call's end
    (a call started and abandoned when the model switched to the next
    one), and clients that take the turn's end as every call's end.
    Label: blocked ``missing_terminal`` (slot rank 1; the call is claimed):
    the turn's end does not end a call of a block format.
    Shrinks toward: the first free call.
    """
    call = draw(st.sampled_from(end_targets(turn, fx)))
    stop = turn.step_of("stop", call)
    assert stop is not None
    del turn.steps[stop]
    fx.claim(call)
    fx.slot(call, lb.RANK_TERMINAL, "missing_terminal")


_NEW_SLOT = "new slot"


def _turn_end(turn: Turn) -> int | None:
    """Where a scope has ended for good: OpenAI/Mistral the finish of the
    calls' choice, Anthropic the ``message_stop``, Responses
    ``response.completed``, Bedrock ``messageStop``."""
    choice = call_choice(turn)
    kind = turn.wire.turn_end
    return next(
        (i for i, s in enumerate(turn.steps) if s.kind == kind and s.choice == choice), None
    )


def late_targets(turn: Turn, fx: Effects) -> list[Any]:
    out: list[Any] = []
    if not turn.wire.positional_slots:
        out += [c for c in free_calls(turn, fx) if turn.terminal_index(c) is not None]
    if turn.wire.late_text_delta is not None:
        # (Responses text events are not checked: its message items are not
        # targets.)
        out += [
            b for b in text_blocks(turn) if fx.is_free(b) and turn.step_of("stop", b) is not None
        ]
    if turn.calls and _turn_end(turn) is not None:
        out.append(_NEW_SLOT)
    return out


def _late_call(draw: Draw, turn: Turn, fx: Effects) -> None:
    end = _turn_end(turn)
    assert end is not None
    model = turn.slot_calls()[0]
    name = draw(st.sampled_from(list(turn.tool_schemas) or [model.name]))
    at = after(draw, turn, end)
    assert turn.wire.new_call is not None
    call, steps = turn.wire.new_call(turn, name)
    turn.calls.append(call)
    insert(turn, at, *steps)
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "delta_after_terminal")


def delta_after_terminal(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send a fragment for a slot after its terminal: an arguments fragment
    after the choice's ``finish_reason`` (OpenAI/Mistral), an
    ``input_json_delta`` after the block's ``content_block_stop`` or a text
    delta after a text block's stop (Anthropic), a
    ``function_call_arguments.delta`` or ``.done`` after the call's
    ``output_item.done`` (Responses), a ``toolUse`` delta after the tool
    block's ``contentBlockStop`` or a text delta after a text block's stop
    (Bedrock); or a whole new call after the turn's end (after the
    ``finish_reason``; after ``message_stop``, ``response.completed``,
    ``messageStop``).

    Reproduces servers that flush buffered deltas late, and clients that
    executed at the terminal and then keep appending.
    Label: blocked ``delta_after_terminal`` (found while reading; the slot
    is claimed).
    Shrinks toward: the first free call, an empty fragment right after the
    terminal.
    """
    target = draw(st.sampled_from(late_targets(turn, fx)))
    if target == _NEW_SLOT:
        _late_call(draw, turn, fx)
        return
    if isinstance(target, Call):
        stream_again(turn, target)  # the late fragment must be on the wire
        terminal = turn.terminal_index(target)
        assert terminal is not None
        text = draw(st.sampled_from(["", "}", " ", '{"x": 1}']))
        step = Step("frag", target=target, text=text, choice=target.choice)
        if turn.wire.restates and draw(st.booleans()):
            step = Step("restate", target=target)  # restates the text once more
    else:
        terminal = turn.step_of("stop", target)
        assert terminal is not None
        step = Step("delta", target=target, raw=turn.wire.late_text_delta)
    insert(turn, after(draw, turn, terminal), step)
    fx.claim(target)
    fx.slot(target, lb.RANK_FEED, "delta_after_terminal")


def failable(turn: Turn, fx: Effects) -> bool:
    """Whether the turn's ending can become the provider's error: the wire
    has one (``error_endings``) and no other operator set the end reason."""
    return (
        bool(turn.wire.error_endings)
        and turn.finish_index(call_choice(turn)) is not None
        and "wrong_terminal_reason" not in fx.turn_codes
    )


def ends_in_error(turn: Turn) -> bool:
    """Whether the calls' turn ends with the format's error ending."""
    at = turn.finish_index(call_choice(turn))
    return at is not None and turn.steps[at].text in turn.wire.error_endings


def provider_error(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Insert an in-stream error (OpenAI/Mistral ``{"error": {...}}`` chunk,
    Anthropic, Responses or Interactions ``error`` event, a Bedrock
    ``*Exception`` event: ``modelStreamErrorException``,
    ``internalServerException``, ``throttlingException``,
    ``serviceUnavailableException``, ``validationException``; in an
    InvokeModel stream also ``modelTimeoutException``, or an Anthropic
    ``error`` event inside a ``chunk`` frame) anywhere; the stream then goes
    on.  Or (drawn; Cohere, which has no error event, always) end the turn
    with the format's error ending instead: Responses ``response.failed``
    (with ``response.error``), Interactions ``status: "failed"``, Cohere
    ``finish_reason: "ERROR"``.

    Reproduces overloaded or failing upstreams that report an error and
    still (partly) stream; clients that ignore the error event, or execute
    the calls of a failed response.
    Label: blocked ``provider_error`` (turn level, not fatal: every other
    finding is still reported); for ``response.failed`` also
    ``wrong_terminal_reason`` (the turn has calls, and a failed response
    does not mean "execute"; ``wire.error_ending_wrong``), not for the
    Interactions and Cohere error endings (their end counts as reached).
    Shrinks toward: the error first in the stream.
    """
    wire = turn.wire
    events = wire.error_events
    # (A format without an error event, Cohere, ends with its error.)
    if failable(turn, fx) and (not events or draw(st.booleans())):
        ending = wire.error_endings[0]
        choice = call_choice(turn)
        for step in turn.steps:
            if step.kind == "finish" and step.choice == choice:
                wire.set_end(step, ending, "")
        fx.turn("provider_error")
        if wire.error_ending_wrong:
            fx.turn("wrong_terminal_reason")
        return
    at = draw(st.integers(0, len(turn.steps)))
    # A format with one error event takes it without a draw (a draw from a
    # single option still consumes one choice, shifting every later draw).
    raw = copy.deepcopy(events[0] if len(events) == 1 else draw(st.sampled_from(events)))
    insert(turn, at, Step("raw", raw=raw))
    fx.turn("provider_error")


def gap_scopes(turn: Turn) -> list[list[Any]]:
    if turn.blocky:
        items = turn.blocks_in_order()
        return [items] if items else []
    groups: dict[int, list[Call]] = {}
    for call in turn.slot_calls():
        groups.setdefault(call.choice, []).append(call)
    return list(groups.values())


def gap_index(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Shift the index of one slot and of every later slot of its choice (for
    Anthropic and Bedrock: every content block; for Responses: every output
    item, ``output_index``) up by 1-3, leaving a gap.

    Reproduces dropped chunks that carried a whole call, and servers that
    number parallel calls from 1; clients that do not notice a lost call.
    Label: blocked ``missing_slot`` (turn level: slot order, and so every
    slot check, is unchanged).
    Shrinks toward: the first slot shifted by 1.
    """
    scope = draw(st.sampled_from(gap_scopes(turn)))
    start = draw(st.integers(0, len(scope) - 1))
    shift = draw(st.integers(1, 3))
    pivot = scope[start].index
    for item in scope:
        if item.index >= pivot:
            item.index += shift
    fx.turn("missing_slot")
