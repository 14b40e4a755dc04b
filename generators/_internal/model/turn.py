"""The format-neutral model of one streamed assistant turn.

A fixture is parsed (by its format's module, see :mod:`.wire`) into a
:class:`Turn`: its client calls (:class:`Call`), its other content blocks
(:class:`Block`, block formats only) and an ordered list of :class:`Step`
objects, one per unit of the stream (a tool-call fragment, an end reason, a
block start/stop, or an opaque *noise* item kept verbatim so that the
seed's quirks survive).  Operators edit the model; the format's ``render``
turns it back into the raw chunks or events of a fixture envelope.

What differs between formats is asked of ``turn.wire`` (a
:class:`~.wire.Wire` row of :data:`~generators._internal.model.WIRES`),
never of the profile name.

Reassembly rule used for labels (:func:`reassemble`): a call's arguments are
the concatenation of its fragments' text, after the text the opening event
carries where the format has one (a Responses added item's string
``arguments``); when that is empty, the format's *implied* arguments stand
(Anthropic: the compact JSON of the start block's ``input``,
``json.dumps(input, ensure_ascii=False, separators=(",", ":"))``, or ``""``
without one; Bedrock: ``{}``; the others: ``""``).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .wire import Wire


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


StepKind = Literal["frag", "finish", "raw", "start", "delta", "stop", "begin", "mstop", "restate"]
"""What a :class:`Step` is (see there)."""


@dataclass(eq=False)
class Call:
    """A client tool call: an OpenAI/Mistral ``tool_calls`` slot, an
    Anthropic ``tool_use`` block, a Responses ``function_call`` item, a
    Bedrock ``toolUse`` block.

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
    """What the opening event carries as arguments (Anthropic: the
    ``content_block_start.content_block.input`` value; Responses: the added
    item's ``arguments``)."""
    blank: Any = MISSING
    """OpenAI/Mistral: what fragments that do not carry the identity send as
    ``id`` and ``function.name`` (``MISSING``: nothing; ``None``/``""``:
    an explicit null or empty string, which means "absent")."""
    item_id: Any = MISSING
    """Responses: the item's own ``id`` (what argument events route by)."""
    late_identity: tuple[str, ...] = ()
    """Responses: identity fields (``"id"``, ``"name"``) that only the closing
    ``output_item.done`` carries; the added item sends ``blank`` instead."""
    withheld: bool = False
    """Responses: the call's text fragments are not sent (no
    ``function_call_arguments.delta``); the closing events restate them
    (the arguments delivered whole).  An operator that needs a fragment on
    the wire clears it."""
    streamed: bool = False
    """Gemini: the call streams its arguments (``partialArgs`` parts ending
    with a part without ``willContinue``) instead of a whole ``args``."""


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
    for the block formats ``start``, ``delta`` (a non-call block's event),
    ``stop``, ``begin`` (message_start / messageStart), ``mstop``
    (Anthropic message_stop), ``restate`` (Responses
    ``function_call_arguments.done``).

    For Responses ``restate`` and call ``stop`` steps, ``text`` is the
    restated arguments: ``None`` means "the call's own text, as a faithful
    server restates it", ``MISSING`` (stop only) leaves the key out.
    """

    kind: StepKind
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
    wire: Wire
    """The wire format (its row of ``WIRES``): parse, render, vocabulary."""
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
    dialect_members: tuple[Any, ...] = ()
    """Server-dialect members (:class:`~.wire.DialectMember`, from the
    format's ``Wire.dialects``) the renderer adds to every chunk it builds
    from steps, a normalized copy computed from what that chunk says."""

    @property
    def profile(self) -> str:
        return self.wire.profile

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
            wire=self.wire,
            tool_schemas=dict(self.tool_schemas),
            request=self.request,
            steps=steps,
            calls=[clone(c) for c in self.calls],
            blocks=[clone(b) for b in self.blocks],
            chunk_template=self.chunk_template,
            sequenced=self.sequenced,
            snapshot=self.snapshot,
            dialect_members=self.dialect_members,
        )

    @property
    def blocky(self) -> bool:
        """Whether calls have their own start and stop events."""
        return self.wire.blocky

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

    def step_of(self, kind: StepKind, target: Any) -> int | None:
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
        """Block formats: every content block / output item by index."""
        items: list[Call | Block] = [*self.calls, *self.blocks]
        return sorted(items, key=lambda b: b.index)

    def opening_index(self, target: Any) -> int | None:
        """Where a call or block is opened: its start, or (a format whose
        blocks may open with their first delta) its first delta."""
        found = self.step_of("start", target)
        if found is None and self.wire.delta_opens_block:
            found = self.step_of("delta", target)
        return found


def joined(turn: Turn, call: Call) -> str:
    """The text the call's events carry, in order (the string parts only):
    what a faithful Responses server restates."""
    text = "".join(t for t in turn.fragments(call) if isinstance(t, str))
    if turn.wire.start_text and isinstance(call.start_input, str):
        text = call.start_input + text
    return text


def reassemble(turn: Turn, call: Call) -> str:
    """The arguments text of ``call`` under the reassembly rule (module doc),
    or as the format computes it (``wire.arguments``)."""
    if turn.wire.arguments is not None:
        return turn.wire.arguments(turn, call)
    text = joined(turn, call)
    if text == "":
        return turn.wire.implied_arguments(call)
    return text


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def put(obj: dict[str, Any], key: str, value: Any) -> None:
    """Set ``key`` (``MISSING`` removes it)."""
    if value is MISSING:
        obj.pop(key, None)
    else:
        obj[key] = copy.deepcopy(value)


def apply_patch(obj: dict[str, Any], patch: dict[str, Any] | None) -> dict[str, Any]:
    """``obj`` with a step's render-time overrides applied (in place)."""
    if patch:
        for key, value in patch.items():
            put(obj, key, value)
    return obj


def first_given(value: Any) -> Any:
    """An identity value as the model keeps it (blank means not sent)."""
    return MISSING if value in (None, "") else value
