"""Perplexity's web-search sources: ``citations`` (URLs) and
``search_results`` on the chunks of a Sonar answer."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

_SOURCES = (
    "https://app.unpkg.com/@ai-sdk/perplexity@3.0.19/files/src/perplexity-language-model.ts",
    "https://docs.perplexity.ai/guides/streaming-responses",
)

CITATIONS = _d.Dialect(
    name="perplexity_citations",
    profile="openai",
    level="chunk",
    member="citations",
    path="citations",
    shape="array of strings (URLs)",
    servers=("Perplexity",),
    sources=_SOURCES,
    treatment=_d.Treatment.INERT,
    reason="the answer's web sources: no call identity, name or arguments",
)

SEARCH_RESULTS = _d.Dialect(
    name="perplexity_search_results",
    profile="openai",
    level="chunk",
    member="search_results",
    path="search_results",
    shape="array of {title, url, date, ...}",
    servers=("Perplexity",),
    sources=_SOURCES,
    treatment=_d.Treatment.INERT,
    reason="the answer's web sources: no call identity, name or arguments",
)
