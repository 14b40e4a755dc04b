"""Anthropic Messages stream events.

Slot key: ``(0, content-block index)``.  Every content block is a slot, so
the index-gap rule sees text and thinking blocks too; only ``tool_use``
blocks are client calls.  ``server_tool_use`` and ``mcp_tool_use`` blocks are
executed by the provider: they are reported as server calls, never executed.
A block's terminal is its ``content_block_stop``; when the stream has a
``message_start``, the turn also needs ``message_delta.stop_reason`` and
``message_stop``.

Whole-message delivery: blocks already in ``message_start.message.content``
(programmatic tool calling) are opened and ended at once, their ``input``
standing as the arguments, and the message's ``stop_reason`` is the turn's
end reason (see docs/validator.md).  Closed world: event, block and delta
types are the lists here; any other is ``unsupported_event``; so is a member
of a call block, a block event or a message-level object
(``anthropic_members.py``) that the profile and its reviewed dialects do
not know, and so is one inside a server tool result block's ``content``
(``RESULT_CONTENT``) or in the typed entries of the message-level objects
(``MESSAGE_ENTRIES``), each closed by its ``type``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from toolstream.events import (
    BLOCK,
    CLIENT,
    SERVER,
    Begin,
    End,
    Event,
    Finish,
    Fragment,
    Fragments,
    Open,
    Rejected,
    SlotKey,
    Stop,
)
from toolstream.findings import Code, ProtocolError
from toolstream.profiles._base import (
    Level,
    Profile,
    Shape,
    SlotPiece,
    StreamPath,
    describe,
    fragment_run,
    items_from,
    key_objects,
    open_call,
    provider_error,
    slot_index,
)
from toolstream.profiles.anthropic_members import (
    CALLERS,
    CITATIONS,
    MESSAGE_ENTRIES,
    MESSAGE_LEVELS,
    NESTED,
    RESULT_BLOCK_MEMBERS,
    RESULT_CONTENT,
    USAGE_ENTRIES,
    Closed,
)
from toolstream.profiles.dialects import unknown_member_message, unread_member
from toolstream.tally import Tally, fragment_colons

_Entry = TypeVar("_Entry")
"""A table's entry: MESSAGE_ENTRIES' (type -> members), USAGE_ENTRIES' (type -> Closed)."""
_CALL_BLOCKS = {"tool_use": CLIENT, "server_tool_use": SERVER, "mcp_tool_use": SERVER}
# The members of what carries a call (anthropic-python's ToolUseBlock,
# ServerToolUseBlock, BetaMCPToolUseBlock, InputJSONDelta) and of the block
# events (RawContentBlockStart/Delta/StopEvent): anything else may carry what
# the profile cannot read.
_CALL_BLOCK_MEMBERS = {
    "tool_use": frozenset({"type", "id", "name", "input", "caller", "toolset_name"}),
    "server_tool_use": frozenset({"type", "id", "name", "input", "caller"}),
    "mcp_tool_use": frozenset({"type", "id", "name", "server_name", "input"}),
}
_JSON_DELTA_MEMBERS = frozenset({"type", "partial_json"})
_BLOCK_EVENT_MEMBERS = {
    "content_block_start": frozenset({"type", "index", "content_block"}),
    "content_block_delta": frozenset({"type", "index", "delta"}),
    "content_block_stop": frozenset({"type", "index"}),
}
# Blocks that carry no client call: text and thinking, and the results of
# the tools the provider runs (anthropic-sdk-python's ContentBlock union,
# the beta mcp_tool_result, container_upload).
OTHER_BLOCKS = frozenset(
    {
        "text",
        "thinking",
        "redacted_thinking",
        "web_search_tool_result",
        "web_fetch_tool_result",
        "code_execution_tool_result",
        "bash_code_execution_tool_result",
        "text_editor_code_execution_tool_result",
        "tool_search_tool_result",
        "mcp_tool_result",
        "container_upload",
    }
)
# Text-like deltas and the block types they may target.
_TEXT_DELTAS = {
    "text_delta": BLOCK,
    "citations_delta": BLOCK,
    "thinking_delta": BLOCK,
    "signature_delta": BLOCK,
}
# The members of the text-like deltas and of the blocks that carry text or
# thinking (anthropic-sdk-python's TextDelta, CitationsDelta, ThinkingDelta,
# SignatureDelta, TextBlock, ThinkingBlock, RedactedThinkingBlock): a member
# outside them may carry what the profile cannot read.  The blocks of the
# tools the provider runs (their results) are closed the same way
# (anthropic_members.RESULT_BLOCK_MEMBERS).
TEXT_DELTA_MEMBERS = {
    "text_delta": frozenset({"type", "text"}),
    "citations_delta": frozenset({"type", "citation"}),
    "thinking_delta": frozenset({"type", "thinking"}),
    "signature_delta": frozenset({"type", "signature"}),
}
TEXT_BLOCK_MEMBERS = {
    "text": frozenset({"type", "text", "citations"}),
    "thinking": frozenset({"type", "thinking", "signature"}),
    "redacted_thinking": frozenset({"type", "data"}),
}
# Every block that carries no call, by type: text and thinking, and the
# results of the tools the provider runs (anthropic_members.py).
_NO_CALL_BLOCK_MEMBERS = {**TEXT_BLOCK_MEMBERS, **RESULT_BLOCK_MEMBERS}
_IGNORED_EVENTS = frozenset({"ping"})

