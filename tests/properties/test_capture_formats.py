"""Wire-format readers (SSE, JSON Lines, JSON array, AWS event-stream) and the
redaction gate of :mod:`toolstream.capture`.

Inline fixtures are hand-written.  The real recorded streams are read from
``../shared/captures`` next to the repository root (never copied into the
repository); those tests are skipped when the folder is absent.
"""

from __future__ import annotations

import json
import struct
import uuid
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolstream.capture import (
    DONE,
    Capture,
    CaptureError,
    Record,
    detect_format,
    encode_event,
    encode_frame,
    read_capture,
)
from toolstream.capture.eventstream import decode_frames, read_eventstream
from toolstream.capture.jsonl import read_json_array, read_jsonl
from toolstream.capture.redact import Hit, preview, redact, scan
from toolstream.capture.sse import iter_lines, read_sse

CAPTURES = Path(__file__).resolve().parents[2].parent / "shared" / "captures"
needs_captures = pytest.mark.skipif(
    not CAPTURES.is_dir(),
    reason=f"real captures not available ({CAPTURES} is absent)",
)


def _capture_files() -> list[Path]:
    """The bare bodies: what ``read_capture`` reads.  Whole cassettes are
    containers around a body (request, headers, response), read by import."""
    if not CAPTURES.is_dir():
        return []
    return sorted(
        p
        for p in CAPTURES.rglob("*")
        if p.is_file() and p.name != "MANIFEST.md" and not p.name.endswith(".cassette.yaml")
    )


CASSETTE_FILES = sorted(CAPTURES.rglob("*.cassette.yaml")) if CAPTURES.is_dir() else []


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(CAPTURES)) for p in paths]


CAPTURE_FILES = _capture_files()


def _err(data: bytes, **kw: Any) -> str:
    with pytest.raises(CaptureError) as info:
        read_capture(data, **kw)
    return str(info.value)


# ---------------------------------------------------------------------------
# SSE

SSE_EVENTS = [
    "event: message_start",
    'data: {"type":"message_start","n":1}',
    "",
    ": keep-alive comment",
    "event: content_block_delta",
    'data: {"type":"content_block_delta",',
    'data:  "n":2}',
    "",
    'data: {"type":"no_event_name"}',
    "",
    "data: [DONE]",
    "",
]


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_sse_line_endings_give_identical_records(eol: str) -> None:
    cap = read_capture(eol.join(SSE_EVENTS).encode())
    assert cap.format == "sse"
    assert cap.warnings == ()
    assert [(r.kind, r.event, r.payload) for r in cap.records] == [
        ("json", "message_start", {"type": "message_start", "n": 1}),
        ("json", "content_block_delta", {"type": "content_block_delta", "n": 2}),
        ("json", None, {"type": "no_event_name"}),
        ("done", DONE, None),
    ]
    assert [r.location for r in cap.records] == ["line 2", "line 6", "line 9", "line 11"]
    assert cap.done_markers == 1
    assert len(cap.json_records) == 3
    assert all(r.headers is None for r in cap.records)


def test_iter_lines_splits_on_crlf_lf_and_cr_only() -> None:
    assert iter_lines("a\r\nb\rc\nd") == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]
    assert iter_lines("a\r\n") == [(1, "a")]
    assert iter_lines("a\r\r\n") == [(1, "a"), (2, "")]
    assert iter_lines("") == []


def test_sse_final_event_without_trailing_newline_is_dispatched() -> None:
    for tail in ("", "\n"):
        cap = read_capture(b'event: a\ndata: {"x":1}\n\nevent: b\ndata: {"x":2}' + tail.encode())
        assert [r.event for r in cap.records] == ["a", "b"]
        assert cap.records[-1].payload == {"x": 2}


def test_sse_done_without_trailing_blank_line() -> None:
    cap = read_capture(b'data: {"a":1}\n\ndata: [DONE]')
    assert [r.kind for r in cap.records] == ["json", "done"]
    assert cap.records[1].is_done_marker and cap.records[1].payload is None
    assert not cap.records[0].is_done_marker


def test_sse_multiline_data_is_joined_with_newline() -> None:
    # The newline between the two data lines lands inside the JSON text; a
    # raw newline inside a JSON string is invalid, so it is only whitespace.
    cap = read_capture(b'data: {"a":\ndata: [1,\ndata:2]}\n\n')
    assert cap.records[0].payload == {"a": [1, 2]}
    # the joining newline ends line 1 and would sit inside a string: an error
    message = _err(b'data: {"a":"x\ndata: y"}\n\n')
    assert message.startswith("line 1, data column 8")
    assert "control character" in message


def test_sse_only_one_leading_space_is_stripped() -> None:
    cap = read_capture(b'event:  two spaces\ndata:{"nospace":true}\n\n')
    assert cap.records[0].event == " two spaces"
    assert cap.records[0].payload == {"nospace": True}


def test_sse_comments_are_ignored() -> None:
    cap = read_capture(b': hello\n:\ndata: {"a":1}\n: between\n\n: trailing\n')
    assert [r.payload for r in cap.records] == [{"a": 1}]
    assert cap.warnings == ()


