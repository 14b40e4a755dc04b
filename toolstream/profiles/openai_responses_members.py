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
}
"""Object path -> the members the profile knows there (``event`` is a
lifecycle event itself, named by its type in a finding)."""

RESPONSE_NESTED: dict[str, tuple[str, ...]] = {
    "response": ("usage",),
    "response.usage": ("input_tokens_details", "output_tokens_details"),
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
known and not read, and not closed member by member."""

OPEN_LEVELS: dict[str, str] = {
    "response.metadata": (
        "the caller's own key-value pairs echoed from the request ('Set of 16"
        " key-value pairs that can be attached to an object', keys strings of"
        " up to 64 characters: the Responses API reference, The response"
        " object, metadata; openai-python's Response.metadata is"
        " Optional[Metadata], Dict[str, str]): its keys are whatever the caller"
        " chose, and nothing the profile reads comes from it"
    ),
}
"""Objects whose members are open on purpose: path -> why, with the source.
Their members are not checked; the closed-world test reads this table to
leave them out."""
