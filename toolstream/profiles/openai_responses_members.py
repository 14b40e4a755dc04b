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
``response_code_interpreter_tool_call.py``).  The objects below an item, a
tool, the tool choice, the prompt and the response's reports are closed by
:data:`UNIONS` (by ``type``), :data:`SHAPES` and :data:`INSIDE` (which
member holds which), each set beside the openai-python file it is read
from.  Members seen in the real
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
    # response_usage.py's InputTokensDetailsCacheWriteTokensDetails
    "response.usage.input_tokens_details.cache_write_tokens_details": frozenset(
        {"ttl_12h_tokens", "ttl_30m_tokens"}
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
    # response_error.py's Misalignment, MisalignmentSteer
    "response.error.misalignment": frozenset(
        {"detailed_explanation", "error_type", "review_target", "steer"}
    ),
    "response.error.misalignment.steer": frozenset({"message"}),
    # response.py's AccessPrograms, Moderation (its input and output:
    # MODERATIONS, by type)
    "response.access_programs": frozenset({"cyber"}),
    "response.moderation": frozenset({"input", "output"}),
    "response.prompt_cache_options": frozenset({"comparison_response_id", "mode", "ttl"}),
    "response.image": frozenset({"context_compression"}),
    # response_prompt.py's ResponsePrompt (its ``variables``: OPEN_LEVELS,
    # each value closed by PROMPT_VARIABLES)
    "response.prompt": frozenset({"id", "variables", "version"}),
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
        "prompt",
        "access_programs",
        "moderation",
    ),
    "response.usage": ("input_tokens_details", "output_tokens_details"),
    "response.usage.input_tokens_details": ("cache_write_tokens_details",),
    "response.error": ("misalignment",),
    "response.error.misalignment": ("steer",),
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
items are refused as ``unsupported_call_type`` whatever their members).  The
objects inside a built-in tool's item (a web search's ``action`` and its
``sources``, a file search's ``results``, a code interpreter's ``outputs``,
an image generation's ``error`` and ``svg_usage``, an MCP call's ``error``,
an MCP server's ``tools``, a tool search's ``tools``) are closed by
:data:`INSIDE`."""

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
``format``, a namespace's ``tools``...) are closed by :data:`INSIDE`;
``parameters`` and ``output_schema`` are the caller's JSON Schemas and an
MCP tool's ``headers`` the caller's map (OPEN_ARRAY_LEVELS)."""

TOOL_CHOICES: dict[str, frozenset[str]] = {
    # tool_choice_allowed.py's ToolChoiceAllowed (its ``tools``: SHAPES)
    "allowed_tools": frozenset({"type", "mode", "tools"}),
    # tool_choice_function.py, tool_choice_custom.py, tool_choice_mcp.py
    "function": frozenset({"type", "name"}),
    "custom": frozenset({"type", "name"}),
    "mcp": frozenset({"type", "server_label", "name"}),
    # response.py's ToolChoiceSpecificProgrammaticToolCallingParam,
    # tool_choice_apply_patch.py, tool_choice_shell.py, and
    # tool_choice_types.py's ToolChoiceTypes (the built-in tools by type)
    **{
        kind: frozenset({"type"})
        for kind in (
            "programmatic_tool_calling",
            "apply_patch",
            "shell",
            "file_search",
            "web_search_preview",
            "web_search_preview_2025_03_11",
            "computer",
            "computer_use_preview",
            "computer_use",
            "image_generation",
            "code_interpreter",
        )
    },
}
"""The response's ``tool_choice`` when it is an object, by its ``type``
(``response.py``'s ``ToolChoice`` union, openai-python 3.57.0; the string
forms, ``tool_choice_options.py``'s ``none``/``auto``/``required``, are not
objects).  Another type blocks, named by it."""

ALLOWED_TOOLS: dict[str, frozenset[str]] = {
    kind: TOOLS.get(kind, frozenset()) | TOOL_CHOICES.get(kind, frozenset({"type"}))
    for kind in sorted((set(TOOLS) | set(TOOL_CHOICES)) - {"allowed_tools"})
}
"""Each entry of an ``allowed_tools`` tool choice's ``tools``, by its
``type``: ``tool_choice_allowed.py`` types it ``List[Dict[str, object]]``,
"a list of tool definitions that the model should be allowed to call",
whose example is the tool choices' short form (``{"type": "function",
"name": "get_weather"}``, ``{"type": "mcp", "server_label": "deepwiki"}``,
``{"type": "image_generation"}``): an entry knows the members of the tool
of its type (:data:`TOOLS`) and of the tool choice of its type
(:data:`TOOL_CHOICES`).  A type neither names blocks."""

