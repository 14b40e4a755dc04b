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
