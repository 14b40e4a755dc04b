"""Gemini Interactions API stream events (``POST /v1beta/interactions`` with
``stream: true``, steps enabled).

Each event is an object whose ``event_type`` names it.  Slot key:
``(0, index)`` of the ``step.*`` events; every step is a slot, so the
index-gap rule sees thought and output steps too.

A ``step.start`` whose ``step.type`` is ``function_call`` opens a client
call with ``step.id`` and ``step.name``; its ``step.arguments`` object is
the start input, as Anthropic's ``content_block_start.input`` is: it stands
when no delta carries text, and a non-empty one together with delta text is
``conflicting_input``.  ``step.delta`` events with ``delta.type ==
"arguments_delta"`` carry ``delta.arguments`` text fragments; ``step.stop``
is the call's terminal.  Built-in tool steps (``google_search_call``,
``code_execution_call``, ``url_context_call``, ``mcp_server_tool_call``,
``file_search_call``, ``google_maps_call``) are run by the provider: server
calls, reported, never executable.  ``thought``, ``model_output``,
``user_input`` and the ``*_result`` steps are blocks.

Turn: ``interaction.created`` obliges the turn to end with
``interaction.completed``, whose ``interaction.status`` must be
``requires_action`` (the status of an interaction waiting for function
results) for calls to execute; ``completed``, ``incomplete``,
``cancelled``, ``budget_exceeded``, ``queued``, ``in_progress`` (or any
other) with calls is ``wrong_terminal_reason``;
``requires_action`` without a call is ``terminal_without_calls``;
``failed`` and an ``error`` event are ``provider_error``.

Recognized, no tool data: ``interaction.status_update``, and the other
delta types (:data:`TEXT_DELTAS`: text, thought, media, annotation and
built-in tool deltas) on block or server steps.  The legacy ``content.*``
events (steps disabled) and anything else are ``unsupported_event``, as is
a member of an event, of its metadata, of the interaction (and of the
steps it carries, and of every object of the request it echoes and of its
reports: tools by type, configs, input contents and steps by type, errors,
outputs), of a usage (and of its arrays' entries), of any step or
delta (by its type) or of an object inside one (a content, an annotation,
a tool's arguments or result entries, by their own type) that the profile
(``gemini_interactions_members.py``) and its reviewed dialects do not know,
and a content, annotation, step, tool or agent config of an unknown type;
any finding blocks the turn.
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
    Stop,
)
from toolstream.findings import Code, ProtocolError
from toolstream.profiles._base import (
    Profile,
    SlotPiece,
    StreamPath,
    describe,
    open_call,
    provider_error,
    slot_index,
)
from toolstream.profiles.dialects import unknown_member_message, unread_member
from toolstream.profiles.gemini_interactions_members import (
    CALL_LEVELS,
    DELTA_INNER,
    DELTA_MEMBERS,
    EVENT_LEVELS,
    EVENT_NESTED,
    INNER,
    INPUT_CONTENT,
    INTERACTION_INNER,
    OPEN_OTHER_TYPES,
    OPEN_SHAPES,
    SERVER_STEP_MEMBERS,
    SHAPES,
    STEP_INNER,
    STEP_MEMBERS,
    UNIONS,
    USAGE_ARRAYS,
    USAGE_LEVELS,
)

# Step and delta types of the Interactions API (the ``Step`` and
# ``StepDeltaData`` unions of google-genai's interactions types).
SERVER_STEPS = frozenset(
    {
        "google_search_call",
        "code_execution_call",
        "url_context_call",
        "mcp_server_tool_call",
        "file_search_call",
        "google_maps_call",
    }
)
BLOCK_STEPS = frozenset(
    {
        "thought",
        "model_output",
        "user_input",
        "function_result",
        "google_search_result",
        "code_execution_result",
        "url_context_result",
        "mcp_server_tool_result",
        "file_search_result",
        "google_maps_result",
    }
)
TEXT_DELTAS = frozenset(
    {
        "text",
        "thought_summary",
        "thought_signature",
        "image",
        "audio",
        "document",
        "video",
        "text_annotation_delta",
        *SERVER_STEPS,
        *(step for step in BLOCK_STEPS if step.endswith("_result")),
        "retrieval_call",
        "retrieval_result",
    }
)
"""Deltas with no client tool data, for non-call steps."""
# The usual delta event (no metadata: that one is checked).
_PLAIN_DELTA_EVENT = EVENT_LEVELS["step.delta"] - {"metadata"}
_ARGUMENTS_DELTA = CALL_LEVELS["step.delta.delta"]
# Steps closed by their type's members (the block and built-in tool steps).
_TYPED_STEPS = {**STEP_MEMBERS, **SERVER_STEP_MEMBERS}
ACCEPTED_STATUS = "requires_action"
FAILED_STATUS = "failed"


class GeminiInteractions(Profile):
    name = "gemini-interactions"
    stream_key = "events"
    stream_description = "Gemini Interactions API events (event_type interaction.*/step.*)"
    has_choices = False
    closed_world = True

    @classmethod
    def recognises(cls, item: Mapping[str, Any]) -> bool:
        kind = item.get("event_type")
        return isinstance(kind, str) and kind.startswith(("interaction.", "step."))

    @classmethod
    def opens_turn(cls, item: Any) -> bool:
        return isinstance(item, dict) and item.get("event_type") == "interaction.created"

    def __init__(self, request: Any, limits: Any) -> None:
        super().__init__(request, limits)
        self._kinds: dict[int, str] = {}

    @classmethod
    def slot_pieces(cls, items: Sequence[Any]) -> Iterator[SlotPiece]:
        """Every ``step.*`` event with an integer ``index`` is a piece of
        that step; an ``arguments_delta`` carries ``delta.arguments`` and is
        plain when the event holds nothing else."""
        for i, event in enumerate(items):
            if not (isinstance(event, dict) and type(event.get("index")) is int):
                continue
            kind = event.get("event_type")
            if not (isinstance(kind, str) and kind.startswith("step.")):
                continue
            delta = event.get("delta")
            plain = (
                kind == "step.delta"
                and isinstance(delta, dict)
                and delta.get("type") == "arguments_delta"
                and isinstance(delta.get("arguments"), str)
                and set(delta) == {"type", "arguments"}
                and set(event) == {"event_type", "index", "delta"}
            )
            text: StreamPath | None = (i, "delta", "arguments") if plain else None
            yield SlotPiece(event["index"], (i,), text, plain)

    def feed(self, raw: Any, pos: int) -> Iterator[Event]:
        if type(raw) is not dict or type(raw.get("event_type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                "event is not an object with a string 'event_type'",
                event=pos,
            )
        kind = raw["event_type"]
        if kind == "step.delta":
            yield from self._delta(raw, pos)
            if raw.keys() <= _PLAIN_DELTA_EVENT:
                return  # the usual delta: nothing more to check
        elif kind == "step.start":
            yield from self._start(raw, pos)
        elif kind == "step.stop":
            index = slot_index(raw.get("index"), "step index", pos, self.limits)
            yield End(pos=pos, key=(0, index))
        elif kind == "interaction.created":
            yield Begin(pos=pos, scope=0)
        elif kind == "interaction.completed":
            yield from self._completed(raw, pos)
        elif kind == "error":
            raise provider_error(raw.get("error"), pos)
        elif kind != "interaction.status_update":
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown event type {kind[:40]!r}", event=pos
            )
        # Once the event's own events are out, so that an unknown member adds
        # its one finding (gemini_interactions_members.py).
        self._check_members(kind, raw, pos)

    def _check_members(self, path: str, obj: dict[str, Any], pos: int, key: Any = None) -> None:
        levels = CALL_LEVELS if path in CALL_LEVELS else EVENT_LEVELS
        unread = unread_member(self, self.name, levels, EVENT_NESTED, path, obj)
        if unread is None and levels is EVENT_LEVELS:
            unread = self._unread_usage(path, obj)
            interaction = obj.get("interaction")
            steps = interaction.get("steps") if type(interaction) is dict else None
            for step in steps if unread is None and type(steps) is list else ():
                unread = self._unread_step(step, f"{path}.interaction.steps[]")
                if unread is not None:
                    break
            # (the interaction of interaction.created and .completed)
            closed = "interaction" in EVENT_NESTED.get(path, ())
            if unread is None and closed and type(interaction) is dict:
                unread = self._unread_interaction(interaction, f"{path}.interaction")
        if unread is not None:
            raise _unknown(unread, pos, key)

    def _unread_usage(self, path: str, event: dict[str, Any]) -> str | None:
        """The first unknown member of an entry of a usage's arrays, in the
        usage objects of ``event`` (at ``path``)."""
        for level in USAGE_LEVELS:
            if not level.startswith(f"{path}."):
                continue
            usage: Any = event
            for member in level[len(path) + 1 :].split("."):
                usage = usage.get(member) if type(usage) is dict else None
            if type(usage) is not dict:
                continue
            for array, known in USAGE_ARRAYS.items():
                entries = usage.get(array)
                for entry in entries if type(entries) is list else ():
                    if type(entry) is dict and not entry.keys() <= known:
                        where = f"{level}.{array}[]"
                        unread = unread_member(self, self.name, {where: known}, {}, where, entry)
                        if unread is not None:
                            return unread
        return None

    def _unread_interaction(self, interaction: dict[str, Any], level: str) -> str | None:
        """The first unknown member of the objects an interaction carries
        besides its usage and steps: the request's echo and its reports
        (:data:`INTERACTION_INNER`), and its ``input``, each entry by type."""
        for member, shape in INTERACTION_INNER.items():
            unread = self._unread_value(shape, interaction.get(member), f"{level}.{member}")
            if unread is not None:
                return unread
        given = interaction.get("input")
        if type(given) is not list:
            return self._unread_shape(INPUT_CONTENT, given, f"{level}.input")
        contents = UNIONS[INPUT_CONTENT]
        for entry in given:
            where = f"{level}.input[]"
            if type(entry) is dict and entry.get("type") in contents:
                unread = self._unread_shape(INPUT_CONTENT, entry, where)
            else:
                unread = self._unread_step(entry, where)
            if unread is not None:
                return unread
        return None

    def _unread_step(self, step: Any, level: str) -> str | None:
        """The first unknown member of a step an interaction carries, by its
        type (an unknown type is unknown itself)."""
        if type(step) is not dict:
            return None
        kind = step.get("type")
        if kind == "function_call":
            known = CALL_LEVELS["step.start.step"]
            return unread_member(self, self.name, {level: known}, {}, level, step)
        if type(kind) is not str or kind not in _TYPED_STEPS:
            return f"{level}.type={str(kind)[:40]!r}"
        return self._unread_typed(kind, step, level, _TYPED_STEPS, STEP_INNER)

    def _unread_typed(
        self,
        kind: str,
        obj: dict[str, Any],
        level: str,
        members: Mapping[str, frozenset[str]],
        inner: Mapping[str, Mapping[str, str]],
    ) -> str | None:
        """The first unknown member of a step or delta of type ``kind``, or
        of a closed object in it (gemini_interactions_members.py)."""
        known = members[kind]
        if not obj.keys() <= known:
            unread = unread_member(self, self.name, {level: known}, {}, level, obj)
            if unread is not None:
                return unread
        for member, shape in inner.get(kind, {}).items():
            unread = self._unread_value(shape, obj.get(member), f"{level}.{member}")
            if unread is not None:
                return unread
        return None

    def _unread_value(self, shape: str, value: Any, level: str) -> str | None:
        # An object, or each object of an array; ``name[]``: an array's only
        # (an object there is the tool's own result, open); ``name{}``: each
        # object value of a map (its keys are the caller's); ``a|b``: an
        # object is an ``a``, an array's entries are ``b``s.
        if shape.endswith("{}"):
            for key, entry in value.items() if type(value) is dict else ():
                unread = self._unread_shape(shape[:-2], entry, f"{level}.{str(key)[:40]}")
                if unread is not None:
                    return unread
            return None
        if "|" in shape:
            whole, each = shape.split("|")
            shape = each if type(value) is list else whole
        if shape.endswith("[]"):
            if type(value) is not list:
                return None
            shape = shape[:-2]
        if type(value) is list:
            for entry in value:
                unread = self._unread_shape(shape, entry, f"{level}[]")
                if unread is not None:
                    return unread
            return None
        return self._unread_shape(shape, value, level)

    def _unread_shape(self, shape: str, obj: Any, level: str) -> str | None:
        if type(obj) is not dict:
            return None
        union = UNIONS.get(shape)
        if union is not None:
            kind = obj.get("type")
            if type(kind) is not str or kind not in union:
                if shape in OPEN_OTHER_TYPES:
                    return None  # (a bare JSON Schema: the caller's own)
                return f"{level}.type={str(kind)[:40]!r}"
            shape = union[kind]
        if shape in OPEN_SHAPES:
            return None
        known = SHAPES[shape]
        if not obj.keys() <= known:
            unread = unread_member(self, self.name, {level: known}, {}, level, obj)
            if unread is not None:
                return unread
        for member, inner in INNER.get(shape, {}).items():
            unread = self._unread_value(inner, obj.get(member), f"{level}.{member}")
            if unread is not None:
                return unread
        return None

    def _start(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        index = slot_index(raw.get("index"), "step index", pos, self.limits)
        key = (0, index)
        step = raw.get("step")
        if type(step) is not dict or type(step.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "step is not an object with a string 'type'", event=pos
            )
        step_type = step["type"]
        if step_type == "function_call":
            self._kinds.setdefault(index, CLIENT)
            arguments = step.get("arguments")
            if arguments is not None and type(arguments) is not dict:
                yield Open(pos=pos, key=key, id=None, name=None, kind=CLIENT)
                raise ProtocolError(
                    Code.NON_OBJECT_ARGUMENTS,
                    f"step.arguments is {describe(arguments)}, not an object",
                    key=key,
                    event=pos,
                )
            yield from open_call(
                pos,
                key,
                CLIENT,
                ((step.get("id"), "step.id"), (step.get("name"), "step.name")),
                initial_input=arguments,
            )
            # The call is opened (its index taken), then refused.
            self._check_members("step.start.step", step, pos, key)
        elif step_type in SERVER_STEPS:
            self._kinds.setdefault(index, SERVER)
            yield from open_call(
                pos,
                key,
                SERVER,
                ((step.get("id"), "step.id"), (step_type, "step.type")),
            )
            self._check_typed(step_type, step, "step.start.step", pos, key)
        elif step_type in BLOCK_STEPS:
            self._kinds.setdefault(index, BLOCK)
            yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
            self._check_typed(step_type, step, "step.start.step", pos, key)
        else:
            # Opened, so that the step's deltas and stop are absorbed by the
            # blocked slot instead of reported again as unknown_slot.
            self._kinds.setdefault(index, BLOCK)
            yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"unknown step type {step_type[:40]!r}",
                key=key,
                event=pos,
            )

    def _delta(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        index = slot_index(raw.get("index"), "step index", pos, self.limits)
        key = (0, index)
        delta = raw.get("delta")
        if type(delta) is not dict or type(delta.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "delta is not an object with a string 'type'", event=pos
            )
        delta_type = delta["type"]
        target = self._kinds.get(index)
        if delta_type == "arguments_delta":
            if target == BLOCK:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"arguments_delta for non-call step {index}",
                    event=pos,
                )
            if not delta.keys() <= _ARGUMENTS_DELTA:
                self._check_members("step.delta.delta", delta, pos, key)
            text = delta.get("arguments")
            if text is not None and type(text) is not str:
                raise ProtocolError(
                    Code.NON_STRING_FRAGMENT,
                    f"delta.arguments is {describe(text)}, not a string",
                    key=key,
                    event=pos,
                )
            yield Fragment(pos=pos, key=key, id=None, name=None, text=text)
        elif delta_type in TEXT_DELTAS:
            if target == CLIENT:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"{delta_type} delta for function_call step {index}",
                    event=pos,
                )
            self._check_typed(delta_type, delta, "step.delta.delta", pos, key)
            yield Fragment(pos=pos, key=key, id=None, name=None, text=None)
        else:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown delta type {delta_type[:40]!r}", event=pos
            )

    def _check_typed(self, kind: str, obj: dict[str, Any], level: str, pos: int, key: Any) -> None:
        """A step or delta of a known type holds its type's members, and so
        do the closed objects in it; the first other member blocks the step's
        slot, named by its path."""
        if level == "step.delta.delta":
            unread = self._unread_typed(kind, obj, level, DELTA_MEMBERS, DELTA_INNER)
        else:
            steps = STEP_MEMBERS if kind in STEP_MEMBERS else SERVER_STEP_MEMBERS
            unread = self._unread_typed(kind, obj, level, steps, STEP_INNER)
        if unread is not None:
            raise _unknown(unread, pos, key)

    def _completed(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        interaction = raw.get("interaction")
        status = interaction.get("status") if type(interaction) is dict else None
        if type(status) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"interaction.status is {describe(status)}, not a string",
                event=pos,
            )
        failed = status == FAILED_STATUS
        accepted = status == ACCEPTED_STATUS
        # A failure blocks the turn by itself; its end is still recorded, so
        # that the turn is not also reported as missing its terminal.
        yield Finish(
            pos=pos,
            scope=0,
            reason=status,
            accepted=accepted or failed,
            claims_tools=accepted,
            ends_slots=False,
        )
        yield Stop(pos=pos, scope=0)
        if failed:
            raise ProtocolError(Code.PROVIDER_ERROR, "the interaction failed", event=pos)


def _unknown(path: str, pos: int, key: Any) -> ProtocolError:
    # The message keeps 80 characters of a path: a deep one (an annotation's
    # review snippet) loses its front, never the member.
    shown = path if len(path) <= 80 else "..." + path[-77:]
    return ProtocolError(
        Code.UNSUPPORTED_EVENT,
        f"gemini-interactions {unknown_member_message(shown)}",
        key=key,
        event=pos,
    )
