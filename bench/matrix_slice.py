"""A slice of the distilled matrix: every client x every transport over every
``--every``-th case of a distill manifest, the JSON result written out.

    python bench/matrix_slice.py [--distilled corpus/DISTILL.jsonl] [--every 19]
        [--clients A,B] [--transports T,U] [-j 2] [-o RESULT.json]

The measurement of docs/performance.md ("The matrix at scale"): the same
session ``scripts/adapters_report.py --only matrix --distilled`` runs
(``run_clients``), over every ``--every``-th kept case in manifest order (19:
60 of the 1,139), so its CPU seconds (``/usr/bin/time`` over this command and
its workers) extrapolate to the full matrix, and its result (``toolstream
diff --format json``'s bytes) can be compared with ``cmp`` before and after a
change.  Prints the client runs, the real (non-``not_run``) ones and the wall
time on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for where in (ROOT, ROOT / "scripts"):
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))

from adapters_report import run_clients  # noqa: E402
from adapters_report_render import DistillManifest, read_distilled  # noqa: E402

from toolstream.caseio import atomic_write  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path("corpus/cases"))
    parser.add_argument("--distilled", type=Path, default=Path("corpus/DISTILL.jsonl"))
    parser.add_argument("--every", type=int, default=19)
    parser.add_argument("--clients", default=None)
    parser.add_argument("--transports", default=None)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("-o", "--output", type=Path, default=None)
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    from toolstream.clients import CLIENTS, TRANSPORTS

    whole = read_distilled(args.distilled, args.corpus)
    order = [
        json.loads(line)["path"]
        for line in args.distilled.read_text(encoding="utf-8").splitlines()[1:]
    ]
    kept = DistillManifest(
        whole.source,
        frozenset(order[:: args.every]),
        whole.cases_total,
        whole.behaviours,
    )
    clients = args.clients.split(",") if args.clients else list(CLIENTS)
    transports = args.transports.split(",") if args.transports else list(TRANSPORTS)
    started = time.monotonic()
    result, missing = run_clients(args.corpus, clients, transports, args.jobs, kept=kept)
    wall = time.monotonic() - started
    for name, why in missing.items():
        print(f"matrix-slice: {name} not measured: {why}", file=sys.stderr)
    runs = sum(len(c.outcomes) for c in result.cases)
    real = sum(
        1 for c in result.cases for o in c.outcomes.values() if o.classification != "not_run"
    )
    print(
        f"matrix-slice: {len(result.cases)} cases, {runs} client runs ({real} not not_run)"
        f" in {wall:.1f} s wall (-j {args.jobs})",
        file=sys.stderr,
    )
    if args.output is not None:
        atomic_write(args.output, result.to_json())
    return 0


if __name__ == "__main__":
    sys.exit(main())
