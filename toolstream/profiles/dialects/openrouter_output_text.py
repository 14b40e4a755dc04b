"""``output_text``: the text of the response's message items, joined, which
OpenRouter's Responses API puts in the response object of its lifecycle
events (openai-python has it only as a property computed on the client)."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

DIALECT = _d.Dialect(
    name="openrouter_output_text",
    profile="openai-responses",
    level="response",
    member="output_text",
    path="response.*.response.output_text",
    shape="string",
    servers=("OpenRouter",),
    sources=(
        "pydantic/pydantic-ai tests/models/cassettes/test_openai_responses/"
        "test_openai_responses_raw_cot_stream_openrouter.yaml (output_text in the response"
        " of response.created, .in_progress, .completed)",
        "https://openrouter.ai/docs/sdks/python/api-reference/components/openresponsesresult"
        " (output_text: optional string)",
    ),
    treatment=_d.Treatment.INERT,
    reason="text already in the message items; calls arrive as function_call items,"
    " which the profile reads",
)
