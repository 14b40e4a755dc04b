"""What every client driver shares: the target it is pointed at, the request
it makes, the per-case deadline, and the errors that count as the library's
own refusal.

A *client driver* runs one real client library, unmodified, against
``toolstream serve``: it builds the library's client with a dummy API key,
retries off and a timeout, points its base URL at the server (the case and
the transport variant selected by the URL's path prefix, so nothing else in
the client changes), makes the streaming request with the case's tools and
``tool_choice``, and reads back what the library hands to the application.
Its result is an :class:`~toolstream.adapters.base.AdapterResult`, so
``toolstream diff`` classifies a client exactly as it classifies an adapter.

Outcome of :meth:`Client.drive`, as for an adapter:

* an ``AdapterResult`` with ``rejected=False``: the calls the library hands
  over (possibly none);
* ``rejected=True``: the library raised the error it documents for a failed
  or refused turn (each driver's docstring lists which exceptions count; a
  transport error the library surfaces to the application, such as a body
  cut off mid-event, counts: the application sees an error, not a call);
* any other exception propagates, noted as raised inside the library when it
  was (``library_raised``), and ``diff`` classifies it as ``adapter_crash``.
  So does :class:`StallTimeout`: the library neither returned nor raised
  before the case's deadline (a stream that stalls forever hangs the
  application).
"""

from __future__ import annotations

import abc
import json
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from toolstream.adapters.base import AdapterResult, package_version

__all__ = [
    "DUMMY_API_KEY",
    "MODEL",
    "Client",
    "Deadline",
    "StallTimeout",
    "Target",
    "fixture_tool_choice",
    "fixture_tools",
    "http_module",
    "json_text",
    "refused",
    "shared_async_http_client",
    "shared_http_client",
]

DUMMY_API_KEY: Final = "toolstream-dummy-key"
"""The API key every client is given: the server ignores it, the request log drops it."""

MODEL: Final = "toolstream"
"""The model every request names (the path prefix selects the case)."""


class StallTimeout(TimeoutError):
    """The library neither returned nor raised before the case's deadline."""


@dataclass(frozen=True)
class Target:
    """Where one case is served: ``server`` is the server's root URL
    (``http://127.0.0.1:PORT``), ``case`` the served case id, ``transport``
    the variant, ``timeout`` the seconds the whole case may take."""

    server: str
    case: str
    transport: str
    timeout: float
    prefix: str

    @property
    def root(self) -> str:
        """The case's root URL: what a client that appends ``/v1/...`` itself
        (anthropic, boto3's endpoint_url) takes as its base."""
        return f"{self.server.rstrip('/')}{self.prefix}"

    @property
    def shared_root(self) -> str:
        """The root URL without the case (only the transport prefix): the
        same for every case, for a library that caches one HTTP client per
        base URL; the case then goes in :attr:`headers`."""
        transport = self.prefix.split("/transport/", 1)
        return f"{self.server.rstrip('/')}" + (
            f"/transport/{transport[1]}" if len(transport) > 1 else ""
        )

    @property
    def headers(self) -> dict[str, str]:
        """The header that selects the case (with :attr:`shared_root`)."""
        return {"X-Toolstream-Case": self.case}

    @property
    def v1(self) -> str:
        """The base URL an OpenAI-style client takes (it appends ``/chat/completions``)."""
        return f"{self.root}/v1"

    def deadline(self) -> float:
        return time.monotonic() + self.timeout


class Deadline:
    """The per-case deadline, checked between the items a library yields
    (the library's own read timeout covers a stall inside one read)."""

    def __init__(self, target: Target) -> None:
        self.seconds = target.timeout
        self.at = target.deadline()

    def check(self) -> None:
        if time.monotonic() > self.at:
            raise StallTimeout(f"the library was still reading after {self.seconds:g}s")


