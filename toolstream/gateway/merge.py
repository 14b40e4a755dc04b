"""Join the results of the shards of one ``toolstream gateway-check`` run
(``--shard K/M``, :mod:`toolstream.diff.shard`) into the result of the
unsharded run, the same bytes.

Each case row is kept as its shard wrote it, the rows sorted by path as a
run sorts them; the counts, id counts, per-operator counts and the
proves-nothing verdict are computed again by
:class:`~toolstream.gateway.results.GatewayResult` over the rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolstream.diff.shard import (
    ShardError,
    check_alike,
    positions_in_run,
    read_part,
    recorded_unreadable,
)
from toolstream.gateway.classify import Classification, IdHandling
from toolstream.gateway.judge import Side
from toolstream.gateway.results import FORMAT, GatewayResult
from toolstream.gateway.run import CaseOutcome

__all__ = ["merge_gateway"]


@dataclass(frozen=True)
class RecordedOutcome(CaseOutcome):
    """A case row read back from a shard's result: what the aggregates read,
    and the row exactly as it was written."""

    recorded: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.recorded)


def _case(row: Any) -> RecordedOutcome:
    if not isinstance(row, Mapping):
        raise ShardError("a case row is not an object")
    try:
        classification = Classification(row.get("classification"))
        ids = IdHandling(row["ids"]) if row.get("ids") is not None else None
    except ValueError as error:
        raise ShardError(f"a case row: {error}") from None
    down = row.get("downstream")
    downstream = (
        Side(str(down.get("status")), detail=str(down.get("detail", "")))
        if isinstance(down, Mapping)
        else None
    )
    return RecordedOutcome(
        path=str(row.get("path")),
        operator=str(row.get("operator")),
        profile=row.get("profile"),
        classification=classification,
        detail=str(row.get("detail", "")),
        downstream=downstream,
        ids=ids,
        recorded=row,
    )


_SAME = ("corpus", "upstream_profile", "downstream_profile", "gateway", "unreadable")
"""Members every shard of one run has alike."""


def merge_gateway(documents: Sequence[tuple[str, Mapping[str, Any]]]) -> GatewayResult:
    """The unsharded run's result from the shards' JSON objects (each named
    by its file).  Raises :class:`ShardError` for a document that is not a
    shard's gateway-check result, :class:`ShardSetError` when the documents
    are not every shard of one run."""
    parts = [(name, read_part(name, document, FORMAT)) for name, document in documents]
    check_alike(documents, _SAME)
    _, first = documents[0]
    positions_in_run(parts)
    rows = sorted(
        (_case(row) for _, document in documents for row in document["cases"]),
        key=lambda row: row.path,
    )
    return GatewayResult(
        corpus=list(first.get("corpus") or ()),
        upstream_profile=str(first.get("upstream_profile")),
        downstream_profile=str(first.get("downstream_profile")),
        gateway=dict(first.get("gateway") or {}),
        cases=list(rows),
        unreadable=recorded_unreadable(first),
    )
