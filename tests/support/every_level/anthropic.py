"""Every object level of the ``anthropic`` profile, in valid streams of our own
(see ``tests/support/every_level/__init__.py``): a tool turn and a text turn
from the shared builders; a turn per kind of server tool result block (its
``content`` an object or an array, each of the types it may be, errors
included), after the server call it answers; and turns whose
``message_start`` and ``message_delta`` hold the typed entries
(``container.skills``, ``context_management.applied_edits``,
``input_transformations``, ``diagnostics.cache_miss_reason``).  The walker
walks each level once per case (its first occurrence), so each type a
level may hold is in a case of its own.  Values are ours, shaped as
``toolstream/profiles/anthropic_members.py``'s sources spell them."""

from __future__ import annotations

from typing import Any

from tests.support.builders import (
    MESSAGE,
    anthropic,
    anthropic_turn,
    block_stop,
    json_delta,
    message_delta,
    message_start,
    message_stop,
    text_delta,
    text_start,
    tool_block,
)

PROFILE = "anthropic"


def _start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def _server_turn(name: str, block: dict[str, Any], *, mcp: bool = False) -> dict[str, Any]:
    """A turn where the provider runs tool ``name`` (a ``server_tool_use``,
    or an ``mcp_tool_use``) and answers it with the result ``block``."""
    call_id = "mcptoolu_e1" if mcp else "srvtoolu_e1"
    call: dict[str, Any] = {"type": "server_tool_use", "id": call_id, "name": name, "input": {}}
    if mcp:
        call = {**call, "type": "mcp_tool_use", "server_name": "notes"}
    result = {**block, "tool_use_id": call_id} if "tool_use_id" in block else block
    events = [
        message_start(),
        _start(0, call),
        json_delta(0, '{"q": "tide tables"}'),
        block_stop(0),
        _start(1, result),
        block_stop(1),
        *[text_start(2), text_delta(2, "Done."), block_stop(2)],
        message_delta("end_turn"),
        message_stop(),
    ]
    return anthropic(events)


def _result(kind: str, content: Any) -> dict[str, Any]:
    return {"type": kind, "tool_use_id": "", "content": content}


def _error(kind: str, code: str = "unavailable", **more: Any) -> dict[str, Any]:
    return {"type": kind, "error_code": code, **more}