PROMPT_VARIABLES: dict[str, frozenset[str]] = {
    # response_input_text.py, response_input_image.py, response_input_file.py
    "input_text": frozenset({"type", "text", "prompt_cache_breakpoint"}),
    "input_image": frozenset({"type", "detail", "file_id", "image_url", "prompt_cache_breakpoint"}),
    "input_file": frozenset(
        {
            "type",
            "detail",
            "file_data",
            "file_id",
            "file_url",
            "filename",
            "prompt_cache_breakpoint",
        }
    ),
}
"""A value of ``response.prompt.variables`` that is an object, by its
``type`` (``response_prompt.py``'s ``Variables``: a string or one of these
input contents).  The map's keys are the caller's variable names
(``OPEN_LEVELS``); each value is closed."""

WEB_SEARCH_ACTIONS: dict[str, frozenset[str]] = {
    # response_function_web_search.py: ActionSearch, ActionOpenPage, ActionFind
    "search": frozenset({"type", "query", "queries", "sources"}),
    "open_page": frozenset({"type", "url"}),
    "find_in_page": frozenset({"type", "url", "pattern"}),
}
"""A ``web_search_call`` item's ``action``, by its ``type``."""

CODE_INTERPRETER_OUTPUTS: dict[str, frozenset[str]] = {
    # response_code_interpreter_tool_call.py: OutputLogs, OutputImage
    "logs": frozenset({"type", "logs"}),
    "image": frozenset({"type", "url"}),
}
"""Each entry of a ``code_interpreter_call`` item's ``outputs``, by its ``type``."""

MCP_CALL_ERRORS: dict[str, frozenset[str]] = {
    # mcp_tool_call_error.py: McpProtocolError, McpToolExecutionError, HTTPError
    "mcp_protocol_error": frozenset({"type", "code", "message"}),
    "mcp_tool_execution_error": frozenset({"type", "content"}),
    "http_error": frozenset({"type", "code", "message"}),
}
"""An ``mcp_call`` item's ``error`` when it is an object, by its ``type``
(the tool execution error's ``content`` is the MCP server's: OPEN_LEVELS)."""

CALLERS: dict[str, frozenset[str]] = {
    # response_function_tool_call.py: CallerDirect, CallerProgram
    "direct": frozenset({"type"}),
    "program": frozenset({"type", "caller_id"}),
}
"""A ``function_call`` item's ``caller``, by its ``type``."""

FILE_SEARCH_FILTERS: dict[str, frozenset[str]] = {
    # shared/comparison_filter.py's ComparisonFilter (its ``value`` a
    # string, number, boolean or array of them), shared/compound_filter.py's
    # CompoundFilter (its ``filters`` entries filters again)
    **{
        kind: frozenset({"type", "key", "value"})
        for kind in ("eq", "ne", "gt", "gte", "lt", "lte", "in", "nin")
    },
    "and": frozenset({"type", "filters"}),
    "or": frozenset({"type", "filters"}),
}
"""A file search tool's ``filters`` (and a compound filter's entries), by ``type``."""

NETWORK_POLICIES: dict[str, frozenset[str]] = {
    # container_network_policy_disabled.py, container_network_policy_allowlist.py
    "disabled": frozenset({"type"}),
    "allowlist": frozenset({"type", "allowed_domains", "domain_secrets"}),
}
"""A container's ``network_policy``, by its ``type``."""

CODE_INTERPRETER_CONTAINERS: dict[str, frozenset[str]] = {
    # tool.py's CodeInterpreterContainerCodeInterpreterToolAuto (or a string,
    # the container's id)
    "auto": frozenset({"type", "file_ids", "memory_limit", "network_policy"}),
}
"""A code interpreter tool's ``container`` when it is an object, by ``type``."""

SHELL_ENVIRONMENTS: dict[str, frozenset[str]] = {
    # container_auto.py, local_environment.py, container_reference.py
    "container_auto": frozenset({"type", "file_ids", "memory_limit", "network_policy", "skills"}),
    "local": frozenset({"type", "skills"}),
    "container_reference": frozenset({"type", "container_id"}),
}
"""A shell tool's ``environment``, by its ``type``."""

