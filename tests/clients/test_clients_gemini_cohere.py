"""The Gemini and Cohere client libraries through ``toolstream serve``.

google-genai (``generate_content_stream``), langchain-google-genai and
cohere-python (``ClientV2.chat_stream``), unmodified, over HTTP: for one
case per classification each library exhibits, what the driver reports is
asserted against what the library was observed to do with the fixture (the
calls it hands over, the error it raises), and the classification
``toolstream diff`` gives it.  The fixtures are written here; the shared
real captures are read when present.  Every connection goes to 127.0.0.1.
"""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import toolstream
from tests.support.builders_gemini_cohere_invoke import (
    co_call,
    co_delta,
    co_end,
    co_message_end,
    co_message_start,
    co_start,
    co_turn,
    cohere,
    gem_call,
    gem_chunk,
    gem_finish,
    gemini,
    streamed_city,
)
from toolstream.cli import cli
from toolstream.clients import CLIENTS, client_adapter
from toolstream.clients.base import StallTimeout
from toolstream.clients.harness import GENERATED_ID
from toolstream.diff import diff_fixture

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "corpus" / "seeds"
CAPTURES = ROOT.parent / "shared" / "captures"
CAPTURE_SCHEMAS = Path(__file__).resolve().parents[1] / "capture_schemas"

GOOGLE = ("google-genai-stream", "langchain-google-genai")
MODULES = {
    "google-genai-stream": "google.genai",
    "langchain-google-genai": "langchain_google_genai",
    "cohere-chat-stream": "cohere",
}

# -- fixtures --------------------------------------------------------------------------

G_PARALLEL = gemini(
    [
        gem_chunk(gem_call(id="fc_1"), gem_call(args={"city": "Rome"}, id="fc_2")),
        gem_finish(),
    ]
)
G_NO_ID = gemini([gem_chunk(gem_call()), gem_finish()])
G_MALFORMED = gemini([gem_chunk(gem_call(id="fc_1")), gem_finish("MALFORMED_FUNCTION_CALL")])
G_STREAMED = gemini([*streamed_city("Paris", (2,)), gem_finish()])
"""Vertex streamed arguments: a name part, ``$.city`` as "Pa" + "ris", an empty end part."""
G_STRING_ARGS = gemini([gem_chunk(gem_call(args='{"city":"Paris"}', id="fc_1")), gem_finish()])
G_ERROR = gemini(
    [
        gem_chunk(gem_call(id="fc_1")),
        {"error": {"code": 500, "message": "boom", "status": "INTERNAL"}},
    ]
)

C_SEED = json.loads((SEEDS / "cohere-plan-and-two-calls.json").read_text(encoding="utf-8"))
C_MAX_TOKENS = cohere(co_turn(co_call(), reason="MAX_TOKENS"))
C_NUMBER_FRAGMENT = cohere(
    co_turn([co_start(0), co_delta(0, '{"city": "Paris"}'), co_delta(0, 5), co_end(0)])
)
C_INTERLEAVED = cohere(
    [
        co_message_start(),
        co_start(0),
        co_start(1, "weather_2"),
        co_delta(0, '{"city": "Paris"}'),
        co_delta(1, '{"city": "Rome"}'),
        co_end(0),
        co_end(1),
        co_message_end(),
    ]
)
C_DELTA_FIRST = cohere(
    [co_message_start(), co_delta(0, '{"city": "Paris"}'), co_end(0), co_message_end()]
)


def status(fixture: dict[str, Any]) -> str:
    return toolstream.validate(fixture).status


def needs(name: str) -> None:
    if importlib.util.find_spec(MODULES[name].split(".")[0]) is None or (
        CLIENTS[name].available() is not None
    ):
        pytest.skip(f"{name}: {CLIENTS[name].available()}")


def handed(outcome: Any) -> list[tuple[Any, Any, Any]]:
    return [(c.id, c.name, c.input) for c in outcome.handed]


def test_reference_verdicts() -> None:
    assert status(G_PARALLEL) == "pass"
    assert status(G_NO_ID) == "pass"
    assert status(G_MALFORMED) == "blocked"
    assert status(G_STREAMED) == "pass"
    assert status(G_STRING_ARGS) == "blocked"
    assert status(G_ERROR) == "blocked"
    assert status(C_SEED) == "pass"
    assert status(C_MAX_TOKENS) == "blocked"
    assert status(C_NUMBER_FRAGMENT) == "blocked"
    assert status(C_INTERLEAVED) == "pass"
    assert status(C_DELTA_FIRST) == "blocked"