def test_sse_bad_json_names_the_line() -> None:
    text = b'data: {"ok":1}\n\nevent: x\ndata: {"broken":\n\n'
    message = _err(text)
    assert message.startswith("line 4")
    assert "not valid JSON" in message


def test_sse_bad_json_in_multiline_data_names_the_exact_line() -> None:
    message = _err(b'\n\ndata: {"a":1,\ndata: "b":2,\ndata: "c" 3}\n\n')
    assert message.startswith("line 5, data column 5")


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"data: {}\ndata: \n", None),  # valid: "{}\n" is JSON
        (b'data: {"a":NaN}\n\n', "NaN"),
        (b'data: {"a":-Infinity}\n\n', "Infinity"),
        (b'data: {"a":1e999}\n\n', "infinity"),
        (b'data: {"a":1,"a":2}\n\n', "duplicate key"),
        (b'data: {"a":{"b":1,"b":1}}\n\n', "duplicate key"),
        (b'data: {"a":1} {"b":2}\n\n', "extra data"),
        (b"data: " + b"[" * 100_000 + b"\n\n", "too deeply"),
        (b'data: {"n":' + b"9" * 5000 + b"}\n\n", "line 1"),
        (b"data:\n\n", "empty"),
        (b"data:   \n\n", "empty"),
        (b"data: [DONE] \n\n", "line 1"),
    ],
)
def test_sse_payload_strictness(data: bytes, reason: str | None) -> None:
    if reason is None:
        assert read_capture(data).records[0].payload == {}
        return
    message = _err(data)
    assert message.startswith("line 1")
    assert reason in message


def test_sse_event_without_data_is_kept_as_empty_record() -> None:
    cap = read_capture(b'event: ping\n\nid: 7\n\nretry: 100\n\ndata: {"a":1}\n\n')
    assert [(r.kind, r.event, r.payload, r.location) for r in cap.records] == [
        ("empty", "ping", None, "line 1"),
        ("empty", None, None, "line 3"),
        ("empty", None, None, "line 5"),
        ("json", None, {"a": 1}, "line 7"),
    ]


def test_sse_event_ids_persist_like_whatwg() -> None:
    cap = read_capture(b'id: 1\ndata: {"a":1}\n\ndata: {"a":2}\n\nid\ndata: {"a":3}\n\n')
    assert [r.event_id for r in cap.records] == ["1", "1", ""]


def test_sse_unknown_fields_are_ignored_but_reported() -> None:
    cap = read_capture(b'foo: bar\ndata: {"a":1}\nretry: soon\n\n data: {"b":2}\n\n')
    assert [r.payload for r in cap.records] == [{"a": 1}]
    assert cap.warnings[0].startswith("line 1: unknown SSE field 'foo'")
    assert cap.warnings[1].startswith("line 3: retry value 'soon'")
    assert cap.warnings[2].startswith("line 5: unknown SSE field ' data'")
    assert "whitespace before the field name" in cap.warnings[2]


def test_sse_line_without_colon_is_a_field_with_empty_value() -> None:
    cap = read_capture(b'event: x\nevent\ndata: {"a":1}\n\n')
    assert cap.records[0].event is None  # "event" with empty value resets the name


def test_sse_done_with_event_name_is_reported() -> None:
    cap = read_capture(b"event: end\ndata: [DONE]\n\n")
    assert cap.records[0].kind == "done"
    assert "event name 'end' on a [DONE] marker" in cap.warnings[0]


def test_sse_accepts_any_json_value() -> None:
    cap = read_capture(b'data: 1\n\ndata: "s"\n\ndata: null\n\ndata: [1]\n\n')
    assert [(r.kind, r.payload) for r in cap.json_records] == [
        ("json", 1),
        ("json", "s"),
        ("json", None),
        ("json", [1]),
    ]


# ---------------------------------------------------------------------------
# JSON Lines and JSON arrays


def test_jsonl_basic_crlf_and_blank_lines() -> None:
    cap = read_capture(b'{"a":1}\r\n\r\n   \n{"b":[1,2]}  \n{"c":{}}')
    assert cap.format == "jsonl"
    assert [r.payload for r in cap.records] == [{"a": 1}, {"b": [1, 2]}, {"c": {}}]
    assert [r.location for r in cap.records] == ["line 1", "line 4", "line 5"]
    assert all(r.event is None and r.kind == "json" for r in cap.records)


def test_jsonl_bedrock_wrapper_lines_are_left_as_is() -> None:
    cap = read_capture(b'{"messageStart":{"role":"assistant"}}\n{"messageStop":{}}\n')
    assert cap.records[0].payload == {"messageStart": {"role": "assistant"}}
    assert cap.records[0].event is None


