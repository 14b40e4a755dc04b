"""The bytes ``toolstream serve`` sends, against an oracle of this file's own.

The oracle reads a case file's text with its own tokenizer (no ``json``
module): each stream item is written as its tokens, whitespace dropped,
numbers and literals as their text, each string decoded from its escapes and
escaped again as the server's contract says (``toolstream.serve.cases``:
non-ASCII as UTF-8, an unpaired surrogate as its ``\\u`` escape, which
UTF-8 cannot carry, so such a string is written all in ASCII escapes); then
framed as each endpoint's module says (SSE lines, ``[DONE]``, a JSON array,
event-stream frames with this file's own CRC framing).

* every corpus case: the records each endpoint builds (what every transport
  cuts into writes) are the oracle's, for every endpoint a case's profile
  has (Gemini's two framings);
* a sample of every profile under every transport ``toolstream diff`` names:
  the response body read off a raw socket, chunk framing included (each
  write is one chunk, so the write boundaries are checked too), is the
  oracle records cut by the transport's plan.
"""

from __future__ import annotations

import binascii
import json
import re
import socket
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.support.corpus_cases import ROOT
from toolstream.clients.transports import TRANSPORTS
from toolstream.profiles import PROFILES
from toolstream.serve import ENDPOINTS, Server, parse_transport
from toolstream.serve.cases import CaseIndex, ServedCase, from_bytes
from toolstream.serve.endpoints import Endpoint, Record, SSEEvent, Unplayable
from toolstream.serve.transport import plan

CORPUS = ROOT / "corpus" / "cases"

# -- the oracle: a tokenizer and the server's contract, written out ------------------

_TOKEN = re.compile(
    r'[ \t\r\n]*(?:("(?:[^"\\]|\\.)*")|([{}\[\]:,])'
    r"|(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null|NaN|-?Infinity))",
    re.S,
)
_ESCAPE_IN = re.compile(r'\\(["\\/bfnrt]|u[0-9a-fA-F]{4})')
_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_LONE = re.compile("[\ud800-\udfff]")
_UNSAFE = re.compile('[\x00-\x1f"\\\\]')
_UNSAFE_ASCII = re.compile('[^ -~]|["\\\\]')


