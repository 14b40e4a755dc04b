"""Downstream ``anthropic``: Messages, ``POST /v1/messages`` with
``"stream": true`` (and the ``anthropic-version`` header the API requires)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from toolstream.gateway.downstream.base import PROMPT, Choice, Downstream, case_tools

__all__ = ["AnthropicMessages"]

MAX_TOKENS: Final = 1024


class AnthropicMessages(Downstream):
    profile = "anthropic"
    path = "/v1/messages"
    headers: ClassVar[Mapping[str, str]] = {"anthropic-version": "2023-06-01"}

    def tools(self, fixture: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [{"name": name, "input_schema": schema} for name, schema in case_tools(fixture)]

    def tool_choice(self, choice: Choice) -> Any:
        if choice.mode == "tool":
            return {"type": "tool", "name": choice.name}
        return {"type": {"required": "any"}.get(choice.mode, choice.mode)}

    def body(self, model: str, tools: list[dict[str, Any]], choice: Any) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": model,
            "max_tokens": MAX_TOKENS,
            "messages": [{"role": "user", "content": PROMPT}],
            "stream": True,
        }
        if tools:
            body["tools"] = tools
            if choice is not None:
                body["tool_choice"] = choice
        return body
