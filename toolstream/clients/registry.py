"""Client registry: stable names -> client drivers, one row per library API.

The names are part of the CLI contract (``toolstream diff --client NAME``):
add new ones, never rename.
"""

from __future__ import annotations

import threading

from toolstream.clients.anthropic_messages import AnthropicMessagesStream
from toolstream.clients.base import Client
from toolstream.clients.boto3_converse import Boto3ConverseStream
from toolstream.clients.cohere_chat import CohereChatStream
from toolstream.clients.google_genai import GoogleGenAIStream
from toolstream.clients.langchain import (
    LangChainAnthropic,
    LangChainGoogleGenAI,
    LangChainMistralAI,
    LangChainOpenAI,
)
from toolstream.clients.langchain_core import LangChainCoreOpenAI
from toolstream.clients.litellm_chunks import LiteLLMOpenAIChunks
from toolstream.clients.litellm_completion import (
    LiteLLMAnthropic,
    LiteLLMBedrock,
    LiteLLMGroq,
    LiteLLMOpenAI,
)
from toolstream.clients.mistralai_chat import MistralChatStream
from toolstream.clients.node import NODE_CLIENTS
from toolstream.clients.openai_chat import OpenAIChatCreate, OpenAIChatStream
from toolstream.clients.openai_responses import OpenAIResponsesStream
from toolstream.clients.pydantic_ai_agent import PydanticAIAnthropic, PydanticAIOpenAI

__all__ = ["CHEAP", "CLIENTS", "PYTHON_CLIENTS", "get_client"]

PYTHON_CLIENTS: dict[str, type[Client]] = {
    cls.name: cls
    for cls in (
        OpenAIChatCreate,
        OpenAIChatStream,
        OpenAIResponsesStream,
        AnthropicMessagesStream,
        LangChainOpenAI,
        LangChainCoreOpenAI,
        LangChainMistralAI,
        LangChainAnthropic,
        Boto3ConverseStream,
        GoogleGenAIStream,
        LangChainGoogleGenAI,
        CohereChatStream,
        LiteLLMOpenAI,
        LiteLLMOpenAIChunks,
        LiteLLMAnthropic,
        LiteLLMBedrock,
        LiteLLMGroq,
        MistralChatStream,
        PydanticAIOpenAI,
        PydanticAIAnthropic,
    )
}

CLIENTS: dict[str, Client] = {
    **{name: cls() for name, cls in PYTHON_CLIENTS.items()},
    **{client.name: client for client in NODE_CLIENTS},
}
"""Every client: the Python drivers, then the JavaScript ones (node)."""

CHEAP: tuple[str, ...] = (
    "openai-chat-create",
    "openai-chat-stream",
    "openai-responses-stream",
    "anthropic-messages-stream",
    "langchain-openai",
    "pydantic-ai-openai",
    *(client.name for client in NODE_CLIENTS),
)
"""The clients ``make test`` drives over a sample of the corpus."""


def get_client(name: str) -> Client:
    """The client ``name``; ``NAME==VERSION``: its driver on that release of
    its library, in an environment of its own (:mod:`toolstream.clients.versions`)."""
    from toolstream.clients.node import NodeClient
    from toolstream.clients.versions import VersionedClient, VersionedNodeClient, split_version

    base, version = split_version(name)
    try:
        client = CLIENTS[base]
    except KeyError:
        raise KeyError(f"unknown client {base!r}; known: {', '.join(CLIENTS)}") from None
    if version is None:
        return client
    with _VERSIONED_LOCK:
        if name not in _VERSIONED:
            # a JavaScript driver in its release's npm folder, a Python one in its venv
            _VERSIONED[name] = (
                VersionedNodeClient(client, version)
                if isinstance(client, NodeClient)
                else VersionedClient(client, version)
            )
        return _VERSIONED[name]


_VERSIONED: dict[str, Client] = {}
_VERSIONED_LOCK = threading.Lock()
