"""Rich renderings shared by the commands."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import click
from click.decorators import FC
from rich.console import Console
from rich.table import Table
from rich.text import Text

from toolstream.messages import excerpt
from toolstream.report import Report, Status


class FormatChoice(click.Choice[str]):
    """``text`` or ``json``; ``table``, diff's former name for text, is still read."""

    def __init__(self) -> None:
        super().__init__(["text", "json"])

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return super().convert("text" if value == "table" else value, param, ctx)


def output_format_option(help: str) -> Callable[[FC], FC]:
    """Every command's ``--format text|json`` (one convention: the ``table``
    of older runs read as ``text``), with the command's own help."""
    return click.option(
        "--format",
        "output_format",
        type=FormatChoice(),
        default="text",
        show_default=True,
        help=help,
    )


format_option = output_format_option(
    "text: rich tables; json: one deterministic JSON object on stdout."
)
"""The ``--format`` option of the corpus commands."""

_STATUS_STYLE = {
    Status.PASS: "bold green",
    Status.BLOCKED: "bold red",
    Status.NOT_APPLICABLE: "bold yellow",
}


def console(stderr: bool = False) -> Console:
    """A console that honours NO_COLOR.  On stderr (one-line messages and
    progress) a line is never folded at the terminal's width, so a long path in
    a message stays whole for whoever greps or copies it."""
    return Console(
        file=sys.stderr if stderr else sys.stdout,
        no_color="NO_COLOR" in os.environ,
        highlight=False,
        soft_wrap=stderr,
    )


def _clip(text: str | None, width: int = 60) -> str:
    return "-" if text is None else excerpt(text, width)


def report_table(report: Report, title: str | None = None) -> list[object]:
    """The renderables for a report: a status line, a calls table, a findings table."""
    status = Text.assemble(
        ("status ", "bold"),
        (report.status, _STATUS_STYLE.get(report.status, "bold")),
        f"   profile {report.profile or '-'}   executable {str(report.executable).lower()}",
    )
    out: list[object] = []
    if title:
        out.append(Text(title, style="bold"))
    out.append(status)
    if report.calls:
        calls = Table(title="calls", title_justify="left", show_lines=False)
        for column in ("slot", "kind", "state", "id", "name", "arguments"):
            calls.add_column(column, overflow="fold")
        for call in report.calls:
            where = str(call.slot) if call.choice is None else f"{call.choice}:{call.slot}"
            # Text(), not str: rich would read "[...]" in data as markup.
            calls.add_row(
                *(
                    Text(cell)
                    for cell in (
                        where,
                        call.kind,
                        call.state,
                        _clip(call.id, 30),
                        _clip(call.name, 30),
                        _clip(call.arguments),
                    )
                )
            )
        out.append(calls)
    if report.findings:
        findings = Table(title="findings", title_justify="left")
        for column in ("code", "slot", "event", "path", "message"):
            findings.add_column(column, overflow="fold")
        for finding in report.findings:
            findings.add_row(
                Text(finding.code.value, style="red"),
                Text("-" if finding.slot is None else str(finding.slot)),
                Text("-" if finding.event is None else str(finding.event)),
                Text(finding.path or "-"),
                Text(finding.message),
            )
        out.append(findings)
    return out
