"""The two oracles held against each other: for every mutant the generator
draws, the reference validator's verdict must be exactly the mutant's label
(status, set of finding codes, and for a passing mutant the client calls
byte for byte).  Labels are computed by the generator from its operators'
semantics; the validator is only ever called here.

The normal run covers every operator on every profile (the three seeds and
from-scratch turns).  ``TOOLSTREAM_LONG=1`` (or ``-m slow``) runs the long
version.  Disagreements found so far are pinned at the end of this file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import toolstream_generators as generators
from tests.support.builders import RICH_SCHEMAS
from toolstream import validate, validate_bytes
from toolstream.report import Report
from toolstream_generators import OPERATORS, Label, Mutant, mutants, sample, valid_turns

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

SEED_EXAMPLES = 15
"""Examples per (seed, operator) in the normal run.  Breadth before depth:
every pair of the grid runs in every test run (302 pairs); the depth is the
long run's (``test_agreement_long``, ``-m slow``) and ``make fuzz``'s."""
SCRATCH_EXAMPLES = 8
"""Examples per (profile, operator) over from-scratch turns in the normal run
(each draws a whole turn from the model first: the grid's dearest part)."""
MIXED_EXAMPLES = 300
"""Unconstrained compositions per seed / profile in the normal run."""
LONG_FACTOR = 25


def _settings(examples: int) -> settings:
    """``examples`` per property; the rest is the profile's (tests/conftest.py)."""
    return settings(max_examples=examples)


def verdict(report: Report) -> dict[str, Any]:
    """The report in label form (what a label states)."""
    out: dict[str, Any] = {"status": report.status, "codes": report.codes}
    if report.status == "pass":
        out["calls"] = [
            {"id": c.id, "name": c.name, "arguments": c.arguments} for c in report.client_calls()
        ]
    return out


KNOWN_BUGS: list[Callable[[Mutant], bool]] = []
"""Predicates for mutants that hit a validator bug already pinned below;
the property skips them (``assume``) until the bug is fixed."""


def assert_agrees(mutant: Mutant) -> None:
    assume(not any(bug(mutant) for bug in KNOWN_BUGS))
    want = mutant.label.to_dict()
    got = verdict(validate(mutant.fixture))
    assert got == want, (
        f"operators {list(mutant.operators)}: validator says {got}, label says {want}\n"
        f"fixture: {json.dumps(mutant.fixture, ensure_ascii=True)}"
    )
    # The same through the file path: strict JSON bytes, as the corpus stores them.
    data = json.dumps(mutant.fixture, ensure_ascii=True, indent=2).encode("ascii")
    assert verdict(validate_bytes(data)) == want, "label does not survive serialization"


# -- schemas for from-scratch turns (the validator's subset) -------------------------------

SCRATCH_SEED = {
    "openai": "openai-parallel",
    "mistral": "mistral-whole-call",
    "anthropic": "anthropic-text-and-tools",
    "openai-responses": "openai-responses-two-calls",
    "bedrock": "bedrock-text-and-two-tools",
    "gemini": "gemini-streamed-and-whole-calls",
    "gemini-interactions": "gemini-interactions-output-and-two-calls",
    "cohere": "cohere-plan-and-two-calls",
    "bedrock-invoke": "bedrock-invoke-text-and-two-tools",
}


def scratch_schemas(profile: str) -> dict[str, Any]:
    return {**SEEDS[SCRATCH_SEED[profile]]["tool_schemas"], **RICH_SCHEMAS}


# -- the agreement property ------------------------------------------------------------------

SEED_OPS = [
    pytest.param(seed, name, id=f"{seed}-{name}")
    for seed in sorted(SEEDS)
    for name in OPERATORS
    if name in generators.applicable(SEEDS[seed])
]
PROFILE_OPS = [
    pytest.param(profile, name, id=f"{profile}-{name}")
    for profile in PROFILES
    for name, entry in OPERATORS.items()
    if profile in entry.profiles
]


@pytest.mark.parametrize(("seed", "name"), SEED_OPS)
def test_agreement_on_seeds(seed: str, name: str) -> None:
    @_settings(SEED_EXAMPLES)
    @given(mutants(SEEDS[seed], [name]))
    def check(mutant: Mutant) -> None:
        assert_agrees(mutant)

    check()


def _scratch_mutants(profile: str, names: list[str] | None) -> st.SearchStrategy[Mutant]:
    return valid_turns(profile, scratch_schemas(profile)).flatmap(lambda f: mutants(f, names))


@pytest.mark.parametrize(("profile", "name"), PROFILE_OPS)
def test_agreement_from_scratch(profile: str, name: str) -> None:
    @_settings(SCRATCH_EXAMPLES)
    @given(_scratch_mutants(profile, [name]))
    def check(mutant: Mutant) -> None:
        assert_agrees(mutant)

    check()


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_agreement_composed_on_seeds(seed: str) -> None:
    @_settings(MIXED_EXAMPLES)
    @given(mutants(SEEDS[seed]))
    def check(mutant: Mutant) -> None:
        assert_agrees(mutant)

    check()


@pytest.mark.parametrize("profile", PROFILES)
def test_agreement_composed_from_scratch(profile: str) -> None:
    @_settings(MIXED_EXAMPLES // 2)
    @given(_scratch_mutants(profile, None))
    def check(mutant: Mutant) -> None:
        assert_agrees(mutant)

    check()


@pytest.mark.parametrize("profile", PROFILES)
def test_unmutated_scratch_turns_pass(profile: str) -> None:
    @_settings(60)
    @given(valid_turns(profile, scratch_schemas(profile)))
    def check(fixture: dict[str, Any]) -> None:
        report = validate(fixture)
        assert report.status == "pass", verdict(report)

    check()


FIELD_SHAPES = [n for n, e in OPERATORS.items() if not e.pooled]
"""The operators drawn only when named (the chat shapes of issue 27): the
unconstrained draws above never compose them."""
FIELD_SEEDS = [s for s in sorted(SEEDS) if set(FIELD_SHAPES) & set(generators.applicable(SEEDS[s]))]


@pytest.mark.parametrize("seed", FIELD_SEEDS)
def test_agreement_composed_with_field_shapes(seed: str) -> None:
    """Their compositions: a preserving field shape's mutant (a passing turn,
    parsed again as a seed) under an unconstrained draw or under a field
    shape again; a featured field shape already comes after 0-3 others."""
    preserving = [
        n
        for n in FIELD_SHAPES
        if OPERATORS[n].preserving and n in generators.applicable(SEEDS[seed])
    ]

    def on_top(mutant: Mutant) -> st.SearchStrategy[Mutant]:
        names = [n for n in FIELD_SHAPES if n in generators.applicable(mutant.fixture)]
        return st.sampled_from([None, *names]).flatmap(
            lambda name: mutants(mutant.fixture, None if name is None else [name])
        )

    @_settings(MIXED_EXAMPLES // 2)
    @given(st.sampled_from(preserving).flatmap(lambda n: mutants(SEEDS[seed], [n])).flatmap(on_top))
    def check(mutant: Mutant) -> None:
        assert_agrees(mutant)

    check()


@pytest.mark.slow
@pytest.mark.parametrize("profile", PROFILES)
def test_agreement_long(profile: str) -> None:
    seeds = [s for s in SEEDS.values() if s["profile"] == profile]
    sources = st.one_of(
        st.sampled_from(seeds).flatmap(lambda s: mutants(s)),
        _scratch_mutants(profile, None),
        st.sampled_from([n for n, e in OPERATORS.items() if profile in e.profiles]).flatmap(
            lambda n: _scratch_mutants(profile, [n])
        ),
    )

    @_settings(MIXED_EXAMPLES * LONG_FACTOR)
    @given(sources)
    def check(mutant: Mutant) -> None:
        assert_agrees(mutant)

    check()


# -- named-reason and byte-identity checks --------------------------------------------------


def _sources(profile: str) -> list[dict[str, Any]]:
    return [s for s in SEEDS.values() if s["profile"] == profile]


@pytest.mark.parametrize("name", [n for n, e in OPERATORS.items() if not e.preserving])
def test_breaking_operator_blocks_for_its_reason(name: str) -> None:
    """At least one mutant of the operator is blocked by the validator for
    the named reason, on every profile it applies to."""
    entry = OPERATORS[name]
    for profile in entry.profiles:
        found = []
        for seed in _sources(profile):
            found += sample(seed, count=8, seed=0, operators=[name])
        if not found:  # the seed does not allow it (e.g. one call only): build a turn
            turns = sample_turns(profile, count=20)
            for turn in turns:
                found += sample(turn, count=2, seed=0, operators=[name])
        assert found, (name, profile)
        reports = [validate(m.fixture) for m in found]
        assert any(r.status == "blocked" and entry.code in r.codes for r in reports), (
            name,
            profile,
        )


def sample_turns(profile: str, count: int) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []

    @settings(max_examples=count, deadline=None, database=None, derandomize=True)
    @given(valid_turns(profile, scratch_schemas(profile), max_calls=3))
    def collect(fixture: dict[str, Any]) -> None:
        turns.append(fixture)

    collect()
    return [t for t in turns if len(generators._internal.model.parse(t).calls) >= 2] or turns


@pytest.mark.parametrize("name", [n for n, e in OPERATORS.items() if e.preserving])
def test_preserving_operator_yields_identical_calls(name: str) -> None:
    """The validator's calls are the seed's calls byte for byte, except
    where the operator re-serializes on purpose (``reencode``; an Anthropic
    ``whole_call`` moved into the start input or a ``whole_message``, whose
    arguments are then the compact JSON of the input): there they are the label's, byte for byte,
    and the same JSON value as the seed's."""
    for seed in SEEDS.values():
        base = verdict(validate(seed))
        assert base["status"] == "pass"
        for mutant in sample(seed, count=25, seed=9, operators=[name]):
            got = verdict(validate(mutant.fixture))
            assert got == mutant.label.to_dict()
            if not {"reencode", "whole_call", "whole_message"} & set(mutant.operators):
                assert got["calls"] == base["calls"], mutant.operators
            else:
                assert [(c["id"], c["name"]) for c in got["calls"]] == [
                    (c["id"], c["name"]) for c in base["calls"]
                ]
                for a, b in zip(got["calls"], base["calls"], strict=True):
                    assert json.loads(a["arguments"]) == json.loads(b["arguments"])


# -- pinned regressions ---------------------------------------------------------------------
# Each entry: a minimal fixture found by the agreement property, and its label
# (the verdict the validator must give).  See docs/generators.md.


def _chat(chunks: list[Any]) -> dict[str, Any]:
    return {"profile": "openai", "tool_schemas": {"f": {"type": "object"}}, "chunks": chunks}


def _entry(index: int, id_: str | None, arguments: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"index": index}
    if id_ is not None:
        entry.update(id=id_, type="function")
    entry["function"] = {"name": "f", "arguments": arguments} if id_ else {"arguments": arguments}
    return entry


def _choice(entries: list[Any], finish: str | None) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"tool_calls": entries}, "finish_reason": finish}]}


