"""``toolstream shrink``: minimize a failing case into a small regression fixture."""

from __future__ import annotations

import json
import sys
import time
from typing import Any, NoReturn

import click
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from toolstream.api import validate_bytes
from toolstream.caseio import atomic_write, dump_json, fixture_digest, load_case, strip_case
from toolstream.cli.errors import EX_INTERRUPTED, Misuse
from toolstream.cli.render import console, format_option
from toolstream.corpus import shrink as shrinking
from toolstream.corpus.label import expect_summary, label_of
from toolstream.findings import Code


@click.command(short_help="Minimize a failing case into a small regression fixture.")
@click.argument("case_path", metavar="CASE.json")
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(dir_okay=False),
    metavar="MIN.json",
    help="Where to write the minimized case.",
)
@click.option(
    "--expect-code",
    type=click.Choice([c.value for c in Code]),
    metavar="CODE",
    help="Keep shrinking while the validator still reports this finding code.",
)
@click.option(
    "--adapter",
    metavar="NAME",
    help="Keep shrinking while this adapter (a toolstream.adapters registry name, or a"
    " 'cmd:...' / 'package.module:function' spec) still disagrees with the reference the"
    " same way.",
)
@click.option(
    "--client",
    metavar="NAME[@TRANSPORT]",
    help="Keep shrinking while this client library (as in diff --client), driven over HTTP"
    " through toolstream serve under the transport (plain by default; a cut transport is"
    " re-applied to each candidate), still disagrees with the reference the same way.",
)
@click.option(
    "--command",
    metavar="'CMD'",
    help="Keep shrinking while CMD, given the candidate fixture's path, exits nonzero.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=30.0,
    show_default=True,
    help="Seconds per --command run (a run that takes longer counts as not failing), and a"
    " --client's read timeout and whole-case deadline.",
)
@click.option(
    "--allow-verdict-change",
    is_flag=True,
    help="Let the reference verdict's class change while shrinking (by default a blocked"
    " case stays blocked, a passing one passing).",
)
@click.option(
    "--reject-on",
    "reject_on",
    multiple=True,
    metavar="MODULE:EXCEPTION",
    help="For --adapter package.module:function: an exception type that refuses a turn,"
    " besides toolstream.Rejected. Repeatable.",
)
@click.option(
    "--max-tests",
    type=click.IntRange(min=1),
    default=shrinking.DEFAULT_MAX_TESTS,
    show_default=True,
    help="Give up (keeping the smallest case so far) after this many predicate runs.",
)
@format_option
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on success.")
def shrink(
    case_path: str,
    out: str,
    expect_code: str | None,
    adapter: str | None,
    client: str | None,
    command: str | None,
    timeout: float,
    allow_verdict_change: bool,
    reject_on: tuple[str, ...],
    max_tests: int,
    output_format: str,
    quiet: bool,
) -> None:
    """Minimize CASE.json while the same failure still reproduces, and write
    it to MIN.json with its label recomputed (the validator's verdict on the
    minimized fixture: it is a new regression fixture).

    The failure is, by default, "the validator still gives the verdict it
    gave on CASE.json, which contradicts CASE.json's label"; or the finding
    --expect-code stays reported; or the adapter --adapter still disagrees
    with the reference the same way (as toolstream diff classifies it); or
    the client --client NAME[@TRANSPORT] does, driven through toolstream
    serve exactly as diff --client drives it (a cut transport cuts each
    candidate again: the case shrinks, not the cut point); or
    --command 'CMD' still exits nonzero (CMD is split like a shell would,
    not run by one; the candidate's path is appended, or replaces every {}).
    Whatever the predicate, the reference verdict's class (pass, blocked,
    not_applicable) is kept unless --allow-verdict-change, and the envelope
    (profile, the stream, the schemas of tools still called) is never
    dropped.

    Exit status: 0 written, 1 the failure does not reproduce on CASE.json,
    64 misuse (including a missing adapter or adapter library, and a
    --command that fails on an empty fixture exactly as on CASE.json), 130
    interrupted (the smallest failing case so far is written, whole).
    """
    given = (
        ("--expect-code", expect_code),
        ("--adapter", adapter),
        ("--client", client),
        ("--command", command),
    )
    chosen = [name for name, value in given if value is not None]
    if len(chosen) > 1:
        raise Misuse(f"{' and '.join(chosen)} cannot be combined; choose one")
    loaded = load_case(case_path)
    if loaded.error is not None:
        raise Misuse(f"cannot use {case_path}: {loaded.error}")
    if not isinstance(loaded.case, dict):
        raise Misuse(f"{case_path} is not a JSON object")
    case: dict[str, Any] = loaded.case
    fixture = strip_case(case)
    expect = case.get("expect") if isinstance(case.get("expect"), dict) else None
    meta = case.get("meta") if isinstance(case.get("meta"), dict) else None
    original = shrinking.encode(fixture)

    predicate: shrinking.Predicate
    try:
        if expect_code is not None:
            predicate = shrinking.CodePresent(expect_code)
        elif command is not None:
            predicate = shrinking.CommandFails(command, timeout=timeout)
        elif adapter is not None:
            adapter_predicate = shrinking.AdapterDisagreement(
                shrinking.load_adapter(adapter, reject_on=reject_on)
            )
            if adapter_predicate.start(original) is None:
                _not_reproducible(f"adapter {adapter!r} agrees with the reference on {case_path}")
            predicate = adapter_predicate
        elif client is not None:
            client_predicate = shrinking.ClientDisagreement(
                shrinking.load_client(client, timeout=timeout)
            )
            if client_predicate.start(original) is None:
                _not_reproducible(f"client {client!r} agrees with the reference on {case_path}")
            predicate = client_predicate
        else:
            if expect is None:
                raise Misuse(
                    f"{case_path} has no label ('expect');"
                    " use --expect-code, --adapter or --command"
                )
            predicate = shrinking.LabelDisagreement(expect, validate_bytes(original))
    except shrinking.ShrinkError as error:
        raise Misuse(str(error)) from None

    err = console(stderr=True)
    try:
        with Progress(
            SpinnerColumn(),
            TextColumn("shrink: {task.description}"),
            TimeElapsedColumn(),
            console=err,
            transient=True,
            disable=quiet or output_format == "json" or not err.is_terminal,
        ) as progress:
            task = progress.add_task("starting")

            def report(tests: int, size: int) -> None:
                progress.update(task, description=f"{tests} tests, {size} bytes")

            started = time.monotonic()
            result = shrinking.shrink(
                fixture,
                predicate,
                max_tests=max_tests,
                on_progress=report,
                allow_verdict_change=allow_verdict_change,
            )
    except shrinking.ShrinkError as error:
        if error.usage:
            raise Misuse(str(error)) from None
        _not_reproducible(str(error))
    finally:
        predicate.close()
    elapsed = time.monotonic() - started

    minimized = result.fixture
    data = shrinking.encode(minimized)
    label = label_of(validate_bytes(data))
    new_meta: dict[str, Any] = dict(meta or {})
    new_meta["shrunk"] = {
        "from": fixture_digest(fixture),
        "predicate": result.predicate,
    }
    if expect is not None:
        new_meta["shrunk"]["original_expect"] = expect
    written = dict(minimized)
    if "meta" not in written:
        written["meta"] = new_meta
    if "expect" not in written:
        written["expect"] = label
    atomic_write(out, dump_json(written))

    before, after = shrinking.measure(fixture), shrinking.measure(minimized)
    if output_format == "json":
        sys.stdout.write(
            json.dumps(
                {
                    "shrink_version": 1,
                    "output": out,
                    "predicate": result.predicate,
                    "before": before.__dict__,
                    "after": after.__dict__,
                    "tests": result.tests,
                    "seconds": round(elapsed, 3),
                    "reductions": result.reductions,
                    "minimal": result.minimal,
                    "interrupted": result.interrupted,
                    "expect": label,
                },
                ensure_ascii=True,
                indent=2,
            )
            + "\n"
        )
    elif not quiet:
        _render(result, before, after, label, out, elapsed, max_tests)
    if result.interrupted:
        # the smallest failing case so far is written whole; the status says
        # the run was cut short, as every command's interrupt does
        click.echo("toolstream: interrupted", err=True)
        sys.exit(EX_INTERRUPTED)


