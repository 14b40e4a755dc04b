"""Hostile inputs with a documented, bounded outcome (``docs/hardening.md``).

Each input here ends in a finding (usually ``limit_exceeded``), never in a
traceback, a hang or an executable call.  Wall time is not asserted, but
every case is built cheaply and runs in well under a second or two.  The
limits involved (argument size, nesting depth, slots and events per turn)
are also exercised through ``Limits().replace(...)``, ``toolstream validate
--limit`` and ``python3 -S -m toolstream.reference --limit``.
"""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.builders import (
    SCHEMAS,
    anthropic,
    block_stop,
    call,
    chunk,
    json_delta,
    message_delta,
    message_start,
    message_stop,
    openai,
    tool_block,
    tool_start,
    weather_call,
)
from toolstream import DEFAULT_LIMITS, Gate, Limits, Report, validate, validate_bytes
from toolstream.cli import cli

ROOT = Path(__file__).resolve().parents[2]
DEEP = 100_000
MIB = 1024 * 1024


def findings(report: Report) -> list[tuple[str, int | None]]:
    return [(f.code.value, f.slot) for f in report.findings]


def one_call(arguments: str, *, schemas: Any = None, name: str = "weather") -> dict[str, Any]:
    """A complete, well-framed OpenAI call whose whole arguments are ``arguments``."""
    return openai(
        [chunk(call(0, "call_1", name, arguments, type_="function")), chunk(finish="tool_calls")],
        schemas=schemas,
    )


def one_block(arguments: str) -> dict[str, Any]:
    return anthropic(
        [message_start(), *tool_block(parts=(arguments,)), message_delta(), message_stop()]
    )


def blocked_for(report: Report, code: str, slot: int | None = 0) -> None:
    assert report.status == "blocked", report.to_json()
    assert not report.executable
    assert findings(report) == [(code, slot)], findings(report)
    json.loads(report.to_json())


# -- deep nesting ----------------------------------------------------------------------------

