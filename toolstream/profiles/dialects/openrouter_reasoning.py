"""``choices[].delta.reasoning`` and ``choices[].delta.reasoning_details``:
reasoning text (and its structured details) of OpenRouter's normalized
stream, also the ``reasoning`` spelling of vLLM and gpt-oss servers."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

_OPENROUTER = _d.Source(
    "https://openrouter.ai/docs/agent-sdk/typescript/api-reference/models/chatstreamdelta",
    ("OpenRouter",),
)

REASONING = _d.Dialect(
    name="reasoning",
    profile="openai",
    level="delta",
    member="reasoning",
    path="choices[].delta.reasoning",
    shape="string or null",
    servers=("OpenRouter", "vLLM", "OpenAI gpt-oss servers", "Ollama", "Together AI"),
    sources=(
        _OPENROUTER,
        _d.Source(
            "https://docs.rs/dynamo-protocols/5.2.0/dynamo_protocols/types/struct.ChatCompletionStreamResponseDelta.html"
            " (reasoning: vLLM native, OpenRouter, OpenAI GPT-OSS)",
            ("vLLM", "OpenRouter", "OpenAI gpt-oss servers"),
        ),
        _d.Source(
            "ollama/ollama openai/openai.go (Message.Reasoning, json reasoning; cited in"
            " openai/openai-dotnet issue 813)",
            ("Ollama",),
        ),
        _d.Source(
            "https://docs.together.ai/docs/kimi-k2-thinking-quickstart (a reasoning field"
            " beside content in the stream)",
            ("Together AI",),
        ),
    ),
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
    sources=(_OPENROUTER,),
    treatment=_d.Treatment.INERT,
    reason="reasoning text, summaries or encrypted reasoning: never a call's id, name or arguments",
)
