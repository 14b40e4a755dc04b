"""Cohere v2 chat stream events (``POST /v2/chat`` with ``stream: true``).

Each event is an object whose ``type`` names it (the SSE ``event:`` name):
``cohere.StreamedChatResponseV2``.  Slot key: ``(0, index)`` of the
``tool-call-*`` events; only tool calls are slots (content blocks number
their own ``index`` from 0 and carry no tool data).

A call opens with ``tool-call-start``, whose ``delta.message.tool_calls`` is
one object (not an array) with ``id``, ``type: "function"`` and
``function: {name, arguments}``; ``tool-call-delta`` events carry
``delta.message.tool_calls.function.arguments`` fragments; the call's
terminal is ``tool-call-end``.  The start's ``arguments`` (normally ``""``)
is the first fragment.  The arguments are text, as in OpenAI's chunks, so a
call with no fragment text is ``empty_arguments``, as it is for the
``openai`` profile (a call without parameters is streamed as ``"{}"``).
A ``type`` other than ``function`` is ``unsupported_call_type``; every call
needs an id.

Turn: ``message-start`` obliges the turn to end with ``message-end``, whose
``delta.finish_reason`` must be ``TOOL_CALL`` for calls to execute.
``COMPLETE``, ``STOP_SEQUENCE``, ``MAX_TOKENS`` and ``TIMEOUT`` (and any
unknown reason) are ``wrong_terminal_reason`` with calls; ``TOOL_CALL``
without a call is ``terminal_without_calls``; ``ERROR``, or a
``message-end`` with an ``error``, is ``provider_error``.

Recognized, no tool data: ``tool-plan-delta``, ``content-start``,
``content-delta``, ``content-end``, ``citation-start``, ``citation-end``,
``debug``.  Any other event is ``unsupported_event``, and so is a member of
these events, of ``message-start`` or ``message-end`` outside its object's
set (:mod:`toolstream.profiles.cohere_members`), or a ``message-start``
whose ``tool_calls`` is not empty; any finding blocks the turn.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from toolstream.events import CLIENT, Begin, End, Event, Finish, Fragment, Open, SlotKey, Stop
from toolstream.findings import Code, ProtocolError
from toolstream.profiles._base import (
    Profile,
    SlotPiece,
    StreamPath,
    describe,
    optional_text,
    slot_index,
)
from toolstream.profiles.cohere_members import EVENT_LEVELS, EVENT_NESTED, SOURCE_LEVELS
from toolstream.profiles.dialects import unknown_member_message, unread_member

NO_TOOL_DATA_EVENTS = frozenset(
    {
        "tool-plan-delta",
        "content-start",
        "content-delta",
        "content-end",
        "citation-start",
        "citation-end",
        "debug",
    }
)
# The members of the events that carry a call, level by level (cohere's
# ChatToolCallStartEvent / ChatToolCallDeltaEvent / ChatToolCallEndEvent and
# their delta, message, ToolCallV2 and function types): anything else may
# carry what the profile cannot read.
_EVENT_MEMBERS = frozenset({"type", "index", "delta"})
_END_MEMBERS = frozenset({"type", "index"})
_DELTA_MEMBERS = frozenset({"message"})
_MESSAGE_MEMBERS = frozenset({"tool_calls"})
_CALL_MEMBERS = {
    "tool-call-start": frozenset({"id", "type", "function"}),
    "tool-call-delta": frozenset({"function"}),
}
_FUNCTION_MEMBERS = {
    "tool-call-start": frozenset({"name", "arguments"}),
    "tool-call-delta": frozenset({"arguments"}),
}
ACCEPTED_REASON = "TOOL_CALL"
ERROR_REASON = "ERROR"


_EVENT_TYPES = frozenset(
    {
        "message-start",
        "message-end",
        "content-start",
        "content-delta",
        "content-end",
        "tool-plan-delta",
        "tool-call-start",
        "tool-call-delta",
        "tool-call-end",
        "citation-start",
        "citation-end",
        "debug",
    }
)
"""The v2 chat stream's event types (hyphenated)."""