DEEP_ARGUMENTS = {
    "arrays": "[" * DEEP + "]" * DEEP,
    "objects": '{"a":' * DEEP + "1" + "}" * DEEP,
    "unclosed": "[" * DEEP,
    "mixed": '{"a":[' * (DEEP // 2) + "]}" * (DEEP // 2),
}


@pytest.mark.parametrize("shape", sorted(DEEP_ARGUMENTS))
def test_deep_arguments(shape: str) -> None:
    report = validate(one_call(DEEP_ARGUMENTS[shape]))
    blocked_for(report, "limit_exceeded")
    assert "nesting deeper than 128" in report.findings[0].message


def test_deep_arguments_anthropic() -> None:
    blocked_for(validate(one_block(DEEP_ARGUMENTS["objects"])), "limit_exceeded")


def test_deep_arguments_in_many_fragments() -> None:
    chunks = [chunk(call(0, "call_1", "weather", ""))]
    chunks += [chunk(call(0, args="[" * 1000)) for _ in range(DEEP // 1000)]
    chunks += [chunk(call(0, args="]" * 1000)) for _ in range(DEEP // 1000)]
    chunks.append(chunk(finish="tool_calls"))
    blocked_for(validate(openai(chunks)), "limit_exceeded")


FIXTURE = json.dumps(openai(weather_call()))
DEEP_FILES = {
    "in meta": FIXTURE[:-1] + ', "meta": {"x": ' + "[" * DEEP + "]" * DEEP + "}}",
    "in a chunk": FIXTURE.replace('"chunks": [', '"chunks": [' + "[" * DEEP + "]" * DEEP + ", ", 1),
    "top level": "[" * DEEP + "]" * DEEP,
    "unclosed": '{"a":' * DEEP,
}


@pytest.mark.parametrize("where", sorted(DEEP_FILES))
def test_deep_fixture_file(where: str) -> None:
    report = validate_bytes(DEEP_FILES[where].encode())
    blocked_for(report, "limit_exceeded", None)
    assert report.profile is None
    assert report.findings[0].message.startswith("fixture file: nesting deeper than 256")


def test_deep_python_objects_given_to_validate() -> None:
    deep: Any = []
    for _ in range(DEEP):
        deep = [deep]
    # as a chunk: not an object, so unsupported, which blocks (closed world)
    report = validate(openai([deep]))
    assert report.status == "blocked"
    assert report.codes == ["unsupported_event"]
    # inside a schema: the schema checker bounds its own depth
    report = validate(
        one_call('{"city": "Paris"}', schemas={"weather": {"properties": {"city": deep}}})
    )
    blocked_for(report, "limit_exceeded")
    # in free-form meta: never looked at
    fixture = openai(weather_call())
    fixture["meta"] = {"deep": deep}
    assert validate(fixture).status == "pass"


# -- huge numbers ----------------------------------------------------------------------------

MILLION_DIGITS = "7" * 1_000_000


@pytest.mark.parametrize(
    "literal",
    [MILLION_DIGITS, "-" + MILLION_DIGITS, "0." + MILLION_DIGITS, "1e" + MILLION_DIGITS],
    ids=["integer", "negative", "fraction", "exponent"],
)
def test_million_digit_number_in_arguments(literal: str) -> None:
    report = validate(one_call('{"city": ' + literal + "}"))
    blocked_for(report, "limit_exceeded")
    assert "longer than 1000 characters" in report.findings[0].message


def test_million_digit_number_in_fixture_file() -> None:
    data = FIXTURE[:-1] + ', "meta": {"n": ' + MILLION_DIGITS + "}}"
    report = validate_bytes(data.encode())
    blocked_for(report, "limit_exceeded", None)
    assert report.findings[0].message.startswith("fixture file: number literal")


def test_number_overflowing_a_double() -> None:
    blocked_for(validate(one_call('{"city": 1e400}')), "limit_exceeded")


def test_huge_python_int_as_index() -> None:
    report = validate(openai([chunk(call(10**5000, "call_1", "weather", "{}"))]))
    blocked_for(report, "invalid_slot_index", None)
    assert "(huge)" in report.findings[0].message


# -- a 100 MB argument -----------------------------------------------------------------------

MEGA = "x" * MIB  # one string; the fragments below all refer to it


def _big_chunks(pieces: int = 100) -> list[dict[str, Any]]:
    return [
        chunk(call(0, "call_1", "weather", '{"city": "')),
        *(chunk(call(0, args=MEGA)) for _ in range(pieces)),
        chunk(call(0, args='"}')),
        chunk(finish="tool_calls"),
    ]


def test_100_mb_argument_openai() -> None:
    report = validate(openai(_big_chunks()))
    blocked_for(report, "limit_exceeded")
    assert report.findings[0].message == "arguments exceed 4000000 characters"
    assert report.findings[0].event == 4  # the fragment that crossed the limit
    assert len(report.calls[0].arguments) <= DEFAULT_LIMITS.max_argument_chars


def test_100_mb_argument_anthropic() -> None:
    events = [message_start(), tool_start(0), json_delta(0, '{"city": "')]
    events += [json_delta(0, MEGA) for _ in range(100)]
    events += [json_delta(0, '"}'), block_stop(0), message_delta(), message_stop()]
    blocked_for(validate(anthropic(events)), "limit_exceeded")


def test_100_mb_argument_in_one_fragment() -> None:
    text = '{"city": "' + "y" * (100 * MIB) + '"}'
    blocked_for(validate(one_call(text)), "limit_exceeded")


def test_gate_does_not_keep_100_mb_of_fragments() -> None:
    """Distinct 1 MiB fragments, made one at a time: once the limit is
    exceeded the slot is blocked and later fragments are dropped, so the gate
    holds at most the limit's worth of text."""

    def stream() -> Iterator[dict[str, Any]]:
        yield chunk(call(0, "call_1", "weather", '{"city": "'))
        for n in range(100):
            yield chunk(call(0, args=str(n % 10) * MIB))  # a new string each time
        yield chunk(call(0, args='"}'))
        yield chunk(finish="tool_calls")

    gate = Gate("openai", SCHEMAS)
    gc.collect()
    tracemalloc.start()
    try:
        for item in stream():
            gate.feed(item)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 8 * MIB, f"the gate holds {held / MIB:.0f} MiB"
    assert peak < 12 * MIB, f"peak {peak / MIB:.0f} MiB"
    report = gate.close()
    blocked_for(report, "limit_exceeded")


# -- many slots, huge indices ----------------------------------------------------------------


def test_100k_parallel_slots_in_one_chunk() -> None:
    calls = [
        {"index": i, "id": f"c{i}", "function": {"name": "weather", "arguments": "{}"}}
        for i in range(100_000)
    ]
    report = validate(openai([chunk(*calls), chunk(finish="tool_calls")]))
    blocked_for(report, "limit_exceeded", None)
    assert report.findings[0].message == "more than 4096 slots in one turn"
    assert len(report.calls) == 4096


def test_100k_parallel_slots_in_100k_chunks() -> None:
    chunks = [
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {
                                "index": i,
                                "id": f"c{i}",
                                "function": {"name": "weather", "arguments": "{}"},
                            }
                        ]
                    },
                }
            ]
        }
        for i in range(100_000)
    ]
    report = validate(openai([*chunks, chunk(finish="tool_calls")]))
    blocked_for(report, "limit_exceeded", None)
    assert report.findings[0].event == 4096  # fatal: nothing after it is interpreted


