"""``toolstream serve``: endpoints, framing, case selection, errors, transport
variants, the request log and bounded resources, driven over real sockets
on 127.0.0.1 with the standard library's HTTP client.  (Real provider SDKs
are in ``clients/test_serve_clients.py``.)"""

from __future__ import annotations

import gc
import http.client
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.support.corpus_cases import ROOT
from tests.support.serve_http import request
from toolstream.capture import read_capture
from toolstream.capture.eventstream import decode_frames
from toolstream.importer.core import stream_item
from toolstream.profiles import PROFILES
from toolstream.serve import ENDPOINTS, ServeLimits, Server, parse_transport, running
from toolstream.serve.cases import Pairs, RawNumber, collect, encode
from toolstream.serve.transport import TransportError, plan

CORPUS = ROOT / "corpus" / "cases"
PATHS = {
    "openai": "/v1/chat/completions",
    "mistral": "/v1/chat/completions",
    "anthropic": "/v1/messages",
    "openai-responses": "/v1/responses",
}


def sample_cases(step: int = 40) -> list[Path]:
    """Every ``step``-th shipped case, plus every case of a few operators
    whose bytes are the hardest to carry (surrogates, non-finite numbers)."""
    every = sorted(CORPUS.glob("*/*.json"))
    chosen = set(every[::step])
    for operator in ("lone_surrogate", "inject_non_finite", "reencode"):
        chosen.update(sorted((CORPUS / operator).glob("*.json"))[:6])
    return sorted(chosen)


@pytest.fixture(scope="module")
def sample() -> list[Path]:
    return sample_cases()


@pytest.fixture(scope="module")
def server(sample: list[Path]) -> Iterator[Server]:
    with running([str(p) for p in sample]) as started:
        yield started




MODEL_IN_PATH = {
    "bedrock": "/model/{model}/converse-stream",
    "bedrock-invoke": "/model/{model}/invoke-with-response-stream",
    "gemini": "/v1beta/models/{model}:streamGenerateContent?alt=sse",
}
"""Endpoints whose model (so the case) is part of the path."""
MODEL_IN_BODY = {**PATHS, "gemini-interactions": "/v1beta/interactions", "cohere": "/v2/chat"}


def path_and_body(profile: str, name: str) -> tuple[str, dict[str, Any]]:
    if profile in MODEL_IN_PATH:
        model = quote("case:" + name, safe="")
        return MODEL_IN_PATH[profile].format(model=model), {"messages": []}
    return MODEL_IN_BODY[profile], {"model": f"case:{name}", "stream": True}


