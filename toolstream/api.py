"""The public entry points: a whole fixture in, a :class:`Report` out."""

from __future__ import annotations

import gc
from typing import Any

from toolstream.envelope import check_envelope, parse_fixture_bytes
from toolstream.findings import Code, Finding, ProtocolError
from toolstream.gate import Gate
from toolstream.limits import Limits
from toolstream.report import Report


def validate(fixture: Any, *, limits: Limits | None = None) -> Report:
    """Validate one fixture envelope (a parsed mapping).  Never raises for
    bad input: every problem is a finding in the returned report."""
    try:
        envelope = check_envelope(fixture)
    except ProtocolError as error:
        profile = fixture.get("profile") if isinstance(fixture, dict) else None
        return _envelope_failure(profile if isinstance(profile, str) else None, error)
    gate = Gate(envelope.profile, envelope.tool_schemas, envelope.request, limits=limits)
    gate.feed_all(envelope.stream)
    return gate.close()


def validate_bytes(data: bytes, *, limits: Limits | None = None) -> Report:
    """Validate a fixture file's raw bytes (strict UTF-8 JSON)."""
    # The parsed fixture is hundreds of thousands of fresh, acyclic objects
    # on a large stream: a young-generation collection right after the parse
    # would scan them all for nothing (measured: 12% of a 100k-chunk run).
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            fixture = parse_fixture_bytes(data, limits or Limits())
        except ProtocolError as error:
            return _envelope_failure(None, error)
        return validate(fixture, limits=limits)
    finally:
        if collecting:
            gc.enable()


def _envelope_failure(profile: str | None, error: ProtocolError) -> Report:
    code = error.code if error.code is Code.LIMIT_EXCEEDED else Code.INVALID_ENVELOPE
    finding = Finding(code=code, message=error.message)
    return Report(profile=profile, status="blocked", calls=(), findings=(finding,))