def test_100k_content_blocks_anthropic() -> None:
    events = [message_start()]
    for i in range(100_000):
        events.append(
            {
                "type": "content_block_start",
                "index": i,
                "content_block": {"type": "text", "text": ""},
            }
        )
        events.append({"type": "content_block_stop", "index": i})
    events += [message_delta("end_turn"), message_stop()]
    report = validate(anthropic(events))
    blocked_for(report, "limit_exceeded", None)


@pytest.mark.parametrize(
    "fixture",
    [
        openai([chunk(call(2**63, "call_1", "weather", "{}")), chunk(finish="tool_calls")]),
        openai([chunk(call(0, "call_1", "weather", "{}"), choice=2**63)]),
        anthropic(
            [message_start(), tool_start(2**63), block_stop(2**63), message_delta(), message_stop()]
        ),
        {
            "profile": "bedrock",
            "tool_schemas": SCHEMAS,
            "events": [
                {
                    "contentBlockStart": {
                        "contentBlockIndex": 2**63,
                        "start": {"toolUse": {"toolUseId": "t", "name": "weather"}},
                    }
                }
            ],
        },
        {
            "profile": "openai-responses",
            "tool_schemas": SCHEMAS,
            "events": [
                {
                    "type": "response.output_item.added",
                    "output_index": 2**63,
                    "item": {
                        "type": "function_call",
                        "id": "fc",
                        "call_id": "c",
                        "name": "weather",
                    },
                }
            ],
        },
    ],
    ids=["openai-call", "openai-choice", "anthropic", "bedrock", "openai-responses"],
)
def test_index_2_pow_63(fixture: dict[str, Any]) -> None:
    report = validate(fixture)
    blocked_for(report, "invalid_slot_index", None)
    assert "9223372036854775808 is beyond the limit 1000000" in report.findings[0].message
    # and the same from a file: JSON integers are unbounded
    assert validate_bytes(json.dumps(fixture).encode()).to_json() == report.to_json()


@pytest.mark.parametrize("index", [-1, 1.0, True, "0", None, [0], 2**63 - 1, 1_000_001])
def test_unattributable_indices(index: Any) -> None:
    report = validate(
        openai([chunk(call(index, "call_1", "weather", "{}")), chunk(finish="tool_calls")])
    )
    blocked_for(report, "invalid_slot_index", None)


