"""``choices[].delta.reasoning`` and ``choices[].delta.reasoning_details``:
reasoning text (and its structured details) of OpenRouter's normalized
stream, also the ``reasoning`` spelling of vLLM and gpt-oss servers."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

_SOURCES = (
    "https://openrouter.ai/docs/agent-sdk/typescript/api-reference/models/chatstreamdelta",
    "https://docs.rs/dynamo-protocols/5.2.0/dynamo_protocols/types/struct.ChatCompletionStreamResponseDelta.html"
    " (reasoning: vLLM native, OpenRouter, OpenAI GPT-OSS)",
)

REASONING = _d.Dialect(
    name="reasoning",
    profile="openai",
    level="delta",
    member="reasoning",
    path="choices[].delta.reasoning",
    shape="string or null",
    servers=("OpenRouter", "vLLM", "OpenAI gpt-oss servers"),
    sources=_SOURCES,
    treatment=_d.Treatment.INERT,
    reason="free text shown to the user; tool calls still arrive in delta.tool_calls",
)

REASONING_DETAILS = _d.Dialect(
    name="reasoning_details",
    profile="openai",
    level="delta",
    member="reasoning_details",
    path="choices[].delta.reasoning_details",
    shape="array of {type, text | summary | data, ...}",
    servers=("OpenRouter",),
    sources=_SOURCES[:1],
    treatment=_d.Treatment.INERT,
    reason="reasoning text, summaries or encrypted reasoning: never a call's id, name or arguments",
)
