"""What every reproducer shares: its templates and its header."""

from __future__ import annotations

import textwrap
from importlib import resources
from typing import Any

__all__ = ["explanation", "header_lines", "template"]

_WHAT: dict[str, str] = {
    "unsafe_accept": (
        "The library hands the application tool calls that a strict reassembler"
        " refuses to run: an application that executes what it is handed would run"
        " them."
    ),
    "wrong_calls": (
        "The library hands over tool calls other than the ones the stream carries"
        " (another id, name or argument text): the application would run the wrong call."
    ),
    "false_reject": "The library refuses a turn a strict reassembler accepts.",
    "adapter_crash": "The library raises an exception of its own on this stream.",
    "agree": "The library and a strict reassembler agree on this stream.",
}


def template(name: str) -> str:
    return (
        resources.files("toolstream.repro").joinpath("templates").joinpath(name).read_text("utf-8")
    )


def explanation(payload: dict[str, Any]) -> str:
    """The one-paragraph explanation in the header."""
    reference = payload["reference"]
    if reference["status"] == "pass":
        verdict = f"accepts {len(reference['calls'])} call(s)"
    else:
        verdict = f"refuses the turn ({', '.join(reference['codes']) or reference['status']})"
    cut = (
        f" The response is served under the {payload['transport']!r} transport, write for"
        " write as `toolstream serve` sends it."
        if payload["transport"] != "plain"
        else ""
    )
    return (
        f"{_WHAT.get(payload['classification'], payload['classification'])}"
        f" `toolstream diff` classified this case {payload['classification']}:"
        f" {payload['detail']}. The reference {verdict}.{cut}"
    )


def header_lines(payload: dict[str, Any]) -> list[str]:
    lines = [
        f"toolstream reproducer: {payload['client']} ({payload['package']} {payload['version']})",
        f"case: {payload['case']}  transport: {payload['transport']}",
        f"diff classification: {payload['classification']}",
        "",
    ]
    lines.extend(textwrap.wrap(explanation(payload), 76))
    return lines
