"""SGLang's ``matched_stop``: the stop string or token id that ended a
streamed choice."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

DIALECT = _d.Dialect(
    name="sglang_matched_stop",
    profile="openai",
    level="choice",
    member="matched_stop",
    path="choices[].matched_stop",
    shape="string, integer or null",
    servers=("SGLang",),
    sources=(
        "sgl-project/sglang python/sglang/srt/entrypoints/openai/protocol.py"
        " (ChatCompletionResponseStreamChoice: matched_stop)",
    ),
    treatment=_d.Treatment.INERT,
    reason="which stop sequence or token ended the choice: the terminal is finish_reason,"
    " which the profile reads and judges",
)
