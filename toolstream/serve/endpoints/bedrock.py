"""Amazon Bedrock ConverseStream: ``POST /model/{modelId}/converse-stream``.

The body is binary AWS event-stream (``application/vnd.amazon.eventstream``),
one frame per event, CRCs computed by :mod:`toolstream.capture.eventstream`.
An item ``{"contentBlockDelta": {...}}`` becomes an ``event`` frame with
``:event-type: contentBlockDelta``, ``:content-type: application/json`` and
the inner object as its payload (the inverse of what ``toolstream import``
reads); an item whose type ends in ``Exception`` becomes an ``exception``
frame (``:exception-type``), as Bedrock sends a mid-stream error.

The model is the path's ``modelId`` (percent-decoded: botocore sends
``case:op/hash`` as ``case%3Aop%2Fhash``).  The non-streaming
``/model/{modelId}/converse`` gets a ``ValidationException``.  Errors: a JSON
``{"message"}`` body with the ``x-amzn-ErrorType`` header botocore reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolstream.capture.eventstream import encode_frame
from toolstream.serve.cases import encode, object_members
from toolstream.serve.endpoints._base import (
    STATUS,
    Endpoint,
    Problem,
    Record,
    Reply,
    Unplayable,
    json_reply,
)

_ERROR_TYPES = {
    400: "ValidationException",
    404: "ResourceNotFoundException",
    405: "ValidationException",
    413: "ValidationException",
    500: "InternalServerException",
}


class BedrockConverseStream(Endpoint):
    title = "Bedrock ConverseStream"
    path = "/model/{modelId}/converse-stream"
    route = re.compile(r"/model/(?P<model>[^/]+)/(?P<operation>converse-stream|converse)")
    framing = "eventstream"
    content_type = "application/vnd.amazon.eventstream"
    names_events = False
    request_id_header = "x-amzn-RequestId"

    def model(self, body: Mapping[str, Any], match: re.Match[str]) -> str | None:
        return match.group("model")

    def not_streaming(self, body: Mapping[str, Any], match: re.Match[str]) -> str | None:
        if match.group("operation") != "converse-stream":
            return "only ConverseStream is served: call converse_stream (POST .../converse-stream)"
        return None

    def records(self, stream: Sequence[Any]) -> list[Record]:
        frames: list[Record] = []
        for number, item in enumerate(stream):
            members = object_members(item)
            if not (
                members is not None
                and len(members) == 1
                and object_members(members[0][1]) is not None
            ):
                raise Unplayable(
                    f"event {number} is not an object with one member naming its type"
                    " (an event-stream frame has exactly one type and an object payload)"
                )
            ((kind, body),) = members
            if not kind or len(kind.encode("utf-8")) > 0xFFFF:
                raise Unplayable(f"event {number}: its type cannot be a frame header")
            payload = encode(body).encode("utf-8")
            if kind.endswith("Exception"):
                headers = {
                    ":exception-type": kind,
                    ":content-type": "application/json",
                    ":message-type": "exception",
                }
            else:
                headers = {
                    ":event-type": kind,
                    ":content-type": "application/json",
                    ":message-type": "event",
                }
            frames.append(encode_frame(headers, payload))
        return frames

    def error(self, problem: Problem, message: str) -> Reply:
        status = STATUS[problem]
        kind = _ERROR_TYPES[status]
        return json_reply(
            status,
            {"message": message},
            {"x-amzn-ErrorType": f"{kind}:http://internal.amazon.com/coral/com.amazon.bedrock/"},
        )
