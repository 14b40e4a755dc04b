"""The toolstream benchmark: validation cost against the floor and against
the libraries' own stream accumulation.

    python bench/run.py                       # everything (about 15-25 minutes)
    python bench/run.py --sizes 1000,10000    # quicker
    python bench/run.py --no-libraries        # toolstream and the floors only
    python bench/run.py --json results.json   # also keep the raw numbers

Each measurement runs in a fresh process (``bench/measure.py``), so imports,
caches and heap growth of one do not leak into another.  Times are the median
of ``--repeat`` runs (after a warm-up on the 1k stream); a measurement that
runs longer than ``--budget`` seconds is stopped and shown as ``> budget``.
Memory: ``py peak`` is the tracemalloc peak of one run (Python allocations,
input excluded); ``rss peak`` is the resident-set high-water mark above the
resident size before the run (sees native allocations too, but only those
that needed new pages).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

STREAMS = [
    ("openai", "single"),
    ("openai", "par16"),
    ("anthropic", "single"),
    ("anthropic", "par16"),
]
OURS = ["floor", "floor-nogc", "floor-events", "validate_bytes", "gate"]
PAIRED = ["floor", "floor-nogc", "validate_bytes", "validate_bytes-nogc"]
# langchain-core is not an in-process accumulator any more (its adapter runs the
# real integrations over HTTP): docs/performance.md, "Clients over HTTP".
LIBRARIES = {
    "openai": ["openai-python"],
    "anthropic": ["anthropic-python"],
}
MODULE_OF = {
    "openai-python": "openai",
    "anthropic-python": "anthropic",
}


def installed(module: str) -> str | None:
    try:
        from importlib.metadata import version

        __import__(module)
        return version(module.replace("_", "-"))
    except Exception:
        return None


def machine() -> list[str]:
    lines = [
        f"python {platform.python_version()} ({platform.python_implementation()}) on"
        f" {platform.system()} {platform.release()} {platform.machine()}",
        f"cores: {os.cpu_count()}  (usable: {len(os.sched_getaffinity(0))})",
    ]
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    lines.append("cpu: " + line.split(":", 1)[1].strip())
                    break
    except OSError:
        pass
    try:
        lines.append("load average at start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    except OSError:
        pass
    # The measurements import the checkout this script is in (bench/measure.py
    # puts it first on sys.path, whatever PYTHONPATH says); so does the line
    # that names it, or a run from a worktree names the installed tree.
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import toolstream

    lines.append(f"toolstream {toolstream.__version__} from {Path(toolstream.__file__).parent}")
    return lines


def run_one(
    profile: str, shape: str, size: int, subject: str, repeat: int, budget: float
) -> dict[str, Any]:
    cmd = [
        sys.executable,
        str(HERE / "measure.py"),
        profile,
        shape,
        str(size),
        subject,
        "--repeat",
        str(repeat),
        "--budget",
        str(budget),
        "--memory",
    ]
    try:
        done = subprocess.run(
            cmd, capture_output=True, text=True, timeout=budget * 6 + 120, cwd=ROOT, check=False
        )
    except subprocess.TimeoutExpired:
        return {"subject": subject, "over_budget": True, "times": [], "median": None}
    if done.returncode != 0:
        return {"subject": subject, "error": done.stderr.strip().splitlines()[-1:], "median": None}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def fmt_time(row: dict[str, Any], budget: float) -> str:
    if row.get("error"):
        return "error"
    if row.get("over_budget") or row.get("median") is None:
        return f"> {budget:.0f} s"
    return f"{row['median'] * 1000:,.1f}"


def fmt_mib(value: Any) -> str:
    return "-" if value is None else f"{value / 2**20:,.1f}"


def ratio(a: Any, b: Any) -> str:
    if not a or not b:
        return "-"
    return f"{a / b:.2f}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--streams", default=",".join(f"{p}-{s}" for p, s in STREAMS))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per measurement")
    parser.add_argument("--no-libraries", action="store_true")
    parser.add_argument("--json", dest="json_path")
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    wanted = set(args.streams.split(","))
    streams = [(p, s) for p, s in STREAMS if f"{p}-{s}" in wanted]

    header = machine()
    versions = {name: installed(module) for name, module in MODULE_OF.items()}
    header.append(
        "libraries: " + ", ".join(f"{name} {v or 'not installed'}" for name, v in versions.items())
    )
    header.append(f"median of {args.repeat} runs, budget {args.budget:.0f} s per measurement")
    for line in header:
        print(line)
    print()

    results: list[dict[str, Any]] = []
    started = time.monotonic()
    for profile, shape in streams:
        subjects = list(OURS)
        if not args.no_libraries:
            subjects += [s for s in LIBRARIES[profile] if versions[s]]
        for size in sizes:
            for subject in subjects:
                print(f"  .. {profile}-{shape} {size} {subject}", file=sys.stderr, flush=True)
                row = run_one(profile, shape, size, subject, args.repeat, args.budget)
                row.update(profile=profile, shape=shape, size=size, subject=subject)
                results.append(row)

    pairs: dict[tuple[str, str, int], dict[str, Any]] = {}
    for profile, shape in streams:
        for size in sizes:
            print(f"  .. {profile}-{shape} {size} paired", file=sys.stderr, flush=True)
            cmd = [
                sys.executable,
                str(HERE / "measure.py"),
                profile,
                shape,
                str(size),
                ",".join(PAIRED),
                "--budget",
                str(args.budget),
            ]
            done = subprocess.run(
                cmd,
                capture_output=True,
                text=True,
                cwd=ROOT,
                check=False,
                timeout=args.budget * 4 + 120,
            )
            if done.returncode == 0:
                pairs[(profile, shape, size)] = json.loads(done.stdout.strip().splitlines()[-1])

    def find(profile: str, shape: str, size: int, subject: str) -> dict[str, Any]:
        for row in results:
            if (row["profile"], row["shape"], row["size"], row["subject"]) == (
                profile,
                shape,
                size,
                subject,
            ):
                return row
        return {}

    columns = [
        "stream",
        "chunks",
        "subject",
        "median ms",
        "us/chunk",
        "vs floor",
        "gate/lib",
        "py peak MiB",
        "vs floor",
        "rss peak MiB",
        "vs floor",
    ]
    table: list[list[str]] = []
    verdicts: list[str] = []
    for profile, shape in streams:
        for size in sizes:
            floor = find(profile, shape, size, "floor")
            floor_events = find(profile, shape, size, "floor-events")
            gate = find(profile, shape, size, "gate")
            for row in results:
                if (row["profile"], row["shape"], row["size"]) != (profile, shape, size):
                    continue
                subject = row["subject"]
                n = row.get("stream_chunks", size)
                median = row.get("median")
                reference = floor_events if subject in ("gate", "floor-events") else floor
                vs_floor = "-"
                if subject in ("validate_bytes", "gate", "floor-events", "floor-nogc"):
                    vs_floor = ratio(median, reference.get("median"))
                gate_lib = "-"
                if subject in MODULE_OF:
                    if median is None and gate.get("median"):
                        gate_lib = f"< {gate['median'] / args.budget:.3f}x"
                    else:
                        gate_lib = ratio(gate.get("median"), median)
                table.append(
                    [
                        f"{profile}-{shape}",
                        f"{n:,}",
                        subject,
                        fmt_time(row, args.budget),
                        "-" if median is None else f"{median / n * 1e6:.2f}",
                        vs_floor,
                        gate_lib,
                        fmt_mib(row.get("peak")),
                        ratio(row.get("peak"), reference.get("peak"))
                        if subject != "floor"
                        else "-",
                        fmt_mib(row.get("rss_peak")),
                        ratio(row.get("rss_peak"), reference.get("rss_peak"))
                        if subject != "floor"
                        else "-",
                    ]
                )
            vb = find(profile, shape, size, "validate_bytes")
            pair = pairs.get((profile, shape, size))
            if pair:
                r = pair["ratio"]["validate_bytes"]
                r_nogc = r / pair["ratio"]["floor-nogc"]
                verdicts.append(
                    f"{'ok  ' if r <= 1.5 else 'MISS'} time   {profile}-{shape} {size:>7,}:"
                    f" validate_bytes {r:.2f}x the floor (target <= 1.5x);"
                    f" {r_nogc:.2f}x the floor with the GC paused"
                )
            if vb.get("peak") and floor.get("peak"):
                r = vb["peak"] / floor["peak"]
                verdicts.append(
                    f"{'ok  ' if r <= 1.5 else 'MISS'} memory {profile}-{shape} {size:>7,}:"
                    f" validate_bytes py peak {r:.2f}x the floor's (target <= 1.5x)"
                )
        small = find(profile, shape, min(sizes), "validate_bytes")
        large = find(profile, shape, max(sizes), "validate_bytes")
        ps = pairs.get((profile, shape, min(sizes)))
        pl = pairs.get((profile, shape, max(sizes)))
        if (
            len(sizes) > 1
            and ps
            and pl
            and small.get("stream_chunks")
            and large.get("stream_chunks")
        ):
            # per-chunk cost from the paired runs (the most stable medians)
            def per_chunk(pair: dict[str, Any], row: dict[str, Any], name: str) -> float:
                return float(pair["median"][name]) / float(row["stream_chunks"])

            # The linear target: toolstream's time over the
            # floor's, both with the GC paused, at the largest size against the
            # smallest.  A ratio of ratios: json.loads' own growth with the heap
            # cancels out, and what is left is whether toolstream's share grows.
            def share(pair: dict[str, Any]) -> float:
                ratio = pair["ratio"]  # medians of per-round ratios to the floor
                return float(ratio["validate_bytes-nogc"]) / float(ratio["floor-nogc"])

            r = share(pl) / share(ps)
            raw = per_chunk(pl, large, "validate_bytes") / per_chunk(ps, small, "validate_bytes")
            rn = per_chunk(pl, large, "floor-nogc") / per_chunk(ps, small, "floor-nogc")
            verdicts.append(
                f"{'ok  ' if r <= 1.1 else 'MISS'} linear {profile}-{shape}:"
                f" validate_bytes/floor with the GC paused is {share(pl):.2f}x at"
                f" {max(sizes):,} and {share(ps):.2f}x at {min(sizes):,}: {r:.2f}x"
                f" (target <= 1.1x); per chunk, {max(sizes):,} against {min(sizes):,}:"
                f" validate_bytes {raw:.2f}x, GC-paused floor {rn:.2f}x"
            )

    widths = [max(len(columns[i]), *(len(r[i]) for r in table)) for i in range(len(columns))]
    line = "  ".join(
        c.ljust(w) if i < 3 else c.rjust(w)
        for i, (c, w) in enumerate(zip(columns, widths, strict=True))
    )
    print(line)
    print("-" * len(line))
    previous = None
    for r in table:
        key = (r[0], r[1])
        if previous is not None and key != previous:
            print()
        previous = key
        print(
            "  ".join(
                c.ljust(w) if i < 3 else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            )
        )
    print()
    print("Paired (timed alternately in one process; ratios are medians of per-round ratios):")
    print(
        f"{'stream':18} {'chunks':>8}  {'floor ms':>9}  {'nogc ms':>9}  {'validate ms':>11}"
        f"  {'vb/floor':>8}  {'vb/nogc':>8}  {'both nogc':>9}  rounds"
    )
    for (profile, shape, size), pair in pairs.items():
        m, r = pair["median"], pair["ratio"]
        print(
            f"{profile + '-' + shape:18} {size:>8,}  {m['floor'] * 1e3:>9.1f}"
            f"  {m['floor-nogc'] * 1e3:>9.1f}  {m['validate_bytes'] * 1e3:>11.1f}"
            f"  {r['validate_bytes']:>7.2f}x  {r['validate_bytes'] / r['floor-nogc']:>7.2f}x"
            f"  {r['validate_bytes-nogc'] / r['floor-nogc']:>8.2f}x  {pair['rounds']}"
        )
    print()
    print("Targets:")
    for v in verdicts:
        print("  " + v)
    print()
    print("vs floor: validate_bytes / floor (both from the file's bytes); gate and floor-events /")
    print(
        "floor-events (both from pre-parsed chunks).  gate/lib: our gate's time over the library's"
    )
    print("(below 1 = we are faster).  Memory 'vs floor' compares with the same reference.")
    try:
        print("load average at end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    except OSError:
        pass
    print(f"total wall time {time.monotonic() - started:.0f} s")
    for row in results:
        if row.get("error"):
            where = f"{row['profile']}-{row['shape']} {row['size']} {row['subject']}"
            print(f"error in {where}: {row['error']}")
    if args.json_path:
        Path(args.json_path).write_text(
            json.dumps(
                {
                    "machine": header,
                    "results": results,
                    "paired": [dict(p) for p in pairs.values()],
                },
                indent=1,
            )
            + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
