"""The public strategies: :func:`mutants` and the deterministic :func:`sample`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, assume, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from . import jsontext as jt
from .constants import pinned_constants
from .labels import Effects, Mutant, compute
from .model import MISSING, PROFILES, ModelError, Turn, parse, reassemble, render
from .operators import BREAKING, PRESERVING, REGISTRY, OperatorInfo

MAX_PRESERVING = 3
"""Verdict-preserving operators drawn per mutant (besides a featured one)."""
MAX_EXTRA_BREAKING = 2
"""Combinable breaking operators added to a first one (unconstrained draws)."""


def seed_model(seed_fixture: dict[str, Any]) -> Turn:
    """Parse a seed and check that it looks like a passing turn (every call
    has an id and a name of a known tool, unique ids, object arguments).
    The generator cannot check more without becoming a validator: seeds are
    expected to pass the reference validator."""
    turn = parse(seed_fixture)
    if not turn.calls:
        raise ModelError("a seed needs at least one client call")
    ids = set()
    for call in turn.calls:
        if not isinstance(call.id, str) or not call.id or call.id in ids:
            raise ModelError(f"seed call id {call.id!r} is missing or repeated")
        ids.add(call.id)
        if not isinstance(call.name, str) or call.name not in turn.tool_schemas:
            raise ModelError(f"seed call name {call.name!r} has no schema")
        if call.expected is None or not isinstance(_loads(call.expected), dict):
            raise ModelError("seed arguments must be a JSON object")
        if turn.wire.start_object and call.start_input not in ({}, MISSING, None):
            if "".join(t for t in turn.fragments(call) if isinstance(t, str)):
                raise ModelError("seed call has both start input and deltas")
        if turn.wire.start_text and not (
            call.start_input in (MISSING, None) or isinstance(call.start_input, str)
        ):
            raise ModelError("seed item arguments must be a string")
    if {c.choice for c in turn.calls} != {0}:
        raise ModelError("seed calls must all be in choice 0")
    return turn


def _loads(text: str) -> Any:
    try:
        return jt.loads(text)
    except ValueError:
        return None


def _check_names(operators: Sequence[str]) -> list[OperatorInfo]:
    unknown = [n for n in operators if n not in REGISTRY]
    if unknown:
        raise ValueError(f"unknown operator(s) {unknown}; known: {sorted(REGISTRY)}")
    return [REGISTRY[n] for n in dict.fromkeys(operators)]


def supported(seed_fixture: Any) -> bool:
    """Whether the generator models this fixture's profile."""
    return isinstance(seed_fixture, dict) and seed_fixture.get("profile") in PROFILES


def applicable(seed_fixture: dict[str, Any], operators: Sequence[str] | None = None) -> list[str]:
    """Operators (of ``operators``, default all) that apply to this seed
    (none for a profile the generator does not model)."""
    if operators is not None:
        _check_names(operators)
    if not supported(seed_fixture):
        return []
    base = seed_model(seed_fixture)
    entries = _check_names(operators) if operators is not None else list(REGISTRY.values())
    return [e.name for e in entries if e.usable(base, Effects())]


def mutants(
    seed_fixture: dict[str, Any], operators: Sequence[str] | None = None
) -> st.SearchStrategy[Mutant]:
    """Labelled mutants of a passing seed fixture (any profile).

    Without ``operators``: 0-3 verdict-preserving operators, then (drawn) no
    breaking operator, or one, plus up to two more combinable ones that
    touch other slots or only add an independent turn-level code.

    With ``operators``: each mutant features exactly one of them (those that
    apply to the seed): a featured preserving operator is applied last,
    after 0-3 others; a featured breaking operator is the only breaking one.
    When none applies the strategy is empty (``st.nothing()``).

    Shrinks toward: fewer operators, earlier operators in
    :class:`~generators.Operator` order, and each operator's own simplest
    choice (see its docstring).
    """
    base = seed_model(seed_fixture)
    featured: list[OperatorInfo] | None = None
    if operators is not None:
        featured = [e for e in _check_names(operators) if e.usable(base, Effects())]
        if not featured:
            return st.nothing()
    return _mutant(base, featured)


@st.composite
def _another(
    draw: Any,
    options: list[OperatorInfo],
    turn: Turn,
    fx: Effects,
    applied: list[str],
    breaking: bool,
) -> bool:
    """ "Another operator?" and that operator, as one span (like an element of
    ``st.lists``): deleting it leaves the following elements aligned."""
    if not draw(st.booleans()):
        return False
    draw(_apply(options, turn, fx, applied, not (breaking and _breaking(applied))))
    return True


