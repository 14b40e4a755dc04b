"""Hostile inputs for gemini, gemini-interactions, cohere and bedrock-invoke, in the style of
``tests/unit/test_hostile.py``: each ends in a documented finding or a pass,
never a traceback, a hang, a huge allocation or an executable call."""

from __future__ import annotations

import base64
import json
import tracemalloc
from typing import Any

from tests.support.builders_gemini_cohere_invoke import (
    bedrock_invoke,
    co_delta,
    co_end,
    co_message_end,
    co_message_start,
    co_start,
    cohere,
    gem_call,
    gem_chunk,
    gem_finish,
    gem_more,
    gem_open,
    gemini,
    invoke_tool,
    invoke_turn,
    pa,
)
from tests.support.catalogue_gemini_cohere_invoke import CLAUDE
from toolstream import Limits, validate, validate_bytes

PARTS = 100_000
LOOSE = {"weather": {"type": "object"}}


def streamed(*parts: Any, schemas: Any = LOOSE) -> dict[str, Any]:
    return gemini([gem_chunk(gem_open()), gem_chunk(*parts), gem_finish()], schemas=schemas)


def test_a_jsonpath_100k_segments_deep_is_limit_exceeded() -> None:
    report = validate(streamed(gem_more(pa("$" + ".a" * PARTS, 1), more=False)))
    assert report.codes == ["limit_exceeded"]
    assert "deeper than 128" in report.findings[0].message


def test_a_jsonpath_just_inside_the_depth_limit_passes() -> None:
    depth = Limits().max_depth - 1
    report = validate(streamed(gem_more(pa("$" + ".a" * depth, 1), more=False)))
    assert report.status == "pass", report.to_json()
    value = report.calls[0].input
    for _ in range(depth):
        value = value["a"]
    assert value == 1


def test_huge_indices_in_jsonpath_are_gaps_without_allocation() -> None:
    tracemalloc.start()
    try:
        for digits in ("1000000000", "9" * 18, "9" * 19, "9" * 10_000):
            report = validate(
                streamed(gem_more(pa("$.city", "Paris"), pa(f"$.a[{digits}]", 1), more=False))
            )
            assert report.codes == ["array_index_gap"], (digits[:20], report.to_json())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024


def test_a_huge_jsonpath_string_is_limit_exceeded() -> None:
    limits = Limits().replace(max_argument_chars=100_000)
    path = "$['" + "x" * 200_000 + "']"
    report = validate(streamed(gem_more(pa(path, 1), more=False)), limits=limits)
    assert report.codes == ["limit_exceeded"]


def test_one_string_continued_over_100k_parts_passes() -> None:
    pieces = [gem_more(pa("$.city", "ab", more=True)) for _ in range(PARTS)]
    chunks = [
        gem_chunk(gem_open()),
        *(gem_chunk(p) for p in pieces),
        gem_chunk(gem_more(pa("$.city", "!"), more=False)),
        gem_finish(),
    ]
    report = validate(gemini(chunks))
    assert report.status == "pass"
    assert report.calls[0].input == {"city": "ab" * PARTS + "!"}


def test_100k_array_elements_in_one_part_pass_through_the_file_route() -> None:
    entries = [pa("$.city", "Paris"), *(pa(f"$.n[{i}]", i) for i in range(PARTS))]
    data = json.dumps(streamed(gem_more(*entries, more=False))).encode()
    report = validate_bytes(data)
    assert report.status == "pass"
    assert report.calls[0].input["n"][-1] == PARTS - 1


def test_100k_whole_calls_hit_the_slot_limit() -> None:
    report = validate(gemini([gem_chunk(*(gem_call() for _ in range(PARTS))), gem_finish()]))
    assert report.status == "blocked"
    assert report.codes == ["limit_exceeded"]


def test_100k_continuation_parts_after_the_call_ended_are_one_finding() -> None:
    parts = [gem_more(more=False) for _ in range(PARTS)]
    report = validate(gemini([gem_chunk(gem_call()), gem_chunk(*parts), gem_finish()]))
    assert report.codes == ["delta_after_terminal"]
    assert len(report.findings) == 1


def test_cohere_100k_fragments_pass() -> None:
    events = [co_message_start(), co_start(0), co_delta(0, '{"city": "')]
    events += [co_delta(0, "x") for _ in range(PARTS)]
    events += [co_delta(0, '"}'), co_end(0), co_message_end()]
    report = validate(cohere(events))
    assert report.status == "pass"
    assert len(report.calls[0].input["city"]) == PARTS


def test_invoke_payload_nested_past_the_fixture_depth_is_limit_exceeded() -> None:
    inner = "[" * 10_000 + "]" * 10_000
    events = invoke_turn(invoke_tool())
    events.insert(1, {"chunk": {"bytes": base64.b64encode(inner.encode()).decode()}})
    report = validate(bedrock_invoke(events, request=CLAUDE))
    assert report.status == "blocked"
    assert "limit_exceeded" in report.codes


def test_invoke_100k_wrapped_fragments_pass() -> None:
    parts = ('{"city": "', *(["y"] * PARTS), '"}')
    report = validate(bedrock_invoke(invoke_turn(invoke_tool(parts)), request=CLAUDE))
    assert report.status == "pass"
    assert len(report.calls[0].input["city"]) == PARTS
