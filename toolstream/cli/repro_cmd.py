"""``toolstream repro``: a standalone reproducer for one client's finding."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from toolstream.cli.errors import Misuse
from toolstream.cli.render import format_option

__all__ = ["repro"]


@click.command(short_help="Write a standalone script reproducing one client's finding.")
@click.argument("case", type=click.Path(dir_okay=False))
@click.option(
    "--client",
    "spec",
    required=True,
    metavar="NAME[@TRANSPORT]",
    help="The client (as in diff --client), optionally with a transport variant (cut-close, ...).",
)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="The script to write (.py for a Python client, .mjs for a JavaScript one).",
)
@click.option(
    "--timeout",
    default=30.0,
    show_default=True,
    type=click.FloatRange(min=0.1),
    help="Seconds for the diff run that judges the case.",
)
@format_option
def repro(case: str, spec: str, output: str, timeout: float, output_format: str) -> None:
    """Write one self-contained script in the client's language that serves
    CASE's exact bytes (transport applied) from a loopback server, calls the
    library the way toolstream's driver does, prints what it handed over and
    the reference's verdict, and exits 1 when the library's behaviour is the
    unsafe one (diff's unsafe_accept or wrong_calls), 0 otherwise.  The script
    needs only that library: no toolstream, no network.

    Exit status: 0 written; 64 misuse (unknown client, unreadable case, a
    client that does not run the case); 130 interrupted (no script written)."""
    from toolstream.repro.build import CLIENTS, ReproError, build_script, split_client

    client, _ = split_client(spec)
    suffix = CLIENTS.get(client)
    if suffix is not None and not output.endswith(suffix):
        raise Misuse(f"a reproducer for {client} is a {suffix} file, got -o {output}")
    if not os.path.isfile(case):
        raise Misuse(f"no such case file: {case}")
    try:
        text, judged = build_script(case, spec, timeout=timeout)
    except ReproError as error:
        raise Misuse(str(error)) from None
    try:
        Path(output).write_text(text, encoding="utf-8", newline="\n")
    except OSError as error:
        raise Misuse(f"cannot write {output}: {error.strerror}") from None
    runner = "node" if suffix == ".mjs" else "python3"
    if output_format == "json":
        written = {
            "repro_version": 1,
            "output": output,
            "client": judged.name,
            "package": judged.package,
            "version": judged.version,
            "classification": judged.classification,
            "run": [runner, output],
        }
        sys.stdout.write(json.dumps(written, ensure_ascii=True, indent=2) + "\n")
        return
    click.echo(
        f"wrote {output}: {judged.name} ({judged.package} {judged.version}),"
        f" diff says {judged.classification}; run: {runner} {output}"
    )
