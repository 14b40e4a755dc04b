"""``x_groq``: Groq's per-chunk bookkeeping (request id, and usage on the
last chunk), on chunks with and without ``choices``."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

DIALECT = _d.Dialect(
    name="groq",
    profile="openai",
    level="chunk",
    member="x_groq",
    path="x_groq",
    shape="object (id, usage)",
    servers=("Groq",),
    sources=("vercel/ai packages/groq/src/__fixtures__/groq-tool-call.chunks.txt",),
    treatment=_d.Treatment.INERT,
    reason="request id and token counts: no call identity, name or arguments",
)
