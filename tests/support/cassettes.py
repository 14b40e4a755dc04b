"""Builders for recording containers (VCR.py cassettes) and the wire bodies
inside them, for the import tests."""

from __future__ import annotations

import base64
import json
from typing import Any

import yaml

from tests.support.builders import (
    anthropic_turn,
    tool_block,
)

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}


ANTHROPIC_TOOLS = [{"name": "weather", "input_schema": WEATHER}]


def sse(events: list[Any], *, named: bool = True, done: bool = False) -> bytes:
    blocks = []
    for event in events:
        lines = []
        if named and isinstance(event, dict) and isinstance(event.get("type"), str):
            lines.append(f"event: {event['type']}")
        lines.append("data: " + json.dumps(event))
        blocks.append("\n".join(lines) + "\n")
    if done:
        blocks.append("data: [DONE]\n")
    return "\n".join(blocks).encode("utf-8")


ANTHROPIC = anthropic_turn(tool_block())


def vcr_interaction(
    request: Any,
    body: bytes | str | None,
    *,
    content_type: str = "text/event-stream",
    uri: str = "https://api.example.test/v1/chat/completions?key=q",
    status: int = 200,
    request_headers: dict[str, list[str]] | None = None,
    response_headers: dict[str, list[str]] | None = None,
    parsed: bool = False,
    body_form: str = "string",
) -> dict[str, Any]:
    """One VCR.py interaction; ``parsed`` writes pydantic-ai's ``parsed_body``
    for the request; ``body_form`` is ``string`` (``body: {string: ...}``),
    ``plain`` (``body: ...``) or ``base64`` (Ruby VCR's ``base64_string``)."""
    req: dict[str, Any] = {
        "headers": {"content-type": ["application/json"], **(request_headers or {})},
        "method": "POST",
        "uri": uri,
    }
    if parsed:
        req["parsed_body"] = request
    else:
        req["body"] = None if request is None else json.dumps(request)
    if body_form == "base64":
        raw = body.encode() if isinstance(body, str) else (body or b"")
        response_body: Any = {"base64_string": base64.b64encode(raw).decode()}
    elif body_form == "plain":
        response_body = body
    else:
        response_body = {"string": body}
    return {
        "request": req,
        "response": {
            "body": response_body,
            "headers": {"content-type": [content_type], **(response_headers or {})},
            "status": {"code": status, "message": "OK"},
        },
    }


def vcr_yaml(*interactions: dict[str, Any]) -> bytes:
    return yaml.safe_dump({"interactions": list(interactions), "version": 1}).encode()


OPENAI_KEY = "sk-proj-" + "Qw3eRt6yUi9oPa2sDf5gHj8kLz1x"
