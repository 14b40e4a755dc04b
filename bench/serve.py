"""``toolstream serve`` under load: the shipped corpus through N concurrent clients.

    python bench/serve.py [--concurrency 1,16,64] [--transport default] [--corpus corpus/cases]

Starts ``toolstream serve CORPUS -q`` in its own process, then for each
concurrency N streams every case of the corpus once through N client
threads (each with its own keep-alive ``http.client`` connection), each
request at the case's own endpoint with the model ``case:<id>``.  A request
counts as served when the status is 200 and the body is complete (the
chunked framing ended properly).  Prints cases per second (wall time) and
the p50/p99 latency (request sent to last byte), and the server process's
open file descriptors and threads before the first request and after the
clients have closed their connections.  Exits 1 when a request was not
served or something leaked.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from toolstream.serve.cases import collect  # noqa: E402
from toolstream.serve.endpoints import ENDPOINTS  # noqa: E402


def requests_for(corpus: str) -> list[tuple[str, str, bytes]]:
    """(case id, path, body) for every case, at its own endpoint."""
    out = []
    for case in collect(corpus):
        endpoint = ENDPOINTS[case.profile]
        if case.profile == "bedrock":
            path = f"/model/{quote('case:' + case.id, safe='')}/converse-stream"
            body = b"{}"
        else:
            path = endpoint.path
            body = json.dumps({"model": f"case:{case.id}", "stream": True}).encode()
        out.append((case.id, path, body))
    return out


def server_counts(pid: int) -> tuple[int, int]:
    """(open file descriptors, threads) of a process."""
    return len(os.listdir(f"/proc/{pid}/fd")), len(os.listdir(f"/proc/{pid}/task"))


def run_clients(
    port: int, work: list[tuple[str, str, bytes]], concurrency: int
) -> tuple[float, list[float], list[str]]:
    jobs: queue.Queue[tuple[str, str, bytes]] = queue.Queue()
    for item in work:
        jobs.put(item)
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            while True:
                try:
                    ident, path, body = jobs.get_nowait()
                except queue.Empty:
                    return
                started = time.perf_counter()
                try:
                    connection.request(
                        "POST", path, body=body, headers={"Content-Type": "application/json"}
                    )
                    response = connection.getresponse()
                    response.read()  # raises IncompleteRead when the chunked body is cut
                    ok = response.status == 200
                    problem = f"{ident}: status {response.status}"
                except (OSError, http.client.HTTPException) as error:
                    ok, problem = False, f"{ident}: {type(error).__name__}: {error}"
                    connection.close()
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                elapsed = time.perf_counter() - started
                with lock:
                    if ok:
                        latencies.append(elapsed)
                    else:
                        failures.append(problem)
        finally:
            connection.close()

    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started, latencies, failures


def settle(pid: int, baseline: tuple[int, int], seconds: float = 10.0) -> tuple[int, int]:
    """The counts once the server has closed the finished connections."""
    deadline = time.monotonic() + seconds
    counts = server_counts(pid)
    while counts != baseline and time.monotonic() < deadline:
        time.sleep(0.1)
        counts = server_counts(pid)
    return counts


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrency", default="1,16,64")
    parser.add_argument("--transport", default="default")
    parser.add_argument("--corpus", default=str(ROOT / "corpus" / "cases"))
    args = parser.parse_args(argv)
    levels = [int(n) for n in args.concurrency.split(",")]
    work = requests_for(args.corpus)
    command = [
        sys.executable,
        "-c",
        "from toolstream.cli import main; main()",
        "serve",
        args.corpus,
        "-q",
        "--transport",
        args.transport,
    ]
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT
    )
    failed = False
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        port = int(url.rsplit(":", 1)[1])
        load = os.getloadavg()[0]
        print(f"toolstream serve {url}: {len(work)} cases, transport {args.transport!r},")
        print(f"{os.cpu_count()} cores, load average {load:.1f} at start")
        print()
        print(
            "| clients | cases | served | cases/s | p50 ms | p99 ms | fds before/after |"
            " threads before/after |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for concurrency in levels:
            before = server_counts(server.pid)
            wall, latencies, failures = run_clients(port, work, concurrency)
            after = settle(server.pid, before)
            rate = len(latencies) / wall
            p50 = percentile(latencies, 0.5) * 1000 if latencies else float("nan")
            p99 = percentile(latencies, 0.99) * 1000 if latencies else float("nan")
            print(
                f"| {concurrency} | {len(work)} | {len(latencies)} | {rate:.0f} | {p50:.1f} |"
                f" {p99:.1f} | {before[0]}/{after[0]} | {before[1]}/{after[1]} |"
            )
            for problem in failures[:5]:
                print(f"  not served: {problem}")
            if failures or after != before:
                failed = True
    finally:
        server.terminate()
        server.wait(timeout=30)
    print("FAILED: a request was not served or the server leaked" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