_OUTPUT = [{"type": "code_execution_output", "file_id": "file_e1"}]
_DOCUMENT = {
    "type": "document",
    "title": "Tide tables",
    "citations": {"enabled": True},
}
RESULTS: list[tuple[str, str, dict[str, Any]]] = [
    # (case name, server tool name, result block)
    (
        "web search results",
        "web_search",
        _result(
            "web_search_tool_result",
            [
                {
                    "type": "web_search_result",
                    "url": "https://example.org/tides",
                    "title": "Tides",
                    "encrypted_content": "ZW5jcnlwdGVk",
                    "page_age": "2 days",
                }
            ],
        )
        | {"caller": {"type": "direct"}},
    ),
    (
        "web search error",
        "web_search",
        _result(
            "web_search_tool_result", _error("web_search_tool_result_error", "max_uses_exceeded")
        ),
    ),
    (
        "web fetch pdf",
        "web_fetch",
        _result(
            "web_fetch_tool_result",
            {
                "type": "web_fetch_result",
                "url": "https://example.org/tides.pdf",
                "retrieved_at": "2026-01-01T00:00:00Z",
                "content": _DOCUMENT
                | {"source": {"type": "base64", "media_type": "application/pdf", "data": "JVBE"}},
            },
        ),
    ),
    (
        "web fetch text",
        "web_fetch",
        _result(
            "web_fetch_tool_result",
            {
                "type": "web_fetch_result",
                "url": "https://example.org/tides.txt",
                "content": _DOCUMENT
                | {"source": {"type": "text", "media_type": "text/plain", "data": "High at 6."}},
            },
        ),
    ),
    (
        "web fetch error",
        "web_fetch",
        _result(
            "web_fetch_tool_result", _error("web_fetch_tool_result_error", "url_not_accessible")
        ),
    ),
    (
        "code execution result",
        "code_execution",
        _result(
            "code_execution_tool_result",
            {
                "type": "code_execution_result",
                "stdout": "6\n",
                "stderr": "",
                "return_code": 0,
                "content": _OUTPUT,
            },
        ),
    ),
    (
        "code execution encrypted result",
        "code_execution",
        _result(
            "code_execution_tool_result",
            {
                "type": "encrypted_code_execution_result",
                "encrypted_stdout": "c3Rkb3V0",
                "stderr": "",
                "return_code": 0,
                "content": _OUTPUT,
            },
        ),
    ),
    (
        "code execution error",
        "code_execution",
        _result("code_execution_tool_result", _error("code_execution_tool_result_error")),
    ),
    (
        "bash result",
        "bash_code_execution",
        _result(
            "bash_code_execution_tool_result",
            {
                "type": "bash_code_execution_result",
                "stdout": "tides.csv\n",
                "stderr": "",
                "return_code": 0,
                "content": [{"type": "bash_code_execution_output", "file_id": "file_e2"}],
            },
        ),
    ),
    (
        "bash error",
        "bash_code_execution",
        _result(
            "bash_code_execution_tool_result",
            _error("bash_code_execution_tool_result_error", "execution_time_exceeded"),
        ),
    ),
    (
        "text editor view",
        "text_editor_code_execution",
        _result(
            "text_editor_code_execution_tool_result",
            {
                "type": "text_editor_code_execution_view_result",
                "content": "high,low\n",
                "file_type": "text",
                "num_lines": 1,
                "start_line": 1,
                "total_lines": 1,
            },
        ),
    ),
    (
        "text editor create",
        "text_editor_code_execution",
        _result(
            "text_editor_code_execution_tool_result",
            {"type": "text_editor_code_execution_create_result", "is_file_update": False},
        ),
    ),
    (
        "text editor str_replace",
        "text_editor_code_execution",
        _result(
            "text_editor_code_execution_tool_result",
            {
                "type": "text_editor_code_execution_str_replace_result",
                "lines": ["high,low"],
                "new_lines": 1,
                "new_start": 1,
                "old_lines": 1,
                "old_start": 1,
            },
        ),
    ),
    (
        "text editor error",
        "text_editor_code_execution",
        _result(
            "text_editor_code_execution_tool_result",
            _error(
                "text_editor_code_execution_tool_result_error",
                "file_not_found",
                error_message="no such file",
            ),
        ),
    ),
    (
        "tool search result",
        "tool_search_tool_regex",
        _result(
            "tool_search_tool_result",
            {
                "type": "tool_search_tool_search_result",
                "tool_references": [{"type": "tool_reference", "tool_name": "weather"}],
            },
        ),
    ),
    (
        "tool search error",
        "tool_search_tool_regex",
        _result(
            "tool_search_tool_result",
            _error("tool_search_tool_result_error", "too_many_requests", error_message=None),
        ),
    ),
    (
        "container upload",
        "code_execution",
        {"type": "container_upload", "file_id": "file_e3"},
    ),
]
"""Each kind of server tool result block, and each type its content may be."""

_CITED = {"cited_text": "High at 6."}
_LOCATED = _CITED | {"document_index": 0, "document_title": "Tides", "file_id": None}
_MCP_CITATIONS = [
    # one of each type (anthropic_members.CITATIONS)
    _LOCATED | {"type": "char_location", "start_char_index": 0, "end_char_index": 10},
    _LOCATED | {"type": "page_location", "start_page_number": 1, "end_page_number": 2},
    _LOCATED | {"type": "content_block_location", "start_block_index": 0, "end_block_index": 1},
    _CITED
    | {
        "type": "web_search_result_location",
        "encrypted_index": "aW5kZXg=",
        "title": "Tides",
        "url": "https://example.org/tides",
    },
    _CITED
    | {
        "type": "search_result_location",
        "search_result_index": 0,
        "source": "https://example.org/tides",
        "title": "Tides",
        "start_block_index": 0,
        "end_block_index": 1,
    },
]


def _server_cases() -> list[tuple[str, dict[str, Any]]]:
    out = [(name, _server_turn(tool, block)) for name, tool, block in RESULTS]
    mcp_text = {"type": "text", "text": "High at 6.", "citations": _MCP_CITATIONS}
    for name, content in (("mcp result blocks", [mcp_text]), ("mcp result text", "High at 6.")):
        block = _result("mcp_tool_result", content) | {"is_error": False}
        out.append((name, _server_turn("tides", block, mcp=True)))
    return out


