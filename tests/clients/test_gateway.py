"""toolstream gateway-check: a toy gateway (tests/support/toy_gateway.py)
translating Anthropic Messages streams into Chat Completions chunks, once
correctly and once per known bug, classified against the reference; the CLI's
exit statuses; a --gateway-command started and stopped; the LiteLLM recipe
on a small sample when the 'gateways' extra is installed."""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.toy_gateway import ToyServer
from toolstream.cli import cli
from toolstream.diff import case_from_fixture
from toolstream.gateway import (
    Classification,
    CommandGateway,
    Gateway,
    GatewayResult,
    IdHandling,
    UrlGateway,
    check,
)
from toolstream.gateway.downstream import DOWNSTREAMS, Choice, neutral_choice
from toolstream.gateway.judge import BLOCKED, ERROR, PASS, Side
from toolstream.gateway.run import classify_sides

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "corpus" / "seeds" / "anthropic-text-and-tools.json"
OPENAI_SEED = ROOT / "corpus" / "seeds" / "openai-parallel.json"
TOY = ROOT / "tests" / "support" / "toy_gateway.py"
TIMEOUT = 10.0


def seed() -> dict[str, Any]:
    fixture: dict[str, Any] = json.loads(SEED.read_text(encoding="utf-8"))
    fixture.pop("meta", None)
    return fixture


def cut_off() -> dict[str, Any]:
    """The seed cut after its last tool block: no message_delta, no message_stop."""
    fixture = seed()
    fixture["events"] = [
        e for e in fixture["events"] if e["type"] not in ("message_delta", "message_stop")
    ]
    return fixture


def interleaved() -> dict[str, Any]:
    """The seed with block 2 streamed before block 1 (content order is by index)."""
    fixture = seed()
    events = fixture["events"]
    first = [e for e in events if e.get("index") == 1]
    second = [e for e in events if e.get("index") == 2]
    rest = [e for e in events if e.get("index") not in (1, 2)]
    cut = next(i for i, e in enumerate(rest) if e["type"] == "message_delta")
    fixture["events"] = rest[:cut] + second + first + rest[cut:]
    return fixture


class Toy(Gateway):
    """The toy gateway in this process, started and stopped per run."""

    kind = "toy"

    def __init__(self, mode: str) -> None:
        self.mode = mode

    @contextlib.contextmanager
    def running(self, upstream: str) -> Iterator[str]:
        server = ToyServer(upstream, self.mode).start()
        try:
            yield server.url
        finally:
            server.stop()

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "mode": self.mode}


def run(
    fixtures: dict[str, dict[str, Any]], gateway: Gateway, upstream: str = "anthropic"
) -> GatewayResult:
    cases = [case_from_fixture(f, path=name) for name, f in fixtures.items()]
    return check(
        cases,
        upstream_profile=upstream,
        downstream_profile="openai",
        gateway=gateway,
        timeout=TIMEOUT,
    )


def only(result: GatewayResult) -> Any:
    (case,) = result.ran()
    return case


# -- the toy gateway, classified ------------------------------------------------


def test_a_correct_translation_preserves_the_calls_and_their_ids() -> None:
    case = only(run({"seed": seed()}, Toy("correct")))
    assert case.upstream.status == PASS and len(case.upstream.calls) == 2
    assert case.classification is Classification.PRESERVED, case.detail
    assert case.ids is IdHandling.KEPT
    assert [c.name for c in case.downstream.calls] == ["save_note", "sync_now"]


def test_blocks_streamed_out_of_order_are_preserved_by_a_correct_gateway() -> None:
    case = only(run({"interleaved": interleaved()}, Toy("correct")))
    assert case.upstream.status == PASS, case.upstream.detail
    assert case.classification is Classification.PRESERVED, case.detail


def test_numbering_calls_by_arrival_reorders_them_corrupted() -> None:
    case = only(run({"interleaved": interleaved()}, Toy("arrival-order")))
    assert case.classification is Classification.CORRUPTED
    assert [m.field for m in case.mismatches] == ["order"]
    assert "another order" in case.detail
    # the same gateway keeps an in-order stream intact
    assert (
        only(run({"seed": seed()}, Toy("arrival-order"))).classification is Classification.PRESERVED
    )


