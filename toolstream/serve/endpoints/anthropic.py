"""Anthropic Messages: ``POST /v1/messages``.

Each event is an ``event:`` line naming its ``type`` and one ``data:``
line (``ping`` included).  Errors: ``{"type": "error", "error": {"type",
"message"}}`` with a ``request-id`` header.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from toolstream.serve.endpoints._base import (
    STATUS,
    Endpoint,
    Problem,
    Record,
    Reply,
    json_reply,
    typed_events,
)

_TYPES = {
    400: "invalid_request_error",
    404: "not_found_error",
    405: "invalid_request_error",
    413: "request_too_large",
    500: "api_error",
}


class AnthropicMessages(Endpoint):
    title = "Anthropic Messages"
    path = "/v1/messages"
    route = re.compile(r"/v1/messages")
    request_id_header = "request-id"

    def records(self, stream: Sequence[Any]) -> list[Record]:
        return typed_events(stream)

    def error(self, problem: Problem, message: str) -> Reply:
        status = STATUS[problem]
        body = {"type": "error", "error": {"type": _TYPES[status], "message": message}}
        return json_reply(status, body, {"request-id": "req_toolstream_error"})
