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

__all__ = [
    "EXIT_STATUSES",
    "EX_DATAERR",
    "EX_FINDINGS",
    "EX_INTERRUPTED",
    "EX_NOT_APPLICABLE",
    "EX_OK",
    "EX_USAGE",
    "Misuse",
    "Unreadable",
    "misuse_exits",
]

EX_OK = 0
EX_FINDINGS = 1
EX_NOT_APPLICABLE = 2
EX_USAGE = 64
EX_DATAERR = 65
EX_INTERRUPTED = 130

EXIT_STATUSES: dict[int, str] = {
    EX_OK: "ok: the verdict holds (pass, every label held, nothing found)",
    EX_FINDINGS: "findings: a blocked turn, a broken label, a disagreement, a run that"
    " proves nothing",
    EX_NOT_APPLICABLE: "not applicable: no tool activity to judge",
    EX_USAGE: "misuse: a bad option, an unreadable path, a combination that cannot work",
    EX_DATAERR: "unreadable input: the file is not JSON, not a fixture, not a capture",
    EX_INTERRUPTED: "interrupted (Ctrl-C): one line on stderr; no report file half-written",
}
"""The exit statuses every ``toolstream`` command shares (the README's table)."""


class Misuse(click.UsageError):
    """The command was used wrongly: nothing was checked (exit 64)."""

    exit_code = EX_USAGE


class Unreadable(click.ClickException):
    """The input itself cannot be read as what the command takes (exit 65)."""

    exit_code = EX_DATAERR


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
