"""A profile-neutral model of one streamed assistant turn.

A fixture is parsed into a :class:`Turn`: its client calls (:class:`Call`),
its other content blocks (:class:`Block`, Anthropic only) and an ordered list
of :class:`Step` objects, one per unit of the stream (a tool-call fragment, a
finish reason, a block start/stop, or an opaque *noise* item kept verbatim so
that the seed's quirks survive).  Operators edit the model; :func:`render`
turns it back into the raw chunks (OpenAI, Mistral) or events (Anthropic) of
a fixture envelope.

The model is the generator's own reading of the wire formats.  It never
imports the validator: the two are independent oracles.

Profiles: ``openai``, ``mistral`` (chunks), ``anthropic``,
``openai-responses`` and ``bedrock`` (events).  The last three are *block*
profiles: every call has its own start and stop (Anthropic
``content_block_start``/``content_block_stop``, Responses
``output_item.added``/``output_item.done``, Bedrock
``contentBlockStart``/``contentBlockStop``) and non-call items are
:class:`Block` objects that share the index space.

Reassembly rule used for labels (:func:`reassemble`): a call's arguments are
the concatenation of its fragments' text; for an Anthropic ``tool_use`` block
whose deltas carry no text, they are the compact JSON of the start block's
``input`` (``json.dumps(input, ensure_ascii=False, separators=(",", ":"))``),
or the empty string when the start block has no ``input``; for a Responses
call, a string ``arguments`` on the ``output_item.added`` item comes first;
for a Bedrock ``toolUse`` block whose deltas carry no text, they are ``{}``.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

PROFILES = ("openai", "mistral", "anthropic", "openai-responses", "bedrock")
STREAM_KEY = {
    "openai": "chunks",
    "mistral": "chunks",
    "anthropic": "events",
    "openai-responses": "events",
    "bedrock": "events",
}
BLOCK_PROFILES = ("anthropic", "openai-responses", "bedrock")
"""Profiles whose calls have their own start and stop events."""
RESPONSES = "openai-responses"
BEDROCK = "bedrock"


class _Missing:
    """Marks a key that is absent from the rendered JSON."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __copy__(self) -> _Missing:
        return self

    def __deepcopy__(self, memo: Any) -> _Missing:
        return self

    def __reduce__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class ModelError(ValueError):
    """The fixture is not something the generator can model (not a valid turn)."""


@dataclass(eq=False)
class Call:
    """A client tool call: an OpenAI/Mistral ``tool_calls`` slot or an
    Anthropic ``tool_use`` block.

    ``id``/``name`` are the values sent (``MISSING``, ``None`` or ``""`` to
    send none).  ``expected`` is the arguments text the label promises for a
    passing mutant; operators that change the text keep it up to date.
    """

    choice: int
    index: int
    id: Any
    name: Any
    expected: str | None = None
    type_field: bool = True
    """OpenAI: send ``"type": "function"`` together with the id."""
    indexed: bool = True
    """Mistral: False means "send the call without ``index`` when the profile
    would infer the same index" (a whole call, Mistral style)."""
    start_input: Any = MISSING
    """Anthropic: the ``content_block_start.content_block.input`` value."""
    blank: Any = MISSING
    """OpenAI/Mistral: what fragments that do not carry the identity send as
    ``id`` and ``function.name`` (``MISSING``: nothing; ``None``/``""``:
    an explicit null or empty string, which means "absent")."""
    item_id: Any = MISSING
    """Responses: the item's own ``id`` (what argument events route by)."""
    late_identity: tuple[str, ...] = ()
    """Responses: identity fields (``"id"``, ``"name"``) that only the closing
    ``output_item.done`` carries; the added item sends ``blank`` instead."""


@dataclass(eq=False)
class Block:
    """A content block / output item that is not a client call (text,
    thinking, reasoning, message, server tool use...).  Its events are kept
    verbatim, only the index moves."""

    index: int
    choice: int = 0


