"""The profiles' promise to the ledger: what ``Profile.tally``
and ``Profile.tally_item`` count for the items the profile vouches for never
exceeds an exact walk of those items, and the depth they report is never
below it, whatever extra, repeated or missing members the items hold.

The counts come from each profile's declared item shapes
(``RUN_ITEM``...), the same declarations whose members the window reads;
this property is what ties the two together: a member the window read with
a default (``.get``) instead of a subscript would let an item without it
into a run, and the tally would count a member that is not there.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.builders import (
    anthropic_turn,
    block_stop,
    call,
    chunk,
    json_delta,
    tool_block,
    tool_start,
)
from toolstream.ledger import _walk
from toolstream.limits import Limits
from toolstream.profiles import PROFILES
from toolstream.profiles.anthropic import RUN_ITEM as ANTHROPIC_RUN_ITEM
from toolstream.profiles.openai_chat import RUN_ITEM as CHAT_RUN_ITEM

LIMITS = Limits()
PARTS = ['{"ci', 'ty": "Pa', ':ris"', "}"]


def _opening(profile: str) -> list[Any]:
    """Items that open the slots the runs then continue."""
    if profile == "anthropic":
        return [anthropic_turn(tool_block(0, "toolu_1", ()))[0], tool_start(0)]
    return [chunk(call(0, "call_1", "weather", ""))]


def _run_items(profile: str) -> list[Any]:
    if profile == "anthropic":
        return [json_delta(0, part) for part in PARTS]
    items = [chunk(call(0, args=part)) for part in PARTS]
    for item in items:
        item.update(id="chatcmpl-1", object="chat.completion.chunk", model="m:1", created=1)
    return items


def _whole_call_items() -> list[Any]:
    """Two whole Anthropic tool blocks after the opening's: a run of whole
    calls (the second block's id and name hold colons, which the tally
    counts)."""
    return [
        tool_start(1, "toolu_2", "clock", {}),
        *(json_delta(1, part) for part in PARTS),
        block_stop(1),
        tool_start(2, "toolu:3", "we:ather", {}),
        json_delta(2, "{}"),
        block_stop(2),
    ]


def _others(profile: str) -> list[Any]:
    """Items outside runs that tally_item may vouch for."""
    if profile == "anthropic":
        return [block_stop(0), tool_start(1, "toolu_2", "clock", {})]
    return []


def _objects(value: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.append(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _dump(value: Any, repeats: dict[int, tuple[str, Any]]) -> str:
    """JSON text of ``value``; an object whose id is in ``repeats`` ends
    with that member written once more (the last one wins on reading)."""
    if isinstance(value, dict):
        members = [json.dumps(k) + ":" + _dump(v, repeats) for k, v in value.items()]
        if id(value) in repeats:
            key, again = repeats[id(value)]
            members.append(json.dumps(key) + ":" + json.dumps(again))
        return "{" + ",".join(members) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_dump(v, repeats) for v in value) + "]"
    return json.dumps(value)


# (logprobs and usage: the chat tally counts from the window's refusal of a
# non-None one, so an extra one must never get a chunk into a run)
_keys = st.sampled_from(
    ["x", "a:b", "index", "type", "delta", "function", "arguments", "logprobs", "usage"]
)
# Empty arrays nested past every declared shape: no member, no colon, only
# depth, which a tally that vouched for them would report too low.
_DEEP: list[Any] = []
for _ in range(12):
    _DEEP = [_DEEP]
_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 2)
    | st.text(alphabet="ab:{}", max_size=3)
    | st.just(_DEEP),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(_keys, inner, max_size=2),
    max_leaves=4,
)


@st.composite
def _mutated(draw: st.DrawFn, items: list[Any]) -> list[Any]:
    """``items`` read back from a text where some objects got an extra
    member, a repeated member (with another value) or lost one."""
    items = json.loads(json.dumps(items))
    if not items:
        return items
    repeats: dict[int, tuple[str, Any]] = {}
    for _ in range(draw(st.integers(0, 4))):
        targets = _objects(items)
        target = draw(st.sampled_from(targets))
        action = draw(st.sampled_from(["extra", "repeat", "drop"]))
        if action == "extra":
            target[draw(_keys)] = draw(_values)
        elif action == "repeat" and target:
            repeats[id(target)] = (draw(st.sampled_from(sorted(target))), draw(_values))
        elif action == "drop" and target:
            del target[draw(st.sampled_from(sorted(target)))]
    parsed: list[Any] = json.loads(_dump(items, repeats))
    return parsed


def _exact(items: list[Any]) -> tuple[int, int, int]:
    walks = [_walk(item, 0, 10_000) for item in items]
    assert all(walk is not None for walk in walks)
    return (
        sum(w[0] for w in walks if w),
        sum(w[1] for w in walks if w),
        max(w[2] for w in walks if w),
    )


def _primed(profile: str) -> Any:
    made = PROFILES[profile]({}, LIMITS)
    for pos, item in enumerate(_opening(profile)):
        list(made.feed(item, pos))
    return made


@settings(max_examples=400, deadline=None, database=None)
@given(data=st.data())
def test_a_tally_never_counts_more_than_a_walk(data: st.DataObject) -> None:
    profile = data.draw(st.sampled_from(["openai", "mistral", "anthropic"]), label="profile")
    made = _primed(profile)
    items = data.draw(_mutated(_run_items(profile)), label="items")
    start = len(_opening(profile))
    if profile == "anthropic" and data.draw(st.booleans(), label="whole calls"):
        items = data.draw(_mutated(_whole_call_items()), label="whole-call items")
    run = made.window(items, 0, len(items), start)
    if run is not None:
        tally = made.tally(items, 0, run)
        if tally is not None:
            members, colons, depth = _exact(items[: run.count])
            assert tally[0] <= members
            assert tally[1] <= colons
            assert tally[2] >= depth
    for item in data.draw(_mutated(_others(profile)), label="others"):
        vouched = made.tally_item(item)
        if vouched is not None:
            members, colons, depth = _exact([item])
            assert vouched[0] <= members
            assert vouched[1] <= colons
            assert vouched[2] >= depth


@pytest.mark.parametrize("action", ["extra", "nested", "repeat", "drop"])
def test_each_object_of_a_whole_call_run_changed_once(action: str) -> None:
    # Every object of the two whole blocks, changed in each way: the tally
    # still never counts more than a walk, nor a depth below it (an input
    # that is not {} would be deeper than the start's declared shape).
    count = len(_objects(_whole_call_items()))
    for target_at in range(count):
        items = _whole_call_items()
        target = _objects(items)[target_at]
        repeats: dict[int, tuple[str, Any]] = {}
        if action == "extra":
            target["x:"] = "a:b"
        elif action == "nested":
            target["x"] = {"y": {"z": [1]}}
        elif action == "repeat" and target:
            repeats[id(target)] = (sorted(target)[0], 7)
        elif action == "drop" and target:
            del target[sorted(target)[0]]
        parsed = json.loads(_dump(items, repeats))
        made = _primed("anthropic")
        run = made.window(parsed, 0, len(parsed), len(_opening("anthropic")))
        if run is None:
            continue
        tally = made.tally(parsed, 0, run)
        members, colons, depth = _exact(parsed[: run.count])
        assert tally[0] <= members and tally[1] <= colons and tally[2] >= depth, target_at


@pytest.mark.parametrize("key", ["x", "logprobs", "usage", "finish_reason", "audio", "index"])
def test_each_object_of_a_chat_run_given_a_member_of_only_depth(key: str) -> None:
    # Every object of the chat run, given a member that holds nothing but
    # depth: the tally still never reports a depth below a walk's.  (It
    # counts the choices from the window's checks, its refusal of a
    # non-None logprobs among them; a window that let one through would be
    # caught here, not by the random draws above.)
    count = len(_objects(_run_items("openai")))
    for target_at in range(count):
        items = _run_items("openai")
        _objects(items)[target_at][key] = _DEEP
        parsed = json.loads(json.dumps(items))
        for profile in ("openai", "mistral"):
            made = _primed(profile)
            run = made.window(parsed, 0, len(parsed), len(_opening(profile)))
            tally = None if run is None else made.tally(parsed, 0, run)
            if run is None or tally is None:
                continue
            members, colons, depth = _exact(parsed[: run.count])
            assert tally[0] <= members and tally[1] <= colons, (profile, target_at)
            assert tally[2] >= depth, (profile, target_at)


def test_clean_items_are_counted_exactly() -> None:
    # The bound is tight on the items the shapes describe: a tally that
    # always said (0, 0, big) would pass the property and prove nothing.
    for profile in ("openai", "anthropic"):
        made = _primed(profile)
        items = _run_items(profile)
        run = made.window(items, 0, len(items), len(_opening(profile)))
        assert run is not None and run.count == len(items)
        assert made.tally(items, 0, run) == _exact(items), profile
        for item in _others(profile):
            assert made.tally_item(item) == _exact([item]), profile
    made = _primed("anthropic")
    items = _whole_call_items()
    run = made.window(items, 0, len(items), len(_opening("anthropic")))
    assert run is not None and run.count == len(items) and len(run.whole_calls) == 2
    assert made.tally(items, 0, run) == _exact(items)


def test_the_shapes_are_what_the_tally_counts() -> None:
    assert (ANTHROPIC_RUN_ITEM.members, ANTHROPIC_RUN_ITEM.depth) == (5, 2)
    # chunk, choices, choice, delta, tool_calls, call, function
    assert CHAT_RUN_ITEM.depth == 7
    assert CHAT_RUN_ITEM.exact_members == 3
