"""Join the results of the shards of one ``toolstream diff`` run
(``--shard K/M``, :mod:`toolstream.diff.shard`) into the result of the
unsharded run, the same bytes.

Each case row is kept as its shard wrote it and put back at its position
in the run; the totals, counts, per-profile counts and the proves-nothing
verdict are computed again by :class:`~toolstream.diff.results.DiffResult`
itself, over the rows, so a merged result is never a sum someone wrote by
hand.  The shards must be of one run: every shard once, the same corpus,
the same adapters at the same versions, the same unreadable files.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolstream.diff.classify import Outcome
from toolstream.diff.results import FORMAT, DiffResult
from toolstream.diff.runner import AdapterInfo, CaseResult
from toolstream.diff.shard import (
    ShardError,
    check_alike,
    positions_in_run,
    read_part,
    recorded_unreadable,
)

__all__ = ["merge_diff"]


@dataclass(frozen=True)
class RecordedCase(CaseResult):
    """A case row read back from a shard's result: the fields the run's
    aggregates are computed from, and the row exactly as it was written."""

    recorded: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.recorded)


def _outcome(data: Mapping[str, Any]) -> Outcome:
    """The parts of an outcome the aggregates read (classification, and
    what "crashed on / refused every case" compares)."""
    return Outcome(
        classification=str(data.get("classification")),
        detail=str(data.get("detail", "")),
        error=data.get("error"),
        rejected=bool(data.get("rejected", False)),
        reason=data.get("reason"),
    )


def _verdict(row: Mapping[str, Any], reference: Any) -> RecordedCase:
    """A row's reference verdict (``reference``: its ``reference`` member,
    or a cut client's result's, the verdict of the prefix it received)."""
    if not isinstance(reference, Mapping):
        raise ShardError(f"case {row.get('path')!r}: its reference is not an object")
    return RecordedCase(
        path=str(row.get("path")),
        operator=str(row.get("operator")),
        profile=row.get("profile"),
        status=str(reference.get("status")),
        codes=tuple(reference.get("codes") or ()),
    )


def _case(row: Any) -> RecordedCase:
    if not isinstance(row, Mapping) or not isinstance(row.get("results"), Mapping):
        raise ShardError("a case row is not an object with results")
    results: Mapping[str, Any] = row["results"]
    if not all(isinstance(o, Mapping) for o in results.values()):
        raise ShardError(f"case {row.get('path')!r}: a result is not an object")
    judged = {
        str(name): (str(o["transport"]), _verdict(row, o.get("reference")))
        for name, o in results.items()
        if "transport" in o
    }
    return dataclasses.replace(
        _verdict(row, row.get("reference")),
        outcomes={str(name): _outcome(o) for name, o in results.items()},
        judged=judged,
        recorded=row,
    )


def _adapter(data: Mapping[str, Any]) -> AdapterInfo:
    return AdapterInfo(
        spec=str(data.get("spec")),
        name=str(data.get("name")),
        package=data.get("package"),
        version=data.get("version"),
        profiles=tuple(data.get("profiles") or ()),
        skipped=data.get("skipped"),
    )


_SAME = ("corpus", "classifications", "adapters", "unreadable")
"""Members every shard of one run has alike."""


def merge_diff(documents: Sequence[tuple[str, Mapping[str, Any]]]) -> DiffResult:
    """The unsharded run's result from the shards' JSON objects (each named
    by its file).  Raises :class:`ShardError` for a document that is not a
    shard's diff result, :class:`ShardSetError` when the documents are not
    every shard of one run."""
    parts = [(name, read_part(name, document, FORMAT)) for name, document in documents]
    check_alike(documents, _SAME)
    _, first = documents[0]
    total = positions_in_run(parts)
    rows: list[RecordedCase | None] = [None] * total
    for (_, document), (_, part) in zip(documents, parts, strict=True):
        for position, row in zip(part.positions, document["cases"], strict=True):
            rows[position] = _case(row)
    return DiffResult(
        corpus=list(first.get("corpus") or ()),
        adapters=[_adapter(a) for a in first.get("adapters") or ()],
        cases=[row for row in rows if row is not None],
        unreadable=recorded_unreadable(first),
    )
