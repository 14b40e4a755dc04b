"""``prompt_filter_results``: Azure OpenAI's content-filter annotations of
the prompt, sent on a chunk with an empty (or no) ``choices``."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

DIALECT = _d.Dialect(
    name="azure_content_filter",
    profile="openai",
    level="chunk",
    member="prompt_filter_results",
    path="prompt_filter_results",
    shape="array of {prompt_index, content_filter_results}",
    servers=("Azure OpenAI",),
    sources=(
        "https://learn.microsoft.com/en-gb/azure/foundry/openai/concepts/content-streaming",
        "https://app.unpkg.com/@azure/openai@2.0.0/files/dist/commonjs/types/index.d.ts",
    ),
    treatment=_d.Treatment.INERT,
    reason="filter verdicts on the prompt; a filtered answer ends with finish_reason"
    " content_filter, which the profile already reads",
)
