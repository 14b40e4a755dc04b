"""Release check: an interleaved or reused-slot stream exits 1 with
``identity_collision`` and executes nothing, for every profile."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import toolstream
from tests.support.release import (
    PROFILES,
    RUNNERS,
    ReleaseCase,
    Run,
    catalogue_fixtures,
    codes,
    write_fixture,
)

COLLISIONS = catalogue_fixtures("identity_collision")


class IdentityCollision(ReleaseCase):
    def check(self, profile: str, fixture: dict[str, Any], runner: Callable[[str], Run]) -> None:
        run = runner(write_fixture(self.folder, profile, fixture))
        self.assertEqual(run.exit_code, 1)
        self.assertEqual(run.report["profile"], profile)
        self.assertEqual(run.report["status"], "blocked")
        self.assertIs(run.report["executable"], False)
        self.assertIn("identity_collision", codes(run.report))
        # Executes nothing: the collided slot is blocked, and a blocked slot
        # carries no validated input (the report names no "input" for it).
        collided = [c for c in run.report["calls"] if c["state"] == "blocked"]
        self.assertTrue(collided)
        for call in collided:
            self.assertNotIn("input", call)

    def check_gate(self, profile: str, fixture: dict[str, Any]) -> None:
        # What a caller runs is what the gate hands over: nothing.
        report = toolstream.validate(fixture)
        self.assertFalse(report.executable)
        self.assertEqual(report.exit_code, 1)
        ran: list[str] = []
        if report.executable:
            ran.extend(c.name or "" for c in report.client_calls())
        self.assertEqual(ran, [])

    def test_every_profile_has_a_collision_fixture(self) -> None:
        self.assertEqual(sorted({p for p, _, _ in COLLISIONS}), sorted(PROFILES))

    def test_openai_interleaved_ids_on_one_index(self) -> None:
        # Two calls interleaved on index 0: the second id arrives mid-call.
        fixture = {
            "profile": "openai",
            "tool_schemas": {"weather": {"type": "object"}},
            "chunks": [
                _delta(
                    {
                        "index": 0,
                        "id": "call_a",
                        "type": "function",
                        "function": {"name": "weather", "arguments": '{"ci'},
                    }
                ),
                _delta(
                    {
                        "index": 0,
                        "id": "call_b",
                        "type": "function",
                        "function": {"name": "weather", "arguments": '{"ci'},
                    }
                ),
                _delta({"index": 0, "function": {"arguments": 'ty": "Paris"}'}}),
                {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
            ],
        }
        for _, runner in RUNNERS:
            self.check("openai", fixture, runner)
        self.check_gate("openai", fixture)


def _delta(call: dict[str, Any]) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}]}


def _add(number: int, profile: str, title: str, fixture: dict[str, Any]) -> None:
    slug = f"{profile.replace('-', '_')}_{number}"
    for how, runner in RUNNERS:

        def test(self: IdentityCollision, runner: Callable[[str], Run] = runner) -> None:
            self.check(profile, fixture, runner)

        test.__doc__ = title
        setattr(IdentityCollision, f"test_{slug}_{how}_exits_1_identity_collision", test)

    def gate_test(self: IdentityCollision) -> None:
        self.check_gate(profile, fixture)

    gate_test.__doc__ = title
    setattr(IdentityCollision, f"test_{slug}_executes_nothing", gate_test)


for _number, (_profile, _title, _fixture) in enumerate(COLLISIONS):
    _add(_number, _profile, _title, _fixture)