def test_jsonl_bad_line_names_the_line_number() -> None:
    message = _err(b'{"a":1}\n{"b":2}\n\n{"c":\n{"d":4}\n')
    assert message.startswith("line 4")
    assert "line 4" in _err(b'{"a":1}\n{"b":2}\n\n[1,2]\n')
    assert "expected a JSON object, got array" in _err(b'{"a":1}\n{"b":2}\n\n[1,2]\n')
    assert _err(b'{"a":1}\n{"a":1,"a":2}\n').startswith("line 2")
    assert _err(b'{"a":1}\n{"a":1}{"b":2}\n').startswith("line 2, column 8")
    assert _err(b'{"a":1}\n{"a":NaN}\n').startswith("line 2")


def test_jsonl_only_splits_at_line_feeds() -> None:
    # U+2028, U+2029 and U+0085 are legal raw inside JSON strings; str.splitlines
    # would break these lines apart.
    raw = '{"t":"a\u2028b\u2029c\u0085d"}\n{"u":1}'.encode()
    cap = read_capture(raw)
    assert [r.payload for r in cap.records] == [{"t": "a\u2028b\u2029c\u0085d"}, {"u": 1}]


def test_json_array_of_objects() -> None:
    cap = read_capture(b' [\n {"a":1},\n {"b":2}, {"c":3}\n]\n')
    assert cap.format == "json-array"
    assert [r.payload for r in cap.records] == [{"a": 1}, {"b": 2}, {"c": 3}]
    assert [r.location for r in cap.records] == [
        "line 2, element 0",
        "line 3, element 1",
        "line 3, element 2",
    ]
    assert read_capture(b"[]").records == ()


@pytest.mark.parametrize(
    "data, expected",
    [
        (b'[{"a":1},\n 2]', "line 2, column 2: array element 1 is a number"),
        (b'[{"a":1},]', "line 1, column 10: array element 1"),
        (b'[{"a":1}', "line 1, column 9: expected ',' or ']'"),
        (b'[{"a":1}] {"b":2}', "extra data after the JSON array"),
        (b'[{"a":1},\n{"b":1,"b":2}]', "line 2, column 1: array element 1: duplicate key"),
        (b'[{"a":Infinity}]', "non-standard JSON constant"),
    ],
)
def test_json_array_errors(data: bytes, expected: str) -> None:
    assert expected in _err(data)


def test_explicit_readers() -> None:
    assert read_jsonl(b'{"a":1}').records[0].payload == {"a": 1}
    assert read_json_array(b'[{"a":1}]').records[0].payload == {"a": 1}
    assert read_sse(b'data: {"a":1}').records[0].payload == {"a": 1}
    assert read_capture(b'{"a":1}', format="jsonl").format == "jsonl"
    with pytest.raises(ValueError):
        read_capture(b"{}", format="yaml")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# detection and text decoding


def test_detect_format() -> None:
    assert detect_format(b'data: {"a":1}\n\n') == "sse"
    assert detect_format(b": comment only\n") == "sse"
    assert detect_format(b'\n\n{"a":1}\n') == "jsonl"
    assert detect_format(b'  [{"a":1}]') == "json-array"
    assert detect_format(encode_event("x", {})) == "aws-eventstream"
    assert detect_format(b"\xef\xbb\xbfdata: {}\n") == "sse"
    assert detect_format(b"\r\rdata: {}\r\r") == "sse"  # CR-only line endings
    assert detect_format(b'\r\r{"a":1}\r') == "jsonl"
    assert detect_format(bytearray(b"data: {}")) == "sse"
    assert "ambiguous" in _err(b'\r: c\r{"a":1}\r')


def test_ambiguous_and_unrecognised_input() -> None:
    message = _err(b'{"a":1}\ndata: {"b":2}\n')
    assert "ambiguous" in message and "line 1" in message and "line 2" in message
    assert "not a recognised capture format" in _err(b"hello world\n")
    assert "empty capture" in _err(b"")
    assert "empty capture" in _err(b" \r\n\t")


def test_utf8_bom_is_stripped() -> None:
    cap = read_capture(b'\xef\xbb\xbf{"a":1}\n')
    assert cap.format == "jsonl"
    assert cap.records[0].payload == {"a": 1}


@pytest.mark.parametrize(
    "data, where",
    [
        (b"\xff\xfed\x00a\x00t\x00a\x00", "byte 0"),
        (b"\xfe\xff\x00d\x00a", "byte 0"),
        (b'data: {"a":"\xc3"}\n\n', "byte 12"),
        (b'\xef\xbb\xbfdata: {"a":"\xff"}\n\n', "byte 15"),
        (b'{"a":1}\n{"b":"\xed\xa0\x80"}', "byte 14"),  # encoded surrogate
        (b"d\x00a\x00t\x00a\x00", "byte 1"),  # UTF-16 without BOM
    ],
)
def test_text_must_be_strict_utf8(data: bytes, where: str) -> None:
    assert _err(data).startswith(where)


# ---------------------------------------------------------------------------
# AWS event-stream


def _raw_frame(raw_headers: bytes, payload: bytes) -> bytes:
    """A frame with arbitrary header bytes and correct CRCs."""
    total = 16 + len(raw_headers) + len(payload)
    prelude = struct.pack(">II", total, len(raw_headers))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    body = prelude + raw_headers + payload
    return body + struct.pack(">I", zlib.crc32(body))


