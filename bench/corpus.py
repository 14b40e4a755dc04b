"""Corpus throughput: ``toolstream verify DIR -j N`` on 10,000 generated cases.

    python bench/corpus.py [--cases 10000] [--jobs 1,2] [--repeat 3] [--dir DIR]

Generates the corpus once with ``toolstream generate`` (the three seeds,
``--seed 0``; kept in ``--dir``, default ``/tmp/toolstream-bench/corpus-N``),
then times ``toolstream verify DIR -j N -q`` for each N (wall time, median of
``--repeat`` runs) and prints cases per second.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def toolstream_command() -> list[str]:
    exe = Path(sys.executable).with_name("toolstream")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "toolstream.cli"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir")
    args = parser.parse_args(argv)
    seeds = sorted(str(p) for p in (ROOT / "corpus" / "seeds").glob("*.json"))
    corpus = Path(args.dir or f"/tmp/toolstream-bench/corpus-{args.cases}")
    tool = toolstream_command()
    manifest = corpus / "MANIFEST.jsonl"
    if not manifest.exists():
        per_seed = -(-args.cases // len(seeds))
        print(f"generating {per_seed} mutants of each of {len(seeds)} seeds into {corpus} ...")
        start = time.perf_counter()
        subprocess.run(
            [
                *tool,
                "generate",
                *seeds,
                "-o",
                str(corpus),
                "--count",
                str(per_seed),
                "--seed",
                "0",
                "-q",
            ],
            check=True,
            cwd=ROOT,
        )
        print(f"  generated in {time.perf_counter() - start:.1f} s")
    cases = sum(1 for _ in corpus.rglob("*.json"))
    size = sum(p.stat().st_size for p in corpus.rglob("*.json"))
    print(f"corpus: {cases:,} cases, {size / 2**20:.1f} MiB, {os.cpu_count()} cores")
    print(f"{'jobs':>4}  {'median s':>9}  {'cases/s':>8}  runs")
    for jobs in (int(j) for j in args.jobs.split(",")):
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            done = subprocess.run(
                [*tool, "verify", str(corpus), "-j", str(jobs), "--format", "json"],
                capture_output=True,
                text=True,
                cwd=ROOT,
                check=False,
            )
            times.append(time.perf_counter() - start)
            if done.returncode not in (0, 1):
                print(f"  verify exited {done.returncode}: {done.stderr[-500:]}")
        median = statistics.median(times)
        runs = ", ".join(f"{t:.2f}" for t in times)
        print(f"{jobs:>4}  {median:>9.2f}  {cases / median:>8,.0f}  {runs}")
    try:
        report = json.loads(done.stdout)
        keys = {k: report[k] for k in report if not isinstance(report[k], (list, dict))}
        print(f"last verify summary: {keys}")
        if report.get("failed"):
            print("(labels that do not hold are the generator's or the validator's business;")
            print(" the throughput above includes reporting them)")
    except (ValueError, NameError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
