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
closed too: each is documented member by member.  The entries of their
arrays, of ``input_transformations`` and the ``diagnostics``'
``cache_miss_reason`` are closed by their ``type`` (:data:`MESSAGE_ENTRIES`):
``beta_container_skill.py``; ``beta_context_management_response.py``'s
``AppliedEdit`` (``beta_clear_tool_uses_20250919_edit_response.py``,
``beta_clear_thinking_20251015_edit_response.py``);
``beta_input_transformation.py``
(``beta_thinking_dropped_input_transformation.py``,
``beta_thinking_mismatch_allowed_input_transformation.py``); and
``beta_diagnostics.py``'s ``beta_cache_miss_reason.py``
(``beta_cache_miss_model_changed.py``, ``beta_cache_miss_system_changed.py``,
``beta_cache_miss_tools_changed.py``, ``beta_cache_miss_messages_changed.py``,
``beta_cache_miss_previous_message_not_found.py``,
``beta_cache_miss_unavailable.py``).  A server tool result block's
``content`` is closed by its type too (:data:`RESULT_CONTENT`).  Members
seen in the real recordings surveyed (``stop_details``,
``usage.cache_creation``, ``usage.inference_geo``, ``usage.service_tier``,
``usage.server_tool_use``, ``tool_use.caller``, a tool search result's
``tool_references``, an MCP result's text blocks) are all in these types.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

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
    # BetaFallbackCreditUsage (its status: USAGE_ENTRIES)
    "message_start.message.usage.fallback_credit": frozenset({"status"}),
    "message_delta.usage.fallback_credit": frozenset({"status"}),
    "message_start.message.stop_details": _STOP_DETAILS,
    "message_start.message.container": _CONTAINER,
    "message_start.message.context_management": _CONTEXT_MANAGEMENT,
    # BetaDiagnostics (its cache_miss_reason: MESSAGE_ENTRIES)
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
    "message_start.message.usage": (*_USAGE_DETAILS, "fallback_credit"),
    "message_delta": ("delta", "usage", "context_management"),
    "message_delta.delta": ("stop_details", "container"),
    "message_delta.usage": ("server_tool_use", "output_tokens_details", "fallback_credit"),
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
command's output: what the server tool returned) is not read, and is closed
member by member by its type (:data:`RESULT_CONTENT`)."""

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


# -- the entries of the message-level arrays, and the cache miss reason ----------

_SKILL = frozenset({"type", "skill_id", "version"})
_CACHE_MISSED = frozenset({"type", "cache_missed_input_tokens"})
_INPUT_TRANSFORMATION = frozenset({"type", "path", "reason"})
_ENTRIES: dict[str, dict[str, frozenset[str]]] = {
    # BetaContainerSkill (ContainerSkill): its type is "anthropic" or "custom"
    "container.skills[]": {"anthropic": _SKILL, "custom": _SKILL},
    # BetaContextManagementResponse.applied_edits: AppliedEdit
    "context_management.applied_edits[]": {
        "clear_tool_uses_20250919": frozenset(
            {"type", "cleared_input_tokens", "cleared_tool_uses"}
        ),
        "clear_thinking_20251015": frozenset(
            {"type", "cleared_input_tokens", "cleared_thinking_turns"}
        ),
    },
    # BetaMessage.input_transformations, BetaRawMessageDeltaEvent's: BetaInputTransformation
    "input_transformations[]": {
        "thinking_dropped": _INPUT_TRANSFORMATION,
        "thinking_mismatch_allowed": _INPUT_TRANSFORMATION,
    },
    # BetaDiagnostics.cache_miss_reason: BetaCacheMissReason
    "diagnostics.cache_miss_reason": {
        "model_changed": _CACHE_MISSED,
        "system_changed": _CACHE_MISSED,
        "tools_changed": _CACHE_MISSED,
        "messages_changed": _CACHE_MISSED,
        "previous_message_not_found": frozenset({"type"}),
        "unavailable": frozenset({"type"}),
    },
}
MESSAGE_ENTRIES: dict[str, dict[str, frozenset[str]]] = {
    f"{where}.{path}": by_type
    for where, paths in (
        (
            "message_start.message",
            (
                "container.skills[]",
                "context_management.applied_edits[]",
                "input_transformations[]",
                "diagnostics.cache_miss_reason",
            ),
        ),
        (
            "message_delta",
            ("context_management.applied_edits[]", "input_transformations[]"),
        ),
        ("message_delta.delta", ("container.skills[]",)),
    )
    for path in paths
    for by_type in (_ENTRIES[path],)
}
"""Path (``[]``: each entry of an array) -> type -> members: the entries of
the arrays of the message-level objects (the skills a container loaded, the
context edits applied, the input transformations) and the diagnostics'
``cache_miss_reason``, closed by their ``type`` (sources: the module
docstring).  An entry of another type, or not an object, blocks naming the
path; so does an object where the array is."""


# -- a server tool result block's content -------------------------------------------


@dataclass(frozen=True)
class Closed:
    """An object closed member by member, and the objects inside it: for a
    member in ``inner``, its value when an object; in ``entries``, each entry
    of its value when an array.  Each is closed by its ``type`` (a mapping
    type -> :class:`Closed`) or, having no type, by one :class:`Closed`.
    Only members are checked, never a value's text."""

    members: frozenset[str]
    inner: Mapping[str, Mapping[str, Closed] | Closed] = field(default_factory=dict)
    entries: Mapping[str, Mapping[str, Closed] | Closed] = field(default_factory=dict)


def _closed(*members: str, **entries: Mapping[str, Closed]) -> Closed:
    return Closed(frozenset(members), entries=entries)


def _error(kind: str, *more: str) -> dict[str, Closed]:
    # a result's error object: {"type": "..._tool_result_error", "error_code": ...}
    return {kind: _closed("type", "error_code", *more)}


_TEXT_CITATIONS = {kind: Closed(own) for kind, own in CITATIONS.items()}
# BetaDocumentBlock (DocumentBlock): its source is BetaBase64PDFSource or
# BetaPlainTextSource, its citations a BetaCitationConfig (CitationsConfig)
_SOURCE = frozenset({"type", "media_type", "data"})
_DOCUMENT = Closed(
    frozenset({"type", "source", "title", "citations"}),
    inner={
        "source": {"base64": Closed(_SOURCE), "text": Closed(_SOURCE)},
        "citations": Closed(frozenset({"enabled"})),
    },
)
_EXECUTION = ("type", "return_code", "stderr")
RESULT_CONTENT: dict[str, Closed] = {
    # BetaWebSearchToolResultBlockContent: an error object, or an array of
    # BetaWebSearchResultBlock
    "web_search_tool_result": Closed(
        frozenset(),
        inner={"content": _error("web_search_tool_result_error")},
        entries={
            "content": {
                "web_search_result": _closed(
                    "type", "url", "title", "encrypted_content", "page_age"
                )
            }
        },
    ),
    # BetaWebFetchToolResultBlock.content: BetaWebFetchToolResultErrorBlock
    # or BetaWebFetchBlock (its content a BetaDocumentBlock)
    "web_fetch_tool_result": Closed(
        frozenset(),
        inner={
            "content": {
                **_error("web_fetch_tool_result_error"),
                "web_fetch_result": Closed(
                    frozenset({"type", "url", "retrieved_at", "content"}),
                    inner={"content": {"document": _DOCUMENT}},
                ),
            }
        },
    ),
    # BetaCodeExecutionToolResultBlockContent: BetaCodeExecutionToolResultErrorObject,
    # BetaCodeExecutionResultBlock, BetaEncryptedCodeExecutionResultBlock (their
    # content: BetaCodeExecutionOutputBlock)
    "code_execution_tool_result": Closed(
        frozenset(),
        inner={
            "content": {
                **_error("code_execution_tool_result_error"),
                "code_execution_result": _closed(
                    *_EXECUTION,
                    "stdout",
                    "content",
                    content={"code_execution_output": _closed("type", "file_id")},
                ),
                "encrypted_code_execution_result": _closed(
                    *_EXECUTION,
                    "encrypted_stdout",
                    "content",
                    content={"code_execution_output": _closed("type", "file_id")},
                ),
            }
        },
    ),
    # BetaBashCodeExecutionToolResultBlock.content: the error object or
    # BetaBashCodeExecutionResultBlock (its content: BetaBashCodeExecutionOutputBlock)
    "bash_code_execution_tool_result": Closed(
        frozenset(),
        inner={
            "content": {
                **_error("bash_code_execution_tool_result_error"),
                "bash_code_execution_result": _closed(
                    *_EXECUTION,
                    "stdout",
                    "content",
                    content={"bash_code_execution_output": _closed("type", "file_id")},
                ),
            }
        },
    ),
    # BetaTextEditorCodeExecutionToolResultBlock.content: the error object, or
    # the view, create or str_replace result
    "text_editor_code_execution_tool_result": Closed(
        frozenset(),
        inner={
            "content": {
                **_error("text_editor_code_execution_tool_result_error", "error_message"),
                "text_editor_code_execution_view_result": _closed(
                    "type", "content", "file_type", "num_lines", "start_line", "total_lines"
                ),
                "text_editor_code_execution_create_result": _closed("type", "is_file_update"),
                "text_editor_code_execution_str_replace_result": _closed(
                    "type", "lines", "new_lines", "new_start", "old_lines", "old_start"
                ),
            }
        },
    ),
    # BetaToolSearchToolResultBlock.content: the error object or
    # BetaToolSearchToolSearchResultBlock (its tool_references: BetaToolReferenceBlock)
    "tool_search_tool_result": Closed(
        frozenset(),
        inner={
            "content": {
                **_error("tool_search_tool_result_error", "error_message"),
                "tool_search_tool_search_result": _closed(
                    "type",
                    "tool_references",
                    tool_references={"tool_reference": _closed("type", "tool_name")},
                ),
            }
        },
    ),
    # BetaMCPToolResultBlock.content: a string, or an array of BetaTextBlock
    # (its citations: CITATIONS)
    "mcp_tool_result": Closed(
        frozenset(),
        entries={
            "content": {
                "text": Closed(
                    frozenset({"type", "text", "citations"}),
                    entries={"citations": _TEXT_CITATIONS},
                )
            }
        },
    ),
}
"""Result block type -> what is inside its ``content`` (the block's own
members are :data:`RESULT_BLOCK_MEMBERS`; ``members`` here is empty): the
object, or each entry of the array, the block's ``content`` may be, by its
``type``, and the objects inside those.  An error result
(``..._tool_result_error``) is closed by its type too.  Source:
anthropic-sdk-python 2.14.0 ``types/beta/`` (the stable types hold the same
members): ``beta_web_search_tool_result_block.py``,
``beta_web_search_tool_result_block_content.py``,
``beta_web_search_result_block.py``,
``beta_web_search_tool_result_error_object.py``;
``beta_web_fetch_tool_result_block.py``, ``beta_web_fetch_block.py``,
``beta_web_fetch_tool_result_error_block.py``, ``beta_document_block.py``,
``beta_base64_pdf_source.py``, ``beta_plain_text_source.py``,
``beta_citation_config.py``; ``beta_code_execution_tool_result_block.py``,
``beta_code_execution_tool_result_block_content.py``,
``beta_code_execution_result_block.py``,
``beta_encrypted_code_execution_result_block.py``,
``beta_code_execution_output_block.py``,
``beta_code_execution_tool_result_error_object.py``;
``beta_bash_code_execution_tool_result_block.py``,
``beta_bash_code_execution_result_block.py``,
``beta_bash_code_execution_output_block.py``,
``beta_bash_code_execution_tool_result_error_object.py``;
``beta_text_editor_code_execution_tool_result_block.py``,
``beta_text_editor_code_execution_view_result_block.py``,
``beta_text_editor_code_execution_create_result_block.py``,
``beta_text_editor_code_execution_str_replace_result_block.py``,
``beta_text_editor_code_execution_tool_result_error_object.py``;
``beta_tool_search_tool_result_block.py``,
``beta_tool_search_tool_search_result_block.py``,
``beta_tool_reference_block.py``,
``beta_tool_search_tool_result_error_object.py``;
``beta_mcp_tool_result_block.py``, ``beta_text_block.py``,
``beta_text_citation.py``.  ``container_upload`` has no content."""


def _rows(
    path: str, inside: Mapping[str, Mapping[str, Closed] | Closed], mark: str
) -> Iterator[tuple[str, frozenset[str]]]:
    for member, shapes in inside.items():
        where = f"{path}.{member}{mark}"
        typed = {"": shapes} if isinstance(shapes, Closed) else shapes
        for kind, shape in typed.items():
            at = f"{where} ({kind})" if kind else where
            yield at, shape.members
            yield from _rows(at, shape.inner, "")
            yield from _rows(at, shape.entries, "[]")


# -- the typed objects inside usage (beta) ----------------------------------------------

_CACHE_CREATION = Closed(_USAGE_DETAILS["cache_creation"])
_ITERATION = frozenset(
    {
        "type",
        "input_tokens",
        "output_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
        "cache_creation",
    }
)
# BetaIterationsUsage: BetaMessageIterationUsage, BetaCompactionIterationUsage,
# BetaAdvisorMessageIterationUsage, BetaFallbackMessageIterationUsage (by type)
_ITERATIONS = {
    kind: Closed(_ITERATION | extra, inner={"cache_creation": _CACHE_CREATION})
    for kind, extra in (
        ("message", frozenset({"model"})),
        ("compaction", frozenset()),
        ("advisor_message", frozenset({"model"})),
        ("fallback_message", frozenset({"model"})),
    )
}
# BetaFallbackCreditUsage.status: BetaFallbackCreditNotApplied, BetaFallbackCreditRedeemed
_FALLBACK_STATUS = {
    "not_applied": Closed(frozenset({"type", "reason", "remove_to_redeem"})),
    "redeemed": Closed(frozenset({"type"})),
}
USAGE_ENTRIES: dict[str, dict[str, Closed]] = {
    f"{usage}.{path}": shapes
    for usage in ("message_start.message.usage", "message_delta.usage")
    for path, shapes in (
        ("iterations[]", _ITERATIONS),
        ("fallback_credit.status", _FALLBACK_STATUS),
    )
}
"""Path (``[]``: each entry of an array) -> type -> :class:`Closed`: the beta
usage's per-iteration entries (each with its ``cache_creation``) and its
fallback credit's ``status``, closed by their ``type`` (anthropic-sdk-python
2.14.0 ``types/beta/beta_iterations_usage.py`` and the four iteration usage
files, ``beta_fallback_credit_usage.py``, ``beta_fallback_credit_not_applied.py``,
``beta_fallback_credit_redeemed.py``)."""


RESULT_CONTENT_LEVELS: dict[str, frozenset[str]] = {
    at: members
    for block, shape in RESULT_CONTENT.items()
    for inside, mark in ((shape.inner, ""), (shape.entries, "[]"))
    for at, members in _rows(f"content_block ({block})", inside, mark)
}
""":data:`RESULT_CONTENT` flattened: ``content_block (block type).content
(its type)...`` -> members, one row per object (the documentation's table)."""

OPEN_LEVELS: dict[str, str] = {
    "content_block.input": (
        "the tool_use block's start input: the call's own arguments object (its "
        "members are the tool's parameters), checked against the tool's schema, not "
        "a protocol vocabulary (anthropic-sdk-python ToolUseBlock.input: Dict[str, object])"
    ),
}
"""Objects whose members are open on purpose: path -> why, with the source.
The closed-world walk (tests/support/every_level/walk.py) leaves them out."""
