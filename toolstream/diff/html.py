"""The HTML report of a diff result: one self-contained static file.

Rendered from the diff JSON (``toolstream diff --format json``, the shape of
:meth:`~toolstream.diff.results.DiffResult.to_dict`) with the Jinja2 template
``templates/report.html.j2``: every count it shows is read from the JSON
(``totals``, ``by_layer``, ``by_code``), never recomputed, and the cases are
the JSON's disagreeing results.  The page fetches nothing (inline CSS and
script, a Content-Security-Policy that forbids any other source) and works
from ``file://``.  The same JSON gives the same bytes.

Each case with a disagreement has a case page (a section of the same file,
``#case-N``): its stream item by item with the slot of each event (the
``stream`` member ``diff --case-details`` and ``--html`` put in the JSON: the
profile's own reading, :mod:`toolstream.diff.stream`), the reference's verdict
and findings, and what each column handed over (columns that handed over the
same grouped), the fields that differ from the reference marked; links to the
case file and to each reproducer (``reproducer``, with ``--repro-dir``),
relative to the HTML file, so they open from ``file://``.  A case without a
disagreement has no page.  ``cases_per_group`` keeps a large run's file small:
each group lists its first N cases only (the page says so; the counts stay
the JSON's).

Public API::

    read_result(path) -> dict                                   # raises ReportInputError
    render_html(data, *, location=None, cases_per_group=None) -> str
    write_html(data, path, *, cases_per_group=None) -> None     # atomic
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import jinja2
import markupsafe

from toolstream.adapters.spec import parse_spec
from toolstream.caseio import atomic_write
from toolstream.diff.classify import CLASSIFICATIONS, DISAGREEMENTS, SEVERITY
from toolstream.diff.results import FORMAT, NO_CODE, SHORT
from toolstream.findings import Layer, layer_of

__all__ = ["IN_PROCESS", "ReportInputError", "read_result", "render_html", "write_html"]

IN_PROCESS: Final = "in-process"
"""The transport column of an adapter that is called in-process (a built-in
adapter, a callable, a command) rather than served over HTTP."""

LAYER_NOTE: Final = {
    Layer.TRANSPORT.value: "transport and framing: the envelope, cut streams, provider errors",
    Layer.REASSEMBLY.value: "which fragment belongs to which call, terminals, ordering",
    Layer.STRICTNESS.value: "whether the arguments are one strict JSON object",
    Layer.TOOL_POLICY.value: "the application must check this; the library does not claim to",
}


class ReportInputError(ValueError):
    """The input is not a diff result this report can show (one line)."""


@dataclass
class _Column:
    name: str
    subject: str
    transport: str
    package: str | None
    version: str | None
    skipped: str | None


@dataclass
class _Row:
    """One disagreeing (case, adapter) result."""

    anchor: str
    path: str
    operator: str
    profile: str | None
    column: _Column
    result: Mapping[str, Any]
    reference: Mapping[str, Any]
    differs: set[tuple[int | None, str]] = field(default_factory=set)


@dataclass
class _Group:
    classification: str
    layer: str
    code: str
    what: str
    rows: list[_Row] = field(default_factory=list)


@dataclass
class _Handover:
    """Columns of one case that did the same: the same result object (and
    judged against the same reference)."""

    columns: list[_Column]
    result: Mapping[str, Any]
    reference: Mapping[str, Any]
    differs: set[tuple[int | None, str]]
    reproducers: list[tuple[str, str]] = field(default_factory=list)
    """(column, href) of each column's reproducer."""


@dataclass
class _Page:
    """A case page: one case with a disagreement."""

    anchor: str
    case: Mapping[str, Any]
    href: str
    slots: dict[str, int]
    """Slot label -> its colour number (order of first appearance)."""
    findings_at: dict[int, list[Mapping[str, Any]]]
    """Stream position -> the reference findings that point at it."""
    handovers: list[_Handover]


