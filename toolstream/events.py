"""The closed set of normalized events the slot machine understands.

Profiles (``toolstream/profiles/``) translate each provider's chunks or events
into these; the machine (``toolstream/machine.py``) knows nothing else.  Every
event carries ``pos``: the position of the raw chunk/event it came from, so a
finding can point back into the fixture.

A *slot key* is ``(scope, index)``: the scope is the OpenAI/Mistral choice
index (``0`` for profiles without choices) and the index is the provider's own
slot number (``tool_calls[].index``, content-block ``index``).  Keys are scoped
to one turn; two calls are never merged because an index repeats across
scopes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolstream.findings import ProtocolError

SlotKey = tuple[int, int]

CLIENT = "client"
"""A call the application is expected to execute."""
SERVER = "server"
"""A call the provider executes itself (Anthropic ``server_tool_use``,
``mcp_tool_use``): reported, never executable, never makes a turn applicable."""
BLOCK = "block"
"""A non-call content block (text, thinking, tool results...).  It takes part
in the index-gap and terminal rules but never in the call rules."""


@dataclass(slots=True)
class Open:
    """A slot is announced (Anthropic ``content_block_start``, or the first
    OpenAI delta seen for a key).  ``initial_input`` is the
    start-of-block input object when the provider sends one."""

    pos: int
    key: SlotKey
    id: str | None
    name: str | None
    kind: str = CLIENT
    initial_input: Any = None


@dataclass(slots=True)
class Fragment:
    """A piece of a call: arguments text and/or identity fields.  ``None``
    means "field absent"; the empty string is kept as an empty fragment."""

    pos: int
    key: SlotKey
    id: str | None
    name: str | None
    text: str | None


@dataclass(slots=True)
class Fragments:
    """A run of ``count`` consecutive chunks/events from ``pos`` on, each of
    them nothing but arguments text for a slot its profile has already seen:
    the bulk of any long stream.  ``texts`` holds each slot's texts in
    stream order.

    A run is a shortcut, not a new meaning: it stands for ``count``
    :class:`Fragment` events without identity.  The machine takes it in one
    step only when none of those fragments could break a rule (see
    :meth:`toolstream.machine.Turn.take_fragments`); otherwise the gate feeds
    the run's items one by one, so the outcome is the per-item outcome by
    construction.

    ``whole_calls``: the run may instead be whole calls, one after another
    (an Anthropic ``tool_use`` block: its start, its fragments, its stop):
    each call's :class:`Open`, then its texts (in ``texts``, under its
    key), then its :class:`End`, all within the run.  The run then stands
    for those events in that order, and the machine takes it only when each
    call opens a slot the turn has not seen (see
    :meth:`~toolstream.machine.Turn.take_fragments`)."""

    pos: int
    count: int
    texts: dict[SlotKey, list[str]]
    whole_calls: tuple[tuple[Open, End], ...] = ()
    _joined: dict[SlotKey, str] | None = field(default=None, repr=False, compare=False)

    def joined(self) -> dict[SlotKey, str]:
        """Each slot's texts as one string, joined once: the ledger's tally
        counts its colons and the machine appends it to the slot, so a
        long run's pieces are walked once, not three times (the close
        would join them again)."""
        joined = self._joined
        if joined is None:
            joined = self._joined = {key: "".join(texts) for key, texts in self.texts.items()}
        return joined


@dataclass(slots=True)
class Restate:
    """The provider repeats a slot's complete arguments before its terminal
    (OpenAI Responses ``function_call_arguments.done``).  They must equal the
    reassembled fragments byte for byte."""

    pos: int
    key: SlotKey
    text: str


@dataclass(slots=True)
class End:
    """The provider's per-slot terminal (Anthropic ``content_block_stop``)."""

    pos: int
    key: SlotKey


@dataclass(slots=True)
class Finish:
    """The provider's reason for ending a scope (OpenAI ``finish_reason``,
    Anthropic ``message_delta.stop_reason``).

    ``ends_slots``: whether this is also the terminal of every slot in the
    scope (true for OpenAI/Mistral, false for Anthropic, whose slots end with
    ``content_block_stop``).  ``accepted``: whether the reason means "execute
    the tools" in this request's context.  ``claims_tools``: whether the reason
    says the turn ends for tool use (``tool_calls``, ``tool_use``).
    """

    pos: int
    scope: int
    reason: str
    accepted: bool
    claims_tools: bool
    ends_slots: bool


@dataclass(slots=True)
class Begin:
    """The turn announces that it will end with an explicit stop (Anthropic
    ``message_start``): the turn then needs a ``Finish`` and a ``Stop``."""

    pos: int
    scope: int


@dataclass(slots=True)
class Stop:
    """The end of the turn (Anthropic ``message_stop``)."""

    pos: int
    scope: int


@dataclass(slots=True)
class Rejected:
    """A part of a chunk the profile could not translate (one ``tool_calls``
    entry of several, say).  The machine raises ``error`` in stream order, so
    the rest of the chunk is still applied."""

    pos: int
    error: ProtocolError


Event = Open | Fragment | Restate | End | Finish | Begin | Stop | Rejected
