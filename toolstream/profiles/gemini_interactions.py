"""Gemini Interactions API stream events (``POST /v1beta/interactions`` with
``stream: true``, steps enabled).

Each event is an object whose ``event_type`` names it.  Slot key:
``(0, index)`` of the ``step.*`` events; every step is a slot, so the
index-gap rule sees thought and output steps too.

A ``step.start`` whose ``step.type`` is ``function_call`` opens a client
call with ``step.id`` and ``step.name``; its ``step.arguments`` object is
the start input, as Anthropic's ``content_block_start.input`` is: it stands
when no delta carries text, and a non-empty one together with delta text is
``conflicting_input``.  ``step.delta`` events with ``delta.type ==
"arguments_delta"`` carry ``delta.arguments`` text fragments; ``step.stop``
is the call's terminal.  Built-in tool steps (``google_search_call``,
``code_execution_call``, ``url_context_call``, ``mcp_server_tool_call``,
``file_search_call``, ``google_maps_call``) are run by the provider: server
calls, reported, never executable.  ``thought``, ``model_output``,
``user_input`` and the ``*_result`` steps are blocks.

Turn: ``interaction.created`` obliges the turn to end with
``interaction.completed``, whose ``interaction.status`` must be
``requires_action`` (the status of an interaction waiting for function
results) for calls to execute; ``completed``, ``incomplete``,
``cancelled``, ``budget_exceeded``, ``queued``, ``in_progress`` (or any
other) with calls is ``wrong_terminal_reason``;
``requires_action`` without a call is ``terminal_without_calls``;
``failed`` and an ``error`` event are ``provider_error``.

Recognized, no tool data: ``interaction.status_update``, and the other
delta types (:data:`TEXT_DELTAS`: text, thought, media, annotation and
built-in tool deltas) on block or server steps.  The legacy ``content.*``
events (steps disabled) and anything else are ``unsupported_event``, as is
a member of an event, of the interaction, of its usage, of a
``function_call`` step or of an ``arguments_delta`` that the profile
(``gemini_interactions_members.py``) and its reviewed dialects do not know;
any finding blocks the turn.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from toolstream.events import (
    BLOCK,
    CLIENT,
    SERVER,
    Begin,
    End,
    Event,
    Finish,
    Fragment,
    Open,
    Stop,
)
from toolstream.findings import Code, ProtocolError
from toolstream.profiles._base import (
    Profile,
    SlotPiece,
    StreamPath,
    describe,
    open_call,
    provider_error,
    slot_index,
)
from toolstream.profiles.dialects import unknown_member_message, unread_member
from toolstream.profiles.gemini_interactions_members import (
    CALL_LEVELS,
    EVENT_LEVELS,
    EVENT_NESTED,
    STEP_MEMBERS,
)

# Step and delta types of the Interactions API (the ``Step`` and
# ``StepDeltaData`` unions of google-genai's interactions types).
SERVER_STEPS = frozenset(
    {
        "google_search_call",
        "code_execution_call",
        "url_context_call",
        "mcp_server_tool_call",
        "file_search_call",
        "google_maps_call",
    }
)
BLOCK_STEPS = frozenset(
    {
        "thought",
        "model_output",
        "user_input",
        "function_result",
        "google_search_result",
        "code_execution_result",
        "url_context_result",
        "mcp_server_tool_result",
        "file_search_result",
        "google_maps_result",
    }
)
TEXT_DELTAS = frozenset(
    {
        "text",
        "thought_summary",
        "thought_signature",
        "image",
        "audio",
        "document",
        "video",
        "text_annotation_delta",
        *SERVER_STEPS,
        *(step for step in BLOCK_STEPS if step.endswith("_result")),
        "retrieval_call",
        "retrieval_result",
    }
)
"""Deltas with no client tool data, for non-call steps."""
_PLAIN_DELTA_EVENT = EVENT_LEVELS["step.delta"]
_ARGUMENTS_DELTA = CALL_LEVELS["step.delta.delta"]
ACCEPTED_STATUS = "requires_action"
FAILED_STATUS = "failed"


class GeminiInteractions(Profile):
    name = "gemini-interactions"
    stream_key = "events"
    stream_description = "Gemini Interactions API events (event_type interaction.*/step.*)"
    has_choices = False
    closed_world = True

    @classmethod
    def recognises(cls, item: Mapping[str, Any]) -> bool:
        kind = item.get("event_type")
        return isinstance(kind, str) and kind.startswith(("interaction.", "step."))

    @classmethod
    def opens_turn(cls, item: Any) -> bool:
        return isinstance(item, dict) and item.get("event_type") == "interaction.created"

    def __init__(self, request: Any, limits: Any) -> None:
        super().__init__(request, limits)
        self._kinds: dict[int, str] = {}

    @classmethod
    def slot_pieces(cls, items: Sequence[Any]) -> Iterator[SlotPiece]:
        """Every ``step.*`` event with an integer ``index`` is a piece of
        that step; an ``arguments_delta`` carries ``delta.arguments`` and is
        plain when the event holds nothing else."""
        for i, event in enumerate(items):
            if not (isinstance(event, dict) and type(event.get("index")) is int):
                continue
            kind = event.get("event_type")
            if not (isinstance(kind, str) and kind.startswith("step.")):
                continue
            delta = event.get("delta")
            plain = (
                kind == "step.delta"
                and isinstance(delta, dict)
                and delta.get("type") == "arguments_delta"
                and isinstance(delta.get("arguments"), str)
                and set(delta) == {"type", "arguments"}
                and set(event) == {"event_type", "index", "delta"}
            )
            text: StreamPath | None = (i, "delta", "arguments") if plain else None
            yield SlotPiece(event["index"], (i,), text, plain)

    def feed(self, raw: Any, pos: int) -> Iterator[Event]:
        if type(raw) is not dict or type(raw.get("event_type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                "event is not an object with a string 'event_type'",
                event=pos,
            )
        kind = raw["event_type"]
        if kind == "step.delta":
            yield from self._delta(raw, pos)
            if raw.keys() <= _PLAIN_DELTA_EVENT:
                return  # the usual delta: nothing more to check
        elif kind == "step.start":
            yield from self._start(raw, pos)
        elif kind == "step.stop":
            index = slot_index(raw.get("index"), "step index", pos, self.limits)
            yield End(pos=pos, key=(0, index))
        elif kind == "interaction.created":
            yield Begin(pos=pos, scope=0)
        elif kind == "interaction.completed":
            yield from self._completed(raw, pos)
        elif kind == "error":
            raise provider_error(raw.get("error"), pos)
        elif kind != "interaction.status_update":
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown event type {kind[:40]!r}", event=pos
            )
        # Once the event's own events are out, so that an unknown member adds
        # its one finding (gemini_interactions_members.py).
        self._check_members(kind, raw, pos)

    def _check_members(self, path: str, obj: dict[str, Any], pos: int, key: Any = None) -> None:
        levels = CALL_LEVELS if path in CALL_LEVELS else EVENT_LEVELS
        unread = unread_member(self, self.name, levels, EVENT_NESTED, path, obj)
        if unread is not None:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"gemini-interactions {unknown_member_message(unread)}",
                key=key,
                event=pos,
            )

    def _start(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        index = slot_index(raw.get("index"), "step index", pos, self.limits)
        key = (0, index)
        step = raw.get("step")
        if type(step) is not dict or type(step.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "step is not an object with a string 'type'", event=pos
            )
        step_type = step["type"]
        if step_type == "function_call":
            self._kinds.setdefault(index, CLIENT)
            arguments = step.get("arguments")
            if arguments is not None and type(arguments) is not dict:
                yield Open(pos=pos, key=key, id=None, name=None, kind=CLIENT)
                raise ProtocolError(
                    Code.NON_OBJECT_ARGUMENTS,
                    f"step.arguments is {describe(arguments)}, not an object",
                    key=key,
                    event=pos,
                )
            yield from open_call(
                pos,
                key,
                CLIENT,
                ((step.get("id"), "step.id"), (step.get("name"), "step.name")),
                initial_input=arguments,
            )
            # The call is opened (its index taken), then refused.
            self._check_members("step.start.step", step, pos, key)
        elif step_type in SERVER_STEPS:
            self._kinds.setdefault(index, SERVER)
            yield from open_call(
                pos,
                key,
                SERVER,
                ((step.get("id"), "step.id"), (step_type, "step.type")),
            )
        elif step_type in BLOCK_STEPS:
            self._kinds.setdefault(index, BLOCK)
            yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
            known = STEP_MEMBERS.get(step_type)
            if known is not None and not step.keys() <= known:
                unread = unread_member(
                    self, self.name, {"step.start.step": known}, {}, "step.start.step", step
                )
                if unread is not None:
                    raise ProtocolError(
                        Code.UNSUPPORTED_EVENT,
                        f"gemini-interactions {unknown_member_message(unread)}",
                        key=key,
                        event=pos,
                    )
        else:
            # Opened, so that the step's deltas and stop are absorbed by the
            # blocked slot instead of reported again as unknown_slot.
            self._kinds.setdefault(index, BLOCK)
            yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"unknown step type {step_type[:40]!r}",
                key=key,
                event=pos,
            )

    def _delta(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        index = slot_index(raw.get("index"), "step index", pos, self.limits)
        key = (0, index)
        delta = raw.get("delta")
        if type(delta) is not dict or type(delta.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "delta is not an object with a string 'type'", event=pos
            )
        delta_type = delta["type"]
        target = self._kinds.get(index)
        if delta_type == "arguments_delta":
            if target == BLOCK:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"arguments_delta for non-call step {index}",
                    event=pos,
                )
            if not delta.keys() <= _ARGUMENTS_DELTA:
                self._check_members("step.delta.delta", delta, pos, key)
            text = delta.get("arguments")
            if text is not None and type(text) is not str:
                raise ProtocolError(
                    Code.NON_STRING_FRAGMENT,
                    f"delta.arguments is {describe(text)}, not a string",
                    key=key,
                    event=pos,
                )
            yield Fragment(pos=pos, key=key, id=None, name=None, text=text)
        elif delta_type in TEXT_DELTAS:
            if target == CLIENT:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"{delta_type} delta for function_call step {index}",
                    event=pos,
                )
            yield Fragment(pos=pos, key=key, id=None, name=None, text=None)
        else:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown delta type {delta_type[:40]!r}", event=pos
            )

    def _completed(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        interaction = raw.get("interaction")
        status = interaction.get("status") if type(interaction) is dict else None
        if type(status) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"interaction.status is {describe(status)}, not a string",
                event=pos,
            )
        failed = status == FAILED_STATUS
        accepted = status == ACCEPTED_STATUS
        # A failure blocks the turn by itself; its end is still recorded, so
        # that the turn is not also reported as missing its terminal.
        yield Finish(
            pos=pos,
            scope=0,
            reason=status,
            accepted=accepted or failed,
            claims_tools=accepted,
            ends_slots=False,
        )
        yield Stop(pos=pos, scope=0)
        if failed:
            raise ProtocolError(Code.PROVIDER_ERROR, "the interaction failed", event=pos)
