"""Deterministic synthetic streams for the benchmark.

Two shapes, each as an OpenAI Chat Completions fixture and as the equivalent
Anthropic Messages fixture (same calls, same argument fragments):

* ``single``: one large call;
* ``par16``: 16 parallel calls whose fragment chunks are interleaved
  round-robin (OpenAI); Anthropic streams content blocks one after another,
  so its ``par16`` has the 16 blocks in sequence, each with the same
  fragments as the OpenAI calls.

Argument fragments are 4-8 characters long (as real servers send tokens),
cut anywhere (including inside escapes and multi-byte characters' escapes).
Chunks carry the fields real servers send: ``id``, ``object``, ``created``,
``model``, ``system_fingerprint``, ``logprobs``, and a trailing usage chunk.

``chunks`` counts the whole stream (framing chunks included) and is exactly
the requested size for OpenAI; the Anthropic stream has the same number of
argument fragments plus its own framing events.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

PARALLEL = 16

WRITE_FILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "minLength": 1},
        "mode": {"type": "string", "enum": ["create", "overwrite", "append"]},
        "content": {"type": "string"},
        "edits": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "line": {"type": "integer", "minimum": 1},
                    "text": {"type": "string"},
                    "indent": {"type": "integer", "minimum": 0},
                },
                "required": ["line", "text"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["path", "content"],
    "additionalProperties": False,
}
SCHEMAS: dict[str, Any] = {"write_file": WRITE_FILE_SCHEMA}

_WORDS = (
    "def return self value index stream chunk parse the of and for with while "
    "résumé naïve Größe 日本語 données — “quoted” tab\there line\nbreak 'single' "
    '"double" back\\slash path/to/file 0.5 42 -7 1e3 true null'
).split(" ")


def _arguments(rng: random.Random, size: int, call: int) -> str:
    """A write_file call's arguments, about ``size`` characters of JSON."""
    content_words: list[str] = []
    edits: list[dict[str, Any]] = []
    budget = size // 2
    length = 0
    while length < budget:
        word = rng.choice(_WORDS)
        content_words.append(word)
        length += len(word) + 1
    length = 0
    line = 1
    while length < budget:
        text = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(2, 8)))
        edit = {"line": line, "text": text, "indent": rng.choice((0, 4, 8))}
        edits.append(edit)
        length += len(text) + 40
        line += rng.randint(1, 9)
    value = {
        "path": f"src/pkg/module_{call}.py",
        "mode": "overwrite",
        "content": " ".join(content_words),
        "edits": edits,
    }
    return json.dumps(value, ensure_ascii=False)


def _split(rng: random.Random, text: str, pieces: int) -> list[str]:
    """Cut ``text`` into exactly ``pieces`` non-empty fragments of ~4-8 chars
    (the last ones absorb what is left)."""
    out: list[str] = []
    at = 0
    n = len(text)
    for left in range(pieces, 0, -1):
        remaining = n - at
        if left == 1:
            out.append(text[at:])
            break
        take = rng.randint(4, 8)
        take = max(1, min(take, remaining - (left - 1)))
        out.append(text[at : at + take])
        at += take
    return out


@dataclass
class Stream:
    name: str
    profile: str
    chunks: int
    fixture: dict[str, Any]
    arguments: list[str]
    """The expected reassembled arguments of every call, in slot order."""

    def dumps(self) -> bytes:
        return json.dumps(self.fixture, ensure_ascii=False).encode("utf-8")


_CHUNK_ID = "chatcmpl-9xBenchAbCdEfGhIjKlMnOpQrStU"
_MODEL = "gpt-4o-2024-08-06"


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": _CHUNK_ID,
        "object": "chat.completion.chunk",
        "created": 1718000000,
        "model": _MODEL,
        "system_fingerprint": "fp_bench01",
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }


