"""OpenRouter's routing bookkeeping: the upstream ``provider`` on every
chunk, and each choice's ``native_finish_reason`` (the upstream model's own
spelling of the reason, beside the normalized ``finish_reason``)."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

_RECORDING = (
    "simonw/llm tests/cassettes/test_tools_streaming/test_tools_streaming_variant_c.yaml"
    " (OpenRouter, moonshotai/kimi-k2: provider, native_finish_reason)"
)

PROVIDER = _d.Dialect(
    name="openrouter_provider",
    profile="openai",
    level="chunk",
    member="provider",
    path="provider",
    shape="string (the upstream provider's name)",
    servers=("OpenRouter",),
    sources=(_RECORDING,),
    treatment=_d.Treatment.INERT,
    reason="names the upstream provider: no call identity, name or arguments",
)

NATIVE_FINISH_REASON = _d.Dialect(
    name="openrouter_native_finish_reason",
    profile="openai",
    level="choice",
    member="native_finish_reason",
    path="choices[].native_finish_reason",
    shape="string or null",
    servers=("OpenRouter",),
    sources=(_RECORDING, "https://openrouter.ai/announcements/standardized-finish-reasons"),
    treatment=_d.Treatment.INERT,
    reason="the upstream spelling of the reason: the terminal is finish_reason, which the"
    " profile reads and judges; this copy never makes a call executable",
)