def test_registered() -> None:
    for name, profile in [*((n, "gemini") for n in GOOGLE), ("cohere-chat-stream", "cohere")]:
        assert CLIENTS[name].profiles == (profile,)


# -- agree -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GOOGLE)
def test_agree_gemini_whole_parallel_calls(name: str) -> None:
    needs(name)
    outcome = diff_fixture(G_PARALLEL, client_adapter(name))
    assert outcome.classification == "agree", outcome.detail
    assert handed(outcome) == [
        ("fc_1", "weather", {"city": "Paris"}),
        ("fc_2", "weather", {"city": "Rome"}),
    ]
    assert outcome.finish_reason == "STOP"


def test_agree_cohere_seed() -> None:
    needs("cohere-chat-stream")
    outcome = diff_fixture(C_SEED, client_adapter("cohere-chat-stream"))
    assert outcome.classification == "agree", outcome.detail
    assert handed(outcome) == [
        ("weather_1", "weather", {"city": "São Paulo"}),
        ("clock_1", "clock", {}),
    ]
    assert outcome.finish_reason == "TOOL_CALL"


@pytest.mark.parametrize("name", GOOGLE)
def test_error_chunk_is_a_refusal(name: str) -> None:
    """An ``{"error": ...}`` object in the stream: google-genai raises its
    ``ServerError`` (langchain-google-genai re-raises it as ``GoogleAPIError``)."""
    needs(name)
    outcome = diff_fixture(G_ERROR, client_adapter(name))
    assert outcome.classification == "agree" and outcome.rejected
    assert ("ServerError" if name == "google-genai-stream" else "GoogleAPIError") in outcome.detail


# -- unsafe_accept ---------------------------------------------------------------------


@pytest.mark.parametrize("name", GOOGLE)
def test_unsafe_accept_malformed_function_call(name: str) -> None:
    """``finishReason: MALFORMED_FUNCTION_CALL``: neither library looks at it;
    the call is handed over."""
    needs(name)
    outcome = diff_fixture(G_MALFORMED, client_adapter(name))
    assert outcome.classification == "unsafe_accept"
    assert handed(outcome) == [("fc_1", "weather", {"city": "Paris"})]
    assert outcome.finish_reason == "MALFORMED_FUNCTION_CALL"


def test_unsafe_accept_cohere_max_tokens() -> None:
    """The documented loop does not read ``message-end``'s finish reason."""
    needs("cohere-chat-stream")
    outcome = diff_fixture(C_MAX_TOKENS, client_adapter("cohere-chat-stream"))
    assert outcome.classification == "unsafe_accept"
    assert handed(outcome) == [("weather_1", "weather", {"city": "Paris"})]
    assert outcome.finish_reason == "MAX_TOKENS"


def test_unsafe_accept_cohere_skips_an_event_it_cannot_parse() -> None:
    """A ``tool-call-delta`` whose fragment is a number: cohere-python logs
    "Skipping SSE event" and drops it, so the application never learns the
    call was corrupted and executes what is left."""
    needs("cohere-chat-stream")
    outcome = diff_fixture(C_NUMBER_FRAGMENT, client_adapter("cohere-chat-stream"))
    assert outcome.classification == "unsafe_accept"
    assert handed(outcome) == [("weather_1", "weather", {"city": "Paris"})]
    assert [c.arguments for c in outcome.handed] == ['{"city": "Paris"}']


# -- wrong_calls -----------------------------------------------------------------------


def test_wrong_calls_streamed_arguments_are_handed_over_as_fragments() -> None:
    """google-genai does not reassemble ``partialArgs``: every
    ``functionCall`` part is in ``function_calls``, the name part without
    ``args``, then each fragment and the end part as calls of their own."""
    needs("google-genai-stream")
    outcome = diff_fixture(G_STREAMED, client_adapter("google-genai-stream"))
    assert outcome.classification == "wrong_calls"
    assert handed(outcome) == [(None, "weather", None)] + [(None, None, None)] * 3
    assert outcome.handover == "extra_call+lost_call"
    assert outcome.detail.startswith(
        "(extra_call+lost_call) 4 call(s) handed over, reference has 1"
    )


