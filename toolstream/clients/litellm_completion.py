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
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
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


class _LiteLLMClient(Client):
    packages = ("litellm", "openai", "httpx")
    extra = "litellm"
    route = ""

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
        # Everything alive now is older than this case: frozen (a list
        # splice, O(1)), the collection at the end walks only what was made
        # since, and still finds whatever this case left behind.  The heap
        # frozen at litellm's import no longer covers the libraries a worker
        # imported after it (every other client's): walked in full after
        # every case, that was about 0.2 s a case.  Unfrozen at the end, so
        # older garbage (another thread's) stays collectable as before.
        gc.freeze()
        deadline = Deadline(target)
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
        chunks: list[Any] = []
        where = f"litellm {package_version('litellm')} completion(stream=True) {self.route}"
        _dispatch_loop()
        stream: Any = None
        try:
            with library_raised(where):
                stream = litellm.completion(**request)
                for chunk in stream:
                    deadline.check()
                    chunks.append(chunk)
                result = self.handed_over(litellm, chunks)
        except litellm_refusals() as error:
            cause = error.__cause__ or error.__context__
            wrapped = ""
            if cause is not None:
                wrapped = f" (wrapping {type(cause).__name__}: {_message(cause)})"
            return AdapterResult.rejection(
                f"{type(error).__name__} after {len(chunks)} chunk(s): {_message(error)}{wrapped}"
            )
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
        return result

    def handed_over(self, litellm: Any, chunks: list[Any]) -> AdapterResult:
        """What the application receives from the chunks the stream yielded:
        here ``stream_chunk_builder``'s rebuilt response (run inside the
        library's error boundary: it is LiteLLM's code)."""
        return built_result(litellm.stream_chunk_builder(chunks, messages=MESSAGES))


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
