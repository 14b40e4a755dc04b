"""The Python clients over the shipped corpus: ``make bench-clients``.

    python bench/clients.py [--corpus corpus/cases] [-j 2] [--clients A,B]
                            [--no-plain] [--no-matrix]

Two measurements, each a fresh process timed from the outside (wall time,
and the CPU time of the process and its workers: user + sys), with the load
average before and after (the machine may be shared; the CPU time is what
does not depend on the other work):

* ``plain``: per Python client, ``toolstream diff CORPUS --client NAME -j N
  -q --format json --fail-on never`` (the plain transport), and how many
  cases the client ran (the rest are ``not_run``: another profile);
* ``matrix``: the full Python matrix, ``scripts/adapters_report.py --only
  matrix --sample 0 --clients python -j N`` (every Python client under every transport
  of ``toolstream.clients.TRANSPORTS``), rendered into a copy of
  docs/adapters.md in a temporary folder: nothing in the repository changes.

The targets: at most 60 s per client (plain) and 10 minutes for
the matrix, on 2 cores with ``-j 2``.  See docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from toolstream.clients import TRANSPORTS  # noqa: E402
from toolstream.clients.registry import PYTHON_CLIENTS  # noqa: E402

BIN = Path(sys.executable).parent


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(argv: list[str]) -> tuple[float, float, subprocess.CompletedProcess[bytes]]:
    """(wall seconds, CPU seconds of the process tree, the finished process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, check=False)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def plain(corpus: str, clients: list[str], jobs: int) -> None:
    print(f"plain transport, -j {jobs}, over {corpus}")
    print(f"{'client':<28} {'cases run':>9} {'wall s':>8} {'cpu s':>8}  load before / after")
    for name in clients:
        argv = [str(BIN / "toolstream"), "diff", corpus, "--client", name, "-j", str(jobs)]
        argv += ["-q", "--format", "json", "--fail-on", "never"]
        before = load()
        wall, cpu, done = timed(argv)
        if done.returncode != 0:
            print(f"{name:<28} failed ({done.returncode}): {done.stderr.decode()[-300:]}")
            continue
        counts = json.loads(done.stdout)["totals"][name]
        ran = sum(n for classification, n in counts.items() if classification != "not_run")
        print(f"{name:<28} {ran:>9,} {wall:>8.1f} {cpu:>8.1f}  {before} / {load()}")


def matrix(corpus: str, clients: list[str], jobs: int) -> None:
    transports = list(TRANSPORTS)
    print(
        f"\nmatrix: {len(clients)} Python clients x {len(transports)} transports"
        f" ({', '.join(transports)}), -j {jobs}"
    )
    with tempfile.TemporaryDirectory(prefix="toolstream-bench-clients-") as folder:
        docs = Path(folder) / "adapters.md"
        shutil.copyfile(ROOT / "docs" / "adapters.md", docs)
        argv = [sys.executable, "scripts/adapters_report.py", "--only", "matrix", "--sample", "0"]
        argv += ["--corpus", corpus, "--docs", str(docs), "-j", str(jobs)]
        argv += ["--clients", ",".join(clients), "--transports", ",".join(transports)]
        before = load()
        wall, cpu, done = timed(argv)
    for line in done.stderr.decode().splitlines():
        if line.startswith("adapters-report:") and "updated" not in line:
            print(f"  {line}")
    status = "ok" if done.returncode == 0 else f"failed ({done.returncode})"
    print(f"  {status}: wall {wall:.1f} s, cpu {cpu:.1f} s, load {before} / {load()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="corpus/cases")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--clients", default=None, help="comma-separated (default: every Python)")
    parser.add_argument("--no-plain", action="store_true")
    parser.add_argument("--no-matrix", action="store_true")
    args = parser.parse_args()
    clients = args.clients.split(",") if args.clients else list(PYTHON_CLIENTS)
    unknown = [name for name in clients if name not in PYTHON_CLIENTS]
    if unknown:
        print(f"bench-clients: not a Python client: {unknown[0]}", file=sys.stderr)
        return 64
    print(f"python {sys.version.split()[0]}, cores: {os.cpu_count()}, load average: {load()}")
    if not args.no_plain:
        plain(args.corpus, clients, args.jobs)
    if not args.no_matrix:
        matrix(args.corpus, clients, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
