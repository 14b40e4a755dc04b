"""The reference validator's seed cases and its catalogue of findings."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import toolstream
from tests.support.builders import (
    anthropic,
    anthropic_turn,
    block_stop,
    call,
    chunk,
    json_delta,
    message_delta,
    message_start,
    message_stop,
    openai,
    text_chunk,
    text_delta,
    text_start,
    tool_block,
    tool_start,
    weather_call,
)
from tests.support.catalogue import CATALOGUE
from toolstream import Code, validate

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "corpus" / "seeds").glob("*.json"))


def calls_of(report: toolstream.Report) -> list[tuple[Any, ...]]:
    return [(c.id, c.name, c.arguments) for c in report.client_calls()]


# -- the seed cases of the issue ---------------------------------------------


def test_valid_fragmented_call_passes_with_exact_call() -> None:
    report = validate(openai(weather_call()))
    assert report.status == "pass"
    assert report.executable is True
    assert report.exit_code == 0
    assert calls_of(report) == [("call_1", "weather", '{"city": "Paris"}')]
    assert report.calls[0].input == {"city": "Paris"}
    assert report.findings == ()


def test_reused_slot_is_identity_collision_and_nothing_executes() -> None:
    fixture = openai(
        [
            chunk(call(0, "call_1", "weather", '{"city":')),
            chunk(call(0, "call_2", "weather", '{"city": "Rome"}')),
            chunk(call(0, args='"Paris"}')),
            chunk(finish="tool_calls"),
        ]
    )
    report = validate(fixture)
    assert report.status == "blocked"
    assert report.exit_code == 1
    assert report.codes == ["identity_collision"]
    assert not report.executable
    assert all(c.state == "blocked" for c in report.calls)
    assert "input" not in report.to_dict()["calls"][0]


def test_text_only_stream_is_not_applicable() -> None:
    report = validate(openai([text_chunk("Hello"), text_chunk(" there", finish="stop")]))
    assert report.status == "not_applicable"
    assert report.exit_code == 2
    assert report.calls == ()
    assert report.findings == ()


def test_anthropic_text_only_truncated_is_not_applicable() -> None:
    events = [message_start(), text_start(0), text_delta(0, "Hel")]
    report = validate(anthropic(events))
    assert report.status == "not_applicable"


@pytest.mark.parametrize("seed", SEEDS, ids=[s.stem for s in SEEDS])
def test_bundled_seeds_pass(seed: Path) -> None:
    report = toolstream.validate_bytes(seed.read_bytes())
    assert report.status == "pass", report.to_json()
    assert report.client_calls()
    for c in report.client_calls():
        assert json.loads(c.arguments) == c.input


@pytest.mark.parametrize("rounds", [1, 3])
def test_validate_bytes_schema_cache_tells_lookalike_schemas_apart(rounds: int) -> None:
    # validate_bytes keeps checked schemas by repr; 1, 1.0, true and "1" must
    # stay different schemas, and a bad schema stays bad when seen again.
    def fixture(const: Any) -> bytes:
        schema = {"type": "object", "properties": {"city": {"const": const}}}
        return json.dumps(openai(weather_call(), schemas={"weather": schema})).encode()

    for _ in range(rounds):
        assert toolstream.validate_bytes(fixture("Paris")).status == "pass"
        for other in (1, 1.0, True, "paris", None, ["Paris"]):
            report = toolstream.validate_bytes(fixture(other))
            assert report.codes == ["schema_violation"], (other, report.codes)
        bad = json.dumps(openai(weather_call(), schemas={"weather": {"type": "objet"}}))
        assert toolstream.validate_bytes(bad.encode()).codes == ["invalid_schema"]


# -- every finding code, every profile where it applies ------------------------


@pytest.mark.parametrize("entry", CATALOGUE, ids=[f"{e.code}-{e.profile}" for e in CATALOGUE])
def test_catalogue_entry_yields_exactly_its_code(entry: Any) -> None:
    report = validate(copy.deepcopy(entry.fixture))
    assert report.status == "blocked", report.to_json()
    assert report.codes == [entry.code], report.to_json()
    assert not report.executable


def test_every_code_has_a_catalogue_entry() -> None:
    covered = {e.code for e in CATALOGUE}
    assert covered == {c.value for c in Code}


def test_every_code_is_documented_once() -> None:
    for member in Code:
        assert member.__doc__ and member.__doc__ != Code.__doc__, member


# -- rules worth their own test -------------------------------------------------


def test_prefix_that_parses_is_not_terminal() -> None:
    report = validate(openai([chunk(call(0, "call_1", "weather", '{"city": "Paris"}'))]))
    assert report.codes == ["missing_terminal"]
    assert report.calls[0].arguments == '{"city": "Paris"}'


def test_late_identity_before_terminal_is_legal() -> None:
    fixture = openai(
        [
            chunk(call(0, args='{"city":')),
            chunk(call(0, id="call_9", args='"Oslo"}')),
            chunk(call(0, name="weather", args="")),
            chunk(finish="tool_calls"),
        ]
    )
    report = validate(fixture)
    assert report.status == "pass", report.to_json()
    assert calls_of(report) == [("call_9", "weather", '{"city":"Oslo"}')]


def test_empty_identity_on_continuations_is_absent() -> None:
    fixture = openai(
        [
            chunk(call(0, "call_1", "weather", '{"city":')),
            chunk(call(0, "", "", '"Oslo"}')),
            chunk(finish="tool_calls"),
        ]
    )
    assert validate(fixture).status == "pass"


def test_same_index_in_two_choices_is_two_slots_and_ambiguous() -> None:
    fixture = openai(
        [
            chunk(call(0, "call_1", "weather", '{"city":"A"}'), choice=0),
            chunk(call(0, "call_2", "weather", '{"city":"B"}'), choice=1),
            chunk(finish="tool_calls", choice=0),
            chunk(finish="tool_calls", choice=1),
        ]
    )
    report = validate(fixture)
    assert [(c.choice, c.slot) for c in report.calls] == [(0, 0), (1, 0)]
    assert report.codes == ["ambiguous_choice"]


@pytest.mark.parametrize(
    ("tool_choice", "status"),
    [
        ("required", "pass"),
        ({"type": "function", "function": {"name": "weather"}}, "pass"),
        ("auto", "blocked"),
        (None, "blocked"),
    ],
    ids=["required", "named", "auto", "absent"],
)
def test_stop_is_accepted_only_when_tool_choice_forces(tool_choice: Any, status: str) -> None:
    request = None if tool_choice is None else {"tool_choice": tool_choice}
    report = validate(openai(weather_call(finish="stop"), request=request))
    assert report.status == status
    if status == "blocked":
        assert report.codes == ["wrong_terminal_reason"]


def test_mistral_whole_calls_without_index_take_the_next_slots() -> None:
    fixture = openai(
        [
            chunk(call(id="a1", name="weather", args='{"city":"A"}', omit_index=True)),
            chunk(
                call(id="b2", name="weather", args='{"city":"B"}', omit_index=True),
                finish="tool_calls",
            ),
        ],
        profile="mistral",
    )
    report = validate(fixture)
    assert report.status == "pass", report.to_json()
    assert [c.slot for c in report.calls] == [0, 1]


def test_openai_requires_an_index() -> None:
    fixture = openai(
        [
            chunk(
                call(id="a1", name="weather", args='{"city":"A"}', omit_index=True),
                finish="tool_calls",
            )
        ]
    )
    assert validate(fixture).codes == ["invalid_slot_index"]


def test_anthropic_start_input_stands_when_no_delta_has_text() -> None:
    events = anthropic_turn(
        [tool_start(0, input={"city": "Paris"}), json_delta(0, ""), block_stop(0)]
    )
    report = validate(anthropic(events))
    assert report.status == "pass", report.to_json()
    assert calls_of(report) == [("toolu_1", "weather", '{"city":"Paris"}')]


def test_anthropic_server_tools_are_reported_never_executable() -> None:
    server = {
        "type": "content_block_start",
        "index": 0,
        "content_block": {
            "type": "server_tool_use",
            "id": "srvtoolu_1",
            "name": "web_search",
            "input": {},
        },
    }
    events = [
        message_start(),
        server,
        json_delta(0, '{"query":"x"}'),
        block_stop(0),
        message_delta("end_turn"),
        message_stop(),
    ]
    report = validate(anthropic(events))
    assert report.status == "not_applicable"
    assert [(c.kind, c.name) for c in report.calls] == [("server", "web_search")]
    assert not report.executable


def test_anthropic_turn_needs_message_stop_when_it_has_message_start() -> None:
    events = [message_start(), *tool_block(), message_delta()]
    assert validate(anthropic(events)).codes == ["missing_terminal"]
    bare = tool_block()
    assert validate(anthropic(bare)).status == "pass"


def test_anthropic_truncated_at_max_tokens_reports_both_codes() -> None:
    events = [
        message_start(),
        tool_start(0),
        json_delta(0, '{"city": "Par'),
        message_delta("max_tokens"),
        message_stop(),
    ]
    assert validate(anthropic(events)).codes == ["missing_terminal", "wrong_terminal_reason"]


def test_one_failing_call_blocks_the_whole_turn() -> None:
    fixture = openai(
        [
            chunk(call(0, "call_1", "weather", '{"city":"Paris"}')),
            chunk(call(1, "call_2", "weather", '{"city":"Rome"')),
            chunk(finish="tool_calls"),
        ]
    )
    report = validate(fixture)
    assert report.status == "blocked"
    assert [c.state for c in report.calls] == ["validated", "blocked"]
    assert report.findings[0].slot == 1


def test_findings_carry_schema_paths_and_event_positions() -> None:
    fixture = openai(
        [chunk(call(0, "call_1", "weather", '{"city": 7}')), chunk(finish="tool_calls")]
    )
    finding = validate(fixture).findings[0]
    assert (finding.code, finding.path, finding.event, finding.slot) == (
        Code.SCHEMA_VIOLATION,
        "/city",
        1,
        0,
    )


def test_report_json_is_deterministic_and_ordered() -> None:
    fixture = openai(weather_call())
    first = validate(fixture).to_json()
    assert first == validate(copy.deepcopy(fixture)).to_json()
    keys = list(json.loads(first))
    assert keys == [
        "report_version",
        "profile",
        "status",
        "applicable",
        "executable",
        "calls",
        "findings",
    ]


# -- re-splitting at every boundary keeps the verdict -----------------------------


def _split_everywhere_openai(arguments: str) -> list[dict[str, Any]]:
    return [
        chunk(call(0, "call_1", "weather", arguments[:1])),
        *(chunk(call(0, args=ch)) for ch in arguments[1:]),
        chunk(finish="tool_calls"),
    ]


ARGUMENT_TEXTS = [
    '{"city": "Paris"}',
    '{"city":"S\\u00e3o \\"Paulo\\"\\n\\ud83d\\ude00 日本 😀"}',
    '{"city": "x\\\\y"}',
]


@pytest.mark.parametrize("text", ARGUMENT_TEXTS, ids=["ascii", "escapes", "backslash"])
def test_splitting_at_every_character_boundary_keeps_verdict(text: str) -> None:
    whole = validate(
        openai([chunk(call(0, "call_1", "weather", text)), chunk(finish="tool_calls")])
    )
    assert whole.status == "pass", whole.to_json()
    for cut in range(len(text) + 1):
        parts = (text[:cut], text[cut:])
        chat = validate(
            openai(
                [
                    chunk(call(0, "call_1", "weather", parts[0])),
                    chunk(call(0, args=parts[1])),
                    chunk(finish="tool_calls"),
                ]
            )
        )
        ant = validate(anthropic(anthropic_turn(tool_block(parts=parts))))
        for report in (chat, ant):
            assert report.status == "pass", (cut, report.to_json())
            assert report.client_calls()[0].arguments == text
    single = validate(openai(_split_everywhere_openai(text)))
    assert single.client_calls()[0].arguments == text
    assert single.status == "pass"


def test_split_inside_a_broken_text_keeps_the_block() -> None:
    text = '{"city": "Par'
    for cut in range(len(text) + 1):
        report = validate(
            openai(
                [
                    chunk(call(0, "call_1", "weather", text[:cut])),
                    chunk(call(0, args=text[cut:])),
                    chunk(finish="tool_calls"),
                ]
            )
        )
        assert report.codes == ["malformed_json"]


@pytest.mark.parametrize(
    "bad", [True, 1.0, "1", -1, 2**63], ids=["bool", "float", "str", "neg", "huge"]
)
def test_continuation_with_a_non_integer_index_is_not_routed(bad: Any) -> None:
    # True == 1 and hash(True) == hash(1): a lookup by value would route this
    # fragment to slot 1.
    fixture = openai(
        [
            chunk(call(0, "call_1", "weather", '{"city":"A"}')),
            chunk(call(1, "call_2", "weather", '{"city":')),
            {
                "choices": [
                    {
                        "index": 0,
                        "delta": {
                            "tool_calls": [{"index": bad, "function": {"arguments": '"B"}'}}]
                        },
                    }
                ]
            },
            chunk(finish="tool_calls"),
        ]
    )
    assert validate(fixture).codes == ["invalid_slot_index"]


def test_anthropic_block_with_a_non_string_name_is_one_finding() -> None:
    # Found by the corpus work: the block must still open, so its stop is absorbed.
    start = {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "tool_use", "id": "t", "name": 7},
    }
    report = validate(anthropic(anthropic_turn([start, json_delta(0, "{}"), block_stop(0)])))
    assert report.codes == ["non_string_fragment"]


def test_a_blocked_slot_absorbs_later_profile_errors() -> None:
    fixture = openai(
        [
            chunk(call(0, "call_1", "weather", '{"city":')),
            chunk(call(0, "call_2", "weather", '"Rome"}')),
            chunk(call(0, args={"x": 1})),
            chunk(finish="tool_calls"),
        ]
    )
    assert validate(fixture).codes == ["identity_collision"]


def test_an_error_in_one_entry_does_not_cost_the_rest_of_the_chunk() -> None:
    # Found by the generator agreement property: the finish_reason in the same
    # chunk as a broken entry must still end the other slot.
    fixture = openai(
        [
            chunk(call(0, "a", "weather", '{"city":"A"}')),
            chunk(
                call(1, "b", "weather", {}),
                call(2, "c", "weather", '{"city":"C"}'),
                finish="tool_calls",
            ),
        ]
    )
    report = validate(fixture)
    assert report.codes == ["non_string_fragment"]
    assert [c.state for c in report.calls] == ["validated", "blocked", "validated"]


def test_duplicate_id_counts_earlier_blocked_calls() -> None:
    fixture = openai(
        [
            chunk(call(0, "a", "weather", '{"city":')),
            chunk(call(0, args={})),
            chunk(call(1, "a", "weather", '{"city":"B"}'), finish="tool_calls"),
        ]
    )
    assert validate(fixture).codes == ["duplicate_id", "non_string_fragment"]


def test_tool_use_reason_in_a_choice_without_calls() -> None:
    fixture = openai(
        [
            chunk(call(0, "a", "weather", '{"city":"A"}'), finish="tool_calls", choice=0),
            chunk(finish="tool_calls", choice=1),
        ]
    )
    assert validate(fixture).codes == ["terminal_without_calls"]


def test_a_raw_lone_surrogate_in_the_arguments_is_invalid_unicode() -> None:
    # The fragment holds the code point itself (the file wrote it as an
    # escape): the strict arguments parse finds it inside the string.
    fixture = openai(
        [chunk(call(0, "call_1", "weather", '{"city": "P\ud800"}')), chunk(finish="tool_calls")]
    )
    report = validate(fixture)
    assert report.codes == [Code.INVALID_UNICODE.value]
    assert report.executable is False
    assert "offset 11" in report.findings[0].message
