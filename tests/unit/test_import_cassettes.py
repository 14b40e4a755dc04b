"""``toolstream import`` of recording containers: VCR.py / pytest-recording
cassettes (YAML and JSON, ``!!binary``, gzip, ``base64_string``,
pydantic-ai's ``parsed_body``), go-vcr cassettes and HAR archives, with the
tools and ``tool_choice`` taken from each interaction's recorded request.

Every cassette here is written by the project from its own events (the
builders below); the two real cassettes in ``../shared/captures`` are read
from there at the end of the file.
"""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

import toolstream
from tests.support.builders import (
    anthropic_turn,
    bedrock_tool,
    bedrock_turn,
    block_stop,
    json_delta,
    responses_call,
    responses_turn,
    text_chunk,
    text_delta,
    text_start,
    tool_block,
    tool_start,
    weather_call,
)
from tests.support.cassettes import (
    ANTHROPIC,
    ANTHROPIC_TOOLS,
    OPENAI_KEY,
    WEATHER,
    sse,
    vcr_interaction,
    vcr_yaml,
)
from toolstream.capture import encode_event
from toolstream.cli import cli
from toolstream.importer import InputError, import_capture, request_tools, tool_schemas
from toolstream.importer.detect import detect_profile
from toolstream.importer.gemini_schema import gemini_schema

CAPTURES = Path(__file__).resolve().parents[2].parent / "shared" / "captures"
ENV = {"NO_COLOR": "1", "COLUMNS": "250"}
CHAT_TOOLS = [{"type": "function", "function": {"name": "weather", "parameters": WEATHER}}]


# -- wire bodies -------------------------------------------------------------------------




def eventstream(events: list[dict[str, Any]]) -> bytes:
    out = b""
    for event in events:
        ((kind, payload),) = event.items()
        out += encode_event(kind, payload)
    return out


CHAT = [{"id": "chatcmpl-1", "model": "gpt-4o", **c} for c in weather_call()]

# -- container builders --------------------------------------------------------------------






def vcr_json(*interactions: dict[str, Any]) -> bytes:
    return json.dumps({"interactions": list(interactions), "version": 1}).encode()


def govcr(request: Any, body: str, *, version: int = 2) -> bytes:
    interaction: dict[str, Any] = {
        "request": {
            "body": json.dumps(request),
            "form": {},
            "headers": {"Content-Type": ["application/json"]},
            "url": "https://api.anthropic.test/v1/messages",
            "method": "POST",
        },
        "response": {
            "body": body,
            "headers": {"Content-Type": ["text/event-stream; charset=utf-8"]},
            "status": "200 OK",
            "code": 200,
            "duration": "1.2s",
        },
    }
    if version == 2:
        interaction = {"id": 0, **interaction}
        interaction["request"]["proto"] = "HTTP/1.1"
        interaction["response"]["proto"] = "HTTP/2.0"
        interaction["response"]["uncompressed"] = True
    text = yaml.safe_dump({"version": version, "interactions": [interaction]})
    return ("---\n" + text).encode()


def har(*entries: tuple[Any, bytes, str, bool]) -> bytes:
    """HAR 1.2: (request body, response body, mime type, base64?) per entry."""
    log_entries = []
    for request, body, mime, encoded in entries:
        content: dict[str, Any] = {"size": len(body), "mimeType": mime}
        if encoded:
            content.update(text=base64.b64encode(body).decode(), encoding="base64")
        else:
            content["text"] = body.decode()
        log_entries.append(
            {
                "startedDateTime": "2026-01-01T00:00:00Z",
                "request": {
                    "method": "POST",
                    "url": "https://api.openai.test/v1/responses",
                    "headers": [{"name": "Authorization", "value": "Bearer tok"}],
                    "postData": {"mimeType": "application/json", "text": json.dumps(request)},
                },
                "response": {
                    "status": 200,
                    "headers": [{"name": "content-type", "value": mime}],
                    "content": content,
                },
            }
        )
    return json.dumps({"log": {"version": "1.2", "entries": log_entries}}).encode()


def run(tmp_path: Path, data: bytes, *args: Any, name: str = "rec.cassette.yaml") -> Result:
    tmp_path.mkdir(parents=True, exist_ok=True)
    capture = tmp_path / name
    capture.write_bytes(data)
    return CliRunner(env=ENV).invoke(cli, ["import", str(capture), *map(str, args)])


