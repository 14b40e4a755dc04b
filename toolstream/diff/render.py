"""Renderings of a :class:`~toolstream.diff.results.DiffResult`: rich tables
for a terminal, a Markdown table for the docs."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from toolstream.diff.classify import CLASSIFICATIONS, SEVERITY
from toolstream.diff.results import SHORT, DiffResult, Example, cell

__all__ = ["STYLE", "counts_table", "examples_table", "markdown_counts", "summary_text"]

STYLE = {
    "agree": "green",
    "unsafe_accept": "bold red",
    "wrong_calls": "red",
    "false_reject": "yellow",
    "adapter_crash": "magenta",
    "not_run": "dim",
}


def _styled_cell(counts: dict[str, int]) -> Text:
    order = sorted(CLASSIFICATIONS, key=lambda c: SEVERITY[c])
    text = Text()
    for name in order:
        if not counts.get(name):
            continue
        if text:
            text.append(", ")
        text.append(f"{counts[name]} {SHORT[name]}", style=STYLE[name])
    return text if text else Text("-", style="dim")


def _header(result: DiffResult, name: str) -> str:
    info = next(a for a in result.ran if a.name == name)
    return f"{name}\n{info.version}" if info.version else name


def counts_table(result: DiffResult) -> Table:
    """Rows: operators (and a total); columns: the adapters that ran; cells:
    the non-zero classification counts."""
    table = Table(
        title=f"toolstream diff: {len(result.cases)} case(s)",
        title_justify="left",
        show_lines=False,
    )
    table.add_column("operator", style="bold")
    names = [a.name for a in result.ran]
    for name in names:
        table.add_column(_header(result, name), overflow="fold")
    for operator in result.operators():
        table.add_row(operator, *(_styled_cell(result.counts(n, operator)) for n in names))
    table.add_section()
    table.add_row("total", *(_styled_cell(result.counts(n)) for n in names), style="bold")
    return table


def examples_table(examples: list[Example]) -> Table:
    table = Table(title="worst cases", title_justify="left")
    table.add_column("adapter", overflow="fold")
    table.add_column("classification", no_wrap=True)
    table.add_column("operator", overflow="fold")
    table.add_column("case", no_wrap=True)  # a path to copy: never broken
    table.add_column("detail", overflow="fold", ratio=1)
    for ex in examples:
        table.add_row(
            ex.adapter,
            Text(ex.classification, style=STYLE[ex.classification]),
            ex.case.operator,
            ex.case.path,
            ex.outcome.detail,
        )
    return table


def summary_text(result: DiffResult) -> Text:
    parts = [f"{len(result.cases)} case(s), {len(result.ran)} adapter(s) run"]
    for name in ("unsafe_accept", "wrong_calls", "false_reject", "adapter_crash"):
        parts.append(f"{result.found(name)} {name}")
    return Text("; ".join(parts), style="bold")


def markdown_counts(result: DiffResult) -> str:
    """The counts table as GitHub Markdown (one row per operator, a total row)."""
    names = [a.name for a in result.ran]
    header = ["operator"] + [f"{a.name} {a.version}" if a.version else a.name for a in result.ran]
    lines = [
        "| " + " | ".join(header) + " |",
        "| " + " | ".join(["---"] * len(header)) + " |",
    ]
    for operator in result.operators():
        row = [f"`{operator}`"] + [cell(result.counts(n, operator)) for n in names]
        lines.append("| " + " | ".join(row) + " |")
    total = ["**total**"] + [f"**{cell(result.counts(n))}**" for n in names]
    lines.append("| " + " | ".join(total) + " |")
    return "\n".join(lines) + "\n"
