"""The members the ``anthropic`` profile knows on the message-level objects
of a Messages stream, by the object's path (the path an unknown member's
finding names).

None of them carries a client call's id, name or arguments: they are read
(``stop_reason``, ``content``) or known and ignored (usage, containers,
stop details, beta context management).  A member outside its object's set
blocks the turn unless a reviewed dialect (``toolstream.profiles.dialects``,
profile ``anthropic``, level = the object's path) names it.  The objects
that carry a call (the content blocks, ``input_json_delta``, the block
events) are closed in ``anthropic.py`` itself.

Source of every set: the Messages streaming reference
(https://docs.claude.com/en/docs/build-with-claude/streaming, "Event types")
and the API reference's Message and Usage objects
(https://docs.claude.com/en/api/messages), as anthropic-sdk-python 2.14.0
spells them, beta members included (the same endpoint sends them when a
beta is on): ``src/anthropic/types/raw_message_start_event.py``,
``message.py``, ``usage.py``, ``cache_creation.py``, ``server_tool_usage.py``,
``output_tokens_details.py``, ``raw_message_delta_event.py`` (its ``Delta``),
``message_delta_usage.py``, ``raw_message_stop_event.py``, and
``types/beta/beta_message.py``, ``beta_usage.py``,
``beta_raw_message_delta_event.py``, ``beta_message_delta_usage.py``.
The objects ``stop_details``
(``beta_refusal_stop_details.py``; the stable ``RefusalStopDetails`` holds
a subset), ``container`` (``beta_container.py``) and
``context_management`` (``beta_context_management_response.py``) are
closed too: each is documented member by member.  Their arrays
(``container.skills``, ``context_management.applied_edits``) list what the
request loaded or had edited; their entries are known and not read, and
not closed member by member.  Members seen in the real recordings surveyed (``stop_details``,
``usage.cache_creation``, ``usage.inference_geo``, ``usage.service_tier``,
``usage.server_tool_use``, ``tool_use.caller``) are all in these types.
"""

from __future__ import annotations

_USAGE_DETAILS = {
    # BetaUsage / BetaMessageDeltaUsage members that are objects of counts.
    "cache_creation": frozenset({"ephemeral_1h_input_tokens", "ephemeral_5m_input_tokens"}),
    "server_tool_use": frozenset({"web_fetch_requests", "web_search_requests"}),
    "output_tokens_details": frozenset({"thinking_tokens"}),
}

# BetaRefusalStopDetails (RefusalStopDetails: type, category, explanation)
_STOP_DETAILS = frozenset(
    {
        "type",
        "category",
        "explanation",
        "fallback_credit_token",
        "fallback_has_prefill_claim",
        "recommended_model",
    }
)
# BetaContainer (Container: id, expires_at)
_CONTAINER = frozenset({"id", "expires_at", "skills"})
# BetaContextManagementResponse
_CONTEXT_MANAGEMENT = frozenset({"applied_edits"})

MESSAGE_LEVELS: dict[str, frozenset[str]] = {
    # RawMessageStartEvent
    "message_start": frozenset({"type", "message"}),
    # Message, BetaMessage (context_management, input_transformations: beta)
    "message_start.message": frozenset(
        {
            "id",
            "type",
            "role",
            "model",
            "content",
            "stop_reason",
            "stop_sequence",
            "stop_details",
            "usage",
            "container",
            "diagnostics",
            "context_management",
            "input_transformations",
        }
    ),
    # Usage, BetaUsage (fallback_credit, iterations: beta)
    "message_start.message.usage": frozenset(
        {
            "input_tokens",
            "output_tokens",
            "cache_creation_input_tokens",
            "cache_read_input_tokens",
            "cache_creation",
            "server_tool_use",
            "output_tokens_details",
            "service_tier",
            "inference_geo",
            "speed",
            "fallback_credit",
            "iterations",
        }
    ),
    **{f"message_start.message.usage.{name}": own for name, own in _USAGE_DETAILS.items()},
    "message_start.message.stop_details": _STOP_DETAILS,
    "message_start.message.container": _CONTAINER,
    "message_start.message.context_management": _CONTEXT_MANAGEMENT,
    # RawMessageDeltaEvent, BetaRawMessageDeltaEvent
    "message_delta": frozenset(
        {"type", "delta", "usage", "context_management", "input_transformations"}
    ),
    # RawMessageDeltaEvent.Delta
    "message_delta.delta": frozenset({"stop_reason", "stop_sequence", "stop_details", "container"}),
    "message_delta.delta.stop_details": _STOP_DETAILS,
    "message_delta.delta.container": _CONTAINER,
    "message_delta.context_management": _CONTEXT_MANAGEMENT,
    # MessageDeltaUsage, BetaMessageDeltaUsage (fallback_credit, iterations: beta)
    "message_delta.usage": frozenset(
        {
            "input_tokens",
            "output_tokens",
            "cache_creation_input_tokens",
            "cache_read_input_tokens",
            "server_tool_use",
            "output_tokens_details",
            "fallback_credit",
            "iterations",
        }
    ),
    **{
        f"message_delta.usage.{name}": own
        for name, own in _USAGE_DETAILS.items()
        if name != "cache_creation"
    },
    # RawMessageStopEvent
    "message_stop": frozenset({"type"}),
    # the keep-alive (streaming reference, "Ping events")
    "ping": frozenset({"type"}),
}
"""Object path -> the members the profile knows there."""

NESTED: dict[str, tuple[str, ...]] = {
    # Which members of a level are objects with a level of their own.
    "message_start": ("message",),
    "message_start.message": ("usage", "stop_details", "container", "context_management"),
    "message_start.message.usage": tuple(_USAGE_DETAILS),
    "message_delta": ("delta", "usage", "context_management"),
    "message_delta.delta": ("stop_details", "container"),
    "message_delta.usage": ("server_tool_use", "output_tokens_details"),
}
"""Object path -> its members that are closed objects (each at
``path.member`` in :data:`MESSAGE_LEVELS`)."""
