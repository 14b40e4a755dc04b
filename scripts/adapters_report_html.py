"""The HTML page of ``make adapters-report``'s clients x transports run.

The matrix run (every client under every transport, over the sample of
``adapters_report_render.sample``) is rendered by ``toolstream.diff.html``
from its JSON with ``--case-details``' members (each disagreeing case's
stream, the reference's findings): the page ``toolstream report`` would make
of it, with case pages only for the cases with a disagreement, and only for
the first cases of each group (:data:`CASES_PER_GROUP`; the page says so, its
counts are the JSON's).  The file goes under ``docs/`` when it is smaller
than :data:`SIZE_LIMIT`, else under ``out/`` (not committed); the line between
:data:`BEGIN` and :data:`END` in docs/adapters.md says where it went and how
big it is.  Same run, same bytes, same line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from toolstream.caseio import atomic_write
from toolstream.diff import DiffResult
from toolstream.diff.html import render_html

__all__ = ["BEGIN", "CASES_PER_GROUP", "END", "NAME", "SIZE_LIMIT", "html_block", "write_page"]

BEGIN: Final = "<!-- adapters-html:begin -->"
END: Final = "<!-- adapters-html:end -->"
NAME: Final = "adapters-report.html"
SIZE_LIMIT: Final = 5_000_000
"""Bytes: a page this big or bigger is not kept in the repository."""
CASES_PER_GROUP: Final = (2, 1)
"""Cases listed (each with a case page) per group of a column's disagreements:
the first that makes a page under :data:`SIZE_LIMIT`; over it with each, the
first, and the page goes to ``out/``."""


def page_for(result: DiffResult, root: Path) -> tuple[Path, bytes, int]:
    """Where the page of ``result`` goes (``docs/`` or ``out/`` under
    ``root``), its bytes, rendered for that place (its links are relative to
    it), and the cases per group it lists."""
    data = json.loads(result.to_json(details=True))
    docs = root / "docs" / NAME
    for per in CASES_PER_GROUP:
        page = render_html(data, location=docs, cases_per_group=per).encode("utf-8")
        if len(page) < SIZE_LIMIT:
            return docs, page, per
    out = root / "out" / NAME
    per = CASES_PER_GROUP[0]
    return out, render_html(data, location=out, cases_per_group=per).encode("utf-8"), per


def html_block(target: Path, size: int, per: int, root: Path) -> str:
    """The lines of docs/adapters.md (beside it in ``docs/``) that name the page."""
    where = target.relative_to(root).as_posix()
    megabytes = f"{size / 1e6:.1f} MB"
    if target.parent == root / "docs":
        line = (
            f"The clients x transports run below as one offline HTML page: [{NAME}]({NAME})"
            f" ({megabytes}: the matrix, the heatmap, every column's disagreements by group;"
            f" case pages, with each stream's slots, for the first {per} case(s)"
            " of each group, only cases with a disagreement)."
        )
    else:
        line = (
            f"The clients x transports run below as one offline HTML page is {megabytes},"
            f" over the {SIZE_LIMIT / 1e6:g} MB kept in the repository: `make"
            f" adapters-report` writes it to `{where}` (open it from there; case pages for the"
            f" first {per} case(s) of each group, only cases with a disagreement)."
        )
    return f"{BEGIN}\n{line}\n{END}"


def write_page(result: DiffResult, root: Path, document: str, *, check: bool) -> str:
    """Write the page of ``result`` (unless ``check``) and return
    ``document`` with the lines that name it."""
    from adapters_report_render import splice

    target, page, per = page_for(result, root)
    if not check:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, page)
        stale = root / "docs" / NAME
        if target != stale and stale.exists():
            stale.unlink()  # a page that moved to out/ leaves no old copy behind in docs/
    return splice(document, html_block(target, len(page), per, root), BEGIN, END)