class Client(abc.ABC):
    """One client library's streaming API, driven over HTTP.

    ``name``: the registry name (``--client NAME``); ``packages``: the
    distributions it needs (the first is the one whose version is reported);
    ``profiles``: the fixture profiles whose endpoint it speaks.
    """

    name: str
    packages: tuple[str, ...]
    profiles: tuple[str, ...]
    extra: str | None = "clients"
    concurrent_runs: bool = False
    """Whether :meth:`drive` may run in several threads at once, one case
    each: it builds the library's client and stream state per call and
    shares across calls only what is safe to share between threads (the
    process-wide ``httpx2.Client`` connection pool...).  ``toolstream diff``
    then overlaps the cases' waits for the server (see
    :attr:`toolstream.adapters.base.Adapter.concurrent_runs`).  Off unless a
    driver says so: a driver that keeps per-run state in one place (one node
    process answering one line at a time) must not."""

    oldest: str | None = None
    """The oldest release of ``packages[0]`` the driver adapts to
    (``--client NAME==VERSION``, :mod:`toolstream.clients.versions`); ``None``:
    the driver runs only at the pinned version."""

    library_extras: str = ""
    """The extras of ``packages[0]`` a versioned environment installs with
    it (``[openai]`` for Pydantic AI's OpenAI model)."""

    framing: str = "sse"
    """How the bodies the client reads are framed (``sse``, ``eventstream``):
    a transport variant for SSE text (``crlf``, ``cr``, ``keepalive``) does
    not apply to a client that reads binary event-stream frames."""

    def available(self) -> str | None:
        """``None`` when the library can be imported here, else why not."""
        try:
            self.load()
        except ImportError as error:
            return (
                f"client {self.name!r} needs {', '.join(self.packages)}, which is not"
                f" importable ({type(error).__name__}: {error}); install it with:"
                f" pip install 'toolstream[{self.extra}]'"
            )
        return None

    @abc.abstractmethod
    def load(self) -> None:
        """Import the library (raises ImportError when it is missing)."""

    def version(self) -> str | None:
        return package_version(self.packages[0])

    @abc.abstractmethod
    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        """Make the case's request through the library; see the module docstring."""


_HTTP: dict[str, Any] = {}
_SHARED = threading.Lock()


def http_module(sdk: str | None = None) -> Any:
    """The HTTP library an SDK (``openai``, ``anthropic``) is built on:
    ``httpx2`` since openai 3.0.0, ``httpx`` before (its ``_base_client``
    imports the one it checks ``http_client`` against).  Without ``sdk``:
    ``httpx2``."""
    if sdk is not None:
        import importlib

        base = importlib.import_module(f"{sdk}._base_client")
        for name in ("httpx2", "httpx"):
            module = getattr(base, name, None)
            if getattr(module, "__name__", None) in ("httpx", "httpx2"):
                return module
    import httpx2

    return httpx2


def shared_http_client(sdk: str | None = None) -> Any:
    """One ``Client`` of the SDK's HTTP library (:func:`http_module`) per
    process, handed to every openai / anthropic client as ``http_client``:
    building the SDK's default one costs a TLS context (tens of
    milliseconds) per case.  The SDKs still set each request's timeout from
    their own ``timeout``."""
    module = http_module(sdk)
    with _SHARED:
        if module.__name__ not in _HTTP:
            _HTTP[module.__name__] = module.Client()
    return _HTTP[module.__name__]


_ASYNC: dict[str, Any] = {}


def shared_async_http_client(sdk: str | None = None) -> Any:
    """The ``AsyncClient`` counterpart (LangChain builds one per model even
    when only the sync path runs)."""
    module = http_module(sdk)
    with _SHARED:
        if module.__name__ not in _ASYNC:
            _ASYNC[module.__name__] = module.AsyncClient()
    return _ASYNC[module.__name__]


def refused(error: BaseException, count: int, unit: str) -> AdapterResult:
    """The library's refusal, as a rejection naming the error and how far it read."""
    return AdapterResult.rejection(f"{type(error).__name__} after {count} {unit}(s): {error}")


def fixture_tools(fixture: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The case's tools as ``(name, JSON schema)``, in fixture order."""
    schemas = fixture.get("tool_schemas")
    if not isinstance(schemas, Mapping):
        return []
    return [(str(name), schema) for name, schema in schemas.items()]


def fixture_tool_choice(fixture: Mapping[str, Any]) -> Any:
    """The ``tool_choice`` the case's request carried, or ``None``."""
    request = fixture.get("request")
    if isinstance(request, Mapping):
        return request.get("tool_choice")
    return None


def forced_tool(choice: Any) -> str | None:
    """The tool name an OpenAI-style ``tool_choice`` object forces, if any."""
    if isinstance(choice, Mapping):
        function = choice.get("function")
        if isinstance(function, Mapping) and isinstance(function.get("name"), str):
            return str(function["name"])
        if isinstance(choice.get("name"), str):
            return str(choice["name"])
    return None


def json_text(value: Any) -> str:
    """Compact JSON text of a parsed value a library handed over (for the
    ``arguments`` column of a library that hands over only ``input``)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    except (TypeError, ValueError):
        return repr(value)
