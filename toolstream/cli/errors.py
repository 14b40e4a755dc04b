"""The command line's error exits, named once.

Every misuse (a bad option, an unreadable or unusable path, a combination
that cannot work) is a :class:`Misuse`: one line on stderr after click's usage
hint, exit status 64 (``EX_USAGE`` of ``sysexits.h``), so that 1 and 2 keep
their verdict meanings (blocked, not applicable).  Click's own usage errors
(unknown option, missing argument, bad value) become a :class:`Misuse` in
:func:`misuse_exits`, the one place that maps them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click

__all__ = ["EX_USAGE", "Misuse", "misuse_exits"]

EX_USAGE = 64


class Misuse(click.UsageError):
    """The command was used wrongly: nothing was checked (exit 64)."""

    exit_code = EX_USAGE


@contextmanager
def misuse_exits() -> Iterator[None]:
    """Turn any click usage error raised inside into a :class:`Misuse`
    with the same text and context."""
    try:
        yield
    except Misuse:
        raise
    except click.UsageError as error:
        raise Misuse(error.format_message(), error.ctx) from None