@st.composite
def _apply(
    draw: Any, options: list[OperatorInfo], turn: Turn, fx: Effects, applied: list[str], first: bool
) -> None:
    """Choose one operator of ``options`` and apply it if it can be applied
    here (usable on the turn as it is now; a later breaking operator must be
    combinable, and so must the first one when another follows).  One nested
    strategy per operator: its draws form a single span, which the shrinker
    can drop as a whole without shifting the other operators' choices; the
    option lists are fixed per profile so an index keeps its meaning."""
    entry = draw(st.sampled_from(options)) if len(options) > 1 else options[0]
    if not entry.usable(turn, fx):
        return
    if not entry.preserving and not first:
        if not entry.combinable or not REGISTRY[_breaking(applied)[0]].combinable:
            return
    entry.apply(draw, turn, fx)
    applied.append(entry.name)
    fx.used.append(entry.name)


def _breaking(applied: list[str]) -> list[str]:
    return [n for n in applied if not REGISTRY[n].preserving]


@st.composite
def _mutant(draw: Any, base: Turn, featured: list[OperatorInfo] | None) -> Mutant:
    turn = base.copy()
    fx = Effects()
    applied: list[str] = []
    feature = draw(st.sampled_from(featured)) if featured else None
    preserving = [e for e in PRESERVING if turn.profile in e.profiles]
    breaking = [e for e in BREAKING if turn.profile in e.profiles]
    # "Another one?" booleans rather than counts: they shrink to False, and
    # deleting one operator's span leaves the others' choices aligned.
    tries = 0
    while tries < MAX_PRESERVING and draw(_another(preserving, turn, fx, applied, False)):
        tries += 1
    if feature is not None:
        # Preserving operators keep every call and terminal, so a featured
        # operator usable on the seed stays usable; never file a mutant under
        # an operator it did not go through.
        assume(feature.usable(turn, fx))
        draw(_apply([feature], turn, fx, applied, True))
        return _finish(turn, fx, applied)
    tries = 0
    while tries <= MAX_EXTRA_BREAKING and draw(_another(breaking, turn, fx, applied, True)):
        tries += 1
    return _finish(turn, fx, applied)


def _finish(turn: Turn, fx: Effects, applied: list[str]) -> Mutant:
    label = compute(turn, fx)
    if label.status == "pass":
        # The generator's own bookkeeping must agree with reassembly.
        for call in turn.calls:
            assert call.expected == reassemble(turn, call), (applied, call)
    return Mutant(fixture=render(turn), label=label, operators=tuple(applied))


class _Enough(BaseException):
    """Stops the collecting test once ``count`` mutants are in hand."""


def sample(
    seed_fixture: dict[str, Any],
    *,
    count: int,
    seed: int,
    operators: Sequence[str] | None = None,
) -> list[Mutant]:
    """``count`` distinct mutants (distinct by the JSON of the fixture) of
    ``seed_fixture``, or fewer when the space is exhausted; deterministic:
    the same arguments give the same list, byte for byte, however the
    project is installed (Hypothesis's local-constant pool is pinned empty:
    :mod:`generators._internal.constants`).

    With ``operators``, every mutant features exactly one of them (see
    :func:`mutants`); an operator that does not apply to the seed yields
    nothing, and so does a seed of a profile the generator does not model
    (it models the profiles of :data:`~generators._internal.model.WIRES`).
    """
    if count <= 0 or not supported(seed_fixture):
        return []
    if operators is not None:
        _check_names(operators)
        if not applicable(seed_fixture, operators):
            return []
    strategy = mutants(seed_fixture, operators)
    found: list[Mutant] = []
    seen: set[str] = set()

    @hypothesis_seed(seed)
    @settings(
        database=None,
        derandomize=False,
        deadline=None,
        max_examples=count * 3 + 20,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
    )
    @given(strategy)
    def collect(mutant: Mutant) -> None:
        key = json.dumps(mutant.fixture, ensure_ascii=True, sort_keys=False)
        if key in seen:
            return
        seen.add(key)
        found.append(mutant)
        if len(found) >= count:
            raise _Enough

    try:
        with pinned_constants():
            collect()
    except _Enough:
        pass
    return found
