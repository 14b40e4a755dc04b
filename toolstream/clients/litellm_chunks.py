"""Client: the chunks LiteLLM *streams*, accumulated as an application does.

``litellm-openai-chunks``
    the same request as ``litellm-openai`` (``litellm.completion(model=
    "openai/toolstream", api_base=<case>/v1, stream=True, ...)``, LiteLLM's
    OpenAI route and its ``CustomStreamWrapper``), but what the application
    receives is taken from the chunks the wrapper yields, not from
    ``stream_chunk_builder``'s rebuilt response.  Takes the openai and
    mistral profiles.

LiteLLM's chunks are OpenAI-format ``ModelResponseStream`` objects (its
streaming documentation: ``choices[].delta.tool_calls``, each a
``ChatCompletionDeltaToolCall``), so an application turns their
``choices[0].delta.tool_calls`` deltas into calls as OpenAI's
function-calling guide (its streaming section) does: a dict keyed by each
delta's ``index``; the first delta at an
index opens that call (its ``id``, ``function.name`` and
``function.arguments``), every later delta at the same index appends its
``function.arguments``; the calls are the dict's values, in the order their
index first appeared.  A later delta's ``id`` or ``name`` is not read (the
guide reads them from the opening delta only), a ``None`` arguments
fragment adds nothing, and a chunk without choices (a usage chunk) carries
no delta.  The finish reason is the last one a chunk's ``choices[0]``
carried.

This is where the bugs in what LiteLLM *emits* show (its provider bridges
and its chunk conversion): an index it does not map, a call split over two
indexes, fragments it drops or reorders.  The request, the client settings
and the errors counted as LiteLLM's own refusal are ``litellm-openai``'s
(:mod:`toolstream.clients.litellm_completion`).  The accumulation is
application code, not LiteLLM's: it never raises on a chunk's shape (a
missing member reads as ``None``), so nothing it does is taken for
LiteLLM's behaviour.
"""

from __future__ import annotations

from typing import Any

from toolstream.adapters.base import AdapterCall, AdapterResult
from toolstream.clients.litellm_completion import LiteLLMOpenAI

__all__ = ["LiteLLMOpenAIChunks", "accumulated_result"]


def accumulated_result(chunks: list[Any]) -> AdapterResult:
    """The calls an application accumulating ``chunks`` by ``index`` hands
    over (see the module docstring)."""
    calls: dict[Any, dict[str, Any]] = {}
    finish: str | None = None
    for chunk in chunks:
        choices = getattr(chunk, "choices", None) or []
        if not choices:
            continue
        choice = choices[0]
        reason = getattr(choice, "finish_reason", None)
        if isinstance(reason, str):
            finish = reason
        delta = getattr(choice, "delta", None)
        for tool_call in getattr(delta, "tool_calls", None) or []:
            function = getattr(tool_call, "function", None)
            fragment = getattr(function, "arguments", None)
            index = getattr(tool_call, "index", None)
            if index not in calls:
                calls[index] = {
                    "id": getattr(tool_call, "id", None),
                    "name": getattr(function, "name", None),
                    "arguments": fragment if isinstance(fragment, str) else "",
                }
            elif isinstance(fragment, str):
                calls[index]["arguments"] += fragment
    return AdapterResult(
        calls=tuple(
            AdapterCall(id=call["id"], name=call["name"], arguments=call["arguments"])
            for call in calls.values()
        ),
        rejected=False,
        invalid=(),
        finish_reason=finish,
    )


class LiteLLMOpenAIChunks(LiteLLMOpenAI):
    name = "litellm-openai-chunks"
    only_looks = True

    @staticmethod
    def handed_over(litellm: Any, chunks: list[Any]) -> AdapterResult:
        return accumulated_result(chunks)