def read_result(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The diff JSON in ``path``.  Raises :class:`ReportInputError` when it
    cannot be read or is not a ``toolstream-diff/1`` result."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        raise ReportInputError(f"cannot read {os.fspath(path)}: {error.strerror}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ReportInputError(f"{os.fspath(path)} is not JSON: {error}") from None
    _check(data, os.fspath(path))
    return data  # type: ignore[no-any-return]


_REQUIRED: Final = ("adapters", "totals", "by_layer", "by_code", "cases", "corpus", "cases_total")


def _check(data: Any, where: str) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReportInputError(f"{where} is not a {FORMAT} result (toolstream diff --format json)")
    missing = [key for key in _REQUIRED if key not in data]
    if missing:
        raise ReportInputError(
            f"{where} lacks {', '.join(missing)} (a result of an older toolstream diff,"
            " or one written without its cases: run diff --format json again)"
        )


def _columns(data: Mapping[str, Any]) -> list[_Column]:
    out = []
    for adapter in data["adapters"]:
        spec = parse_spec(adapter["spec"])
        if spec.kind == "client":
            subject, transport = spec.name, spec.transport
        else:
            subject, transport = adapter["name"], IN_PROCESS
        out.append(
            _Column(
                name=adapter["name"],
                subject=subject,
                transport=transport,
                package=adapter.get("package"),
                version=adapter.get("version"),
                skipped=adapter.get("skipped"),
            )
        )
    return out


def _what(result: Mapping[str, Any]) -> str:
    """What a disagreement did, from its JSON: the hand-over, the exception
    type, the differing fields or the refusal."""
    if "handover" in result:
        return str(result["handover"])
    if "error" in result:
        return str(result["error"]).split(":", 1)[0]
    differences = result.get("differences") or []
    if differences:
        return ", ".join(sorted({f"{d['field']}" for d in differences}))
    if result.get("rejected"):
        return "refused"
    if result.get("invalid"):
        return "flagged invalid"
    return "-"


def _rows(data: Mapping[str, Any], columns: Sequence[_Column]) -> list[_Row]:
    by_name = {c.name: c for c in columns}
    rows: list[_Row] = []
    for number, case in enumerate(data["cases"]):
        for name, result in case["results"].items():
            classification = result.get("classification")
            if classification not in CLASSIFICATIONS:
                raise ReportInputError(
                    f"case {case.get('path')!r}: unknown classification {classification!r}"
                )
            if classification not in DISAGREEMENTS:
                continue
            if result.get("layer") not in LAYER_NOTE or name not in by_name:
                raise ReportInputError(
                    f"case {case.get('path')!r}, {name}: a disagreement without a known layer"
                    " or adapter"
                )
            row = _Row(
                anchor=f"case-{number}",
                path=case["path"],
                operator=case["operator"],
                profile=case.get("profile"),
                column=by_name[name],
                result=result,
                reference=result.get("reference") or case["reference"],
            )
            row.differs = _differs(result)
            rows.append(row)
    return rows


def _differs(result: Mapping[str, Any]) -> set[tuple[int | None, str]]:
    return {(d.get("call"), d.get("field")) for d in result.get("differences") or []}


def slot_label(slot: Sequence[int]) -> str:
    """``[scope, index]`` as the page shows it: ``1`` in scope 0, ``c2/1``
    (choice 2, index 1) otherwise."""
    scope, index = slot
    return f"{index}" if scope == 0 else f"c{scope}/{index}"


def _href(target: str, location: str | None) -> str:
    """A relative link from the HTML file at ``location`` to ``target`` (a
    path as the JSON holds it: relative to the current directory, or
    absolute), percent-encoded: it opens from ``file://``."""
    from urllib.parse import quote

    if location is not None:
        base = os.path.dirname(os.path.abspath(location))
        target = os.path.relpath(os.path.abspath(target), base)
    return quote(target.replace(os.sep, "/"))


def _pages(
    data: Mapping[str, Any],
    rows: Sequence[_Row],
    columns: Sequence[_Column],
    location: str | None,
) -> list[_Page]:
    """A page for every case some shown row belongs to, in case order."""
    by_name = {c.name: c for c in columns}
    shown = dict.fromkeys(row.anchor for row in rows)
    pages = []
    for number, case in enumerate(data["cases"]):
        anchor = f"case-{number}"
        if anchor not in shown:
            continue
        slots: dict[str, int] = {}
        for item in case.get("stream") or ():
            for event in item.get("events") or ():
                if "slot" in event:
                    slots.setdefault(slot_label(event["slot"]), len(slots) % 8)
        findings_at: dict[int, list[Mapping[str, Any]]] = {}
        for finding in case["reference"].get("findings") or ():
            if finding.get("event") is not None:
                findings_at.setdefault(finding["event"], []).append(finding)
        handovers: dict[str, _Handover] = {}
        for name, result in case["results"].items():
            if name not in by_name or result.get("classification") == "not_run":
                continue
            reference = result.get("reference") or case["reference"]
            same = {k: v for k, v in result.items() if k != "reproducer"}
            key = _compact([same, reference])
            group = handovers.get(key)
            if group is None:
                group = handovers[key] = _Handover([], result, reference, _differs(result))
            group.columns.append(by_name[name])
            if "reproducer" in result:
                group.reproducers.append((name, _href(str(result["reproducer"]), location)))
        pages.append(
            _Page(
                anchor=anchor,
                case=case,
                href=_href(case["path"], location),
                slots=slots,
                findings_at=findings_at,
                handovers=sorted(
                    handovers.values(),
                    key=lambda h: (SEVERITY[h.result["classification"]], h.columns[0].name),
                ),
            )
        )
    return pages


def _capped(
    rows: Sequence[_Row], groups: Mapping[str, Sequence[_Group]], per: int | None
) -> list[_Row]:
    """The rows the page lists, in case order: every row, or only the first
    ``per`` of each group."""
    if per is None:
        return list(rows)
    keep = {id(row) for gs in groups.values() for g in gs for row in g.rows[:per]}
    return [row for row in rows if id(row) in keep]


def _groups(rows: Sequence[_Row]) -> dict[str, list[_Group]]:
    """Per adapter, its disagreements grouped by classification, deciding
    code and what was done, worst classification first, then the biggest."""
    found: dict[str, dict[tuple[str, str, str, str], _Group]] = {}
    for row in rows:
        result = row.result
        key = (
            result["classification"],
            result["layer"],
            result.get("layer_code") or NO_CODE,
            _what(result),
        )
        groups = found.setdefault(row.column.name, {})
        group = groups.get(key)
        if group is None:
            group = groups[key] = _Group(*key)
        group.rows.append(row)
    return {
        name: sorted(
            groups.values(),
            key=lambda g: (SEVERITY[g.classification], -len(g.rows), g.layer, g.code, g.what),
        )
        for name, groups in found.items()
    }


def _code_columns(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(layer, code) of every code some adapter's disagreements are counted
    under, layer by layer (a code-less disagreement is reassembly's)."""
    codes = {code for counts in data["by_code"].values() for code in counts}
    order = [layer.value for layer in Layer]
    pairs = [(Layer.REASSEMBLY.value if c == NO_CODE else layer_of(c).value, c) for c in codes]
    return sorted(pairs, key=lambda p: (order.index(p[0]), p[1] == NO_CODE, p[1]))


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("toolstream.diff", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _text(value: Any) -> markupsafe.Markup:
    """``value`` escaped for element content (``&``, ``<``, ``>``): quotes need
    no escape there, and JSON is mostly quotes (a case page's size halves).
    Never for an attribute value."""
    return markupsafe.Markup(html.escape(str(value), quote=False))


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False, separators=(",", ":"))


def render_html(
    data: Mapping[str, Any],
    *,
    location: str | os.PathLike[str] | None = None,
    cases_per_group: int | None = None,
) -> str:
    """The report for diff JSON ``data``, to be written at ``location`` (the
    links to case files and reproducers are relative to it; ``None``: to the
    current directory).  ``cases_per_group``: list only the first N cases of
    each group (and give only those a case page).  Raises
    :class:`ReportInputError` for data this report cannot interpret (never a
    half-shown report)."""
    _check(data, "the result")
    if cases_per_group is not None and cases_per_group < 1:
        raise ValueError("cases_per_group must be at least 1")
    environment = _environment()
    environment.filters["compact"] = _compact
    environment.filters["slot"] = slot_label
    environment.filters["text"] = _text
    template = environment.get_template("report.html.j2")
    where = None if location is None else os.fspath(location)
    try:
        columns = _columns(data)
        page = _render(template, data, columns, _rows(data, columns), where, cases_per_group)
        # A case may carry a lone surrogate (the lone_surrogate operator's,
        # decoded from a JSON escape), which UTF-8 cannot hold: the page shows
        # it as its JSON escape, in the page's data and in its text alike.
        return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", page)
    except ReportInputError:
        raise
    except (jinja2.UndefinedError, KeyError, TypeError, AttributeError, ValueError) as error:
        raise ReportInputError(
            f"the result has a shape this report cannot show ({type(error).__name__}: {error})"
        ) from None


def _render(
    template: jinja2.Template,
    data: Mapping[str, Any],
    columns: list[_Column],
    rows: list[_Row],
    location: str | None,
    cases_per_group: int | None,
) -> str:
    ran = [c for c in columns if c.skipped is None]
    subjects = list(dict.fromkeys(c.subject for c in columns))
    transports = list(dict.fromkeys(c.transport for c in columns))
    matrix = {(c.subject, c.transport): c for c in columns}
    groups = _groups(rows)
    listed = _capped(rows, groups, cases_per_group)
    return template.render(
        data=data,
        columns=columns,
        ran=ran,
        subjects=subjects,
        transports=transports,
        matrix=matrix,
        rows=listed,
        all_rows=len(rows),
        cases_per_group=cases_per_group,
        groups=groups,
        pages=_pages(data, listed, columns, location),
        has_streams=any("stream" in case for case in data["cases"]),
        code_columns=_code_columns(data),
        # the heatmap's darkest cell; a column without disagreements has no count
        peak=max([1, *(n for counts in data["by_code"].values() for n in counts.values())]),
        layers=[layer.value for layer in Layer],
        layer_note=LAYER_NOTE,
        classifications=list(CLASSIFICATIONS),
        worst_first=sorted(CLASSIFICATIONS, key=lambda c: SEVERITY[c]),
        disagreements=list(DISAGREEMENTS),
        short=SHORT,
        no_code=NO_CODE,
    )


def write_html(
    data: Mapping[str, Any],
    path: str | os.PathLike[str],
    *,
    cases_per_group: int | None = None,
) -> None:
    """Render ``data`` for ``path`` and write it there atomically (never
    half-written)."""
    atomic_write(path, render_html(data, location=path, cases_per_group=cases_per_group))
