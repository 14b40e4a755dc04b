"""Cohere v2 Chat: ``POST /v2/chat`` with ``"stream": true``.

Each event is an ``event:`` line naming its ``type`` and one ``data:``
line (cohere-python reads the ``data:``; the name is the same ``type``);
no ``[DONE]`` (``message-end`` is in the case).  Errors: Cohere's
``{"id", "message"}``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from toolstream.serve.endpoints._base import (
    STATUS,
    Endpoint,
    Problem,
    Record,
    Reply,
    json_reply,
    typed_events,
)


class CohereChat(Endpoint):
    title = "Cohere Chat v2"
    path = "/v2/chat"
    route = re.compile(r"/v2/chat")

    def records(self, stream: Sequence[Any]) -> list[Record]:
        return typed_events(stream)

    def error(self, problem: Problem, message: str) -> Reply:
        return json_reply(STATUS[problem], {"id": "toolstream-error", "message": message})