CONTAINER_SKILLS: dict[str, frozenset[str]] = {
    # skill_reference.py, inline_skill.py (its ``source``: inline_skill_source.py)
    "skill_reference": frozenset({"type", "skill_id", "version"}),
    "inline": frozenset({"type", "name", "description", "source"}),
}
"""Each entry of a ``container_auto`` environment's ``skills``, by ``type``."""

INLINE_SKILL_SOURCES: dict[str, frozenset[str]] = {
    "base64": frozenset({"type", "data", "media_type"}),
}
"""An inline skill's ``source``, by its ``type`` (``inline_skill_source.py``)."""

CUSTOM_FORMATS: dict[str, frozenset[str]] = {
    # custom_tool_input_format.py (shared): Text, Grammar
    "text": frozenset({"type"}),
    "grammar": frozenset({"type", "definition", "syntax"}),
}
"""A custom tool's ``format``, by its ``type``."""

NAMESPACE_TOOLS: dict[str, frozenset[str]] = {
    # namespace_tool.py's ToolFunction, custom_tool.py's CustomTool
    "function": TOOLS["function"],
    "custom": TOOLS["custom"],
}
"""Each entry of a namespace tool's ``tools``, by its ``type``."""

MODERATIONS: dict[str, frozenset[str]] = {
    # response.py's ModerationInputModerationResult, ModerationInputError (and
    # the Output ones, the same members); the three maps of a result are keyed
    # by the moderation model's categories (OPEN_ARRAY_LEVELS)
    "moderation_result": frozenset(
        {
            "type",
            "categories",
            "category_applied_input_types",
            "category_scores",
            "flagged",
            "model",
        }
    ),
    "error": frozenset({"type", "code", "message"}),
}
"""The response's ``moderation.input`` and ``.output``, by their ``type``."""

INPUT_TRANSFORMATIONS: dict[str, frozenset[str]] = {
    # response.py's InputTransformation
    "reasoning": frozenset({"type", "id", "action", "reason"}),
}
"""Each entry of the response's ``input_transformations``, by its ``type``."""

PROMPT_CACHE_DIAGNOSTICS: dict[str, frozenset[str]] = {
    # response.py's PromptCacheDiagnosticsCacheMiss, ...CacheHit,
    # ...ComparisonResponseNotFound, ...Unavailable
    "cache_miss": frozenset(
        {"type", "cache_missed_tokens", "comparison_reusable_tokens", "reason"}
    ),
    "cache_hit": frozenset({"type"}),
    "comparison_response_not_found": frozenset({"type"}),
    "unavailable": frozenset({"type"}),
}
"""The response's ``prompt_cache_diagnostics``, by its ``type``."""

UNIONS: dict[str, dict[str, frozenset[str]]] = {
    "tool": TOOLS,
    "moderation": MODERATIONS,
    "input_transformations[]": INPUT_TRANSFORMATIONS,
    "prompt_cache_diagnostics": PROMPT_CACHE_DIAGNOSTICS,
    "tool_choice": TOOL_CHOICES,
    "tool_choice.tools[]": ALLOWED_TOOLS,
    "prompt.variables": PROMPT_VARIABLES,
    "web_search_call.action": WEB_SEARCH_ACTIONS,
    "web_search_call.action.sources[]": {"url": frozenset({"type", "url"})},
    "code_interpreter_call.outputs[]": CODE_INTERPRETER_OUTPUTS,
    "mcp_call.error": MCP_CALL_ERRORS,
    "caller": CALLERS,
    "file_search.filters": FILE_SEARCH_FILTERS,
    "network_policy": NETWORK_POLICIES,
    "code_interpreter.container": CODE_INTERPRETER_CONTAINERS,
    "shell.environment": SHELL_ENVIRONMENTS,
    "skills[]": CONTAINER_SKILLS,
    "inline_skill.source": INLINE_SKILL_SOURCES,
    "custom.format": CUSTOM_FORMATS,
    "namespace.tools[]": NAMESPACE_TOOLS,
}
"""The objects that are a union by ``type``: shape name -> type -> members
(the tables above; ``web_search_call.action.sources[]`` is
``response_function_web_search.py``'s ``ActionSearchSource``).  An object
of another type blocks, named ``<path>.type='...'``; a value that is no
object (a string tool choice or container id, a list of tool names) is not
one of these objects and is not read here."""

