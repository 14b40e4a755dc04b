"""Each side's verdict: the upstream case's, and the gateway's answer's.

The gateway's answer is judged the way a strict client of the downstream
format would meet it: an HTTP error or a body broken off is an ``error``
(the client sees an exception, not calls); a body is parsed with
``toolstream import``'s reader as a fixture of the downstream profile (the
case's tools, the request's ``tool_choice``) and validated with the
reference; a body that does not read as one turn of that format is
``blocked``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from toolstream.api import validate
from toolstream.diff.classify import json_safe
from toolstream.gateway.exchange import Answer
from toolstream.report import CallReport, Report

__all__ = ["BLOCKED", "ERROR", "PASS", "Side", "judge_answer", "side_of"]

PASS: Final = "pass"
BLOCKED: Final = "blocked"
ERROR: Final = "error"


@dataclass(frozen=True)
class Side:
    """One side's verdict: ``status`` (``pass``, ``blocked`` -- which here
    also covers the reference's ``not_applicable`` -- or ``error``), the
    reference's codes, its client calls, and one line saying why."""

    status: str
    codes: tuple[str, ...] = ()
    calls: tuple[CallReport, ...] = ()
    detail: str = ""
    fixture: Mapping[str, Any] | None = field(default=None, compare=False)

    @property
    def passes(self) -> bool:
        return self.status == PASS

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "codes": list(self.codes)}
        if self.detail:
            out["detail"] = self.detail
        out["calls"] = [
            {"id": c.id, "name": c.name, "input": json_safe(c.input)}
            if c.validated
            else {"id": c.id, "name": c.name, "arguments": c.arguments}
            for c in self.calls
        ]
        return out


def side_of(report: Report, detail: str = "") -> Side:
    """A reference report as a side."""
    status = PASS if report.status == "pass" else BLOCKED
    codes = tuple(report.codes)
    if not detail:
        detail = (
            f"{report.status} ({', '.join(codes)})"
            if codes
            else f"{report.status}, {len(report.client_calls())} call(s)"
        )
    return Side(status, codes, tuple(report.client_calls()), detail)


def judge_answer(
    answer: Answer, profile: str, fixture: Mapping[str, Any], request: Mapping[str, Any]
) -> Side:
    """The downstream side for the gateway's ``answer`` (see the module docstring)."""
    if not 200 <= answer.status < 300:
        return Side(ERROR, detail=f"HTTP {answer.status}: {answer.error_message()}")
    if answer.cut is not None:
        return Side(ERROR, detail=f"HTTP {answer.status}, {answer.cut}")
    from toolstream.importer import ImportFailure, import_capture

    schemas = fixture.get("tool_schemas")
    try:
        imported = import_capture(
            answer.body,
            source_name="gateway",
            profile=profile,
            tool_schemas=schemas if isinstance(schemas, Mapping) else {},
            request=request,
        )
    except ImportFailure as error:
        return Side(BLOCKED, detail=f"not a {profile} stream: {_line(str(error))}")
    if len(imported.turns) != 1:
        return Side(BLOCKED, detail=f"{len(imported.turns)} {profile} turns in one answer, not one")
    downstream = dict(imported.turns[0].fixture)
    downstream.pop("meta", None)
    side = side_of(validate(downstream))
    return Side(side.status, side.codes, side.calls, side.detail, downstream)


def _line(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
