"""Gemini API and Vertex AI: ``POST /v1beta/models/{model}:streamGenerateContent``
(also ``/v1/...``, and Vertex's
``/v1/projects/{p}/locations/{l}/publishers/google/models/{m}:streamGenerateContent``).

The request's query chooses the framing, as the API's does: with
``?alt=sse`` (what google-genai sends) each chunk is one ``data:`` line, no
``event:`` line and no ``[DONE]``; without it the body is one JSON array
whose elements are the chunks, each written as its own record (``[`` then
the first chunk, ``,\\r\\n`` before each next one, ``]`` at the end), so the
transport variants cut it between or inside elements.

The model is the path's ``{model}`` (percent-decoded, so ``case%3Aop%2Fhash``
selects ``op/hash``).  ``:generateContent`` (not streamed) is
``not_streaming``.  Errors: Google's ``{"error": {"code", "message",
"status"}}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import parse_qs

from toolstream.serve.cases import encode
from toolstream.serve.endpoints._base import (
    STATUS,
    Endpoint,
    Framing,
    Problem,
    Record,
    Reply,
    SSEEvent,
    json_reply,
)

# google.rpc.Code names of the HTTP statuses the server sends.
GOOGLE_STATUS = {
    400: "INVALID_ARGUMENT",
    404: "NOT_FOUND",
    405: "UNIMPLEMENTED",
    413: "INVALID_ARGUMENT",
    500: "INTERNAL",
}


def google_error(problem: Problem, message: str) -> Reply:
    """Google's JSON error body (``google.rpc.Status`` as REST sends it)."""
    status = STATUS[problem]
    return json_reply(
        status, {"error": {"code": status, "message": message, "status": GOOGLE_STATUS[status]}}
    )


_VERTEX = r"/(?:v1|v1beta1)/projects/[^/]+/locations/[^/]+/publishers/google"


class _GenerateContent(Endpoint):
    """What both framings share: the route, the model, the errors."""

    route = re.compile(
        rf"(?:/(?:v1|v1beta|v1alpha)|{_VERTEX})/models/(?P<model>[^/:]+)"
        r":(?P<method>streamGenerateContent|generateContent)"
    )
    names_events = False
    request_id_header = "x-goog-request-id"

    def model(self, body: Mapping[str, Any], match: re.Match[str]) -> str | None:
        return match.group("model")

    def not_streaming(self, body: Mapping[str, Any], match: re.Match[str]) -> str | None:
        if match.group("method") != "streamGenerateContent":
            return "only streamGenerateContent is served: call generate_content_stream"
        return None

    def error(self, problem: Problem, message: str) -> Reply:
        return google_error(problem, message)


class GeminiServerSentEvents(_GenerateContent):
    """With ``alt=sse``: one ``data:`` line per chunk."""

    title = "Gemini streamGenerateContent (alt=sse)"
    path = "/v1beta/models/{model}:streamGenerateContent?alt=sse"
    content_type = "text/event-stream"

    def records(self, stream: Sequence[Any]) -> list[Record]:
        return [SSEEvent(None, encode(item)) for item in stream]


class GeminiStreamGenerateContent(_GenerateContent):
    """The table's row: a streamed JSON array, or SSE when the query says
    ``alt=sse``."""

    title = "Gemini streamGenerateContent"
    path = "/v1beta/models/{model}:streamGenerateContent"
    framing: Framing = "json-array"
    content_type = "application/json; charset=UTF-8"
    sse: Endpoint = GeminiServerSentEvents()

    def for_query(self, query: str) -> Endpoint:
        alt = parse_qs(query).get("alt")
        return self.sse if alt is not None and alt[-1] == "sse" else self

    def records(self, stream: Sequence[Any]) -> list[Record]:
        if not stream:
            return [b"[]"]
        out: list[Record] = []
        for number, item in enumerate(stream):
            lead = b"[" if number == 0 else b",\r\n"
            out.append(lead + encode(item).encode("utf-8"))
        out.append(b"]")
        return out
