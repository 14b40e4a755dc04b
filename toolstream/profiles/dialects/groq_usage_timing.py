"""Groq's timings in a chat stream's ``usage`` (beside the token counts, on
the chunk that ends the turn): seconds queued, spent on the prompt, on the
completion, and both together."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

_SOURCES = (
    "vercel/ai packages/groq/src/__fixtures__/groq-tool-call.chunks.txt"
    " (usage with queue_time, prompt_time, completion_time, total_time)",
    "groq/groq-typescript src/resources/completions.ts (CompletionUsage: queue_time,"
    " prompt_time, completion_time, total_time)",
)
_REASON = "seconds the request took: no call identity, name or arguments"


def _timing(member: str, what: str) -> _d.Dialect:
    return _d.Dialect(
        name=f"groq_usage_{member}",
        profile="openai",
        level="usage",
        member=member,
        path=f"usage.{member}",
        shape=f"number (seconds {what})",
        servers=("Groq",),
        sources=_SOURCES,
        treatment=_d.Treatment.INERT,
        reason=_REASON,
    )


QUEUE_TIME = _timing("queue_time", "queued")
PROMPT_TIME = _timing("prompt_time", "on the prompt")
COMPLETION_TIME = _timing("completion_time", "generating")
TOTAL_TIME = _timing("total_time", "in all")
