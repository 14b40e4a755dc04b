"""The per-slot reassembly state machine.

Theory of operation
-------------------
A turn is a set of *slots*, one per call or content block, keyed by
``(scope, index)`` (see ``toolstream/events.py``).  Each slot moves through

    unseen -> accumulating -> terminal -> validated
                   \\             \\
                    `-> blocked    `-> blocked

driven by the inputs in :class:`Input`.  :data:`TRANSITIONS` is the whole
table of legal moves.  A move that is not in the table is illegal: the lookup
fails and becomes a :class:`~toolstream.findings.ProtocolError` whose code
comes from :data:`ILLEGAL` (e.g. a fragment for a slot that already reached its
terminal is ``delta_after_terminal``).  The slot that made the illegal move is
blocked; a blocked slot absorbs every later input silently, so each slot
reports at most one finding.  That rule is what makes verdicts predictable
enough for the generator to label mutants without running this code.

The machine never looks at provider shapes: profiles normalize chunks into
the closed event set first.  It also never parses JSON or checks schemas
while a slot is accumulating: a JSON prefix that happens to parse is not
terminal evidence.  Arguments are parsed and validated exactly once, by the
gate, after the slot's terminal and the end of the stream.

Most of a long stream is plain arguments text for slots that are already
accumulating.  Profiles hand such a stretch over as one :class:`Fragments`
run, and :meth:`Turn.take_fragments` appends it in one step when no move in
it could be illegal (every slot accumulating, no limit crossed); otherwise
the gate replays the run item by item through this same table.  The run is
there for speed only: it can never change a verdict.

Scopes (choices, messages) have their own small life: a ``Finish`` event gives
the scope's end reason and, for OpenAI-style profiles, is the terminal of
every slot in it; an Anthropic-style ``Begin`` obliges the scope to see a
``Finish`` and a ``Stop``.  After a scope's terminal, a new slot in it is
``delta_after_terminal``; a second terminal is ``duplicate_terminal``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolstream.events import (
    CLIENT,
    Begin,
    End,
    Event,
    Finish,
    Fragment,
    Fragments,
    Open,
    Rejected,
    Restate,
    SlotKey,
    Stop,
)
from toolstream.findings import Code, ProtocolError
from toolstream.limits import Limits


class State(str, enum.Enum):
    UNSEEN = "unseen"
    ACCUMULATING = "accumulating"
    TERMINAL = "terminal"
    VALIDATED = "validated"
    BLOCKED = "blocked"


class Input(str, enum.Enum):
    OPEN = "open"
    """The slot is announced."""
    FRAGMENT = "fragment"
    """A piece of the call (arguments and/or identity)."""
    END = "end"
    """The provider's terminal for the slot."""
    EOF = "eof"
    """The stream ended."""
    ACCEPT = "accept"
    """All end-of-turn checks passed."""
    REJECT = "reject"
    """A rule was broken."""


TRANSITIONS: dict[tuple[State, Input], State] = {
    (State.UNSEEN, Input.OPEN): State.ACCUMULATING,
    (State.ACCUMULATING, Input.FRAGMENT): State.ACCUMULATING,
    (State.ACCUMULATING, Input.END): State.TERMINAL,
    (State.ACCUMULATING, Input.REJECT): State.BLOCKED,
    (State.TERMINAL, Input.EOF): State.TERMINAL,
    (State.TERMINAL, Input.ACCEPT): State.VALIDATED,
    (State.TERMINAL, Input.REJECT): State.BLOCKED,
}
"""Every legal move.  Blocked slots absorb all inputs (see :meth:`Slot.step`)."""

ILLEGAL: dict[tuple[State, Input], Code] = {
    (State.UNSEEN, Input.FRAGMENT): Code.UNKNOWN_SLOT,
    (State.UNSEEN, Input.END): Code.UNKNOWN_SLOT,
    (State.ACCUMULATING, Input.OPEN): Code.IDENTITY_COLLISION,
    (State.ACCUMULATING, Input.EOF): Code.MISSING_TERMINAL,
    (State.TERMINAL, Input.OPEN): Code.IDENTITY_COLLISION,
    (State.TERMINAL, Input.FRAGMENT): Code.DELTA_AFTER_TERMINAL,
    (State.TERMINAL, Input.END): Code.DUPLICATE_TERMINAL,
}
"""The code of each illegal move that input can make."""

