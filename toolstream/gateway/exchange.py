"""One request to the gateway, and its answer recorded as raw bytes.

The body is read as it arrives, in whatever writes the gateway makes, until
the gateway ends it, the connection breaks, or the case's deadline passes;
what arrived is kept in every case (a body cut off is still judged: it is
what a client would have had).  Standard library only (``http.client``).
"""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

__all__ = ["Answer", "GatewayUnreachable", "exchange"]


class GatewayUnreachable(Exception):
    """No HTTP answer at all: refused, reset before the status line, or a
    timeout before it."""


@dataclass(frozen=True)
class Answer:
    """The gateway's HTTP answer: ``status``, ``content_type``, the raw
    ``body`` as received, and ``cut``: why the body ended early (a
    connection broken mid-body, the deadline), else ``None``."""

    status: int
    content_type: str
    body: bytes
    cut: str | None = None

    def error_message(self) -> str:
        """The provider-style error message in the body, else its start."""
        text = self.body[:2000].decode("utf-8", "replace")
        try:
            data = json.loads(text)
        except ValueError:
            return " ".join(text.split())[:200]
        if isinstance(data, dict):
            error = data.get("error", data)
            if isinstance(error, dict) and isinstance(error.get("message"), str):
                return " ".join(str(error["message"]).split())[:200]
            if isinstance(error, str):
                return " ".join(error.split())[:200]
        return " ".join(text.split())[:200]


def exchange(
    url: str,
    path: str,
    body: Mapping[str, Any],
    headers: Mapping[str, str],
    *,
    timeout: float,
) -> Answer:
    """POST ``body`` to ``url`` + ``path`` and read the whole answer within
    ``timeout`` seconds.  Raises :class:`GatewayUnreachable` when there is no
    answer at all."""
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise GatewayUnreachable(f"not an http:// URL: {url!r}")
    deadline = time.monotonic() + timeout
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)
    payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
    target = parts.path.rstrip("/") + path
    try:
        try:
            connection.request(
                "POST",
                target,
                body=payload,
                headers={
                    "Content-Type": "application/json",
                    "Accept": "text/event-stream",
                    "Authorization": "Bearer toolstream-dummy-key",
                    "x-api-key": "toolstream-dummy-key",
                    **headers,
                },
            )
            response = connection.getresponse()
        except (OSError, http.client.HTTPException) as error:
            raise GatewayUnreachable(_describe(error)) from None
        received: list[bytes] = []
        cut: str | None = None
        while True:
            if time.monotonic() > deadline:
                cut = f"still streaming after {timeout:g}s"
                break
            try:
                piece = response.read1(65536)
            except http.client.IncompleteRead as error:
                received.append(error.partial)
                cut = "the connection closed mid-body (IncompleteRead)"
                break
            except (OSError, http.client.HTTPException) as error:
                cut = f"the body broke off: {_describe(error)}"
                break
            if not piece:
                break
            received.append(piece)
        return Answer(
            status=response.status,
            content_type=response.getheader("Content-Type", "") or "",
            body=b"".join(received),
            cut=cut,
        )
    finally:
        connection.close()


def _describe(error: BaseException) -> str:
    if isinstance(error, (socket.timeout, TimeoutError)):
        return "timed out"
    text = str(error) or type(error).__name__
    return f"{type(error).__name__}: {' '.join(text.split())}"[:200]
