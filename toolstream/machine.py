"""The per-slot reassembly state machine.

Theory of operation
-------------------
A turn is a set of *slots*, one per call or content block, keyed by
``(scope, index)`` (see ``toolstream/events.py``).  Each slot moves through

    unseen -> accumulating -> terminal -> validated
                   \\             \\
                    `-> blocked    `-> blocked

driven by the inputs in :class:`Input`.  :data:`TRANSITIONS` is the whole
table of legal moves, and every change of a slot's state is a lookup in it
(:meth:`Slot.step`).  A move that is not in the table is illegal: the lookup
fails and becomes a :class:`~toolstream.findings.ProtocolError` whose code
comes from :data:`ILLEGAL` (e.g. a fragment for a slot that already reached its
terminal is ``delta_after_terminal``).  A move in neither table is a bug in
this module and raises ``AssertionError``.  The gate records the finding and
blocks the slot that made the illegal move (``reject``); a blocked slot absorbs
every later input the stream can bring (the ``blocked`` rows of the table), so
each slot reports at most one finding.  That rule is what makes verdicts
predictable enough for the generator to label mutants without running this
code.

Two cases never reach a slot's table, because there is no slot to move:

* an event for a key that was never opened (a fragment, a restatement, a
  block stop) is ``unknown_slot``, raised by :meth:`Turn._slot_for`; no slot
  is created for it, so later events for the same key report it again;
* a new slot opened in a scope that has already ended is opened (``open``)
  and then refused with ``delta_after_terminal``, which blocks it.

The machine never looks at provider shapes: profiles normalize chunks into
the closed event set first.  It also never parses JSON or checks schemas
while a slot is accumulating: a JSON prefix that happens to parse is not
terminal evidence.  Arguments are parsed and validated exactly once, by the
gate, after the slot's terminal and the end of the stream.

Most of a long stream is plain arguments text for slots that are already
accumulating.  Profiles hand such a stretch over as one :class:`Fragments`
run, and :meth:`Turn.take_fragments` appends it in one step when every move in
it is the ``accumulating --fragment--> accumulating`` row and no limit is
crossed; otherwise the gate replays the run item by item through this same
table.  A run may also be whole calls (an Anthropic ``tool_use`` block's
start, fragments and stop): it is taken when each call opens a new slot
that the ``open``, ``fragment`` and ``end`` rows carry to ``terminal``
with no limit crossed, and replayed otherwise.  The run is there for speed
only: it can never change a verdict.

Scopes (choices, messages) have a small life of their own, in
:data:`SCOPE_RULES`: a scope takes each of its three marks (:class:`Mark`:
``begin``, ``finish``, ``stop``) at most once, in any order, and a second one
is the row's finding.  A ``Finish`` event gives the scope's end reason and,
for OpenAI-style profiles, is the terminal of every slot still accumulating
in it; an Anthropic-style ``Begin`` obliges the scope to see a ``Finish`` and
a ``Stop`` (the rows' ``missing`` messages, checked by the gate at the end of
the turn).  After a scope's terminal, a new slot in it is
``delta_after_terminal``.
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
from toolstream.messages import excerpt


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


# The members the per-event path reads: reading one through its class is a
# metaclass lookup, about 40 ns each time (measured on Python 3.11).
_ACCUMULATING = State.ACCUMULATING
_FRAGMENT = Input.FRAGMENT

TRANSITIONS: dict[tuple[State, Input], State] = {
    # The life of a slot.
    (State.UNSEEN, Input.OPEN): State.ACCUMULATING,
    (State.ACCUMULATING, Input.FRAGMENT): State.ACCUMULATING,
    (State.ACCUMULATING, Input.END): State.TERMINAL,
    (State.TERMINAL, Input.EOF): State.TERMINAL,
    (State.TERMINAL, Input.ACCEPT): State.VALIDATED,
    # A broken rule (an illegal move, a failed end-of-turn check).
    (State.ACCUMULATING, Input.REJECT): State.BLOCKED,
    (State.TERMINAL, Input.REJECT): State.BLOCKED,
    # A blocked slot absorbs what the stream still brings.
    (State.BLOCKED, Input.OPEN): State.BLOCKED,
    (State.BLOCKED, Input.FRAGMENT): State.BLOCKED,
    (State.BLOCKED, Input.END): State.BLOCKED,
    (State.BLOCKED, Input.EOF): State.BLOCKED,
}
"""Every legal move of a slot."""

_OPENED_AND_ENDED = TRANSITIONS[TRANSITIONS[State.UNSEEN, Input.OPEN], Input.END]
"""Where a slot that is opened and then ended is: a whole call's slot (see
:meth:`Turn.take_fragments`)."""

ILLEGAL: dict[tuple[State, Input], Code] = {
    (State.ACCUMULATING, Input.OPEN): Code.IDENTITY_COLLISION,
    (State.ACCUMULATING, Input.EOF): Code.MISSING_TERMINAL,
    (State.TERMINAL, Input.OPEN): Code.IDENTITY_COLLISION,
    (State.TERMINAL, Input.FRAGMENT): Code.DELTA_AFTER_TERMINAL,
    (State.TERMINAL, Input.END): Code.DUPLICATE_TERMINAL,
}
"""The code of each illegal move that the stream can make."""

_ILLEGAL_MESSAGES: dict[Code, str] = {
    Code.IDENTITY_COLLISION: "slot started again while already in use",
    Code.MISSING_TERMINAL: "stream ended before the call's terminal event",
    Code.DELTA_AFTER_TERMINAL: "fragment after the call's terminal event",
    Code.DUPLICATE_TERMINAL: "second terminal event for the call",
}


class Mark(str, enum.Enum):
    """What a scope can be told, each at most once."""

    BEGIN = "begin"
    """The turn announces that it will end with an explicit stop
    (:class:`~toolstream.events.Begin`)."""
    FINISH = "finish"
    """The scope's end reason (:class:`~toolstream.events.Finish`)."""
    STOP = "stop"
    """The end of the turn (:class:`~toolstream.events.Stop`)."""


