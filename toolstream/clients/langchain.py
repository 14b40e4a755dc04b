"""Clients: LangChain's provider integrations, streaming over HTTP.

``langchain-openai``
    ``langchain_openai.ChatOpenAI(streaming=True).bind_tools(tools,
    tool_choice=...)``, then ``.stream(messages)``: the integration's own
    ``_stream`` (openai-python ``chat.completions.create(stream=True)``, its
    ``_convert_chunk_to_generation_chunk``) yields ``AIMessageChunk``\\ s,
    which are summed as ``generate_from_stream`` sums them (``+``:
    ``add_ai_message_chunks`` / ``merge_lists``).  Takes the openai and
    mistral profiles (the Chat Completions endpoint).
``langchain-mistralai``
    ``langchain_mistralai.ChatMistralAI(streaming=True).bind_tools(tools,
    tool_choice=...)``, then ``.stream(messages)``, summed the same way (the
    integration has its own ``httpx`` client and ``httpx_sse`` decoder, and
    its own ``_convert_chunk_to_message_chunk``).  Takes the mistral profile.
``langchain-anthropic``
    ``langchain_anthropic.ChatAnthropic(streaming=True).bind_tools(tools)``,
    then ``.stream(messages)``, summed the same way (the integration's
    ``_make_message_chunk_from_anthropic_event`` over the anthropic SDK's
    raw event stream).
``langchain-google-genai``
    ``langchain_google_genai.ChatGoogleGenerativeAI(...).bind_tools(tools,
    tool_choice=...)``, then ``.stream(messages, http_options={"headers":
    <the case>})`` (one model per process, pointed at the server), summed the same way (the
    integration drives google-genai's ``models.generate_content_stream`` and
    turns each chunk's first candidate into an ``AIMessageChunk`` with
    ``_parse_response_candidate``: one ``tool_call_chunk`` per
    ``functionCall`` part, its ``args`` dict dumped to JSON text, an id the
    part lacks made up with ``uuid4``).  Takes the gemini profile.

What the application receives is the summed message's ``tool_calls``
(``id``, ``name``, ``args``: the dict LangChain parsed with
``parse_partial_json``, which closes unfinished JSON; ``args`` is what is
compared) and ``invalid_tool_calls`` (reported as ``invalid``: LangChain
flags them and hands them over as not executable).

Client: the integration's own client (``api_key=<dummy>``, ``base_url``,
``max_retries=0``, the case timeout); ``ChatOpenAI`` gets one process-wide
``httpx2.Client`` as ``http_client`` and ``ChatAnthropic`` the case in the
``X-Toolstream-Case`` header (both only so no TLS context is built per
case); the case deadline is checked per chunk.  A chat model is built per
case, so cases may run in threads side by side: what they share is
thread-safe (the ``httpx2`` clients, the integration's cached default HTTP
client; langchain-mistralai opens and closes its own per case).

Counted as the library's own refusal: the provider SDK's ``APIError`` and
subclasses and ``httpx2.TransportError`` (the integrations let both through
to the application), and langchain-core's ``ValueError("No generation chunks
were returned")`` for a stream that produced no chunk; for
langchain-mistralai, which has no SDK, the ``httpx.HTTPStatusError`` it
raises for an error status, ``httpx.TransportError`` and
``httpx_sse.SSEError`` (a response that is not an event stream); for
langchain-google-genai, google-genai's ``errors.APIError`` (the integration
re-raises it as its ``ChatGoogleGenerativeAIError`` subclasses or
``GoogleAPIError``, both counted), ``errors.UnknownApiResponseError`` (a
chunk that is not JSON) and ``httpx2.TransportError``.  The
google-genai client is built with ``max_retries=1`` (the integration's
"initial request only": ``0`` would mean the SDK's default of 5 attempts).
Everything else propagates (``pydantic`` ``ValidationError`` for a
non-string fragment, ``TypeError`` from ``merge_dicts``...).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from toolstream.adapters.base import AdapterCall, AdapterResult, library_raised, package_version
from toolstream.clients.base import (
    DUMMY_API_KEY,
    MODEL,
    Client,
    Deadline,
    Target,
    fixture_tool_choice,
    fixture_tools,
    http_module,
    json_text,
    shared_async_http_client,
    shared_http_client,
)

__all__ = ["LangChainAnthropic", "LangChainGoogleGenAI", "LangChainMistralAI", "LangChainOpenAI"]

MESSAGES = [("human", "toolstream case")]


EMPTY_STREAM = ("No generation chunks were returned", "No generations found in stream.")
"""langchain-core's ``ValueError`` messages for a stream that produced no chunk."""


