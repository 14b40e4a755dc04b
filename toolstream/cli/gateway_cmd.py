"""``toolstream gateway-check``: does a tool call survive a gateway that
translates one provider's stream into another format?"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from toolstream.cli.errors import Misuse
from toolstream.cli.render import console, format_option
from toolstream.cli.sharding import empty_shard, shard_option
from toolstream.diff import CorpusError, load_corpus
from toolstream.diff.shard import Shard, select
from toolstream.gateway import (
    DOWNSTREAMS,
    FAIL_ON,
    CommandGateway,
    Gateway,
    GatewayResult,
    GatewayStartError,
    UrlGateway,
    check,
)
from toolstream.gateway.process import DEFAULT_STARTUP, expand
from toolstream.profiles import PROFILES

RECIPES = ("litellm",)


def _gateway(
    url: str | None, command: str | None, recipe: str | None, port: int, startup: float
) -> Gateway:
    given = [
        name
        for name, value in (
            ("--gateway", url),
            ("--gateway-command", command),
            ("--gateway-recipe", recipe),
        )
        if value
    ]
    if len(given) != 1:
        raise Misuse(
            "name the gateway once: --gateway URL, --gateway-command 'CMD {upstream}'"
            " or --gateway-recipe litellm" + (f" (got {', '.join(given)})" if given else "")
        )
    if url is not None:
        if not url.startswith("http://"):
            raise Misuse(f"--gateway takes an http:// URL, not {url!r}")
        if port == 0:
            raise Misuse(
                "--gateway URL needs --upstream-port PORT: the port of the provider URL"
                " your gateway is configured with (serve listens there)"
            )
        return UrlGateway(url)
    if command is not None:
        try:
            expand(command, "http://127.0.0.1:1")
        except (GatewayStartError, ValueError) as error:
            raise Misuse(f"--gateway-command: {error}") from None
        return CommandGateway(command, startup=startup)
    from toolstream.gateway.litellm import LiteLLMGateway, missing

    reason = missing()
    if reason is not None:
        raise Misuse(reason)
    return LiteLLMGateway(startup=startup)


def counts_table(result: GatewayResult) -> Table:
    table = Table(title=f"gateway-check {result.upstream_profile} -> {result.downstream_profile}")
    table.add_column("classification")
    table.add_column("cases", justify="right")
    for kind, count in result.counts().items():
        style = "bold red" if kind.unsafe and count else None
        table.add_row(Text(kind.value, style=style or ""), str(count))
    return table


def examples_table(result: GatewayResult, per: int) -> Table | None:
    worst = result.examples(per)
    if not worst:
        return None
    table = Table(title="examples", show_lines=False)
    table.add_column("classification")
    table.add_column("case")
    table.add_column("why")
    for case in worst:
        table.add_row(case.classification.value, case.path, case.detail)
    return table


@click.command("gateway-check", short_help="Check that tool calls survive a translating gateway.")
@click.argument("corpus", nargs=-1, required=True, metavar="CORPUS...")
@click.option("--gateway", "url", metavar="URL", help="A running gateway's base URL.")
@click.option(
    "--gateway-command",
    "command",
    metavar="'CMD {upstream}'",
    help="Start the gateway: {upstream} becomes the serve URL; the command prints its own"
    " URL on its first stdout line and is stopped when the run ends.",
)
@click.option(
    "--gateway-recipe",
    "recipe",
    type=click.Choice(RECIPES),
    help="A known gateway the run configures, starts and stops (litellm: the LiteLLM"
    " proxy, from the 'gateways' extra).",
)
@click.option(
    "--upstream-profile",
    required=True,
    type=click.Choice(sorted(PROFILES)),
    metavar="PROFILE",
    help="The profile serve plays (the gateway's provider); other cases are not_run.",
)
@click.option(
    "--downstream-profile",
    required=True,
    type=click.Choice(sorted(DOWNSTREAMS)),
    metavar="PROFILE",
    help=f"The format toolstream asks the gateway in: {', '.join(sorted(DOWNSTREAMS))}.",
)
@click.option(
    "--upstream-port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="The port serve listens on (0: a free one); needed with --gateway.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Cases in flight at once.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=30.0,
    show_default=True,
    help="Seconds one case may take (an answer still streaming then is cut).",
)
@click.option(
    "--startup",
    type=click.FloatRange(min=0.1),
    default=DEFAULT_STARTUP,
    show_default=True,
    help="Seconds a started gateway may take to be ready (the LiteLLM recipe: at least 180).",
)
@click.option(
    "--json",
    "json_path",
    metavar="FILE",
    help="Write the deterministic JSON result to FILE ('-': stdout, as --format json).",
)
@click.option(
    "--examples",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    metavar="N",
    help="Cases listed per classification.",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default="unsafe",
    show_default=True,
    help="Exit 1 on laundered or corrupted (unsafe); also on refused or gateway_error"
    " (any); or never. A run that proves nothing exits 1 anyway.",
)
@format_option
@shard_option(
    "Check only shard K of M (a hash of each case path, as diff --shard); the JSON carries"
    " a shard member, and toolstream merge joins the M results."
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def gateway_check(
    corpus: tuple[str, ...],
    url: str | None,
    command: str | None,
    recipe: str | None,
    upstream_profile: str,
    downstream_profile: str,
    upstream_port: int,
    jobs: int,
    timeout: float,
    startup: float,
    json_path: str | None,
    examples: int,
    fail_on: str,
    output_format: str,
    shard: Shard | None,
    quiet: bool,
) -> None:
    """Play every UPSTREAM-PROFILE case of CORPUS to a gateway as its provider
    (toolstream serve), ask the gateway for it in DOWNSTREAM-PROFILE's format
    with the case's tools, validate the stream it sends back with the
    reference, and classify each case: preserved, corrupted, laundered,
    refused, blocked_both, gateway_error (or not_run: another profile).

    Exit status: 0; 1 when --fail-on is met, or when the run proves nothing
    (no case ran, every case is a gateway_error, or the gateway refused every
    case for one reason), or when the gateway did not start; 64 misuse; 130
    interrupted (no --json file written).
    """
    if recipe is not None and startup == DEFAULT_STARTUP:
        startup = 300.0  # the LiteLLM proxy takes a minute to boot on a busy machine
    gateway = _gateway(url, command, recipe, upstream_port, startup)
    try:
        cases, unreadable = load_corpus(corpus)
    except CorpusError as error:
        raise Misuse(str(error)) from None
    part = None
    if shard is not None:
        cases, part = select(cases, shard, lambda case: case.path)
        if not cases:
            raise empty_shard(part, corpus)
    err = console(stderr=True)
    for bad in unreadable:
        err.print(Text(f"not a case, left out: {bad.path}: {bad.error}", style="yellow"))
    playing = sum(1 for c in cases if c.profile == upstream_profile)
    if not quiet:
        err.print(
            f"gateway-check: {playing} {upstream_profile} case(s) of {len(cases)};"
            f" starting the gateway ({gateway.kind})"
        )
    with Progress(
        TextColumn("gateway-check"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal,
    ) as progress:
        task = progress.add_task("cases", total=playing)
        try:
            result = check(
                cases,
                upstream_profile=upstream_profile,
                downstream_profile=downstream_profile,
                gateway=gateway,
                unreadable=unreadable,
                corpus=list(corpus),
                jobs=jobs,
                timeout=timeout,
                upstream_port=upstream_port,
                on_progress=lambda n: progress.advance(task, n),
            )
        except GatewayStartError as error:
            err.print(
                Text(f"gateway-check: the gateway did not start: {error}", style="bold red"),
                soft_wrap=True,
            )
            sys.exit(1)
        except OSError as error:
            raise Misuse(f"cannot serve the upstream: {error.strerror or error}") from None
    if part is not None:
        result = dataclasses.replace(result, shard=part)
    if json_path is not None and json_path != "-":
        _write(Path(json_path), result.to_json())
    if json_path == "-" or output_format == "json":
        sys.stdout.write(result.to_json())
    else:
        out = console()
        out.print(counts_table(result))
        table = examples_table(result, examples)
        if table is not None:
            out.print(table)
        ids = result.ids()
        if ids["kept"] or ids["rewritten"]:
            out.print(
                f"call ids, where the calls match: {ids['kept']} kept,"
                f" {ids['rewritten']} rewritten consistently"
            )
    nothing = result.proves_nothing()
    if nothing is not None:
        err.print(Text(f"this run proves nothing: {nothing}", style="bold red"), soft_wrap=True)
    sys.exit(result.exit_code(fail_on))


def _write(path: Path, text: str) -> None:
    """Atomic: a temporary file beside the target, then a rename."""
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    except OSError as error:
        raise Misuse(f"cannot write {path}: {error.strerror or error}") from None