@dataclass(frozen=True)
class ScopeRule:
    """What becomes of one :class:`Mark` that a scope is given again, and
    what a begun scope that never got it reports at the end of the turn."""

    again: Code
    again_message: str
    """``{}`` is replaced by the second mark's detail (the end reason)."""
    again_fatal: bool
    missing: str | None
    """The ``missing_terminal`` message for a begun scope without the mark;
    None: nothing obliges it."""


SCOPE_RULES: dict[Mark, ScopeRule] = {
    Mark.BEGIN: ScopeRule(
        Code.UNSUPPORTED_EVENT,
        "a second message start: one fixture holds one assistant turn",
        again_fatal=True,
        missing=None,
    ),
    Mark.FINISH: ScopeRule(
        Code.DUPLICATE_TERMINAL,
        "second end reason {} for the same turn",
        again_fatal=False,
        missing="message ended without a stop reason",
    ),
    Mark.STOP: ScopeRule(
        Code.DUPLICATE_TERMINAL,
        "second message stop",
        again_fatal=False,
        missing="message ended without message_stop",
    ),
}
"""The life of a scope: each mark once, in any order; a begun scope needs
the marks whose rule has a ``missing`` message (checked in this order, the
first one missing is reported)."""


@dataclass(slots=True)  # one per call: slots make it cheaper to build and read
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

    def step(self, what: Input, pos: int | None) -> State:
        """Make the move ``what`` (a lookup in :data:`TRANSITIONS`) and
        return the new state; an illegal move raises its finding and leaves
        the state as it was."""
        new = TRANSITIONS.get((self.state, what))
        if new is None:
            code = ILLEGAL.get((self.state, what))
            if code is None:  # pragma: no cover - the tables cover every move the code makes
                raise AssertionError(f"unreachable move {self.state.value} --{what.value}-->")
            raise ProtocolError(code, _ILLEGAL_MESSAGES[code], key=self.key, event=pos)
        self.state = new
        return new

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
    marks: dict[Mark, int] = field(default_factory=dict)
    """The position of each mark the scope was given."""
    finish: Finish | None = None

    @property
    def begun_at(self) -> int | None:
        return self.marks.get(Mark.BEGIN)

    @property
    def stop_pos(self) -> int | None:
        return self.marks.get(Mark.STOP)

    @property
    def ended(self) -> bool:
        return (self.finish is not None and self.finish.ends_slots) or Mark.STOP in self.marks

    def take(self, mark: Mark, pos: int, detail: str = "") -> None:
        """Record ``mark``; a second one raises its rule's finding."""
        if mark in self.marks:
            rule = SCOPE_RULES[mark]
            raise ProtocolError(
                rule.again, rule.again_message.format(detail), event=pos, fatal=rule.again_fatal
            )
        self.marks[mark] = pos


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
        otherwise; the caller then applies the run's items one by one.

        A run of whole calls is taken when each call opens a new slot:
        :meth:`_take_whole_calls`."""
        if run.whole_calls:
            return self._take_whole_calls(run)
        slots = self.slots
        limit = self.limits.max_argument_chars
        takes = []
        for key, text in run.joined().items():
            slot = slots.get(key)
            if slot is None or slot.state is not State.ACCUMULATING:
                return False
            length = slot.length + len(text)
            if length > limit:
                return False
            takes.append((slot, text, length))
        for slot, text, length in takes:
            slot.length = length
            slot.parts.append(text)
        return True

    def _take_whole_calls(self, run: Fragments) -> bool:
        """Open, fill and end each of the run's whole calls, if applying
        their events one by one would raise nothing: each key is new to the
        turn and to the run, the slots stay within ``max_slots``, no call's
        scope has ended, and no call's text crosses the argument limit.
        Each slot then makes the moves ``open`` and ``end`` of the table
        (:data:`_OPENED_AND_ENDED`); the ``fragment`` moves between them
        leave it accumulating."""
        slots = self.slots
        calls = run.whole_calls
        if len(slots) + len(calls) > self.limits.max_slots:
            return False
        scopes = self.scopes
        limit = self.limits.max_argument_chars
        joined = run.joined()
        keys = set()
        for opened, _ in calls:
            key = opened.key
            if key in slots or key in keys:
                return False
            keys.add(key)
            scope = scopes.get(key[0])
            if scope is not None and scope.ended:
                return False
            if len(joined.get(key, "")) > limit:
                return False
        for opened, ended in calls:
            key = opened.key
            text = joined.get(key, "")
            # In Slot's field order (positional: a call of the run each):
            # key, kind, first_pos, state, id and name (take_identity keeps
            # the first non-empty ones), parts, length, initial_input,
            # terminal_pos.
            slots[key] = Slot(
                key,
                opened.kind,
                opened.pos,
                _OPENED_AND_ENDED,
                opened.id or None,
                opened.name or None,
                [text] if text else [],
                len(text),
                opened.initial_input,
                ended.pos,
            )
        return True

    def block(self, key: SlotKey, finding: Any) -> None:
        """Reject the slot at ``key`` with ``finding``: its one finding."""
        slot = self.slots.get(key)
        if slot is None or slot.state is State.BLOCKED:
            return  # no slot was opened for the key; or the slot has its finding
        slot.step(Input.REJECT, None)
        slot.findings.append(finding)

    # -- slot events -------------------------------------------------------

    def _slot_for(self, key: SlotKey, pos: int, what: str) -> Slot:
        """The slot an event names, or ``unknown_slot`` when none was opened
        (``what`` names the event in the message)."""
        slot = self.slots.get(key)
        if slot is None:
            raise ProtocolError(
                Code.UNKNOWN_SLOT,
                f"{what} {key[1]}, which was never started",
                key=key,
                event=pos,
            )
        return slot

    def _open(self, event: Open) -> None:
        slot = self.slots.get(event.key)
        if slot is not None:
            slot.step(Input.OPEN, event.pos)
            return
        slot = self._new_slot(event.key, event.kind, event.pos)
        slot.initial_input = event.initial_input
        slot.take_identity(event.id, event.name, event.pos)

    def _fragment(self, event: Fragment) -> None:
        slot = self._slot_for(event.key, event.pos, "fragment for block")
        if slot.step(_FRAGMENT, event.pos) is not _ACCUMULATING:
            return  # absorbed by a blocked slot
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
        slot = self._slot_for(event.key, event.pos, "arguments restated for item")
        if slot.step(Input.FRAGMENT, event.pos) is not State.ACCUMULATING:
            return  # absorbed by a blocked slot
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
        slot = self._slot_for(event.key, event.pos, "stop for block")
        if slot.step(Input.END, event.pos) is State.TERMINAL:
            slot.terminal_pos = event.pos

    def _new_slot(self, key: SlotKey, kind: str, pos: int) -> Slot:
        """Open a slot for a key seen for the first time."""
        if len(self.slots) >= self.limits.max_slots:
            raise ProtocolError(
                Code.LIMIT_EXCEEDED,
                f"more than {self.limits.max_slots} slots in one turn",
                event=pos,
                fatal=True,
            )
        slot = self.slots[key] = Slot(key=key, kind=kind, first_pos=pos)
        slot.step(Input.OPEN, pos)
        scope = self.scopes.get(key[0])
        if scope is not None and scope.ended:
            raise ProtocolError(
                Code.DELTA_AFTER_TERMINAL,
                "new call after the turn's terminal event",
                key=key,
                event=pos,
            )
        return slot

    # -- scope events ------------------------------------------------------

    def _begin(self, event: Begin) -> None:
        self.scope(event.scope).take(Mark.BEGIN, event.pos)

    def _finish(self, event: Finish) -> None:
        scope = self.scope(event.scope)
        scope.take(Mark.FINISH, event.pos, _short(event.reason))
        scope.finish = event
        if event.ends_slots:
            for slot in self.slots.values():
                if slot.key[0] == event.scope and slot.state is State.ACCUMULATING:
                    slot.step(Input.END, event.pos)
                    slot.terminal_pos = event.pos

    def _stop(self, event: Stop) -> None:
        self.scope(event.scope).take(Mark.STOP, event.pos)

    def client_slots(self) -> list[Slot]:
        return [s for s in self.slots.values() if s.kind == CLIENT]


def _short(value: object) -> str:
    """``value`` as quoted in a machine message."""
    return excerpt(repr(value), 40)


def state_diagram() -> str:
    """A Mermaid state diagram of a slot, derived from :data:`TRANSITIONS`
    and :data:`ILLEGAL` (an illegal move is drawn to ``blocked``: the gate
    rejects the slot that made it), for the docs."""
    lines = ["stateDiagram-v2", "    [*] --> unseen"]
    for (src, what), dst in TRANSITIONS.items():
        lines.append(f"    {src.value} --> {dst.value}: {what.value}")
    for (src, what), code in ILLEGAL.items():
        lines.append(f"    {src.value} --> blocked: {what.value} ({code.value}), then reject")
    lines.append("    validated --> [*]")
    lines.append("    blocked --> [*]")
    return "\n".join(lines) + "\n"
