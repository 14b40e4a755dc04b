"""``toolstream import``: a raw capture in, validator fixtures out."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from toolstream import __version__
from toolstream.api import validate_bytes
from toolstream.cli.errors import Misuse
from toolstream.cli.render import console, format_option
from toolstream.profiles import PROFILES

IMPORT_JSON_VERSION = 1
EX_REFUSED = 1
EX_DATAERR = 65


class _DataError(click.ClickException):
    """The capture itself cannot be imported (exit 65)."""

    exit_code = EX_DATAERR


class _Refused(click.ClickException):
    """Credentials found and --redact not given (exit 1)."""

    exit_code = EX_REFUSED


def _read(path: str, what: str) -> bytes:
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        return Path(path).read_bytes()
    except OSError as error:
        raise Misuse(f"cannot read {what} {path}: {error.strerror or error}") from None


@click.command(name="import", short_help="Turn a raw capture into validator fixtures.")
@click.argument("capture", metavar="CAPTURE")
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="FIXTURE.json|DIR",
    help="The fixture to write; a folder for a capture holding several turns"
    " (<name>.turn<N>.json in it).",
)
@click.option(
    "--profile",
    type=click.Choice(sorted(PROFILES)),
    help="The stream's profile; detected from the content when omitted.",
)
@click.option(
    "--schemas",
    "schemas_path",
    metavar="FILE",
    help="The tools as the request sent them (OpenAI, Responses, Anthropic, Bedrock, Gemini,"
    " Cohere or Mistral tools, a request body, or a name -> schema map); overrides the tools"
    " of a cassette's recorded request.",
)
@click.option(
    "--request",
    "request_path",
    metavar="FILE",
    help="The request body; its tool_choice is kept (overrides a cassette's recorded request).",
)
@click.option(
    "--redact",
    is_flag=True,
    help="Replace credentials found with [REDACTED:<kind>] (recorded in meta) instead of"
    " refusing to write.",
)
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors.")
@format_option
def import_(
    capture: str,
    output: str,
    profile: str | None,
    schemas_path: str | None,
    request_path: str | None,
    redact: bool,
    quiet: bool,
    output_format: str = "text",
) -> None:
    """Read CAPTURE (a VCR.py, pytest-recording or go-vcr cassette, a HAR
    archive, or a bare body: SSE text, JSON Lines, a JSON array of chunks,
    binary AWS event-stream; - for stdin) and write one validator fixture per
    assistant turn.  A cassette's recorded requests give each fixture its
    tool_schemas and tool_choice.

    Exit status: 0 written, 1 refused (credentials found; nothing written),
    64 misuse (options, unreadable files, profile not detectable), 65 the
    capture cannot be read (the message names the line, byte or frame),
    130 interrupted.  With --format json, one JSON object on stdout (the
    fixtures written, each with its verdict, and the warnings).
    """
    from toolstream.importer import (
        ImportFailure,
        InputError,
        capture_stem,
        dump_fixture,
        import_capture,
        output_paths,
        read_json,
        request_fields,
        tool_schemas,
        write_fixture,
    )

    data = _read(capture, "capture")
    source = "<stdin>" if capture == "-" else Path(capture).name
    schemas: dict[str, Any] | None = None
    schemas_meta: dict[str, Any] | None = None
    notes: list[str] = []
    try:
        if schemas_path is not None:
            raw = _read(schemas_path, "--schemas")
            read = tool_schemas(read_json(raw, "--schemas file"))
            schemas = read.schemas
            notes.extend(f"--schemas {note}" for note in read.notes)
            schemas_meta = {
                "file": Path(schemas_path).name,
                "sha256": hashlib.sha256(raw).hexdigest(),
                "shape": read.shape,
            }
        request = None
        if request_path is not None:
            request = request_fields(read_json(_read(request_path, "--request"), "--request file"))
    except InputError as error:
        raise Misuse(str(error)) from None

    try:
        result = import_capture(
            data,
            source_name=source,
            profile=profile,
            tool_schemas=schemas,
            schemas_meta=schemas_meta,
            request=request,
            redact=redact,
            version=__version__,
        )
        paths = output_paths(output, capture_stem(source), len(result.turns))
    except ImportFailure as error:
        if error.usage:
            raise Misuse(str(error)) from None
        raise _DataError(str(error)) from None

    err = console(stderr=True)
    if result.secrets:
        table = Table(title="credentials found (previews only)", title_justify="left")
        for column in ("turn", "where", "kind", "preview"):
            table.add_column(column, overflow="fold")
        for number, secret in result.secrets:
            where = secret.path
            if secret.fragments:
                where += f" (+{len(secret.fragments)} more fragment(s))"
            table.add_row(str(number), where, secret.kind, secret.preview)
        err.print(table)
        raise _Refused(
            f"refusing to write: {len(result.secrets)} credential(s) found in {source};"
            " nothing written (rerun with --redact to replace them)"
        )

    texts = [dump_fixture(turn.fixture) for turn in result.turns]
    try:
        for path, text in zip(paths, texts, strict=True):
            path.parent.mkdir(parents=True, exist_ok=True)
            write_fixture(path, text)
    except OSError as error:
        raise Misuse(f"cannot write {output}: {error.strerror or error}") from None

    if output_format == "json":
        fixtures = []
        for turn, path, text in zip(result.turns, paths, texts, strict=True):
            report = validate_bytes(text.encode("ascii"))
            fixtures.append(
                {
                    "turn": turn.number,
                    "fixture": str(path),
                    "events": turn.events,
                    "status": str(report.status),
                    "codes": list(report.codes),
                    "dialects": list(report.dialects),
                    "redactions": len(turn.fixture["meta"].get("redactions", [])),
                }
            )
        listing = {
            "import_version": IMPORT_JSON_VERSION,
            "source": source,
            "fixtures": fixtures,
            "warnings": [*result.warnings, *notes],
        }
        sys.stdout.write(json.dumps(listing, indent=2, sort_keys=True) + "\n")
        return
    if quiet:
        return
    if result.container is None:
        chosen = (
            f"profile {result.profile} (detected: {result.detection})"
            if result.detection
            else f"profile {result.profile} (--profile)"
        )
        err.print(Text(f"{source}: {result.format}, {chosen}"))
    else:
        err.print(Text(f"{source}: {result.container} recording"))
        for body in result.bodies:
            how = f"detected: {body.detection}" if body.detection else "--profile"
            err.print(
                Text(
                    f"  {body.origin}: {body.format}, profile {body.profile} ({how});"
                    f" tools from {body.tools_from}"
                )
            )
    for warning in [*result.warnings, *notes]:
        err.print(Text(f"warning: {warning}", style="yellow"))
    table = Table(title=f"wrote {len(paths)} fixture(s)", title_justify="left")
    for column in ("turn", "fixture", "events", "verdict", "codes"):
        table.add_column(column, overflow="fold")
    for turn, path, text in zip(result.turns, paths, texts, strict=True):
        report = validate_bytes(text.encode("ascii"))
        redactions = turn.fixture["meta"].get("redactions", [])
        note = f" ({len(redactions)} redacted)" if redactions else ""
        table.add_row(
            str(turn.number),
            str(path) + note,
            str(turn.events),
            # The reviewed dialects the turn used (docs/dialects.md), seen in the stream.
            report.status + (f" (dialect {', '.join(report.dialects)})" if report.dialects else ""),
            ", ".join(report.codes) or "-",
        )
    err.print(table)
