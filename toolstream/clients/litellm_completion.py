"""Clients: LiteLLM's ``completion(stream=True)`` + ``stream_chunk_builder``,
over HTTP, one client per provider route.

``litellm-openai``
    ``litellm.completion(model="openai/toolstream", api_base=<case>/v1,
    ...)``: LiteLLM's OpenAI route (it drives openai-python's client
    underneath, then its own ``CustomStreamWrapper`` chunk conversion).
    Takes the openai and mistral profiles (the Chat Completions endpoint).
``litellm-groq``
    ``litellm.completion(model="groq/toolstream", api_base=<case>/v1, ...)``:
    LiteLLM's Groq route (an OpenAI-compatible API, read by LiteLLM's own
    chunk parser for OpenAI-like providers over its httpx client).  Takes
    the openai profile.
``litellm-anthropic``
    ``litellm.completion(model="anthropic/toolstream", api_base=<case root>,
    max_tokens=1024, ...)``: LiteLLM's own Anthropic Messages handler (its
    httpx client, SSE decoder and event-to-chunk conversion; it does not use
    the anthropic SDK).
``litellm-bedrock``
    ``litellm.completion(model="bedrock/converse/<model id>",
    aws_bedrock_runtime_endpoint=<case root>, <dummy credentials>, ...)``:
    LiteLLM's own Bedrock ConverseStream handler (SigV4 signing, its AWS
    event-stream decoder, its event-to-chunk conversion).  The model id is a
    real Bedrock one (:data:`BEDROCK_MODEL`, which LiteLLM's model table
    lists with tool support): for an unknown id LiteLLM refuses ``tools``
    before sending (``UnsupportedParamsError``), which an application naming
    a real model never sees.

Every route: ``stream=True``, the case's tools as OpenAI function tools
(LiteLLM's one tool format; it converts them per provider) and its
``tool_choice``; every chunk the ``CustomStreamWrapper`` yields is kept and
``litellm.stream_chunk_builder(chunks, messages=...)`` rebuilds the
response, as LiteLLM's streaming documentation does.  What the application
receives is ``choices[0].message.tool_calls`` (``id``, ``function.name``,
``function.arguments`` text).

Client settings, per call: ``api_key=<dummy>`` (dummy AWS keys and
``us-east-1`` for Bedrock), ``num_retries=0`` and ``max_retries=0``
(LiteLLM's retry wrapper and the provider client's), ``timeout=<case
timeout>`` (LiteLLM's read timeout, which bounds a stall inside one read;
the case deadline is checked per chunk).  Offline and quiet: the import
sets ``LITELLM_LOCAL_MODEL_COST_MAP=True`` and ``LITELLM_OFFLINE_MODE=true``
(otherwise ``import litellm`` fetches its model-price map from the
internet), no success or failure callbacks are registered, and
``suppress_debug_info`` silences the banner LiteLLM prints for an unknown
model name (and its ``LiteLLM`` logger is set to ``CRITICAL``: it logs a
traceback for every chunk it cannot convert before raising).

Counted as the library's own refusal: ``openai.APIError`` and its
subclasses, which every LiteLLM exception is (LiteLLM maps a provider's
error status, an error in the stream, a connection or read error while the
stream is read, and any exception inside ``stream_chunk_builder`` -- which
it wraps as ``APIError(500, "Error building chunks ...")`` -- into them),
and an ``httpx.TransportError`` / ``httpx2.TransportError`` that reaches
the application unwrapped.  Everything else propagates.

One request, every reading of it: the clients of one route that make the
same request and differ only in what they take from its chunks
(``litellm-openai`` and ``litellm-openai-chunks``) share it.  The first of
them to run a case under a transport makes the request and reads the chunks
every way, the readings that only look at the chunks first (so each reading
sees them as the stream yielded them); each other client then takes its own
reading of that request once (:class:`SharedReadings`), with the same
outcome as if it had requested the same bytes itself (a test holds the two
equal), instead of making the library stream them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import threading
from collections.abc import Mapping
from typing import Any, Final

from toolstream.adapters.base import AdapterCall, AdapterResult, library_raised, package_version
from toolstream.clients.base import (
    DUMMY_API_KEY,
    MODEL,
    Client,
    Deadline,
    Target,
    fixture_tool_choice,
    fixture_tools,
)

__all__ = ["LiteLLMAnthropic", "LiteLLMBedrock", "LiteLLMOpenAI"]

MESSAGES: Final = [{"role": "user", "content": "toolstream case"}]

BEDROCK_MODEL: Final = "anthropic.claude-3-5-sonnet-20240620-v1:0"
"""The Bedrock model id the Bedrock route names (see the module docstring)."""


def _litellm() -> Any:
    """``litellm``, imported offline (see the module docstring), with no
    callbacks and the unknown-model banner off."""
    from toolstream.adapters.litellm_adapter import _import_litellm

    litellm = _import_litellm()
    # LiteLLM logs (with a traceback) every chunk its stream wrapper cannot
    # convert, to stderr, before it raises: the refusal is reported, the log
    # would only bury the diff's own output
    logging.getLogger("LiteLLM").setLevel(logging.CRITICAL)
    litellm.success_callback = []
    litellm.failure_callback = []
    litellm.callbacks = []
    litellm.suppress_debug_info = True
    if not _FROZEN:
        # The collection after every case (see ``drive``) would otherwise walk
        # litellm's whole heap each time: 0.27 s a case here, most of the
        # run.  Frozen once imported, a collection walks only what the cases
        # made since, and still finds every stream they left behind.
        gc.collect()
        gc.freeze()
        _FROZEN.append(True)
    return litellm


_FROZEN: list[bool] = []


_LOOP: list[asyncio.AbstractEventLoop] = []


def _dispatch_loop() -> None:
    """Make the thread's current event loop one this module keeps.

    LiteLLM's service logger dispatches a timing event after every provider
    call on the thread's event loop, and ``asyncio.get_event_loop()``
    creates one it never closes when the thread has none; the next
    ``asyncio.run`` in the process unsets it and it is collected unclosed
    (a ``ResourceWarning``).  Handing it a loop that lives as long as the
    process changes nothing it does."""
    if not _LOOP:
        _LOOP.append(asyncio.new_event_loop())
    asyncio.set_event_loop(_LOOP[0])


def litellm_refusals() -> tuple[type[BaseException], ...]:
    import importlib

    import openai

    out: list[type[BaseException]] = [openai.APIError]
    for name in ("httpx", "httpx2"):
        try:
            out.append(importlib.import_module(name).TransportError)
        except ImportError:
            continue  # an older litellm's environment has httpx only
    return tuple(out)


class _Reading:
    """One client's reading of a request: what it hands over, or the
    exception its run raises."""

    __slots__ = ("error", "result")

    def __init__(self, result: AdapterResult | None = None, error: Exception | None = None):
        self.result = result
        self.error = error
        # Kept without its frames: they hold the request's stream, which a
        # collection must never finalize later, elsewhere (see _read).  A
        # crash is judged on its type, message and notes alone.
        link: BaseException | None = error
        while link is not None:
            link.__traceback__ = None
            link = link.__cause__ or link.__context__

    def given(self) -> AdapterResult:
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result


class SharedReadings:
    """The readings a request's maker made for the other clients of its
    route: each taken once, by its client, for the same request to the same
    served case and transport.  Kept for the last :attr:`KEPT` requests: a
    corpus run judges one case under every transport before the next."""

    KEPT: Final = 64

    def __init__(self) -> None:
        self._kept: dict[tuple[Any, ...], dict[str, _Reading]] = {}
        self._lock = threading.Lock()

    def keep(self, key: tuple[Any, ...], readings: dict[str, _Reading]) -> None:
        with self._lock:
            self._kept.pop(key, None)
            self._kept[key] = readings
            while len(self._kept) > self.KEPT:
                del self._kept[next(iter(self._kept))]

    def take(self, key: tuple[Any, ...], name: str) -> _Reading | None:
        with self._lock:
            readings = self._kept.get(key)
            if readings is None:
                return None
            reading = readings.pop(name, None)
            if not readings:
                del self._kept[key]
            return reading


SHARED: Final = SharedReadings()
"""This process's readings waiting for their client."""


