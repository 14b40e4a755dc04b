"""Release check: a valid fragmented call exits 0 and reports its exact id,
name, arguments and ``executable=true``, for every profile, run in-process
and as ``python3 -S -m toolstream.reference``."""

from __future__ import annotations

from collections.abc import Callable

from tests.support.release import PROFILES, RUNNERS, VALID, ReleaseCase, Run, write_fixture


class ValidFragmentedCall(ReleaseCase):
    def check(self, profile: str, runner: Callable[[str], Run]) -> None:
        valid = VALID[profile]
        run = runner(write_fixture(self.folder, profile, valid.fixture))
        self.assertEqual(run.exit_code, 0)
        report = run.report
        self.assertEqual(report["profile"], profile)
        self.assertEqual(report["status"], "pass")
        self.assertIs(report["applicable"], True)
        self.assertIs(report["executable"], True)
        self.assertEqual(report["findings"], [])
        self.assertEqual(
            [(c["kind"], c["state"], c["id"], c["name"], c["arguments"]) for c in report["calls"]],
            [("client", "validated", c.id, c.name, c.arguments) for c in valid.calls],
        )
        self.assertEqual([c["findings"] for c in report["calls"]], [[]] * len(valid.calls))

    def check_text(self, profile: str, runner: Callable[..., Run]) -> None:
        valid = VALID[profile]
        run = runner(write_fixture(self.folder, profile, valid.fixture), "text")
        self.assertEqual(run.exit_code, 0)
        first = run.stdout.splitlines()[0]
        self.assertEqual(first, f"status: pass  profile: {profile}  executable: True")
        for call in valid.calls:
            self.assertIn(f"id={call.id!r} name={call.name!r}", run.stdout)
            self.assertIn(f"arguments={call.arguments!r}", run.stdout)

    def test_every_profile_has_a_valid_fragmented_call(self) -> None:
        self.assertEqual(sorted(VALID), sorted(PROFILES))
        self.assertEqual(len(PROFILES), 9)


def _add(profile: str) -> None:
    slug = profile.replace("-", "_")
    for how, runner in RUNNERS:

        def json_test(self: ValidFragmentedCall, runner: Callable[[str], Run] = runner) -> None:
            self.check(profile, runner)

        def text_test(self: ValidFragmentedCall, runner: Callable[..., Run] = runner) -> None:
            self.check_text(profile, runner)

        setattr(ValidFragmentedCall, f"test_{slug}_{how}_exits_0_with_exact_call", json_test)
        setattr(ValidFragmentedCall, f"test_{slug}_{how}_text_report", text_test)


for _profile in PROFILES:
    _add(_profile)
