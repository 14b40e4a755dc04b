"""Amazon Bedrock ConverseStream events.

Each event is an object with one key naming its type, as the event-stream's
``:event-type`` header does: ``{"contentBlockDelta": {...}}``.  Slot key:
``(0, contentBlockIndex)``.  A tool call starts with
``contentBlockStart.start.toolUse`` (``toolUseId``, ``name``); fragments are
``contentBlockDelta.delta.toolUse.input`` strings; the terminal is
``contentBlockStop``; the turn needs ``messageStop.stopReason == "tool_use"``.
Text and reasoning blocks have no start event: their first delta opens them.
Padding fields (``p``) are ignored.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolstream.events import BLOCK, CLIENT, Begin, End, Event, Finish, Fragment, Open, Stop
from toolstream.findings import Code, ProtocolError
from toolstream.profiles._base import Profile, describe, optional_text, slot_index

_TEXT_DELTAS = frozenset({"text", "reasoningContent", "citation", "image"})


class Bedrock(Profile):
    name = "bedrock"
    stream_key = "events"
    has_choices = False

    def __init__(self, request: Any, limits: Any) -> None:
        super().__init__(request, limits)
        self._kinds: dict[int, str] = {}

    def feed(self, raw: Any, pos: int) -> Iterator[Event]:
        if type(raw) is not dict or len(raw) != 1:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                "event is not an object with exactly one key naming its type",
                event=pos,
            )
        ((kind, body),) = raw.items()
        if type(body) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"{kind[:40]} payload is not an object", event=pos
            )
        if kind == "contentBlockDelta":
            yield from self._delta(body, pos)
        elif kind == "contentBlockStart":
            yield from self._start(body, pos)
        elif kind == "contentBlockStop":
            index = slot_index(body.get("contentBlockIndex"), "contentBlockIndex", pos, self.limits)
            yield End(pos=pos, key=(0, index))
        elif kind == "messageStart":
            yield Begin(pos=pos, scope=0)
        elif kind == "messageStop":
            reason = body.get("stopReason")
            if type(reason) is not str:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"stopReason is {describe(reason)}, not a string",
                    event=pos,
                )
            tool_use = reason == "tool_use"
            yield Finish(
                pos=pos, scope=0, reason=reason, accepted=tool_use, claims_tools=tool_use,
                ends_slots=False,
            )
            yield Stop(pos=pos, scope=0)
        elif kind == "metadata":
            return
        elif kind.endswith("Exception"):
            message = body.get("message")
            text = message[:120] if isinstance(message, str) else "no message"
            raise ProtocolError(Code.PROVIDER_ERROR, f"{kind[:60]}: {text}", event=pos)
        else:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown event type {kind[:60]!r}", event=pos
            )

    def _start(self, body: dict[str, Any], pos: int) -> Iterator[Event]:
        index = slot_index(body.get("contentBlockIndex"), "contentBlockIndex", pos, self.limits)
        key = (0, index)
        start = body.get("start")
        tool = start.get("toolUse") if type(start) is dict else None
        if type(tool) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "contentBlockStart without start.toolUse", event=pos
            )
        self._kinds.setdefault(index, CLIENT)
        yield Open(
            pos=pos,
            key=key,
            id=optional_text(tool.get("toolUseId"), "toolUseId", key, pos),
            name=optional_text(tool.get("name"), "name", key, pos),
            kind=CLIENT,
        )

    def _delta(self, body: dict[str, Any], pos: int) -> Iterator[Event]:
        index = slot_index(body.get("contentBlockIndex"), "contentBlockIndex", pos, self.limits)
        key = (0, index)
        delta = body.get("delta")
        if type(delta) is not dict or len(delta) != 1:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "delta is not an object with one key", event=pos
            )
        ((delta_type, value),) = delta.items()
        target = self._kinds.get(index)
        if delta_type == "toolUse":
            if target == BLOCK:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT, f"toolUse delta for text block {index}", event=pos
                )
            text = value.get("input") if type(value) is dict else None
            if type(text) is not str:
                raise ProtocolError(
                    Code.NON_STRING_FRAGMENT,
                    f"toolUse.input is {describe(text)}, not a string",
                    key=key,
                    event=pos,
                )
            yield Fragment(pos=pos, key=key, id=None, name=None, text=text)
        elif delta_type in _TEXT_DELTAS:
            if target == CLIENT:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT, f"{delta_type} delta for tool block {index}", event=pos
                )
            if target is None:
                self._kinds[index] = BLOCK
                yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
            yield Fragment(pos=pos, key=key, id=None, name=None, text=None)
        else:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown delta type {delta_type[:40]!r}", event=pos
            )
