"""OpenAI Responses API stream events (``response.*``).

Slot key: ``(0, output_index)`` of an output item.  A ``function_call`` item
(``response.output_item.added``) is a client call whose id is its
``call_id`` (what a tool result must echo).  Fragments are
``response.function_call_arguments.delta`` routed by ``item_id``; an event
whose ``output_index`` disagrees with the item's is ``identity_collision``.
``function_call_arguments.done`` and ``output_item.done`` restate the whole
arguments, which must equal the fragments byte for byte; ``output_item.done``
is the call's terminal and needs ``function_call_arguments.done`` before it.
The turn ends with ``response.completed``; ``response.incomplete`` and
``response.failed`` are end reasons that do not mean "execute".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolstream.events import (
    BLOCK,
    CLIENT,
    SERVER,
    Begin,
    End,
    Event,
    Finish,
    Fragment,
    Open,
    Restate,
    Stop,
)
from toolstream.findings import Code, ProtocolError
from toolstream.profiles._base import Profile, describe, optional_text, slot_index

_SERVER_ITEMS = frozenset(
    {
        "web_search_call",
        "file_search_call",
        "code_interpreter_call",
        "image_generation_call",
        "mcp_call",
        "mcp_list_tools",
        "mcp_approval_request",
    }
)
_OTHER_ITEMS = frozenset({"message", "reasoning"})
# Client-executed items that are not functions: not supported, fail closed.
_OTHER_CLIENT_ITEMS = frozenset(
    {"custom_tool_call", "computer_call", "local_shell_call", "shell_call", "apply_patch_call"}
)
_ENDINGS = {"response.completed": "completed", "response.incomplete": "incomplete", "response.failed": "failed"}
_PASSIVE_PREFIXES = (
    "response.content_part.",
    "response.output_text.",
    "response.refusal.",
    "response.reasoning",
    "response.web_search_call.",
    "response.file_search_call.",
    "response.code_interpreter_call",
    "response.image_generation_call.",
    "response.mcp_",
    "response.audio",
    "response.output_text_annotation.",
)


class OpenAIResponses(Profile):
    name = "openai-responses"
    stream_key = "events"
    has_choices = False

    def __init__(self, request: Any, limits: Any) -> None:
        super().__init__(request, limits)
        self._begun = False
        self._items: dict[str, int] = {}
        self._kinds: dict[int, str] = {}
        self._restated: set[int] = set()

    def feed(self, raw: Any, pos: int) -> Iterator[Event]:
        if type(raw) is not dict or type(raw.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "event is not an object with a string 'type'", event=pos
            )
        kind = raw["type"]
        if not self._begun:
            self._begun = True
            yield Begin(pos=pos, scope=0)
            if kind == "response.created":
                return
        if kind == "response.function_call_arguments.delta":
            key = self._route(raw, pos)
            text = raw.get("delta")
            if type(text) is not str:
                raise ProtocolError(
                    Code.NON_STRING_FRAGMENT,
                    f"delta is {describe(text)}, not a string",
                    key=key,
                    event=pos,
                )
            yield Fragment(pos=pos, key=key, id=None, name=None, text=text)
        elif kind == "response.function_call_arguments.done":
            key = self._route(raw, pos)
            yield from self._restate(raw.get("arguments"), key, pos)
            self._restated.add(key[1])
        elif kind == "response.output_item.added":
            yield from self._added(raw, pos)
        elif kind == "response.output_item.done":
            yield from self._item_done(raw, pos)
        elif kind in _ENDINGS:
            reason = _ENDINGS[kind]
            yield Finish(
                pos=pos,
                scope=0,
                reason=reason,
                accepted=reason == "completed",
                claims_tools=False,
                ends_slots=False,
            )
            yield Stop(pos=pos, scope=0)
        elif kind == "response.created":
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                "a second response.created: one fixture holds one response",
                event=pos,
                fatal=True,
            )
        elif kind == "error":
            message = raw.get("message")
            text = message[:120] if isinstance(message, str) else "no message"
            raise ProtocolError(Code.PROVIDER_ERROR, f"provider error: {text}", event=pos)
        elif kind == "response.in_progress" or kind == "response.queued":
            return
        elif not kind.startswith(_PASSIVE_PREFIXES):
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown event type {kind[:60]!r}", event=pos
            )

    def _item(self, raw: dict[str, Any], pos: int) -> tuple[int, dict[str, Any]]:
        index = slot_index(raw.get("output_index"), "output_index", pos, self.limits)
        item = raw.get("item")
        if type(item) is not dict or type(item.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "item is not an object with a string 'type'", event=pos
            )
        return index, item

    def _added(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        index, item = self._item(raw, pos)
        key = (0, index)
        item_type = item["type"]
        item_id = item.get("id")
        if type(item_id) is str and item_id:
            if self._items.setdefault(item_id, index) != index:
                raise ProtocolError(
                    Code.IDENTITY_COLLISION,
                    f"item {item_id[:40]!r} announced at a second output_index {index}",
                    key=key,
                    event=pos,
                )
        if item_type == "function_call":
            self._kinds.setdefault(index, CLIENT)
            arguments = item.get("arguments")
            yield Open(
                pos=pos,
                key=key,
                id=optional_text(item.get("call_id"), "call_id", key, pos),
                name=optional_text(item.get("name"), "name", key, pos),
                kind=CLIENT,
            )
            if arguments not in (None, ""):
                if type(arguments) is not str:
                    raise ProtocolError(
                        Code.NON_STRING_FRAGMENT, "item arguments are not a string", key=key, event=pos
                    )
                yield Fragment(pos=pos, key=key, id=None, name=None, text=arguments)
        elif item_type in _SERVER_ITEMS:
            self._kinds.setdefault(index, SERVER)
            yield Open(pos=pos, key=key, id=None, name=item_type, kind=SERVER)
        elif item_type in _OTHER_ITEMS:
            self._kinds.setdefault(index, BLOCK)
            yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
        elif item_type in _OTHER_CLIENT_ITEMS:
            yield Open(pos=pos, key=key, id=None, name=None, kind=CLIENT)
            raise ProtocolError(
                Code.UNSUPPORTED_CALL_TYPE,
                f"output item of type {item_type!r}; only function_call is supported",
                key=key,
                event=pos,
            )
        else:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown output item type {item_type[:40]!r}", event=pos
            )

    def _item_done(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        index, item = self._item(raw, pos)
        key = (0, index)
        if self._kinds.get(index) == CLIENT and item["type"] == "function_call":
            if index not in self._restated:
                raise ProtocolError(
                    Code.MISSING_TERMINAL,
                    "output_item.done without function_call_arguments.done",
                    key=key,
                    event=pos,
                )
            if "arguments" in item:
                yield from self._restate(item.get("arguments"), key, pos)
        yield End(pos=pos, key=key)

    def _route(self, raw: dict[str, Any], pos: int) -> tuple[int, int]:
        item_id = raw.get("item_id")
        if type(item_id) is not str or item_id not in self._items:
            raise ProtocolError(
                Code.UNKNOWN_SLOT,
                f"event for item {describe(item_id)}, which was never added",
                event=pos,
            )
        index = self._items[item_id]
        if "output_index" in raw and raw.get("output_index") != index:
            raise ProtocolError(
                Code.IDENTITY_COLLISION,
                f"item {item_id[:40]!r} is at output_index {index}, event says"
                f" {describe(raw.get('output_index'))}",
                key=(0, index),
                event=pos,
            )
        return (0, index)

    def _restate(self, arguments: Any, key: tuple[int, int], pos: int) -> Iterator[Event]:
        if type(arguments) is not str:
            raise ProtocolError(
                Code.NON_STRING_FRAGMENT,
                f"restated arguments are {describe(arguments)}, not a string",
                key=key,
                event=pos,
            )
        yield Restate(pos=pos, key=key, text=arguments)
