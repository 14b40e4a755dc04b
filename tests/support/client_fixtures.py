"""Chat Completions fixtures the client tests share: chunks carrying what
every provider sends, so the SDKs' stream helpers take them."""

from __future__ import annotations

from typing import Any

from tests.support.builders import chunk, tc
from tests.support.diff_fixtures import oai

PLACEHOLDERS = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "m"}


def wire(*chunks: Any, profile: str = "openai") -> dict[str, Any]:
    """A Chat Completions fixture whose chunks carry what every provider
    sends (``id``, ``object``, ``created``, ``model``): the openai SDKs'
    stream helpers drop a chunk whose ``object`` is not a completion chunk."""
    fixture = oai(*chunks, profile=profile)
    fixture["chunks"] = [{**PLACEHOLDERS, **c} for c in fixture["chunks"]]
    return fixture


ROLE = {"choices": [{"index": 0, "delta": {"role": "assistant", "content": None}}]}
END = chunk(finish="tool_calls")
PARALLEL = wire(
    ROLE,
    chunk(tc(0, "call_1", "weather", '{"ci')),
    chunk(tc(0, args='ty":"Paris"}')),
    chunk(tc(1, "call_2", "weather", "")),
    chunk(tc(1, args='{"city":"Rome"}')),
    END,
)
PARALLEL_CALLS = [("call_1", "weather", {"city": "Paris"}), ("call_2", "weather", {"city": "Rome"})]
TRUNCATED = wire(ROLE, chunk(tc(0, "call_1", "weather", '{"city":')), chunk(tc(0, args='"Par')))
RESENT_ID = wire(  # id and name repeated with the same values: one call
    ROLE,
    chunk(tc(0, "call_1", "weather", '{"ci')),
    chunk(tc(0, "call_1", "weather", 'ty":"Paris"}')),
    END,
)
NO_INDEX = wire(  # Mistral sends whole calls without an index
    ROLE,
    chunk(tc(id="call_1", name="weather", args='{"city":"Paris"}', omit_index=True)),
    END,
    profile="mistral",
)
NO_ROLE = wire(chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')), END)
