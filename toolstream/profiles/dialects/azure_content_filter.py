"""Azure OpenAI's content-filter annotations: ``prompt_filter_results`` on
a chunk with an empty (or no) ``choices``, and each choice's
``content_filter_results`` on the completion chunks."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

_SOURCES = (
    "https://learn.microsoft.com/en-gb/azure/foundry/openai/concepts/content-streaming",
    "https://app.unpkg.com/@azure/openai@2.0.0/files/dist/commonjs/types/index.d.ts",
)

PROMPT = _d.Dialect(
    name="azure_content_filter",
    profile="openai",
    level="chunk",
    member="prompt_filter_results",
    path="prompt_filter_results",
    shape="array of {prompt_index, content_filter_results}",
    servers=("Azure OpenAI",),
    sources=_SOURCES,
    treatment=_d.Treatment.INERT,
    reason="filter verdicts on the prompt; a filtered answer ends with finish_reason"
    " content_filter, which the profile already reads",
)

COMPLETION = _d.Dialect(
    name="azure_completion_filter",
    profile="openai",
    level="choice",
    member="content_filter_results",
    path="choices[].content_filter_results",
    shape="object of {hate, self_harm, sexual, violence, ...: {filtered, severity}}",
    servers=("Azure OpenAI",),
    sources=(
        *_SOURCES,
        "MicrosoftDocs/azure-ai-docs articles/ai-foundry/openai/concepts/content-streaming.md",
    ),
    treatment=_d.Treatment.INERT,
    reason="filter verdicts on the completion so far; a filtered answer ends with"
    " finish_reason content_filter, which the profile already reads",
)
