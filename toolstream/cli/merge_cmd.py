"""``toolstream merge``: the shards of one run joined into its result."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import click

from toolstream.cli.errors import Misuse, Unreadable
from toolstream.cli.render import format_option
from toolstream.diff.results import FAIL_ON
from toolstream.diff.shard import ShardError, ShardSetError


class Joined(Protocol):
    """What a merge gives: the whole run's result (``DiffResult``, ``GatewayResult``)."""

    def to_json(self) -> str: ...

    def exit_code(self, fail_on: str) -> int: ...

    def proves_nothing(self) -> str | None: ...

    @property
    def cases(self) -> Sequence[Any]: ...


def _merge_diff(documents: Sequence[tuple[str, Mapping[str, Any]]]) -> Joined:
    from toolstream.diff.merge import merge_diff

    return merge_diff(documents)


def _merge_gateway(documents: Sequence[tuple[str, Mapping[str, Any]]]) -> Joined:
    from toolstream.gateway.merge import merge_gateway

    return merge_gateway(documents)


MERGES: dict[str, Callable[[Sequence[tuple[str, Mapping[str, Any]]]], Joined]] = {
    "toolstream-diff/1": _merge_diff,
    "toolstream-gateway-check/1": _merge_gateway,
}
"""Result format -> the merge of its shards into the whole run's result."""


def _read(path: str) -> Mapping[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise Misuse(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise Unreadable(f"{path}: not UTF-8 text") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise Unreadable(f"{path}: not JSON ({error.msg}, line {error.lineno})") from None
    if not isinstance(document, dict):
        raise Unreadable(f"{path}: not a JSON object")
    return document


@click.command(short_help="Join the shard results of one run into its result.")
@click.argument("results", nargs=-1, required=True, metavar="RESULT.json...")
@click.option(
    "-o",
    "--output",
    "output",
    required=True,
    metavar="FILE",
    help="Where to write the joined result (the unsharded run's JSON).",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default="unsafe",
    show_default=True,
    help="The joined run's verdict, as the command's own --fail-on: exit 1 on an unsafe"
    " finding (unsafe), on any disagreement (any), or never; a joined run that proves"
    " nothing exits 1 anyway.",
)
@format_option
def merge(results: tuple[str, ...], output: str, fail_on: str, output_format: str) -> None:
    """Join the JSON results of every shard of one run (toolstream diff
    --format json --shard K/M, toolstream gateway-check --json FILE --shard
    K/M, K = 1..M) into the result the unsharded run writes, byte for byte,
    written to FILE, and judge it as that run is judged (--fail-on).  On
    stdout: one line (text), or what was joined (json: merge_version 1).

    Exit status: 0 joined, nothing found; 1 --fail-on met, or the joined
    run proves nothing; 64 misuse (a file missing, a shard missing or
    given twice, shards of different runs or versions); 65 a file that is
    not a shard's result; 130 interrupted (FILE not written).
    """
    documents = [(path, _read(path)) for path in results]
    formats = {str(document.get("format")) for _, document in documents}
    if len(formats) != 1:
        raise Misuse(f"results of different commands: {', '.join(sorted(formats))}")
    (result_format,) = formats
    join = MERGES.get(result_format)
    if join is None:
        raise Unreadable(
            f"{documents[0][0]}: format {result_format!r} is not a result merge joins"
            f" (one of {', '.join(MERGES)})"
        )
    try:
        joined = join(documents)
    except ShardSetError as error:
        raise Misuse(str(error)) from None
    except ShardError as error:
        raise Unreadable(str(error)) from None
    target = Path(output)
    partial = target.with_name(target.name + ".partial")
    try:
        partial.write_text(joined.to_json(), encoding="utf-8")
        partial.replace(target)
    except OSError as error:
        raise Misuse(f"cannot write {output}: {error.strerror or error}") from None
    nothing = joined.proves_nothing()
    status = joined.exit_code(fail_on)
    if output_format == "json":
        report = {
            "merge_version": 1,
            "format": result_format,
            "output": output,
            "shards": len(documents),
            "cases": len(joined.cases),
            "proves_nothing": nothing,
            "exit_status": status,
        }
        sys.stdout.write(json.dumps(report, ensure_ascii=True, indent=2) + "\n")
    else:
        click.echo(f"merged {len(documents)} shard(s), {len(joined.cases)} case(s): {output}")
    if nothing is not None:
        click.echo(f"this run proves nothing: {nothing}", err=True)
    sys.exit(status)
