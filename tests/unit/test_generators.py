"""The adversarial generator on its own: model, operators, labels, API.

These tests never run the validator (``tests/properties/test_generators_agreement.py``
holds the two oracles against each other).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

import toolstream_generators as generators
from tests.support.builders import RICH_SCHEMAS
from toolstream.schema import first_violation
from toolstream_generators import OPERATORS, Label, Mutant, Operator, mutants, sample, valid_turns
from toolstream_generators._internal import jsontext as jt
from toolstream_generators._internal.model import parse, reassemble, render
from toolstream_generators._internal.schemas import violation_sites

ROOT = Path(__file__).resolve().parents[2]
PROFILES = (
    "openai",
    "mistral",
    "anthropic",
    "openai-responses",
    "bedrock",
    "gemini",
    "gemini-interactions",
    "cohere",
    "bedrock-invoke",
)
SEEDS = {
    p.stem: json.loads(p.read_text("utf-8"))
    for p in sorted((ROOT / "corpus/seeds").glob("*.json"))
    if json.loads(p.read_text("utf-8"))["profile"] in PROFILES
}
RESPONSES_SEED = "openai-responses-two-calls"
BEDROCK_SEED = "bedrock-text-and-two-tools"
SETTINGS = settings(max_examples=30)  # the rest is the profile's (tests/conftest.py)


def seed_calls(seed: dict[str, Any]) -> list[dict[str, Any]]:
    turn = parse(seed)
    return [{"id": c.id, "name": c.name, "arguments": c.expected} for c in turn.slot_calls()]


def stream(fixture: dict[str, Any]) -> list[Any]:
    items: list[Any] = fixture["chunks"] if "chunks" in fixture else fixture["events"]
    return items


# -- model -----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_seed_round_trips_through_the_model(name: str) -> None:
    seed = SEEDS[name]
    want = {k: v for k, v in seed.items() if k not in ("meta", "expect")}
    assert render(parse(seed)) == want


def test_seed_calls_are_reassembled() -> None:
    assert seed_calls(SEEDS["openai-parallel"]) == [
        {
            "id": "call_w1",
            "name": "get_weather",
            "arguments": '{"city": "São Paulo", "unit": "celsius"}',
        },
        {"id": "call_t1", "name": "get_time", "arguments": '{"timezone": "America/Sao_Paulo"}'},
    ]
    # The start-only Anthropic call: compact JSON of its input.
    assert seed_calls(SEEDS["anthropic-text-and-tools"])[1]["arguments"] == "{}"
    assert seed_calls(SEEDS[RESPONSES_SEED]) == [
        {
            "id": "call_seed4_a",
            "name": "get_forecast",
            "arguments": '{"city":"São Paulo","days":3,"units":"metric"}',
        },
        {"id": "call_seed4_b", "name": "get_forecast", "arguments": '{"city":"東京","days":1}'},
    ]
    bedrock = seed_calls(SEEDS[BEDROCK_SEED])
    assert [(c["id"], c["name"]) for c in bedrock] == [
        ("tooluse_seed5_book", "book_room"),
        ("tooluse_seed5_cal", "list_calendars"),
    ]
    assert bedrock[0]["arguments"].startswith('{"room": "Salle Émile Zola"')
    assert bedrock[1]["arguments"] == "{}"


def test_new_profile_seeds_are_modelled_with_their_noise() -> None:
    """Responses: reasoning and message items are blocks at output 0 and 1,
    sequence numbers and the final output snapshot are tracked; Bedrock: the
    text block without a start event is a block, padding stays on the events."""
    turn = parse(SEEDS[RESPONSES_SEED])
    assert [c.index for c in turn.slot_calls()] == [2, 3]
    assert [b.index for b in turn.blocks] == [0, 1]
    assert turn.sequenced and turn.snapshot
    assert [c.item_id for c in turn.slot_calls()] == ["fc_seed4_a", "fc_seed4_b"]
    turn = parse(SEEDS[BEDROCK_SEED])
    assert [c.index for c in turn.slot_calls()] == [1, 2]
    assert [b.index for b in turn.blocks] == [0]
    assert turn.step_of("start", turn.blocks[0]) is None
    events = render(turn)["events"]
    assert all(next(iter(e.values())).get("p") for e in events)


def test_the_generator_does_not_import_the_validator() -> None:
    code = (
        "import toolstream_generators, sys; "
        "bad = [m for m in sys.modules if m == 'toolstream' or m.startswith('toolstream.')]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# -- JSON text helpers -------------------------------------------------------------


@SETTINGS
@given(st.data())
def test_reencoded_text_parses_to_the_same_value(data: st.DataObject) -> None:
    value = data.draw(generators._internal.schemas.values(RICH_SCHEMAS["rich"]))
    text = jt.dumps(jt.draw_reorder(data.draw, value), **jt.draw_style(data.draw))
    assert json.loads(text) == value


def test_escape_cuts_cover_surrogate_halves() -> None:
    text = '{"e": "\\ud83d\\ude00"}'
    cuts = jt.escape_cuts(text)
    start = text.index("\\ud83d")
    assert start + 6 in cuts  # between the two halves
    assert start + 1 in cuts  # right after the backslash
    assert start + 3 in cuts  # inside the hex digits


@SETTINGS
@given(st.data())
def test_split_concatenates_back(data: st.DataObject) -> None:
    text = data.draw(st.text(max_size=40))
    pieces = jt.draw_split(data.draw, text)
    assert "".join(pieces) == text


# -- labels and records ------------------------------------------------------------


def test_label_rules() -> None:
    with pytest.raises(ValueError):
        Label("blocked", ("b", "a"))
    with pytest.raises(ValueError):
        Label("pass", ())
    with pytest.raises(ValueError):
        Label("blocked", ())
    label = Label("pass", (), ({"id": "a", "name": "b", "arguments": "{}"},))
    assert label.to_dict() == {
        "status": "pass",
        "codes": [],
        "calls": [{"id": "a", "name": "b", "arguments": "{}"}],
    }
    assert Label("blocked", ("x",)).to_dict() == {"status": "blocked", "codes": ["x"]}


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_mutant_records_round_trip_json(name: str) -> None:
    for mutant in sample(SEEDS[name], count=20, seed=7):
        data = json.loads(mutant.to_json())
        assert Mutant.from_dict(data) == mutant
        assert "expect" not in mutant.fixture and "meta" not in mutant.fixture
        assert mutant.fixture["profile"] == SEEDS[name]["profile"]
        # The fixture is plain JSON: no raw surrogate can sneak in.
        json.dumps(mutant.fixture, ensure_ascii=False).encode("utf-8")


# -- registry ------------------------------------------------------------------------


def test_registry_matches_the_enum_and_is_documented() -> None:
    assert list(OPERATORS) == [o.value for o in Operator]
    assert len(OPERATORS) == 58
    for name, entry in OPERATORS.items():
        assert entry.name == name
        assert set(entry.profiles) <= set(PROFILES) and entry.profiles
        assert entry.preserving == (entry.code is None)
        doc = entry.doc
        for part in ("Reproduces", "Label", "Shrinks toward"):
            assert part in doc, (name, part)
    assert OPERATORS["prefill_input"].profiles == (
        "anthropic",
        "gemini-interactions",
        "bedrock-invoke",
    )
    assert "anthropic" not in OPERATORS["second_choice"].profiles
    assert "anthropic" not in OPERATORS["delay_identity"].profiles
    assert OPERATORS["mismatch_done"].profiles == ("openai-responses",)
    assert OPERATORS["mismatch_done"].code == "arguments_mismatch"
    assert OPERATORS["foreign_item"].profiles == PROFILES
    assert OPERATORS["foreign_item"].code == "unsupported_event"
    assert OPERATORS["whole_arguments"].profiles == ("openai-responses",)
    # What the new profiles cannot express.
    responses_only_not = {
        "repeat_identity",
        "forced_choice_stop",
        "finish_without_calls",
        "prefill_input",
        "second_choice",
        "whole_message",
        "cut_frame",
    }
    bedrock_not = {
        "repeat_identity",
        "delay_identity",
        "forced_choice_stop",
        "empty_arguments",
        "prefill_input",
        "mismatch_done",
        "second_choice",
        "whole_arguments",
        "whole_message",
        "cut_frame",
    }
    gemini_only = {
        "restream_arguments",
        "late_call_id",
        "reassign_path",
        "retype_container",
        "skip_index",
        "break_continuation",
        "lose_will_continue",
        "unended_call",
        "foreign_call_id",
        "non_finite_value",
        "unnormalized_path",
    }
    # Gemini's arguments are JSON values, not text; its parts have no slot
    # index; a call without an id is identified by its position.
    gemini_not = {
        "refragment",
        "whole_call",
        "repeat_identity",
        "delay_identity",
        "interleave",
        "reencode",
        "forced_choice_stop",
        "whole_arguments",
        "drop_id",
        "corrupt_json",
        "trailing_document",
        "double_arguments",
        "duplicate_key",
        "inject_non_finite",
        "lone_surrogate",
        "object_fragment",
        "reuse_slot",
        "gap_index",
        "bad_index",
        "truncate_parseable",
        "prefill_input",
        "mismatch_done",
        "second_choice",
    }
    for name in gemini_only:
        assert OPERATORS[name].profiles == ("gemini",), name
    # No late identity, no restatements, no choices (the Anthropic-like
    # block formats Interactions and Cohere); the frames of InvokeModel are
    # Anthropic's.
    blocks_not = {
        "repeat_identity",
        "delay_identity",
        "forced_choice_stop",
        "whole_arguments",
        "mismatch_done",
        "second_choice",
    }
    # Server dialects (docs/dialects.md) are Chat Completions members; a
    # Gemini whole call without args is the no-argument call.
    # The field shapes of issue 27 are chat shapes (one of them per index rule).
    field_shapes = {
        "same_index_entries",
        "null_container",
        "null_choices_finish",
        "unindexed_call",
        "unindexed_fragments",
    }
    chat_only = {"dialect_member"} | field_shapes
    assert OPERATORS["dialect_member"].profiles == ("openai", "mistral")
    assert {n for n, e in OPERATORS.items() if not e.pooled} == field_shapes
    assert OPERATORS["unindexed_call"].profiles == ("openai",)
    assert OPERATORS["unindexed_fragments"].profiles == ("mistral",)
    for name in ("same_index_entries", "null_container", "null_choices_finish"):
        assert OPERATORS[name].profiles == ("openai", "mistral"), name
    for profile, excluded in (
        ("openai-responses", responses_only_not | gemini_only),
        ("bedrock", bedrock_not | gemini_only),
        ("gemini", gemini_not | {"whole_message", "drop_call_end", "cut_frame", "empty_arguments"}),
        ("gemini-interactions", blocks_not | {"whole_message", "cut_frame"} | gemini_only),
        ("cohere", blocks_not | {"whole_message", "cut_frame", "prefill_input"} | gemini_only),
        ("bedrock-invoke", blocks_not | gemini_only),
    ):
        excluded = excluded | chat_only
        assert {n for n, e in OPERATORS.items() if profile not in e.profiles} == excluded
    assert OPERATORS["cut_frame"].profiles == ("bedrock-invoke",)
    assert OPERATORS["whole_message"].profiles == ("anthropic", "bedrock-invoke")
    assert "openai" not in OPERATORS["drop_call_end"].profiles
    assert isinstance(generators.GENERATOR_VERSION, str)


def test_inapplicable_operators_are_excluded() -> None:
    openai, mistral, anthropic = (
        SEEDS["openai-parallel"],
        SEEDS["mistral-whole-call"],
        SEEDS["anthropic-text-and-tools"],
    )
    assert sample(openai, count=3, seed=0, operators=["prefill_input"]) == []
    assert sample(anthropic, count=3, seed=0, operators=["second_choice"]) == []
    assert sample(mistral, count=3, seed=0, operators=["interleave"]) == []
    assert sample(mistral, count=3, seed=0, operators=["duplicate_id"]) == []
    assert "interleave" not in generators.applicable(mistral)
    responses, bedrock = SEEDS[RESPONSES_SEED], SEEDS[BEDROCK_SEED]
    for name in ("finish_without_calls", "second_choice", "repeat_identity", "prefill_input"):
        assert sample(responses, count=3, seed=0, operators=[name]) == []
    for name in ("empty_arguments", "mismatch_done", "delay_identity", "forced_choice_stop"):
        assert sample(bedrock, count=3, seed=0, operators=[name]) == []
    assert "mismatch_done" in generators.applicable(responses)
    assert "finish_without_calls" in generators.applicable(bedrock)
    with pytest.raises(ValueError):
        sample(openai, count=1, seed=0, operators=["no_such_operator"])


# -- every operator: its own label rule --------------------------------------------------

SEED_OPS = [
    (seed, name)
    for seed in sorted(SEEDS)
    for name in OPERATORS
    if name in generators.applicable(SEEDS[seed])
]


def featured_of(mutant: Mutant) -> str:
    """The corpus's rule: the last breaking operator, else the last one."""
    breaking = [n for n in mutant.operators if not OPERATORS[n].preserving]
    return breaking[-1] if breaking else mutant.operators[-1]


