"""Operators on streamed arguments assigned at JSON paths (Vertex AI
``partialArgs``, formats whose wire has ``partial_args``): one re-delivery
that keeps the verdict, and one operator per reassembly rule broken.

A streamed call's parts are its ``start``, ``frag`` and ``stop`` steps,
whose ``text`` is the list of their ``partialArgs`` entries
(:mod:`..model.gemini`).  New entries go in a part of their own at a
*quiet* point: after the call's start or one of its continuation parts,
where no string is continuing (so the entry is read as itself, not as the
next piece of a string).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .. import labels as lb
from ..labels import Effects
from ..model import MISSING, Call, Step, Turn
from ..model import gemini as gm
from .common import Draw

# -- where ------------------------------------------------------------------


def streamed_calls(turn: Turn, fx: Effects) -> list[Call]:
    """Free streamed calls, in slot order."""
    return [c for c in turn.slot_calls() if c.streamed and fx.is_free(c)]


def restreamable(turn: Turn, fx: Effects) -> list[Call]:
    """Free calls whose arguments can be streamed (an object with no empty
    container inside) or already are."""
    return [
        c
        for c in turn.slot_calls()
        if fx.is_free(c) and (c.streamed or gm.leaves(gm.value_of(turn, c)) is not None)
    ]


def quiet_points(turn: Turn, call: Call) -> list[tuple[int, set[str]]]:
    """``(position, paths assigned before it)`` for every quiet point of a
    streamed call (module doc), in stream order."""
    out = []
    assigned: set[str] = set()
    continuing: str | None = None
    for i in gm.call_steps(turn, call):
        step = turn.steps[i]
        for item in step.text if isinstance(step.text, list) else []:
            assigned.add(item["jsonPath"])
            more = item.get("willContinue") is True
            continuing = item["jsonPath"] if more else None
        if step.kind != "stop" and continuing is None:
            out.append((i + 1, set(assigned)))
    return out


def entries_of(turn: Turn, call: Call) -> list[tuple[int, int, dict[str, Any]]]:
    """The call's ``partialArgs`` entries (see :func:`..model.gemini.entries`)."""
    return gm.entries(turn, call)


def _insert_part(turn: Turn, call: Call, at: int, items: list[dict[str, Any]]) -> None:
    start = turn.step_of("start", call)
    assert start is not None
    step = Step("frag", target=call, text=items, tmpl_chunk=turn.steps[start].tmpl_chunk)
    turn.steps[at:at] = [step]


def _string_paths(turn: Turn, call: Call) -> list[str]:
    return sorted(
        {item["jsonPath"] for _, _, item in gm.entries(turn, call) if "stringValue" in item}
    )


def _fresh(turn: Turn, call: Call, stem: str) -> str:
    value = gm.value_of(turn, call)
    keys = set(value) if isinstance(value, dict) else set()
    n = 0
    while f"{stem}{n or ''}" in keys:
        n += 1
    return f"{stem}{n or ''}"


# -- verdict-preserving -------------------------------------------------------