# The items the profile vouches for to the ledger (see Profile.tally).
_EVENT = Level(("type", "index", "delta"), exact=True)
_DELTA = Level(("type", "partial_json"), exact=True)
RUN_ITEM = Shape(_EVENT, _DELTA)
"""A plain fragment: ``content_block_delta`` with an ``input_json_delta``."""
_STOP = Level(("type", "index"), exact=True)
STOP_ITEM = Shape(_STOP)
"""A ``content_block_stop``, nothing else in it."""
_START = Level(("type", "index", "content_block"), exact=True)
_TOOL_BLOCK = Level(("type", "id", "name", "input"), exact=True)
TOOL_START_ITEM = Shape(_START, _TOOL_BLOCK, Level(exact=True))
"""A ``content_block_start`` of a ``tool_use`` block with an empty input,
nothing else in either object; the input ``{}`` is a third level, of no
members."""
_CALL_ENDS_MEMBERS = TOOL_START_ITEM.members + STOP_ITEM.members
_CALL_ENDS_KEY_COLONS = TOOL_START_ITEM.key_colons + STOP_ITEM.key_colons


_EVENT_TYPES = frozenset(
    {
        "message_start",
        "message_delta",
        "message_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "ping",
    }
)
"""The Messages stream's event types (``error`` is shared: not among them)."""


