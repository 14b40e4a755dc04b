"""The incremental gate: ``Gate`` fed event by event, then ``close()``, gives
exactly the report ``validate`` gives for the same fixture.

Checked on every seed, every catalogue entry, the generator's mutants
(``generators.mutants``) and perturbations of the seeds drawn here (chunks
dropped, duplicated, reordered, moved between seeds).  Also: the gate never
exposes a call before ``close()``, ``close()`` is idempotent, and feeding
after ``close()`` raises ``RuntimeError``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.builders import SCHEMAS, openai, weather_call
from tests.support.catalogue import CATALOGUE
from toolstream import Gate, Limits, Report, validate
from toolstream.envelope import check_envelope
from toolstream.findings import ProtocolError
from toolstream.profiles import PROFILES

ROOT = Path(__file__).resolve().parents[2]
SEEDS = {
    p.stem: json.loads(p.read_text("utf-8"))
    for p in sorted((ROOT / "corpus" / "seeds").glob("*.json"))
}
GATE_API = {"close", "feed", "feed_all", "limits", "profile"}
"""Every public name of a Gate.  A new one must not hand out calls: extend
this set only after checking that."""


def _settings(examples: int) -> settings:
    """``examples`` per property; the rest is the profile's (tests/conftest.py)."""
    return settings(max_examples=examples)


def gate_report(fixture: dict[str, Any], limits: Limits | None = None) -> Report:
    """Feed the fixture's stream one item at a time, as a client would."""
    envelope = check_envelope(fixture)
    gate = Gate(envelope.profile, envelope.tool_schemas, envelope.request, limits=limits)
    for item in envelope.stream:
        gate.feed(item)
    return gate.close()


def per_item_report(fixture: dict[str, Any], limits: Limits | None = None) -> Report:
    """The reference: every item through the profile's general path, with
    runs of plain fragments (``Profile.window``) switched off."""
    envelope = check_envelope(fixture)
    gate = Gate(envelope.profile, envelope.tool_schemas, envelope.request, limits=limits)
    gate._profile.window = lambda *args: None  # type: ignore[method-assign]
    for item in envelope.stream:
        gate.feed(item)
    return gate.close()


def assert_same(fixture: dict[str, Any], limits: Limits | None = None) -> Report:
    expected = validate(fixture, limits=limits)
    got = gate_report(fixture, limits)
    assert got.to_json() == expected.to_json()
    assert per_item_report(fixture, limits).to_json() == expected.to_json()
    return got


# -- fixed fixtures --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_seed(name: str) -> None:
    assert assert_same(SEEDS[name]).status == "pass"


def _catalogue_id(entry: Any) -> str:
    return f"{entry.code}-{entry.profile}"


@pytest.mark.parametrize("entry", CATALOGUE, ids=[_catalogue_id(e) for e in CATALOGUE])
def test_catalogue_entry(entry: Any) -> None:
    try:
        check_envelope(entry.fixture)
    except ProtocolError:
        # no gate can be built for an invalid envelope; validate reports it
        assert validate(entry.fixture).codes == ["invalid_envelope"]
        return
    assert_same(entry.fixture)


@pytest.mark.parametrize("name", sorted(SEEDS))
@pytest.mark.parametrize(
    "limits",
    [
        Limits().replace(max_events=1),
        Limits().replace(max_slots=0),
        Limits().replace(max_argument_chars=10),
        Limits().replace(max_depth=0),
    ],
    ids=["events", "slots", "argument_chars", "depth"],
)
def test_seed_under_tight_limits(name: str, limits: Limits) -> None:
    report = assert_same(SEEDS[name], limits)
    assert "limit_exceeded" in report.codes


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_runs_of_plain_fragments_are_taken_in_one_step(name: str) -> None:
    # Without this the three-way comparisons above could pass with the
    # shortcut never taken.
    envelope = check_envelope(SEEDS[name])
    gate = Gate(envelope.profile, envelope.tool_schemas, envelope.request)
    taken: list[int] = []
    take = gate._turn.take_fragments

    def counting(run: Any) -> bool:
        ok = take(run)
        if ok:
            taken.append(run.count)
        return ok

    gate._turn.take_fragments = counting  # type: ignore[method-assign]
    gate.feed_all(envelope.stream)
    assert gate.close().status == "pass"
    if envelope.profile in ("openai", "mistral", "anthropic"):
        assert sum(taken) > 0 or envelope.profile == "mistral"  # Mistral sends whole calls
    else:
        assert taken == []  # no shortcut for these profiles


def test_a_run_crossing_a_limit_is_replayed_item_by_item() -> None:
    fixture = SEEDS["openai-parallel"]
    limits = Limits().replace(max_argument_chars=12)
    report = assert_same(fixture, limits)
    assert "limit_exceeded" in report.codes


def test_feed_all_in_pieces_equals_feed() -> None:
    fixture = SEEDS["openai-parallel"]
    gate = Gate("openai", fixture["tool_schemas"], fixture["request"])
    chunks = fixture["chunks"]
    gate.feed_all(chunks[:3])
    gate.feed_all(iter(chunks[3:7]))
    for chunk in chunks[7:]:
        gate.feed(chunk)
    assert gate.close().to_json() == validate(fixture).to_json()