LABEL_RULE_SETTINGS = settings(max_examples=12)
"""Per (seed, operator): every pair runs in every test run, a dozen mutants
each (the agreement property re-checks the same pairs against the validator)."""


@pytest.mark.parametrize(("seed", "name"), SEED_OPS)
def test_operator_label_rule(seed: str, name: str) -> None:
    entry = OPERATORS[name]
    calls = seed_calls(SEEDS[seed])

    @LABEL_RULE_SETTINGS
    @given(mutants(SEEDS[seed], [name]))
    def check(mutant: Mutant) -> None:
        assert featured_of(mutant) == name
        assert [n for n in mutant.operators if not OPERATORS[n].preserving] == (
            [] if entry.preserving else [name]
        )
        label = mutant.label
        if entry.preserving:
            assert label.status == "pass"
            assert label.calls is not None
            assert [(c["id"], c["name"]) for c in label.calls] == [
                (c["id"], c["name"]) for c in calls
            ]
            for got, want in zip(label.calls, calls, strict=True):
                assert json.loads(got["arguments"]) == json.loads(want["arguments"])
            if not {"reencode", "whole_call", "whole_message"} & set(mutant.operators):
                assert list(label.calls) == calls
        elif name in ("truncate", "truncate_parseable"):
            # missing_slot joins when an interleaving opened a later slot first.
            assert label in (
                Label("blocked", ("missing_terminal",)),
                Label("blocked", ("missing_slot", "missing_terminal")),
                *(
                    [Label("not_applicable", ()), Label("not_applicable", ("missing_terminal",))]
                    if name == "truncate"
                    else []
                ),
            )
            if "missing_slot" in label.codes:
                assert "interleave" in mutant.operators
        elif name == "provider_error" and any(
            event.get("type") == "response.failed" for event in mutant.fixture.get("events", [])
        ):
            # A failed response with calls: not "execute" either.
            assert label == Label("blocked", ("provider_error", "wrong_terminal_reason"))
        elif entry.also:
            # cut_frame: a lost stop or message end is also missing_terminal.
            assert label.status == "blocked"
            assert entry.code in label.codes
            assert set(label.codes) - {entry.code} <= set(entry.also), label
        else:
            assert entry.code is not None
            assert label == Label("blocked", (entry.code,))

    check()