def test_wrong_calls_langchain_google_genai_empties_streamed_arguments() -> None:
    """langchain-google-genai turns each part into a tool call with ``args``
    ``{}`` (a part without ``args``), and the nameless parts into calls
    named ``""`` with ids it makes up."""
    needs("langchain-google-genai")
    outcome = diff_fixture(G_STREAMED, client_adapter("langchain-google-genai"))
    assert outcome.classification == "wrong_calls"
    assert handed(outcome) == [(GENERATED_ID, "weather", {})] + [(GENERATED_ID, "", {})] * 3


def test_agree_langchain_google_genai_makes_up_an_id() -> None:
    """A call without ``id`` (identity by position): google-genai hands it
    over as is, langchain-google-genai with a ``uuid4`` of its own, which is
    no difference where the wire names no id."""
    needs("langchain-google-genai")
    needs("google-genai-stream")
    chain = diff_fixture(G_NO_ID, client_adapter("langchain-google-genai"))
    assert chain.classification == "agree"
    assert handed(chain) == [(GENERATED_ID, "weather", {"city": "Paris"})]
    sdk = diff_fixture(G_NO_ID, client_adapter("google-genai-stream"))
    assert sdk.classification == "agree" and handed(sdk) == [(None, "weather", {"city": "Paris"})]


# -- false_reject ----------------------------------------------------------------------


def test_false_reject_cohere_interleaved_calls() -> None:
    """Two calls started before either's fragments (valid: events are keyed
    by ``index``): the documented loop appends every fragment to the last
    started call, so the first call's arguments stay ``""`` and its
    ``json.loads`` fails."""
    needs("cohere-chat-stream")
    outcome = diff_fixture(C_INTERLEAVED, client_adapter("cohere-chat-stream"))
    assert outcome.classification == "false_reject"
    assert outcome.rejected and "JSONDecodeError after 8 event(s)" in outcome.detail


@pytest.mark.parametrize("name", GOOGLE)
def test_false_reject_google_genai_reads_an_sse_comment_as_json(name: str) -> None:
    """A comment line before every event (``keepalive``; the SSE rules
    ignore comments): google-genai's stream reader takes a line that is not
    ``data:`` for raw JSON and raises its ``UnknownApiResponseError``."""
    needs(name)
    outcome = diff_fixture(G_PARALLEL, client_adapter(f"{name}@keepalive"))
    assert outcome.classification == "false_reject"
    assert "UnknownApiResponseError" in outcome.detail


def test_cohere_reads_sse_comments() -> None:
    needs("cohere-chat-stream")
    outcome = diff_fixture(C_SEED, client_adapter("cohere-chat-stream@keepalive"))
    assert outcome.classification == "agree", outcome.detail


@pytest.mark.parametrize("name", GOOGLE)
def test_false_reject_cut_chunked_body_judged_against_the_whole_case(name: str) -> None:
    """``diff_fixture`` judges a cut variant against the fixture it is given:
    the httpx2 error for the incomplete chunked body is a refusal of a valid
    turn there (a corpus run judges it against the delivered prefix)."""
    needs(name)
    outcome = diff_fixture(G_PARALLEL, client_adapter(f"{name}@cut-chunked"))
    assert outcome.classification == "false_reject"
    assert "RemoteProtocolError" in outcome.detail


# -- adapter_crash ---------------------------------------------------------------------


@pytest.mark.parametrize("name", GOOGLE)
def test_adapter_crash_string_args(name: str) -> None:
    """``args`` as JSON text instead of an object: the SDK's pydantic model
    raises while parsing the chunk, no documented error."""
    needs(name)
    outcome = diff_fixture(G_STRING_ARGS, client_adapter(name))
    assert outcome.classification == "adapter_crash"
    assert outcome.error_type == "ValidationError" and outcome.in_library
    assert "functionCall.args" in outcome.detail


def test_adapter_crash_cohere_delta_before_start() -> None:
    """A fragment before any ``tool-call-start``: cohere-python hands the
    event over, the documented loop's ``tool_calls[-1]`` raises."""
    needs("cohere-chat-stream")
    outcome = diff_fixture(C_DELTA_FIRST, client_adapter("cohere-chat-stream"))
    assert outcome.classification == "adapter_crash"
    assert outcome.error_type == "IndexError" and not outcome.in_library


# -- transports ------------------------------------------------------------------------


def test_cut_close_half_event_is_a_google_genai_refusal() -> None:
    """A body cut half-way through an event by a clean close: google-genai
    raises its ``UnknownApiResponseError`` for the half chunk."""
    needs("google-genai-stream")
    outcome = client_adapter("google-genai-stream@cut-close").run(G_PARALLEL)
    assert outcome.rejected and "UnknownApiResponseError" in (outcome.reason or "")