SHAPES: dict[str, frozenset[str]] = {
    # response_file_search_tool_call.py's Result (``attributes`` are the
    # file's own: OPEN_ARRAY_LEVELS)
    "file_search_call.results[]": frozenset({"attributes", "file_id", "filename", "score", "text"}),
    # response_output_item.py's ImageGenerationCallError,
    # ImageGenerationCallErrorModerationDetails, ImageGenerationCallSvgUsage
    "image_generation_call.error": frozenset(
        {"code", "message", "moderation_details", "param", "type"}
    ),
    "image_generation_call.error.moderation_details": frozenset({"categories", "moderation_stage"}),
    "image_generation_call.svg_usage": frozenset(
        {"input_tokens", "model", "output_tokens", "reasoning_tokens", "total_tokens"}
    ),
    # response_output_item.py's McpListToolsTool (``input_schema`` and
    # ``annotations`` are the MCP server's: OPEN_ARRAY_LEVELS)
    "mcp_list_tools.tools[]": frozenset({"annotations", "description", "input_schema", "name"}),
    # response_input_text.py's PromptCacheBreakpoint (the same in
    # response_input_image.py and response_input_file.py)
    "prompt_cache_breakpoint": frozenset({"mode", "ttl"}),
    # file_search_tool.py's RankingOptions, RankingOptionsHybridSearch
    "file_search.ranking_options": frozenset({"hybrid_search", "ranker", "score_threshold"}),
    "file_search.ranking_options.hybrid_search": frozenset({"embedding_weight", "text_weight"}),
    # web_search_tool.py's Filters and UserLocation (web_search_preview_tool.py's
    # UserLocation has the same members)
    "web_search.filters": frozenset({"allowed_domains"}),
    "user_location": frozenset({"city", "country", "region", "timezone", "type"}),
    # tool.py's McpAllowedToolsMcpToolFilter, McpRequireApprovalMcpToolApprovalFilter
    # and its Always, Never (the same two members)
    "mcp.allowed_tools": frozenset({"read_only", "tool_names"}),
    "mcp.require_approval": frozenset({"always", "never"}),
    # container_network_policy_domain_secret.py
    "network_policy.domain_secrets[]": frozenset({"domain", "name", "value"}),
    # local_skill.py
    "local.skills[]": frozenset({"description", "name", "path"}),
    # tool.py's ImageGenerationInputImageMask, ImageGenerationSvg,
    # ImageGenerationSvgReasoning
    "image_generation.input_image_mask": frozenset({"file_id", "image_url"}),
    "image_generation.svg": frozenset({"model", "reasoning"}),
    "image_generation.svg.reasoning": frozenset({"effort"}),
}
"""The closed objects of one kind below an item, a tool or a tool choice:
shape name -> members (openai-python 3.57.0, the file beside each)."""

RESPONSE_SHAPES: dict[str, str] = {
    "tool_choice": "tool_choice",
    "moderation.input": "moderation",
    "moderation.output": "moderation",
    "input_transformations": "input_transformations[]",
    "prompt_cache_diagnostics": "prompt_cache_diagnostics",
}
"""The members of the response object (a dotted path below it) that hold a
shape of :data:`UNIONS`: the tool choice when it is an object, the
moderation results, the input transformations, the cache diagnostics."""