def fixtures(
    tmp_path: Path, data: bytes, *args: Any, name: str = "rec.cassette.yaml"
) -> list[Any]:
    out = tmp_path / "out"
    result = run(tmp_path, data, *args, "-o", f"{out}/", name=name)
    assert result.exit_code == 0, result.output
    return [json.loads(p.read_bytes()) for p in sorted(out.iterdir())]


# -- every provider shape, from the recorded request ---------------------------------------


def _mistral_chunks() -> list[dict[str, Any]]:
    whole = {"id": "a1B2c3D4e", "function": {"name": "weather", "arguments": '{"city": "Oslo"}'}}
    return [
        {"id": "m1", "model": "mistral-small-latest", **text_chunk("")},
        {
            "id": "m1",
            "model": "mistral-small-latest",
            "choices": [
                {"index": 0, "delta": {"tool_calls": [whole]}, "finish_reason": "tool_calls"}
            ],
        },
    ]


SHAPES: dict[str, tuple[dict[str, Any], bytes, str, str]] = {
    # name: (request body, response body, profile, tools shape)
    "openai-chat": (
        {"model": "gpt-4o", "stream": True, "tools": CHAT_TOOLS, "tool_choice": "required"},
        sse(CHAT, named=False, done=True),
        "openai",
        "OpenAI chat tools list",
    ),
    "mistral": (
        {"model": "mistral-small-latest", "tools": CHAT_TOOLS, "tool_choice": "any"},
        sse(_mistral_chunks(), named=False, done=True),
        "mistral",
        "OpenAI chat tools list",
    ),
    "openai-responses": (
        {
            "model": "gpt-5",
            "tools": [
                {"type": "web_search"},
                {"type": "function", "name": "weather", "parameters": WEATHER},
            ],
        },
        sse(responses_turn(responses_call())),
        "openai-responses",
        "OpenAI Responses tools list",
    ),
    "anthropic": (
        {"model": "claude", "tools": ANTHROPIC_TOOLS, "tool_choice": {"type": "any"}},
        sse(ANTHROPIC),
        "anthropic",
        "Anthropic tools list",
    ),
    "bedrock": (
        {
            "messages": [],
            "toolConfig": {
                "tools": [{"toolSpec": {"name": "weather", "inputSchema": {"json": WEATHER}}}],
                "toolChoice": {"any": {}},
            },
        },
        eventstream(bedrock_turn(bedrock_tool())),
        "bedrock",
        "Bedrock tools list",
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_recorded_request_gives_tools_and_tool_choice(tmp_path: Path, shape: str) -> None:
    request, body, profile, tools_shape = SHAPES[shape]
    content_type = "application/vnd.amazon.eventstream" if shape == "bedrock" else None
    interaction = vcr_interaction(
        request, body, content_type=content_type or "text/event-stream; charset=utf-8"
    )
    (fixture,) = fixtures(tmp_path, vcr_yaml(interaction))
    assert fixture["profile"] == profile
    assert fixture["tool_schemas"] == {"weather": WEATHER}
    assert fixture["meta"]["tool_schemas_from"] == {
        "request": "interaction 0 (POST /v1/chat/completions, 200)",
        "shape": tools_shape,
    }
    choice = request.get("tool_choice")
    if choice is not None:
        assert fixture["request"] == {"tool_choice": choice}
    if shape == "bedrock":
        assert fixture["request"] == {"toolConfig": {"toolChoice": {"any": {}}}}
    report = toolstream.validate(fixture)
    assert report.status == "pass", report.to_json()
    assert [c.name for c in report.client_calls()] == ["weather"]


def test_meta_names_the_interaction_and_never_a_header_or_query(tmp_path: Path) -> None:
    interaction = vcr_interaction(
        {"tools": ANTHROPIC_TOOLS},
        sse(ANTHROPIC),
        uri="https://api.anthropic.test/v1/messages?beta=true&key=hidden-query-value",
        request_headers={"x-trace": ["trace-header-value"]},
        response_headers={"request-id": ["req-header-value"]},
    )
    data = vcr_yaml(interaction)
    (fixture,) = fixtures(tmp_path, data)
    meta = fixture["meta"]
    assert (meta["interaction"], meta["method"], meta["url_path"], meta["status"]) == (
        0,
        "POST",
        "/v1/messages",
        200,
    )
    assert meta["source"] == "rec.cassette.yaml"
    text = json.dumps(fixture)
    for value in ("hidden-query-value", "trace-header-value", "req-header-value", "beta=true"):
        assert value not in text


def test_schemas_and_request_options_override_the_recording(tmp_path: Path) -> None:
    interaction = vcr_interaction(
        {"tools": ANTHROPIC_TOOLS, "tool_choice": {"type": "any"}}, sse(ANTHROPIC)
    )
    schemas = tmp_path / "s.json"
    schemas.write_text(json.dumps({"weather": {"type": "object"}}))
    request = tmp_path / "r.json"
    request.write_text(json.dumps({"tool_choice": {"type": "auto"}}))
    (fixture,) = fixtures(
        tmp_path, vcr_yaml(interaction), "--schemas", schemas, "--request", request
    )
    assert fixture["tool_schemas"] == {"weather": {"type": "object"}}
    assert fixture["request"] == {"tool_choice": {"type": "auto"}}
    assert fixture["meta"]["tool_schemas_from"]["file"] == "s.json"


def test_request_without_tools_warns_how_to_give_them(tmp_path: Path) -> None:
    data = vcr_yaml(vcr_interaction({"model": "claude", "messages": []}, sse(ANTHROPIC)))
    result = run(tmp_path, data, "-o", tmp_path / "o.json")
    assert result.exit_code == 0, result.output
    assert "declares no tools" in result.stderr
    assert json.loads((tmp_path / "o.json").read_bytes())["tool_schemas"] == {}


# -- bodies: plain, binary, gzip, base64, parsed_body, JSON cassettes ------------------------


def test_body_forms_all_give_the_same_fixture_stream(tmp_path: Path) -> None:
    request = {"tools": ANTHROPIC_TOOLS}
    body = sse(ANTHROPIC)
    forms = {
        "string": vcr_yaml(vcr_interaction(request, body.decode())),
        "plain": vcr_yaml(vcr_interaction(request, body.decode(), body_form="plain")),
        "binary": vcr_yaml(vcr_interaction(request, body)),
        "gzip": vcr_yaml(
            vcr_interaction(
                request,
                gzip.compress(body, mtime=0),
                response_headers={"Content-Encoding": ["gzip"]},
            )
        ),
        "base64": vcr_yaml(vcr_interaction(request, body, body_form="base64")),
        "parsed": vcr_yaml(vcr_interaction(request, body.decode(), parsed=True)),
        "json": vcr_json(vcr_interaction(request, body.decode())),
    }
    assert b"!!binary" in forms["binary"] and b"!!binary" in forms["gzip"]
    streams = {}
    for name, data in forms.items():
        (fixture,) = fixtures(tmp_path / name, data, name=f"{name}.yaml")
        assert fixture["tool_schemas"] == {"weather": WEATHER}, name
        streams[name] = fixture["events"]
    assert all(events == ANTHROPIC for events in streams.values())


def test_gzip_header_over_a_decoded_body_is_read_as_recorded(tmp_path: Path) -> None:
    data = vcr_yaml(
        vcr_interaction(
            {"tools": ANTHROPIC_TOOLS},
            sse(ANTHROPIC).decode(),
            response_headers={"content-encoding": ["gzip"]},
        )
    )
    result = run(tmp_path, data, "-o", tmp_path / "o.json")
    assert result.exit_code == 0, result.output
    assert "not gzip-encoded; read as recorded" in result.stderr


def test_parsed_json_array_response(tmp_path: Path) -> None:
    """pydantic-ai stores a JSON response as its parsed value: a JSON-array
    stream comes back as the array."""
    events = responses_turn(responses_call())
    interaction = vcr_interaction(
        {"tools": [{"type": "function", "name": "weather", "parameters": WEATHER}]},
        None,
        content_type="application/json",
    )
    del interaction["response"]["body"]
    interaction["response"]["parsed_body"] = events
    (fixture,) = fixtures(tmp_path, vcr_yaml(interaction))
    assert fixture["meta"]["format"] == "json-array"
    assert fixture["events"] == events
    assert toolstream.validate(fixture).status == "pass"


def test_multi_interaction_cassette(tmp_path: Path) -> None:
    """Every streamed response is imported, with its own request's tools; a
    plain JSON response is skipped and named, never dropped silently."""
    second = anthropic_turn(tool_block(0, "toolu_2"))
    token = vcr_interaction(None, '{"access": "x"}', content_type="application/json")
    data = vcr_yaml(
        vcr_interaction({"tools": ANTHROPIC_TOOLS}, sse(ANTHROPIC)),
        token,
        vcr_interaction(
            {"tools": [{"name": "weather", "input_schema": {"type": "object"}}]}, sse(second)
        ),
    )
    out = tmp_path / "out"
    result = run(tmp_path, data, "-o", f"{out}/")
    assert result.exit_code == 0, result.output
    assert "interaction 1 (POST /v1/chat/completions, 200): the response is one JSON object" in (
        result.stderr
    )
    assert [p.name for p in sorted(out.iterdir())] == ["rec.turn1.json", "rec.turn2.json"]
    first, last = (json.loads(p.read_bytes()) for p in sorted(out.iterdir()))
    assert (first["meta"]["interaction"], last["meta"]["interaction"]) == (0, 2)
    assert [(f["meta"]["turn"], f["meta"]["turns"]) for f in (first, last)] == [(1, 2), (2, 2)]
    assert first["tool_schemas"] == {"weather": WEATHER}
    assert last["tool_schemas"] == {"weather": {"type": "object"}}
    assert first["events"] == ANTHROPIC and last["events"] == second


def test_one_body_with_several_turns_in_a_cassette(tmp_path: Path) -> None:
    second = anthropic_turn(tool_block(0, "toolu_2"))
    data = vcr_yaml(vcr_interaction({"tools": ANTHROPIC_TOOLS}, sse([*ANTHROPIC, *second])))
    turns = fixtures(tmp_path, data)
    assert [t["events"] for t in turns] == [ANTHROPIC, second]
    assert all(t["meta"]["interaction"] == 0 for t in turns)


# -- go-vcr and HAR ----------------------------------------------------------------------------


@pytest.mark.parametrize("version", [1, 2])
def test_govcr_cassette(tmp_path: Path, version: int) -> None:
    data = govcr({"tools": ANTHROPIC_TOOLS}, sse(ANTHROPIC).decode(), version=version)
    out = tmp_path / "o.json"
    result = run(tmp_path, data, "-o", out, name="rec.yaml")
    assert result.exit_code == 0, result.output
    assert "go-vcr recording" in result.stderr
    fixture = json.loads(out.read_bytes())
    assert fixture["meta"]["url_path"] == "/v1/messages"
    assert fixture["tool_schemas"] == {"weather": WEATHER}
    assert toolstream.validate(fixture).status == "pass"


def test_har_with_base64_and_plain_content(tmp_path: Path) -> None:
    tools = {"tools": [{"type": "function", "name": "weather", "parameters": WEATHER}]}
    first = sse(responses_turn(responses_call()))
    second = sse(responses_turn(responses_call(0, "fc_2", "call_2")))
    data = har(
        (tools, first, "text/event-stream", True), (tools, second, "text/event-stream", False)
    )
    out = tmp_path / "out"
    result = run(tmp_path, data, "-o", f"{out}/", name="session.har")
    assert result.exit_code == 0, result.output
    assert "har recording" in result.stderr
    turns = [json.loads(p.read_bytes()) for p in sorted(out.iterdir())]
    assert [p.name for p in sorted(out.iterdir())] == ["session.turn1.json", "session.turn2.json"]
    for turn in turns:
        assert turn["profile"] == "openai-responses"
        assert toolstream.validate(turn).status == "pass"
    assert "Bearer tok" not in json.dumps(turns)


# -- failing closed ----------------------------------------------------------------------------


def test_declared_stream_that_does_not_read_fails(tmp_path: Path) -> None:
    data = vcr_yaml(vcr_interaction({"tools": CHAT_TOOLS}, "data: {not json\n\n"))
    result = run(tmp_path, data, "-o", tmp_path / "o.json")
    assert result.exit_code == 65
    assert "interaction 0 (POST /v1/chat/completions, 200): cannot read the streamed" in (
        result.stderr
    )
    assert not (tmp_path / "o.json").exists()


def test_cassette_without_a_stream_fails(tmp_path: Path) -> None:
    data = vcr_yaml(vcr_interaction(None, '{"id": "x"}', content_type="application/json"))
    result = run(tmp_path, data, "-o", tmp_path / "o.json")
    assert result.exit_code == 65
    assert "no streamed response" in result.stderr


def test_yaml_aliases_are_refused(tmp_path: Path) -> None:
    data = b"interactions:\n- &a {request: {uri: x}, response: *a}\n"
    result = run(tmp_path, data, "-o", tmp_path / "o.json")
    assert result.exit_code == 65
    assert "YAML alias" in result.stderr


def test_hostile_yaml_is_a_clear_error(tmp_path: Path) -> None:
    deep = b"interactions:\n- " + b"[" * 5_000 + b"]" * 5_000 + b"\n"
    result = run(tmp_path, deep, "-o", tmp_path / "o.json")
    assert result.exit_code == 65, result.output
    assert "nested too deeply" in result.stderr
    broken = run(tmp_path, b"interactions:\n- request: {uri: [\n", "-o", tmp_path / "o.json")
    assert broken.exit_code == 65
    assert "not readable as a YAML cassette" in broken.stderr


def test_a_body_inflating_beyond_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolstream.importer.containers import _http

    monkeypatch.setattr(_http, "MAX_BODY", 1000)
    body = gzip.compress(b"data: {}\n\n" * 1000, mtime=0)
    data = vcr_yaml(
        vcr_interaction(None, body, response_headers={"content-encoding": ["gzip"]})
    )
    result = run(tmp_path, data, "-o", tmp_path / "o.json")
    assert result.exit_code == 65
    assert "inflates beyond 1000 bytes" in result.stderr


def test_repeated_yaml_keys_are_refused(tmp_path: Path) -> None:
    data = vcr_yaml(vcr_interaction({"tools": ANTHROPIC_TOOLS}, sse(ANTHROPIC)))
    data = data.replace(b"    method: POST\n", b"    method: POST\n    method: GET\n")
    result = run(tmp_path, data, "-o", tmp_path / "o.json")
    assert result.exit_code == 65
    assert "the key 'method' is repeated" in result.stderr


def test_tools_that_do_not_convert_fail_and_say_how_to_fix(tmp_path: Path) -> None:
    request = {"tools": [{"functionDeclarations": [{"name": "f", "parameters": {"ref": "#/x"}}]}]}
    data = vcr_yaml(vcr_interaction(request, sse(ANTHROPIC)))
    result = run(tmp_path, data, "-o", tmp_path / "o.json")
    assert result.exit_code == 65
    assert "tools do not convert" in result.stderr and "--schemas" in result.stderr
    assert "tools[0].functionDeclarations[0].parameters.ref" in result.stderr
    assert not (tmp_path / "o.json").exists()


def test_corrupt_gzip_fails(tmp_path: Path) -> None:
    body = gzip.compress(sse(ANTHROPIC), mtime=0)[:-12]
    data = vcr_yaml(
        vcr_interaction(
            {"tools": ANTHROPIC_TOOLS}, body, response_headers={"content-encoding": ["gzip"]}
        )
    )
    result = run(tmp_path, data, "-o", tmp_path / "o.json")
    assert result.exit_code == 65
    assert "interactions[0].response" in result.stderr


def test_output_is_deterministic(tmp_path: Path) -> None:
    data = vcr_yaml(vcr_interaction({"tools": ANTHROPIC_TOOLS}, sse(ANTHROPIC)))
    first = fixtures(tmp_path / "a", data)
    again = fixtures(tmp_path / "b", data)
    assert first == again


# -- secrets -----------------------------------------------------------------------------------

ANTHROPIC_KEY = "sk-ant-api03-" + "Zx8cVb5nMq2wEr7tYu4iOp1aSd6f"
GOOGLE_KEY = "AIza" + "SyB4x9Qm2Lp7Vn3Kc8Rt5Wz1Yh6Jd0Fg2Hs"
BEARER = "Bearer " + "eyJ0eXAi0iJKV1QiLCJhbGci0iJIUzI1NiJ9x7Qp"
COOKIE = "session=" + "c0ok1e-V4lue-9f8e7d6c5b4a"
SECRETS = (OPENAI_KEY, ANTHROPIC_KEY, GOOGLE_KEY, BEARER, COOKIE, BEARER.split()[1])


def _secret_cassette() -> bytes:
    arguments = ('{"city": "Paris", "api_key": "', ANTHROPIC_KEY[:11], ANTHROPIC_KEY[11:] + '"}')
    events = anthropic_turn(
        [
            text_start(0),
            text_delta(0, "Use " + OPENAI_KEY[:10]),
            text_delta(0, OPENAI_KEY[10:]),
            block_stop(0),
        ],
        [tool_start(1), *(json_delta(1, p) for p in arguments), block_stop(1)],
    )
    assert not any(k in json.dumps(events) for k in (OPENAI_KEY, ANTHROPIC_KEY))
    interaction = vcr_interaction(
        {
            "tools": [{"name": "weather", "input_schema": {"type": "object"}}],
            "metadata": {"user_id": GOOGLE_KEY},
        },
        sse(events),
        uri=f"https://api.anthropic.test/v1/messages?key={GOOGLE_KEY}",
        request_headers={
            "authorization": [BEARER],
            "x-api-key": [ANTHROPIC_KEY],
            "x-goog-api-key": [GOOGLE_KEY],
            "cookie": [COOKIE],
        },
        response_headers={"set-cookie": [COOKIE + "; Path=/; HttpOnly"]},
    )
    return vcr_yaml(interaction)


def test_secrets_in_headers_query_request_and_split_text_never_reach_the_output(
    tmp_path: Path,
) -> None:
    data = _secret_cassette()
    out = tmp_path / "out"
    refused = run(tmp_path, data, "-o", f"{out}/")
    assert refused.exit_code == 1
    assert not out.exists()
    for secret in SECRETS:
        assert secret not in refused.output
    # the split text key and the split argument key are both found, and the
    # request-derived field too
    assert "/events/2/delta/text (+1 more fragment(s))" in refused.stderr
    assert "/events/7/delta/partial_json (+1 more fragment(s))" in refused.stderr
    assert "/request" not in refused.stderr  # metadata is not a field the fixture keeps

    redacted = run(tmp_path, data, "--redact", "-o", f"{out}/")
    assert redacted.exit_code == 0, redacted.output
    (path,) = out.iterdir()
    text = path.read_text(encoding="ascii")
    for secret in (*SECRETS, OPENAI_KEY[:10], ANTHROPIC_KEY[:11]):
        assert secret not in text
    fixture = json.loads(text)
    report = toolstream.validate(fixture)
    assert report.status == "pass", report.to_json()
    assert report.client_calls()[0].input == {
        "city": "Paris",
        "api_key": "[REDACTED:anthropic-key]",
    }
    kinds = {r["kind"] for r in fixture["meta"]["redactions"]}
    assert kinds == {"openai-key", "anthropic-key"}


def test_credential_in_recorded_tools_is_gated(tmp_path: Path) -> None:
    """tool_schemas come from the request: the gate covers them like the stream."""
    tools = [
        {"name": "weather", "input_schema": {"type": "object", "description": f"key {OPENAI_KEY}"}}
    ]
    data = vcr_yaml(vcr_interaction({"tools": tools}, sse(ANTHROPIC)))
    refused = run(tmp_path, data, "-o", tmp_path / "o.json")
    assert refused.exit_code == 1
    assert "/tool_schemas/weather/description" in refused.stderr
    assert OPENAI_KEY not in refused.output


def test_secret_split_across_text_deltas_of_a_bare_chat_stream(tmp_path: Path) -> None:
    chunks = [
        {"id": "c", **text_chunk("my key: " + OPENAI_KEY[:12])},
        {"id": "c", **text_chunk(OPENAI_KEY[12:] + ".", finish="stop")},
    ]
    assert not any(OPENAI_KEY in json.dumps(c) for c in chunks)
    result = run(
        tmp_path, sse(chunks, named=False, done=True), "-o", tmp_path / "o.json", name="c.sse"
    )
    assert result.exit_code == 1
    assert "/chunks/0/choices/0/delta/content (+1 more fragment(s))" in result.stderr


# -- tools shapes: Gemini and Cohere ----------------------------------------------------------


def test_gemini_openapi_parameters_convert_to_json_schema() -> None:
    parameters = {
        "type": "OBJECT",
        "properties": {
            "city": {"type": "STRING", "description": "where"},
            "unit": {"type": "STRING", "format": "enum", "enum": ["C", "F"], "nullable": True},
            "days": {"type": "INTEGER", "minimum": 1, "maximum": 7, "nullable": True},
            "tags": {"type": "ARRAY", "items": {"type": "STRING"}, "min_items": "1", "maxItems": 3},
            "when": {"any_of": [{"type": "STRING"}, {"type": "NUMBER"}], "nullable": True},
        },
        "required": ["city"],
        "propertyOrdering": ["city", "unit", "days", "tags", "when"],
        "example": {"city": "Paris"},
    }
    assert gemini_schema(parameters, "p") == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "where"},
            "unit": {"type": ["string", "null"], "format": "enum", "enum": ["C", "F", None]},
            "days": {"type": ["integer", "null"], "minimum": 1, "maximum": 7},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
            "when": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]},
        },
        "required": ["city"],
        "examples": [{"city": "Paris"}],
    }


