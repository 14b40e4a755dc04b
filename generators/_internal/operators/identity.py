"""Verdict-breaking identity operators: ids and names of calls."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .. import labels as lb
from ..edit import insert
from ..labels import Effects
from ..model import MISSING, Call, Step, Turn
from .common import Draw, free_calls, pick_call


def _drop(draw: Draw, turn: Turn, fx: Effects, field: str, rank: int, code: str) -> None:
    """Send one free call without ``field`` (key absent, ``null`` or ``""``)."""
    call = pick_call(draw, turn, fx)
    blanks = turn.wire.unnamed if field == "name" else (MISSING, None, "")
    setattr(call, field, draw(st.sampled_from(list(blanks))))
    fx.claim(call)
    fx.slot(call, rank, code)


def drop_id(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Remove one call's id (key absent, ``null`` or ``""``).

    Reproduces local servers and proxies that omit ids; clients then
    cannot send the tool result back.
    Label: blocked ``missing_id`` (slot rank 2).
    Shrinks toward: the first free call, key absent.
    """
    _drop(draw, turn, fx, "id", lb.RANK_ID, "missing_id")


def drop_name(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Remove one call's function name (key absent, ``null`` or ``""``).

    Gemini: ``null`` or ``""`` only (a part without ``name`` continues the
    open call, it does not start one).
    Reproduces servers that send the name only in a chunk that got lost.
    Label: blocked ``missing_name`` (slot rank 3).
    Shrinks toward: the first free call, key absent (Gemini: ``null``).
    """
    _drop(draw, turn, fx, "name", lb.RANK_NAME, "missing_name")


def dup_pairs(turn: Turn, fx: Effects) -> list[tuple[Call, Call]]:
    calls = free_calls(turn, fx)
    return [
        (a, b)
        for n, a in enumerate(calls)
        for b in calls[n + 1 :]
        if a.choice == b.choice and isinstance(a.id, str) and a.id
    ]


def duplicate_id(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Give a call the id of an earlier call (slot order) of its choice.

    Reproduces servers that derive ids from a counter reset per chunk, or
    reuse ``call_0``; tool results can then not be matched to calls.
    Label: blocked ``duplicate_id`` on the later call (slot rank 4); the
    earlier call is claimed too, so that it stays checkable.
    Shrinks toward: the first pair of calls.
    """
    first, second = draw(st.sampled_from(dup_pairs(turn, fx)))
    second.id = first.id
    fx.claim(first, second)
    fx.slot(second, lb.RANK_DUPLICATE_ID, "duplicate_id")


def live_window(turn: Turn, call: Call) -> tuple[int, int] | None:
    opened = turn.open_index(call)
    terminal = turn.terminal_index(call)
    if opened is None or terminal is None:
        return None
    return opened + 1, terminal


def reuse_slot(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Start a second call on a live slot: a fragment (OpenAI/Mistral), a
    ``content_block_start`` (Anthropic), an ``output_item.added`` (Responses,
    another item id) or a ``contentBlockStart`` (Bedrock) with the slot's
    index but another id (or the same id and another name), while the slot
    is still open.  Responses, drawn: instead, the closing
    ``output_item.done`` names another ``call_id`` (or name) than the added
    item did.

    Reproduces servers that restart indices at 0 for each call, and
    clients that merge both calls into one (or take the closing item's
    identity).
    Label: blocked ``identity_collision`` (found while reading; the slot
    absorbs the rest of its items).
    Shrinks toward: the first free call, right after it opened, another id.
    """
    call = pick_call(draw, turn, fx)
    window = live_window(turn, call)
    assert window is not None
    at = draw(st.integers(*window))
    other_names = [n for n in turn.tool_schemas if n != call.name] + [f"{call.name}_2"]
    if draw(st.booleans()):
        ident = (call.id, draw(st.sampled_from(other_names)))
    else:
        ident = (f"{call.id}_2", draw(st.sampled_from([call.name, *other_names])))
    if turn.wire.restates:
        closing: list[dict[str, Any]] = []
        if ident[0] != call.id and "id" not in call.late_identity:
            closing.append({"call_id": ident[0]})
        if ident[1] != call.name and "name" not in call.late_identity:
            closing.append({"name": ident[1]})
        if closing and draw(st.booleans()):
            stop = turn.steps[window[1]]
            stop.inner = {**(stop.inner or {}), **closing[0]}
            fx.claim(call)
            fx.slot(call, lb.RANK_FEED, "identity_collision")
            return
    if turn.blocky:
        step = Step("start", target=call, ident=ident)
    else:
        text = draw(st.sampled_from(["", "{", "{}"]))
        step = Step("frag", target=call, text=text, choice=call.choice, ident=ident)
    insert(turn, at, step)
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "identity_collision")
