"""Time-bounded fuzzing of the validator (``make fuzz``).

    python bench/fuzz.py --minutes 5 [--only NAME,...] [--batch 200]

Runs the properties of ``tests/properties/test_fuzz.py`` (arbitrary JSON as the
envelope, as chunks/events of every profile, as schemas and arguments, and
byte-level mutations of the seed files) round-robin, in batches of
``--batch`` Hypothesis examples with fresh random seeds, until the time is up.
A failing property is shrunk by Hypothesis, printed (falsifying example and
traceback) and taken out of the rotation.  Exit status: 0 if nothing failed,
1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import test_fuzz  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--batch", type=int, default=200, help="examples per property per round")
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
    deadline = time.monotonic() + args.minutes * 60
    examples = dict.fromkeys(names, 0)
    failures: dict[str, str] = {}
    rounds = 0
    while names and time.monotonic() < deadline:
        rounds += 1
        for name in list(names):
            if time.monotonic() >= deadline:
                break
            try:
                test_fuzz.run_property(name, args.batch)
            except Exception:
                failures[name] = traceback.format_exc()
                names.remove(name)
                print(f"FAIL {name}\n{failures[name]}", flush=True)
            else:
                examples[name] += args.batch
        print(
            f"round {rounds}: {sum(examples.values()):,} examples,"
            f" {max(0.0, deadline - time.monotonic()):.0f} s left",
            flush=True,
        )
    print()
    for name, count in examples.items():
        status = "FAIL" if name in failures else "ok"
        print(f"{status:4}  {name:28} {count:>9,} examples")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
