"""The end-of-turn check order of a slot, written down once on each side.

The validator declares the order ``Gate._check_call`` runs its checks in
(``toolstream.gate.CALL_CHECK_ORDER``); the generator labels a slot by the
lowest rank it breaks (``toolstream_generators._internal.labels.CHECK_ORDER``,
the ``RANK_*`` constants).  The generator never imports the validator, so
only a test can hold the two together: here, the declaration against the
code of ``_check_call``, and the generator's order against the declaration.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

from toolstream import gate
from toolstream.findings import Code
from toolstream_generators._internal import labels

# Calls inside ``_check_call`` that stand for a check with codes of its own.
_DELEGATED = {
    "loads_strict": (
        Code.MALFORMED_JSON,
        Code.TRAILING_DATA,
        Code.NON_FINITE_NUMBER,
        Code.DUPLICATE_KEY,
        Code.INVALID_UNICODE,
    ),
    "_check_schema": (Code.UNSUPPORTED_SCHEMA_KEYWORD, Code.INVALID_SCHEMA),
}


def _checks_in_source_order() -> list[tuple[Code, ...]]:
    """The checks of ``_check_call`` as its code runs them: each finding
    code it raises itself, and each delegated check, in source order (first
    occurrence).  ``limit_exceeded`` guards several steps (serializing a
    start input, the text's length): it is placed by the declaration only."""
    source = textwrap.dedent(inspect.getsource(gate.Gate._check_call))
    found: list[tuple[int, int, tuple[Code, ...]]] = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "Code"
        ):
            found.append((node.lineno, node.col_offset, (Code[node.attr],)))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in _DELEGATED:
                found.append((node.lineno, node.col_offset, _DELEGATED[name]))
    order: list[tuple[Code, ...]] = []
    for _, _, check in sorted(found):
        if check not in order and check != (Code.LIMIT_EXCEEDED,):
            order.append(check)
    return order


def test_the_declared_order_is_the_order_check_call_runs() -> None:
    declared = [c for c in gate.CALL_CHECK_ORDER if c != (Code.LIMIT_EXCEEDED,)]
    assert _checks_in_source_order() == declared


def test_the_generator_ranks_slots_in_the_validators_check_order() -> None:
    validator = [
        tuple(code.value for code in check)
        for check in gate.CALL_CHECK_ORDER
        if not set(code.value for code in check) <= set(labels.UNLABELLED_CHECKS)
    ]
    generator = [codes for _, codes in labels.CHECK_ORDER]
    assert generator == validator


def test_the_generator_ranks_follow_its_order() -> None:
    ranks = [rank for rank, _ in labels.CHECK_ORDER]
    assert ranks == sorted(ranks)
    # Read-time rules and the terminal come before every end-of-turn check.
    assert labels.RANK_FEED < labels.RANK_TERMINAL < ranks[0]
    assert ranks == [
        labels.RANK_ID,
        labels.RANK_NAME,
        labels.RANK_DUPLICATE_ID,
        labels.RANK_CONFLICT,
        labels.RANK_EMPTY,
        labels.RANK_JSON,
        labels.RANK_NON_OBJECT,
        labels.RANK_UNKNOWN_TOOL,
        labels.RANK_SCHEMA,
        labels.RANK_VIOLATION,
    ]
