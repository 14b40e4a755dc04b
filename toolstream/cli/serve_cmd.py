"""``toolstream serve``: play corpus cases as a real provider over HTTP."""

from __future__ import annotations

import json
import signal
import sys
from types import FrameType

import click

from toolstream.cli.errors import Misuse
from toolstream.cli.render import output_format_option
from toolstream.serve.cases import read_paths
from toolstream.serve.server import LoggedRequest, ServeLimits, Server
from toolstream.serve.transport import TransportError, parse_transport


def binding_note(host: str, loopback: bool) -> str:
    """What the command says about who can connect."""
    if loopback:
        return f"bound to {host} (loopback: only this machine can connect; --host to change)"
    return f"bound to {host}: NOT loopback, other machines can connect"


def _print_request(entry: LoggedRequest) -> None:
    case = entry.case or "-"
    click.echo(f"{entry.method} {entry.path} {entry.status} {entry.outcome} case={case}", err=True)


@click.command(short_help="Play corpus cases as a provider over HTTP.")
@click.argument("paths", nargs=-1, required=True, metavar="CORPUS...")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="Port to bind (0: a free one).",
)
@click.option(
    "--transport",
    default="default",
    show_default=True,
    metavar="SPEC",
    help="Transport variant for every request (e.g. 'every:7', 'crlf,split-utf8',"
    " 'cut-close'); a request may choose its own. See docs/serve.md.",
)
@click.option(
    "--max-body-bytes",
    type=click.IntRange(min=1),
    default=ServeLimits.max_body_bytes,
    show_default=True,
    help="Largest request body accepted (413 above).",
)
@output_format_option(
    "text: the base URL alone on the first stdout line; json: one JSON line on"
    " stdout at startup (event 'listening', the URL) and one at exit (event 'stopped')."
)
@click.option("-q", "--quiet", is_flag=True, help="Do not print a line per request.")
def serve(
    paths: tuple[str, ...],
    host: str,
    port: int,
    transport: str,
    max_body_bytes: int,
    output_format: str,
    quiet: bool,
) -> None:
    """Serve the cases under CORPUS (folders or case files) at each provider's
    own streaming endpoint, until interrupted.

    Prints the base URL on the first line of stdout. Select a case with the
    request's model ('case:<id>'), a '/cases/<id>/' path prefix or the
    X-Toolstream-Case header; GET /cases lists them.

    With --format json, stdout carries two JSON lines (serve_version 1): at
    startup {"event": "listening", "url", "host", "port", "loopback", "cases",
    "unplayable"}, at exit {"event": "stopped", "requests"}; the per-request
    lines stay on stderr.

    Exit status: 0 after an interrupt or SIGTERM (the way a server is
    stopped), 64 misuse (bad path, transport, or an address that cannot be
    bound).
    """
    try:
        parse_transport(transport)
    except TransportError as error:
        raise Misuse(str(error)) from None
    try:
        cases = read_paths(paths)
    except FileNotFoundError as error:
        raise Misuse(f"no such file or folder: {error}") from None
    if not cases:
        raise Misuse(f"no case files (*.json) under {', '.join(paths)}")
    requests = [0]

    def logged(entry: LoggedRequest) -> None:
        requests[0] += 1
        if not quiet:
            _print_request(entry)

    try:
        server = Server(
            cases,
            host=host,
            port=port,
            transport=transport,
            limits=ServeLimits(max_body_bytes=max_body_bytes),
            on_request=logged,
        )
    except OSError as error:
        raise Misuse(f"cannot bind {host}:{port}: {error.strerror or error}") from None
    unplayable = sum(1 for case in cases if case.problem is not None)

    def interrupted(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    try:
        # a stop signal that arrives while the startup lines are written is
        # the same stop as one during serving (0), not an interrupted command
        _announce(server, host, len(cases), unplayable, output_format)
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("toolstream serve: stopped", err=True)
        if output_format == "json":
            _json_line(event="stopped", requests=requests[0])


def _announce(server: Server, host: str, cases: int, unplayable: int, output_format: str) -> None:
    """The base URL (or the 'listening' JSON line) on stdout, notes on stderr."""
    if output_format == "json":
        _json_line(
            event="listening",
            url=server.url,
            host=host,
            port=server.port,
            loopback=server.loopback,
            cases=cases,
            unplayable=unplayable,
        )
    else:
        click.echo(server.url)
        sys.stdout.flush()
    click.echo(
        f"toolstream serve: {cases} case(s); {binding_note(host, server.loopback)}", err=True
    )
    if unplayable:
        click.echo(
            f"toolstream serve: {unplayable} case(s) cannot be played (GET /cases says why)",
            err=True,
        )
    click.echo("toolstream serve: GET /cases lists them; Ctrl-C stops", err=True)


def _json_line(**fields: object) -> None:
    """One machine-readable line on stdout, flushed (a reader waits on it)."""
    sys.stdout.write(json.dumps({"serve_version": 1, **fields}, ensure_ascii=True) + "\n")
    sys.stdout.flush()
