"""Adapter: the ``openai`` Python SDK's chat-completions stream accumulator.

What it drives
    ``openai.lib.streaming.chat.ChatCompletionStream`` (the object
    ``client.chat.completions.stream(...)`` yields inside its ``with`` block),
    built over a stand-in for the raw ``openai.Stream``.  The stand-in does,
    per fixture chunk, what ``openai._streaming.Stream.__stream__`` does per
    SSE ``data:`` line in the SDK's default ("legacy") mode with the default
    non-strict response validation:

    * a ``"[DONE]"`` string ends the stream;
    * a mapping with a truthy ``"error"`` member raises (the SDK raises
      ``openai.APIError``) -> reported as *rejected*;
    * otherwise ``openai._models.construct_type(type_=ChatCompletionChunk,
      value=data)`` -- ``_process_response_data``'s non-validating path, so a
      hostile value (an ``int`` as arguments, ``index: null``) reaches the
      accumulator exactly as it would from the wire.

    ``ChatCompletionStream`` itself then drops chunks whose ``object`` is not
    ``"chat.completion.chunk"`` (its Azure async-filter guard) and feeds the
    rest to ``ChatCompletionStreamState.handle_chunk``.  The result is
    ``stream.get_final_completion()`` (``parse_chat_completion`` over the
    snapshot), read as the application would: ``choices[0].message.tool_calls``.

Placeholders
    Only chunk-level fields a fixture may omit and that carry no tool data are
    filled, and only when *absent*: ``id="chatcmpl-toolstream"``,
    ``object="chat.completion.chunk"``, ``created=0``,
    ``model="toolstream-fixture"``.  Nothing inside ``choices`` is touched.

Tools
    ``chat.completions.stream(tools=...)`` passes the same tool list to the
    accumulator as ``input_tools``; the adapter does likewise, building
    ``{"type": "function", "function": {"name", "parameters"}}`` from the
    fixture's ``tool_schemas``, *non-strict* by default (``strict_tools=False``):
    the SDK then computes no ``parsed_arguments`` (it leaves them ``None``;
    ``AdapterCall.input`` is ``NO_INPUT``) and never raises for malformed
    arguments -- the application gets ``function.arguments`` text verbatim.
    ``strict_tools=True`` (not registered; construct it explicitly) marks
    every tool ``"strict": true``, as ``client.chat.completions.stream()``
    requires for auto-parsing; the SDK then jiter-partial-parses arguments on
    every delta and ``json.loads`` them when a call is done, and
    ``AdapterCall.input`` is that ``parsed_arguments``.  ``pass_tools=False``
    feeds no tools at all (plain ``ChatCompletionStreamState()`` usage).

Counted as *rejected* (the SDK's documented refusals)
    ``openai.LengthFinishReasonError``, ``openai.ContentFilterFinishReasonError``
    (raised by ``get_final_completion`` for ``finish_reason`` ``length`` /
    ``content_filter``), an ``error`` object in the stream (``openai.APIError``),
    and -- only with ``strict_tools=True`` -- the ``ValueError`` /
    ``json.JSONDecodeError`` raised by the SDK's auto-parsing of strict tool
    arguments.  Everything else (``TypeError``/``RuntimeError`` from
    ``accumulate_delta``, ``IndexError``, ``AssertionError`` on an empty
    stream...) propagates.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .base import (
    NO_INPUT,
    AdapterCall,
    AdapterResult,
    AdapterUnavailable,
    ImportingAdapter,
    _list_field,
    library_raised,
)

__all__ = ["CHUNK_PLACEHOLDERS", "OpenAIPythonAdapter"]

CHUNK_PLACEHOLDERS: Mapping[str, Any] = {
    "id": "chatcmpl-toolstream",
    "object": "chat.completion.chunk",
    "created": 0,
    "model": "toolstream-fixture",
}


class _StreamErrorObject(Exception):
    """The stand-in raw stream met an ``error`` object (the SDK raises APIError)."""


class _RawStream:
    """Stand-in for ``openai.Stream[ChatCompletionChunk]`` over fixture bodies."""

    response = None  # ChatCompletionStream reads it; nothing uses it offline

    def __init__(self, chunks: list[Any], construct: Any, chunk_type: Any) -> None:
        self._chunks = chunks
        self._construct = construct
        self._chunk_type = chunk_type
        self.consumed = 0

    def __iter__(self) -> Iterator[Any]:
        for position, data in enumerate(self._chunks):
            self.consumed = position
            if isinstance(data, str) and data.startswith("[DONE]"):
                break
            if isinstance(data, Mapping) and data.get("error"):
                error = data.get("error")
                message = error.get("message") if isinstance(error, Mapping) else None
                if not message or not isinstance(message, str):
                    message = "An error occurred during streaming"
                raise _StreamErrorObject(message)
            if isinstance(data, Mapping):
                data = {**CHUNK_PLACEHOLDERS, **data}
            yield self._construct(type_=self._chunk_type, value=data)

    def close(self) -> None:
        pass


class OpenAIPythonAdapter(ImportingAdapter):
    name = "openai-python"
    package = "openai"
    profiles = ("openai", "mistral")

    def __init__(self, *, strict_tools: bool = False, pass_tools: bool = True) -> None:
        self.strict_tools = strict_tools
        self.pass_tools = pass_tools

    def _import(self) -> dict[str, Any]:
        try:
            import openai
            from openai._models import construct_type
            from openai._types import omit
            from openai.lib.streaming.chat import ChatCompletionStream
            from openai.types.chat import ChatCompletionChunk
        except ImportError as exc:
            raise AdapterUnavailable(self.name, self.package, extra=self.extra, cause=exc) from exc
        return {
            "openai": openai,
            "construct_type": construct_type,
            "omit": omit,
            "ChatCompletionStream": ChatCompletionStream,
            "ChatCompletionChunk": ChatCompletionChunk,
        }

    def input_tools(self, fixture: Mapping[str, Any]) -> list[dict[str, Any]]:
        schemas = fixture.get("tool_schemas") or {}
        tools = []
        if isinstance(schemas, Mapping):
            for tool_name, schema in schemas.items():
                function: dict[str, Any] = {"name": tool_name, "parameters": schema}
                if self.strict_tools:
                    function["strict"] = True
                tools.append({"type": "function", "function": function})
        return tools

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        self.check_profile(fixture)
        chunks = _list_field(fixture, "chunks")
        lib = self._import()
        openai = lib["openai"]

        tools = self.input_tools(fixture) if self.pass_tools else []
        raw = _RawStream(chunks, lib["construct_type"], lib["ChatCompletionChunk"])
        rejections: tuple[type[BaseException], ...] = (
            openai.LengthFinishReasonError,
            openai.ContentFilterFinishReasonError,
            _StreamErrorObject,
        )
        if self.strict_tools:
            # auto-parsing: jiter partial parse per delta, json.loads when done
            # (JSONDecodeError is a ValueError)
            rejections += (ValueError,)
        try:
            with library_raised(f"openai {openai.__version__} ChatCompletionStream"):
                stream = lib["ChatCompletionStream"](
                    raw_stream=raw,
                    response_format=lib["omit"],
                    input_tools=tools if tools else lib["omit"],
                )
                completion = stream.get_final_completion()
        except rejections as exc:
            kind = (
                "openai.APIError (error object in stream)"
                if isinstance(exc, _StreamErrorObject)
                else type(exc).__name__
            )
            return AdapterResult.rejection(f"{kind} at chunk {raw.consumed}: {exc}")

        if not completion.choices:
            return AdapterResult(calls=(), rejected=False, invalid=())
        choice = completion.choices[0]
        calls = tuple(self._call(tc) for tc in (choice.message.tool_calls or []))
        finish = getattr(choice, "finish_reason", None)
        return AdapterResult(
            calls=calls,
            rejected=False,
            invalid=(),
            finish_reason=finish if isinstance(finish, str) else None,
        )

    def _call(self, tool_call: Any) -> AdapterCall:
        function = getattr(tool_call, "function", None)
        parsed = getattr(function, "parsed_arguments", None)
        return AdapterCall(
            id=getattr(tool_call, "id", None),
            name=getattr(function, "name", None),
            arguments=getattr(function, "arguments", None),
            input=parsed if (self.strict_tools and parsed is not None) else NO_INPUT,
        )
