"""cProfile of one subject on one generated stream: where the time goes.

    python bench/hotspots.py [PROFILE SHAPE CHUNKS SUBJECT] [--top N] [--sort tottime|cumtime]

Defaults: ``openai par16 100000 validate_bytes``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import measure  # noqa: E402


def phases(profile: str, shape: str, chunks: int, rounds: int = 15) -> int:
    """Median time of each phase of ``validate_bytes`` (its ledger route;
    no profiler overhead), next to the floor's ``json.loads`` and the strict
    parser that the ledger route replaces."""
    import gc
    import statistics
    import time

    from toolstream.envelope import check_envelope, parse_fixture_bytes, read_fixture_unchecked
    from toolstream.file_gate import FileGate
    from toolstream.limits import DEFAULT_LIMITS

    data = measure.stream_bytes(profile, shape, chunks)
    names = [
        "json.loads (floor, GC paused)",
        "strict parse (the reference route, for scale)",
        "decode + bare parse + colon count",
        "check_envelope",
        "Gate.feed_all + ledger (profile, machine)",
        "Gate.close (join, strict args, schema)",
        "ledger settle (walk the rest, compare)",
        "freeing the parsed fixture",
        "validate_bytes end to end",
    ]
    times: dict[str, list[float]] = {n: [] for n in names}
    limits = DEFAULT_LIMITS
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        t = [time.perf_counter()]
        json.loads(data)
        t.append(time.perf_counter())
        parse_fixture_bytes(data, limits)
        t.append(time.perf_counter())
        read = read_fixture_unchecked(data, limits)
        assert read is not None
        fixture, colons = read
        t.append(time.perf_counter())
        envelope = check_envelope(fixture)
        t.append(time.perf_counter())
        gate = FileGate(envelope.profile, envelope.tool_schemas, envelope.request)
        ledger = gate.feed_counting(envelope.stream)
        t.append(time.perf_counter())
        gate.close()
        t.append(time.perf_counter())
        proven = ledger.settle(fixture, gate.stream_key, colons, limits.max_fixture_depth)
        t.append(time.perf_counter())
        assert proven, "the ledger did not prove the bench file strict"
        del read, fixture, envelope, gate, ledger
        t.append(time.perf_counter())
        gc.enable()
        gc.collect()
        t0 = time.perf_counter()
        measure.SUBJECTS["validate_bytes"](data, None)()
        t.extend([t0, time.perf_counter()])
        spans = [t[k + 1] - t[k] for k in range(8)] + [t[10] - t[9]]
        for name, dt in zip(names, spans, strict=True):
            times[name].append(dt)
    total = statistics.median(times[names[-1]])
    print(f"{profile}-{shape} {chunks:,} chunks, median of {rounds}")
    for name in names:
        m = statistics.median(times[name])
        print(f"  {name:46} {m * 1e3:9.2f} ms  {m / total:6.1%}  {m / chunks * 1e6:7.2f} us/chunk")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", nargs="?", default="openai")
    parser.add_argument("shape", nargs="?", default="par16")
    parser.add_argument("chunks", nargs="?", type=int, default=100_000)
    parser.add_argument("subject", nargs="?", default="validate_bytes")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sort", default="tottime", choices=("tottime", "cumtime"))
    parser.add_argument(
        "--phases", action="store_true", help="time validate_bytes phase by phase instead"
    )
    args = parser.parse_args(argv)
    if args.phases:
        return phases(args.profile, args.shape, args.chunks)
    data = measure.stream_bytes(args.profile, args.shape, args.chunks)
    thunk = measure.SUBJECTS[args.subject](data, json.loads(data))
    thunk()  # warm up
    profiler = cProfile.Profile()
    profiler.enable()
    thunk()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
    print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