@dataclass(eq=False)
class Step:
    """One unit of the stream.

    kinds: ``frag`` (tool-call fragment / input_json_delta / Responses
    ``function_call_arguments.delta`` / Bedrock ``toolUse`` delta),
    ``finish`` (a finish_reason / message_delta.stop_reason / Responses
    ``response.completed`` (``text`` is the event type) / Bedrock
    ``messageStop``; ``text`` is the reason), ``raw`` (opaque noise), and
    for the block profiles ``start``, ``delta`` (a non-call block's event),
    ``stop``, ``begin`` (message_start / messageStart), ``mstop``
    (Anthropic message_stop), ``restate`` (Responses
    ``function_call_arguments.done``).

    For Responses ``restate`` and call ``stop`` steps, ``text`` is the
    restated arguments: ``None`` means "the call's own text, as a faithful
    server restates it", ``MISSING`` (stop only) leaves the key out.
    """

    kind: str
    target: Call | Block | None = None
    text: Any = None
    raw: Any = None
    choice: int = 0
    join: bool = False
    """OpenAI: rendered in the same chunk as the previous step when possible."""
    carries_id: bool = False
    carries_name: bool = False
    tmpl_chunk: Any = None
    tmpl_choice: Any = None
    patch: dict[str, Any] | None = None
    """Render-time overrides of the rendered entry/event's top-level keys
    (``MISSING`` removes the key); for Bedrock, of the event's payload."""
    inner: dict[str, Any] | None = None
    """Render-time overrides inside a Responses call's ``item``."""
    ident: tuple[Any, Any] | None = None
    """An intruding identity (id, name): this step belongs to a *second* call
    that reuses ``target``'s slot."""


@dataclass(eq=False)
class Turn:
    profile: str
    tool_schemas: dict[str, Any]
    request: dict[str, Any] | None
    steps: list[Step]
    calls: list[Call]
    blocks: list[Block] = field(default_factory=list)
    chunk_template: dict[str, Any] | None = None
    sequenced: bool = False
    """Responses: every event's ``sequence_number`` is its position; the
    renderer keeps it so."""
    snapshot: bool = False
    """Responses: the ending event's ``response.output`` lists the closing
    items in output order; the renderer rebuilds it from the stream."""

    def copy(self) -> Turn:
        """An independent copy for one mutant.

        Steps, calls and blocks are copied (operators edit their fields);
        field *values* are shared: operators and the renderer treat raw
        items, templates, texts, patches and inputs as immutable (they
        assign new values, never edit one in place), so a field-by-field
        copy is as good as a deep copy and much faster."""
        clones: dict[int, Any] = {}

        def clone(item: Any) -> Any:
            if not isinstance(item, (Call, Block)):
                return item
            found = clones.get(id(item))
            if found is None:
                found = clones[id(item)] = copy.copy(item)
            return found

        steps = []
        for step in self.steps:
            twin = copy.copy(step)
            twin.target = clone(step.target)
            steps.append(twin)
        return Turn(
            profile=self.profile,
            tool_schemas=dict(self.tool_schemas),
            request=self.request,
            steps=steps,
            calls=[clone(c) for c in self.calls],
            blocks=[clone(b) for b in self.blocks],
            chunk_template=self.chunk_template,
            sequenced=self.sequenced,
            snapshot=self.snapshot,
        )

    @property
    def blocky(self) -> bool:
        """Whether calls have their own start and stop events."""
        return self.profile in BLOCK_PROFILES

    # -- queries ---------------------------------------------------------

    def slot_calls(self) -> list[Call]:
        """Client calls in slot order: (choice, index)."""
        return sorted(self.calls, key=lambda c: (c.choice, c.index))

    def frag_steps(self, call: Call) -> list[int]:
        return [
            i
            for i, s in enumerate(self.steps)
            if s.kind == "frag" and s.target is call and s.ident is None
        ]

    def step_of(self, kind: str, target: Any) -> int | None:
        for i, s in enumerate(self.steps):
            if s.kind == kind and s.target is target and s.ident is None:
                return i
        return None

    def finish_index(self, choice: int = 0) -> int | None:
        for i, s in enumerate(self.steps):
            if s.kind == "finish" and s.choice == choice:
                return i
        return None

    def terminal_index(self, call: Call) -> int | None:
        """Where the call's slot reaches its terminal."""
        if self.blocky:
            return self.step_of("stop", call)
        return self.finish_index(call.choice)

    def open_index(self, call: Call) -> int | None:
        """Where the call's slot is opened."""
        if self.blocky:
            return self.step_of("start", call)
        frags = self.frag_steps(call)
        return frags[0] if frags else None

    def fragments(self, call: Call) -> list[Any]:
        return [self.steps[i].text for i in self.frag_steps(call)]

    def blocks_in_order(self) -> list[Call | Block]:
        """Block profiles: every content block / output item by index."""
        items: list[Call | Block] = [*self.calls, *self.blocks]
        return sorted(items, key=lambda b: b.index)

    def opening_index(self, target: Any) -> int | None:
        """Where a call or block is opened: its start, or (a Bedrock block
        without one) its first delta."""
        found = self.step_of("start", target)
        if found is None and self.profile == BEDROCK:
            found = self.step_of("delta", target)
        return found


