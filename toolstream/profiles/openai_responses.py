"""OpenAI Responses API stream events (``response.*``).

Slot key: ``(0, output_index)`` of an output item; every output item is a
slot, so the index-gap rule sees reasoning and message items too.  A
``function_call`` item (``response.output_item.added``) is a client call
whose id is its ``call_id`` (what a tool result must echo).  Fragments are
``response.function_call_arguments.delta`` routed by ``item_id``; an event
whose ``output_index`` disagrees with the item's is ``identity_collision``,
as is an item id announced at two output indices or a closing event whose
``call_id``/``name`` differ from the ones announced.

``function_call_arguments.done`` and ``output_item.done`` restate the whole
arguments, which must equal the fragments byte for byte
(``arguments_mismatch``); ``output_item.done`` is the call's terminal and
needs ``function_call_arguments.done`` before it (``missing_terminal``
otherwise).  A call with no delta at all is delivered whole: the first done
event carrying arguments delivers them, and a second must agree.  A second
``output_item.done`` for an item is ``duplicate_terminal``.

The turn ends with ``response.completed``; ``response.incomplete`` and
``response.failed`` are end reasons that do not mean "execute"
(``wrong_terminal_reason`` when the turn has calls), and ``response.failed``
and an ``error`` event are ``provider_error``.  There is no "ended for tool
use" reason in this API, so ``terminal_without_calls`` does not apply.

Server-executed items (:data:`SERVER_ITEMS`, a ``tool_search_call`` whose
``execution`` is ``"server"``, any item marked ``"execution": "server"``) are
reported as server calls, never executable; :data:`BLOCK_ITEMS` are blocks;
client-executed items other than ``function_call`` (``custom_tool_call``,
``computer_call``, a client-run ``tool_search_call``...) are
``unsupported_call_type``; any other item type is ``unsupported_event`` (in
``response.output`` too, when no ``output_item.added`` announced it).  The
objects inside the items, the echoed tools, the tool choice, the prompt and
the response's reports are closed by the shapes of
``openai_responses_members.py`` (``UNIONS``, ``SHAPES``, ``INSIDE``).
Events that only carry text, refusal, reasoning, audio or server-tool
progress are read by their members only (``PROGRESS_EVENTS``, with their
``part``, ``annotation`` and ``logprobs`` entries; an event type outside that
table is ``unsupported_event``).
One fixture holds one response: a second ``response.created`` is fatal
(``toolstream import`` splits captures holding several).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
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
from toolstream.profiles._base import (
    Profile,
    SlotPiece,
    describe,
    open_call,
    optional_text,
    slot_index,
)
from toolstream.profiles.dialects import unknown_member_message, unread_member
from toolstream.profiles.openai_responses_members import (
    ANNOTATIONS,
    EVENT_PARTS,
    INSIDE,
    ITEM_MEMBERS,
    ITEM_PARTS,
    LOGPROB,
    PROGRESS_EVENTS,
    RESPONSE_LEVELS,
    RESPONSE_NESTED,
    RESPONSE_SHAPES,
    SHAPES,
    TOP_LOGPROB,
    UNIONS,
)

SERVER_ITEMS = frozenset(
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
"""Items the provider runs (or, for an MCP approval request, asks about):
reported as server calls, never executable."""
BLOCK_ITEMS = frozenset({"message", "reasoning", "compaction", "tool_search_output"})
"""Items that carry no call: text, reasoning, a compaction summary, the
result of a tool search."""
# Client-executed items that are not functions: not supported, fail closed.
_OTHER_CLIENT_ITEMS = frozenset(
    {"custom_tool_call", "computer_call", "local_shell_call", "shell_call", "apply_patch_call"}
)
# Items whose ``execution`` says who runs them (``"server"`` or
# ``"client"``); a client-run one is not a function call, so unsupported.
_EXECUTION_ITEMS = frozenset({"tool_search_call"})

# The members of what carries a call (openai-python's
# ResponseFunctionToolCall, ResponseFunctionCallArgumentsDelta/DoneEvent with
# the stream's ``obfuscation`` padding, ResponseOutputItemAdded/DoneEvent):
# anything else may carry what the profile cannot read.
_FUNCTION_CALL_MEMBERS = frozenset(
    {"type", "id", "call_id", "name", "arguments", "status", "caller", "namespace", "async"}
)
_CALL_EVENT_MEMBERS = {
    "response.function_call_arguments.delta": frozenset(
        {"type", "item_id", "output_index", "delta", "sequence_number", "obfuscation"}
    ),
    "response.function_call_arguments.done": frozenset(
        {"type", "item_id", "output_index", "arguments", "sequence_number"}
    ),
    "response.output_item.added": frozenset({"type", "item", "output_index", "sequence_number"}),
    "response.output_item.done": frozenset({"type", "item", "output_index", "sequence_number"}),
}

_ENDINGS = {
    "response.completed": "completed",
    "response.incomplete": "incomplete",
    "response.failed": "failed",
}
"""End events; ``response.failed`` also blocks the turn with ``provider_error``."""
_PASSIVE_EVENTS = frozenset({"response.in_progress", "response.queued"})


class OpenAIResponses(Profile):
    name = "openai-responses"
    stream_key = "events"
    stream_description = "OpenAI Responses events (type response.*)"
    has_choices = False

    @classmethod
    def recognises(cls, item: Mapping[str, Any]) -> bool:
        kind = item.get("type")
        return isinstance(kind, str) and kind.startswith("response.")

    @classmethod
    def opens_turn(cls, item: Any) -> bool:
        return isinstance(item, dict) and item.get("type") == "response.created"

    def __init__(self, request: Any, limits: Any) -> None:
        super().__init__(request, limits)
        self._begun = False
        self._created = False
        self._items: dict[str, int] = {}
        self._kinds: dict[int, str] = {}
        self._restated: set[int] = set()
        self._streamed: set[int] = set()
        """Function calls whose arguments came as text before a closing event."""
        self._done: set[int] = set()
        self._unread: set[int] = set()
        """Items of a type the profile does not know: reported once, when
        added; their closing event only ends their slot."""

    @classmethod
    def slot_pieces(cls, items: Sequence[Any]) -> Iterator[SlotPiece]:
        """Every event with an integer ``output_index``, or the ``item_id``
        of an item added at one, is a piece of that output item; a
        ``function_call_arguments.delta`` carries ``delta`` and nothing
        else (the ``.done`` events restate the text: not pieces of it)."""
        where: dict[str, int] = {}
        for i, event in enumerate(items):
            if not isinstance(event, dict):
                continue
            item = event.get("item")
            index = event.get("output_index")
            if type(index) is int and isinstance(item, dict) and isinstance(item.get("id"), str):
                where.setdefault(item["id"], index)
            if type(index) is not int:
                item_id = event.get("item_id")
                index = where.get(item_id) if isinstance(item_id, str) else None
            if type(index) is not int:
                continue
            plain = event.get("type") == "response.function_call_arguments.delta" and isinstance(
                event.get("delta"), str
            )
            yield SlotPiece(index, (i,), (i, "delta") if plain else None, plain)

    def feed(self, raw: Any, pos: int) -> Iterator[Event]:
        if type(raw) is not dict or type(raw.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "event is not an object with a string 'type'", event=pos
            )
        kind = raw["type"]
        if not self._begun:
            # The turn begins with its first event, whatever it is.
            self._begun = True
            yield Begin(pos=pos, scope=0)
        if kind == "response.created":
            if self._created:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    "a second response.created: one fixture holds one response",
                    event=pos,
                    fatal=True,
                )
            self._created = True
            self._check_response(raw, kind, pos)
            return
        known = _CALL_EVENT_MEMBERS.get(kind)
        if known is not None and not raw.keys() <= known:
            raise _unknown_member(f"{kind}.", raw, known, pos)
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
            self._streamed.add(key[1])
            yield Fragment(pos=pos, key=key, id=None, name=None, text=text)
        elif kind == "response.function_call_arguments.done":
            key = self._route(raw, pos)
            # Recorded before the event is applied: if the restatement is
            # rejected the slot is blocked, and the output_item.done that
            # follows must not add a second finding for it.
            first = key[1] not in self._restated
            self._restated.add(key[1])
            if first and key[1] not in self._streamed:
                yield from self._whole(raw.get("arguments"), key, pos)
            else:
                yield from self._restate(raw.get("arguments"), key, pos)
        elif kind == "response.output_item.added":
            yield from self._added(raw, pos)
        elif kind == "response.output_item.done":
            yield from self._item_done(raw, pos)
        elif kind in _ENDINGS:
            reason = _ENDINGS[kind]
            yield Finish(
                pos=pos,
                scope=0,
                reason=_reason_text(reason, raw),
                accepted=reason == "completed",
                claims_tools=False,
                ends_slots=False,
            )
            yield Stop(pos=pos, scope=0)
            self._check_response(raw, kind, pos)
            if reason == "failed":
                response = raw.get("response")
                error = response.get("error") if isinstance(response, dict) else None
                raise ProtocolError(
                    Code.PROVIDER_ERROR,
                    f"response.failed: {_message(error)}",
                    event=pos,
                )
        elif kind == "error":
            raise ProtocolError(Code.PROVIDER_ERROR, f"provider error: {_message(raw)}", event=pos)
        elif kind in _PASSIVE_EVENTS:
            self._check_response(raw, kind, pos)
        elif kind in PROGRESS_EVENTS:
            self._check_progress(raw, kind, pos)
        else:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown event type {kind[:60]!r}", event=pos
            )

    def _check_response(self, raw: dict[str, Any], kind: str, pos: int) -> None:
        """A lifecycle event, its response object, usage and output items:
        every member known (``openai_responses_members.py``) or read by an
        allowed inert dialect; once per event, never on the argument path."""
        unread = unread_member(self, self.name, RESPONSE_LEVELS, {}, "event", raw)
        if unread is not None:
            raise _unknown_path(kind + unread[len("event") :], pos)
        response = raw.get("response")
        if type(response) is not dict:
            return
        unread = unread_member(
            self, self.name, RESPONSE_LEVELS, RESPONSE_NESTED, "response", response
        )
        for where, shape in RESPONSE_SHAPES.items() if unread is None else ():
            value: Any = response
            for step in where.split("."):
                value = value.get(step) if type(value) is dict else None
            unread = self._unread_shape(value, f"response.{where}", shape)
            if unread is not None:
                break
        prompt = response.get("prompt")
        variables = prompt.get("variables") if type(prompt) is dict else None
        for name, value in variables.items() if unread is None and type(variables) is dict else ():
            # The keys are the caller's (OPEN_LEVELS); a value is a string or
            # an input content closed by its type.
            where = f"response.prompt.variables.{str(name)[:40]}"
            unread = self._unread_shape(value, where, "prompt.variables")
            if unread is not None:
                break
        tools = response.get("tools")
        for tool in tools if unread is None and type(tools) is list else ():
            unread = self._unread_tool(tool, "response.tools[]")
            if unread is not None:
                break
        output = response.get("output")
        for item in output if unread is None and type(output) is list else ():
            unread = self._unread_item(item, "response.output[]")
            if unread is not None:
                break
        if unread is not None:
            raise _unknown_path(f"{kind}.{unread}", pos)

    def _check_progress(self, raw: dict[str, Any], kind: str, pos: int) -> None:
        """A text, refusal, reasoning, audio or built-in tool progress event,
        its ``part``, ``annotation`` and ``logprobs`` entries: every member
        known (``openai_responses_members.py``) or read by an allowed inert
        dialect.  One set lookup for the event; the rest only when present."""
        unread = unread_member(self, self.name, PROGRESS_EVENTS, {}, kind, raw)
        part_types = EVENT_PARTS.get(kind)
        if unread is None and part_types is not None and "part" in raw:
            unread = self._unread_part(raw["part"], f"{kind}.part", part_types)
        annotation = raw.get("annotation")
        if unread is None and annotation is not None:
            unread = self._unread_annotation(annotation, f"{kind}.annotation")
        logprobs = raw.get("logprobs")
        if unread is None and logprobs:
            unread = self._unread_logprobs(logprobs, f"{kind}.logprobs[]")
        if unread is not None:
            raise _unknown_path(unread, pos)

    def _unread_tool(self, tool: Any, level: str) -> str | None:
        """The path of what is unknown in one tool the response echoes: no
        object of a known type, or a member outside its type's set, or in
        one of the closed objects inside it (``INSIDE``)."""
        if type(tool) is not dict:
            return level
        return self._unread_object(tool, level, "tool")

    def _unread_shape(self, value: Any, level: str, shape: str) -> str | None:
        """The path of what is unknown in ``value`` read as ``shape`` (of
        ``SHAPES`` or ``UNIONS``): an object, or each object of an array
        (named ``level[]``); a value that is no object is not one of these
        (a string tool choice, a list of tool names) and is not read."""
        if type(value) is list:
            for entry in value:
                unread = (
                    self._unread_object(entry, f"{level}[]", shape) if type(entry) is dict else None
                )
                if unread is not None:
                    return unread
            return None
        if type(value) is dict:
            return self._unread_object(value, level, shape)
        return None

    def _unread_object(self, obj: dict[str, Any], level: str, shape: str) -> str | None:
        """One object of ``shape``: by its ``type`` for a union (another type
        blocks, named by it; no string type names the object itself), then
        its members, then the closed objects ``INSIDE`` names in it."""
        union = UNIONS.get(shape)
        if union is not None:
            kind = obj.get("type")
            known = union.get(kind) if type(kind) is str else None
            if known is None:
                return f"{level}.type={kind[:40]!r}" if type(kind) is str else level
            owner = f"{shape}={kind}"
        else:
            known, owner = SHAPES[shape], shape
        unread = unread_member(self, self.name, {level: known}, {}, level, obj)
        for member, inner in INSIDE.get(owner, {}).items() if unread is None else ():
            if member in obj:
                unread = self._unread_shape(obj[member], f"{level}.{member}", inner)
                if unread is not None:
                    break
        return unread

    def _unread_annotation(self, annotation: Any, level: str) -> str | None:
        """The path of what is unknown in one annotation: no object of a
        known type, or a member outside its type's set."""
        kind = annotation.get("type") if type(annotation) is dict else None
        known = ANNOTATIONS.get(kind) if type(kind) is str else None
        if known is None:
            return f"{level}.type={kind[:40]!r}" if type(kind) is str else level
        return unread_member(self, self.name, {level: known}, {}, level, annotation)

    def _unread_logprobs(self, logprobs: Any, level: str) -> str | None:
        """The path of an unknown member of a ``logprobs`` entry or of one of
        its ``top_logprobs`` (entries that are no object are not read)."""
        for entry in logprobs if type(logprobs) is list else ():
            if type(entry) is not dict:
                continue
            unread = unread_member(self, self.name, {level: LOGPROB}, {}, level, entry)
            top = entry.get("top_logprobs")
            for alternative in top if unread is None and type(top) is list else ():
                if type(alternative) is dict:
                    where = f"{level}.top_logprobs[]"
                    unread = unread_member(
                        self, self.name, {where: TOP_LOGPROB}, {}, where, alternative
                    )
                    if unread is not None:
                        break
            if unread is not None:
                return unread
        return None

    def _unread_item(self, item: Any, where: str) -> str | None:
        """The path of an unknown member of an output item, the items that
        carry no call by ITEM_MEMBERS, a function_call by its own set, and
        the closed objects inside them (their parts, ``INSIDE``).  Items of
        other types are judged where they are added; one in the response's
        ``output`` that was never added blocks here, named by its type."""
        if type(item) is not dict:
            return None
        item_type = item.get("type")
        known = _FUNCTION_CALL_MEMBERS if item_type == "function_call" else None
        if known is None and type(item_type) is str:
            known = ITEM_MEMBERS.get(item_type)
        if known is None:
            item_id = item.get("id")
            added = type(item_id) is str and item_id in self._items
            if where != "item" and type(item_type) is str and not added:
                return f"{where}.type={item_type[:40]!r}"
            return None
        unread = unread_member(self, self.name, {where: known}, {}, where, item)
        if unread is not None or type(item_type) is not str:
            return unread
        for array, part_types in ITEM_PARTS.get(item_type, {}).items():
            parts = item.get(array)
            for part in parts if type(parts) is list else ():
                unread = self._unread_part(part, f"{where}.{array}[]", part_types)
                if unread is not None:
                    return unread
        for member, shape in INSIDE.get(f"item={item_type}", {}).items():
            if member in item:
                unread = self._unread_shape(item[member], f"{where}.{member}", shape)
                if unread is not None:
                    return unread
        return None

    def _unread_part(
        self, part: Any, level: str, part_types: Mapping[str, frozenset[str]]
    ) -> str | None:
        """The path of what is unknown in one part of an item's array: a
        part that is no object of a known type, or a member outside its
        type's set (and every allowed inert dialect at ``level``)."""
        part_type = part.get("type") if type(part) is dict else None
        known = part_types.get(part_type) if type(part_type) is str else None
        if known is None:
            # Unlike an unknown item type (its slot is reported), a part of
            # an unknown type has no event of its own: it blocks here.
            # (Named as the member it is not: the type, or the part itself.)
            return f"{level}.type={part_type[:40]!r}" if type(part_type) is str else level
        unread = unread_member(self, self.name, {level: known}, {}, level, part)
        if unread is None and part_type == "output_text":
            # A text's annotations (citations) and token probabilities.
            annotations = part.get("annotations")
            for annotation in annotations if type(annotations) is list else ():
                unread = self._unread_annotation(annotation, f"{level}.annotations[]")
                if unread is not None:
                    return unread
            logprobs = part.get("logprobs")
            if logprobs:
                unread = self._unread_logprobs(logprobs, f"{level}.logprobs[]")
        return unread

    def _check_caller(self, item: dict[str, Any], pos: int, key: tuple[int, int]) -> None:
        """A function_call's ``caller`` (who asked for the call), by its type."""
        unread = self._unread_shape(item.get("caller"), "item.caller", "caller")
        if unread is not None:
            raise _unknown_path(unread, pos, key)

    def _check_item(self, item: dict[str, Any], pos: int, key: tuple[int, int]) -> None:
        unread = self._unread_item(item, "item")
        if unread is not None:
            raise _unknown_path(unread, pos, key)

    def _item(self, raw: dict[str, Any], pos: int) -> tuple[int, dict[str, Any]]:
        index = slot_index(raw.get("output_index"), "output_index", pos, self.limits)
        item = raw.get("item")
        if type(item) is not dict or type(item.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "item is not an object with a string 'type'", event=pos
            )
        return index, item

    def _check_item_id(self, item: dict[str, Any], index: int, pos: int) -> None:
        item_id = item.get("id")
        if type(item_id) is str and item_id:
            if self._items.setdefault(item_id, index) != index:
                raise ProtocolError(
                    Code.IDENTITY_COLLISION,
                    f"item {item_id[:40]!r} is at output_index {self._items[item_id]},"
                    f" an event puts it at {index}",
                    key=(0, index),
                    event=pos,
                )

    def _added(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        index, item = self._item(raw, pos)
        key = (0, index)
        item_type = item["type"]
        self._check_item_id(item, index, pos)
        if item_type == "function_call":
            self._kinds.setdefault(index, CLIENT)
            arguments = item.get("arguments")
            yield from open_call(
                pos,
                key,
                CLIENT,
                ((item.get("call_id"), "call_id"), (item.get("name"), "name")),
            )
            if not item.keys() <= _FUNCTION_CALL_MEMBERS:
                raise _unknown_member("item.", item, _FUNCTION_CALL_MEMBERS, pos, key)
            self._check_caller(item, pos, key)
            if arguments not in (None, ""):
                if type(arguments) is not str:
                    raise ProtocolError(
                        Code.NON_STRING_FRAGMENT,
                        f"item arguments are {describe(arguments)}, not a string",
                        key=key,
                        event=pos,
                    )
                self._streamed.add(index)
                yield Fragment(pos=pos, key=key, id=None, name=None, text=arguments)
            return
        kind = _kind_of(item)
        if kind == SERVER:
            self._kinds.setdefault(index, SERVER)
            yield Open(pos=pos, key=key, id=None, name=item_type, kind=SERVER)
            self._check_item(item, pos, key)
        elif kind == BLOCK:
            self._kinds.setdefault(index, BLOCK)
            yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
            self._check_item(item, pos, key)
        elif kind == CLIENT:
            self._kinds.setdefault(index, CLIENT)
            yield Open(pos=pos, key=key, id=None, name=None, kind=CLIENT)
            who = ""
            if item_type in _EXECUTION_ITEMS:
                execution = item.get("execution")
                who = (
                    f" whose execution is {describe(execution)}"
                    if execution is not None
                    else " that does not say who runs it"
                )
            raise ProtocolError(
                Code.UNSUPPORTED_CALL_TYPE,
                f"output item of type {item_type[:40]!r}{who}; only function_call is supported",
                key=key,
                event=pos,
            )
        else:
            # The index is taken (no gap, no unknown_slot for its done); the
            # item is reported once.
            self._unread.add(index)
            self._kinds.setdefault(index, BLOCK)
            yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown output item type {item_type[:40]!r}", event=pos
            )

    def _item_done(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        index, item = self._item(raw, pos)
        key = (0, index)
        self._check_item_id(item, index, pos)
        if index in self._unread:
            yield End(pos=pos, key=key)
            return
        if index in self._done:
            # A second terminal: the machine reports duplicate_terminal (or
            # unknown_slot); the restatement it carries is not compared again.
            yield End(pos=pos, key=key)
            return
        self._done.add(index)
        if item["type"] == "function_call" and not item.keys() <= _FUNCTION_CALL_MEMBERS:
            raise _unknown_member("item.", item, _FUNCTION_CALL_MEMBERS, pos, key)
        if item["type"] == "function_call":
            self._check_caller(item, pos, key)
        if self._kinds.get(index) == CLIENT and item["type"] == "function_call":
            if index in self._restated:
                if "arguments" in item:
                    yield from self._restate(item.get("arguments"), key, pos)
            elif index not in self._streamed and "arguments" in item:
                # No delta and no function_call_arguments.done: the closing
                # item delivers the call whole.
                yield from self._whole(item.get("arguments"), key, pos)
            else:
                raise ProtocolError(
                    Code.MISSING_TERMINAL,
                    "output_item.done without function_call_arguments.done",
                    key=key,
                    event=pos,
                )
            # The closing item repeats the identity: a different call_id or
            # name is a second call in the same slot.
            yield Fragment(
                pos=pos,
                key=key,
                id=optional_text(item.get("call_id"), "call_id", key, pos),
                name=optional_text(item.get("name"), "name", key, pos),
                text=None,
            )
        elif index in self._kinds and _kind_of(item) != self._kinds[index]:
            raise ProtocolError(
                Code.IDENTITY_COLLISION,
                f"output item {index} was added as another type and closed as"
                f" {item['type'][:40]!r}",
                key=key,
                event=pos,
            )
        yield End(pos=pos, key=key)
        if item["type"] in ITEM_MEMBERS:
            # After its end: the finding is the item's one (no missing end).
            self._check_item(item, pos, key)

    def _route(self, raw: dict[str, Any], pos: int) -> tuple[int, int]:
        item_id = raw.get("item_id")
        if type(item_id) is not str or item_id not in self._items:
            raise ProtocolError(
                Code.UNKNOWN_SLOT,
                f"event for item {describe(item_id)}, which was never added",
                event=pos,
            )
        index = self._items[item_id]
        key = (0, index)
        if "output_index" in raw:
            given = raw["output_index"]
            if type(given) is not int or given != index:
                raise ProtocolError(
                    Code.IDENTITY_COLLISION,
                    f"item {item_id[:40]!r} is at output_index {index}, event says"
                    f" {describe(given)}",
                    key=key,
                    event=pos,
                )
        if self._kinds.get(index) != CLIENT:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"function-call arguments for output item {index}, which is not a function_call",
                event=pos,
            )
        return key

    def _whole(self, arguments: Any, key: tuple[int, int], pos: int) -> Iterator[Event]:
        """The arguments of a call that had no delta, delivered whole by a
        closing event: they are the call's one fragment."""
        if type(arguments) is not str:
            raise ProtocolError(
                Code.NON_STRING_FRAGMENT,
                f"arguments delivered whole are {describe(arguments)}, not a string",
                key=key,
                event=pos,
            )
        yield Fragment(pos=pos, key=key, id=None, name=None, text=arguments)

    def _restate(self, arguments: Any, key: tuple[int, int], pos: int) -> Iterator[Event]:
        if type(arguments) is not str:
            raise ProtocolError(
                Code.NON_STRING_FRAGMENT,
                f"restated arguments are {describe(arguments)}, not a string",
                key=key,
                event=pos,
            )
        yield Restate(pos=pos, key=key, text=arguments)


