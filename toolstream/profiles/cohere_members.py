"""The members the ``cohere`` profile knows on the v2 chat stream's events
that carry no call, by the object's path (the event's ``type``, then the
path inside it: the path an unknown member's finding names).

None of them carries a client call: ``message-end.delta.finish_reason`` is
the turn's end reason and ``message-end.delta.error`` a provider error; the
text, thinking, tool plan, citations, log probabilities, usage and debug
prompt are known and ignored.  ``message-start.delta.message`` restates the
message's arrays, empty at the start; a ``tool_calls`` there that is not
empty would be calls the profile does not read, so it blocks
(``cohere.py``).  A member outside its object's set blocks the turn unless
a reviewed dialect (profile ``cohere``, level = the object's path) names
it.  The ``tool-call-*`` events are closed in ``cohere.py`` itself.

Source of every set: the Cohere v2 Chat API reference, streaming
(https://docs.cohere.com/reference/chat-stream, "StreamedChatResponseV2"),
as cohere-python 7.3.1 spells it: ``src/cohere/v2/types/
streamed_chat_response_v2.py`` (each event's ``type``, ``id``, ``index``,
``delta``, ``logprobs``, ``prompt``) and ``src/cohere/types/``
``chat_message_start_event_delta.py``, ``..._delta_message.py``,
``chat_content_start_event_delta.py``, ``..._delta_message.py``,
``..._delta_message_content.py``, ``chat_content_delta_event_delta.py``,
``..._delta_message.py``, ``..._delta_message_content.py``,
``logprob_item.py``, ``chat_tool_plan_delta_event_delta.py``,
``..._delta_message.py``, ``citation_start_event_delta.py``,
``..._delta_message.py``, ``citation.py``, ``chat_message_end_event_delta.py``,
``usage.py``, ``usage_billed_units.py``, ``usage_tokens.py``.  The SDK's
``message-start`` message names only ``role``; the API sends the message's
other arrays there too, empty: vercel/ai
``packages/cohere/src/__fixtures__/cohere-tool-call.chunks.txt``
(``"content":[],"tool_plan":"","tool_calls":[],"citations":[]``).
"""

from __future__ import annotations

_DELTA = frozenset({"message"})
_CONTENT_EVENT = frozenset({"type", "index", "delta"})

EVENT_LEVELS: dict[str, frozenset[str]] = {
    # MessageStartV2ChatStreamResponse, ChatMessageStartEventDelta(Message)
    "message-start": frozenset({"type", "id", "delta"}),
    "message-start.delta": _DELTA,
    "message-start.delta.message": frozenset(
        {"role", "content", "tool_plan", "tool_calls", "citations"}
    ),
    # ContentStartV2ChatStreamResponse, ChatContentStartEventDelta...Content
    "content-start": _CONTENT_EVENT,
    "content-start.delta": _DELTA,
    "content-start.delta.message": frozenset({"content"}),
    "content-start.delta.message.content": frozenset({"type", "text", "thinking"}),
    # ContentDeltaV2ChatStreamResponse, ChatContentDeltaEventDelta...Content, LogprobItem
    "content-delta": _CONTENT_EVENT | {"logprobs"},
    "content-delta.delta": _DELTA,
    "content-delta.delta.message": frozenset({"content"}),
    "content-delta.delta.message.content": frozenset({"text", "thinking"}),
    "content-delta.logprobs": frozenset({"text", "token_ids", "logprobs"}),
    # ContentEndV2ChatStreamResponse
    "content-end": frozenset({"type", "index"}),
    # ToolPlanDeltaV2ChatStreamResponse, ChatToolPlanDeltaEventDelta(Message)
    "tool-plan-delta": frozenset({"type", "delta"}),
    "tool-plan-delta.delta": _DELTA,
    "tool-plan-delta.delta.message": frozenset({"tool_plan"}),
    # CitationStartV2ChatStreamResponse, CitationStartEventDelta(Message), Citation
    "citation-start": _CONTENT_EVENT,
    "citation-start.delta": _DELTA,
    "citation-start.delta.message": frozenset({"citations"}),
    "citation-start.delta.message.citations": frozenset(
        {"start", "end", "text", "sources", "content_index", "type"}
    ),
    # CitationEndV2ChatStreamResponse
    "citation-end": frozenset({"type", "index"}),
    # MessageEndV2ChatStreamResponse, ChatMessageEndEventDelta, Usage
    "message-end": frozenset({"type", "id", "delta"}),
    "message-end.delta": frozenset({"error", "finish_reason", "usage"}),
    "message-end.delta.usage": frozenset({"billed_units", "tokens", "cached_tokens"}),
    "message-end.delta.usage.billed_units": frozenset(
        {"input_tokens", "output_tokens", "search_units", "classifications"}
    ),
    "message-end.delta.usage.tokens": frozenset({"input_tokens", "output_tokens"}),
    # DebugV2ChatStreamResponse
    "debug": frozenset({"type", "prompt"}),
}
"""Object path -> the members the profile knows there."""

EVENT_NESTED: dict[str, tuple[str, ...]] = {
    "message-start": ("delta",),
    "message-start.delta": ("message",),
    "content-start": ("delta",),
    "content-start.delta": ("message",),
    "content-start.delta.message": ("content",),
    "content-delta": ("delta", "logprobs"),
    "content-delta.delta": ("message",),
    "content-delta.delta.message": ("content",),
    "tool-plan-delta": ("delta",),
    "tool-plan-delta.delta": ("message",),
    "citation-start": ("delta",),
    "citation-start.delta": ("message",),
    "citation-start.delta.message": ("citations",),
    "message-end": ("delta",),
    "message-end.delta": ("usage",),
    "message-end.delta.usage": ("billed_units", "tokens"),
}
"""Object path -> its members that are closed objects."""

SOURCE_LEVELS: dict[str, frozenset[str]] = {
    # cohere-python 7.3.1 src/cohere/types/source.py: Source = ToolSource |
    # DocumentSource, told apart by ``type`` (both classes in that file; checked
    # against the installed package)
    "tool": frozenset({"type", "id", "tool_output"}),
    "document": frozenset({"type", "id", "document"}),
}
"""A citation source's type -> its members (each entry of a citation's
``sources``); a source of another type is unknown."""

OPEN_LEVELS: dict[str, str] = {
    "delta.message.citations.sources[].tool_output": (
        "the tool's own output (cohere-python ToolSource.tool_output,"
        " Dict[str, Any]): the members are whatever the caller's tool returned"
    ),
    "delta.message.citations.sources[].document": (
        "the caller's document (cohere-python DocumentSource.document,"
        " Dict[str, Any]): the members are the caller's document fields"
    ),
}
"""Objects whose members are open on purpose: path -> why, with the source.
The closed-world walk (tests/support/every_level/walk.py) leaves them out."""
