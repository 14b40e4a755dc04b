"""The members the ``openai-responses`` profile knows on the response-level
objects of a Responses stream and on the output items it reads, by the
object's path (the path an unknown member's finding names).

The response object (in ``response.created``, ``response.in_progress``,
``response.queued``, ``response.completed``, ``response.incomplete``,
``response.failed``) echoes the request and reports status and usage: its
members are known and ignored, except ``status``, ``error`` and
``incomplete_details``, which the profile reads.  Output items other than
``function_call`` carry no client call: their members are known and
ignored.  A member outside its object's set blocks the turn unless a
reviewed dialect (``toolstream.profiles.dialects``, profile
``openai-responses``, level = the object's path) names it.  What carries a
call (the ``function_call`` item and the argument events) is closed in
``openai_responses.py`` itself.

Source of every set: the Responses API reference, "Streaming events"
(https://platform.openai.com/docs/api-reference/responses-streaming) and
"The response object" (https://platform.openai.com/docs/api-reference/responses/object),
as openai-python 3.57.0 spells them: ``src/openai/types/responses/``
``response_created_event.py`` (and the other lifecycle events),
``response.py``, ``response_usage.py`` (``InputTokensDetails``,
``OutputTokensDetails``), and, for the items, the ``ResponseOutputItem``
union (``response_output_item.py``, ``response_output_message.py``,
``response_reasoning_item.py``, ``response_compaction_item.py``,
``response_tool_search_call.py``, ``response_tool_search_output_item.py``,
``response_function_web_search.py``, ``response_file_search_tool_call.py``,
``response_code_interpreter_tool_call.py``).  Members seen in the real
recordings surveyed (``moderation``, ``tool_usage``, ``completed_at``,
``prompt_cache_retention``, ``safety_identifier``,
``input_tokens_details.cache_write_tokens``, a message item's ``phase``) are
all in these types.
"""

from __future__ import annotations

LIFECYCLE_EVENTS = frozenset(
    {
        "response.created",
        "response.in_progress",
        "response.queued",
        "response.completed",
        "response.incomplete",
        "response.failed",
    }
)
"""The events that carry the response object."""