class AnthropicMessages(Profile):
    name = "anthropic"
    stream_key = "events"
    stream_description = "Anthropic Messages events"
    has_choices = False

    @classmethod
    def recognises(cls, item: Mapping[str, Any]) -> bool:
        return item.get("type") in _EVENT_TYPES

    @classmethod
    def opens_turn(cls, item: Any) -> bool:
        return isinstance(item, dict) and item.get("type") == "message_start"

    def __init__(self, request: Any, limits: Any) -> None:
        super().__init__(request, limits)
        self._kinds: dict[int, str] = {}
        self._unread: set[int] = set()
        """Blocks of a type the profile does not know: reported once, on
        their start; their deltas are absorbed."""
        self._run_keys: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        self._call_getters: (
            tuple[Callable[[Any], Any], Callable[[Any], Any], Callable[[Any], Any]] | None
        ) = None

    def window(self, items: Sequence[Any], start: int, stop: int, pos: int) -> Fragments | None:
        # The plain fragment: an input_json_delta for a tool block already
        # started.  The checks are those of _delta, in one loop; the members
        # read are those of RUN_ITEM (a missing one ends the run: KeyError),
        # and an event or delta holding more than those is left to feed.
        first = items[start]
        if type(first) is not dict:
            return None
        kind = first.get("type")
        if kind != "content_block_delta":
            if kind == "content_block_start":
                return self._whole_calls(items, start, stop, pos)
            return None  # the usual other item: a stop, a message event
        run_keys = self._run_keys
        if run_keys is None:
            run_keys = self._learn_run_keys(first)
        (type_key, index_key, delta_key), (delta_type_key, text_key) = run_keys
        event_size, delta_size = len(_EVENT.read), len(_DELTA.read)
        kinds = self._kinds
        # The builtins as locals, and one bound append per slot: this loop
        # runs once for nearly every event of a stream.
        dict_, int_, str_ = dict, int, str
        texts: dict[SlotKey, list[str]] = {}
        run: list[str] = []
        append = run.append  # rebound at the first item (no index equals None)
        last = None
        try:
            for raw in items_from(items, start, stop):
                if type(raw) is not dict_ or len(raw) != event_size:
                    break
                kind = raw[type_key]
                index = raw[index_key]
                delta = raw[delta_key]
                if (
                    kind != "content_block_delta"
                    or type(index) is not int_
                    or type(delta) is not dict_
                    or len(delta) != delta_size
                ):
                    break
                delta_type = delta[delta_type_key]
                text = delta[text_key]
                if delta_type != "input_json_delta" or type(text) is not str_:
                    break
                if index != last:
                    if kinds.get(index, BLOCK) == BLOCK:
                        break
                    last = index
                    append = texts.setdefault((0, index), []).append
                append(text)
        except KeyError:
            pass
        # Each item taken appended exactly one text.
        return fragment_run(pos, sum(map(len, texts.values())), texts)

    def _whole_calls(
        self, items: Sequence[Any], start: int, stop: int, pos: int
    ) -> Fragments | None:
        # Whole tool_use blocks, one after another: a start holding exactly
        # TOOL_START_ITEM's members (a non-empty string id and name, the
        # input {}) for an index the turn has not seen, then that index's
        # plain fragments (RUN_ITEM's members exactly), then its stop
        # (STOP_ITEM's).  These are the checks feed makes of each (its
        # _start, _delta and stop, for a new index), and each block is what
        # feed makes of it: an Open, Fragments, an End.  A block not whole
        # before `stop` ends the run, and is left to feed with what follows.
        if stop - start < 2:
            return None  # (a gate fed item by item: no block is whole in one item)
        run_keys = self._run_keys
        if run_keys is None:
            after = items[start + 1] if start + 1 < stop else None
            run_keys = self._learn_run_keys(after if type(after) is dict else {})
        (type_key, index_key, delta_key), (delta_type_key, text_key) = run_keys
        call_getters = self._call_getters
        if call_getters is None:
            call_getters = self._learn_call_getters(items[start])
        start_members, block_members, stop_members = call_getters
        event_size, delta_size = len(_EVENT.read), len(_DELTA.read)
        start_size, block_size, stop_size = len(_START.read), len(_TOOL_BLOCK.read), len(_STOP.read)
        kinds, unread = self._kinds, self._unread
        max_index = self.limits.max_slot_index
        dict_, int_, str_ = dict, int, str
        texts: dict[SlotKey, list[str]] = {}
        calls: list[tuple[Open, End]] = []
        taken = 0  # the items of the whole blocks read so far
        at = pos
        scan = items_from(items, start, stop)
        try:
            for raw in scan:
                if type(raw) is not dict_ or len(raw) != start_size:
                    break
                kind, index, block = start_members(raw)
                if (
                    kind != "content_block_start"
                    or type(index) is not int_
                    or not 0 <= index <= max_index
                    or index in kinds
                    or index in unread
                    or (0, index) in texts
                    or type(block) is not dict_
                    or len(block) != block_size
                ):
                    break
                block_type, id_, name, input_ = block_members(block)
                if (
                    block_type != "tool_use"
                    or type(id_) is not str_
                    or not id_
                    or type(name) is not str_
                    or not name
                    or type(input_) is not dict_
                    or input_
                ):
                    break
                run: list[str] = []
                append = run.append
                ended = None
                for raw in scan:
                    if type(raw) is not dict_ or len(raw) != event_size:
                        if type(raw) is dict_ and len(raw) == stop_size:
                            kind, at_index = stop_members(raw)
                            if kind == "content_block_stop" and at_index is index:
                                ended = at + len(run) + 1
                        break
                    kind = raw[type_key]
                    at_index = raw[index_key]
                    delta = raw[delta_key]
                    # `is`: the same int object as the start's index (the
                    # scanner hands out one object per small int); an equal
                    # other object only ends the block early, for feed.
                    if (
                        at_index is not index
                        or kind != "content_block_delta"
                        or type(delta) is not dict_
                        or len(delta) != delta_size
                    ):
                        break
                    delta_type = delta[delta_type_key]
                    text = delta[text_key]
                    if type(text) is not str_ or delta_type != "input_json_delta":
                        break
                    append(text)
                if ended is None:
                    break
                key = (0, index)
                texts[key] = run
                calls.append(
                    (
                        Open(pos=at, key=key, id=id_, name=name, kind=CLIENT, initial_input=input_),
                        End(pos=ended, key=key),
                    )
                )
                taken += len(run) + 2
                at = ended + 1
        except KeyError:
            pass
        if not calls:
            return None
        for _, ended_call in calls:
            # What feed's start of each block sets (its kind), and the
            # replay of a run not taken sets again, to the same.
            kinds[ended_call.key[1]] = CLIENT
        return Fragments(pos, taken, texts, tuple(calls))

    def _learn_run_keys(self, first: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The names of RUN_ITEM's two levels as the key objects of the
        stream's first plain-fragment item (:meth:`Level.keys_with`: the
        same members, found by identity), which the loops subscript with.
        Kept for the turn once that item holds every name the levels read."""
        keys = key_objects(first, first.get("delta"))
        run_keys = (_EVENT.keys_with(keys), _DELTA.keys_with(keys))
        if all(name in keys for name in _EVENT.read + _DELTA.read):
            self._run_keys = run_keys
        return run_keys

    def _learn_call_getters(
        self, first: dict[str, Any]
    ) -> tuple[Callable[[Any], Any], Callable[[Any], Any], Callable[[Any], Any]]:
        """The getters of a whole call's start and stop levels that look
        members up by the key objects of its first start (see
        :meth:`Level.get_with`; read once a call, not once an item)."""
        keys = key_objects(first, first.get("content_block"))
        getters = (_START.get_with(keys), _TOOL_BLOCK.get_with(keys), _STOP.get_with(keys))
        if all(name in keys for name in _START.read + _TOOL_BLOCK.read + _STOP.read):
            self._call_getters = getters
        return getters

    def tally(self, items: Sequence[Any], start: int, run: Fragments) -> Tally:
        # Every item of the run holds RUN_ITEM's members and nothing else;
        # the only strings among them that are not fixed, colon-free words
        # are the fragments.
        calls = run.whole_calls
        if not calls:
            return (
                RUN_ITEM.members * run.count,
                RUN_ITEM.key_colons * run.count + fragment_colons(run),
                RUN_ITEM.depth,
            )
        # A run of whole calls: each call's start and stop around its
        # fragments, whose only free strings are the start's id and name.
        fragments = run.count - 2 * len(calls)
        return (
            RUN_ITEM.members * fragments + _CALL_ENDS_MEMBERS * len(calls),
            RUN_ITEM.key_colons * fragments
            + fragment_colons(run)
            + _CALL_ENDS_KEY_COLONS * len(calls)
            + sum([f"{opened.id}{opened.name}".count(":") for opened, _ in calls]),
            max(RUN_ITEM.depth, TOOL_START_ITEM.depth, STOP_ITEM.depth),
        )

    def tally_item(self, raw: Any) -> Tally | None:
        # The events around every block, when they hold exactly the members
        # of STOP_ITEM (a stop) or TOOL_START_ITEM (a tool_use start with an
        # empty input, whose only free strings are the id and the name).
        if type(raw) is not dict:
            return None
        try:
            if len(raw) == len(_STOP.read):
                kind, index = _STOP.get(raw)
                if kind == "content_block_stop" and type(index) is int:
                    return STOP_ITEM.members, STOP_ITEM.key_colons, STOP_ITEM.depth
                return None
            if len(raw) != len(_START.read):
                return None
            kind, index, block = _START.get(raw)
            if (
                kind != "content_block_start"
                or type(index) is not int
                or type(block) is not dict
                or len(block) != len(_TOOL_BLOCK.read)
            ):
                return None
            block_type, id_, name, input_ = _TOOL_BLOCK.get(block)
        except KeyError:
            return None
        if (
            block_type != "tool_use"
            or type(id_) is not str
            or type(name) is not str
            or type(input_) is not dict
            or input_
        ):
            return None
        colons = TOOL_START_ITEM.key_colons + id_.count(":") + name.count(":")
        return TOOL_START_ITEM.members, colons, TOOL_START_ITEM.depth

    @classmethod
    def slot_pieces(cls, items: Sequence[Any]) -> Iterator[SlotPiece]:
        """Every event with an integer ``index`` is a piece of that block; an
        ``input_json_delta`` carries ``partial_json`` and nothing else."""
        for i, event in enumerate(items):
            if not (isinstance(event, dict) and type(event.get("index")) is int):
                continue
            delta = event.get("delta")
            plain = (
                event.get("type") == "content_block_delta"
                and isinstance(delta, dict)
                and delta.get("type") == "input_json_delta"
                and isinstance(delta.get("partial_json"), str)
            )
            text: StreamPath | None = (i, "delta", "partial_json") if plain else None
            yield SlotPiece(event["index"], (i,), text, plain)

    def feed(self, raw: Any, pos: int) -> Iterable[Event]:
        if type(raw) is not dict or type(raw.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "event is not an object with a string 'type'", event=pos
            )
        kind = raw["type"]
        known = _BLOCK_EVENT_MEMBERS.get(kind)
        if known is not None and not raw.keys() <= known:
            raise _unknown_member(f"{kind}.", raw, known, pos)
        if kind == "content_block_delta":
            return self._delta(raw, pos)
        if kind == "content_block_start":
            return self._start(raw, pos)
        if kind == "content_block_stop":
            index = slot_index(raw.get("index"), "content block index", pos, self.limits)
            return (End(pos=pos, key=(0, index)),)
        return self._other(raw, kind, pos)

    def _other(self, raw: dict[str, Any], kind: str, pos: int) -> Iterator[Event]:
        yield from self._message_event(raw, kind, pos)
        if kind in MESSAGE_LEVELS:
            # Checked once the event's own events are out, so that an unknown
            # member adds its one finding and nothing else (once per turn:
            # not on the content block path).  The typed entries first: a
            # blocked turn records no dialect read on the way.
            unread = _unknown_entry(kind, raw)
            if unread is None:
                unread = _unknown_usage_entry(kind, raw)
            if unread is None:
                unread = unread_member(self, "anthropic", MESSAGE_LEVELS, NESTED, kind, raw)
            if unread is not None:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT, f"anthropic {unknown_member_message(unread)}", event=pos
                )

    def _message_event(self, raw: dict[str, Any], kind: str, pos: int) -> Iterator[Event]:
        if kind == "message_delta":
            delta = raw.get("delta")
            if delta is not None and type(delta) is not dict:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT, "message_delta.delta is not an object", event=pos
                )
            reason = (delta or {}).get("stop_reason")
            if reason is not None:
                yield self._finish(reason, pos)
        elif kind == "message_start":
            yield Begin(pos=pos, scope=0)
            yield from self._whole_message(raw.get("message"), pos)
        elif kind == "message_stop":
            yield Stop(pos=pos, scope=0)
        elif kind == "error":
            raise provider_error(raw.get("error"), pos)
        elif kind not in _IGNORED_EVENTS:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown event type {kind[:40]!r}", event=pos
            )

    def _whole_message(self, message: Any, pos: int) -> Iterator[Event]:
        """Blocks delivered whole in ``message_start.message.content`` (the
        calls a program run by the provider's code execution issues): each
        is opened and ended at once, its ``input`` standing as its
        arguments, and the message's own ``stop_reason`` is the turn's end
        reason.  ``message_stop`` still ends the turn."""
        if message is None:
            return
        if type(message) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "message_start.message is not an object", event=pos
            )
        content = message.get("content")
        if content is not None and type(content) is not list:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "message_start content is not an array", event=pos
            )
        for index, block in enumerate(content or ()):
            try:
                yield from self._open_block(index, block, pos)
            except ProtocolError as error:
                if error.fatal:
                    raise
                yield Rejected(pos, error)
            yield End(pos=pos, key=(0, index))
        reason = message.get("stop_reason")
        if reason is not None:
            yield self._finish(reason, pos)

    def _finish(self, reason: Any, pos: int) -> Finish:
        if type(reason) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"stop_reason is {describe(reason)}, not a string",
                event=pos,
            )
        tool_use = reason == "tool_use"
        return Finish(
            pos=pos,
            scope=0,
            reason=reason,
            accepted=tool_use,
            claims_tools=tool_use,
            ends_slots=False,
        )

    def _start(self, raw: dict[str, Any], pos: int) -> Iterable[Event]:
        index = slot_index(raw.get("index"), "content block index", pos, self.limits)
        return self._open_block(index, raw.get("content_block"), pos)

    def _open_block(self, index: int, block: Any, pos: int) -> Iterable[Event]:
        key = (0, index)
        if type(block) is not dict or type(block.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                "content_block is not an object with a string 'type'",
                event=pos,
            )
        block_type = block["type"]
        call_kind = _CALL_BLOCKS.get(block_type)
        if call_kind is None:
            if block_type not in OTHER_BLOCKS:
                return self._unknown_block(key, block_type, pos)
            self._kinds.setdefault(index, BLOCK)
            block_open = (Open(pos=pos, key=key, id=None, name=None, kind=BLOCK),)
            text_known = _NO_CALL_BLOCK_MEMBERS.get(block_type)
            if text_known is not None and not block.keys() <= text_known:
                unknown = _unknown_member("content_block.", block, text_known, pos, key)
                return self._refused_call(block_open, unknown)
            refused = _unknown_caller_or_citation(block, pos, key)
            result = RESULT_CONTENT.get(block_type)
            if refused is None and result is not None:
                inside = _unknown_inside(block, "content_block", result)
                refused = None if inside is None else _unknown_path(inside, pos, key)
            return block_open if refused is None else self._refused_call(block_open, refused)
        self._kinds.setdefault(index, call_kind)
        id_, name = block.get("id"), block.get("name")
        if (
            type(id_) is str
            and id_
            and type(name) is str
            and name
            and block.keys() <= _CALL_BLOCK_MEMBERS[block_type]
            and block.get("caller") is None
        ):
            # The usual start: what open_call yields for a non-empty string
            # id and name and no unknown member, without its generator.
            return (
                Open(
                    pos=pos,
                    key=key,
                    id=id_,
                    name=name,
                    kind=call_kind,
                    initial_input=block.get("input"),
                ),
            )
        opened = open_call(
            pos,
            key,
            call_kind,
            ((block.get("id"), "id"), (block.get("name"), "name")),
            initial_input=block.get("input"),
        )
        known = _CALL_BLOCK_MEMBERS[block_type]
        if not block.keys() <= known:
            unknown = _unknown_member("content_block.", block, known, pos, key)
            return self._refused_call(opened, unknown)
        caller = _unknown_caller_or_citation(block, pos, key)
        return opened if caller is None else self._refused_call(opened, caller)

    @staticmethod
    def _refused_call(opened: Iterable[Event], error: ProtocolError) -> Iterator[Event]:
        # The call is opened (its index is taken, its stop is not an unknown
        # slot), then refused.
        yield from opened
        raise error

    def _unknown_block(self, key: SlotKey, block_type: str, pos: int) -> Iterator[Event]:
        # The index is taken (a block was there: no gap, no unknown_slot for
        # its stop); the block is reported once and its deltas absorbed.
        self._unread.add(key[1])
        self._kinds.setdefault(key[1], BLOCK)
        yield Open(pos=pos, key=key, id=None, name=None, kind=BLOCK)
        raise ProtocolError(
            Code.UNSUPPORTED_EVENT, f"unknown content block type {block_type[:40]!r}", event=pos
        )

    def _delta(self, raw: dict[str, Any], pos: int) -> Iterator[Event]:
        index = slot_index(raw.get("index"), "content block index", pos, self.limits)
        key = (0, index)
        delta = raw.get("delta")
        if type(delta) is not dict or type(delta.get("type")) is not str:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, "delta is not an object with a string 'type'", event=pos
            )
        delta_type = delta["type"]
        if index in self._unread:
            return
        target = self._kinds.get(index)
        if delta_type == "input_json_delta":
            if target == BLOCK:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"input_json_delta for non-tool block {index}",
                    event=pos,
                )
            if not delta.keys() <= _JSON_DELTA_MEMBERS:
                raise _unknown_member("delta.", delta, _JSON_DELTA_MEMBERS, pos, key)
            text = delta.get("partial_json")
            if type(text) is not str:
                raise ProtocolError(
                    Code.NON_STRING_FRAGMENT,
                    f"partial_json is {describe(text)}, not a string",
                    key=key,
                    event=pos,
                )
            yield Fragment(pos=pos, key=key, id=None, name=None, text=text)
        elif delta_type in _TEXT_DELTAS:
            if target is not None and target != BLOCK:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"{delta_type} for tool block {index}",
                    event=pos,
                )
            text_known = TEXT_DELTA_MEMBERS[delta_type]
            if not delta.keys() <= text_known:
                raise _unknown_member("delta.", delta, text_known, pos, key)
            if delta_type == "citations_delta":
                unknown = _unknown_by_type(delta.get("citation"), "delta.citation", CITATIONS)
                if unknown is not None:
                    raise _unknown_path(unknown, pos, key)
            yield Fragment(pos=pos, key=key, id=None, name=None, text=None)
        else:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"unknown delta type {delta_type[:40]!r}", event=pos
            )


def _unknown_by_type(obj: Any, level: str, by_type: Mapping[str, frozenset[str]]) -> str | None:
    """The path of what is unknown in ``obj``, closed by its ``type``: no
    object of a known type (named by its type), or a member outside its
    type's set; None when all is known."""
    kind = obj.get("type") if type(obj) is dict else None
    known = by_type.get(kind) if type(kind) is str else None
    if known is None:
        return f"{level}.type={kind[:40]!r}" if type(kind) is str else level
    if obj.keys() <= known:
        return None
    return f"{level}.{min(str(member) for member in obj if member not in known)[:40]}"


_Located = tuple[str, tuple[str, ...], str, _Entry]
"""A table's path split once: (the path, the members leading to its holder,
the member read there, the path's entry)."""


def _by_event(table: Mapping[str, _Entry]) -> dict[str, tuple[_Located[_Entry], ...]]:
    """``table``'s paths (``event.member...``) by their event, each split
    as :data:`_Located` (at import: the events are read once per turn, and
    splitting every path there cost 4 us an event)."""
    located: dict[str, list[_Located[_Entry]]] = {}
    for path, entry in table.items():
        event, _, rest = path.partition(".")
        *steps, last = rest.split(".")
        located.setdefault(event, []).append((path, tuple(steps), last.removesuffix("[]"), entry))
    return {event: tuple(rows) for event, rows in located.items()}


_MESSAGE_ENTRY_PATHS = _by_event(MESSAGE_ENTRIES)
_USAGE_ENTRY_PATHS = _by_event(USAGE_ENTRIES)


def _values_at(
    kind: str, raw: dict[str, Any], table: dict[str, tuple[_Located[_Entry], ...]]
) -> Iterator[tuple[str, _Entry, Any]]:
    """(path, its entry, the value there) for each path of ``table`` (made
    by :func:`_by_event`) below event ``kind`` (``[]``: an array of entries)
    whose value event ``raw`` holds, not null."""
    for path, steps, last, entry in table.get(kind, ()):
        holder: Any = raw
        for step in steps:
            holder = holder.get(step) if type(holder) is dict else None
        value = holder.get(last) if type(holder) is dict else None
        if value is not None:
            yield path, entry, value


def _unknown_entry(kind: str, raw: dict[str, Any]) -> str | None:
    """The path of what is unknown in the typed entries of event ``raw``
    (anthropic_members.MESSAGE_ENTRIES: the entries of container.skills,
    context_management.applied_edits, input_transformations, and the
    diagnostics' cache_miss_reason); None when all is known or absent."""
    for path, by_type, value in _values_at(kind, raw, _MESSAGE_ENTRY_PATHS):
        array = path.endswith("[]")
        if array and type(value) is list:
            for entry in value:
                unknown = _unknown_by_type(entry, path, by_type)
                if unknown is not None:
                    return unknown
        elif type(value) is dict:
            # (an object where an array of entries is: not read)
            return path[:-2] if array else _unknown_by_type(value, path, by_type)
    return None


def _unknown_usage_entry(kind: str, raw: dict[str, Any]) -> str | None:
    """The path of what is unknown in the typed objects inside event
    ``raw``'s usage (anthropic_members.USAGE_ENTRIES: its iterations'
    entries, its fallback credit's status); None when all is known or
    absent."""
    for path, shapes, value in _values_at(kind, raw, _USAGE_ENTRY_PATHS):
        if path.endswith("[]") and type(value) is list:
            for entry in value:
                unknown = _unknown_closed(entry, path, shapes)
                if unknown is not None:
                    return unknown
        else:
            # (an object where the array is, or a status that is no object:
            # named by its path)
            unknown = (
                path.removesuffix("[]")
                if path.endswith("[]")
                else _unknown_closed(value, path, shapes)
            )
            if unknown is not None:
                return unknown
    return None


def _unknown_closed(obj: Any, level: str, shapes: Mapping[str, Closed] | Closed) -> str | None:
    """The path of what is unknown in ``obj``, closed as ``shapes`` says
    (by its ``type``, or one :class:`Closed` for an object without one), and
    in the objects inside it; None when all is known."""
    if isinstance(shapes, Closed):
        if type(obj) is not dict:
            return level
        shape = shapes
    else:
        kind = obj.get("type") if type(obj) is dict else None
        found = shapes.get(kind) if type(kind) is str else None
        if found is None:
            return f"{level}.type={kind[:40]!r}" if type(kind) is str else level
        shape = found
    if not obj.keys() <= shape.members:
        return f"{level}.{min(str(member) for member in obj if member not in shape.members)[:40]}"
    return _unknown_inside(obj, level, shape)


def _unknown_inside(obj: dict[str, Any], level: str, shape: Closed) -> str | None:
    """The path of what is unknown in the objects inside ``obj`` (at
    ``level``; its own members are checked already): a member's object
    (``shape.inner``) or each entry of its array (``shape.entries``).  An
    object or an array where the shape has none is not read: it blocks,
    named by its path.  Values that are neither are not looked at (a
    document's data, a command's output: only members are checked)."""
    for member in dict.fromkeys([*shape.inner, *shape.entries]):
        value = obj.get(member)
        at = f"{level}.{member}"
        if type(value) is dict:
            shapes = shape.inner.get(member)
            unknown = at if shapes is None else _unknown_closed(value, at, shapes)
        elif type(value) is list:
            entry_shapes = shape.entries.get(member)
            if entry_shapes is None:
                return at
            unknown = None
            for entry in value:
                unknown = _unknown_closed(entry, f"{at}[]", entry_shapes)
                if unknown is not None:
                    break
        else:
            unknown = None
        if unknown is not None:
            return unknown
    return None


def _unknown_caller_or_citation(
    block: dict[str, Any], pos: int, key: SlotKey
) -> ProtocolError | None:
    """A block's ``caller`` and the entries of its ``citations``, closed by
    their type (anthropic_members.CALLERS, CITATIONS)."""
    unknown = None
    caller = block.get("caller")
    if caller is not None:
        unknown = _unknown_by_type(caller, "content_block.caller", CALLERS)
    citations = block.get("citations")
    for citation in citations if unknown is None and type(citations) is list else ():
        unknown = _unknown_by_type(citation, "content_block.citations[]", CITATIONS)
        if unknown is not None:
            break
    return None if unknown is None else _unknown_path(unknown, pos, key)


def _unknown_path(path: str, pos: int, key: Any) -> ProtocolError:
    return ProtocolError(
        Code.UNSUPPORTED_EVENT, f"anthropic {unknown_member_message(path)}", key=key, event=pos
    )


def _unknown_member(
    where: str, item: dict[str, Any], known: frozenset[str], pos: int, key: Any = None
) -> ProtocolError:
    """The finding for the first member of ``item`` (sorted) outside
    ``known``, naming its path (no reviewed anthropic dialect exists yet)."""
    first = min(str(member) for member in item if member not in known)
    return ProtocolError(
        Code.UNSUPPORTED_EVENT,
        f"anthropic {unknown_member_message(where + first[:40])}",
        key=key,
        event=pos,
    )
