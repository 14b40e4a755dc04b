"""``toolstream generate``: draw labelled mutants of seed fixtures into a corpus."""

from __future__ import annotations

import json
import sys
from collections import Counter

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from toolstream.cli.errors import Misuse
from toolstream.cli.render import console, format_option
from toolstream.report import Status


def _operator_list(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> list[str] | None:
    if value is None:
        return None
    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names:
        raise click.BadParameter("give at least one operator name")
    return names


@click.command(short_help="Draw labelled mutants of seed fixtures into a corpus.")
@click.argument("seeds", nargs=-1, required=True, metavar="SEED.json...")
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Corpus folder (created if needed).",
)
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=50,
    show_default=True,
    help="Mutants to draw per seed (per seed and operator with --per-operator).",
)
@click.option(
    "--seed",
    "hypothesis_seed",
    type=int,
    default=0,
    show_default=True,
    help="Hypothesis seed: the same seed files, --seed and --count give byte-identical files.",
)
@click.option(
    "--operators",
    callback=_operator_list,
    metavar="A,B,...",
    help="Only these operators (comma-separated names).",
)
@click.option(
    "--per-operator",
    is_flag=True,
    help="Draw --count mutants for each operator that applies to each seed, separately"
    " (how the shipped corpus is made: every operator is represented).",
)
@click.option(
    "--clean",
    is_flag=True,
    help="First remove the content-addressed cases (DIR/*/<hash>.json) and the manifest"
    " already in DIR.",
)
@format_option
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on success.")
def generate(
    seeds: tuple[str, ...],
    out: str,
    count: int,
    hypothesis_seed: int,
    operators: list[str] | None,
    per_operator: bool,
    clean: bool,
    output_format: str,
    quiet: bool,
) -> None:
    """Draw COUNT distinct mutants of each SEED.json and write each, with its
    label and provenance, as DIR/<operator>/<hash>.json; then rebuild
    DIR/MANIFEST.jsonl.

    Exit status: 0 done, 64 misuse (unknown operator, unreadable seed,
    generators not installed), 1 the generator misbehaved.
    """
    from toolstream.corpus.generate import GenerateError
    from toolstream.corpus.generate import generate as run_generate

    err = console(stderr=True)
    with Progress(
        TextColumn("generate"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=quiet or output_format == "json" or not err.is_terminal,
    ) as progress:
        task = progress.add_task("", total=None)

        def planned(total: int) -> None:
            progress.update(task, total=total)

        def drawn(label: str, n: int) -> None:
            progress.update(task, advance=1, description=label)

        try:
            result = run_generate(
                seeds,
                out,
                count=count,
                seed=hypothesis_seed,
                operators=operators,
                per_operator=per_operator,
                clean_first=clean,
                on_draw=drawn,
                on_plan=planned,
            )
        except GenerateError as error:
            if error.usage:
                raise Misuse(str(error)) from None
            raise click.ClickException(str(error)) from None

    if output_format == "json":
        sys.stdout.write(json.dumps(result.to_dict(), ensure_ascii=True, indent=2) + "\n")
        return
    if result.skipped_seeds:
        console(stderr=True).print(
            Text(
                f"note: no operator applies to {', '.join(result.skipped_seeds)}"
                " (a profile the generators do not model?): skipped",
                style="yellow",
            )
        )
    if quiet:
        return
    show = console()
    table = Table(title=Text(f"generated into {out}"), title_justify="left")
    for column in ("operator", "cases", *(status.value for status in Status)):
        table.add_column(column, justify="left" if column == "operator" else "right")
    for operator, cases in sorted(result.by_operator.items()):
        statuses = result.status_by_operator.get(operator, Counter())
        table.add_row(
            Text(operator), str(cases), *(str(statuses[status.value]) for status in Status)
        )
    show.print(table)
    show.print(
        Text(
            f"{result.drawn} drawn, {result.written} written, {result.unchanged} unchanged,"
            f" {result.collisions} duplicate(s); {result.manifest_cases} case(s) in"
            f" {out}/MANIFEST.jsonl",
            style="bold",
        )
    )
