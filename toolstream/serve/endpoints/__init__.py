"""Server endpoints: one module per wire format, registered in :data:`ENDPOINTS`
under the validator's profile name (``toolstream.profiles.PROFILES``).

Add a format by writing a module here (an :class:`Endpoint` subclass: its
route, its records, its error shape) and adding one row.  Profiles that share
a wire (OpenAI and Mistral chat) share a route; a request is served by the
row of its case's profile.
"""

from __future__ import annotations

from toolstream.serve.endpoints._base import (
    STATUS,
    Endpoint,
    Problem,
    Record,
    Reply,
    SSEEvent,
    Unplayable,
)
from toolstream.serve.endpoints.anthropic import AnthropicMessages
from toolstream.serve.endpoints.bedrock import BedrockConverseStream
from toolstream.serve.endpoints.bedrock_invoke import BedrockInvokeWithResponseStream
from toolstream.serve.endpoints.cohere import CohereChat
from toolstream.serve.endpoints.gemini import GeminiStreamGenerateContent
from toolstream.serve.endpoints.gemini_interactions import GeminiInteractions
from toolstream.serve.endpoints.openai_chat import MistralChat, OpenAIChat
from toolstream.serve.endpoints.openai_responses import OpenAIResponses

ENDPOINTS: dict[str, Endpoint] = {
    "openai": OpenAIChat(),
    "mistral": MistralChat(),
    "anthropic": AnthropicMessages(),
    "openai-responses": OpenAIResponses(),
    "bedrock": BedrockConverseStream(),
    "gemini": GeminiStreamGenerateContent(),
    "gemini-interactions": GeminiInteractions(),
    "cohere": CohereChat(),
    "bedrock-invoke": BedrockInvokeWithResponseStream(),
}

__all__ = [
    "ENDPOINTS",
    "STATUS",
    "Endpoint",
    "Problem",
    "Record",
    "Reply",
    "SSEEvent",
    "Unplayable",
]
