"""Every object level of the ``bedrock`` profile, in valid streams of our own
(see ``tests/support/every_level/__init__.py``). Shapes from botocore's
``bedrock-runtime/2023-09-30/service-2.json`` (ConverseStreamOutput): a tool
turn, a text turn, and a turn with every block that carries no call (a
reasoning block, a citation of each location, an image by bytes, by S3 and
as an error, a server tool's result) and the whole metadata (cache details,
the guardrail and prompt-router traces, the performance configuration and
service tier, additional model response fields)."""

from __future__ import annotations

from typing import Any

from tests.support.builders import (
    bedrock,
    bedrock_tool,
    bedrock_turn,
    br_message_start,
    br_message_stop,
    br_metadata,
    br_stop,
)

PROFILE = "bedrock"

_text = [
    {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Hello."}}},
    {"contentBlockStop": {"contentBlockIndex": 0}},
]


def _delta(index: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"contentBlockDelta": {"contentBlockIndex": index, "delta": delta}}


def _start(index: int, start: dict[str, Any]) -> dict[str, Any]:
    return {"contentBlockStart": {"contentBlockIndex": index, "start": start}}


_span = {"documentIndex": 0, "start": 0, "end": 5}
_locations = [
    {"web": {"url": "https://example.org/a", "domain": "example.org"}},
    {"documentChar": _span},
    {"documentPage": _span},
    {"documentChunk": _span},
    {"searchResultLocation": {"searchResultIndex": 0, "start": 0, "end": 1}},
]
_non_call_blocks = [
    _start(0, {"reasoningContent": {}}),
    _delta(0, {"reasoningContent": {"text": "Hm", "signature": "sig"}}),
    br_stop(0),
    _delta(1, {"text": "Sunny."}),
    *(
        _delta(
            1,
            {
                "citation": {
                    "title": "Weather",
                    "source": "doc",
                    "sourceContent": [{"text": "Sunny"}],
                    "location": location,
                }
            },
        )
        for location in _locations
    ),
    br_stop(1),
    _start(2, {"image": {"format": "png"}}),
    _delta(2, {"image": {"source": {"bytes": "aGk="}}}),
    _delta(2, {"image": {"source": {"s3Location": {"uri": "s3://b/k", "bucketOwner": "1"}}}}),
    _delta(2, {"image": {"error": {"message": "unavailable"}}}),
    br_stop(2),
    _start(3, {"toolResult": {"toolUseId": "srv_1", "type": "web_search", "status": "success"}}),
    _delta(3, {"toolResult": [{"text": "found"}, {"json": {"any": {"thing": 1}}}]}),
    br_stop(3),
]
_metadata = br_metadata()
_metadata["metadata"].update(
    {
        "trace": {
            "guardrail": {
                "modelOutput": ["Sunny."],
                "inputAssessment": {"my-guardrail": {"any": 1}},
                "outputAssessments": {"my-guardrail": [{"any": 1}]},
                "actionReason": "none",
            },
            "promptRouter": {"invokedModelId": "anthropic.claude"},
        },
        "performanceConfig": {"latency": "standard"},
        "serviceTier": {"type": "default"},
    }
)
_metadata["metadata"]["usage"].update(
    {
        "cacheReadInputTokens": 0,
        "cacheWriteInputTokens": 0,
        "cacheDetails": [{"ttl": "5m", "inputTokens": 0}],
        "serverToolUsage": {},
    }
)

CASES: list[tuple[str, dict[str, Any]]] = [
    ("tool turn", bedrock(bedrock_turn(bedrock_tool()))),
    (
        "text turn",
        bedrock([br_message_start(), *_text, br_message_stop("end_turn"), br_metadata()]),
    ),
    (
        "every block without a call",
        bedrock(
            [
                br_message_start(),
                *_non_call_blocks,
                {
                    "messageStop": {
                        "stopReason": "end_turn",
                        "additionalModelResponseFields": {"my_field": {"any": 1}},
                    }
                },
                _metadata,
            ]
        ),
    ),
]
