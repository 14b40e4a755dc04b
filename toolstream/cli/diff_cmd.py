"""``toolstream diff``: how real libraries' stream reassembly disagrees with the reference."""

from __future__ import annotations

import sys
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from toolstream.cli.diff_render import (
    counts_table,
    examples_table,
    layers_table,
    profiles_table,
    summary_text,
)
from toolstream.cli.errors import Misuse
from toolstream.cli.render import console, output_format_option
from toolstream.cli.sharding import empty_shard, shard_option
from toolstream.clients.transports import TRANSPORTS
from toolstream.diff import AdapterSpecError, CorpusError, DiffResult
from toolstream.diff.executors import DaskExecutor, ExecutorError, parse_executor
from toolstream.diff.results import FAIL_ON, sort_examples
from toolstream.diff.runner import UserOptions, WorkerStopped
from toolstream.diff.session import (
    CaseFinished,
    DiffSession,
    Event,
    RunSpec,
    RunStarted,
    WorkerMismatch,
    against_baseline,
    client_specs,
    parse_spec,
)
from toolstream.diff.shard import Shard
from toolstream.profiles import PROFILES

WIDE = 200
"""Width of the table output when stdout is not a terminal."""

BUILT_IN = ("openai-python", "anthropic-python", "langchain-core", "litellm")


def _executor(text: str | None, jobs: int) -> DaskExecutor | None:
    """``--executor``: a cluster to judge the cases on, or ``None`` (here)."""
    if text is None:
        return None
    if jobs > 1:
        raise Misuse("-j N and --executor: the cluster's workers are the parallelism")
    try:
        return parse_executor(text)
    except ExecutorError as error:
        raise Misuse(str(error)) from None