@pytest.mark.parametrize("name", [n for n, e in OPERATORS.items() if not e.preserving])
def test_each_breaking_operator_labels_its_code(name: str) -> None:
    found = []
    for seed in SEEDS.values():
        found += sample(seed, count=10, seed=1, operators=[name])
    assert found
    assert any(m.label.status == "blocked" and OPERATORS[name].code in m.label.codes for m in found)


def test_truncate_before_tool_activity_is_not_applicable() -> None:
    statuses = set()
    for seed in SEEDS.values():
        for mutant in sample(seed, count=40, seed=3, operators=["truncate"]):
            statuses.add(mutant.label.status)
            if mutant.label.status == "not_applicable":
                assert parse(mutant.fixture).calls == []
    assert statuses == {"blocked", "not_applicable"}


def test_truncate_parseable_cuts_where_the_arguments_parse() -> None:
    mutant = sample(SEEDS["openai-parallel"], count=1, seed=0, operators=["truncate_parseable"])[0]
    last = mutant.fixture["chunks"][-1]["choices"][0]
    assert last["finish_reason"] is None
    turn = parse({**mutant.fixture, "chunks": mutant.fixture["chunks"]})
    assert any(jt.parses(reassemble(turn, c)) for c in turn.calls)


def _escaped_seed() -> dict[str, Any]:
    seed: dict[str, Any] = json.loads(json.dumps(SEEDS["openai-parallel"]))
    seed["tool_schemas"] = {"echo": {"type": "object"}}
    seed["chunks"] = [
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "call_e",
                                "type": "function",
                                "function": {
                                    "name": "echo",
                                    "arguments": '{"e": "\\ud83d\\ude00\\u00e9"}',
                                },
                            }
                        ]
                    },
                    "finish_reason": "tool_calls",
                }
            ]
        }
    ]
    return seed


