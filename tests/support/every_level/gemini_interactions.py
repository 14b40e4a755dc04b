"""Every object level of the ``gemini-interactions`` profile, in valid streams of our own
(see ``tests/support/every_level/__init__.py``).  Shapes from the Interactions
API reference as google-genai 3.6.1 spells it
(``google/genai/_gaos/types/interactions/``: the event, step and delta
unions and the types they name) and js-genai's ``StreamMetadata``."""

from __future__ import annotations

from typing import Any

from tests.support.builders_gemini_cohere_invoke import interactions

PROFILE = "gemini-interactions"

_USAGE: dict[str, Any] = {
    "total_input_tokens": 10,
    "total_output_tokens": 5,
    "total_thought_tokens": 3,
    "total_cached_tokens": 0,
    "total_tool_use_tokens": 1,
    "total_tokens": 19,
    "initial_input_tokens": 10,
    "input_tokens_by_modality": [{"modality": "text", "tokens": 10}],
    "output_tokens_by_modality": [{"modality": "text", "tokens": 5}],
    "cached_tokens_by_modality": [{"modality": "text", "tokens": 0}],
    "tool_use_tokens_by_modality": [{"modality": "text", "tokens": 1}],
    "grounding_tool_count": [{"type": "google_search", "count": 1}],
}
_META = {"total_usage": _USAGE}


def _start(index: int, step: dict[str, Any]) -> dict[str, Any]:
    return {"event_type": "step.start", "index": index, "step": step}


def _delta(index: int, delta: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"event_type": "step.delta", "index": index, "delta": delta, **extra}


def _stop(index: int, **extra: Any) -> dict[str, Any]:
    return {"event_type": "step.stop", "index": index, **extra}


def _created(**extra: Any) -> dict[str, Any]:
    return {
        "event_type": "interaction.created",
        "event_id": "evt_0",
        "interaction": {
            "id": "v1_1",
            "object": "interaction",
            "status": "in_progress",
            "model": "gemini-test",
            "created": "2026-01-01T00:00:00Z",
            "updated": "2026-01-01T00:00:00Z",
            "service_tier": "standard",
        },
        **extra,
    }


def _completed(status: str, **interaction: Any) -> dict[str, Any]:
    return {
        "event_type": "interaction.completed",
        "event_id": "evt_9",
        "interaction": {"id": "v1_1", "status": status, "usage": _USAGE, **interaction},
        "metadata": {"total_usage": _USAGE, "usage": _USAGE},
    }


_review = {"review_id": "r1", "title": "Good", "url": "https://maps.example.com/r1"}
_annotations: list[dict[str, Any]] = [
    {
        "type": "url_citation",
        "start_index": 0,
        "end_index": 5,
        "title": "Example",
        "url": "https://example.com/",
    },
    {
        "type": "file_citation",
        "start_index": 0,
        "end_index": 5,
        "document_uri": "gs://b/doc.pdf",
        "file_name": "doc.pdf",
        "media_id": "m1",
        "page_number": 1,
        "source": "fileSearchStores/s",
        "custom_metadata": {"caller_key": "value"},
    },
    {
        "type": "place_citation",
        "start_index": 0,
        "end_index": 5,
        "name": "Cafe",
        "place_id": "places/1",
        "url": "https://maps.example.com/p",
        "review_snippets": [_review],
    },
    {"type": "speech_metadata", "start_index": 0, "end_index": 5, "speaker": "A", "style": "calm"},
    {
        "type": "word_info",
        "start_index": 0,
        "end_index": 5,
        "start_offset": "0s",
        "end_offset": "1s",
        "speaker": "A",
        "text": "Sunny",
    },
]
_thought = {
    "type": "thought",
    "signature": "c2ln",
    "summary": [
        {"type": "text", "text": "Checking."},
        {"type": "image", "mime_type": "image/png", "data": "iVBO", "resolution": "low"},
    ],
}
_call = {"type": "function_call", "id": "fc_1", "name": "weather", "arguments": {}}

