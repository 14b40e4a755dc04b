"""Release check: malformed, truncated, duplicate-terminal, non-finite,
unknown-tool, unsupported-schema and schema-invalid fixtures fail closed
(exit 1, blocked, not executable, the expected finding code), for every
profile where the defect can occur."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.support.release import (
    FAIL_CLOSED_CODES,
    PROFILES,
    RUNNERS,
    ReleaseCase,
    Run,
    catalogue_fixtures,
    codes,
    write_fixture,
)

CANNOT_OCCUR = {"malformed_json": {"gemini"}}
"""Where a defect has no wire form: gemini sends arguments as a JSON object,
never as text, so they cannot be malformed."""


class FailClosed(ReleaseCase):
    def check(
        self, code: str, profile: str, fixture: dict[str, Any], runner: Callable[[str], Run]
    ) -> None:
        run = runner(write_fixture(self.folder, f"{profile}-{code}", fixture))
        self.assertEqual(run.exit_code, 1)
        self.assertEqual(run.report["profile"], profile)
        self.assertEqual(run.report["status"], "blocked")
        self.assertIs(run.report["executable"], False)
        self.assertIn(code, codes(run.report))

    def test_every_defect_is_covered_on_every_profile_where_it_can_occur(self) -> None:
        for code in FAIL_CLOSED_CODES:
            with self.subTest(code=code):
                covered = {p for p, _, _ in catalogue_fixtures(code)}
                self.assertEqual(covered, set(PROFILES) - CANNOT_OCCUR.get(code, set()))

    def test_truncated_openai_stream_without_finish_reason(self) -> None:
        fixture = {
            "profile": "openai",
            "tool_schemas": {"weather": {"type": "object"}},
            "chunks": [
                {
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": None,
                            "delta": {
                                "tool_calls": [
                                    {
                                        "index": 0,
                                        "id": "call_1",
                                        "type": "function",
                                        "function": {
                                            "name": "weather",
                                            "arguments": '{"city": "Paris"}',
                                        },
                                    }
                                ]
                            },
                        }
                    ]
                },
            ],
        }
        for _, runner in RUNNERS:
            self.check("missing_terminal", "openai", fixture, runner)

    def test_non_finite_anthropic_argument(self) -> None:
        events = [
            {
                "type": "message_start",
                "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": []},
            },
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "weather",
                    "input": {},
                },
            },
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": '{"city": NaN}'},
            },
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": "tool_use"}},
            {"type": "message_stop"},
        ]
        fixture = {
            "profile": "anthropic",
            "tool_schemas": {"weather": {"type": "object"}},
            "events": events,
        }
        for _, runner in RUNNERS:
            self.check("non_finite_number", "anthropic", fixture, runner)


def _add(code: str, number: int, profile: str, title: str, fixture: dict[str, Any]) -> None:
    slug = f"{code}_{profile.replace('-', '_')}_{number}"
    for how, runner in RUNNERS:

        def test(self: FailClosed, runner: Callable[[str], Run] = runner) -> None:
            self.check(code, profile, fixture, runner)

        test.__doc__ = title
        setattr(FailClosed, f"test_{slug}_{how}_blocks", test)


for _code in FAIL_CLOSED_CODES:
    for _number, (_profile, _title, _fixture) in enumerate(catalogue_fixtures(_code)):
        _add(_code, _number, _profile, _title, _fixture)
