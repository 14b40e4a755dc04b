"""Every object level of the ``openai-responses`` profile, in valid streams of our own
(see ``tests/support/every_level/__init__.py``).

The response object's values are shaped as openai-python 3.57.0's
``types/responses/response.py`` (``Response``, ``ToolUsage``,
``Conversation``, ``PromptCacheOptions``, ``Image``, ``ToolChoice``),
``shared/reasoning.py``, ``response_text_config.py`` /
``response_format_text_config.py``, ``response_usage.py``,
``response_prompt.py``, ``response_output_text.py`` and the ``tool_choice_*.py``
files document them; the built-in tools' items as ``response_output_item.py``,
``response_function_web_search.py``, ``response_file_search_tool_call.py``,
``response_code_interpreter_tool_call.py``, ``mcp_tool_call_error.py``,
``response_tool_search_call.py`` and ``response_tool_search_output_item.py``
do; the tools as ``tool.py`` and the files of its ``Tool`` union do.
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
    "parameters": copy.deepcopy(WEATHER_SCHEMA),
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
    "input_tokens_details": {
        "cached_tokens": 0,
        "cache_write_tokens": 40,
        "cache_write_tokens_details": {"ttl_30m_tokens": 40, "ttl_12h_tokens": 0},
    },
    "output_tokens": 12,
    "output_tokens_details": {"reasoning_tokens": 4},
    "total_tokens": 52,
}

_CALL = responses_call()
for _event in _CALL:
    # response_function_tool_call.py's CallerDirect: the model asked for it
    if "item" in _event:
        _event["item"]["caller"] = {"type": "direct"}
_DONE_ITEM = copy.deepcopy(_CALL[-1]["item"])

_TOOL_CHOICE = {"type": "function", "name": "weather"}
_REPORTS: dict[str, Any] = {
    # response.py's AccessPrograms, Moderation, InputTransformation,
    # PromptCacheDiagnosticsCacheMiss
    "access_programs": {"cyber": "standard"},
    "moderation": {
        "input": {
            "type": "moderation_result",
            "flagged": False,
            "model": "omni-moderation-latest",
            "categories": {"violence": False},
            "category_scores": {"violence": 0.01},
            "category_applied_input_types": {"violence": ["text"]},
        },
        "output": {
            "type": "moderation_result",
            "flagged": False,
            "model": "omni-moderation-latest",
            "categories": {"violence": False},
            "category_scores": {"violence": 0.02},
            "category_applied_input_types": {"violence": ["text"]},
        },
    },
    "input_transformations": [
        {"type": "reasoning", "id": "rs_0", "action": "removed", "reason": "model_mismatch"}
    ],
    "prompt_cache_diagnostics": {
        "type": "cache_miss",
        "cache_missed_tokens": 40,
        "comparison_reusable_tokens": 0,
        "reason": "tools_changed",
    },
}
_PROMPT = {
    "id": "pmpt_1",
    "version": "2",
    "variables": {
        "city": "Paris",
        "style": {
            "type": "input_text",
            "text": "Answer in one line.",
            "prompt_cache_breakpoint": {"mode": "explicit", "ttl": "30m"},
        },
    },
}


def _tool_turn() -> dict[str, Any]:
    echo = {"tool_choice": _TOOL_CHOICE, "prompt": _PROMPT, **_REPORTS}
    events: list[dict[str, Any]] = [
        {
            "type": "response.created",
            "sequence_number": 0,
            "response": _response("in_progress", [], **echo),
        },
        {
            "type": "response.in_progress",
            "sequence_number": 1,
            "response": _response("in_progress", [], **echo),
        },
        *copy.deepcopy(_CALL),
        {
            "type": "response.completed",
            "sequence_number": 9,
            "response": _response("completed", [_DONE_ITEM], usage=_USAGE, **echo),
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
    # the instructions of a prompt template, echoed as input items: a
    # developer message of every input content, an earlier assistant answer
    breakpoint_ = {"mode": "explicit", "ttl": "5m"}
    instructions = [
        {
            "type": "message",
            "role": "developer",
            "content": [
                {
                    "type": "input_text",
                    "text": "Answer briefly.",
                    "prompt_cache_breakpoint": breakpoint_,
                },
                {"type": "input_image", "detail": "auto", "image_url": "https://example.org/a.png"},
                {"type": "input_file", "file_id": "file_1", "filename": "notes.txt"},
            ],
        },
        {
            "type": "message",
            "id": "msg_0",
            "role": "assistant",
            "status": "completed",
            "phase": "final_answer",
            "content": [
                {
                    "type": "output_text",
                    "text": "Hi",
                    "annotations": [
                        {
                            "type": "url_citation",
                            "url": "https://example.org",
                            "title": "E",
                            "start_index": 0,
                            "end_index": 2,
                        }
                    ],
                    "logprobs": [
                        {
                            "token": "Hi",
                            "logprob": -0.1,
                            "bytes": [72, 105],
                            "top_logprobs": [{"token": "Hi", "logprob": -0.1, "bytes": [72, 105]}],
                        }
                    ],
                },
                {"type": "refusal", "refusal": ""},
            ],
        },
    ]
    events: list[dict[str, Any]] = [
        {
            "type": "response.created",
            "sequence_number": 0,
            "response": _response("in_progress", [], text=text, instructions=instructions),
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
            "response": _response(
                "completed", [message], text=text, usage=_USAGE, instructions=instructions
            ),
        },
    ]
    return responses(events, schemas=SCHEMAS)


_OBJECT_SCHEMA: dict[str, Any] = {"type": "object", "properties": {"q": {"type": "string"}}}

_BUILT_IN_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "name": "forecast",
        "description": "A forecast.",
        "parameters": _OBJECT_SCHEMA,
        "output_schema": {"type": "object", "properties": {"sky": {"type": "string"}}},
        "strict": True,
    },
    {
        "type": "file_search",
        "vector_store_ids": ["vs_1"],
        "max_num_results": 5,
        "filters": {
            "type": "and",
            "filters": [
                {"type": "eq", "key": "team", "value": "ops"},
                {"type": "gte", "key": "year", "value": 2025},
            ],
        },
        "ranking_options": {
            "ranker": "auto",
            "score_threshold": 0.2,
            "hybrid_search": {"embedding_weight": 0.7, "text_weight": 0.3},
        },
    },
    {
        "type": "mcp",
        "server_label": "deepwiki",
        "server_url": "https://mcp.example.com/mcp",
        "headers": {"X-Team": "ops"},
        "allowed_tools": {"read_only": True, "tool_names": ["ask"]},
        "require_approval": {"always": {"tool_names": ["write"]}, "never": {"read_only": True}},
    },
    {
        "type": "code_interpreter",
        "container": {
            "type": "auto",
            "file_ids": ["file_1"],
            "memory_limit": "4g",
            "network_policy": {
                "type": "allowlist",
                "allowed_domains": ["example.com"],
                "domain_secrets": [{"domain": "example.com", "name": "TOKEN", "value": "x"}],
            },
        },
    },
    {
        "type": "image_generation",
        "output_format": "svg",
        "input_image_mask": {"file_id": "file_2", "image_url": None},
        "svg": {"model": "svg-1", "reasoning": {"effort": "low"}},
    },
    {
        "type": "shell",
        "environment": {
            "type": "container_auto",
            "file_ids": [],
            "memory_limit": "1g",
            "network_policy": {"type": "disabled"},
            "skills": [
                {"type": "skill_reference", "skill_id": "skill_1", "version": "1"},
                {
                    "type": "inline",
                    "name": "fmt",
                    "description": "Formats text.",
                    "source": {"type": "base64", "data": "UEs=", "media_type": "application/zip"},
                },
            ],
        },
    },
    {
        "type": "custom",
        "name": "sql",
        "description": "Runs a query.",
        "format": {"type": "grammar", "syntax": "lark", "definition": "start: WORD"},
    },
    {
        "type": "namespace",
        "name": "crm",
        "description": "CRM tools.",
        "tools": [
            {
                "type": "function",
                "name": "lookup",
                "parameters": _OBJECT_SCHEMA,
                "output_schema": {"type": "object"},
            },
            {"type": "custom", "name": "note", "format": {"type": "text"}},
        ],
    },
]
"""Tools of every kind with the objects inside them (``tool.py``'s ``Tool``)."""

_ALLOWED_TOOLS = {
    "type": "allowed_tools",
    "mode": "auto",
    "tools": [
        {"type": "function", "name": "forecast", "parameters": _OBJECT_SCHEMA},
        {"type": "mcp", "server_label": "deepwiki"},
        {"type": "image_generation"},
    ],
}

_BUILT_IN_ITEMS: list[dict[str, Any]] = [
    {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "completed",
        "action": {
            "type": "search",
            "query": "weather Paris",
            "queries": ["weather Paris"],
            "sources": [{"type": "url", "url": "https://example.com/paris"}],
        },
    },
    {
        "type": "file_search_call",
        "id": "fs_1",
        "status": "completed",
        "queries": ["forecast"],
        "results": [
            {
                "file_id": "file_1",
                "filename": "notes.txt",
                "score": 0.9,
                "text": "Sunny.",
                "attributes": {"team": "ops", "year": 2026},
            }
        ],
    },
    {
        "type": "code_interpreter_call",
        "id": "ci_1",
        "status": "completed",
        "code": "print(1)",
        "container_id": "cntr_1",
        "outputs": [
            {"type": "logs", "logs": "1\n"},
            {"type": "image", "url": "https://example.com/plot.png"},
        ],
    },
    {
        "type": "image_generation_call",
        "id": "ig_1",
        "status": "completed",
        "result": "PHN2Zy8+",
        "output_format": "svg",
        "revised_prompt": "A sun.",
        "svg_usage": {
            "input_tokens": 10,
            "model": "svg-1",
            "output_tokens": 20,
            "reasoning_tokens": 0,
            "total_tokens": 30,
        },
    },
    {
        "type": "image_generation_call",
        "id": "ig_2",
        "status": "failed",
        "result": None,
        "error": {
            "code": "moderation_blocked",
            "message": "The request was blocked.",
            "param": None,
            "type": "image_generation_error",
            "moderation_details": {"categories": ["other"], "moderation_stage": "input"},
        },
    },
    {
        "type": "mcp_list_tools",
        "id": "ml_1",
        "server_label": "deepwiki",
        "error": None,
        "tools": [
            {
                "name": "ask",
                "description": "Ask a question.",
                "input_schema": _OBJECT_SCHEMA,
                "annotations": {"readOnlyHint": True},
            }
        ],
    },
    {
        "type": "mcp_call",
        "id": "mc_1",
        "server_label": "deepwiki",
        "name": "ask",
        "arguments": '{"q": "x"}',
        "status": "failed",
        "output": None,
        "approval_request_id": None,
        "error": {"type": "mcp_tool_execution_error", "content": {"text": "timed out"}},
    },
    {
        "type": "mcp_approval_request",
        "id": "mr_1",
        "server_label": "deepwiki",
        "name": "ask",
        "arguments": '{"q": "y"}',
    },
]
"""An item of each built-in tool, as done, with the objects inside it."""


def _server_turn(
    items: list[dict[str, Any]], tools: list[dict[str, Any]], tool_choice: Any
) -> dict[str, Any]:
    """A turn of built-in tools' items and a closing message, no client call:
    each item added (its status in progress, nothing inside yet) and done."""
    message = {
        "id": "msg_9",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "Done.", "annotations": []}],
    }
    done = [*copy.deepcopy(items), message]
    echo = {"tools": tools, "tool_choice": tool_choice}
    events: list[dict[str, Any]] = [
        {
            "type": "response.created",
            "sequence_number": 0,
            "response": _response("in_progress", [], **echo),
        }
    ]
    for index, item in enumerate(done):
        head = {"type": item["type"], "id": item["id"]}
        if "execution" in item:
            head["execution"] = item["execution"]
        events.append({"type": "response.output_item.added", "output_index": index, "item": head})
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    events.append(
        {
            "type": "response.completed",
            "sequence_number": len(events),
            "response": _response("completed", done, usage=_USAGE, **echo),
        }
    )
    return responses(events, schemas=SCHEMAS)