def test_refragment_reaches_inside_escapes() -> None:
    """Cuts land right after a backslash, inside the hex digits of
    ``\\uXXXX`` and between the two halves of an escaped astral character
    (the arguments text is ASCII escapes, not raw surrogates)."""
    seed = _escaped_seed()
    seen: set[str] = set()
    for mutant in sample(seed, count=150, seed=5, operators=["refragment"]):
        assert mutant.label.calls is not None
        text = mutant.label.calls[0]["arguments"]
        turn = parse(mutant.fixture)
        pieces = turn.fragments(turn.calls[0])
        assert "".join(pieces) == text
        found = re.search(r"\\u[dD]83[dD]\\u", text)
        if found is None:
            continue
        pair = found.start()
        at = 0
        for piece in pieces[:-1]:
            at += len(piece)
            if at - pair in (1, 3, 6):
                seen.add({1: "backslash", 3: "hex", 6: "halves"}[at - pair])
    assert seen == {"backslash", "hex", "halves"}


# -- the Responses and Bedrock wire shapes ------------------------------------------------


def _responses_items(fixture: dict[str, Any]) -> list[tuple[int, str]]:
    return [
        (e["output_index"], e["item"]["id"])
        for e in fixture["events"]
        if e.get("type") == "response.output_item.added"
    ]


