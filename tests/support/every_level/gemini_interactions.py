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
        # (the generator's form, which the shipped corpus holds)
        "interaction": {"id": "v1_1"},
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

# -- the interaction's echo of the request and its reports ------------------------------
#
# interaction.created and interaction.completed whose interaction holds every
# member the profile closes there (google-genai 3.6.1 interaction.py and the
# types it names).  The walker visits a level's first object in a case only,
# so each variant of a union at one path (a tools[] entry, an agent_config, a
# response_format, an input entry) is the first of its own case.

_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
}
_allowed = {"mode": "validated", "tools": ["weather"]}
_TOOLS: dict[str, dict[str, Any]] = {
    "function": {
        "type": "function",
        "name": "weather",
        "description": "The weather in a city.",
        "short_description": "weather",
        "defer_loading": False,
        "parameters": _SCHEMA,
    },
    "code_execution": {"type": "code_execution"},
    "computer_use": {
        "type": "computer_use",
        "environment": "browser",
        "disabled_safety_policies": ["financial_transactions"],
        "enable_prompt_injection_detection": True,
        "excluded_predefined_functions": ["drag_and_drop"],
    },
    "file_search": {
        "type": "file_search",
        "file_search_store_names": ["fileSearchStores/s"],
        "metadata_filter": "year > 2020",
        "top_k": 5,
    },
    "google_maps": {
        "type": "google_maps",
        "enable_widget": True,
        "latitude": 48.85,
        "longitude": 2.35,
    },
    "google_search": {"type": "google_search", "search_types": ["web_search"]},
    "mcp_server": {
        "type": "mcp_server",
        "name": "srv",
        "url": "https://mcp.example.com/",
        "headers": {"X-Caller-Header": "v"},
        "allowed_tools": [_allowed],
        "defer_loading": True,
    },
    "retrieval": {
        "type": "retrieval",
        "retrieval_types": ["rag_store", "vertex_ai_search", "exa_ai_search"],
        "exa_ai_search_config": {"api_key": "k", "custom_config": {"caller_key": 1}},
        "parallel_ai_search_config": {"api_key": "k", "custom_config": {"caller_key": 1}},
        "rag_store_config": {
            "rag_resources": [{"rag_corpus": "ragCorpora/1", "rag_file_ids": ["f1"]}],
            "rag_retrieval_config": {
                "top_k": 3,
                "filter": {
                    "metadata_filter": "a = 1",
                    "vector_distance_threshold": 0.5,
                    "vector_similarity_threshold": 0.5,
                },
                "hybrid_search": {"alpha": 0.5},
                "ranking": {
                    "ranking_config": "rank_service",
                    "model_name": "ranker",
                    "rank_service": {"model_name": "ranker"},
                },
            },
            "similarity_top_k": 3,
            "vector_distance_threshold": 0.5,
        },
        "vertex_ai_search_config": {"datastores": ["ds/1"], "engine": "engines/1"},
    },
    "tool_search": {
        "type": "tool_search",
        "name": "find_tools",
        "description": "Finds tools.",
        "execution": "client",
        "parameters": _SCHEMA,
    },
    "url_context": {"type": "url_context"},
}

_GENERATION_CONFIG: dict[str, Any] = {
    "temperature": 0.5,
    "top_p": 0.9,
    "seed": 7,
    "max_output_tokens": 256,
    "stop_sequences": ["END"],
    "thinking_level": "low",
    "thinking_summaries": "auto",
    "tool_choice": {"allowed_tools": _allowed},
    "image_config": {"aspect_ratio": "1:1", "image_size": "1K"},
    "speech_config": {"speakers": [{"speaker": "A", "voice": "Kore", "language": "en-US"}]},
    "transcription_config": {
        "mode": {"type": "verbatim", "diarization_mode": "on", "timestamp_granularities": ["word"]},
        "language_codes": ["en-US"],
        "language_hints": ["en"],
        "adaptation_phrases": ["toolstream"],
        "custom_vocabulary": ["toolstream"],
        "diarization_mode": "on",
        "timestamp_granularities": ["word"],
    },
    "video_config": {"task": "text_to_video"},
}

_ENVIRONMENT: dict[str, Any] = {
    "type": "remote",
    "environment_id": "env_1",
    "mode": "self_hosted",
    "custom_config": {"caller_key": {"nested": 1}},
    "env": {"CITY": {"value": "Paris", "credential": "creds/1"}, "PLAIN": "x"},
    "network": {
        "allowlist": [
            {
                "domain": "*.example.com",
                "credential": "creds/2",
                "transform": {"X-Injected": "v"},
            }
        ]
    },
    "sources": [
        {"type": "inline", "content": "print(1)", "encoding": "utf-8", "target": "/a.py"},
        {"type": "gcs", "source": "gs://b/src", "target": "/src"},
    ],
}

