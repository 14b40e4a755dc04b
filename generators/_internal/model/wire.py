"""The row type of the generator's wire table (:data:`~generators._internal.model.WIRES`).

One :class:`Wire` per profile: how its stream is keyed, parsed and
rendered, and the vocabulary the operators ask instead of branching on the
profile name.  Each format module (``openai_chat``, ``anthropic``, ``openai_responses``,
``bedrock``, ``gemini``, ``gemini_interactions``, ``cohere``, ``bedrock_invoke``)
defines its row(s), its noise, its from-scratch builder and its sample item
for the closed-world operator; adding a format is one module and one row.  A field a
new format needs is added with a default that leaves the others as they
were.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..jsontext import Draw
from .turn import MISSING, Block, Call, ModelError, Step, StepKind, Turn, compact

Parse = Callable[[list[Any], dict[str, Any], Any], Turn]
"""``(stream, tool_schemas, request) -> Turn`` for a *valid* stream."""
Render = Callable[[Turn], list[Any]]
"""The stream (chunks or events) of a turn."""
Noise = Callable[[Draw, Turn], None]
"""``(draw, turn)``: insert stream items that carry no call data."""
Scratch = Callable[[Draw, list[Call], dict[str, Any]], Turn]
"""``(draw, calls, tool_schemas) -> Turn``: a valid turn built from scratch."""


def no_implied_arguments(call: Call) -> str:
    """A call whose events carry no text has the empty arguments."""
    return ""


def start_input_arguments(call: Call) -> str:
    """A call whose events carry no text has its opening event's input
    (Anthropic ``input``, Interactions ``step.arguments``) as arguments."""
    if call.start_input is MISSING or call.start_input is None:
        return ""
    return compact(call.start_input)


def no_text_blocks(turn: Turn, block: Block) -> bool:
    return False


def started_as(turn: Turn, block: Block, key: str, kind: str) -> bool:
    """Whether ``block``'s start event holds a ``key`` object of type ``kind``."""
    start = turn.step_of("start", block)
    if start is None:
        return False
    raw = turn.steps[start].raw or {}
    return bool((raw.get(key) or {}).get("type") == kind)


def set_reason(step: Step, reason: str, detail: str) -> None:
    """End a ``finish`` step with ``reason`` (formats whose end reason is a
    plain field)."""
    step.text = reason


@dataclass(frozen=True)
class DialectMember:
    """A member one server dialect adds to a format's items (the reviewed
    dialects of docs/dialects.md, as the generator reads their public
    sources: what the member is, not what the reference does with it)."""

    dialect: str
    level: str
    """Where it goes: ``chunk``, ``choice`` or ``delta``."""
    member: str
    value: Any
    """The value sent (a JSON value), for an inert member."""
    mirrors: str = ""
    """For a copy of what the chunk already says: ``delta`` (the whole
    delta) or ``delta.content`` (its text, ``""`` for none).  A copy that
    says the same carries nothing new; one that differs says two things."""