_ILLEGAL_MESSAGES: dict[Code, str] = {
    Code.UNKNOWN_SLOT: "event for a slot that was never started",
    Code.IDENTITY_COLLISION: "slot started again while already in use",
    Code.MISSING_TERMINAL: "stream ended before the call's terminal event",
    Code.DELTA_AFTER_TERMINAL: "fragment after the call's terminal event",
    Code.DUPLICATE_TERMINAL: "second terminal event for the call",
}


@dataclass
class Slot:
    key: SlotKey
    kind: str
    first_pos: int
    state: State = State.UNSEEN
    id: str | None = None
    name: str | None = None
    parts: list[str] = field(default_factory=list)
    length: int = 0
    initial_input: Any = None
    terminal_pos: int | None = None
    arguments: str | None = None
    input: Any = None
    findings: list[Any] = field(default_factory=list)

    def step(self, what: Input, pos: int | None) -> None:
        if self.state is State.BLOCKED:
            return
        new = TRANSITIONS.get((self.state, what))
        if new is None:
            code = ILLEGAL.get((self.state, what))
            if code is None:  # pragma: no cover - the table above is total for reachable moves
                raise AssertionError(f"unreachable move {self.state.value} --{what.value}-->")
            raise ProtocolError(code, _ILLEGAL_MESSAGES[code], key=self.key, event=pos)
        self.state = new

    def take_identity(self, id_: str | None, name: str | None, pos: int) -> None:
        # The first non-empty value sets the identity; repeating it is fine, a
        # different one means two calls are sharing this slot.
        if id_:
            if self.id is None:
                self.id = id_
            elif id_ != self.id:
                raise ProtocolError(
                    Code.IDENTITY_COLLISION,
                    f"slot has id {_short(self.id)} and received id {_short(id_)}",
                    key=self.key,
                    event=pos,
                )
        if name:
            if self.name is None:
                self.name = name
            elif name != self.name:
                raise ProtocolError(
                    Code.IDENTITY_COLLISION,
                    f"slot has name {_short(self.name)} and received name {_short(name)}",
                    key=self.key,
                    event=pos,
                )


@dataclass
class Scope:
    begun_at: int | None = None
    finish: Finish | None = None
    stop_pos: int | None = None

    @property
    def ended(self) -> bool:
        return (self.finish is not None and self.finish.ends_slots) or self.stop_pos is not None