# -- schemas: $ref cycles, catastrophic patterns ---------------------------------------------

PATTERN_SCHEMA = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#"},
        {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
        {"anyOf": [{"$ref": "#"}, {"type": "object"}]},
        {"type": "object", "properties": {"a": {"$ref": "#/properties/a"}}},
    ],
    ids=["self", "two", "through-anyOf", "in-properties"],
)
def test_ref_cycle(schema: Any) -> None:
    report = validate(one_call('{"a": 1}', schemas={"weather": schema}))
    blocked_for(report, "invalid_schema")
    assert "cycle that never moves into the instance" in report.findings[0].message


def test_recursive_ref_that_descends_is_fine() -> None:
    node = {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}
    schema = {"$defs": {"node": node}, "$ref": "#/$defs/node"}
    arguments = '{"next":' * 100 + "{}" + "}" * 100
    assert validate(one_call(arguments, schemas={"weather": schema})).status == "pass"
    deeper = '{"next":' * 200 + "{}" + "}" * 200  # nests past max_depth=128 first
    blocked_for(validate(one_call(deeper, schemas={"weather": schema})), "limit_exceeded")


def test_python_cycle_in_schema_object() -> None:
    schema: dict[str, Any] = {"type": "object"}
    schema["properties"] = {"x": schema}
    report = validate(one_call('{"x": {}}', schemas={"weather": schema}))
    blocked_for(report, "limit_exceeded")


def test_catastrophic_pattern_on_a_long_argument_does_not_match() -> None:
    """``^(a+)+$`` backtracks exponentially in ``re``; the schema module runs
    its own linear-time automaton: a million characters take well under a
    second, and the verdict is exact."""
    arguments = json.dumps({"s": "a" * 1_000_000 + "b"})
    report = validate(one_call(arguments, schemas={"weather": PATTERN_SCHEMA}))
    blocked_for(report, "schema_violation")
    assert report.findings[0].path == "/s"
    assert "does not match '^(a+)+$'" in report.findings[0].message


def test_catastrophic_pattern_on_a_long_matching_argument_passes() -> None:
    arguments = json.dumps({"s": "a" * 100_000})
    assert validate(one_call(arguments, schemas={"weather": PATTERN_SCHEMA})).status == "pass"


def test_pattern_whose_automaton_blows_up_fails_closed() -> None:
    """A pattern whose DFA has 2**21 states exhausts the search budget on a
    long random string: the string counts as *not* matching, even though it
    does (fail closed), and the finding says so."""
    rng = random.Random(1)
    text = "".join(rng.choice("ab") for _ in range(300_000))
    text = text[:-21] + "a" + text[-20:]
    schema = {
        "type": "object",
        "properties": {"s": {"type": "string", "pattern": "(a|b)*a[ab]{20}$"}},
    }
    report = validate(one_call(json.dumps({"s": text}), schemas={"weather": schema}))
    blocked_for(report, "schema_violation")
    assert "could not be checked" in report.findings[0].message


@pytest.mark.parametrize(
    ("pattern", "code"),
    [
        ("(a)\\1", "unsupported_schema_keyword"),
        ("(?=a)a", "unsupported_schema_keyword"),
        ("(a{1000}){1000}", "unsupported_schema_keyword"),
        ("a" * 1001, "unsupported_schema_keyword"),
        ("(a", "invalid_schema"),
    ],
    ids=["backreference", "lookahead", "too-many-states", "too-long", "syntax"],
)
def test_refused_patterns(pattern: str, code: str) -> None:
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}
    blocked_for(validate(one_call('{"s": "aa"}', schemas={"weather": schema})), code)


def test_schema_with_too_many_nodes() -> None:
    schema = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(20_000)}}
    report = validate(one_call('{"p1": "x"}', schemas={"weather": schema}))
    blocked_for(report, "limit_exceeded")
    assert "more than 10000 nodes" in report.findings[0].message


# -- files: empty, directory, garbage, UTF-16, not UTF-8 -------------------------------------


