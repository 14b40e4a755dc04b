"""The JSON Schema subset keyword by keyword (``toolstream.schema``): the
data-driven suite of tests/support/schema_suite.py (type, enum/const, numbers,
strings, arrays, objects, anyOf, boolean schemas, ``$ref``, annotations).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.schema_suite import SUITE, SUITE_IDS
from toolstream.schema import (
    EVALUATION_ORDER,
    Violation,
    check_schema,
    first_violation,
    iter_violations,
)


def test_suite_ids_are_unique() -> None:
    assert len(set(SUITE_IDS)) == len(SUITE_IDS)


@pytest.mark.parametrize(("schema", "instance", "valid"), SUITE, ids=SUITE_IDS)
def test_suite(schema: Any, instance: Any, valid: bool) -> None:
    check_schema(schema)
    violations = list(iter_violations(schema, instance))
    first = first_violation(schema, instance)
    assert (first is None) == valid, violations
    assert (not violations) == valid
    if violations:
        assert first == violations[0]
        for violation in violations:
            assert isinstance(violation, Violation)
            assert violation.path == "" or violation.path.startswith("/")
            assert violation.keyword in {*EVALUATION_ORDER, "false"}
            assert 0 < len(violation.message) <= 500
