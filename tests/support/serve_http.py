"""A plain HTTP request to a running ``toolstream serve`` (for the serve tests)."""

from __future__ import annotations

import http.client
import json
from collections.abc import Mapping
from typing import Any

from toolstream.serve import Server


def request(
    server: Server,
    method: str,
    path: str,
    body: Any = None,
    headers: Mapping[str, str] | None = None,
    raw: bytes | None = None,
) -> tuple[int, http.client.HTTPResponse, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        connection.request(method, path, body=data, headers=dict(headers or {}))
        response = connection.getresponse()
        try:
            payload = response.read()
        except http.client.IncompleteRead as error:
            payload = b"INCOMPLETE:" + bytes(error.partial)
        return response.status, response, payload
    finally:
        connection.close()