# -- generated fixtures ----------------------------------------------------------------------

try:
    import toolstream_generators as generators

    HAVE_GENERATORS = hasattr(generators, "mutants")
except ImportError:  # pragma: no cover - the package is part of the repository
    HAVE_GENERATORS = False


@pytest.mark.skipif(not HAVE_GENERATORS, reason="generators.mutants not importable")
@pytest.mark.parametrize("name", sorted(SEEDS))
def test_generator_mutants(name: str) -> None:
    if not generators.applicable(SEEDS[name]):
        pytest.skip(f"the generator does not model the {SEEDS[name]['profile']} profile")

    @_settings(40)
    @given(generators.mutants(SEEDS[name]))
    def check(mutant: Any) -> None:
        assert_same(mutant.fixture)

    check()


@st.composite
def perturbed(draw: st.DrawFn) -> dict[str, Any]:
    """A seed whose stream was cut about: items dropped, duplicated, swapped,
    moved, or borrowed from another seed of another profile."""
    fixture: dict[str, Any] = copy.deepcopy(SEEDS[draw(st.sampled_from(sorted(SEEDS)))])
    key = PROFILES[fixture["profile"]].stream_key
    stream: list[Any] = fixture[key]
    others = [
        item for seed in SEEDS.values() for k in ("chunks", "events") for item in seed.get(k, [])
    ]
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["drop", "duplicate", "swap", "move", "borrow", "reverse"]))
        if not stream and op != "borrow":
            continue
        at = draw(st.integers(0, max(0, len(stream) - 1)))
        if op == "drop":
            del stream[at]
        elif op == "duplicate":
            stream.insert(at, copy.deepcopy(stream[at]))
        elif op == "swap":
            other = draw(st.integers(0, len(stream) - 1))
            stream[at], stream[other] = stream[other], stream[at]
        elif op == "move":
            item = stream.pop(at)
            stream.insert(draw(st.integers(0, len(stream))), item)
        elif op == "borrow":
            stream.insert(at, copy.deepcopy(draw(st.sampled_from(others))))
        else:
            stream.reverse()
    return fixture


@_settings(150)
@given(perturbed())
def test_perturbed_seeds(fixture: dict[str, Any]) -> None:
    assert_same(fixture)


# -- no call before close; close is final --------------------------------------------------


def _public_values(gate: Gate) -> list[Any]:
    return [getattr(gate, name) for name in dir(gate) if not name.startswith("_")]


def test_gate_public_api_is_closed() -> None:
    gate = Gate("openai", SCHEMAS)
    assert {name for name in dir(gate) if not name.startswith("_")} == GATE_API


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_no_call_is_reachable_before_close(name: str) -> None:
    fixture = SEEDS[name]
    envelope = check_envelope(fixture)
    gate = Gate(envelope.profile, envelope.tool_schemas, envelope.request)
    gate.feed_all(envelope.stream)
    expected = validate(fixture)
    secrets: list[Any] = [c.id for c in expected.client_calls()] + [
        c.arguments for c in expected.client_calls() if c.arguments
    ]
    assert secrets
    for value in _public_values(gate):
        if callable(value):
            continue
        shown = repr(value)
        assert not isinstance(value, Report)
        for secret in secrets:
            assert secret not in shown, f"a public attribute holds {secret!r}: {shown[:200]}"
    assert gate.close().to_json() == expected.to_json()


def test_close_is_idempotent() -> None:
    gate = Gate("openai", SCHEMAS)
    gate.feed_all(weather_call())
    first = gate.close()
    second = gate.close()
    assert second is first
    assert first.status == "pass"
    assert second.to_json() == validate(openai(weather_call())).to_json()


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_empty_gate_closes(profile: str) -> None:
    gate = Gate(profile, SCHEMAS)
    report = gate.close()
    assert report.status == "not_applicable"
    assert (
        report.to_json()
        == validate(
            {"profile": profile, "tool_schemas": SCHEMAS, PROFILES[profile].stream_key: []}
        ).to_json()
    )


def test_feed_after_close_raises_and_changes_nothing() -> None:
    gate = Gate("openai", SCHEMAS)
    chunks = weather_call()
    gate.feed_all(chunks[:2])
    report = gate.close()
    assert report.status == "blocked"  # the finish chunk never came
    with pytest.raises(RuntimeError):
        gate.feed(chunks[2])
    with pytest.raises(RuntimeError):
        gate.feed_all(chunks[2:])
    assert gate.close() is report
    assert report.status == "blocked"


def test_feed_after_a_fatal_finding_then_close() -> None:
    gate = Gate("openai", SCHEMAS, limits=Limits().replace(max_events=1))
    for chunk in weather_call():
        gate.feed(chunk)
    report = gate.close()
    assert report.codes == ["limit_exceeded"]
    with pytest.raises(RuntimeError):
        gate.feed({})


def test_unknown_profile_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown profile"):
        Gate("nope", SCHEMAS)
