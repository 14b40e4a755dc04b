"""Amazon Bedrock ConverseStream events.

Each event is an object with one key naming its type, as the event-stream's
``:event-type`` header does: ``{"contentBlockDelta": {...}}``
(``toolstream import`` writes binary event-stream captures in this form).
Slot key: ``(0, contentBlockIndex)``; every content block is a slot.

A tool call starts with ``contentBlockStart.start.toolUse`` (``toolUseId``,
``name``); fragments are ``contentBlockDelta.delta.toolUse.input`` strings;
the terminal is ``contentBlockStop``; the turn needs ``messageStop`` with
``stopReason == "tool_use"`` (``messageStart`` obliges the turn to have
one).  A ``toolUse`` start with ``"type": "server_tool_use"`` is a tool the
provider runs itself: reported, never executable; without ``type`` or with
``"tool_use"`` it is the client's.  Another ``type`` is
``unsupported_call_type``.

A tool block whose deltas carry no text is the no-argument call ``{}``:
Converse's non-streaming answer gives ``input: {}`` for it, and Claude on
Bedrock streams such a call as a single empty ``input`` (the start event of
a Bedrock tool block has no input of its own, so, as for Anthropic's
``content_block_start``, the implied input is ``{}``).  So
``empty_arguments`` does not apply to this profile.

Text, reasoning, citation, image and tool-result blocks may have no start
event: their first delta opens them.  A ``contentBlockStart`` whose
``start`` is empty, or holds a ``toolResult``, ``reasoningContent`` or
``image``, opens a non-call block.
``metadata`` and padding fields (``p``) are ignored, their members and
those of the non-call deltas closed (``bedrock_members.py``); an event whose
type ends in ``Exception`` is ``provider_error``.
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
from toolstream.profiles.bedrock_members import (
    DELTA_LEVELS,
    INNER_LEVELS,
    METADATA_LEVELS,
    METADATA_NESTED,
    OPEN_INNER_LEVELS,
    OPEN_LEVELS,
)
from toolstream.profiles.dialects import DOCS, unknown_member_message, unread_member

_SHAPES = {**DELTA_LEVELS, **INNER_LEVELS}
_OPEN = {**OPEN_LEVELS, **OPEN_INNER_LEVELS}

# Deltas of non-call blocks.
_BLOCK_DELTAS = frozenset({"text", "reasoningContent", "citation", "image", "toolResult"})
# ``start`` members that open a non-call block (a tool result is the
# provider's own, for a server tool).
_BLOCK_STARTS = frozenset({"toolResult", "reasoningContent", "image"})
# ToolUseBlockStart.type: absent and "tool_use" are the client's tool,
# "server_tool_use" one the provider runs.
_TOOL_TYPES = {None: CLIENT, "tool_use": CLIENT, "server_tool_use": SERVER}
# The members of the objects that carry a call (botocore bedrock-runtime
# ToolUseBlockStart, ToolUseBlockDelta) and of the events around them
# (their *Event shapes, and the padding ``p``): anything else may carry
# what the profile cannot read.  ``metadata`` carries no tool data (its
# members: bedrock_members.py).
_TOOL_START_MEMBERS = frozenset({"toolUseId", "name", "type"})
_TOOL_DELTA_MEMBERS = frozenset({"input"})
_BODY_MEMBERS = {
    "messageStart": frozenset({"role", "p"}),
    "contentBlockStart": frozenset({"contentBlockIndex", "start", "p"}),
    "contentBlockDelta": frozenset({"contentBlockIndex", "delta", "p"}),
    "contentBlockStop": frozenset({"contentBlockIndex", "p"}),
    "messageStop": frozenset({"stopReason", "additionalModelResponseFields", "p"}),
}


_EVENT_NAMES = frozenset(
    {
        "messageStart",
        "contentBlockStart",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
    }
)
"""ConverseStream's event types (its exceptions, ``...Exception``, are
shared with InvokeModelWithResponseStream: not among them)."""


class Bedrock(Profile):
    name = "bedrock"
    stream_key = "events"
    stream_description = "Bedrock ConverseStream events"
    named_events = True
    has_choices = False

    @classmethod
    def recognises(cls, item: Mapping[str, Any]) -> bool:
        return len(item) == 1 and next(iter(item)) in _EVENT_NAMES

    @classmethod
    def recognises_event_name(cls, name: str) -> bool:
        return name in _EVENT_NAMES

    @classmethod
    def opens_turn(cls, item: Any) -> bool:
        return isinstance(item, dict) and list(item) == ["messageStart"]

    def __init__(self, request: Any, limits: Any) -> None:
        super().__init__(request, limits)
        self._kinds: dict[int, str] = {}

    @classmethod
    def slot_pieces(cls, items: Sequence[Any]) -> Iterator[SlotPiece]:
        """Every event whose body has an integer ``contentBlockIndex`` is a
        piece of that block; a ``toolUse`` delta carries ``input`` and
        nothing else."""
        for i, event in enumerate(items):
            if not (isinstance(event, dict) and len(event) == 1):
                continue
            ((kind, body),) = event.items()
            if not (isinstance(body, dict) and type(body.get("contentBlockIndex")) is int):
                continue
            delta = body.get("delta")
            tool = delta.get("toolUse") if isinstance(delta, dict) and len(delta) == 1 else None
            plain = (
                kind == "contentBlockDelta"
                and isinstance(tool, dict)
                and isinstance(tool.get("input"), str)
            )
            text: StreamPath | None = (i, kind, "delta", "toolUse", "input") if plain else None
            yield SlotPiece(body["contentBlockIndex"], (i,), text, plain)

    def feed(self, raw: Any, pos: int) -> Iterator[Event]:
        if type(raw) is not dict or len(raw) != 1:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                "event is not an object with exactly one key naming its type"
                + _keys_note(raw, _EVENT_NAMES, ""),
                event=pos,
            )
        ((kind, body),) = raw.items()
        if type(body) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"{kind[:40]} payload is not an object", event=pos
            )
        known = _BODY_MEMBERS.get(kind)
        if known is not None and not body.keys() <= known:
            raise _unknown_member(f"{kind}.", body, known, pos)
        if kind == "contentBlockDelta":
            yield from self._delta(body, pos)
        elif kind == "contentBlockStart":
            yield from self._start(body, pos)
        elif kind == "contentBlockStop":
            index = slot_index(body.get("contentBlockIndex"), "contentBlockIndex", pos, self.limits)
            yield End(pos=pos, key=(0, index))
        elif kind == "messageStart":
            yield Begin(pos=pos, scope=0)
        elif kind == "messageStop":
            reason = body.get("stopReason")
            if type(reason) is not str:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"stopReason is {describe(reason)}, not a string",
                    event=pos,
                )
            tool_use = reason == "tool_use"
            yield Finish(
                pos=pos,
                scope=0,
                reason=reason,
                accepted=tool_use,
                claims_tools=tool_use,
                ends_slots=False,
            )
            yield Stop(pos=pos, scope=0)
        elif kind == "metadata":
            unread = unread_member(self, self.name, METADATA_LEVELS, METADATA_NESTED, kind, body)
            if unread is not None:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"bedrock {unknown_member_message(unread)}",
                    event=pos,
                )
            # (the arrays: cache details, and the guardrail's model outputs,
            # strings, where an object is one no table lists)
            usage, trace = body.get("usage"), body.get("trace")
            if type(usage) is dict:
                _closed("metadata.usage.cacheDetails", usage.get("cacheDetails"), pos)
            guardrail = trace.get("guardrail") if type(trace) is dict else None
            if type(guardrail) is dict:
                _closed("metadata.trace.guardrail.modelOutput", guardrail.get("modelOutput"), pos)
        elif kind.endswith("Exception"):
            raise provider_error(body, pos, title=kind[:60])
        else:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown event type {kind[:60]!r}", event=pos
            )

    def _start(self, body: dict[str, Any], pos: int) -> Iterator[Event]:
        index = slot_index(body.get("contentBlockIndex"), "contentBlockIndex", pos, self.limits)
        key = (0, index)
        start = body.get("start")
        if type(start) is not dict or len(start) > 1:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                "contentBlockStart.start is not an object with at most one member"
                + _keys_note(start, _BLOCK_STARTS | {"toolUse"}, "contentBlockStart.start."),
                event=pos,
            )
        if "toolUse" not in start:
            if start and next(iter(start)) not in _BLOCK_STARTS:
                # The index is taken (no gap, no unknown_slot for its stop);
                # the block is reported once.
                self._kinds.setdefault(index, BLOCK)
                yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"unknown contentBlockStart member {next(iter(start))[:40]!r}",
                    event=pos,
                )
            self._kinds.setdefault(index, BLOCK)
            yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
            if start:
                ((name, value),) = start.items()
                path = f"contentBlockStart.start.{name}"
                if type(value) is not dict:
                    raise ProtocolError(
                        Code.UNSUPPORTED_EVENT,
                        f"{path} is {describe(value)}, not an object",
                        key=key,
                        event=pos,
                    )
                _closed(path, value, pos, key)
            return
        tool = start["toolUse"]
        if type(tool) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                "contentBlockStart.start.toolUse is not an object",
                event=pos,
            )
        tool_type = tool.get("type")
        kind = _TOOL_TYPES.get(tool_type) if type(tool_type) in (str, type(None)) else None
        self._kinds.setdefault(index, kind or CLIENT)
        yield from open_call(
            pos,
            key,
            kind or CLIENT,
            ((tool.get("toolUseId"), "toolUseId"), (tool.get("name"), "name")),
            # Bedrock's start has no input: the implied one is {} (see above).
            initial_input={},
        )
        if not tool.keys() <= _TOOL_START_MEMBERS:
            raise _unknown_member(
                "contentBlockStart.start.toolUse.", tool, _TOOL_START_MEMBERS, pos, key
            )
        if kind is None:
            raise ProtocolError(
                Code.UNSUPPORTED_CALL_TYPE,
                f"toolUse type is {describe(tool_type)}; only client tools and"
                " 'server_tool_use' are supported",
                key=key,
                event=pos,
            )

    def _delta(self, body: dict[str, Any], pos: int) -> Iterator[Event]:
        index = slot_index(body.get("contentBlockIndex"), "contentBlockIndex", pos, self.limits)
        key = (0, index)
        delta = body.get("delta")
        if type(delta) is not dict or len(delta) != 1:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                "delta is not an object with one key"
                + _keys_note(delta, _BLOCK_DELTAS | {"toolUse"}, "contentBlockDelta.delta."),
                event=pos,
            )
        ((delta_type, value),) = delta.items()
        target = self._kinds.get(index)
        if delta_type == "toolUse":
            if target == BLOCK:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT, f"toolUse delta for non-tool block {index}", event=pos
                )
            if type(value) is dict and not value.keys() <= _TOOL_DELTA_MEMBERS:
                raise _unknown_member(
                    "contentBlockDelta.delta.toolUse.", value, _TOOL_DELTA_MEMBERS, pos, key
                )
            text = value.get("input") if type(value) is dict else None
            if type(text) is not str:
                raise ProtocolError(
                    Code.NON_STRING_FRAGMENT,
                    f"toolUse.input is {describe(text)}, not a string",
                    key=key,
                    event=pos,
                )
            yield Fragment(pos=pos, key=key, id=None, name=None, text=text)
        elif delta_type in _BLOCK_DELTAS:
            if target is not None and target != BLOCK:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT, f"{delta_type} delta for tool block {index}", event=pos
                )
            if target is None:
                self._kinds[index] = BLOCK
                yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
            # (after the Open: the block keeps its index when this blocks)
            _check_block_delta(delta_type, value, pos, key)
            yield Fragment(pos=pos, key=key, id=None, name=None, text=None)
        else:
            if target is None:
                self._kinds[index] = BLOCK
                yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown delta type {delta_type[:40]!r}", event=pos
            )


def _check_block_delta(delta_type: str, value: Any, pos: int, key: Any) -> None:
    """A non-call delta's object (or, for ``toolResult``, each entry of its
    array) holds nothing but its members, and so does every object in it
    (bedrock_members.DELTA_LEVELS, INNER_LEVELS)."""
    _closed(f"contentBlockDelta.delta.{delta_type}", value, pos, key)


def _closed(path: str, value: Any, pos: int, key: Any = None) -> None:
    """``value`` at ``path``: an object holds nothing but the members its
    level lists, and each object or array in it is checked at its own path
    (``[]`` for an array's entry).  An object at a path no table lists
    blocks too, unless it is open on purpose: what the profile has no
    members for is never read as known."""
    if path in _OPEN:
        return
    if type(value) is dict:
        known = _SHAPES.get(path)
        if known is None:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"bedrock {path[:100]} is an object, where no object with known members is"
                f" (review it as a dialect: {DOCS})",
                key=key,
                event=pos,
            )
        if not value.keys() <= known:
            raise _unknown_member(f"{path}.", value, known, pos, key)
        for member, inner in value.items():
            if type(inner) in (dict, list):
                _closed(f"{path}.{member}", inner, pos, key)
    elif type(value) is list:
        for entry in value:
            _closed(f"{path}[]", entry, pos, key)


def _keys_note(obj: Any, known: frozenset[str] = frozenset(), where: str | None = None) -> str:
    """What a finding on a union-shaped object with more than one key says
    of its keys: when exactly one names a ``known`` variant (or, at the
    event's top, ``where=""``, an exception), the other member as unknown,
    by its path; else `` (keys: a, b)`` (sorted, each cut to 40 chars, at
    most 8 listed), so the finding names what to review.  Empty for
    anything else."""
    if type(obj) is not dict or len(obj) < 2:
        return ""
    if where is not None:
        named = [
            m for m in obj if m in known or (where == "" and str(m).endswith("Exception"))
        ]
        if len(named) == 1:
            first = min(str(member) for member in obj if member != named[0])
            return f"; bedrock {unknown_member_message(where + first[:40])}"
    names = sorted(str(member)[:40] for member in obj)
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return f" (keys: {shown})"


def _unknown_member(
    where: str, item: dict[str, Any], known: frozenset[str], pos: int, key: Any = None
) -> ProtocolError:
    """The finding for the first member of ``item`` (sorted) outside
    ``known``, naming its path (no reviewed bedrock dialect exists yet)."""
    first = min(str(member) for member in item if member not in known)
    return ProtocolError(
        Code.UNSUPPORTED_EVENT,
        f"bedrock {unknown_member_message(where + first[:40])}",
        key=key,
        event=pos,
    )
