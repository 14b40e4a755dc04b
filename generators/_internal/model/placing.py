"""Placing new items in a turn: the helpers every format module's noise and
from-scratch builder share (and the operators, through :mod:`..edit` and
:mod:`..operators.common`).

They sit in the model, below the operators, so that a format module can
hold its own noise and builder (its :class:`~.wire.Wire` row names them)
without importing the operator layer.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ..jsontext import Draw
from ..schemas import unicode_text_chars
from .turn import Block, Call, Step, StepKind, Turn

PAD_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
"""The letters of padding fields (Responses ``obfuscation``, Bedrock ``p``)."""


def insert(turn: Turn, at: int, *steps: Step) -> None:
    turn.steps[at:at] = list(steps)


def text_blocks(turn: Turn) -> list[Block]:
    """Blocks that hold text (``wire.text_block``): Anthropic ``text``
    blocks, Responses ``message`` items, Bedrock blocks with a ``text``
    delta."""
    return [block for block in turn.blocks if turn.wire.text_block(turn, block)]


def draw_text(draw: Draw, max_size: int = 12) -> str:
    text: str = draw(st.text(unicode_text_chars, max_size=max_size))
    return text


def call_choice(turn: Turn) -> int:
    return turn.slot_calls()[0].choice if turn.calls else 0


def after_begin(turn: Turn) -> int:
    """The first position after the message's start (0 without one)."""
    return next((i + 1 for i, s in enumerate(turn.steps) if s.kind == "begin"), 0)


def _openings(turn: Turn) -> dict[int, int]:
    """Step position -> how many blocks (calls included) it opens."""
    out: dict[int, int] = {}
    for item in [*turn.calls, *turn.blocks]:
        at = turn.opening_index(item)
        if at is not None:
            out[at] = out.get(at, 0) + 1
    return out


def between_blocks(turn: Turn) -> list[int]:
    """Positions (after the message's start, before its stop reason) where
    no block is open.  Responses: never before the first event."""
    limit = turn.finish_index(0)
    if limit is None:
        limit = len(turn.steps)
    first = 0 if turn.wire.begun_by_any_event else -1
    begin = next((i for i, s in enumerate(turn.steps) if s.kind == "begin"), first)
    opens = _openings(turn)
    open_now = 0
    out = []
    for i in range(limit + 1):
        if i > begin and open_now == 0:
            out.append(i)
        if i < len(turn.steps):
            step = turn.steps[i]
            if i in opens:
                open_now += opens[i]
            elif step.kind == "stop":
                open_now -= 1
    return out


def new_block(turn: Turn, at: int) -> Block:
    """A new non-call block whose start goes at ``at``: it takes the index
    after every block started before ``at``; later blocks move up by one."""
    items: list[Call | Block] = [*turn.calls, *turn.blocks]
    index = 0
    for b in items:
        opened = turn.opening_index(b)
        if opened is not None and opened < at:
            index += 1
    for b in items:
        if b.index >= index:
            b.index += 1
    block = Block(index=index)
    turn.blocks.append(block)
    return block


def text_block_span(draw: Draw, turn: Turn, texts: list[Block]) -> tuple[Block, int, int]:
    """A drawn text block with its start and stop positions."""
    block: Block = draw(st.sampled_from(texts))
    start = turn.step_of("start", block)
    stop = turn.step_of("stop", block)
    assert start is not None and stop is not None
    return block, start, stop


class NewBlocks:
    """New non-call blocks inserted together at one drawn position where no
    block is open; :meth:`add` appends a step of the current block."""

    def __init__(self, draw: Draw, turn: Turn) -> None:
        self.turn = turn
        self.at: int = draw(st.sampled_from(between_blocks(turn)))
        self.block = new_block(turn, self.at)
        self.steps: list[Step] = []

    def add(self, kind: StepKind, raw: dict[str, Any] | None = None) -> None:
        self.steps.append(Step(kind, target=self.block, raw=raw))

    def result_block(self) -> None:
        """Go on with a second block right after the current one (a server
        tool's result): it takes the same index, moving the first up."""
        result = new_block(self.turn, self.at)
        result.index, self.block.index = self.block.index, result.index
        self.block = result

    def insert(self) -> None:
        insert(self.turn, self.at, *self.steps)