def joined(turn: Turn, call: Call) -> str:
    """The text the call's events carry, in order (the string parts only):
    what a faithful Responses server restates."""
    text = "".join(t for t in turn.fragments(call) if isinstance(t, str))
    if turn.profile == RESPONSES and isinstance(call.start_input, str):
        text = call.start_input + text
    return text


def reassemble(turn: Turn, call: Call) -> str:
    """The arguments text of ``call`` under the reassembly rule (module doc)."""
    text = joined(turn, call)
    if turn.profile == "anthropic" and text == "":
        if call.start_input is MISSING or call.start_input is None:
            return ""
        return compact(call.start_input)
    if turn.profile == BEDROCK and text == "":
        return "{}"
    return text


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# -- parsing ---------------------------------------------------------------


def parse(fixture: dict[str, Any]) -> Turn:
    """Model a *valid* fixture (a seed or a from-scratch turn)."""
    if not isinstance(fixture, dict):
        raise ModelError("a fixture is a JSON object")
    profile = fixture.get("profile")
    if profile not in PROFILES:
        raise ModelError(f"unknown profile {profile!r}")
    stream = fixture.get(STREAM_KEY[profile])
    if not isinstance(stream, list):
        raise ModelError(f"{STREAM_KEY[profile]!r} is missing")
    schemas = copy.deepcopy(fixture.get("tool_schemas") or {})
    request = copy.deepcopy(fixture.get("request"))
    if profile == "anthropic":
        turn = _parse_anthropic(stream, schemas, request)
    elif profile == RESPONSES:
        turn = _parse_responses(stream, schemas, request)
    elif profile == BEDROCK:
        turn = _parse_bedrock(stream, schemas, request)
    else:
        turn = _parse_openai(profile, stream, schemas, request)
    for call in turn.calls:
        call.expected = reassemble(turn, call)
    return turn


def _is_tool_chunk(chunk: Any) -> bool:
    if not isinstance(chunk, dict) or chunk.get("error") is not None:
        return False
    choices = chunk.get("choices")
    if not isinstance(choices, list):
        return False
    for choice in choices:
        if not isinstance(choice, dict):
            continue
        delta = choice.get("delta")
        if isinstance(delta, dict) and delta.get("tool_calls"):
            return True
        if choice.get("finish_reason") is not None:
            return True
    return False


