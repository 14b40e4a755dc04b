"""Transport variants: how a case's records are cut into writes and framed.

A variant spec is a comma-separated list of tokens (``every:7,crlf``), chosen
per server (``--transport``) or per request (an ``X-Toolstream-Transport``
header, or a ``/transport/<spec>/`` path prefix).  ``default`` is one write
per event, LF line endings, the format's own ``event:`` lines, a chunked
body that ends properly.

Every write is sent on its own (``TCP_NODELAY``, no buffering), and the
server sleeps ``pause`` seconds (0.2 ms by default) between two writes, so
that a client on the same machine reads them one by one instead of finding
several already merged in its socket buffer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from toolstream.serve.endpoints import Endpoint, Record, SSEEvent

DEFAULT_PAUSE = 0.0002
MAX_PAUSE = 1.0
MAX_STALL = 60.0


class Variant(str, Enum):
    """The tokens of a transport spec."""

    DEFAULT = "default"
    """One write per event; nothing else changed."""
    EVERY = "every"
    """``every:N``: the body cut into writes of N bytes, whatever they cut."""
    SPLIT_UTF8 = "split-utf8"
    """A write boundary inside every multi-byte UTF-8 character (after its
    first byte) and between every ``\\r`` and ``\\n``, besides the event
    boundaries."""
    CRLF = "crlf"
    """SSE lines end with CRLF."""
    CR = "cr"
    """SSE lines end with a bare CR."""
    KEEPALIVE = "keepalive"
    """A ``: keep-alive`` comment (and its blank line) before every event."""
    EVENT_LINES = "event-lines"
    """An ``event:`` line before every event, even where the format has none
    (``event: message``, SSE's default type, for Chat Completions)."""
    NO_EVENT_LINES = "no-event-lines"
    """No ``event:`` line, even where the format has them."""
    CLOSE = "close"
    """A close-delimited body (no ``Transfer-Encoding: chunked``, the end of
    the body is the end of the connection), complete."""
    CUT_CHUNKED = "cut-chunked"
    """``cut-chunked[:K]``: the chunked body stops half-way through record K
    (default: the middle record) and the connection closes, without the
    terminating zero-length chunk."""
    CUT_CLOSE = "cut-close"
    """``cut-close[:K]``: a close-delimited body stopped half-way through
    record K; to the client this looks like a complete body."""
    STALL = "stall"
    """``stall:SECONDS[@K]``: wait before record K (default: the middle one)."""
    PAUSE = "pause"
    """``pause:SECONDS``: the pause between two writes (default 0.0002)."""


_BODIES = {"eventstream": "binary event-stream frames", "json-array": "a JSON array"}
"""What a body other than SSE is, for the refusal of an SSE-only variant."""


class TransportError(ValueError):
    """A malformed or inapplicable spec (the message is one line)."""


@dataclass(frozen=True)
class Transport:
    spec: str = "default"
    every: int | None = None
    split_utf8: bool = False
    line_ending: str = "\n"
    keepalive: bool = False
    event_lines: bool | None = None
    """True: always; False: never; None: as the format does."""
    close_delimited: bool = False
    cut_at: int | None = None
    """The record a cut falls in (-1: the middle one); None: no cut."""
    stall: float = 0.0
    stall_at: int = -1
    pause: float = DEFAULT_PAUSE

    def applies_to(self, endpoint: Endpoint) -> str | None:
        """Why this transport cannot be used on ``endpoint``, or None."""
        return self.applies_to_framing(endpoint.framing, f"{endpoint.title} sends")

    def applies_to_framing(self, framing: str, subject: str) -> str | None:
        """Why this transport cannot be used on a body framed as ``framing``
        (``sse``, ``eventstream``, ``json-array``), or None; ``subject``
        starts the reason's second half (``"Bedrock ConverseStream sends"``)."""
        if framing == "sse":
            return None
        text_only = [
            name
            for name, used in (
                ("crlf/cr", self.line_ending != "\n"),
                ("keepalive", self.keepalive),
                ("event-lines/no-event-lines", self.event_lines is not None),
            )
            if used
        ]
        if text_only:
            sends = _BODIES.get(framing, framing)
            return f"transport {', '.join(text_only)} is for SSE; {subject} {sends}"
        return None


def _number(token: str, value: str | None, kind: Callable[[str], Any], low: float) -> Any:
    if value is None:
        raise TransportError(f"transport {token!r} needs a value ({token}:N)")
    try:
        number = kind(value)
    except ValueError:
        raise TransportError(f"transport {token}:{value[:20]} is not a number") from None
    if not number >= low:
        raise TransportError(f"transport {token}:{value[:20]} is below {low}")
    return number


def _no_value(token: str, value: str | None) -> None:
    if value is not None:
        raise TransportError(f"transport {token!r} takes no value")


def _index(token: str, value: str | None) -> int:
    return -1 if value is None else int(_number(token, value, int, 0))


def _t_default(fields: dict[str, Any], token: str, value: str | None) -> None:
    _no_value(token, value)


def _t_every(fields: dict[str, Any], token: str, value: str | None) -> None:
    fields["every"] = _number(token, value, int, 1)


def _t_split_utf8(fields: dict[str, Any], token: str, value: str | None) -> None:
    _no_value(token, value)
    fields["split_utf8"] = True


def _t_crlf(fields: dict[str, Any], token: str, value: str | None) -> None:
    _no_value(token, value)
    fields["line_ending"] = "\r\n"


def _t_cr(fields: dict[str, Any], token: str, value: str | None) -> None:
    _no_value(token, value)
    fields["line_ending"] = "\r"


def _t_keepalive(fields: dict[str, Any], token: str, value: str | None) -> None:
    _no_value(token, value)
    fields["keepalive"] = True


def _t_event_lines(fields: dict[str, Any], token: str, value: str | None) -> None:
    _no_value(token, value)
    fields["event_lines"] = True


def _t_no_event_lines(fields: dict[str, Any], token: str, value: str | None) -> None:
    _no_value(token, value)
    fields["event_lines"] = False


def _t_close(fields: dict[str, Any], token: str, value: str | None) -> None:
    _no_value(token, value)
    fields["close_delimited"] = True


def _t_cut_chunked(fields: dict[str, Any], token: str, value: str | None) -> None:
    fields["cut_at"] = _index(token, value)


def _t_cut_close(fields: dict[str, Any], token: str, value: str | None) -> None:
    fields["cut_at"] = _index(token, value)
    fields["close_delimited"] = True


def _t_stall(fields: dict[str, Any], token: str, value: str | None) -> None:
    seconds, _, at = (value or "").partition("@")
    fields["stall"] = _number(token, seconds or None, float, 0.0)
    if fields["stall"] > MAX_STALL:
        raise TransportError(f"transport stall:{seconds} is above the limit of {MAX_STALL} s")
    fields["stall_at"] = _index(token, at or None)


def _t_pause(fields: dict[str, Any], token: str, value: str | None) -> None:
    fields["pause"] = _number(token, value, float, 0.0)
    if fields["pause"] > MAX_PAUSE:
        raise TransportError(f"transport pause:{value} is above the limit of {MAX_PAUSE} s")


_TOKENS: dict[Variant, Callable[[dict[str, Any], str, str | None], None]] = {
    Variant.DEFAULT: _t_default,
    Variant.EVERY: _t_every,
    Variant.SPLIT_UTF8: _t_split_utf8,
    Variant.CRLF: _t_crlf,
    Variant.CR: _t_cr,
    Variant.KEEPALIVE: _t_keepalive,
    Variant.EVENT_LINES: _t_event_lines,
    Variant.NO_EVENT_LINES: _t_no_event_lines,
    Variant.CLOSE: _t_close,
    Variant.CUT_CHUNKED: _t_cut_chunked,
    Variant.CUT_CLOSE: _t_cut_close,
    Variant.STALL: _t_stall,
    Variant.PAUSE: _t_pause,
}


def parse_transport(spec: str) -> Transport:
    """The transport a spec describes; :class:`TransportError` if malformed."""
    text = spec.strip()
    if len(text) > 200:
        raise TransportError("transport spec is longer than 200 characters")
    fields: dict[str, Any] = {}
    for raw in filter(None, (part.strip() for part in text.split(","))):
        token, sep, value = raw.partition(":")
        try:
            variant = Variant(token)
        except ValueError:
            known = ", ".join(v.value for v in Variant)
            raise TransportError(f"unknown transport {token[:40]!r}; known: {known}") from None
        _TOKENS[variant](fields, token, value if sep else None)
    return Transport(spec=text or "default", **fields)


# -- the plan of writes --------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What the handler writes: ``writes`` in order, a stall of ``stall``
    seconds before ``writes[stall_before]``, and whether the body ends
    properly (``complete``) or is cut."""

    writes: list[bytes]
    stall_before: int | None
    stall: float
    complete: bool
    close_delimited: bool
    pause: float


_LEAD = re.compile(rb"[\xc2-\xf4]")
_CRLF = re.compile(rb"\r\n")


def render(record: Record, endpoint: Endpoint, transport: Transport) -> bytes:
    """One record's bytes."""
    if isinstance(record, bytes):
        return record
    end = transport.line_ending
    if transport.event_lines is False:
        name = None
    elif transport.event_lines:
        name = record.event or "message"
    else:
        name = record.event if endpoint.names_events else None
    head = f"event: {name}{end}" if name is not None else ""
    return f"{head}data: {record.data}{end}{end}".encode()


def _middle(index: int, count: int) -> int:
    return count // 2 if index < 0 else min(index, count - 1)


def plan(records: Sequence[Record], endpoint: Endpoint, transport: Transport) -> Plan:
    """Cut the records' bytes into writes as ``transport`` says."""
    comment = f": keep-alive{transport.line_ending}{transport.line_ending}".encode("ascii")
    pieces: list[bytes] = []
    starts: list[int] = []  # byte offset of each record (after its comment)
    sizes: list[int] = []
    offset = 0
    for record in records:
        if transport.keepalive and isinstance(record, SSEEvent):
            pieces.append(comment)
            offset += len(comment)
        data = render(record, endpoint, transport)
        starts.append(offset)
        sizes.append(len(data))
        pieces.append(data)
        offset += len(data)
    body = b"".join(pieces)
    boundaries: set[int] = set()
    if transport.every is None:
        running = 0
        for piece in pieces:
            running += len(piece)
            boundaries.add(running)
    else:
        boundaries.update(range(transport.every, len(body), transport.every))
    if transport.split_utf8:
        boundaries.update(m.start() + 1 for m in _LEAD.finditer(body))
        boundaries.update(m.start() + 1 for m in _CRLF.finditer(body))
    stall_offset: int | None = None
    if transport.stall > 0 and records:
        stall_offset = starts[_middle(transport.stall_at, len(records))]
        boundaries.add(stall_offset)
    end = len(body)
    complete = True
    if transport.cut_at is not None and records:
        at = _middle(transport.cut_at, len(records))
        end = starts[at] + max(1, sizes[at] // 2)
        complete = False
    cuts = sorted(b for b in boundaries if 0 < b < end)
    writes: list[bytes] = []
    stall_before: int | None = None
    previous = 0
    for cut in [*cuts, end]:
        if stall_offset is not None and previous == stall_offset:
            stall_before = len(writes)
        if cut > previous:
            writes.append(body[previous:cut])
        previous = cut
    return Plan(
        writes, stall_before, transport.stall, complete, transport.close_delimited, transport.pause
    )


__all__ = [
    "DEFAULT_PAUSE",
    "Plan",
    "Transport",
    "TransportError",
    "Variant",
    "parse_transport",
    "plan",
    "render",
]
