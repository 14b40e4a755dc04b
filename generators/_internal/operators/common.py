"""Helpers the operators share: picking calls, drawing text, positions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from ..labels import Effects
from ..model import Call, Turn
from ..model.placing import call_choice as call_choice  # (shared by the operators)
from ..model.placing import draw_text as draw_text

Draw = Callable[..., Any]


def free_calls(turn: Turn, fx: Effects) -> list[Call]:
    return [c for c in turn.slot_calls() if fx.is_free(c)]


def pick_call(draw: Draw, turn: Turn, fx: Effects | None = None) -> Call:
    """A call (a free one when ``fx`` is given), in slot order."""
    options = turn.slot_calls() if fx is None else free_calls(turn, fx)
    picked: Call = draw(st.sampled_from(options))
    return picked


def always(turn: Turn, fx: Effects) -> bool:
    return True


def has_calls(turn: Turn, fx: Effects) -> bool:
    return bool(turn.calls)


def has_free_call(turn: Turn, fx: Effects) -> bool:
    return bool(free_calls(turn, fx))


def text_of(turn: Turn, call: Call) -> str:
    assert call.expected is not None
    return call.expected


def after(draw: Draw, turn: Turn, index: int) -> int:
    at: int = draw(st.integers(index + 1, len(turn.steps)))
    return at


def first_activity(turn: Turn) -> int:
    """Where the first tool item is (a call's start, or a fragment)."""
    for i, s in enumerate(turn.steps):
        if turn.blocky:
            if s.kind == "start" and isinstance(s.target, Call):
                return i
        elif s.kind == "frag":
            return i
    raise AssertionError("no tool activity")


def has_finish(turn: Turn, fx: Effects) -> bool:
    return bool(turn.calls) and turn.finish_index(call_choice(turn)) is not None
