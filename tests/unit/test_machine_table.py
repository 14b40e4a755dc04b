"""The transition tables in ``toolstream/machine.py`` are the truth.

Every change of a slot's state is a lookup in ``TRANSITIONS`` (no code sets
a state directly), every row of ``TRANSITIONS`` and ``ILLEGAL`` is a move
the validator makes on the finding catalogue (no row is dead), every scope
rule is met, and ``docs/state-machine.md`` is what the tables render to.
"""

from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.builders import (
    anthropic,
    block_stop,
    json_delta,
    message_delta,
    message_start,
    message_stop,
    tool_start,
)
from tests.support.catalogue import CATALOGUE
from toolstream import machine, validate
from toolstream.findings import Code, ProtocolError
from toolstream.machine import ILLEGAL, SCOPE_RULES, TRANSITIONS, Input, Slot, State

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "corpus" / "seeds").glob("*.json"))

_CITY = '{"city":"Paris"}'

# Moves no catalogue entry makes (each entry shows its one code once): a
# block started again after its stop, a third start of a block already
# blocked, a second message start, a message without its end reason or stop.
EXTRA = {
    "start after stop": anthropic(
        [
            *(message_start(), tool_start(0), json_delta(0, _CITY), block_stop(0)),
            *(tool_start(0), message_delta(), message_stop()),
        ]
    ),
    "third start": anthropic(
        [
            *(message_start(), tool_start(0), tool_start(0), tool_start(0)),
            *(json_delta(0, _CITY), block_stop(0), message_delta(), message_stop()),
        ]
    ),
    "second message start": anthropic(
        [
            *(message_start(), message_start(), tool_start(0), json_delta(0, _CITY)),
            *(block_stop(0), message_delta(), message_stop()),
        ]
    ),
    "no end reason": anthropic(
        [message_start(), tool_start(0), json_delta(0, _CITY), block_stop(0), message_stop()]
    ),
    "no message stop": anthropic(
        [message_start(), tool_start(0), json_delta(0, _CITY), block_stop(0), message_delta()]
    ),
}


def _fixtures() -> list[Any]:
    fixtures = [entry.fixture for entry in CATALOGUE]
    fixtures += [json.loads(path.read_bytes()) for path in SEEDS]
    return fixtures + list(EXTRA.values())


class _Recording(dict[Any, Any]):
    """A table that remembers which rows were looked up."""

    def __init__(self, table: dict[Any, Any], seen: set[Any]) -> None:
        super().__init__(table)
        self.seen = seen

    def get(self, key: Any, default: Any = None) -> Any:
        if key in self:
            self.seen.add(key)
        return super().get(key, default)


def test_every_row_of_the_slot_tables_is_a_move_the_validator_makes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: set[Any] = set()
    monkeypatch.setattr(machine, "TRANSITIONS", _Recording(TRANSITIONS, seen))
    monkeypatch.setattr(machine, "ILLEGAL", _Recording(ILLEGAL, seen))
    assert SEEDS, "no seeds found"
    for fixture in _fixtures():
        validate(fixture)
    dead = [f"{s.value} --{i.value}-->" for s, i in [*TRANSITIONS, *ILLEGAL] if (s, i) not in seen]
    assert not dead, f"rows nothing looks up: {dead}"


def test_every_scope_rule_is_met() -> None:
    messages: set[tuple[str, str]] = set()
    for fixture in _fixtures():
        messages |= {(f.code.value, f.message) for f in validate(fixture).findings}
    for mark, rule in SCOPE_RULES.items():
        again = rule.again_message.split("{}")[0]  # the text before the detail
        assert any(
            code == rule.again.value and message.startswith(again) for code, message in messages
        ), f"{mark.value} given again"
        if rule.missing is not None:
            assert (Code.MISSING_TERMINAL.value, rule.missing) in messages, f"no {mark.value}"


def test_the_second_message_start_ends_the_interpretation() -> None:
    report = validate(EXTRA["second message start"])
    assert [(f.code, f.event) for f in report.findings] == [(Code.UNSUPPORTED_EVENT, 1)]
    assert report.calls == ()


def test_an_illegal_move_raises_its_code_and_leaves_the_state() -> None:
    slot = Slot(key=(0, 0), kind="client", first_pos=0)
    assert slot.step(Input.OPEN, 0) is State.ACCUMULATING
    assert slot.step(Input.END, 1) is State.TERMINAL
    with pytest.raises(ProtocolError) as raised:
        slot.step(Input.FRAGMENT, 2)
    assert raised.value.code is Code.DELTA_AFTER_TERMINAL
    assert (raised.value.key, raised.value.event) == ((0, 0), 2)
    assert slot.state is State.TERMINAL


def test_a_move_in_neither_table_is_a_bug_not_a_finding() -> None:
    slot = Slot(key=(0, 0), kind="client", first_pos=0, state=State.VALIDATED)
    with pytest.raises(AssertionError, match="validated --reject-->"):
        slot.step(Input.REJECT, None)


def test_only_the_table_lookup_sets_a_slot_state() -> None:
    # Slot.step is the one place that assigns ``.state``; anything else
    # would be a move the tables (and the diagram) do not show.
    found = []
    for path in sorted((ROOT / "toolstream").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                targets: list[ast.expr] = []
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                    targets = [node.target]
                for target in targets:
                    if isinstance(target, ast.Attribute) and target.attr == "state":
                        found.append(f"{path.relative_to(ROOT)}:{target.lineno} {function.name}")
    assert [entry.split(" ")[1] for entry in found] == ["step"], found


def test_the_state_machine_doc_is_what_the_tables_render() -> None:
    spec = importlib.util.spec_from_file_location("render_docs", ROOT / "scripts/render_docs.py")
    assert spec is not None and spec.loader is not None
    render_docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(render_docs)
    doc = (ROOT / "docs" / "state-machine.md").read_text(encoding="utf-8")
    assert doc == render_docs.state_machine_md(), "stale: run `make docs`"
