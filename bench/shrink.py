"""Shrink time per client: ``make bench-shrink``.

    python bench/shrink.py [--corpus corpus/cases] [--per-client 2] [--probes 40]
                           [--minutes 8] [--specs NAME[@TRANSPORT],...] [--json FILE]

For every client of ``toolstream diff --list-clients`` that can run here
(plain transport), and a few cut transports, disagreements found in the
corpus are shrunk with the predicate ``toolstream shrink --client`` uses
(:class:`toolstream.corpus.shrink.ClientDisagreement`: each candidate judged
as ``diff --client`` judges a case, a cut transport cut again per candidate).
Which cases: the client's profiles' cases, taken round-robin over the
operators (sorted; within an operator, by path), each judged once until one
disagrees (at most ``--probes`` judged per spec).  The same corpus and
options pick the same cases.

In rounds: round 1 shrinks the first disagreement of every spec, round 2 the
second, up to ``--per-client`` rounds; no shrink starts once ``--minutes``
have passed (the specs a round did not reach are named), so every client is
measured at least once before any is measured twice, and the run stays
within its budget plus one shrink.

Timed: each shrink from its first predicate run to its result (the CLI's
``seconds``: imports and the library's start-up are not in it), one at a
time.  Printed: a line per shrink, then per spec the median and p90 (nearest
rank) of the seconds, the median predicate runs and bytes before -> after,
and the same over every shrink.  Every result is checked 1-minimal (the
shrinker's own claim) and reported when it is not.  See docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from toolstream.caseio import strip_case  # noqa: E402
from toolstream.clients.registry import CLIENTS  # noqa: E402
from toolstream.corpus import shrink as shrinking  # noqa: E402

CUT_SPECS = ("openai-chat-create@cut-close", "anthropic-messages-stream@cut-close",
             "openai-node-chat-create@cut-close")  # fmt: skip
"""Cut transports measured besides every client's plain transport."""


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def candidates(corpus: Path, profiles: tuple[str, ...]) -> Iterator[tuple[Path, dict[str, Any]]]:
    """The corpus cases of ``profiles``, round-robin over the operators."""
    by_operator: dict[str, list[Path]] = {}
    for path in sorted(corpus.glob("*/*.json")):
        by_operator.setdefault(path.parent.name, []).append(path)
    queues = {op: iter(paths) for op, paths in sorted(by_operator.items())}
    while queues:
        for operator in list(queues):
            for path in queues[operator]:
                case = json.loads(path.read_text("utf-8"))
                if isinstance(case, dict) and case.get("profile") in profiles:
                    yield path, strip_case(case)
                    break
            else:
                del queues[operator]


def shrinks(
    spec: str, predicate: shrinking.ClientDisagreement, corpus: Path, probes: int
) -> Iterator[dict[str, Any]]:
    """The shrinks of ``spec``'s disagreements, in corpus order (see the module docstring)."""
    judged = 0
    for path, fixture in candidates(corpus, tuple(predicate.adapter.profiles)):
        if judged >= probes:
            return
        judged += 1
        signature = predicate.start(shrinking.encode(fixture))
        if signature is None:
            continue
        started = time.monotonic()
        result = shrinking.shrink(fixture, predicate)
        seconds = time.monotonic() - started
        where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        row = {
            "spec": spec,
            "case": where,
            "signature": signature,
            "bytes_before": shrinking.measure(fixture).bytes,
            "bytes_after": shrinking.measure(result.fixture).bytes,
            "tests": result.tests,
            "seconds": round(seconds, 2),
            "minimal": result.minimal,
        }
        print(
            f"  {spec} {row['case']}: {signature}, {row['bytes_before']} -> "
            f"{row['bytes_after']} bytes, {row['tests']} runs, {seconds:.1f} s"
            + ("" if result.minimal else " (NOT 1-minimal)"),
            file=sys.stderr,
            flush=True,
        )
        yield row


def summary(label: str, rows: list[dict[str, Any]]) -> str:
    seconds = [r["seconds"] for r in rows]
    return (
        f"| {label} | {len(rows)} | {statistics.median(seconds):.1f} | {p90(seconds):.1f} |"
        f" {statistics.median(r['tests'] for r in rows):.0f} |"
        f" {statistics.median(r['bytes_before'] for r in rows):.0f} →"
        f" {statistics.median(r['bytes_after'] for r in rows):.0f} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpus", default=str(ROOT / "corpus" / "cases"))
    parser.add_argument("--per-client", type=int, default=2)
    parser.add_argument("--probes", type=int, default=40)
    parser.add_argument("--minutes", type=float, default=8.0, help="start no shrink after this")
    parser.add_argument("--specs", default=None, help="NAME[@TRANSPORT],... (default: see above)")
    parser.add_argument("--json", default=None, help="also write every shrink's row here")
    args = parser.parse_args()
    specs = args.specs.split(",") if args.specs else [*CLIENTS, *CUT_SPECS]
    rows: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    started = time.monotonic()
    budget = started + 60 * args.minutes
    predicates: dict[str, shrinking.ClientDisagreement] = {}
    runs: dict[str, Iterator[dict[str, Any]]] = {}
    unreached: dict[str, int] = {}  # spec -> the first round the time budget left out
    for spec in specs:
        try:
            predicates[spec] = shrinking.ClientDisagreement(
                shrinking.load_client(spec, timeout=10.0)
            )
        except shrinking.ShrinkError as error:
            skipped[spec] = str(error)
            print(f"skipped {spec}: {error}", file=sys.stderr, flush=True)
            continue
        runs[spec] = shrinks(spec, predicates[spec], Path(args.corpus), args.probes)
    try:
        for round_number in range(1, args.per_client + 1):
            for spec in list(runs):
                if time.monotonic() > budget:
                    unreached.setdefault(spec, round_number)
                    continue
                row = next(runs[spec], None)
                if row is None:
                    del runs[spec]
                    if not any(r["spec"] == spec for r in rows):
                        skipped[spec] = f"no disagreement in the first {args.probes} cases judged"
                    continue
                rows.append(row)
    finally:
        for predicate in predicates.values():
            predicate.close()
    if not rows:
        print("no shrink ran: nothing measured", file=sys.stderr)
        return 1
    print(f"load average before: {load}; after: "
          + " ".join(f"{x:.2f}" for x in os.getloadavg())
          + f"; wall {time.monotonic() - started:.0f} s")  # fmt: skip
    print("| client | shrinks | median s | p90 s | median runs | median bytes |")
    print("| --- | --- | --- | --- | --- | --- |")
    for spec in specs:
        mine = [r for r in rows if r["spec"] == spec]
        if mine:
            print(summary(f"`{spec}`", mine))
    print(summary("**all**", rows))
    for spec, why in skipped.items():
        print(f"- `{spec}` not measured: {why}")
    for spec, first in unreached.items():
        which = "not measured" if first == 1 else f"round {first} on not run"
        print(f"- `{spec}` {which}: the {args.minutes:g}-minute budget ran out")
    not_minimal = [r for r in rows if not r["minimal"]]
    for row in not_minimal:
        print(f"- NOT 1-minimal: `{row['spec']}` {row['case']}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n", "utf-8")
    return 1 if not_minimal else 0


if __name__ == "__main__":
    sys.exit(main())
