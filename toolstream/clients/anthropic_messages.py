"""Client: the anthropic Python SDK's ``messages.stream()`` helper, over HTTP.

``anthropic-messages-stream``
    ``client.messages.stream(model=..., max_tokens=..., messages=...,
    tools=[{"name", "input_schema"}])`` (``with ... as stream``, every event
    read, then ``stream.get_final_message()``): every ``tool_use`` content
    block is a call (``id``, ``name``, ``input``: the parsed value the SDK
    hands the application; it never hands over the JSON text, so
    ``arguments`` is that value re-serialized and ``input`` is what is
    compared).  ``server_tool_use`` blocks are not client calls.  No
    ``tool_choice`` is sent (the cases carry none: the API default, auto).

Client: ``anthropic.Anthropic(api_key=<dummy>, base_url=<case root>,
max_retries=0, timeout=<case timeout>, http_client=<one httpx2.Client per
process>)``.

Counted as the library's own refusal: ``anthropic.APIError`` and its
subclasses (an HTTP error status, an ``error`` event, a connection or
timeout error at request time), ``httpx2.TransportError`` raised while the
body is read, and the ``ValueError`` the accumulator raises when it cannot
even partially parse a tool's input ("Unable to parse tool parameter JSON
from model").  Everything else propagates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolstream.adapters.base import AdapterCall, AdapterResult, library_raised
from toolstream.clients.base import (
    DUMMY_API_KEY,
    MODEL,
    Client,
    Deadline,
    Target,
    fixture_tools,
    json_text,
    shared_http_client,
)

__all__ = ["AnthropicMessagesStream", "anthropic_refusals"]

MAX_TOKENS = 1024


def anthropic_refusals() -> tuple[type[BaseException], ...]:
    import anthropic
    import httpx2

    return (anthropic.APIError, httpx2.TransportError)


def anthropic_client(target: Target) -> Any:
    import anthropic

    return anthropic.Anthropic(
        api_key=DUMMY_API_KEY,
        base_url=target.root,
        max_retries=0,
        timeout=target.timeout,
        http_client=shared_http_client(),
    )


def parse_refusal(error: BaseException) -> bool:
    return isinstance(error, ValueError) and "Unable to parse tool parameter JSON" in str(error)


class AnthropicMessagesStream(Client):
    name = "anthropic-messages-stream"
    packages = ("anthropic", "httpx2")
    profiles = ("anthropic",)
    concurrent_runs = True  # a client and a MessageStream per case; httpx2.Client is thread-safe

    def load(self) -> None:
        import anthropic  # noqa: F401
        import httpx2  # noqa: F401

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        import anthropic

        deadline = Deadline(target)
        tools = [{"name": name, "input_schema": schema} for name, schema in fixture_tools(fixture)]
        request: dict[str, Any] = {
            "model": MODEL,
            "max_tokens": MAX_TOKENS,
            "messages": [{"role": "user", "content": "toolstream case"}],
        }
        if tools:
            request["tools"] = tools
        client = anthropic_client(target)
        events = 0
        try:
            with library_raised(f"anthropic {anthropic.__version__} messages.stream()"):
                with client.messages.stream(**request) as stream:
                    for _event in stream:
                        events += 1
                        deadline.check()
                    message = stream.get_final_message()
        except anthropic_refusals() as error:
            return AdapterResult.rejection(
                f"{type(error).__name__} after {events} event(s): {error}"
            )
        except ValueError as error:
            if not parse_refusal(error):
                raise
            return AdapterResult.rejection(f"ValueError after {events} event(s): {error}")
        calls = tuple(
            AdapterCall(
                id=getattr(block, "id", None),
                name=getattr(block, "name", None),
                arguments=json_text(getattr(block, "input", None)),
                input=getattr(block, "input", None),
            )
            for block in (message.content or [])
            if getattr(block, "type", None) == "tool_use"
        )
        stop = getattr(message, "stop_reason", None)
        return AdapterResult(
            calls=calls,
            rejected=False,
            invalid=(),
            finish_reason=stop if isinstance(stop, str) else None,
        )
