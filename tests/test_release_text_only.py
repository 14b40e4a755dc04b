"""Release check: a text-only stream exits 2 with ``status=not_applicable``,
for every profile."""

from __future__ import annotations

from collections.abc import Callable

from tests.support.release import PROFILES, RUNNERS, TEXT_ONLY, ReleaseCase, Run, write_fixture


class TextOnlyStream(ReleaseCase):
    def check(self, profile: str, runner: Callable[..., Run]) -> None:
        path = write_fixture(self.folder, profile, TEXT_ONLY[profile])
        run = runner(path)
        self.assertEqual(run.exit_code, 2)
        self.assertEqual(run.report["profile"], profile)
        self.assertEqual(run.report["status"], "not_applicable")
        self.assertIs(run.report["applicable"], False)
        self.assertIs(run.report["executable"], False)
        self.assertEqual(run.report["calls"], [])
        self.assertEqual(run.report["findings"], [])
        text = runner(path, "text")
        self.assertEqual(text.exit_code, 2)
        self.assertEqual(
            text.stdout, f"status: not_applicable  profile: {profile}  executable: False\n"
        )

    def test_every_profile_has_a_text_only_stream(self) -> None:
        self.assertEqual(sorted(TEXT_ONLY), sorted(PROFILES))


def _add(profile: str) -> None:
    for how, runner in RUNNERS:

        def test(self: TextOnlyStream, runner: Callable[..., Run] = runner) -> None:
            self.check(profile, runner)

        setattr(TextOnlyStream, f"test_{profile.replace('-', '_')}_{how}_exits_2", test)


for _profile in PROFILES:
    _add(_profile)
