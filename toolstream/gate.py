"""The gate: feed a turn's chunks or events, get one verdict at the end.

This is the error boundary of the validator.  Profiles, the slot machine,
the strict JSON parser and the schema checks raise
:class:`~toolstream.findings.ProtocolError`; the gate is the only place that
catches it and records a :class:`~toolstream.findings.Finding`.  Any other
exception escaping the gate is a bug.

End-of-turn checks run in a fixed order so that verdicts are predictable:

1. a fatal error (unattributable fragment, blown turn limit) ends the
   interpretation: nothing more is checked;
2. client calls in more than one choice: ``ambiguous_choice``, and no call is
   checked further;
3. each slot, in key order: no terminal is ``missing_terminal``; a slot that
   reached its terminal is checked for identity (``missing_id``,
   ``missing_name``, ``duplicate_id``), then its arguments (strict JSON, an
   object), then its tool (``unknown_tool``, the schema itself, the input
   against the schema), in the order of :data:`CALL_CHECK_ORDER`.  The first
   broken rule blocks the slot;
4. index gaps per scope: ``missing_slot``;
5. the turn's own end: an unaccepted end reason with calls is
   ``wrong_terminal_reason``; a tool-use reason without calls is
   ``terminal_without_calls``; a begun message without its end reason or
   stop is ``missing_terminal``.

A turn is *applicable* when it shows tool activity (a client call, a
tool-use end reason, or a finding about tool routing).  It is executable only
when it is applicable and has no finding at all.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from toolstream import schema as schema_rules
from toolstream.events import BLOCK, CLIENT, Fragments, SlotKey
from toolstream.findings import Code, Finding, ProtocolError
from toolstream.limits import DEFAULT_LIMITS, Limits
from toolstream.machine import SCOPE_RULES, Input, Slot, State, Turn
from toolstream.profiles import PROFILES
from toolstream.report import Report, Status, build_call_report
from toolstream.strict_json import loads_strict

# Findings that show tool activity even when no call could be formed.
_ACTIVITY_CODES = frozenset(
    {
        Code.INVALID_SLOT_INDEX,
        Code.UNKNOWN_SLOT,
        Code.NON_STRING_FRAGMENT,
        Code.UNSUPPORTED_CALL_TYPE,
        Code.DELTA_AFTER_TERMINAL,
        Code.LIMIT_EXCEEDED,
    }
)


CALL_CHECK_ORDER: tuple[tuple[Code, ...], ...] = (
    (Code.MISSING_ID,),
    (Code.MISSING_NAME,),
    (Code.DUPLICATE_ID,),
    (Code.CONFLICTING_INPUT,),
    (Code.EMPTY_ARGUMENTS,),
    (Code.LIMIT_EXCEEDED,),
    (
        Code.MALFORMED_JSON,
        Code.TRAILING_DATA,
        Code.NON_FINITE_NUMBER,
        Code.DUPLICATE_KEY,
        Code.INVALID_UNICODE,
    ),
    (Code.NON_OBJECT_ARGUMENTS,),
    (Code.UNKNOWN_TOOL,),
    (Code.UNSUPPORTED_SCHEMA_KEYWORD, Code.INVALID_SCHEMA),
    (Code.SCHEMA_VIOLATION,),
)
"""The checks :meth:`Gate._check_call` runs on a terminated slot, in order
(the first that fails is the slot's one finding; the strict JSON parse is one
check with several codes, and so is the check of the tool's schema itself:
which of its codes a schema breaks first depends on where in the schema).
The generator's labels mirror it
(``toolstream_generators._internal.labels.CHECK_ORDER``); tests/unit/test_check_order.py
holds the two, and this tuple against ``_check_call``'s code, together."""

ReadHook = Callable[[Sequence[Any], int, Fragments | None], None]
"""Told by :meth:`Gate.feed_all` how it read its items: ``(items, start, run)``
for a run of plain fragments taken at ``items[start]``, ``(items, i, None)``
for an item read on its own."""