INSIDE: dict[str, dict[str, str]] = {
    # output items, by type (ITEM_MEMBERS; a function_call's own set)
    "item=function_call": {"caller": "caller"},
    "item=web_search_call": {"action": "web_search_call.action"},
    "web_search_call.action=search": {"sources": "web_search_call.action.sources[]"},
    "item=file_search_call": {"results": "file_search_call.results[]"},
    "item=code_interpreter_call": {"outputs": "code_interpreter_call.outputs[]"},
    "item=image_generation_call": {
        "error": "image_generation_call.error",
        "svg_usage": "image_generation_call.svg_usage",
    },
    "image_generation_call.error": {
        "moderation_details": "image_generation_call.error.moderation_details"
    },
    "item=mcp_call": {"error": "mcp_call.error"},
    "item=mcp_list_tools": {"tools": "mcp_list_tools.tools[]"},
    "item=tool_search_output": {"tools": "tool"},
    # the response's tool choice and prompt variables
    "tool_choice=allowed_tools": {"tools": "tool_choice.tools[]"},
    **{
        f"prompt.variables={kind}": {"prompt_cache_breakpoint": "prompt_cache_breakpoint"}
        for kind in PROMPT_VARIABLES
    },
    # the tools, by type (and an allowed_tools entry of the same type, below)
    "tool=file_search": {
        "filters": "file_search.filters",
        "ranking_options": "file_search.ranking_options",
    },
    "file_search.filters=and": {"filters": "file_search.filters"},
    "file_search.filters=or": {"filters": "file_search.filters"},
    "file_search.ranking_options": {"hybrid_search": "file_search.ranking_options.hybrid_search"},
    **{
        f"tool={kind}": {"filters": "web_search.filters", "user_location": "user_location"}
        for kind in ("web_search", "web_search_2025_08_26")
    },
    **{
        f"tool={kind}": {"user_location": "user_location"}
        for kind in ("web_search_preview", "web_search_preview_2025_03_11")
    },
    "tool=mcp": {"allowed_tools": "mcp.allowed_tools", "require_approval": "mcp.require_approval"},
    "mcp.require_approval": {"always": "mcp.allowed_tools", "never": "mcp.allowed_tools"},
    "tool=code_interpreter": {"container": "code_interpreter.container"},
    "code_interpreter.container=auto": {"network_policy": "network_policy"},
    "network_policy=allowlist": {"domain_secrets": "network_policy.domain_secrets[]"},
    "tool=image_generation": {
        "input_image_mask": "image_generation.input_image_mask",
        "svg": "image_generation.svg",
    },
    "image_generation.svg": {"reasoning": "image_generation.svg.reasoning"},
    "tool=shell": {"environment": "shell.environment"},
    "shell.environment=container_auto": {"network_policy": "network_policy", "skills": "skills[]"},
    "shell.environment=local": {"skills": "local.skills[]"},
    "skills[]=inline": {"source": "inline_skill.source"},
    "tool=custom": {"format": "custom.format"},
    "tool=namespace": {"tools": "namespace.tools[]"},
    "namespace.tools[]=custom": {"format": "custom.format"},
}
"""Where a shape's members are shapes again: owner -> member -> the shape
of its value (an object, or each object of an array).  The owner is a
shape of :data:`SHAPES`, or ``<union>=<type>`` for one type of a union of
:data:`UNIONS` (``item=<type>`` for an output item).  A member not named
here holds no closed object: a scalar, a string list, or one of the open
levels (:data:`OPEN_LEVELS`, :data:`OPEN_ARRAY_LEVELS`)."""
INSIDE.update(
    {
        f"tool_choice.tools[]={kind}": INSIDE[f"tool={kind}"]
        for kind in ALLOWED_TOOLS
        if f"tool={kind}" in INSIDE
    }
)

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
    "response.prompt.variables": (
        "the values the caller substitutes into its prompt template, echoed from"
        " the request, keyed by the template's own variable names (the Responses"
        " API reference, The response object, prompt.variables: 'Optional map of"
        " values to substitute in for variables in your prompt'; openai-python's"
        " ResponsePrompt.variables is Optional[Dict[str, Variables]],"
        " response_prompt.py): its keys are the caller's; each value that is an"
        " object is an input content closed by its type (PROMPT_VARIABLES)"
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
    "response.tools[].output_schema": (
        "a function tool's output JSON Schema, the caller's own, echoed from the"
        " request (openai-python's FunctionTool.output_schema is"
        " Optional[Dict[str, object]], function_tool.py): JSON Schema keywords"
        " and the caller's property names"
    ),
    "response.tools[].headers": (
        "the HTTP headers the caller sends to its MCP server, echoed from the"
        " request (openai-python's Mcp.headers is Optional[Dict[str, str]],"
        " tool.py: 'Optional HTTP headers to send to the MCP server'): header"
        " names are the caller's"
    ),
    "response.tools[].tools[].parameters": (
        "the JSON Schema of a function inside a namespace tool, the caller's own"
        " (openai-python's namespace_tool.py ToolFunction.parameters,"
        " Optional[Dict[str, object]])"
    ),
    "response.tools[].tools[].output_schema": (
        "the output JSON Schema of a function inside a namespace tool, the"
        " caller's own (namespace_tool.py ToolFunction.output_schema)"
    ),
    "response.tool_choice.tools[].parameters": (
        "the JSON Schema of a function tool given whole in an allowed_tools tool"
        " choice (openai-python's ToolChoiceAllowed.tools is"
        " List[Dict[str, object]], 'a list of tool definitions',"
        " tool_choice_allowed.py): the caller's, as response.tools[].parameters"
    ),
    **{
        f"response.moderation.{side}.{field}": (
            "a moderation result's map keyed by the moderation model's own"
            " categories (openai-python's response.py"
            f" Moderation{side.title()}ModerationResult.{field}, a Dict keyed by"
            " category name): the categories are the moderation model's, and grow"
            " with it; nothing the profile reads comes from them"
        )
        for side in ("input", "output")
        for field in ("categories", "category_scores", "category_applied_input_types")
    },
    **{
        f"{where}.results[].attributes": (
            "the attributes the caller attached to a file in its vector store,"
            " returned with each file search result (openai-python's"
            " response_file_search_tool_call.py Result.attributes,"
            " Optional[Dict[str, Union[str, float, bool]]]: 'Set of 16 key-value"
            " pairs that can be attached to an object'): its keys are the caller's"
        )
        for where in ("item", "response.output[]")
    },
    **{
        f"{where}.tools[].input_schema": (
            "the JSON Schema an MCP server gives for one of its tools, in an"
            " mcp_list_tools item (openai-python's response_output_item.py"
            " McpListToolsTool.input_schema, object: 'The JSON schema describing"
            " the tool's input'): the server's own"
        )
        for where in ("item", "response.output[]")
    },
    **{
        f"{where}.tools[].annotations": (
            "the annotations an MCP server gives for one of its tools, in an"
            " mcp_list_tools item (McpListToolsTool.annotations, Optional[object],"
            " response_output_item.py): the server's own, as MCP defines them"
        )
        for where in ("item", "response.output[]")
    },
    **{
        f"{where}.tools[].parameters": (
            "the JSON Schema of a tool a tool search found, in a tool_search_output"
            " item (openai-python's response_tool_search_output_item.py tools, the"
            " Tool union; FunctionTool.parameters is Optional[Dict[str, object]]):"
            " the caller's own, as response.tools[].parameters"
        )
        for where in ("item", "response.output[]")
    },
    **{
        f"{where}.error.content": (
            "what an MCP server returned when its tool failed, in an mcp_call"
            " item's mcp_tool_execution_error (openai-python's"
            " mcp_tool_call_error.py McpToolExecutionError.content, object): the"
            " server's own content"
        )
        for where in ("item", "response.output[]")
    },
    **{
        f"{where}.arguments": (
            "the arguments of a tool search the provider runs, in a"
            " tool_search_call item (openai-python's response_tool_search_call.py"
            " ResponseToolSearchCall.arguments, object): the call's own arguments,"
            " as a function call's are"
        )
        for where in ("item", "response.output[]")
    },
}
"""Open on purpose as :data:`OPEN_LEVELS`, at a level inside an array or
inside an output item's event (``item.``...): kept apart until
``tests/properties/test_closed_world.py``'s
``test_a_deliberately_open_level_takes_any_member`` (which builds each open
level from its dotted path on the ``response.completed`` event, and cannot
build ``[]`` or an output item event, and builds the objects above it
empty, so not below an object closed by its type, as a moderation result)
skips such paths; then they belong in :data:`OPEN_LEVELS`.  The every-level
walker reads both tables.  Each open level of an output item is named twice:
in the item's own events (``item.``) and in the response's ``output``
(``response.output[].``)."""

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

