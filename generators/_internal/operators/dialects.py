"""Server dialects: the members real servers add to a format's items
(``Wire.dialects``, docs/dialects.md), and members nobody has reviewed.

A reviewed member that cannot carry a call is read and ignored: adding it
keeps the verdict (``dialect_member``).  A copy of what the chunk says (a
``message`` equal to the delta, a ``text`` equal to its content) keeps it
too, as long as it says the same; one that says something else leaves a
client two answers, and a member no review lists may carry anything: both
are ``unsupported_event``, items of the closed world that ``foreign_item``
inserts (:func:`disagreeing_copy`, :func:`unreviewed_member`).
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from ..labels import Effects
from ..model import DialectMember, Step, Turn
from ..model.openai_chat import chunk, mirrored
from ..model.placing import call_choice, draw_text
from .common import Draw

_UNREVIEWED = "x_unreviewed"
"""The stem of a member name no server dialect uses."""


def unused_dialects(turn: Turn) -> list[DialectMember]:
    """The format's dialect members the turn does not carry yet, in table
    order (simplest first)."""
    carried = {m.member for m in turn.dialect_members}
    return [m for m in turn.wire.dialects if m.member not in carried]


def mirrors(turn: Turn) -> list[DialectMember]:
    return [m for m in turn.wire.dialects if m.mirrors]


def dialect_member(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Put one server dialect's member into every chunk the turn's calls
    and end reason travel in: reasoning text in the delta
    (``reasoning_content``, ``reasoning``, ``reasoning_details``), Together's
    ``token_id`` scalar in the delta, bookkeeping on the choice
    (``content_filter_results``, ``native_finish_reason``, ``stop_reason``,
    ``token_ids``, ``matched_stop``, ``seed``) or on the chunk (``x_groq``,
    ``prompt_filter_results``, ``provider``, ``citations``,
    ``search_results``), or a copy of what each chunk says (a ``message``
    equal to its delta, a ``text`` equal to its content).

    Reproduces the OpenAI-compatible servers of docs/dialects.md (DeepSeek,
    Groq, Azure OpenAI, OpenRouter, vLLM, SGLang, Together, Perplexity...)
    and clients that choke on a member they do not know or read a copy
    instead of the delta.
    Label: pass, same calls (none of these carries a call the deltas do not;
    a copy that agrees says nothing new).
    Shrinks toward: the first dialect of the table (``reasoning_content``).
    """
    member = draw(st.sampled_from(unused_dialects(turn)))
    turn.dialect_members = (*turn.dialect_members, member)


def disagreeing_copy(draw: Draw, turn: Turn) -> Step:
    """A chunk whose copy of what it says disagrees with its delta: a
    ``message`` that carries a tool call beside a delta that carries none,
    or a ``text`` that is not the delta's ``content``; (drawn) every other
    chunk of the turn then carries the agreeing copy.  The chunk carries no
    call data of its own: refused, it takes nothing else with it."""
    member = draw(st.sampled_from(mirrors(turn)))
    if draw(st.booleans()) and member not in turn.dialect_members:
        turn.dialect_members = (*turn.dialect_members, member)
    if member.mirrors == "delta":
        delta: dict[str, Any] = {"role": "assistant"}
        # (a tool the request declares: the copy offers a call to run)
        name = min(turn.tool_schemas, default="tool")
        claimed = {
            "index": turn.slot_calls()[0].index,
            "id": "call_mirrored",
            "type": "function",
            "function": {"name": name, "arguments": "{}"},
        }
        copy_: Any = {**mirrored(member, delta), "tool_calls": [claimed]}
    else:
        delta = {"content": draw_text(draw)}
        copy_ = mirrored(member, delta) + draw(st.sampled_from(["!", " (more)"]))
    choice = {"index": call_choice(turn), "delta": delta, "finish_reason": None}
    choice[member.member] = copy_
    return Step("raw", raw=chunk(turn, choices=[copy.deepcopy(choice)]))


def unreviewed_member(draw: Draw, turn: Turn) -> Step:
    """A chunk that carries no call data but a member no reviewed dialect
    lists (``x_unreviewed...``): in its delta, on its choice, on the chunk,
    or on a chunk without choices."""
    suffix = draw(st.text(st.sampled_from("abcdefghij"), max_size=4))
    name = f"{_UNREVIEWED}_{suffix}" if suffix else _UNREVIEWED
    value = draw(st.sampled_from([1, "x", None, {}, []]))
    level = draw(st.sampled_from(["delta", "choice", "chunk", "bare chunk"]))
    choice: dict[str, Any] = {"index": call_choice(turn), "delta": {}, "finish_reason": None}
    if level == "delta":
        choice["delta"] = {name: value}
    elif level == "choice":
        choice[name] = value
    raw = chunk(turn, choices=[choice])
    if level == "chunk":
        raw[name] = value
    elif level == "bare chunk":
        raw = chunk(turn, **{name: value})
    return Step("raw", raw=raw)
