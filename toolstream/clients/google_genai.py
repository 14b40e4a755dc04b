"""Client: the google-genai SDK's ``models.generate_content_stream``, over HTTP.

``google-genai-stream``
    ``client.models.generate_content_stream(model=..., contents=...,
    config=GenerateContentConfig(tools=[Tool(function_declarations=[
    FunctionDeclaration(name, parameters_json_schema=schema)])],
    automatic_function_calling={"disable": True},
    automatic_continuation=False))``: the SDK's own HTTP layer (``?alt=sse``),
    its SSE line reader and its pydantic parsing of every chunk into a
    ``GenerateContentResponse``.

    What the application gets: the SDK has no accumulator for a streamed
    turn.  Each chunk's ``function_calls`` property lists the
    ``FunctionCall``\\ s of that chunk's first candidate (a warning is logged
    when there are more candidates); the SDK's documented streaming usage
    reads each chunk as it comes, and a call the model streams arrives in the
    chunk that carries it.  So this driver collects, in order, every
    ``FunctionCall`` of every chunk's ``function_calls`` -- each is what an
    application following that usage would execute: ``id``, ``name`` and
    ``args`` (the parsed dict the SDK hands over, compared as ``input``;
    ``None`` when the part has none).  Nothing else is merged or filtered:
    the SDK does not reassemble Vertex ``partialArgs`` / ``willContinue``
    fragments (it parses them into ``FunctionCall.partial_args`` and leaves
    them there), so each fragment is handed over as a call of its own, as
    the application receives it.  The finish reason reported is the last
    ``finish_reason`` of a first candidate; the usage does not consult it.

    Automatic function calling is off (the SDK would otherwise call Python
    callables; the tools are declarations only), and so is automatic
    continuation (a ``CONTINUATION`` finish would make the SDK send a second
    request for a turn the case does not have).

Client: ``genai.Client(api_key=<dummy>, http_options=HttpOptions(base_url=
<server root>, timeout=<case timeout in ms>, retry_options=HttpRetryOptions(
attempts=1), httpx_client=<one httpx2.Client per process>))``, one per
process (the case in the request's ``X-Toolstream-Case`` header, set through
the config's per-request ``http_options``): one attempt, no retry; the read
timeout bounds a stall inside one read, the case deadline (checked per
chunk) the whole stream.

Counted as the library's own refusal: ``google.genai.errors.APIError`` and
its subclasses (an HTTP error status, an ``{"error": ...}`` object in the
stream), ``google.genai.errors.UnknownApiResponseError`` (its error for a
chunk it cannot parse as JSON, e.g. the half event of a body cut off by a
clean close) and ``httpx2.TransportError`` raised while the body is read (a
chunked body cut off mid-event, a read timeout: the SDK lets these reach the
application unchanged).  Everything else propagates: a chunk whose fields do
not fit the SDK's types (``pydantic.ValidationError``, say ``args`` that is
a string) is a crash inside the library, not a refusal it documents.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolstream.adapters.base import AdapterCall, AdapterResult, library_raised, package_version
from toolstream.clients.base import (
    DUMMY_API_KEY,
    MODEL,
    Client,
    Deadline,
    Target,
    fixture_tools,
    json_text,
    refused,
    shared_http_client,
)

__all__ = ["GoogleGenAIStream", "function_calling_config", "google_refusals"]

CONTENTS = "toolstream case"


def google_refusals() -> tuple[type[BaseException], ...]:
    import httpx2
    from google.genai import errors

    return (errors.APIError, errors.UnknownApiResponseError, httpx2.TransportError)


def function_calling_config(fixture: Mapping[str, Any]) -> Any:
    """The request's ``toolConfig.functionCallingConfig`` (Gemini's tool
    choice: ``mode``, ``allowedFunctionNames``), or ``None``."""
    request = fixture.get("request")
    if not isinstance(request, Mapping):
        return None
    for key in ("toolConfig", "tool_config"):
        config = request.get(key)
        if isinstance(config, Mapping):
            for inner in ("functionCallingConfig", "function_calling_config"):
                if isinstance(config.get(inner), Mapping):
                    return config[inner]
    return None


def generate_config(fixture: Mapping[str, Any], headers: Mapping[str, str]) -> Any:
    """The ``GenerateContentConfig`` for the case: its tools declared (JSON
    Schema as ``parameters_json_schema``), automatic function calling and
    automatic continuation off, ``headers`` (the case) on this request."""
    from google.genai import types

    settings: dict[str, Any] = {
        "automatic_function_calling": types.AutomaticFunctionCallingConfig(disable=True),
        "automatic_continuation": False,
        "http_options": types.HttpOptions(headers=dict(headers)),
    }
    declarations = [
        types.FunctionDeclaration(name=name, parameters_json_schema=schema)
        for name, schema in fixture_tools(fixture)
    ]
    if declarations:
        settings["tools"] = [types.Tool(function_declarations=declarations)]
    choice = function_calling_config(fixture)
    if choice is not None:
        # the request's own words, as the SDK would send them (a dict: the
        # SDK validates it into FunctionCallingConfig, enum mode included)
        mode = choice.get("mode")
        names = choice.get("allowedFunctionNames", choice.get("allowed_function_names"))
        calling: dict[str, Any] = {}
        if isinstance(mode, str):
            calling["mode"] = mode
        if isinstance(names, list):
            calling["allowed_function_names"] = names
        settings["tool_config"] = {"function_calling_config": calling}
    return types.GenerateContentConfig(**settings)


_CLIENTS: dict[tuple[str, float], Any] = {}


def google_client(target: Target) -> Any:
    """One ``genai.Client`` per server and timeout (building one costs three
    TLS contexts, about 0.15 s, whatever ``httpx_client`` it is given): the
    case goes in each request's ``X-Toolstream-Case`` header."""
    key = (target.shared_root, target.timeout)
    if key not in _CLIENTS:
        from google import genai
        from google.genai import types

        _CLIENTS[key] = genai.Client(
            api_key=DUMMY_API_KEY,
            http_options=types.HttpOptions(
                base_url=target.shared_root,
                timeout=max(1, round(target.timeout * 1000)),
                retry_options=types.HttpRetryOptions(attempts=1),
                httpx_client=shared_http_client(),
            ),
        )
    return _CLIENTS[key]


