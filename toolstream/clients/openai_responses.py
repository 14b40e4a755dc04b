"""Client: openai-python's Responses streaming helper, over HTTP.

``openai-responses-stream``
    ``client.responses.stream(model=..., input=..., tools=[function tools],
    tool_choice=...)`` (``with ... as stream``, every event read, then
    ``stream.get_final_response()``): every ``function_call`` item of
    ``response.output`` is a call (``call_id``: the identity a tool result
    echoes, ``name``, ``arguments`` text).  Tools are sent ``"strict":
    false``, so the SDK parses nothing and hands over the text verbatim.

Client and refusals: as :mod:`toolstream.clients.openai_chat`
(``openai.APIError`` and subclasses, ``httpx2.TransportError`` while the body
is read); besides, every ``RuntimeError`` raised by the helper's own
accumulator (``openai/lib/streaming/responses/_responses.py``): its integrity
checks of the stream ("Didn't receive a `response.completed` event.",
"Completed output item identity changed.", "Duplicate response output index
N.", "Cannot complete response with unfinished output items."...), each a
deliberate refusal of an inconsistent or unfinished turn.  A RuntimeError
from anywhere else propagates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolstream.adapters.base import AdapterCall, AdapterResult, library_raised
from toolstream.clients.base import (
    MODEL,
    Client,
    Deadline,
    Target,
    fixture_tool_choice,
    fixture_tools,
)
from toolstream.clients.openai_chat import openai_client, openai_refusals

__all__ = ["OpenAIResponsesStream"]


ACCUMULATOR = ("openai", "lib", "streaming", "responses", "_responses.py")


def raised_by_accumulator(error: BaseException) -> bool:
    """Whether the innermost frame of ``error`` is the Responses stream helper's."""
    import traceback

    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return False
    parts = frames[-1].filename.replace("\\", "/").split("/")
    return tuple(parts[-len(ACCUMULATOR) :]) == ACCUMULATOR


class OpenAIResponsesStream(Client):
    name = "openai-responses-stream"
    packages = ("openai", "httpx2")
    profiles = ("openai-responses",)
    concurrent_runs = True  # as openai_chat: a client per case over the shared httpx2.Client

    def load(self) -> None:
        import httpx2  # noqa: F401
        import openai  # noqa: F401

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        import openai

        deadline = Deadline(target)
        tools = [
            {"type": "function", "name": name, "parameters": schema, "strict": False}
            for name, schema in fixture_tools(fixture)
        ]
        request: dict[str, Any] = {"model": MODEL, "input": "toolstream case"}
        if tools:
            request["tools"] = tools
        choice = fixture_tool_choice(fixture)
        if choice is not None:
            request["tool_choice"] = choice
        client = openai_client(target)
        events = 0
        try:
            with library_raised(f"openai {openai.__version__} responses.stream()"):
                with client.responses.stream(**request) as stream:
                    for _event in stream:
                        events += 1
                        deadline.check()
                    response = stream.get_final_response()
        except openai_refusals() as error:
            return AdapterResult.rejection(
                f"{type(error).__name__} after {events} event(s): {error}"
            )
        except RuntimeError as error:
            if not raised_by_accumulator(error):
                raise
            return AdapterResult.rejection(f"RuntimeError after {events} event(s): {error}")
        calls = tuple(
            AdapterCall(
                id=getattr(item, "call_id", None),
                name=getattr(item, "name", None),
                arguments=getattr(item, "arguments", None),
            )
            for item in (response.output or [])
            if getattr(item, "type", None) == "function_call"
        )
        status = getattr(response, "status", None)
        return AdapterResult(
            calls=calls,
            rejected=False,
            invalid=(),
            finish_reason=status if isinstance(status, str) else None,
        )