def _stream() -> bytes:
    return b"".join(
        [
            encode_event("messageStart", {"role": "assistant", "p": "abc"}),
            encode_event("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "hé"}}),
            encode_event("messageStop", {"stopReason": "tool_use"}),
        ]
    )


def test_eventstream_round_trip() -> None:
    data = _stream()
    cap = read_capture(data)
    assert cap.format == "aws-eventstream"
    assert [r.event for r in cap.records] == ["messageStart", "contentBlockDelta", "messageStop"]
    assert cap.records[1].payload == {"contentBlockIndex": 0, "delta": {"text": "hé"}}
    assert cap.records[0].headers == {
        ":event-type": "messageStart",
        ":content-type": "application/json",
        ":message-type": "event",
    }
    first_len = struct.unpack(">I", data[:4])[0]
    assert cap.records[0].location == "frame 1 at byte 0"
    assert cap.records[1].location == f"frame 2 at byte {first_len}"
    frames = decode_frames(data)
    assert frames[2] == (cap.records[2].headers, b'{"stopReason":"tool_use"}')
    assert read_eventstream(b"").records == ()


def test_encode_frame_layout() -> None:
    frame = encode_frame({"k": "v"}, b"{}")
    raw_headers = b"\x01k\x07\x00\x01v"
    assert frame == _raw_frame(raw_headers, b"{}")
    total, headers_len = struct.unpack(">II", frame[:8])
    assert (total, headers_len) == (len(frame), len(raw_headers))
    with pytest.raises(ValueError):
        encode_frame({"": "v"}, b"")
    with pytest.raises(ValueError):
        encode_frame({"k": "v" * 70_000}, b"")


def test_eventstream_typed_headers() -> None:
    u = uuid.UUID("12345678-1234-5678-1234-567812345678")
    frame = encode_frame(
        {
            ":event-type": "x",
            "t": True,
            "f": False,
            "n": -5,
            "b": b"\x00\xff",
            "u": u,
        },
        b"{}",
    )
    raw = (
        b"\x01a\x02\xff"  # byte -1
        b"\x01s\x03\x80\x00"  # short -32768
        b"\x01i\x04\x00\x00\x01\x00"  # int 256
        b"\x02ts\x08" + struct.pack(">q", 1700000000123)
    )
    headers = read_capture(frame + _raw_frame(raw, b"{}")).records
    assert headers[0].headers == {
        ":event-type": "x",
        "t": "true",
        "f": "false",
        "n": "-5",
        "b": "AP8=",
        "u": str(u),
    }
    assert headers[1].headers == {"a": "-1", "s": "-32768", "i": "256", "ts": "1700000000123"}


def test_eventstream_exception_and_error_frames_are_kept() -> None:
    exc = encode_frame(
        {
            ":exception-type": "throttlingException",
            ":content-type": "application/json",
            ":message-type": "exception",
        },
        b'{"message":"slow down"}',
    )
    err = encode_frame(
        {":error-code": "InternalError", ":error-message": "boom", ":message-type": "error"}, b""
    )
    odd = encode_frame({":message-type": "mystery", ":event-type": "e"}, b"{}")
    cap = read_capture(encode_event("messageStart", {}) + exc + err + odd)
    assert [(r.kind, r.event) for r in cap.records] == [
        ("json", "messageStart"),
        ("json", "throttlingException"),
        ("empty", "InternalError"),
        ("json", "e"),
    ]
    assert cap.records[1].payload == {"message": "slow down"}
    assert cap.warnings == (f"{cap.records[3].location}: unknown :message-type 'mystery'",)


def _flip(data: bytes, index: int) -> bytes:
    return data[:index] + bytes([data[index] ^ 0x01]) + data[index + 1 :]


def test_eventstream_flipped_prelude_byte_is_a_crc_error() -> None:
    data = _stream()
    second = struct.unpack(">I", data[:4])[0]
    for index in range(second, second + 12):  # every byte of frame 2's prelude
        message = _err(_flip(data, index))
        assert message.startswith(f"frame 2 at byte {second}: prelude CRC mismatch")
    for index in range(12):  # frame 1: detection must still see an event-stream
        message = _err(_flip(data, index))
        assert message.startswith("frame 1 at byte 0: prelude CRC mismatch")


def test_eventstream_flipped_payload_or_header_byte_is_a_crc_error() -> None:
    data = _stream()
    second = struct.unpack(">I", data[:4])[0]
    second_len = struct.unpack(">I", data[second : second + 4])[0]
    for index in (second + 12, second + 30, second + second_len - 5, second + second_len - 1):
        message = _err(_flip(data, index))
        assert message.startswith(f"frame 2 at byte {second}: message CRC mismatch")


def test_eventstream_truncation_is_an_error() -> None:
    data = _stream()
    frame3 = len(data) - len(encode_event("messageStop", {"stopReason": "tool_use"}))
    message = _err(data[:-1])
    assert message.startswith(f"frame 3 at byte {frame3}: truncated frame")
    message = _err(data[: frame3 + 5])
    assert message.startswith(f"frame 3 at byte {frame3}: truncated frame: 5 byte(s)")
    assert _err(data + b"\x00\x00").startswith(f"frame 4 at byte {len(data)}: truncated")


@pytest.mark.parametrize(
    "raw_headers, payload, expected",
    [
        (b"\x01k\x0a", b"{}", "unknown value type 10"),
        (b"\x01k\x07\x00\x09v", b"{}", "runs past the headers section"),
        (b"\x01k\x07\x00\x01v\x01k\x07\x00\x01w", b"{}", "duplicate header 'k'"),
        (b"\x00", b"{}", "empty header name"),
        (b"\x02\xc3k\x00", b"{}", "header name is not UTF-8"),
        (b"\x01k\x07\x00\x01\xff", b"{}", "value is not UTF-8"),
        (b"", b"not json", "payload is not valid JSON"),
        (b"", b'{"a":1,"a":1}', "duplicate key"),
        (b"", b'{"a":"\xff"}', "payload is not UTF-8 (byte 108)"),  # 90 + 12 + 6
    ],
)
def test_eventstream_malformed_frames(raw_headers: bytes, payload: bytes, expected: str) -> None:
    message = _err(encode_event("ok", {}) + _raw_frame(raw_headers, payload))
    assert message.startswith("frame 2 at byte ")
    assert expected in message


def test_eventstream_impossible_lengths() -> None:
    def prelude(total: int, headers_len: int) -> bytes:
        head = struct.pack(">II", total, headers_len)
        return head + struct.pack(">I", zlib.crc32(head))

    assert "below the minimum" in _err(prelude(12, 0) + b"\x00" * 4)
    assert "does not fit" in _err(prelude(20, 8) + b"\x00" * 8)
    assert "declares 1000 bytes" in _err(prelude(1000, 0) + b"\x00" * 8)


# ---------------------------------------------------------------------------
# robustness: CaptureError is the only exception on bad input


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_random_bytes_only_raise_capture_error(data: bytes) -> None:
    try:
        cap = read_capture(data)
    except CaptureError as exc:
        assert str(exc)
    else:
        assert isinstance(cap, Capture)
        assert all(isinstance(r, Record) for r in cap.records)


_TEXTY = st.lists(
    st.sampled_from(
        [
            "data: ",
            "data:",
            "event: x",
            "id: 1",
            "retry: 5",
            ": c",
            "",
            "{",
            "}",
            "[",
            "]",
            '"a"',
            ":",
            ",",
            "1",
            "NaN",
            "[DONE]",
            "\r",
            "\n",
            "\r\n",
            "\u2028",
            "\xff",
            " ",
        ]
    ),
    max_size=40,
).map(lambda parts: "".join(parts).encode("utf-8", "surrogatepass"))


@settings(max_examples=400, deadline=None)
@given(_TEXTY)
def test_random_texty_input_only_raises_capture_error(data: bytes) -> None:
    try:
        read_capture(data)
    except CaptureError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0), st.integers(min_value=0, max_value=255), st.booleans())