def _reason(value: Any) -> str | None:
    """A ``FinishReason`` enum member (or a string the SDK kept) as text."""
    if value is None:
        return None
    text = getattr(value, "value", value)
    return text if isinstance(text, str) else None


class GoogleGenAIStream(Client):
    name = "google-genai-stream"
    packages = ("google-genai", "httpx2")
    profiles = ("gemini",)

    def load(self) -> None:
        import httpx2  # noqa: F401
        from google import genai  # noqa: F401

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        deadline = Deadline(target)
        client = google_client(target)
        handed: list[Any] = []
        finish = None
        chunks = 0
        where = f"google-genai {package_version('google-genai')} generate_content_stream"
        try:
            with library_raised(where):
                stream = client.models.generate_content_stream(
                    model=MODEL, contents=CONTENTS, config=generate_config(fixture, target.headers)
                )
                for chunk in stream:
                    chunks += 1
                    deadline.check()
                    handed.extend(chunk.function_calls or [])
                    if chunk.candidates:
                        finish = _reason(chunk.candidates[0].finish_reason) or finish
        except google_refusals() as error:
            return refused(error, chunks, "chunk")
        calls = tuple(
            AdapterCall(
                id=call.id,
                name=call.name,
                arguments=json_text(call.args),
                input=call.args,
            )
            for call in handed
        )
        return AdapterResult(calls=calls, rejected=False, invalid=(), finish_reason=finish)