# Findings that say the stream was not read as its profile knows it (the
# closed world): an item the profile does not recognize, or the provider's
# own error, may have stood for a call, so the turn is blocked, never "no
# tool activity".  They do not make the turn's own end rules apply.
_UNREAD_CODES = frozenset({Code.UNSUPPORTED_EVENT, Code.PROVIDER_ERROR})


SDK_ATTACHED_FIELDS = frozenset(
    {
        # google-genai: each GenerateContentResponse carries the HTTP
        # response's headers, and the history of its automatic function
        # calling; neither came in the chunk
        "sdk_http_response",
        "automatic_function_calling_history",
    }
)
"""Model fields an SDK fills in itself, which the wire form leaves out."""


def wire_form(item: Any) -> Any:
    """``item`` as the JSON the provider sent, for the objects SDKs yield.

    A pydantic model (openai-python, anthropic, google-genai, mistralai...)
    is dumped with ``mode="json"`` (enums, bytes and dates as their JSON
    text), ``by_alias=True`` (the wire's field names: google-genai's fields
    are snake_case with camelCase aliases) and ``exclude_unset=True`` (only
    the keys the provider sent, explicit ``null`` kept: the SDKs parse
    chunks with every absent field unset, so this is the parsed JSON again;
    ``exclude_none`` would drop a ``null`` the profile reads, and the
    default would add every field the wire left out).  A dataclass becomes
    its fields; any other mapping a ``dict``.  Anything else is returned as
    it is (the profile judges it).  Duck-typed: no SDK is imported.

    Fields an SDK sets itself on a parsed chunk (not the provider's: see
    :data:`SDK_ATTACHED_FIELDS`) are left out."""
    if type(item) is dict:
        return item
    dump = getattr(item, "model_dump", None)
    if callable(dump) and not isinstance(item, type):
        fields = getattr(type(item), "model_fields", None) or ()
        attached = SDK_ATTACHED_FIELDS.intersection(fields)
        # warnings off: a mutated chunk keeps a value of the wrong type (the
        # SDKs construct chunks without validating), dumped as it came
        return dump(
            mode="json",
            by_alias=True,
            exclude_unset=True,
            exclude=attached or None,
            warnings=False,
        )
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return _plain(dataclasses.asdict(item))
    if isinstance(item, Mapping):
        return _plain(item)
    return item