def _list_clients(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from toolstream.clients import CLIENTS

    for client in CLIENTS.values():
        missing = client.available()
        where = f"{client.packages[0]} {client.version()}" if missing is None else missing
        click.echo(f"{client.name}\t{', '.join(client.profiles)}\t{where}")
    ctx.exit(0)


def _write_html(result: DiffResult, path: str) -> None:
    """The HTML report of ``result``, rendered from its JSON form (the same
    bytes as ``toolstream report`` of the ``--format json`` output)."""
    import json

    from toolstream.diff.html import write_html

    try:
        write_html(json.loads(result.to_json(details=True)), path)
    except OSError as error:
        raise Misuse(f"--html: cannot write {path}: {error.strerror or error}") from None


def _client_specs(names: tuple[str, ...], transports: str) -> list[RunSpec]:
    """A client spec for every client x transport."""
    from toolstream.clients import CLIENTS
    from toolstream.clients.versions import expand_client_values, split_version

    wanted = expand_client_values(
        n.strip() for value in names for n in value.split(",") if n.strip()
    )
    variants = [t.strip() for t in transports.split(",") if t.strip()]
    if names and not wanted:
        raise click.UsageError("--client needs a client name (see --list-clients)")
    if not variants:
        raise click.UsageError("--transport needs a transport name")
    specs = client_specs(wanted, variants)  # NAME@TRANSPORT: that transport only
    for spec in specs:
        base, _ = split_version(spec.name)
        if base not in CLIENTS:
            raise click.UsageError(f"unknown client {base!r}; known: {', '.join(CLIENTS)}")
    return specs


def _prepare_versions(specs: list[RunSpec]) -> None:
    """Build (or find cached) the environment of every ``NAME==VERSION``,
    saying so on stderr; a version that cannot run is one line, exit 64."""
    from toolstream.clients.registry import get_client
    from toolstream.clients.versions import VersionError, prepare_env, split_version

    err = console(stderr=True)
    for name in dict.fromkeys(spec.name for spec in specs):
        base, version = split_version(name)
        if version is None:
            continue
        try:
            get_client(name)
            prepare_env(get_client(base), version, progress=lambda text: err.print(Text(text)))
        except (KeyError, VersionError) as error:
            raise Misuse(str(error).strip("'\"")) from None


def _write_repro_dir(result: DiffResult, directory: str, err: Any, *, quiet: bool) -> None:
    """``--repro-dir``: the reproducers written, and what had none, on stderr;
    the result learns which is whose (the HTML report links them)."""
    from toolstream.repro.directory import write_reproducers

    try:
        done = write_reproducers(result.to_dict(), directory)
    except OSError as error:
        raise Misuse(f"--repro-dir {directory}: {error.strerror or error}") from None
    result.reproducers = done.scripts
    err.print(
        Text(f"repro-dir: {len(done.written)} reproducer(s) written to {directory}"),
        soft_wrap=True,
    )
    for column, count in sorted(done.no_template.items()):
        if not quiet:
            err.print(
                Text(f"repro-dir: no reproducer for {column} ({count} disagreement(s))"),
                style="yellow",
                soft_wrap=True,
            )
    for (path, column), why in sorted(done.failed.items()):
        err.print(Text(f"repro-dir: not written: {path} {column}: {why}", style="red"))


@click.command(short_help="Run real libraries' stream reassembly over a corpus.")
@click.argument("corpus", nargs=-1, required=True, metavar="CORPUS...")
@click.option(
    "--adapter",
    "adapter_specs",
    multiple=True,
    metavar="NAME",
    help="A built-in adapter (openai-python, anthropic-python, langchain-core, litellm)"
    " or package.module:function. Repeatable. Default: every built-in adapter.",
)
@click.option(
    "--adapter-command",
    "commands",
    multiple=True,
    metavar="'CMD'",
    help="An external adapter (see --protocol): the fixture JSON in, its calls (a JSON"
    " list) or a refusal out. Repeatable.",
)
@click.option(
    "--protocol",
    type=click.Choice(["per-case", "lines"]),
    default="per-case",
    show_default=True,
    help="For --adapter-command. per-case: one process per case, the fixture on stdin,"
    " non-zero exit = refused. lines: one process for the run, one JSON line in and one"
    " out per case (much faster).",
)
@click.option(
    "--adapter-profile",
    "adapter_profiles",
    multiple=True,
    type=click.Choice(list(PROFILES)),
    metavar="PROFILE",
    help="The profiles your adapters (callables, commands) take; other cases are not_run."
    " Repeatable. Default: a callable's toolstream_profiles attribute, else every profile.",
)
@click.option(
    "--reject-on",
    "reject_on",
    multiple=True,
    metavar="MODULE:EXCEPTION",
    help="An exception type that a callable adapter raises to refuse a turn, besides"
    " toolstream.Rejected (any other exception is an adapter_crash). Repeatable.",
)
@click.option(
    "--profile",
    "only_profiles",
    multiple=True,
    type=click.Choice(list(PROFILES)),
    metavar="PROFILE",
    help="Only the cases of this profile. Repeatable.",
)
@click.option(
    "--client",
    "client_names",
    multiple=True,
    metavar="NAME[@TRANSPORT][,...]",
    help="A client library driven unmodified over HTTP against toolstream serve"
    " (see --list-clients). Repeatable or comma-separated. NAME@TRANSPORT runs it"
    " under that transport only (as shrink and repro take it), not under --transport.",
)
@click.option(
    "--transport",
    "transports",
    default="plain",
    show_default=True,
    metavar="NAME[,NAME]",
    help="Transport variants for --client, each a column of its own: "
    + ", ".join(TRANSPORTS)
    + ", or a toolstream serve spec.",
)
@click.option(
    "--list-clients",
    is_flag=True,
    is_eager=True,
    expose_value=False,
    callback=_list_clients,
    help="List the clients (name, library, profiles, whether it can run here) and exit.",
)
@output_format_option(
    "text: rich tables; json: one deterministic JSON object on stdout"
    " (its schema: toolstream/schemas/diff.json)."
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default="unsafe",
    show_default=True,
    help="Exit 1 on any unsafe_accept (unsafe); on any unsafe_accept, wrong_calls,"
    " false_reject or adapter_crash (any); or never. A run that proves nothing"
    " (an adapter crashed on, or refused for one reason, every case) exits 1 anyway.",
)
@click.option(
    "--examples",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    metavar="N",
    help="Worst cases listed per adapter and classification (table format).",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes (the result is the same as a serial run).",
)
@click.option(
    "--executor",
    "executor_text",
    default=None,
    metavar="dask://HOST:PORT",
    help="Judge the cases on a Dask distributed cluster, in batches (workers need the same"
    " install: the same pinned extras, npm ci); the result is the same as a local run.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=30.0,
    show_default=True,
    help="Seconds per case for --adapter-command and --client (a client's read"
    " timeout and whole-case deadline); a longer run is an adapter_crash.",
)
@click.option(
    "--baseline",
    "baseline_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Known disagreements (toolstream-baseline/2, or /1): only new ones count for --fail-on;"
    " new, known and fixed are counted on stderr.",
)
@click.option(
    "--write-baseline",
    "write_baseline_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write this run's disagreements as a baseline file.",
)
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Also write the run as one offline HTML report (what toolstream report makes"
    " of the --format json output).",
)
@click.option(
    "--case-details",
    is_flag=True,
    help="In the JSON, each case with a disagreement also carries its stream item by item"
    " (the slot of each event, as the case's profile reads it), the reference's findings"
    " and, with --repro-dir, each reproducer's path: what --html and toolstream report show.",
)
@click.option(
    "--strict-baseline",
    is_flag=True,
    help="With --baseline: exit 1 also when a recorded disagreement is fixed (remove it).",
)
@shard_option(
    "Run only shard K of M (a hash of each case path, as verify --shard); the JSON carries"
    " a shard member, and toolstream merge joins the M results into the unsharded run's."
)
@click.option(
    "--repro-dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Write a standalone reproducer (as toolstream repro) for every disagreement of a"
    " client that has one: DIR/CLIENT[@TRANSPORT]/OPERATOR/CASE.py or .mjs.",
)
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="No progress bar and no note about files left out (a skipped adapter is still named).",
)
def diff(
    corpus: tuple[str, ...],
    adapter_specs: tuple[str, ...],
    commands: tuple[str, ...],
    protocol: str,
    adapter_profiles: tuple[str, ...],
    reject_on: tuple[str, ...],
    only_profiles: tuple[str, ...],
    client_names: tuple[str, ...],
    transports: str,
    output_format: str,
    fail_on: str,
    examples: int,
    jobs: int,
    executor_text: str | None,
    timeout: float,
    baseline_file: str | None,
    write_baseline_file: str | None,
    html_file: str | None,
    case_details: bool,
    strict_baseline: bool,
    repro_dir: str | None,
    shard: Shard | None,
    quiet: bool,
) -> None:
    """Run adapters (shims over real libraries' own stream reassembly) over
    every case of CORPUS (folders of *.json cases, or case files) and classify
    each case per adapter against the reference verdict, recomputed:
    agree, unsafe_accept, wrong_calls, false_reject, adapter_crash or not_run.

    Exit status: 0; 1 when --fail-on is met, or when the run proves nothing
    (an adapter crashed on every case, or refused every case for the same
    reason; the reason is printed); 64 misuse (unknown adapter, no such
    corpus, no case read, no adapter able to run); 130 interrupted (no
    baseline or report file written).
    """
    clients = _client_specs(client_names, transports)
    _prepare_versions(clients)
    specs: list[RunSpec] = [
        *(parse_spec(a) for a in adapter_specs),
        *(RunSpec("lines" if protocol == "lines" else "cmd", c) for c in commands),
        *clients,
    ]
    if not specs:
        specs = [RunSpec("adapter", name) for name in BUILT_IN]
    for command in commands:
        if not command.strip():
            raise Misuse("--adapter-command needs a command")
    options = UserOptions(profiles=tuple(adapter_profiles) or None, reject_on=tuple(reject_on))
    if strict_baseline and baseline_file is None:
        raise Misuse("--strict-baseline needs --baseline FILE")
    if repro_dir is not None and not clients:
        raise Misuse("--repro-dir needs --client (reproducers drive client libraries)")
    baseline = None
    if baseline_file is not None:
        from toolstream.baseline import BaselineError, read_baseline

        try:
            baseline = read_baseline(baseline_file)
        except BaselineError as error:
            raise Misuse(str(error)) from None
    try:
        session = DiffSession.open(
            list(corpus),
            specs,
            jobs=jobs,
            timeout=timeout,
            options=options,
            only_profiles=only_profiles,
            shard=shard,
            executor=_executor(executor_text, jobs),
        )
    except (CorpusError, AdapterSpecError) as error:
        raise Misuse(str(error)) from None

    err = console(stderr=True)
    for item in session.loaded:
        if item.adapter is None:
            err.print(Text(f"skipped: {item.info.skipped}", style="yellow"))
    if all(item.adapter is None for item in session.loaded):
        raise Misuse("no adapter can run here (see the messages above)")
    if session.unreadable and (not quiet or not session.cases):
        for bad in session.unreadable:
            err.print(Text(f"not a case, left out: {bad.path}: {bad.error}", style="yellow"))
    if not session.cases:
        which = f" of profile {', '.join(only_profiles)}" if only_profiles else ""
        if session.shard is not None and session.shard.cases_total:
            raise empty_shard(session.shard, corpus, which)
        raise Misuse(f"no case{which} could be read from {', '.join(corpus)}")

    with Progress(
        TextColumn("diff"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal,
    ) as progress:
        task = progress.add_task("diff", total=None)

        def show(event: Event) -> None:
            if isinstance(event, RunStarted):
                progress.update(task, total=event.total)
            elif isinstance(event, CaseFinished):
                progress.advance(task, event.runs)

        try:
            result = session.run(show)
        except WorkerStopped as error:
            raise click.ClickException(str(error)) from None
        except (ExecutorError, WorkerMismatch) as error:
            raise Misuse(str(error)) from None

    if case_details or html_file is not None:
        from toolstream.diff.stream import case_details as details_of

        disagreeing = {
            case.path for case in result.cases if any(o.disagrees for o in case.outcomes.values())
        }
        result.details = details_of(session.cases, disagreeing)
    if repro_dir is not None:
        _write_repro_dir(result, repro_dir, err, quiet=quiet)
    if output_format == "json":
        sys.stdout.write(result.to_json(details=case_details))
    else:
        out = console()
        if not out.is_terminal:
            out.width = max(out.width, WIDE)  # a file or a pipe: do not fold paths
        out.print(counts_table(result))
        per_profile = profiles_table(result)
        if per_profile is not None:
            out.print(per_profile)
        by_layer = layers_table(result)
        if by_layer is not None:
            out.print(by_layer)
        worst = sort_examples(result.examples(examples))
        if worst:
            out.print(examples_table(worst))
        out.print(summary_text(result))
    if html_file is not None:
        _write_html(result, html_file)
    nothing = result.proves_nothing()
    if nothing is not None:
        err.print(Text(f"this run proves nothing: {nothing}", style="bold red"), soft_wrap=True)
    if write_baseline_file is not None:
        from toolstream.baseline import entries_from_diff, write_baseline

        write_baseline(write_baseline_file, entries_from_diff(result.to_dict()))
    if baseline is None:
        sys.exit(result.exit_code(fail_on))
    verdict = against_baseline(result, baseline)
    err.print(
        Text(
            f"baseline: {len(verdict.new)} new, {len(verdict.known)} known,"
            f" {len(verdict.fixed)} fixed",
            style="bold",
        ),
        soft_wrap=True,
    )
    for entry in verdict.new:
        err.print(Text(f"new: {entry.describe()}", style="red"), soft_wrap=True)
    for entry in verdict.fixed:
        err.print(
            Text(f"fixed (remove it from the baseline): {entry.describe()}", style="green"),
            soft_wrap=True,
        )
    sys.exit(verdict.exit_code(result, fail_on, strict=strict_baseline))