def _request_key(route: str, target: Target, request: Mapping[str, Any]) -> tuple[Any, ...]:
    """What makes two requests the same: the route, the served case and
    transport (the URL), the deadline and the request's own members."""
    return (route, target.server, target.prefix, target.timeout, repr(sorted(request.items())))


class _LiteLLMClient(Client):
    packages = ("litellm", "openai", "httpx")
    extra = "litellm"
    route = ""
    only_looks: bool = False
    """Whether :meth:`handed_over` only looks at the chunks (a reading that
    may change them, like ``stream_chunk_builder``'s, comes after)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in cls.__dict__:
            readers = _READERS.setdefault(cls.route, [])
            readers.append(cls)
            readers.sort(key=lambda reader: not reader.only_looks)

    def load(self) -> None:
        import importlib.util

        # find_spec, not an import: importing litellm takes seconds, and
        # ``--list-clients`` asks every client whether it is available
        if importlib.util.find_spec("litellm") is None:
            raise ImportError("No module named 'litellm'")

    def settings(self, target: Target) -> dict[str, Any]:
        """The route's model, base URL and credentials."""
        raise NotImplementedError

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        litellm = _litellm()
        request = self._request(target, fixture)
        key = _request_key(self.route, target, request)
        shared = SHARED.take(key, self.name)
        if shared is not None:
            return shared.given()
        readers = _READERS[self.route]
        readings = self._read(litellm, target, request, readers)
        others = {r.name: readings[r.name] for r in readers if r.name != self.name}
        if others:
            SHARED.keep(key, others)
        return readings[self.name].given()

    def _request(self, target: Target, fixture: Mapping[str, Any]) -> dict[str, Any]:
        request: dict[str, Any] = {
            **self.settings(target),
            "messages": MESSAGES,
            "stream": True,
            "num_retries": 0,
            "max_retries": 0,
            "timeout": target.timeout,
        }
        tools = [
            {"type": "function", "function": {"name": name, "parameters": schema}}
            for name, schema in fixture_tools(fixture)
        ]
        if tools:
            request["tools"] = tools
        choice = fixture_tool_choice(fixture)
        if choice is not None:
            request["tool_choice"] = choice
        return request

    def _read(
        self,
        litellm: Any,
        target: Target,
        request: dict[str, Any],
        readers: list[type[_LiteLLMClient]],
    ) -> dict[str, _Reading]:
        """Make the request, read its chunks to the end, and each reader's
        reading of them: the same for all when the stream itself fails."""
        # Everything alive now is older than this case: frozen (a list
        # splice, O(1)), the collection at the end walks only what was made
        # since, and still finds whatever this case left behind.  The heap
        # frozen at litellm's import no longer covers the libraries a worker
        # imported after it (every other client's): walked in full after
        # every case, that was about 0.2 s a case.  Unfrozen at the end, so
        # older garbage (another thread's) stays collectable as before.
        gc.freeze()
        deadline = Deadline(target)
        chunks: list[Any] = []
        where = f"litellm {package_version('litellm')} completion(stream=True) {self.route}"
        _dispatch_loop()
        stream: Any = None
        try:
            try:
                with library_raised(where):
                    stream = litellm.completion(**request)
                    for chunk in stream:
                        deadline.check()
                        chunks.append(chunk)
            except litellm_refusals() as error:
                refused = _Reading(result=_refusal(error, chunks))
                return {reader.name: refused for reader in readers}
            except Exception as error:
                raised = _Reading(error=error)
                return {reader.name: raised for reader in readers}
            return {reader.name: _reading(reader, litellm, chunks, where) for reader in readers}
        finally:
            # Closed as an application's ``with`` would close it.  A stream
            # left to the garbage collector is closed wherever a collection
            # happens to run: once that was inside httpcore's connection-pool
            # lock, which the close takes again, and the worker hung for good.
            if stream is not None:
                with contextlib.suppress(Exception):
                    stream.close()
            # litellm's Bedrock route also leaves a response iterator of its
            # own behind on some error paths; finalized by a collection that
            # ran inside httpcore's pool lock, its close waited on that lock
            # for good (two workers hung so).  Collected here, no lock is held.
            gc.collect()
            gc.unfreeze()

    @staticmethod
    def handed_over(litellm: Any, chunks: list[Any]) -> AdapterResult:
        """What the application receives from the chunks the stream yielded:
        here ``stream_chunk_builder``'s rebuilt response (run inside the
        library's error boundary: it is LiteLLM's code)."""
        return built_result(litellm.stream_chunk_builder(chunks, messages=MESSAGES))