def _cut_euro() -> bytes:
    """A three-byte UTF-8 sequence with its last two bytes removed."""
    data = FIXTURE.replace("Paris", "Pa\u20acris").encode()
    at = data.index("\u20ac".encode())
    return data[: at + 1] + data[at + 3 :]


BAD_FILES: dict[str, tuple[bytes, str]] = {
    "empty": (b"", "malformed JSON at offset 0: empty input"),
    "whitespace": (b" \n\t", "malformed JSON at offset"),
    "binary": (bytes(random.Random(0).randrange(256) for _ in range(4096)), "not valid UTF-8"),
    "nul bytes": (b"\x00" * 64, "not strict JSON"),
    "utf-16 bom": (FIXTURE.encode("utf-16"), "UTF-16 (byte-order mark found)"),
    "utf-16-be bom": (b"\xfe\xff" + FIXTURE.encode("utf-16-be"), "UTF-16 (byte-order mark found)"),
    "utf-16 no bom": (FIXTURE.encode("utf-16-le"), "not strict JSON"),
    "utf-8 bom": (b"\xef\xbb\xbf" + FIXTURE.encode(), "UTF-8 byte-order mark"),
    "not utf-8": (
        FIXTURE.replace("Paris", "Par\udcffis").encode("utf-8", "surrogateescape"),
        "not valid UTF-8",
    ),
    "latin-1": (FIXTURE.replace("Paris", "Pärïs").encode("latin-1"), "not valid UTF-8"),
    "cut utf-8 sequence": (_cut_euro(), "not valid UTF-8"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_validate_bytes(name: str) -> None:
    data, message = BAD_FILES[name]
    report = validate_bytes(data)
    blocked_for(report, "invalid_envelope", None)
    assert message in report.findings[0].message


@pytest.fixture
def bad_file(tmp_path: Path, request: pytest.FixtureRequest) -> tuple[Path, str]:
    data, message = BAD_FILES[request.param]
    path = tmp_path / "fixture.json"
    path.write_bytes(data)
    return path, message


@pytest.mark.parametrize("bad_file", sorted(BAD_FILES), indirect=True)
def test_bad_file_cli(bad_file: tuple[Path, str]) -> None:
    path, message = bad_file
    result = CliRunner().invoke(cli, ["validate", str(path), "--report", "json"])
    # The command's exit-status table: unreadable input is 65 (the report is still
    # printed); the standard-library runner keeps the design's 1 (below).
    assert result.exit_code == 65, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    report = json.loads(result.output)
    assert [f["code"] for f in report["findings"]] == ["invalid_envelope"]
    assert message in report["findings"][0]["message"]


def reference(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python3 -S -m toolstream.reference`` (no site-packages: stdlib only)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, "-S", "-m", "toolstream.reference", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=60,
        env=env,
        check=False,
    )


def test_bad_files_reference(tmp_path: Path) -> None:
    for name in ("empty", "binary", "utf-16 bom", "not utf-8", "cut utf-8 sequence"):
        data, message = BAD_FILES[name]
        path = tmp_path / f"{name}.json"
        path.write_bytes(data)
        done = reference(str(path), "--report", "json")
        assert done.returncode == 1, (name, done.stderr)
        assert done.stderr == b"", (name, done.stderr)
        report = json.loads(done.stdout)
        assert [f["code"] for f in report["findings"]] == ["invalid_envelope"], name
        assert message in report["findings"][0]["message"], name


def test_directory_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", str(tmp_path)])
    assert result.exit_code == 64
    assert "cannot read" in result.output
    assert "Traceback" not in result.output
    done = reference(str(tmp_path))
    assert done.returncode == 64
    assert b"cannot read" in done.stderr
    assert b"Traceback" not in done.stderr
    assert done.stdout == b""


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    assert CliRunner().invoke(cli, ["validate", str(tmp_path / "nope.json")]).exit_code == 64
    assert reference(str(tmp_path / "nope.json")).returncode == 64


def test_garbage_on_stdin() -> None:
    done = reference("-", "--report", "json", stdin=b"\xff\xfe\x00garbage")
    assert done.returncode == 1
    assert json.loads(done.stdout)["findings"][0]["code"] == "invalid_envelope"


def test_deep_file_through_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP_FILES["top level"])
    result = CliRunner().invoke(cli, ["validate", str(path), "--report", "json"])
    assert result.exit_code == 1
    assert json.loads(result.output)["findings"][0]["code"] == "limit_exceeded"
    done = reference(str(path), "--report", "json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["findings"][0]["code"] == "limit_exceeded"


def test_fixture_larger_than_max_fixture_bytes(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(FIXTURE)
    result = CliRunner().invoke(
        cli, ["validate", str(path), "--report", "json", "--limit", "max_fixture_bytes=100"]
    )
    assert result.exit_code == 1
    finding = json.loads(result.output)["findings"][0]
    assert finding["code"] == "limit_exceeded"
    assert finding["message"] == "fixture is larger than 100 bytes"


# -- the four turn limits: API, CLI and reference --------------------------------------------


def _deep_call(depth: int) -> dict[str, Any]:
    return one_call('{"x": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}", name="clock")


def _slots(count: int) -> dict[str, Any]:
    calls = [chunk(call(i, f"call_{i}", "weather", '{"city": "Paris"}')) for i in range(count)]
    return openai([*calls, chunk(finish="tool_calls")])


def _events(count: int) -> dict[str, Any]:
    parts = ['{"city": "Paris"}'[i : i + 1] for i in range(17)]
    chunks = [chunk(call(0, "call_1", "weather", ""))]
    chunks += [chunk(call(0, args=p)) for p in parts]
    chunks += [chunk() for _ in range(count - len(chunks) - 1)]
    chunks.append(chunk(finish="tool_calls"))
    assert len(chunks) == count
    return openai(chunks)


# name -> (fixture exactly at the limit N, fixture just over it, N, the finding's message)
LIMIT_CASES: dict[str, tuple[dict[str, Any], dict[str, Any], int, str]] = {
    "max_argument_chars": (
        one_call('{"city": "' + "p" * 90 + '"}'),
        one_call('{"city": "' + "p" * 91 + '"}'),
        102,
        "arguments exceed 102 characters",
    ),
    "max_depth": (_deep_call(5), _deep_call(6), 5, "nesting deeper than 5 levels"),
    "max_slots": (_slots(7), _slots(8), 7, "more than 7 slots in one turn"),
    "max_events": (_events(30), _events(31), 30, "more than 30 events in one turn"),
}


@pytest.mark.parametrize("name", sorted(LIMIT_CASES))
def test_limit_api(name: str) -> None:
    at, over, n, message = LIMIT_CASES[name]
    limits = Limits().replace(**{name: n})
    assert validate(at).status == "pass"
    assert validate(over).status == "pass"  # the default is far above
    assert validate(at, limits=limits).status == "pass"
    report = validate(over, limits=limits)
    assert report.status == "blocked"
    assert report.codes == ["limit_exceeded"]
    assert message in report.findings[0].message
    # the gate takes the same limits
    gate = Gate("openai", SCHEMAS, limits=limits)
    gate.feed_all(over["chunks"])
    assert gate.close().to_json() == report.to_json()


@pytest.mark.parametrize("name", sorted(LIMIT_CASES))
def test_limit_cli(name: str, tmp_path: Path) -> None:
    at, over, n, message = LIMIT_CASES[name]
    for fixture, status in ((at, 0), (over, 1)):
        path = tmp_path / "f.json"
        path.write_text(json.dumps(fixture))
        for spelling in (f"{name}={n}", f"{name.replace('_', '-')}={n}"):
            result = CliRunner().invoke(
                cli, ["validate", str(path), "--report", "json", "--limit", spelling]
            )
            assert result.exit_code == status, result.output
            if status:
                finding = json.loads(result.output)["findings"][0]
                assert finding["code"] == "limit_exceeded"
                assert message in finding["message"]


def test_limit_reference(tmp_path: Path) -> None:
    args: list[str] = []
    for name, (_, over, n, _msg) in LIMIT_CASES.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(over))
        args = [str(path), "--report", "json", "--limit", f"{name}={n}"]
        done = reference(*args)
        assert done.returncode == 1, (name, done.stderr)
        assert json.loads(done.stdout)["findings"][0]["code"] == "limit_exceeded", name
        assert reference(str(path)).returncode == 0, name


@pytest.mark.parametrize(
    "spelling", ["max_depth=-1", "max_depth=x", "nope=1", "max_depth", "max_depth=1.5", "=3"]
)
def test_bad_limit_option_is_a_usage_error(spelling: str, tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_text(FIXTURE)
    result = CliRunner().invoke(cli, ["validate", str(path), "--limit", spelling])
    assert result.exit_code == 64, result.output
    assert "Traceback" not in result.output
    done = reference(str(path), "--limit", spelling)
    assert done.returncode == 64
    assert done.stdout == b""
    assert b"Traceback" not in done.stderr


def test_limits_replace_rejects_bad_values() -> None:
    with pytest.raises(KeyError):
        Limits().replace(nope=1)
    for bad in (-1, 1.5, True, "3", None):
        with pytest.raises(ValueError):
            Limits().replace(max_depth=bad)
    assert Limits().replace(max_depth=0).max_depth == 0
    assert Limits() == DEFAULT_LIMITS


def test_documented_defaults() -> None:
    assert (
        DEFAULT_LIMITS.max_argument_chars,
        DEFAULT_LIMITS.max_depth,
        DEFAULT_LIMITS.max_slots,
        DEFAULT_LIMITS.max_events,
    ) == (4_000_000, 128, 4_096, 2_000_000)


# -- validator bugs found by these tests (fixed in toolstream/, kept as regressions) ---------
# Each was an exception escaping validate()/Gate for a JSON value handed over
# as a Python object (the file route bounds numbers and depth first, so it is
# not affected).

HUGE = 10**5000  # a JSON integer; repr() refuses ints past 4300 digits


@pytest.mark.parametrize(
    "fixture",
    [
        openai([{"choices": [{"index": 0, "finish_reason": HUGE}]}]),
        openai([chunk(call(0, HUGE, "weather", "{}"))]),
        openai([chunk(call(0, "call_1", "weather", HUGE))]),
        anthropic([message_start(), {"type": "message_delta", "delta": {"stop_reason": HUGE}}]),
        {
            "profile": "bedrock",
            "tool_schemas": SCHEMAS,
            "events": [{"messageStop": {"stopReason": HUGE}}],
        },
    ],
    ids=[
        "openai-finish_reason",
        "openai-id",
        "openai-arguments",
        "anthropic-stop_reason",
        "bedrock-stopReason",
    ],
)
def test_regression_huge_int_in_a_string_field(fixture: dict[str, Any]) -> None:
    report = validate(fixture)
    # An end reason alone is no tool activity: not applicable, but reported.
    assert report.status in {"blocked", "not_applicable"}
    assert report.findings
    assert not report.executable


def test_regression_huge_int_in_anthropic_start_input() -> None:
    events = [
        message_start(),
        tool_start(0, name="clock", input={"n": HUGE}),
        block_stop(0),
        message_delta(),
        message_stop(),
    ]
    report = validate(anthropic(events))
    assert report.codes == ["limit_exceeded"]


def test_regression_deep_anthropic_start_input() -> None:
    deep: Any = {}
    for _ in range(DEEP):
        deep = {"a": deep}
    events = [
        message_start(),
        tool_start(0, name="clock", input=deep),
        block_stop(0),
        message_delta(),
        message_stop(),
    ]
    report = validate(anthropic(events))
    assert report.codes == ["limit_exceeded"]
