"""Adapter: LangChain (``langchain-core``) through its real provider integrations.

What it drives
    nothing of its own: for each fixture it runs the integration an
    application would use for the fixture's profile, unmodified, over HTTP
    against ``toolstream serve`` (the clients of :mod:`toolstream.clients`):

    ``openai`` profile -- ``langchain-openai`` (``ChatOpenAI``);
    ``mistral`` profile -- ``langchain-mistralai`` (``ChatMistralAI``);
    ``anthropic`` profile -- ``langchain-anthropic`` (``ChatAnthropic``);
    ``gemini`` profile -- ``langchain-google-genai`` (``ChatGoogleGenerativeAI``).

    Each binds the fixture's tools, streams, and sums the ``AIMessageChunk``\\ s
    as ``generate_from_stream`` does; ``AIMessage.tool_calls`` become
    ``AdapterCall``\\ s (``input`` = ``args``, the dict LangChain hands to the
    application, parsed with ``parse_partial_json``, which *closes*
    unfinished JSON) and ``invalid_tool_calls`` become ``invalid``.  See
    :mod:`toolstream.clients.langchain` for the exact calls and for what
    counts as the library's refusal.

    (Up to toolstream 0.1 this adapter mirrored the integrations' per-chunk
    conversion in its own code; it now runs them.)

A fixture whose integration is not installed gives ``not_run`` (the
``AdapterUnavailable`` raised names the package).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import AdapterResult, AdapterUnavailable, ImportingAdapter

__all__ = ["INTEGRATIONS", "LangChainCoreAdapter"]

INTEGRATIONS: Mapping[str, str] = {
    "openai": "langchain-openai",
    "mistral": "langchain-mistralai",
    "anthropic": "langchain-anthropic",
    "gemini": "langchain-google-genai",
}
"""Fixture profile -> the client (:data:`toolstream.clients.CLIENTS`) that runs it."""


class LangChainCoreAdapter(ImportingAdapter):
    name = "langchain-core"
    package = "langchain-core"
    profiles = ("openai", "mistral", "anthropic", "gemini")

    def __init__(self, *, timeout: float | None = None) -> None:
        self.timeout = timeout

    def _import(self) -> dict[str, Any]:
        try:
            import langchain_core
        except ImportError as exc:
            raise AdapterUnavailable(self.name, self.package, extra=self.extra, cause=exc) from exc
        return {"version": getattr(langchain_core, "__version__", "?")}

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        profile = self.check_profile(fixture)
        self._import()
        from toolstream.clients import client_adapter

        client = client_adapter(INTEGRATIONS[profile], timeout=self.timeout)
        missing = client.unavailable_reason()
        if missing is not None:
            raise AdapterUnavailable(self.name, client.package, extra=self.extra)
        return client.run(fixture)
