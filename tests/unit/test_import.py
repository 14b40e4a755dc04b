"""``toolstream import``: wire formats, profile detection, turn splitting,
schemas and request, the redaction gate, provenance and the command line.

Every capture here is hand-written for the project (the real recorded
streams are exercised in ``tests/e2e/test_captures.py``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolstream
from tests.support.builders import (
    anthropic_turn,
    bedrock_tool,
    bedrock_turn,
    br_delta,
    br_start,
    br_stop,
    call,
    chunk,
    fc_added,
    fc_args_done,
    fc_delta,
    fc_item_done,
    json_delta,
    responses_call,
    responses_turn,
    text_chunk,
    tool_block,
    tool_start,
    weather_call,
)
from toolstream.capture import encode_event, encode_frame
from toolstream.cli import cli
from toolstream.importer import (
    InputError,
    import_capture,
    request_fields,
    tool_schemas,
)

ROOT = Path(__file__).resolve().parents[2]
ENV = {"NO_COLOR": "1", "COLUMNS": "250"}
WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}


# -- capture writers (the wire formats, written from the project's own events) --------


def sse(events: list[Any], *, named: bool = True, eol: str = "\n", done: bool = False) -> bytes:
    """SSE text: ``event:`` (the payload's type when ``named``) and ``data:``."""
    blocks = []
    for event in events:
        lines = []
        if named and isinstance(event, dict) and isinstance(event.get("type"), str):
            lines.append(f"event: {event['type']}")
        lines.append("data: " + json.dumps(event, ensure_ascii=False))
        blocks.append(eol.join(lines) + eol)
    if done:
        blocks.append("data: [DONE]" + eol)
    return eol.join(blocks).encode("utf-8")


def jsonl(items: list[Any]) -> bytes:
    return "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items).encode("utf-8")


def eventstream(events: list[dict[str, Any]]) -> bytes:
    """Bedrock events ``{"<type>": payload}`` as binary event-stream frames."""
    out = b""
    for event in events:
        ((kind, payload),) = event.items()
        out += encode_event(kind, payload)
    return out


def run(tmp_path: Path, data: bytes, *args: str | Path, name: str = "capture.sse") -> Result:
    capture = tmp_path / name
    capture.write_bytes(data)
    return CliRunner(env=ENV).invoke(cli, ["import", str(capture), *map(str, args)])


def write_json(path: Path, obj: Any) -> Path:
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


def load(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="ascii"))
    return loaded


def schemas_file(tmp_path: Path, mapping: dict[str, Any] | None = None) -> Path:
    return write_json(tmp_path / "schemas.json", mapping or {"weather": WEATHER})


ANTHROPIC = anthropic_turn(tool_block())
CHAT = [{"id": "chatcmpl-1", "model": "gpt-4o", **c} for c in weather_call()]
RESPONSES = responses_turn(responses_call())
BEDROCK = bedrock_turn(bedrock_tool())


# -- the formats ------------------------------------------------------------------------


