"""Proof, after the fact, that a fixture file read without hooks was strict.

Why
---
A fixture file must be strict JSON: no key twice in one object, no deeper
than ``Limits.max_fixture_depth``.  The strict parser
(:func:`toolstream.strict_json.loads_strict`) checks both while it reads, at
a price: a Python call per object and a scan of the file's structure, which
together cost about as much again as ``json.loads``.  The bare C scanner is
as fast as ``json.loads``, but it lets a repeated key silently replace the
first one and does not bound the depth.  The gate reads every item of the
stream anyway; the ledger lets it prove strictness on the way.

Theory of operation
-------------------
Every member of an object owns exactly one colon outside strings.  Say the
file holds ``S`` such colons and ``I`` colons inside strings: counting the
file's colons gives ``S + I``.  The parsed value keeps ``M`` members, with
``M <= S`` and equality exactly when no key repeated.  When no colon is
written as an escape (``\\u003a``; such files go to the strict parser), the
parsed strings hold at most ``I`` colons.

The ledger counts members and string colons of the parsed value *from
below*: every member it counts is a distinct member of the value, every
colon a colon of a distinct parsed string.  If its counts still add up to
the file's ``S + I``, both bounds are tight: ``M = S``, so no key repeated;
and every member of every object was counted, so none escaped the depth
count either (the remaining hiding place, an element of an array, is closed
by counting or checking the length of every array on the way).

The counting is split.  Runs of plain fragments (the bulk of a stream) are
vouched for by their profile (:meth:`Profile.tally`), from the checks its
window already made, and so are the items of a few exact shapes around them
(:meth:`Profile.tally_item`); every other part of the fixture is walked here.  A
tally or a walk may count less than there is (the proof then fails and the
file goes to the strict parser, which reports what is wrong); it must never
count more, and never report a depth below the real one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolstream.tally import Tally

__all__ = ["Ledger"]

_FIXTURE_LEVELS = 2  # the fixture object, then its stream array


def _walk(value: Any, base: int, limit: int) -> Tally | None:
    """Members, string colons and deepest level of ``value`` placed below
    level ``base``; None as soon as a level passes ``limit``."""
    kind = type(value)
    if kind is str:
        return 0, value.count(":"), base
    if kind is not dict and kind is not list:
        return 0, 0, base
    members = colons = 0
    deepest = base
    stack: list[tuple[Any, int]] = [(value, base + 1)]
    while stack:
        node, level = stack.pop()
        if level > deepest:
            if level > limit:
                return None
            deepest = level
        if type(node) is dict:
            members += len(node)
            colons += "".join(node).count(":")
            children = node.values()
        else:
            children = node
        for child in children:
            kind = type(child)
            if kind is str:
                colons += child.count(":")
            elif kind is dict or kind is list:
                stack.append((child, level + 1))
    return members, colons, deepest


class Ledger:
    """Counts kept while a gate reads a fixture's stream; see the module
    docstring for what they prove."""

    __slots__ = ("_runs",)

    def __init__(self) -> None:
        self._runs: list[tuple[int, int, Tally | None]] = []

    def add(self, start: int, count: int, tally: Tally | None) -> None:
        """Items ``start .. start+count-1`` of the stream (a run, or one
        item) were read together; ``tally`` is their profile's count for
        them (None: walk them).  Calls come in stream order."""
        self._runs.append((start, count, tally))

    def settle(
        self, fixture: dict[str, Any], stream_key: str, file_colons: int, max_depth: int
    ) -> bool:
        """Whether the file (with ``file_colons`` colons, none of them
        escaped) held no repeated key and no nesting past ``max_depth``."""
        members = len(fixture)
        colons = "".join(fixture).count(":")
        deepest = _FIXTURE_LEVELS
        stream: Sequence[Any] = fixture[stream_key]
        # What no profile vouched for is walked as one array standing for the
        # fixture object: its other values, and the stream's items between
        # runs as arrays on the stream's own level.
        unvouched: list[Any] = [value for key, value in fixture.items() if key != stream_key]
        at = 0
        for start, count, tally in self._runs:
            if tally is None:
                continue  # left in the gap before the next run
            unvouched.append(stream[at:start])
            at = start + count
            members += tally[0]
            colons += tally[1]
            deepest = max(deepest, _FIXTURE_LEVELS + tally[2])
        unvouched.append(stream[at:])
        walked = _walk(unvouched, 0, max_depth)
        if walked is None:
            return False
        members += walked[0]
        colons += walked[1]
        deepest = max(deepest, walked[2])
        return deepest <= max_depth and members + colons == file_colons
