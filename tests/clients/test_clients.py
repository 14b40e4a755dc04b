"""Real client libraries through ``toolstream serve`` (``toolstream.clients``).

For one case per classification, what each driver reports is asserted
against what the library is observed to do over HTTP (the calls it hands
over, the error it raises), and the classification ``toolstream diff``
gives it.  The cheap set: openai-python, anthropic, langchain-openai and,
when node and the packages of ``toolstream/clients/js`` are installed
(``make adapters-js``), the JavaScript clients; otherwise those skip naming
what is missing.  Every connection goes to 127.0.0.1 (the ``no_network``
guard of tests/conftest.py).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import toolstream
from tests.support.client_fixtures import (
    NO_INDEX,
    NO_ROLE,
    PARALLEL,
    PARALLEL_CALLS,
    RESENT_ID,
    TRUNCATED,
)
from tests.support.diff_fixtures import ANT_PARALLEL, SCHEMAS
from toolstream.adapters.base import NO_INPUT, AdapterCall, AdapterResult
from toolstream.cli import cli
from toolstream.clients import CLIENTS, StallTimeout, client_adapter, served_id
from toolstream.clients.harness import GENERATED_ID, delivered_cases, mask_generated_ids
from toolstream.clients.node import node_missing
from toolstream.clients.transports import delivered
from toolstream.diff import case_from_fixture, diff_fixture

SEEDS = Path(__file__).resolve().parents[2] / "corpus" / "seeds"


def status(fixture: dict[str, Any]) -> str:
    return toolstream.validate(fixture).status


def needs(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install 'toolstream[clients]')")


def needs_node() -> None:
    missing = node_missing()
    if missing:
        pytest.skip(missing)


def values(outcome: Any) -> list[tuple[Any, Any, Any]]:
    return [
        (c.id, c.name, c.input if c.input is not NO_INPUT else json.loads(c.arguments))
        for c in outcome.handed
    ]


def texts(outcome: Any) -> list[tuple[Any, Any, Any]]:
    return [(c.id, c.name, c.arguments) for c in outcome.handed]


# -- the fixtures' reference verdicts --------------------------------------------------


def test_reference_verdicts() -> None:
    assert status(PARALLEL) == "pass"
    assert status(TRUNCATED) == "blocked"
    assert status(RESENT_ID) == "pass"
    assert status(NO_INDEX) == "pass"
    assert status(NO_ROLE) == "pass"


# -- agree -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["openai-chat-create", "openai-chat-stream", "langchain-openai"])
def test_agree_parallel_calls(name: str) -> None:
    needs("langchain_openai" if name.startswith("langchain") else "openai")
    outcome = diff_fixture(PARALLEL, client_adapter(name))
    assert outcome.classification == "agree", outcome.detail
    assert values(outcome) == PARALLEL_CALLS
    assert outcome.finish_reason == "tool_calls"


def test_agree_anthropic_parallel_calls() -> None:
    needs("anthropic")
    outcome = diff_fixture(ANT_PARALLEL, client_adapter("anthropic-messages-stream"))
    assert outcome.classification == "agree", outcome.detail
    assert [c.input for c in outcome.handed] == [{"city": "Paris"}, {"city": "Rome"}]
    assert outcome.finish_reason == "tool_use"


# -- unsafe_accept ---------------------------------------------------------------------


def test_unsafe_accept_truncated_stream() -> None:
    """No finish_reason and no call completed: openai-python hands over the
    argument prefix as it stands; LangChain closes it into a valid object."""
    needs("langchain_openai")
    raw = diff_fixture(TRUNCATED, client_adapter("openai-chat-create"))
    assert raw.classification == "unsafe_accept"
    assert texts(raw) == [("call_1", "weather", '{"city":"Par')]
    assert raw.finish_reason is None
    healed = diff_fixture(TRUNCATED, client_adapter("langchain-openai"))
    assert healed.classification == "unsafe_accept"
    assert [c.input for c in healed.handed] == [{"city": "Par"}]


# -- wrong_calls -----------------------------------------------------------------------


def test_wrong_calls_resent_identity_is_concatenated() -> None:
    """A delta repeating the call's id and name: openai-python concatenates
    both, LangChain (which merges ids by equality) only the name."""
    needs("langchain_openai")
    sdk = diff_fixture(RESENT_ID, client_adapter("openai-chat-create"))
    assert sdk.classification == "wrong_calls"
    assert texts(sdk) == [("call_1call_1", "weatherweather", '{"city":"Paris"}')]
    assert sdk.signature == "wrong_calls:id,name"
    chain = diff_fixture(RESENT_ID, client_adapter("langchain-openai"))
    assert chain.signature == "wrong_calls:name"
    assert [c.name for c in chain.handed] == ["weatherweather"]


# -- adapter_crash ---------------------------------------------------------------------


def test_adapter_crash_call_without_index() -> None:
    needs("openai")
    outcome = diff_fixture(NO_INDEX, client_adapter("openai-chat-create"))
    assert outcome.classification == "adapter_crash"
    assert outcome.error_type == "TypeError" and outcome.in_library
    assert "openai 3.57.0" in outcome.detail


# -- false_reject ----------------------------------------------------------------------


def test_false_reject_cut_body_judged_against_the_whole_case() -> None:
    """``diff_fixture`` judges a cut variant against the fixture it is given:
    openai-python's refusal of a cut chunked body (the transport error
    httpx raises) is then a false_reject.  A corpus run judges it against
    what was delivered instead (below)."""
    needs("openai")
    outcome = diff_fixture(PARALLEL, client_adapter("openai-chat-create@cut-chunked"))
    assert outcome.classification == "false_reject"
    # the SDK wraps httpx's RemoteProtocolError (incomplete chunked read)
    assert outcome.rejected and "APIConnectionError" in outcome.detail


def test_responses_integrity_check_is_a_refusal() -> None:
    """openai-python's Responses helper checks the stream's consistency and
    raises RuntimeError on a second ``output_item.added`` for one output
    index: its refusal, so the turn the reference blocks is not executed."""
    needs("openai")
    fixture = json.loads((SEEDS / "openai-responses-two-calls.json").read_text(encoding="utf-8"))
    events = fixture["events"]
    last = max(i for i, e in enumerate(events) if e.get("type") == "response.output_item.added")
    events.insert(last + 1, json.loads(json.dumps(events[last])))
    assert status(fixture) == "blocked"
    outcome = diff_fixture(fixture, client_adapter("openai-responses-stream"))
    assert outcome.classification == "agree" and outcome.rejected
    assert "RuntimeError" in outcome.detail and "Duplicate response output index" in outcome.detail


# -- not_run ---------------------------------------------------------------------------


def test_not_run_other_profile() -> None:
    outcome = diff_fixture(PARALLEL, client_adapter("anthropic-messages-stream"))
    assert outcome.classification == "not_run"
    assert "takes profiles anthropic" in outcome.detail


# -- cut transports: judged against what was delivered ----------------------------------


def test_delivered_prefix() -> None:
    # 6 chunks + [DONE] = 7 records: the server cuts half-way through record 3
    prefix = delivered(PARALLEL, "cut-close")
    assert prefix["chunks"] == PARALLEL["chunks"][:3]
    assert status(prefix) == "blocked"
    assert delivered(PARALLEL, "split") == PARALLEL
    (case,) = delivered_cases([case_from_fixture(PARALLEL, "p")], "cut-chunked")
    assert case.fixture["chunks"] == PARALLEL["chunks"][:3] and case.path == "p"


def test_cut_close_looks_complete_to_openai_python(tmp_path: Any) -> None:
    """A close-delimited body cut mid-event ends cleanly: openai-python
    hands over the half-received call (unsafe); a cut chunked body raises
    (the refusal agrees with the delivered prefix's verdict)."""
    needs("openai")
    path = tmp_path / "parallel.json"
    path.write_text(json.dumps(PARALLEL), encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        [
            "diff", str(path), "--client", "openai-chat-create",
            "--transport", "plain,cut-chunked,cut-close", "--format", "json", "-q",
        ],
    )  # fmt: skip
    assert result.exit_code == 1, result.output  # --fail-on unsafe
    report = json.loads(result.stdout)
    assert "groups" not in report
    assert set(report["totals"]) == {
        "openai-chat-create",
        "openai-chat-create@cut-chunked",
        "openai-chat-create@cut-close",
    }
    (case,) = report["cases"]
    assert case["reference"]["status"] == "pass"  # the whole case

    def only(transport: str | None, column: str) -> dict[str, Any]:
        row = dict(case["results"][column])
        assert row.get("transport") == transport
        if transport is not None:
            assert row["reference"]["status"] == "blocked"  # the delivered prefix
        return row

    assert only(None, "openai-chat-create")["classification"] == "agree"
    chunked = only("cut-chunked", "openai-chat-create@cut-chunked")
    assert chunked["classification"] == "agree" and chunked["rejected"]
    closed = only("cut-close", "openai-chat-create@cut-close")
    assert closed["classification"] == "unsafe_accept"
    assert [c["arguments"] for c in closed["calls"]] == ['{"city":"Paris"}']


# -- transports a client cannot receive ----------------------------------------------


def test_each_client_declares_the_framing_its_endpoints_send() -> None:
    """A client's ``framing`` is what the server sends for each of its
    profiles (Gemini's with ``alt=sse``, the query every Gemini client sends):
    a wrong one would skip a column that can run, or run one the server
    refuses on every case."""
    from toolstream.serve.endpoints import ENDPOINTS

    for client in CLIENTS.values():
        for profile in client.profiles:
            sent = ENDPOINTS[profile].for_query("alt=sse").framing
            assert client.framing == sent, (client.name, profile)


def test_sse_only_transports_are_skipped_for_event_stream_clients() -> None:
    """``crlf``, ``cr`` and ``keepalive`` are SSE text: the server refuses
    them on binary event-stream frames, so such a pair is skipped with the
    reason (a column of refusals would say nothing about the client)."""
    for transport in ("crlf", "cr", "keepalive"):
        skipped = client_adapter(f"boto3-converse-stream@{transport}")
        reason = skipped.unavailable_reason()
        assert reason is not None and "reads binary event-stream frames" in reason
        assert not skipped.available()
        assert client_adapter(f"openai-chat-create@{transport}").inapplicable is None
    for transport in ("plain", "split", "chop", "close", "cut-chunked", "cut-close"):
        assert client_adapter(f"boto3-converse-stream@{transport}").inapplicable is None


def test_cli_names_a_transport_the_client_cannot_receive() -> None:
    needs("boto3")
    seed = SEEDS / "bedrock-text-and-two-tools.json"
    result = CliRunner().invoke(
        cli,
        [
            "diff", str(seed), "--client", "boto3-converse-stream",
            "--transport", "plain,crlf", "--format", "json", "-q",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    adapters = {a["name"]: a for a in json.loads(result.stdout)["adapters"]}
    assert adapters["boto3-converse-stream"]["skipped"] is None
    assert "is for SSE" in adapters["boto3-converse-stream@crlf"]["skipped"]


# -- the CLI ---------------------------------------------------------------------------


def test_cli_unknown_client_is_misuse() -> None:
    result = CliRunner().invoke(cli, ["diff", "corpus/seeds", "--client", "nope"])
    assert result.exit_code == 64
    assert "unknown client 'nope'" in result.output


def test_cli_lists_clients() -> None:
    result = CliRunner().invoke(cli, ["diff", "--list-clients"])
    assert result.exit_code == 0
    assert [line.split("\t")[0] for line in result.output.splitlines()] == list(CLIENTS)


# -- invented ids ----------------------------------------------------------------------


def test_generated_ids_are_masked_but_merged_ones_kept() -> None:
    fixture = {"profile": "mistral", "chunks": [{"choices": [{"delta": {"tool_calls": [
        {"id": "call_1"}]}}]}]}  # fmt: skip
    result = AdapterResult(
        calls=(
            AdapterCall("0f" * 16, "weather", "{}"),
            AdapterCall("call_1call_1", "weather", "{}"),
            AdapterCall("call_1", "weather", "{}"),
        ),
        rejected=False,
        invalid=(json.dumps({"id": "ab" * 16, "name": None, "args": "x", "error": None}),),
    )
    masked = mask_generated_ids(result, fixture)
    assert [c.id for c in masked.calls] == [GENERATED_ID, "call_1call_1", "call_1"]
    assert json.loads(masked.invalid[0])["id"] == GENERATED_ID


def test_served_id_is_content_addressed() -> None:
    assert served_id(PARALLEL) == served_id(json.loads(json.dumps(PARALLEL)))
    assert served_id(PARALLEL).startswith("openai/")
    assert served_id(PARALLEL) != served_id(TRUNCATED)


# -- a stall -----------------------------------------------------------------------------


def test_stall_mid_stream_is_bounded() -> None:
    """A stream that stalls longer than the case timeout: the SDK's own read
    timeout fires (its refusal), the run takes about the timeout, not the stall."""
    needs("openai")
    import time

    adapter = client_adapter("openai-chat-create@stall:5", timeout=0.5)
    started = time.monotonic()
    try:
        outcome = adapter.run(PARALLEL)
    except StallTimeout:  # pragma: no cover - the SDK's read timeout fires first
        pytest.fail("the case deadline fired, not the SDK's read timeout")
    assert outcome.rejected and "Timeout" in (outcome.reason or "")
    assert time.monotonic() - started < 4.0


# -- JavaScript ------------------------------------------------------------------------

JS_CHAT = ["ai-sdk-openai-chat", "openai-node-chat-stream", "openai-node-chat-create"]


@pytest.mark.parametrize("name", JS_CHAT)
def test_js_agree_parallel_calls(name: str) -> None:
    needs_node()
    outcome = diff_fixture(PARALLEL, client_adapter(name))
    assert outcome.classification == "agree", outcome.detail
    assert values(outcome) == PARALLEL_CALLS


@pytest.mark.parametrize("name", ["ai-sdk-anthropic", "anthropic-node-messages-stream"])
def test_js_anthropic_agree(name: str) -> None:
    needs_node()
    outcome = diff_fixture(ANT_PARALLEL, client_adapter(name))
    assert outcome.classification == "agree", outcome.detail
    assert [c.input for c in outcome.handed] == [{"city": "Paris"}, {"city": "Rome"}]


def test_js_truncated_stream() -> None:
    """The AI SDK flags the unfinished call invalid; openai-node refuses a
    stream without a finish_reason: both agree with the reference."""
    needs_node()
    ai = diff_fixture(TRUNCATED, client_adapter("ai-sdk-openai-chat"))
    assert ai.classification == "agree" and ai.handed == () and len(ai.invalid) == 1
    node = diff_fixture(TRUNCATED, client_adapter("openai-node-chat-stream"))
    assert node.classification == "agree" and node.rejected
    assert "missing finish_reason" in node.detail


def test_js_false_reject_without_role() -> None:
    """openai-node's accumulator refuses a first delta without ``role``."""
    needs_node()
    outcome = diff_fixture(NO_ROLE, client_adapter("openai-node-chat-stream"))
    assert outcome.classification == "false_reject"
    assert "missing role for choice 0" in outcome.detail


def test_js_crash_is_reported_with_its_type() -> None:
    needs_node()
    outcome = diff_fixture(NO_INDEX, client_adapter("ai-sdk-openai-chat"))
    assert outcome.classification == "false_reject"  # the AI SDK's schema check refuses it
    assert "TypeValidationError" in outcome.detail


def test_js_clients_skip_without_node(monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert node_missing() == "node is not on PATH (the JavaScript clients need Node.js 20 or later)"
    assert client_adapter("ai-sdk-openai-chat").unavailable_reason() is not None
    assert SCHEMAS  # the fixtures' tools
