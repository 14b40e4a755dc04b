"""Each reviewed dialect row (toolstream.profiles.dialects.REGISTRY), put into
an otherwise valid stream of our own: an inert member passes and is
reported, a normalized copy that agrees passes, one that disagrees blocks;
the same member outside its dialect (or with dialects off) still blocks."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.builders import openai, weather_call
from toolstream import validate
from toolstream.profiles.dialects import DOCS, REGISTRY, Treatment

Stream = list[dict[str, Any]]


def _reasoning_content(stream: Stream) -> Stream:
    # DeepSeek and xAI stream their reasoning before the call, in its own deltas.
    thinking = {
        "choices": [{"index": 0, "delta": {"role": "assistant", "reasoning_content": "Hm"}}]
    }
    return [thinking, *stream]


def _reasoning(stream: Stream) -> Stream:
    # OpenRouter's spelling, one delta per reasoning piece.
    thinking = {"choices": [{"index": 0, "delta": {"role": "assistant", "reasoning": "Hm"}}]}
    return [thinking, *stream]


def _reasoning_details(stream: Stream) -> Stream:
    details = [{"type": "reasoning.text", "text": "Hm", "index": 0}]
    thinking = {"choices": [{"index": 0, "delta": {"reasoning_details": details}}]}
    return [thinking, *stream]


def _groq(stream: Stream) -> Stream:
    # Groq puts x_groq on the first chunk and on the usage chunk (no choices).
    first = copy.deepcopy(stream[0])
    first["x_groq"] = {"id": "req_01"}
    usage = {"object": "chat.completion.chunk", "choices": [], "x_groq": {"id": "req_01"}}
    del usage["choices"]
    return [first, *stream[1:], usage]


def _azure_content_filter(stream: Stream) -> Stream:
    prompt = {
        "id": "",
        "object": "",
        "created": 0,
        "model": "",
        "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": {}}],
    }
    del prompt["object"]
    return [prompt, *stream]


def _message_mirror(stream: Stream) -> Stream:
    out = copy.deepcopy(stream)
    for item in out:
        for choice in item["choices"]:
            choice["message"] = copy.deepcopy(choice["delta"])
    return out


ADD: dict[str, Callable[[Stream], Stream]] = {
    "reasoning_content": _reasoning_content,
    "reasoning": _reasoning,
    "reasoning_details": _reasoning_details,
    "groq": _groq,
    "azure_content_filter": _azure_content_filter,
    "message_mirror": _message_mirror,
}


def test_every_dialect_row_has_a_case() -> None:
    assert sorted(ADD) == sorted(d.name for d in REGISTRY)


def test_every_row_names_its_servers_sources_and_reason() -> None:
    for dialect in REGISTRY:
        assert dialect.servers and dialect.sources and dialect.reason, dialect.name
        assert dialect.path.endswith(dialect.member), dialect.name


@pytest.mark.parametrize("name", sorted(ADD))
def test_a_dialect_member_in_a_valid_turn_passes_and_is_reported(name: str) -> None:
    report = validate(openai(ADD[name](weather_call())))
    assert report.status == "pass", report.to_json()
    assert report.dialects == (name,)
    assert report.to_dict()["dialects"] == [name]
    assert [c.arguments for c in report.client_calls()] == ['{"city": "Paris"}']


def test_a_closed_world_report_has_no_dialects_member() -> None:
    report = validate(openai(weather_call()))
    assert report.status == "pass"
    assert "dialects" not in report.to_dict()


def test_a_mirror_that_disagrees_with_its_delta_blocks() -> None:
    stream = _message_mirror(weather_call())
    stream[1]["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = '"x"}'
    report = validate(openai(stream))
    assert report.status == "blocked"
    # (the refused chunk's own delta is lost too, so the arguments do not parse)
    assert "unsupported_event" in report.codes
    assert any("disagrees" in f.message for f in report.findings)


def test_a_message_without_a_delta_is_not_a_mirror() -> None:
    stream = weather_call()
    stream.insert(0, {"choices": [{"index": 0, "message": {"role": "assistant"}}]})
    report = validate(openai(stream))
    assert report.status == "blocked"
    assert "unsupported_event" in report.codes


@pytest.mark.parametrize("level", ["delta", "chunk"])
def test_an_unknown_member_blocks_naming_its_path_and_the_review_page(level: str) -> None:
    stream = weather_call()
    if level == "delta":
        stream.insert(1, {"choices": [{"index": 0, "delta": {"x_vendor_hint": 1}}]})
        path = "choices[].delta.x_vendor_hint"
    else:
        stream.append({"x_vendor_hint": 1})
        path = "member x_vendor_hint"
    report = validate(openai(stream))
    assert report.status == "blocked"
    assert report.codes == ["unsupported_event"]
    message = report.findings[0].message
    assert path in message and DOCS in message and "how to add a dialect" in message


@pytest.mark.parametrize(
    "name", sorted(d.name for d in REGISTRY if d.treatment is not Treatment.REFUSED)
)
def test_with_dialects_off_a_dialect_member_blocks(name: str, monkeypatch: Any) -> None:
    from toolstream.profiles import _base

    original = _base.Profile.__init__

    def closed(self: Any, request: Any, limits: Any) -> None:
        original(self, request, limits)
        self.use_dialects = False

    monkeypatch.setattr(_base.Profile, "__init__", closed)
    report = validate(openai(ADD[name](weather_call())))
    assert report.status == "blocked", report.to_json()
    assert "unsupported_event" in report.codes
    assert report.dialects == ()
