"""Schema ``pattern`` timings: pathological patterns and subjects stay bounded.

    python bench/patterns.py [--repeat 3]

Each case runs ``first_violation`` on a subject built to make a backtracking
engine explode (or, for the laziness case, to make evaluating everything
expensive), checks the answer, and times it (median of ``--repeat`` runs).
The bound beside each case is the budget the unit tests used to assert; a
case over its bound, or with a wrong answer, makes the run exit 1.  The
answers themselves are unit tests (tests/unit/test_schema_pattern.py); only the
time is measured here (docs/performance.md, "Schema patterns").
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from toolstream.schema import check_schema, first_violation

CATASTROPHIC = ["^(a+)+$", "^(a|aa)*$", "^(\\w*)*$", "\\d+\\d+x", "^(.*a){12}$", "^(a|a?)+$"]
"""Patterns a backtracking engine takes exponential time on."""


@dataclass(frozen=True)
class Case:
    name: str
    run: Callable[[], bool]
    """Runs the case once; True when the answer is the right one."""
    bound: float
    """Seconds the median run must stay under."""


def _catastrophic(pattern: str) -> Callable[[], bool]:
    schema = {"type": "object", "properties": {"s": {"pattern": pattern}}}
    check_schema(schema)
    subject = ("1" if "\\d" in pattern else "a") * 100_000 + "!"

    def run() -> bool:
        violation = first_violation(schema, {"s": subject})
        return violation is not None and (violation.path, violation.keyword) == ("/s", "pattern")

    return run


def _work_budget() -> bool:
    # An exponential DFA: every position is a new automaton state.
    schema = {"pattern": "(a|b)*a(a|b){40}c"}
    chooser = random.Random(0)
    subject = "".join(chooser.choice("ab") for _ in range(100_000))
    violation = first_violation(schema, subject)
    return violation is not None and "work budget" in violation.message


def _long_string() -> bool:
    schema = {"pattern": "^[a-z0-9._-]+@[a-z0-9-]+(?:\\.[a-z]{2,})+$"}
    return (
        first_violation(schema, "a" * 1_000_000 + "@b.io") is None
        and first_violation(schema, "a" * 1_000_000 + "@b") is not None
    )


def _first_violation_is_lazy() -> bool:
    # The first item that fails ends the walk: the 100 expensive strings after
    # it must not be matched.
    schema = {"items": {"pattern": "^(a|b)*a(a|b){40}c"}}
    chooser = random.Random(0)
    subject = "".join(chooser.choice("ab") for _ in range(20_000))
    return first_violation(schema, [1, "x", *([subject] * 100)]) is not None


CASES = [
    *(Case(f"catastrophic {p}", _catastrophic(p), 3.0) for p in CATASTROPHIC),
    Case("work budget fails closed (100k chars)", _work_budget, 5.0),
    Case("linear on a 1M-char string (x2)", _long_string, 5.0),
    Case("first_violation stops at the first", _first_violation_is_lazy, 1.0),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    failed = 0
    print(f"{'case':<44} {'median s':>9} {'max s':>8} {'bound s':>8}")
    for case in CASES:
        times = []
        right = True
        for _ in range(args.repeat):
            start = time.perf_counter()
            right = case.run() and right
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        verdict = "" if right and median < case.bound else "  FAILED"
        if not right:
            verdict += " (wrong answer)"
        failed += bool(verdict)
        print(f"{case.name:<44} {median:>9.3f} {max(times):>8.3f} {case.bound:>8.1f}{verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
