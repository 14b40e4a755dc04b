"""Editing primitives on the turn model, shared by the operators."""

from __future__ import annotations

from typing import Any

from .jsontext import Draw, draw_split
from .model import MISSING, Call, Step, Turn
from .model.placing import insert as insert  # (an operator primitive too)
from .model.placing import text_blocks as text_blocks


def set_fragments(turn: Turn, call: Call, pieces: list[Any]) -> None:
    """Replace the argument fragments of ``call`` by ``pieces``, keeping the
    positions of the existing fragment steps; extra fragments follow the last
    existing one.  Identity stays on (or moves to) a fragment that exists.
    Where the opening event can carry arguments, it stops carrying them
    (``wire.cleared_start``): for Anthropic when the pieces carry anything
    (start ``input`` ``{}``); for Responses always, since the pieces are
    the whole text (the added item's ``arguments`` ``""``)."""
    old = turn.frag_steps(call)
    steps = turn.steps
    cleared = turn.wire.cleared_start
    if cleared is not MISSING and call.start_input not in (cleared, None, MISSING):
        carries = any(p != "" or not isinstance(p, str) for p in pieces)
        if turn.wire.start_text or carries:
            call.start_input = cleared
    if not pieces and not turn.blocky:
        raise AssertionError("an OpenAI-style call needs at least one fragment")
    id_at = next((k for k, i in enumerate(old) if steps[i].carries_id), 0)
    name_at = next((k for k, i in enumerate(old) if steps[i].carries_name), 0)
    repeat = len(old) > 1 and all(steps[i].carries_id and steps[i].carries_name for i in old)
    # Reuse existing steps.
    keep = old[: len(pieces)]
    for k, i in enumerate(keep):
        steps[i].text = pieces[k]
    if len(pieces) > len(old):
        if old:
            at = old[-1] + 1
            template = steps[old[-1]]
            choice = template.choice
        else:
            start = turn.step_of("start", call)
            at = (start + 1) if start is not None else len(steps)
            choice = call.choice
        extra = [Step("frag", target=call, text=p, choice=choice) for p in pieces[len(old) :]]
        steps[at:at] = extra
    elif len(pieces) < len(old):
        drop = set(old[len(pieces) :])
        turn.steps = steps = [s for i, s in enumerate(steps) if i not in drop]
    now = turn.frag_steps(call)
    if turn.blocky or not now:
        return
    for i in now:
        steps[i].carries_id = False
        steps[i].carries_name = False
    if repeat:
        for i in now:
            steps[i].carries_id = steps[i].carries_name = True
    else:
        steps[now[min(id_at, len(now) - 1)]].carries_id = True
        steps[now[min(name_at, len(now) - 1)]].carries_name = True


def set_text(draw: Draw, turn: Turn, call: Call, text: str, *, split: bool = True) -> None:
    """Deliver ``text`` as the call's arguments, re-split (drawn); on a wire
    whose arguments are not text (``wire.deliver``), as that wire carries
    the value."""
    if turn.wire.deliver is not None:
        turn.wire.deliver(draw, turn, call, text)
        return
    pieces = draw_split(draw, text) if split else [text]
    if turn.blocky and text == "":
        pieces = []
    set_fragments(turn, call, pieces)


def stream_again(turn: Turn, call: Call) -> None:
    """Undo ``whole_arguments`` for ``call``: its fragments go on the wire
    again, and (when it was dropped) its ``function_call_arguments.done``
    comes back right before the closing item, as streamed text needs."""
    if not call.withheld:
        return
    call.withheld = False
    stop = turn.step_of("stop", call)
    if turn.step_of("restate", call) is None and stop is not None:
        insert(turn, stop, Step("restate", target=call))


def remove_steps(turn: Turn, predicate: Any) -> None:
    turn.steps = [s for s in turn.steps if not predicate(s)]


def forced(turn: Turn) -> bool:
    """Whether the request forces a tool call, so that OpenAI/Mistral
    ``finish_reason: "stop"`` means "execute" (the generator's reading of
    the spec: ``wire.forcing_choices``, ``required`` and for Mistral also
    ``any``, or a named function)."""
    choice = (turn.request or {}).get("tool_choice")
    if isinstance(choice, str):
        return choice in turn.wire.forcing_choices
    return isinstance(choice, dict) and choice.get("type") == "function"
