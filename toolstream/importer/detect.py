"""Which profile a capture belongs to, read from its content.

Each event is classified by its shape:

* **bedrock** - an AWS event-stream frame; or an object with one key that is
  a ConverseStream event type (``messageStart``, ``contentBlockDelta``...,
  or one ending in ``Exception``); or a decoded frame
  ``{"headers": {":event-type": ...}, "payload": ...}``;
* **anthropic** - ``type`` is a Messages stream event (``message_start``,
  ``content_block_delta``, ``ping``...);
* **openai-responses** - ``type`` starts with ``response.``;
* **chat** - a ``choices`` array (OpenAI Chat Completions and Mistral);
* **gemini** - a ``GenerateContentResponse``: a ``candidates`` array, or
  ``promptFeedback`` (each chunk of ``streamGenerateContent``, as SSE or as
  the elements of the JSON-array body sent without ``alt=sse``);
* **gemini-interactions** - ``event_type`` is an Interactions API event
  (``interaction.*``, ``step.*``);
* **cohere** - ``type`` is a Cohere v2 chat stream event (``message-start``,
  ``tool-call-start``..., hyphenated);
* **bedrock-invoke** - an AWS event-stream ``chunk`` frame (or the one-key
  ``{"chunk": {"bytes": ...}}`` form, or a decoded frame whose
  ``:event-type`` is ``chunk``): InvokeModelWithResponseStream.  A Bedrock
  exception alone says nothing about which of the two Bedrock APIs it came
  from: it goes with the other Bedrock events, ConverseStream when there are
  none;
* neutral - ``{"type": "error"}`` and ``{"error": ...}``, which several
  APIs share; anything else is unclassified.

Exactly one family must appear, or the capture is refused (mixed families,
or none at all): pass ``--profile``.

Chat chunks are the same shape for OpenAI and Mistral.  The rule:

1. a tool call without ``index`` -> ``mistral`` (Mistral sends whole calls
   without one; the ``openai`` profile would reject them);
2. else a ``model`` that names a Mistral model (``mistral-*``,
   ``codestral-*``, ``ministral-*``, ``pixtral-*``, ``magistral-*``,
   ``devstral-*``, ``open-mistral-*``, ``open-mixtral-*``...) -> ``mistral``;
3. else a request whose ``tool_choice`` is ``"any"`` (Mistral's word for
   "required") -> ``mistral``;
4. else ``openai``, and the reason says so.  When nothing above holds, the
   two profiles read the stream identically (they differ only on index-less
   calls and on ``tool_choice: "any"``), so the choice cannot change a
   verdict.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolstream.capture import Record

BEDROCK_EVENTS = frozenset(
    {
        "messageStart",
        "contentBlockStart",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
    }
)
ANTHROPIC_EVENTS = frozenset(
    {
        "message_start",
        "message_delta",
        "message_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "ping",
    }
)
_MISTRAL_MODEL = re.compile(
    r"(?i)^(?:open-)?(?:mistral|mixtral|codestral|ministral|pixtral|magistral|devstral|voxtral)\b"
)

COHERE_EVENTS = frozenset(
    {
        "message-start",
        "message-end",
        "content-start",
        "content-delta",
        "content-end",
        "tool-plan-delta",
        "tool-call-start",
        "tool-call-delta",
        "tool-call-end",
        "citation-start",
        "citation-end",
        "debug",
    }
)
INVOKE_EVENT = "chunk"
"""InvokeModelWithResponseStream's event type (a ``PayloadPart``)."""

FAMILIES = (
    "anthropic",
    "bedrock",
    "chat",
    "openai-responses",
    "gemini",
    "gemini-interactions",
    "cohere",
    "bedrock-invoke",
)
_BEDROCK_EXCEPTION = "bedrock-exception"
_FAMILY_NAMES = {
    "anthropic": "Anthropic Messages events",
    "openai-responses": "OpenAI Responses events (type response.*)",
    "bedrock": "Bedrock ConverseStream events",
    "gemini": "Gemini streamGenerateContent chunks (candidates[])",
    "gemini-interactions": "Gemini Interactions API events (event_type interaction.*/step.*)",
    "cohere": "Cohere v2 chat stream events (type message-start, tool-call-*...)",
    "bedrock-invoke": "Bedrock InvokeModelWithResponseStream chunk events",
}


class DetectionError(ValueError):
    """The profile cannot be told from the content."""


@dataclass(frozen=True)
class Detection:
    profile: str
    reason: str


def is_bedrock_event_name(name: str) -> bool:
    return name in BEDROCK_EVENTS or name.endswith("Exception")


def is_decoded_frame(payload: Any) -> bool:
    """``{"headers": {...}, "payload": ...}``: one frame as decoded to JSON."""
    return (
        isinstance(payload, dict)
        and set(payload) == {"headers", "payload"}
        and isinstance(payload["headers"], dict)
    )


