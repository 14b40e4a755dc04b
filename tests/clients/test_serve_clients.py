"""Real clients through ``toolstream serve``: openai-python (three ways),
the Anthropic SDK and boto3, each with retries off and a timeout set, each
against a passing case of its wire, under every transport variant.

The matrix below is what these pinned versions do (docs/serve.md explains
it): every client reassembles the calls however the bytes are cut, and
none survives a truncated body equally well.  ``partial`` means calls were
handed over that are not the labelled ones (a truncated argument text, a
half-parsed input) with no error raised."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.corpus_cases import ROOT
from tests.support.serve_clients import CLIENTS, Served, outcome, served
from toolstream.serve import Server, running

CORPUS = ROOT / "corpus" / "cases"


def pick(profile: str) -> Path:
    """The ``refragment`` case of ``profile`` with the most calls, then the
    most non-ASCII argument characters, then the most events (a passing
    case close to its seed)."""
    best: tuple[Any, ...] | None = None
    for path in sorted((CORPUS / "refragment").glob("*.json")):
        case = json.loads(path.read_text("utf-8"))
        if case["profile"] != profile or case["expect"]["status"] != "pass":
            continue
        calls = case["expect"]["calls"]
        wide = sum(sum(ord(ch) > 127 for ch in c["arguments"]) for c in calls)
        stream = case.get("events") or case.get("chunks")
        key = (len(calls), wide, len(stream), path)
        if best is None or key[:3] > best[:3]:
            best = key
    assert best is not None, f"no passing refragment case for {profile}"
    return Path(best[3])


PROFILES_USED = sorted({profile for profile, _ in CLIENTS.values()})


@pytest.fixture(scope="module")
def cases() -> dict[str, Served]:
    return {profile: served(str(pick(profile))) for profile in PROFILES_USED}


@pytest.fixture(scope="module")
def server(cases: dict[str, Served]) -> Iterator[Server]:
    paths = [str(CORPUS / f"{case.id}.json") for case in cases.values()]
    with running(paths) as started:
        yield started


@pytest.fixture(autouse=True)
def no_aws_config(monkeypatch: pytest.MonkeyPatch) -> None:
    """boto3 reads nothing of this machine's AWS setup and asks no metadata service."""
    monkeypatch.setenv("AWS_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    for name in ("AWS_PROFILE", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_BEDROCK_RUNTIME"):
        monkeypatch.delenv(name, raising=False)


OK = "ok"
PARTIAL = "partial"
REFUSED = "error:ValidationException"
"""The server refuses an SSE-only variant on Bedrock's binary wire (400)."""

CLIENT_NAMES = list(CLIENTS)
# spec -> (client timeout in seconds, outcome per client in CLIENT_NAMES order)
MATRIX: dict[str, tuple[float, tuple[str, ...]]] = {
    "default": (5.0, (OK, OK, OK, OK, OK)),
    "every:24": (5.0, (OK, OK, OK, OK, OK)),
    "split-utf8,pause:0.005": (5.0, (OK, OK, OK, OK, OK)),
    "crlf": (5.0, (OK, OK, OK, OK, REFUSED)),
    "crlf,split-utf8,pause:0.005": (5.0, (OK, OK, OK, OK, REFUSED)),
    "cr": (5.0, (OK, OK, OK, OK, REFUSED)),
    "keepalive": (5.0, (OK, OK, OK, OK, REFUSED)),
    "event-lines": (5.0, (OK, OK, OK, OK, REFUSED)),
    # Anthropic's SDK skips events without a name, then finds no message.
    "no-event-lines": (5.0, (OK, OK, OK, "error:AssertionError", REFUSED)),
    "close": (5.0, (OK, OK, OK, OK, OK)),
    # A chunked body cut mid-event: every client raises, but only openai
    # wraps it in its own exception; anthropic and boto3 let the HTTP
    # library's exception through.
    "cut-chunked": (
        5.0,
        (
            "error:APIConnectionError",
            "error:APIConnectionError",
            "error:APIConnectionError",
            "error:RemoteProtocolError",
            "error:ProtocolError",
        ),
    ),
    # A close-delimited body cut mid-event looks complete: only the
    # Responses helper notices (no response.completed); the others hand
    # over the calls as far as they got.
    "cut-close": (5.0, (PARTIAL, PARTIAL, "error:RuntimeError", PARTIAL, PARTIAL)),
    "stall:0.3": (2.0, (OK, OK, OK, OK, OK)),
    "stall:1.5": (
        0.5,
        (
            "error:APITimeoutError",
            "error:APITimeoutError",
            "error:APITimeoutError",
            "error:ReadTimeout",
            "error:ReadTimeoutError",
        ),
    ),
}