@pytest.mark.parametrize("eol", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_sse_anthropic_round_trips_exactly(tmp_path: Path, eol: str) -> None:
    out = tmp_path / "out.json"
    result = run(tmp_path, sse(ANTHROPIC, eol=eol), "--schemas", schemas_file(tmp_path), "-o", out)
    assert result.exit_code == 0, result.output
    fixture = load(out)
    assert fixture["events"] == ANTHROPIC
    assert fixture["profile"] == "anthropic"
    report = toolstream.validate_bytes(out.read_bytes())
    assert report.status == "pass", report.to_json()
    assert [(c.id, c.name, c.arguments) for c in report.client_calls()] == [
        ("toolu_1", "weather", '{"city": "Paris"}')
    ]


def test_sse_without_trailing_newline_keeps_the_last_event(tmp_path: Path) -> None:
    data = sse(ANTHROPIC).rstrip(b"\n")
    assert data.endswith(b'{"type": "message_stop"}')
    out = tmp_path / "out.json"
    assert run(tmp_path, data, "-o", out).exit_code == 0
    assert load(out)["events"][-1] == {"type": "message_stop"}


def test_done_markers_are_counted_not_written(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = run(tmp_path, sse(CHAT, named=False, done=True), "-o", out)
    assert result.exit_code == 0, result.output
    fixture = load(out)
    assert fixture["chunks"] == CHAT
    assert fixture["meta"]["done_markers"] == 1
    assert "[DONE]" not in json.dumps(fixture["chunks"])


def test_jsonl_and_json_array_give_the_same_fixture(tmp_path: Path) -> None:
    a = tmp_path / "a.json"
    b = tmp_path / "b.json"
    assert run(tmp_path, jsonl(CHAT), "-o", a, name="x.jsonl").exit_code == 0
    array = json.dumps(CHAT, indent=1).encode()
    assert run(tmp_path, array, "-o", b, name="x.json").exit_code == 0
    fa, fb = load(a), load(b)
    assert fa["chunks"] == fb["chunks"] == CHAT
    assert (fa["meta"]["format"], fb["meta"]["format"]) == ("jsonl", "json-array")


@pytest.mark.parametrize("form", ["eventstream", "vercel-jsonl", "decoded-jsonl", "sse"])
def test_bedrock_forms_all_give_the_profile_form(tmp_path: Path, form: str) -> None:
    if form == "eventstream":
        data = eventstream(BEDROCK)
    elif form == "vercel-jsonl":
        data = jsonl(BEDROCK)
    elif form == "decoded-jsonl":
        data = jsonl(
            [
                {"headers": {":event-type": k, ":message-type": "event"}, "payload": v}
                for e in BEDROCK
                for k, v in e.items()
            ]
        )
    else:
        text = "".join(
            f"event: {k}\ndata: {json.dumps(v)}\n\n" for e in BEDROCK for k, v in e.items()
        )
        data = text.encode()
    out = tmp_path / "out.json"
    result = run(tmp_path, data, "--schemas", schemas_file(tmp_path), "-o", out)
    assert result.exit_code == 0, result.output
    fixture = load(out)
    assert fixture["profile"] == "bedrock"
    assert fixture["events"] == BEDROCK
    assert toolstream.validate_bytes(out.read_bytes()).status == "pass"


def test_eventstream_exception_frame_becomes_a_provider_error(tmp_path: Path) -> None:
    frames = eventstream(BEDROCK[:3])
    frames += encode_frame(
        {
            ":message-type": "exception",
            ":exception-type": "modelStreamErrorException",
            ":content-type": "application/json",
        },
        b'{"message":"overloaded"}',
    )
    out = tmp_path / "out.json"
    assert run(tmp_path, frames, "-o", out).exit_code == 0
    events = load(out)["events"]
    assert events[-1] == {"modelStreamErrorException": {"message": "overloaded"}}
    assert "provider_error" in toolstream.validate_bytes(out.read_bytes()).codes


def test_bad_crc_is_an_error_naming_the_frame(tmp_path: Path) -> None:
    data = bytearray(eventstream(BEDROCK))
    first = int.from_bytes(data[0:4], "big")
    data[first + 20] ^= 0x01  # a payload byte of frame 2
    out = tmp_path / "out.json"
    result = run(tmp_path, bytes(data), "-o", out, name="x.bin")
    assert result.exit_code == 65
    assert "frame 2" in result.stderr and "CRC" in result.stderr
    assert "Traceback" not in result.output
    assert not out.exists()


def test_unparseable_line_is_an_error_naming_it(tmp_path: Path) -> None:
    data = jsonl(CHAT[:1]) + b'{"id": "chatcmpl-1", "choices": [\n' + jsonl(CHAT[1:])
    result = run(tmp_path, data, "-o", tmp_path / "out.json", name="x.jsonl")
    assert result.exit_code == 65
    assert "line 2" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("data", "needle"),
    [(b"", "empty"), (b"hello\n", "not a recognised"), (b"data: [DONE]\n\n", "no event")],
    ids=["empty", "garbage", "done-only"],
)
def test_unreadable_captures_exit_65(tmp_path: Path, data: bytes, needle: str) -> None:
    result = run(tmp_path, data, "-o", tmp_path / "out.json")
    assert result.exit_code == 65, result.output
    assert needle in result.stderr


def test_leading_space_data_line_is_a_recorded_warning(tmp_path: Path) -> None:
    role = {"id": "chatcmpl-1", "choices": [{"index": 0, "delta": {"role": "assistant"}}]}
    data = b" " + sse([role, *CHAT], named=False, done=True)
    out = tmp_path / "out.json"
    result = run(tmp_path, data, "-o", out)
    assert result.exit_code == 0
    fixture = load(out)
    assert fixture["chunks"] == CHAT  # the space-prefixed line is not an SSE data line
    assert any("line 1" in w and "' data'" in w for w in fixture["meta"]["capture_warnings"])
    assert "unknown SSE field" in result.stderr


def test_stdin_capture(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = CliRunner(env=ENV).invoke(cli, ["import", "-", "-o", str(out)], input=jsonl(CHAT))
    assert result.exit_code == 0, result.output
    assert load(out)["meta"]["source"] == "<stdin>"


# -- several turns ----------------------------------------------------------------------


def _turns_of(tmp_path: Path, data: bytes, name: str) -> list[dict[str, Any]]:
    folder = tmp_path / "out"
    result = run(tmp_path, data, "--schemas", schemas_file(tmp_path), "-o", folder, name=name)
    assert result.exit_code == 0, result.output
    return [load(p) for p in sorted(folder.iterdir())]


def test_anthropic_messages_become_separate_fixtures(tmp_path: Path) -> None:
    second = anthropic_turn(tool_block(0, "toolu_2"))
    turns = _turns_of(tmp_path, sse([*ANTHROPIC, *second]), "two.sse")
    assert [t["events"] for t in turns] == [ANTHROPIC, second]
    assert [(t["meta"]["turn"], t["meta"]["turns"]) for t in turns] == [(1, 2), (2, 2)]
    for turn in turns:
        assert toolstream.validate(turn).status == "pass"


def test_responses_become_separate_fixtures(tmp_path: Path) -> None:
    second = responses_turn(responses_call(0, "fc_2", "call_2"))
    turns = _turns_of(tmp_path, jsonl([*RESPONSES, *second]), "two.jsonl")
    assert [t["events"] for t in turns] == [RESPONSES, second]
    assert (tmp_path / "out" / "two.turn1.json").exists()


def test_bedrock_messages_become_separate_fixtures(tmp_path: Path) -> None:
    second = bedrock_turn(bedrock_tool(0, "tooluse_2"))
    turns = _turns_of(tmp_path, eventstream([*BEDROCK, *second]), "two.eventstream.bin")
    assert [t["events"] for t in turns] == [BEDROCK, second]
    assert [p.name for p in sorted((tmp_path / "out").iterdir())] == [
        "two.turn1.json",
        "two.turn2.json",
    ]


def test_chat_completions_split_at_done_never_at_a_new_id(tmp_path: Path) -> None:
    second = [{"id": "chatcmpl-2", **c} for c in weather_call(id="call_2")]
    third = [{"id": "chatcmpl-3", **c} for c in weather_call(id="call_3")]
    data = sse(CHAT, named=False, done=True) + b"\n" + sse([*second, *third], named=False)
    turns = _turns_of(tmp_path, data, "three.sse")
    assert [t["chunks"] for t in turns] == [CHAT, [*second, *third]]
    assert [t["meta"]["done_markers"] for t in turns] == [1, 0]


def test_drifting_chunk_ids_are_one_turn(tmp_path: Path) -> None:
    """llama.cpp and some routers change the completion id between chunks of
    one turn: one HTTP body without [DONE] inside is one turn."""
    chunks = [{"id": f"chatcmpl-{n}", **c} for n, c in enumerate(weather_call())]
    out = tmp_path / "out.json"
    result = run(
        tmp_path,
        sse(chunks, named=False, done=True),
        "--schemas",
        schemas_file(tmp_path),
        "-o",
        out,
    )
    assert result.exit_code == 0, result.output
    turn = load(out)
    assert turn["chunks"] == chunks
    assert toolstream.validate(turn).status == "pass"


def test_several_turns_refuse_a_file_output(tmp_path: Path) -> None:
    data = sse([*ANTHROPIC, *ANTHROPIC])
    result = run(tmp_path, data, "-o", tmp_path / "out.json")
    assert result.exit_code == 64
    assert "2 assistant turns" in result.stderr
    assert not (tmp_path / "out.json").exists()


def test_single_turn_into_a_folder(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    assert run(tmp_path, jsonl(CHAT), "-o", tmp_path / "dir", name="c.chunks.txt").exit_code == 0
    assert [p.name for p in (tmp_path / "dir").iterdir()] == ["c.json"]


# -- profile detection ------------------------------------------------------------------


def _profile(tmp_path: Path, data: bytes, *args: str | Path) -> tuple[str, str, Result]:
    out = tmp_path / "out.json"
    result = run(tmp_path, data, *args, "-o", out)
    assert result.exit_code == 0, result.output
    meta = load(out)["meta"]
    return meta["profile"], meta.get("profile_reason", ""), result


@pytest.mark.parametrize(
    ("events", "profile"),
    [(ANTHROPIC, "anthropic"), (RESPONSES, "openai-responses"), (BEDROCK, "bedrock")],
)
def test_detects_event_families(tmp_path: Path, events: list[Any], profile: str) -> None:
    found, reason, result = _profile(tmp_path, jsonl(events))
    assert found == profile
    assert f"profile {profile} (detected:" in result.stderr
    assert reason


def test_chat_chunks_default_to_openai_and_say_why(tmp_path: Path) -> None:
    found, reason, result = _profile(tmp_path, jsonl(CHAT))
    assert found == "openai"
    assert "chose openai" in reason and "--profile mistral" in reason
    assert "chose openai" in result.stderr


def test_index_less_call_means_mistral(tmp_path: Path) -> None:
    whole = chunk(call(id="a1", name="weather", args='{"city":"A"}', omit_index=True))
    found, reason, _ = _profile(tmp_path, jsonl([whole, chunk(finish="tool_calls")]))
    assert found == "mistral"
    assert "without 'index'" in reason


def test_mistral_model_means_mistral(tmp_path: Path) -> None:
    chunks = [{"model": "mistral-large-latest", **c} for c in weather_call()]
    assert _profile(tmp_path, jsonl(chunks))[0] == "mistral"
    chunks = [{"model": "mistralai/mistral-large", **c} for c in weather_call()]
    assert _profile(tmp_path, jsonl(chunks))[0] == "openai"  # a router's name, OpenAI shape


def test_tool_choice_any_means_mistral(tmp_path: Path) -> None:
    request = write_json(tmp_path / "req.json", {"tool_choice": "any", "messages": []})
    assert _profile(tmp_path, jsonl(CHAT), "--request", str(request))[0] == "mistral"


def test_mixed_families_are_refused(tmp_path: Path) -> None:
    result = run(tmp_path, jsonl([*ANTHROPIC, *CHAT]), "-o", tmp_path / "o.json", name="m.jsonl")
    assert result.exit_code == 64
    assert "anthropic (first at line 1)" in result.stderr
    assert "openai/mistral" in result.stderr and "--profile" in result.stderr


def test_unknown_shapes_are_refused(tmp_path: Path) -> None:
    result = run(
        tmp_path, jsonl([{"foo": 1}, {"bar": 2}]), "-o", tmp_path / "o.json", name="u.jsonl"
    )
    assert result.exit_code == 64
    assert "pass --profile" in result.stderr


def test_given_profile_wins_and_a_disagreement_is_a_warning(tmp_path: Path) -> None:
    found, reason, result = _profile(tmp_path, jsonl(ANTHROPIC), "--profile", "openai")
    assert (found, reason) == ("openai", "")
    assert "looks like anthropic" in result.stderr
    _, _, quiet = _profile(tmp_path, jsonl(CHAT), "--profile", "mistral")
    assert "looks like" not in quiet.stderr


# -- schemas and request ------------------------------------------------------------------

SHAPES = {
    "openai-chat": [{"type": "function", "function": {"name": "weather", "parameters": WEATHER}}],
    "responses": [{"type": "function", "name": "weather", "parameters": WEATHER, "strict": True}],
    "anthropic": [{"name": "weather", "description": "x", "input_schema": WEATHER}],
    "bedrock": {"tools": [{"toolSpec": {"name": "weather", "inputSchema": {"json": WEATHER}}}]},
    "request-body": {
        "model": "m",
        "messages": [],
        "tools": [{"name": "weather", "input_schema": WEATHER}],
    },
    "bedrock-request": {
        "modelId": "m",
        "toolConfig": {
            "tools": [{"toolSpec": {"name": "weather", "inputSchema": {"json": WEATHER}}}]
        },
    },
    "map": {"weather": WEATHER},
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_schema_shapes(shape: str) -> None:
    assert tool_schemas(SHAPES[shape]).schemas == {"weather": WEATHER}


def test_provider_tools_are_skipped_and_named() -> None:
    read = tool_schemas(
        [
            {"type": "web_search_20250305", "name": "web_search"},
            {"name": "weather", "input_schema": WEATHER},
        ]
    )
    assert read.schemas == {"weather": WEATHER}
    assert "web_search" in read.notes[0]
    bedrock = tool_schemas(
        {"tools": [{"cachePoint": {"type": "default"}}, {"systemTool": {"name": "nova_grounding"}}]}
    )
    assert bedrock.schemas == {} and len(bedrock.notes) == 2


def test_function_without_parameters_takes_none() -> None:
    read = tool_schemas([{"type": "function", "function": {"name": "now"}}])
    assert read.schemas == {
        "now": {"type": "object", "properties": {}, "additionalProperties": False}
    }


@pytest.mark.parametrize(
    "document",
    [
        "tools",
        [
            {"type": "function", "function": {"name": "a"}},
            {"type": "function", "function": {"name": "a"}},
        ],
        [{"name": "x"}],
        {"model": "gpt-4o"},
        [{"type": "function", "function": {"name": ""}}],
    ],
    ids=["string", "twice", "unknown-entry", "no-tools", "empty-name"],
)
def test_bad_schema_documents(document: Any) -> None:
    with pytest.raises(InputError):
        tool_schemas(document)


def test_bad_schemas_file_is_misuse(tmp_path: Path) -> None:
    bad = tmp_path / "s.json"
    bad.write_text('{"weather": {}, "weather": {}}', encoding="utf-8")
    result = run(tmp_path, jsonl(CHAT), "--schemas", bad, "-o", tmp_path / "o.json")
    assert result.exit_code == 64
    assert "repeats the key" in result.stderr
    missing = run(
        tmp_path, jsonl(CHAT), "--schemas", tmp_path / "nope.json", "-o", tmp_path / "o.json"
    )
    assert missing.exit_code == 64


def test_without_schemas_the_fixture_says_so(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = run(tmp_path, jsonl(CHAT), "-o", out)
    assert "unknown_tool" in result.stderr
    assert load(out)["tool_schemas"] == {}
    assert toolstream.validate_bytes(out.read_bytes()).codes == ["unknown_tool"]


def test_request_keeps_tool_choice_only() -> None:
    body = {"model": "m", "messages": [{"role": "user"}], "tool_choice": "required", "tools": []}
    assert request_fields(body) == {"tool_choice": "required"}
    bedrock = {"toolConfig": {"tools": [], "toolChoice": {"any": {}}}}
    assert request_fields(bedrock) == {"toolConfig": {"toolChoice": {"any": {}}}}
    assert request_fields({"model": "m"}) == {}


def test_request_reaches_the_verdict(tmp_path: Path) -> None:
    stop = [{"id": "c", **c} for c in weather_call(finish="stop")]
    out = tmp_path / "out.json"
    request = write_json(tmp_path / "req.json", {"tool_choice": "required", "model": "m"})
    args = ("--schemas", schemas_file(tmp_path), "--request", request, "-o", out)
    assert run(tmp_path, jsonl(stop), *args).exit_code == 0
    assert load(out)["request"] == {"tool_choice": "required"}
    assert toolstream.validate_bytes(out.read_bytes()).status == "pass"


# -- the redaction gate -------------------------------------------------------------------

KEY = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1w"


def test_planted_credential_is_refused_naming_where(tmp_path: Path) -> None:
    events = [*ANTHROPIC]
    events.insert(1, {"type": "ping", "note": f"debug key {KEY}"})
    out = tmp_path / "out.json"
    result = run(tmp_path, sse(events), "-o", out)
    assert result.exit_code == 1
    assert "/events/1/note" in result.stderr
    assert "openai-key" in result.stderr
    assert "sk-p…" in result.stderr
    assert KEY not in result.output and KEY[:6] not in result.stderr.replace("sk-p…", "")
    assert not out.exists()


def test_secret_split_across_argument_fragments_is_found(tmp_path: Path) -> None:
    parts = ('{"city": "Paris", "api_key": "', KEY[:10], KEY[10:], '"}')
    events = anthropic_turn([tool_start(0), *(json_delta(0, p) for p in parts), *tool_block()[-1:]])
    assert not any(KEY in json.dumps(e) for e in events)  # no single string holds it
    result = run(tmp_path, sse(events), "-o", tmp_path / "out.json")
    assert result.exit_code == 1
    assert "/events/3/delta/partial_json (+1 more fragment(s))" in result.stderr


def test_redact_replaces_and_records(tmp_path: Path) -> None:
    parts = ('{"city": "Paris", "note": "token ', KEY[:12], KEY[12:] + '"}')
    events = anthropic_turn([tool_start(0), *(json_delta(0, p) for p in parts), *tool_block()[-1:]])
    # A key outside the call too, in a member the profile knows and ignores
    # (a ping's own members are closed: only type).
    events[0]["message"]["model"] = KEY
    out = tmp_path / "out.json"
    schemas = schemas_file(tmp_path, {"weather": {"type": "object"}})
    result = run(tmp_path, sse(events), "--schemas", schemas, "--redact", "-o", out)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="ascii")
    assert KEY not in text and KEY[:12] not in text
    fixture = load(out)
    assert fixture["meta"]["redactions"] == [
        {"path": "/events/0/message/model", "kind": "openai-key"},
        {
            "path": "/events/3/delta/partial_json",
            "kind": "openai-key",
            "also_in": ["/events/4/delta/partial_json"],
        },
    ]
    report = toolstream.validate_bytes(out.read_bytes())
    assert report.status == "pass", report.to_json()
    assert report.client_calls()[0].input == {
        "city": "Paris",
        "note": "token [REDACTED:openai-key]",
    }


def test_redacted_responses_restatements_still_match(tmp_path: Path) -> None:
    parts = ('{"city": "Paris", "password": "hun', 'ter2 is it"}')
    events = responses_turn(responses_call(parts=parts))
    out = tmp_path / "out.json"
    schemas = schemas_file(tmp_path, {"weather": {"type": "object"}})
    assert run(tmp_path, jsonl(events), "--schemas", schemas, "-o", out).exit_code == 1
    assert run(tmp_path, jsonl(events), "--schemas", schemas, "--redact", "-o", out).exit_code == 0
    report = toolstream.validate_bytes(out.read_bytes())
    assert report.status == "pass", report.to_json()
    assert report.client_calls()[0].input["password"] == "[REDACTED:password] is it"
    assert len(load(out)["meta"]["redactions"]) == 3  # the deltas, arguments.done, item done


def test_redaction_of_chat_bedrock_and_responses_fragments() -> None:
    half = len(KEY) // 2
    cases = {
        "openai": [
            chunk(call(0, "call_1", "weather", '{"k": "' + KEY[:half])),
            chunk(call(0, args=KEY[half:] + '"}')),
            chunk(finish="tool_calls"),
        ],
        "bedrock": bedrock_turn(
            [
                br_start(0),
                br_delta(0, '{"k": "' + KEY[:half]),
                br_delta(0, KEY[half:] + '"}'),
                br_stop(0),
            ]
        ),
        "openai-responses": responses_turn(
            [
                fc_added(),
                fc_delta("fc_1", '{"k": "' + KEY[:half]),
                fc_delta("fc_1", KEY[half:] + '"}'),
                fc_args_done("fc_1", '{"k": "' + KEY + '"}'),
                fc_item_done(arguments='{"k": "' + KEY + '"}'),
            ]
        ),
    }
    for profile, items in cases.items():
        data = jsonl(items)
        found = import_capture(data, source_name="x", profile=profile, tool_schemas={})
        assert found.secrets, profile
        clean = import_capture(data, source_name="x", profile=profile, tool_schemas={}, redact=True)
        fixture = clean.turns[0].fixture
        assert KEY[:half] not in json.dumps(fixture) and KEY[half:] not in json.dumps(fixture)
        report = toolstream.validate(fixture)
        assert report.client_calls()[0].arguments == '{"k": "[REDACTED:openai-key]"}', profile


def test_nothing_is_written_when_any_turn_holds_a_secret(tmp_path: Path) -> None:
    second = anthropic_turn(tool_block(0, "toolu_2"))
    second.insert(1, {"type": "ping", "k": KEY})
    result = run(tmp_path, sse([*ANTHROPIC, *second]), "-o", tmp_path / "out")
    assert result.exit_code == 1
    assert not (tmp_path / "out").exists()


# -- provenance, determinism, writing ----------------------------------------------------


def test_meta_records_provenance(tmp_path: Path) -> None:
    data = sse(ANTHROPIC)
    out = tmp_path / "out.json"
    assert (
        run(
            tmp_path, data, "--schemas", schemas_file(tmp_path), "-o", out, name="cap.sse"
        ).exit_code
        == 0
    )
    meta = load(out)["meta"]
    import hashlib

    assert meta["source"] == "cap.sse"
    assert meta["source_sha256"] == hashlib.sha256(data).hexdigest()
    assert meta["format"] == "sse"
    assert meta["profile"] == "anthropic"
    assert meta["profile_chosen_by"] == "detection"
    assert meta["toolstream_version"] == toolstream.__version__
    assert meta["tool_schemas_from"]["shape"] == "name -> schema map"
    assert list(load(out)) == ["profile", "tool_schemas", "meta", "events"]


def test_output_is_deterministic_and_canonical(tmp_path: Path) -> None:
    data = jsonl(RESPONSES)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run(tmp_path, data, "-o", a).exit_code == 0
    assert run(tmp_path, data, "-o", b).exit_code == 0
    assert a.read_bytes() == b.read_bytes()
    fixture = json.loads(a.read_bytes())
    assert a.read_text(encoding="ascii") == json.dumps(fixture, ensure_ascii=True, indent=2) + "\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_unicode_and_lone_surrogates_survive(tmp_path: Path) -> None:
    text = '{"city": "S\\u00e3o Paulo \\ud800 日本 😀"}'
    chunks = [chunk(call(0, "call_1", "weather", text)), chunk(finish="tool_calls")]
    out = tmp_path / "out.json"
    assert run(tmp_path, jsonl(chunks), "-o", out).exit_code == 0
    report = toolstream.validate_bytes(out.read_bytes())
    assert report.client_calls()[0].arguments == text
    assert report.codes == ["invalid_unicode"]


def test_quiet_prints_nothing(tmp_path: Path) -> None:
    result = run(tmp_path, jsonl(CHAT), "-q", "-o", tmp_path / "o.json")
    assert result.exit_code == 0
    assert result.output == ""


def test_summary_shows_the_verdict(tmp_path: Path) -> None:
    truncated = [message for message in ANTHROPIC if message.get("type") != "content_block_stop"]
    result = run(
        tmp_path, sse(truncated), "--schemas", schemas_file(tmp_path), "-o", tmp_path / "o.json"
    )
    assert result.exit_code == 0
    assert "blocked" in result.stderr and "missing_terminal" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["import"],
        ["import", "x.sse"],
        ["import", "/nonexistent/x.sse", "-o", "o.json"],
        ["import", "x.sse", "-o", "o.json", "--profile", "bogus"],
        ["import", "x.sse", "-o", "o.json", "--bogus"],
    ],
    ids=["no-args", "no-output", "unreadable", "bad-profile", "unknown-option"],
)
def test_misuse_exits_64(args: list[str]) -> None:
    result = CliRunner(env=ENV).invoke(cli, args)
    assert result.exit_code == 64, result.output


def test_unwritable_output_is_misuse(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run(tmp_path, jsonl(CHAT), "-o", blocker / "sub" / "o.json")
    assert result.exit_code == 64
    assert "cannot write" in result.stderr


def test_seeds_survive_a_trip_through_their_wire_format(tmp_path: Path) -> None:
    seeds = {
        p.stem: json.loads(p.read_text("utf-8")) for p in (ROOT / "corpus" / "seeds").glob("*.json")
    }
    for stem, seed in sorted(seeds.items()):
        stream_key = "events" if "events" in seed else "chunks"
        items = seed[stream_key]
        if seed["profile"] == "bedrock":
            data, name = eventstream(items), f"{stem}.bin"
        else:
            data, name = (
                sse(items, named=seed["profile"] != "openai", done=stream_key == "chunks"),
                f"{stem}.sse",
            )
        schemas = write_json(tmp_path / f"{stem}.schemas.json", seed["tool_schemas"])
        out = tmp_path / f"{stem}.json"
        result = run(tmp_path, data, "--schemas", schemas, "-o", out, name=name)
        assert result.exit_code == 0, (stem, result.output)
        fixture = load(out)
        assert fixture[stream_key] == items, stem
        request = seed.get("request")
        fixture.pop("meta")
        if request:
            fixture["request"] = request
        report = toolstream.validate(fixture)
        assert report.status == "pass", (stem, report.to_json())


# -- no tracebacks, whatever the bytes ------------------------------------------------------


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.one_of(
        st.binary(max_size=300),
        st.lists(
            st.sampled_from([*sse(ANTHROPIC).split(b"\n"), b"data: [DONE]", b"\xff", b"{"]),
            max_size=30,
        ).map(b"\n".join),
        st.binary(max_size=200).map(lambda tail: eventstream(BEDROCK[:2]) + tail),
    )
)
def test_any_bytes_give_a_status_never_a_traceback(tmp_path: Path, data: bytes) -> None:
    out = tmp_path / "fuzz" / "o"
    result = run(tmp_path, data, "-o", out)
    assert result.exit_code in (0, 1, 64, 65), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output


def test_text_only_stream_imports_as_not_applicable(tmp_path: Path) -> None:
    out = tmp_path / "o.json"
    chunks = [text_chunk("Hello"), text_chunk(" there", finish="stop")]
    assert run(tmp_path, jsonl(chunks), "-o", out).exit_code == 0
    assert toolstream.validate_bytes(out.read_bytes()).status == "not_applicable"


def test_no_temporary_file_is_left_when_writing_fails(tmp_path: Path, monkeypatch: Any) -> None:
    def boom(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)  # the os module core writes with
    result = run(tmp_path, jsonl(CHAT), "-o", tmp_path / "o.json")
    assert result.exit_code == 64
    assert "No space left" in result.stderr
    assert sorted(os.listdir(tmp_path)) == ["capture.sse"]