class Cohere(Profile):
    name = "cohere"
    stream_key = "events"
    stream_description = "Cohere v2 chat stream events (type message-start, tool-call-*...)"
    has_choices = False
    closed_world = True

    @classmethod
    def recognises(cls, item: Mapping[str, Any]) -> bool:
        return item.get("type") in _EVENT_TYPES

    @classmethod
    def opens_turn(cls, item: Any) -> bool:
        return isinstance(item, dict) and item.get("type") == "message-start"

    @classmethod
    def slot_pieces(cls, items: Sequence[Any]) -> Iterator[SlotPiece]:
        """Every ``tool-call-*`` event with an integer ``index`` is a piece
        of that call.  The start's and each delta's
        ``delta.message.tool_calls.function.arguments`` is its text; a delta
        holding nothing but that text is plain (the start, which carries
        the id and name, takes the text of the next piece)."""
        for i, event in enumerate(items):
            if not (isinstance(event, dict) and type(event.get("index")) is int):
                continue
            kind = event.get("type")
            if kind not in ("tool-call-start", "tool-call-delta", "tool-call-end"):
                continue
            delta = event.get("delta")
            message = delta.get("message") if isinstance(delta, dict) else None
            call = message.get("tool_calls") if isinstance(message, dict) else None
            function = call.get("function") if isinstance(call, dict) else None
            arguments = function.get("arguments") if isinstance(function, dict) else None
            has_text = isinstance(function, dict) and (
                arguments is None or isinstance(arguments, str)
            )
            where: StreamPath = (i, "delta", "message", "tool_calls", "function", "arguments")
            only_text = {"message": {"tool_calls": {"function": {"arguments": arguments}}}}
            plain = (
                kind == "tool-call-delta"
                and isinstance(arguments, str)
                and set(event) == {"type", "index", "delta"}
                and delta == only_text
            )
            yield SlotPiece(event["index"], (i,), where if has_text else None, plain)

    def feed(self, raw: Any, pos: int) -> Iterator[Event]:
        if type(raw) is not dict or type(raw.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "event is not an object with a string 'type'", event=pos
            )
        kind = raw["type"]
        if kind == "tool-call-delta":
            key = self._key(raw, pos)
            call = self._call(raw, key, pos)
            function = self._function(call, kind, key, pos)
            text = _arguments(function, key, pos)
            yield Fragment(pos=pos, key=key, id=None, name=None, text=text)
        elif kind == "tool-call-start":
            yield from self._start(raw, pos)
        elif kind == "tool-call-end":
            key = self._key(raw, pos)
            _closed(raw, _END_MEMBERS, "tool-call-end.", key, pos)
            yield End(pos=pos, key=key)
        elif kind == "message-start":
            yield Begin(pos=pos, scope=0)
            self._check_members(kind, raw, pos)
            _no_calls_at_start(raw, pos)
        elif kind == "message-end":
            yield from self._end(raw, pos)
            self._check_members(kind, raw, pos)
        elif kind in NO_TOOL_DATA_EVENTS:
            self._check_members(kind, raw, pos)
        else:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown event type {kind[:40]!r}", event=pos
            )

    def _check_members(self, kind: str, raw: dict[str, Any], pos: int) -> None:
        # After the event's own events are out, so that an unknown member
        # adds its one finding (cohere_members.py).
        unread = unread_member(self, self.name, EVENT_LEVELS, EVENT_NESTED, kind, raw)
        if unread is None and kind == "citation-start":
            unread = _unread_source(raw)
        if unread is not None:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"cohere {unknown_member_message(unread)}", event=pos
            )

    def _key(self, raw: dict[str, Any], pos: int) -> SlotKey:
        return (0, slot_index(raw.get("index"), "tool call index", pos, self.limits))

    def _call(self, raw: dict[str, Any], key: SlotKey, pos: int) -> dict[str, Any]:
        delta = raw.get("delta")
        message = delta.get("message") if type(delta) is dict else None
        call = message.get("tool_calls") if type(message) is dict else None
        if type(call) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"{raw['type']} has no delta.message.tool_calls object",
                key=key,
                event=pos,
            )
        assert type(delta) is dict and type(message) is dict
        kind = raw["type"]
        for item, known, where in (
            (raw, _EVENT_MEMBERS, ""),
            (delta, _DELTA_MEMBERS, "delta."),
            (message, _MESSAGE_MEMBERS, "delta.message."),
            (call, _CALL_MEMBERS[kind], "delta.message.tool_calls."),
        ):
            _closed(item, known, f"{kind}.{where}", key, pos)
        return call

    def _function(self, call: dict[str, Any], kind: str, key: SlotKey, pos: int) -> dict[str, Any]:
        function = call.get("function")
        if type(function) is not dict:
            raise ProtocolError(
                Code.NON_STRING_FRAGMENT,
                f"tool_calls.function is {describe(function)}, not an object",
                key=key,
                event=pos,
            )
        _closed(
            function,
            _FUNCTION_MEMBERS[kind],
            f"{kind}.delta.message.tool_calls.function.",
            key,
            pos,
        )
        return function

    def _start(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        key = self._key(raw, pos)
        try:
            call = self._call(raw, key, pos)
            function = self._function(call, "tool-call-start", key, pos)
            id_ = optional_text(call.get("id"), "tool_calls.id", key, pos)
            name = optional_text(function.get("name"), "function.name", key, pos)
        except ProtocolError:
            yield Open(pos=pos, key=key, id=None, name=None, kind=CLIENT)
            raise
        yield Open(pos=pos, key=key, id=id_, name=name, kind=CLIENT)
        kind = call.get("type")
        if kind is not None and kind != "function":
            raise ProtocolError(
                Code.UNSUPPORTED_CALL_TYPE,
                f"tool call type is {describe(kind)}, not 'function'",
                key=key,
                event=pos,
            )
        yield Fragment(pos=pos, key=key, id=None, name=None, text=_arguments(function, key, pos))

    def _end(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        delta = raw.get("delta")
        if delta is not None and type(delta) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "message-end delta is not an object", event=pos
            )
        delta = delta or {}
        error = delta.get("error")
        reason = delta.get("finish_reason")
        if error is not None or reason == ERROR_REASON:
            # The error blocks the turn; the end is still recorded, so that
            # the turn is not also reported as missing its terminal.
            shown = error[:120] if type(error) is str else f"finish_reason {reason!r}"
            yield Finish(
                pos=pos,
                scope=0,
                reason=ERROR_REASON,
                accepted=True,
                claims_tools=False,
                ends_slots=False,
            )
            yield Stop(pos=pos, scope=0)
            raise ProtocolError(Code.PROVIDER_ERROR, f"provider error: {shown}", event=pos)
        if type(reason) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"message-end finish_reason is {describe(reason)}, not a string",
                event=pos,
            )
        tool_call = reason == ACCEPTED_REASON
        yield Finish(
            pos=pos,
            scope=0,
            reason=reason,
            accepted=tool_call,
            claims_tools=tool_call,
            ends_slots=False,
        )
        yield Stop(pos=pos, scope=0)


