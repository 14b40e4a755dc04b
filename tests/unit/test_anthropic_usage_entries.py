"""The beta usage's typed objects (anthropic_members.USAGE_ENTRIES): each
``iterations`` entry and the ``fallback_credit`` status is closed by its
``type``; an unknown type, or an entry of another shape, blocks naming its
path; every type with all its members passes."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.support.builders import MESSAGE, anthropic, anthropic_turn, message_start, tool_block
from toolstream import validate
from toolstream.profiles.anthropic_members import USAGE_ENTRIES


def _turn(usage: dict[str, Any], where: str = "message_start") -> dict[str, Any]:
    events = anthropic_turn(tool_block())
    if where == "message_start":
        events[0] = message_start(MESSAGE | {"usage": usage})
    else:
        events[-2]["usage"] = {**events[-2].get("usage", {}), **usage}
    return anthropic(events)


def _every_member(path: str, kind: str) -> dict[str, Any]:
    shape = USAGE_ENTRIES[path][kind]
    value: dict[str, Any] = dict.fromkeys(shape.members)
    value["type"] = kind
    return value


CASES = [(path, kind) for path, by_type in USAGE_ENTRIES.items() for kind in sorted(by_type)]


@pytest.mark.parametrize(("path", "kind"), CASES)
def test_every_type_with_all_its_members_passes(path: str, kind: str) -> None:
    where, _, rest = path.partition(".usage.")
    event = "message_start" if where.startswith("message_start") else "message_delta"
    value = _every_member(path, kind)
    usage = (
        {"iterations": [value]}
        if rest == "iterations[]"
        else {"fallback_credit": {"status": value}}
    )
    report = validate(_turn(usage, event))
    assert report.status == "pass", report.to_json()


@pytest.mark.parametrize("event", ["message_start", "message_delta"])
@pytest.mark.parametrize(
    ("usage", "named"),
    [
        ({"iterations": [{"type": "zz_iteration"}]}, "iterations[].type='zz_iteration'"),
        ({"iterations": ["message"]}, "iterations[]"),
        ({"iterations": {"type": "message"}}, "usage.iterations"),
        ({"fallback_credit": {"status": {"type": "zz"}}}, "fallback_credit.status.type='zz'"),
        ({"fallback_credit": {"status": "redeemed"}}, "fallback_credit.status"),
    ],
    ids=[
        "unknown iteration",
        "entry not an object",
        "object for the array",
        "unknown status",
        "status not an object",
    ],
)
def test_an_unknown_type_or_shape_blocks_naming_its_path(
    event: str, usage: dict[str, Any], named: str
) -> None:
    report = validate(_turn(copy.deepcopy(usage), event))
    assert report.status == "blocked", report.to_json()
    assert any(f.code == "unsupported_event" and named in f.message for f in report.findings), (
        report.to_json()
    )
