"""The shapes the field reported (issue 27; the reports are in
``bench/field_bugs/reports/`` and docs/field-bugs.md): several entries of
one slot inside one delta, null containers, tool calls without ``index``.

Chat Completions only (the formats with choices and ``tool_calls`` slots);
each operator asks ``turn.wire`` (``inferred_index``) where OpenAI and
Mistral differ.  These operators are drawn only when named
(``OperatorInfo.pooled`` is off: see there and docs/generators.md).
"""

from __future__ import annotations

import copy

from hypothesis import strategies as st

from .. import jsontext as jt
from ..labels import Effects, Label
from ..model import MISSING, Call, Step, Turn
from ..model.openai_chat import chunk
from .common import Draw, call_choice, pick_call, text_of

_USAGE = {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}


def text_fragments(turn: Turn, fx: Effects | None = None) -> list[int]:
    """Positions of the calls' fragments that carry text, in slot order."""
    return [
        i
        for call in turn.slot_calls()
        for i in turn.frag_steps(call)
        if isinstance(turn.steps[i].text, str)
    ]


def same_index_entries(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send one fragment of a call as 2-4 ``tool_calls`` entries with the
    same ``index`` inside one delta, in order: the first entry keeps what the
    fragment carried (id, name), the others carry more of its text.  The
    fragment may be the call's first one, the entry with id and name (the
    vLLM shape: the identity and ``arguments: ""`` in one entry, the first
    text in the next, same chunk).
    Reproduces openai-python's ``accumulate_delta`` before its fix (#3201,
    #3203, fixed by #3425): two entries at index 0 in the call's first chunk
    became two calls, the later text merging into the first one only; vLLM
    with speculative decoding sends this shape.
    Label: pass, same calls: the entries of a slot are its fragments in
    order, wherever they travel (docs/validator.md, "Several entries of one
    slot in one delta").
    Shrinks toward: the first call's first fragment, the identity in an
    entry of its own.
    """
    at = draw(st.sampled_from(text_fragments(turn)))
    step = turn.steps[at]
    text = step.text
    pieces = jt.draw_split(draw, text, max_cuts=3)
    if len(pieces) < 2 or not draw(st.booleans()):
        # The identity apart, then the text (the reported shape).
        pieces = ["", *pieces]
    pieces = [*pieces[:3], "".join(pieces[3:])] if len(pieces) > 4 else pieces
    entries = []
    for n, piece in enumerate(pieces):
        entry = copy.copy(step)
        entry.text = piece
        if n:
            entry.join = True
            entry.carries_id = entry.carries_name = False
            entry.patch = None
        entries.append(entry)
    turn.steps[at : at + 1] = entries


def _open_slot_spans(turn: Turn) -> list[tuple[Call, int, int]]:
    """(call, first position after its opening, position of its choice's
    end) for each call: where an entry for the live slot may go."""
    spans = []
    for call in turn.slot_calls():
        frags = turn.frag_steps(call)
        end = turn.finish_index(call.choice)
        if frags and end is not None and frags[0] < end:
            spans.append((call, frags[0] + 1, end))
    return spans


def null_container(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Insert 1-2 chunks whose null container carries nothing: a chunk with
    ``choices: null`` (with or without ``usage``: the usage chunk some
    servers send with ``null`` instead of ``[]``), a choice with ``delta:
    null``, a delta with ``tool_calls: null`` (and ``content: null``), or an
    entry ``{"index": i, "function": null}`` for a slot already open and not
    yet ended.
    Reproduces clients that iterate ``chunk.choices`` or read
    ``choice.delta.tool_calls`` / ``entry.function.arguments`` without a null
    check and crash (``TypeError: 'NoneType' object is not iterable``), or
    that open a call for an entry that carries no data.
    Label: pass, same calls: a null container holds no item (docs/validator.md,
    "Null containers").
    Shrinks toward: one ``choices: null`` chunk without usage, at the start.
    """
    choice = call_choice(turn)
    for _ in range(draw(st.integers(1, 2))):
        spans = _open_slot_spans(turn)
        kinds = ["choices", "delta", "tool_calls"] + (["function"] if spans else [])
        kind = draw(st.sampled_from(kinds))
        if kind == "function":
            call, first, end = draw(st.sampled_from(spans))
            where = draw(st.integers(first, end))
            step = Step("frag", target=call, text=MISSING, choice=call.choice)
            step.patch = {"function": None}
            turn.steps.insert(where, step)
            continue
        if kind == "choices":
            fields = {"usage": copy.deepcopy(_USAGE)} if draw(st.booleans()) else {}
            raw = chunk(turn, choices=None, **fields)
        elif kind == "delta":
            raw = chunk(turn, choices=[{"index": choice, "delta": None, "finish_reason": None}])
        else:
            delta = {"content": None, "tool_calls": None}
            raw = chunk(turn, choices=[{"index": choice, "delta": delta, "finish_reason": None}])
        turn.steps.insert(draw(st.integers(0, len(turn.steps))), Step("raw", raw=raw))


def null_choices_finish(draw: Draw, turn: Turn, fx: Effects) -> None:
    """The chunk that carries the calls' ``finish_reason`` arrives with
    ``choices: null`` (with or without ``usage``): the end reason it held is
    not on the wire.  The calls' fragments keep their own chunks.
    Reproduces gateways that null ``choices`` on the last chunk when they add
    usage to it, and clients that execute the calls they have when the stream
    closes without an end reason.
    Label: blocked ``missing_terminal`` only (every slot of the choice never
    ends; a null container holds nothing, so nothing else is read from the
    chunk); applied alone (``combinable`` off: another operator's end
    reason would be hidden with it).
    Shrinks toward: the chunk without ``usage``.
    """
    at = turn.finish_index(call_choice(turn))
    assert at is not None
    fields = {"usage": copy.deepcopy(_USAGE)} if draw(st.booleans()) else {}
    turn.steps[at] = Step("raw", raw=chunk(turn, choices=None, **fields))
    fx.final = Label("blocked", ("missing_terminal",))


def unindexed_call(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send every ``tool_calls`` entry of one call without ``index`` (an
    OpenAI profile: the wire has no inferred index).
    Reproduces OpenAI-compatible servers that leave ``index`` out (Gemini's
    endpoint, Ollama, SambaNova, SGLang, proxies) and the clients that then
    crash (openai-python #2806: ``TypeError``; opentelemetry's ``int(None)``),
    append every fragment as a new call (langchain #34654) or merge every
    call at index 0 (term-llm #314).
    Label: blocked ``invalid_slot_index`` only: the OpenAI API reference
    requires ``index`` and the reference clients read no fragment without it
    alike, even for a turn of one call (docs/validator.md, "Tool calls
    without index"); it is fatal, so nothing after it is read.
    Shrinks toward: the first call.
    """
    call = pick_call(draw, turn)
    for i in turn.frag_steps(call):
        step = turn.steps[i]
        step.patch = dict(step.patch or {}, **{turn.wire.index_key: MISSING})
    fx.final = Label("blocked", ("invalid_slot_index",))


def last_calls(turn: Turn, fx: Effects) -> list[Call]:
    """The call of the highest index in the calls' choice, when its choice
    ends: nothing opens after it, so entries moved before the end take the
    indices after it."""
    calls = [c for c in turn.slot_calls() if c.choice == call_choice(turn)]
    if not calls or turn.finish_index(call_choice(turn)) is None:
        return []
    return [calls[-1]]


def unindexed_fragments(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Stream the choice's last call (highest index) as OpenAI-style
    fragments, every entry without ``index`` (a wire that infers the index,
    Mistral): an entry with the id, the name and ``arguments: ""``, then the
    arguments split into 1-7 entries without id or name, in chunks of their
    own or (drawn) several in one delta; all of them after every other
    call's entries and before the end reason.
    Reproduces OpenAI-compatible servers that fragment a call without
    ``index`` under a Mistral client, and clients that default a missing
    index to 0 (mistralai's ``ToolCall.index``) and so glue the fragments
    back together.
    Label: blocked ``empty_arguments`` and ``missing_id``: under Mistral's
    rule an entry without ``index`` is a whole call at the next free index
    (docs/validator.md, "Tool calls without index"), so the identity entry is
    a call with empty arguments and each text entry a call without an id;
    applied alone (``combinable`` off).
    Shrinks toward: the text in one entry, in a chunk of its own.
    """
    call = last_calls(turn, fx)[0]
    text = text_of(turn, call)
    turn.steps = [s for s in turn.steps if not (s.kind == "frag" and s.target is call)]
    at = turn.finish_index(call.choice)
    assert at is not None
    unindexed = {turn.wire.index_key: MISSING}
    steps = [
        Step(
            "frag",
            target=call,
            text="",
            choice=call.choice,
            carries_id=True,
            carries_name=True,
            patch=dict(unindexed),
        )
    ]
    for piece in jt.draw_split(draw, text, max_cuts=6):
        join = draw(st.booleans())
        steps.append(Step("frag", target=call, text=piece, choice=call.choice, join=join))
        steps[-1].patch = dict(unindexed)
    turn.steps[at:at] = steps
    fx.final = Label("blocked", ("empty_arguments", "missing_id"))