def empty_stream(error: BaseException) -> bool:
    return isinstance(error, ValueError) and str(error) in EMPTY_STREAM


def summed_result(chunks: Any, deadline: Deadline) -> AdapterResult:
    """Sum the ``AIMessageChunk``\\ s the integration yields and read back
    what it hands over."""
    full = None
    for chunk in chunks:
        deadline.check()
        full = chunk if full is None else full + chunk
    if full is None:
        return AdapterResult(calls=(), rejected=False, invalid=())
    texts = _argument_texts(full)
    calls = tuple(
        AdapterCall(
            id=call.get("id"),
            name=call.get("name"),
            arguments=texts[position] if position < len(texts) else json_text(call.get("args")),
            input=call.get("args"),
        )
        for position, call in enumerate(full.tool_calls)
    )
    invalid = tuple(
        json.dumps(
            {k: call.get(k) for k in ("id", "name", "args", "error")},
            ensure_ascii=True,
            separators=(",", ":"),
            default=repr,
        )
        for call in full.invalid_tool_calls
    )
    metadata = full.response_metadata or {}
    finish = metadata.get("finish_reason") or metadata.get("stop_reason")
    return AdapterResult(
        calls=calls,
        rejected=False,
        invalid=invalid,
        finish_reason=finish if isinstance(finish, str) else None,
    )


def _argument_texts(message: Any) -> list[Any]:
    """The merged ``args`` text of each call in ``message.tool_calls``:
    langchain-core turns ``tool_call_chunks`` into ``tool_calls`` in order,
    each chunk whose text parses (``parse_partial_json``) to an object, or
    is empty, becoming one call and every other an invalid call."""
    from langchain_core.utils.json import parse_partial_json

    out = []
    for chunk in message.tool_call_chunks:
        text = chunk.get("args")
        try:
            parsed = parse_partial_json(text) if text else {}
        except Exception:
            continue
        if isinstance(parsed, dict):
            out.append(text)
    return out


class LangChainOpenAI(Client):
    name = "langchain-openai"
    packages = ("langchain-openai", "langchain-core", "openai")
    profiles = ("openai", "mistral")
    concurrent_runs = True  # a chat model per case (see the module docstring)

    oldest = "1.0.0"
    """Its first 1.x release; the openai SDK under it may be older than 3.0.0
    and take an ``httpx`` client (:func:`http_module`)."""

    def load(self) -> None:
        import langchain_openai  # noqa: F401

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        import openai
        from langchain_openai import ChatOpenAI

        httpx = http_module("openai")

        deadline = Deadline(target)
        model = ChatOpenAI(
            model=MODEL,
            api_key=DUMMY_API_KEY,  # type: ignore[arg-type]
            base_url=target.v1,
            max_retries=0,
            timeout=target.timeout,
            streaming=True,
            http_client=shared_http_client("openai"),
            http_async_client=shared_async_http_client("openai"),
        )
        tools = [
            {"type": "function", "function": {"name": name, "parameters": schema}}
            for name, schema in fixture_tools(fixture)
        ]
        choice = fixture_tool_choice(fixture)
        bound: Any = model.bind_tools(tools, tool_choice=choice) if tools else model
        where = f"langchain-openai {package_version('langchain-openai')} ChatOpenAI.stream()"
        try:
            with library_raised(where):
                return summed_result(bound.stream(MESSAGES), deadline)
        except (openai.APIError, httpx.TransportError) as error:
            return AdapterResult.rejection(f"{type(error).__name__}: {error}")
        except ValueError as error:
            if not empty_stream(error):
                raise
            return AdapterResult.rejection(f"ValueError: {error}")


class LangChainAnthropic(Client):
    name = "langchain-anthropic"
    packages = ("langchain-anthropic", "langchain-core", "anthropic")
    profiles = ("anthropic",)
    concurrent_runs = True  # a chat model per case (see the module docstring)

    def load(self) -> None:
        import langchain_anthropic  # noqa: F401

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        import anthropic
        import httpx2
        from langchain_anthropic import ChatAnthropic

        deadline = Deadline(target)
        settings: dict[str, Any] = {
            "model": MODEL,
            "api_key": DUMMY_API_KEY,
            # the integration caches its HTTP client per base URL (building one
            # costs a TLS context): the case goes in a header, the URL stays
            "base_url": target.shared_root,
            "default_headers": target.headers,
            "max_retries": 0,
            "timeout": target.timeout,
            "streaming": True,
            "max_tokens": 1024,
        }
        model = ChatAnthropic(**settings)
        tools = [{"name": name, "input_schema": schema} for name, schema in fixture_tools(fixture)]
        bound: Any = model.bind_tools(tools) if tools else model
        where = (
            f"langchain-anthropic {package_version('langchain-anthropic')} ChatAnthropic.stream()"
        )
        try:
            with library_raised(where):
                return summed_result(bound.stream(MESSAGES), deadline)
        except (anthropic.APIError, httpx2.TransportError) as error:
            return AdapterResult.rejection(f"{type(error).__name__}: {error}")
        except ValueError as error:
            if not empty_stream(error):
                raise
            return AdapterResult.rejection(f"ValueError: {error}")