def test_mutated_eventstream_only_raises_capture_error(index: int, value: int, cut: bool) -> None:
    data = _stream()
    index %= len(data)
    mutated = data[:index] if cut else data[:index] + bytes([value]) + data[index + 1 :]
    try:
        read_capture(mutated)
    except CaptureError as exc:
        assert "frame" in str(exc) or "byte" in str(exc) or "capture" in str(exc)


# ---------------------------------------------------------------------------
# redaction

# Synthetic credentials, built so that no literal key sits in the source.
SECRETS: dict[str, str] = {
    "openai-key": "sk-" + "Ab3" * 16,
    "anthropic-key": "sk-ant-api03-" + "xY9_" * 20,
    "openrouter-key": "sk-or-v1-" + "0f" * 32,
    "groq-key": "gsk_" + "Qw7e" * 13,
    "xai-key": "xai-" + "Zt4" * 27,
    "google-api-key": "AIza" + "Sy" + "B8c_d-E" * 4 + "F5gH1",
    "github-token": "ghp_" + "a1B2c3" * 6,
    "aws-access-key-id": "AKIA" + "Q7XZ" * 4,
}
SECRETS["openai-key-proj"] = "sk-proj-" + "Ab_3-x" * 12
SECRETS["github-token-pat"] = "github_pat_" + "11ABCDEFG0" * 4
AWS_SECRET = "wJalr" + "XUtnF" * 5 + "EMI/K7MD+0"  # 40 base64 chars


def _kind(name: str) -> str:
    return name.rsplit("-proj", 1)[0].rsplit("-pat", 1)[0]


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_each_token_kind_is_found_nested_and_redacted(name: str) -> None:
    secret = SECRETS[name]
    assert len(secret) >= 20
    doc: dict[str, Any] = {"outer": [{"note": f"use {secret} here"}, {"bare": secret}], "n": 1}
    new, hits = redact(doc)
    assert [(h.path, h.kind) for h in hits] == [
        ("/outer/0/note", _kind(name)),
        ("/outer/1/bare", _kind(name)),
    ]
    assert new == {
        "outer": [
            {"note": f"use [REDACTED:{_kind(name)}] here"},
            {"bare": f"[REDACTED:{_kind(name)}]"},
        ],
        "n": 1,
    }
    assert doc["outer"][1]["bare"] == secret  # the input is not modified
    for hit in hits:
        assert hit.preview.endswith("…")
        assert len(hit.preview) <= 5
        assert secret not in repr(hit)
    assert scan(new) == []


