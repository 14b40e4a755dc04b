"""Instructions per run of a benchmark subject: the load-independent proxy.

    python bench/icount.py PROFILE SHAPE CHUNKS SUBJECT[,SUBJECT...] [-k K]

runs, for each subject, ``valgrind --tool=cachegrind --cache-sim=no`` on
this script's ``--inner`` mode twice (``PYTHONHASHSEED=0``): once running
the subject K times, each after a ``gc.collect()``, once running the K
collections alone, and prints the difference over K (valgrind's ``I refs``)
as JSON, with each subject's ratio to the first.  The inner mode sets the
process up as ``bench/measure.py``'s paired mode does (the same thunks, the
fixture file's bytes from the same cache, the fixture parsed and held, each
paired subject warmed up once): the floor's cost with the GC on depends on
the heap it runs over.  Repeat runs agree to the instruction.  The count is a
proxy for time, not a time (see docs/performance.md): it misranks C string
searches, whose instructions differ in cost (the escaped-colon screen as
``b"\\u003" in data`` before the regular expression took 2.4x fewer
instructions than the expression alone, and more time), so a change it
ranks first is timed on the wall clock before it is kept.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

_REFS = re.compile(rb"I\s+refs:\s+([\d,]+)")
PAIRED = ("floor", "floor-nogc", "validate_bytes", "validate_bytes-nogc")
"""What ``bench/run.py`` times in paired mode (its ``PAIRED``)."""


def _stages(upto: int) -> Callable[[bytes, Any], Callable[[], Any]]:
    """``validate_bytes``'s ledger route (the GC paused, as it does) up to
    its stage ``upto``: 1 the read, 2 the envelope and the gate's feed, 3
    the close, 4 the ledger's settle (the whole route)."""

    def subject(data: bytes, fixture: Any) -> Callable[[], Any]:
        import gc

        from toolstream.envelope import check_envelope, read_fixture_unchecked
        from toolstream.file_gate import FileGate
        from toolstream.limits import Limits

        def run() -> Any:
            gc.disable()
            try:
                limits = Limits()
                read = read_fixture_unchecked(data, limits)
                assert read is not None
                if upto == 1:
                    return read
                fixture, colons = read
                envelope = check_envelope(fixture)
                gate = FileGate(envelope.profile, envelope.tool_schemas, envelope.request)
                ledger = gate.feed_counting(envelope.stream)
                if upto == 2:
                    return read, gate, ledger
                report = gate.close()
                if upto == 3:
                    return read, gate, ledger, report
                assert ledger.settle(fixture, gate.stream_key, colons, limits.max_fixture_depth)
                return read, gate, ledger, report
            finally:
                gc.enable()

        return run

    return subject


STAGES = {f"stage{n}": _stages(n) for n in (1, 2, 3, 4)}
"""``stage1`` .. ``stage4``: the ledger route of ``validate_bytes`` cut after
each stage (differences of their counts are each stage's cost)."""


def inner(profile: str, shape: str, chunks: int, subject: str, k: int, base: bool) -> None:
    """The process ``bench/measure.py``'s paired mode (what ``bench/run.py``
    runs) times in: the fixture parsed and held, the four paired subjects
    built and warmed up once each, ``gc.collect()`` before each run.  Then
    ``k`` runs of ``subject``, or, with ``base``, ``k`` collections alone."""
    import gc

    import measure

    data = measure.stream_bytes(profile, shape, chunks)
    fixture = json.loads(data)
    thunks = {name: measure.SUBJECTS[name](data, fixture) for name in PAIRED}
    make = STAGES.get(subject) or measure.SUBJECTS[subject]
    thunk = thunks.get(subject) or make(data, fixture)
    for warm in (*thunks.values(), thunk):
        warm()
    for _ in range(k):
        gc.collect()
        if not base:
            result = thunk()
            del result


def count(profile: str, shape: str, chunks: int, subject: str, k: int, base: bool) -> int:
    """valgrind's ``I refs`` of the inner mode with ``k`` runs (``base``:
    the collections alone)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={tmp}/out",
                sys.executable,
                str(Path(__file__).resolve()),
                "--inner",
                profile,
                shape,
                str(chunks),
                subject,
                "-k",
                str(k),
                *(["--base"] if base else []),
            ],
            env=env,
            capture_output=True,
            check=True,
        )
    found = _REFS.search(done.stderr)
    if found is None:
        raise RuntimeError(done.stderr.decode(errors="replace")[-2000:])
    return int(found.group(1).replace(b",", b""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", choices=("openai", "anthropic"))
    parser.add_argument("shape", choices=("single", "par16"))
    parser.add_argument("chunks", type=int)
    parser.add_argument(
        "subjects", help="comma-separated subjects of bench/measure.py, or stage1..stage4"
    )
    parser.add_argument("-k", type=int, default=10, help="runs counted (default 10)")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--base", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    names = args.subjects.split(",")
    if args.inner:
        inner(args.profile, args.shape, args.chunks, names[0], args.k, args.base)
        return 0
    per_run: dict[str, float] = {}
    base = count(args.profile, args.shape, args.chunks, names[0], args.k, True)
    for name in names:
        runs = count(args.profile, args.shape, args.chunks, name, args.k, False)
        per_run[name] = (runs - base) / args.k
    first = per_run[names[0]]
    print(
        json.dumps(
            {
                "profile": args.profile,
                "shape": args.shape,
                "chunks": args.chunks,
                "k": args.k,
                "instructions": per_run,
                "ratio": {name: round(value / first, 4) for name, value in per_run.items()},
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