_READERS: dict[str, list[type[_LiteLLMClient]]] = {}
"""Route -> its clients, the readings that only look at the chunks first."""


def _refusal(error: BaseException, chunks: list[Any]) -> AdapterResult:
    cause = error.__cause__ or error.__context__
    wrapped = ""
    if cause is not None:
        wrapped = f" (wrapping {type(cause).__name__}: {_message(cause)})"
    return AdapterResult.rejection(
        f"{type(error).__name__} after {len(chunks)} chunk(s): {_message(error)}{wrapped}"
    )


def _reading(reader: type[_LiteLLMClient], litellm: Any, chunks: list[Any], where: str) -> _Reading:
    try:
        with library_raised(where):
            return _Reading(result=reader.handed_over(litellm, chunks))
    except litellm_refusals() as error:
        return _Reading(result=_refusal(error, chunks))
    except Exception as error:
        return _Reading(error=error)


TRACEBACK: Final = "Traceback (most recent call last)"


def _message(error: BaseException) -> str:
    """An exception's message without the traceback LiteLLM writes into the
    message of a stream error it wraps (it names this machine's file paths,
    so a report that kept it would differ from machine to machine)."""
    return str(error).split(TRACEBACK, 1)[0].strip()


def built_result(response: Any) -> AdapterResult:
    """What ``stream_chunk_builder``'s response hands the application."""
    if response is None or not response.choices:
        return AdapterResult(calls=(), rejected=False, invalid=())
    choice = response.choices[0]
    calls = tuple(
        AdapterCall(
            id=getattr(tool_call, "id", None),
            name=getattr(getattr(tool_call, "function", None), "name", None),
            arguments=getattr(getattr(tool_call, "function", None), "arguments", None),
        )
        for tool_call in (getattr(choice.message, "tool_calls", None) or [])
    )
    finish = getattr(choice, "finish_reason", None)
    return AdapterResult(
        calls=calls,
        rejected=False,
        invalid=(),
        finish_reason=finish if isinstance(finish, str) else None,
    )