def test_cut_close_cohere_hands_over_the_received_call(tmp_path: Path) -> None:
    """The same cut for cohere-python: the half event is dropped, the call
    before it is executed although no ``message-end`` arrived (judged
    against the delivered prefix, an ``unsafe_accept``)."""
    needs("cohere-chat-stream")
    fixture = cohere(co_turn(co_call(), co_call(1, "weather_2", ('{"city": "Rome"}',))))
    path = tmp_path / "two.json"
    path.write_text(json.dumps(fixture), encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        [
            "diff", str(path), "--client", "cohere-chat-stream",
            "--transport", "plain,cut-close", "--format", "json", "-q", "--fail-on", "never",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    got = {
        adapter: row["classification"]
        for case in report["cases"]
        for adapter, row in case["results"].items()
    }
    assert got == {"cohere-chat-stream": "agree", "cohere-chat-stream@cut-close": "unsafe_accept"}


@pytest.mark.parametrize("name", [*GOOGLE, "cohere-chat-stream"])
def test_stall_mid_stream_is_bounded(name: str) -> None:
    needs(name)
    fixture = G_PARALLEL if name in GOOGLE else C_SEED
    started = time.monotonic()
    try:
        outcome = client_adapter(f"{name}@stall:5", timeout=0.5).run(fixture)
    except StallTimeout:
        # the per-case deadline (0.5 s from the start, checked between the
        # chunks the library yields) passed before the library's own read
        # timeout fired: on a loaded machine building the client takes that
        # long.  Bounded as well; the time below tells it from a late bound.
        pass
    else:
        assert outcome.rejected and "Timeout" in (outcome.reason or "")
    assert time.monotonic() - started < 4.0


# -- the langchain-core adapter --------------------------------------------------------


def test_langchain_core_adapter_runs_langchain_google_genai() -> None:
    needs("langchain-google-genai")
    from toolstream.adapters import get_adapter

    outcome = diff_fixture(G_PARALLEL, get_adapter("langchain-core"))
    assert outcome.classification == "agree", outcome.detail


# -- the shared real captures ----------------------------------------------------------


def _capture(tmp_path: Path, capture: str) -> dict[str, Any]:
    source = CAPTURES / capture
    if not source.is_file():
        pytest.skip(f"real captures not available ({source} is absent)")
    schemas = CAPTURE_SCHEMAS / capture.rsplit(".", 1)[0]
    out = tmp_path / "fixture.json"
    result = CliRunner().invoke(
        cli, ["import", str(source), "--schemas", f"{schemas}.json", "-o", str(out), "-q"]
    )
    assert result.exit_code == 0, result.output
    fixture: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert status(fixture) == "pass"
    return fixture


@pytest.mark.parametrize("name", GOOGLE)
def test_capture_vertex_partial_args_fragments(tmp_path: Path, name: str) -> None:
    """Vertex's real streamed arguments (two getWeather calls, four parts
    each): both Google libraries hand over eight calls, none with the
    reassembled ``{"location": "Boston"}``."""
    needs(name)
    fixture = _capture(tmp_path, "google/vercel-google-stream-tool-call-arguments-parallel2.jsonl")
    outcome = diff_fixture(fixture, client_adapter(name))
    assert outcome.classification == "wrong_calls"
    assert outcome.handover == "extra_call+lost_call"
    assert outcome.detail.startswith(
        "(extra_call+lost_call) 8 call(s) handed over, reference has 2"
    )
    assert {"location": "Boston"} not in [c.input for c in outcome.handed]


def test_capture_gemini_whole_calls_with_ids(tmp_path: Path) -> None:
    needs("google-genai-stream")
    fixture = _capture(tmp_path, "google/openinference-gemini-3.5-flash-parallel2-ids.sse")
    outcome = diff_fixture(fixture, client_adapter("google-genai-stream"))
    assert outcome.classification == "agree", outcome.detail
    assert [c.id for c in outcome.handed] == ["dv8szvqe", "j80tal12"]


def test_capture_cohere_two_calls(tmp_path: Path) -> None:
    needs("cohere-chat-stream")
    fixture = _capture(tmp_path, "cohere/vercel-cohere-tool-call-parallel2.jsonl")
    outcome = diff_fixture(fixture, client_adapter("cohere-chat-stream"))
    assert outcome.classification == "agree", outcome.detail
    assert [c.name for c in outcome.handed] == ["weather", "cityAttractions"]