@pytest.mark.parametrize(
    "doc, expected",
    [
        (
            {"headers": {"Authorization": "Basic dXNlcjpwYXNzd29yZA=="}},
            [("/headers/Authorization", "authorization")],
        ),
        (
            {"Authorization": "Bearer abc.DEF-123_ghi~jkl+mno/pq="},
            [("/Authorization", "bearer-token")],
        ),
        (
            {"log": "curl -H 'Authorization: Bearer eyJhbGciOi.J9xyz123.sig456'"},
            [("/log", "authorization")],
        ),
        ({"log": "sent bearer Zx81kd02mslq83nc7a"}, [("/log", "bearer-token")]),
        ({"x-api-key": "0123456789abcdef"}, [("/x-api-key", "api-key")]),
        ({"api-key": "k"}, [("/api-key", "api-key")]),
        ({"API_KEY": "mistralkey"}, [("/API_KEY", "api-key")]),
        ({"apikey": "v"}, [("/apikey", "api-key")]),
        ({"x-goog-api-key": "v"}, [("/x-goog-api-key", "api-key")]),
        (
            {"cfg": {"aws_secret_access_key": AWS_SECRET}},
            [("/cfg/aws_secret_access_key", "aws-secret-access-key")],
        ),
        ({"password": "hunter2"}, [("/password", "password")]),
        ({"Password": 12345678}, [("/Password", "password")]),
        ({"text": f"aws_secret_access_key = {AWS_SECRET}"}, [("/text", "aws-secret-access-key")]),
        ({"text": "x-api-key: 0123456789abcdef"}, [("/text", "api-key")]),
        ({"text": 'config {"password": "hunter22"}'}, [("/text", "password")]),
        (
            {"AccessKeyId": "ASIA" + "Q7XZ" * 4, "Other": AWS_SECRET},
            [("/AccessKeyId", "aws-access-key-id"), ("/Other", "aws-secret-access-key")],
        ),
        ({"authorization": "Bearer " + SECRETS["openai-key"]}, [("/authorization", "openai-key")]),
        ({"a/b": {"c~d": SECRETS["groq-key"]}}, [("/a~1b/c~0d", "groq-key")]),
    ],
)
def test_labelled_credentials(doc: Any, expected: list[tuple[str, str]]) -> None:
    new, hits = redact(doc)
    assert [(h.path, h.kind) for h in hits] == expected
    assert "[REDACTED:" in json.dumps(new)
    assert scan(new) == []


def test_secret_in_a_key_is_redacted_and_never_in_the_path() -> None:
    secret = SECRETS["anthropic-key"]
    doc = {"keys": {secret: "value", f"prefix {secret}": 1}}
    new, hits = redact(doc)
    assert all(h.in_key for h in hits)
    assert [h.path for h in hits] == [
        "/keys/[REDACTED:anthropic-key]",
        "/keys/prefix [REDACTED:anthropic-key]",
    ]
    assert new == {
        "keys": {"[REDACTED:anthropic-key]": "value", "prefix [REDACTED:anthropic-key]": 1}
    }
    assert secret not in json.dumps(new) and secret not in repr(hits)


def test_redacted_key_collision_keeps_both_members() -> None:
    a, b = SECRETS["openai-key"], "sk-" + "Zz9" * 16
    new, hits = redact({a: 1, b: 2})
    assert new == {"[REDACTED:openai-key]": 1, "[REDACTED:openai-key]#2": 2}
    assert len(hits) == 2


def test_preview_never_shows_a_whole_secret() -> None:
    for secret in ["a", "ab", "abc", "abcd", "abcde", "abcdefgh", "x" * 100]:
        shown = preview(secret)
        assert shown.endswith("…")
        assert len(shown) - 1 <= 4
        assert len(shown) - 1 < len(secret)
        assert secret.startswith(shown[:-1])
    assert preview("sk-proj-whatever") == "sk-p…"


