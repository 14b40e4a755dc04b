"""The fixture envelope: one assistant turn as a JSON object.

::

    {"profile": "openai" | "mistral" | "anthropic" | "openai-responses" | "bedrock"
                | "gemini" | "gemini-interactions" | "cohere" | "bedrock-invoke",
     "tool_schemas": {name: JSON Schema, ...},
     "chunks": [...]          # openai, mistral, gemini
     "events": [...]          # anthropic, openai-responses, bedrock, gemini-interactions,
                              # cohere, bedrock-invoke
     "request": {...},        # optional: what the request asked for (tool_choice)
     "meta": {...},           # optional: free-form provenance
     "expect": {...}}         # optional: the label a corpus case carries

Anything else (another key, a missing key, a wrong type, the other stream key
for the profile) is ``invalid_envelope``.  The file itself is parsed strictly:
UTF-8 only, no byte-order mark, no NaN/Infinity, no duplicate keys, bounded
depth and size.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolstream.findings import Code, ProtocolError
from toolstream.limits import Limits
from toolstream.profiles import PROFILES
from toolstream.strict_json import loads_strict, loads_unchecked

OPTIONAL_KEYS = ("request", "meta", "expect")
_ESCAPED_COLON = re.compile(rb"\\u003[aA]")
# One search by the expression alone: ``b"\\u003" in data`` first takes 2.4x
# fewer instructions, but more time (45.8 against 35.8 us over the 1k-chunk
# anthropic-par16 bench file, 156 against 95 us over openai-par16): the C
# substring search's skips are mostly not taken on JSON text.


@dataclass(frozen=True)
class Envelope:
    profile: str
    stream: list[Any]
    tool_schemas: Mapping[str, Any]
    request: Mapping[str, Any] | None


def _invalid(message: str) -> ProtocolError:
    return ProtocolError(Code.INVALID_ENVELOPE, message)


def parse_fixture_bytes(data: bytes, limits: Limits) -> Any:
    """Decode and strictly parse a fixture file's bytes."""
    if len(data) > limits.max_fixture_bytes:
        raise ProtocolError(
            Code.LIMIT_EXCEEDED, f"fixture is larger than {limits.max_fixture_bytes} bytes"
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise _invalid("fixture is UTF-16 (byte-order mark found); fixtures are UTF-8 JSON")
    if data.startswith(b"\xef\xbb\xbf"):
        raise _invalid("fixture starts with a UTF-8 byte-order mark; remove it")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _invalid(f"fixture is not valid UTF-8 (byte {error.start})") from None
    return parse_fixture_text(text, limits)


def read_fixture_unchecked(data: bytes, limits: Limits) -> tuple[Any, int] | None:
    """A fixture file's value read by the bare C scanner, and the number of
    colons in the file: what :class:`toolstream.ledger.Ledger` needs to
    prove afterwards that the file was strict.  None when the file needs
    the strict parser, which then says what is wrong with it: a size, a
    byte-order mark, bad UTF-8, a syntax or number problem, or a colon
    written as an escape (which the ledger's count would miss)."""
    if (
        len(data) > limits.max_fixture_bytes
        or data.startswith((b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf"))
        or _ESCAPED_COLON.search(data) is not None
    ):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    value = loads_unchecked(text, max_number_chars=limits.max_number_chars)
    if value is None:
        return None
    return value, data.count(b":")


def parse_fixture_text(text: str, limits: Limits) -> Any:
    """Strictly parse a fixture's text.  Unpaired surrogate escapes are allowed
    here (a mutant may carry one inside a fragment); the arguments they end up
    in are checked later."""
    # A fixture parses into millions of small objects; the cyclic collector
    # would rescan them repeatedly while they are built (none can be garbage
    # yet), which costs more than the parse itself on large streams.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return loads_strict(
            text,
            max_depth=limits.max_fixture_depth,
            max_number_chars=limits.max_number_chars,
            allow_lone_surrogates=True,
        )
    except ProtocolError as error:
        if error.code is Code.LIMIT_EXCEEDED:
            raise ProtocolError(Code.LIMIT_EXCEEDED, f"fixture file: {error.message}") from None
        raise _invalid(f"fixture file is not strict JSON: {error.message}") from None
    finally:
        if collecting:
            gc.enable()


def check_envelope(fixture: Any) -> Envelope:
    if not isinstance(fixture, Mapping):
        raise _invalid("fixture must be a JSON object")
    profile = fixture.get("profile")
    if not isinstance(profile, str):
        raise _invalid("'profile' is missing or not a string")
    profile_class = PROFILES.get(profile)
    if profile_class is None:
        raise _invalid(f"unknown profile {profile[:40]!r}; known: {', '.join(sorted(PROFILES))}")
    stream_key = profile_class.stream_key
    allowed = {"profile", "tool_schemas", stream_key, *OPTIONAL_KEYS}
    unknown = sorted(str(k) for k in fixture if k not in allowed)
    if unknown:
        raise _invalid(
            f"unknown key(s) {', '.join(repr(k[:40]) for k in unknown[:5])} for profile {profile!r}"
        )
    stream = fixture.get(stream_key)
    if not isinstance(stream, list):
        raise _invalid(f"{stream_key!r} is missing or not an array")
    schemas = fixture.get("tool_schemas")
    if not isinstance(schemas, Mapping):
        raise _invalid("'tool_schemas' is missing or not an object")
    request = fixture.get("request")
    if request is not None and not isinstance(request, Mapping):
        raise _invalid("'request' is not an object")
    for key in ("meta", "expect"):
        if key in fixture and not isinstance(fixture[key], Mapping):
            raise _invalid(f"{key!r} is not an object")
    return Envelope(profile=profile, stream=stream, tool_schemas=schemas, request=request)