def _unknown_path(path: str, pos: int, key: Any = None) -> ProtocolError:
    if len(path) > 80:
        # The message keeps 80 characters of a path: a deep one (a lifecycle
        # event's tool_usage details) loses its front, never the member.
        path = "..." + path[-77:]
    return ProtocolError(
        Code.UNSUPPORTED_EVENT,
        f"openai-responses {unknown_member_message(path)}",
        key=key,
        event=pos,
    )


def _kind_of(item: dict[str, Any]) -> str | None:
    """CLIENT, SERVER or BLOCK for an output item, None when unknown."""
    item_type = item["type"]
    if item_type == "function_call" or item_type in _OTHER_CLIENT_ITEMS:
        return CLIENT
    if item_type in SERVER_ITEMS:
        return SERVER
    if item_type in BLOCK_ITEMS:
        return BLOCK
    execution = item.get("execution")
    if execution == "server":
        # A tool search the provider runs, or any item marked server-side.
        return SERVER
    if item_type in _EXECUTION_ITEMS:
        # Run by the client, or not said: fail closed.
        return CLIENT
    return None


def _message(error: Any) -> str:
    message = error.get("message") if isinstance(error, dict) else None
    return message[:120] if isinstance(message, str) else "no message"


def _reason_text(reason: str, raw: dict[str, Any]) -> str:
    """``incomplete (max_output_tokens)``: the reason with the API's detail."""
    response = raw.get("response")
    if reason == "incomplete" and isinstance(response, dict):
        details = response.get("incomplete_details")
        if isinstance(details, dict) and isinstance(details.get("reason"), str):
            return f"incomplete ({details['reason'][:40]})"
    return reason


def _unknown_member(
    where: str, item: dict[str, Any], known: frozenset[str], pos: int, key: Any = None
) -> ProtocolError:
    """The finding for the first member of ``item`` (sorted) outside
    ``known``, naming its path (no reviewed Responses dialect exists yet)."""
    first = min(str(member) for member in item if member not in known)
    return ProtocolError(
        Code.UNSUPPORTED_EVENT,
        f"openai-responses {unknown_member_message(where + first[:40])}",
        key=key,
        event=pos,
    )
