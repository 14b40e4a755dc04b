"""Every object level of the ``bedrock-invoke`` profile, in valid streams of
our own (see ``tests/support/every_level/__init__.py``): Claude's events in
InvokeModelWithResponseStream frames; the walker walks the frame and the
event inside it."""

from __future__ import annotations

from typing import Any

from tests.support.builders_gemini_cohere_invoke import bedrock_invoke, invoke_tool, invoke_turn

PROFILE = "bedrock-invoke"

CASES: list[tuple[str, dict[str, Any]]] = [
    ("tool turn", bedrock_invoke(invoke_turn(invoke_tool()))),
]