@pytest.mark.parametrize(
    "name", ["insert_noise", "interleave", "refragment", "delay_identity", "whole_arguments"]
)
def test_responses_preserving_mutants_stay_well_formed(name: str) -> None:
    """Output indices stay 0..n-1 (noise items renumber the later ones),
    item ids stay unique, sequence numbers follow the positions, each
    ``function_call_arguments.done`` and closing item restates exactly the
    text streamed before it (a call delivered whole, with no delta, restates
    its arguments in every done event), and ``response.completed`` lists
    the closing items in output order."""
    whole_seen = False
    for mutant in sample(SEEDS[RESPONSES_SEED], count=25, seed=4, operators=[name]):
        events = mutant.fixture["events"]
        assert events[0]["type"] == "response.created"
        assert [e["sequence_number"] for e in events] == list(range(len(events)))
        items = _responses_items(mutant.fixture)
        assert sorted(i for i, _ in items) == list(range(len(items)))
        assert len({item_id for _, item_id in items}) == len(items)
        streamed: dict[str, str] = {}
        closing: dict[int, Any] = {}
        whole: dict[str, list[str]] = {}
        for event in events:
            kind = event["type"]
            item = event.get("item") or {}
            if kind == "response.output_item.added" and item.get("type") == "function_call":
                streamed[item["id"]] = item.get("arguments") or ""
                if not streamed[item["id"]]:
                    whole[item["id"]] = []
            elif kind == "response.function_call_arguments.delta":
                streamed[event["item_id"]] += event["delta"]
                whole.pop(event["item_id"], None)
            elif kind == "response.function_call_arguments.done":
                if event["item_id"] in whole:
                    whole[event["item_id"]].append(event["arguments"])
                else:
                    assert event["arguments"] == streamed[event["item_id"]]
            elif kind == "response.output_item.done":
                closing.setdefault(event["output_index"], item)
                if item.get("type") == "function_call" and item["id"] in whole:
                    whole[item["id"]].append(item["arguments"])
                elif item.get("type") == "function_call":
                    assert item["arguments"] == streamed[item["id"]]
        assert mutant.label.calls is not None
        arguments = {call["arguments"] for call in mutant.label.calls}
        for said in whole.values():
            assert said and len(set(said)) == 1 and said[0] in arguments, said
            whole_seen = True
        done = events[-1]
        assert done["type"] == "response.completed"
        assert done["response"]["output"] == [closing[k] for k in sorted(closing)]
    assert whole_seen or name != "whole_arguments"


def test_responses_restatements_are_what_was_streamed_before_them() -> None:
    """A faithful restatement is the text streamed *so far*: a fragment sent
    after ``output_item.done`` (``delta_after_terminal``) must not leak into
    the ``function_call_arguments.done`` before it (that would be
    ``arguments_mismatch`` too); late calls get their own item ids."""
    seed = SEEDS[RESPONSES_SEED]
    found = sample(seed, count=40, seed=5, operators=["delta_after_terminal"])
    found += sample(
        seed, count=20, seed=5, operators=["delta_after_terminal", "duplicate_terminal"]
    )
    for mutant in sample(seed, count=40, seed=12):
        if mutant.label.status == "blocked" and "delta_after_terminal" in mutant.label.codes:
            found.append(mutant)
    for mutant in found:
        streamed: dict[str, str] = {}
        ended: set[str] = set()
        added: list[str] = []
        for event in mutant.fixture["events"]:
            kind = event["type"]
            item = event.get("item") or {}
            if kind == "response.output_item.added" and item.get("type") == "function_call":
                added.append(item["id"])
                streamed.setdefault(item["id"], item.get("arguments") or "")
            elif kind == "response.function_call_arguments.delta":
                streamed[event["item_id"]] += event["delta"]
            elif kind == "response.function_call_arguments.done":
                # (A call delivered whole, with nothing streamed, restates
                # its arguments: checked by the well-formedness test.)
                faithful = event["item_id"] not in ended and streamed[event["item_id"]]
                if faithful and "mismatch_done" not in mutant.operators:
                    assert event["arguments"] == streamed[event["item_id"]]
            elif kind == "response.output_item.done" and item.get("type") == "function_call":
                ended.add(item["id"])
        assert len(added) == len(set(added)), added


def test_mismatch_done_restates_other_arguments() -> None:
    found = sample(SEEDS[RESPONSES_SEED], count=40, seed=6, operators=["mismatch_done"])
    places = set()
    for mutant in found:
        assert mutant.label == Label("blocked", ("arguments_mismatch",))
        if "whole_arguments" in mutant.operators:
            continue  # nothing streamed: the two done events disagree
        streamed: dict[str, str] = {}
        differ = []
        for event in mutant.fixture["events"]:
            kind = event["type"]
            item = event.get("item") or {}
            if kind == "response.output_item.added" and item.get("type") == "function_call":
                streamed[item["id"]] = item.get("arguments") or ""
            elif kind == "response.function_call_arguments.delta":
                streamed[event["item_id"]] += event["delta"]
            elif kind == "response.function_call_arguments.done":
                if event["arguments"] != streamed[event["item_id"]]:
                    differ.append("arguments_done")
            elif kind == "response.output_item.done" and item.get("type") == "function_call":
                if item["arguments"] != streamed[item["id"]]:
                    differ.append("item_done")
        assert len(differ) == 1, differ
        places.add(differ[0])
    assert places == {"arguments_done", "item_done"}