class LiteLLMOpenAI(_LiteLLMClient):
    name = "litellm-openai"
    profiles = ("openai", "mistral")
    route = "openai/"
    oldest = "1.60.0"
    """The oldest release tried (``completion`` and ``stream_chunk_builder``
    as called here; the openai SDK under it chosen by the installer)."""

    def settings(self, target: Target) -> dict[str, Any]:
        return {"model": f"openai/{MODEL}", "api_base": target.v1, "api_key": DUMMY_API_KEY}


class LiteLLMGroq(_LiteLLMClient):
    """LiteLLM's Groq route (``groq/``): Groq's API is OpenAI's Chat
    Completions, and LiteLLM posts to ``<api_base>/chat/completions`` with
    its own chunk parser for OpenAI-like providers (not openai-python's
    stream), which is where BerriAI/litellm#7621 lived (PR 7643)."""

    name = "litellm-groq"
    profiles = ("openai",)
    route = "groq/"
    oldest = "1.57.3"
    """The oldest release tried: 1.57.3, before PR 7643 (merged 2025-01-09),
    whose Groq route still squeezes whole parallel calls into one (1.57.4
    still does; 1.57.5, uploaded the next day, no longer does)."""

    def settings(self, target: Target) -> dict[str, Any]:
        return {"model": f"groq/{MODEL}", "api_base": target.v1, "api_key": DUMMY_API_KEY}


class LiteLLMAnthropic(_LiteLLMClient):
    name = "litellm-anthropic"
    profiles = ("anthropic",)
    route = "anthropic/"

    def settings(self, target: Target) -> dict[str, Any]:
        return {
            "model": f"anthropic/{MODEL}",
            "api_base": target.root,
            "api_key": DUMMY_API_KEY,
            "max_tokens": 1024,
        }


class LiteLLMBedrock(_LiteLLMClient):
    name = "litellm-bedrock"
    profiles = ("bedrock",)
    framing = "eventstream"
    route = "bedrock/converse/"

    def settings(self, target: Target) -> dict[str, Any]:
        return {
            "model": f"bedrock/converse/{BEDROCK_MODEL}",
            "aws_bedrock_runtime_endpoint": target.root,
            "aws_access_key_id": "toolstream",
            "aws_secret_access_key": "toolstream-dummy-secret",
            "aws_region_name": "us-east-1",
        }
