"""Client: cohere-python's v2 ``chat_stream``, over HTTP.

``cohere-chat-stream``
    ``cohere.ClientV2(...).chat_stream(model=..., messages=..., tools=[{"type":
    "function", "function": {"name", "parameters": schema}}],
    tool_choice=<the request's, if any>)``, read to the end: the SDK's own
    httpx request, its SSE reader and its parsing of each event into a
    ``V2ChatStreamResponse`` member (``ToolCallStartV2ChatStreamResponse``...).

    cohere-python has no accumulator: an application reassembles the events
    itself.  This driver runs the loop of Cohere's tool-use streaming
    documentation, and nothing more: on ``tool-call-start`` the event's
    ``delta.message.tool_calls`` (``id``, ``function.name``,
    ``function.arguments``) is appended to the list of calls; on
    ``tool-call-delta`` its ``delta.message.tool_calls.function.arguments``
    is appended to the last call's arguments; after the stream, each call is
    executed with ``json.loads(arguments)``.  The ``index`` of the events,
    ``tool-call-end`` and ``message-end``'s ``finish_reason`` are not
    consulted, as the documented loop does not.  So what this client shows
    is cohere-python's decoding plus that documented pattern; ``input`` (the
    parsed value) is what is compared.  The events are read to the end first
    (cohere-python's part: its exceptions are noted as raised inside
    cohere), then the loop runs over them (the application's part: an
    ``IndexError`` for a delta before any start, a ``TypeError`` for a
    non-string fragment, is the pattern's own crash, reported as raised in
    the driver).

    cohere-python *skips* an event it cannot parse: invalid JSON, or a body
    its types reject, is logged (``logging.warning("Skipping SSE event
    ...")``) and dropped, and the stream goes on.  The driver silences that
    log for the run (it would flood a corpus run); the dropped event is
    simply absent from what the application sees, which is the finding.

Client: ``cohere.ClientV2(api_key=<dummy>, base_url=<case root>,
timeout=<case timeout>, max_retries=0, httpx_client=<one httpx.Client per
process>)``; the read timeout bounds a stall inside one read, the case
deadline (checked per event) the whole stream.

Counted as the library's own refusal: ``cohere.core.api_error.ApiError`` and
its subclasses (an HTTP error status), ``httpx.TransportError`` raised while
the body is read (a body cut off mid-event, a read timeout), and the
documented pattern's ``json.JSONDecodeError`` when a call's arguments are
not JSON.  Everything else propagates.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator, Mapping
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
    refused,
)

__all__ = ["CohereChatStream", "cohere_refusals", "documented_tool_loop"]

MESSAGES = [{"role": "user", "content": "toolstream case"}]

_HTTP: list[Any] = []


def _http_client() -> Any:
    """One ``httpx.Client`` per process (cohere-python builds one per client
    otherwise, a TLS context each); the SDK still sets each request's
    timeout."""
    import httpx

    if not _HTTP:
        _HTTP.append(httpx.Client())
    return _HTTP[0]


def cohere_refusals() -> tuple[type[BaseException], ...]:
    import httpx
    from cohere.core.api_error import ApiError

    return (ApiError, httpx.TransportError, json.JSONDecodeError)


@contextlib.contextmanager
def _quiet_skips() -> Iterator[None]:
    """Silence cohere-python's root-logger warnings for skipped events."""
    previous = logging.root.manager.disable
    logging.disable(logging.ERROR)
    try:
        yield
    finally:
        logging.disable(previous)


def documented_tool_loop(events: list[Any]) -> tuple[list[dict[str, Any]], str | None]:
    """Cohere's documented reassembly over the parsed events: the calls as
    ``{"id", "name", "arguments"}`` (arguments text) and the ``message-end``
    finish reason (reported only; the loop does not consult it)."""
    calls: list[dict[str, Any]] = []
    finish = None
    for event in events:
        kind = getattr(event, "type", None)
        if kind == "tool-call-start":
            call = event.delta.message.tool_calls
            calls.append(
                {"id": call.id, "name": call.function.name, "arguments": call.function.arguments}
            )
        elif kind == "tool-call-delta":
            calls[-1]["arguments"] += event.delta.message.tool_calls.function.arguments
        elif kind == "message-end":
            reason = getattr(event.delta, "finish_reason", None)
            finish = reason if isinstance(reason, str) else None
    return calls, finish


class CohereChatStream(Client):
    name = "cohere-chat-stream"
    packages = ("cohere", "httpx")
    profiles = ("cohere",)

    def load(self) -> None:
        import cohere  # noqa: F401
        import httpx  # noqa: F401

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        import cohere

        deadline = Deadline(target)
        client = cohere.ClientV2(
            api_key=DUMMY_API_KEY,
            base_url=target.root,
            timeout=target.timeout,
            max_retries=0,
            httpx_client=_http_client(),
        )
        request: dict[str, Any] = {"model": MODEL, "messages": MESSAGES}
        tools = [
            {"type": "function", "function": {"name": name, "parameters": schema}}
            for name, schema in fixture_tools(fixture)
        ]
        if tools:
            request["tools"] = tools
        choice = fixture_tool_choice(fixture)
        if isinstance(choice, str):
            request["tool_choice"] = choice
        events: list[Any] = []
        try:
            with (
                _quiet_skips(),
                library_raised(f"cohere {package_version('cohere')} ClientV2.chat_stream"),
            ):
                for event in client.chat_stream(**request):
                    deadline.check()
                    events.append(event)
            # the documented loop: application code, so an exception here is
            # the driver's, not cohere-python's
            calls, finish = documented_tool_loop(events)
            parsed = [json.loads(call["arguments"]) for call in calls]
        except cohere_refusals() as error:
            return refused(error, len(events), "event")
        return AdapterResult(
            calls=tuple(
                AdapterCall(
                    id=call["id"],
                    name=call["name"],
                    arguments=call["arguments"],
                    input=value,
                )
                for call, value in zip(calls, parsed, strict=True)
            ),
            rejected=False,
            invalid=(),
            finish_reason=finish,
        )