def test_collapsed_indices_are_refused_by_the_reference_downstream() -> None:
    """Every call at index 0: a lenient client merges the two calls into one;
    the reference sees a second id arrive on slot 0 and blocks the stream, so
    a strict client loses the turn (refused), never executes a merged call."""
    case = only(run({"seed": seed()}, Toy("collapse-index")))
    assert case.classification is Classification.REFUSED
    assert case.downstream.status == BLOCKED
    assert "identity_collision" in case.downstream.codes


def test_a_cut_off_upstream_re_emitted_as_a_clean_finish_is_laundered() -> None:
    upstream_cut = cut_off()
    correct = only(run({"cut": upstream_cut}, Toy("correct")))
    assert correct.upstream.status == BLOCKED and "missing_terminal" in correct.upstream.codes
    assert correct.classification is Classification.BLOCKED_BOTH
    laundered = only(run({"cut": upstream_cut}, Toy("launder")))
    assert laundered.classification is Classification.LAUNDERED
    assert laundered.downstream.status == PASS and len(laundered.downstream.calls) == 2
    assert "a client would execute" in laundered.detail


def test_other_profiles_are_not_run_and_counted() -> None:
    openai = json.loads(OPENAI_SEED.read_text(encoding="utf-8"))
    result = run({"a-seed": seed(), "b-openai": openai}, Toy("correct"))
    counts = result.counts()
    assert counts[Classification.NOT_RUN] == 1 and counts[Classification.PRESERVED] == 1
    assert [c.path for c in result.cases] == ["a-seed", "b-openai"]
    assert result.proves_nothing() is None and result.exit_code() == 0


def test_the_json_is_deterministic() -> None:
    fixtures = {"seed": seed(), "cut": cut_off(), "interleaved": interleaved()}
    first = run(fixtures, Toy("arrival-order")).to_json()
    second = run(fixtures, Toy("arrival-order")).to_json()
    assert first == second
    data = json.loads(first)
    assert data["format"] == "toolstream-gateway-check/1"
    assert [c["path"] for c in data["cases"]] == sorted(fixtures)
    assert "127.0.0.1" not in first


# -- nothing checked is never green -----------------------------------------------


def test_an_unreachable_gateway_is_a_gateway_error_and_proves_nothing() -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = run({"seed": seed()}, UrlGateway(f"http://127.0.0.1:{port}"))
    assert only(result).classification is Classification.GATEWAY_ERROR
    assert result.proves_nothing() is not None and result.exit_code("never") == 1


