"""What a downstream format is: the request toolstream sends the gateway in
that format, and how it names the fixture's ``tool_choice``.

A case's ``tool_choice`` is in the *upstream* format (OpenAI's
``"required"``, Mistral's ``"any"``, Anthropic's ``{"type": "any"}``...);
:func:`neutral_choice` reads any of them as one :class:`Choice`, which each
downstream module writes in its own format.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from toolstream.clients.base import fixture_tool_choice, fixture_tools

__all__ = ["PROMPT", "Choice", "Downstream", "DownstreamRequest", "neutral_choice"]

PROMPT: Final = "toolstream gateway-check case"
"""The one user message every request carries (the upstream ignores it)."""


@dataclass(frozen=True)
class Choice:
    """A ``tool_choice`` in no format: ``mode`` is ``auto``, ``required``,
    ``none`` or ``tool`` (then ``name`` is the forced tool)."""

    mode: str
    name: str | None = None


def neutral_choice(value: Any) -> Choice | None:
    """Any provider's ``tool_choice`` as a :class:`Choice`; ``None`` for no
    choice or one no format here names."""
    if isinstance(value, str):
        mode = {"auto": "auto", "required": "required", "any": "required", "none": "none"}
        return Choice(mode[value]) if value in mode else None
    if isinstance(value, Mapping):
        kind = value.get("type")
        function = value.get("function")
        if isinstance(function, Mapping) and isinstance(function.get("name"), str):
            return Choice("tool", str(function["name"]))
        if kind in ("tool", "function") and isinstance(value.get("name"), str):
            return Choice("tool", str(value["name"]))
        if kind in ("auto", "any", "none"):
            return neutral_choice(kind)
    return None


@dataclass(frozen=True)
class DownstreamRequest:
    """One request to the gateway: ``path`` below the gateway's URL, the JSON
    ``body``, and ``request``, the fixture member the downstream stream is
    validated with (its ``tool_choice`` in the downstream format)."""

    path: str
    body: dict[str, Any]
    headers: Mapping[str, str]
    request: dict[str, Any]


class Downstream(abc.ABC):
    """One downstream wire format (named by its validator profile)."""

    profile: str
    path: str
    headers: ClassVar[Mapping[str, str]] = {}

    @abc.abstractmethod
    def tools(self, fixture: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The case's tools in this format."""

    @abc.abstractmethod
    def tool_choice(self, choice: Choice) -> Any:
        """``choice`` in this format."""

    @abc.abstractmethod
    def body(self, model: str, tools: list[dict[str, Any]], choice: Any) -> dict[str, Any]:
        """The streaming request body."""

    def build(self, fixture: Mapping[str, Any], model: str) -> DownstreamRequest:
        neutral = neutral_choice(fixture_tool_choice(fixture))
        choice = None if neutral is None else self.tool_choice(neutral)
        body = self.body(model, self.tools(fixture), choice)
        request = {} if choice is None else {"tool_choice": choice}
        return DownstreamRequest(self.path, body, dict(self.headers), request)


def case_tools(fixture: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The case's tools as ``(name, JSON schema)``."""
    return fixture_tools(fixture)
