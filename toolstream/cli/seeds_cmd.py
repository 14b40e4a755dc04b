"""``toolstream seeds``: list or copy the seeds that ship with the package."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from toolstream.cli.render import console, format_option

SEEDS_JSON_VERSION = 1


@click.command(short_help="List or copy the bundled seeds.")
@click.option("--list", "list_", is_flag=True, help="List the bundled seeds (the default).")
@click.option(
    "--copy",
    "copy_to",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="Copy every bundled seed into DIR (created if needed).",
)
@format_option
def seeds(list_: bool, copy_to: str | None, output_format: str = "text") -> None:
    """The project's valid seed turns, one or more per profile, shipped inside
    the package: `toolstream generate NAME -o DIR` takes one by name.

    The list is a table on a terminal, one name per line otherwise (for
    scripts: `toolstream seeds --list > names`), one JSON object with
    --format json.

    Exit status: 0 done, 64 misuse (DIR holds a different file of the same
    name, or cannot be written), 130 interrupted.
    """
    from toolstream.corpus.seeds import bundled_seeds, copy_seeds, seed_folder

    found = bundled_seeds()
    if not found:
        raise click.UsageError(f"no bundled seeds found in {seed_folder()} (a broken install?)")
    if copy_to is not None:
        try:
            written = copy_seeds(Path(copy_to))
        except (FileExistsError, OSError) as error:
            raise click.UsageError(f"cannot copy the seeds: {error}") from None
        console(stderr=True).print(Text(f"copied {len(written)} seed(s) into {copy_to}"))
        if not list_ and output_format == "text":
            return
    if output_format == "json":
        listing = {
            "seeds_version": SEEDS_JSON_VERSION,
            "seeds": [
                {
                    "name": seed.name,
                    "profile": seed.profile,
                    "tools": sorted(seed.fixture.get("tool_schemas") or {}),
                }
                for seed in found
            ],
        }
        sys.stdout.write(json.dumps(listing, indent=2, sort_keys=True) + "\n")
        return
    out = console()
    if not out.is_terminal:
        sys.stdout.write("".join(f"{seed.name}\n" for seed in found))
        return
    table = Table(title="bundled seeds (toolstream generate NAME ...)", title_justify="left")
    for column in ("name", "profile", "tools"):
        table.add_column(column, overflow="fold")
    for seed in found:
        tools = seed.fixture.get("tool_schemas") or {}
        table.add_row(seed.name, seed.profile, ", ".join(sorted(tools)))
    out.print(table)