def test_bedrock_noise_keeps_block_indices_contiguous() -> None:
    kinds = set()
    for mutant in sample(SEEDS[BEDROCK_SEED], count=40, seed=8, operators=["insert_noise"]):
        indices = set()
        for event in mutant.fixture["events"]:
            ((kind, body),) = event.items()
            kinds.add(kind)
            if "contentBlockIndex" in body:
                indices.add(body["contentBlockIndex"])
        assert indices == set(range(len(indices)))
        assert mutant.label.status == "pass"
    assert {"metadata", "contentBlockStart", "contentBlockDelta", "contentBlockStop"} <= kinds


def test_bedrock_whole_call_can_send_no_input_text() -> None:
    """The no-argument call without any input text (or with one empty
    delta) is the call ``{}``."""
    shapes = set()
    for mutant in sample(SEEDS[BEDROCK_SEED], count=40, seed=2, operators=["whole_call"]):
        assert mutant.label.calls is not None
        inputs = [
            e["contentBlockDelta"]["delta"]["toolUse"]["input"]
            for e in mutant.fixture["events"]
            if "toolUse" in (e.get("contentBlockDelta") or {}).get("delta", {})
            and e["contentBlockDelta"]["contentBlockIndex"] == 2
        ]
        if "".join(inputs) == "":
            shapes.add(len(inputs))
            assert mutant.label.calls[1]["arguments"] == "{}"
    assert shapes == {0, 1}


GEMINI_SEED = "gemini-streamed-and-whole-calls"


def _gemini_calls(fixture: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        part["functionCall"]
        for chunk in fixture["chunks"]
        for candidate in chunk.get("candidates", [])
        for part in candidate.get("content", {}).get("parts", [])
        if "functionCall" in part
    ]


def test_gemini_restream_draws_every_form_with_the_same_arguments() -> None:
    """``restream_arguments`` sends the weather call whole and streamed,
    its string in one piece and in several, names spelled ``.city`` and
    ``['city']``, ended by ``{}`` and by the last ``partialArgs`` part; the
    label's arguments stay the seed's, byte for byte."""
    want = seed_calls(SEEDS[GEMINI_SEED])
    seen = set()
    for mutant in sample(SEEDS[GEMINI_SEED], count=60, seed=3, operators=["restream_arguments"]):
        assert mutant.label.calls is not None and list(mutant.label.calls) == want
        parts = _gemini_calls(mutant.fixture)
        weather = next(n for n, p in enumerate(parts) if p.get("name") == "weather")
        if "args" in parts[weather]:
            seen.add("whole")
            continue
        rest = parts[weather + 1 :]
        end = next(n for n, p in enumerate(rest) if p.get("willContinue") is not True)
        entries = [e for p in rest[: end + 1] for e in p.get("partialArgs", [])]
        seen.add("split" if len(entries) > 1 else "one piece")
        seen.add("quoted" if entries[0]["jsonPath"] == "$['city']" else "shorthand")
        seen.add("ends with {}" if rest[end] == {} else "ends with entries")
        assert "".join(e["stringValue"] for e in entries) == "São Paulo"
    assert seen == {
        "whole",
        "split",
        "one piece",
        "quoted",
        "shorthand",
        "ends with {}",
        "ends with entries",
    }


def test_gemini_schema_violation_keeps_a_streamed_call_streamed() -> None:
    """A new value goes through the wire's ``deliver``: the streamed call
    is streamed again (``partialArgs``) unless the value cannot be (an empty
    container inside, not an object), and then it is whole ``args``."""
    forms = set()
    for mutant in sample(SEEDS[GEMINI_SEED], count=30, seed=5, operators=["schema_violation"]):
        assert mutant.label == Label("blocked", ("schema_violation",))
        parts = _gemini_calls(mutant.fixture)
        weather = next(p for p in parts if p.get("name") == "weather")
        forms.add("whole" if "args" in weather else "streamed")
    assert "streamed" in forms


# -- composition -------------------------------------------------------------------------


# -- the field shapes of issue 27 (chat) --------------------------------------------------

FIELD_SHAPES = [n for n, e in OPERATORS.items() if not e.pooled]
CHAT_SEEDS = ("openai-parallel", "mistral-whole-call")


