"""Gemini Interactions API: ``POST /v1beta/interactions`` with
``"stream": true`` (also ``/v1/interactions``).

Each event is one ``data:`` line; the event names itself in its
``event_type`` member, so there is no ``event:`` line, and no ``[DONE]``
(``interaction.completed`` is in the case).  Errors: Google's
``{"error": {"code", "message", "status"}}``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from toolstream.serve.cases import encode
from toolstream.serve.endpoints._base import Endpoint, Problem, Record, Reply, SSEEvent
from toolstream.serve.endpoints.gemini import google_error


class GeminiInteractions(Endpoint):
    title = "Gemini Interactions"
    path = "/v1beta/interactions"
    route = re.compile(r"/(?:v1|v1beta)/interactions")
    names_events = False
    request_id_header = "x-goog-request-id"

    def records(self, stream: Sequence[Any]) -> list[Record]:
        return [SSEEvent(None, encode(item)) for item in stream]

    def error(self, problem: Problem, message: str) -> Reply:
        return google_error(problem, message)
