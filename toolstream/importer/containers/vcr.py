"""VCR.py / pytest-recording cassettes (YAML or JSON), and Ruby VCR's.

::

    interactions:                      # Ruby VCR: http_interactions
    - request:  {method, uri, headers, body}          # pydantic-ai: parsed_body
      response: {status: {code, message}, headers,
                 body: {string: <text or !!binary>}}   # or parsed_body; Ruby: base64_string

A body is a plain string, ``!!binary`` bytes, ``{"string": ...}`` or
``{"base64_string": ...}``; pydantic-ai replaces JSON bodies by their parsed
value under ``parsed_body``.  A gzip- or deflate-encoded body is decoded by
its ``Content-Encoding`` header.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from toolstream.importer.containers._http import (
    ContainerError,
    Interaction,
    as_bytes,
    decode_content,
    header,
    json_body,
    media_type,
    request_json,
    url_path,
)

KEYS = ("interactions", "http_interactions")


def claims(document: object) -> bool:
    if not isinstance(document, Mapping):
        return False
    for key in KEYS:
        entries = document.get(key)
        if isinstance(entries, list):
            first = entries[0] if entries else {}
            request = first.get("request") if isinstance(first, Mapping) else None
            return not entries or (isinstance(request, Mapping) and "url" not in request)
    return False


def read(document: object) -> list[Interaction]:
    assert isinstance(document, Mapping)
    key = next(k for k in KEYS if isinstance(document.get(k), list))
    out: list[Interaction] = []
    for index, entry in enumerate(document[key]):
        at = f"{key}[{index}]"
        if not isinstance(entry, Mapping):
            raise ContainerError(f"{at} is not a mapping")
        request = entry.get("request")
        response = entry.get("response")
        if not isinstance(request, Mapping) or not isinstance(response, Mapping):
            raise ContainerError(f"{at} has no request and response mappings")
        notes: list[str] = []
        req_headers = request.get("headers")
        if "parsed_body" in request:
            parsed = request["parsed_body"]
        else:
            parsed = request_json(
                _body(request.get("body"), f"{at}.request.body"),
                header(req_headers, "content-encoding"),
                f"{at}.request",
                notes,
            )
        headers = response.get("headers")
        if "parsed_body" in response:
            body = json_body(response["parsed_body"])
        else:
            raw = _body(response.get("body"), f"{at}.response.body")
            body = decode_content(
                as_bytes(raw, f"{at}.response.body"),
                header(headers, "content-encoding"),
                f"{at}.response",
                notes,
            )
        out.append(
            Interaction(
                index=index,
                method=_text(request.get("method")),
                url_path=url_path(request.get("uri")),
                status=_status(response.get("status")),
                content_type=media_type(header(headers, "content-type")),
                response=body,
                request=parsed,
                notes=tuple(notes),
            )
        )
    return out


def _body(value: Any, at: str) -> Any:
    """A recorded body as text or bytes (None: no body)."""
    if isinstance(value, Mapping):
        if "base64_string" in value:
            encoded = value["base64_string"]
            try:
                return base64.b64decode(b"".join(as_bytes(encoded, at).split()), validate=True)
            except (binascii.Error, ValueError):
                raise ContainerError(f"{at}.base64_string is not base64") from None
        return value.get("string")
    return value


def _status(value: Any) -> int | None:
    if isinstance(value, Mapping):
        value = value.get("code")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
