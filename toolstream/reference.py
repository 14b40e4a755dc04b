"""The reference validator as a dependency-free command.

``python3 -S -m toolstream.reference FIXTURE [--format json|text] [--limit NAME=N]``
(``--report`` is the same option's former name)

Uses only the standard library (no click, no rich), so a locked-down CI can
vendor the ``toolstream`` package and run it.  Exit status: 0 pass
(executable), 1 blocked, 2 not applicable, 64 misuse.  ``-`` reads stdin.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from toolstream.api import validate_bytes
from toolstream.limits import Limits
from toolstream.report import Report

EX_USAGE = 64


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EX_USAGE, f"{self.prog}: error: {message}\n")


def parse_limits(pairs: Sequence[str]) -> Limits:
    """``["max_depth=64", ...]`` -> :class:`Limits`; raises ValueError with a
    one-line message."""
    changes: dict[str, int] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in Limits.names():
            raise ValueError(
                f"bad limit {pair!r}; use NAME=N with NAME one of {', '.join(Limits.names())}"
            )
        try:
            changes[name] = int(value)
        except ValueError:
            raise ValueError(f"limit {name} needs an integer, got {value!r}") from None
        if changes[name] < 0:
            raise ValueError(f"limit {name} must not be negative")
    return Limits().replace(**changes)


def render_text(report: Report) -> str:
    """A plain-text rendering (the rich one lives in the CLI)."""
    lines = [f"status: {report.status}  profile: {report.profile}  executable: {report.executable}"]
    for call in report.calls:
        where = f"slot {call.slot}" + (f" choice {call.choice}" if call.choice is not None else "")
        lines.append(
            f"  call {where} [{call.kind}, {call.state}] id={call.id!r} name={call.name!r}"
            f" arguments={call.arguments[:80]!r}"
        )
    for finding in report.findings:
        where = "" if finding.slot is None else f" slot {finding.slot}"
        at = "" if finding.event is None else f" event {finding.event}"
        path = "" if finding.path is None else f" at {finding.path}"
        lines.append(f"  {finding.code.value}{where}{at}{path}: {finding.message}")
    return "\n".join(lines) + "\n"


def read_input(path: str) -> bytes:
    """Read a fixture path (or ``-``); raises OSError with a readable message."""
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="toolstream.reference", description=__doc__.splitlines()[0])
    parser.add_argument("fixture", help="fixture JSON file, or - for stdin")
    parser.add_argument(
        "--format", "--report", dest="report", choices=("json", "text"), default="text"
    )
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=N")
    args = parser.parse_args(argv)
    try:
        limits = parse_limits(args.limit)
    except ValueError as error:
        print(f"toolstream.reference: {error}", file=sys.stderr)
        return EX_USAGE
    try:
        data = read_input(args.fixture)
    except OSError as error:
        print(
            f"toolstream.reference: cannot read {args.fixture}: {error.strerror or error}",
            file=sys.stderr,
        )
        return EX_USAGE
    report = validate_bytes(data, limits=limits)
    sys.stdout.write(report.to_json() if args.report == "json" else render_text(report))
    return report.exit_code


if __name__ == "__main__":
    sys.exit(main())
