"""The verdict for one turn, and its deterministic JSON form."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Any

from toolstream.events import CLIENT
from toolstream.findings import Finding

REPORT_VERSION = 1


class Status(str, enum.Enum):
    """A turn's verdict.  The value is the string used in reports, labels
    and on the console (``str()`` and f-strings give it too)."""

    PASS = "pass"
    """Applicable and without a finding: the calls may be executed."""
    BLOCKED = "blocked"
    """At least one finding: nothing in the turn may be executed."""
    NOT_APPLICABLE = "not_applicable"
    """No tool activity at all (no call, no tool-use end reason, no finding
    about tool routing): there is nothing to execute or to refuse."""

    def __str__(self) -> str:
        return self.value


EXIT_CODES: dict[Status, int] = {Status.PASS: 0, Status.BLOCKED: 1, Status.NOT_APPLICABLE: 2}
"""Process exit status for each verdict (``toolstream validate``)."""


@dataclass(frozen=True)
class CallReport:
    """One slot as reassembled.  ``arguments`` is exactly the reassembled
    text (for an Anthropic block whose input came only from its start event,
    the compact JSON serialization of that input); ``input`` is set only for
    a call that passed every check."""

    slot: int
    choice: int | None
    kind: str
    state: str
    id: str | None
    name: str | None
    arguments: str
    input: Any
    validated: bool
    findings: tuple[Finding, ...]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"slot": self.slot}
        if self.choice is not None:
            out["choice"] = self.choice
        out.update(
            kind=self.kind,
            state=self.state,
            id=self.id,
            name=self.name,
            arguments=self.arguments,
        )
        if self.validated:
            out["input"] = self.input
        out["findings"] = [f.to_dict() for f in self.findings]
        return out


def build_call_report(
    slot: int,
    choice: int | None,
    kind: str,
    state: str,
    id: str | None,
    name: str | None,
    arguments: str,
    input: Any,
    validated: bool,
    findings: tuple[Finding, ...],
) -> CallReport:
    """``CallReport(...)`` with the same fields, built without the generated
    ``__init__``: a frozen dataclass sets each field through
    ``object.__setattr__``, 1.0 us a report against 0.2 us for one update of
    the instance's dict, and the gate builds one per call of every turn.
    ``CallReport`` has no ``__post_init__`` to skip (a test holds the two
    constructions equal field for field)."""
    report = _new_object(CallReport)
    report.__dict__.update(
        slot=slot,
        choice=choice,
        kind=kind,
        state=state,
        id=id,
        name=name,
        arguments=arguments,
        input=input,
        validated=validated,
        findings=findings,
    )
    return report


_new_object = object.__new__


@dataclass(frozen=True)
class Report:
    profile: str | None
    status: Status
    """Given as a :class:`Status` or its value ("pass"...); kept as a Status."""
    calls: tuple[CallReport, ...]
    findings: tuple[Finding, ...]
    dialects: tuple[str, ...] = ()
    """The reviewed dialects (toolstream.profiles.dialects) the stream used."""

    def __post_init__(self) -> None:
        # A report built by hand (a test, an adapter) may name its status by
        # its string; ValueError for anything that is not a verdict.
        object.__setattr__(self, "status", Status(self.status))

    @property
    def applicable(self) -> bool:
        return self.status is not Status.NOT_APPLICABLE

    @property
    def executable(self) -> bool:
        return self.status is Status.PASS

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]

    @property
    def codes(self) -> list[str]:
        """The sorted set of finding codes: what a corpus label compares."""
        return sorted({f.code.value for f in self.findings})

    def client_calls(self) -> list[CallReport]:
        return [c for c in self.calls if c.kind == CLIENT]

    def to_dict(self) -> dict[str, Any]:
        return {
            "report_version": REPORT_VERSION,
            "profile": self.profile,
            "status": self.status.value,
            "applicable": self.applicable,
            "executable": self.executable,
            "calls": [c.to_dict() for c in self.calls],
            "findings": [f.to_dict() for f in self.findings],
            # Only when a dialect was used, so closed-world reports keep their bytes.
            **({"dialects": list(self.dialects)} if self.dialects else {}),
        }

    def to_json(self) -> str:
        # ASCII output: arguments may hold unpaired surrogates, which have no
        # UTF-8 form; escaping keeps the report byte-stable and printable.
        return json.dumps(self.to_dict(), ensure_ascii=True, indent=2) + "\n"
