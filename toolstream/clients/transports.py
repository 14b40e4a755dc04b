"""The transport variants ``toolstream diff --transport`` names, each a
``toolstream serve`` transport spec (see ``toolstream/serve/transport.py``).

A name from :data:`TRANSPORTS`, or any serve spec as it is (``every:7,crlf``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

__all__ = [
    "DEFAULT_TRANSPORTS",
    "TRANSPORTS",
    "cut_transport",
    "delivered",
    "inapplicable",
    "serve_spec",
    "transport_problem",
]

TRANSPORTS: Final[dict[str, str]] = {
    "plain": "default",
    "split": "split-utf8",
    "chop": "every:16",
    "crlf": "crlf",
    "cr": "cr",
    "keepalive": "keepalive",
    "close": "close",
    "cut-chunked": "cut-chunked",
    "cut-close": "cut-close",
}
"""Name -> serve spec.  ``plain``: one write per event.  ``split``: a write
boundary inside every multi-byte UTF-8 character and between every CR and
LF.  ``chop``: writes of 16 bytes, whatever they cut.  ``crlf`` / ``cr``:
those line endings.  ``keepalive``: a comment line before every event.
``close``: a complete close-delimited body.  ``cut-chunked``: the chunked
body stops half-way through its middle event and the connection closes
without the terminating chunk.  ``cut-close``: a close-delimited body
stopped half-way through its middle event (the client sees a clean end)."""

DEFAULT_TRANSPORTS: Final = ("plain",)


def serve_spec(name: str) -> str:
    """The serve spec for a transport name (a spec is returned as it is;
    ``toolstream serve`` rejects a malformed one with a clear 400)."""
    return TRANSPORTS.get(name, name)


def _parsed(name: str) -> Any:
    """The serve transport of a variant name, or None for a malformed spec
    (left to the server to refuse, with a clear 400)."""
    from toolstream.serve.transport import TransportError, parse_transport

    try:
        return parse_transport(serve_spec(name))
    except TransportError:
        return None


def transport_problem(name: str) -> str | None:
    """Why ``name`` is no transport (neither a name of :data:`TRANSPORTS` nor
    a serve spec ``toolstream serve`` accepts), one line; None when it is.
    Checked before anything runs: a client asked for an unknown transport
    would be refused by the server on every case, a refusal that is not the
    library's."""
    from toolstream.serve.transport import TransportError, parse_transport

    if not name.strip():
        return "an empty transport name"
    try:
        parse_transport(serve_spec(name))
    except TransportError as error:
        known = ", ".join(TRANSPORTS)
        return f"transport {name!r} is not one of {known} nor a serve spec ({error})"
    return None


def cut_transport(name: str) -> bool:
    """Whether the variant ends the body early (``cut-chunked``, ``cut-close``):
    the client then receives a prefix of the case, and is judged against it."""
    transport = _parsed(name)
    return transport is not None and transport.cut_at is not None


def inapplicable(name: str, framing: str, reader: str) -> str | None:
    """Why the variant ``name`` cannot reach a client (``reader``) that
    reads bodies framed as ``framing``, or None: the server would refuse
    every request (``crlf`` on binary event-stream frames), a column that
    says nothing about the client.  A malformed spec is left to the server
    to refuse (None here)."""
    transport = _parsed(name)
    return None if transport is None else transport.applies_to_framing(framing, reader)


def delivered(fixture: Mapping[str, Any], name: str) -> dict[str, Any]:
    """What a client receives of ``fixture`` under the cut variant ``name``:
    the items before the record the server cuts half-way through (a half
    event is no event: an SSE or event-stream reader drops it).  The fixture
    itself for a variant that cuts nothing, or a case the server cannot play."""
    from toolstream.profiles import PROFILES
    from toolstream.serve.cases import collect
    from toolstream.serve.endpoints import ENDPOINTS
    from toolstream.serve.transport import parse_transport

    out = dict(fixture)
    transport = parse_transport(serve_spec(name))
    profile = fixture.get("profile")
    known = PROFILES.get(profile) if isinstance(profile, str) else None
    endpoint = ENDPOINTS.get(profile) if isinstance(profile, str) else None
    if transport.cut_at is None or known is None or endpoint is None:
        return out
    stream = fixture.get(known.stream_key)
    if not isinstance(stream, list) or not stream:
        return out
    try:
        (served,) = collect(("cut", dict(fixture)))
        count = len(endpoint.records(served.stream))
    except Exception:  # not playable: the server answers with an error, judged as is
        return out
    at = count // 2 if transport.cut_at < 0 else min(transport.cut_at, count - 1)
    out[known.stream_key] = list(stream[:at])
    return out
