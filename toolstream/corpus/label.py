"""Labels: what a case expects the reference validator to say, and the
comparison that ``toolstream verify`` makes.

A label (the case's ``expect`` object) is::

    {"status": "pass" | "blocked" | "not_applicable",
     "codes": [sorted, distinct finding codes],
     "calls": [{"id": ..., "name": ..., "arguments": ...}, ...]}   # pass only

It holds when the validator's status is the same, its set of finding codes is
exactly ``codes``, and, for a passing case, its client calls are exactly
``calls``: same count, same order, ``id``/``name``/``arguments`` equal code
point for code point.

Standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from toolstream.findings import Code
from toolstream.messages import excerpt
from toolstream.report import Report, Status

STATUSES = tuple(status.value for status in Status)
CALL_KEYS = ("id", "name", "arguments")
KNOWN_CODES = frozenset(c.value for c in Code)


def label_of(report: Report) -> dict[str, Any]:
    """The label that states exactly ``report``'s verdict."""
    out: dict[str, Any] = {"status": report.status.value, "codes": report.codes}
    if report.status is Status.PASS:
        out["calls"] = [
            {"id": c.id, "name": c.name, "arguments": c.arguments} for c in report.client_calls()
        ]
    return out


def show(value: Any, width: int = 80) -> str:
    """A short ASCII rendering of a value for messages (safe in XML and on
    any terminal: control characters and surrogates are escaped)."""
    return excerpt(json.dumps(value, ensure_ascii=True), width)


def label_problems(expect: Any) -> list[str]:
    """What is wrong with a label's form (empty when it is well formed)."""
    if not isinstance(expect, Mapping):
        return ["the case has no label: 'expect' is missing or not an object"]
    problems: list[str] = []
    extra = sorted(str(k) for k in expect if k not in ("status", "codes", "calls"))
    if extra:
        problems.append(f"label has unknown key(s) {', '.join(show(k) for k in extra)}")
    status = expect.get("status")
    if status not in STATUSES:
        problems.append(f"label status {show(status)} is not one of {', '.join(STATUSES)}")
    codes = expect.get("codes")
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        problems.append("label codes must be an array of strings")
    else:
        if codes != sorted(set(codes)):
            problems.append("label codes must be sorted and distinct")
        unknown = [c for c in codes if c not in KNOWN_CODES]
        if unknown:
            problems.append(f"label has unknown code(s) {', '.join(show(c) for c in unknown)}")
        if status == Status.PASS and codes:
            problems.append("a passing label has no codes")
        if status == Status.BLOCKED and not codes:
            problems.append("a blocked label names at least one code")
    calls = expect.get("calls")
    if status == Status.PASS:
        if not isinstance(calls, list):
            problems.append("a passing label lists its calls ('calls' array)")
        else:
            for n, call in enumerate(calls):
                if (
                    not isinstance(call, Mapping)
                    or sorted(call) != sorted(CALL_KEYS)
                    or not all(isinstance(call[k], str) for k in CALL_KEYS)
                ):
                    problems.append(
                        f"label call {n} must be an object with exactly the strings"
                        " id, name, arguments"
                    )
    elif "calls" in expect:
        problems.append("only a passing label lists calls")
    return problems


def summary(status: Any, codes: Any, calls: Any = None) -> str:
    """``blocked [malformed_json]`` / ``pass, 2 calls``."""
    if status == Status.PASS and isinstance(calls, list):
        count = len(calls)
        return f"pass, {count} call{'s' if count != 1 else ''}"
    shown = ", ".join(str(c) for c in codes) if isinstance(codes, list) else show(codes)
    return f"{status} [{shown}]"


def expect_summary(expect: Any) -> str:
    if not isinstance(expect, Mapping):
        return "(no label)"
    return summary(expect.get("status"), expect.get("codes"), expect.get("calls"))


def report_summary(report: Report) -> str:
    calls = report.client_calls() if report.status is Status.PASS else None
    return summary(report.status, report.codes, calls)


def compare(expect: Mapping[str, Any], report: Report) -> list[str]:
    """How ``report`` differs from a well-formed label (empty: it holds)."""
    problems: list[str] = []
    if expect["status"] != report.status:
        problems.append(f"status: expected {expect['status']}, got {report.status}")
    want = set(expect["codes"])
    got = set(report.codes)
    if want != got:
        parts = []
        if want - got:
            parts.append("missing " + ", ".join(sorted(want - got)))
        if got - want:
            parts.append("unexpected " + ", ".join(sorted(got - want)))
        problems.append("codes: " + "; ".join(parts))
    if expect["status"] == Status.PASS and report.status is Status.PASS:
        problems.extend(compare_calls(expect["calls"], report))
    return problems


def compare_calls(calls: list[Mapping[str, Any]], report: Report) -> list[str]:
    actual = report.client_calls()
    if len(calls) != len(actual):
        return [f"calls: expected {len(calls)}, got {len(actual)}"]
    problems = []
    for n, (want, got) in enumerate(zip(calls, actual, strict=True)):
        for key in CALL_KEYS:
            value = getattr(got, key)
            if want[key] != value:
                problems.append(
                    f"call {n} {key}: expected {show(want[key], 60)}, got {show(value, 60)}"
                )
    return problems
