"""Amazon Bedrock InvokeModelWithResponseStream events.

Each event is an object with one key naming its type, as the event-stream's
``:event-type`` header does (the form ``toolstream import`` writes):
``{"chunk": {"bytes": "<base64>"}}`` is a ``PayloadPart`` whose bytes are
one event of the model's own stream, as its native API would send it.

The wrapped stream is read by the profile of its model family; only
Anthropic (Claude: Messages API events, read by the ``anthropic`` profile,
slots and rules included) is supported.  The family is the request's
``modelId`` when the fixture's ``request`` has one (a model id, inference
profile or ARN naming ``anthropic.``), else the first payload's shape (an
Anthropic Messages event ``type``).  Any other family is
``unsupported_model_family``, fatal: such a capture is refused, never read
as an empty turn.

A chunk whose ``bytes`` is not strict base64 of strict UTF-8 JSON (a frame
cut in half, say) is ``unsupported_event``: what it carried is unknown.
Exceptions (``internalServerException``, ``modelStreamErrorException``,
``validationException``, ``throttlingException``,
``modelTimeoutException``, ``serviceUnavailableException``, any type ending
in ``Exception``) are ``provider_error``.  Any other event type is
``unsupported_event``; any finding blocks the turn.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from toolstream.events import Event
from toolstream.findings import Code, ProtocolError
from toolstream.profiles._base import (
    Profile,
    SlotPiece,
    StreamPath,
    WrappedEvents,
    describe,
    provider_error,
)
from toolstream.profiles.anthropic import AnthropicMessages
from toolstream.profiles.dialects import unknown_member_message
from toolstream.strict_json import loads_strict

ANTHROPIC_MESSAGE_EVENTS = frozenset(
    {
        "message_start",
        "message_delta",
        "message_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "ping",
        "error",
    }
)


_PAYLOAD_PART = frozenset({"bytes"})
"""The members of a ``chunk`` (the AWS API's ``PayloadPart``: ``bytes``, the
base64 of one model event); anything else may carry what is not read."""


class BedrockInvoke(Profile):
    name = "bedrock-invoke"
    stream_key = "events"
    stream_description = "Bedrock InvokeModelWithResponseStream chunk events"
    named_events = True
    has_choices = False
    closed_world = True

    @classmethod
    def recognises(cls, item: Mapping[str, Any]) -> bool:
        body = item.get("chunk")
        return len(item) == 1 and isinstance(body, dict) and "bytes" in body

    @classmethod
    def recognises_event_name(cls, name: str) -> bool:
        return name == "chunk"  # a PayloadPart

    def __init__(self, request: Any, limits: Any) -> None:
        super().__init__(request, limits)
        self._inner: Profile | None = None
        model = self.request.get("modelId")
        self._model = model if type(model) is str else None

    @classmethod
    def wrapped_events(cls, items: Sequence[Any]) -> WrappedEvents:
        """The Anthropic events inside the ``chunk`` frames, each with the
        path of its frame's ``bytes``; a frame that does not decode (one
        the profile would reject) is left out."""
        out: list[tuple[StreamPath, Any]] = []
        for i, event in enumerate(items):
            body = event.get("chunk") if isinstance(event, dict) and len(event) == 1 else None
            data = body.get("bytes") if isinstance(body, dict) else None
            if not isinstance(data, str):
                continue
            try:
                decoded = json.loads(base64.b64decode(data, validate=True).decode("utf-8"))
            except (binascii.Error, ValueError, RecursionError):
                continue
            out.append(((i, "chunk", "bytes"), decoded))
        return AnthropicMessages.name, out

    @classmethod
    def encode_wrapped(cls, event: Any) -> str:
        # ASCII JSON: a lone surrogate the event may hold stays an escape.
        return base64.b64encode(json.dumps(event).encode("ascii")).decode("ascii")

    @classmethod
    def slot_pieces(cls, items: Sequence[Any]) -> Iterator[SlotPiece]:
        """The pieces the ``anthropic`` profile finds in the wrapped events,
        each at its whole ``chunk`` frame.  The argument text is inside the
        base64 ``bytes``, where no path can point at it: no piece carries
        text, none is plain (a frame is dropped, never merged); tools that
        read the text read :meth:`wrapped_events`."""
        _, frames = cls.wrapped_events(items)
        inner = [event for _, event in frames]
        for piece in AnthropicMessages.slot_pieces(inner):
            yield SlotPiece(piece.slot, (frames[int(piece.path[0])][0][0],))

    def feed(self, raw: Any, pos: int) -> Iterable[Event]:
        if type(raw) is dict and len(raw) > 1:
            # One member names the event (a PayloadPart or an exception); a
            # member beside it is one the event-stream never puts there.
            named = [k for k in raw if k == "chunk" or str(k).endswith("Exception")]
            if len(named) == 1:
                first = min(str(member) for member in raw if member != named[0])
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"bedrock-invoke {unknown_member_message(first[:40])}",
                    event=pos,
                )
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
        if kind.endswith("Exception"):
            raise provider_error(body, pos, title=kind[:60])
        if kind != "chunk":
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown event type {kind[:60]!r}", event=pos
            )
        if not body.keys() <= _PAYLOAD_PART:
            first = min(str(member) for member in body if member not in _PAYLOAD_PART)
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"bedrock-invoke {unknown_member_message('chunk.' + first[:40])}",
                event=pos,
            )
        inner_event = self._unwrap(body, pos)
        return self._inner_profile(inner_event, pos).feed(inner_event, pos)

    def _unwrap(self, body: dict[str, Any], pos: int) -> Any:
        data = body.get("bytes")
        if type(data) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"chunk.bytes is {describe(data)}, not a base64 string",
                event=pos,
            )
        if len(data) > self.limits.max_fixture_bytes:
            raise ProtocolError(Code.LIMIT_EXCEEDED, "chunk.bytes is too large", event=pos)
        try:
            decoded = base64.b64decode(data, validate=True)
            if base64.b64encode(decoded).decode("ascii") != data:
                raise ValueError("not the canonical encoding")
            text = decoded.decode("utf-8")
        except (binascii.Error, ValueError):
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                "chunk.bytes is not strict base64 of UTF-8 text (a cut or corrupted frame?)",
                event=pos,
            ) from None
        try:
            return loads_strict(
                text,
                max_depth=self.limits.max_fixture_depth,
                max_number_chars=self.limits.max_number_chars,
                allow_lone_surrogates=True,
            )
        except ProtocolError as error:
            code = Code.UNSUPPORTED_EVENT
            if error.code is Code.LIMIT_EXCEEDED:
                code = Code.LIMIT_EXCEEDED
            raise ProtocolError(
                code, f"chunk.bytes is not one strict JSON event: {error.message}", event=pos
            ) from None

    def _inner_profile(self, event: Any, pos: int) -> Profile:
        if self._inner is not None:
            return self._inner
        if self._model is not None:
            family = "anthropic" if "anthropic." in self._model else None
            seen = f"the request's modelId {self._model[:60]!r}"
        else:
            kind = event.get("type") if type(event) is dict else None
            known = type(kind) is str and kind in ANTHROPIC_MESSAGE_EVENTS
            family = "anthropic" if known else None
            seen = (
                f"the first payload (type {kind[:40]!r})"
                if type(kind) is str
                else f"the first payload ({describe(event)} without a string 'type')"
            )
        if family is None:
            raise ProtocolError(
                Code.UNSUPPORTED_MODEL_FAMILY,
                f"{seen} is not an Anthropic model's stream; bedrock-invoke reads only"
                " Anthropic Messages events (use the bedrock profile for ConverseStream)",
                event=pos,
                fatal=True,
            )
        inner = AnthropicMessages(self.request, self.limits)
        # The dialects this profile was given are the inner one's, and those
        # it meets are reported as this profile's.
        inner.use_dialects, inner.forced = self.use_dialects, self.forced
        inner.dialects_seen = self.dialects_seen
        self._inner = inner
        return inner