def _plain(value: Any) -> Any:
    """Mappings as dicts and sequences as lists, all the way down; SDK
    objects inside them in their wire form."""
    if isinstance(value, Mapping):
        return {key: _plain(inner) for key, inner in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(inner) for inner in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    converted = wire_form(value)
    return value if converted is value else _plain(converted)


class Gate:
    """An incremental validator for one assistant turn.

    ``feed`` each parsed chunk (OpenAI, Mistral) or event (Anthropic) as it
    arrives, a ``dict`` or the object an SDK yields for it (a pydantic
    model, a dataclass, a mapping: see :func:`wire_form`); ``close`` returns
    the :class:`Report`.  The gate never hands out
    a call before ``close`` and never executes anything.

    ``read_hook``, when given, is told how :meth:`feed_all` read the
    stream, in stream order: which items it took as one run and which on
    their own (the items it skips after a fatal finding are not reported).
    The gate itself makes no use of it.
    """

    def __init__(
        self,
        profile: str,
        tool_schemas: Mapping[str, Any],
        request: Mapping[str, Any] | None = None,
        *,
        limits: Limits | None = None,
        read_hook: ReadHook | None = None,
        dialects: Sequence[str] | None = None,
    ) -> None:
        profile_class = PROFILES.get(profile)
        if profile_class is None:
            raise ValueError(f"unknown profile {profile!r}; known: {', '.join(sorted(PROFILES))}")
        self.limits = limits or DEFAULT_LIMITS
        self._profile = profile_class(request, self.limits)
        if dialects is not None:
            # () is the pure closed world; names restrict to those dialects.
            self._profile.use_dialects = bool(dialects)
            self._profile.forced = frozenset(dialects)
        self._schemas = tool_schemas
        self._turn = Turn(self.limits)
        self._findings: list[Finding] = []
        self._pos = 0
        self._fatal = False
        self._closed: Report | None = None
        self._read_hook = read_hook

    @property
    def profile(self) -> str:
        return self._profile.name

    def feed(self, item: Any) -> None:
        """Take the next chunk or event of the stream."""
        if self._closed is not None:
            raise RuntimeError("feed() after close()")
        if type(item) is not dict:
            item = wire_form(item)
        pos = self._pos
        if not self._fatal and pos < self.limits.max_events:
            run = self._profile.window((item,), 0, 1, pos)
            if run is not None and self._turn.take_fragments(run):
                self._pos = pos + 1
                return
        self._feed_one(item)

    def feed_all(self, items: Iterable[Any]) -> None:
        """Take the rest of the stream at once: the same as calling
        :meth:`feed` on each item, with runs of plain fragments taken in
        one step."""
        if self._closed is not None:
            raise RuntimeError("feed() after close()")
        if not isinstance(items, (list, tuple)):
            items = list(items)
        if list(map(type, items)).count(dict) != len(items):  # in C: the usual all-dict case
            items = [wire_form(item) for item in items]
        self._feed_wire(items)

    def _feed_wire(self, items: Sequence[Any]) -> None:
        """:meth:`feed_all`'s reading of ``items``, each already in its wire
        form (what :func:`wire_form` returns unchanged: any JSON value, such
        as the items of a parsed fixture file)."""
        window = self._profile.window
        take = self._turn.take_fragments
        read_hook = self._read_hook
        max_events = self.limits.max_events
        i = 0
        n = len(items)
        while i < n:
            if self._fatal:
                self._pos += n - i  # what feed() does with each remaining item
                return
            stop = min(n, i + max_events - self._pos)
            run = window(items, i, stop, self._pos) if stop > i else None
            if read_hook is not None:
                read_hook(items, i, run)
            if run is None:
                self._feed_one(items[i])
                i += 1
                continue
            if take(run):
                self._pos += run.count
                i += run.count
            else:
                for item in items[i : i + run.count]:
                    self._feed_one(item)
                i += run.count

    def close(self) -> Report:
        """End the stream and return the verdict.  Idempotent."""
        if self._closed is None:
            if not self._fatal:
                try:
                    self._end_of_turn()
                except ProtocolError as error:  # pragma: no cover - all rules record their own
                    self._record(error)
            self._closed = self._report()
        return self._closed

    # -- internals ---------------------------------------------------------

    def _feed_one(self, item: Any) -> None:
        pos = self._pos
        self._pos = pos + 1
        if self._fatal:
            return
        if pos >= self.limits.max_events:
            self._record(
                ProtocolError(
                    Code.LIMIT_EXCEEDED,
                    f"more than {self.limits.max_events} events in one turn",
                    event=pos,
                    fatal=True,
                )
            )
            return
        apply = self._turn.apply
        try:
            for event in self._profile.feed(item, pos):
                try:
                    apply(event)
                except ProtocolError as error:
                    # A rule broken by one event does not cost the chunk's
                    # other events (another call's fragment, the finish reason).
                    self._record(error)
                    if error.fatal:
                        return
        except ProtocolError as error:
            self._record(error)

    def _record(self, error: ProtocolError) -> None:
        key = error.key
        if key is not None and not error.fatal:
            slot = self._turn.slots.get(key)
            if slot is not None and slot.state is State.BLOCKED:
                return  # a blocked slot absorbs everything: one finding per slot
        finding = self._finding(error.code, error.message, key, error.event, error.path)
        self._findings.append(finding)
        if key is not None:
            self._turn.block(key, finding)
        if error.fatal:
            self._fatal = True

    def _finding(
        self,
        code: Code,
        message: str,
        key: SlotKey | None,
        event: int | None,
        path: str | None = None,
    ) -> Finding:
        choice = None
        if self._profile.has_choices and key is not None:
            choice = key[0]
        return Finding(
            code=code,
            message=message,
            slot=None if key is None else key[1],
            event=event,
            path=path,
            choice=choice,
        )

    def _end_of_turn(self) -> None:
        turn = self._turn
        scopes_with_calls = sorted({s.key[0] for s in turn.client_slots()})
        if len(scopes_with_calls) > 1:
            self._record(
                ProtocolError(
                    Code.AMBIGUOUS_CHOICE,
                    f"tool calls in choices {scopes_with_calls}: there is no single set of calls",
                )
            )
            return
        seen_ids: dict[str, SlotKey] = {}
        schema_problems: dict[str, ProtocolError | Callable[[Any], bool]] = {}
        slots = turn.slots
        check_call = self._check_call
        # The members read for every call, once (a metaclass lookup each).
        eof, accept, terminal = Input.EOF, Input.ACCEPT, State.TERMINAL
        for key in sorted(slots):
            slot = slots[key]
            earlier = None
            if slot.kind == CLIENT and slot.id is not None:
                # Any earlier call counts, whatever became of it.
                earlier = seen_ids.setdefault(slot.id, key)
                if earlier == key:
                    earlier = None
            try:
                slot.step(eof, None)
            except ProtocolError as error:
                self._record(error)
                continue
            if slot.kind != CLIENT or slot.state is not terminal:
                continue
            try:
                check_call(slot, earlier, schema_problems)
            except ProtocolError as error:
                if error.key is None:
                    error.key = slot.key
                if error.event is None:
                    error.event = slot.terminal_pos
                self._record(error)
            else:
                slot.step(accept, None)
        self._check_gaps()
        self._check_scopes()

    def _check_call(
        self,
        slot: Slot,
        earlier: SlotKey | None,
        schema_problems: dict[str, ProtocolError | Callable[[Any], bool]],
    ) -> None:
        """The end-of-turn checks of one call, in :data:`CALL_CHECK_ORDER`."""
        if slot.id is None and self._profile.requires_ids:
            raise ProtocolError(Code.MISSING_ID, "call reached its terminal without an id")
        if slot.name is None:
            raise ProtocolError(Code.MISSING_NAME, "call reached its terminal without a name")
        if earlier is not None:
            raise ProtocolError(
                Code.DUPLICATE_ID,
                f"id {(slot.id or '')[:40]!r} is also the id of slot {earlier[1]}",
            )
        text = "".join(slot.parts)
        if slot.initial_input is not None:
            # Anthropic: the start block's input stands when no delta carried text.
            if text:
                if slot.initial_input != {}:
                    raise ProtocolError(
                        Code.CONFLICTING_INPUT,
                        "block has both a non-empty start input and input_json_delta text",
                    )
            else:
                try:
                    text = json.dumps(slot.initial_input, ensure_ascii=False, separators=(",", ":"))
                except (ValueError, TypeError, RecursionError):
                    # A start input built in Python (not read from a file) can
                    # nest too deep or hold an int past the digit limit.
                    raise ProtocolError(
                        Code.LIMIT_EXCEEDED, "start input is too deep or too large to serialize"
                    ) from None
        slot.arguments = text
        if text == "":
            raise ProtocolError(Code.EMPTY_ARGUMENTS, "arguments are the empty string")
        limits = self.limits
        if len(text) > limits.max_argument_chars:
            raise ProtocolError(
                Code.LIMIT_EXCEEDED,
                f"arguments exceed {limits.max_argument_chars} characters",
            )
        # Lone surrogates included: outside strings one is a syntax error.
        value = loads_strict(
            text, max_depth=limits.max_depth, max_number_chars=limits.max_number_chars
        )
        if type(value) is not dict:
            raise ProtocolError(
                Code.NON_OBJECT_ARGUMENTS, "arguments are valid JSON but not an object"
            )
        name = slot.name
        if name not in self._schemas:
            raise ProtocolError(Code.UNKNOWN_TOOL, f"no schema for tool {name[:60]!r}")
        tool_schema = self._schemas[name]
        checked = schema_problems.get(name)
        if checked is None:
            checked = schema_problems[name] = self._check_schema(tool_schema)
        if isinstance(checked, ProtocolError):
            raise ProtocolError(
                checked.code, f"schema of {name[:60]!r}: {checked.message}", path=checked.path
            )
        if not checked(value):
            violation = schema_rules.first_violation(tool_schema, value)
            if violation is not None:
                raise ProtocolError(Code.SCHEMA_VIOLATION, violation.message, path=violation.path)
        slot.input = value

    def _check_schema(self, tool_schema: Any) -> ProtocolError | Callable[[Any], bool]:
        """A tool schema's problem, or its compiled acceptor (once per tool and turn)."""
        try:
            schema_rules.check_schema(tool_schema, max_nodes=self.limits.max_schema_nodes)
        except ProtocolError as bad_schema:
            bad_schema.__traceback__ = None
            return bad_schema
        return schema_rules.acceptor(tool_schema)

    def _check_gaps(self) -> None:
        by_scope: dict[int, list[int]] = {}
        for scope, index in self._turn.slots:
            by_scope.setdefault(scope, []).append(index)
        for scope in sorted(by_scope):
            indices = sorted(by_scope[scope])
            for expected, index in enumerate(indices):
                if index != expected:
                    self._record(
                        ProtocolError(
                            Code.MISSING_SLOT,
                            f"index {expected} never appeared but index {index} did",
                            key=(scope, expected),
                        )
                    )
                    break

    def _check_scopes(self) -> None:
        turn = self._turn
        calls_by_scope = {s.key[0] for s in turn.slots.values() if s.kind == CLIENT}
        for number in sorted(turn.scopes):
            scope = turn.scopes[number]
            finish = scope.finish
            if finish is not None:
                if number in calls_by_scope and not finish.accepted:
                    self._record(
                        ProtocolError(
                            Code.WRONG_TERMINAL_REASON,
                            f"turn ended with {finish.reason[:40]!r}, which does not mean"
                            " 'execute these tools'",
                            event=finish.pos,
                        )
                    )
                if finish.claims_tools and number not in calls_by_scope:
                    self._record(
                        ProtocolError(
                            Code.TERMINAL_WITHOUT_CALLS,
                            f"turn ended with {finish.reason!r} but carries no tool call",
                            event=finish.pos,
                        )
                    )
            if scope.begun_at is not None and self._applicable():
                for mark, rule in SCOPE_RULES.items():
                    if rule.missing is not None and mark not in scope.marks:
                        self._record(ProtocolError(Code.MISSING_TERMINAL, rule.missing))
                        break

    def _applicable(self) -> bool:
        if self._fatal:
            return True
        if self._findings and self._profile.closed_world:
            return True
        turn = self._turn
        if any(s.kind == CLIENT for s in turn.slots.values()):
            return True
        if any(
            scope.finish is not None and scope.finish.claims_tools for scope in turn.scopes.values()
        ):
            return True
        return any(f.code in _ACTIVITY_CODES for f in self._findings)

    def _report(self) -> Report:
        applicable = self._applicable() or any(f.code in _UNREAD_CODES for f in self._findings)
        findings = tuple(self._findings)
        if not applicable:
            status = Status.NOT_APPLICABLE
        elif findings:
            status = Status.BLOCKED
        else:
            status = Status.PASS
        calls = []
        has_choices = self._profile.has_choices
        slots = self._turn.slots
        validated_state = State.VALIDATED
        for key in sorted(slots):
            slot = slots[key]
            if slot.kind == BLOCK:
                continue
            arguments = slot.arguments
            if arguments is None:
                arguments = "".join(slot.parts)
            state = slot.state
            validated = state is validated_state
            calls.append(
                build_call_report(
                    key[1],
                    key[0] if has_choices else None,
                    slot.kind,
                    state.value,
                    slot.id,
                    slot.name,
                    arguments,
                    slot.input if validated else None,
                    validated,
                    tuple(slot.findings),
                )
            )
        return Report(
            profile=self._profile.name,
            status=status,
            calls=tuple(calls),
            findings=findings,
            dialects=tuple(sorted(self._profile.dialects_seen)),
        )
