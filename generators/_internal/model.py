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

Reassembly rule used for labels (:func:`reassemble`): a call's arguments are
the concatenation of its fragments' text; for an Anthropic ``tool_use`` block
whose deltas carry no text, they are the compact JSON of the start block's
``input`` (``json.dumps(input, ensure_ascii=False, separators=(",", ":"))``),
or the empty string when the start block has no ``input``.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

PROFILES = ("openai", "mistral", "anthropic")
STREAM_KEY = {"openai": "chunks", "mistral": "chunks", "anthropic": "events"}


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


@dataclass(eq=False)
class Block:
    """An Anthropic content block that is not a client call (text, thinking,
    server tool use...).  Its events are kept verbatim, only the index moves."""

    index: int
    choice: int = 0


@dataclass(eq=False)
class Step:
    """One unit of the stream.

    kinds: ``frag`` (tool-call fragment / input_json_delta), ``finish`` (a
    finish_reason / message_delta.stop_reason; ``text`` is the reason),
    ``raw`` (opaque noise), and for Anthropic ``start``, ``delta`` (a
    non-call block's delta), ``stop``, ``begin`` (message_start), ``mstop``
    (message_stop).
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
    (``MISSING`` removes the key)."""
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

    def copy(self) -> Turn:
        return copy.deepcopy(self)

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
        if self.profile == "anthropic":
            return self.step_of("stop", call)
        return self.finish_index(call.choice)

    def open_index(self, call: Call) -> int | None:
        """Where the call's slot is opened."""
        if self.profile == "anthropic":
            return self.step_of("start", call)
        frags = self.frag_steps(call)
        return frags[0] if frags else None

    def fragments(self, call: Call) -> list[Any]:
        return [self.steps[i].text for i in self.frag_steps(call)]

    def blocks_in_order(self) -> list[Call | Block]:
        """Anthropic: every content block (calls and others) by index."""
        items: list[Call | Block] = [*self.calls, *self.blocks]
        return sorted(items, key=lambda b: b.index)


def reassemble(turn: Turn, call: Call) -> str:
    """The arguments text of ``call`` under the reassembly rule (module doc)."""
    text = "".join(t for t in turn.fragments(call) if isinstance(t, str))
    if turn.profile == "anthropic" and text == "":
        if call.start_input is MISSING or call.start_input is None:
            return ""
        return compact(call.start_input)
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
