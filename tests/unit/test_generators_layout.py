"""The generator's layout: one wire table, operators that ask it, no validator.

Structural checks a refactor could silently undo: every profile of the wire
table has its noise and its parts, operators do not branch on profile names,
nothing under ``generators/`` imports ``toolstream``, and ``sample`` pins
Hypothesis's local-constant pool (``_internal/constants.py``).
"""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis.internal.conjecture import providers

from toolstream_generators import OPERATORS
from toolstream_generators._internal.constants import pinned_constants
from toolstream_generators._internal.model import PROFILES, WIRES

PACKAGE = Path(__file__).resolve().parents[2] / "generators"


def _modules() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(PACKAGE.rglob("*.py"))]


def test_every_wire_has_its_noise_and_parts() -> None:
    assert set(WIRES) == set(PROFILES)
    for profile, wire in WIRES.items():
        assert wire.profile == profile
        assert callable(wire.noise) and callable(wire.scratch), profile
        # Every format refuses some other format's sample, never its own.
        assert wire.refuses and set(wire.refuses) <= set(WIRES) - {profile}, profile
        assert isinstance(wire.foreign_sample, dict) and wire.foreign_sample, profile
        assert "error" not in wire.foreign_sample, profile
        assert wire.stream_key in ("chunks", "events")
        assert wire.new_call is not None, profile
        assert wire.wrong_reasons and wire.repeat_reasons, profile
        # (Cohere has no error event: its error is an ending.)
        assert wire.error_events or wire.error_endings, profile
    for entry in OPERATORS.values():
        assert entry.profiles and set(entry.profiles) <= set(WIRES), entry.name


def _names_a_profile(node: ast.Compare) -> bool:
    """``x.profile == "..."`` or ``x.profile in ("...", ...)`` (a lookup in a
    computed table, such as an operator's profile set, is not a branch)."""
    sides = (node.left, *node.comparators)
    if not any(isinstance(side, ast.Attribute) and side.attr == "profile" for side in sides):
        return False
    literal = (ast.Constant, ast.Tuple, ast.List, ast.Set)
    return any(isinstance(side, literal) for side in sides) or any(
        isinstance(side, ast.Name) and side.id.isupper() for side in sides
    )


def test_operators_never_branch_on_a_profile_name() -> None:
    bad = []
    for path, tree in _modules():
        if "operators" not in path.parts:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and _names_a_profile(node):
                bad.append(f"{path.name}:{node.lineno}")
    assert not bad, bad


def test_nothing_in_the_generator_imports_the_validator() -> None:
    bad = []
    for path, tree in _modules():
        for node in ast.walk(tree):
            names: list[str] = []
            line = getattr(node, "lineno", 0)
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            bad += [f"{path.name}:{line}" for n in names if n.split(".")[0] == "toolstream"]
    assert not bad, bad


def test_pinned_constants_empties_the_local_pool_and_restores_it() -> None:
    original = providers._get_local_constants
    with pinned_constants():
        with pinned_constants():  # re-entrant
            assert len(providers._get_local_constants()) == 0
        assert providers._get_local_constants is not original
    assert providers._get_local_constants is original
