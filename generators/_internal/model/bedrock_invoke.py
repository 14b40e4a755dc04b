"""Amazon Bedrock InvokeModelWithResponseStream events (``events``), for
Anthropic models.

Each item is a frame ``{"chunk": {"bytes": "<base64>"}}`` whose bytes are
one Anthropic Messages event: the turn is read and written by the
:mod:`.anthropic` row's own ``parse`` and ``render``, and this module only
unwraps and wraps the frames.  An item that is not an Anthropic event (one
without a ``type``: an exception frame, a cut ``chunk``, another wire's
frame) is a frame already and is sent as it is.  The payloads are written
as ``json.dumps(event, ensure_ascii=False)`` (UTF-8, the style of the
shipped seed).
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import replace
from typing import Any

from . import anthropic
from .turn import Call, ModelError, Turn
from .wire import modelable


def wrap(event: Any) -> dict[str, Any]:
    """The ``chunk`` frame carrying ``event``."""
    data = json.dumps(event, ensure_ascii=False).encode("utf-8")
    return frame(data)


def frame(data: bytes) -> dict[str, Any]:
    """A ``chunk`` frame whose payload is ``data`` (any bytes)."""
    return chunk(base64.b64encode(data).decode("ascii"))


def chunk(text: str) -> dict[str, Any]:
    """A ``chunk`` frame holding base64 text ``text`` as it is (valid or not)."""
    return {"chunk": {"bytes": text}}


def payload(item: Any) -> str | None:
    """The base64 text of a ``chunk`` frame (``None`` for anything else)."""
    body = item.get("chunk") if isinstance(item, dict) and len(item) == 1 else None
    data = body.get("bytes") if isinstance(body, dict) else None
    return data if isinstance(data, str) else None


def readable(data: str) -> bool:
    """Whether base64 text ``data`` is what a ``chunk`` frame must hold:
    canonical base64 of UTF-8 text that is one JSON value."""
    try:
        decoded = base64.b64decode(data, validate=True)
        if base64.b64encode(decoded).decode("ascii") != data:
            return False
        json.loads(decoded.decode("utf-8"))
    except (binascii.Error, ValueError):
        return False
    return True


def is_event(item: Any) -> bool:
    """Whether ``item`` is an Anthropic event (to be wrapped), not a frame."""
    return isinstance(item, dict) and "type" in item


def unwrap(item: Any) -> Any:
    """The event a ``chunk`` frame carries; any other frame as it is."""
    body = item.get("chunk") if isinstance(item, dict) and len(item) == 1 else None
    if not isinstance(body, dict):
        return item
    try:
        event = json.loads(base64.b64decode(body["bytes"], validate=True).decode("utf-8"))
    except (binascii.Error, ValueError) as error:
        raise ModelError(f"a chunk frame that does not hold one JSON event ({error})") from None
    if not is_event(event):
        raise ModelError("a chunk frame whose event has no 'type'")
    return event


def _parse_events(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    turn = anthropic.WIRE.parse([unwrap(item) for item in stream], schemas, request)
    turn.wire = WIRE
    return turn


def _render(turn: Turn) -> list[Any]:
    return [wrap(e) if is_event(e) else e for e in anthropic.WIRE.render(turn)]


def _exception(kind: str) -> dict[str, Any]:
    return {kind: {"message": "The model stream failed"}}


def _scratch(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    """The Anthropic turn in frames, with the request's Claude ``modelId``."""
    turn = anthropic.WIRE.scratch(draw, calls, schemas)
    turn.wire = WIRE
    turn.request = {"modelId": "anthropic.claude-sonnet-4-20250514-v1:0"}
    return turn


# An InvokeModelWithResponseStream frame (its bytes: base64 of Anthropic's
# {"type":"message_stop"}): the one foreign item that is also a Bedrock
# frame (one member, an object payload), so a ConverseStream case holding
# it can still be played over the event-stream wire.
_FOREIGN_SAMPLE = {"chunk": {"bytes": "eyJ0eXBlIjoibWVzc2FnZV9zdG9wIn0="}}

WIRE = replace(
    anthropic.WIRE,
    profile="bedrock-invoke",
    scratch=_scratch,
    foreign_sample=_FOREIGN_SAMPLE,
    # Frames: an item of another wire that is one (a ConverseStream event);
    # the events inside the frames are Anthropic's, whose closed world the
    # anthropic row already holds.  Its noise is Anthropic's, inside the
    # frames.
    refuses=("bedrock",),
    id_prefix="toolu_",
    parse=modelable("bedrock-invoke", _parse_events),
    render=_render,
    error_events=(
        *(
            _exception(kind)
            for kind in (
                "modelStreamErrorException",
                "internalServerException",
                "throttlingException",
                "serviceUnavailableException",
                "validationException",
                "modelTimeoutException",
            )
        ),
        *anthropic.WIRE.error_events,
    ),
    frames=True,
    closed_world=True,
)
"""The ``anthropic`` row with the frames around its events, and Bedrock's
exception frames beside Anthropic's in-stream ``error`` events."""