class Turn:
    """Applies normalized events to slots and scopes.

    Raises :class:`ProtocolError` for every broken rule; the caller (the gate)
    records the finding and, when the error names a slot, blocks that slot
    with :meth:`block`.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.slots: dict[SlotKey, Slot] = {}
        self.scopes: dict[int, Scope] = {}
        self._handlers: dict[type, Callable[[Any], None]] = {
            Fragment: self._fragment,
            Open: self._open,
            End: self._end,
            Restate: self._restate,
            Finish: self._finish,
            Begin: self._begin,
            Stop: self._stop,
            Rejected: self._rejected,
        }

    def scope(self, number: int) -> Scope:
        found = self.scopes.get(number)
        if found is None:
            found = self.scopes[number] = Scope()
        return found

    def apply(self, event: Event) -> None:
        self._handlers[type(event)](event)

    def take_fragments(self, run: Fragments) -> bool:
        """Append a run of plain fragments in one step, if that is what
        applying them one by one would do: every slot is accumulating and
        stays within the argument limit.  False (and nothing changed)
        otherwise; the caller then applies the run's items one by one."""
        slots = self.slots
        limit = self.limits.max_argument_chars
        takes = []
        for key, texts in run.texts.items():
            slot = slots.get(key)
            if slot is None or slot.state is not State.ACCUMULATING:
                return False
            length = slot.length + sum(map(len, texts))
            if length > limit:
                return False
            takes.append((slot, texts, length))
        for slot, texts, length in takes:
            slot.length = length
            slot.parts += texts
        return True

    def block(self, key: SlotKey, finding: Any) -> None:
        slot = self.slots.get(key)
        if slot is None or slot.state is State.BLOCKED:
            return
        slot.findings.append(finding)
        slot.state = State.BLOCKED

    # -- slot events -------------------------------------------------------

    def _open(self, event: Open) -> None:
        slot = self.slots.get(event.key)
        if slot is None:
            slot = self._new_slot(event.key, event.kind, event.pos)
            slot.step(Input.OPEN, event.pos)
            slot.initial_input = event.initial_input
            slot.take_identity(event.id, event.name, event.pos)
            return
        slot.step(Input.OPEN, event.pos)

    def _fragment(self, event: Fragment) -> None:
        slot = self.slots.get(event.key)
        if slot is None:
            raise ProtocolError(
                Code.UNKNOWN_SLOT,
                f"fragment for block {event.key[1]}, which was never started",
                key=event.key,
                event=event.pos,
            )
        if slot.state is not State.ACCUMULATING:
            slot.step(Input.FRAGMENT, event.pos)
            return
        if event.id is not None or event.name is not None:
            slot.take_identity(event.id, event.name, event.pos)
        text = event.text
        if text:
            slot.length += len(text)
            if slot.length > self.limits.max_argument_chars:
                raise ProtocolError(
                    Code.LIMIT_EXCEEDED,
                    f"arguments exceed {self.limits.max_argument_chars} characters",
                    key=slot.key,
                    event=event.pos,
                )
            slot.parts.append(text)

    def _rejected(self, event: Rejected) -> None:
        raise event.error

    def _restate(self, event: Restate) -> None:
        slot = self.slots.get(event.key)
        if slot is None:
            raise ProtocolError(
                Code.UNKNOWN_SLOT,
                f"arguments restated for item {event.key[1]}, which was never started",
                key=event.key,
                event=event.pos,
            )
        if slot.state is not State.ACCUMULATING:
            slot.step(Input.FRAGMENT, event.pos)
            return
        joined = "".join(slot.parts)
        slot.parts = [joined] if joined else []
        if joined != event.text:
            raise ProtocolError(
                Code.ARGUMENTS_MISMATCH,
                "restated arguments differ from the reassembled fragments",
                key=slot.key,
                event=event.pos,
            )

    def _end(self, event: End) -> None:
        slot = self.slots.get(event.key)
        if slot is None:
            raise ProtocolError(
                Code.UNKNOWN_SLOT,
                f"stop for block {event.key[1]}, which was never started",
                key=event.key,
                event=event.pos,
            )
        slot.step(Input.END, event.pos)
        if slot.state is State.TERMINAL:
            slot.terminal_pos = event.pos

    def _new_slot(self, key: SlotKey, kind: str, pos: int) -> Slot:
        if len(self.slots) >= self.limits.max_slots:
            raise ProtocolError(
                Code.LIMIT_EXCEEDED,
                f"more than {self.limits.max_slots} slots in one turn",
                event=pos,
                fatal=True,
            )
        slot = self.slots[key] = Slot(key=key, kind=kind, first_pos=pos)
        scope = self.scopes.get(key[0])
        if scope is not None and scope.ended:
            slot.state = State.ACCUMULATING
            raise ProtocolError(
                Code.DELTA_AFTER_TERMINAL,
                "new call after the turn's terminal event",
                key=key,
                event=pos,
            )
        return slot

    # -- scope events ------------------------------------------------------

    def _begin(self, event: Begin) -> None:
        scope = self.scope(event.scope)
        if scope.begun_at is not None:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                "a second message start: one fixture holds one assistant turn",
                event=event.pos,
                fatal=True,
            )
        scope.begun_at = event.pos

    def _finish(self, event: Finish) -> None:
        scope = self.scope(event.scope)
        if scope.finish is not None:
            raise ProtocolError(
                Code.DUPLICATE_TERMINAL,
                f"second end reason {_short(event.reason)} for the same turn",
                event=event.pos,
            )
        scope.finish = event
        if event.ends_slots:
            for slot in self.slots.values():
                if slot.key[0] == event.scope and slot.state is State.ACCUMULATING:
                    slot.step(Input.END, event.pos)
                    slot.terminal_pos = event.pos

    def _stop(self, event: Stop) -> None:
        scope = self.scope(event.scope)
        if scope.stop_pos is not None:
            raise ProtocolError(Code.DUPLICATE_TERMINAL, "second message stop", event=event.pos)
        scope.stop_pos = event.pos

    # -- end of stream -----------------------------------------------------

    def client_slots(self) -> list[Slot]:
        return [s for s in self.slots.values() if s.kind == CLIENT]


def _short(value: object, width: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def state_diagram() -> str:
    """A Mermaid state diagram derived from :data:`TRANSITIONS` and
    :data:`ILLEGAL`, for the docs."""
    lines = ["stateDiagram-v2", "    [*] --> unseen"]
    for (src, what), dst in TRANSITIONS.items():
        lines.append(f"    {src.value} --> {dst.value}: {what.value}")
    for (src, what), code in ILLEGAL.items():
        lines.append(f"    {src.value} --> blocked: {what.value} ({code.value})")
    lines.append("    validated --> [*]")
    lines.append("    blocked --> [*]")
    return "\n".join(lines) + "\n"