RESPONSE_LEVELS: dict[str, frozenset[str]] = {
    # ResponseCreatedEvent, ResponseInProgressEvent, ... (the same three members)
    "event": frozenset({"type", "response", "sequence_number"}),
    # Response
    "response": frozenset(
        {
            "id",
            "object",
            "created_at",
            "completed_at",
            "status",
            "error",
            "incomplete_details",
            "instructions",
            "input_transformations",
            "max_output_tokens",
            "max_tool_calls",
            "metadata",
            "model",
            "moderation",
            "output",
            "parallel_tool_calls",
            "previous_response_id",
            "conversation",
            "prompt",
            "prompt_cache_key",
            "prompt_cache_options",
            "prompt_cache_retention",
            "prompt_cache_diagnostics",
            "reasoning",
            "safety_identifier",
            "service_tier",
            "temperature",
            "text",
            "tool_choice",
            "tool_usage",
            "tools",
            "top_logprobs",
            "top_p",
            "truncation",
            "usage",
            "user",
            "background",
            "access_programs",
            "image",
            # Not in openai-python's Response, but members of the response
            # object in the Open Responses reference
            # (https://www.openresponses.org/reference) and sent by OpenAI
            # itself: pydantic/pydantic-ai tests/models/cassettes/
            # test_openai_responses/test_openai_responses_phase_streamed_on_part_start.yaml,
            # simonw/llm tests/cassettes/test_openai_responses/
            # test_responses_tool_use_streaming.yaml (store in every recording).
            "store",
            "frequency_penalty",
            "presence_penalty",
            # async-openai's Response (generated from OpenAI's OpenAPI spec)
            "billing",
        }
    ),
    # ResponseUsage
    "response.usage": frozenset(
        {
            "input_tokens",
            "input_tokens_details",
            "output_tokens",
            "output_tokens_details",
            "total_tokens",
        }
    ),
    "response.usage.input_tokens_details": frozenset(
        {"cached_tokens", "cache_write_tokens", "cache_write_tokens_details"}
    ),
    "response.usage.output_tokens_details": frozenset({"reasoning_tokens"}),
    # The request echoes and reports the profile does not read, closed as
    # openai-python 3.57.0 spells them: shared/reasoning.py's Reasoning,
    # response_text_config.py's ResponseTextConfig, response.py's ToolUsage
    # (ToolUsageImageGen and its three details, ToolUsageWebSearch),
    # Conversation, IncompleteDetails, PromptCacheOptions, Image, and
    # response_error.py's ResponseError.
    "response.reasoning": frozenset({"context", "effort", "generate_summary", "mode", "summary"}),
    "response.text": frozenset({"format", "verbosity"}),
    # response_format_text_config.py's ResponseFormatTextConfig, a union by
    # type (ResponseFormatText, ResponseFormatJSONObject: type only;
    # ResponseFormatTextJSONSchemaConfig): one set for the three.  Its
    # ``schema`` is the caller's JSON Schema (OPEN_LEVELS).
    "response.text.format": frozenset({"type", "name", "schema", "description", "strict"}),
    "response.tool_usage": frozenset({"image_gen", "web_search"}),
    "response.tool_usage.image_gen": frozenset(
        {
            "input_tokens",
            "input_tokens_details",
            "cached_tokens",
            "cached_tokens_details",
            "output_tokens",
            "output_tokens_details",
            "total_tokens",
        }
    ),
    "response.tool_usage.image_gen.input_tokens_details": frozenset(
        {"image_tokens", "text_tokens"}
    ),
    "response.tool_usage.image_gen.cached_tokens_details": frozenset(
        {"cached_image_tokens", "cached_text_tokens"}
    ),
    "response.tool_usage.image_gen.output_tokens_details": frozenset(
        {"image_tokens", "text_tokens"}
    ),
    "response.tool_usage.web_search": frozenset({"num_requests"}),
    "response.conversation": frozenset({"id"}),
    "response.incomplete_details": frozenset({"reason"}),
    "response.error": frozenset({"code", "message", "misalignment", "param", "type"}),
    "response.prompt_cache_options": frozenset({"comparison_response_id", "mode", "ttl"}),
    "response.image": frozenset({"context_compression"}),
}
"""Object path -> the members the profile knows there (``event`` is a
lifecycle event itself, named by its type in a finding)."""

RESPONSE_NESTED: dict[str, tuple[str, ...]] = {
    "response": (
        "usage",
        "reasoning",
        "text",
        "tool_usage",
        "conversation",
        "incomplete_details",
        "error",
        "prompt_cache_options",
        "image",
    ),
    "response.usage": ("input_tokens_details", "output_tokens_details"),
    "response.text": ("format",),
    "response.tool_usage": ("image_gen", "web_search"),
    "response.tool_usage.image_gen": (
        "input_tokens_details",
        "cached_tokens_details",
        "output_tokens_details",
    ),
}
"""Object path -> its members that are closed objects."""