# A tool turn: a thought (summary and signature deltas), the model's text
# with every kind of annotation, then a call streamed as arguments deltas;
# usage and metadata at every event that carries them.
_tool_turn = [
    _created(metadata=_META),
    {**_start(0, _thought), "metadata": _META},
    _delta(0, {"type": "thought_summary", "content": {"type": "text", "text": "More."}}),
    _delta(0, {"type": "thought_signature", "signature": "c2ln"}),
    _stop(0, usage=_USAGE, step_usage=_USAGE, metadata={"usage": _USAGE}),
    _start(
        1,
        {
            "type": "model_output",
            "content": [{"type": "text", "text": "Sunny", "annotations": _annotations}],
        },
    ),
    _delta(1, {"type": "text", "text": " today."}, event_id="evt_3", metadata=_META),
    _delta(1, {"type": "text_annotation_delta", "annotations": _annotations[2:]}),
    _stop(1),
    {
        "event_type": "interaction.status_update",
        "interaction_id": "v1_1",
        "status": "in_progress",
        "usage": _USAGE,
        "continuation_token": "tok",
        "metadata": _META,
    },
    _start(2, _call),
    _delta(2, {"type": "arguments_delta", "arguments": '{"city": "Paris"}'}),
    _stop(2),
    _completed("requires_action", steps=[_thought, _call]),
]

_contents: list[dict[str, Any]] = [
    {"type": "text", "text": "What is in these?"},
    {"type": "image", "uri": "gs://b/a.png", "mime_type": "image/png", "resolution": "high"},
    {
        "type": "audio",
        "uri": "gs://b/a.wav",
        "mime_type": "audio/wav",
        "channels": 1,
        "sample_rate": 16000,
        "processing": {"type": "static", "start_offset": "0s", "end_offset": "5s"},
    },
    {
        "type": "document",
        "uri": "gs://b/d.pdf",
        "mime_type": "application/pdf",
        "resolution": "medium",
        "processing": {
            "type": "static",
            "page_options": {"start_page": 1, "end_page": 2, "content_layers": ["text"]},
            "spreadsheet_options": {
                "sheet_index": 0,
                "visible_cells": True,
                "content_layers": ["text"],
            },
        },
    },
    {
        "type": "video",
        "uri": "gs://b/v.mp4",
        "mime_type": "video/mp4",
        "name": "v",
        "resolution": "low",
        "processing": {
            "type": "static",
            "start_offset": "0s",
            "end_offset": "9s",
            "fps": 1.0,
            "content_layers": ["frames"],
        },
    },
]

