"""Where the gateway under test comes from: a URL the user runs it at, a
command template the run starts, or a recipe (:mod:`.litellm`).

A gateway yields its base URL given the ``serve`` URL it must use as its
provider, and names the model a request asks for to reach one case (the
model is how a gateway routes; ``serve`` selects the case from the model the
gateway forwards, or from the ``X-Toolstream-Case`` header when the gateway
forwards headers).
"""

from __future__ import annotations

import abc
import contextlib
from collections.abc import Iterator
from typing import Any

from toolstream.gateway.process import DEFAULT_STARTUP, expand, started

__all__ = ["CommandGateway", "Gateway", "UrlGateway"]


class Gateway(abc.ABC):
    """One gateway under test."""

    kind: str

    @abc.abstractmethod
    def running(self, upstream: str) -> contextlib.AbstractContextManager[str]:
        """Start (or find) the gateway pointed at ``upstream``; yield its URL."""

    def model(self, case: str, upstream_profile: str) -> str:
        """The model a downstream request names to reach ``case``."""
        return f"case:{case}"

    def headers(self) -> dict[str, str]:
        """Headers every request to the gateway carries (its credentials)."""
        return {}

    @abc.abstractmethod
    def describe(self) -> dict[str, Any]:
        """What the JSON output says about the gateway (no port, no time)."""


class UrlGateway(Gateway):
    """A gateway the user runs, already pointed at the fixed upstream port."""

    kind = "url"

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")

    @contextlib.contextmanager
    def running(self, upstream: str) -> Iterator[str]:
        yield self.url

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind}


class CommandGateway(Gateway):
    """``--gateway-command``: see :mod:`toolstream.gateway.process`."""

    kind = "command"

    def __init__(self, template: str, startup: float = DEFAULT_STARTUP) -> None:
        self.template = template
        self.startup = startup
        expand(template, "http://127.0.0.1:1")  # a template without {upstream} fails now

    @contextlib.contextmanager
    def running(self, upstream: str) -> Iterator[str]:
        with started(expand(self.template, upstream), startup=self.startup) as (_, url):
            yield url.rstrip("/")

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "command": self.template}
