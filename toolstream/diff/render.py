"""The Markdown rendering of a :class:`~toolstream.diff.results.DiffResult`
(the counts table of ``docs/adapters.md``).  Terminal tables are drawn by
the command line (:mod:`toolstream.cli.diff_render`): nothing here imports a
console library."""

from __future__ import annotations

from toolstream.diff.results import DiffResult, cell

__all__ = ["markdown_counts"]


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