# A turn the provider's built-in tools serve (server calls and their
# results, each with its deltas), the echoed user input and a function's
# result, ending completed (no client call: no tool activity to execute).
_server_turn = [
    _created(),
    _start(0, {"type": "user_input", "content": _contents}),
    _stop(0),
    _start(
        1,
        {
            "type": "function_result",
            "call_id": "fc_0",
            "name": "weather",
            "is_error": False,
            "result": [
                {"type": "text", "text": "Sunny"},
                {
                    "type": "function",
                    "name": "clock",
                    "description": "The time.",
                    "short_description": "time",
                    "defer_loading": False,
                },
            ],
        },
    ),
    _delta(
        1,
        {
            "type": "function_result",
            "name": "weather",
            "is_error": False,
            "result": [{"type": "text", "text": "Sunny"}],
        },
    ),
    _stop(1),
    _start(
        2,
        {
            "type": "google_search_call",
            "id": "gs_1",
            "arguments": {"queries": ["weather"]},
            "search_type": "web_search",
            "signature": "c2ln",
        },
    ),
    _delta(2, {"type": "google_search_call", "arguments": {"queries": ["x"]}, "signature": "c2ln"}),
    _stop(2),
    _start(
        3,
        {
            "type": "google_search_result",
            "call_id": "gs_1",
            "is_error": False,
            "signature": "c2ln",
            "result": [{"search_suggestions": "<div></div>"}],
        },
    ),
    _delta(
        3,
        {
            "type": "google_search_result",
            "is_error": False,
            "signature": "c2ln",
            "result": [{"search_suggestions": "<div></div>"}],
        },
    ),
    _stop(3),
    _start(
        4,
        {
            "type": "code_execution_call",
            "id": "ce_1",
            "arguments": {"code": "print(1)", "language": "python"},
            "signature": "c2ln",
        },
    ),
    _delta(4, {"type": "code_execution_call", "arguments": {"code": "print(2)"}}),
    _stop(4),
    _start(
        5,
        {
            "type": "code_execution_result",
            "call_id": "ce_1",
            "is_error": False,
            "signature": "c2ln",
            "result": [{"type": "text", "text": "1"}],
        },
    ),
    _delta(5, {"type": "code_execution_result", "result": "2", "is_error": False}),
    _stop(5),
    _start(
        6,
        {
            "type": "url_context_call",
            "id": "uc_1",
            "arguments": {"urls": ["https://example.com/"]},
            "signature": "c2ln",
        },
    ),
    _delta(6, {"type": "url_context_call", "arguments": {"urls": ["https://example.com/"]}}),
    _stop(6),
    _start(
        7,
        {
            "type": "url_context_result",
            "call_id": "uc_1",
            "is_error": False,
            "signature": "c2ln",
            "result": [{"url": "https://example.com/", "status": "success"}],
        },
    ),
    _delta(
        7,
        {
            "type": "url_context_result",
            "result": [{"url": "https://example.com/", "status": "success"}],
        },
    ),
    _stop(7),
    _start(
        8,
        {
            "type": "google_maps_call",
            "id": "gm_1",
            "arguments": {"queries": ["cafe"]},
            "signature": "c2ln",
        },
    ),
    _delta(8, {"type": "google_maps_call", "arguments": {"queries": ["cafe"]}}),
    _stop(8),
    _start(
        9,
        {
            "type": "google_maps_result",
            "call_id": "gm_1",
            "signature": "c2ln",
            "result": [
                {
                    "widget_context_token": "tok",
                    "places": [
                        {
                            "name": "Cafe",
                            "place_id": "places/1",
                            "url": "https://maps.example.com/p",
                            "review_snippets": [_review],
                        }
                    ],
                }
            ],
        },
    ),
    _delta(
        9,
        {
            "type": "google_maps_result",
            "result": [{"places": [{"name": "Cafe", "review_snippets": [_review]}]}],
        },
    ),
    _stop(9),
    _start(10, {"type": "file_search_call", "id": "fs_1", "signature": "c2ln"}),
    _delta(10, {"type": "file_search_call", "signature": "c2ln"}),
    _stop(10),
    _start(11, {"type": "file_search_result", "call_id": "fs_1", "signature": "c2ln"}),
    _delta(11, {"type": "file_search_result", "result": [{}], "signature": "c2ln"}),
    _stop(11),
    _start(
        12,
        {
            "type": "mcp_server_tool_call",
            "id": "mcp_1",
            "name": "lookup",
            "server_name": "srv",
            "arguments": {"q": "x"},
        },
    ),
    _stop(12),
    _start(
        13,
        {
            "type": "mcp_server_tool_result",
            "call_id": "mcp_1",
            "name": "lookup",
            "server_name": "srv",
            "result": [{"type": "text", "text": "found"}],
        },
    ),
    _delta(
        13,
        {
            "type": "mcp_server_tool_result",
            "name": "lookup",
            "server_name": "srv",
            "result": [{"type": "text", "text": "found"}],
        },
    ),
    _stop(13),
    _start(14, {"type": "model_output", "content": _contents[1:]}),
    _delta(14, {"type": "image", "mime_type": "image/png", "data": "iVBO", "resolution": "low"}),
    _delta(
        14,
        {
            "type": "audio",
            "mime_type": "audio/wav",
            "data": "UklG",
            "channels": 1,
            "rate": 16000,
            "sample_rate": 16000,
        },
    ),
    _delta(14, {"type": "document", "mime_type": "application/pdf", "uri": "gs://b/d.pdf"}),
    _delta(14, {"type": "video", "mime_type": "video/mp4", "uri": "gs://b/v.mp4"}),
    _delta(
        14, {"type": "retrieval_call", "retrieval_type": "rag", "arguments": {"queries": ["q"]}}
    ),
    _delta(14, {"type": "retrieval_result", "is_error": False, "signature": "c2ln"}),
    _stop(14),
    _start(
        15,
        {
            "type": "model_output",
            "content": [],
            "error": {"code": 13, "message": "partial output", "details": []},
        },
    ),
    _stop(15),
    _completed("completed"),
]

CASES: list[tuple[str, dict[str, Any]]] = [
    ("tool turn", interactions(_tool_turn)),
    ("built-in tools, user input, function result and media", interactions(_server_turn)),
]
