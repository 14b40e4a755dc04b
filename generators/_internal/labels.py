"""Labels, mutant records, and how a composition of operators is labelled.

A label is computed from what the operators *did*, never by running the
validator.  Each breaking operator records its effect in :class:`Effects`:

* a **slot defect** ``(slot, rank, code)``: the slot now breaks the rule of
  that rank.  A slot reports at most one finding, the rule checked first,
  so the code a slot contributes is that of its lowest rank (operators only
  touch distinct slots, so two defects never compete for one slot);
* a **turn code**: a finding about the whole turn (``missing_slot``,
  ``wrong_terminal_reason``, ``duplicate_terminal`` for a choice or message,
  ``provider_error``), independent of every slot check;
* a **final label** for operators whose effect stops or reshapes the whole
  interpretation (``truncate``, ``bad_index``, ``second_choice``,
  ``finish_without_calls``): they are never combined with another breaking
  operator, and compute their label themselves.

The ranks follow the end-of-turn check order of a slot, the order in which
the validator's ``gate._check_call`` runs its checks (the first that fails
is the slot's one finding): read-time rules first (:data:`RANK_FEED`), then
the terminal, and then :data:`CHECK_ORDER`: id, name, duplicate id,
conflicting start input, empty arguments, strict JSON, an object, a known
tool, a usable schema (supported keywords, valid syntax), the arguments
against the schema.  ``tests/unit/test_check_order.py``
holds :data:`CHECK_ORDER` against the gate's own declaration of its order
(the generator never imports the validator; the test reads both).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .model import Call, Turn

RANK_FEED = 0
"""A rule broken while the stream is read (identity_collision,
non_string_fragment, delta_after_terminal, a slot's duplicate_terminal):
the slot is blocked at once and every end-of-turn check is skipped."""
RANK_TERMINAL = 1
RANK_ID = 2
RANK_NAME = 3
RANK_DUPLICATE_ID = 4
RANK_CONFLICT = 5
RANK_EMPTY = 6
RANK_JSON = 7
RANK_NON_OBJECT = 8
RANK_UNKNOWN_TOOL = 9
RANK_SCHEMA = 10
RANK_VIOLATION = 11

CHECK_ORDER: tuple[tuple[int, tuple[str, ...]], ...] = (
    (RANK_ID, ("missing_id",)),
    (RANK_NAME, ("missing_name",)),
    (RANK_DUPLICATE_ID, ("duplicate_id",)),
    (RANK_CONFLICT, ("conflicting_input",)),
    (RANK_EMPTY, ("empty_arguments",)),
    (
        RANK_JSON,
        (
            "malformed_json",
            "trailing_data",
            "non_finite_number",
            "duplicate_key",
            "invalid_unicode",
        ),
    ),
    (RANK_NON_OBJECT, ("non_object_arguments",)),
    (RANK_UNKNOWN_TOOL, ("unknown_tool",)),
    (RANK_SCHEMA, ("unsupported_schema_keyword", "invalid_schema")),
    (RANK_VIOLATION, ("schema_violation",)),
)
"""The checks a terminated slot goes through, in order: (rank, the finding
codes of that check).  The strict JSON parse is one check with several
codes, and so is the check of the schema itself (no operator breaks a
schema's syntax: ``invalid_schema`` is listed for the order, never
labelled).  ``limit_exceeded`` (a resource limit, checked between empty
arguments and the parse) is not here: no operator breaks a limit."""
UNLABELLED_CHECKS = ("limit_exceeded",)
"""Codes of end-of-turn checks the generator never labels (see above)."""

assert [rank for rank, _ in CHECK_ORDER] == sorted({rank for rank, _ in CHECK_ORDER})

STATUSES = ("pass", "blocked", "not_applicable")


@dataclass(frozen=True)
class Label:
    """What the reference validator must answer for a mutant."""

    status: str
    codes: tuple[str, ...]
    """Sorted, distinct finding codes."""
    calls: tuple[dict[str, str], ...] | None = None
    """For ``pass``: the client calls ``{"id", "name", "arguments"}`` in slot
    order; ``None`` otherwise."""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"bad status {self.status!r}")
        if tuple(sorted(set(self.codes))) != tuple(self.codes):
            raise ValueError("codes must be sorted and distinct")
        if (self.status == "pass") != (self.calls is not None):
            raise ValueError("calls are given exactly for a passing label")
        if self.status == "pass" and self.codes:
            raise ValueError("a passing label has no codes")
        if self.status == "blocked" and not self.codes:
            raise ValueError("a blocked label names a code")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "codes": list(self.codes)}
        if self.status == "pass":
            out["calls"] = [dict(c) for c in self.calls or ()]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Label:
        calls = data.get("calls")
        return cls(
            status=data["status"],
            codes=tuple(data["codes"]),
            calls=None if calls is None else tuple(dict(c) for c in calls),
        )


@dataclass(frozen=True)
class Mutant:
    """A fixture envelope and its label, with the operators that made it."""

    fixture: dict[str, Any]
    label: Label
    operators: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "fixture": self.fixture,
            "label": self.label.to_dict(),
            "operators": list(self.operators),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=True, sort_keys=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Mutant:
        return cls(
            fixture=data["fixture"],
            label=Label.from_dict(data["label"]),
            operators=tuple(data["operators"]),
        )


@dataclass
class Effects:
    """What the breaking operators of one mutant did (see module doc)."""

    defects: list[tuple[Any, int, str]] = field(default_factory=list)
    turn_codes: set[str] = field(default_factory=set)
    final: Label | None = None
    claimed: list[Any] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    sealed: bool = False
    """The stream no longer has the shape the operators edit (a whole
    message: no block events left): no further operator applies."""

    def is_free(self, slot: Any) -> bool:
        return not any(s is slot for s in self.claimed)

    def claim(self, *slots: Any) -> None:
        for slot in slots:
            if not self.is_free(slot):
                raise AssertionError("slot claimed twice")
            self.claimed.append(slot)

    def slot(self, slot: Any, rank: int, code: str) -> None:
        """``slot`` (claimed by the caller) now breaks the rule ``rank``."""
        self.defects.append((slot, rank, code))

    def turn(self, code: str) -> None:
        self.turn_codes.add(code)

    @property
    def breaking(self) -> bool:
        return bool(self.defects or self.turn_codes or self.final is not None)


def pass_calls(turn: Turn) -> tuple[dict[str, str], ...]:
    out = []
    for call in turn.slot_calls():
        assert isinstance(call, Call) and call.expected is not None
        out.append({"id": call.id, "name": call.name, "arguments": call.expected})
    return tuple(out)


def compute(turn: Turn, effects: Effects) -> Label:
    """The label of the mutant ``turn`` given what was done to it."""
    if effects.final is not None:
        return effects.final
    codes = set(effects.turn_codes)
    best: dict[int, tuple[int, str]] = {}
    for slot, rank, code in effects.defects:
        key = id(slot)
        if key not in best or rank < best[key][0]:
            best[key] = (rank, code)
    codes.update(code for _, code in best.values())
    if codes:
        # Every non-final breaking operator keeps at least one client call,
        # so the turn stays applicable.
        return Label("blocked", tuple(sorted(codes)))
    return Label("pass", (), pass_calls(turn))
