"""vLLM's per-choice additions to the streamed choice: ``stop_reason`` (the
stop string or token id that ended the choice) and ``token_ids`` (the
generated token ids, for tracing)."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

_SOURCE = (
    "vllm-project/vllm vllm/entrypoints/openai/protocol.py"
    " (ChatCompletionResponseStreamChoice: stop_reason, token_ids)"
)

STOP_REASON = _d.Dialect(
    name="vllm_stop_reason",
    profile="openai",
    level="choice",
    member="stop_reason",
    path="choices[].stop_reason",
    shape="string, integer or null",
    servers=("vLLM",),
    sources=(_SOURCE,),
    treatment=_d.Treatment.INERT,
    reason="which stop sequence or token ended the choice: the terminal is finish_reason,"
    " which the profile reads and judges",
)

TOKEN_IDS = _d.Dialect(
    name="vllm_token_ids",
    profile="openai",
    level="choice",
    member="token_ids",
    path="choices[].token_ids",
    shape="array of integers or null",
    servers=("vLLM",),
    sources=(_SOURCE,),
    treatment=_d.Treatment.INERT,
    reason="token ids of the text already in the delta: never a call's id, name or arguments",
)
