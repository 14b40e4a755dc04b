"""OpenAI Responses: ``POST /v1/responses``.

Each event is an ``event:`` line naming its ``type`` and one ``data:``
line; no ``[DONE]`` (``response.completed`` ends the stream).  Errors in
OpenAI's shape.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from toolstream.serve.endpoints._base import Endpoint, Problem, Record, Reply, typed_events
from toolstream.serve.endpoints.openai_chat import openai_error


class OpenAIResponses(Endpoint):
    title = "OpenAI Responses"
    path = "/v1/responses"
    route = re.compile(r"/v1/responses")

    def records(self, stream: Sequence[Any]) -> list[Record]:
        return typed_events(stream)

    def error(self, problem: Problem, message: str) -> Reply:
        return openai_error(problem, message)
