"""``toolstream label``: write the reference's verdict into imported fixtures."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from toolstream.cli.errors import Unreadable
from toolstream.cli.render import console, format_option

LABEL_JSON_VERSION = 1


@click.command(short_help="Write the reference's verdict into fixtures as their label.")
@click.argument("fixtures", nargs=-1, required=True, metavar="FIXTURE.json...")
@click.option("-y", "--yes", is_flag=True, help="Write without asking.")
@click.option(
    "--force",
    is_flag=True,
    help="Replace a label that differs from the verdict (otherwise such a file is refused).",
)
@format_option
def label(fixtures: tuple[str, ...], yes: bool, force: bool, output_format: str = "text") -> None:
    """Validate each FIXTURE.json (an imported capture, a hand-written turn),
    show the verdict, then write it into the file as its `expect` label
    (status, finding codes, and for a passing turn the exact calls), so that
    `toolstream verify` checks it like a generated case.

    A label is the verdict of the reference as it is now: read it before you
    accept it.  With --format json, one JSON object on stdout: each file's
    verdict and label state, and how many files were written.

    Exit status: 0 written (or nothing to change), 1 not confirmed, or a
    label differs and --force was not given; 64 misuse (a file that cannot
    be read); 65 a file that is not a JSON fixture; 130 interrupted.
    """
    from toolstream.api import validate_bytes
    from toolstream.caseio import atomic_write, dump_json
    from toolstream.corpus.label import label_of

    planned: list[tuple[Path, bytes]] = []
    table = Table(title="verdicts (the label each file gets)", title_justify="left")
    for column in ("fixture", "status", "codes", "calls", "label"):
        table.add_column(column, overflow="fold")
    conflicts: list[str] = []
    rows: list[dict[str, Any]] = []

    def emit(written: int) -> None:
        if output_format == "json":
            out = {"label_version": LABEL_JSON_VERSION, "files": rows, "written": written}
            sys.stdout.write(json.dumps(out, indent=2, sort_keys=True) + "\n")

    for name in fixtures:
        path = Path(name)
        try:
            data = path.read_bytes()
            fixture = json.loads(data.decode("utf-8"))
        except OSError as error:
            raise click.UsageError(f"cannot read {name}: {error.strerror or error}") from None
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            raise Unreadable(f"{name} is not a JSON fixture: {str(error)[:80]}") from None
        if not isinstance(fixture, dict) or "profile" not in fixture:
            raise Unreadable(f"{name} is not a fixture (no 'profile')")
        report = validate_bytes(data)  # the raw bytes, as verify judges them
        expect = label_of(report)
        body = {k: v for k, v in fixture.items() if k != "expect"}
        labelled = dump_json({**body, "expect": expect}).encode("ascii")
        if label_of(validate_bytes(labelled)) != expect:
            raise click.UsageError(
                f"cannot label {name}: written back as JSON its verdict changes"
                " (duplicate keys or invalid text in the file?)"
            )
        old = fixture.get("expect")
        state = "new" if old is None else ("unchanged" if old == expect else "CHANGES")
        if state == "CHANGES":
            conflicts.append(name)
        calls = ", ".join(c["name"] for c in expect.get("calls", [])) or "-"
        table.add_row(name, report.status, ", ".join(report.codes) or "-", calls, state)
        rows.append(
            {
                "fixture": name,
                "status": str(report.status),
                "codes": list(report.codes),
                "calls": [c["name"] for c in expect.get("calls", [])],
                "label": state.lower(),
            }
        )
        if state != "unchanged":
            planned.append((path, labelled))
    console(stderr=True).print(table)
    if conflicts and not force:
        emit(0)
        raise click.ClickException(
            f"{len(conflicts)} file(s) carry a label the reference does not give now"
            f" ({conflicts[0]}...): nothing written; pass --force to replace them"
        )
    if not planned:
        console(stderr=True).print(Text("every label already holds; nothing to write"))
        emit(0)
        return
    if not yes and not click.confirm(
        f"Write these labels into {len(planned)} file(s)?", err=True, default=False
    ):
        emit(0)
        raise click.ClickException("not confirmed: nothing written")
    for path, labelled in planned:
        atomic_write(path, labelled)
    console(stderr=True).print(Text(f"labelled {len(planned)} file(s)"))
    emit(len(planned))
