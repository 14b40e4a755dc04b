"""Clients: openai-python's Chat Completions streaming, over HTTP.

``openai-chat-create``
    ``client.chat.completions.create(stream=True, tools=..., tool_choice=...)``,
    every chunk fed to ``openai.lib.streaming.chat.ChatCompletionStreamState``
    (``handle_chunk``) built with the same tools, then
    ``state.get_final_completion()``: ``choices[0].message.tool_calls``
    (``id``, ``function.name``, ``function.arguments`` text: what the
    application receives).  Tools are sent non-strict, as most applications
    send them, so the SDK hands over the argument text verbatim.
``openai-chat-stream``
    the ``client.chat.completions.stream(...)`` helper (``with ... as
    stream``, every event read, then ``stream.get_final_completion()``).  The
    helper only takes ``strict`` function tools (it raises ValueError for any
    other before sending), so every tool is sent ``"strict": true``; the SDK
    then auto-parses each call's arguments when the call is done, and the
    parsed value (``parsed_arguments``) is what is compared.

Client: ``openai.OpenAI(api_key=<dummy>, base_url=<case>/v1, max_retries=0,
timeout=<case timeout>, http_client=<one httpx2.Client per process>)``: the
read timeout bounds a stall inside one read, the case deadline (checked per
chunk) the whole stream.

Counted as the library's own refusal: ``openai.APIError`` and its subclasses
(an HTTP error status, an ``error`` object in the stream, a connection or
timeout error at request time), ``openai.LengthFinishReasonError`` and
``openai.ContentFilterFinishReasonError`` (``get_final_completion`` on
``finish_reason`` ``length`` / ``content_filter``), ``httpx2.TransportError``
raised while the body is read (a body cut off mid-event, a read timeout: the
SDK lets these reach the application unchanged), and, for
``openai-chat-stream`` only, the ``ValueError`` / ``json.JSONDecodeError``
of its auto-parsing of strict arguments.  Everything else propagates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolstream.adapters.base import NO_INPUT, AdapterCall, AdapterResult, library_raised
from toolstream.clients.base import (
    DUMMY_API_KEY,
    MODEL,
    Client,
    Deadline,
    Target,
    fixture_tool_choice,
    fixture_tools,
    http_module,
    shared_http_client,
)

__all__ = ["OpenAIChatCreate", "OpenAIChatStream", "openai_refusals"]

MESSAGES = [{"role": "user", "content": "toolstream case"}]


def openai_refusals() -> tuple[type[BaseException], ...]:
    import openai

    return (
        openai.APIError,
        openai.LengthFinishReasonError,
        openai.ContentFilterFinishReasonError,
        http_module("openai").TransportError,
    )


def stream_state_class() -> Any:
    """openai's ``ChatCompletionStreamState``: public from 1.56.0, in the
    private ``_completions`` module from 1.40.0 on."""
    try:
        from openai.lib.streaming.chat import ChatCompletionStreamState
    except ImportError:
        from openai.lib.streaming.chat._completions import ChatCompletionStreamState
    return ChatCompletionStreamState


def new_stream_state(tools: list[Any]) -> Any:
    """A ``ChatCompletionStreamState`` for the case's tools; before 1.56.0 its
    ``input_tools`` and ``response_format`` had no default (``NOT_GIVEN``)."""
    import inspect

    import openai

    state_class = stream_state_class()
    required = {
        name
        for name, parameter in inspect.signature(state_class).parameters.items()
        if parameter.kind is parameter.KEYWORD_ONLY and parameter.default is parameter.empty
    }
    kwargs: dict[str, Any] = {name: openai.NOT_GIVEN for name in required}
    if tools:
        kwargs["input_tools"] = tools
    return state_class(**kwargs)


def openai_client(target: Target) -> Any:
    import openai

    return openai.OpenAI(
        api_key=DUMMY_API_KEY,
        base_url=target.v1,
        max_retries=0,
        timeout=target.timeout,
        http_client=shared_http_client("openai"),
    )


def chat_tools(fixture: Mapping[str, Any], *, strict: bool) -> list[Any]:
    tools = []
    for name, schema in fixture_tools(fixture):
        function: dict[str, Any] = {"name": name, "parameters": schema}
        if strict:
            function["strict"] = True
        tools.append({"type": "function", "function": function})
    return tools


def chat_request(fixture: Mapping[str, Any], tools: list[dict[str, Any]]) -> dict[str, Any]:
    request: dict[str, Any] = {"model": MODEL, "messages": MESSAGES}
    if tools:
        request["tools"] = tools
    choice = fixture_tool_choice(fixture)
    if choice is not None:
        request["tool_choice"] = choice
    return request


def completion_result(completion: Any, *, parsed: bool) -> AdapterResult:
    if not completion.choices:
        return AdapterResult(calls=(), rejected=False, invalid=())
    choice = completion.choices[0]
    calls = []
    for tool_call in choice.message.tool_calls or []:
        function = getattr(tool_call, "function", None)
        value = getattr(function, "parsed_arguments", None) if parsed else None
        calls.append(
            AdapterCall(
                id=getattr(tool_call, "id", None),
                name=getattr(function, "name", None),
                arguments=getattr(function, "arguments", None),
                input=value if value is not None else NO_INPUT,
            )
        )
    finish = getattr(choice, "finish_reason", None)
    return AdapterResult(
        calls=tuple(calls),
        rejected=False,
        invalid=(),
        finish_reason=finish if isinstance(finish, str) else None,
    )


class _OpenAIClient(Client):
    packages = ("openai", "httpx2")
    profiles = ("openai", "mistral")
    concurrent_runs = True  # a client and a stream state per case; httpx2.Client is thread-safe
    oldest = "1.40.0"
    """The first release with ``ChatCompletionStreamState`` and the chat
    ``stream()`` helper (then under ``client.beta``); before 3.0.0 the SDK
    takes an ``httpx`` client, from 3.0.0 an ``httpx2`` one."""

    def load(self) -> None:
        import openai  # noqa: F401

        stream_state_class()
        http_module("openai")

    def where(self) -> str:
        import openai

        return f"openai {openai.__version__} {self.api}"

    api = ""


class OpenAIChatCreate(_OpenAIClient):
    name = "openai-chat-create"
    api = "chat.completions.create(stream=True) + ChatCompletionStreamState"

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        deadline = Deadline(target)
        tools = chat_tools(fixture, strict=False)
        client = openai_client(target)
        chunks = 0
        try:
            with library_raised(self.where()):
                state = new_stream_state(tools)
                with client.chat.completions.create(
                    stream=True, **chat_request(fixture, tools)
                ) as stream:
                    for chunk in stream:
                        chunks += 1
                        deadline.check()
                        state.handle_chunk(chunk)
                completion = state.get_final_completion()
        except openai_refusals() as error:
            return AdapterResult.rejection(
                f"{type(error).__name__} after {chunks} chunk(s): {error}"
            )
        return completion_result(completion, parsed=False)


class OpenAIChatStream(_OpenAIClient):
    name = "openai-chat-stream"
    api = "chat.completions.stream() (strict tools, auto-parsed)"

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        deadline = Deadline(target)
        tools = chat_tools(fixture, strict=True)
        client = openai_client(target)
        events = 0
        try:
            with library_raised(self.where()):
                # chat.completions.stream() was client.beta.chat.completions.stream() first
                completions = client.chat.completions
                if not hasattr(completions, "stream"):
                    completions = client.beta.chat.completions
                with completions.stream(**chat_request(fixture, tools)) as stream:
                    for _event in stream:
                        events += 1
                        deadline.check()
                    completion = stream.get_final_completion()
        except (*openai_refusals(), ValueError) as error:  # type: ignore[misc]
            return AdapterResult.rejection(
                f"{type(error).__name__} after {events} event(s): {error}"
            )
        return completion_result(completion, parsed=True)
