"""Client: the official Mistral Python SDK's ``chat.stream``, over HTTP.

``mistralai-chat-stream``
    ``mistralai.client.Mistral(...).chat.stream(model=..., messages=...,
    tools=[{"type": "function", "function": {"name", "parameters"}}],
    tool_choice=...)``, every ``CompletionEvent`` read to the end: the SDK's
    httpx2 client, its own SSE decoder (``utils.eventstreaming``) and its
    pydantic validation of every chunk (``CompletionChunk``: a tool-call
    delta must carry ``function.name`` and ``function.arguments``; a missing
    ``index`` becomes ``0``, a missing ``id`` the string ``"null"``).

    The SDK hands the application chunks only: it has no accumulator of its
    own for an application.  The chunks are reassembled by the one
    reassembly the pinned SDK ships, ``mistralai.extra.observability.
    streaming.accumulate_chunks_to_response_dict`` (what its tracing records
    as the streamed response), rather than by a loop of ours: per ``index``,
    the last ``id`` other than ``"null"``, names and string argument
    fragments concatenated (an ``arguments`` object is skipped).  What the
    application receives is that response's ``choices[0].message.
    tool_calls`` (``id``, ``function.name``, ``function.arguments`` text).
    The events are read first (the SDK's part, noted as raised in
    mistralai), then reassembled (noted as raised in its accumulator).

Client: ``Mistral(api_key=<dummy>, server_url=<case root>,
retry_config=RetryConfig("none", ...), timeout_ms=<case timeout>,
client=<one httpx2.Client per process>, async_client=<one httpx2.AsyncClient
per process, never used>)`` (the SDK otherwise builds both httpx2 clients per
instance); the SDK's read timeout bounds a stall inside
one read, the case deadline (checked per event) the whole stream.

Counted as the library's own refusal: ``mistralai.client.errors.
MistralError`` and its subclasses (``SDKError`` for an error status,
``HTTPValidationError`` for a 422, ``ResponseValidationError`` for an event
that is not a valid ``CompletionEvent``, such as an error object in the
stream or a fragment without a name), ``errors.NoResponseError``, and
``httpx2.TransportError`` raised while the body is read (the SDK lets it
reach the application unchanged).  Everything else propagates.
"""

from __future__ import annotations

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
    json_text,
    shared_async_http_client,
    shared_http_client,
)

__all__ = ["MistralChatStream"]

MESSAGES: Final = [{"role": "user", "content": "toolstream case"}]


def mistral_refusals() -> tuple[type[BaseException], ...]:
    import httpx2
    from mistralai.client import errors

    return (errors.MistralError, errors.NoResponseError, httpx2.TransportError)


class MistralChatStream(Client):
    name = "mistralai-chat-stream"
    packages = ("mistralai", "httpx2")
    profiles = ("mistral",)

    def load(self) -> None:
        import httpx2  # noqa: F401
        from mistralai.client import Mistral  # noqa: F401
        from mistralai.extra.observability.streaming import (  # noqa: F401
            accumulate_chunks_to_response_dict,
        )

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        from mistralai.client import Mistral
        from mistralai.client.utils import BackoffStrategy, RetryConfig
        from mistralai.extra.observability.streaming import accumulate_chunks_to_response_dict

        deadline = Deadline(target)
        client = Mistral(
            api_key=DUMMY_API_KEY,
            server_url=target.root,
            retry_config=RetryConfig("none", BackoffStrategy(0, 0, 0, 0), False),
            timeout_ms=max(1, round(target.timeout * 1000)),
            client=shared_http_client(),
            # never used (chat.stream is the sync path), but without one the
            # SDK builds an httpx2.AsyncClient per instance (an SSL context:
            # about 21 ms of CPU a case, against 0.14 ms with this) and its
            # finalizer closes it with an asyncio.run (a new event loop) per
            # case.  A supplied client is neither closed nor configured by the
            # SDK, so sharing the process's one changes no request and no result
            async_client=shared_async_http_client(),
        )
        request: dict[str, Any] = {"model": MODEL, "messages": MESSAGES}
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
        version = package_version("mistralai")
        try:
            with library_raised(f"mistralai {version} chat.stream()"):
                with client.chat.stream(**request) as stream:
                    for event in stream:
                        deadline.check()
                        chunks.append(event.data)
        except mistral_refusals() as error:
            return AdapterResult.rejection(
                f"{type(error).__name__} after {len(chunks)} event(s): {error}"
            )
        with library_raised(f"mistralai {version} accumulate_chunks_to_response_dict"):
            response = accumulate_chunks_to_response_dict(chunks)
        return accumulated_result(response)


def accumulated_result(response: Mapping[str, Any]) -> AdapterResult:
    """What the reassembled response dict hands the application."""
    choices = response.get("choices") or []
    if not choices:
        return AdapterResult(calls=(), rejected=False, invalid=())
    choice = choices[0]
    calls = []
    for tool_call in choice["message"].get("tool_calls") or []:
        function = tool_call.get("function") or {}
        arguments = function.get("arguments")
        calls.append(
            AdapterCall(
                id=tool_call.get("id"),
                name=function.get("name"),
                arguments=arguments if isinstance(arguments, str) else json_text(arguments),
            )
        )
    finish = choice.get("finish_reason")
    return AdapterResult(
        calls=tuple(calls),
        rejected=False,
        invalid=(),
        finish_reason=finish if isinstance(finish, str) and finish else None,
    )
