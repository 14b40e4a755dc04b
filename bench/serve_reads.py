"""Whether writes reach a client one by one: reads per write at each pause.

    python bench/serve_reads.py [--pauses 0,0.0001,0.0002,0.0005,0.001] [--cases 10]
        [--profile openai] [--every 16] [--load N]

The measurement of docs/serve.md ("Writes reach the client one by one"): the
first ``--cases`` cases of ``--profile`` (every 40th file of that profile in
path order), each served once per pause as ``every:N,pause:S`` (N-byte
writes, a close-delimited read to the end) to a raw-socket client that
counts its ``recv`` calls.  A read per write (the headers make one more) is
a ratio of 1.00: each write was seen on its own; below 1, reads merged
writes that piled up in the socket buffer.  ``--load N`` keeps N busy-loop
processes running meanwhile (a loaded machine: the reader is scheduled
late).  Prints, per pause, the ratio's minimum and median over the cases.
Exits 1 when a response was empty.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import socket
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from toolstream.serve import running  # noqa: E402
from toolstream.serve.endpoints import ENDPOINTS  # noqa: E402
from toolstream.serve.transport import parse_transport, plan  # noqa: E402

PATHS = {"openai": "/v1/chat/completions", "anthropic": "/v1/messages"}


def _busy() -> None:
    while True:
        pass


def _reads(port: int, case: str, spec: str, path: str) -> int:
    payload = json.dumps({"model": f"case:{case}", "stream": True}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(
            b"POST /transport/%s%s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (spec.encode(), path.encode(), len(payload), payload)
        )
        reads = 0
        while sock.recv(65536):
            reads += 1
    return reads


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus" / "cases")
    parser.add_argument("--pauses", default="0,0.0001,0.0002,0.0005,0.001")
    parser.add_argument("--cases", type=int, default=10)
    parser.add_argument("--profile", choices=sorted(PATHS), default="openai")
    parser.add_argument("--every", type=int, default=16)
    parser.add_argument("--load", type=int, default=0)
    args = parser.parse_args(argv)
    files = [
        p
        for p in sorted(args.corpus.glob("*/*.json"))
        if json.loads(p.read_text(encoding="utf-8")).get("profile") == args.profile
    ][::40][: args.cases]
    if not files:
        print(f"serve-reads: no {args.profile} case under {args.corpus}", file=sys.stderr)
        return 1
    endpoint = ENDPOINTS[args.profile]
    cut = f"every:{args.every}"
    busy = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for process in busy:
        process.start()
    failed = False
    try:
        with running([str(p) for p in files]) as server:
            ids = [f"{p.parent.name}/{p.stem}" for p in files]
            writes = {
                case: len(
                    plan(
                        endpoint.records(server.index.get(case).stream),
                        endpoint,
                        parse_transport(cut),
                    ).writes
                )
                for case in ids
            }
            print(
                f"serve-reads: {len(ids)} {args.profile} cases, {cut}, "
                f"{min(writes.values())}-{max(writes.values())} writes each, "
                f"{args.load} busy processes"
            )
            for pause in args.pauses.split(","):
                ratios = []
                for case in ids:
                    reads = _reads(
                        server.port, case, f"{cut},close,pause:{pause}", PATHS[args.profile]
                    )
                    failed |= reads == 0
                    ratios.append(reads / (writes[case] + 1))
                print(
                    f"  pause {float(pause) * 1000:g} ms: reads per write min "
                    f"{min(ratios):.2f}, median {statistics.median(ratios):.2f}"
                )
    finally:
        for process in busy:
            process.terminate()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