def _close_async(client: Any) -> None:
    import asyncio

    asyncio.run(client.aclose())


class LangChainMistralAI(Client):
    name = "langchain-mistralai"
    packages = ("langchain-mistralai", "langchain-core", "httpx")
    profiles = ("mistral",)
    concurrent_runs = True  # a chat model per case (see the module docstring)

    def load(self) -> None:
        import langchain_mistralai  # noqa: F401

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        import math

        import httpx
        import httpx_sse
        from langchain_mistralai import ChatMistralAI

        deadline = Deadline(target)
        settings: dict[str, Any] = {
            "model": MODEL,
            "api_key": DUMMY_API_KEY,
            "endpoint": target.v1,
            "max_retries": 0,  # tenacity stop_after_attempt(0): the first attempt only
            "timeout": max(1, math.ceil(target.timeout)),  # the integration takes whole seconds
            "streaming": True,
        }
        model = ChatMistralAI(**settings)
        clients = (model.client, model.async_client)
        tools = [
            {"type": "function", "function": {"name": name, "parameters": schema}}
            for name, schema in fixture_tools(fixture)
        ]
        choice = fixture_tool_choice(fixture)
        bound: Any = model.bind_tools(tools, tool_choice=choice) if tools else model
        version = package_version("langchain-mistralai")
        try:
            with library_raised(f"langchain-mistralai {version} ChatMistralAI.stream()"):
                return summed_result(bound.stream(MESSAGES), deadline)
        except (httpx.HTTPStatusError, httpx.TransportError, httpx_sse.SSEError) as error:
            return AdapterResult.rejection(f"{type(error).__name__}: {error}")
        except ValueError as error:
            if not empty_stream(error):
                raise
            return AdapterResult.rejection(f"ValueError: {error}")
        finally:  # the integration never closes the httpx clients it opens
            clients[0].close()
            _close_async(clients[1])


_GOOGLE_MODELS: dict[tuple[str, float], Any] = {}


class LangChainGoogleGenAI(Client):
    name = "langchain-google-genai"
    packages = ("langchain-google-genai", "langchain-core", "google-genai")
    profiles = ("gemini",)

    def load(self) -> None:
        import langchain_google_genai  # noqa: F401

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        import httpx2
        from google.genai import errors
        from langchain_google_genai import ChatGoogleGenerativeAI
        from langchain_google_genai.chat_models import ChatGoogleGenerativeAIError

        from toolstream.clients.google_genai import function_calling_config

        deadline = Deadline(target)
        key = (target.shared_root, target.timeout)
        if key not in _GOOGLE_MODELS:
            # one model per server (its google-genai client costs three TLS
            # contexts): the case goes in each request's header
            _GOOGLE_MODELS[key] = ChatGoogleGenerativeAI(
                model=MODEL,
                google_api_key=DUMMY_API_KEY,
                base_url=target.shared_root,
                # the integration's "no retries": 0 means google-genai's default, 5 attempts
                max_retries=1,
                timeout=target.timeout,
            )
        model = _GOOGLE_MODELS[key]
        tools = [
            {"type": "function", "function": {"name": name, "parameters": schema}}
            for name, schema in fixture_tools(fixture)
        ]
        mode = (function_calling_config(fixture) or {}).get("mode")
        choice = {"ANY": "any", "NONE": "none", "AUTO": "auto"}.get(str(mode).upper())
        bound: Any = model.bind_tools(tools, tool_choice=choice) if tools else model
        where = (
            f"langchain-google-genai {package_version('langchain-google-genai')}"
            " ChatGoogleGenerativeAI.stream()"
        )
        try:
            with library_raised(where):
                chunks = bound.stream(MESSAGES, http_options={"headers": target.headers})
                return summed_result(chunks, deadline)
        except (
            errors.APIError,
            errors.UnknownApiResponseError,
            ChatGoogleGenerativeAIError,
            httpx2.TransportError,
        ) as error:
            return AdapterResult.rejection(f"{type(error).__name__}: {error}")
        except ValueError as error:
            if not empty_stream(error):
                raise
            return AdapterResult.rejection(f"ValueError: {error}")
