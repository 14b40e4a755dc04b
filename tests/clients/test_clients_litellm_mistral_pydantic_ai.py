"""LiteLLM, the Mistral SDK and Pydantic AI through ``toolstream serve``.

For one case per classification each library exhibits, what its driver
reports is asserted against what the library was observed to do over HTTP
(the calls it hands over, the error it raises), and the classification
``toolstream diff`` gives it.  The cases are small fixtures
(``tests/clients/test_clients.py``, ``tests/support/diff_fixtures.py``) or shipped corpus
cases, named by path.  LiteLLM is in its own extra (``toolstream[litellm]``),
so its tests skip without it; mistralai and pydantic-ai are in the test
extra.  Every connection goes to 127.0.0.1 (conftest's ``no_network``): in
particular ``import litellm`` must not fetch its model-price map.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.builders import chunk, tc
from tests.support.client_fixtures import PARALLEL, RESENT_ID, TRUNCATED, wire
from tests.support.diff_fixtures import ANT_OUT_OF_ORDER, ANT_REUSED_INDEX, ANT_TRUNCATED, needs
from toolstream.clients import CHEAP, CLIENTS, client_adapter
from toolstream.diff import diff_fixture

ROOT = Path(__file__).resolve().parents[2]
MODULES = {"litellm": ("litellm", "litellm"), "mistralai": ("mistralai", "clients")}
MODULES["pydantic-ai"] = ("pydantic_ai", "clients")


def case(path: str) -> dict[str, Any]:
    fixture: dict[str, Any] = json.loads((ROOT / path).read_text(encoding="utf-8"))
    return fixture


def run(name: str, fixture: dict[str, Any]) -> Any:
    module, extra = next(v for k, v in MODULES.items() if name.startswith(k))
    needs(module, extra)
    return diff_fixture(fixture, client_adapter(name))


def texts(outcome: Any) -> list[tuple[Any, Any, Any]]:
    return [(c.id, c.name, c.arguments) for c in outcome.handed]


def test_registered_and_cheap() -> None:
    for name in (
        "litellm-openai",
        "litellm-openai-chunks",
        "litellm-groq",
        "litellm-anthropic",
        "litellm-bedrock",
        "mistralai-chat-stream",
        "pydantic-ai-openai",
        "pydantic-ai-anthropic",
    ):
        assert name in CLIENTS
    assert "pydantic-ai-openai" in CHEAP


# -- litellm ---------------------------------------------------------------------------


def test_litellm_openai_agrees_and_refuses_a_stream_without_finish() -> None:
    outcome = run("litellm-openai", PARALLEL)
    assert outcome.classification == "agree", outcome.detail
    assert texts(outcome) == [
        ("call_1", "weather", '{"city":"Paris"}'),
        ("call_2", "weather", '{"city":"Rome"}'),
    ]
    assert outcome.finish_reason == "tool_calls"
    # no finish_reason before the body ends: LiteLLM's stream wrapper raises
    cut = run("litellm-openai", TRUNCATED)
    assert cut.classification == "agree" and cut.rejected
    assert "MidStreamFallbackError" in cut.detail
    assert "Stream ended before a finish_reason was received" in cut.detail
    assert "Traceback" not in cut.detail


def test_litellm_openai_unsafe_accept_out_of_range_index() -> None:
    outcome = run("litellm-openai", case("corpus/cases/bad_index/0451ccdec9246e73.json"))
    assert outcome.classification == "unsafe_accept"
    assert [c.name for c in outcome.handed] == ["search_catalog"]


def field_fixture(name: str) -> dict[str, Any]:
    """One of the field benchmark's own fixtures (bench/field_bugs/fixtures/)."""
    return case(f"bench/field_bugs/fixtures/{name}.json")