ITEM_MEMBERS: dict[str, frozenset[str]] = {
    # ResponseOutputMessage
    "message": frozenset({"type", "id", "role", "content", "status", "phase"}),
    # ResponseReasoningItem
    "reasoning": frozenset({"type", "id", "summary", "content", "encrypted_content", "status"}),
    # ResponseCompactionItem
    "compaction": frozenset({"type", "id", "encrypted_content", "created_by"}),
    # ResponseToolSearchCall, ResponseToolSearchOutputItem
    "tool_search_call": frozenset(
        {"type", "id", "call_id", "arguments", "execution", "status", "created_by"}
    ),
    "tool_search_output": frozenset(
        {"type", "id", "call_id", "execution", "status", "tools", "created_by"}
    ),
    # ResponseFunctionWebSearch, ResponseFileSearchToolCall,
    # ResponseCodeInterpreterToolCall, and response_output_item.py's
    # ImageGenerationCall, McpCall, McpListTools, McpApprovalRequest
    "web_search_call": frozenset({"type", "id", "action", "status"}),
    "file_search_call": frozenset({"type", "id", "queries", "results", "status"}),
    "code_interpreter_call": frozenset({"type", "id", "code", "container_id", "outputs", "status"}),
    "image_generation_call": frozenset(
        {
            "type",
            "id",
            "action",
            "background",
            "error",
            "output_format",
            "quality",
            "result",
            "revised_prompt",
            "size",
            "status",
            "svg_usage",
        }
    ),
    "mcp_call": frozenset(
        {
            "type",
            "id",
            "approval_request_id",
            "arguments",
            "error",
            "name",
            "output",
            "server_label",
            "status",
        }
    ),
    "mcp_list_tools": frozenset({"type", "id", "error", "server_label", "tools"}),
    "mcp_approval_request": frozenset({"type", "id", "arguments", "name", "server_label"}),
}
"""Output item type -> its members, for the items that carry no client call
(``function_call`` is closed in ``openai_responses.py``; the other client
items are refused as ``unsupported_call_type`` whatever their members)."""

ITEM_PARTS: dict[str, dict[str, dict[str, frozenset[str]]]] = {
    # ResponseOutputMessage.content: ResponseOutputText, ResponseOutputRefusal
    "message": {
        "content": {
            "output_text": frozenset({"type", "text", "annotations", "logprobs"}),
            "refusal": frozenset({"type", "refusal"}),
        }
    },
    # ResponseReasoningItem.summary (Summary), .content (Content)
    "reasoning": {
        "summary": {"summary_text": frozenset({"type", "text"})},
        "content": {"reasoning_text": frozenset({"type", "text"})},
    },
}
"""Output item type -> its arrays of parts -> part type -> the part's
members (``response_output_message.py``, ``response_output_text.py``,
``response_output_refusal.py``, ``response_reasoning_item.py``).  A part
of another type, or with a member outside its set, blocks (the path named
is ``item.content[]``, ``item.summary[]``...).  The entries of a text's
``annotations`` and ``logprobs`` (citations and token probabilities) are
closed too: :data:`ANNOTATIONS`, :data:`LOGPROB`."""

