"""Adapter: LangChain's chunk merging (``langchain-core``).

What it drives
    ``AIMessageChunk`` objects carrying ``tool_call_chunks`` are built from the
    fixture the way the provider integration builds them, then summed the way
    ``langchain_core.language_models.chat_models.generate_from_stream`` sums a
    stream (``first + [rest...]``, i.e. ``add_ai_message_chunks`` /
    ``merge_lists`` / ``merge_dicts``), converted with
    ``message_chunk_to_message`` and read back: ``AIMessage.tool_calls`` become
    ``AdapterCall``\\ s (``input`` = ``args``, the dict LangChain hands to the
    application; ``arguments`` = the merged ``tool_call_chunks[i]["args"]``
    text it parsed) and ``AIMessage.invalid_tool_calls`` become ``invalid``.
    LangChain turns ``args`` text into ``args`` with
    ``langchain_core.utils.json.parse_partial_json``, which *closes* unfinished
    JSON, so truncated arguments usually come out as a valid call.

    No integration package is imported at run time; their per-chunk conversion
    is mirrored here from their source (versions in docs/adapters-notes.md):

    ``openai`` profile -- ``langchain-openai`` ``ChatOpenAI._stream``: each SSE
        body becomes an ``openai`` ``ChatCompletionChunk`` (``construct_type``,
        as the SDK's raw ``Stream`` does; an ``error`` object raises
        ``openai.APIError``), is ``.model_dump()``-ed, and
        ``_convert_chunk_to_generation_chunk`` / ``_convert_delta_to_message_chunk``
        take ``choices[0].delta.tool_calls`` into
        ``tool_call_chunk(name=rtc["function"].get("name"),
        args=rtc["function"].get("arguments"), id=rtc.get("id"),
        index=rtc["index"])``; a ``KeyError`` drops *all* of that delta's
        calls.  Needs the ``openai`` package (a dependency of
        ``langchain-openai``).
    ``mistral`` profile -- ``langchain-mistralai`` ``_convert_chunk_to_message_chunk``
        on the raw JSON body (that integration has its own HTTP client):
        chunks without ``choices`` are skipped; the delta's raw ``tool_calls``
        also go to ``additional_kwargs["tool_calls"]`` (merged with
        ``merge_dicts``); a call whose ``index`` is falsy (absent, ``null``
        *or 0*) and that has no ``id`` gets a fresh id (``uuid4().hex`` there;
        here a deterministic 32-hex-digit counter so runs are reproducible);
        a ``KeyError`` keeps the calls converted before it.
    ``anthropic`` profile -- ``langchain-anthropic``
        ``_make_message_chunk_from_anthropic_event`` over ``anthropic`` SDK
        event objects (``construct_type``; ``ping`` skipped, ``error`` raises
        ``APIStatusError``): a ``tool_use`` ``content_block_start`` gives a
        chunk with ``id``, ``name`` and ``args=json.dumps(input)`` if the
        start ``input`` is a non-empty dict else ``""``; an
        ``input_json_delta`` gives ``args=partial_json`` with ``id``/``name``
        ``None`` -- but only while the *most recent* ``content_block_start``
        (of any index) was a ``tool_use``.  The tool-related ``content``
        blocks are carried too, since merging them can raise.  Needs the
        ``anthropic`` package.

Counted as *rejected*
    an ``error`` object/event (``openai.APIError`` / ``anthropic``
    ``APIStatusError`` in the real integrations) and
    ``ValueError("No generations found in stream.")`` from
    ``generate_from_stream`` when no chunk was produced at all.  Everything
    else propagates -- notably ``pydantic.ValidationError`` when an
    ``args``/``name``/``id`` fragment is not a string (``ToolCallChunk`` is
    validated), ``TypeError`` from ``merge_dicts`` and ``AttributeError``
    from ``rtc["function"].get`` when a delta has ``"function": null``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .base import (
    AdapterCall,
    AdapterResult,
    AdapterUnavailable,
    ImportingAdapter,
    _list_field,
    library_raised,
)

__all__ = ["LangChainCoreAdapter"]


class _StreamError(Exception):
    """An error object/event in the stream (the SDKs raise APIError there)."""


class LangChainCoreAdapter(ImportingAdapter):
    name = "langchain-core"
    package = "langchain-core"
    profiles = ("openai", "mistral", "anthropic")

    def _import(self) -> dict[str, Any]:
        try:
            import langchain_core
            from langchain_core.language_models.chat_models import generate_from_stream
            from langchain_core.messages import AIMessageChunk
            from langchain_core.messages.tool import tool_call_chunk
            from langchain_core.outputs import ChatGenerationChunk
            from langchain_core.utils.json import parse_partial_json
        except ImportError as exc:
            raise AdapterUnavailable(self.name, self.package, extra=self.extra, cause=exc) from exc
        return {
            "version": getattr(langchain_core, "__version__", "?"),
            "generate_from_stream": generate_from_stream,
            "AIMessageChunk": AIMessageChunk,
            "tool_call_chunk": tool_call_chunk,
            "ChatGenerationChunk": ChatGenerationChunk,
            "parse_partial_json": parse_partial_json,
        }

    # -- per-profile conversion (mirrors of the integrations) -----------------

    def _openai_chunks(self, lc: dict[str, Any], bodies: list[Any]) -> list[Any]:
        try:
            from openai._models import construct_type
            from openai.types.chat import ChatCompletionChunk
        except ImportError as exc:
            raise AdapterUnavailable(self.name, "openai", extra=self.extra, cause=exc) from exc
        from .openai_python import CHUNK_PLACEHOLDERS

        AIMessageChunk, tool_call_chunk = lc["AIMessageChunk"], lc["tool_call_chunk"]
        out = []
        for data in bodies:
            # openai._streaming.Stream.__stream__ (legacy mode)
            if isinstance(data, str) and data.startswith("[DONE]"):
                break
            if isinstance(data, Mapping) and data.get("error"):
                raise _StreamError(f"openai.APIError: {data.get('error')!r}")
            if isinstance(data, Mapping):
                data = {**CHUNK_PLACEHOLDERS, **data}
            sdk_chunk: Any = construct_type(type_=ChatCompletionChunk, value=data)
            chunk = sdk_chunk.model_dump()  # ChatOpenAI._stream: chunk.model_dump()
            # langchain_openai ChatOpenAI._convert_chunk_to_generation_chunk
            if chunk.get("type") == "content.delta":
                continue
            choices = chunk.get("choices", []) or chunk.get("chunk", {}).get("choices", [])
            if len(choices) == 0:
                out.append(AIMessageChunk(content=""))
                continue
            choice = choices[0]
            if choice["delta"] is None:
                continue
            # langchain_openai _convert_delta_to_message_chunk (tool-call part)
            delta = choice["delta"]
            tool_call_chunks = []
            if raw_tool_calls := delta.get("tool_calls"):
                try:
                    tool_call_chunks = [
                        tool_call_chunk(
                            name=rtc["function"].get("name"),
                            args=rtc["function"].get("arguments"),
                            id=rtc.get("id"),
                            index=rtc["index"],
                        )
                        for rtc in raw_tool_calls
                    ]
                except KeyError:
                    pass
            out.append(
                AIMessageChunk(content="", id=delta.get("id"), tool_call_chunks=tool_call_chunks)
            )
        return out

    def _mistral_chunks(self, lc: dict[str, Any], bodies: list[Any]) -> list[Any]:
        AIMessageChunk, tool_call_chunk = lc["AIMessageChunk"], lc["tool_call_chunk"]
        out = []
        generated = 0
        for chunk in bodies:
            # langchain_mistralai: iter_sse stops at [DONE]; _stream skips chunks without choices
            if isinstance(chunk, str) and chunk == "[DONE]":
                break
            if len(chunk.get("choices", [])) == 0:
                continue
            # langchain_mistralai _convert_chunk_to_message_chunk (tool-call part)
            _delta = chunk["choices"][0]["delta"]
            additional_kwargs: dict[str, Any] = {}
            tool_call_chunks: list[Any] = []
            if raw_tool_calls := _delta.get("tool_calls"):
                additional_kwargs["tool_calls"] = raw_tool_calls
                try:
                    for raw_tool_call in raw_tool_calls:
                        if not raw_tool_call.get("index") and not raw_tool_call.get("id"):
                            generated += 1
                            tool_call_id = f"{generated:032x}"  # uuid.uuid4().hex upstream
                        else:
                            tool_call_id = raw_tool_call.get("id")
                        tool_call_chunks.append(
                            tool_call_chunk(
                                name=raw_tool_call["function"].get("name"),
                                args=raw_tool_call["function"].get("arguments"),
                                id=tool_call_id,
                                index=raw_tool_call.get("index"),
                            )
                        )
                except KeyError:
                    pass
            out.append(
                AIMessageChunk(
                    content="",
                    additional_kwargs=additional_kwargs,
                    tool_call_chunks=tool_call_chunks,
                )
            )
        return out

    def _anthropic_chunks(self, lc: dict[str, Any], bodies: list[Any]) -> list[Any]:
        try:
            from anthropic._models import construct_type
            from anthropic.types import RawMessageStreamEvent
        except ImportError as exc:
            raise AdapterUnavailable(self.name, "anthropic", extra=self.extra, cause=exc) from exc
        from .anthropic_python import _with_placeholders

        AIMessageChunk, tool_call_chunk = lc["AIMessageChunk"], lc["tool_call_chunk"]
        out = []
        block_start_event: Any = None
        for data in bodies:
            # anthropic._streaming.Stream.__stream__
            kind = data.get("type") if isinstance(data, Mapping) else None
            if kind == "ping":
                continue
            if kind == "error":
                raise _StreamError(f"anthropic.APIStatusError: {data!r}")
            event: Any = construct_type(type_=RawMessageStreamEvent, value=_with_placeholders(data))
            # langchain_anthropic ChatAnthropic._make_message_chunk_from_anthropic_event (tool part)
            message_chunk = None
            if event.type == "message_start":
                message_chunk = AIMessageChunk(content=[])
            elif (
                event.type == "content_block_start"
                and event.content_block is not None
                and (
                    "tool_result" in event.content_block.type
                    or "tool_use" in event.content_block.type
                    or "document" in event.content_block.type
                    or "redacted_thinking" in event.content_block.type
                )
            ):
                content_block = event.content_block.model_dump()
                if "caller" in content_block and content_block["caller"] is None:
                    content_block.pop("caller")
                content_block["index"] = event.index
                if event.content_block.type == "tool_use":
                    parsed_args = getattr(event.content_block, "input", None)
                    args = (
                        json.dumps(parsed_args)
                        if parsed_args and isinstance(parsed_args, dict)
                        else ""
                    )
                    tool_call_chunks = [
                        tool_call_chunk(
                            index=event.index,
                            id=event.content_block.id,
                            name=event.content_block.name,
                            args=args,
                        )
                    ]
                else:
                    tool_call_chunks = []
                message_chunk = AIMessageChunk(
                    content=[content_block], tool_call_chunks=tool_call_chunks
                )
                block_start_event = event
            elif (
                event.type == "content_block_start"
                and event.content_block is not None
                and event.content_block.type in ("text", "thinking")
            ):
                block_start_event = event  # text/thinking content itself is not carried here
            elif event.type == "content_block_delta" and event.delta.type == "input_json_delta":
                content_block = event.delta.model_dump()
                content_block["index"] = event.index
                start_event_block = (
                    getattr(block_start_event, "content_block", None) if block_start_event else None
                )
                if (
                    start_event_block is not None
                    and getattr(start_event_block, "type", None) == "tool_use"
                ):
                    tool_call_chunks = [
                        tool_call_chunk(
                            index=event.index, id=None, name=None, args=event.delta.partial_json
                        )
                    ]
                else:
                    tool_call_chunks = []
                message_chunk = AIMessageChunk(
                    content=[content_block], tool_call_chunks=tool_call_chunks
                )
            elif event.type == "message_delta":
                message_chunk = AIMessageChunk(
                    content=[], response_metadata={"stop_reason": event.delta.stop_reason}
                )
                if message_chunk.response_metadata.get("stop_reason"):
                    message_chunk.chunk_position = "last"
            if message_chunk:
                message_chunk.response_metadata["model_provider"] = "anthropic"
                out.append(message_chunk)
        return out

    # -- run --------------------------------------------------------------------

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        profile = self.check_profile(fixture)
        bodies = _list_field(fixture, "events" if profile == "anthropic" else "chunks")
        lc = self._import()
        convert = {
            "openai": self._openai_chunks,
            "mistral": self._mistral_chunks,
            "anthropic": self._anthropic_chunks,
        }[profile]
        where = f"langchain-core {lc['version']} ({profile} integration mirror)"
        try:
            with library_raised(where):
                chunks = convert(lc, bodies)
                generations = (lc["ChatGenerationChunk"](message=c) for c in chunks)
                result = lc["generate_from_stream"](generations)
                message = result.generations[0].message
                # the same sum again, to read the merged tool_call_chunks that
                # message_chunk_to_message drops (for AdapterCall.arguments)
                total = chunks[0] + chunks[1:] if len(chunks) > 1 else chunks[0]
                merged_chunks = list(total.tool_call_chunks)
                valid_chunks = [c for c in merged_chunks if self._parses(lc, c)]
        except _StreamError as exc:
            return AdapterResult.rejection(str(exc))
        except ValueError as exc:
            if str(exc) == "No generations found in stream.":
                return AdapterResult.rejection("ValueError: No generations found in stream.")
            raise

        texts = (
            [c.get("args") for c in valid_chunks]
            if len(valid_chunks) == len(message.tool_calls)
            else [None] * len(message.tool_calls)
        )
        calls = tuple(
            AdapterCall(id=tc.get("id"), name=tc.get("name"), arguments=text, input=tc.get("args"))
            for tc, text in zip(message.tool_calls, texts, strict=True)
        )
        invalid = tuple(
            json.dumps(
                {k: itc.get(k) for k in ("id", "name", "args", "error")},
                sort_keys=True,
                default=repr,
            )
            for itc in message.invalid_tool_calls
        )
        return AdapterResult(
            calls=calls,
            rejected=False,
            invalid=invalid,
            finish_reason=_finish_reason(profile, bodies),
        )

    @staticmethod
    def _parses(lc: dict[str, Any], chunk: Mapping[str, Any]) -> bool:
        # the predicate of AIMessageChunk.init_tool_calls
        try:
            args = lc["parse_partial_json"](chunk["args"]) if chunk["args"] else {}
        except Exception:
            return False
        return isinstance(args, dict)


def _finish_reason(profile: str, bodies: list[Any]) -> str | None:
    """The last terminal reason in the stream (what the integration records)."""
    reason = None
    for body in bodies:
        if not isinstance(body, Mapping):
            continue
        if profile == "anthropic":
            delta = body.get("delta")
            if body.get("type") == "message_delta" and isinstance(delta, Mapping):
                value = delta.get("stop_reason")
                if isinstance(value, str):
                    reason = value
        else:
            choices = body.get("choices")
            if isinstance(choices, list) and choices and isinstance(choices[0], Mapping):
                value = choices[0].get("finish_reason")
                if isinstance(value, str) and value:
                    reason = value
    return reason