def test_litellm_openai_chunks_accumulates_what_litellm_streams() -> None:
    """The chunks LiteLLM yields, accumulated by index as an application
    does: the same calls as the rebuilt response where LiteLLM's chunks are
    whole, other calls where the application reads what the rebuilt
    response repairs or rewrites."""
    outcome = run("litellm-openai-chunks", PARALLEL)
    assert outcome.classification == "agree", outcome.detail
    assert texts(outcome) == [
        ("call_1", "weather", '{"city":"Paris"}'),
        ("call_2", "weather", '{"city":"Rome"}'),
    ]
    assert outcome.finish_reason == "tool_calls"
    cut = run("litellm-openai-chunks", TRUNCATED)
    assert cut.classification == "agree" and cut.rejected
    assert "MidStreamFallbackError" in cut.detail
    # the name arrives after the arguments: stream_chunk_builder's response
    # has it, the delta that opened the call did not
    late = field_fixture("name_after_arguments")
    assert run("litellm-openai", late).classification == "agree"
    unnamed = run("litellm-openai-chunks", late)
    assert unnamed.classification == "wrong_calls" and unnamed.signature == "wrong_calls:name"
    assert texts(unnamed) == [("call_1", None, '{"city":"Paris"}')]
    # a second id at a used index: both merge the arguments, the chunks keep
    # the first id where the rebuilt response names the second
    reused = field_fixture("reused_index_new_id")
    merged = run("litellm-openai-chunks", reused)
    assert merged.signature == "unsafe_accept:merged"
    assert texts(merged) == [("call_1", "weather", '{"city":"Paris"}{"city":"Rome"}')]
    assert [c.id for c in run("litellm-openai", reused).handed] == ["call_2"]