def plan(shape: str, chunks: int, seed: int = 7) -> tuple[list[str], list[list[str]]]:
    """(arguments per call, fragments per call) for an OpenAI stream of
    exactly ``chunks`` chunks."""
    calls = 1 if shape == "single" else PARALLEL
    # framing: role chunk, one opening chunk per call, finish chunk, usage chunk
    fragments = chunks - 3 - calls
    if fragments < calls:
        raise ValueError("too few chunks for this shape")
    rng = random.Random(f"{seed}-{shape}-{chunks}")
    per_call = [fragments // calls + (1 if k < fragments % calls else 0) for k in range(calls)]
    arguments = []
    parts = []
    for k, count in enumerate(per_call):
        text = _arguments(rng, count * 6, k)
        # adjust to the fragment count: pad the content if the text is too short
        while len(text) < count * 4:
            text = _arguments(rng, count * 7, k)
        arguments.append(text)
        parts.append(_split(rng, text, count))
    return arguments, parts


def openai_stream(shape: str, chunks: int) -> Stream:
    arguments, parts = plan(shape, chunks)
    out: list[dict[str, Any]] = [_chunk({"role": "assistant", "content": None})]
    calls = len(parts)
    for k in range(calls):
        out.append(
            _chunk(
                {
                    "tool_calls": [
                        {
                            "index": k,
                            "id": f"call_{k:02d}Qx7bench{k * 7919:08d}",
                            "type": "function",
                            "function": {"name": "write_file", "arguments": ""},
                        }
                    ]
                }
            )
        )
    cursors = [0] * calls
    remaining = sum(len(p) for p in parts)
    k = 0
    while remaining:
        if cursors[k] < len(parts[k]):
            text = parts[k][cursors[k]]
            cursors[k] += 1
            remaining -= 1
            out.append(_chunk({"tool_calls": [{"index": k, "function": {"arguments": text}}]}))
        k = (k + 1) % calls
    out.append(_chunk({}, "tool_calls"))
    usage = _chunk({})
    usage["choices"] = []
    usage["usage"] = {
        "prompt_tokens": 812,
        "completion_tokens": chunks,
        "total_tokens": chunks + 812,
    }
    out.append(usage)
    assert len(out) == chunks, (len(out), chunks)
    fixture = {
        "profile": "openai",
        "tool_schemas": SCHEMAS,
        "request": {"tool_choice": "auto"},
        "chunks": out,
    }
    return Stream(f"openai-{shape}", "openai", len(out), fixture, arguments)


def anthropic_stream(shape: str, chunks: int) -> Stream:
    """The same calls and fragments as :func:`openai_stream` (``chunks`` names
    the OpenAI size), as Anthropic Messages events."""
    arguments, parts = plan(shape, chunks)
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {
                "id": "msg_01BenchAbCdEfGhIjKlMnOp",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-20250514",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 812, "output_tokens": 1},
            },
        }
    ]
    for k, fragments in enumerate(parts):
        events.append(
            {
                "type": "content_block_start",
                "index": k,
                "content_block": {
                    "type": "tool_use",
                    "id": f"toolu_01Bench{k:02d}{k * 7919:08d}",
                    "name": "write_file",
                    "input": {},
                },
            }
        )
        for text in fragments:
            events.append(
                {
                    "type": "content_block_delta",
                    "index": k,
                    "delta": {"type": "input_json_delta", "partial_json": text},
                }
            )
        events.append({"type": "content_block_stop", "index": k})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": chunks},
        }
    )
    events.append({"type": "message_stop"})
    fixture = {"profile": "anthropic", "tool_schemas": SCHEMAS, "events": events}
    return Stream(f"anthropic-{shape}", "anthropic", len(events), fixture, arguments)


def build(profile: str, shape: str, chunks: int) -> Stream:
    if profile == "openai":
        return openai_stream(shape, chunks)
    if profile == "anthropic":
        return anthropic_stream(shape, chunks)
    raise ValueError(profile)
