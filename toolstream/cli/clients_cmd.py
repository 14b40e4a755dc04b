"""``toolstream clients install-js``: the JavaScript clients' packages from
the lockfile shipped inside the package (no repository, no Makefile)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import click
from rich.text import Text

from toolstream.cli.errors import EX_FINDINGS, Misuse
from toolstream.cli.render import console, output_format_option

INSTALL_JS = "toolstream clients install-js"
"""The command every JavaScript client's "not installed" message names."""


@click.group(short_help="The client libraries' own installs.")
def clients() -> None:
    """Install what the real client libraries of `toolstream diff --client` need."""


@clients.command("install-js")
@click.argument("folder", metavar="[DIR]", required=False, type=click.Path(file_okay=False))
@output_format_option(
    "text: npm's output and a line; json: npm's output on stderr, one JSON object on stdout."
)
def install_js(folder: str | None, output_format: str) -> None:
    """Run `npm ci` from the lockfile shipped inside the package. By default
    into the folder beside the JavaScript clients in a checkout, or, from a
    wheel install (where pip owns that folder), into a per-user cache folder
    ($XDG_CACHE_HOME/toolstream/js-<digest>; $TOOLSTREAM_JS_DIR overrides),
    which the clients then run from; or into DIR. Outside the shipped folder
    the runner and its drivers are copied beside the packages first.

    Exit status: 0 installed, 1 npm failed (its output above), 64 misuse
    (no npm on PATH, DIR not writable), 130 interrupted.
    """
    from toolstream.clients.node import JS_ROOT, JS_SOURCES, install_home

    npm = shutil.which("npm")
    if npm is None:
        raise Misuse("npm is not on PATH (the JavaScript clients need Node.js 20 or later)")
    target = install_home() if folder is None else Path(folder)
    if target.resolve() != JS_ROOT.resolve():
        try:
            target.mkdir(parents=True, exist_ok=True)
            for name in JS_SOURCES:
                source = JS_ROOT / name
                if source.is_dir():
                    shutil.copytree(source, target / name, dirs_exist_ok=True)
                else:
                    shutil.copyfile(source, target / name)
        except OSError as error:
            raise Misuse(f"cannot write {target}: {error.strerror or error}") from None
    err = console(stderr=True)
    err.print(Text(f"npm ci in {target}"))
    as_json = output_format == "json"
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
        cwd=target,
        check=False,
        # stdout is the JSON object's alone; npm's own output goes to stderr
        stdout=subprocess.PIPE if as_json else None,
        stderr=subprocess.STDOUT if as_json else None,
    )
    if as_json and done.stdout:
        click.echo(done.stdout.decode("utf-8", "replace"), err=True, nl=False)
    if as_json:
        outcome = {
            "install_js_version": 1,
            "folder": str(target),
            "node_modules": str(target / "node_modules"),
            "npm_exit": done.returncode,
            "installed": done.returncode == 0,
        }
        sys.stdout.write(json.dumps(outcome, ensure_ascii=True, indent=2) + "\n")
    if done.returncode != 0:
        err.print(Text(f"npm ci failed (exit {done.returncode})", style="bold red"))
        raise click.exceptions.Exit(EX_FINDINGS)
    err.print(Text(f"installed the JavaScript clients' packages into {target / 'node_modules'}"))