def _arguments(function: dict[str, Any], key: SlotKey, pos: int) -> str | None:
    text = function.get("arguments")
    if text is not None and type(text) is not str:
        raise ProtocolError(
            Code.NON_STRING_FRAGMENT,
            f"function.arguments is {describe(text)}, not a string",
            key=key,
            event=pos,
        )
    return text


def _no_calls_at_start(raw: dict[str, Any], pos: int) -> None:
    """``message-start`` restates the message's arrays, empty; calls there
    would be delivered outside the ``tool-call-*`` events, which the
    profile does not read."""
    delta = raw.get("delta")
    message = delta.get("message") if type(delta) is dict else None
    calls = message.get("tool_calls") if type(message) is dict else None
    if calls not in (None, []):
        raise ProtocolError(
            Code.UNSUPPORTED_EVENT,
            f"message-start.delta.message.tool_calls is not an empty array"
            f" ({describe(calls)}): calls outside the tool-call events are not read",
            event=pos,
        )


def _unread_source(raw: dict[str, Any]) -> str | None:
    """The path of the first unknown member of a citation's source entries
    (closed by type, SOURCE_LEVELS); an entry of an unknown type names its
    ``type``; None when all are known."""
    delta = raw.get("delta")
    message = delta.get("message") if type(delta) is dict else None
    citation = message.get("citations") if type(message) is dict else None
    sources = citation.get("sources") if type(citation) is dict else None
    if type(sources) is not list:
        return None
    where = "citation-start.delta.message.citations.sources[]"
    for entry in sources:
        if type(entry) is not dict:
            continue
        source_type = entry.get("type")
        known = SOURCE_LEVELS.get(source_type) if type(source_type) is str else None
        if known is None:
            return f"{where}.type"
        if not entry.keys() <= known:
            return f"{where}.{min(str(m) for m in entry if m not in known)[:40]}"
    return None


def _closed(
    item: dict[str, Any], known: frozenset[str], where: str, key: SlotKey, pos: int
) -> None:
    """Refuse the first member of ``item`` (sorted) outside ``known``, naming
    its path (no reviewed cohere dialect exists yet)."""
    if item.keys() <= known:
        return
    first = min(str(member) for member in item if member not in known)
    raise ProtocolError(
        Code.UNSUPPORTED_EVENT,
        f"cohere {unknown_member_message(where + first[:40])}",
        key=key,
        event=pos,
    )