@pytest.mark.parametrize(
    "value",
    [
        "call_4XzlGBLtUe9dy3GVNV4jhq7h",
        "toolu_01Abc2Def3Ghi4Jkl5Mno6Pqr",
        "msg_01Abc2Def3Ghi4Jkl5Mno6Pqr",
        "chatcmpl-9tXjpABCDEFGhijklmnop1234",
        "resp_0123456789abcdef0123456789abcdef0123456789abcd",
        "fc_0123456789abcdef0123456789abcdef0123456789abcd",
        "gen-1753242299-QZRAt5HJHd1ptY8sdS0s",
        "mcptoolu_01Abc2Def3Ghi4Jkl5Mno6Pqr",
        "tooluse_Ab3Cd4Ef5Gh6Ij7Kl8Mn9",
        # base64 blobs that happen to contain key-like runs inside them
        "RXJ" + "sk-" + "Ab3" * 16 + "Qz==",
        "EqQB" + "AKIA" + "Q7XZ" * 4 + "dGVzdA==",
        "gAAAAABo" + "xai-" + "Zt4" * 27 + "_x",
        "the task-" + "Ab3" * 16 + " is done",
        "Bearer of bad news, without digits here",
        "sk-learn-compatible-estimator-helpers",
        "password",
        "api_key",
        AWS_SECRET,  # 40 base64 chars with no AWS context
    ],
)
def test_ordinary_ids_and_blobs_are_not_hits(value: str) -> None:
    assert (
        scan({"id": value, "signature": value, "encrypted_content": value, "list": [value]}) == []
    )


def test_schema_like_structures_are_not_hits() -> None:
    schema = {
        "type": "object",
        "properties": {"password": {"type": "string"}, "api_key": {"type": "string"}},
        "required": ["password", "api_key"],
    }
    assert scan(schema) == []
    assert scan({"password": "", "authorization": None, "api_key": True}) == []


def test_redaction_is_idempotent_and_handles_deep_and_odd_values() -> None:
    doc: Any = {"x": SECRETS["xai-key"]}
    for _ in range(5000):
        doc = {"d": [doc]}
    new, hits = redact(doc)
    assert len(hits) == 1 and hits[0].kind == "xai-key"
    assert hits[0].path.count("/d/0") == 5000
    assert scan(new) == []
    assert redact(("t", 1.5, None, True)) == (["t", 1.5, None, True], [])
    assert redact({1: SECRETS["groq-key"]})[1] == [Hit("/1", "groq-key", "gsk_…")]
    assert redact(SECRETS["groq-key"])[1][0].path == ""


# ---------------------------------------------------------------------------
# the real captures (read from ../shared/captures, never copied)

EXPECTED_FORMAT = {
    ".sse": "sse",
    ".jsonl": "jsonl",
    ".bin": "aws-eventstream",
}

# Records per file (including [DONE] markers), as decoded when this test was
# written; a changed count means the reader or the capture changed.
EXPECTED_RECORDS = {
    "anthropic/mirascope-claude-sonnet-4-beta-parallel2-with-text.sse": 24,
    "anthropic/mirascope-claude-sonnet-4-parallel2-with-text.sse": 23,
    "anthropic/openinference-claude-sonnet-4-6-parallel2-weather-time.sse": 30,
    "anthropic/pydai-anthropic-native-tool-search-streaming.sse": 36,
    "anthropic/sdkpy-incomplete_partial_json_max_tokens.sse": 16,
    "anthropic/sdkpy-tool_use_response.sse": 15,
    "anthropic/sdkpy-toolrunner-555fb399.sse": 16,
    "anthropic/vercel-anthropic-issue-15652-parallel3.jsonl": 19,
    "anthropic/vercel-anthropic-json-tool.2.jsonl": 14,
    "anthropic/vercel-anthropic-mcp.1.jsonl": 17,
    "anthropic/vercel-anthropic-tool-no-args.jsonl": 13,
    "bedrock/openllmetry-bedrock-claude-converse-stream-tooluse.decoded.jsonl": 25,
    "bedrock/openllmetry-bedrock-claude-converse-stream-tooluse.eventstream.bin": 25,
    "bedrock/pydai-bedrock-nova-micro-iter-stream-tooluse.decoded.jsonl": 26,
    "bedrock/pydai-bedrock-nova-micro-iter-stream-tooluse.eventstream.bin": 26,
    "bedrock/vercel-bedrock-redacted-reasoning-tooluse.jsonl": 33,
    "mistral/llm-mistral-large-tool-call-single-chunk.sse": 3,
    "mistral/openinference-mistral-small-tool-call-2024-08.sse": 3,
    "mistral/vercel-mistral-tool-call.jsonl": 2,
    "openai-chat/openaipy-parallel-2tools-gpt4o-2024-08.sse": 26,
    "openai-chat/openaipy-parallel-2tools-gpt4o-so.sse": 26,
    "openai-chat/openaipy-single-GetWeatherArgs-strict.sse": 18,
    "openai-chat/openaipy-single-get_weather.sse": 11,
    "openai-chat/openllmetry-gpt35-turbo-parallel2-2024-07.sse": 16,
    "openai-chat/pydai-prefect-complex-agent-parallel-weather-product.sse": 12,
    "openai-chat/pydai-temporal-complex-agent-final_result-long-args.sse": 57,
    "openai-chat/simonw-llm-gpt4o-mini-tool-use-basic.sse": 15,
    "openai-compatible/simonw-llm-openrouter-kimi-k2-variant-b-args-complete-first.sse": 5,
    "openai-compatible/simonw-llm-openrouter-kimi-k2-variant-c.sse": 5,
    "openai-compatible/vercel-deepseek-reasoner-tool-call.jsonl": 52,
    "openai-compatible/vercel-groq-tool-call.jsonl": 3,
    "openai-compatible/vercel-xai-grok-tool-call.jsonl": 8,
    "openai-responses/pydai-responses-reasoning-message-function_call.sse": 33,
    "openai-responses/pydai-responses-stream-get_capital.sse": 11,
    "openai-responses/simonw-llm-gpt55-responses-tool-use-streaming.sse": 17,
    "openai-responses/vercel-openai-reasoning-encrypted-content.1.jsonl": 110,
}

