"""Server-sent events (``text/event-stream``) captures.

Parsing follows the WHATWG EventSource rules
(https://html.spec.whatwg.org/multipage/server-sent-events.html):

* lines end with CRLF, LF or CR;
* a line starting with ``:`` is a comment and is ignored;
* ``field: value`` - one space after the colon is stripped; a line without a
  colon is a field with an empty value;
* ``event`` sets the event name, ``data`` lines are joined with ``"\\n"``,
  ``id`` sets the last event ID (ignored if it contains NUL), ``retry`` is
  accepted when it is all ASCII digits;
* a blank line dispatches the event.

Deliberate differences, so that a recorded file keeps every event:

* the last event is dispatched even without a trailing blank line or
  newline (WHATWG discards it; several real captures end that way);
* a block with ``event:``/``id:``/``retry:`` fields but no ``data:`` is kept
  as a :class:`Record` of kind ``"empty"`` (WHATWG does not dispatch it);
* unknown fields, and ``retry:`` values that are not digits, are ignored as
  WHATWG says, but each one is reported in :attr:`Capture.warnings`.  This
  includes a line with whitespace before its field name (``" data: {...}"``
  is the field ``" data"``), which is NOT read as ``data``.

Every ``data`` payload must be a JSON text (strict: no NaN/Infinity, no
duplicate keys), except ``[DONE]``, which becomes a record of kind
``"done"`` with ``event == "[DONE]"`` and ``payload is None`` (counted by
:attr:`Capture.done_markers`).  An empty ``data`` payload is an error.
"""

from __future__ import annotations

import re

from ._core import (
    DONE,
    Capture,
    JSONProblem,
    Record,
    decode_text,
    fail,
    line_col,
    loads_strict,
)

__all__ = ["iter_lines", "parse_sse", "read_sse"]

_EOL = re.compile(r"\r\n|\r|\n")
_KNOWN_FIELDS = ("event", "data", "id", "retry")


def iter_lines(text: str) -> list[tuple[int, str]]:
    """Split ``text`` into (1-based line number, line) at CRLF, LF or CR.

    A final line without a terminator is included; a terminator at the very
    end does not start another line.
    """
    lines: list[tuple[int, str]] = []
    pos = 0
    for number, match in enumerate(_EOL.finditer(text), start=1):
        lines.append((number, text[pos : match.start()]))
        pos = match.end()
    if pos < len(text):
        lines.append((len(lines) + 1, text[pos:]))
    return lines


class _Block:
    """Field buffers of the event being assembled."""

    def __init__(self) -> None:
        self.event: str | None = None
        self.data: list[tuple[int, str]] = []
        self.first_field_line: int | None = None

    def touch(self, number: int) -> None:
        if self.first_field_line is None:
            self.first_field_line = number


def parse_sse(text: str) -> Capture:
    """Parse SSE text into a :class:`Capture` (format ``"sse"``)."""
    records: list[Record] = []
    warnings: list[str] = []
    last_event_id: str | None = None
    block = _Block()

    def dispatch() -> None:
        nonlocal block
        if block.data:
            records.append(_data_record(block, last_event_id, warnings))
        elif block.first_field_line is not None:
            records.append(
                Record(
                    payload=None,
                    event=block.event,
                    location=f"line {block.first_field_line}",
                    kind="empty",
                    event_id=last_event_id,
                )
            )
        block = _Block()

    for number, line in iter_lines(text):
        if line == "":
            dispatch()
            continue
        if line.startswith(":"):
            continue
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "event":
            block.touch(number)
            block.event = value or None
        elif name == "data":
            block.touch(number)
            block.data.append((number, value))
        elif name == "id":
            block.touch(number)
            if "\x00" not in value:
                last_event_id = value
        elif name == "retry":
            block.touch(number)
            if not (value and value.isascii() and value.isdigit()):
                warnings.append(f"line {number}: retry value {value[:40]!r} is not digits; ignored")
        else:
            hint = ""
            if name.strip() in _KNOWN_FIELDS:
                hint = " (whitespace before the field name; WHATWG treats it as another field)"
            warnings.append(f"line {number}: unknown SSE field {name[:40]!r} ignored{hint}")
    dispatch()
    return Capture(format="sse", records=tuple(records), warnings=tuple(warnings))


def _data_record(block: _Block, last_event_id: str | None, warnings: list[str]) -> Record:
    first = block.data[0][0]
    data = "\n".join(value for _, value in block.data)
    if data == DONE:
        if block.event is not None:
            warnings.append(f"line {first}: event name {block.event[:40]!r} on a [DONE] marker")
        return Record(
            payload=None, event=DONE, location=f"line {first}", kind="done", event_id=last_event_id
        )
    if data.strip() == "":
        fail("data is empty, expected JSON", f"line {first}")
    try:
        payload = loads_strict(data)
    except JSONProblem as exc:
        fail(f"data is not valid JSON: {exc.message}", _where(block, exc.pos))
    return Record(
        payload=payload, event=block.event, location=f"line {first}", event_id=last_event_id
    )


def _where(block: _Block, pos: int | None) -> str:
    """Name the line (and column) of a JSON error inside joined data lines."""
    first, last = block.data[0][0], block.data[-1][0]
    if pos is None:
        return f"line {first}" if first == last else f"lines {first}-{last}"
    joined = "\n".join(value for _, value in block.data)
    index, col = line_col(joined, pos)
    number = block.data[min(index, len(block.data)) - 1][0]
    return f"line {number}, data column {col}"


def read_sse(data: bytes) -> Capture:
    """Decode strict UTF-8 bytes and parse them as SSE."""
    text, _ = decode_text(data)
    return parse_sse(text)
