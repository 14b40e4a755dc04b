"""Verdict-breaking operators on the frames of a framed wire (Bedrock
InvokeModelWithResponseStream: ``chunk`` frames, each wrapping one
Anthropic event): a frame cut in half."""

from __future__ import annotations

import base64
from typing import Any

from hypothesis import strategies as st

from .. import labels as lb
from ..labels import Effects
from ..model import Block, Call, Step, Turn, bedrock_invoke
from .common import Draw

_TERMINAL_CODES = ("wrong_terminal_reason", "duplicate_terminal")


def _begun(turn: Turn) -> bool:
    return turn.wire.begun_by_any_event or any(s.kind == "begin" for s in turn.steps)


def cut_targets(turn: Turn, fx: Effects) -> list[int]:
    """Steps whose frame can be cut with a known effect: a non-call
    block's delta (after its start) or an empty call fragment (nothing is
    lost that any rule reads), a free call's or block's stop (the slot's
    terminal is lost), the message's end (``message_delta``,
    ``message_stop``) when the message began and no operator set or
    repeated its end reason."""
    out = []
    ends = _begun(turn) and not any(code in fx.turn_codes for code in _TERMINAL_CODES)
    for i, step in enumerate(turn.steps):
        target = step.target
        if step.ident is not None:
            continue
        if step.kind == "delta" and isinstance(target, Block):
            start = turn.step_of("start", target)
            if start is not None and start < i:
                out.append(i)
        elif step.kind == "frag" and step.text == "" and isinstance(target, Call):
            out.append(i)
        elif step.kind == "stop" and target is not None and fx.is_free(target):
            if turn.step_of("stop", target) == i:
                out.append(i)
        elif step.kind in turn.wire.message_end and ends:
            out.append(i)
    return out


def _cut(draw: Draw, data: str) -> list[str]:
    """The base64 texts of the frames ``data`` becomes, each of which is
    unreadable (see :func:`cut_frame`)."""
    how = draw(st.sampled_from(["truncated", "halves", "payload_halves"]))
    raw = base64.b64decode(data)
    size = len(raw) if how == "payload_halves" else len(data)
    at = draw(st.integers(1, size - 1))
    for point in [*range(at, size), *range(1, at)]:
        if how == "payload_halves":
            parts = [
                base64.b64encode(raw[:point]).decode("ascii"),
                base64.b64encode(raw[point:]).decode("ascii"),
            ]
        elif how == "halves":
            parts = [data[:point], data[point:]]
        else:
            parts = [data[:point]]
        if not any(bedrock_invoke.readable(p) for p in parts):
            return parts
    raise AssertionError("no cut point leaves every part unreadable")  # pragma: no cover


def cut_frame(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Cut one frame in half: its base64 ``bytes`` truncated (the rest
    never came), or sent as two frames each holding one half of the base64
    text, or of the payload's bytes (each half re-encoded: valid base64,
    maybe cut inside a UTF-8 sequence, never a whole JSON event).  The frame
    is a text delta of a non-call block, an empty fragment, a call's or a
    block's ``content_block_stop``, the ``message_delta`` with the stop
    reason, or ``message_stop``.

    Reproduces proxies and event-stream decoders that split or drop part
    of a frame, and clients that skip a frame they cannot decode (or read
    half an event) and go on as if the stream were whole.
    Label: blocked ``unsupported_event`` (each part is an unreadable
    frame), plus what the lost event carried: a stop's slot (claimed) is
    ``missing_terminal``, and so is the turn when the message's end is
    lost; a lost text delta or empty fragment adds nothing.
    Shrinks toward: the first such frame, truncated after its first
    base64 character.
    """
    at = draw(st.sampled_from(cut_targets(turn, fx)))
    step = turn.steps[at]
    data = bedrock_invoke.payload(turn.wire.render(turn)[at])
    assert data is not None
    frames: list[Any] = [bedrock_invoke.chunk(part) for part in _cut(draw, data)]
    turn.steps[at : at + 1] = [Step("raw", raw=frame) for frame in frames]
    target = step.target
    if step.kind == "stop":
        fx.claim(target)
        fx.slot(target, lb.RANK_TERMINAL, "missing_terminal")
    elif step.kind in turn.wire.message_end:
        fx.turn("missing_terminal")
    fx.turn("unsupported_event")
