"""``toolstream validate``: the reference verdict for one fixture."""

from __future__ import annotations

import sys

import click

from toolstream.api import validate_bytes
from toolstream.cli.errors import EX_DATAERR, Misuse
from toolstream.cli.render import console, output_format_option, report_table
from toolstream.profiles.dialects import choose
from toolstream.reference import parse_limits, read_input


@click.command()
@click.argument("fixture", metavar="FIXTURE")
@output_format_option("text: rich tables; json: one deterministic JSON object.")
@click.option(
    "--report",
    "report_format",
    type=click.Choice(["text", "json"]),
    default=None,
    hidden=True,
    help="The former name of --format.",
)
@click.option(
    "--limit",
    "limits",
    multiple=True,
    metavar="NAME=N",
    help="Override a limit (max_argument_chars, max_depth, max_slots, ...). Repeatable.",
)
@click.option(
    "--dialect",
    "dialect_names",
    multiple=True,
    metavar="NAME",
    help="Read only this reviewed dialect (docs/dialects.md). Repeatable.",
)
@click.option("--no-dialects", is_flag=True, help="Read no dialect: the pure closed world.")
def validate(
    fixture: str,
    output_format: str,
    report_format: str | None,
    limits: tuple[str, ...],
    dialect_names: tuple[str, ...] = (),
    no_dialects: bool = False,
) -> None:
    """Validate one assistant turn (a fixture JSON file, or - for stdin).

    Exit status: 0 pass (executable), 1 blocked, 2 not applicable, 64 misuse,
    65 the input is not a fixture (not strict JSON, not an envelope: the
    report says why), 130 interrupted.
    """
    if report_format is not None:
        output_format = report_format
    try:
        chosen = parse_limits(limits)
        dialects = choose(dialect_names, no_dialects)
    except ValueError as error:
        raise Misuse(str(error)) from None
    try:
        data = read_input(fixture)
    except OSError as error:
        raise Misuse(f"cannot read {fixture}: {error.strerror or error}") from None
    report = validate_bytes(data, limits=chosen, dialects=dialects)
    if output_format == "json":
        sys.stdout.write(report.to_json())
    else:
        out = console()
        for renderable in report_table(report):
            out.print(renderable)
    unreadable = any(finding.code.value == "invalid_envelope" for finding in report.findings)
    sys.exit(EX_DATAERR if unreadable else report.exit_code)
