#!/usr/bin/env python3
"""Regenerate the measured part of docs/adapters.md (``make adapters-report``).

Runs every built-in adapter over the shipped corpus (``corpus/cases``) with
``toolstream.diff`` and rewrites what lies between the markers
``<!-- adapters-report:begin -->`` and ``<!-- adapters-report:end -->``:

* the library versions and the corpus measured;
* the table operator x adapter -> classification counts;
* the findings per adapter: every claim below, each backed by the number of
  cases that show it and the path of the first one.  A claim that no case
  shows stops the script (exit 2) and nothing is written: the docs never
  state a behaviour the corpus does not exhibit.

The output depends only on the corpus, the library versions and this file,
so a rerun is byte-identical.  ``--check`` writes nothing and exits 1 when
the docs are stale.  The run time goes to stderr, never into the docs.

It then runs every client of ``toolstream.clients`` (the real libraries,
Python and JavaScript, driven over HTTP through ``toolstream serve``) twice:

* ``clients``: the plain transport over the whole corpus, into the block
  between ``<!-- clients-report:begin -->`` and ``<!-- clients-report:end -->``;
* ``matrix``: every transport variant of ``toolstream.clients.TRANSPORTS``
  over a sample (the first ``--sample`` cases, in path order, of each
  operator and profile; ``--sample 0``: the whole corpus, about 260,000
  client runs), into ``<!-- clients-matrix:begin -->`` / ``...:end -->``;
  this run is also written as one HTML page (``adapters_report_html``:
  ``docs/adapters-report.html``, or ``out/`` when it is 5 MB or more), named
  between ``<!-- adapters-html:begin -->`` / ``...:end -->``.

Each block has one table per client (transport x classification), and per
transport every way the client disagrees with the reference (by reference
code, exception type or differing fields), each with its count and first
case; a client whose library is missing (node absent...) is named as not
measured, a transport a client cannot receive as ``n/a``.

``--clients python`` names the Python clients only (``make bench-clients``
times the whole-corpus Python matrix, see docs/performance.md).

Usage: python scripts/adapters_report.py [--corpus DIR] [--docs FILE] [-j N] [--check]
           [--only adapters|clients|matrix] [--clients A,B|python] [--transports T,U]
           [--sample K] [--save-result DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for where in (ROOT, Path(__file__).resolve().parent):  # toolstream; the sibling modules
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))


from adapters_report_claims import ADAPTERS, PINNED, SECTIONS  # noqa: E402
from adapters_report_html import write_page  # noqa: E402
from adapters_report_render import (  # noqa: E402
    CLIENTS_BEGIN,
    CLIENTS_END,
    MATRIX_BEGIN,
    MATRIX_END,
    MATRIX_SAMPLE,
    DistillManifest,
    Unsupported,
    read_distilled,
    render,
    render_clients,
    sample,
    splice,
)

from toolstream.caseio import atomic_write  # noqa: E402
from toolstream.diff import DiffResult  # noqa: E402
from toolstream.diff.session import (  # noqa: E402
    CaseFinished,
    DiffSession,
    Event,
    RunSpec,
    RunStarted,
    client_specs,
)

__all__ = ["ADAPTERS", "PINNED", "SECTIONS", "main"]


class _Progress:
    """A line on stderr at every tenth of the (case, column) runs: the full
    matrix takes most of an hour on two cores.  Fed the session's events."""

    def __init__(self) -> None:
        self.total, self.done, self.shown, self.started = 0, 0, 0, time.monotonic()

    def __call__(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self.total = event.total
            return
        if not isinstance(event, CaseFinished):
            return
        self.done += event.runs
        tenth = self.done * 10 // max(self.total, 1)
        if tenth > self.shown:
            self.shown = tenth
            elapsed = time.monotonic() - self.started
            print(
                f"adapters-report: clients {self.done:,}/{self.total:,} runs"
                f" ({tenth * 10} %, {elapsed:.0f} s)",
                file=sys.stderr,
                flush=True,
            )


def run_clients(
    corpus: Path,
    clients: list[str],
    transports: list[str],
    jobs: int,
    per: int | None = None,
    *,
    details: bool = False,
    kept: DistillManifest | None = None,
) -> tuple[DiffResult, dict[str, str]]:
    """Every available client x transport over ``corpus`` (or its sample, or
    the cases a distill manifest keeps),
    one session; the clients whose library is missing, with the reason.
    ``details``: the result also holds each disagreeing case's stream (what
    the HTML page shows)."""
    from toolstream.clients import CLIENTS
    from toolstream.clients.harness import DEFAULT_TIMEOUT

    missing = {n: m for n in clients if (m := CLIENTS[n].available()) is not None}
    specs: list[RunSpec] = client_specs([n for n in clients if n not in missing], transports)
    # the workers of -j N resolve the clients with the same per-case timeout
    session = DiffSession.open(corpus.as_posix(), specs, jobs=jobs, timeout=DEFAULT_TIMEOUT)
    if kept is not None:
        session.cases = kept.select(session.cases, corpus)
    elif per is not None:
        session.cases = sample(session.cases, per)
    result = session.run(_Progress())
    if details:
        from toolstream.diff.stream import case_details

        disagreeing = {
            c.path for c in result.cases if any(o.disagrees for o in c.outcomes.values())
        }
        result.details = case_details(session.cases, disagreeing)
    return result, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus" / "cases")
    parser.add_argument("--docs", type=Path, default=ROOT / "docs" / "adapters.md")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="exit 1 if the docs are stale")
    parser.add_argument(
        "--only",
        choices=["adapters", "clients", "matrix"],
        default=None,
        help="adapters: the built-in adapters' block; clients: every client, plain"
        " transport, whole corpus; matrix: every client x transport over --sample",
    )
    parser.add_argument("--clients", default=None, help="comma-separated, or python (default: all)")
    parser.add_argument(
        "--transports", default=None, help="the matrix's, comma-separated (default: all)"
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=MATRIX_SAMPLE,
        help=f"the matrix's cases per operator and profile (default {MATRIX_SAMPLE};"
        " 0: the whole corpus)",
    )
    parser.add_argument(
        "--distilled",
        type=Path,
        default=None,
        metavar="DISTILL.jsonl",
        help="the matrix runs over the cases of --corpus this distill manifest keeps"
        " (toolstream distill's DISTILL.jsonl), instead of --sample",
    )
    parser.add_argument(
        "--save-result",
        type=Path,
        default=None,
        metavar="DIR",
        help="also write each client run's JSON result (toolstream diff --format json)"
        " as DIR/clients.json and DIR/matrix.json: what toolstream distill reads",
    )
    args = parser.parse_args(argv)

    # case paths in the docs are relative to the repository
    os.chdir(ROOT)
    corpus = args.corpus.resolve()
    if corpus.is_relative_to(ROOT):
        corpus = corpus.relative_to(ROOT)
    try:
        document = args.docs.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        # (the report is spliced into the page between its markers: no page, nothing to splice)
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        print(f"adapters-report: cannot read {args.docs}: {reason}", file=sys.stderr)
        return 2
    updated = document
    if args.only in (None, "adapters"):
        code, updated = adapters_block(args, corpus, updated)
        if code:
            return code
    if args.only != "adapters":
        from toolstream.clients import CLIENTS, TRANSPORTS
        from toolstream.clients.registry import PYTHON_CLIENTS

        if args.clients == "python":
            clients = list(PYTHON_CLIENTS)
        else:
            clients = args.clients.split(",") if args.clients else list(CLIENTS)
        unknown = [name for name in clients if name not in CLIENTS]
        if unknown:
            print(f"adapters-report: unknown client {unknown[0]!r}", file=sys.stderr)
            return 64
        transports = args.transports.split(",") if args.transports else list(TRANSPORTS)
        runs: list[tuple[list[str], int | None, tuple[str, str]]] = []
        if args.only in (None, "clients"):
            runs.append((["plain"], None, (CLIENTS_BEGIN, CLIENTS_END)))
        if args.only in (None, "matrix"):
            runs.append((transports, args.sample or None, (MATRIX_BEGIN, MATRIX_END)))
        distilled = None
        if args.distilled is not None:
            try:
                distilled = read_distilled(args.distilled, corpus)
            except ValueError as error:
                print(f"adapters-report: {error}", file=sys.stderr)
                return 64
        for these, per, markers in runs:
            started = time.monotonic()
            html = markers == (MATRIX_BEGIN, MATRIX_END)
            kept = distilled if html else None
            try:
                result, missing = run_clients(
                    corpus,
                    clients,
                    these,
                    args.jobs,
                    None if kept else per,
                    details=html,
                    kept=kept,
                )
            except ValueError as error:  # a distill manifest of another corpus
                print(f"adapters-report: {error}", file=sys.stderr)
                return 64
            for name, why in missing.items():
                print(f"adapters-report: {name} not measured: {why}", file=sys.stderr)
            print(
                f"adapters-report: {len(clients) - len(missing)} clients x {len(these)}"
                f" transports in {time.monotonic() - started:.1f} s (-j {args.jobs})",
                file=sys.stderr,
            )
            if args.save_result is not None:
                args.save_result.mkdir(parents=True, exist_ok=True)
                name = "matrix.json" if html else "clients.json"
                atomic_write(args.save_result / name, result.to_json())
            block = render_clients(
                result, corpus, clients, these, missing, None if kept else per, markers, kept=kept
            )
            updated = splice(updated, block, *markers)
            if html:  # the matrix run is also the HTML page (docs/ or out/, by its size)
                updated = write_page(result, ROOT, updated, check=args.check)
    if args.check:
        if updated != document:
            print(
                f"adapters-report: {args.docs} is stale; run make adapters-report", file=sys.stderr
            )
            return 1
        return 0
    if updated != document:
        args.docs.write_text(updated, encoding="utf-8")
        print(f"adapters-report: {args.docs} updated", file=sys.stderr)
    return 0


def adapters_block(args: Any, corpus: Path, document: str) -> tuple[int, str]:
    """The built-in adapters' block: (exit code, the document with it)."""
    started = time.monotonic()
    result = DiffSession.open(corpus.as_posix(), list(ADAPTERS), jobs=args.jobs).run()
    elapsed = time.monotonic() - started
    skipped = [a for a in result.adapters if not a.ran]
    if skipped:
        for info in skipped:
            print(f"adapters-report: {info.skipped}", file=sys.stderr)
        return 2, document
    for info in result.ran:
        if PINNED.get(info.name) != info.version:
            print(
                f"adapters-report: warning: {info.name} drives {info.package} {info.version},"
                f" the docs pin {PINNED.get(info.name)}",
                file=sys.stderr,
            )
    try:
        block = render(result, corpus)
    except Unsupported as error:
        print(f"adapters-report: a claim is not shown by the corpus: {error}", file=sys.stderr)
        return 2, document
    print(
        f"adapters-report: {len(result.cases)} cases x {len(result.ran)} adapters"
        f" in {elapsed:.1f} s (-j {args.jobs})",
        file=sys.stderr,
    )
    return 0, splice(document, block)


if __name__ == "__main__":
    sys.exit(main())
