"""``toolstream verify``: check a labelled corpus against the reference validator."""

from __future__ import annotations

import json
import sys

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from toolstream.caseio import atomic_write, discover
from toolstream.cli.errors import Misuse
from toolstream.cli.render import console, format_option
from toolstream.corpus import verify as verifying
from toolstream.corpus.junit import junit_xml
from toolstream.profiles import PROFILES


@click.command(short_help="Check a labelled corpus against the reference validator.")
@click.argument("paths", nargs=-1, required=True, metavar="DIR_OR_FILES...")
@click.option(
    "--junit",
    "junit_path",
    type=click.Path(dir_okay=False),
    help="Also write a JUnit XML report (one testcase per case) to this file.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes.",
)
@click.option(
    "--shard",
    metavar="K/M",
    help="Check only shard K of M (1 <= K <= M); the split hashes case ids, so it is"
    " the same on every machine.",
)
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    type=click.Choice(list(PROFILES)),
    metavar="PROFILE",
    help="Check only the cases of this profile (an unreadable case is always checked)."
    " Repeatable.",
)
@format_option
@click.option("-q", "--quiet", is_flag=True, help="Print nothing unless a label does not hold.")
def verify(
    paths: tuple[str, ...],
    junit_path: str | None,
    jobs: int,
    shard: str | None,
    profiles: tuple[str, ...],
    output_format: str,
    quiet: bool,
) -> None:
    """Run the reference validator on every case and compare with its label.

    DIR_OR_FILES are corpus folders (every *.json below them; cases listed in
    their MANIFEST.jsonl but absent count as failures) or case files.

    Exit status: 0 every label holds, 1 some label does not hold (or a case
    is unreadable or its label malformed), 64 misuse, 130 interrupted (no
    --junit report written).
    """
    chosen = None
    if shard is not None:
        try:
            chosen = verifying.parse_shard(shard)
        except ValueError as error:
            raise Misuse(str(error)) from None
    try:
        found = discover(paths)
    except FileNotFoundError as error:
        raise Misuse(f"no such file or folder: {error}") from None
    if not found.cases:
        raise Misuse(f"no case files (*.json) under {', '.join(paths)}")
    cases = verifying.select_shard(found.cases, chosen)

    err = console(stderr=True)
    with Progress(
        TextColumn("verify"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=quiet or output_format == "json" or not err.is_terminal,
    ) as progress:
        task = progress.add_task("verify", total=len(cases))
        try:
            results = verifying.run(
                cases,
                jobs=jobs,
                progress=lambda n: progress.advance(task, n),
                profiles=profiles or None,
            )
        except verifying.WorkerDied as error:
            raise click.ClickException(str(error)) from None
    if not results:
        raise Misuse(f"no case of profile {', '.join(profiles)} under {', '.join(paths)}")

    if junit_path is not None:
        atomic_write(junit_path, junit_xml(results))
    summary = verifying.Summary.of(results)
    failures = [r for r in results if not r.ok]

    if output_format == "json":
        out = {
            "verify_version": 1,
            "cases": summary.total,
            "ok": summary.ok,
            "failed": summary.failed,
            "results": summary.kinds,
            "statuses": summary.statuses,
            "shard": shard,
            "unlisted": found.unlisted,
            "failures": [r.to_dict() for r in failures],
        }
        sys.stdout.write(json.dumps(out, ensure_ascii=True, indent=2) + "\n")
    else:
        _render(summary, failures, found.unlisted, shard, quiet)
    sys.exit(0 if not failures else 1)


def _render(
    summary: verifying.Summary,
    failures: list[verifying.CaseResult],
    unlisted: list[str],
    shard: str | None,
    quiet: bool,
) -> None:
    out = console()
    if failures:
        table = Table(title="labels that do not hold", title_justify="left")
        widest = max(len(r.id) for r in failures)
        table.add_column("case", no_wrap=True, min_width=min(widest, 72))
        for column in ("expected", "got", "problem"):
            table.add_column(column, overflow="fold")
        for result in failures:
            table.add_row(
                Text(result.id),
                Text(result.expected),
                Text(result.got, style="red"),
                Text("\n".join(result.problems)),
            )
        out.print(table)
    if quiet and not failures:
        return
    if unlisted and not quiet:
        out.print(
            Text(f"note: {len(unlisted)} case(s) not listed in MANIFEST.jsonl", style="yellow")
        )
    title = Text("verify" + (f" (shard {shard})" if shard else ""))
    table = Table(title=title, title_justify="left")
    table.add_column("result")
    table.add_column("cases", justify="right")
    kinds = summary.kinds
    table.add_row(Text("label holds", style="green"), Text(str(summary.ok), style="green"))
    for status, count in summary.statuses.items():
        table.add_row(Text(f"  validator: {status}"), str(count))
    for kind, label in (
        (verifying.MISMATCH, "label does not hold"),
        (verifying.BAD_LABEL, "malformed label"),
        (verifying.UNREADABLE, "unreadable case"),
        (verifying.CRASH, "validator crashed"),
    ):
        if kinds[kind]:
            table.add_row(Text(label, style="red"), Text(str(kinds[kind]), style="red"))
    table.add_row(Text("total", style="bold"), Text(str(summary.total), style="bold"))
    out.print(table)
    if failures:
        out.print(
            Text(f"{summary.failed} of {summary.total} label(s) do not hold", style="bold red")
        )
    else:
        out.print(Text(f"all {summary.total} label(s) hold", style="bold green"))
