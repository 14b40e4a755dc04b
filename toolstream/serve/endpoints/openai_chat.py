"""OpenAI Chat Completions and Mistral: ``POST /v1/chat/completions``.

Each chunk is one ``data:`` line (no ``event:`` line), and the stream ends
with ``data: [DONE]``.  Errors: OpenAI's ``{"error": {"message", "type",
"param", "code"}}``; Mistral's flat ``{"object": "error", "message",
"type", "param", "code"}``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from toolstream.serve.cases import encode
from toolstream.serve.endpoints._base import (
    STATUS,
    Endpoint,
    Problem,
    Record,
    Reply,
    SSEEvent,
    json_reply,
)

DONE = SSEEvent(None, "[DONE]")

_OPENAI_TYPES = {400: "invalid_request_error", 404: "invalid_request_error", 500: "server_error"}


def openai_error(problem: Problem, message: str) -> Reply:
    """OpenAI's error body (also the Responses API's)."""
    status = STATUS[problem]
    error = {
        "message": message,
        "type": _OPENAI_TYPES.get(status, "invalid_request_error"),
        "param": None,
        "code": problem.value,
    }
    return json_reply(status, {"error": error})


class OpenAIChat(Endpoint):
    title = "OpenAI Chat Completions"
    path = "/v1/chat/completions"
    route = re.compile(r"/v1/chat/completions")
    names_events = False

    def records(self, stream: Sequence[Any]) -> list[Record]:
        return [*(SSEEvent(None, encode(chunk)) for chunk in stream), DONE]

    def error(self, problem: Problem, message: str) -> Reply:
        return openai_error(problem, message)


class MistralChat(OpenAIChat):
    title = "Mistral Chat Completions"

    def error(self, problem: Problem, message: str) -> Reply:
        status = STATUS[problem]
        body = {
            "object": "error",
            "message": message,
            "type": "invalid_request_error" if status < 500 else "internal_server_error",
            "param": None,
            "code": problem.value,
        }
        return json_reply(status, body)
