"""Time-bounded fuzzing of the validator (``make fuzz``).

    python bench/fuzz.py --minutes 5 [--only NAME,...] [--batch 200] [--rounds N]

Runs the properties of ``tests/properties/test_fuzz.py`` (arbitrary JSON as the
envelope, as chunks/events of every profile, as schemas and arguments, and
byte-level mutations of the seed files) round-robin, in batches of
``--batch`` Hypothesis examples with fresh random seeds, until the time is up.
A failing property is shrunk by Hypothesis, printed (falsifying example and
traceback) and taken out of the rotation.  Each round prints the running
total and the rate; the end prints every property's count of inputs (the
calls Hypothesis actually made, not the batch size asked for), the total and
the time.  Exit status: 0 if nothing failed, 1 otherwise; a run that checked
no input at all also exits 1.

The Hypothesis settings are the test suite's ``default`` profile
(tests/conftest.py: no deadline, no example database), so a loaded machine
does not turn a slow example into a failure.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import settings  # noqa: E402

import tests.conftest  # noqa: E402, F401  (registers the Hypothesis profiles)
from tests.properties import test_fuzz  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--batch", type=int, default=200, help="examples per property per round")
    parser.add_argument("--rounds", type=int, help="stop after this many rounds (default: none)")
    parser.add_argument("--only", help="comma-separated property names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the properties and exit")
    args = parser.parse_args(argv)
    names = sorted(test_fuzz.PROPERTIES)
    if args.list:
        print("\n".join(names))
        return 0
    if args.only:
        wanted = args.only.split(",")
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            parser.error(f"unknown properties {unknown}; use --list")
        names = [n for n in names if n in wanted]
    started = time.monotonic()
    deadline = started + args.minutes * 60
    examples = dict.fromkeys(names, 0)
    failures: dict[str, str] = {}
    rounds = 0
    while names and time.monotonic() < deadline and rounds != args.rounds:
        rounds += 1
        for name in list(names):
            if time.monotonic() >= deadline:
                break
            try:
                examples[name] += test_fuzz.run_property(name, args.batch)
            except Exception:
                failures[name] = traceback.format_exc()
                names.remove(name)
                print(f"FAIL {name}\n{failures[name]}", flush=True)
        elapsed = time.monotonic() - started
        total = sum(examples.values())
        print(
            f"round {rounds}: {total:,} inputs in {elapsed:.0f} s"
            f" ({total / max(elapsed, 1e-9):.0f}/s),"
            f" {max(0.0, deadline - time.monotonic()):.0f} s left",
            flush=True,
        )
    elapsed = time.monotonic() - started
    total = sum(examples.values())
    print()
    for name, count in examples.items():
        status = "FAIL" if name in failures else "ok"
        print(f"{status:4}  {name:28} {count:>9,} inputs")
    print(
        f"total {total:,} inputs over {len(examples)} properties in {elapsed:.0f} s,"
        f" {len(failures)} failed"
    )
    if total == 0:
        print("no input was checked", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    # Only as a script: under pytest the suite's own profile stays loaded.
    settings.load_profile("default")
    sys.exit(main())
