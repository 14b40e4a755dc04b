"""OpenRouter's usage accounting in the usage of its Responses stream's
response object: what the request cost (``cost``, ``cost_details``) and
whether the caller's own provider key paid (``is_byok``)."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

_SOURCES = (
    "pydantic/pydantic-ai tests/models/cassettes/test_openai_responses/"
    "test_openai_responses_raw_cot_stream_openrouter.yaml (response.completed:"
    " usage.cost, usage.is_byok, usage.cost_details)",
    "https://openrouter.ai/docs/use-cases/usage-accounting (cost, is_byok, cost_details)",
)
_REASON = "what the request cost and who paid: no call identity, name or arguments"

COST = _d.Dialect(
    name="openrouter_usage_cost",
    profile="openai-responses",
    level="response.usage",
    member="cost",
    path="response.*.response.usage.cost",
    shape="number (credits)",
    servers=("OpenRouter",),
    sources=_SOURCES,
    treatment=_d.Treatment.INERT,
    reason=_REASON,
)

COST_DETAILS = _d.Dialect(
    name="openrouter_usage_cost_details",
    profile="openai-responses",
    level="response.usage",
    member="cost_details",
    path="response.*.response.usage.cost_details",
    shape="object of {upstream_inference_cost, upstream_inference_input_cost, ...}",
    servers=("OpenRouter",),
    sources=_SOURCES,
    treatment=_d.Treatment.INERT,
    reason=_REASON,
)

IS_BYOK = _d.Dialect(
    name="openrouter_usage_is_byok",
    profile="openai-responses",
    level="response.usage",
    member="is_byok",
    path="response.*.response.usage.is_byok",
    shape="boolean",
    servers=("OpenRouter",),
    sources=_SOURCES,
    treatment=_d.Treatment.INERT,
    reason=_REASON,
)


def _chat(row: _d.Dialect, shape: str = "") -> _d.Dialect:
    # The same accounting in a chat stream: the usage of its last chunk.
    return _d.Dialect(
        name=row.name.replace("openrouter_usage_", "openrouter_chat_usage_"),
        profile="openai",
        level="usage",
        member=row.member,
        path=f"usage.{row.member}",
        shape=shape or row.shape,
        servers=row.servers,
        sources=(
            "simonw/llm tests/cassettes/test_tools_streaming/test_tools_streaming_variant_b.yaml"
            " (an OpenRouter chat stream: usage.cost, usage.is_byok, usage.cost_details)",
            _SOURCES[1],
        ),
        treatment=row.treatment,
        reason=row.reason,
    )


CHAT_COST = _chat(COST)
CHAT_COST_DETAILS = _chat(COST_DETAILS, "object of {upstream_inference_cost, ...}")
CHAT_IS_BYOK = _chat(IS_BYOK)
