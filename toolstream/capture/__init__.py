"""Wire-format layer: turn a recorded stream (bytes) into ordered records.

:func:`read_capture` detects the format from the content, never from a file
name:

``"aws-eventstream"``
    binary AWS event-stream: the data starts with a frame prelude whose CRC
    matches, or its first 12 bytes hold a NUL byte and are not UTF-16 text
    (so a corrupt first prelude is still reported as a CRC mismatch; see
    :mod:`.eventstream`);
``"json-array"``
    the first non-whitespace character is ``[``: one array of objects;
``"jsonl"``
    lines starting with ``{``: one JSON object per line (see :mod:`.jsonl`);
``"sse"``
    lines starting with an SSE field (``data:``, ``event:``, ``id:``,
    ``retry:``) or a ``:`` comment (see :mod:`.sse`).

Text must be strict UTF-8 (a UTF-8 BOM is stripped).  Input with both
JSON-object lines and SSE field lines is ambiguous and rejected, as is input
matching no format.  :class:`CaptureError` is the only exception raised on
bad input; its message names the line, byte or frame.

Records keep wire order and nothing is dropped silently: SSE ``[DONE]``
markers are records of kind ``"done"``, payload-less events are records of
kind ``"empty"``, and anything a reader tolerated is listed in
:attr:`Capture.warnings`.

Secrets: :mod:`.redact` (:func:`scan`, :func:`redact`) finds and masks
credentials in decoded payloads.
"""

from __future__ import annotations

import re

from ._core import (
    DONE,
    Capture,
    CaptureError,
    CaptureFormat,
    Record,
    RecordKind,
    decode_text,
    fail,
)
from .eventstream import encode_event, encode_frame, looks_like_eventstream, read_eventstream
from .jsonl import parse_json_array, parse_jsonl, read_json_array, read_jsonl
from .redact import Hit, redact, scan
from .sse import parse_sse, read_sse

__all__ = [
    "DONE",
    "FORMATS",
    "Capture",
    "CaptureError",
    "CaptureFormat",
    "Hit",
    "Record",
    "RecordKind",
    "detect_format",
    "encode_event",
    "encode_frame",
    "read_capture",
    "read_eventstream",
    "read_json_array",
    "read_jsonl",
    "read_sse",
    "redact",
    "scan",
]

FORMATS: tuple[CaptureFormat, ...] = ("sse", "jsonl", "json-array", "aws-eventstream")

# Line starts after CRLF, LF or CR (SSE allows CR-only line endings).
_SSE_LINE = re.compile(r"(?:\A|(?<=[\r\n]))(?:(?:data|event|id|retry)(?=[:\r\n]|\Z)|:)")
_JSON_LINE = re.compile(r"(?:\A|(?<=[\r\n]))[ \t]*\{")


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + text.count("\r", 0, pos) - text.count("\r\n", 0, pos) + 1


def _detect_text(text: str) -> CaptureFormat:
    stripped = text.lstrip(" \t\r\n")
    if not stripped:
        fail("empty capture (no content)")
    if stripped[0] == "[":
        return "json-array"
    json_line = _JSON_LINE.search(text)
    sse_line = _SSE_LINE.search(text)
    if json_line and sse_line:
        fail(
            "ambiguous capture: JSON-object lines (first at line "
            f"{_line_of(text, json_line.start())}) and SSE field lines (first at line "
            f"{_line_of(text, sse_line.start())})"
        )
    if json_line:
        return "jsonl"
    if sse_line:
        return "sse"
    fail(
        "not a recognised capture format (expected AWS event-stream, a JSON array, "
        "JSON Lines or SSE)"
    )


def detect_format(data: bytes | bytearray | memoryview) -> CaptureFormat:
    """Name the wire format of ``data``; :class:`CaptureError` if none fits."""
    data = bytes(data)
    if looks_like_eventstream(data):
        return "aws-eventstream"
    text, _ = decode_text(data)
    return _detect_text(text)


def read_capture(
    data: bytes | bytearray | memoryview, *, format: CaptureFormat | None = None
) -> Capture:
    """Decode a capture, detecting its format unless ``format`` is given."""
    if format is not None and format not in FORMATS:
        raise ValueError(f"unknown capture format {format!r}; expected one of {FORMATS}")
    data = bytes(data)
    if format == "aws-eventstream" or (format is None and looks_like_eventstream(data)):
        return read_eventstream(data)
    text, _ = decode_text(data)
    chosen = format or _detect_text(text)
    if chosen == "json-array":
        return parse_json_array(text)
    if chosen == "jsonl":
        return parse_jsonl(text)
    return parse_sse(text)
