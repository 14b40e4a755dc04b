"""Every object level of the ``anthropic`` profile, in valid streams of our own
(see ``tests/support/every_level/__init__.py``).  Today: a tool turn and a
text turn from the shared builders; the levels they do not hold yet (server
tool results, citations, containers) are named in
``tests/properties/test_closed_world_levels.py``'s ``NOT_WALKED``."""

from __future__ import annotations

from typing import Any

from tests.support.builders import (
    anthropic,
    anthropic_turn,
    text_delta,
    text_start,
    tool_block,
)

PROFILE = "anthropic"

CASES: list[tuple[str, dict[str, Any]]] = [
    ("tool turn", anthropic(anthropic_turn(tool_block()))),
    (
        "text turn",
        anthropic(
            anthropic_turn(
                [text_start(0), text_delta(0, "Hi"), {"type": "content_block_stop", "index": 0}],
                reason="end_turn",
            )
        ),
    ),
]
