"""``--shard K/M`` of ``diff`` and ``gateway-check``: read once, misuse in one line."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from toolstream.cli.errors import Misuse
from toolstream.diff.shard import Shard, ShardError, ShardPart

F = TypeVar("F", bound=Callable[..., Any])


def shard_option(help_text: str) -> Callable[[F], F]:
    """The ``--shard K/M`` option: the command receives ``shard``, a ``Shard`` or ``None``."""

    def parse(ctx: click.Context, param: click.Parameter, value: str | None) -> Shard | None:
        if value is None:
            return None
        try:
            return Shard.parse(value)
        except ShardError as error:
            raise Misuse(f"--shard: {error}") from None

    return click.option(
        "--shard", "shard", default=None, metavar="K/M", callback=parse, help=help_text
    )


def empty_shard(part: ShardPart, corpus: Sequence[str], which: str = "") -> Misuse:
    """The misuse of a shard that none of the run's cases falls in."""
    return Misuse(
        f"shard {part.shard.text} holds none of the {part.cases_total} case(s){which}"
        f" read from {', '.join(corpus)} (use fewer shards)"
    )