def _decode_string(token: str) -> str:
    """A string token's value: escapes resolved, surrogate pairs joined."""
    inner = token[1:-1]
    if "\\" not in inner:
        return inner
    units = _ESCAPE_IN.sub(
        lambda m: (
            chr(int(m.group(1)[1:], 16))
            if m.group(1)[0] == "u"
            else {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}.get(m.group(1), m.group(1))
        ),
        inner,
    )
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _escape_one(char: str) -> str:
    if char in _SHORT:
        return _SHORT[char]
    code = ord(char)
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 | (code >> 10):04x}\\u{0xDC00 | (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def served_string(value: str) -> str:
    """How the server writes a string: UTF-8 but for ``"``, ``\\`` and
    control characters; all in ASCII escapes when it has an unpaired surrogate."""
    unsafe = _UNSAFE_ASCII if _LONE.search(value) else _UNSAFE
    return '"' + unsafe.sub(lambda m: _escape_one(m.group()), value) + '"'


class Node:
    """A JSON value of the file: its kind, its members or elements, and its
    token range (the item's text is its tokens, rendered)."""

    __slots__ = ("end", "kind", "members", "start", "text")

    def __init__(self, kind: str, start: int) -> None:
        self.kind = kind
        self.start = start
        self.end = start + 1
        self.members: list[tuple[str, Node]] = []
        self.text = ""

    def get(self, key: str) -> Node | None:
        """The last member named ``key`` (what the server reads)."""
        found = None
        for name, value in self.members:
            if name == key:
                found = value
        return found


class CaseText:
    """A case file's text as tokens, each rendered as the server writes it."""

    def __init__(self, text: str) -> None:
        self.raw: list[str] = []
        position = 0
        for match in _TOKEN.finditer(text):
            if match.start() != position:
                raise ValueError(f"not a token at {position}")
            position = match.end()
            self.raw.append(match.group(match.lastindex or 0))
        if text[position:].strip(" \t\r\n"):
            raise ValueError(f"not a token at {position}")
        self.rendered = [served_string(_decode_string(t)) if t[0] == '"' else t for t in self.raw]
        self.position = 0
        self.root = self._value()

    def _value(self) -> Node:
        token = self.raw[self.position]
        node = Node({"{": "object", "[": "array"}.get(token, "scalar"), self.position)
        self.position += 1
        if node.kind == "scalar":
            node.text = self.rendered[node.start]
            return node
        close = "}" if node.kind == "object" else "]"
        if self.raw[self.position] == close:
            self.position += 1
        else:
            while True:
                key = ""
                if node.kind == "object":
                    key = _decode_string(self.raw[self.position])
                    assert self.raw[self.position + 1] == ":"
                    self.position += 2
                node.members.append((key, self._value()))
                separator = self.raw[self.position]
                self.position += 1
                if separator == close:
                    break
                assert separator == ","
        node.end = self.position
        return node

    def item(self, node: Node) -> str:
        """The server's text of a value: its tokens, rendered, no whitespace."""
        return "".join(self.rendered[node.start : node.end])


def _frame(headers: list[tuple[str, str]], payload: bytes) -> bytes:
    raw = b"".join(
        bytes([len(name)])
        + name.encode()
        + b"\x07"
        + struct.pack(">H", len(value.encode()))
        + value.encode()
        for name, value in headers
    )
    prelude = struct.pack(">II", 16 + len(raw) + len(payload), len(raw))
    prelude += struct.pack(">I", binascii.crc32(prelude))
    body = prelude + raw + payload
    return body + struct.pack(">I", binascii.crc32(body))


def _typed(case: CaseText, items: list[Node]) -> list[Record] | None:
    out: list[Record] = []
    for item in items:
        kind = item.get("type") if item.kind == "object" else None
        name = None
        if kind is not None and kind.kind == "scalar" and kind.text.startswith('"'):
            name = _decode_string(case.raw[kind.start]) or None
            if name is not None and ("\n" in name or "\r" in name):
                return None
        out.append(SSEEvent(name, case.item(item)))
    return out


def _frames(case: CaseText, items: list[Node]) -> list[Record] | None:
    out: list[Record] = []
    for item in items:
        if item.kind != "object" or len(item.members) != 1 or item.members[0][1].kind != "object":
            return None
        kind, body = item.members[0]
        if not kind or len(kind.encode("utf-8", "surrogatepass")) > 0xFFFF:
            return None
        message = "exception" if kind.endswith("Exception") else "event"
        type_header = ":exception-type" if message == "exception" else ":event-type"
        headers = [(type_header, kind), (":content-type", "application/json")]
        out.append(_frame([*headers, (":message-type", message)], case.item(body).encode()))
    return out


def oracle_records(text: str, wire: str) -> list[Record] | None:
    """The records a case's text defines on ``wire`` (a profile, or
    ``gemini-sse``); None when the case cannot be put on that wire."""
    case = CaseText(text)
    profile = case.root.get("profile")
    if profile is None or not profile.text.startswith('"'):
        return None
    name = _decode_string(case.raw[profile.start])
    stream = case.root.get(PROFILES[name].stream_key) if name in PROFILES else None
    if stream is None or stream.kind != "array":
        return None
    items = [value for _, value in stream.members]
    data = [case.item(item) for item in items]
    if wire in ("openai", "mistral"):
        return [*(SSEEvent(None, d) for d in data), SSEEvent(None, "[DONE]")]
    if wire in ("anthropic", "openai-responses", "cohere"):
        return _typed(case, items)
    if wire in ("gemini-sse", "gemini-interactions"):
        return [SSEEvent(None, d) for d in data]
    if wire == "gemini":
        if not data:
            return [b"[]"]
        leads = [b"[", *([b",\r\n"] * (len(data) - 1))]
        elements: list[Record] = [lead + d.encode() for lead, d in zip(leads, data, strict=True)]
        return [*elements, b"]"]
    if wire in ("bedrock", "bedrock-invoke"):
        return _frames(case, items)
    raise AssertionError(wire)


def wires(profile: str) -> list[tuple[str, Endpoint]]:
    """(oracle wire, endpoint) for every endpoint that serves ``profile``."""
    endpoint = ENDPOINTS[profile]
    out = [(profile, endpoint)]
    if profile == "gemini":
        out.append(("gemini-sse", endpoint.for_query("alt=sse")))
    return out


def test_the_oracle_writes_what_the_contract_says() -> None:
    text = '{"a": 1e999, "a": -0, "b": "\\u00e9\\ud83d", "c": "\\u00e9\\"\\/\\u0001", "d": [1.50]}'
    case = CaseText(text)
    assert case.item(case.root) == (
        '{"a":1e999,"a":-0,"b":"\\u00e9\\ud83d","c":"é\\"/\\u0001","d":[1.50]}'
    )
    assert served_string("\U0001f600\x7f") == '"\U0001f600\x7f"'
    assert served_string("\U0001f600\ud800") == '"\\ud83d\\ude00\\ud800"'


# -- every corpus case, every endpoint: the records ------------------------------------


def _corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*/*.json"))


def test_every_corpus_case_has_the_oracles_records_on_every_endpoint() -> None:
    files = _corpus_files()
    assert len(files) > 7000
    compared = unplayable = 0
    for path in files:
        data = path.read_bytes()
        served = from_bytes(path.stem, data)
        text = data.decode("utf-8")
        profile = json.loads(text).get("profile")
        if served.problem is not None:
            assert oracle_records(text, profile if profile in PROFILES else "openai") is None, path
            unplayable += 1
            continue
        for wire, endpoint in wires(served.profile):
            expected = oracle_records(text, wire)
            if expected is None:
                with pytest.raises(Unplayable):
                    endpoint.records(served.stream)
                unplayable += 1
                continue
            assert endpoint.records(served.stream) == expected, (path, wire)
            compared += 1
    assert compared >= len(files)


# -- over the wire: a sample of every profile under every transport ----------------------


def _sample() -> list[Path]:
    """Three cases of every profile (first in path order), and every tenth
    case of the operators whose bytes are the hardest to carry."""
    chosen: list[Path] = []
    per_profile: dict[str, int] = {}
    for path in _corpus_files():
        profile = json.loads(path.read_bytes()).get("profile")
        if per_profile.get(profile, 0) < 3:
            per_profile[profile] = per_profile.get(profile, 0) + 1
            chosen.append(path)
    for operator in ("lone_surrogate", "inject_non_finite", "non_finite_value", "reencode"):
        chosen.extend(sorted((CORPUS / operator).glob("*.json"))[::10])
    assert set(ENDPOINTS) <= set(per_profile)
    return sorted(set(chosen))


@pytest.fixture(scope="module")
def sample_server() -> Iterator[tuple[Server, list[Path]]]:
    paths = _sample()

    def loader(path: Path) -> Any:
        return lambda: from_bytes(f"{path.parent.name}/{path.stem}", path.read_bytes())

    index = CaseIndex.lazy((f"{p.parent.name}/{p.stem}", loader(p)) for p in paths)
    with Server(index, one_request_per_connection=True) as server:
        yield server, paths


def _raw_post(server: Server, path: str, body: bytes) -> tuple[bytes, bytes]:
    """(head, body) of the response as it came off the socket."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (path.encode(), len(body), body)
        )
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, rest = received.partition(b"\r\n\r\n")
    return head, rest


def _requests(profile: str, ident: str, spec: str) -> list[tuple[str, Endpoint, str]]:
    """(wire, endpoint, path) of each streaming request for the case under
    ``spec`` (Gemini: the JSON array and ``alt=sse``)."""
    prefix = f"/cases/{quote(ident, safe='/')}/transport/{quote(spec, safe=',:@')}"
    endpoint = ENDPOINTS[profile]
    if profile in ("bedrock", "bedrock-invoke"):
        operation = "converse-stream" if profile == "bedrock" else "invoke-with-response-stream"
        return [(profile, endpoint, f"{prefix}/model/m/{operation}")]
    if profile == "gemini":
        url = f"{prefix}/v1beta/models/m:streamGenerateContent"
        return [
            ("gemini", endpoint, url),
            ("gemini-sse", endpoint.for_query("alt=sse"), url + "?alt=sse"),
        ]
    return [(profile, endpoint, prefix + endpoint.path)]


def _framed(writes: list[bytes], chunked: bool, complete: bool) -> bytes:
    if not chunked:
        return b"".join(writes)
    body = b"".join(b"%x\r\n%s\r\n" % (len(w), w) for w in writes)
    return body + (b"0\r\n\r\n" if complete else b"")


@pytest.mark.parametrize("transport", sorted(TRANSPORTS))
def test_every_transport_sends_the_oracles_bytes(
    sample_server: tuple[Server, list[Path]], transport: str
) -> None:
    server, paths = sample_server
    spec = TRANSPORTS[transport]
    parsed = parse_transport(spec)
    reached: set[str] = set()
    for path in paths:
        text = path.read_text("utf-8")
        served: ServedCase = server.index.get(f"{path.parent.name}/{path.stem}")
        if served.problem is not None:
            continue
        for wire, endpoint, url in _requests(served.profile, served.id, spec):
            if parsed.applies_to(endpoint) is not None:
                continue  # refused with a 400 (tested in test_serve.py)
            records = oracle_records(text, wire)
            head, body = _raw_post(server, url, b'{"model": "m", "stream": true}')
            if records is None:
                assert head.startswith(b"HTTP/1.1 500 "), (path, transport)
                continue
            assert head.startswith(b"HTTP/1.1 200 "), (path, transport, body[:200])
            writes = plan(records, endpoint, parsed)
            assert writes.complete is (parsed.cut_at is None)
            expected = _framed(writes.writes, not parsed.close_delimited, writes.complete)
            assert body == expected, (path, wire, transport)
            reached.add(wire)
    sse_only = parsed.applies_to_framing("eventstream", "") is not None
    framed_apart = {"bedrock", "bedrock-invoke", "gemini"}
    assert reached == {*ENDPOINTS, "gemini-sse"} - (framed_apart if sse_only else set())
