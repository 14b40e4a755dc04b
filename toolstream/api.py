"""The public entry points: a whole fixture in, a :class:`Report` out."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import Any

from toolstream.envelope import check_envelope, parse_fixture_bytes, read_fixture_unchecked
from toolstream.file_gate import FileGate
from toolstream.findings import Code, Finding, ProtocolError
from toolstream.gate import Gate
from toolstream.limits import DEFAULT_LIMITS, Limits
from toolstream.report import Report, Status


def validate(
    fixture: Any, *, limits: Limits | None = None, dialects: Sequence[str] | None = None
) -> Report:
    """Validate one fixture envelope (a parsed mapping).  Never raises for
    bad input: every problem is a finding in the returned report.
    ``dialects``: None reads every reviewed dialect, ``()`` none (the pure
    closed world), names only those (see toolstream.profiles.dialects)."""
    return _validate(fixture, limits, Gate, dialects)


def _validate(
    fixture: Any,
    limits: Limits | None,
    gate_class: type[Gate],
    dialects: Sequence[str] | None = None,
) -> Report:
    try:
        envelope = check_envelope(fixture)
    except ProtocolError as error:
        profile = fixture.get("profile") if isinstance(fixture, dict) else None
        return _envelope_failure(profile if isinstance(profile, str) else None, error)
    gate = gate_class(
        envelope.profile, envelope.tool_schemas, envelope.request, limits=limits, dialects=dialects
    )
    gate.feed_all(envelope.stream)
    return gate.close()


_ParsedGate = FileGate
"""The gate both file routes run, under the name the tests reach for."""


LEDGER_MIN_BYTES = 32 * 1024
"""Files from this size on take the ledger route first.  Below it the strict
parser is as fast or faster: a small file has few runs, and walking the rest
in Python costs more than the strict parse's checks (measured on the shipped
corpus, median 9 KB: 10-25% more per file below 32 KB)."""


def validate_bytes(
    data: bytes, *, limits: Limits | None = None, dialects: Sequence[str] | None = None
) -> Report:
    """Validate a fixture file's raw bytes (strict UTF-8 JSON); ``dialects``
    as for :func:`validate`."""
    # The parsed fixture is hundreds of thousands of fresh, acyclic objects
    # on a large stream: a young-generation collection right after the parse
    # would scan them all for nothing (measured: 12% of a 100k-chunk run).
    collecting = gc.isenabled()
    gc.disable()
    try:
        report = None
        if len(data) >= LEDGER_MIN_BYTES:
            report = _validate_proving_strict(data, limits or DEFAULT_LIMITS, dialects)
        if report is None:
            report = _validate_strictly_parsed(data, limits, dialects)
        return report
    finally:
        if collecting:
            gc.enable()


def _validate_strictly_parsed(
    data: bytes, limits: Limits | None, dialects: Sequence[str] | None = None
) -> Report:
    """The reference route: the strict parser reads the file first."""
    try:
        fixture = parse_fixture_bytes(data, limits or DEFAULT_LIMITS)
    except ProtocolError as error:
        return _envelope_failure(None, error)
    return _validate(fixture, limits, FileGate, dialects)


def _validate_proving_strict(
    data: bytes, limits: Limits, dialects: Sequence[str] | None = None
) -> Report | None:
    """The report for a file read by the bare C scanner, once its ledger
    proves the file strict; None when it does not (the file then goes
    through the strict parser, which finds what is wrong)."""
    read = read_fixture_unchecked(data, limits)
    if read is None:
        return None
    fixture, file_colons = read
    try:
        envelope = check_envelope(fixture)
    except ProtocolError:
        return None
    gate = FileGate(
        envelope.profile, envelope.tool_schemas, envelope.request, limits=limits, dialects=dialects
    )
    try:
        ledger = gate.feed_counting(envelope.stream)
        report = gate.close()
    except RecursionError:
        # The depth is not known yet: a value nested past what the rest of
        # the gate can recurse into (a repr, say) is one the strict route
        # refuses before the gate sees it.
        return None
    if ledger.settle(fixture, gate.stream_key, file_colons, limits.max_fixture_depth):
        return report
    return None


def _envelope_failure(profile: str | None, error: ProtocolError) -> Report:
    code = error.code if error.code is Code.LIMIT_EXCEEDED else Code.INVALID_ENVELOPE
    finding = Finding(code=code, message=error.message)
    return Report(profile=profile, status=Status.BLOCKED, calls=(), findings=(finding,))
