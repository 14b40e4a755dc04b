"""``toolstream clients install-js``: the JavaScript clients' packages from
the lockfile shipped inside the package (no repository, no Makefile)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import click
from rich.text import Text

from toolstream.cli.errors import EX_FINDINGS, Misuse
from toolstream.cli.render import console

INSTALL_JS = "toolstream clients install-js"
"""The command every JavaScript client's "not installed" message names."""


@click.group(short_help="The client libraries' own installs.")
def clients() -> None:
    """Install what the real client libraries of `toolstream diff --client` need."""


@clients.command("install-js")
@click.argument("folder", metavar="[DIR]", required=False, type=click.Path(file_okay=False))
def install_js(folder: str | None) -> None:
    """Run `npm ci` from the lockfile shipped inside the package: into the
    folder the JavaScript clients read (beside their runner, the default),
    or into DIR (the package.json and package-lock.json copied there first).

    Exit status: 0 installed, 1 npm failed (its output above), 64 misuse
    (no npm on PATH, DIR not writable), 130 interrupted.
    """
    from toolstream.clients.node import JS_ROOT

    npm = shutil.which("npm")
    if npm is None:
        raise Misuse("npm is not on PATH (the JavaScript clients need Node.js 20 or later)")
    target = JS_ROOT if folder is None else Path(folder)
    if target.resolve() != JS_ROOT.resolve():
        try:
            target.mkdir(parents=True, exist_ok=True)
            for name in ("package.json", "package-lock.json"):
                shutil.copyfile(JS_ROOT / name, target / name)
        except OSError as error:
            raise Misuse(f"cannot write {target}: {error.strerror or error}") from None
    err = console(stderr=True)
    err.print(Text(f"npm ci in {target}"))
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=target, check=False
    )
    if done.returncode != 0:
        err.print(Text(f"npm ci failed (exit {done.returncode})", style="bold red"))
        raise click.exceptions.Exit(EX_FINDINGS)
    err.print(Text(f"installed the JavaScript clients' packages into {target / 'node_modules'}"))
