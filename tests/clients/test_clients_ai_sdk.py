"""The Vercel AI SDK's Mistral, Amazon Bedrock and Google providers, its
OpenAI Responses provider over the shipped Responses seed, and
@ai-sdk/openai-compatible, through ``toolstream serve``
(``toolstream/clients/js/drivers/ai_sdk.mjs``, ``ai_sdk_openai_compatible.mjs``).

For every classification a driver was seen to produce over the corpus, one
hand-written case (or the seed, altered) asserts what the library does with
it: the calls it hands over, what it flags invalid, the error it raises.
The reference verdict each relies on is asserted first.  Without node or the
packages of ``toolstream/clients/js`` (``make adapters-js``) every test here
skips, naming what is missing.  Every connection goes to 127.0.0.1 (the
network guard of tests/conftest.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import toolstream
from tests.support.builders import (
    bedrock,
    bedrock_tool,
    bedrock_turn,
    br_delta,
    br_message_start,
    br_message_stop,
    br_metadata,
    br_start,
    br_stop,
    chunk,
    tc,
)
from tests.support.builders_gemini_cohere_invoke import (
    gem_call,
    gem_chunk,
    gem_finish,
    gemini,
    streamed_city,
)
from tests.support.diff_fixtures import oai
from toolstream.adapters.base import NO_INPUT
from toolstream.cli import cli
from toolstream.clients import StallTimeout, client_adapter
from toolstream.clients.harness import GENERATED_ID
from toolstream.clients.node import node_missing
from toolstream.diff import Outcome, diff_fixture

SEEDS = Path(__file__).resolve().parents[2] / "corpus" / "seeds"
CAPTURES = Path(__file__).resolve().parents[2].parent / "shared" / "captures"
CAPTURE_SCHEMAS = Path(__file__).resolve().parents[1] / "capture_schemas"


@pytest.fixture(autouse=True)
def needs_node() -> Iterator[None]:
    """Skip naming what is missing (the network guard is conftest's)."""
    missing = node_missing()
    if missing:
        pytest.skip(missing)
    yield


def run(fixture: dict[str, Any], client: str, expect: str) -> Outcome:
    """The client's outcome on ``fixture``, after checking the reference's verdict."""
    assert toolstream.validate(fixture).status == expect
    return diff_fixture(fixture, client_adapter(client))


def values(outcome: Outcome) -> list[tuple[Any, Any, Any]]:
    """(id, name, input) of each handed call (the AI SDK hands over parsed input)."""
    assert all(c.input is not NO_INPUT for c in outcome.handed)
    return [(c.id, c.name, c.input) for c in outcome.handed]


# -- @ai-sdk/mistral ----------------------------------------------------------------------

CHUNK = {"id": "cmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "m"}
ROLE = {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}
END = chunk(finish="tool_calls")


def mistral(*chunks: dict[str, Any]) -> dict[str, Any]:
    fixture = oai(ROLE, *chunks, END, profile="mistral")
    fixture["chunks"] = [{**CHUNK, **c} for c in fixture["chunks"]]
    return fixture


def whole(arguments: str, id: str = "call_1") -> dict[str, Any]:
    """Mistral's whole call in one chunk, without an index."""
    return chunk(tc(id=id, name="weather", args=arguments, omit_index=True))


def test_mistral_agree_whole_call() -> None:
    outcome = run(mistral(whole('{"city":"Paris"}')), "ai-sdk-mistral", "pass")
    assert outcome.classification == "agree", outcome.detail
    assert values(outcome) == [("call_1", "weather", {"city": "Paris"})]
    assert outcome.finish_reason == "tool-calls"


def test_mistral_unsafe_accept_schema_violation() -> None:
    """jsonSchema() declares the tool's schema without checking input against it."""
    outcome = run(mistral(whole('{"city":5}')), "ai-sdk-mistral", "blocked")
    assert outcome.classification == "unsafe_accept"
    assert values(outcome) == [("call_1", "weather", {"city": 5})]


def test_mistral_false_reject_id_in_a_later_fragment() -> None:
    """An indexed call whose id arrives in its second fragment: the provider
    requires an id on the first fragment of a call."""
    late_id = mistral(chunk(tc(0, args="")), chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')))
    outcome = run(late_id, "ai-sdk-mistral", "pass")
    assert outcome.classification == "false_reject" and outcome.rejected
    assert "InvalidResponseDataError: Expected 'id' to be a string." in outcome.detail


def test_mistral_wrong_calls_empty_first_id() -> None:
    """A first fragment with ``id: ""`` and the name, then the id and the
    arguments: the provider finishes the call at its first fragment (empty
    arguments, an id of its own) and drops the rest."""
    split = mistral(chunk(tc(0, "", "weather", "")), chunk(tc(0, "call_1", "", '{"city":"Paris"}')))
    outcome = run(split, "ai-sdk-mistral", "pass")
    assert outcome.classification == "wrong_calls"
    assert values(outcome) == [(GENERATED_ID, "weather", {})]


def test_mistral_crash_on_a_chunk_without_choices() -> None:
    """A usage chunk with ``choices: []``: the provider reads
    ``choices[0].delta`` unguarded and its stream throws a TypeError."""
    usage = {
        "choices": [],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
    outcome = run(mistral(usage, whole('{"city":"Paris"}')), "ai-sdk-mistral", "pass")
    assert outcome.classification == "adapter_crash"
    assert "TypeError: Cannot read properties of undefined (reading 'delta')" in outcome.detail


# -- @ai-sdk/amazon-bedrock ----------------------------------------------------------------


def test_bedrock_agree_two_tools() -> None:
    turn = bedrock_turn(
        bedrock_tool(0, "tooluse_1"), bedrock_tool(1, "tooluse_2", ('{"city":"Rome"}',))
    )
    outcome = run(bedrock(turn), "ai-sdk-amazon-bedrock", "pass")
    assert outcome.classification == "agree", outcome.detail
    assert values(outcome) == [
        ("tooluse_1", "weather", {"city": "Paris"}),
        ("tooluse_2", "weather", {"city": "Rome"}),
    ]


def test_bedrock_agree_exception_frame_is_a_refusal() -> None:
    """A modelStreamErrorException frame mid-stream: an error part."""
    events = [
        br_message_start(),
        *bedrock_tool(0, "tooluse_1"),
        {"modelStreamErrorException": {"message": "boom", "originalStatusCode": 500}},
    ]
    outcome = run(bedrock(events), "ai-sdk-amazon-bedrock", "blocked")
    assert outcome.classification == "agree" and outcome.rejected
    assert "boom" in outcome.detail


def test_bedrock_unsafe_accept_schema_violation() -> None:
    turn = bedrock_turn(bedrock_tool(0, "tooluse_1", ('{"city":5}',)))
    outcome = run(bedrock(turn), "ai-sdk-amazon-bedrock", "blocked")
    assert outcome.classification == "unsafe_accept"
    assert values(outcome) == [("tooluse_1", "weather", {"city": 5})]


def test_bedrock_wrong_calls_in_stop_order() -> None:
    """Two interleaved blocks, the second stopped first: the SDK hands the
    calls over in the order their blocks stop, not in block order."""
    events = [
        br_message_start(),
        br_start(0, "tooluse_1"),
        br_start(1, "tooluse_2"),
        br_delta(0, '{"city":"Paris"}'),
        br_delta(1, '{"city":"Rome"}'),
        br_stop(1),
        br_stop(0),
        br_message_stop(),
        br_metadata(),
    ]
    outcome = run(bedrock(events), "ai-sdk-amazon-bedrock", "pass")
    assert outcome.classification == "wrong_calls"
    assert [c.id for c in outcome.handed] == ["tooluse_2", "tooluse_1"]
    assert outcome.differences[0].field == "order"


def test_bedrock_false_reject_server_tool_use() -> None:
    """A ``server_tool_use`` block (run by Bedrock, not the application) is
    turned into a call of an undeclared tool and flagged invalid."""
    server = [br_start(0, "srv_1", "web_search", "server_tool_use"), br_delta(0, "{}"), br_stop(0)]
    turn = bedrock_turn(server, bedrock_tool(1, "tooluse_1"))
    outcome = run(bedrock(turn), "ai-sdk-amazon-bedrock", "pass")
    assert outcome.classification == "false_reject"
    assert values(outcome) == [("tooluse_1", "weather", {"city": "Paris"})]
    (flagged,) = (json.loads(text) for text in outcome.invalid)
    assert flagged["name"] == "web_search" and "NoSuchToolError" in flagged["error"]


# -- @ai-sdk/google ------------------------------------------------------------------------


def test_google_agree_whole_call() -> None:
    fixture = gemini([gem_chunk(gem_call(id="fc_1")), gem_finish()])
    outcome = run(fixture, "ai-sdk-google", "pass")
    assert outcome.classification == "agree", outcome.detail
    assert values(outcome) == [("fc_1", "weather", {"city": "Paris"})]


def test_google_agree_error_chunk_is_a_refusal() -> None:
    fixture = gemini(
        [gem_chunk(gem_call()), {"error": {"code": 500, "message": "x", "status": "INTERNAL"}}]
    )
    outcome = run(fixture, "ai-sdk-google", "blocked")
    assert outcome.classification == "agree" and outcome.rejected
    assert "APICallError" in outcome.detail


def test_google_unsafe_accept_without_finish_reason() -> None:
    """A stream that ends without any finishReason: the SDK hands the call over."""
    outcome = run(gemini([gem_chunk(gem_call(id="fc_1"))]), "ai-sdk-google", "blocked")
    assert outcome.classification == "unsafe_accept"
    assert values(outcome) == [("fc_1", "weather", {"city": "Paris"})]


def test_google_agree_with_an_id_of_its_own() -> None:
    """A streamed call without an id (the Gemini API sends none): the SDK
    makes one up where the wire has none, which is no difference."""
    outcome = run(gemini([*streamed_city("Paris", (2,)), gem_finish()]), "ai-sdk-google", "pass")
    assert outcome.classification == "agree"
    assert values(outcome) == [(GENERATED_ID, "weather", {"city": "Paris"})]
    assert outcome.differences == ()


# -- @ai-sdk/openai responses, over the shipped seed ---------------------------------------


def seed() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (SEEDS / "openai-responses-two-calls.json").read_text(encoding="utf-8")
    )
    return data


def where(events: list[dict[str, Any]], kind: str, item: str) -> int:
    """The position of the ``kind`` event of output item ``item``."""
    return next(
        i
        for i, e in enumerate(events)
        if e["type"] == kind and (e.get("item", {}).get("id") == item or e.get("item_id") == item)
    )


def test_responses_agree_on_the_seed() -> None:
    """The seed's Response objects carry what the SDK's schema asks for
    (``created_at``...), so it reads the turn: both calls."""
    outcome = run(seed(), "ai-sdk-openai-responses", "pass")
    assert outcome.classification == "agree", outcome.detail
    assert values(outcome) == [
        ("call_seed4_a", "get_forecast", {"city": "São Paulo", "days": 3, "units": "metric"}),
        ("call_seed4_b", "get_forecast", {"city": "東京", "days": 1}),
    ]


def test_responses_false_reject_without_created_at() -> None:
    """The seed's ``response.created`` without ``created_at`` (valid for the
    reference): the SDK's schema refuses the stream at its first event."""
    fixture = seed()
    del fixture["events"][0]["response"]["created_at"]
    outcome = run(fixture, "ai-sdk-openai-responses", "pass")
    assert outcome.classification == "false_reject" and outcome.rejected
    assert "TypeValidationError" in outcome.detail and "response.created" in outcome.detail


def test_responses_unsafe_accept_schema_violation() -> None:
    text = json.dumps(seed(), ensure_ascii=False).replace('days\\":1', 'days\\":99')
    outcome = run(json.loads(text), "ai-sdk-openai-responses", "blocked")
    assert outcome.classification == "unsafe_accept"
    assert values(outcome)[1] == ("call_seed4_b", "get_forecast", {"city": "東京", "days": 99})


def test_responses_wrong_calls_in_done_order() -> None:
    """The first call's ``output_item.done`` moved after the second's: the
    SDK hands the calls over in the order they are done, not by output_index."""
    fixture = seed()
    events = fixture["events"]
    done = events.pop(where(events, "response.output_item.done", "fc_seed4_a"))
    events.insert(where(events, "response.output_item.done", "fc_seed4_b") + 1, done)
    outcome = run(fixture, "ai-sdk-openai-responses", "pass")
    assert outcome.classification == "wrong_calls"
    assert [c.id for c in outcome.handed] == ["call_seed4_b", "call_seed4_a"]


def test_responses_crash_on_a_second_reasoning_done() -> None:
    """A reasoning item's ``output_item.done`` sent twice: the provider looks
    the item up after forgetting it and its stream throws a TypeError."""
    fixture = seed()
    events = fixture["events"]
    first = where(events, "response.output_item.done", "rs_seed4")
    events.insert(first + 1, json.loads(json.dumps(events[first])))
    outcome = run(fixture, "ai-sdk-openai-responses", "blocked")
    assert outcome.classification == "adapter_crash"
    assert "TypeError" in outcome.detail and "summaryParts" in outcome.detail


# -- @ai-sdk/openai-compatible, at serve's openai endpoint ---------------------------------


def openai_chunks(*chunks: dict[str, Any]) -> dict[str, Any]:
    """An openai-profile turn of Chat Completions chunks with their envelope."""
    fixture = oai(ROLE, *chunks, END)
    fixture["chunks"] = [{**CHUNK, **c} for c in fixture["chunks"]]
    return fixture


def test_openai_compatible_agree_on_the_parallel_seed() -> None:
    fixture = json.loads((SEEDS / "openai-parallel.json").read_text(encoding="utf-8"))
    outcome = run(fixture, "ai-sdk-openai-compatible", "pass")
    assert outcome.classification == "agree", outcome.detail
    assert values(outcome) == [
        ("call_w1", "get_weather", {"city": "São Paulo", "unit": "celsius"}),
        ("call_t1", "get_time", {"timezone": "America/Sao_Paulo"}),
    ]
    assert outcome.finish_reason == "tool-calls"


def test_openai_compatible_unsafe_accept_a_call_without_an_index() -> None:
    """A whole call with no ``index`` (what some OpenAI-compatible servers
    send): the reference blocks it on the openai profile; this provider
    hands it over where @ai-sdk/openai's chunk schema refuses it."""
    fixture = openai_chunks(whole('{"city":"Paris"}'))
    outcome = run(fixture, "ai-sdk-openai-compatible", "blocked")
    assert outcome.classification == "unsafe_accept"
    assert values(outcome) == [("call_1", "weather", {"city": "Paris"})]
    refused = diff_fixture(fixture, client_adapter("ai-sdk-openai-chat"))
    assert refused.rejected and "TypeValidationError" in refused.detail


def test_openai_compatible_unsafe_accept_a_reused_index_as_two_calls() -> None:
    """Index 0 reused by a second id: the provider starts a second call
    (as sent), where the reference blocks the collision."""
    fixture = openai_chunks(
        chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')),
        chunk(tc(0, "call_2", "weather", '{"city":"Rome"}')),
    )
    outcome = run(fixture, "ai-sdk-openai-compatible", "blocked")
    assert outcome.classification == "unsafe_accept"
    assert values(outcome) == [
        ("call_1", "weather", {"city": "Paris"}),
        ("call_2", "weather", {"city": "Rome"}),
    ]


def test_openai_compatible_agree_flags_broken_arguments_invalid() -> None:
    """Arguments that never close: the SDK flags the call invalid and hands over none."""
    outcome = run(
        openai_chunks(chunk(tc(0, "call_1", "weather", '{"city":'))),
        "ai-sdk-openai-compatible",
        "blocked",
    )
    assert outcome.classification == "agree" and not outcome.handed
    (flagged,) = outcome.invalid
    assert json.loads(flagged)["id"] == "call_1"


def test_openai_compatible_agree_past_a_chunk_without_choices() -> None:
    """A usage chunk with ``choices: []`` (where @ai-sdk/mistral throws): skipped."""
    usage = {
        "choices": [],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
    fixture = openai_chunks(usage, chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')))
    outcome = run(fixture, "ai-sdk-openai-compatible", "pass")
    assert outcome.classification == "agree", outcome.detail
    assert values(outcome) == [("call_1", "weather", {"city": "Paris"})]


# -- a stall in the middle of the body ------------------------------------------------------


STALL_CASES = [
    pytest.param(client, fixture, id=client)
    for client, fixture in [
        ("ai-sdk-mistral", mistral(whole('{"city":"Paris"}'))),
        ("ai-sdk-amazon-bedrock", bedrock(bedrock_turn(bedrock_tool(0, "tooluse_1")))),
        ("ai-sdk-google", gemini([gem_chunk(gem_call(id="fc_1")), gem_finish()])),
        ("ai-sdk-openai-responses", seed()),
        ("ai-sdk-openai-compatible", openai_chunks(chunk(tc(0, "call_1", "weather", "{}")))),
    ]
]


@pytest.mark.parametrize(("client", "fixture"), STALL_CASES)
def test_stall_mid_stream_is_the_runner_deadline(client: str, fixture: dict[str, Any]) -> None:
    """The body stalls longer than the case timeout: the runner's abort at
    the deadline answers ``stalled`` (the runner is not killed: its answer
    names the deadline), whether or not the library has a timeout of its own."""
    adapter = client_adapter(f"{client}@stall:5", timeout=0.5)
    with pytest.raises(StallTimeout, match=r"still reading after 0\.5s"):
        adapter.run(fixture)


# -- real recordings (../shared/captures, read from there) ----------------------------------

AGREE_ON_CAPTURES = [
    ("ai-sdk-mistral", "mistral/llm-mistral-large-tool-call-single-chunk.sse"),
    ("ai-sdk-mistral", "mistral/openinference-mistral-small-tool-call-2024-08.sse"),
    ("ai-sdk-mistral", "mistral/vercel-mistral-tool-call.jsonl"),
    (
        "ai-sdk-amazon-bedrock",
        "bedrock/openllmetry-bedrock-claude-converse-stream-tooluse.eventstream.bin",
    ),
    (
        "ai-sdk-amazon-bedrock",
        "bedrock/pydai-bedrock-nova-micro-iter-stream-tooluse.eventstream.bin",
    ),
    ("ai-sdk-amazon-bedrock", "bedrock/vercel-bedrock-redacted-reasoning-tooluse.jsonl"),
    (
        "ai-sdk-amazon-bedrock",
        "bedrock/openinference-py-bedrock-claude-3-haiku-converse-stream.eventstream.bin",
    ),
    ("ai-sdk-google", "google/openinference-gemini-3.5-flash-parallel2-ids.sse"),
    ("ai-sdk-openai-responses", "openai-responses/pydai-responses-stream-get_capital.sse"),
    (
        "ai-sdk-openai-responses",
        "openai-responses/pydai-responses-reasoning-message-function_call.sse",
    ),
    (
        "ai-sdk-openai-responses",
        "openai-responses/simonw-llm-gpt55-responses-tool-use-streaming.sse",
    ),
    (
        "ai-sdk-openai-responses",
        "openai-responses/vercel-openai-reasoning-encrypted-content.1.jsonl",
    ),
]


def imported(tmp_path: Path, capture: str) -> list[dict[str, Any]]:
    """The capture's turns as fixtures (``toolstream import`` with the tests' schemas)."""
    if not CAPTURES.is_dir():
        pytest.skip(f"real captures not available ({CAPTURES} is absent)")
    stem = next(
        capture[: -len(e)] for e in (".eventstream.bin", ".sse", ".jsonl") if capture.endswith(e)
    )
    schemas = CAPTURE_SCHEMAS / f"{stem}.json"
    out = tmp_path / "turns"
    args = ["import", str(CAPTURES / capture), "--schemas", str(schemas), "-q", "-o", f"{out}/"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return [json.loads(p.read_bytes()) for p in sorted(out.iterdir())]


@pytest.mark.parametrize(
    ("client", "capture"), AGREE_ON_CAPTURES, ids=[c for _, c in AGREE_ON_CAPTURES]
)
def test_agree_on_real_recordings(tmp_path: Path, client: str, capture: str) -> None:
    """Every turn of the recording that the reference passes: the same calls."""
    turns = [t for t in imported(tmp_path, capture) if toolstream.validate(t).status == "pass"]
    assert turns
    for turn in turns:
        outcome = diff_fixture(turn, client_adapter(client))
        assert outcome.classification == "agree", outcome.detail
        assert outcome.handed


@pytest.mark.parametrize(
    "capture",
    [
        "google/vercel-google-stream-tool-call-arguments-parallel2.jsonl",
        "google/pydai-gemini-3-pro-thought-signature-no-args.sse",
    ],
)
def test_google_recordings_without_ids(tmp_path: Path, capture: str) -> None:
    """Real Gemini API calls carry no id: the SDK hands over the reference's
    calls under ids of its own, which is no difference."""
    (turn,) = imported(tmp_path, capture)
    assert toolstream.validate(turn).status == "pass"
    outcome = diff_fixture(turn, client_adapter("ai-sdk-google"))
    assert outcome.classification == "agree", outcome.detail
    assert {c.id for c in outcome.handed} == {GENERATED_ID}


# -- the runner: cases side by side ---------------------------------------------------------


def test_cases_side_by_side_each_get_their_own_answer() -> None:
    """Threads sending cases at once to the one runner (as a worker's
    threads do) each get their own case's answer, the same as one by one."""
    from concurrent.futures import ThreadPoolExecutor

    fixtures = [mistral(whole(f'{{"city":"City {number}"}}')) for number in range(12)] + [
        bedrock(bedrock_turn(bedrock_tool(0, f"tooluse_{n}"))) for n in range(4)
    ]
    clients = ["ai-sdk-mistral"] * 12 + ["ai-sdk-amazon-bedrock"] * 4
    one_by_one = [
        diff_fixture(f, client_adapter(c)).to_dict() for f, c in zip(fixtures, clients, strict=True)
    ]
    with ThreadPoolExecutor(8) as pool:
        side_by_side = list(
            pool.map(lambda fc: diff_fixture(fc[0], client_adapter(fc[1])).to_dict(),
                     zip(fixtures, clients, strict=True))
        )  # fmt: skip
    assert side_by_side == one_by_one
    assert len({json.dumps(o["calls"]) for o in side_by_side[:12]}) == 12  # all different


def test_a_runner_that_dies_fails_its_waiting_cases_and_is_replaced() -> None:
    """The node process ends while a case waits on it: that case fails
    (``NodeExited``, an adapter_crash), and the next case starts a new runner."""
    import threading
    import time

    from toolstream.clients.node import _RUNNER, NodeCrash

    fixture = mistral(whole('{"city":"Paris"}'))
    waiting = client_adapter("ai-sdk-mistral@stall:5", timeout=4.0)
    failed: list[BaseException] = []

    def case() -> None:
        try:
            waiting.run(fixture)
        except BaseException as error:
            failed.append(error)

    thread = threading.Thread(target=case)
    thread.start()
    deadline = time.monotonic() + 10
    while _RUNNER.process is None and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.5)  # the case is streaming (stalled) by now
    old = _RUNNER.process
    assert old is not None
    old.kill()
    thread.join(10)
    assert not thread.is_alive()
    assert len(failed) == 1 and isinstance(failed[0], NodeCrash)
    assert "exited without an answer" in str(failed[0])
    outcome = diff_fixture(fixture, client_adapter("ai-sdk-mistral"))
    assert outcome.classification == "agree"
    assert _RUNNER.process is not None and _RUNNER.process is not old