@pytest.mark.parametrize("spec", list(MATRIX))
def test_clients_under_each_transport(spec: str, server: Server, cases: dict[str, Served]) -> None:
    timeout, expected = MATRIX[spec]
    base = f"{server.url}/transport/{spec}"
    observed = tuple(
        outcome(client, base, cases[CLIENTS[client][0]], timeout) for client in CLIENT_NAMES
    )
    assert dict(zip(CLIENT_NAMES, observed, strict=True)) == dict(
        zip(CLIENT_NAMES, expected, strict=True)
    )


def test_the_matrix_covers_every_variant() -> None:
    from toolstream.serve import Variant

    used = {token.split(":")[0] for spec in MATRIX for token in spec.split(",")}
    assert used == {v.value for v in Variant}


def test_a_partial_call_is_a_prefix_of_the_labelled_one(
    server: Server, cases: dict[str, Served]
) -> None:
    """What ``cut-close`` hands over: openai's helper returns the first call
    with its arguments cut, as received."""
    from tests.support.serve_clients import openai_chat_stream

    case = cases["openai"]
    got = openai_chat_stream(f"{server.url}/transport/cut-close", case, 5.0)
    assert len(got) < len(case.calls) or got != [
        (c["id"], c["name"], c["arguments"]) for c in case.calls
    ]
    first = case.calls[0]
    assert got[0][:2] == (first["id"], first["name"])
    assert first["arguments"].startswith(got[0][2]) and got[0][2] != first["arguments"]


def test_the_log_shows_what_each_client_sent(server: Server, cases: dict[str, Served]) -> None:
    for client, (profile, _) in CLIENTS.items():
        assert outcome(client, server.url, cases[profile], 5.0) == OK
    full = {profile: server.index.get(case.id).id for profile, case in cases.items()}
    chat = server.requests(full["openai"])[-1]
    assert chat.body["stream"] is True
    assert [t["function"]["name"] for t in chat.body["tools"]] == list(cases["openai"].tool_schemas)
    assert "authorization" not in chat.headers
    messages = server.requests(full["anthropic"])[-1]
    assert messages.path == "/v1/messages" and messages.body["stream"] is True
    assert "x-api-key" not in messages.headers and "anthropic-version" in messages.headers
    converse = server.requests(full["bedrock"])[-1]
    assert converse.path.endswith("/converse-stream")
    assert [t["toolSpec"]["name"] for t in converse.body["toolConfig"]["tools"]] == list(
        cases["bedrock"].tool_schemas
    )
    assert "authorization" not in converse.headers  # SigV4, with the access key id
    everything = json.dumps([e.to_json() for e in server.requests()])
    for secret in ("sk-toolstream-test", "sk-ant-toolstream-test", "AKIDTOOLSTREAMTEST"):
        assert secret not in everything


def test_how_many_reads_openai_python_saw(
    server: Server, cases: dict[str, Served], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counts the socket reads of openai-python's HTTP stack (httpcore2's
    ``SyncStream.read``) for one streamed request: with a pause between
    writes it reads each write on its own."""
    import httpcore2._backends.sync as backend

    from tests.support.serve_clients import openai_create
    from toolstream.serve import ENDPOINTS, parse_transport
    from toolstream.serve.transport import plan

    reads: list[int] = []
    original = backend.SyncStream.read

    def counting(self: Any, max_bytes: int, timeout: float | None = None) -> bytes:
        data = original(self, max_bytes, timeout)
        reads.append(len(data))
        return data

    monkeypatch.setattr(backend.SyncStream, "read", counting)
    case = cases["openai"]
    spec = "every:64,pause:0.01"
    endpoint = ENDPOINTS["openai"]
    writes = plan(
        endpoint.records(server.index.get(case.id).stream), endpoint, parse_transport(spec)
    ).writes
    got = openai_create(f"{server.url}/transport/{spec}", case, 5.0)
    assert got == [(c["id"], c["name"], c["arguments"]) for c in case.calls]
    data_reads = [n for n in reads if n]
    assert len(data_reads) >= 0.9 * len(writes), (len(data_reads), len(writes))