# -- the echoed instructions, when a list of input items -------------------------------

INSTRUCTION_ITEMS: dict[str, frozenset[str]] = {
    # response_input_item.py's Message and easy_input_message.py's
    # EasyInputMessage (both type "message"; an entry of another type, or
    # without one, blocks), response_output_message.py's id and status
    "message": frozenset({"type", "id", "role", "content", "status", "phase"}),
}
"""``response.instructions`` when a list (``response.py``: ``Union[str,
List[ResponseInputItem], None]``, the request's instructions echoed, e.g.
a prompt's developer messages): each entry by its ``type``."""

UNIONS.update(
    {
        "instructions[]": INSTRUCTION_ITEMS,
        # a message's content parts: the input contents and, for an assistant
        # message, the output text and refusal parts
        "instructions[].content[]": {**PROMPT_VARIABLES, **ITEM_PARTS["message"]["content"]},
        "annotation": ANNOTATIONS,
    }
)
SHAPES.update({"logprob": LOGPROB, "top_logprob": TOP_LOGPROB})
RESPONSE_SHAPES["instructions"] = "instructions[]"
INSIDE.update(
    {
        "instructions[]=message": {"content": "instructions[].content[]"},
        **{
            f"instructions[].content[]={kind}": {
                "prompt_cache_breakpoint": "prompt_cache_breakpoint"
            }
            for kind in PROMPT_VARIABLES
        },
        "instructions[].content[]=output_text": {
            "annotations": "annotation",
            "logprobs": "logprob",
        },
        "logprob": {"top_logprobs": "top_logprob"},
    }
)
