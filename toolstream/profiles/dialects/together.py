"""Together AI's streamed chunks: a scalar ``token_id`` inside every delta,
and on the choice a ``seed`` and a legacy ``text`` that repeats the delta's
``content``."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

_RECORDING = (
    "lzell/AIProxySwift Tests/AIProxyTests/TogetherAIChatCompletionStreamingChunkTests.swift"
    " (recorded Together chunks: delta.token_id, choices[].text, choices[].seed)"
)

TOKEN_ID = _d.Dialect(
    name="together_token_id",
    profile="openai",
    level="delta",
    member="token_id",
    path="choices[].delta.token_id",
    shape="integer",
    servers=("Together AI",),
    sources=(_RECORDING,),
    treatment=_d.Treatment.INERT,
    reason="the id of the token in the delta's content: never a call's id, name or arguments",
)

SEED = _d.Dialect(
    name="together_seed",
    profile="openai",
    level="choice",
    member="seed",
    path="choices[].seed",
    shape="integer or null",
    servers=("Together AI",),
    sources=(_RECORDING,),
    treatment=_d.Treatment.INERT,
    reason="the sampling seed: no call identity, name or arguments",
)

TEXT = _d.Dialect(
    name="together_text",
    profile="openai",
    level="choice",
    member="text",
    path="choices[].text",
    shape="string equal to choices[].delta.content of the same chunk",
    servers=("Together AI",),
    sources=(_RECORDING,),
    treatment=_d.Treatment.NORMALIZED,
    reason="a copy of the delta's content (a legacy completion's text may carry anything):"
    " checked equal to it, chunk by chunk",
    mirrors="delta.content",
)
