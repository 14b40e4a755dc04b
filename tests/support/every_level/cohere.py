"""Every object level of the ``cohere`` profile, in valid streams of our own
(see ``tests/support/every_level/__init__.py``). Shapes from cohere-python's
``src/cohere/v2/types/`` streamed chat event types."""

from __future__ import annotations

from typing import Any

from tests.support.builders_gemini_cohere_invoke import (
    co_call,
    co_message_end,
    co_message_start,
    co_turn,
    cohere,
)

PROFILE = "cohere"

_text = [
    {
        "type": "content-start",
        "index": 0,
        "delta": {"message": {"content": {"type": "text", "text": ""}}},
    },
    {
        "type": "content-delta",
        "index": 0,
        "delta": {"message": {"content": {"text": "Hello."}}},
    },
    {"type": "content-end", "index": 0},
]

CASES: list[tuple[str, dict[str, Any]]] = [
    ("tool turn", cohere(co_turn(co_call()))),
    ("text turn", cohere([co_message_start(), *_text, co_message_end("COMPLETE")])),
]

_citation = {
    "type": "citation-start",
    "index": 0,
    "delta": {
        "message": {
            "citations": {
                "start": 0,
                "end": 5,
                "text": "Hello",
                "type": "TEXT_CONTENT",
                "content_index": 0,
                "sources": [
                    {"type": "tool", "id": "weather_1:0", "tool_output": {"temp": 20}},
                    {"type": "document", "id": "doc_0", "document": {"title": "t"}},
                ],
            }
        }
    },
}

CASES.append(
    (
        "cited text turn",
        cohere(
            [
                co_message_start(),
                *_text[:2],
                _citation,
                {"type": "citation-end", "index": 0},
                _text[2],
                co_message_end("COMPLETE"),
            ]
        ),
    )
)
