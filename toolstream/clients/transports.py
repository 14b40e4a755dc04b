"""The transport variants ``toolstream diff --transport`` names, each a
``toolstream serve`` transport spec (see ``toolstream/serve/transport.py``).

A name from :data:`TRANSPORTS`, or any serve spec as it is (``every:7,crlf``).
"""

from __future__ import annotations

from typing import Final

__all__ = ["DEFAULT_TRANSPORTS", "TRANSPORTS", "serve_spec"]

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