_SKILLS: list[dict[str, Any]] = [
    {"type": "anthropic", "skill_id": "xlsx", "version": "latest"},
    {"type": "custom", "skill_id": "skill_e1", "version": "1"},
]
_EDITS: list[dict[str, Any]] = [
    {"type": "clear_tool_uses_20250919", "cleared_input_tokens": 120, "cleared_tool_uses": 2},
    {"type": "clear_thinking_20251015", "cleared_input_tokens": 80, "cleared_thinking_turns": 1},
]
_TRANSFORMATIONS: list[dict[str, Any]] = [
    {
        "type": "thinking_dropped",
        "path": "messages.1.content.0",
        "reason": "model_binding_mismatch",
    },
    {
        "type": "thinking_mismatch_allowed",
        "path": "messages.3.content.0",
        "reason": "prefix_binding_mismatch",
    },
]
_CACHE_MISSES: list[dict[str, Any]] = [
    {"type": "model_changed", "cache_missed_input_tokens": 900},
    {"type": "system_changed", "cache_missed_input_tokens": 400},
    {"type": "tools_changed", "cache_missed_input_tokens": 300},
    {"type": "messages_changed", "cache_missed_input_tokens": 200},
    {"type": "previous_message_not_found"},
    {"type": "unavailable"},
]


_CACHE_CREATION = {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}
_COUNTS = {
    "input_tokens": 10,
    "output_tokens": 5,
    "cache_creation_input_tokens": 0,
    "cache_read_input_tokens": 0,
    "cache_creation": _CACHE_CREATION,
}
_ITERATIONS: list[dict[str, Any]] = [
    {"type": "message", "model": "claude-sonnet-4-6", **_COUNTS},
    {"type": "compaction", **_COUNTS},
    {"type": "advisor_message", "model": "claude-opus-4-6", **_COUNTS},
    {"type": "fallback_message", "model": "claude-sonnet-4-6", **_COUNTS},
]
_FALLBACK_STATUS: list[dict[str, Any]] = [
    {"type": "not_applied", "reason": "not_eligible", "remove_to_redeem": ["tools"]},
    {"type": "redeemed"},
]


def _entries_turn(number: int) -> dict[str, Any]:
    """A tool turn whose message_start and message_delta hold one entry of
    each typed array, and a cache miss reason: the ``number``-th type of
    each (cycling), the message_delta's the next one."""

    def pick(entries: list[dict[str, Any]], shift: int = 0) -> dict[str, Any]:
        return entries[(number + shift) % len(entries)]

    container = {"id": "container_e1", "expires_at": "2026-01-01T01:00:00Z"}
    message = MESSAGE | {
        "container": container | {"skills": [pick(_SKILLS)]},
        "context_management": {"applied_edits": [pick(_EDITS)]},
        "input_transformations": [pick(_TRANSFORMATIONS)],
        "diagnostics": {"cache_miss_reason": pick(_CACHE_MISSES)},
        # (beta usage: one iteration entry and a fallback credit status)
        "usage": {
            **MESSAGE.get("usage", {}),
            "iterations": [pick(_ITERATIONS)],
            "fallback_credit": {"status": pick(_FALLBACK_STATUS)},
        },
    }
    events = anthropic_turn(tool_block())
    events[0] = message_start(message)
    end = events[-2]
    end["delta"]["container"] = container | {"skills": [pick(_SKILLS, 1)]}
    end["context_management"] = {"applied_edits": [pick(_EDITS, 1)]}
    end["input_transformations"] = [pick(_TRANSFORMATIONS, 1)]
    end["usage"] = {
        **end.get("usage", {}),
        "iterations": [pick(_ITERATIONS, 1)],
        "fallback_credit": {"status": pick(_FALLBACK_STATUS, 1)},
    }
    return anthropic(events)


CASES: list[tuple[str, dict[str, Any]]] = [
    ("tool turn", anthropic(anthropic_turn(tool_block()))),
    (
        "text turn",
        anthropic(
            anthropic_turn(
                [text_start(0), text_delta(0, "Hi"), {"type": "content_block_stop", "index": 0}],
                reason="end_turn",
            )
        ),
    ),
    *_server_cases(),
    *((f"message entries {n}", _entries_turn(n)) for n in range(len(_CACHE_MISSES))),
]