def short_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def case_json(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return loaded


# -- the endpoint table ---------------------------------------------------------------


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_profile_has_an_endpoint(profile: str) -> None:
    assert profile in ENDPOINTS, f"no serve endpoint for profile {profile!r}"
    endpoint = ENDPOINTS[profile]
    assert endpoint.title and endpoint.path and endpoint.route.pattern


def test_no_endpoint_without_a_profile() -> None:
    assert set(ENDPOINTS) <= set(PROFILES)


# -- faithful framing ---------------------------------------------------------------


def test_every_sampled_case_comes_back_item_for_item(server: Server, sample: list[Path]) -> None:
    """Decoded with toolstream's own capture readers (which check SSE syntax
    and event-stream CRCs), the body carries exactly the case's stream."""
    profiles = set()
    for path in sample:
        case = case_json(path)
        profile = case["profile"]
        profiles.add(profile)
        url, body = path_and_body(profile, short_id(path))
        fast = {"X-Toolstream-Transport": "pause:0"}
        status, response, data = request(server, "POST", url, body, fast)
        assert status == 200, (path, data[:300])
        endpoint = ENDPOINTS[profile]
        # Gemini answers ?alt=sse with SSE, the plain path with a JSON array
        sse = profile == "gemini"
        assert response.getheader("Content-Type") == (
            "text/event-stream" if sse else endpoint.content_type
        )
        assert response.getheader("Transfer-Encoding") == "chunked"
        assert response.getheader("X-Toolstream-Case", "").endswith(short_id(path))
        capture = read_capture(data)
        records = [r for r in capture.records if r.kind != "done"]
        items = [stream_item(r, capture.format, profile) for r in records]
        key = PROFILES[profile].stream_key
        assert items == case[key], path
        if profile in ("openai", "mistral"):
            assert capture.records[-1].kind == "done"
            assert all(r.event is None for r in records)
        elif profile in ("bedrock", "bedrock-invoke"):
            assert capture.format == "aws-eventstream"
        elif profile in ("anthropic", "openai-responses"):
            assert [r.event for r in records] == [item.get("type") for item in case[key]]
    assert set(ENDPOINTS) <= profiles


def test_items_are_written_as_they_were_read() -> None:
    """Numbers keep their text, duplicate keys stay, non-ASCII is UTF-8, an
    unpaired surrogate is escaped (UTF-8 cannot carry it)."""
    text = '{"a": 1e999, "a": 2, "b": "\\u00e9\\ud83d", "c": [1.50, true, null]}'
    value = json.loads(text, object_pairs_hook=Pairs, parse_int=RawNumber, parse_float=RawNumber)
    assert encode(value) == '{"a":1e999,"a":2,"b":"\\u00e9\\ud83d","c":[1.50,true,null]}'
    assert encode(Pairs([("k", "é日")])) == '{"k":"é日"}'


def test_bedrock_frames_are_what_boto3_reads(server: Server, sample: list[Path]) -> None:
    path = next(p for p in sample if case_json(p)["profile"] == "bedrock")
    url, body = path_and_body("bedrock", short_id(path))
    status, response, data = request(server, "POST", url, body)
    assert status == 200
    assert response.getheader("x-amzn-RequestId")
    frames = decode_frames(data)  # checks both CRCs of every frame
    events = case_json(path)["events"]
    assert len(frames) == len(events)
    for (headers, payload), event in zip(frames, events, strict=True):
        ((kind, inner),) = event.items()
        assert headers[":event-type"] == kind
        assert headers[":message-type"] == "event"
        assert headers[":content-type"] == "application/json"
        assert json.loads(payload) == inner


def test_a_bedrock_exception_event_is_an_exception_frame() -> None:
    fixture = {
        "profile": "bedrock",
        "tool_schemas": {},
        "events": [
            {"messageStart": {"role": "assistant"}},
            {"throttlingException": {"message": "slow"}},
        ],
    }
    with running(fixture) as srv:
        status, _, data = request(srv, "POST", "/model/any/converse-stream", {})
    assert status == 200
    headers, payload = decode_frames(data)[1]
    assert headers[":message-type"] == "exception"
    assert headers[":exception-type"] == "throttlingException"
    assert json.loads(payload) == {"message": "slow"}


# -- case selection -----------------------------------------------------------------


def test_case_selected_by_model_path_prefix_or_header(server: Server, sample: list[Path]) -> None:
    path = next(p for p in sample if case_json(p)["profile"] == "openai")
    other = next(p for p in sample if case_json(p)["profile"] == "openai" and p != path)
    full = server.index.get(short_id(path)).id
    expected = request(server, "POST", *path_and_body("openai", short_id(path)))[2]
    forms = [
        ("/v1/chat/completions", {"model": f"case:{full}", "stream": True}, {}),
        ("/v1/chat/completions", {"model": short_id(path), "stream": True}, {}),
        ("/v1/chat/completions", {"model": f"case:{path.stem}", "stream": True}, {}),
        (f"/cases/{short_id(path)}/v1/chat/completions", {"model": "gpt-4o", "stream": True}, {}),
        (f"/cases/{quote(short_id(path), safe='')}/v1/chat/completions", {"stream": True}, {}),
        (
            "/v1/chat/completions",
            {"model": f"case:{short_id(other)}", "stream": True},
            {"X-Toolstream-Case": short_id(path)},
        ),
        (
            f"/cases/{short_id(path)}/v1/chat/completions",
            {"model": "x", "stream": True},
            {"X-Toolstream-Case": short_id(other)},
        ),
    ]
    for url, body, headers in forms:
        status, response, data = request(server, "POST", url, body, headers)
        assert status == 200, (url, body, data[:200])
        assert data == expected, url
        assert response.getheader("X-Toolstream-Case") == full


def test_one_served_case_answers_any_model() -> None:
    fixture = case_json(sorted(CORPUS.glob("refragment/*.json"))[0])
    profile = fixture["profile"]
    with running(fixture) as srv:
        url, body = path_and_body(profile, "whatever-model")
        status, _, _ = request(srv, "POST", url, body)
    assert status == 200


def test_get_cases_lists_every_case(server: Server, sample: list[Path]) -> None:
    status, response, data = request(server, "GET", "/cases")
    assert status == 200 and response.getheader("Content-Type") == "application/json"
    listing = json.loads(data)
    assert len(listing["cases"]) == len(sample)
    first = listing["cases"][0]
    case = case_json(sample[0])
    assert first["profile"] == case["profile"]
    assert first["model"] == f"case:{first['id']}"
    assert first["expect"]["status"] == case["expect"]["status"]
    assert listing["endpoints"]["bedrock"] == "POST /model/{modelId}/converse-stream"


# -- errors, each in its provider's shape --------------------------------------------------


def _case_of(sample: list[Path], profile: str) -> str:
    return short_id(next(p for p in sample if case_json(p)["profile"] == profile))


def test_unknown_case_is_404_in_each_providers_shape(server: Server) -> None:
    status, _, data = request(
        server, "POST", "/v1/chat/completions", {"model": "gpt-4o", "stream": True}
    )
    assert status == 404
    error = json.loads(data)["error"]
    assert error["code"] == "unknown_case" and "'gpt-4o' names no served case" in error["message"]
    status, response, data = request(
        server, "POST", "/v1/messages", {"model": "claude", "stream": True}
    )
    body = json.loads(data)
    assert status == 404 and body["type"] == "error"
    assert body["error"]["type"] == "not_found_error"
    assert response.getheader("request-id")
    status, response, data = request(server, "POST", "/model/nope/converse-stream", {})
    assert status == 404
    assert str(response.getheader("x-amzn-ErrorType")).startswith("ResourceNotFoundException:")
    assert "names no served case" in json.loads(data)["message"]
    status, _, data = request(server, "POST", "/cases/no/such/case/v1/messages", {"stream": True})
    assert status == 404 and json.loads(data)["error"]["type"] == "not_found_error"


def test_a_case_on_another_providers_endpoint_is_400(server: Server, sample: list[Path]) -> None:
    anthropic_case = _case_of(sample, "anthropic")
    status, _, data = request(
        server, "POST", "/v1/chat/completions", {"model": f"case:{anthropic_case}", "stream": True}
    )
    assert status == 400
    error = json.loads(data)["error"]
    assert error["code"] == "wrong_endpoint"
    assert "anthropic case, served by Anthropic Messages at POST /v1/messages" in error["message"]
    openai_case = _case_of(sample, "openai")
    status, response, data = request(
        server, "POST", f"/model/{quote('case:' + openai_case, safe='')}/converse-stream", {}
    )
    assert status == 400
    assert str(response.getheader("x-amzn-ErrorType")).startswith("ValidationException:")
    mistral_case = _case_of(sample, "mistral")
    status, _, data = request(
        server, "POST", "/v1/responses", {"model": f"case:{mistral_case}", "stream": True}
    )
    assert status == 400 and "served by Mistral Chat Completions" in data.decode()


def test_a_request_without_stream_true_is_400(server: Server, sample: list[Path]) -> None:
    for profile, shape in (
        ("openai", "error"),
        ("anthropic", "type"),
        ("openai-responses", "error"),
    ):
        name = _case_of(sample, profile)
        for body in ({"model": f"case:{name}"}, {"model": f"case:{name}", "stream": "true"}):
            status, _, data = request(server, "POST", PATHS[profile], body)
            assert status == 400, (profile, body)
            assert shape in json.loads(data)
            assert '"stream": true' in json.dumps(json.loads(data), ensure_ascii=False).replace(
                '\\"', '"'
            )
    mistral = _case_of(sample, "mistral")
    status, _, data = request(server, "POST", PATHS["mistral"], {"model": f"case:{mistral}"})
    assert status == 400 and json.loads(data)["object"] == "error"  # Mistral's flat shape
    bedrock = _case_of(sample, "bedrock")
    status, _, data = request(
        server, "POST", f"/model/{quote('case:' + bedrock, safe='')}/converse", {}
    )
    assert status == 400 and "converse_stream" in json.loads(data)["message"]


def test_bad_requests_get_clear_errors_and_the_server_keeps_serving(
    server: Server, sample: list[Path]
) -> None:
    name = _case_of(sample, "openai")
    cases = [
        ("POST", "/v1/nothing", {"stream": True}, None, 404, "no_route"),
        ("GET", "/v1/chat/completions", None, None, 405, "wrong_method"),
        ("POST", "/v1/chat/completions", None, b"{not json", 400, "bad_body"),
        ("POST", "/v1/chat/completions", None, b"[1, 2]", 400, "bad_body"),
        ("POST", "/v1/chat/completions", None, b"\xff\xfe", 400, "bad_body"),
        (
            "POST",
            "/transport/bogus/v1/chat/completions",
            {"model": f"case:{name}", "stream": True},
            None,
            400,
            "bad_transport",
        ),
    ]
    for method, url, body, raw, expected_status, code in cases:
        status, _, data = request(server, method, url, body, raw=raw)
        assert status == expected_status, (url, data[:200])
        assert json.loads(data)["error"]["code"] == code
    status, _, _ = request(server, "POST", *path_and_body("openai", name))
    assert status == 200


def test_an_sse_only_transport_on_bedrock_is_refused(server: Server, sample: list[Path]) -> None:
    url, body = path_and_body("bedrock", _case_of(sample, "bedrock"))
    for spec in ("crlf", "keepalive", "no-event-lines"):
        status, _, data = request(server, "POST", url, body, {"X-Toolstream-Transport": spec})
        assert status == 400
        assert "binary event-stream" in json.loads(data)["message"]


def test_a_huge_body_is_413_unread_and_the_connection_closed(server: Server) -> None:
    limit = server.limits.max_body_bytes
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(
            b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n{" % (limit + 1)
        )
        answer = _read_all(sock)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413")
    assert b"Connection: close" in head
    assert json.loads(body)["error"]["type"] == "request_too_large"


def _read_all(sock: socket.socket) -> bytes:
    out = b""
    while chunk := sock.recv(65536):
        out += chunk
    return out


# -- the request log -----------------------------------------------------------------


def test_the_request_log_keeps_what_the_client_sent_minus_credentials() -> None:
    path = sorted(CORPUS.glob("refragment/*.json"))[0]
    case = case_json(path)
    url, body = path_and_body(case["profile"], short_id(path))
    body.update({"tools": [{"name": "t"}], "tool_choice": {"type": "auto"}})
    secret = "sk-very-secret-value"
    headers = {
        "Authorization": f"Bearer {secret}",
        "x-api-key": secret,
        "X-Amz-Security-Token": secret,
        "Cookie": f"s={secret}",
        "User-Agent": "toolstream-test",
    }
    with running([str(path)]) as srv:
        request(srv, "POST", url, body, headers)
        request(srv, "POST", "/v1/nothing", {"model": "nothing"})
        entries = srv.requests(srv.index.cases[0].id)
        everything = srv.requests()
        status, _, listing = request(srv, "GET", f"/cases/{short_id(path)}/requests")
    assert len(entries) == 1 and len(everything) == 2
    entry = entries[0]
    assert entry.method == "POST" and entry.status == 200 and entry.transport == "default"
    assert entry.body == body
    assert entry.headers["user-agent"] == "toolstream-test"
    assert secret not in json.dumps([e.to_json() for e in everything])
    assert not {"authorization", "x-api-key", "x-amz-security-token", "cookie"} & set(entry.headers)
    assert status == 200
    assert json.loads(listing)["requests"][0]["body"] == body


# -- transport variants ---------------------------------------------------------------


def _records(profile: str) -> tuple[Any, list[Any]]:
    path = sorted(CORPUS.glob("refragment/*.json"))
    case = next(c for c in collect([str(p) for p in path]) if c.profile == profile)
    endpoint = ENDPOINTS[profile]
    return endpoint, endpoint.records(case.stream)


def test_default_is_one_write_per_event() -> None:
    endpoint, records = _records("anthropic")
    writes = plan(records, endpoint, parse_transport("default")).writes
    assert len(writes) == len(records)
    assert all(w.startswith(b"event: ") and w.endswith(b"\n\n") for w in writes)


def test_every_n_bytes_and_utf8_splits_cut_where_they_say() -> None:
    endpoint, records = _records("openai")
    whole = b"".join(plan(records, endpoint, parse_transport("default")).writes)
    every = plan(records, endpoint, parse_transport("every:7")).writes
    assert b"".join(every) == whole
    assert {len(w) for w in every[:-1]} == {7}
    split = plan(records, endpoint, parse_transport("split-utf8")).writes
    assert b"".join(split) == whole
    multibyte = sum(1 for byte in whole if byte >= 0xC2)
    assert multibyte > 0
    for write in split[1:]:
        if 0x80 <= write[0] < 0xC0:
            break
    else:
        pytest.fail("no write starts inside a multi-byte character")
    # every multi-byte character straddles two writes
    assert sum(1 for w in split if 0xC2 <= w[-1] <= 0xF4) == multibyte
    crlf = plan(records, endpoint, parse_transport("crlf,split-utf8")).writes
    assert all(not w.startswith(b"\n") or i == 0 for i, w in enumerate(crlf[:1]))
    assert sum(1 for w in crlf if w.endswith(b"\r")) == b"".join(crlf).count(b"\r\n")


def test_line_endings_comments_and_event_lines() -> None:
    endpoint, records = _records("anthropic")
    crlf = b"".join(plan(records, endpoint, parse_transport("crlf")).writes)
    assert crlf.count(b"\r\n\r\n") == len(records) and b"\n\n" not in crlf.replace(b"\r\n", b"")
    cr = b"".join(plan(records, endpoint, parse_transport("cr")).writes)
    assert b"\n" not in cr and cr.count(b"\r\r") == len(records)
    keepalive = plan(records, endpoint, parse_transport("keepalive")).writes
    assert keepalive[0] == b": keep-alive\n\n" and len(keepalive) == 2 * len(records)
    bare = b"".join(plan(records, endpoint, parse_transport("no-event-lines")).writes)
    assert b"event:" not in bare
    chat, chat_records = _records("openai")
    named = b"".join(plan(chat_records, chat, parse_transport("event-lines")).writes)
    assert named.count(b"event: message\n") == len(chat_records)


def test_cuts_stop_half_way_through_a_record() -> None:
    endpoint, records = _records("openai-responses")
    whole = b"".join(plan(records, endpoint, parse_transport("default")).writes)
    for spec, close in (("cut-chunked", False), ("cut-close", True), ("cut-chunked:3", False)):
        cut = plan(records, endpoint, parse_transport(spec))
        body = b"".join(cut.writes)
        assert not cut.complete and cut.close_delimited is close
        assert whole.startswith(body) and len(body) < len(whole)
        assert not body.endswith(b"\n\n")  # mid-event
    third = b"".join(plan(records, endpoint, parse_transport("cut-chunked:3")).writes)
    assert third.count(b"\n\n") == 3


def test_transport_specs_are_parsed_strictly() -> None:
    assert parse_transport("every:5,crlf,stall:0.5@2").stall_at == 2
    for bad in ("every", "every:0", "every:x", "crlf:1", "stall:999", "pause:5", "nope"):
        with pytest.raises(TransportError):
            parse_transport(bad)


def test_over_the_wire_cuts_and_close_delimited_bodies(server: Server, sample: list[Path]) -> None:
    url, body = path_and_body("anthropic", _case_of(sample, "anthropic"))
    _, _, whole = request(server, "POST", url, body)
    status, response, data = request(server, "POST", url, body, {"X-Toolstream-Transport": "close"})
    assert status == 200 and data == whole
    assert response.getheader("Transfer-Encoding") is None
    assert response.getheader("Connection") == "close"
    status, _, data = request(server, "POST", url, body, {"X-Toolstream-Transport": "cut-close"})
    assert whole.startswith(data) and len(data) < len(whole)  # looks complete to the client
    status, _, data = request(server, "POST", url, body, {"X-Toolstream-Transport": "cut-chunked"})
    assert data.startswith(b"INCOMPLETE:")  # the chunked framing shows the cut
    assert whole.startswith(data.removeprefix(b"INCOMPLETE:"))


def test_a_stall_is_a_real_pause(server: Server, sample: list[Path]) -> None:
    url, body = path_and_body("openai", _case_of(sample, "openai"))
    started = time.monotonic()
    status, _, _ = request(server, "POST", url, body, {"X-Toolstream-Transport": "stall:0.4"})
    assert status == 200 and time.monotonic() - started >= 0.4


def _reads(server: Server, name: str, spec: str) -> int:
    """How many ``recv`` calls a raw-socket client needed for the response."""
    payload = json.dumps({"model": f"case:{name}", "stream": True}).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"POST /transport/%s/v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
            b"Connection: close\r\nContent-Length: %d\r\n\r\n%s"
            % (spec.encode(), len(payload), payload)
        )
        reads = 0
        while sock.recv(65536):
            reads += 1
    return reads


def test_writes_reach_the_client_one_by_one(server: Server, sample: list[Path]) -> None:
    """A client on a raw socket counts its reads: with a pause between
    writes, each arrives on its own (TCP_NODELAY, one send per write).  (With
    no pause a client often finds several merged in its socket buffer, but
    not always: a client as fast as the server reads each on its own, as seen
    under a parallel test run, so that half is no assertion.)"""
    name = _case_of(sample, "openai")
    endpoint = ENDPOINTS["openai"]
    case = server.index.get(name)
    writes = len(plan(endpoint.records(case.stream), endpoint, parse_transport("every:16")).writes)
    assert writes > 50
    # The headers go with the first write and the last chunk with the last
    # one; on a loaded machine a read may still merge two writes now and then.
    paused = _reads(server, name, "every:16,pause:0.01")
    assert paused >= 0.9 * writes, (paused, writes)


# -- bounded resources ----------------------------------------------------------------


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def _started_since(before: set[threading.Thread]) -> list[str]:
    """The threads alive now that were not alive at ``before``: the ones a
    test left behind.  (The process-wide count is no measure: under xdist a
    thread another test started may end while this one runs.)"""
    return sorted(t.name for t in threading.enumerate() if t not in before)


def test_disconnects_idle_clients_and_limits_leave_nothing_behind(sample: list[Path]) -> None:
    gc.collect()
    threads, fds = set(threading.enumerate()), _open_fds()
    limits = ServeLimits(socket_timeout=0.5, max_connections=3)
    name = _case_of(sample, "openai")
    url, body = path_and_body("openai", name)
    with running([str(p) for p in sample[:60]], limits=limits) as srv:
        # a client that goes away mid-stream
        with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as sock:
            payload = json.dumps(body).encode()
            sock.sendall(
                b"POST /transport/stall:0.3/v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                b"Content-Length: %d\r\n\r\n%s" % (len(payload), payload)
            )
            sock.recv(100)
        # an idle connection is dropped after the socket timeout
        idle = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
        started = time.monotonic()
        assert idle.recv(10) == b""
        assert 0.4 <= time.monotonic() - started < 3
        idle.close()
        # beyond max_connections: 503 and closed
        held = [socket.create_connection(("127.0.0.1", srv.port), timeout=5) for _ in range(3)]
        time.sleep(0.1)
        with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as extra:
            assert _read_all(extra).startswith(b"HTTP/1.1 503")
        for sock in held:
            sock.close()
        deadline = time.monotonic() + 3
        while srv.open_connections and time.monotonic() < deadline:
            time.sleep(0.05)
        status, _, _ = request(srv, "POST", url, body)
        assert status == 200
        outcomes = [e.outcome for e in srv.requests(srv.index.get(name).id)]
        assert outcomes[0] == "client gone" and outcomes[-1] == "complete"
    gc.collect()
    assert _started_since(threads) == []
    # (a descriptor another test's thread closed meanwhile is not a leak)
    assert _open_fds() - fds == set()


def test_stop_drops_open_streams_promptly(sample: list[Path]) -> None:
    threads = set(threading.enumerate())
    url, body = path_and_body("openai", _case_of(sample, "openai"))
    srv = Server([str(p) for p in sample[:60]]).start()
    result: dict[str, Any] = {}

    def slow() -> None:
        result["reply"] = request(srv, "POST", url, body, {"X-Toolstream-Transport": "stall:20"})

    client = threading.Thread(target=slow)
    client.start()
    time.sleep(0.3)
    started = time.monotonic()
    srv.stop()
    assert time.monotonic() - started < 20
    client.join(5)
    assert not client.is_alive()
    assert _started_since(threads) == []


def test_the_server_binds_loopback_by_default() -> None:
    with Server({"profile": "openai", "tool_schemas": {}, "chunks": []}) as srv:
        assert srv.host == "127.0.0.1" and srv.loopback
        assert srv.url == f"http://127.0.0.1:{srv.port}"


def test_a_client_that_stops_reading_is_dropped_after_the_socket_timeout() -> None:
    text = "x" * 4000
    chunks = [{"choices": [{"index": 0, "delta": {"content": text}}]} for _ in range(3000)]
    fixture = {"profile": "openai", "tool_schemas": {}, "chunks": chunks}
    limits = ServeLimits(socket_timeout=0.5)
    with running(fixture, transport="pause:0", limits=limits) as srv:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(10)
        sock.connect(("127.0.0.1", srv.port))
        payload = b'{"model": "m", "stream": true}'
        sock.sendall(
            b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s"
            % (len(payload), payload)
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            entries = srv.requests()
            if entries and entries[0].outcome != "started":
                break
            time.sleep(0.1)
        sock.close()
        assert srv.requests()[0].outcome == "client gone"
        status, _, _ = request(srv, "GET", "/cases")
        assert status == 200


def test_a_connection_is_reused_after_refusals_and_prefixes_combine(
    server: Server, sample: list[Path]
) -> None:
    name = _case_of(sample, "anthropic")
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        replies = []
        for method, url, body in (
            ("POST", "/v1/nowhere", {"padding": "x" * 5000}),
            ("POST", "/cases/no-such-case/v1/messages", {"padding": "x" * 5000}),
            ("POST", f"/transport/crlf/cases/{name}/v1/messages", {"stream": True}),
            ("POST", f"/cases/{name}/transport/crlf/v1/messages", {"stream": True}),
        ):
            connection.request(method, url, body=json.dumps(body))
            response = connection.getresponse()
            replies.append((response.status, response.read()))
    finally:
        connection.close()
    assert [status for status, _ in replies] == [404, 404, 200, 200]
    assert replies[2][1] == replies[3][1] and b"\r\n\r\n" in replies[2][1]


def test_a_streamed_reply_has_the_same_request_id_on_every_run(
    server: Server, sample: list[Path]
) -> None:
    # Clients copy the request id into what they report, so a random one made
    # two diff runs of the same corpus differ by bytes.
    openai_cases = [p for p in sample if case_json(p)["profile"] == "openai"][:2]
    first, second = (short_id(p) for p in openai_cases)
    ids = []
    for name in (first, first, second):
        status, response, _ = request(server, "POST", *path_and_body("openai", name))
        assert status == 200
        ids.append(response.getheader("x-request-id"))
    assert ids[0] == ids[1] and ids[0] != ids[2]
    assert all(str(value).startswith("req_") for value in ids)
