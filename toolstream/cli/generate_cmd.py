"""``toolstream generate``: draw labelled mutants of seed fixtures into a corpus."""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

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


class _Refused(click.ClickException):
    """Credentials found in a capture and --redact not given (exit 1)."""

    exit_code = 1


class _DataError(click.ClickException):
    """A capture that cannot be imported (exit 65, as for ``toolstream import``)."""

    exit_code = 65


def _seed_fixture(data: bytes) -> dict[str, Any] | None:
    """The fixture ``data`` is, or None when it is not one (a capture)."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) and "profile" in value else None


def _seeds_from_capture(
    path: Path,
    data: bytes,
    *,
    profile: str | None,
    schemas_path: str | None,
    redact: bool,
    skipped: list[str],
) -> list[Any]:
    """Import a capture on the fly (the detection and credential gate of
    ``toolstream import``) and keep every turn that is a valid seed; the
    others are named in ``skipped`` with their reason."""
    from toolstream import __version__
    from toolstream.api import validate_bytes
    from toolstream.corpus.generate import NO_SCHEMA_HINT, Seed, load_generators
    from toolstream.importer import (
        ImportFailure,
        InputError,
        capture_stem,
        dump_fixture,
        import_capture,
        read_json,
        tool_schemas,
    )

    schemas = schemas_meta = None
    if schemas_path is not None:
        try:
            raw = Path(schemas_path).read_bytes()
            read = tool_schemas(read_json(raw, "--schemas file"))
        except OSError as error:
            raise click.UsageError(f"cannot read --schemas {schemas_path}: {error}") from None
        except InputError as error:
            raise click.UsageError(str(error)) from None
        schemas = read.schemas
        schemas_meta = {
            "file": Path(schemas_path).name,
            "sha256": hashlib.sha256(raw).hexdigest(),
            "shape": read.shape,
        }
    try:
        result = import_capture(
            data,
            source_name=path.name,
            profile=profile,
            tool_schemas=schemas,
            schemas_meta=schemas_meta,
            redact=redact,
            version=__version__,
        )
    except ImportFailure as error:
        if error.usage:
            raise click.UsageError(f"{path}: {error}") from None
        raise _DataError(f"{path}: {error}") from None
    if result.secrets:
        raise _Refused(
            f"refusing to use {path}: {len(result.secrets)} credential(s) found (first:"
            f" {result.secrets[0][1].describe()}); rerun with --redact to replace them"
        )
    generators = load_generators()
    stem = capture_stem(path.name)
    out = []
    for turn in result.turns:
        name = f"{stem}.json" if len(result.turns) == 1 else f"{stem}.turn{turn.number}.json"
        text = dump_fixture(turn.fixture).encode("ascii")
        report = validate_bytes(text)
        if report.status != "pass":
            why = f"{report.status} ({', '.join(report.codes) or 'no tool activity'})"
            if "unknown_tool" in report.codes:
                why += f"; {NO_SCHEMA_HINT}"
            skipped.append(f"{path.name} turn {turn.number}: not a valid seed: {why}")
            continue
        try:
            usable = generators.applicable(turn.fixture)
        except ValueError as error:
            skipped.append(f"{path.name} turn {turn.number}: the generators refuse it: {error}")
            continue
        if not usable:
            skipped.append(
                f"{path.name} turn {turn.number}: no operator applies (the generators do not"
                f" model the {turn.fixture['profile']} profile)"
            )
            continue
        out.append(Seed(Path(name), text, turn.fixture))
    return out


def _resolve(
    arguments: tuple[str, ...],
    *,
    profile: str | None,
    schemas_path: str | None,
    redact: bool,
    skipped: list[str],
) -> list[Any]:
    """Each SEED argument as seeds: a fixture file, a bundled seed's name, or
    a capture (bare body, cassette or HAR file) imported on the fly."""
    from toolstream.corpus.generate import Seed
    from toolstream.corpus.seeds import find_seed

    out: list[Any] = []
    for argument in arguments:
        path = Path(argument)
        if not path.exists():
            bundled = find_seed(argument)
            if bundled is None:
                raise click.UsageError(
                    f"{argument}: no such file, and no bundled seed of that name"
                    " (toolstream seeds --list)"
                )
            out.append(Seed.read(bundled.path))
            continue
        try:
            data = path.read_bytes()
        except OSError as error:
            raise click.UsageError(f"cannot read {argument}: {error.strerror or error}") from None
        fixture = _seed_fixture(data)
        if fixture is not None:
            out.append(Seed(path, data, fixture))
            continue
        out.extend(
            _seeds_from_capture(
                path,
                data,
                profile=profile,
                schemas_path=schemas_path,
                redact=redact,
                skipped=skipped,
            )
        )
    return out


@click.command(short_help="Draw labelled mutants of seed fixtures into a corpus.")
@click.argument("seeds", nargs=-1, required=True, metavar="SEED...")
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
@click.option(
    "--profile",
    help="For a capture: its profile (detected from the content when omitted).",
)
@click.option(
    "--schemas",
    "schemas_path",
    metavar="FILE",
    help="For a capture: the tools as the request sent them (as for toolstream import).",
)
@click.option(
    "--redact",
    is_flag=True,
    help="For a capture: replace credentials instead of refusing it (as for toolstream import).",
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
    profile: str | None,
    schemas_path: str | None,
    redact: bool,
    output_format: str,
    quiet: bool,
) -> None:
    """Draw COUNT distinct mutants of each SEED and write each, with its
    label and provenance, as DIR/<operator>/<hash>.json; then rebuild
    DIR/MANIFEST.jsonl.

    A SEED is a fixture file, the name of a bundled seed (toolstream seeds
    --list), or a capture (a cassette, a HAR file, a bare stream body),
    imported on the fly as toolstream import does: every turn that passes
    the reference is a seed; the others are skipped with their reason.

    Exit status: 0 done, 64 misuse (unknown operator, unreadable seed, no
    usable seed, generators not installed), 65 a capture that cannot be
    read, 1 credentials in a capture without --redact, or the generator
    misbehaved; 130 interrupted (no case file half-written).
    """
    from toolstream.corpus.generate import GenerateError
    from toolstream.corpus.generate import generate as run_generate

    skipped: list[str] = []
    sources = _resolve(
        seeds, profile=profile, schemas_path=schemas_path, redact=redact, skipped=skipped
    )
    err = console(stderr=True)
    for note in skipped:
        err.print(Text(f"skipped: {note}", style="yellow"))
    if not sources:
        raise click.UsageError("no usable seed: " + "; ".join(skipped))
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
                sources,
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
        summary = {"generate_version": 1, **result.to_dict()}
        sys.stdout.write(json.dumps(summary, ensure_ascii=True, indent=2) + "\n")
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
