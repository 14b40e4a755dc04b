"""Rich renderings of a :class:`~toolstream.diff.results.DiffResult` for a
terminal (the Markdown table of the docs is :mod:`toolstream.diff.render`)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from toolstream.diff.classify import CLASSIFICATIONS, NOT_RUN, SEVERITY
from toolstream.diff.results import SHORT, DiffResult, Example

__all__ = [
    "STYLE",
    "counts_table",
    "examples_table",
    "layers_table",
    "profiles_table",
    "summary_text",
]

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


def layers_table(result: DiffResult) -> Table | None:
    """Rows: the adapters that ran; columns: each layer's disagreements and
    their total (every disagreement in one layer, :meth:`DiffResult.by_layer`);
    ``None`` when nothing disagrees.  Tool policy is the application's job:
    its column says so."""
    names = [a.name for a in result.ran]
    by_layer = {name: result.by_layer(name) for name in names}
    if not any(sum(counts.values()) for counts in by_layer.values()):
        return None
    table = Table(
        title="disagreements by layer",
        title_justify="left",
        caption="tool_policy: the application must check this; the library does not claim to",
        caption_justify="left",
    )
    table.add_column("adapter", style="bold", overflow="fold")
    layers = list(next(iter(by_layer.values())))
    for layer in layers:
        table.add_column(layer, justify="right")
    table.add_column("total", justify="right", style="bold")
    for name in names:
        counts = by_layer[name]
        table.add_row(
            name,
            *(str(counts[layer]) if counts[layer] else Text("-", style="dim") for layer in layers),
            str(sum(counts.values())),
        )
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


def profiles_table(result: DiffResult) -> Table | None:
    """Per profile and adapter, how many cases it ran and how many it did
    not (``not_run``: the adapter does not take that profile); ``None``
    when every adapter ran every case."""
    names = [a.name for a in result.ran]
    counts = {name: result.by_profile(name) for name in names}
    if not any(c[NOT_RUN] for by in counts.values() for c in by.values()):
        return None
    table = Table(title="cases run per profile", title_justify="left")
    table.add_column("profile", style="bold")
    for name in names:
        table.add_column(name, overflow="fold")
    for profile in result.profiles():
        row = []
        for name in names:
            by = counts[name][profile]
            total = sum(by.values())
            skipped = by[NOT_RUN]
            text = Text(f"{total - skipped} of {total} run")
            if skipped:
                text.append(
                    f", {skipped} not run", style=STYLE[NOT_RUN] if total > skipped else "yellow"
                )
            row.append(text)
        table.add_row(profile, *row)
    return table
