"""Provider profiles: each turns one wire shape into the normalized events
of ``toolstream/events.py``.  Add a profile by writing a module here and
registering its class in :data:`PROFILES`."""

from __future__ import annotations

from toolstream.profiles._base import Profile
from toolstream.profiles.anthropic import AnthropicMessages
from toolstream.profiles.bedrock import Bedrock
from toolstream.profiles.bedrock_invoke import BedrockInvoke
from toolstream.profiles.cohere import Cohere
from toolstream.profiles.gemini import Gemini
from toolstream.profiles.gemini_interactions import GeminiInteractions
from toolstream.profiles.openai_chat import MistralChat, OpenAIChat
from toolstream.profiles.openai_responses import OpenAIResponses

PROFILES: dict[str, type[Profile]] = {
    "openai": OpenAIChat,
    "mistral": MistralChat,
    "anthropic": AnthropicMessages,
    "openai-responses": OpenAIResponses,
    "bedrock": Bedrock,
    "gemini": Gemini,
    "gemini-interactions": GeminiInteractions,
    "cohere": Cohere,
    "bedrock-invoke": BedrockInvoke,
}

__all__ = ["PROFILES", "Profile"]