def test_gemini_declarations_in_a_request() -> None:
    request = {
        "contents": [],
        "tools": [
            {
                "functionDeclarations": [
                    {"name": "weather", "parameters": {"type": "OBJECT", "properties": {}}},
                    {"name": "now"},
                    {"name": "raw", "parametersJsonSchema": WEATHER},
                ]
            },
            {"function_declarations": [{"name": "snake", "parameters_json_schema": WEATHER}]},
            {"googleSearch": {}},
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY"}},
    }
    read = request_tools(request)
    assert read is not None
    assert read.shape == "Gemini tools list"
    assert read.schemas == {
        "weather": {"type": "object", "properties": {}},
        "now": {"type": "object", "properties": {}, "additionalProperties": False},
        "raw": WEATHER,
        "snake": WEATHER,
    }
    assert "googleSearch" in read.notes[0]
    from toolstream.importer import request_fields

    assert request_fields(request) == {"toolConfig": {"functionCallingConfig": {"mode": "ANY"}}}


@pytest.mark.parametrize(
    ("parameters", "needle"),
    [
        ({"type": "OBJECT", "ref": "#/defs/x"}, ".ref"),
        ({"type": "TYPE_UNSPECIFIED"}, "not a Gemini type"),
        ({"type": "INTEGER", "format": "enum", "enum": ["101", "201"]}, "enum of strings"),
        ({"type": "ARRAY", "minItems": "-1"}, "not a non-negative integer"),
        ({"type": "STRING", "nullable": "yes"}, "not a boolean"),
        ({"minItems": 1, "min_items": 2}, "the same field"),
        ({"type": "OBJECT", "properties": {"a": "STRING"}}, "not a Gemini Schema object"),
    ],
    ids=["ref", "unspecified", "int-enum", "negative", "nullable", "twice", "not-schema"],
)
def test_gemini_schema_fails_closed(parameters: dict[str, Any], needle: str) -> None:
    with pytest.raises(InputError, match=needle.replace("[", r"\[").replace(".", r"\.")):
        tool_schemas(
            {"tools": [{"functionDeclarations": [{"name": "f", "parameters": parameters}]}]}
        )


def test_gemini_schema_depth_is_bounded() -> None:
    deep: dict[str, Any] = {"type": "STRING"}
    for _ in range(200):
        deep = {"type": "ARRAY", "items": deep}
    with pytest.raises(InputError, match="nested more than"):
        gemini_schema(deep, "p")


def test_gemini_declaration_with_both_parameter_forms_is_refused() -> None:
    declaration = {"name": "f", "parameters": {"type": "OBJECT"}, "parametersJsonSchema": {}}
    with pytest.raises(InputError, match="more than one"):
        tool_schemas({"tools": [{"functionDeclarations": [declaration]}]})


def test_cohere_tools() -> None:
    """Cohere v2 sends OpenAI-chat-shaped tools (JSON Schema parameters);
    v1's parameter_definitions are not JSON Schema and are refused."""
    v2 = {
        "model": "command-a-03-2025",
        "tools": [{"type": "function", "function": {"name": "weather", "parameters": WEATHER}}],
    }
    assert tool_schemas(v2).schemas == {"weather": WEATHER}
    v1 = {"tools": [{"name": "weather", "parameter_definitions": {"city": {"type": "str"}}}]}
    with pytest.raises(InputError, match="Cohere v1 parameter_definitions"):
        tool_schemas(v1)


def test_import_capture_api_reports_the_bodies() -> None:
    data = vcr_yaml(vcr_interaction({"tools": ANTHROPIC_TOOLS}, sse(ANTHROPIC)))
    result = import_capture(data, source_name="x.yaml")
    assert result.container == "vcr"
    (body,) = result.bodies
    assert body.profile == "anthropic" and body.turns == [1]
    assert body.tools_from == "the recorded request (Anthropic tools list)"


# -- the real cassettes in ../shared/captures --------------------------------------------------

needs_captures = pytest.mark.skipif(
    not CAPTURES.is_dir(), reason=f"real captures not available ({CAPTURES} is absent)"
)
BEDROCK_CASSETTE = "bedrock/openinference-py-bedrock-claude-3-haiku-converse-stream.cassette.yaml"
GEMINI_CASSETTE = "google/pydai-gemini-3-pro-thought-signature.cassette.yaml"


@needs_captures
def test_real_bedrock_cassette_imports_with_its_recorded_tool(tmp_path: Path) -> None:
    """openinference's cassette: a ``!!binary`` event-stream body, and the
    request's toolConfig declaring top_song(sign).  The stream calls
    top_song with {"sign": "WZPZ"} and stops with tool_use: it passes, with
    no --schemas."""
    (fixture,) = fixtures(tmp_path, (CAPTURES / BEDROCK_CASSETTE).read_bytes())
    assert fixture["profile"] == "bedrock"
    assert set(fixture["tool_schemas"]) == {"top_song"}
    assert fixture["tool_schemas"]["top_song"]["required"] == ["sign"]
    assert fixture["meta"]["format"] == "aws-eventstream"
    report = toolstream.validate(fixture)
    assert report.status == "pass", report.to_json()
    ((name, arguments),) = [(c.name, c.input) for c in report.client_calls()]
    assert (name, arguments) == ("top_song", {"sign": "WZPZ"})
    # the body is the same bytes as the sibling .eventstream.bin capture
    sibling = CAPTURES / BEDROCK_CASSETTE.replace(".cassette.yaml", ".eventstream.bin")
    bare = import_capture(sibling.read_bytes(), source_name=sibling.name)
    assert bare.turns[0].fixture["events"] == fixture["events"]


def _gemini_import(tmp_path: Path) -> list[dict[str, Any]]:
    return fixtures(tmp_path, (CAPTURES / GEMINI_CASSETTE).read_bytes())


@needs_captures
def test_real_gemini_cassette_tools_convert_and_reach_detection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pydantic-ai's cassette: two interactions (the call, then the answer
    after the tool result), ``parsed_body`` requests whose
    ``functionDeclarations`` use ``parameters_json_schema``; each body is
    handed to detection (which needs the gemini profile to name it)."""
    from toolstream.importer import core
    from toolstream.importer.containers import open_container

    container = open_container((CAPTURES / GEMINI_CASSETTE).read_bytes())
    assert container is not None and container.kind == "vcr"
    assert len(container.interactions) == 2
    for interaction in container.interactions:
        read = request_tools(interaction.request)
        assert read is not None
        assert read.schemas == {
            "get_country": {"additionalProperties": False, "properties": {}, "type": "object"}
        }
    seen: list[tuple[str, Any]] = []
    real = detect_profile

    def spy(records: Any, capture_format: str, request: Any) -> Any:
        seen.append((capture_format, records[0].payload))
        return real(records, capture_format, request)

    monkeypatch.setattr(core, "detect_profile", spy)
    try:
        import_capture((CAPTURES / GEMINI_CASSETTE).read_bytes(), source_name="g.yaml")
    except core.ImportFailure as error:
        assert "gemini" not in toolstream.profiles.PROFILES
        assert error.usage and "cannot tell the profile" in str(error)
    assert seen and all(fmt == "sse" and "candidates" in first for fmt, first in seen)


@needs_captures
@pytest.mark.xfail(
    "gemini" not in toolstream.profiles.PROFILES,
    strict=True,
    reason="needs the gemini profile",
)
def test_real_gemini_cassette_verdicts(tmp_path: Path) -> None:
    """Interaction 0: one whole functionCall get_country with args {} (and a
    thoughtSignature), then an empty text part with finishReason STOP: a
    valid call.  Interaction 1: text only, the answer after the tool result:
    no tool activity."""
    first, second = _gemini_import(tmp_path)
    assert first["profile"] == second["profile"] == "gemini"
    assert set(first["tool_schemas"]) == {"get_country"}
    report = toolstream.validate(first)
    assert report.status == "pass", report.to_json()
    assert [(c.name, c.input) for c in report.client_calls()] == [("get_country", {})]
    assert toolstream.validate(second).status == "not_applicable"
