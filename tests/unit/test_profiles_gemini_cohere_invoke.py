"""Four wire formats: gemini (whole calls and Vertex partialArgs),
gemini-interactions, cohere and bedrock-invoke.  The validator's bar for
each: every applicable code in the catalogue, a valid fragmented call
passes with the exact call, re-splitting at every boundary keeps the
verdict and the arguments, the closed world, and the rules that needed
deciding (``docs/validator.md``).  Fixtures are hand-written with
``tests/support/builders_gemini_cohere_invoke.py``."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.builders import SCHEMAS, block_stop, text_delta, text_start
from tests.support.builders_gemini_cohere_invoke import (
    bedrock_invoke,
    co_call,
    co_turn,
    cohere,
    gem_call,
    gem_chunk,
    gem_finish,
    gem_more,
    gem_open,
    gemini,
    gi_call,
    gi_delta,
    gi_start,
    gi_stop,
    gi_turn,
    interactions,
    invoke_tool,
    invoke_turn,
    pa,
    streamed_city,
    wrap,
)
from tests.support.catalogue import CATALOGUE
from tests.support.catalogue_gemini_cohere_invoke import CLAUDE, NOT_APPLICABLE
from toolstream import Code, Gate, validate
from toolstream.cli import cli

NEW_PROFILES = tuple(NOT_APPLICABLE)
CAPTURES = Path(__file__).resolve().parents[2].parent / "shared" / "captures"
LOOSE = {"weather": {"type": "object"}}


def calls_of(report: Any) -> list[tuple[Any, ...]]:
    return [(c.id, c.name, c.arguments) for c in report.client_calls()]


# -- done-when: every code, a valid call, every boundary ------------------------------


@pytest.mark.parametrize("profile", NEW_PROFILES)
def test_every_applicable_code_has_a_catalogue_entry(profile: str) -> None:
    covered = {e.code for e in CATALOGUE if e.profile == profile}
    assert covered == {c.value for c in Code} - NOT_APPLICABLE[profile]


def cohere_fixture(parts: tuple[str, ...], **kw: Any) -> dict[str, Any]:
    return cohere(co_turn(co_call(parts=parts)), **kw)


def interactions_fixture(parts: tuple[str, ...], **kw: Any) -> dict[str, Any]:
    return interactions(gi_turn(gi_call(parts=parts)), **kw)


def invoke_fixture(parts: tuple[str, ...], **kw: Any) -> dict[str, Any]:
    return bedrock_invoke(invoke_turn(invoke_tool(parts)), request=CLAUDE, **kw)


TEXT_BUILDERS: dict[str, Callable[..., dict[str, Any]]] = {
    "cohere": cohere_fixture,
    "gemini-interactions": interactions_fixture,
    "bedrock-invoke": invoke_fixture,
}
IDS = {"cohere": "weather_1", "gemini-interactions": "fc_1", "bedrock-invoke": "toolu_1"}


@pytest.mark.parametrize("profile", sorted(TEXT_BUILDERS))
def test_fragmented_call_passes_with_exact_call(profile: str) -> None:
    report = validate(TEXT_BUILDERS[profile](('{"ci', 'ty": "Pa', 'ris"}')))
    assert report.status == "pass", report.to_json()
    assert report.executable
    assert calls_of(report) == [(IDS[profile], "weather", '{"city": "Paris"}')]
    assert report.calls[0].input == {"city": "Paris"}


ARGUMENT_TEXTS = [
    '{"city": "Paris"}',
    '{"city":"S\\u00e3o \\"Paulo\\"\\n\\ud83d\\ude00 日本 😀"}',
    '{"city": "x\\\\y"}',
]


@pytest.mark.parametrize("profile", sorted(TEXT_BUILDERS))
@pytest.mark.parametrize("text", ARGUMENT_TEXTS, ids=["ascii", "escapes", "backslash"])
def test_splitting_at_every_character_boundary_keeps_verdict(profile: str, text: str) -> None:
    build = TEXT_BUILDERS[profile]
    for cut in range(len(text) + 1):
        report = validate(build((text[:cut], text[cut:])))
        assert report.status == "pass", (cut, report.to_json())
        assert report.client_calls()[0].arguments == text
    single = validate(build(tuple(text)))
    assert single.status == "pass"
    assert single.client_calls()[0].arguments == text


@pytest.mark.parametrize("profile", sorted(TEXT_BUILDERS))
def test_split_inside_a_broken_text_keeps_the_block(profile: str) -> None:
    text = '{"city": "Par'
    for cut in range(len(text) + 1):
        assert validate(TEXT_BUILDERS[profile]((text[:cut], text[cut:]))).codes == [
            "malformed_json"
        ]


def test_gemini_whole_call_passes_with_canonical_arguments() -> None:
    report = validate(
        gemini(
            [gem_chunk(gem_call(args={"city": "Paris", "n": [1, 2.5]})), gem_finish()],
            schemas=LOOSE,
        )
    )
    assert report.status == "pass", report.to_json()
    assert calls_of(report) == [(None, "weather", '{"city":"Paris","n":[1,2.5]}')]
    assert report.calls[0].input == {"city": "Paris", "n": [1, 2.5]}


NO_PARAMETERS = {"clock": {"type": "object", "properties": {}, "additionalProperties": False}}


@pytest.mark.parametrize(
    "call",
    [{"name": "clock"}, {"name": "clock", "args": None}, {"name": "clock", "args": {}}],
    ids=["absent", "null", "empty"],
)
def test_gemini_whole_call_without_args_is_the_no_argument_call(call: dict[str, Any]) -> None:
    # FunctionCall.args is optional in the API reference: a whole call that
    # omits it is complete, with arguments {} (never empty_arguments).
    report = validate(
        gemini([gem_chunk({"functionCall": call}), gem_finish()], schemas=NO_PARAMETERS)
    )
    assert report.status == "pass", report.to_json()
    assert calls_of(report) == [(None, "clock", "{}")]
    assert report.calls[0].input == {}


def test_gemini_whole_call_without_args_is_still_held_to_its_schema() -> None:
    # {} for a tool that requires a city: the schema blocks it, not the shape.
    report = validate(gemini([gem_chunk({"functionCall": {"name": "weather"}}), gem_finish()]))
    assert report.codes == ["schema_violation"], report.to_json()


def test_gemini_whole_call_without_args_and_without_a_finish_is_cut_off() -> None:
    cut = [gem_chunk({"functionCall": {"name": "clock"}})]
    report = validate(gemini(cut, schemas=NO_PARAMETERS))
    assert report.status == "blocked"
    assert "missing_terminal" in report.codes, report.to_json()


def test_gemini_streamed_call_passes_with_exact_call() -> None:
    report = validate(gemini([*streamed_city("Paris", (2,)), gem_finish()]))
    assert report.status == "pass", report.to_json()
    assert calls_of(report) == [(None, "weather", '{"city":"Paris"}')]


CITY = 'S\u00e3o "Paulo"\n😀 \\ 日本'


def test_gemini_string_split_at_every_boundary_across_parts_keeps_the_call() -> None:
    whole = validate(gemini([gem_chunk(gem_call(args={"city": CITY})), gem_finish()]))
    assert whole.status == "pass"
    for cut in range(len(CITY) + 1):
        for cuts in ((cut,), (cut, cut), (0, cut, len(CITY))):
            report = validate(gemini([*streamed_city(CITY, cuts), gem_finish()]))
            assert report.status == "pass", (cuts, report.to_json())
            assert calls_of(report) == calls_of(whole)
    pieces = validate(gemini([*streamed_city(CITY, tuple(range(1, len(CITY)))), gem_finish()]))
    assert calls_of(pieces) == calls_of(whole)


def test_gemini_string_split_inside_one_part_and_on_the_closing_part() -> None:
    """The pieces of one string in one part's partialArgs list, and the last
    piece on the part that ends the call: the same call."""
    for cut in range(len(CITY) + 1):
        one_part = [
            gem_chunk(gem_open()),
            gem_chunk(
                gem_more(pa("$.city", CITY[:cut], more=True), pa("$.city", CITY[cut:]), more=False)
            ),
            gem_finish(),
        ]
        on_open = [
            gem_chunk(gem_open("weather", pa("$.city", CITY[:cut], more=True))),
            gem_chunk(gem_more(pa("$.city", CITY[cut:]), more=False), finish="STOP"),
        ]
        for chunks in (one_part, on_open):
            report = validate(gemini(chunks))
            assert report.status == "pass", (cut, report.to_json())
            assert report.calls[0].input == {"city": CITY}


NESTED_ENTRIES = [
    pa("$.city", "Paris"),
    pa("$.days[0]", 1),
    pa("$.days[1]", 2),
    pa("$.opts.metric", True),
    pa("$.opts['unit name']", None),
    pa("$.trips[0].to", "Rome"),
    pa("$.trips[1].to", "Oslo"),
]
NESTED_INPUT = {
    "city": "Paris",
    "days": [1, 2],
    "opts": {"metric": True, "unit name": None},
    "trips": [{"to": "Rome"}, {"to": "Oslo"}],
}


def _allowed(order: tuple[dict[str, Any], ...]) -> bool:
    """The rule reorderings must keep: array elements arrive in index order."""
    seen: dict[str, int] = {}
    for entry in order:
        path = entry["jsonPath"]
        for array in ("$.days", "$.trips"):
            if path.startswith(array + "["):
                index = int(path[len(array) + 1 : path.index("]")])
                if index != seen.get(array, 0) and index != seen.get(array, 0) - 1:
                    return False
                seen[array] = max(seen.get(array, 0), index + 1)
    return True


def test_gemini_reordering_entries_where_the_rules_allow_keeps_the_input() -> None:
    rng = random.Random(14)
    orders = list(itertools.permutations(NESTED_ENTRIES))
    rng.shuffle(orders)
    checked = 0
    for order in orders[:400]:
        parts = [gem_more(entry) for entry in order[:-1]] + [gem_more(order[-1], more=False)]
        report = validate(
            gemini(
                [gem_chunk(gem_open()), *(gem_chunk(p) for p in parts), gem_finish()], schemas=LOOSE
            )
        )
        if _allowed(order):
            checked += 1
            assert report.status == "pass", report.to_json()
            assert report.calls[0].input == NESTED_INPUT
            assert json.loads(report.calls[0].arguments) == NESTED_INPUT
        else:
            assert report.codes == ["array_index_gap"], report.to_json()
    assert checked > 20


def test_gemini_streamed_and_whole_forms_agree() -> None:
    whole = validate(gemini([gem_chunk(gem_call(args=NESTED_INPUT)), gem_finish()], schemas=LOOSE))
    streamed = validate(
        gemini(
            [
                gem_chunk(gem_open("weather", *NESTED_ENTRIES)),
                gem_chunk(gem_more(more=False)),
                gem_finish(),
            ],
            schemas=LOOSE,
        )
    )
    assert whole.status == streamed.status == "pass"
    assert calls_of(whole) == calls_of(streamed)


@pytest.mark.parametrize("profile", NEW_PROFILES)
def test_gate_fed_item_by_item_agrees_with_validate(profile: str) -> None:
    for entry in [e for e in CATALOGUE if e.profile == profile and e.code != "invalid_envelope"]:
        fixture = entry.fixture
        gate = Gate(profile, fixture["tool_schemas"], fixture.get("request"))
        for item in fixture["chunks" if profile == "gemini" else "events"]:
            gate.feed(copy.deepcopy(item))
        assert gate.close().to_json() == validate(copy.deepcopy(fixture)).to_json(), entry.title


# -- the closed world ----------------------------------------------------------------


VALID: dict[str, Callable[[], dict[str, Any]]] = {
    "gemini": lambda: gemini([*streamed_city("Paris", (2,)), gem_chunk(gem_call()), gem_finish()]),
    "gemini-interactions": lambda: interactions_fixture(('{"city"', ': "Paris"}')),
    "cohere": lambda: cohere_fixture(('{"city"', ': "Paris"}')),
    "bedrock-invoke": lambda: invoke_fixture(('{"city"', ': "Paris"}')),
}
TEXT_ONLY: dict[str, Callable[[], dict[str, Any]]] = {
    "gemini": lambda: gemini([gem_chunk({"text": "Hello"}), gem_finish()]),
    "gemini-interactions": lambda: interactions(
        gi_turn(
            [gi_start(0, "model_output"), gi_delta(0, "Hi", "text"), gi_stop(0)], status="completed"
        )
    ),
    "cohere": lambda: cohere(co_turn(reason="COMPLETE")),
    "bedrock-invoke": lambda: bedrock_invoke(
        invoke_turn([text_start(0), text_delta(0, "Hi"), block_stop(0)], reason="end_turn"),
        request=CLAUDE,
    ),
}
UNKNOWN_ITEMS: dict[str, list[Any]] = {
    "gemini": [
        "not a chunk",
        gem_chunk({"hologram": {}}),
        {"candidates": {}},
        gem_chunk(gem_call(extra=1)),
    ],
    "gemini-interactions": [{"event_type": "step.flush"}, {"type": "step.start"}, 7],
    "cohere": [{"type": "tool-call-flush"}, {"event_type": "message-end"}, []],
    "bedrock-invoke": [
        {"chunk": {"bytes": "%%%"}},
        {"trace": {}},
        wrap({"type": "hologram"}),
        {"chunk": {"bytes": "e30="}, "p": "x"},
    ],
}


@pytest.mark.parametrize("profile", NEW_PROFILES)
def test_valid_and_text_only_turns_read_as_expected(profile: str) -> None:
    assert validate(VALID[profile]()).status == "pass", validate(VALID[profile]()).to_json()
    assert validate(TEXT_ONLY[profile]()).status == "not_applicable"


@pytest.mark.parametrize("profile", NEW_PROFILES)
def test_an_unknown_item_anywhere_blocks_the_turn(profile: str) -> None:
    """Closed world: an item the profile does not know is unsupported_event at
    every position, in a tool turn and in a text-only one: blocked, never
    pass and never not_applicable."""
    key = "chunks" if profile == "gemini" else "events"
    for build in (VALID[profile], TEXT_ONLY[profile]):
        base = build()
        for item in UNKNOWN_ITEMS[profile]:
            for at in range(len(base[key]) + 1):
                fixture = copy.deepcopy(base)
                fixture[key].insert(at, copy.deepcopy(item))
                report = validate(fixture)
                assert report.status == "blocked", (item, at, report.to_json())
                assert "unsupported_event" in report.codes, (item, at, report.to_json())


PROVIDER_ERRORS: dict[str, Any] = {
    "gemini": {"error": {"code": 429, "message": "quota"}},
    "gemini-interactions": {"event_type": "error", "error": {"message": "overloaded"}},
    "cohere": {"type": "message-end", "delta": {"finish_reason": "ERROR", "error": "boom"}},
    "bedrock-invoke": {"throttlingException": {"message": "slow down"}},
}


@pytest.mark.parametrize("profile", NEW_PROFILES)
def test_a_provider_error_blocks_even_a_text_only_turn(profile: str) -> None:
    key = "chunks" if profile == "gemini" else "events"
    fixture = TEXT_ONLY[profile]()
    fixture[key].insert(1, PROVIDER_ERRORS[profile])
    report = validate(fixture)
    assert report.status == "blocked"
    assert report.findings[0].code is Code.PROVIDER_ERROR, report.to_json()


# -- gemini rules --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reason", "with_call", "without_call"),
    [
        ("STOP", ("pass", []), ("not_applicable", [])),
        ("MAX_TOKENS", ("blocked", ["wrong_terminal_reason"]), ("not_applicable", [])),
        ("SAFETY", ("blocked", ["wrong_terminal_reason"]), ("not_applicable", [])),
        ("RECITATION", ("blocked", ["wrong_terminal_reason"]), ("not_applicable", [])),
        ("OTHER", ("blocked", ["wrong_terminal_reason"]), ("not_applicable", [])),
        (
            "FINISH_REASON_UNSPECIFIED",
            ("blocked", ["wrong_terminal_reason"]),
            ("not_applicable", []),
        ),
        ("SOMETHING_NEW", ("blocked", ["wrong_terminal_reason"]), ("not_applicable", [])),
        (
            "MALFORMED_FUNCTION_CALL",
            ("blocked", ["wrong_terminal_reason"]),
            ("blocked", ["terminal_without_calls"]),
        ),
        (
            "UNEXPECTED_TOOL_CALL",
            ("blocked", ["wrong_terminal_reason"]),
            ("blocked", ["terminal_without_calls"]),
        ),
        (
            "TOO_MANY_TOOL_CALLS",
            ("blocked", ["wrong_terminal_reason"]),
            ("blocked", ["terminal_without_calls"]),
        ),
    ],
)
def test_gemini_finish_reason_verdicts(reason: str, with_call: Any, without_call: Any) -> None:
    report = validate(gemini([gem_chunk(gem_call()), gem_finish(reason)]))
    assert (report.status, report.codes) == with_call
    report = validate(gemini([gem_chunk({"text": "Hi"}), gem_finish(reason)]))
    assert (report.status, report.codes) == without_call


def test_gemini_parallel_calls_in_one_chunk_and_across_chunks() -> None:
    rome = gem_call(args={"city": "Rome"}, id="c2")
    one = validate(gemini([gem_chunk(gem_call(id="c1"), rome), gem_finish()]))
    two = validate(gemini([gem_chunk(gem_call(id="c1")), gem_chunk(rome), gem_finish()]))
    for report in (one, two):
        assert report.status == "pass", report.to_json()
        assert [(c.slot, c.id, c.input) for c in report.calls] == [
            (0, "c1", {"city": "Paris"}),
            (1, "c2", {"city": "Rome"}),
        ]


def test_gemini_thought_and_signature_parts_are_not_calls() -> None:
    chunks = [
        gem_chunk({"text": "thinking", "thought": True}, {"thoughtSignature": "c2ln"}),
        gem_chunk({**gem_call(), "thoughtSignature": "c2ln"}),
        gem_finish(),
    ]
    report = validate(gemini(chunks))
    assert report.status == "pass"
    assert len(report.calls) == 1


def test_gemini_candidates_are_choices() -> None:
    chunks = [
        gem_chunk({"text": "Hi"}, candidate=0),
        gem_chunk(gem_call(), candidate=1),
        gem_finish(candidate=0),
        gem_finish(candidate=1),
    ]
    report = validate(gemini(chunks))
    assert report.status == "pass", report.to_json()
    assert report.calls[0].choice == 1


def test_gemini_streamed_call_without_entries_is_the_empty_object() -> None:
    report = validate(
        gemini([gem_chunk(gem_open("clock")), gem_chunk(gem_more(more=False)), gem_finish()])
    )
    assert report.status == "pass", report.to_json()
    assert calls_of(report) == [(None, "clock", "{}")]


def test_gemini_streamed_id_on_a_later_part_is_taken() -> None:
    chunks = [
        gem_chunk(gem_open()),
        gem_chunk(gem_more(pa("$.city", "Paris"), more=False, id="c9")),
        gem_finish(),
    ]
    report = validate(gemini(chunks))
    assert report.status == "pass", report.to_json()
    assert report.calls[0].id == "c9"


def test_gemini_string_continuing_at_eof_is_missing_terminal_only() -> None:
    report = validate(
        gemini([gem_chunk(gem_open()), gem_chunk(gem_more(pa("$.city", "Pa", more=True)))])
    )
    assert report.codes == ["missing_terminal"]


def test_gemini_json_paths() -> None:
    from toolstream.limits import DEFAULT_LIMITS
    from toolstream.profiles.partial_args import parse_path

    good = {
        "$.a": ["a"],
        "$['a b']": ["a b"],
        "$['it\\'s']": ["it's"],
        "$['\\u0007']": ["\x07"],
        "$.a[0].b[10]": ["a", 0, "b", 10],
        "$.日本": ["日本"],
        "$[0]": [0],
    }
    for path, segments in good.items():
        assert parse_path(path, DEFAULT_LIMITS) == segments, path
    for bad in [
        "",
        "a",
        "$",
        "$.",
        "$..a",
        "$.1a",
        "$[-1]",
        "$[01]",
        "$['a'",
        '$["a"]',
        "$[*]",
        "$.a[0",
        "$['\\x']",
        "$['\\u00e9']",
        "$ .a",
        "$.a b",
    ]:
        with pytest.raises(ValueError):
            parse_path(bad, DEFAULT_LIMITS)


def test_gemini_json_array_body_is_detected_and_passes(tmp_path: Path) -> None:
    body = tmp_path / "gemini-body.json"
    body.write_text(json.dumps([*streamed_city("Paris", (3,)), gem_finish()]), encoding="utf-8")
    schemas = tmp_path / "tools.json"
    schemas.write_text(json.dumps(SCHEMAS), encoding="utf-8")
    out = tmp_path / "out.json"
    result = CliRunner().invoke(
        cli, ["import", str(body), "--schemas", str(schemas), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "profile gemini" in result.output and "JSON-array body" in result.output
    fixture = json.loads(out.read_text())
    assert validate(fixture).status == "pass"


@pytest.mark.parametrize(
    ("profile", "items"),
    [
        ("gemini-interactions", gi_turn(gi_call())),
        ("cohere", co_turn(co_call())),
        ("bedrock-invoke", invoke_turn(invoke_tool())),
    ],
)
def test_import_detects_the_format_and_says_which(tmp_path: Path, profile: str, items: Any) -> None:
    capture = tmp_path / "capture.jsonl"
    capture.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    out = tmp_path / "out.json"
    result = CliRunner().invoke(cli, ["import", str(capture), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"profile {profile}" in result.output
    fixture = json.loads(out.read_text())
    assert fixture["profile"] == profile
    fixture["tool_schemas"] = SCHEMAS
    assert validate(fixture).status == "pass"


# -- cohere, interactions, bedrock-invoke rules ------------------------------------------------


@pytest.mark.parametrize("reason", ["COMPLETE", "STOP_SEQUENCE", "MAX_TOKENS", "TIMEOUT", "NEW"])
def test_cohere_other_reasons_do_not_execute(reason: str) -> None:
    assert validate(cohere(co_turn(co_call(), reason=reason))).codes == ["wrong_terminal_reason"]


def test_cohere_parallel_calls_pass() -> None:
    report = validate(cohere(co_turn(co_call(0, "w_1"), co_call(1, "w_2"))))
    assert report.status == "pass"
    assert [c.id for c in report.calls] == ["w_1", "w_2"]


def test_cohere_whole_arguments_on_the_start_are_the_first_fragment() -> None:
    from tests.support.builders_gemini_cohere_invoke import co_end, co_start

    start = co_start(0)
    start["delta"]["message"]["tool_calls"]["function"]["arguments"] = '{"city": "Paris"}'
    report = validate(cohere(co_turn([start, co_end(0)])))
    assert report.status == "pass"
    assert report.calls[0].arguments == '{"city": "Paris"}'


@pytest.mark.parametrize("status", ["completed", "incomplete", "cancelled", "in_progress"])
def test_interactions_other_statuses_do_not_execute(status: str) -> None:
    assert validate(interactions(gi_turn(gi_call(), status=status))).codes == [
        "wrong_terminal_reason"
    ]


def test_interactions_start_arguments_stand_without_deltas() -> None:
    events = gi_turn([gi_start(0, arguments={"city": "Paris"}), gi_stop(0)])
    report = validate(interactions(events))
    assert report.status == "pass", report.to_json()
    assert report.calls[0].arguments == '{"city":"Paris"}'


def test_interactions_thought_and_server_steps() -> None:
    events = gi_turn(
        [
            gi_start(0, "thought"),
            # ThoughtSummaryDelta: its summary is a content object, not a text
            {
                "event_type": "step.delta",
                "index": 0,
                "delta": {"type": "thought_summary", "content": {"type": "text", "text": "hmm"}},
            },
            gi_stop(0),
        ],
        [gi_start(1, "google_search_call", id="gs_1"), gi_stop(1)],
        [gi_start(2, "google_search_result"), gi_stop(2)],
        gi_call(3, "fc_1"),
    )
    report = validate(interactions(events))
    assert report.status == "pass", report.to_json()
    assert [(c.slot, c.kind, c.name) for c in report.calls] == [
        (1, "server", "google_search_call"),
        (3, "client", "weather"),
    ]


@pytest.mark.parametrize(
    "model",
    [
        "anthropic.claude-3-haiku-20240307-v1:0",
        "us.anthropic.claude-sonnet-4-20250514-v1:0",
        "arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-sonnet-20240229-v1:0",
    ],
)
def test_invoke_anthropic_model_ids(model: str) -> None:
    report = validate(bedrock_invoke(invoke_turn(invoke_tool()), request={"modelId": model}))
    assert report.status == "pass", report.to_json()


def test_invoke_family_from_the_first_payload_without_model_id() -> None:
    report = validate(bedrock_invoke(invoke_turn(invoke_tool())))
    assert report.status == "pass"


def test_invoke_unsupported_family_is_refused_never_empty() -> None:
    for events, request in [
        ([wrap({"generation": "Hi"}), wrap({"generation": "!", "stop_reason": "stop"})], None),
        (invoke_turn(invoke_tool()), {"modelId": "amazon.nova-micro-v1:0"}),
        ([wrap("just text")], None),
    ]:
        report = validate(bedrock_invoke(events, request=request))
        assert report.status == "blocked"
        assert report.codes == ["unsupported_model_family"], report.to_json()
        assert "Anthropic" in report.findings[0].message


def test_invoke_bytes_must_be_strict() -> None:
    good = invoke_turn(invoke_tool())
    for bad in ["", "e30", "e30==", "e3 0=", "////", "gA=="]:  # gA== is b"\x80": not UTF-8
        events = copy.deepcopy(good)
        events.insert(2, {"chunk": {"bytes": bad}})
        report = validate(bedrock_invoke(events, request=CLAUDE))
        assert report.status == "blocked", bad
        assert "unsupported_event" in report.codes, (bad, report.to_json())


def test_invoke_every_boundary_of_a_cut_frame_is_caught() -> None:
    """A wrapped chunk cut anywhere (a frame lost in half) never passes."""
    good = invoke_turn(invoke_tool(('{"city": "Paris"}',)))
    for index in range(len(good)):
        data = good[index]["chunk"]["bytes"]
        for cut in range(0, len(data), 3):
            events = copy.deepcopy(good)
            events[index]["chunk"]["bytes"] = data[:cut]
            report = validate(bedrock_invoke(events, request=CLAUDE))
            assert report.status == "blocked", (index, cut)


@pytest.mark.skipif(not CAPTURES.is_dir(), reason=f"real captures not available ({CAPTURES})")
def test_vertex_capture_reassembles_both_calls() -> None:
    from toolstream.capture import read_capture

    data = (
        CAPTURES / "google/vercel-google-stream-tool-call-arguments-parallel2.jsonl"
    ).read_bytes()
    chunks = [r.payload for r in read_capture(data).records if r.kind == "json"]
    report = validate(gemini(chunks, schemas={"getWeather": {"type": "object"}}))
    assert report.status == "pass", report.to_json()
    assert calls_of(report) == [
        (None, "getWeather", '{"location":"Boston"}'),
        (None, "getWeather", '{"location":"San Francisco"}'),
    ]


def test_gemini_server_tool_call_part_is_reported_never_executable() -> None:
    server = {"toolCall": {"id": "t1", "toolType": "GOOGLE_SEARCH_WEB", "args": {"q": "x"}}}
    chunks = [
        gem_chunk(server, {"toolResponse": {"id": "t1"}}),
        gem_chunk(gem_call()),
        gem_finish(),
    ]
    report = validate(gemini(chunks))
    assert report.status == "pass", report.to_json()
    assert [(c.slot, c.kind, c.name, c.validated) for c in report.calls] == [
        (0, "server", "GOOGLE_SEARCH_WEB", False),
        (1, "client", "weather", True),
    ]
    only_server = validate(gemini([gem_chunk(server), gem_finish()]))
    assert only_server.status == "not_applicable"


def test_invoke_binary_eventstream_is_detected_unwrapped_and_passes(tmp_path: Path) -> None:
    """InvokeModelWithResponseStream as recorded: binary event-stream frames
    of type chunk, an exception frame at the end going with them."""
    from toolstream.capture import encode_event, encode_frame

    events = invoke_turn(invoke_tool())
    data = b"".join(encode_event("chunk", e["chunk"]) for e in events)
    capture = tmp_path / "invoke.eventstream.bin"
    capture.write_bytes(data)
    schemas = tmp_path / "tools.json"
    schemas.write_text(json.dumps(SCHEMAS), encoding="utf-8")
    out = tmp_path / "out.json"
    result = CliRunner().invoke(
        cli, ["import", str(capture), "--schemas", str(schemas), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "profile bedrock-invoke" in result.output
    fixture = json.loads(out.read_text())
    assert fixture["events"] == events
    assert validate(fixture).status == "pass"

    exception = encode_frame(
        {
            ":message-type": "exception",
            ":exception-type": "throttlingException",
            ":content-type": "application/json",
        },
        b'{"message":"slow down"}',
    )
    capture.write_bytes(data + exception)
    result = CliRunner().invoke(cli, ["import", str(capture), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "profile bedrock-invoke" in result.output
    assert "provider_error" in validate(json.loads(out.read_text())).codes


NEW_WIRE_SEEDS = sorted(
    p
    for p in (Path(__file__).resolve().parents[2] / "corpus" / "seeds").glob("*.json")
    if json.loads(p.read_text())["profile"]
    in ("gemini", "gemini-interactions", "cohere", "bedrock-invoke")
)


@pytest.mark.parametrize("seed", NEW_WIRE_SEEDS, ids=[p.stem for p in NEW_WIRE_SEEDS])
def test_no_cut_of_a_new_wire_seed_passes(seed: Path) -> None:
    """A body cut anywhere before its last item is never executable: each of
    these wires ends a turn with an item of its own (Gemini's finishReason,
    which also rides on the last chunk; Cohere's message-end; the
    interaction's completion; the wrapped message_stop), and a whole call
    that parsed before the cut does not stand for it."""
    fixture = json.loads(seed.read_text())
    assert validate(fixture).status == "pass"
    key = "chunks" if "chunks" in fixture else "events"
    for cut in range(1, len(fixture[key])):
        cut_fixture = {**fixture, key: fixture[key][:cut]}
        report = validate(cut_fixture)
        assert report.status != "pass", (seed.name, cut)