def _render(
    result: shrinking.ShrinkResult,
    before: shrinking.Size,
    after: shrinking.Size,
    label: dict[str, Any],
    out: str,
    elapsed: float,
    max_tests: int,
) -> None:
    show = console()
    table = Table(title=Text(f"shrink: {result.predicate}"), title_justify="left")
    for column in ("", "bytes", "stream items", "argument chars"):
        table.add_column(column, justify="right" if column else "left")
    table.add_row("before", str(before.bytes), str(before.items), str(before.argument_chars))
    table.add_row("after", str(after.bytes), str(after.items), str(after.argument_chars))
    show.print(table)
    show.print(
        Text(
            f"{result.tests} tests, {result.reductions} reductions;"
            f" label recomputed: {expect_summary(label)}; written to {out}"
        )
    )
    show.print(Text(f"{result.tests} predicate runs in {elapsed:.1f} s"))
    if not result.minimal:
        why = "interrupted" if result.interrupted else f"test budget ({max_tests}) ran out"
        show.print(
            Text(
                f"{why}: the result is the smallest failing case so far, but may not be 1-minimal",
                style="yellow",
            )
        )


def _not_reproducible(message: str) -> NoReturn:
    console(stderr=True).print(Text(f"nothing to shrink: {message}", style="bold red"))
    sys.exit(1)
