"""Downstream ``openai-responses``: the Responses API, ``POST /v1/responses``
with ``"stream": true``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolstream.gateway.downstream.base import PROMPT, Choice, Downstream, case_tools

__all__ = ["OpenAIResponses"]


class OpenAIResponses(Downstream):
    profile = "openai-responses"
    path = "/v1/responses"

    def tools(self, fixture: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [
            {"type": "function", "name": name, "parameters": schema}
            for name, schema in case_tools(fixture)
        ]

    def tool_choice(self, choice: Choice) -> Any:
        if choice.mode == "tool":
            return {"type": "function", "name": choice.name}
        return choice.mode

    def body(self, model: str, tools: list[dict[str, Any]], choice: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"model": model, "input": PROMPT, "stream": True}
        if tools:
            body["tools"] = tools
            if choice is not None:
                body["tool_choice"] = choice
        return body