def restream_arguments(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Deliver one call's arguments again in another Gemini form: streamed
    ``partialArgs`` with every string split into 1-4 continued pieces, the
    entries grouped into parts as drawn, bare ``{"willContinue": true}``
    parts in between, member names spelled ``['name']`` (the other
    normalized form), and the call ended by an empty ``{}`` part or by its
    last ``partialArgs`` part; or (drawn) a whole call with ``args`` (for
    arguments ``{}``, drawn: without ``args``, which the API reference
    documents as optional).

    Reproduces Vertex AI's streamed function-call arguments next to the
    Gemini API's whole calls; clients that join the pieces of a string
    wrongly, or only handle one of the forms.
    Label: pass, same calls (the keys keep their first-assignment order).
    Shrinks toward: the first such call, streamed in one part, no split.
    """
    call = draw(st.sampled_from(restreamable(turn, fx)))
    value = gm.value_of(turn, call)
    if draw(st.booleans()):
        without_args = value == {} and draw(st.booleans())
        gm.make_whole(turn, call, MISSING if without_args else value)
        return
    items = gm.draw_entries(draw, value)
    if draw(st.booleans()):
        for item in items:
            segments = gm.segments_of(item["jsonPath"])
            item["jsonPath"] = "$" + "".join(
                f"[{s}]" if isinstance(s, int) else gm.quote(s) for s in segments
            )
    gm.stream(draw, turn, call, items, end=draw(st.booleans()))
    start = turn.step_of("start", call)
    assert start is not None
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.sampled_from([p for p, _ in quiet_points(turn, call)]))
        bare = Step("frag", target=call, text=MISSING, tmpl_chunk=turn.steps[start].tmpl_chunk)
        turn.steps[at:at] = [bare]


def late_call_id(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send a streamed call's ``id`` on one of its later parts (a
    continuation or its end) instead of the part that opens it.

    Reproduces servers that only know the id once the call is complete;
    clients that key the call by the id of its first part.
    Label: pass, same calls (the call is identified by its position until
    the id comes).
    Shrinks toward: the first streamed call, the id on its next part.
    """
    call = draw(st.sampled_from(id_targets(turn, fx)))
    own = gm.call_steps(turn, call)
    at = draw(st.sampled_from(own[1:]))
    for i in own:
        turn.steps[i].carries_id = i == at


def id_targets(turn: Turn, fx: Effects) -> list[Call]:
    return [
        c
        for c in turn.slot_calls()
        if c.streamed and isinstance(c.id, str) and len(gm.call_steps(turn, c)) > 1
    ]


# -- verdict-breaking ---------------------------------------------------------


def reassign_path(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Assign a value at a path of a streamed call that was already
    assigned (a number, ``true``, ``null`` or a string; a string only when
    the first value was not a continued string), in a part of its own at a
    quiet point after the first assignment.

    Reproduces servers that resend an entry on a retry, and clients that
    let the last value win (or the first): what runs is not what was
    checked.
    Label: blocked ``duplicate_assignment`` (read-time; the call is
    claimed).
    Shrinks toward: the first streamed call, its first path, ``1``, right
    after.
    """
    call, at, path = draw(st.sampled_from(_reassignable(turn, fx)))
    continued = any(
        item["jsonPath"] == path and item.get("willContinue") is True
        for _, _, item in gm.entries(turn, call)
    )
    options: list[Any] = [1, True, None] if continued else [1, True, None, "again"]
    _insert_part(turn, call, at, [gm.entry(path, draw(st.sampled_from(options)))])
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "duplicate_assignment")


def _reassignable(turn: Turn, fx: Effects) -> list[tuple[Call, int, str]]:
    out: list[tuple[Call, int, str]] = []
    for call in streamed_calls(turn, fx):
        for at, assigned in quiet_points(turn, call):
            out.extend((call, at, path) for path in sorted(assigned))
    return out


def retype_container(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Use a container of a streamed call as the other type, or a scalar
    as a container, in a part of its own at a quiet point: ``$[0]`` (the
    root object as an array), or below an assigned path (``.x`` or ``[0]``
    under it: an object used as an array, an array as an object, a string
    or number used as either).

    Reproduces merge code that creates containers from the path's syntax
    and silently overwrites; clients then run a different object.
    Label: blocked ``path_type_conflict`` (read-time; the call is claimed).
    Shrinks toward: the first streamed call, ``$[0]`` right after its start.
    """
    call = draw(st.sampled_from(streamed_calls(turn, fx)))
    at, assigned = draw(st.sampled_from(quiet_points(turn, call)))
    targets = ["$", *sorted(assigned)]
    base = draw(st.sampled_from(targets))
    if base == "$":
        path = "$[0]"
    else:
        segments = gm.segments_of(base)
        # Below the leaf (a scalar): either kind of segment conflicts; below
        # a container on the way to it: the kind that container is not.
        cut = draw(st.integers(0, len(segments) - 1))
        if cut == len(segments) - 1:
            path = base + draw(st.sampled_from([".x", "[0]"]))
        else:
            is_object = isinstance(segments[cut + 1], str)
            path = gm.path_of(segments[: cut + 1]) + ("[0]" if is_object else ".x")
    value = draw(st.sampled_from([1, "x"]))
    _insert_part(turn, call, at, [gm.entry(path, value)])
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "path_type_conflict")


def skip_index(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Assign an array element past the array's end in a streamed call: a
    new member's array starting at index 1-3, or at an index of 20 digits
    (which must be reported, never allocated), in a part of its own at a
    quiet point.

    Reproduces dropped entries (the element before was lost) and merge
    code that pads arrays with nulls.
    Label: blocked ``array_index_gap`` (read-time; the call is claimed).
    Shrinks toward: the first streamed call, index 1, right after its
    start.
    """
    call = draw(st.sampled_from(streamed_calls(turn, fx)))
    at, _ = draw(st.sampled_from(quiet_points(turn, call)))
    index = draw(st.sampled_from(["1", "2", "3", "10000000000000000000"]))
    path = f"$.{_fresh(turn, call, 'items')}[{index}]"
    _insert_part(turn, call, at, [gm.entry(path, draw(st.sampled_from([1, "x"])))])
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "array_index_gap")


def _split_string(turn: Turn, call: Call, path: str) -> tuple[int, int]:
    """Make sure the string at ``path`` is continued (split its single
    entry in two when it is not); return where its first piece is."""
    for i, k, item in gm.entries(turn, call):
        if item["jsonPath"] != path:
            continue
        if item.get("willContinue") is not True:
            text = item["stringValue"]
            items = list(turn.steps[i].text)
            items[k : k + 1] = [gm.entry(path, text[:1], True), gm.entry(path, text[1:])]
            turn.steps[i].text = items
        return i, k
    raise AssertionError(path)


def break_continuation(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Break a continued string of a streamed call (a single-piece string is
    first split in two): its next piece goes to another path (another
    member, or a new one), or is not a string; or its last piece says
    ``willContinue`` too, so the next entry or the call's end breaks it; or
    the string is continued again (right after its last piece, in the same
    part) after it ended.

    Reproduces servers that interleave the pieces of two strings, and
    clients that append each piece to whatever string is open (or to the
    path's current value).
    Label: blocked ``broken_string_continuation`` (read-time; the call is
    claimed).
    Shrinks toward: the first streamed call, its first string, the next
    piece on a new path.
    """
    call, path = draw(st.sampled_from(string_targets(turn, fx)))
    _split_string(turn, call, path)
    pieces = [(i, k) for i, k, item in gm.entries(turn, call) if item["jsonPath"] == path]
    kind = draw(st.sampled_from(["other_path", "not_string", "never_ends", "again"]))
    i, k = pieces[1]
    if kind in ("other_path", "not_string"):
        items = list(turn.steps[i].text)
        piece = dict(items[k])
        if kind == "other_path":
            others = [p for p in _string_paths(turn, call) if p != path]
            fresh = "$." + _fresh(turn, call, "other")
            piece["jsonPath"] = draw(st.sampled_from([fresh, *others]))
        else:
            piece = gm.entry(path, draw(st.sampled_from([1, True, None])))
        items[k] = piece
        turn.steps[i].text = items
    elif kind == "never_ends":
        i, k = pieces[-1]
        items = list(turn.steps[i].text)
        items[k] = {**items[k], "willContinue": True}
        turn.steps[i].text = items
    else:
        i, k = pieces[-1]
        items = list(turn.steps[i].text)
        items.insert(k + 1, gm.entry(path, "again", draw(st.booleans())))
        turn.steps[i].text = items
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "broken_string_continuation")


def string_targets(turn: Turn, fx: Effects) -> list[tuple[Call, str]]:
    return [(c, p) for c in streamed_calls(turn, fx) for p in _string_paths(turn, c)]


def _drop_end(draw: Draw, turn: Turn, call: Call) -> None:
    """Drop the call's end part or (drawn) every part of it from a later
    one on."""
    own = gm.call_steps(turn, call)
    cut = own[-1]
    if len(own) > 2 and draw(st.booleans()):
        cut = draw(st.sampled_from(own[1:-1]))
    drop = {i for i in own if i >= cut}
    turn.steps = [s for i, s in enumerate(turn.steps) if i not in drop]


def _later_calls(turn: Turn, call: Call) -> list[Call]:
    return [c for c in turn.slot_calls() if c.index > call.index]


def lose_will_continue(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Lose the end of a streamed call and the rest of the candidate's
    calls: drop its last part (the one without ``willContinue``), or (drawn)
    every part of it from a later one on, and every later call; so the call
    (maybe in the middle of a string) is still continuing when the stream
    ends (the ``finishReason`` and the other chunks stay).

    Reproduces servers that drop the closing ``functionCall: {}`` (or the
    connection after the call's last piece), and clients that execute what
    they have at the end of the stream.
    Label: blocked ``missing_terminal`` (the call is claimed; the later
    calls, free until now, are gone).
    Shrinks toward: the first such call, only its end part dropped.
    """
    call = draw(st.sampled_from(losable(turn, fx)))
    later = {id(c) for c in _later_calls(turn, call)}
    turn.steps = [s for s in turn.steps if id(s.target) not in later]
    turn.calls = [c for c in turn.calls if id(c) not in later]
    _drop_end(draw, turn, call)
    fx.claim(call)
    fx.slot(call, lb.RANK_TERMINAL, "missing_terminal")


def losable(turn: Turn, fx: Effects) -> list[Call]:
    """Free streamed calls whose later calls are all free."""
    return [
        c
        for c in streamed_calls(turn, fx)
        if all(fx.is_free(later) for later in _later_calls(turn, c))
    ]


def unended_call(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Lose the end of a streamed call that another call follows: drop its
    last part (the one without ``willContinue``), or (drawn) every part of
    it from a later one on, so the next call's ``name`` arrives while it
    still continues.

    Reproduces servers that drop the closing ``functionCall: {}``, and
    clients that end a call when the next one starts (or merge the two).
    Label: blocked ``identity_collision`` on the call left open (a new
    ``name`` while a streamed call continues); the call is claimed.
    Shrinks toward: the first such call, only its end part dropped.
    """
    call = draw(st.sampled_from(followed(turn, fx)))
    _drop_end(draw, turn, call)
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "identity_collision")


def followed(turn: Turn, fx: Effects) -> list[Call]:
    """Free streamed calls that another call follows."""
    return [c for c in streamed_calls(turn, fx) if _later_calls(turn, c)]


def foreign_call_id(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Split a call across parts with the wrong id: one of a streamed
    call's later parts (a continuation, its end) carries an id other than
    the call's (another call's id, the call's id with a suffix), or the
    call had none and a later part brings two different ones.

    Reproduces gateways that re-key each chunk (a fresh id per part) and
    clients that start a new call for every new id, or merge two calls.
    Label: blocked ``identity_collision`` (read-time; the call is claimed).
    Shrinks toward: the first streamed call, its next part.
    """
    call, at = draw(st.sampled_from(foreign_id_points(turn, fx)))
    step = turn.steps[at]
    step.patch = {**(step.patch or {}), "id": f"{call.id}_2"}
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "identity_collision")


def foreign_id_points(turn: Turn, fx: Effects) -> list[tuple[Call, int]]:
    """(call, position) of the later parts of free streamed calls with an
    id that do not carry the id themselves."""
    return [
        (call, i)
        for call in streamed_calls(turn, fx)
        if isinstance(call.id, str)
        for i in gm.call_steps(turn, call)[1:]
        if not turn.steps[i].carries_id
    ]


def unnormalized_path(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Spell one entry's ``jsonPath`` of a streamed call in a form that is
    not a normalized path: without ``$``, a double-quoted
    ``["name"]``, a descendant ``..name``, a wildcard ``.*``, a space after
    ``$``, a trailing ``.``, an index with a leading zero or a sign.

    Reproduces servers that write JSONPath loosely (or dotted JavaScript
    paths), and clients that split paths on dots.
    Label: blocked ``invalid_json_path`` (read-time; the call is claimed).
    Shrinks toward: the first streamed call, its first entry, no ``$``.
    """
    call = draw(st.sampled_from([c for c in streamed_calls(turn, fx) if gm.entries(turn, c)]))
    i, k, item = draw(st.sampled_from(gm.entries(turn, call)))
    path = item["jsonPath"]
    segments = gm.segments_of(path)
    last = segments[-1]
    spelled = draw(
        st.sampled_from(
            [
                "no_root",
                "double_quoted",
                "descendant",
                "wildcard",
                "space",
                "trailing_dot",
                "index",
            ]
        )
    )
    head = gm.path_of(segments[:-1])
    if spelled == "no_root":
        new = path[1:].lstrip(".") or "x"
    elif spelled == "double_quoted":
        new = head + f'["{last}"]'
    elif spelled == "descendant":
        new = "$.." + (str(last) if isinstance(last, str) else "x")
    elif spelled == "wildcard":
        new = head + ".*"
    elif spelled == "space":
        new = "$ " + path[1:]
    elif spelled == "trailing_dot":
        new = path + "."
    else:
        new = head + draw(st.sampled_from(["[01]", "[-1]", "[+0]"]))
    items = list(turn.steps[i].text)
    items[k] = {**item, "jsonPath": new}
    turn.steps[i].text = items
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "invalid_json_path")


def non_finite_value(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Assign a non-finite number in a streamed call: a ``numberValue``
    ``"NaN"``, ``"Infinity"`` or ``"-Infinity"`` (proto3 JSON's spelling of
    a double that JSON cannot hold) at a new member, in a part of its own at
    a quiet point.

    Reproduces servers that serialize a model's ``nan`` through protobuf's
    JSON mapping, and clients that turn it into a float NaN for the tool.
    Label: blocked ``non_finite_number`` (read-time; the call is claimed).
    Shrinks toward: the first streamed call, ``"NaN"`` right after its
    start.
    """
    call = draw(st.sampled_from(streamed_calls(turn, fx)))
    at, _ = draw(st.sampled_from(quiet_points(turn, call)))
    token = draw(st.sampled_from(["NaN", "Infinity", "-Infinity"]))
    path = "$." + _fresh(turn, call, "ratio")
    _insert_part(turn, call, at, [{"jsonPath": path, "numberValue": token}])
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "non_finite_number")
