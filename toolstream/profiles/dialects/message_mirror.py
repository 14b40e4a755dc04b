"""``choices[].message``: a copy of ``choices[].delta`` in every chunk, sent
beside the delta by text-generation-webui's OpenAI-compatible API from July
2023 ("do both methods? delta and messages") until February 2024 (PR 5503
removed it); servers built on that code may still send it.

Normalized: the delta is read as usual and the copy must equal it member
for member (a mirror that says something else blocks the turn with
``unsupported_event``: which of the two spellings a client reads is not
known, so the call it would run is not known either).  A ``message``
without a ``delta`` in the same choice is not a mirror and still blocks."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

DIALECT = _d.Dialect(
    name="message_mirror",
    profile="openai",
    level="choice",
    member="message",
    path="choices[].message",
    shape="object equal to choices[].delta of the same chunk",
    servers=("text-generation-webui (oobabooga), July 2023 to February 2024",),
    sources=(
        "oobabooga/text-generation-webui extensions/openai/completions.py at 0b2279d0"
        " (chat_streaming_chunk: message and delta, the same object, in every chunk;"
        " added in 3e7feb69, removed in 10df23ef, PR 5503)",
    ),
    treatment=_d.Treatment.NORMALIZED,
    reason="carries the same tool_calls as the delta: checked equal to it, chunk by chunk",
    mirrors="delta",
)
