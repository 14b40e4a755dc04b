"""Editing primitives on the turn model, shared by the operators."""

from __future__ import annotations

from typing import Any

from generators._internal.jsontext import Draw, draw_split
from generators._internal.model import BEDROCK, MISSING, RESPONSES, Block, Call, Step, Turn


def set_fragments(turn: Turn, call: Call, pieces: list[Any]) -> None:
    """Replace the argument fragments of ``call`` by ``pieces``, keeping the
    positions of the existing fragment steps; extra fragments follow the last
    existing one.  Identity stays on (or moves to) a fragment that exists.
    For Anthropic, a non-empty text makes the start ``input`` ``{}``; for
    Responses, the pieces are the whole text, so the added item's
    ``arguments`` become ``""``."""
    old = turn.frag_steps(call)
    steps = turn.steps
    if turn.profile == "anthropic":
        text = "".join(p for p in pieces if isinstance(p, str))
        non_str = any(not isinstance(p, str) for p in pieces)
        if (text or non_str) and call.start_input not in ({}, None, MISSING):
            call.start_input = {}
    if turn.profile == RESPONSES and call.start_input not in ("", None, MISSING):
        call.start_input = ""
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
    """Deliver ``text`` as the call's arguments, re-split (drawn)."""
    pieces = draw_split(draw, text) if split else [text]
    if turn.blocky and text == "":
        pieces = []
    set_fragments(turn, call, pieces)


def insert(turn: Turn, at: int, *steps: Step) -> None:
    turn.steps[at:at] = list(steps)


def remove_steps(turn: Turn, predicate: Any) -> None:
    turn.steps = [s for s in turn.steps if not predicate(s)]


def text_blocks(turn: Turn) -> list[Block]:
    """Blocks that hold text: Anthropic ``text`` blocks, Responses
    ``message`` items, Bedrock blocks with a ``text`` delta."""
    out = []
    for block in turn.blocks:
        if turn.profile == BEDROCK:
            if any(
                s.kind == "delta"
                and s.target is block
                and "text" in (_bedrock_body(s.raw).get("delta") or {})
                for s in turn.steps
            ):
                out.append(block)
            continue
        start = turn.step_of("start", block)
        if start is None:
            continue
        raw = turn.steps[start].raw or {}
        if turn.profile == RESPONSES:
            if (raw.get("item") or {}).get("type") == "message":
                out.append(block)
        elif (raw.get("content_block") or {}).get("type") == "text":
            out.append(block)
    return out


def _bedrock_body(event: Any) -> dict[str, Any]:
    if isinstance(event, dict) and len(event) == 1:
        body = next(iter(event.values()))
        if isinstance(body, dict):
            return body
    return {}


def forced(turn: Turn) -> bool:
    """Whether the request forces a tool call, so that OpenAI/Mistral
    ``finish_reason: "stop"`` means "execute" (the generator's reading of
    the spec: ``required`` or a named function; Mistral also ``any``)."""
    choice = (turn.request or {}).get("tool_choice")
    if choice == "required":
        return True
    if choice == "any" and turn.profile == "mistral":
        return True
    return isinstance(choice, dict) and choice.get("type") == "function"
