"""The ``toolstream`` command line (click + rich).

Each command lives in its own module and registers itself on :data:`cli`.
Usage errors (unknown option, unreadable path) are a
:class:`~toolstream.cli.errors.Misuse`: exit status 64 and one line on stderr;
verdict commands use their documented exit statuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from toolstream import __version__
from toolstream.cli.errors import EX_INTERRUPTED, misuse_exits


class _Group(click.Group):
    """Exits 64 on every usage error, click's own included (it exits 2 by
    default), so that 2 can keep meaning "not applicable" for ``validate``."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with misuse_exits():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with misuse_exits():
                return super().invoke(ctx)
        except (KeyboardInterrupt, click.Abort):
            # one line and 130 (128 + SIGINT), not click's "Aborted!" and 1,
            # which is the status of a finding
            click.echo("toolstream: interrupted", err=True)
            raise click.exceptions.Exit(EX_INTERRUPTED) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolstream")
def cli() -> None:
    """Conformance kit for streamed LLM tool calls."""


def _register() -> None:
    from toolstream.cli import validate_cmd

    cli.add_command(validate_cmd.validate)
    from toolstream.cli import generate_cmd, shrink_cmd, verify_cmd

    cli.add_command(generate_cmd.generate)
    cli.add_command(verify_cmd.verify)
    cli.add_command(shrink_cmd.shrink)
    from toolstream.cli import bisect_cmd

    cli.add_command(bisect_cmd.bisect)
    from toolstream.cli import import_cmd

    cli.add_command(import_cmd.import_)
    from toolstream.cli import diff_cmd

    cli.add_command(diff_cmd.diff)
    from toolstream.cli import repro_cmd

    cli.add_command(repro_cmd.repro)
    from toolstream.cli import serve_cmd

    cli.add_command(serve_cmd.serve)

    from toolstream.cli import gateway_cmd

    cli.add_command(gateway_cmd.gateway_check)

    from toolstream.cli import label_cmd, seeds_cmd

    cli.add_command(label_cmd.label)
    cli.add_command(seeds_cmd.seeds)

    from toolstream.cli import clients_cmd

    cli.add_command(clients_cmd.clients)

    from toolstream.cli import report_cmd

    cli.add_command(report_cmd.report)

    from toolstream.cli import merge_cmd

    cli.add_command(merge_cmd.merge)

    from toolstream.cli import distill_cmd

    cli.add_command(distill_cmd.distill)


_register()


def main(argv: Sequence[str] | None = None) -> None:
    cli.main(args=list(argv) if argv is not None else None, prog_name="toolstream")
