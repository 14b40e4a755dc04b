"""AWS event-stream (``application/vnd.amazon.eventstream``) captures.

A capture is a sequence of frames::

    [total length u32][headers length u32][prelude CRC32 u32]
    [headers][payload][message CRC32 u32]

all big-endian; the prelude CRC covers the first 8 bytes, the message CRC
everything before it.  CRC32 is the IEEE one (:func:`zlib.crc32`).  A header
is ``[name length u8][name][type u8][value]`` with value types 0 true,
1 false, 2 byte, 3 short, 4 int, 5 long (signed, big-endian), 6 bytes and
7 string (u16 length prefix), 8 timestamp (i64 milliseconds), 9 UUID
(16 bytes).

Decoding is strict: a CRC mismatch, a truncated frame, a header running past
its section, an unknown header type, a duplicate or empty header name or
invalid UTF-8 is a :class:`CaptureError` naming the frame (numbered from 1)
and its byte offset - nothing is skipped.

Header values are rendered as strings: booleans ``"true"``/``"false"``,
integers and timestamps (milliseconds since the epoch) in decimal, bytes as
standard base64, UUIDs in canonical hex form.

A non-empty payload must be a JSON text (strict, like the other readers);
an empty payload gives a record of kind ``"empty"``.  The record's ``event``
is the ``:event-type`` header, or ``:exception-type`` for ``:message-type``
``exception`` frames and ``:error-code`` for ``error`` frames (these frames
are kept, never dropped).
"""

from __future__ import annotations

import base64
import datetime
import json
import struct
import uuid
import zlib
from collections.abc import Mapping
from typing import Any

from ._core import Capture, JSONProblem, Record, fail, loads_strict

__all__ = [
    "HeaderValue",
    "decode_frames",
    "encode_event",
    "encode_frame",
    "looks_like_eventstream",
    "read_eventstream",
]

_PRELUDE = 12
_MIN_FRAME = 16  # prelude + message CRC

HeaderValue = str | bytes | bool | int | uuid.UUID | datetime.datetime
"""What :func:`encode_frame` accepts as a header value (``int`` is encoded as
a 64-bit long, ``datetime`` as a timestamp)."""


def looks_like_eventstream(data: bytes) -> bool:
    """True when ``data`` starts with something that can only be a frame.

    Either the first prelude's CRC matches, or the first 12 bytes hold a NUL
    byte (the high bytes of the big-endian lengths of any frame below
    16 MiB), which no text capture has - unless they start with a UTF-16/32
    byte-order mark or look like UTF-16 text, which the text decoder rejects
    with a clearer message.  A corrupt first prelude thus still reaches the
    frame decoder and is reported as a CRC mismatch rather than as bad text.
    """
    head = data[:_PRELUDE]
    if len(head) == _PRELUDE:
        (crc,) = struct.unpack_from(">I", head, 8)
        if zlib.crc32(head[:8]) == crc:
            return True
    if head.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")):
        return False  # a UTF-16/UTF-32 byte-order mark, rejected by the text decoder
    return b"\x00" in head and not _utf16_like(head)


def _utf16_like(head: bytes) -> bool:
    """NULs at every even or every odd position, printable ASCII in between."""
    for zeros, chars in ((head[0::2], head[1::2]), (head[1::2], head[0::2])):
        if not zeros.strip(b"\x00") and all(0x09 <= c < 0x7F for c in chars):
            return True
    return False


class _Frame:
    __slots__ = ("headers", "number", "offset", "payload", "payload_offset")

    def __init__(
        self, number: int, offset: int, headers: dict[str, str], payload: bytes, payload_offset: int
    ) -> None:
        self.number = number
        self.offset = offset
        self.headers = headers
        self.payload = payload
        self.payload_offset = payload_offset


def _where(number: int, offset: int) -> str:
    return f"frame {number} at byte {offset}"


def decode_frames(data: bytes) -> list[tuple[dict[str, str], bytes]]:
    """Split event-stream bytes into ``(headers, payload)`` pairs, checking CRCs."""
    return [(f.headers, f.payload) for f in _frames(data)]


def _frames(data: bytes) -> list[_Frame]:
    frames: list[_Frame] = []
    offset = 0
    number = 0
    while offset < len(data):
        number += 1
        where = _where(number, offset)
        remaining = len(data) - offset
        if remaining < _PRELUDE:
            fail(f"truncated frame: {remaining} byte(s), a prelude needs {_PRELUDE}", where)
        total, headers_len, prelude_crc = struct.unpack_from(">III", data, offset)
        actual = zlib.crc32(data[offset : offset + 8])
        if actual != prelude_crc:
            fail(
                f"prelude CRC mismatch (stored {prelude_crc:#010x}, computed {actual:#010x})", where
            )
        if total < _MIN_FRAME:
            fail(f"frame length {total} is below the minimum of {_MIN_FRAME}", where)
        if headers_len > total - _MIN_FRAME:
            fail(f"headers length {headers_len} does not fit in a {total}-byte frame", where)
        if total > remaining:
            fail(f"truncated frame: declares {total} bytes, only {remaining} remain", where)
        end = offset + total
        (message_crc,) = struct.unpack_from(">I", data, end - 4)
        actual = zlib.crc32(data[offset : end - 4])
        if actual != message_crc:
            fail(
                f"message CRC mismatch (stored {message_crc:#010x}, computed {actual:#010x})", where
            )
        headers_start = offset + _PRELUDE
        payload_start = headers_start + headers_len
        headers = _parse_headers(data, headers_start, payload_start, where)
        frames.append(_Frame(number, offset, headers, data[payload_start : end - 4], payload_start))
        offset = end
    return frames


