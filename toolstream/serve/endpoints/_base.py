"""What every endpoint provides: its route, how a case's stream items become
wire records, what a streaming request must say, and the provider's error
shape."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal

from toolstream.serve.cases import encode

Framing = Literal["sse", "eventstream", "json-array"]


@dataclass(frozen=True)
class SSEEvent:
    """One server-sent event: its ``event:`` name (None when the format has
    none) and its one ``data:`` line."""

    event: str | None
    data: str


Record = SSEEvent | bytes
"""An SSE event, or the bytes of one record of a non-SSE body (a binary
event-stream frame, an element of a streamed JSON array)."""


class Problem(str, Enum):
    """Why a request gets an error instead of a stream."""

    NO_ROUTE = "no_route"
    """No endpoint has this path."""
    WRONG_METHOD = "wrong_method"
    """The path exists but takes another method."""
    BAD_BODY = "bad_body"
    """The request body is not a JSON object."""
    TOO_LARGE = "too_large"
    """The request body is larger than the server accepts."""
    NOT_STREAMING = "not_streaming"
    """The request does not ask for a stream (``stream: true``, or Bedrock's
    ``converse`` instead of ``converse-stream``)."""
    UNKNOWN_CASE = "unknown_case"
    """The model, header or path prefix names no served case."""
    WRONG_ENDPOINT = "wrong_endpoint"
    """The case's profile is served by another endpoint."""
    BAD_TRANSPORT = "bad_transport"
    """The transport variant is malformed or does not apply to this framing."""
    UNPLAYABLE = "unplayable"
    """The case cannot be put on this wire (its file is unreadable, or an item
    has no encoding in the format)."""


STATUS: Mapping[Problem, int] = {
    Problem.NO_ROUTE: 404,
    Problem.WRONG_METHOD: 405,
    Problem.BAD_BODY: 400,
    Problem.TOO_LARGE: 413,
    Problem.NOT_STREAMING: 400,
    Problem.UNKNOWN_CASE: 404,
    Problem.WRONG_ENDPOINT: 400,
    Problem.BAD_TRANSPORT: 400,
    Problem.UNPLAYABLE: 500,
}


@dataclass(frozen=True)
class Reply:
    """A complete (non-streamed) HTTP response."""

    status: int
    headers: Mapping[str, str]
    body: bytes


class Unplayable(Exception):
    """A stream item has no encoding on this endpoint's wire."""


def json_reply(status: int, payload: Any, headers: Mapping[str, str] | None = None) -> Reply:
    body = json.dumps(payload, ensure_ascii=False, indent=None).encode("utf-8")
    return Reply(status, {"Content-Type": "application/json", **(headers or {})}, body)


class Endpoint:
    """One provider's streaming endpoint."""

    title: str = ""
    """The API's name, for listings and errors."""
    method: str = "POST"
    path: str = ""
    """The documented path, for listings (``/model/{modelId}/converse-stream``)."""
    route: re.Pattern[str] = re.compile(r"(?!)")
    """Matches the request path (after any ``/cases/..``/``/transport/..``
    prefix); named groups are read by :meth:`model`."""
    framing: Framing = "sse"
    content_type: str = "text/event-stream; charset=utf-8"
    names_events: bool = True
    """Whether the format writes an ``event:`` line before each event."""
    request_id_header: str = "x-request-id"

    def model(self, body: Mapping[str, Any], match: re.Match[str]) -> str | None:
        """The model the request names (what selects a case)."""
        value = body.get("model")
        return value if isinstance(value, str) else None

    def not_streaming(self, body: Mapping[str, Any], match: re.Match[str]) -> str | None:
        """Why the request does not ask for a stream, or None when it does."""
        if body.get("stream") is not True:
            return f'{self.title} is only served streamed: send "stream": true'
        return None

    def for_query(self, query: str) -> Endpoint:
        """The endpoint that serves a request with this query string: itself,
        unless the query chooses the framing (Gemini's ``alt=sse``)."""
        return self

    def records(self, stream: Sequence[Any]) -> list[Record]:  # pragma: no cover - abstract
        """The wire records of a case's stream items, in order."""
        raise NotImplementedError

    def error(self, problem: Problem, message: str) -> Reply:  # pragma: no cover - abstract
        """The provider's error response for ``problem``."""
        raise NotImplementedError

    def response_headers(self, request_id: str) -> dict[str, str]:
        return {"Content-Type": self.content_type, self.request_id_header: request_id}


def typed_events(stream: Sequence[Any]) -> list[Record]:
    """SSE events named by each item's ``type`` member (Anthropic, OpenAI
    Responses); an item without a string ``type`` gets no ``event:`` line."""
    out: list[Record] = []
    for item in stream:
        kind = item.get("type") if hasattr(item, "get") else None
        if isinstance(kind, str) and ("\n" in kind or "\r" in kind):
            raise Unplayable(f"event {len(out)}: its type has a line break, which SSE cannot name")
        out.append(SSEEvent(kind if isinstance(kind, str) and kind else None, encode(item)))
    return out