class _Liar(http.server.BaseHTTPRequestHandler):
    """Answers a clean, passing chat stream without asking any provider."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        chunk = {
            "id": "x",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "delta": {"role": "assistant", "content": "hi"},
                    "finish_reason": "stop",
                }
            ],
        }
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode())


def test_an_answer_made_without_asking_the_upstream_is_a_gateway_error() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Liar)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        result = run({"cut": cut_off()}, UrlGateway(f"http://127.0.0.1:{server.server_address[1]}"))
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
    case = only(result)
    assert case.classification is Classification.GATEWAY_ERROR
    assert "never requested the case" in case.detail
    assert result.exit_code() == 1


def test_the_sides_table() -> None:
    passing = Side(PASS, calls=())
    blocked = Side(BLOCKED, ("missing_terminal",), detail="blocked (missing_terminal)")
    error = Side(ERROR, detail="HTTP 500: boom")
    assert classify_sides(passing, passing)[0] is Classification.PRESERVED
    assert classify_sides(passing, blocked)[0] is Classification.REFUSED
    assert classify_sides(passing, error)[0] is Classification.REFUSED
    assert classify_sides(blocked, passing)[0] is Classification.LAUNDERED
    assert classify_sides(blocked, blocked)[0] is Classification.BLOCKED_BOTH
    assert classify_sides(blocked, error)[0] is Classification.BLOCKED_BOTH
    assert {k.value for k in Classification} == {
        "preserved",
        "corrupted",
        "laundered",
        "refused",
        "blocked_both",
        "gateway_error",
        "not_run",
    }
    assert all(k.__doc__ for k in Classification)


def test_tool_choice_is_translated_per_downstream_format() -> None:
    assert neutral_choice("any") == Choice("required")
    assert neutral_choice({"type": "function", "function": {"name": "f"}}) == Choice("tool", "f")
    assert neutral_choice({"type": "tool", "name": "f"}) == Choice("tool", "f")
    fixture = {**seed(), "request": {"tool_choice": "required"}}
    assert DOWNSTREAMS["anthropic"].build(fixture, "m").body["tool_choice"] == {"type": "any"}
    assert DOWNSTREAMS["openai"].build(fixture, "m").body["tool_choice"] == "required"
    built = DOWNSTREAMS["openai"].build(fixture, "case:x")
    assert built.body["stream"] is True and built.body["model"] == "case:x"
    assert [t["function"]["name"] for t in built.body["tools"]] == ["save_note", "sync_now"]
    assert built.request == {"tool_choice": "required"}


# -- the command line -------------------------------------------------------------


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    (folder / "seed").mkdir(parents=True)
    (folder / "seed" / "anthropic.json").write_text(json.dumps(seed()), encoding="utf-8")
    (folder / "seed" / "cut.json").write_text(json.dumps(cut_off()), encoding="utf-8")
    (folder / "seed" / "openai.json").write_text(
        OPENAI_SEED.read_text(encoding="utf-8"), encoding="utf-8"
    )
    return folder


def toy_command(mode: str, pid_file: Path | None = None) -> str:
    extra = f" --pid-file {pid_file}" if pid_file is not None else ""
    return f"{sys.executable} {TOY} --mode {mode}{extra} {{upstream}}"


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, ["gateway-check", *args], catch_exceptions=False)


PAIR = ("--upstream-profile", "anthropic", "--downstream-profile", "openai")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ((), "name the gateway once"),
        (
            ("--gateway", "http://127.0.0.1:1", "--gateway-command", "x {upstream}"),
            "name the gateway once",
        ),
        (("--gateway", "http://127.0.0.1:1"), "--upstream-port"),
        (("--gateway", "ftp://x", "--upstream-port", "9"), "http:// URL"),
        (("--gateway-command", "true"), "{upstream}"),
    ],
)
def test_misuse_exits_64_with_one_line(corpus: Path, extra: tuple[str, ...], message: str) -> None:
    result = invoke(str(corpus), *PAIR, *extra)
    assert result.exit_code == 64, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_missing_corpus_and_an_unknown_profile_are_misuse(tmp_path: Path) -> None:
    result = invoke(str(tmp_path / "nothing"), *PAIR, "--gateway-command", "x {upstream}")
    assert result.exit_code == 64 and "no such file" in result.output
    result = invoke(str(tmp_path), "--upstream-profile", "nope", "--downstream-profile", "openai")
    assert result.exit_code == 64


def test_the_command_gateway_is_started_and_stopped(corpus: Path, tmp_path: Path) -> None:
    pid_file = tmp_path / "toy.pid"
    out = tmp_path / "result.json"
    result = invoke(
        str(corpus),
        *PAIR,
        "--gateway-command",
        toy_command("correct", pid_file),
        "--json",
        str(out),
        "-q",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["counts"]["preserved"] == 1 and data["counts"]["blocked_both"] == 1
    assert data["counts"]["not_run"] == 1
    assert data["gateway"] == {"kind": "command", "command": toy_command("correct", pid_file)}
    pid = int(pid_file.read_text(encoding="ascii"))
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # stopped and reaped when the run ended


def test_a_laundering_gateway_fails_the_run(corpus: Path) -> None:
    result = invoke(str(corpus), *PAIR, "--gateway-command", toy_command("launder"), "--json", "-")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["counts"]["laundered"] == 1
    (laundered,) = [c for c in data["cases"] if c["classification"] == "laundered"]
    assert laundered["path"].endswith("cut.json")


def test_a_gateway_that_never_prints_its_url_is_bounded(corpus: Path) -> None:
    command = f"{sys.executable} -c 'import time, sys; time.sleep(30)' {{upstream}}"
    result = invoke(str(corpus), *PAIR, "--gateway-command", command, "--startup", "1")
    assert result.exit_code == 1
    assert "printed no URL within 1s" in result.output


def test_a_gateway_that_exits_at_once_is_one_line(corpus: Path) -> None:
    command = f"{sys.executable} -c 'import sys; sys.exit(3)' {{upstream}}"
    result = invoke(str(corpus), *PAIR, "--gateway-command", command)
    assert result.exit_code == 1
    assert "exited (3) before printing its URL" in result.output
    assert "Traceback" not in result.output


def test_no_case_of_the_upstream_profile_proves_nothing(corpus: Path) -> None:
    result = invoke(
        str(corpus),
        "--upstream-profile",
        "bedrock",
        "--downstream-profile",
        "openai",
        "--gateway-command",
        toy_command("correct"),
    )
    assert result.exit_code == 1
    assert "proves nothing" in result.output and "no bedrock case" in result.output


def test_command_gateway_template_needs_upstream() -> None:
    from toolstream.gateway import GatewayStartError

    with pytest.raises(GatewayStartError):
        CommandGateway("my-gateway --port 1")


# -- the LiteLLM proxy recipe, on a small sample -----------------------------------


def _litellm_missing() -> str | None:
    from toolstream.gateway.litellm import missing

    return missing()


@pytest.mark.skipif(
    _litellm_missing() is not None,
    reason="the LiteLLM proxy recipe needs the 'gateways' extra"
    " (pip install 'toolstream[gateways]')",
)
def test_litellm_translates_anthropic_to_chat_on_a_sample() -> None:
    """The real proxy (its start takes most of this test's time), three
    cases of docs/gateways.md's findings: calls whose input streams as
    deltas come through; a tool_use block whose input is only the start's
    ``{}`` comes out with empty arguments (refused); a stream cut off
    before its end is not laundered."""
    from toolstream.gateway.litellm import LiteLLMGateway

    with_delta = seed()
    events = with_delta["events"]
    start = next(
        i for i, e in enumerate(events) if e["type"] == "content_block_start" and e["index"] == 2
    )
    events.insert(
        start + 1,
        {
            "type": "content_block_delta",
            "index": 2,
            "delta": {"type": "input_json_delta", "partial_json": "{}"},
        },
    )
    result = run({"deltas": with_delta, "seed": seed(), "cut": cut_off()}, LiteLLMGateway())
    by_path = {c.path: c for c in result.cases}
    assert by_path["deltas"].classification is Classification.PRESERVED, by_path["deltas"].detail
    assert by_path["deltas"].ids is IdHandling.KEPT
    assert by_path["seed"].classification is Classification.REFUSED, by_path["seed"].detail
    downstream = by_path["seed"].downstream
    assert downstream is not None and "empty_arguments" in downstream.codes
    assert by_path["cut"].classification is Classification.BLOCKED_BOTH, by_path["cut"].detail
    assert result.gateway["kind"] == "litellm"


def test_the_same_http_error_for_every_case_proves_nothing() -> None:
    from toolstream.gateway.run import CaseOutcome

    upstream_pass = Side(PASS)
    error = Side(ERROR, detail="HTTP 400: only served streamed")
    cases = [
        CaseOutcome(f"c{i}", "op", "anthropic", kind, "x", upstream=upstream_pass, downstream=error)
        for i, kind in enumerate([Classification.REFUSED, Classification.BLOCKED_BOTH])
    ]
    result = GatewayResult([], "anthropic", "openai", {"kind": "test"}, cases)
    assert "same error: HTTP 400: only served streamed" in (result.proves_nothing() or "")
    assert result.exit_code("never") == 1
    cases[1] = CaseOutcome(
        "c1", "op", "anthropic", Classification.PRESERVED, "same", upstream_pass, upstream_pass
    )
    assert GatewayResult([], "anthropic", "openai", {}, cases).proves_nothing() is None


def test_the_docs_name_every_classification_and_downstream() -> None:
    doc = (ROOT / "docs" / "gateways.md").read_text(encoding="utf-8")
    for kind in Classification:
        assert f"| `{kind.value}` |" in doc, kind
    for profile in DOWNSTREAMS:
        assert f"`{profile}`" in doc, profile
