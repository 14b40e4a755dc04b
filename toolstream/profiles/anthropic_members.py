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
    # BetaDiagnostics (its cache_miss_reason, a union of objects by type,
    # is known and not read)
    "message_start.message.diagnostics": frozenset({"cache_miss_reason"}),
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
    "message_start.message": (
        "usage",
        "stop_details",
        "container",
        "context_management",
        "diagnostics",
    ),
    "message_start.message.usage": tuple(_USAGE_DETAILS),
    "message_delta": ("delta", "usage", "context_management"),
    "message_delta.delta": ("stop_details", "container"),
    "message_delta.usage": ("server_tool_use", "output_tokens_details"),
}
"""Object path -> its members that are closed objects (each at
``path.member`` in :data:`MESSAGE_LEVELS`)."""

_RESULT = frozenset({"type", "tool_use_id", "content"})
RESULT_BLOCK_MEMBERS: dict[str, frozenset[str]] = {
    # WebSearchToolResultBlock, WebFetchToolResultBlock (and their Beta*)
    "web_search_tool_result": _RESULT | {"caller"},
    "web_fetch_tool_result": _RESULT | {"caller"},
    # CodeExecutionToolResultBlock, BashCodeExecutionToolResultBlock,
    # TextEditorCodeExecutionToolResultBlock, ToolSearchToolResultBlock
    "code_execution_tool_result": _RESULT,
    "bash_code_execution_tool_result": _RESULT,
    "text_editor_code_execution_tool_result": _RESULT,
    "tool_search_tool_result": _RESULT,
    # BetaMCPToolResultBlock
    "mcp_tool_result": _RESULT | {"is_error"},
    # ContainerUploadBlock
    "container_upload": frozenset({"type", "file_id"}),
}
"""Block type -> its members, for the blocks that carry the result of a
tool the provider runs (and a file the code execution container took):
no client call, known and ignored.  Source: anthropic-sdk-python 2.14.0,
``src/anthropic/types/content_block.py``'s ``ContentBlock`` union
(``web_search_tool_result_block.py``, ``web_fetch_tool_result_block.py``,
``code_execution_tool_result_block.py``,
``bash_code_execution_tool_result_block.py``,
``text_editor_code_execution_tool_result_block.py``,
``tool_search_tool_result_block.py``, ``container_upload_block.py``) and
``types/beta/beta_mcp_tool_result_block.py``; the beta types hold the same
members.  A block's ``content`` (the search results, the fetched page, the
command's output: what the server tool returned) is known and not read, and
not closed member by member."""

CALLERS: dict[str, frozenset[str]] = {
    # DirectCaller, ServerToolCaller, ServerToolCaller20260120 (and Beta*)
    "direct": frozenset({"type"}),
    "code_execution_20250825": frozenset({"type", "tool_id"}),
    "code_execution_20260120": frozenset({"type", "tool_id"}),
}
"""Caller type -> its members: a block's ``caller`` (who issued a call:
the model itself, or the provider's code execution, programmatic tool
calling).  Source: anthropic-sdk-python 2.14.0 ``types/tool_use_block.py``'s
``Caller`` union (``direct_caller.py``, ``server_tool_caller.py``,
``server_tool_caller_20260120.py``; the same on ``ServerToolUseBlock``,
``WebSearchToolResultBlock``, ``WebFetchToolResultBlock``).  Another type,
or another member, blocks."""

CITATIONS: dict[str, frozenset[str]] = {
    # CitationCharLocation, CitationPageLocation, CitationContentBlockLocation
    "char_location": frozenset(
        {"type", "cited_text", "document_index", "document_title", "file_id"}
        | {"start_char_index", "end_char_index"}
    ),
    "page_location": frozenset(
        {"type", "cited_text", "document_index", "document_title", "file_id"}
        | {"start_page_number", "end_page_number"}
    ),
    "content_block_location": frozenset(
        {"type", "cited_text", "document_index", "document_title", "file_id"}
        | {"start_block_index", "end_block_index"}
    ),
    # CitationsWebSearchResultLocation, CitationsSearchResultLocation
    "web_search_result_location": frozenset(
        {"type", "cited_text", "encrypted_index", "title", "url"}
    ),
    "search_result_location": frozenset(
        {"type", "cited_text", "search_result_index", "source", "title"}
        | {"start_block_index", "end_block_index"}
    ),
}
"""Citation type -> its members: each entry of a text block's ``citations``
and the ``citation`` of a ``citations_delta``.  Source: anthropic-sdk-python
2.14.0 ``types/citations_delta.py``'s ``Citation`` union and
``types/text_citation.py`` (``citation_char_location.py``,
``citation_page_location.py``, ``citation_content_block_location.py``,
``citations_web_search_result_location.py``,
``citations_search_result_location.py``; the beta types hold the same)."""

OPEN_LEVELS: dict[str, str] = {
    "content_block.input": (
        "the tool_use block's start input: the call's own arguments object (its "
        "members are the tool's parameters), checked against the tool's schema, not "
        "a protocol vocabulary (anthropic-sdk-python ToolUseBlock.input: Dict[str, object])"
    ),
}
"""Objects whose members are open on purpose: path -> why, with the source.
The closed-world walk (tests/support/every_level/walk.py) leaves them out."""
