"""The downstream formats ``gateway-check`` speaks to a gateway: one module
per format, registered in one table keyed by the validator profile the
gateway's answer is validated with.  A new format is one
:class:`~toolstream.gateway.downstream.base.Downstream` subclass and one row.
"""

from __future__ import annotations

from typing import Final

from toolstream.gateway.downstream.anthropic_messages import AnthropicMessages
from toolstream.gateway.downstream.base import (
    Choice,
    Downstream,
    DownstreamRequest,
    neutral_choice,
)
from toolstream.gateway.downstream.openai_chat import OpenAIChat
from toolstream.gateway.downstream.openai_responses import OpenAIResponses

__all__ = [
    "DOWNSTREAMS",
    "Choice",
    "Downstream",
    "DownstreamRequest",
    "downstream",
    "neutral_choice",
]

DOWNSTREAMS: Final[dict[str, Downstream]] = {
    "openai": OpenAIChat(),
    "anthropic": AnthropicMessages(),
    "openai-responses": OpenAIResponses(),
}
"""Downstream profile -> its request builder."""


def downstream(profile: str) -> Downstream:
    """The builder for ``profile``; KeyError names the known ones."""
    try:
        return DOWNSTREAMS[profile]
    except KeyError:
        raise KeyError(
            f"no downstream format {profile!r}; known: {', '.join(sorted(DOWNSTREAMS))}"
        ) from None
