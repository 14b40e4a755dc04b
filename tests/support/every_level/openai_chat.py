"""Every object level of the chat profile (``openai``; ``mistral`` walks the
same chunks), in valid streams of our own (see
``tests/support/every_level/__init__.py``).

Shapes from openai-python's ``ChatCompletionChunk``
(``types/chat/chat_completion_chunk.py``: ``Choice``, ``ChoiceDelta``,
``ChoiceDeltaToolCall``, ``ChoiceLogprobs``), ``ChatCompletionTokenLogprob``
(``chat_completion_token_logprob.py``: ``top_logprobs`` entries) and
``CompletionUsage`` (``types/completion_usage.py``: ``prompt_tokens_details``,
``completion_tokens_details``), as the API sends them with
``stream_options.include_usage`` and ``logprobs``/``top_logprobs`` set.
"""

from __future__ import annotations

from typing import Any

from tests.support.builders import SCHEMAS

PROFILE = "openai"

_HEAD: dict[str, Any] = {
    "id": "chatcmpl-every-level",
    "object": "chat.completion.chunk",
    "created": 1767225600,
    "model": "gpt-4o-2024-08-06",
    "system_fingerprint": "fp_0000000001",
    "service_tier": "default",
}


def _chunk(choice: dict[str, Any] | None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {**_HEAD, "choices": [] if choice is None else [choice], **extra}
    return out


def _logprob(token: str) -> dict[str, Any]:
    return {
        "token": token,
        "logprob": -0.25,
        "bytes": list(token.encode("utf-8")),
        "top_logprobs": [{"token": token, "logprob": -0.25, "bytes": list(token.encode())}],
    }


_USAGE: dict[str, Any] = {
    "prompt_tokens": 82,
    "completion_tokens": 17,
    "total_tokens": 99,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": {
        "reasoning_tokens": 0,
        "audio_tokens": 0,
        "accepted_prediction_tokens": 0,
        "rejected_prediction_tokens": 0,
    },
}


def _tool_turn() -> dict[str, Any]:
    chunks = [
        _chunk(
            {
                "index": 0,
                "delta": {"role": "assistant", "content": None, "refusal": None},
                "logprobs": None,
                "finish_reason": None,
            },
            usage=None,
            obfuscation="Xy",
        ),
        _chunk(
            {
                "index": 0,
                "delta": {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_every_1",
                            "type": "function",
                            "function": {"name": "weather", "arguments": ""},
                        }
                    ]
                },
                "logprobs": None,
                "finish_reason": None,
            },
            usage=None,
        ),
        _chunk(
            {
                "index": 0,
                "delta": {
                    "tool_calls": [{"index": 0, "function": {"arguments": '{"city": "Oslo"}'}}]
                },
                "logprobs": None,
                "finish_reason": None,
            },
            usage=None,
        ),
        _chunk(
            {"index": 0, "delta": {}, "logprobs": None, "finish_reason": "tool_calls"}, usage=None
        ),
        _chunk(None, usage=_USAGE),
    ]
    return {"profile": PROFILE, "tool_schemas": SCHEMAS, "chunks": chunks}


def _text_turn() -> dict[str, Any]:
    # A text answer with token log probabilities, then a refusal's, and the usage chunk.
    chunks = [
        _chunk({"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}),
        _chunk(
            {
                "index": 0,
                "delta": {"content": "Hi"},
                "logprobs": {"content": [_logprob("Hi")], "refusal": None},
                "finish_reason": None,
            }
        ),
        _chunk(
            {
                "index": 0,
                "delta": {"refusal": "No"},
                "logprobs": {"content": None, "refusal": [_logprob("No")]},
                "finish_reason": None,
            }
        ),
        _chunk({"index": 0, "delta": {}, "finish_reason": "stop"}),
        _chunk(None, usage=_USAGE),
    ]
    return {"profile": PROFILE, "tool_schemas": SCHEMAS, "chunks": chunks}


def _search_and_audio_turn() -> dict[str, Any]:
    # A search model's URL citation (``annotations``, the web search preview
    # models) and an audio model's spoken answer (``audio``, gpt-4o-audio).
    citation = {
        "type": "url_citation",
        "url_citation": {
            "start_index": 0,
            "end_index": 2,
            "title": "Example",
            "url": "https://example.com/",
        },
    }
    audio = {"id": "audio_every_1", "data": "AAAA", "expires_at": 1767229200, "transcript": "Hi"}
    chunks = [
        _chunk(
            {"index": 0, "delta": {"role": "assistant", "content": "Hi"}, "finish_reason": None}
        ),
        _chunk({"index": 0, "delta": {"annotations": [citation]}, "finish_reason": None}),
        _chunk({"index": 0, "delta": {"audio": audio}, "finish_reason": None}),
        _chunk({"index": 0, "delta": {}, "finish_reason": "stop"}),
    ]
    return {"profile": PROFILE, "tool_schemas": SCHEMAS, "chunks": chunks}


CASES: list[tuple[str, dict[str, Any]]] = [
    ("tool call, usage chunk", _tool_turn()),
    ("text and refusal with logprobs", _text_turn()),
    ("url citation and audio", _search_and_audio_turn()),
]