def _parse_openai(profile: str, stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    steps: list[Step] = []
    calls: dict[tuple[int, int], Call] = {}
    next_index: dict[int, int] = {}
    template: dict[str, Any] | None = None
    for raw in stream:
        if not _is_tool_chunk(raw):
            steps.append(Step("raw", raw=copy.deepcopy(raw)))
            continue
        chunk = copy.deepcopy(raw)
        if template is None:
            template = {k: v for k, v in chunk.items() if k != "usage"}
            template["choices"] = []
        first = True
        for choice in chunk["choices"]:
            number = choice.get("index", 0)
            delta = choice.get("delta") or {}
            for entry in delta.get("tool_calls") or []:
                if "index" in entry:
                    index = entry["index"]
                elif profile == "mistral":
                    index = next_index.get(number, 0)
                else:
                    raise ModelError("an OpenAI tool call without index")
                if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                    raise ModelError("bad index in a seed")
                if index >= next_index.get(number, 0):
                    next_index[number] = index + 1
                key = (number, index)
                call = calls.get(key)
                if call is None:
                    call = calls[key] = Call(
                        choice=number,
                        index=index,
                        id=MISSING,
                        name=MISSING,
                        type_field="type" in entry,
                        indexed="index" in entry,
                    )
                function = entry.get("function") or {}
                carries_id = entry.get("id") not in (None, "")
                carries_name = function.get("name") not in (None, "")
                if carries_id and call.id is MISSING:
                    call.id = entry["id"]
                if carries_name and call.name is MISSING:
                    call.name = function["name"]
                if "type" in entry:
                    call.type_field = True
                steps.append(
                    Step(
                        "frag",
                        target=call,
                        text=function.get("arguments", MISSING),
                        choice=number,
                        join=not first,
                        carries_id=carries_id,
                        carries_name=carries_name,
                        tmpl_chunk=chunk,
                        tmpl_choice=choice,
                    )
                )
                first = False
            reason = choice.get("finish_reason")
            if reason is not None:
                steps.append(
                    Step(
                        "finish",
                        text=reason,
                        choice=number,
                        join=not first,
                        tmpl_chunk=chunk,
                        tmpl_choice=choice,
                    )
                )
                first = False
    for call in calls.values():
        if call.id is MISSING or call.name is MISSING:
            raise ModelError("a seed call without id or name")
    return Turn(
        profile=profile,
        tool_schemas=schemas,
        request=request,
        steps=steps,
        calls=list(calls.values()),
        chunk_template=template,
    )


def _parse_anthropic(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    steps: list[Step] = []
    calls: list[Call] = []
    blocks: list[Block] = []
    by_index: dict[int, Call | Block] = {}
    for raw in stream:
        event = copy.deepcopy(raw)
        kind = event.get("type") if isinstance(event, dict) else None
        if kind == "message_start":
            steps.append(Step("begin", raw=event))
        elif kind == "message_stop":
            steps.append(Step("mstop", raw=event))
        elif kind == "message_delta" and (event.get("delta") or {}).get("stop_reason") is not None:
            steps.append(Step("finish", text=event["delta"]["stop_reason"], raw=event))
        elif kind == "content_block_start":
            index = event["index"]
            block = event["content_block"]
            if block.get("type") == "tool_use":
                call = Call(
                    choice=0,
                    index=index,
                    id=block.get("id", MISSING),
                    name=block.get("name", MISSING),
                    start_input=block.get("input", MISSING),
                )
                calls.append(call)
                target: Call | Block = call
            else:
                target = Block(index=index)
                blocks.append(target)
            by_index[index] = target
            steps.append(Step("start", target=target, raw=event))
        elif kind == "content_block_delta":
            target = by_index[event["index"]]
            delta = event.get("delta") or {}
            if isinstance(target, Call) and delta.get("type") == "input_json_delta":
                steps.append(
                    Step("frag", target=target, text=delta.get("partial_json", MISSING), raw=event)
                )
            else:
                steps.append(Step("delta", target=target, raw=event))
        elif kind == "content_block_stop":
            steps.append(Step("stop", target=by_index[event["index"]], raw=event))
        else:
            steps.append(Step("raw", raw=event))
    return Turn(
        profile="anthropic",
        tool_schemas=schemas,
        request=request,
        steps=steps,
        calls=calls,
        blocks=blocks,
    )


# -- rendering ---------------------------------------------------------------


def render(turn: Turn) -> dict[str, Any]:
    """The fixture envelope of ``turn`` (no ``meta``, no ``expect``)."""
    out: dict[str, Any] = {
        "profile": turn.profile,
        "tool_schemas": copy.deepcopy(turn.tool_schemas),
    }
    if turn.request is not None:
        out["request"] = copy.deepcopy(turn.request)
    if turn.profile == "anthropic":
        out["events"] = _render_anthropic(turn)
    elif turn.profile == RESPONSES:
        out["events"] = _render_responses(turn)
    elif turn.profile == BEDROCK:
        out["events"] = _render_bedrock(turn)
    else:
        out["chunks"] = _render_openai(turn)
    return out


DEFAULT_CHUNK = {
    "id": "chatcmpl-gen",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "gen-model",
    "choices": [],
}


def _apply_patch(obj: dict[str, Any], patch: dict[str, Any] | None) -> dict[str, Any]:
    if patch:
        for key, value in patch.items():
            if value is MISSING:
                obj.pop(key, None)
            else:
                obj[key] = copy.deepcopy(value)
    return obj


def _render_openai(turn: Turn) -> list[Any]:
    groups: list[list[Step]] = []
    out: list[Any] = []
    prev: Step | None = None
    for step in turn.steps:
        if step.kind == "raw":
            groups.append([step])
        elif (
            step.join
            and prev is not None
            and prev.kind == "frag"
            and prev.choice == step.choice
            and groups
        ):
            groups[-1].append(step)
        else:
            groups.append([step])
        prev = step
    frag_count: dict[int, int] = {}
    for step in turn.steps:
        if step.kind == "frag" and step.ident is None:
            frag_count[id(step.target)] = frag_count.get(id(step.target), 0) + 1
    next_index: dict[int, int] = {}
    for group in groups:
        first = group[0]
        if first.kind == "raw":
            out.append(copy.deepcopy(first.raw))
            continue
        template = first.tmpl_chunk if first.tmpl_chunk is not None else turn.chunk_template
        chunk = copy.deepcopy(template if template is not None else DEFAULT_CHUNK)
        choice = copy.deepcopy(first.tmpl_choice) if first.tmpl_choice is not None else {}
        choice["index"] = first.choice
        old_delta = choice.get("delta")
        delta = {k: v for k, v in (old_delta or {}).items() if k != "tool_calls"}
        entries = []
        finish = None
        for step in group:
            if step.kind == "frag":
                entries.append(_entry(turn, step, next_index, frag_count))
            elif step.kind == "finish":
                finish = step.text
        if entries:
            delta["tool_calls"] = entries
        choice["delta"] = delta
        choice["finish_reason"] = finish
        if first.tmpl_choice is None:
            choice = {"index": first.choice, "delta": delta, "finish_reason": finish}
        chunk["choices"] = [choice]
        out.append(chunk)
    return out


def _entry(
    turn: Turn, step: Step, next_index: dict[int, int], frag_count: dict[int, int]
) -> dict[str, Any]:
    call = step.target
    assert isinstance(call, Call)
    number = call.choice
    entry: dict[str, Any] = {}
    omit_index = (
        turn.profile == "mistral"
        and step.ident is None
        and not call.indexed
        and frag_count.get(id(call), 0) == 1
        and next_index.get(number, 0) == call.index
    )
    if not omit_index:
        entry["index"] = call.index
    if call.index >= next_index.get(number, 0):
        next_index[number] = call.index + 1
    if step.ident is not None:
        id_, name = step.ident
        entry["id"] = id_
        if call.type_field:
            entry["type"] = "function"
        entry["function"] = {"name": name}
        if step.text is not MISSING:
            entry["function"]["arguments"] = step.text
        return _apply_patch(entry, step.patch)
    if step.carries_id:
        if call.id is not MISSING:
            entry["id"] = call.id
        if call.type_field:
            entry["type"] = "function"
    elif call.blank is not MISSING:
        entry["id"] = call.blank
    function: dict[str, Any] = {}
    if step.carries_name and call.name is not MISSING:
        function["name"] = call.name
    elif not step.carries_name and call.blank is not MISSING:
        function["name"] = call.blank
    if step.text is not MISSING:
        function["arguments"] = copy.deepcopy(step.text)
    entry["function"] = function
    return _apply_patch(entry, step.patch)


def _render_anthropic(turn: Turn) -> list[Any]:
    out: list[Any] = []
    for step in turn.steps:
        kind = step.kind
        target = step.target
        if kind in ("raw", "begin", "mstop"):
            out.append(copy.deepcopy(step.raw))
            continue
        if kind == "finish":
            event = (
                copy.deepcopy(step.raw)
                if step.raw is not None
                else {
                    "type": "message_delta",
                    "delta": {"stop_reason": None, "stop_sequence": None},
                    "usage": {"output_tokens": 1},
                }
            )
            reason_delta = event.setdefault("delta", {})
            assert isinstance(reason_delta, dict)
            reason_delta["stop_reason"] = step.text
            out.append(_apply_patch(event, step.patch))
            continue
        assert target is not None
        if kind == "start":
            if isinstance(target, Call):
                if step.ident is not None:
                    block: dict[str, Any] = {
                        "type": "tool_use",
                        "id": step.ident[0],
                        "name": step.ident[1],
                        "input": {},
                    }
                else:
                    base = (step.raw or {}).get("content_block") or {}
                    block = {k: copy.deepcopy(v) for k, v in base.items()}
                    block["type"] = "tool_use"
                    for key, value in (
                        ("id", target.id),
                        ("name", target.name),
                        ("input", target.start_input),
                    ):
                        if value is MISSING:
                            block.pop(key, None)
                        else:
                            block[key] = copy.deepcopy(value)
                event = {
                    "type": "content_block_start",
                    "index": target.index,
                    "content_block": block,
                }
            else:
                event = copy.deepcopy(step.raw)
                event["index"] = target.index
        elif kind == "frag":
            delta: dict[str, Any] = {"type": "input_json_delta"}
            if step.text is not MISSING:
                delta["partial_json"] = copy.deepcopy(step.text)
            event = {"type": "content_block_delta", "index": target.index, "delta": delta}
        elif kind == "delta":
            event = copy.deepcopy(step.raw)
            event["index"] = target.index
        elif kind == "stop":
            event = {"type": "content_block_stop", "index": target.index}
        else:  # pragma: no cover
            raise AssertionError(kind)
        out.append(_apply_patch(event, step.patch))
    return out


def _put(obj: dict[str, Any], key: str, value: Any) -> None:
    """Set ``key`` (``MISSING`` removes it)."""
    if value is MISSING:
        obj.pop(key, None)
    else:
        obj[key] = copy.deepcopy(value)


# -- OpenAI Responses ------------------------------------------------------------

RESPONSE_ENDINGS = {
    "response.completed": "completed",
    "response.incomplete": "incomplete",
    "response.failed": "failed",
}


def _parse_responses(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    try:
        return _parse_responses_events(stream, schemas, request)
    except (KeyError, TypeError, AttributeError) as error:
        raise ModelError(f"not a modelable openai-responses stream ({error!r})") from None


def _parse_responses_events(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    steps: list[Step] = []
    calls: list[Call] = []
    blocks: list[Block] = []
    by_index: dict[int, Call | Block] = {}
    by_item: dict[str, Call | Block] = {}
    for raw in stream:
        event = copy.deepcopy(raw)
        kind = event.get("type") if isinstance(event, dict) else None
        if kind == "response.output_item.added":
            index = event["output_index"]
            item = event["item"]
            target: Call | Block
            if item.get("type") == "function_call":
                target = Call(
                    choice=0,
                    index=index,
                    id=_first_given(item.get("call_id", MISSING)),
                    name=_first_given(item.get("name", MISSING)),
                    start_input=item.get("arguments", MISSING),
                    item_id=item.get("id", MISSING),
                )
                calls.append(target)
            else:
                target = Block(index=index)
                blocks.append(target)
            by_index[index] = target
            if isinstance(item.get("id"), str):
                by_item[item["id"]] = target
            steps.append(Step("start", target=target, raw=event))
        elif kind == "response.output_item.done":
            target = by_index[event["output_index"]]
            if isinstance(target, Call):
                item = event["item"]
                for attr, key in (("id", "call_id"), ("name", "name")):
                    if getattr(target, attr) is MISSING:
                        setattr(target, attr, _first_given(item.get(key, MISSING)))
            steps.append(Step("stop", target=target, raw=event))
        elif kind == "response.function_call_arguments.delta":
            target = by_item[event["item_id"]]
            steps.append(Step("frag", target=target, text=event.get("delta", MISSING), raw=event))
        elif kind == "response.function_call_arguments.done":
            steps.append(Step("restate", target=by_item[event["item_id"]], raw=event))
        elif kind in RESPONSE_ENDINGS:
            steps.append(Step("finish", text=kind, raw=event))
        else:
            owner: Any = None
            if isinstance(event, dict):
                item_id = event.get("item_id")
                if isinstance(item_id, str):
                    owner = by_item.get(item_id)
                elif isinstance(event.get("output_index"), int):
                    owner = by_index.get(event["output_index"])
            if isinstance(owner, Block):
                steps.append(Step("delta", target=owner, raw=event))
            else:
                steps.append(Step("raw", raw=event))
    turn = Turn(
        profile=RESPONSES,
        tool_schemas=schemas,
        request=request,
        steps=steps,
        calls=calls,
        blocks=blocks,
    )
    # Restatements equal to the text streamed so far are "faithful"
    # (re-rendered from the text); identity fields the model would render
    # otherwise are kept as overrides, so that any seed round-trips.
    so_far = streamed_so_far(turn)
    for n, step in enumerate(steps):
        call = step.target
        if not isinstance(call, Call) or step.kind not in ("start", "stop", "restate"):
            continue
        text = so_far[n]
        if step.kind == "restate":
            said = step.raw.get("arguments", MISSING)
            step.text = None if said == text else said
            continue
        item = step.raw["item"]
        if step.kind == "stop":
            said = item.get("arguments", MISSING)
            step.text = None if said == text else said
        rendered = _responses_item(step, call, text)
        inner = {}
        for key in ("id", "call_id", "name", "arguments"):
            if key in ("arguments",) and step.kind == "stop":
                continue
            if rendered.get(key, MISSING) != item.get(key, MISSING):
                inner[key] = item.get(key, MISSING)
        step.inner = inner or None
    events = [s.raw for s in steps]
    turn.sequenced = bool(events) and all(
        isinstance(e, dict) and e.get("sequence_number") == n for n, e in enumerate(events)
    )
    finishes = [s.raw for s in steps if s.kind == "finish"]
    turn.snapshot = bool(finishes) and all(
        isinstance(e.get("response"), dict) and e["response"].get("output") == _closing_items(steps)
        for e in finishes
    )
    return turn


def _first_given(value: Any) -> Any:
    """An identity value as the model keeps it (blank means not sent)."""
    return MISSING if value in (None, "") else value


def _closing_items(steps: list[Step]) -> list[Any]:
    """The item of each output index's first ``output_item.done``, in output
    order (what ``response.completed`` lists as ``response.output``)."""
    found: dict[int, Any] = {}
    for step in steps:
        if step.kind == "stop" and step.ident is None and step.raw is not None:
            found.setdefault(step.raw.get("output_index"), step.raw.get("item"))
    return [found[k] for k in sorted(k for k in found if isinstance(k, int))]


def streamed_so_far(turn: Turn) -> dict[int, str]:
    """Responses: for each step position, the text its call's events carried
    before it (the added item's string ``arguments``, then the string
    deltas): what a faithful server restates at that point."""
    text: dict[int, str] = {}
    out: dict[int, str] = {}
    for n, step in enumerate(turn.steps):
        call = step.target
        if not isinstance(call, Call) or step.ident is not None:
            continue
        key = id(call)
        if key not in text:
            text[key] = call.start_input if isinstance(call.start_input, str) else ""
        if step.kind == "frag" and isinstance(step.text, str):
            text[key] += step.text
        out[n] = text[key]
    return out


def _responses_item(step: Step, call: Call, restated: str) -> dict[str, Any]:
    """The ``item`` of a call's ``output_item.added`` / ``.done``
    (``restated``: the faithful restatement at that point)."""
    base = (step.raw or {}).get("item")
    closing = step.kind == "stop"
    if isinstance(base, dict):
        item = copy.deepcopy(base)
    else:
        item = {
            "id": None,
            "type": "function_call",
            "status": "completed" if closing else "in_progress",
            "arguments": None,
            "call_id": None,
            "name": None,
        }
    item["type"] = "function_call"
    if step.ident is not None:
        item_id: Any = f"{call.item_id}_2" if isinstance(call.item_id, str) else "fc_2"
        call_id, name = step.ident
        arguments: Any = ""
    else:
        item_id = call.item_id
        call_id, name = call.id, call.name
        if not closing:
            if "id" in call.late_identity:
                call_id = call.blank
            if "name" in call.late_identity:
                name = call.blank
            arguments = call.start_input
        elif step.text is None:
            arguments = restated
        else:
            arguments = step.text
    _put(item, "id", item_id)
    _put(item, "arguments", arguments)
    _put(item, "call_id", call_id)
    _put(item, "name", name)
    if step.inner:
        for key, value in step.inner.items():
            _put(item, key, value)
    return item


def _render_responses(turn: Turn) -> list[Any]:
    out: list[Any] = []
    closing: dict[int, Any] = {}
    finishes: list[dict[str, Any]] = []
    so_far = streamed_so_far(turn)
    for n, step in enumerate(turn.steps):
        kind = step.kind
        target = step.target
        event: Any
        if kind == "raw":
            event = copy.deepcopy(step.raw)
        elif kind == "finish":
            if step.raw is not None:
                event = copy.deepcopy(step.raw)
            else:
                status = RESPONSE_ENDINGS.get(step.text, "completed")
                event = {
                    "type": None,
                    "response": {"id": "resp_gen", "object": "response", "status": status},
                }
            event["type"] = step.text
            finishes.append(event)
        elif isinstance(target, Block):
            event = copy.deepcopy(step.raw)
            if kind in ("start", "stop") or "output_index" in event:
                event["output_index"] = target.index
            if kind == "stop":
                closing.setdefault(target.index, event.get("item"))
        elif kind in ("start", "stop"):
            assert isinstance(target, Call)
            event = (
                copy.deepcopy(step.raw)
                if step.raw is not None
                else {"type": None, "output_index": None, "item": None}
            )
            event["type"] = (
                "response.output_item.done" if kind == "stop" else "response.output_item.added"
            )
            event["output_index"] = target.index
            event["item"] = _responses_item(step, target, so_far.get(n, ""))
            if kind == "stop":
                closing.setdefault(target.index, event["item"])
        elif kind in ("frag", "restate"):
            assert isinstance(target, Call)
            field_name = "delta" if kind == "frag" else "arguments"
            if step.raw is not None:
                event = copy.deepcopy(step.raw)
            else:
                event = {"type": None, "item_id": None, "output_index": None, field_name: None}
            event["type"] = (
                "response.function_call_arguments.delta"
                if kind == "frag"
                else "response.function_call_arguments.done"
            )
            _put(event, "item_id", target.item_id)
            if "output_index" in event:
                event["output_index"] = target.index
            if kind == "frag" or step.text is not None:
                _put(event, field_name, step.text)
            else:
                event[field_name] = so_far.get(n, "")
        else:  # pragma: no cover
            raise AssertionError(kind)
        out.append(_apply_patch(event, step.patch))
    if turn.snapshot:
        output = [closing[k] for k in sorted(closing)]
        for event in finishes:
            response = event.get("response")
            if isinstance(response, dict):
                response["output"] = copy.deepcopy(output)
    if turn.sequenced:
        for number, event in enumerate(out):
            if isinstance(event, dict):
                event["sequence_number"] = number
    return out


# -- Amazon Bedrock ConverseStream ----------------------------------------------------


def _payload(event: Any) -> tuple[str | None, Any]:
    if isinstance(event, dict) and len(event) == 1:
        ((kind, body),) = event.items()
        return kind, body
    return None, None


def _parse_bedrock(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    try:
        return _parse_bedrock_events(stream, schemas, request)
    except (KeyError, TypeError, AttributeError) as error:
        raise ModelError(f"not a modelable bedrock stream ({error!r})") from None


def _parse_bedrock_events(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    steps: list[Step] = []
    calls: list[Call] = []
    blocks: list[Block] = []
    by_index: dict[int, Call | Block] = {}
    for raw in stream:
        event = copy.deepcopy(raw)
        kind, body = _payload(event)
        if not isinstance(body, dict):
            kind = None
        if kind == "messageStart":
            steps.append(Step("begin", raw=event))
        elif kind == "contentBlockStart":
            index = body["contentBlockIndex"]
            tool = (body.get("start") or {}).get("toolUse")
            target: Call | Block
            if isinstance(tool, dict) and "type" not in tool:
                target = Call(
                    choice=0,
                    index=index,
                    id=tool.get("toolUseId", MISSING),
                    name=tool.get("name", MISSING),
                )
                calls.append(target)
            else:
                target = Block(index=index)
                blocks.append(target)
            by_index[index] = target
            steps.append(Step("start", target=target, raw=event))
        elif kind == "contentBlockDelta":
            index = body["contentBlockIndex"]
            found = by_index.get(index)
            if found is None:  # a text/reasoning block opened by its first delta
                found = by_index[index] = Block(index=index)
                blocks.append(found)
            delta = body.get("delta") or {}
            if isinstance(found, Call) and "toolUse" in delta:
                tool_delta = delta["toolUse"]
                text = tool_delta.get("input", MISSING) if isinstance(tool_delta, dict) else MISSING
                steps.append(Step("frag", target=found, text=text, raw=event))
            else:
                steps.append(Step("delta", target=found, raw=event))
        elif kind == "contentBlockStop":
            steps.append(Step("stop", target=by_index[body["contentBlockIndex"]], raw=event))
        elif kind == "messageStop":
            steps.append(Step("finish", text=body.get("stopReason"), raw=event))
        else:
            steps.append(Step("raw", raw=event))
    return Turn(
        profile=BEDROCK,
        tool_schemas=schemas,
        request=request,
        steps=steps,
        calls=calls,
        blocks=blocks,
    )


def _render_bedrock(turn: Turn) -> list[Any]:
    out: list[Any] = []
    for step in turn.steps:
        kind = step.kind
        target = step.target
        event: Any
        if kind in ("raw", "begin"):
            event = copy.deepcopy(step.raw)
        elif kind == "finish":
            event = copy.deepcopy(step.raw) if step.raw is not None else {"messageStop": {}}
            _payload(event)[1]["stopReason"] = step.text
        elif isinstance(target, Block):
            if step.raw is not None:
                event = copy.deepcopy(step.raw)
            else:
                name = {"start": "contentBlockStart", "stop": "contentBlockStop"}[kind]
                event = {name: {}}
            _payload(event)[1]["contentBlockIndex"] = target.index
        else:
            assert isinstance(target, Call)
            use_raw = step.raw is not None and step.ident is None
            if kind == "start":
                event = (
                    copy.deepcopy(step.raw)
                    if use_raw
                    else {"contentBlockStart": {"contentBlockIndex": None, "start": {}}}
                )
                body = _payload(event)[1]
                body["contentBlockIndex"] = target.index
                start = body.get("start")
                if not isinstance(start, dict):
                    start = body["start"] = {}
                tool = start.get("toolUse")
                if not isinstance(tool, dict):
                    tool = start["toolUse"] = {"toolUseId": None, "name": None}
                id_, name = step.ident if step.ident is not None else (target.id, target.name)
                _put(tool, "toolUseId", id_)
                _put(tool, "name", name)
            elif kind == "frag":
                event = (
                    copy.deepcopy(step.raw)
                    if use_raw
                    else {"contentBlockDelta": {"contentBlockIndex": None, "delta": {}}}
                )
                body = _payload(event)[1]
                body["contentBlockIndex"] = target.index
                old = body.get("delta")
                old_tool = old.get("toolUse") if isinstance(old, dict) else None
                tool = copy.deepcopy(old_tool) if isinstance(old_tool, dict) else {}
                _put(tool, "input", step.text)
                body["delta"] = {"toolUse": tool}
            elif kind == "stop":
                event = (
                    copy.deepcopy(step.raw)
                    if use_raw
                    else {"contentBlockStop": {"contentBlockIndex": None}}
                )
                _payload(event)[1]["contentBlockIndex"] = target.index
            else:  # pragma: no cover
                raise AssertionError(kind)
        if step.patch:
            body = _payload(event)[1]
            if isinstance(body, dict):
                _apply_patch(body, step.patch)
        out.append(event)
    return out
