"""Verdict-breaking operators on a call's arguments text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from .. import jsontext as jt
from .. import labels as lb
from ..edit import set_fragments, set_text, stream_again
from ..labels import Effects
from ..model import MISSING, Call, Turn, joined
from .common import Draw, free_calls, pick_call, text_of


def empty_arguments(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Make one call's arguments reassemble to the empty string (every
    fragment ``""`` or without ``arguments``; Anthropic: no ``input`` in the
    start block and no delta text; Responses: deltas ``""`` or none, the
    added item's ``arguments`` ``""``, ``null`` or absent, and both
    restatements ``""``).  Not for Bedrock, where a tool block without input
    text is the no-argument call ``{}``, nor Gemini, where a whole call
    without ``args`` is that call too.

    Reproduces servers that send ``""`` for tools without parameters, which
    clients then pass to ``json.loads``.
    Label: blocked ``empty_arguments`` (slot rank 6).
    Shrinks toward: the first free call, every fragment ``""``.
    """
    call = pick_call(draw, turn, fx)
    if turn.wire.deliver is not None:
        set_text(draw, turn, call, "")
    elif turn.wire.empty_starts:
        if draw(st.booleans()):
            set_fragments(turn, call, [])
        else:
            set_fragments(turn, call, ["" for _ in turn.frag_steps(call)])
        call.start_input = draw(st.sampled_from(turn.wire.empty_starts))
    else:
        for i in turn.frag_steps(call):
            turn.steps[i].text = draw(st.sampled_from(["", MISSING]))
    fx.claim(call)
    fx.slot(call, lb.RANK_EMPTY, "empty_arguments")


def _text_op(code: str, rank: int) -> Callable[..., None]:
    def finish(draw: Draw, turn: Turn, fx: Effects, call: Call, text: str) -> None:
        set_text(draw, turn, call, text)
        fx.claim(call)
        fx.slot(call, rank, code)

    return finish


_malformed = _text_op("malformed_json", lb.RANK_JSON)
_trailing = _text_op("trailing_data", lb.RANK_JSON)
_non_finite = _text_op("non_finite_number", lb.RANK_JSON)
_dup_key = _text_op("duplicate_key", lb.RANK_JSON)
_surrogate = _text_op("invalid_unicode", lb.RANK_JSON)
_non_object = _text_op("non_object_arguments", lb.RANK_NON_OBJECT)

_BAD_VALUES = [
    "01",
    "tru",
    "'x'",
    "+1",
    ".5",
    "1.",
    "-",
    "1e",
    "0x1F",
    '"a\\x"',
    '"\\u12G4"',
    '"tab\there"',
    '"line\nbreak"',
    "[1,]",
    '{"a" 1}',
    '"unterminated',
]


