"""``toolstream serve`` endpoints of four wire formats (gemini in both
framings and on Vertex's path, gemini-interactions, cohere, bedrock-invoke),
fetched over 127.0.0.1 with the standard library's HTTP client: what comes
back, read as a capture with toolstream's own readers and imported, is the
case's stream item for item and gets the case's verdict."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

from tests.support.corpus_cases import ROOT
from tests.support.serve_http import request
from toolstream import validate
from toolstream.capture import read_capture
from toolstream.importer.core import import_capture, stream_item
from toolstream.profiles import PROFILES
from toolstream.serve import ENDPOINTS, Server, running

NEW_PROFILES = ("gemini", "gemini-interactions", "cohere", "bedrock-invoke")
SEEDS = {
    fixture["profile"]: fixture
    for fixture in (
        json.loads(p.read_text("utf-8")) for p in sorted((ROOT / "corpus" / "seeds").glob("*.json"))
    )
    if fixture["profile"] in NEW_PROFILES
}


def truncated(fixture: dict[str, Any]) -> dict[str, Any]:
    """The seed cut in half, inside a call: the call and the turn never end."""
    key = PROFILES[fixture["profile"]].stream_key
    return {
        **fixture,
        "meta": {"description": "truncated"},
        key: fixture[key][: len(fixture[key]) // 2],
    }


CASES = [fixture for seed in SEEDS.values() for fixture in (seed, truncated(seed))]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running(CASES) as started:
        yield started


@pytest.fixture(scope="module")
def listing(server: Server) -> list[dict[str, Any]]:
    status, _, data = request(server, "GET", "/cases")
    assert status == 200
    cases: list[dict[str, Any]] = json.loads(data)["cases"]
    return cases


# Each way a client reaches a case: its profile, and the path ({model}: the case's model).
ROUTES = {
    "gemini-sse": ("gemini", "/v1beta/models/{model}:streamGenerateContent?alt=sse"),
    "gemini-array": ("gemini", "/v1beta/models/{model}:streamGenerateContent"),
    "gemini-vertex": (
        "gemini",
        "/v1/projects/p/locations/us-central1/publishers/google/models/{model}"
        ":streamGenerateContent?alt=sse",
    ),
    "gemini-interactions": ("gemini-interactions", "/v1beta/interactions"),
    "cohere": ("cohere", "/v2/chat"),
    "bedrock-invoke": ("bedrock-invoke", "/model/{model}/invoke-with-response-stream"),
}
EXPECTED_FORMAT = {
    "gemini-sse": "sse",
    "gemini-array": "json-array",
    "gemini-vertex": "sse",
    "gemini-interactions": "sse",
    "cohere": "sse",
    "bedrock-invoke": "aws-eventstream",
}


def fetch(server: Server, route: str, model: str, **headers: str) -> tuple[int, Any, bytes]:
    _, template = ROUTES[route]
    path = template.format(model=quote(model, safe=""))
    return request(server, "POST", path, {"model": model, "stream": True}, headers)


def _served(listing: list[dict[str, Any]], profile: str) -> list[dict[str, Any]]:
    found = [case for case in listing if case["profile"] == profile]
    assert len(found) == 2, listing
    return found


def _fixture(listing: list[dict[str, Any]], case_id: str) -> dict[str, Any]:
    """The fixture served as ``case_id`` (GET /cases lists them in the order given)."""
    (position,) = [i for i, case in enumerate(listing) if case["id"] == case_id]
    return CASES[position]


def test_every_new_profile_has_a_seed() -> None:
    assert sorted(SEEDS) == sorted(NEW_PROFILES), "a seed per new profile in corpus/seeds"


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_fetched_stream_imports_to_the_cases_verdict(
    server: Server, listing: list[dict[str, Any]], route: str
) -> None:
    profile, _ = ROUTES[route]
    verdicts = set()
    for served in _served(listing, profile):
        fixture = _fixture(listing, served["id"])
        status, response, data = fetch(server, route, served["model"])
        assert status == 200, data[:300]
        endpoint = ENDPOINTS[profile].for_query(ROUTES[route][1].partition("?")[2])
        assert response.getheader("Content-Type") == endpoint.content_type
        assert response.getheader("X-Toolstream-Case") == served["id"]
        capture = read_capture(data)
        assert capture.format == EXPECTED_FORMAT[route]
        assert all(r.kind != "done" for r in capture.records)  # no [DONE] on these wires
        key = PROFILES[profile].stream_key
        items = [stream_item(r, capture.format, profile) for r in capture.records]
        assert items == fixture[key]
        if profile == "cohere":
            assert [r.event for r in capture.records] == [item["type"] for item in items]
        elif capture.format == "sse":
            assert all(r.event is None for r in capture.records)
        result = import_capture(
            data,
            source_name=route,
            tool_schemas=fixture["tool_schemas"],
            request=fixture.get("request"),
        )
        assert (result.profile, result.warnings) == (profile, [])  # detected, no warning
        (turn,) = result.turns
        imported = turn.fixture
        assert imported[key] == fixture[key]
        got, want = validate(imported), validate(fixture)
        assert (got.status, got.codes) == (want.status, want.codes)
        assert [(c.id, c.name, c.arguments) for c in got.calls] == [
            (c.id, c.name, c.arguments) for c in want.calls
        ]
        verdicts.add((got.status, fixture["meta"]["description"] == "truncated"))
    assert verdicts == {("pass", False), ("blocked", True)}  # served truncated, not repaired


def test_each_new_endpoint_refuses_a_non_streaming_call_in_its_shape(
    server: Server, listing: list[dict[str, Any]]
) -> None:
    gemini = quote(_served(listing, "gemini")[0]["model"], safe="")
    status, _, data = request(server, "POST", f"/v1beta/models/{gemini}:generateContent", {})
    error = json.loads(data)["error"]
    assert status == 400 and error == {
        "code": 400,
        "message": error["message"],
        "status": "INVALID_ARGUMENT",
    }
    assert "generate_content_stream" in error["message"]
    interactions = _served(listing, "gemini-interactions")[0]["model"]
    status, _, data = request(server, "POST", "/v1beta/interactions", {"model": interactions})
    assert status == 400 and json.loads(data)["error"]["status"] == "INVALID_ARGUMENT"
    cohere = _served(listing, "cohere")[0]["model"]
    status, _, data = request(server, "POST", "/v2/chat", {"model": cohere, "stream": False})
    assert status == 400 and set(json.loads(data)) == {"id", "message"}
    invoke = quote(_served(listing, "bedrock-invoke")[0]["model"], safe="")
    status, response, data = request(server, "POST", f"/model/{invoke}/invoke", {})
    assert status == 400
    assert str(response.getheader("x-amzn-ErrorType")).startswith("ValidationException:")
    assert "invoke_model_with_response_stream" in json.loads(data)["message"]


def test_unknown_and_misplaced_cases_get_each_providers_error(
    server: Server, listing: list[dict[str, Any]]
) -> None:
    status, _, data = fetch(server, "gemini-array", "gemini-2.5-flash")
    error = json.loads(data)["error"]
    assert status == 404 and error["status"] == "NOT_FOUND" and error["code"] == 404
    assert "'gemini-2.5-flash' names no served case" in error["message"]
    status, _, data = fetch(server, "cohere", "command-a")
    assert status == 404 and "names no served case" in json.loads(data)["message"]
    status, response, _ = fetch(server, "bedrock-invoke", "anthropic.claude")
    assert status == 404
    assert response.getheader("x-amzn-ErrorType").startswith("ResourceNotFoundException:")
    cohere_case = _served(listing, "cohere")[0]["model"]
    status, _, data = fetch(server, "gemini-interactions", cohere_case)
    error = json.loads(data)["error"]
    assert (
        status == 400
        and "cohere case, served by Cohere Chat v2 at POST /v2/chat" in (error["message"])
    )
    invoke_case = _served(listing, "bedrock-invoke")[0]["model"]
    status, response, data = request(
        server, "POST", f"/model/{quote(invoke_case, safe='')}/converse-stream", {}
    )
    assert status == 400 and "served by Bedrock InvokeModelWithResponseStream" in data.decode()


def test_sse_only_variants_are_refused_on_the_json_array_and_taken_with_alt_sse(
    server: Server, listing: list[dict[str, Any]]
) -> None:
    model = _served(listing, "gemini")[0]["model"]
    status, _, data = fetch(server, "gemini-array", model, **{"X-Toolstream-Transport": "crlf"})
    assert status == 400 and "a JSON array" in json.loads(data)["error"]["message"]
    status, _, data = fetch(server, "gemini-sse", model, **{"X-Toolstream-Transport": "crlf"})
    assert status == 200 and b"\r\n\r\n" in data
    assert len(read_capture(data).records) == len(SEEDS["gemini"]["chunks"])


@pytest.mark.parametrize("spec", ["every:7", "split-utf8", "cut-chunked"])
def test_the_json_array_is_cut_as_the_transport_says(
    server: Server, listing: list[dict[str, Any]], spec: str
) -> None:
    served = next(
        c for c in _served(listing, "gemini") if _fixture(listing, c["id"]) is SEEDS["gemini"]
    )
    status, _, data = fetch(
        server, "gemini-array", served["model"], **{"X-Toolstream-Transport": spec}
    )
    assert status == 200
    if spec == "cut-chunked":
        assert data.startswith(b"INCOMPLETE:")  # the client can tell
        return
    items = [r.payload for r in read_capture(data).records]
    assert items == SEEDS["gemini"]["chunks"]