def _responses(events: list[Any]) -> dict[str, Any]:
    return {
        "profile": "openai-responses",
        "tool_schemas": {"f": {"type": "object"}},
        "events": events,
    }


def _response(kind: str, status: str) -> dict[str, Any]:
    return {"type": kind, "response": {"id": "r", "object": "response", "status": status}}


def _fc_call(call_id: Any, index: int = 0, item_id: str = "fc_1") -> list[dict[str, Any]]:
    """A complete function_call item: added, one delta ``{}``, arguments
    done, closing item."""
    item = {"id": item_id, "type": "function_call", "arguments": "", "call_id": call_id}
    item["name"] = "f"
    where = {"item_id": item_id, "output_index": index}
    return [
        {"type": "response.output_item.added", "output_index": index, "item": item},
        {"type": "response.function_call_arguments.delta", **where, "delta": "{}"},
        {"type": "response.function_call_arguments.done", **where, "arguments": "{}"},
        {
            "type": "response.output_item.done",
            "output_index": index,
            "item": {**item, "arguments": "{}"},
        },
    ]


def _bedrock(events: list[Any]) -> dict[str, Any]:
    return {"profile": "bedrock", "tool_schemas": {"f": {"type": "object"}}, "events": events}


REGRESSIONS: list[tuple[str, dict[str, Any], Label, str | None]] = [
    (
        # object_fragment, shrunk: slot 1's arguments fragment is an object, in
        # the chunk that also carries finish_reason.  The finding blocks slot 1
        # only; the finish must still end slot 0.  Validator: also
        # missing_terminal (the rest of the chunk was dropped).
        "bug1-object-fragment-with-finish",
        _chat(
            [
                _choice([_entry(0, "a", "{}")], None),
                _choice([_entry(1, "b", {})], "tool_calls"),
            ]
        ),
        Label("blocked", ("non_string_fragment",)),
        None,  # validator bug 1 (fixed in the gate): an error cost the rest of its chunk
    ),
    (
        # reuse_slot, shrunk: a second call reuses live slot 1 in the chunk that
        # carries finish_reason.  Validator: also missing_terminal for slot 0.
        "bug1-reuse-slot-with-finish",
        _chat(
            [
                _choice([_entry(0, "a", "{}")], None),
                _choice([_entry(1, "b", "{}")], None),
                _choice([_entry(1, "c", "")], "tool_calls"),
            ]
        ),
        Label("blocked", ("identity_collision",)),
        None,  # validator bug 1 (fixed in the gate): an error cost the rest of its chunk
    ),
    (
        # Validator bug 2 (fixed in the Anthropic profile): object_fragment
        # (identity variant), shrunk: the first tool_use block has a numeric
        # id.  The validator said non_string_fragment, then unknown_slot for
        # the block's delta and stop, and missing_slot for block 1.
        "bug2-anthropic-numeric-id",
        {
            "profile": "anthropic",
            "tool_schemas": {"f": {"type": "object"}},
            "events": [
                {"type": "message_start", "message": {}},
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "tool_use", "id": 7, "name": "f", "input": {}},
                },
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": "{}"},
                },
                {"type": "content_block_stop", "index": 0},
                {
                    "type": "content_block_start",
                    "index": 1,
                    "content_block": {"type": "tool_use", "id": "b", "name": "f", "input": {}},
                },
                {"type": "content_block_stop", "index": 1},
                {"type": "message_delta", "delta": {"stop_reason": "tool_use"}},
                {"type": "message_stop"},
            ],
        },
        Label("blocked", ("non_string_fragment",)),
        None,
    ),
    (
        # Generator bug (fixed): interleave + truncate_parseable.  The cut came
        # right after block 2 started (the interleaving had started it before
        # block 1), so index 1 never appeared: missing_slot as well as
        # missing_terminal.  The label said only missing_terminal.
        "gen1-truncate-after-interleave-leaves-a-gap",
        {
            "profile": "anthropic",
            "tool_schemas": {"f": {"type": "object"}},
            "events": [
                {"type": "message_start", "message": {}},
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}},
                {"type": "content_block_stop", "index": 0},
                {
                    "type": "content_block_start",
                    "index": 2,
                    "content_block": {"type": "tool_use", "id": "b", "name": "f", "input": {}},
                },
            ],
        },
        Label("blocked", ("missing_slot", "missing_terminal")),
        None,
    ),
    (
        # Generator bug (fixed): schema_violation broke the root's type,
        # turning the arguments into a string: non_object_arguments comes first.
        "gen2-root-type-violation-is-non-object",
        _chat([_choice([_entry(0, "a", '"x"')], "tool_calls")]),
        Label("blocked", ("non_object_arguments",)),
        None,
    ),
    (
        # Generator bug (fixed): insert_noise added two text answers for
        # another choice, each with an end reason: that choice ends twice.
        "gen3-noise-ends-another-choice-twice",
        _chat(
            [
                _choice([_entry(0, "a", "{}")], "tool_calls"),
                {"choices": [{"index": 2, "delta": {"content": "x"}, "finish_reason": "stop"}]},
                {"choices": [{"index": 2, "delta": {"content": "y"}, "finish_reason": "stop"}]},
            ]
        ),
        Label("blocked", ("duplicate_terminal",)),
        None,
    ),
    (
        # Validator bug 3 (openai-responses), object_fragment (identity
        # variant), shrunk: the function_call item is added with a numeric
        # call_id.  The profile raises non_string_fragment before it opens
        # the slot (as the Anthropic profile did before bug 2 was fixed), so
        # the item's delta, arguments.done and closing item become
        # unknown_slot, and a later item would be missing_slot.
        "bug3-responses-numeric-call-id",
        _responses(
            [
                _response("response.created", "in_progress"),
                *_fc_call(7),
                _response("response.completed", "completed"),
            ]
        ),
        Label("blocked", ("non_string_fragment",)),
        None,  # validator bug (fixed in the profile)
    ),
    (
        # Validator bug 3 (bedrock), object_fragment (identity variant),
        # shrunk: the toolUse start has a numeric toolUseId.  Same as above:
        # the block's delta and stop become unknown_slot; and since no client
        # slot exists, stopReason tool_use adds terminal_without_calls.
        "bug3-bedrock-numeric-tool-use-id",
        _bedrock(
            [
                {"messageStart": {"role": "assistant"}},
                {
                    "contentBlockStart": {
                        "contentBlockIndex": 0,
                        "start": {"toolUse": {"toolUseId": 7, "name": "f"}},
                    }
                },
                {
                    "contentBlockDelta": {
                        "contentBlockIndex": 0,
                        "delta": {"toolUse": {"input": "{}"}},
                    }
                },
                {"contentBlockStop": {"contentBlockIndex": 0}},
                {"messageStop": {"stopReason": "tool_use"}},
            ]
        ),
        Label("blocked", ("non_string_fragment",)),
        None,  # validator bug (fixed in the profile)
    ),
    (
        # Validator bug 4 (openai-responses), provider_error, shrunk: an error
        # event before response.created.  The implicit Begin is taken at the
        # first event, so the (first) response.created is reported as "a
        # second response.created" (fatal unsupported_event).
        "bug4-responses-error-before-created",
        _responses(
            [
                {"type": "error", "code": "server_error", "message": "x", "param": None},
                _response("response.created", "in_progress"),
                *_fc_call("call_1"),
                _response("response.completed", "completed"),
            ]
        ),
        Label("blocked", ("provider_error",)),
        None,  # validator bug (fixed in the profile)
    ),
    (
        # Generator bug (fixed): delta_after_terminal twice, each a whole new
        # call after response.completed; both late calls had the item id
        # fc_late, and an item id at two output indices is identity_collision
        # (the second item is never opened).  Each late call now has its own.
        "gen4-responses-late-calls-have-their-own-item-ids",
        _responses(
            [
                _response("response.created", "in_progress"),
                *_fc_call("call_1"),
                _response("response.completed", "completed"),
                *_fc_call("call_late1", 1, "fc_late1"),
                *_fc_call("call_late2", 2, "fc_late2"),
            ]
        ),
        Label("blocked", ("delta_after_terminal",)),
        None,
    ),
]


@pytest.mark.parametrize(
    ("fixture", "label", "bug"),
    [
        pytest.param(
            f,
            lab,
            bug,
            id=name,
            marks=[pytest.mark.xfail(reason=f"validator bug: {bug}", strict=True)] if bug else [],
        )
        for name, f, lab, bug in REGRESSIONS
    ],
)
def test_pinned_regression(fixture: dict[str, Any], label: Label, bug: str | None) -> None:
    assert verdict(validate(fixture)) == label.to_dict()