def _entries(fixture: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Each chunk's ``tool_calls`` entries (choice by choice)."""
    out = []
    for item in stream(fixture):
        for choice in (item.get("choices") or []) if isinstance(item, dict) else []:
            delta = choice.get("delta") if isinstance(choice, dict) else None
            if isinstance(delta, dict) and isinstance(delta.get("tool_calls"), list):
                out.append(delta["tool_calls"])
    return out


def test_field_shapes_are_drawn_only_when_named() -> None:
    """Not pooled: an unnamed draw, and the operators drawn before a featured
    one, never include them (so adding them redrew no earlier draw)."""
    for seed in CHAT_SEEDS:
        drawn = [*sample(SEEDS[seed], count=150, seed=5)]
        drawn += sample(SEEDS[seed], count=60, seed=5, operators=["truncate", "refragment"])
        assert drawn
        assert not {n for m in drawn for n in m.operators} & set(FIELD_SHAPES)
        for name in FIELD_SHAPES:
            for mutant in sample(SEEDS[seed], count=20, seed=5, operators=[name]):
                assert [n for n in mutant.operators if n in FIELD_SHAPES] == [name]


@pytest.mark.parametrize("seed", CHAT_SEEDS)
def test_same_index_entries_share_a_delta_also_in_the_first_chunk(seed: str) -> None:
    found = sample(SEEDS[seed], count=40, seed=2, operators=["same_index_entries"])
    assert len(found) >= 20
    first_chunk = 0
    for mutant in found:
        shared = [
            entries
            for entries in _entries(mutant.fixture)
            if len({e.get("index") for e in entries}) < len(entries)
        ]
        assert shared, mutant.operators
        first_chunk += any(entries[0].get("id") for entries in shared)
        # Every entry of a shared delta names its index (Mistral too: an
        # entry without one would be another call).
        assert all("index" in e for entries in shared for e in entries)
    assert first_chunk  # the call's first chunk, the one with id and name


@pytest.mark.parametrize("seed", CHAT_SEEDS)
def test_null_container_draws_each_null(seed: str) -> None:
    kinds: set[str] = set()
    for mutant in sample(SEEDS[seed], count=60, seed=3, operators=["null_container"]):
        for item in stream(mutant.fixture):
            if "choices" in item and item["choices"] is None:
                kinds.add("choices")
            for choice in item.get("choices") or []:
                if "delta" in choice and choice["delta"] is None:
                    kinds.add("delta")
                delta = choice.get("delta") or {}
                if "tool_calls" in delta and delta["tool_calls"] is None:
                    kinds.add("tool_calls")
                for entry in delta.get("tool_calls") or []:
                    if "function" in entry and entry["function"] is None:
                        assert set(entry) <= {"index", "id", "function"}
                        kinds.add("function")
    assert kinds == {"choices", "delta", "tool_calls", "function"}


def test_null_choices_finish_hides_the_end_reason() -> None:
    for seed in CHAT_SEEDS:
        for mutant in sample(SEEDS[seed], count=10, seed=4, operators=["null_choices_finish"]):
            reasons = [
                c.get("finish_reason")
                for item in stream(mutant.fixture)
                for c in item.get("choices") or []
                if c.get("index", 0) == 0  # (noise may answer in another choice)
            ]
            assert not [r for r in reasons if r is not None]
            assert any("choices" in i and i["choices"] is None for i in stream(mutant.fixture))
            assert mutant.label == Label("blocked", ("missing_terminal",))


def test_unindexed_shapes() -> None:
    for mutant in sample(SEEDS["openai-parallel"], count=10, seed=4, operators=["unindexed_call"]):
        entries = [e for chunk in _entries(mutant.fixture) for e in chunk]
        assert any("index" not in e for e in entries)
        assert mutant.label == Label("blocked", ("invalid_slot_index",))
    found = sample(SEEDS["mistral-whole-call"], count=20, seed=4, operators=["unindexed_fragments"])
    assert found
    for mutant in found:
        entries = [e for chunk in _entries(mutant.fixture) for e in chunk]
        assert len(entries) >= 2 and not any("index" in e for e in entries)
        assert entries[0]["id"] and entries[0]["function"]["arguments"] == ""
        assert not any(e.get("id") for e in entries[1:])
        assert mutant.label == Label("blocked", ("empty_arguments", "missing_id"))


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_composed_labels(name: str) -> None:
    """A composition's label is the union of independent codes; a slot's
    code is its earliest broken rule; final operators stand alone."""

    @SETTINGS
    @given(mutants(SEEDS[name]))
    def check(mutant: Mutant) -> None:
        breaking = [n for n in mutant.operators if not OPERATORS[n].preserving]
        if not breaking:
            assert mutant.label.status == "pass"
            return
        if len(breaking) > 1:
            assert all(OPERATORS[n].combinable for n in breaking)
            expected = {OPERATORS[n].code for n in breaking}
            if "provider_error" in breaking and any(
                event.get("type") == "response.failed" for event in mutant.fixture.get("events", [])
            ):
                expected.add("wrong_terminal_reason")  # a failed response with calls
            # What an operator may add by what it removed (a cut stop frame's
            # terminal), and nothing else.
            may_add = {code for n in breaking for code in OPERATORS[n].also}
            codes = set(mutant.label.codes)
            assert expected <= codes, (expected, codes)
            assert codes - expected <= may_add, (codes - expected, may_add)
        assert mutant.label.status in ("blocked", "not_applicable")

    check()


def test_multi_operator_mutants_exist() -> None:
    sizes = [
        len([n for n in m.operators if not OPERATORS[n].preserving])
        for m in sample(SEEDS["openai-parallel"], count=300, seed=11)
    ]
    assert max(sizes) >= 2


# -- sample ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_sample_is_deterministic_and_distinct(name: str) -> None:
    first = sample(SEEDS[name], count=60, seed=42)
    second = sample(SEEDS[name], count=60, seed=42)

    def dump(mutants: list[Any]) -> str:
        return json.dumps([m.to_dict() for m in mutants], sort_keys=False)

    assert dump(first) == dump(second)
    keys = [json.dumps(m.fixture, sort_keys=False) for m in first]
    assert len(keys) == len(set(keys)) == 60
    other = sample(SEEDS[name], count=60, seed=43)
    assert dump(other) != dump(first)


def test_sample_per_operator_is_deterministic() -> None:
    seed = SEEDS["openai-parallel"]
    for name in ("refragment", "corrupt_json", "truncate"):
        a = sample(seed, count=15, seed=3, operators=[name])
        b = sample(seed, count=15, seed=3, operators=[name])
        assert [m.to_json() for m in a] == [m.to_json() for m in b]
        assert all(featured_of(m) == name for m in a)


def test_sample_has_no_repeats() -> None:
    found = sample(SEEDS["mistral-whole-call"], count=300, seed=0, operators=["bad_index"])
    keys = [json.dumps(m.fixture) for m in found]
    assert len(keys) == len(set(keys)) == 300


@pytest.mark.slow
def test_sample_1000_is_distinct() -> None:
    """A thousand mutants of one seed, all distinct.  Its time is the
    generator benchmark's to measure (make bench-corpus), not a test's."""
    found = sample(SEEDS["openai-parallel"], count=1000, seed=2024)
    keys = {json.dumps(m.fixture, sort_keys=False) for m in found}
    assert len(found) == len(keys) == 1000


# -- from scratch --------------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_valid_turns_model_back(profile: str) -> None:
    @SETTINGS
    @given(valid_turns(profile, RICH_SCHEMAS))
    def check(fixture: dict[str, Any]) -> None:
        turn = parse(fixture)
        assert 1 <= len(turn.calls) <= 3
        assert len({c.id for c in turn.calls}) == len(turn.calls)
        for call in turn.calls:
            assert call.expected is not None
            value = jt.loads(call.expected)
            assert isinstance(value, dict)
            # a valid turn's arguments satisfy its tool's schema (the reference's checker)
            assert first_violation(RICH_SCHEMAS[call.name], value) is None, (call.name, value)
        assert render(turn) == fixture

    check()


def test_valid_turns_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        valid_turns("nope", RICH_SCHEMAS)
    with pytest.raises(ValueError):
        valid_turns("openai", {})


# -- generator bugs found by the agreement property (fixed; see REGRESSIONS) ---------------


def test_truncate_label_sees_gaps_left_by_an_interleaving() -> None:
    from toolstream_generators._internal.operators import _prefix_label

    seed = json.loads(json.dumps(SEEDS["anthropic-text-and-tools"]))
    events = seed["events"]
    # Start block 2 (sync_now) before block 1, then cut right after it.
    start2 = next(e for e in events if e.get("index") == 2 and e["type"] == "content_block_start")
    events.remove(start2)
    at = next(n for n, e in enumerate(events) if e.get("index") == 1)
    events.insert(at, start2)
    turn = parse(seed)
    assert _prefix_label(turn, at + 1) == Label("blocked", ("missing_slot", "missing_terminal"))


def test_schema_violations_keep_the_arguments_an_object() -> None:
    schema = {"type": "object", "enum": [{}], "properties": {"a": {"type": "string"}}}
    sites = violation_sites(schema, {"a": "x"})
    assert all(path for path, kind, _ in sites if kind in ("type", "enum", "const"))
    assert ((), "type", "object") not in sites


def test_profiles_the_generator_does_not_model_yield_nothing() -> None:
    other = {"profile": "hologram", "tool_schemas": {}, "events": []}
    assert generators.applicable(other) == []
    assert sample(other, count=5, seed=0) == []
    assert sample(other, count=5, seed=0, operators=["truncate"]) == []


# -- shrinking -------------------------------------------------------------------------------


def test_shrinks_to_the_single_operator_that_matters() -> None:
    """A minimal mutant with a given code is just the operator that makes it,
    in its simplest form."""
    seed = SEEDS["openai-parallel"]
    quiet = settings(database=None, max_examples=2000, deadline=None, derandomize=True)
    found = find(mutants(seed), lambda m: "malformed_json" in m.label.codes, settings=quiet)
    assert found.operators == ("corrupt_json",)
    # The simplest corruption: the first call, in one fragment, its closing
    # brace dropped; nothing else changed.
    deltas = [c["choices"][0]["delta"] for c in found.fixture["chunks"] if c["choices"]]
    first = deltas[1]["tool_calls"][0]["function"]["arguments"]
    assert first == '{"city": "São Paulo", "unit": "celsius"'
    assert deltas[2:] == [c["choices"][0]["delta"] for c in seed["chunks"][5:9]]
    found = find(mutants(seed), lambda m: "interleave" in m.operators, settings=quiet)
    assert found.label.status == "pass" and len(found.operators) <= 2
