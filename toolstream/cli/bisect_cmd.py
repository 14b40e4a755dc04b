"""``toolstream bisect``: the first release of a client library whose outcome
on a case changes (:mod:`toolstream.corpus.bisect`)."""

from __future__ import annotations

import json
import sys

import click
from rich.text import Text

from toolstream.caseio import load_case, strip_case
from toolstream.cli.errors import Misuse
from toolstream.cli.render import console, format_option


@click.command(short_help="Find the first release of a client whose outcome on a case changes.")
@click.argument("case_path", metavar="CASE.json")
@click.option(
    "--client",
    "client",
    required=True,
    metavar="NAME[@TRANSPORT]",
    help="The client (as in diff --client) whose library releases are bisected.",
)
@click.option("--good", required=True, metavar="VERSION", help="A release with the old outcome.")
@click.option("--bad", required=True, metavar="VERSION", help="A release with the new outcome.")
@format_option
def bisect(case_path: str, client: str, good: str, bad: str, output_format: str) -> None:
    """Judge CASE.json on the released versions of the client's library
    between --good and --bad (from the package index, or npm's registry for
    a JavaScript client; final releases only),
    as shrink --client judges a candidate, each in its own cached
    environment (as diff --client NAME==VERSION), and print the first
    version whose outcome signature differs from --good's, with both
    signatures.  The search assumes a single change between the two ends.

    Exit status: 0 the first changed version found, 1 the two ends have the
    same outcome (nothing to bisect), 64 misuse (unknown client, a version
    the driver does not support, an unreadable case, a version that cannot
    be installed or run), 130 interrupted.
    """
    from toolstream.adapters.base import AdapterUnavailable
    from toolstream.clients.node import NodeClient
    from toolstream.clients.registry import CLIENTS
    from toolstream.clients.versions import VersionError, check_supported
    from toolstream.corpus.bisect import (
        BisectError,
        bisect_versions,
        case_oracle,
        released_versions,
        versions_between,
    )

    name, _, transport = client.partition("@")
    if name not in CLIENTS:
        raise Misuse(f"unknown client {name!r}; known: {', '.join(CLIENTS)}")
    driver = CLIENTS[name]
    try:
        for version in (good, bad):
            check_supported(driver, version)
    except VersionError as error:
        raise Misuse(str(error)) from None
    loaded = load_case(case_path)
    if loaded.error is not None or not isinstance(loaded.case, dict):
        raise Misuse(f"{case_path}: not a readable case ({loaded.error or 'not an object'})")
    fixture = strip_case(loaded.case)
    err = console(stderr=True)
    package = driver.packages[0]
    try:
        listed = released_versions(package, javascript=isinstance(driver, NodeClient))
        versions = versions_between(listed, good, bad)
        err.print(
            Text(f"bisect: {len(versions)} release(s) of {package} from {good} to {bad}"),
            soft_wrap=True,
        )
        result = bisect_versions(
            versions,
            case_oracle(fixture, name, transport or "plain"),
            on_tested=lambda v, s: err.print(Text(f"bisect: {package} {v}: {s}"), soft_wrap=True),
        )
    except BisectError as error:
        message = str(error)
        if "same outcome" in message:
            if output_format == "json":
                click.echo(json.dumps({"bisect_version": 1, "changed": False, "reason": message}))
            else:
                err.print(Text(f"bisect: {message}", style="yellow"), soft_wrap=True)
            sys.exit(1)
        raise Misuse(message) from None
    except (AdapterUnavailable, VersionError) as error:  # an environment that cannot run
        raise Misuse(f"bisect: {error}".splitlines()[0]) from None
    if output_format == "json":
        out = {"bisect_version": 1, "changed": True, "client": name, "package": package}
        out.update(result.to_dict())
        click.echo(json.dumps(out))  # "tested" in release order
        return
    console().print(
        Text(
            f"first changed: {package} {result.first} ({result.after});"
            f" {result.last_same} and before: {result.before}"
        ),
        soft_wrap=True,
    )
