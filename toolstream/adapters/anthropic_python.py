"""Adapter: the ``anthropic`` Python SDK's Messages stream accumulator.

What it drives
    ``anthropic.lib.streaming.MessageStream`` (what
    ``client.messages.stream(...)`` yields inside its ``with`` block), whose
    ``__stream__`` calls ``accumulate_event`` for every event, built over a
    stand-in for the raw ``anthropic.Stream[RawMessageStreamEvent]``.  (The
    SDK's tracing helper explicitly tolerates such stand-ins: "A stand-in for
    the stream, as an application's test may give a stream helper, has no
    observer".)  Per fixture event body the stand-in does what
    ``anthropic._streaming.Stream.__stream__`` does per SSE event, taking the
    SSE ``event:`` name to be the body's ``type`` (as the API sends it):

    * ``ping`` is skipped;
    * ``error`` raises (the SDK raises an ``APIStatusError``) -> *rejected*;
    * anything else goes through ``construct_type(type_=RawMessageStreamEvent,
      value=data)`` -- ``_process_response_data``'s default non-validating
      path -- so hostile values reach ``accumulate_event`` unchanged.

    The result is ``stream.get_final_message()``; each ``tool_use`` content
    block becomes an ``AdapterCall(id, name, arguments=None, input=block.input)``
    -- the SDK hands the application only the parsed ``input``, never the
    JSON text.  ``server_tool_use`` blocks are not client calls and are left
    out.

Partial JSON
    ``accumulate_event`` re-parses the whole per-block buffer with
    ``jiter.from_json(buf, partial_mode=True)`` after *every*
    ``input_json_delta`` and stores the result in ``block.input``.  So a
    truncated buffer such as ``{"city":"Par`` becomes ``{"city": "Par"}``
    (jiter's default partial mode drops an incomplete trailing string; see
    the notes/tests for the exact behaviour), and a stream cut before
    ``content_block_stop``/``message_stop`` still yields a ``tool_use`` block
    with a plausible ``input``.

Placeholders
    Filled only when absent, never inside content blocks or deltas:
    ``message_start.message``'s ``id``, ``type``, ``role``, ``model``,
    ``content`` (``[]``), ``stop_reason``/``stop_sequence`` (``None``) and
    ``usage`` (zeros); ``message_delta.usage`` (``{"output_tokens": 0}``).

Counted as *rejected*
    an ``error`` event, and the ``ValueError`` ``accumulate_event`` raises
    with "Unable to parse tool parameter JSON from model" when jiter cannot
    even partially parse a buffer.  Everything else propagates (e.g.
    ``AssertionError`` from ``get_final_message`` when no ``message_start``
    arrived, ``IndexError`` for a delta to an unknown block index,
    ``TypeError`` when ``partial_json`` is not a string).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .base import (
    AdapterCall,
    AdapterResult,
    AdapterUnavailable,
    ImportingAdapter,
    _list_field,
    library_raised,
)

__all__ = ["MESSAGE_PLACEHOLDERS", "AnthropicPythonAdapter"]

MESSAGE_PLACEHOLDERS: Mapping[str, Any] = {
    "id": "msg_toolstream",
    "type": "message",
    "role": "assistant",
    "model": "toolstream-fixture",
    "content": [],
    "stop_reason": None,
    "stop_sequence": None,
    "usage": {"input_tokens": 0, "output_tokens": 0},
}

_JSON_REFUSAL = "Unable to parse tool parameter JSON from model"


class _ErrorEvent(Exception):
    """The stand-in raw stream met an ``error`` event (the SDK raises APIStatusError)."""


def _with_placeholders(data: Any) -> Any:
    if not isinstance(data, Mapping):
        return data
    kind = data.get("type")
    if kind == "message_start" and isinstance(data.get("message"), Mapping):
        return {**data, "message": {**MESSAGE_PLACEHOLDERS, **data["message"]}}
    if kind == "message_delta" and "usage" not in data:
        return {**data, "usage": {"output_tokens": 0}}
    return data


class _RawStream:
    """Stand-in for ``anthropic.Stream[RawMessageStreamEvent]`` over fixture bodies."""

    response = None

    def __init__(self, events: list[Any], construct: Any, event_type: Any) -> None:
        self._events = events
        self._construct = construct
        self._event_type = event_type
        self.consumed = 0

    def __iter__(self) -> Iterator[Any]:
        for position, data in enumerate(self._events):
            self.consumed = position
            kind = data.get("type") if isinstance(data, Mapping) else None
            if kind == "ping":
                continue
            if kind == "error":
                raise _ErrorEvent(f"{data}")
            yield self._construct(type_=self._event_type, value=_with_placeholders(data))

    def close(self) -> None:
        pass


class AnthropicPythonAdapter(ImportingAdapter):
    name = "anthropic-python"
    package = "anthropic"
    profiles = ("anthropic",)

    def _import(self) -> dict[str, Any]:
        try:
            import anthropic
            from anthropic._models import construct_type
            from anthropic._types import NOT_GIVEN
            from anthropic.lib.streaming import MessageStream
            from anthropic.types import RawMessageStreamEvent
        except ImportError as exc:
            raise AdapterUnavailable(self.name, self.package, extra=self.extra, cause=exc) from exc
        return {
            "anthropic": anthropic,
            "construct_type": construct_type,
            "NOT_GIVEN": NOT_GIVEN,
            "MessageStream": MessageStream,
            "RawMessageStreamEvent": RawMessageStreamEvent,
        }

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        self.check_profile(fixture)
        events = _list_field(fixture, "events")
        lib = self._import()
        raw = _RawStream(events, lib["construct_type"], lib["RawMessageStreamEvent"])
        try:
            with library_raised(f"anthropic {lib['anthropic'].__version__} MessageStream"):
                stream = lib["MessageStream"](raw, output_format=lib["NOT_GIVEN"])
                message = stream.get_final_message()
        except _ErrorEvent as exc:
            return AdapterResult.rejection(
                f"anthropic.APIStatusError (error event at {raw.consumed}): {exc}"
            )
        except ValueError as exc:
            if str(exc).startswith(_JSON_REFUSAL):
                return AdapterResult.rejection(f"ValueError at event {raw.consumed}: {exc}")
            raise

        calls = tuple(
            AdapterCall(
                id=getattr(block, "id", None),
                name=getattr(block, "name", None),
                arguments=None,
                input=getattr(block, "input", None),
            )
            for block in (getattr(message, "content", None) or [])
            if getattr(block, "type", None) == "tool_use"
        )
        stop = getattr(message, "stop_reason", None)
        return AdapterResult(
            calls=calls,
            rejected=False,
            invalid=(),
            finish_reason=stop if isinstance(stop, str) else None,
        )
