"""Clients: a Pydantic AI agent whose tools are external (deferred), over HTTP.

``pydantic-ai-openai``
    the agent's model is ``pydantic_ai.models.openai.OpenAIChatModel``
    (Chat Completions through openai-python's ``AsyncOpenAI``, its own
    streamed-response parts manager).  Takes the openai and mistral profiles.
``pydantic-ai-anthropic``
    the agent's model is ``pydantic_ai.models.anthropic.AnthropicModel``
    (Messages through the anthropic SDK's ``AsyncAnthropic`` raw event
    stream, its own parts manager).

Both: ``Agent(model, output_type=[str, DeferredToolRequests],
toolsets=[ExternalToolset([ToolDefinition(name, parameters_json_schema)
...])], retries=0)`` and ``agent.run(prompt, event_stream_handler=...)``
(run to completion on one event loop per process, as ``run_sync`` would on
the thread's loop): with an event-stream handler the agent makes
its model request streaming (``stream=True``) and the handler reads every
event.  The tools are *external* (the pinned version's deferred tools:
``kind="external"``), so the agent never runs them: the run ends by
handing the model's calls back as its output, a ``DeferredToolRequests``
whose ``calls`` are ``ToolCallPart``\\ s (``tool_call_id``, ``tool_name``,
``args``: the argument text, an object or ``None``, as the parts manager
built it).  The arguments an application executes are the part's
``args_as_dict()`` (``{}`` for no arguments; ``{"INVALID_JSON": <text>}``
for text that is not a JSON object): that value is what is compared, the
text (``args``) is reported beside it.
That output is what the application receives; a ``str`` output (a text
answer) hands over no call.  ``retries=0``: a call the agent cannot accept
ends the run instead of asking the model again, so every case is one
request.  The case's ``tool_choice`` is not sent: Pydantic AI refuses a
static ``"required"`` or forced tool (``UserError``) and sends ``"auto"``
itself, and the served stream does not depend on the request.

One request per case: the agent continues a turn that ends with
Anthropic's ``stop_reason`` ``pause_turn`` by requesting again (up to 1000
times; ``UsageLimits(request_limit=...)`` does not count these), and a served
case has one answer.  The SDK client each model is given counts its
requests, and a second one ends the run there: the agent took the turn as
unfinished and handed the application none of its calls, which counts as its
own refusal ("requested the turn again").  Without that, whether the run
ended in the agent's ``UnexpectedModelBehavior`` after 1000 polls or in the
case deadline depended on the machine's speed
(``corpus/cases/wrong_finish/dd2ee7456f555c68.json`` before the corpus's
1.5.0 regeneration).

Client: the SDK client each model class is given as its provider's client,
``api_key=<dummy>``, ``base_url`` the case, ``max_retries=0``, the case
timeout, and one process-wide ``httpx2.AsyncClient`` as ``http_client`` (so
no TLS context is built per case; every run is driven on the same loop).
The SDK's read timeout bounds a stall inside one read; the case deadline is
checked per event in the handler.

Counted as the library's own refusal: ``pydantic_ai.exceptions.
AgentRunError`` and its subclasses (``ModelHTTPError`` / ``ModelAPIError``
for an error status or a connection error, ``UnexpectedModelBehavior`` for a
response or a call it cannot accept, ``IncompleteToolCall`` for a call cut
off by the token limit), and the provider SDK's ``APIError`` and
``httpx2.TransportError`` when they reach the application unwrapped.
Everything else propagates.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Final

from toolstream.adapters.base import AdapterCall, AdapterResult, library_raised, package_version
from toolstream.clients.base import (
    DUMMY_API_KEY,
    MODEL,
    Client,
    Deadline,
    Target,
    fixture_tools,
    http_module,
    json_text,
    shared_async_http_client,
)

__all__ = ["PydanticAIAnthropic", "PydanticAIOpenAI"]

PROMPT: Final = "toolstream case"


def pydantic_ai_refusals() -> tuple[type[BaseException], ...]:
    import importlib

    from pydantic_ai.exceptions import AgentRunError

    out: list[type[BaseException]] = [AgentRunError]
    for sdk in ("openai", "anthropic"):
        try:
            module = importlib.import_module(sdk)
        except ImportError:
            continue  # one route's SDK may be absent: the other route still runs
        out.extend((module.APIError, http_module(sdk).TransportError))
    return tuple(out)


_LOOP: list[asyncio.AbstractEventLoop] = []


def event_loop() -> asyncio.AbstractEventLoop:
    """The one event loop every run of this process is driven on (what
    ``Agent.run_sync`` does with the thread's loop, but owned here: the
    shared ``httpx2.AsyncClient`` is bound to the loop it first ran on, and
    another library's ``asyncio.run`` unsets the thread's loop)."""
    if not _LOOP:
        _LOOP.append(asyncio.new_event_loop())
    return _LOOP[0]


class _PydanticAIClient(Client):
    packages = ("pydantic-ai-slim", "httpx2")
    model_class = ""

    def load(self) -> None:
        import pydantic_ai  # noqa: F401

    def model(self, target: Target) -> Any:
        """The agent's model, its SDK client pointed at the case."""
        raise NotImplementedError

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        from pydantic_ai import Agent, DeferredToolRequests
        from pydantic_ai.tools import ToolDefinition
        from pydantic_ai.toolsets import ExternalToolset

        deadline = Deadline(target)
        tools = [
            ToolDefinition(name=name, parameters_json_schema=schema)
            for name, schema in fixture_tools(fixture)
        ]
        agent: Any = Agent(
            self.model(target),
            output_type=[str, DeferredToolRequests],
            toolsets=[ExternalToolset(tools)] if tools else [],
            retries=0,
        )
        events = [0]

        async def read_events(_context: Any, stream: Any) -> None:
            async for _event in stream:
                events[0] += 1
                deadline.check()

        where = f"pydantic-ai {package_version('pydantic-ai-slim')} {self.model_class}"
        try:
            with library_raised(where):
                run = event_loop().run_until_complete(
                    agent.run(PROMPT, event_stream_handler=read_events)
                )
        except pydantic_ai_refusals() as error:
            return AdapterResult.rejection(
                f"{type(error).__name__} after {events[0]} event(s): {error}"
            )
        except RequestedAgain as error:
            return AdapterResult.rejection(f"after {events[0]} event(s): {error}")
        return output_result(run)


