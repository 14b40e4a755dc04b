"""``build_call_report``, the gate's constructor of a turn's call reports,
builds exactly what ``CallReport(...)`` builds: every field, no other."""

from __future__ import annotations

import dataclasses

import pytest

from toolstream.findings import Code, Finding
from toolstream.report import CallReport, build_call_report

FINDING = Finding(code=Code.SCHEMA_VIOLATION, message="m", slot=0, event=3, path="/a", choice=None)

VALUES = [
    (0, None, "client", "validated", "call_1", "get", '{"a":1}', {"a": 1}, True, ()),
    (2, 1, "block", "blocked", None, None, "", None, False, (FINDING,)),
]


@pytest.mark.parametrize("values", VALUES)
def test_the_same_report_as_the_dataclass_constructor(values: tuple[object, ...]) -> None:
    built = build_call_report(*values)  # type: ignore[arg-type]
    made = CallReport(*values)  # type: ignore[arg-type]
    assert type(built) is CallReport
    assert vars(built) == vars(made)
    assert built == made
    assert built.to_dict() == made.to_dict()


def test_every_field_is_set_and_nothing_else() -> None:
    built = build_call_report(*VALUES[0])
    assert list(vars(built)) == [field.name for field in dataclasses.fields(CallReport)]


def test_it_stays_frozen() -> None:
    built = build_call_report(*VALUES[0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.slot = 5  # type: ignore[misc]
