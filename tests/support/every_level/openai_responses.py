"""Every object level of the ``openai-responses`` profile, in valid streams of our own
(see ``tests/support/every_level/__init__.py``).

The response object's values are shaped as openai-python 3.57.0's
``types/responses/response.py`` (``Response``, ``ToolUsage``,
``Conversation``, ``PromptCacheOptions``, ``Image``), ``shared/reasoning.py``,
``response_text_config.py`` / ``response_format_text_config.py``,
``response_usage.py`` and ``response_output_text.py`` document them.
"""

from __future__ import annotations

import copy
from typing import Any

from tests.support.builders import SCHEMAS, WEATHER_SCHEMA, responses, responses_call

PROFILE = "openai-responses"

_FUNCTION_TOOL: dict[str, Any] = {
    "type": "function",
    "name": "weather",
    "description": "The weather in a city.",
    "parameters": WEATHER_SCHEMA,
    "strict": True,
}


def _response(status: str, output: list[Any], **more: Any) -> dict[str, Any]:
    """A response object echoing a request, with the reports it holds."""
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1767225600,
        "status": status,
        "background": False,
        "conversation": {"id": "conv_1"},
        "error": None,
        "incomplete_details": None,
        "instructions": "Answer briefly.",
        "max_output_tokens": None,
        "metadata": {"ticket": "T-1"},
        "model": "gpt-5-2025-08-07",
        "output": output,
        "parallel_tool_calls": True,
        "image": {"context_compression": "disabled"},
        "prompt_cache_key": "weather",
        "prompt_cache_options": {"mode": "implicit", "ttl": "30m"},
        "prompt_cache_retention": "24h",
        "reasoning": {"effort": "low", "summary": "auto", "context": "current_turn"},
        "service_tier": "default",
        "store": True,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": "auto",
        "tools": [_FUNCTION_TOOL],
        "top_p": 1.0,
        "truncation": "disabled",
        "tool_usage": {
            "image_gen": {
                "input_tokens": 0,
                "input_tokens_details": {"image_tokens": 0, "text_tokens": 0},
                "cached_tokens": 0,
                "cached_tokens_details": {"cached_image_tokens": 0, "cached_text_tokens": 0},
                "output_tokens": 0,
                "output_tokens_details": {"image_tokens": 0, "text_tokens": 0},
                "total_tokens": 0,
            },
            "web_search": {"num_requests": 0},
        },
        "usage": None,
        "user": None,
        **more,
    }


_USAGE = {
    "input_tokens": 40,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 12,
    "output_tokens_details": {"reasoning_tokens": 4},
    "total_tokens": 52,
}

_CALL = responses_call()
_DONE_ITEM = copy.deepcopy(_CALL[-1]["item"])


def _tool_turn() -> dict[str, Any]:
    events: list[dict[str, Any]] = [
        {
            "type": "response.created",
            "sequence_number": 0,
            "response": _response("in_progress", []),
        },
        {
            "type": "response.in_progress",
            "sequence_number": 1,
            "response": _response("in_progress", []),
        },
        *copy.deepcopy(_CALL),
        {
            "type": "response.completed",
            "sequence_number": 9,
            "response": _response("completed", [_DONE_ITEM], usage=_USAGE),
        },
    ]
    return responses(events, schemas=SCHEMAS)


def _json_schema_text_turn() -> dict[str, Any]:
    """A text-only turn asking for structured output: ``text.format`` of type
    ``json_schema``, with the caller's schema."""
    json_format = {
        "type": "json_schema",
        "name": "forecast",
        "description": "A forecast.",
        "schema": {"type": "object", "properties": {"sky": {"type": "string"}}},
        "strict": True,
    }
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": '{"sky": "clear"}', "annotations": []}],
    }
    added = {**message, "status": "in_progress", "content": []}
    text = {"format": json_format, "verbosity": "low"}
    events: list[dict[str, Any]] = [
        {
            "type": "response.created",
            "sequence_number": 0,
            "response": _response("in_progress", [], text=text),
        },
        {"type": "response.output_item.added", "output_index": 0, "item": added},
        {
            "type": "response.output_text.delta",
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "delta": '{"sky": "clear"}',
        },
        {"type": "response.output_item.done", "output_index": 0, "item": message},
        {
            "type": "response.completed",
            "sequence_number": 5,
            "response": _response("completed", [message], text=text, usage=_USAGE),
        },
    ]
    return responses(events, schemas=SCHEMAS)


CASES: list[tuple[str, dict[str, Any]]] = [
    ("function call, response echoes and reports", _tool_turn()),
    ("text only, json_schema text format", _json_schema_text_turn()),
]
