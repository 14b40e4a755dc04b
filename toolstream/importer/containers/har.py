"""HAR 1.2 archives (browser devtools, mitmproxy, Proxyman, Charles).

::

    {"log": {"entries": [
      {"request":  {"method", "url", "headers": [{"name", "value"}],
                    "postData": {"mimeType", "text"}},
       "response": {"status", "headers",
                    "content": {"mimeType", "text", "encoding": "base64"?}}}]}}

``content.text`` is the decoded body (HAR stores it after any
``Content-Encoding`` is undone), base64 when ``content.encoding`` says so.
An entry whose ``content.text`` is absent recorded no body (devtools
exports without content): it is not a stream this importer can read.
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
    media_type,
    request_json,
    url_path,
)


def claims(document: object) -> bool:
    if not isinstance(document, Mapping):
        return False
    log = document.get("log")
    return isinstance(log, Mapping) and isinstance(log.get("entries"), list)


def read(document: object) -> list[Interaction]:
    assert isinstance(document, Mapping)
    out: list[Interaction] = []
    for index, entry in enumerate(document["log"]["entries"]):
        at = f"log.entries[{index}]"
        if not isinstance(entry, Mapping):
            raise ContainerError(f"{at} is not an object")
        request = entry.get("request")
        response = entry.get("response")
        if not isinstance(request, Mapping) or not isinstance(response, Mapping):
            raise ContainerError(f"{at} has no request and response objects")
        notes: list[str] = []
        post = request.get("postData")
        text = post.get("text") if isinstance(post, Mapping) else None
        parsed = request_json(text, None, f"{at}.request", notes)
        content = response.get("content")
        if not isinstance(content, Mapping):
            raise ContainerError(f"{at}.response has no content object")
        body = _content(content, f"{at}.response.content")
        headers = response.get("headers")
        # HAR text is decoded already; gzip magic means a recorder that did not.
        body = decode_content(body, header(headers, "content-encoding"), f"{at}.response", [])
        mime = content.get("mimeType")
        status = response.get("status")
        out.append(
            Interaction(
                index=index,
                method=request.get("method") if isinstance(request.get("method"), str) else None,
                url_path=url_path(request.get("url")),
                status=status if isinstance(status, int) and not isinstance(status, bool) else None,
                content_type=media_type(
                    mime if isinstance(mime, str) else header(headers, "content-type")
                ),
                response=body,
                request=parsed,
                notes=tuple(notes),
            )
        )
    return out


def _content(content: Mapping[str, Any], at: str) -> bytes:
    text = content.get("text")
    encoding = content.get("encoding")
    if encoding in (None, ""):
        return as_bytes(text, f"{at}.text")
    if encoding != "base64":
        raise ContainerError(f"{at}.encoding is {str(encoding)[:20]!r}; HAR knows only base64")
    try:
        return base64.b64decode(b"".join(as_bytes(text, f"{at}.text").split()), validate=True)
    except (binascii.Error, ValueError):
        raise ContainerError(f"{at}.text is not base64") from None
