"""Each reviewed dialect row (toolstream.profiles.dialects.REGISTRY), put into
an otherwise valid stream of our own: an inert member passes and is
reported, a normalized copy that agrees passes, one that disagrees blocks;
the same member outside its dialect (or with dialects off) still blocks."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.builders import (
    anthropic_turn,
    openai,
    responses,
    responses_call,
    responses_turn,
    weather_call,
)
from tests.support.builders_gemini_cohere_invoke import bedrock_invoke, invoke_tool, wrap
from toolstream import Gate, validate
from toolstream.profiles.dialects import DOCS, REGISTRY, Treatment, sources_for

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


def _on_every(
    where: str, member: str, value: Callable[[dict[str, Any]], Any]
) -> Callable[[Stream], Stream]:
    """Put ``member`` on every chunk, choice or delta of the stream, its
    value computed from that choice (or chunk)."""

    def add(stream: Stream) -> Stream:
        out = copy.deepcopy(stream)
        for item in out:
            if where == "chunk":
                item[member] = value(item)
                continue
            for choice in item["choices"]:
                target = choice if where == "choice" else choice["delta"]
                target[member] = value(choice)
        return out

    return add


def _last_reason(choice: dict[str, Any]) -> Any:
    return choice["finish_reason"]


def _together_text(stream: Stream) -> Stream:
    # Together repeats the delta's content as the choice's text ("" with none).
    said = [{"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hm"}}]}]
    out = copy.deepcopy([*said, *stream])
    for item in out:
        for choice in item["choices"]:
            choice["text"] = choice["delta"].get("content") or ""
    return out


def _perplexity(member: str, value: Any) -> Callable[[Stream], Stream]:
    # Perplexity sends its sources with the last chunk (the finish_reason one).
    def add(stream: Stream) -> Stream:
        out = copy.deepcopy(stream)
        out[-1][member] = value
        return out

    return add


def _usage(member: str, value: Any) -> Callable[[Stream], Stream]:
    # A vendor's member in the usage of the usage-only chunk that ends the stream.
    def add(stream: Stream) -> Stream:
        usage = {"prompt_tokens": 56, "completion_tokens": 12, "total_tokens": 68, member: value}
        return [*copy.deepcopy(stream), {"object": "chat.completion.chunk", "usage": usage}]

    return add


ADD: dict[str, Callable[[Stream], Stream]] = {
    "reasoning_content": _reasoning_content,
    "reasoning": _reasoning,
    "reasoning_details": _reasoning_details,
    "together_token_id": _on_every("delta", "token_id", lambda choice: 30),
    "groq": _groq,
    "azure_content_filter": _azure_content_filter,
    "azure_completion_filter": _on_every(
        "choice",
        "content_filter_results",
        lambda choice: {"hate": {"filtered": False, "severity": "safe"}},
    ),
    "openrouter_provider": _on_every("chunk", "provider", lambda item: "Moonshot AI"),
    "openrouter_native_finish_reason": _on_every("choice", "native_finish_reason", _last_reason),
    "perplexity_citations": _perplexity("citations", ["https://example.org/a"]),
    "perplexity_search_results": _perplexity(
        "search_results", [{"title": "A", "url": "https://example.org/a"}]
    ),
    "vllm_stop_reason": _on_every("choice", "stop_reason", lambda choice: None),
    "vllm_token_ids": _on_every("choice", "token_ids", lambda choice: [791, 1379]),
    "sglang_matched_stop": _on_every("choice", "matched_stop", lambda choice: None),
    "together_seed": _on_every("choice", "seed", lambda choice: 2039908639),
    "message_mirror": _message_mirror,
    "together_text": _together_text,
    "openrouter_chat_usage_cost": _usage("cost", 5.952e-05),
    "openrouter_chat_usage_cost_details": _usage("cost_details", {"upstream_inference_cost": None}),
    "openrouter_chat_usage_is_byok": _usage("is_byok", False),
    "deepseek_prompt_cache_hit_tokens": _usage("prompt_cache_hit_tokens", 320),
    "deepseek_prompt_cache_miss_tokens": _usage("prompt_cache_miss_tokens", 19),
    "groq_usage_queue_time": _usage("queue_time", 0.04),
    "groq_usage_prompt_time": _usage("prompt_time", 0.01),
    "groq_usage_completion_time": _usage("completion_time", 0.05),
    "groq_usage_total_time": _usage("total_time", 0.06),
    "xai_num_sources_used": _usage("num_sources_used", 0),
    "xai_cost_in_usd_ticks": _usage("cost_in_usd_ticks", 1330500),
}


def _bedrock_invocation_metrics() -> dict[str, Any]:
    # Bedrock adds its metrics to the last event of a Claude stream.
    events = anthropic_turn(invoke_tool())
    assert events[-1] == {"type": "message_stop"}
    events[-1]["amazon-bedrock-invocationMetrics"] = {
        "inputTokenCount": 846,
        "outputTokenCount": 39,
        "invocationLatency": 880,
        "firstByteLatency": 402,
    }
    return bedrock_invoke([wrap(event) for event in events])


def _github_copilot_usage() -> dict[str, Any]:
    # Copilot's Responses endpoint adds its billing counts to the last event.
    events = responses_turn(responses_call())
    assert events[-1]["type"] == "response.completed"
    details = [{"token_type": "input", "token_count": 19, "batch_size": 1, "cost_per_batch": 0}]
    events[-1]["copilot_usage"] = {"token_details": details}
    return responses(events)


def _openrouter_output_text() -> dict[str, Any]:
    # OpenRouter's response object carries the joined message text: "" while
    # the turn runs and when it holds only a call.
    events = responses_turn(responses_call())
    for event in (events[0], events[-1]):
        event["response"]["output_text"] = ""
    return responses(events)


def _openrouter_usage(member: str, value: Any) -> Callable[[], dict[str, Any]]:
    # OpenRouter's usage accounting, on the completed response's usage.
    def make() -> dict[str, Any]:
        events = responses_turn(responses_call())
        usage = {"input_tokens": 78, "output_tokens": 37, "total_tokens": 115, member: value}
        events[-1]["response"]["usage"] = usage
        return responses(events)

    return make


OTHER_PROFILES: dict[str, Callable[[], dict[str, Any]]] = {
    "bedrock_invocation_metrics": _bedrock_invocation_metrics,
    "github_copilot_usage": _github_copilot_usage,
    "openrouter_output_text": _openrouter_output_text,
    "openrouter_usage_cost": _openrouter_usage("cost", 1.13e-05),
    "openrouter_usage_cost_details": _openrouter_usage(
        "cost_details", {"upstream_inference_cost": None}
    ),
    "openrouter_usage_is_byok": _openrouter_usage("is_byok", False),
}
"""Rows of profiles other than chat: the whole fixture, the member in it."""


def _fixture(name: str) -> dict[str, Any]:
    if name in OTHER_PROFILES:
        return OTHER_PROFILES[name]()
    return openai(ADD[name](weather_call()))


def test_every_dialect_row_has_a_case() -> None:
    assert sorted([*ADD, *OTHER_PROFILES]) == sorted(d.name for d in REGISTRY)
    for name, make in OTHER_PROFILES.items():
        (dialect,) = (d for d in REGISTRY if d.name == name)
        assert make()["profile"] != "openai" and dialect.profile != "openai", name


def test_every_row_names_its_servers_sources_and_reason() -> None:
    for dialect in REGISTRY:
        assert dialect.servers and dialect.sources and dialect.reason, dialect.name
        assert dialect.path.endswith(dialect.member), dialect.name
        for server in dialect.servers:
            assert sources_for(dialect, server), (dialect.name, server)
        for source in dialect.sources:
            if not isinstance(source, str):
                assert set(source.shows) <= set(dialect.servers), (dialect.name, source)
        assert (dialect.treatment is Treatment.NORMALIZED) == bool(dialect.mirrors), dialect.name


def test_the_registry_names_at_least_fifteen_servers() -> None:
    servers = {server for dialect in REGISTRY for server in dialect.servers}
    assert len(servers) >= 15, sorted(servers)


@pytest.mark.parametrize("name", sorted([*ADD, *OTHER_PROFILES]))
def test_a_dialect_member_in_a_valid_turn_passes_and_is_reported(name: str) -> None:
    report = validate(_fixture(name))
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


@pytest.mark.parametrize("text", ["Hmm", None, 0])
def test_a_text_that_disagrees_with_its_delta_content_blocks(text: Any) -> None:
    stream = _together_text(weather_call())
    stream[0]["choices"][0]["text"] = text
    report = validate(openai(stream))
    assert report.status == "blocked", report.to_json()
    assert "unsupported_event" in report.codes
    assert any("together_text" in f.message and "disagrees" in f.message for f in report.findings)


def test_a_text_on_a_tool_chunk_must_be_empty() -> None:
    # A legacy text beside a tool-call delta repeats its (absent) content: "".
    stream = _together_text(weather_call())
    stream[1]["choices"][0]["text"] = '{"city": "Paris"}'
    report = validate(openai(stream))
    assert report.status == "blocked"
    assert "unsupported_event" in report.codes


def test_a_message_without_a_delta_is_not_a_mirror() -> None:
    stream = weather_call()
    stream.insert(0, {"choices": [{"index": 0, "message": {"role": "assistant"}}]})
    report = validate(openai(stream))
    assert report.status == "blocked"
    assert "unsupported_event" in report.codes


@pytest.mark.parametrize("level", ["delta", "choice", "chunk with choices", "chunk"])
def test_an_unknown_member_blocks_naming_its_path_and_the_review_page(level: str) -> None:
    stream = weather_call()
    if level == "delta":
        stream.insert(1, {"choices": [{"index": 0, "delta": {"x_vendor_hint": 1}}]})
        path = "choices[].delta.x_vendor_hint"
    elif level == "choice":
        stream.insert(1, {"choices": [{"index": 0, "delta": {}, "x_vendor_hint": 1}]})
        path = "choices[].x_vendor_hint"
    elif level == "chunk with choices":
        stream.insert(1, {"choices": [{"index": 0, "delta": {}}], "x_vendor_hint": 1})
        path = "member x_vendor_hint"
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
    report = validate(_fixture(name))
    assert report.status == "blocked", report.to_json()
    assert "unsupported_event" in report.codes
    assert report.dialects == ()


@pytest.mark.parametrize("level", ["chunk", "choice"])
@pytest.mark.parametrize("known", [False, True], ids=["unknown", "dialect"])
def test_a_member_on_a_plain_fragment_chunk_is_checked_on_every_route(
    level: str, known: bool
) -> None:
    # The middle chunk of weather_call is a plain argument fragment, the
    # shape the gate's fast path reads in runs: a member beside it must be
    # judged there exactly as one at a time.
    member = {"chunk": "x_groq", "choice": "stop_reason"}[level] if known else "x_vendor_hint"
    stream = weather_call()
    target = stream[1] if level == "chunk" else stream[1]["choices"][0]
    target[member] = {"id": "req_01"} if member == "x_groq" else None
    fixture = openai(stream)
    whole = validate(fixture)
    gate = Gate("openai", fixture["tool_schemas"])
    for item in fixture["chunks"]:
        gate.feed(item)
    assert gate.close().to_json() == whole.to_json()
    assert whole.status == ("pass" if known else "blocked"), whole.to_json()
