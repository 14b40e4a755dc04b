"""The chat profiles' bookkeeping objects are closed: ``usage`` and its
details, a choice's ``logprobs`` and its entries, a delta's ``audio`` and
url citations (toolstream/profiles/openai_chat_members.py).  Their own
members pass; any other blocks, naming its path, on every route a chunk
can take (one chunk at a time, the gate's run of plain fragments, the
file ledger); a reviewed dialect's member inside ``usage`` passes."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.builders import openai, weather_call
from toolstream import Gate, validate, validate_bytes
from toolstream.api import LEDGER_MIN_BYTES
from toolstream.profiles.dialects import DOCS

Chunk = dict[str, Any]

USAGE = {
    "prompt_tokens": 54,
    "completion_tokens": 20,
    "total_tokens": 74,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
}
TOP: dict[str, Any] = {"token": "{", "bytes": [123], "logprob": -0.01}
TOKEN: dict[str, Any] = {**TOP, "top_logprobs": []}
LOGPROBS: dict[str, Any] = {"content": [{**TOP, "top_logprobs": [TOP]}], "refusal": None}
CITATION = {"start_index": 0, "end_index": 2, "title": "A", "url": "https://example.org/a"}
ANNOTATIONS = [{"type": "url_citation", "url_citation": CITATION}]
AUDIO = {"id": "audio_1", "transcript": "Hi", "data": "", "expires_at": 1}


def _on_fragment(place: str, value: Any) -> list[Chunk]:
    """weather_call with ``value`` at ``place`` of its middle chunk (a
    plain argument fragment, the shape the gate reads in runs)."""
    stream = weather_call()
    chunk = stream[1]
    choice = chunk["choices"][0]
    target = {"chunk": chunk, "choice": choice, "delta": choice["delta"]}[place.split(".")[0]]
    target[place.split(".")[1]] = copy.deepcopy(value)
    return stream


def _usage_chunk(usage: Any) -> list[Chunk]:
    return [*weather_call(), {"object": "chat.completion.chunk", "usage": usage}]


VALID: dict[str, Callable[[], list[Chunk]]] = {
    "usage on a fragment chunk": lambda: _on_fragment("chunk.usage", USAGE),
    "usage-only chunk": lambda: _usage_chunk(USAGE),
    "logprobs": lambda: _on_fragment("choice.logprobs", LOGPROBS),
    "refusal logprobs": lambda: _on_fragment("choice.logprobs", {"refusal": [TOKEN]}),
    "annotations": lambda: _on_fragment("delta.annotations", ANNOTATIONS),
    "audio": lambda: _on_fragment("delta.audio", AUDIO),
}


def _routes(stream: list[Chunk]) -> list[Any]:
    """The reports of every route: validate, the gate, the file ledger."""
    fixture = openai(stream)
    gate = Gate("openai", fixture["tool_schemas"])
    for item in fixture["chunks"]:
        gate.feed(item)
    padded = copy.deepcopy(fixture)
    thinking = {"choices": [{"index": 0, "delta": {"content": "x" * 64}}]}
    padded["chunks"] = [thinking] * (LEDGER_MIN_BYTES // 64) + padded["chunks"]
    ledger = validate_bytes(json.dumps(padded).encode())
    return [validate(fixture), gate.close(), ledger]


@pytest.mark.parametrize("name", sorted(VALID))
def test_the_known_members_pass_on_every_route(name: str) -> None:
    for report in _routes(VALID[name]()):
        assert report.status == "pass", (name, report.to_json())
        assert [c.arguments for c in report.client_calls()] == ['{"city": "Paris"}']


UNKNOWN: dict[str, tuple[Callable[[], list[Chunk]], str]] = {
    "usage": (lambda: _on_fragment("chunk.usage", {**USAGE, "zz": 1}), "usage.zz"),
    "usage-only chunk": (lambda: _usage_chunk({**USAGE, "zz": 1}), "usage.zz"),
    "prompt details": (
        lambda: _usage_chunk({**USAGE, "prompt_tokens_details": {"zz": 1}}),
        "usage.prompt_tokens_details.zz",
    ),
    "completion details": (
        lambda: _on_fragment("chunk.usage", {**USAGE, "completion_tokens_details": {"zz": 1}}),
        "usage.completion_tokens_details.zz",
    ),
    "logprobs": (
        lambda: _on_fragment("choice.logprobs", {**LOGPROBS, "zz": 1}),
        "choices[].logprobs.zz",
    ),
    "logprobs entry": (
        lambda: _on_fragment("choice.logprobs", {"content": [{**TOKEN, "zz": 1}]}),
        "choices[].logprobs.content[].zz",
    ),
    "top logprob": (
        lambda: _on_fragment(
            "choice.logprobs", {"refusal": [{**TOKEN, "top_logprobs": [{"token": "a", "zz": 1}]}]}
        ),
        "choices[].logprobs.refusal[].top_logprobs[].zz",
    ),
    "annotation": (
        lambda: _on_fragment("delta.annotations", [{**ANNOTATIONS[0], "zz": 1}]),
        "choices[].delta.annotations[].zz",
    ),
    "url citation": (
        lambda: _on_fragment(
            "delta.annotations", [{"type": "url_citation", "url_citation": {**CITATION, "zz": 1}}]
        ),
        "choices[].delta.annotations[].url_citation.zz",
    ),
    "audio": (lambda: _on_fragment("delta.audio", {**AUDIO, "zz": 1}), "choices[].delta.audio.zz"),
}


@pytest.mark.parametrize("name", sorted(UNKNOWN))
def test_an_unknown_member_blocks_naming_its_path_on_every_route(name: str) -> None:
    make, path = UNKNOWN[name]
    for report in _routes(make()):
        assert report.status == "blocked", (name, report.to_json())
        assert "unsupported_event" in report.codes
        assert any(
            f"member {path} is not one" in f.message and DOCS in f.message for f in report.findings
        ), (name, report.to_json())


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda: _usage_chunk(7), "usage is"),
        (lambda: _on_fragment("choice.logprobs", [TOKEN]), "choices[].logprobs is"),
        (lambda: _on_fragment("choice.logprobs", {"content": {}}), "logprobs.content is"),
        (lambda: _on_fragment("delta.annotations", {}), "annotations is"),
        (lambda: _on_fragment("delta.annotations", [{"type": "file"}]), "of type 'file'"),
        (lambda: _on_fragment("delta.audio", "x"), "choices[].delta.audio is"),
    ],
    ids=["usage", "logprobs", "logprobs content", "annotations", "annotation type", "audio"],
)
def test_a_bookkeeping_object_of_another_shape_blocks(
    make: Callable[[], list[Chunk]], said: str
) -> None:
    report = validate(openai(make()))
    assert report.status == "blocked", report.to_json()
    assert any(f.code == "unsupported_event" and said in f.message for f in report.findings)


def test_a_vendor_usage_member_passes_only_through_its_dialect() -> None:
    stream = _usage_chunk({**USAGE, "queue_time": 0.04})
    report = validate(openai(stream))
    assert report.status == "pass" and report.dialects == ("groq_usage_queue_time",)
    closed = validate(openai(stream), dialects=())
    assert closed.status == "blocked" and "usage.queue_time" in closed.findings[0].message
    # (a dialect's member of one level is unknown at another)
    moved = _usage_chunk({**USAGE, "prompt_tokens_details": {"queue_time": 0.04}})
    assert validate(openai(moved)).status == "blocked"


def test_mistral_usage_reads_its_own_members() -> None:
    # Mistral's UsageInfo adds prompt_audio_seconds and service_tier; the
    # openai profile does not know them.
    stream = _usage_chunk({**USAGE, "prompt_audio_seconds": None, "service_tier": "standard"})
    fixture = openai(stream)
    assert validate({**fixture, "profile": "mistral"}).status == "pass"
    assert validate(fixture).status == "blocked"
