"""Every object level of the ``bedrock`` profile, in valid streams of our own
(see ``tests/support/every_level/__init__.py``). Shapes from botocore's
``bedrock-runtime/2023-09-30/service-2.json`` (ConverseStreamOutput)."""

from __future__ import annotations

from typing import Any

from tests.support.builders import (
    bedrock,
    bedrock_tool,
    bedrock_turn,
    br_message_start,
    br_message_stop,
    br_metadata,
)

PROFILE = "bedrock"

_text = [
    {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Hello."}}},
    {"contentBlockStop": {"contentBlockIndex": 0}},
]

CASES: list[tuple[str, dict[str, Any]]] = [
    ("tool turn", bedrock(bedrock_turn(bedrock_tool()))),
    (
        "text turn",
        bedrock([br_message_start(), *_text, br_message_stop("end_turn"), br_metadata()]),
    ),
]