class RequestedAgain(Exception):
    """The agent sent a second request for the case's one turn (a
    ``pause_turn`` continuation)."""


def one_request(client: Any) -> Any:
    """``client`` (an SDK client) refusing every request after its first."""
    sent = [0]
    request = client.request

    async def counted(*args: Any, **kwargs: Any) -> Any:
        sent[0] += 1
        if sent[0] > 1:
            raise RequestedAgain("requested the turn again (it took the turn as unfinished)")
        return await request(*args, **kwargs)

    client.request = counted
    return client


def output_result(run: Any) -> AdapterResult:
    """What the run's output hands the application."""
    from pydantic_ai import DeferredToolRequests

    output = run.output
    parts = output.calls if isinstance(output, DeferredToolRequests) else []
    calls = tuple(
        AdapterCall(
            id=part.tool_call_id,
            name=part.tool_name,
            arguments=part.args if isinstance(part.args, str) else json_text(part.args_as_dict()),
            input=part.args_as_dict(),
        )
        for part in parts
    )
    finish = None
    for message in reversed(run.all_messages()):
        reason = getattr(message, "provider_details", None) or {}
        finish = reason.get("finish_reason") if isinstance(reason, Mapping) else None
        if finish is not None:
            break
    return AdapterResult(
        calls=calls,
        rejected=False,
        invalid=(),
        finish_reason=finish if isinstance(finish, str) else None,
    )


class PydanticAIOpenAI(_PydanticAIClient):
    name = "pydantic-ai-openai"
    profiles = ("openai", "mistral")
    model_class = "OpenAIChatModel"
    library_extras = "[openai]"
    oldest = "1.0.0"
    """Its first 1.x release (a 1.x release imports ``opentelemetry._events``,
    which opentelemetry-api removed in 1.44.0: its environment pins an older
    one, :data:`toolstream.clients.versions.COMPANION_PINS`); the openai SDK
    under it may take an ``httpx`` client (:func:`http_module`)."""

    def load(self) -> None:
        from pydantic_ai.models.openai import OpenAIChatModel  # noqa: F401

    def model(self, target: Target) -> Any:
        import openai
        from pydantic_ai.models.openai import OpenAIChatModel
        from pydantic_ai.providers.openai import OpenAIProvider

        client = one_request(
            openai.AsyncOpenAI(
                api_key=DUMMY_API_KEY,
                base_url=target.v1,
                max_retries=0,
                timeout=target.timeout,
                http_client=shared_async_http_client("openai"),
            )
        )
        return OpenAIChatModel(MODEL, provider=OpenAIProvider(openai_client=client))


class PydanticAIAnthropic(_PydanticAIClient):
    name = "pydantic-ai-anthropic"
    profiles = ("anthropic",)
    model_class = "AnthropicModel"

    def load(self) -> None:
        from pydantic_ai.models.anthropic import AnthropicModel  # noqa: F401

    def model(self, target: Target) -> Any:
        import anthropic
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        client = one_request(
            anthropic.AsyncAnthropic(
                api_key=DUMMY_API_KEY,
                base_url=target.root,
                max_retries=0,
                timeout=target.timeout,
                http_client=shared_async_http_client(),
            )
        )
        return AnthropicModel(MODEL, provider=AnthropicProvider(anthropic_client=client))