def family_of(record: Record, capture_format: str) -> str | None:
    """The family an event belongs to; ``"neutral"`` or None (unclassified)."""
    if capture_format == "aws-eventstream":
        return _bedrock_family(_frame_type(record.headers or {}))
    payload = record.payload
    if record.event is not None and (
        is_bedrock_event_name(record.event) or record.event == INVOKE_EVENT
    ):
        return _bedrock_family(record.event)
    if not isinstance(payload, dict):
        return None
    if is_decoded_frame(payload):
        return _bedrock_family(_frame_type(payload["headers"]))
    kind = payload.get("type")
    if isinstance(kind, str):
        if kind in ANTHROPIC_EVENTS:
            return "anthropic"
        if kind.startswith("response."):
            return "openai-responses"
        if kind in COHERE_EVENTS:
            return "cohere"
        if kind == "error":
            return "neutral"
    event_type = payload.get("event_type")
    if isinstance(event_type, str) and event_type.startswith(("interaction.", "step.")):
        return "gemini-interactions"
    if "choices" in payload:
        return "chat"
    if isinstance(payload.get("candidates"), list) or isinstance(
        payload.get("promptFeedback"), dict
    ):
        return "gemini"
    if len(payload) == 1:
        (key,) = payload
        if key == INVOKE_EVENT and isinstance(payload[key], dict) and "bytes" in payload[key]:
            return "bedrock-invoke"
        if is_bedrock_event_name(key):
            return _bedrock_family(key)
        if key == "error":
            return "neutral"
    return None


def _frame_type(headers: Mapping[str, Any]) -> str:
    name = headers.get(":event-type") or headers.get(":exception-type") or ""
    return str(name)


def _bedrock_family(event_name: str) -> str:
    if event_name == INVOKE_EVENT:
        return "bedrock-invoke"
    if event_name.endswith("Exception") or not event_name:
        return _BEDROCK_EXCEPTION  # an exception or error frame: either API
    return "bedrock"


def detect_profile(
    records: Sequence[Record], capture_format: str, request: Mapping[str, Any] | None
) -> Detection:
    """The profile of a capture, with the reason (see the module docstring)."""
    first: dict[str, Record] = {}
    exception: Record | None = None
    for record in records:
        if record.kind != "json" and capture_format != "aws-eventstream":
            continue
        family = family_of(record, capture_format)
        if family == _BEDROCK_EXCEPTION:
            exception = exception or record
            continue
        if family in FAMILIES and family not in first:
            first[family] = record
    if exception is not None and not ({"bedrock", "bedrock-invoke"} & set(first)):
        first["bedrock"] = exception
    if not first:
        raise DetectionError(
            "cannot tell the profile: no event has the shape of a known provider stream;"
            " pass --profile"
        )
    if len(first) > 1:
        seen = ", ".join(f"{name} (first at {rec.location})" for name, rec in sorted(first.items()))
        raise DetectionError(f"the capture mixes event families: {seen}; pass --profile")
    ((family, record),) = first.items()
    if family == "chat":
        return _chat_profile(records, request)
    reason = f"{_FAMILY_NAMES[family]}, first at {record.location}"
    if family == "gemini" and capture_format == "json-array":
        reason += " (the JSON-array body of streamGenerateContent without alt=sse)"
    return Detection(profile=family, reason=reason)


def _chat_profile(records: Sequence[Record], request: Mapping[str, Any] | None) -> Detection:
    models: list[str] = []
    for record in records:
        payload = record.payload
        if not isinstance(payload, dict):
            continue
        for call in _tool_calls(payload):
            if isinstance(call, dict) and "index" not in call:
                return Detection(
                    "mistral",
                    f"chat chunks with a tool call without 'index' at {record.location}"
                    " (Mistral's whole-call form)",
                )
        model = payload.get("model")
        if isinstance(model, str) and model not in models:
            models.append(model)
    for model in models:
        if _MISTRAL_MODEL.match(model):
            return Detection("mistral", f"chat chunks from the Mistral model {model[:60]!r}")
    if request is not None and request.get("tool_choice") == "any":
        return Detection("mistral", "chat chunks and the request's tool_choice is 'any' (Mistral)")
    named = f"model {models[0][:60]!r}" if models else "no model field"
    return Detection(
        "openai",
        f"chat-completions chunks ({named}); nothing marks them as Mistral (every tool call"
        " has an index), and for such chunks the openai and mistral profiles agree;"
        " chose openai (pass --profile mistral to override)",
    )


def _tool_calls(chunk: dict[str, Any]) -> list[Any]:
    choices = chunk.get("choices")
    calls: list[Any] = []
    if isinstance(choices, list):
        for choice in choices:
            delta = choice.get("delta") if isinstance(choice, dict) else None
            found = delta.get("tool_calls") if isinstance(delta, dict) else None
            if isinstance(found, list):
                calls.extend(found)
    return calls