_TOOL_SEARCH_ITEMS: list[dict[str, Any]] = [
    {
        "type": "tool_search_call",
        "id": "ts_1",
        "call_id": "tsc_1",
        "execution": "server",
        "status": "completed",
        "arguments": {"query": "forecast"},
    },
    {
        "type": "tool_search_output",
        "id": "to_1",
        "call_id": "tsc_1",
        "execution": "server",
        "status": "completed",
        "tools": [
            {
                "type": "function",
                "name": "forecast",
                "description": "A forecast.",
                "parameters": _OBJECT_SCHEMA,
            }
        ],
    },
]
"""A tool search the provider runs, and the tools it found."""

_OTHER_TOOLS: list[dict[str, Any]] = [
    {
        "type": "web_search",
        "search_context_size": "medium",
        "filters": {"allowed_domains": ["example.com"]},
        "user_location": {
            "type": "approximate",
            "city": "Paris",
            "country": "FR",
            "region": None,
            "timezone": "Europe/Paris",
        },
    },
    {
        "type": "web_search_preview",
        "search_context_size": "low",
        "user_location": {"type": "approximate", "city": "Lyon", "country": "FR"},
    },
    {
        "type": "shell",
        "environment": {
            "type": "local",
            "skills": [{"name": "fmt", "description": "Formats text.", "path": "/skills/fmt"}],
        },
    },
    {"type": "code_interpreter", "container": "cntr_1"},
    {
        "type": "mcp",
        "server_label": "deepwiki",
        "allowed_tools": ["ask"],
        "require_approval": "never",
    },
]
"""The other shapes of the same members: a web search's ``filters``, a local
shell environment's ``skills``, a container named by its id, an MCP tool's
tool list and approval policy as plain values."""


CASES: list[tuple[str, dict[str, Any]]] = [
    ("function call, response echoes and reports", _tool_turn()),
    ("text only, json_schema text format", _json_schema_text_turn()),
    (
        "built-in tools' items, tools of every kind, allowed tools",
        _server_turn(_BUILT_IN_ITEMS, _BUILT_IN_TOOLS, _ALLOWED_TOOLS),
    ),
    (
        "a tool search the provider runs, other tool shapes, an MCP tool choice",
        _server_turn(
            _TOOL_SEARCH_ITEMS,
            _OTHER_TOOLS,
            {"type": "mcp", "server_label": "deepwiki", "name": "ask"},
        ),
    ),
]
