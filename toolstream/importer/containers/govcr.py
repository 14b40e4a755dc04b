"""go-vcr cassettes (``gopkg.in/dnaeon/go-vcr.v*``), versions 1 and 2.

::

    version: 2
    interactions:
    - id: 0                                   # version 2
      request:  {method, url, headers, body, form}
      response: {code: 200, status: "200 OK", headers, body}

Bodies are strings (go-yaml writes non-UTF-8 bytes as ``!!binary``).  Go's
HTTP client usually undoes gzip before go-vcr records (``uncompressed:
true``); when the bytes are still gzip-encoded, the ``Content-Encoding``
header decodes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolstream.importer.containers._http import (
    ContainerError,
    Interaction,
    as_bytes,
    decode_content,
    header,
    media_type,
    request_json,
    url_path,
)


def claims(document: object) -> bool:
    if not isinstance(document, Mapping):
        return False
    entries = document.get("interactions")
    if not isinstance(entries, list) or not entries or not isinstance(entries[0], Mapping):
        return False
    request = entries[0].get("request")
    return isinstance(request, Mapping) and "url" in request and "uri" not in request


def read(document: object) -> list[Interaction]:
    assert isinstance(document, Mapping)
    out: list[Interaction] = []
    for index, entry in enumerate(document["interactions"]):
        at = f"interactions[{index}]"
        if not isinstance(entry, Mapping):
            raise ContainerError(f"{at} is not a mapping")
        request = entry.get("request")
        response = entry.get("response")
        if not isinstance(request, Mapping) or not isinstance(response, Mapping):
            raise ContainerError(f"{at} has no request and response mappings")
        notes: list[str] = []
        parsed = request_json(
            request.get("body"),
            header(request.get("headers"), "content-encoding"),
            f"{at}.request",
            notes,
        )
        headers = response.get("headers")
        body = decode_content(
            as_bytes(response.get("body"), f"{at}.response.body"),
            header(headers, "content-encoding"),
            f"{at}.response",
            notes,
        )
        out.append(
            Interaction(
                index=index,
                method=request.get("method") if isinstance(request.get("method"), str) else None,
                url_path=url_path(request.get("url")),
                status=_status(response),
                content_type=media_type(header(headers, "content-type")),
                response=body,
                request=parsed,
                notes=tuple(notes),
            )
        )
    return out


def _status(response: Mapping[str, Any]) -> int | None:
    code = response.get("code")
    if isinstance(code, int) and not isinstance(code, bool):
        return code
    status = response.get("status")
    head = status.split(" ", 1)[0] if isinstance(status, str) else ""
    return int(head) if head.isdigit() and head.isascii() else None
