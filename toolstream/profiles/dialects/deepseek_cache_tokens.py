"""DeepSeek's context-cache counts in a chat stream's ``usage``: how many
prompt tokens its disk cache served (``prompt_cache_hit_tokens``) and how
many it did not (``prompt_cache_miss_tokens``)."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

_SOURCES = (
    "vercel/ai packages/deepseek/src/chat/__fixtures__/deepseek-tool-call.chunks.txt"
    " (usage on the finish chunk: prompt_cache_hit_tokens, prompt_cache_miss_tokens)",
    "https://api-docs.deepseek.com/api/create-chat-completion (usage: prompt_cache_hit_tokens,"
    " prompt_cache_miss_tokens; the context caching guide)",
)
_REASON = "token counts of the prompt cache: no call identity, name or arguments"

HIT = _d.Dialect(
    name="deepseek_prompt_cache_hit_tokens",
    profile="openai",
    level="usage",
    member="prompt_cache_hit_tokens",
    path="usage.prompt_cache_hit_tokens",
    shape="integer",
    servers=("DeepSeek",),
    sources=_SOURCES,
    treatment=_d.Treatment.INERT,
    reason=_REASON,
)

MISS = _d.Dialect(
    name="deepseek_prompt_cache_miss_tokens",
    profile="openai",
    level="usage",
    member="prompt_cache_miss_tokens",
    path="usage.prompt_cache_miss_tokens",
    shape="integer",
    servers=("DeepSeek",),
    sources=_SOURCES,
    treatment=_d.Treatment.INERT,
    reason=_REASON,
)