@dataclass(frozen=True, eq=False)
class Wire:
    """One wire format as the generator reads and writes it."""

    profile: str
    stream_key: str
    """The envelope key of the stream: ``chunks`` or ``events``."""
    parse: Parse
    render: Render
    blocky: bool
    """Every call has its own start and stop (and non-call items are
    :class:`~.turn.Block` objects sharing the index space)."""
    tool_reason: str | None
    """The end reason that claims tool use (``None``: the format has none)."""
    wrong_reasons: tuple[str, ...]
    """End reasons that do not mean "execute", simplest first."""
    repeat_reasons: tuple[str, ...]
    """What a repeated end (``duplicate_terminal``) may say."""
    index_key: str
    """The key that carries a call's slot index on the wire."""
    index_kinds: tuple[StepKind, ...]
    """Steps of a call that carry its slot index."""
    error_events: tuple[dict[str, Any], ...]
    """In-stream error items the format knows, simplest first."""
    noise: Noise
    """One drawn item (or block of items) of the format that carries no call
    data, inserted where the format allows it (``insert_noise``)."""
    scratch: Scratch
    """The from-scratch builder (:func:`~..scratch.valid_turns`): the steps
    of a valid turn delivering the given calls (ids, names and argument
    texts already drawn), with the format's optional items drawn."""
    foreign_sample: dict[str, Any]
    """One item of the format that other formats refuse (``foreign_item``):
    simple, with no ``error`` member and no top-level slot key."""
    refuses: tuple[str, ...]
    """The profiles whose :attr:`foreign_sample` this format cannot read as
    one of its own, so that it is ``unsupported_event`` and nothing else
    (docs/validator.md, "Closed world"), simplest first."""
    error_endings: tuple[str, ...] = ()
    """End reasons that are also the provider's error (Responses
    ``response.failed``, Interactions ``failed``, Cohere ``ERROR``): a turn
    ending so is ``provider_error`` (and see :attr:`error_ending_wrong`)."""
    error_ending_wrong: bool = True
    """A turn with calls that ends with an error ending is also
    ``wrong_terminal_reason`` (Responses: a failed response does not mean
    "execute"); ``False`` where the error ending is the provider's error
    and nothing else (Interactions ``failed``, Cohere ``ERROR``: the end
    is recorded as reached, the error blocks the turn)."""
    message_end: tuple[StepKind, ...] = ("finish",)
    """Step kinds that must all be present for a begun message to be over."""
    turn_end: StepKind = "finish"
    """The step after which the turn's scope has ended for good."""
    begun_by_any_event: bool = False
    """A message has begun with the stream's first event (no ``begin``)."""
    closed_world: bool = False
    """Any finding makes the turn applicable (gemini, gemini-interactions, cohere, bedrock-invoke):
    a turn cut before any call, with a block left open, is then
    ``blocked``, not ``not_applicable``."""
    """A message has begun with the stream's first event (no ``begin``)."""
    plain_stop: str | None = None
    """An end reason that means "execute" only when the request forces a
    call (OpenAI/Mistral ``stop``)."""
    forcing_choices: tuple[str, ...] = ()
    """``tool_choice`` strings that force a call."""
    end_details: tuple[str, ...] = ()
    """Responses: ``incomplete_details.reason`` values of a wrong ending."""
    set_end: Callable[[Step, str, str], None] = set_reason
    """``(finish step, reason, detail)``: make the step end with ``reason``."""
    implied_arguments: Callable[[Call], str] = no_implied_arguments
    """A call's arguments when none of its events carries text."""
    cleared_start: Any = MISSING
    """What the opening event's arguments become once fragments carry the
    text (Anthropic ``{}``, Responses ``""``; ``MISSING``: it has none)."""
    start_object: bool = False
    """The opening event may carry the arguments as a JSON value (Anthropic
    ``input``), which conflicts with non-empty delta text."""
    empty_starts: tuple[Any, ...] = ()
    """What the opening event may carry for arguments that reassemble to
    ``""``, simplest first (``()``: it carries none)."""
    restates: bool = False
    """The call's closing events restate its arguments and identity
    (Responses ``function_call_arguments.done`` and ``output_item.done``)."""
    start_text: bool = False
    """A string ``start_input`` is the first part of the arguments text."""
    inferred_index: bool = False
    """A call may be sent without its index (the next free one is meant)."""
    late_identity: bool = False
    """A call's identity may come on a later event than its first."""
    blank_fragments: bool = False
    """A fragment's text may be ``null`` or absent: an empty fragment, not a
    ``non_string_fragment`` (Cohere ``function.arguments``, Interactions
    ``delta.arguments``; OpenAI-style fragments too, which are not blocks)."""
    whole_message: bool = False
    """Calls may be delivered whole in the message's opening event, with no
    block events (Anthropic ``message_start.message.content``)."""
    frames: bool = False
    """Every item is a ``chunk`` frame wrapping one event of an inner wire
    (Bedrock InvokeModel), rendered one frame per step: a frame can be cut
    in half (``cut_frame``)."""
    dialects: tuple[DialectMember, ...] = ()
    """The members of reviewed server dialects the format's items may carry
    (``dialect_member``; ``foreign_item`` makes a copy disagree, or puts a
    member no dialect lists at any level of an item)."""
    empty_arguments: bool = True
    """Arguments can reassemble to ``""`` (not Bedrock or Gemini: a call
    without argument text or ``args`` is ``{}`` there)."""
    text_block: Callable[[Turn, Block], bool] = no_text_blocks
    """Whether a non-call block holds text (a target for text deltas)."""
    delta_opens_block: bool = False
    """A non-call block may be opened by its first delta (Bedrock text)."""
    late_text_delta: dict[str, Any] | None = None
    """A text delta for an existing text block (its index set at render),
    when the format's text deltas are routed by the validator."""
    message_stop: dict[str, Any] | None = None
    """The event of an ``mstop`` step, for formats that have one."""
    new_call: Callable[[Turn, str], tuple[Call, list[Step]]] | None = None
    """``(turn, tool name) -> (call, its steps)``: a complete extra call with
    arguments ``{}``, after every existing call of the turn's call scope."""
    arguments: Callable[[Turn, Call], str] | None = None
    """A call's arguments text computed by the format itself (Gemini: the
    compact JSON of ``args``, or of the ``partialArgs`` reassembled);
    ``None``: the reassembly rule of :func:`~.turn.reassemble`."""
    deliver: Callable[[Any, Turn, Call, str], None] | None = None
    """``(draw, turn, call, text)``: send the arguments ``text`` (valid JSON or
    ``""``) as the format carries arguments that are *not text* (Gemini: an
    ``args`` object, or values at JSON paths).  ``None``: the arguments are
    text fragments.  A format with a ``deliver`` cannot carry a text that is
    not a JSON value, so the operators that edit the text itself (re-split
    it, corrupt it, re-encode it, fragments of another type) do not apply
    to it; the ones that set a new value do, through this."""
    requires_ids: bool = True
    """A call without an id is ``missing_id`` (Gemini: no, a call without
    ``id`` is identified by its position)."""
    unnamed: tuple[Any, ...] = (MISSING, None, "")
    """How a call may be sent without its name, simplest first (Gemini: a
    part without ``name`` continues the open call, so only ``null`` or
    ``""``)."""
    positional_slots: bool = False
    """Parts carry no slot index: a call's slot is its position, and a part
    without identity belongs to the call that is open (Gemini).  So there is
    no index to skip or spoil (``gap_index``, ``bad_index``), no interleaving
    of parallel calls, no second start on a live slot (``reuse_slot``: a
    new name is a new call), and a late fragment or a second stop cannot be
    aimed at one call (``delta_after_terminal`` is a whole new call after
    the end; ``duplicate_terminal`` is the end reason repeated)."""
    claim_reasons: tuple[str, ...] = ()
    """End reasons that claim tool use without meaning "execute": with no
    call they are ``terminal_without_calls`` (Gemini
    ``MALFORMED_FUNCTION_CALL``, ...); ``()``: only ``tool_reason`` claims."""
    absent_null: bool = False
    """A JSON ``null`` in place of the arguments means none were sent
    (Gemini ``args: null``, proto3 JSON): it is empty, not a non-object."""
    partial_args: bool = False
    """Calls may stream their arguments as values at JSON paths (Vertex
    ``partialArgs``, see :mod:`.gemini`): the ``partialArgs`` operators
    apply."""
    id_prefix: str = ""
    """How the format's call ids begin (``call_``, ``toolu_``...), for calls
    built from scratch."""


def new_block_call(turn: Turn, id_: str, name: str, **fields: Any) -> tuple[Call, list[Step]]:
    """A block format's extra call with arguments ``{}``: start, one
    fragment, stop, at the index after every block."""
    index = 1 + max(b.index for b in turn.blocks_in_order())
    call = Call(choice=0, index=index, id=id_, name=name, expected="{}", **fields)
    steps = [
        Step("start", target=call),
        Step("frag", target=call, text="{}"),
        Step("stop", target=call),
    ]
    return call, steps


def modelable(profile: str, parse_events: Parse) -> Parse:
    """``parse_events`` with a stream it cannot walk (a missing key, a wrong
    type) reported as :class:`~.turn.ModelError`."""

    def parse(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
        try:
            return parse_events(stream, schemas, request)
        except (KeyError, TypeError, AttributeError) as error:
            raise ModelError(f"not a modelable {profile} stream ({error!r})") from None

    return parse
