"""The server's CPU per request: corpus cases requested once each, the handler's CPU time.

    python bench/serve_cpu.py [--cases 300] [--profile openai] [--transport plain] [--runs 3]

The measurement of docs/performance.md ("The server's per-request cost"):
the first ``--cases`` cases of ``--profile`` (the first 20 of each operator
folder, in path order), served as ``toolstream diff --client`` serves them (a
lazy index, each file read and parsed on the first request for it, one
request per connection), each requested once by a bare ``http.client`` POST
at its own path prefix.  Every request is a first request for its case, so
each pays the whole cost: the file parsed, the case's wire records built, the
plan of writes, the HTTP exchange.

What is measured is the server's own CPU, not wall time (the machine is
shared): with one request per connection each request has a handler thread
of its own, and ``time.thread_time()`` read in that thread when the response
has ended (the server's ``on_request`` hook) is the CPU that thread spent on
it, from the request line to the last write.  The accepting thread's work
(``accept``, starting the thread) is not in it.  Each run starts a new
server (nothing cached).  Prints the median and mean per run, and exits 1
when a request was not answered in full.
"""

from __future__ import annotations

import argparse
import functools
import http.client
import json
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from toolstream.caseio import discover  # noqa: E402
from toolstream.clients.transports import serve_spec  # noqa: E402
from toolstream.serve import CaseIndex, LoggedRequest, Server  # noqa: E402
from toolstream.serve.cases import ServedCase, from_bytes  # noqa: E402

PER_OPERATOR = 20


def chosen_cases(corpus: Path, profile: str, count: int) -> list[tuple[str, str]]:
    """(case id, file) of the first ``PER_OPERATOR`` cases of ``profile`` in
    each operator folder, in path order, the first ``count`` of them."""
    taken: dict[str, int] = {}
    out: list[tuple[str, str]] = []
    for ref in discover([corpus]).cases:
        if ref.missing:
            continue
        operator = ref.id.split("/", 1)[0]
        if taken.get(operator, 0) >= PER_OPERATOR:
            continue
        with open(ref.path, "rb") as handle:
            if json.loads(handle.read()).get("profile") != profile:
                continue
        taken[operator] = taken.get(operator, 0) + 1
        out.append((ref.id, ref.path))
    return out[:count]


def _load(ident: str, path: str) -> ServedCase:
    with open(path, "rb") as handle:
        return from_bytes(ident, handle.read())


def one_run(cases: list[tuple[str, str]], endpoint_path: str, spec: str) -> list[float]:
    """The handler thread's CPU seconds of each request, in request order."""
    entries: list[tuple[str, Callable[[], ServedCase]]] = [
        (ident, functools.cache(functools.partial(_load, ident, path))) for ident, path in cases
    ]
    cpu: list[float] = []
    problems: list[str] = []
    lock = threading.Lock()

    def ended(logged: LoggedRequest) -> None:
        spent = time.thread_time()  # this handler thread's CPU, all of it this request's
        with lock:
            cpu.append(spent)
            if logged.status != 200 or logged.outcome != "complete":
                problems.append(f"{logged.case}: {logged.status} {logged.outcome}")

    index = CaseIndex.lazy(entries)
    with Server(index, one_request_per_connection=True, on_request=ended) as server:
        for ident, _ in cases:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            try:
                url = (
                    f"/cases/{quote(ident, safe='/')}/transport/{quote(spec, safe=',:@')}"
                    f"{endpoint_path}"
                )
                body = json.dumps({"model": "m", "stream": True, "messages": []}).encode()
                connection.request(
                    "POST", url, body=body, headers={"Content-Type": "application/json"}
                )
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    problems.append(f"{ident}: status {response.status}")
            finally:
                connection.close()
        deadline = time.monotonic() + 10
        while len(cpu) < len(cases) and time.monotonic() < deadline:
            time.sleep(0.01)  # the last handler may still be in its hook
    if problems or len(cpu) != len(cases):
        raise SystemExit(f"not answered in full: {problems[:5]} ({len(cpu)} of {len(cases)})")
    return cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--profile", default="openai")
    parser.add_argument("--transport", default="plain", help="a diff transport name or spec")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpus", default=str(ROOT / "corpus" / "cases"))
    args = parser.parse_args(argv)
    from toolstream.serve import ENDPOINTS

    endpoint = ENDPOINTS[args.profile]
    if "{" in endpoint.path:
        raise SystemExit(f"{args.profile}: the model is in the path; use a profile that names it")
    cases = chosen_cases(Path(args.corpus), args.profile, args.cases)
    spec = serve_spec(args.transport)
    print(f"{len(cases)} {args.profile} cases, transport {args.transport!r} ({spec}),")
    print("server handler thread CPU per request (time.thread_time), one request per case")
    print()
    print("| run | median ms | mean ms | total s |")
    print("| ---: | ---: | ---: | ---: |")
    for run in range(1, args.runs + 1):
        cpu = one_run(cases, endpoint.path, spec)
        print(
            f"| {run} | {statistics.median(cpu) * 1000:.2f} | {statistics.fmean(cpu) * 1000:.2f}"
            f" | {sum(cpu):.3f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