def corrupt_json(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Make one call's arguments text invalid JSON: the closing brace
    dropped, a trailing comma, a member with a malformed value (leading
    zero, bare ``tru``, single quotes, ``+1``, ``.5``, ``1.``, bad escape,
    raw control character in a string, unterminated string...), garbage
    before the document, a single-quoted key.

    Reproduces truncated or hand-built JSON, models that write Python
    literals, and lenient parsers that accept all of it.
    Label: blocked ``malformed_json`` (slot rank 7).
    Shrinks toward: the first free call with its closing brace dropped.
    """
    call = pick_call(draw, turn, fx)
    text = text_of(turn, call)
    kind = draw(st.sampled_from(["unclosed", "trailing_comma", "bad_member", "prefix", "quote"]))
    if kind == "quote" and not jt.top_keys(text):
        kind = "unclosed"
    body = text.rstrip(jt.JSON_WS)
    tail = text[len(body) :]
    if kind == "unclosed":
        new = body[:-1] + tail
    elif kind == "trailing_comma":
        new = body[:-1] + "," + "}" + tail
    elif kind == "bad_member":
        key = jt.fresh_key(text)
        new = jt.add_member(text, f'"{key}": {draw(st.sampled_from(_BAD_VALUES))}')
    elif kind == "prefix":
        new = draw(st.sampled_from(["x", "}", ",", "]"])) + text
    else:
        new = text.replace('"', "'", 1)
    _malformed(draw, turn, fx, call, new)


def trailing_document(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Append something after the JSON document: a second document, stray
    characters, a non-JSON-whitespace space (U+00A0).

    Reproduces servers that concatenate documents and parsers that stop at
    the first complete value.
    Label: blocked ``trailing_data`` (slot rank 7).
    Shrinks toward: the first free call followed by ``{}``.
    """
    call = pick_call(draw, turn, fx)
    text = text_of(turn, call)
    extra = draw(
        st.sampled_from(
            ["{}", text.strip(jt.JSON_WS), "[]", "1", '"s"', "null", "}", "]", "x", ",", "\u00a0"]
        )
    )
    gap = draw(st.sampled_from(["", " ", "\n"]))
    _trailing(draw, turn, fx, call, text + gap + extra)


def double_arguments(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send the whole arguments text once more, as an extra fragment after
    the call's fragments (a "flush" of the buffered arguments).

    Reproduces servers that stream deltas and then the full value (some
    vLLM/OpenAI-compatible servers at flush).
    Label: blocked ``trailing_data`` (slot rank 7).
    Shrinks toward: the first free call.
    """
    call = pick_call(draw, turn, fx)
    text = text_of(turn, call)
    frags = turn.fragments(call)
    pieces = frags if "".join(f for f in frags if isinstance(f, str)) == text and frags else [text]
    set_fragments(turn, call, [*pieces, text])
    fx.claim(call)
    fx.slot(call, lb.RANK_JSON, "trailing_data")


def non_object(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Make one call's arguments valid JSON that is not an object: an array,
    the object wrapped in an array, a string (including the object text
    JSON-encoded again), a number, ``true``, ``null``.

    (Gemini: a whole call's ``args``; not ``null``, which is no ``args``.)

    Reproduces double-encoded arguments and models that answer a bare value.
    Label: blocked ``non_object_arguments`` (slot rank 8).
    Shrinks toward: the first free call, ``[]``.
    """
    call = pick_call(draw, turn, fx)
    text = text_of(turn, call)
    options = ["[]", "[" + text + "]", jt.dump_string(text), '"x"', "1", "true", "null", "-0.5"]
    if turn.wire.absent_null:
        options.remove("null")
    new = draw(st.sampled_from(options))
    _non_object(draw, turn, fx, call, new)


def _nested_objects(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = []
    if isinstance(value, dict):
        out.append(path)
        for k, v in value.items():
            out.extend(_nested_objects(v, (*path, k)))
    elif isinstance(value, list):
        for n, v in enumerate(value):
            out.extend(_nested_objects(v, (*path, n)))
    return out


def _dumps_with_extra(value: Any, path: tuple[Any, ...], member: str) -> str:
    """Compact JSON of ``value`` with ``member`` (raw text) appended to the
    object at ``path``."""

    def go(node: Any, here: tuple[Any, ...]) -> str:
        if isinstance(node, dict):
            items = [jt.dump_string(k) + ":" + go(v, (*here, k)) for k, v in node.items()]
            if here == path:
                items.append(member)
            return "{" + ",".join(items) + "}"
        if isinstance(node, list):
            return "[" + ",".join(go(v, (*here, n)) for n, v in enumerate(node)) + "]"
        return jt.dumps(node)

    return go(value, ())


def duplicate_key(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Repeat a key in an object of the arguments: an existing key again,
    the same key spelled with ``\\u`` escapes (equal once decoded), the
    empty key twice, or a key repeated in a nested object.

    Reproduces buggy incremental JSON writers; parsers disagree on which
    value wins, so what runs differs from what was checked.
    Label: blocked ``duplicate_key`` (slot rank 7).
    Shrinks toward: the first free call, its first key repeated at the top.
    """
    call = pick_call(draw, turn, fx)
    text = text_of(turn, call)
    value = jt.loads(text)
    keys = jt.top_keys(text)
    scalar = jt.dumps(draw(st.sampled_from([1, "x", None, True])))
    kind = draw(st.sampled_from(["again", "escaped", "empty", "nested"]))
    if kind in ("again", "escaped") and keys:
        key = draw(st.sampled_from(keys))
        spelled = jt.dump_string(key, escape="all" if kind == "escaped" else "raw")
        new = jt.add_member(text, f"{spelled}: {scalar}")
    elif kind == "nested":
        path = draw(st.sampled_from(_nested_objects(value)))
        node = value
        for part in path:
            node = node[part]
        if node:
            key = draw(st.sampled_from(list(node)))
            new = _dumps_with_extra(value, path, jt.dump_string(key) + ":" + scalar)
        else:
            new = _dumps_with_extra(value, path, '"k":1,"k":' + scalar)
    else:
        key = "" if kind == "empty" else jt.fresh_key(text)
        spelled = jt.dump_string(key)
        new = jt.add_member(text, f"{spelled}: 1, {spelled}: {scalar}")
    _dup_key(draw, turn, fx, call, new)


def inject_non_finite(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Add ``NaN``, ``Infinity`` or ``-Infinity`` to the arguments (as a
    member value or inside an array).

    Reproduces Python ``json.dumps`` output (``allow_nan=True``) and
    JavaScript-ish writers; strict consumers reject it, lenient ones pass
    ``nan`` to tools.
    Label: blocked ``non_finite_number`` (slot rank 7).
    Shrinks toward: the first free call, ``NaN`` as a new member.
    """
    call = pick_call(draw, turn, fx)
    text = text_of(turn, call)
    token = draw(st.sampled_from(["NaN", "Infinity", "-Infinity"]))
    value = draw(st.sampled_from([token, f"[1, {token}]", f'{{"v": {token}}}']))
    _non_finite(draw, turn, fx, call, jt.add_member(text, f'"{jt.fresh_key(text)}": {value}'))


_LONE = [
    "\\ud800",
    "\\udfff",
    "\\ud83dx",
    "\\ude00\\ud83d",
    "\\ud83d\\u0041",
    "\\uD83D",
    "\\ud83d\\ud83d",
    "a\\udc00b",
]


def lone_surrogate(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Put an unpaired surrogate escape in the arguments (a lone high or
    low half, a reversed pair, a high half followed by a non-surrogate),
    in a string value or in a key.

    Reproduces writers that split astral characters into UTF-16 halves
    and drop one; the text has no UTF-8 form.
    Label: blocked ``invalid_unicode`` (slot rank 7).
    Shrinks toward: the first free call, ``"\\ud800"`` as a new member.
    """
    call = pick_call(draw, turn, fx)
    text = text_of(turn, call)
    bad = draw(st.sampled_from(_LONE))
    if draw(st.booleans()):
        member = f'"{bad}": 1'
    else:
        member = f'"{jt.fresh_key(text)}": "{bad}"'
    _surrogate(draw, turn, fx, call, jt.add_member(text, member))


def object_fragment(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send one arguments fragment as a JSON value that is not a string
    (the arguments object itself, ``{}``, ``[]``, a number, ``true``;
    Anthropic, Responses and Bedrock also ``null`` or no text field), or
    (drawn) the call's id or name as a non-string (a number, an object, an
    array, ``true``).  Responses: the fragment is a
    ``function_call_arguments.delta``, or (drawn) the restatement in
    ``function_call_arguments.done`` or the added item's ``arguments``;
    the id is ``call_id`` (on the added and the closing item).  Bedrock:
    ``toolUse.input`` of a delta, ``toolUseId``/``name`` of the start.

    Reproduces servers (and SDK shims) that put the parsed object in
    ``arguments`` (``input``) instead of its text, and numeric ids.
    Label: blocked ``non_string_fragment`` (found while reading).
    Shrinks toward: the first free call's first fragment, as the object.
    """
    call = pick_call(draw, turn, fx)
    stream_again(turn, call)  # the fragment must be on the wire
    text = text_of(turn, call)
    field = draw(st.sampled_from(["arguments", "id", "name"]))
    where = "delta"
    if field == "arguments" and turn.wire.restates:
        where = draw(st.sampled_from(["delta", "arguments_done", "added_item"]))
    if where != "delta":
        value = draw(st.sampled_from([jt.loads(text), {}, [], 1, True]))
        restate = turn.step_of("restate", call)
        if where == "arguments_done" and restate is not None:
            turn.steps[restate].text = value
        else:
            call.start_input = value
    elif field == "arguments":
        if not turn.frag_steps(call):
            set_text(draw, turn, call, text)
        frags = turn.frag_steps(call)
        at = frags[draw(st.integers(0, len(frags) - 1))]
        options: list[Any] = [jt.loads(text), {}, [], 1, True]
        if turn.blocky and not turn.wire.blank_fragments:
            options += [None, MISSING]
        turn.steps[at].text = draw(st.sampled_from(options))
    else:
        value = draw(st.sampled_from([7, {field: "x"}, [field], True]))
        setattr(call, field, value)
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "non_string_fragment")


def rename_tool(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Rename one call to a tool that has no schema: a suffix, other case,
    a trailing space, a ``functions.`` prefix, a Cyrillic look-alike...

    Reproduces models that hallucinate tool names and servers that prefix
    them; clients that dispatch by fuzzy match.
    Label: blocked ``unknown_tool`` (slot rank 9).
    Shrinks toward: the first free call, suffix ``_v2``.
    """
    call = pick_call(draw, turn, fx)
    name = call.name
    options = [
        name + "_v2",
        name.upper(),
        name + " ",
        "functions." + name,
        name.replace("a", "\u0430").replace("e", "\u0435"),
        name[:-1],
        "unknown_tool",
    ]
    options = [o for o in options if o and o != name and o not in turn.tool_schemas]
    call.name = draw(st.sampled_from(options))
    fx.claim(call)
    fx.slot(call, lb.RANK_UNKNOWN_TOOL, "unknown_tool")


def prefill_input(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Anthropic: put a non-empty ``input`` in ``content_block_start`` and
    also stream the arguments as ``input_json_delta`` text.

    Reproduces proxies that convert non-streamed responses and keep the
    input, and clients that merge (or pick) one of the two.
    Label: blocked ``conflicting_input`` (slot rank 5).
    Shrinks toward: the first free call, its own arguments as start input.
    """
    call = pick_call(draw, turn, fx)
    text = text_of(turn, call)
    value = jt.loads(text)
    set_text(draw, turn, call, text)
    call.start_input = value if value else draw(st.sampled_from([{"prefill": True}, {"a": 1}]))
    fx.claim(call)
    fx.slot(call, lb.RANK_CONFLICT, "conflicting_input")


def restated_calls(turn: Turn, fx: Effects) -> list[Call]:
    return [
        c
        for c in free_calls(turn, fx)
        if turn.step_of("restate", c) is not None and turn.step_of("stop", c) is not None
    ]


def mismatch_done(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Responses: restate other arguments than the deltas streamed, in
    ``function_call_arguments.done`` or (drawn) in the closing
    ``output_item.done`` item: the text without its last character, the
    same object re-serialized (other whitespace, key order, escapes), the
    empty string, the text plus a space, another object.

    Reproduces servers whose final event is built from another buffer than
    the deltas (re-serialized, truncated, or from another call), and clients
    that execute the restated arguments (or the deltas) without comparing.
    Label: blocked ``arguments_mismatch`` (found while reading; the call is
    claimed).
    Shrinks toward: the first free call, ``function_call_arguments.done``
    without the last character.
    """
    call = draw(st.sampled_from(restated_calls(turn, fx)))
    text = joined(turn, call)
    where = draw(st.sampled_from(["arguments_done", "item_done"]))
    kind = draw(st.sampled_from(["drop_last", "reencoded", "empty", "extra_space", "other"]))
    if kind == "drop_last":
        new = text[:-1]
    elif kind == "reencoded":
        value = jt.draw_reorder(draw, jt.loads(text))
        new = jt.dumps(value, **jt.draw_style(draw))
    elif kind == "empty":
        new = ""
    elif kind == "extra_space":
        new = text + " "
    else:
        new = draw(st.sampled_from(['{"city": "Rome"}', "{}", '{"a": 1}']))
    if new == text:
        new = text + " "
    step = turn.steps[turn.step_of("restate" if where == "arguments_done" else "stop", call)]  # type: ignore[index]
    step.text = new
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "arguments_mismatch")
