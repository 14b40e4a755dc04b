"""Shared types and strict decoding helpers for the capture readers.

Everything here is re-exported by :mod:`toolstream.capture`; import from there.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Literal, NoReturn

CaptureFormat = Literal["sse", "jsonl", "json-array", "aws-eventstream"]
"""The wire formats :func:`toolstream.capture.read_capture` recognises."""

RecordKind = Literal["json", "done", "empty"]
"""What a :class:`Record` holds.

``"json"``
    ``payload`` is the parsed JSON value of the event.
``"done"``
    An SSE ``data: [DONE]`` end marker.  ``payload`` is ``None`` and
    ``event`` is ``"[DONE]"``.
``"empty"``
    An event that carried no payload: an SSE block with ``event:``/``id:``/
    ``retry:`` fields but no ``data:`` line (WHATWG would not dispatch it;
    we keep it so nothing disappears silently), or an event-stream frame
    with a zero-length payload.  ``payload`` is ``None``.
"""

DONE = "[DONE]"
"""The ``event`` of an SSE end-marker record."""


class CaptureError(Exception):
    """A capture cannot be read.

    The only exception the capture readers raise on bad input.  The message
    always starts with where the problem is (``"line 12: ..."``,
    ``"byte 3048: ..."``, ``"frame 3 at byte 3048: ..."``); the same text is
    available as :attr:`location` (``None`` when the problem concerns the
    input as a whole, e.g. an unrecognised format).
    """

    def __init__(self, message: str, *, location: str | None = None) -> None:
        super().__init__(f"{location}: {message}" if location else message)
        self.location = location
        self.reason = message


CaptureError.__module__ = "toolstream.capture"


@dataclass(frozen=True)
class Record:
    """One event of a capture, in wire order.

    ``payload``
        The parsed JSON value (``kind == "json"``), else ``None``.
    ``event``
        The SSE ``event:`` name (``None`` when the block had no, or an empty,
        ``event:`` field - WHATWG would call it ``"message"``); for
        event-stream frames the ``:event-type`` header (``:exception-type``
        for ``:message-type`` ``exception`` frames, ``:error-code`` for
        ``error`` frames); ``"[DONE]"`` for an SSE end marker; ``None`` for
        JSON Lines and JSON arrays (Bedrock-style ``{"<eventType>": payload}``
        lines are left as they are - the profile layer unwraps them).
    ``location``
        Where the event starts: ``"line 12"`` (SSE: the first ``data:`` line,
        or the first field line of an ``"empty"`` block; JSON Lines and JSON
        arrays: the line where the object starts) or ``"frame 3 at byte 3048"``
        (event-stream, frames numbered from 1).
    ``headers``
        Event-stream frame headers (values rendered as strings, see
        :mod:`toolstream.capture.eventstream`); ``None`` for text formats.
    ``kind``
        See :data:`RecordKind`.
    ``event_id``
        SSE only: the last event ID in effect when the event was dispatched
        (WHATWG semantics: an ``id:`` field persists for later events).
    """

    payload: Any
    event: str | None
    location: str
    headers: dict[str, str] | None = None
    kind: RecordKind = "json"
    event_id: str | None = None

    @property
    def is_done_marker(self) -> bool:
        """True for an SSE ``data: [DONE]`` end marker."""
        return self.kind == "done"


@dataclass(frozen=True)
class Capture:
    """A decoded capture file.

    ``records`` holds every event in wire order, including ``[DONE]`` markers
    (``kind == "done"``) and payload-less events (``kind == "empty"``).
    ``warnings`` lists things the reader tolerated rather than rejected, each
    naming its line or byte (for example an unknown SSE field, which WHATWG
    parsing ignores); it is empty for a clean capture.
    """

    format: CaptureFormat
    records: tuple[Record, ...]
    warnings: tuple[str, ...] = ()

    @property
    def done_markers(self) -> int:
        """How many SSE ``data: [DONE]`` markers the capture contains."""
        return sum(1 for r in self.records if r.kind == "done")

    @property
    def json_records(self) -> tuple[Record, ...]:
        """The records that carry a JSON payload (``kind == "json"``)."""
        return tuple(r for r in self.records if r.kind == "json")


# --------------------------------------------------------------------------
# strict text decoding


_UTF8_BOM = b"\xef\xbb\xbf"


def decode_text(data: bytes) -> tuple[str, int]:
    """Decode ``data`` as strict UTF-8.

    Returns the text and the number of bytes stripped in front of it (3 for
    a UTF-8 BOM, else 0).  UTF-16/UTF-32 byte-order marks, invalid UTF-8 and
    NUL bytes raise :class:`CaptureError` naming the byte offset.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        fail("UTF-16/UTF-32 byte-order mark; captures must be UTF-8", "byte 0")
    if data.startswith((b"\x00\x00\xfe\xff",)):
        fail("UTF-32 byte-order mark; captures must be UTF-8", "byte 0")
    skip = len(_UTF8_BOM) if data.startswith(_UTF8_BOM) else 0
    body = data[skip:]
    try:
        text = body.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        fail(f"invalid UTF-8 ({exc.reason})", f"byte {skip + exc.start}")
    nul = body.find(b"\x00")
    if nul >= 0:
        fail("NUL byte in a text capture (UTF-16 without a BOM?)", f"byte {skip + nul}")
    return text, skip


def fail(message: str, location: str | None = None) -> NoReturn:
    """Raise :class:`CaptureError`."""
    raise CaptureError(message, location=location)


# --------------------------------------------------------------------------
# strict JSON


class JSONProblem(Exception):
    """Why a JSON text was rejected; ``pos`` is a character offset or None."""

    def __init__(self, message: str, pos: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


def _reject_constant(name: str) -> Any:
    raise JSONProblem(f"non-standard JSON constant {name}")


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONProblem(f"number {text[:20]} overflows to infinity")
    return value


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise JSONProblem(f"duplicate key {json.dumps(key)[:60]}")
        out[key] = value
    return out


_DECODER = json.JSONDecoder(
    object_pairs_hook=_unique_pairs,
    parse_constant=_reject_constant,
    parse_float=_parse_float,
    strict=True,
)

JSON_WS = " \t\r\n"


def raw_decode_strict(text: str, pos: int) -> tuple[Any, int]:
    """Decode one JSON value starting exactly at ``pos``; return it and its end.

    Rejects NaN/Infinity, numbers overflowing to infinity, duplicate keys and
    nesting too deep for the parser, raising :class:`JSONProblem`.
    """
    try:
        return _DECODER.raw_decode(text, pos)
    except JSONProblem:
        raise
    except json.JSONDecodeError as exc:
        raise JSONProblem(exc.msg, exc.pos) from None
    except RecursionError:
        raise JSONProblem("JSON nested too deeply") from None
    except ValueError as exc:  # e.g. an integer with too many digits
        raise JSONProblem(str(exc)) from None


def loads_strict(text: str) -> Any:
    """Parse a complete JSON text (surrounding JSON whitespace allowed)."""
    start = len(text) - len(text.lstrip(JSON_WS))
    if start == len(text):
        raise JSONProblem("empty, expected a JSON value", start)
    value, end = raw_decode_strict(text, start)
    rest = len(text) - len(text[end:].lstrip(JSON_WS))
    if rest != len(text):
        raise JSONProblem("extra data after the JSON value", rest)
    return value


def line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of character ``pos`` (lines split at ``\\n``)."""
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col
