"""xAI's additions to a chat stream's ``usage``: how many live-search
sources the answer used (``num_sources_used``) and what the request cost
(``cost_in_usd_ticks``)."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

_SOURCES = (
    "vercel/ai packages/xai/src/__fixtures__/xai-tool-call.chunks.txt"
    " (the usage-only chunk: num_sources_used, cost_in_usd_ticks)",
)

NUM_SOURCES_USED = _d.Dialect(
    name="xai_num_sources_used",
    profile="openai",
    level="usage",
    member="num_sources_used",
    path="usage.num_sources_used",
    shape="integer",
    servers=("xAI",),
    sources=_SOURCES,
    treatment=_d.Treatment.INERT,
    reason="a count of the search sources used: no call identity, name or arguments",
)

COST_IN_USD_TICKS = _d.Dialect(
    name="xai_cost_in_usd_ticks",
    profile="openai",
    level="usage",
    member="cost_in_usd_ticks",
    path="usage.cost_in_usd_ticks",
    shape="integer (fractions of a US dollar)",
    servers=("xAI",),
    sources=_SOURCES,
    treatment=_d.Treatment.INERT,
    reason="what the request cost: no call identity, name or arguments",
)
