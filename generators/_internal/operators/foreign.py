"""The closed world: items of another wire format inside a valid turn.

:data:`VOCABULARY` holds one item of each wire the generator knows of (the
five it models, and Gemini and Cohere, which it only quotes); :data:`FOREIGN`
says, per profile, which of them that profile refuses.  Every profile is
closed-world (docs/validator.md, "Closed world"): an item it does not
recognize is ``unsupported_event`` and nothing else, as long as the item
carries none of the profile's own vocabulary.  So an item is listed for a
profile only when the profile cannot read it as one of its own: not the
native items (a chat chunk under ``openai`` or ``mistral`` would be a real
chunk, a ``message_delta`` under ``anthropic`` a repeated terminal), nothing
with an ``error`` member (``provider_error``), nothing with a top-level slot
key (``index``, ``output_index``, ``item_id``, a ``contentBlockIndex``
body), which the profiles' slot scan reads as a piece of a block.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from ..edit import insert
from ..labels import Effects
from ..model import Step, Turn
from .common import Draw

VOCABULARY: dict[str, dict[str, Any]] = {
    # An OpenAI Chat Completions chunk with a choice: no "type" (Anthropic,
    # Responses) and more than one member (Bedrock).
    "chat": {
        "id": "chatcmpl-foreign",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": "gpt-4o",
        "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": None}],
    },
    # Anthropic's end of message: a chunk without choices holding "type"
    # (chat), an unknown event type (Responses), three members (Bedrock).
    "anthropic": {
        "type": "message_delta",
        "delta": {"stop_reason": "tool_use", "stop_sequence": None},
        "usage": {"output_tokens": 12},
    },
    # A Responses ending.
    "responses": {
        "type": "response.completed",
        "response": {"id": "resp_foreign", "object": "response", "status": "completed"},
    },
    # Bedrock's end of message: one member that is no chunk member (chat),
    # no "type" (Anthropic, Responses).
    "bedrock": {"messageStop": {"stopReason": "tool_use"}},
    # A Gemini streamGenerateContent chunk with a function call.
    "gemini": {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}],
                },
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "modelVersion": "gemini-2.5-flash",
    },
    # An InvokeModelWithResponseStream frame (its bytes: base64 of Anthropic's
    # {"type":"message_stop"}): the one foreign item that is also a Bedrock
    # frame (one member, an object payload), so a ConverseStream case holding
    # it can still be played over the event-stream wire.
    "bedrock-invoke": {"chunk": {"bytes": "eyJ0eXBlIjoibWVzc2FnZV9zdG9wIn0="}},
    # The Gemini Interactions API's end of an interaction.
    "gemini-interactions": {
        "event_type": "interaction.completed",
        "interaction": {"id": "v1_foreign", "status": "requires_action"},
    },
    # A Cohere v2 chat stream's end.
    "cohere": {
        "type": "message-end",
        "id": "cohere-foreign",
        "delta": {"finish_reason": "TOOL_CALL", "usage": {"billed_units": {"output_tokens": 9}}},
    },
}
"""One item of each wire format, by its source (simplest first)."""

_OTHERS_THAN_CHAT = ("anthropic", "responses", "bedrock", "gemini", "cohere")

FOREIGN: dict[str, tuple[str, ...]] = {
    "openai": _OTHERS_THAN_CHAT,
    "mistral": _OTHERS_THAN_CHAT,
    "anthropic": ("chat", "responses", "bedrock", "gemini", "cohere"),
    "openai-responses": ("chat", "anthropic", "bedrock", "gemini", "cohere"),
    # ConverseStream is a binary event stream: every item is a frame, and a
    # multi-member item could not be sent as one (toolstream serve plays it).
    "bedrock": ("bedrock-invoke",),
    # (Not a chunk with an error member: provider_error.)
    "gemini": (
        "chat",
        "anthropic",
        "responses",
        "bedrock",
        "bedrock-invoke",
        "cohere",
        "gemini-interactions",
    ),
    # Both read the event's name first (``event_type``, ``type``): an item
    # of any other wire is an unknown event.
    "gemini-interactions": (
        "chat",
        "anthropic",
        "responses",
        "bedrock",
        "gemini",
        "bedrock-invoke",
        "cohere",
    ),
    "cohere": (
        "chat",
        "anthropic",
        "responses",
        "bedrock",
        "gemini",
        "bedrock-invoke",
        "gemini-interactions",
    ),
    # Frames: an item of another wire that is one (a ConverseStream event);
    # the events inside the frames are Anthropic's, whose closed world the
    # anthropic row already holds.
    "bedrock-invoke": ("bedrock",),
}
"""The :data:`VOCABULARY` items each profile refuses as
``unsupported_event`` (a row for every ``WIRES`` profile)."""


def foreign_item(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Insert, anywhere in the stream, one item of another wire format: an
    OpenAI chat chunk with ``choices``, an Anthropic ``message_delta``, a
    Responses ``response.completed``, a Bedrock ``{"messageStop": ...}``, a
    Gemini ``{"candidates": [...]}`` chunk, a Cohere ``message-end``
    event, or (in a ConverseStream, whose every item must be a frame) an
    InvokeModelWithResponseStream ``chunk`` frame, whichever are not the
    profile's own (:data:`FOREIGN`).  Responses:
    never before the first event (the turn begins with it).

    Reproduces a stream of another provider validated under a forced
    profile, proxies that translate one wire into another and leak an
    untranslated item, clients that skip what they do not recognize (a
    skipped item may have been a call or its end).
    Label: blocked ``unsupported_event`` (turn level, not fatal: every
    other finding is still reported).
    Shrinks toward: the first foreign item first in the stream.
    """
    low = 1 if turn.wire.begun_by_any_event else 0
    at = draw(st.integers(low, len(turn.steps)))
    source = draw(st.sampled_from(FOREIGN[turn.profile]))
    insert(turn, at, Step("raw", raw=copy.deepcopy(VOCABULARY[source])))
    fx.turn("unsupported_event")
