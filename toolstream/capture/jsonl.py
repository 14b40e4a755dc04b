"""JSON Lines and JSON-array captures.

JSON Lines: one JSON object per line; lines end with LF (a CR before it is
dropped); blank lines (JSON whitespace only) are skipped.  Anything else on a
line - a second value, a non-object, invalid JSON, NaN/Infinity, a duplicate
key - is a :class:`CaptureError` naming the line.  Lines are split at LF
only, never at U+2028 or other characters :meth:`str.splitlines` would use.

JSON array: the whole file is one array whose elements are all objects.

Both produce records with ``event=None`` (JSON-array records are located as
``"line L, element I"``, elements numbered from 0): vercel-style captures have no SSE
framing, and Bedrock-style ``{"<eventType>": payload}`` lines are kept as
they are for the profile layer to unwrap.
"""

from __future__ import annotations

from ._core import (
    JSON_WS,
    Capture,
    JSONProblem,
    Record,
    decode_text,
    fail,
    line_col,
    loads_strict,
    raw_decode_strict,
)

__all__ = ["parse_json_array", "parse_jsonl", "read_json_array", "read_jsonl"]


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def parse_jsonl(text: str) -> Capture:
    """Parse JSON Lines text into a :class:`Capture` (format ``"jsonl"``)."""
    records: list[Record] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\r"):
            line = line[:-1]
        if line.strip(JSON_WS) == "":
            continue
        try:
            payload = loads_strict(line)
        except JSONProblem as exc:
            where = f"line {number}" if exc.pos is None else f"line {number}, column {exc.pos + 1}"
            fail(f"not a JSON object: {exc.message}", where)
        if not isinstance(payload, dict):
            fail(f"expected a JSON object, got {_type_name(payload)}", f"line {number}")
        records.append(Record(payload=payload, event=None, location=f"line {number}"))
    return Capture(format="jsonl", records=tuple(records))


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in JSON_WS:
        pos += 1
    return pos


def parse_json_array(text: str) -> Capture:
    """Parse a top-level JSON array of objects (format ``"json-array"``)."""

    def where(pos: int) -> str:
        line, col = line_col(text, min(pos, len(text)))
        return f"line {line}, column {col}"

    pos = _skip_ws(text, 0)
    if pos >= len(text) or text[pos] != "[":
        fail("expected a JSON array", where(pos))
    pos = _skip_ws(text, pos + 1)
    records: list[Record] = []
    if pos < len(text) and text[pos] == "]":
        pos += 1
    else:
        while True:
            start = pos
            try:
                value, pos = raw_decode_strict(text, pos)
            except JSONProblem as exc:
                fail(
                    f"array element {len(records)}: {exc.message}",
                    where(start if exc.pos is None else exc.pos),
                )
            if not isinstance(value, dict):
                fail(
                    f"array element {len(records)} is a {_type_name(value)}, expected an object",
                    where(start),
                )
            line, _ = line_col(text, start)
            location = f"line {line}, element {len(records)}"
            records.append(Record(payload=value, event=None, location=location))
            pos = _skip_ws(text, pos)
            if pos < len(text) and text[pos] == ",":
                pos = _skip_ws(text, pos + 1)
                continue
            if pos < len(text) and text[pos] == "]":
                pos += 1
                break
            fail("expected ',' or ']' in the array", where(pos))
    end = _skip_ws(text, pos)
    if end != len(text):
        fail("extra data after the JSON array", where(end))
    return Capture(format="json-array", records=tuple(records))


def read_jsonl(data: bytes) -> Capture:
    """Decode strict UTF-8 bytes and parse them as JSON Lines."""
    text, _ = decode_text(data)
    return parse_jsonl(text)


def read_json_array(data: bytes) -> Capture:
    """Decode strict UTF-8 bytes and parse them as a JSON array of objects."""
    text, _ = decode_text(data)
    return parse_json_array(text)
