"""The ledger route of ``validate_bytes``: a file read by the bare C scanner
is kept only when its colon count proves it strict (``toolstream/ledger.py``).

The route must be taken on ordinary files (or it is dead weight) and must
never give a report that the strict parser's route would not: every file
here is validated both ways and the reports compared byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.builders import (
    anthropic,
    anthropic_turn,
    call,
    chunk,
    openai,
    tool_block,
)
from toolstream import Code, validate_bytes
from toolstream.api import _validate_proving_strict, _validate_strictly_parsed
from toolstream.ledger import _walk
from toolstream.limits import Limits

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "corpus" / "seeds").glob("*.json"))
CASES = sorted((ROOT / "corpus" / "cases").rglob("*.json"))
LIMITS = Limits()

PARTS = tuple('{"city": "Pa:ris", "note": "a\\"b:c"}'[i : i + 3] for i in range(0, 36, 3))


def long_openai() -> dict[str, Any]:
    """Two interleaved calls whose fragments make runs."""
    chunks = [chunk(call(0, "call_1", "weather", "")), chunk(call(1, "call_2", "weather", ""))]
    for part in PARTS:
        chunks += [chunk(call(0, args=part)), chunk(call(1, args=part))]
    chunks.append(chunk(finish="tool_calls"))
    for item in chunks:
        item.update(id="chatcmpl-1", object="chat.completion.chunk", model="m:1", created=1)
    return openai(chunks, request={"tool_choice": "auto"})


def long_anthropic() -> dict[str, Any]:
    return anthropic(
        anthropic_turn(tool_block(0, "toolu_1", PARTS), tool_block(1, "toolu_2", PARTS))
    )


BUILT = {"openai": long_openai(), "anthropic": long_anthropic()}


def both_ways(data: bytes, limits: Limits | None = None) -> str:
    """The report, after checking that both routes give it (whatever the
    file's size, which decides the route validate_bytes takes first)."""
    strict = _validate_strictly_parsed(data, limits).to_json()
    assert validate_bytes(data, limits=limits).to_json() == strict
    ledger = _validate_proving_strict(data, limits or LIMITS)
    if ledger is not None:
        assert ledger.to_json() == strict
    return strict


def dump(value: Any, repeat: Any = None, separators: tuple[str, str] = (",", ":")) -> str:
    """JSON text of ``value``; the object ``repeat`` (by identity) writes
    its first member twice."""
    comma, colon = separators
    if isinstance(value, dict):
        members = [json.dumps(k) + colon + dump(v, repeat, separators) for k, v in value.items()]
        if value is repeat and members:
            members.append(members[0])
        return "{" + comma.join(members) + "}"
    if isinstance(value, list):
        return "[" + comma.join(dump(v, repeat, separators) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def objects(value: Any) -> list[dict[str, Any]]:
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


def fixtures() -> dict[str, Any]:
    out = {p.name: json.loads(p.read_bytes()) for p in SEEDS}
    out.update(BUILT)
    return out


# -- the route is taken ------------------------------------------------------


@pytest.mark.parametrize("name", sorted(fixtures()))
def test_clean_files_are_proven_strict(name: str) -> None:
    fixture = fixtures()[name]
    for separators in ((",", ":"), (", ", ": ")):
        data = dump(fixture, separators=separators).encode()
        report = _validate_proving_strict(data, LIMITS)
        assert report is not None, "the ledger did not prove a clean file"
        assert report.to_json() == _validate_strictly_parsed(data, None).to_json()


def test_runs_are_vouched_for_by_their_profile() -> None:
    # The built streams are mostly runs; a profile that stopped vouching
    # would leave the ledger walking every item (correct, but slow).
    from toolstream.api import _ParsedGate
    from toolstream.envelope import check_envelope

    for name, fixture in BUILT.items():
        envelope = check_envelope(fixture)
        gate = _ParsedGate(envelope.profile, envelope.tool_schemas, envelope.request)
        ledger = gate.feed_counting(envelope.stream)
        runs = ledger._runs
        assert sum(count for _, count, _ in runs) >= len(PARTS), name
        for start, count, tally in runs:
            assert tally is not None, name
            exact = [_walk(item, 0, 1000) for item in envelope.stream[start : start + count]]
            assert tally[0] == sum(t[0] for t in exact if t), name  # members
            assert tally[1] == sum(t[1] for t in exact if t), name  # string colons
            assert tally[2] >= max(t[2] for t in exact if t), name  # depth


def test_corpus_cases_agree_both_ways() -> None:
    # A deterministic sample: every 25th case of the shipped corpus.
    assert CASES, "no corpus cases found"
    proven = 0
    for path in CASES[::25]:
        data = path.read_bytes()
        both_ways(data)
        proven += _validate_proving_strict(data, LIMITS) is not None
    assert proven > len(CASES[::25]) // 2


# -- what the count must catch -----------------------------------------------


@pytest.mark.parametrize("name", sorted(fixtures()))
def test_a_repeated_member_in_any_object_is_found(name: str) -> None:
    fixture = fixtures()[name]
    for target in objects(fixture):
        if not target:
            continue
        data = dump(fixture, repeat=target).encode()
        # The parsed value equals the clean one: only the count can tell.
        assert json.loads(data) == fixture
        assert _validate_proving_strict(data, LIMITS) is None
        report = json.loads(both_ways(data))
        assert report["findings"][0]["code"] == Code.INVALID_ENVELOPE.value
        assert "duplicate key" in report["findings"][0]["message"]


@pytest.mark.parametrize("hex_digit", ["a", "A"])
def test_an_escaped_colon_cannot_pay_for_a_repeated_key(hex_digit: str) -> None:
    # One colon written as \u003a inside a string, one member written twice:
    # the decoded strings gain the colon the members lose.  Such files go to
    # the strict parser.
    fixture = dict(long_anthropic(), meta={"note": "a:b"})
    target = fixture["events"][3]
    text = dump(fixture, repeat=target).replace('"a:b"', '"a\\u003' + hex_digit + 'b"')
    data = text.encode()
    assert _validate_proving_strict(data, LIMITS) is None
    report = json.loads(both_ways(data))
    assert "duplicate key" in report["findings"][0]["message"]


@pytest.mark.parametrize("profile", sorted(BUILT))
def test_nesting_hidden_in_a_run_item_is_found(profile: str) -> None:
    fixture = json.loads(json.dumps(BUILT[profile]))
    stream = fixture["chunks" if profile == "openai" else "events"]
    deep: Any = 0
    for _ in range(LIMITS.max_fixture_depth):
        deep = [deep]
    stream[len(stream) // 2]["extra"] = deep
    data = dump(fixture).encode()
    assert _validate_proving_strict(data, LIMITS) is None
    report = json.loads(both_ways(data))
    assert report["findings"][0]["code"] == Code.LIMIT_EXCEEDED.value


# -- at random ----------------------------------------------------------------

_keys = st.text(alphabet='ab:"\\', max_size=3)
_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(alphabet='a:{}[]"\\ ', max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_keys, inner, max_size=3),
    max_leaves=8,
)


@settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(
    name=st.sampled_from(sorted(fixtures())),
    where=st.integers(0, 10_000),
    key=_keys,
    value=_values,
    repeat=st.booleans(),
    separators=st.sampled_from([(",", ":"), (", ", ": "), (" , ", " : ")]),
)
def test_random_extra_members_agree_both_ways(
    name: str,
    where: int,
    key: str,
    value: Any,
    repeat: bool,
    separators: tuple[str, str],
) -> None:
    fixture = json.loads(json.dumps(fixtures()[name]))
    targets = objects(fixture)
    target = targets[where % len(targets)]
    target[key] = value
    data = dump(fixture, repeat=target if repeat else None, separators=separators).encode()
    both_ways(data)


@pytest.mark.parametrize("extra", [-1, 0, 1])
@pytest.mark.parametrize("where", ["meta", "run item", "other item"])
def test_depth_at_the_limit_agrees_both_ways(where: str, extra: int) -> None:
    # The fixture's own depth, counted by the ledger from the levels it
    # walks or the profile vouches for, must meet the strict parser's count
    # exactly at the limit.
    fixture = json.loads(json.dumps(BUILT["anthropic"]))
    events = fixture["events"]
    limit = 20
    if where == "meta":
        target, room = fixture.setdefault("meta", {}), limit - 2  # fixture > meta
    elif where == "run item":
        target, room = events[3]["delta"], limit - 4  # fixture > events > event > delta
    else:
        target, room = events[-1], limit - 3  # fixture > events > message_stop
    deep: Any = 0
    for _ in range(room + extra):
        deep = [deep]
    target["x"] = deep
    data = dump(fixture).encode()
    limits = Limits(max_fixture_depth=limit)
    report = json.loads(both_ways(data, limits))
    too_deep = any("nesting deeper" in f["message"] for f in report["findings"])
    assert too_deep is (extra > 0)
    # The ledger takes every case up to the limit itself: an event with an
    # extra member is not of the profile's exact run shape, so it is fed
    # alone and walked.
    proven = _validate_proving_strict(data, limits) is not None
    assert proven is (extra <= 0)


def test_a_run_deeper_than_the_limit_is_refused() -> None:
    # The depth a profile vouches for counts like a walked one: the stream
    # item sits on level 3, below the fixture object and its stream array.
    from toolstream.ledger import Ledger

    fixture = {"events": [{"a": [0]}]}  # 2 members, 2 colons in the file
    for limit, proven in [(4, True), (3, False)]:
        ledger = Ledger()
        ledger.add(0, 1, (1, 0, 2))  # the item: 1 member, 2 levels
        assert ledger.settle(fixture, "events", 2, limit) is proven
    ledger = Ledger()
    ledger.add(0, 1, (1, 0, 2))
    assert ledger.settle(fixture, "events", 3, 4) is False  # a member nobody counted


def test_validate_bytes_takes_the_ledger_route_from_the_size_threshold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toolstream import api

    small = dump(BUILT["anthropic"]).encode()
    big_fixture = json.loads(json.dumps(BUILT["anthropic"]))
    last_fragment = big_fixture["events"][1 + len(PARTS)]["delta"]  # after the closing brace
    last_fragment["partial_json"] += " " * api.LEDGER_MIN_BYTES
    big = dump(big_fixture).encode()
    assert len(small) < api.LEDGER_MIN_BYTES <= len(big)

    expected = {data: both_ways(data) for data in (small, big)}

    def refuse(*args: Any) -> Any:
        raise AssertionError("wrong route")

    with monkeypatch.context() as patch:
        patch.setattr(api, "_validate_strictly_parsed", refuse)
        assert validate_bytes(big).to_json() == expected[big]
    with monkeypatch.context() as patch:
        patch.setattr(api, "_validate_proving_strict", refuse)
        assert validate_bytes(small).to_json() == expected[small]


def test_a_recursion_error_in_the_ledger_route_defers_to_the_strict_route(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The ledger route runs the gate before the depth is known, so a value
    # nested past what the gate's own code can recurse into must send the
    # file to the strict route (which refuses the depth first), not escape.
    from toolstream import api

    fixture = dict(long_anthropic(), meta={"pad": "x" * api.LEDGER_MIN_BYTES})
    data = dump(fixture).encode()
    expected = both_ways(data)

    def too_deep(*args: Any) -> Any:
        raise RecursionError

    monkeypatch.setattr(api._ParsedGate, "feed_counting", too_deep)
    assert api._validate_proving_strict(data, LIMITS) is None
    assert validate_bytes(data).to_json() == expected


@pytest.mark.parametrize("where", ["schema", "start input"])
def test_nesting_near_the_recursion_limit_agrees_both_ways(where: str) -> None:
    # Past the fixture's depth limit but shallow enough for the bare C
    # scanner, the value reaches the gate before the ledger refuses it.
    import sys

    from toolstream import api

    top = sys.getrecursionlimit()
    for depth in range(top - 40, top + 1, 4):
        fixture = dict(long_anthropic(), meta={"pad": "x" * api.LEDGER_MIN_BYTES})
        deep = "[" * depth + "]" * depth
        text = dump(fixture)
        if where == "schema":
            text = text.replace('"weather":{', '"weather":{"x":' + deep + ",", 1)
        else:
            text = text.replace('"input":{}', '"input":{"a":' + deep + "}", 1)
        report = json.loads(both_ways(text.encode()))
        assert report["findings"][0]["code"] == Code.LIMIT_EXCEEDED.value, depth