def test_litellm_openai_and_its_chunks_share_one_request_with_the_same_outcomes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Run together, the two clients of LiteLLM's OpenAI route make one
    request per case and transport (the first makes it, the other takes its
    reading); each outcome is the one it gets from a request of its own."""
    needs("litellm", "litellm")
    from toolstream.clients import litellm_completion
    from toolstream.clients.harness import serving
    from toolstream.diff import case_from_fixture, resolve_adapters, run_cases

    fixtures = [
        PARALLEL,
        TRUNCATED,
        field_fixture("name_after_arguments"),
        field_fixture("reused_index_new_id"),
        case("corpus/cases/bad_index/0451ccdec9246e73.json"),
    ]
    cases = [case_from_fixture(f, f"case-{n}") for n, f in enumerate(fixtures)]
    requests: list[str] = []
    original = litellm_completion._LiteLLMClient._read

    def counted(self: Any, *args: Any) -> Any:
        requests.append(self.name)
        return original(self, *args)

    monkeypatch.setattr(litellm_completion._LiteLLMClient, "_read", counted)
    pair = ["client:litellm-openai", "client:litellm-openai-chunks"]
    specs = [*pair, "client:litellm-openai@split", "client:litellm-openai-chunks@split"]

    def judged(these: list[str]) -> list[dict[str, Any]]:
        monkeypatch.setattr(litellm_completion, "SHARED", litellm_completion.SharedReadings())
        with serving(cases):
            return [r.to_dict()["results"] for r in run_cases(cases, resolve_adapters(these))]

    together = judged(specs)
    assert len(requests) == 2 * len(cases)  # one per case and transport, not one per client
    requests.clear()
    alone = {spec: judged([spec]) for spec in specs}
    assert len(requests) == 4 * len(cases)
    for spec in specs:
        name = spec.removeprefix("client:")
        assert [row[name] for row in together] == [row[name] for row in alone[spec]]
    # each took its own reading, not a copy of the other's (they differ here)
    assert any(row["litellm-openai"] != row["litellm-openai-chunks"] for row in together)


def test_litellm_groq_posts_to_its_route_and_agrees_on_whole_calls_per_chunk() -> None:
    """LiteLLM's Groq route (its own chunk parser for OpenAI-like APIs) on
    three parallel calls, each whole in one chunk (the shape of
    BerriAI/litellm#7621): the pinned release hands over the three calls as
    sent; release 1.57.3 squeezed them into one (docs/field-bugs.md)."""
    outcome = run("litellm-groq", case("bench/field_bugs/fixtures/whole_call_per_chunk.json"))
    assert outcome.classification == "agree", outcome.detail
    assert texts(outcome) == [
        ("call_1", "weather", '{"city":"Paris"}'),
        ("call_2", "weather", '{"city":"Rome"}'),
        ("call_3", "weather", '{"city":"Oslo"}'),
    ]
    # a body that ends before any finish_reason: where the openai route's
    # stream wrapper raises, the Groq route hands the cut arguments over
    cut = run("litellm-groq", TRUNCATED)
    assert cut.classification == "unsafe_accept" and not cut.rejected
    assert cut.signature == "unsafe_accept:truncated_arguments+unterminated"
    assert texts(cut) == [("call_1", "weather", '{"city":"Par')]


def test_litellm_anthropic_reused_index_and_block_order() -> None:
    """A second tool_use block on a used index: LiteLLM hands over both
    calls (the reference blocks the collision); blocks that arrive out of
    order are handed over in arrival order."""
    reused = run("litellm-anthropic", ANT_REUSED_INDEX)
    assert reused.classification == "unsafe_accept"
    assert texts(reused) == [
        ("toolu_1", "weather", '{"city":"Paris"}'),
        ("toolu_2", "weather", '{"city":"Rome"}'),
    ]
    order = run("litellm-anthropic", ANT_OUT_OF_ORDER)
    assert order.classification == "wrong_calls"
    assert [c.id for c in order.handed] == ["toolu_2", "toolu_1"]
    cut = run("litellm-anthropic", ANT_TRUNCATED)
    assert cut.classification == "agree" and cut.rejected
    assert "MidStreamFallbackError" in cut.detail


def test_litellm_bedrock_interleaved_blocks_are_mixed_up() -> None:
    """Interleaved contentBlockDelta events: LiteLLM's ConverseStream
    conversion gives the calls each other's arguments."""
    agree = run("litellm-bedrock", case("corpus/cases/insert_noise/0db8bb67c3d7cbf2.json"))
    assert agree.classification == "agree", agree.detail
    mixed = run("litellm-bedrock", case("corpus/cases/interleave/57142f1a1e38e908.json"))
    assert mixed.classification == "wrong_calls"
    assert [c.name for c in mixed.handed] == ["book_room", "list_calendars"]
    assert mixed.handed[0].arguments == "{}"
    unsafe = run("litellm-bedrock", case("corpus/cases/bad_index/1f02a494de72617a.json"))
    assert unsafe.classification == "unsafe_accept"
    refused = run("litellm-bedrock", case("corpus/cases/drop_id/996bd9b888350cdd.json"))
    assert refused.classification == "agree" and refused.rejected
    assert "'toolUseId'" in refused.detail


# -- mistralai -------------------------------------------------------------------------


def test_mistralai_agrees_on_the_seed() -> None:
    outcome = run("mistralai-chat-stream", case("corpus/seeds/mistral-whole-call.json"))
    assert outcome.classification == "agree", outcome.detail
    assert [c.id for c in outcome.handed] == ["Ab12Cd34E"]
    assert outcome.finish_reason == "tool_calls"


def test_mistralai_refuses_a_fragment_without_a_name() -> None:
    """The SDK validates every chunk: a tool-call delta without
    ``function.name`` (an OpenAI-style continuation fragment) is a
    ResponseValidationError, so a valid fragmented call is refused."""
    fragmented = case("corpus/cases/delay_identity/0ff05cffabd89af4.json")
    outcome = run("mistralai-chat-stream", fragmented)
    assert outcome.classification == "false_reject"
    assert "ResponseValidationError" in outcome.detail and "function.name" in outcome.detail


def test_mistralai_refuses_a_choice_without_finish_reason() -> None:
    fixture = wire(
        chunk(tc(id="call_1", name="weather", args='{"city":"Paris"}', omit_index=True)),
        chunk(finish="tool_calls"),
        profile="mistral",
    )
    del fixture["chunks"][0]["choices"][0]["finish_reason"]
    outcome = run("mistralai-chat-stream", fixture)
    assert outcome.classification == "false_reject"
    assert "finish_reason" in outcome.detail and "Field required" in outcome.detail


def test_mistralai_unsafe_wrong_and_crash() -> None:
    unsafe = run("mistralai-chat-stream", case("corpus/cases/bad_index/1006095ebd854e79.json"))
    assert unsafe.classification == "unsafe_accept"
    # the same call resent whole: the accumulator concatenates its name
    resent = run(
        "mistralai-chat-stream", case("corpus/cases/forced_choice_stop/34e2cc25ec8f79b4.json")
    )
    assert resent.classification == "wrong_calls"
    assert resent.handed[0].name.startswith("search_catalogsearch_catalog")
    crash = run("mistralai-chat-stream", case("corpus/cases/bad_index/0451ccdec9246e73.json"))
    assert crash.classification == "adapter_crash"
    assert crash.error_type == "IndexError" and crash.in_library
    assert "accumulate_chunks_to_response_dict" in crash.detail


def test_mistralai_stall_is_bounded() -> None:
    needs("mistralai", "clients")
    adapter = client_adapter("mistralai-chat-stream@stall:5", timeout=0.5)
    started = time.monotonic()
    outcome = adapter.run(case("corpus/seeds/mistral-whole-call.json"))
    assert outcome.rejected and "Timeout" in (outcome.reason or "")
    assert time.monotonic() - started < 4.0


# -- pydantic-ai -----------------------------------------------------------------------


def test_pydantic_ai_openai_hands_back_deferred_calls() -> None:
    outcome = run("pydantic-ai-openai", PARALLEL)
    assert outcome.classification == "agree", outcome.detail
    assert [(c.id, c.name, c.input) for c in outcome.handed] == [
        ("call_1", "weather", {"city": "Paris"}),
        ("call_2", "weather", {"city": "Rome"}),
    ]
    assert outcome.finish_reason == "tool_calls"


def test_pydantic_ai_openai_refuses_truncated_and_renamed_calls() -> None:
    """Arguments that are not JSON, and a name doubled by a resent delta
    (an unknown tool): the agent, with retries=0, ends the run."""
    cut = run("pydantic-ai-openai", TRUNCATED)
    assert cut.classification == "agree" and cut.rejected
    assert "UnexpectedModelBehavior" in cut.detail
    resent = run("pydantic-ai-openai", RESENT_ID)
    assert resent.classification == "false_reject"
    assert "'weatherweather'" in resent.detail


def test_pydantic_ai_openai_unsafe_wrong_and_crash() -> None:
    unsafe = run("pydantic-ai-openai", case("corpus/cases/bad_index/0451ccdec9246e73.json"))
    assert unsafe.classification == "unsafe_accept"
    order = run("pydantic-ai-openai", case("corpus/cases/interleave/0d84ba25b8af0121.json"))
    assert order.classification == "wrong_calls"
    assert [c.id for c in order.handed] == ["call_t1", "call_w1"]
    crash = run("pydantic-ai-openai", case("corpus/cases/bad_index/07130438cde2de14.json"))
    assert crash.classification == "adapter_crash"
    assert crash.error_type == "IndexError" and crash.in_library


def test_pydantic_ai_anthropic() -> None:
    """No message_stop: the Anthropic model hands over the calls it has;
    blocks out of order are handed over in arrival order."""
    cut = run("pydantic-ai-anthropic", ANT_TRUNCATED)
    assert cut.classification == "unsafe_accept"
    assert [(c.id, c.input) for c in cut.handed] == [("toolu_1", {"city": "Paris"})]
    order = run("pydantic-ai-anthropic", ANT_OUT_OF_ORDER)
    assert order.classification == "wrong_calls"
    crash = run("pydantic-ai-anthropic", case("corpus/cases/bad_index/0059f2dc1552cd11.json"))
    assert crash.classification == "adapter_crash"
    assert crash.error_type == "IndexError" and crash.in_library


def test_pydantic_ai_anthropic_pause_turn_is_one_request() -> None:
    """``pause_turn``: the agent requests the turn again instead of handing
    over its calls; the driver ends the run at that second request, so the
    outcome is the agent's refusal on every machine, never a deadline."""
    paused = case("corpus/cases/wrong_finish/dd2ee7456f555c68.json")
    assert '"pause_turn"' in json.dumps(paused)
    outcome = run("pydantic-ai-anthropic", paused)
    assert outcome.classification == "agree" and outcome.rejected
    assert "requested the turn again" in outcome.detail