def _parse_headers(data: bytes, pos: int, end: int, where: str) -> dict[str, str]:
    headers: dict[str, str] = {}

    def take(count: int, what: str) -> bytes:
        nonlocal pos
        if pos + count > end:
            fail(
                f"header {what} at byte {pos} runs past the headers section (ends at byte {end})",
                where,
            )
        chunk = data[pos : pos + count]
        pos += count
        return chunk

    def text(raw: bytes, at: int, what: str) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            fail(f"header {what} is not UTF-8 (byte {at + exc.start})", where)

    while pos < end:
        name_len = take(1, "name length")[0]
        if name_len == 0:
            fail(f"empty header name at byte {pos - 1}", where)
        name_at = pos
        name = text(take(name_len, "name"), name_at, "name")
        type_at = pos
        kind = take(1, f"{name!r} type")[0]
        value: str
        if kind == 0:
            value = "true"
        elif kind == 1:
            value = "false"
        elif kind in (2, 3, 4, 5, 8):
            size, fmt = {2: (1, ">b"), 3: (2, ">h"), 4: (4, ">i"), 5: (8, ">q"), 8: (8, ">q")}[kind]
            (number,) = struct.unpack(fmt, take(size, f"{name!r} value"))
            value = str(number)
        elif kind in (6, 7):
            (length,) = struct.unpack(">H", take(2, f"{name!r} value length"))
            value_at = pos
            raw = take(length, f"{name!r} value")
            value = (
                base64.b64encode(raw).decode("ascii")
                if kind == 6
                else text(raw, value_at, f"{name!r} value")
            )
        elif kind == 9:
            value = str(uuid.UUID(bytes=take(16, f"{name!r} value")))
        else:
            fail(f"header {name!r} has unknown value type {kind} at byte {type_at}", where)
        if name in headers:
            fail(f"duplicate header {name!r} at byte {name_at - 1}", where)
        headers[name] = value
    return headers


def _record(frame: _Frame, warnings: list[str]) -> Record:
    where = _where(frame.number, frame.offset)
    headers = frame.headers
    message_type = headers.get(":message-type", "event")
    if message_type == "exception":
        event = headers.get(":exception-type")
    elif message_type == "error":
        event = headers.get(":error-code")
    else:
        if message_type != "event":
            warnings.append(f"{where}: unknown :message-type {message_type[:40]!r}")
        event = headers.get(":event-type")
    if not frame.payload:
        return Record(payload=None, event=event, location=where, headers=headers, kind="empty")
    try:
        text = frame.payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        fail(f"payload is not UTF-8 (byte {frame.payload_offset + exc.start})", where)
    try:
        payload = loads_strict(text)
    except JSONProblem as exc:
        content_type = headers.get(":content-type")
        ct = f" (:content-type {content_type!r})" if content_type else ""
        fail(f"payload is not valid JSON{ct}: {exc.message}", where)
    return Record(payload=payload, event=event, location=where, headers=headers)


def read_eventstream(data: bytes) -> Capture:
    """Decode event-stream bytes into a :class:`Capture` (``"aws-eventstream"``)."""
    warnings: list[str] = []
    records = tuple(_record(frame, warnings) for frame in _frames(data))
    return Capture(format="aws-eventstream", records=records, warnings=tuple(warnings))


# --------------------------------------------------------------------------
# encoding (for tests and fixtures)


def _encode_header(name: str, value: HeaderValue) -> bytes:
    raw_name = name.encode("utf-8")
    if not 1 <= len(raw_name) <= 255:
        raise ValueError(f"header name must be 1-255 bytes, got {len(raw_name)}")
    out = bytes([len(raw_name)]) + raw_name
    if isinstance(value, bool):
        return out + bytes([0 if value else 1])
    if isinstance(value, int):
        return out + b"\x05" + struct.pack(">q", value)
    if isinstance(value, uuid.UUID):
        return out + b"\x09" + value.bytes
    if isinstance(value, datetime.datetime):
        millis = int(value.timestamp() * 1000)
        return out + b"\x08" + struct.pack(">q", millis)
    raw = value if isinstance(value, bytes) else value.encode("utf-8")
    if len(raw) > 0xFFFF:
        raise ValueError(f"header {name!r} value is longer than 65535 bytes")
    type_byte = b"\x06" if isinstance(value, bytes) else b"\x07"
    return out + type_byte + struct.pack(">H", len(raw)) + raw


def encode_frame(headers: Mapping[str, HeaderValue], payload: bytes) -> bytes:
    """Build one event-stream frame (``str`` header values become type 7 strings)."""
    raw_headers = b"".join(_encode_header(name, value) for name, value in headers.items())
    total = _MIN_FRAME + len(raw_headers) + len(payload)
    if total > 0xFFFFFFFF:
        raise ValueError("frame longer than 4 GiB")
    prelude = struct.pack(">II", total, len(raw_headers))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    body = prelude + raw_headers + payload
    return body + struct.pack(">I", zlib.crc32(body))


def encode_event(event_type: str, payload: Any) -> bytes:
    """Build a Bedrock-style ``event`` frame carrying ``payload`` as compact JSON."""
    headers = {
        ":event-type": event_type,
        ":content-type": "application/json",
        ":message-type": "event",
    }
    body = json.dumps(payload, separators=(",", ":"), allow_nan=False).encode("utf-8")
    return encode_frame(headers, body)