TOOLS: dict[str, frozenset[str]] = {
    # FunctionTool
    "function": frozenset(
        {
            "allowed_callers",
            "async",
            "defer_loading",
            "description",
            "name",
            "output_schema",
            "parameters",
            "strict",
            "type",
        }
    ),
    # FileSearchTool
    "file_search": frozenset(
        {"filters", "max_num_results", "ranking_options", "type", "vector_store_ids"}
    ),
    # ComputerTool
    "computer": frozenset({"type"}),
    # ComputerUsePreviewTool
    "computer_use_preview": frozenset({"display_height", "display_width", "environment", "type"}),
    # WebSearchTool
    "web_search": frozenset(
        {"external_web_access", "filters", "search_context_size", "type", "user_location"}
    ),
    # WebSearchTool
    "web_search_2025_08_26": frozenset(
        {"external_web_access", "filters", "search_context_size", "type", "user_location"}
    ),
    # Mcp
    "mcp": frozenset(
        {
            "allowed_callers",
            "allowed_tools",
            "authorization",
            "connector_id",
            "defer_loading",
            "headers",
            "require_approval",
            "server_description",
            "server_label",
            "server_url",
            "tunnel_id",
            "type",
        }
    ),
    # CodeInterpreter
    "code_interpreter": frozenset({"allowed_callers", "container", "type"}),
    # ProgrammaticToolCalling
    "programmatic_tool_calling": frozenset({"type"}),
    # ImageGeneration
    "image_generation": frozenset(
        {
            "action",
            "background",
            "complexity",
            "frame_count",
            "frame_duration_ms",
            "input_fidelity",
            "input_image_mask",
            "model",
            "moderation",
            "output_compression",
            "output_format",
            "partial_images",
            "quality",
            "size",
            "svg",
            "type",
        }
    ),
    # LocalShell
    "local_shell": frozenset({"type"}),
    # FunctionShellTool
    "shell": frozenset({"allowed_callers", "environment", "type"}),
    # CustomTool
    "custom": frozenset(
        {"allowed_callers", "async", "defer_loading", "description", "format", "name", "type"}
    ),
    # NamespaceTool
    "namespace": frozenset({"description", "name", "tools", "type"}),
    # ToolSearchTool
    "tool_search": frozenset({"description", "execution", "parameters", "type"}),
    # WebSearchPreviewTool
    "web_search_preview": frozenset(
        {"search_content_types", "search_context_size", "type", "user_location"}
    ),
    # WebSearchPreviewTool
    "web_search_preview_2025_03_11": frozenset(
        {"search_content_types", "search_context_size", "type", "user_location"}
    ),
    # ApplyPatchTool
    "apply_patch": frozenset({"allowed_callers", "type"}),
}
"""Tool type -> its members: each entry of the response's ``tools`` (the
request's tools echoed; openai-python 3.57.0 ``types/responses/tool.py``'s
``Tool`` union, discriminated by ``type``, and its member types
``function_tool.py``, ``file_search_tool.py``, ``computer_tool.py``,
``computer_use_preview_tool.py``, ``web_search_tool.py``,
``web_search_preview_tool.py``, ``function_shell_tool.py``,
``custom_tool.py``, ``namespace_tool.py``, ``tool_search_tool.py``,
``apply_patch_tool.py``; the Responses API reference, The response object,
``tools``).  A tool of another type blocks, named by its type.  The objects
inside a tool (a file search's ``filters`` and ``ranking_options``, a web
search's ``user_location``, an MCP tool's ``allowed_tools`` and
``require_approval``, a code interpreter's ``container``, a custom tool's
``format``, a namespace's ``tools``...) are not closed yet; ``parameters``
is the caller's JSON Schema (OPEN_LEVELS)."""

OPEN_LEVELS: dict[str, str] = {
    "response.metadata": (
        "the caller's own key-value pairs echoed from the request ('Set of 16"
        " key-value pairs that can be attached to an object', keys strings of"
        " up to 64 characters: the Responses API reference, The response"
        " object, metadata; openai-python's Response.metadata is"
        " Optional[Metadata], Dict[str, str]): its keys are whatever the caller"
        " chose, and nothing the profile reads comes from it"
    ),
    "response.text.format.schema": (
        "the JSON Schema the caller sent for structured output, echoed from the"
        " request (the Responses API reference, The response object,"
        " text.format.schema: 'The schema for the response format, described as"
        " a JSON Schema object'; openai-python's"
        " ResponseFormatTextJSONSchemaConfig.schema is Dict[str, object]): its"
        " keys are JSON Schema keywords and the caller's property names"
    ),
}
"""Objects whose members are open on purpose: path -> why, with the source.
Their members are not checked; the closed-world test reads this table to
leave them out."""

OPEN_ARRAY_LEVELS: dict[str, str] = {
    "response.tools[].parameters": (
        "a function tool's JSON Schema, the caller's own, echoed from the"
        " request (the Responses API reference, The response object,"
        " tools[].parameters: 'A JSON schema object describing the parameters of"
        " the function'; openai-python's FunctionTool.parameters is"
        " Optional[Dict[str, object]]): its keys are JSON Schema keywords and"
        " the caller's property names; the call's arguments are checked against"
        " the request's schema instead"
    ),
}
"""Open on purpose as :data:`OPEN_LEVELS`, at a level inside an array: kept
apart until ``tests/properties/test_closed_world.py``'s
``test_a_deliberately_open_level_takes_any_member`` (which builds each open
level from its dotted path, and cannot build ``[]``) skips such paths; then
they belong in :data:`OPEN_LEVELS`, where the every-level walker reads them."""

