"""Client: langchain-openai's ``ChatOpenAI`` driver, versioned by langchain-core.

``langchain-core-openai`` drives exactly what ``langchain-openai`` drives
(:class:`toolstream.clients.langchain.LangChainOpenAI`: ``ChatOpenAI.stream()``,
the ``AIMessageChunk``\\ s summed with ``+``), but the distribution it
reports, and the one ``--client langchain-core-openai==VERSION`` switches,
is langchain-core: the chunk merging (``merge_lists``), ``tool_call_chunks``
-> ``tool_calls`` and ``parse_partial_json`` live there, not in the
integration.  A release's environment installs that langchain-core with the
langchain-openai and openai installed here; when those do not resolve with
it (langchain-openai 1.7.4 needs langchain-core 1.7.5 or later), the
installer chooses them, and the environment's ``toolstream-env.json`` says
which it chose.
"""

from __future__ import annotations

from toolstream.clients.langchain import LangChainOpenAI

__all__ = ["LangChainCoreOpenAI"]


class LangChainCoreOpenAI(LangChainOpenAI):
    name = "langchain-core-openai"
    packages = ("langchain-core", "langchain-openai", "openai")

    oldest = "1.0.0"
    """langchain-core's first 1.x release (langchain-openai's own oldest, 1.0.0,
    is the integration under it there)."""

    def load(self) -> None:
        import langchain_core  # noqa: F401
        import langchain_openai  # noqa: F401
