"""``choices[].message``: a copy of ``choices[].delta`` in every chunk, sent
by some OpenAI-compatible servers beside the delta.

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
    servers=("OpenAI-compatible servers (measured on recordings outside the repository)",),
    sources=("no public source found yet: shape measured on private recordings",),
    treatment=_d.Treatment.NORMALIZED,
    reason="carries the same tool_calls as the delta: checked equal to it, chunk by chunk",
    mirrors="delta",
)
