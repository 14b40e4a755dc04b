"""Runs of whole calls (``Fragments.whole_calls``): an Anthropic stream's
``tool_use`` blocks read in one step, each block's start, fragments and
stop.  The run is a shortcut: every report is the one the per-item route
gives (the window switched off), the one an item-by-item ``Gate`` gives,
and, on the ledger route, the one the strict route gives.

The turns drawn here are made of whole blocks and then spoilt the ways
that must send a block back to ``feed``: an index reused, out of range, a
bool or a large int; an empty or non-string id or name; a start input
that is not ``{}``; an extra or missing member at any level; a stop for
another index or none; a text block or an early ``message_stop`` between
blocks; and limits (slots, argument characters, events) that a run's
blocks would cross.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties.test_gate_incremental import gate_report, per_item_report
from tests.support.builders import (
    block_stop,
    json_delta,
    message_end,
    message_start,
    message_stop,
    text_start,
    tool_start,
)
from toolstream import Gate, Limits, validate
from toolstream.api import _validate_proving_strict, _validate_strictly_parsed
from toolstream.envelope import check_envelope
from toolstream.limits import DEFAULT_LIMITS

SCHEMAS = {
    "weather": {"type": "object", "properties": {"city": {"type": "string"}}},
    "clock": {"type": "object"},
}
PARTS = ['{"ci', 'ty": "Pa', 'ris"', "}"]


def _turn(blocks: list[list[dict[str, Any]]], tail: bool = True) -> dict[str, Any]:
    events = [message_start()]
    for block in blocks:
        events.extend(block)
    if tail:
        events.extend(message_end("tool_use"))
    return {"profile": "anthropic", "tool_schemas": SCHEMAS, "events": events}


def _block(index: Any, id_: Any = None, parts: list[str] | None = None) -> list[dict[str, Any]]:
    parts = PARTS if parts is None else parts
    name = "weather"
    return [
        tool_start(index, f"toolu_{index}" if id_ is None else id_, name),
        *(json_delta(index, part) for part in parts),
        block_stop(index),
    ]


@st.composite
def spoilt_turns(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(1, 4))
    blocks = [
        _block(i, parts=draw(st.lists(st.sampled_from([*PARTS, "", ":", "x"]), max_size=4)))
        for i in range(count)
    ]
    for _ in range(draw(st.integers(0, 3))):
        block = blocks[draw(st.integers(0, count - 1))]
        if not block:
            continue
        at = draw(st.integers(0, len(block) - 1))
        item = block[at]
        action = draw(
            st.sampled_from(
                [
                    "index",
                    "id",
                    "name",
                    "input",
                    "extra",
                    "drop",
                    "delta-extra",
                    "delta-type",
                    "insert",
                    "remove",
                    "text-first",
                ]
            )
        )
        if action == "index":
            item["index"] = draw(st.sampled_from([0, 1, 3, True, 300, -1, 2.0, "1", None]))
        elif action in ("id", "name") and type(item.get("content_block")) is dict:
            item["content_block"][action] = draw(st.sampled_from(["", 5, None, "a:b", "x"]))
        elif action == "input" and type(item.get("content_block")) is dict:
            item["content_block"]["input"] = draw(st.sampled_from([{"city": "Rome"}, [], None]))
        elif action == "extra":
            item[draw(st.sampled_from(["x", "usage", "index"]))] = 1
        elif action == "drop":
            del item[draw(st.sampled_from(sorted(item)))]
        elif action == "delta-extra" and "delta" in item:
            item["delta"]["extra"] = 1
        elif action == "delta-type" and "delta" in item:
            item["delta"]["type"] = draw(st.sampled_from(["text_delta", "input_json"]))
        elif action == "insert":
            block.insert(
                at,
                draw(
                    st.sampled_from(
                        [
                            {"type": "ping"},
                            text_start(9),
                            message_stop(),
                            block_stop(at),
                            json_delta(0, "x"),
                        ]
                    )
                ),
            )
        elif action == "remove":
            del block[at]
        elif action == "text-first" and type(block[0].get("index")) is int:
            # A text block at the tool block's index: the index is taken.
            block[:0] = [text_start(block[0]["index"]), block_stop(block[0]["index"])]
    return _turn(blocks, tail=draw(st.booleans()))


LIMITS = [
    DEFAULT_LIMITS,
    Limits().replace(max_slots=2),
    Limits().replace(max_argument_chars=12),
    Limits().replace(max_events=7),
]


def _reports(fixture: dict[str, Any], limits: Limits) -> list[str]:
    return [
        validate(fixture, limits=limits).to_json(),
        per_item_report(fixture, limits).to_json(),
        gate_report(fixture, limits).to_json(),
    ]


@settings(max_examples=300, deadline=None)
@given(fixture=spoilt_turns(), limits=st.sampled_from(LIMITS))
def test_whole_call_runs_report_what_the_per_item_route_reports(
    fixture: dict[str, Any], limits: Limits
) -> None:
    expected, per_item, item_by_item = _reports(fixture, limits)
    assert per_item == expected
    assert item_by_item == expected
    data = json.dumps(fixture, ensure_ascii=False).encode("utf-8")
    ledger = _validate_proving_strict(data, limits)
    if ledger is not None:
        assert ledger.to_json() == _validate_strictly_parsed(data, limits).to_json()


def _taken_runs(fixture: dict[str, Any], status: str = "pass") -> list[int]:
    """How many whole calls each run the machine took held."""
    envelope = check_envelope(fixture)
    gate = Gate(envelope.profile, envelope.tool_schemas, envelope.request)
    take = gate._turn.take_fragments
    taken: list[int] = []

    def counting(run: Any) -> bool:
        ok = take(run)
        if ok and run.whole_calls:
            taken.append(len(run.whole_calls))
        return ok

    gate._turn.take_fragments = counting  # type: ignore[method-assign]
    gate.feed_all(envelope.stream)
    assert gate.close().status == status
    return taken


def test_a_turn_of_whole_blocks_is_one_run() -> None:
    # Without this the comparisons above could pass with the run never taken.
    fixture = _turn([_block(0), _block(1), _block(2, parts=[]), _block(3)])
    assert _taken_runs(fixture) == [4]
    assert validate(fixture).to_json() == per_item_report(fixture, DEFAULT_LIMITS).to_json()


def test_a_block_after_a_text_block_starts_a_new_run() -> None:
    fixture = _turn([_block(0), [text_start(1), block_stop(1)], _block(2)])
    assert _taken_runs(fixture) == [1, 1]


@pytest.mark.parametrize(
    ("limits", "code"),
    [
        (Limits().replace(max_slots=2), "limit_exceeded"),
        (Limits().replace(max_argument_chars=12), "limit_exceeded"),
    ],
)
def test_a_run_its_blocks_would_break_a_limit_with_is_replayed(limits: Limits, code: str) -> None:
    fixture = _turn([_block(0), _block(1), _block(2)])
    expected, per_item, item_by_item = _reports(fixture, limits)
    assert per_item == expected == item_by_item
    assert code in validate(fixture, limits=limits).codes


def test_a_tool_block_at_a_text_blocks_index_is_refused_as_per_item() -> None:
    fixture = _turn([[text_start(0), block_stop(0)], _block(0)])
    expected, per_item, item_by_item = _reports(fixture, DEFAULT_LIMITS)
    assert per_item == expected == item_by_item
    assert validate(fixture).codes == [
        "identity_collision",
        "terminal_without_calls",
        "unsupported_event",
    ]


def test_a_block_reusing_an_index_is_refused_as_per_item() -> None:
    fixture = _turn([_block(0), _block(0, id_="toolu_other")])
    expected, per_item, item_by_item = _reports(fixture, DEFAULT_LIMITS)
    assert per_item == expected == item_by_item
    assert "identity_collision" in validate(fixture).codes


def test_a_block_with_a_large_index_is_read_by_feed() -> None:
    # 300 is past the small ints the scanner shares, so the run ends at the
    # block's first fragment and feed reads it: the same report.
    fixture = _turn([_block(0), _block(1), _block(300)])
    data = json.dumps(fixture).encode()
    parsed = json.loads(data)
    expected, per_item, item_by_item = _reports(parsed, DEFAULT_LIMITS)
    assert per_item == expected == item_by_item
    assert _taken_runs(parsed, "blocked") == [2]
    assert validate(parsed).codes == ["missing_slot"]