_PROGRESS = frozenset({"type", "item_id", "output_index", "sequence_number"})
"""What every progress event of an output item holds."""
_IN_CONTENT = _PROGRESS | {"content_index"}
_IN_SUMMARY = _PROGRESS | {"summary_index"}
_ANNOTATION_ADDED = _IN_CONTENT | {"annotation", "annotation_index"}

PROGRESS_EVENTS: dict[str, frozenset[str]] = {
    # ResponseTextDeltaEvent, ResponseTextDoneEvent
    "response.output_text.delta": _IN_CONTENT | {"delta", "logprobs", "obfuscation"},
    "response.output_text.done": _IN_CONTENT | {"text", "logprobs"},
    # ResponseOutputTextAnnotationAddedEvent; the older spelling is the one
    # an earlier spec gave it (openai/openai-node#1515)
    "response.output_text.annotation.added": _ANNOTATION_ADDED,
    "response.output_text_annotation.added": _ANNOTATION_ADDED,
    # ResponseRefusalDeltaEvent, ResponseRefusalDoneEvent
    "response.refusal.delta": _IN_CONTENT | {"delta", "obfuscation"},
    "response.refusal.done": _IN_CONTENT | {"refusal"},
    # ResponseContentPartAddedEvent, ResponseContentPartDoneEvent
    "response.content_part.added": _IN_CONTENT | {"part"},
    "response.content_part.done": _IN_CONTENT | {"part"},
    # ResponseReasoningSummaryPartAdded/DoneEvent, ...SummaryTextDelta/DoneEvent
    "response.reasoning_summary_part.added": _IN_SUMMARY | {"part"},
    "response.reasoning_summary_part.done": _IN_SUMMARY | {"part", "status"},
    "response.reasoning_summary_text.delta": _IN_SUMMARY | {"delta", "obfuscation"},
    "response.reasoning_summary_text.done": _IN_SUMMARY | {"text"},
    # ResponseReasoningTextDeltaEvent, ResponseReasoningTextDoneEvent
    "response.reasoning_text.delta": _IN_CONTENT | {"delta", "obfuscation"},
    "response.reasoning_text.done": _IN_CONTENT | {"text"},
    # ResponseAudio(Transcript)Delta/DoneEvent: the response's audio, no item
    "response.audio.delta": frozenset({"type", "sequence_number", "delta", "obfuscation"}),
    "response.audio.done": frozenset({"type", "sequence_number"}),
    "response.audio.transcript.delta": frozenset(
        {"type", "sequence_number", "delta", "obfuscation"}
    ),
    "response.audio.transcript.done": frozenset({"type", "sequence_number"}),
    # The built-in tools' progress (ResponseWebSearchCall*Event,
    # ResponseFileSearchCall*Event, ResponseCodeInterpreterCall*Event,
    # ResponseImageGenCall*Event, ResponseMcpCall*Event, ResponseMcpListTools*Event,
    # ResponseCompactionCompactingEvent)
    **{
        f"response.{tool}.{stage}": _PROGRESS
        for tool, stages in (
            ("web_search_call", ("in_progress", "searching", "completed")),
            ("file_search_call", ("in_progress", "searching", "completed")),
            ("code_interpreter_call", ("in_progress", "interpreting", "completed")),
            ("image_generation_call", ("in_progress", "generating", "completed")),
            ("mcp_call", ("in_progress", "completed", "failed")),
            ("mcp_list_tools", ("in_progress", "completed", "failed")),
            ("compaction", ("compacting",)),
        )
        for stage in stages
    },
    "response.code_interpreter_call_code.delta": _PROGRESS | {"delta", "obfuscation"},
    "response.code_interpreter_call_code.done": _PROGRESS | {"code"},
    "response.image_generation_call.partial_image": _PROGRESS
    | {"background", "output_format", "partial_image_b64", "partial_image_index"}
    | {"quality", "size"},
    "response.mcp_call_arguments.delta": _PROGRESS | {"delta", "obfuscation"},
    "response.mcp_call_arguments.done": _PROGRESS | {"arguments"},
    # ResponseCustomToolCallInputDelta/DoneEvent: the input of a client item
    # the profile refuses (unsupported_call_type, on its output_item.added)
    "response.custom_tool_call_input.delta": _PROGRESS | {"delta", "obfuscation"},
    "response.custom_tool_call_input.done": _PROGRESS | {"input"},
}
"""Event type -> its members, for every event that carries no client call
and is not a lifecycle event: text, refusal, reasoning and their parts,
audio, the built-in tools' progress (``response_stream_event.py``'s
``ResponseStreamEvent`` union, openai-python 3.57.0, one class per event).
``obfuscation`` is the random padding the API adds to the streaming delta
events when ``stream_options.include_obfuscation`` is on (the Responses API
reference, Create a model response, ``stream_options``; recorded on
``output_text.delta``, ``reasoning_summary_text.delta`` and
``function_call_arguments.delta`` in vercel/ai
``packages/openai/src/responses/__fixtures__/openai-reasoning-encrypted-content.1.chunks.txt``
and pydantic/pydantic-ai ``tests/models/cassettes/test_openai_responses/
test_openai_responses_phase_streamed_on_part_start.yaml``): on every ``.delta``
event.  An event type outside this table, the lifecycle events and the call
events is ``unsupported_event`` (the shell call's events among them: its
item is refused as ``unsupported_call_type``)."""