# The only tolerated oddity: the cassette body starts with " data:" (a YAML
# folded-scalar artifact), which WHATWG parsing reads as an unknown field.
EXPECTED_WARNINGS = {
    "openai-compatible/simonw-llm-openrouter-kimi-k2-variant-c.sse": 1,
}


@needs_captures
def test_capture_folder_has_the_expected_files() -> None:
    assert CAPTURE_FILES, f"no capture files under {CAPTURES}"
    assert set(EXPECTED_RECORDS) <= set(_ids(CAPTURE_FILES))


@needs_captures
@pytest.mark.parametrize("path", CAPTURE_FILES, ids=_ids(CAPTURE_FILES))
def test_real_capture_decodes(path: Path) -> None:
    name = str(path.relative_to(CAPTURES))
    cap = read_capture(path.read_bytes())
    assert cap.format == EXPECTED_FORMAT[path.suffix]
    # Two records is the real minimum: vercel-mistral-tool-call.jsonl carries
    # the whole call (and the finish) in its second and last chunk.
    assert len(cap.records) >= 2
    if name in EXPECTED_RECORDS:
        assert len(cap.records) == EXPECTED_RECORDS[name]
    assert len(cap.warnings) == EXPECTED_WARNINGS.get(name, 0), cap.warnings
    for record in cap.records:
        if record.kind == "json":
            assert isinstance(record.payload, dict)
        else:
            assert record.kind == "done" and record.event == DONE
    # at most one [DONE], and only as the last record
    assert cap.done_markers <= 1
    if cap.done_markers:
        assert cap.records[-1].kind == "done"
    if cap.format == "sse" and any(r.event for r in cap.records):
        # Anthropic and OpenAI Responses name every event after its type
        assert all(r.event == r.payload.get("type") for r in cap.json_records)


EVENTSTREAM_FILES = [p for p in CAPTURE_FILES if p.name.endswith(".eventstream.bin")]


@needs_captures
@pytest.mark.parametrize("path", CASSETTE_FILES, ids=_ids(CASSETTE_FILES))
def test_a_whole_cassette_is_not_read_as_a_bare_body(path: Path) -> None:
    """A cassette is YAML around a recorded exchange: the bare-body reader
    refuses it with its position instead of guessing a stream out of it."""
    message = _err(path.read_bytes())
    assert message.startswith("line 1, column 1:"), message


@needs_captures
@pytest.mark.parametrize("path", EVENTSTREAM_FILES, ids=_ids(EVENTSTREAM_FILES))
def test_eventstream_matches_its_decoded_jsonl(path: Path) -> None:
    decoded = path.with_name(path.name.replace(".eventstream.bin", ".decoded.jsonl"))
    expected = [
        json.loads(line) for line in decoded.read_text("utf-8").splitlines() if line.strip()
    ]
    cap = read_capture(path.read_bytes())
    assert len(cap.records) == len(expected) >= 3
    for record, want in zip(cap.records, expected, strict=True):
        assert record.headers == want["headers"]
        assert record.payload == want["payload"]
        assert record.event == want["headers"][":event-type"]
    # the decoded sibling is itself a JSON Lines capture of the same frames
    assert len(read_capture(decoded.read_bytes()).records) == len(expected)


@needs_captures
def test_no_credentials_in_the_real_captures() -> None:
    files = sorted(p for p in CAPTURES.rglob("*") if p.is_file())
    hits: dict[str, list[Hit]] = {}
    for path in files:
        name = str(path.relative_to(CAPTURES))
        found: list[Hit] = []
        if path.name != "MANIFEST.md" and path not in CASSETTE_FILES:
            for record in read_capture(path.read_bytes()).records:
                found += scan(record.payload) + scan(record.headers)
        if not path.name.endswith(".bin"):
            found += scan(path.read_text("utf-8"))
        if found:
            hits[name] = found
    assert hits == {}


_JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=20),
    st.sampled_from(sorted(SECRETS.values())),
    st.sampled_from(sorted(SECRETS.values())).map(lambda s: f"prefix {s} suffix"),
)
_JSON_DOCS = st.recursive(
    _JSON_LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(st.text(max_size=8), st.sampled_from(["password", "x-api-key", "k"])),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_JSON_DOCS)
def test_redacted_documents_hold_no_secret(doc: Any) -> None:
    new, hits = redact(doc)
    dumped = json.dumps(new)
    for secret in SECRETS.values():
        assert secret not in dumped
        assert all(secret not in repr(h) for h in hits)
    assert scan(new) == []
    assert redact(new) == (new, [])
