"""Verdict-breaking cuts and indices, each applied alone: ``truncate``,
``truncate_parseable``, ``bad_index``, ``second_choice``,
``finish_without_calls`` (they compute their whole label)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .. import jsontext as jt
from ..edit import insert, remove_steps
from ..labels import Effects, Label
from ..model import MISSING, Call, Step, Turn
from .common import Draw, call_choice, first_activity, text_of


def _last_needed(turn: Turn) -> int:
    if turn.blocky:
        return max(i for i, s in enumerate(turn.steps) if s.kind in ("stop", "finish", "mstop"))
    found = turn.finish_index(call_choice(turn))
    assert found is not None
    return found


def _prefix_label(turn: Turn, k: int) -> Label:
    """The label of ``turn`` cut to its first ``k`` steps (``truncate``'s
    rule): every slot (block) opened and not terminated is
    ``missing_terminal``; a begun message (Anthropic ``message_start``,
    Bedrock ``messageStart``, a Responses stream's first event) that misses
    its end (``message_delta`` + ``message_stop``, ``messageStop``,
    ``response.completed``) is a turn-level ``missing_terminal``, reported
    only when the turn is applicable; the turn is applicable when a client
    call was opened."""
    prefix = turn.steps[:k]
    gap = _prefix_has_gap(turn, prefix)
    if not turn.blocky:
        active = any(s.kind == "frag" for s in prefix)
        if not active:
            return Label("not_applicable", ())
        return Label(
            "blocked", ("missing_slot", "missing_terminal") if gap else ("missing_terminal",)
        )
    started = [b for b in turn.blocks_in_order() if (_opened_before(turn, b, k))]
    stopped = {id(s.target) for s in prefix if s.kind == "stop"}
    open_blocks = [b for b in started if id(b) not in stopped]
    client = any(isinstance(b, Call) for b in started)
    kinds = {s.kind for s in prefix}
    begun = bool(prefix) if turn.wire.begun_by_any_event else "begin" in kinds
    ended = all(kind in kinds for kind in turn.wire.message_end)
    codes: set[str] = set()
    if open_blocks or (client and begun and not ended):
        codes.add("missing_terminal")
    if gap:
        codes.add("missing_slot")
    if not client and not (codes and turn.wire.closed_world):
        return Label("not_applicable", tuple(sorted(codes)))
    if codes:
        return Label("blocked", tuple(sorted(codes)))
    calls = sorted((b for b in started if isinstance(b, Call)), key=lambda c: c.index)
    return Label(
        "pass",
        (),
        tuple({"id": c.id, "name": c.name, "arguments": c.expected or ""} for c in calls),
    )


def _opened_before(turn: Turn, target: Any, k: int) -> bool:
    at = turn.opening_index(target)
    return at is not None and at < k


def _prefix_has_gap(turn: Turn, prefix: list[Step]) -> bool:
    """Whether the slots opened in ``prefix`` skip an index in some scope
    (possible when an interleaving opened a later slot first)."""
    opened: dict[int, set[int]] = {}
    if turn.blocky:
        for item in turn.blocks_in_order():
            if _opened_before(turn, item, len(prefix)):
                opened.setdefault(0, set()).add(item.index)
    else:
        for step in prefix:
            if step.target is None or step.ident is not None or step.kind != "frag":
                continue
            opened.setdefault(step.target.choice, set()).add(step.target.index)
    return any(indices != set(range(len(indices))) for indices in opened.values())


def truncate(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Cut the stream at a point after the first tool item and before the
    turn's last terminal (or, drawn, before any tool activity).

    Reproduces dropped connections, proxy timeouts and clients that execute
    whatever they have when the stream ends.
    Label: a cut after tool activity is blocked ``missing_terminal`` (every
    slot still open, and a begun message without its end: Anthropic
    ``message_delta``/``message_stop``, Bedrock ``messageStop``, Responses
    ``response.completed``), plus ``missing_slot`` when an
    interleaving had opened a later slot before an earlier one; a cut before
    any tool activity is ``not_applicable`` (with ``missing_terminal`` when a
    text block was left open; ``blocked`` with it on a closed-world wire,
    where any finding makes the turn applicable).
    Shrinks toward: the earliest cut after the first tool item.
    """
    first = first_activity(turn)
    last = _last_needed(turn)
    if draw(st.booleans()):
        k = draw(st.integers(0, first))
    else:
        k = draw(st.integers(first + 1, last))
    fx.final = _prefix_label(turn, k)
    turn.steps = turn.steps[:k]


def parse_points(turn: Turn) -> list[int]:
    """Cut lengths ``k`` right after the step where a call's arguments first
    become parseable JSON, before the call's terminal."""
    out = []
    for call in turn.slot_calls():
        terminal = turn.terminal_index(call)
        acc = ""
        point = None
        if turn.wire.start_text and isinstance(call.start_input, str):
            acc = call.start_input
            if acc and jt.parses(acc):
                point = turn.step_of("start", call)
        for i in turn.frag_steps(call) if point is None else []:
            text = turn.steps[i].text
            acc += text if isinstance(text, str) else ""
            if acc and jt.parses(acc):
                point = i
                break
        if point is None and acc == "" and turn.wire.implied_arguments(call):
            # Arguments implied by the start (an Anthropic start input,
            # Bedrock's no-argument {}) parse as soon as it is in.
            point = turn.step_of("start", call)
        if point is not None and terminal is not None and point < terminal:
            out.append(point + 1)
    return sorted(set(out))


def truncate_parseable(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Cut the stream right after the fragment with which a call's arguments
    first parse as JSON (for an Anthropic call without deltas, a Responses
    call whose added item holds the arguments, a Bedrock call without delta
    text (the implied ``{}``): right after its start), before the call's
    terminal.

    Reproduces the premature-execution trap: clients that execute as soon as
    the arguments parse, although the stream (and maybe the call) is not
    over.
    Label: blocked ``missing_terminal`` (plus ``missing_slot`` when an
    interleaving had opened a later slot first, as for ``truncate``).
    Shrinks toward: the earliest such point.
    """
    k = draw(st.sampled_from(parse_points(turn)))
    fx.final = _prefix_label(turn, k)
    turn.steps = turn.steps[:k]


def bad_index(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Give one tool item an index that cannot be attributed: null, a
    string, a negative number, a boolean, or (all but Mistral) none.
    Responses: the ``output_index`` of a call's added or closing item
    (argument events are routed by ``item_id``; a wrong ``output_index``
    there is ``identity_collision``); Bedrock: the ``contentBlockIndex`` of
    a tool block's start, delta or stop.

    Reproduces proxies that re-serialize indices badly, and clients that
    default a missing index to 0 (merging two calls).
    Label: blocked ``invalid_slot_index``; it is fatal, so nothing after it
    is interpreted and no other code is reported.
    Shrinks toward: the first tool item, index null.
    """
    kinds = turn.wire.index_kinds
    candidates = [
        i for i, s in enumerate(turn.steps) if s.kind in kinds and isinstance(s.target, Call)
    ]
    at = draw(st.sampled_from(candidates))
    step = turn.steps[at]
    index = step.target.index  # type: ignore[union-attr]
    options: list[Any] = [None, str(index), -1, -(index + 2), True]
    if not turn.wire.inferred_index:
        options.append(MISSING)
    step.patch = dict(step.patch or {}, **{turn.wire.index_key: draw(st.sampled_from(options))})
    fx.final = Label("blocked", ("invalid_slot_index",))


def second_choice(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Add tool calls in a second choice (``choices[].index`` 1) of the same
    completion.

    Reproduces ``n > 1`` requests and servers that number choices wrongly;
    clients that merge all choices execute calls from several candidates.
    Label: blocked ``ambiguous_choice`` only (no per-call check runs).
    Shrinks toward: one copied call, appended after the first choice, with
    its own finish.
    """
    sources = turn.slot_calls()
    count = draw(st.integers(1, len(sources)))
    new_steps: list[Step] = []
    for call in sources[:count]:
        twin = Call(
            choice=1,
            index=call.index,
            id=f"{call.id}_c1",
            name=call.name,
            expected=call.expected,
            type_field=call.type_field,
            indexed=call.indexed,
        )
        turn.calls.append(twin)
        pieces = jt.draw_split(draw, text_of(turn, call), max_cuts=2)
        for n, piece in enumerate(pieces):
            new_steps.append(
                Step(
                    "frag",
                    target=twin,
                    text=piece,
                    choice=1,
                    carries_id=n == 0,
                    carries_name=n == 0,
                )
            )
    if not draw(st.booleans()):
        new_steps.append(Step("finish", text=turn.wire.tool_reason, choice=1))
    start = first_activity(turn)
    positions = sorted(
        draw(
            st.lists(
                st.integers(start, len(turn.steps)),
                min_size=len(new_steps),
                max_size=len(new_steps),
            )
        ),
        reverse=True,
    )
    if positions and not draw(st.booleans()):
        positions = [len(turn.steps)] * len(new_steps)
    for step, at in zip(reversed(new_steps), positions, strict=True):
        insert(turn, at, step)
    fx.final = Label("blocked", ("ambiguous_choice",))


def finish_without_calls(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Remove every client call but keep (or make) a tool-use end reason
    (``tool_calls`` / ``tool_use`` / Bedrock ``stopReason: "tool_use"`` /
    Gemini ``MALFORMED_FUNCTION_CALL``, ``UNEXPECTED_TOOL_CALL``,
    ``TOO_MANY_TOOL_CALLS``, which say a call went wrong); Anthropic and
    Bedrock blocks are renumbered.  (Responses has no end
    reason that claims tool use: not applicable.)

    Reproduces servers that announce tool use but lose the calls (e.g. a
    call parsed out of the text failed), and clients that trust the end
    reason.
    Label: blocked ``terminal_without_calls`` (the claim makes the turn
    applicable).
    Shrinks toward: the turn with only its noise left.
    """
    calls = {id(c) for c in turn.calls}
    remove_steps(turn, lambda s: id(s.target) in calls)
    turn.calls = []
    claims = turn.wire.claim_reasons
    reason = turn.wire.tool_reason if not claims else draw(st.sampled_from(claims))
    for step in turn.steps:
        if step.kind == "finish":
            step.text = reason
    for n, block in enumerate(sorted(turn.blocks, key=lambda b: b.index)):
        block.index = n
    fx.final = Label("blocked", ("terminal_without_calls",))