EVENT_PARTS: dict[str, dict[str, frozenset[str]]] = {
    # ResponseContentPartAddedEvent.part: ResponseOutputText,
    # ResponseOutputRefusal, PartReasoningText
    **{
        kind: {
            **ITEM_PARTS["message"]["content"],
            **ITEM_PARTS["reasoning"]["content"],
        }
        for kind in ("response.content_part.added", "response.content_part.done")
    },
    # ResponseReasoningSummaryPartAddedEvent.part (Part)
    **{
        kind: ITEM_PARTS["reasoning"]["summary"]
        for kind in (
            "response.reasoning_summary_part.added",
            "response.reasoning_summary_part.done",
        )
    },
}
"""Event type -> the types of its ``part`` -> the part's members."""

ANNOTATIONS: dict[str, frozenset[str]] = {
    # response_output_text.py: AnnotationFileCitation, AnnotationURLCitation,
    # AnnotationContainerFileCitation, AnnotationFilePath (the same four in
    # response_output_text_annotation_added_event.py)
    "file_citation": frozenset({"type", "file_id", "filename", "index"}),
    "url_citation": frozenset({"type", "url", "title", "start_index", "end_index"}),
    "container_file_citation": frozenset(
        {"type", "container_id", "file_id", "filename", "start_index", "end_index"}
    ),
    "file_path": frozenset({"type", "file_id", "index"}),
}
"""Annotation type -> its members: each entry of an ``output_text`` part's
``annotations`` and the ``annotation`` of an annotation event."""

LOGPROB = frozenset({"token", "logprob", "bytes", "top_logprobs"})
TOP_LOGPROB = frozenset({"token", "logprob", "bytes"})
"""The members of each entry of a ``logprobs`` array and of its
``top_logprobs``: ``response_output_text.py``'s ``Logprob`` and
``LogprobTopLogprob`` (in a part) and ``response_text_delta_event.py``'s
(in an ``output_text.delta`` or ``.done`` event, the same without
``bytes``): one set for both."""