_ECHO: dict[str, Any] = {
    "agent_config": {"type": "antigravity", "max_total_tokens": 1000, "model": "gemini-test"},
    "cached_content": "cachedContents/1",
    "continuation_ids": ["v1_0", "v1_1"],
    "environment": _ENVIRONMENT,
    "environment_id": "env_1",
    "errors": [{"code": "UNAVAILABLE", "message": "retried"}],
    "generation_config": _GENERATION_CONFIG,
    "input": [
        {"type": "text", "text": "What is the weather in Paris?"},
        *_contents[1:],
    ],
    "labels": {"team": "tools", "env": "test"},
    "output_audio": {
        "type": "audio",
        "mime_type": "audio/wav",
        "data": "UklG",
        "channels": 1,
        "sample_rate": 24000,
        "processing": {"type": "static", "start_offset": "0s", "end_offset": "1s"},
    },
    "output_image": {
        "type": "image",
        "mime_type": "image/png",
        "data": "iVBO",
        "resolution": "low",
    },
    "output_text": "Sunny",
    "output_video": _contents[4],
    "previous_interaction_id": "v1_0",
    "response_format": {"type": "text", "mime_type": "application/json", "schema": _SCHEMA},
    "response_mime_type": "application/json",
    "response_modalities": ["text"],
    "safety_settings": [
        {"type": "harassment", "threshold": "block_only_high", "method": "severity"}
    ],
    "system_instruction": "Be brief.",
    "tools": [_TOOLS["function"]],
    "webhook_config": {"uris": ["https://hooks.example.com/"], "user_metadata": {"k": {"v": 1}}},
}


def _echo_turn(**echo: Any) -> list[dict[str, Any]]:
    # A tool turn whose created and completed interactions echo ``echo``.
    created = _created()
    created["interaction"] |= echo
    return [
        created,
        _start(0, _call),
        _delta(0, {"type": "arguments_delta", "arguments": '{"city": "Paris"}'}),
        _stop(0),
        _completed("requires_action", steps=[_call], **echo),
    ]


# The request's input as a list of steps (turns): every step type the
# profile closes, a function call's own arguments, a function's result.
_input_steps: list[dict[str, Any]] = [
    {"type": "user_input", "content": [{"type": "text", "text": "Weather?"}]},
    _thought,
    {"type": "model_output", "content": [{"type": "text", "text": "Checking."}]},
    {"type": "function_call", "id": "fc_0", "name": "weather", "arguments": {"city": "Rome"}},
    {
        "type": "function_result",
        "call_id": "fc_0",
        "name": "weather",
        "is_error": False,
        "result": [{"type": "text", "text": "Sunny"}],
    },
]

_ECHO_CASES: list[tuple[str, list[dict[str, Any]]]] = [
    ("interaction echo: every member, function tool, antigravity agent", _echo_turn(**_ECHO)),
    *(
        (f"interaction echo: {kind} tool", _echo_turn(tools=[tool]))
        for kind, tool in _TOOLS.items()
        if kind != "function"
    ),
    (
        "interaction echo: code-mender agent, formats list, input steps, speech list",
        _echo_turn(
            agent_config={
                "type": "code-mender",
                "model": "gemini-test",
                "session_id": "s1",
                "session_config": {"max_rounds": 3},
                "find_request": {
                    "description": "overflow",
                    "finding_id": "f1",
                    "mode": "scan",
                    "source_files": [{"path": "a.c", "content": "int main(){}"}],
                },
                "fix_request": {
                    "description": "overflow",
                    "finding_id": "f1",
                    "source_files": [{"path": "a.c", "content": "int main(){}"}],
                },
            },
            response_format=[
                {"type": "text", "mime_type": "application/json", "schema": _SCHEMA},
                {"type": "audio", "mime_type": "audio/wav", "delivery": "inline"},
            ],
            input=_input_steps,
            generation_config={
                "speech_config": [{"speaker": "A", "voice": "Kore", "language": "en-US"}],
                "tool_choice": "auto",
                "transcription_config": {"mode": {"type": "smart", "source_text": "hi"}},
            },
            environment="env_1",
        ),
    ),
    (
        "interaction echo: deep-research agent, image format, one content input",
        _echo_turn(
            agent_config={
                "type": "deep-research",
                "collaborative_planning": True,
                "enable_bigquery_tool": False,
                "thinking_summaries": "auto",
                "visualization": "auto",
            },
            response_format={
                "type": "image",
                "mime_type": "image/jpeg",
                "aspect_ratio": "1:1",
                "image_size": "1K",
                "delivery": "inline",
            },
            input={"type": "text", "text": "Weather?"},
            environment={"type": "remote", "network": {"allowlist": "disabled"}},
        ),
    ),
    (
        "interaction echo: video format, string input",
        _echo_turn(
            response_format={
                "type": "video",
                "aspect_ratio": "16:9",
                "duration": "8s",
                "gcs_uri": "gs://b/out/",
                "resolution": "720p",
                "delivery": "uri",
            },
            input="What is the weather in Paris?",
        ),
    ),
]

CASES: list[tuple[str, dict[str, Any]]] = [
    ("tool turn", interactions(_tool_turn)),
    ("built-in tools, user input, function result and media", interactions(_server_turn)),
    *((name, interactions(events)) for name, events in _ECHO_CASES),
]
