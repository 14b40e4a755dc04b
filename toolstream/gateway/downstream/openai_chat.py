"""Downstream ``openai``: Chat Completions, ``POST /v1/chat/completions``
with ``"stream": true``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolstream.gateway.downstream.base import PROMPT, Choice, Downstream, case_tools

__all__ = ["OpenAIChat"]


class OpenAIChat(Downstream):
    profile = "openai"
    path = "/v1/chat/completions"

    def tools(self, fixture: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [
            {"type": "function", "function": {"name": name, "parameters": schema}}
            for name, schema in case_tools(fixture)
        ]

    def tool_choice(self, choice: Choice) -> Any:
        if choice.mode == "tool":
            return {"type": "function", "function": {"name": choice.name}}
        return choice.mode

    def body(self, model: str, tools: list[dict[str, Any]], choice: Any) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": model,
            "messages": [{"role": "user", "content": PROMPT}],
            "stream": True,
        }
        if tools:
            body["tools"] = tools
            if choice is not None:
                body["tool_choice"] = choice
        return body
