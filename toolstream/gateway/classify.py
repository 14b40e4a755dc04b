"""How one case came through a gateway: the classification, and the
comparison of the calls on both sides.

The upstream side is the reference verdict of the case ``serve`` played to
the gateway; the downstream side is the reference verdict of the stream the
gateway sent back, parsed as a fixture of the downstream profile.  Calls are
compared position by position by *name* and *parsed argument value* (the
two formats carry arguments differently: JSON text fragments, a parsed
``input``, ...; only the value survives a faithful translation).  Ids are
compared as a mapping: a gateway may rewrite ids (LiteLLM makes up
``call_...`` ids for Anthropic ``toolu_...`` blocks, for instance) as long as
it does so consistently, one downstream id per upstream id; the result says
which (:class:`IdHandling`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolstream.adapters.base import json_safe
from toolstream.diff.classify import same_value
from toolstream.report import CallReport

__all__ = [
    "Classification",
    "IdHandling",
    "Mismatch",
    "compare_calls",
    "id_handling",
]


class Classification(str, enum.Enum):
    """What the gateway made of one case (the value is the stable code)."""

    PRESERVED = "preserved"
    """The reference passes the upstream stream and the gateway's stream,
    and both carry the same calls: same names, same arguments by parsed
    value, in the same order (ids kept, or rewritten consistently)."""

    CORRUPTED = "corrupted"
    """The reference passes both streams but the calls differ: merged, split,
    dropped, reordered, renamed, arguments changed, or ids mapped
    inconsistently.  A client executes calls the model never made."""

    LAUNDERED = "laundered"
    """The reference blocks the upstream stream (cut off, corrupt, an error
    event...) and passes what the gateway made of it: a strict client
    downstream accepts a turn the provider never completed.  The dangerous
    one."""

    REFUSED = "refused"
    """The reference passes the upstream stream; the gateway answered with
    an HTTP error, a body cut off, or a stream the reference blocks.  Safe,
    but a good turn was lost."""

    BLOCKED_BOTH = "blocked_both"
    """The reference blocks the upstream stream and the gateway refused it
    too (an HTTP error, a cut body, or a stream the reference blocks)."""

    GATEWAY_ERROR = "gateway_error"
    """Nothing was checked: the gateway could not be reached, timed out, or
    answered without ever requesting the case from the upstream server (a
    wrong route, a rejected request), so its answer says nothing about the
    case."""

    NOT_RUN = "not_run"
    """The case is not of the upstream profile of the run (counted, never
    silently dropped)."""

    @property
    def unsafe(self) -> bool:
        """A client downstream would act on something the reference refuses
        or on calls the model did not make."""
        return self in (Classification.LAUNDERED, Classification.CORRUPTED)


ORDER: tuple[Classification, ...] = (
    Classification.LAUNDERED,
    Classification.CORRUPTED,
    Classification.GATEWAY_ERROR,
    Classification.REFUSED,
    Classification.BLOCKED_BOTH,
    Classification.PRESERVED,
    Classification.NOT_RUN,
)
"""Worst first: the order of tables, JSON counts and examples."""


class IdHandling(str, enum.Enum):
    """What the gateway did to call ids (for cases whose calls match)."""

    KEPT = "kept"
    """Every downstream id is its upstream call's id."""

    REWRITTEN = "rewritten"
    """Ids differ, but one distinct downstream id per upstream call: a
    client can still pair results with calls."""

    INCONSISTENT = "inconsistent"
    """Two calls share a downstream id, or a call lost its id."""


@dataclass(frozen=True)
class Mismatch:
    """One way the downstream calls differ from the upstream's.

    ``field``: ``count``, ``order``, ``name``, ``arguments`` or ``id``;
    ``call``: the 0-based position (``None`` for ``count``, ``order`` and
    ``id``)."""

    field: str
    call: int | None
    upstream: Any
    downstream: Any

    def describe(self) -> str:
        if self.field == "count":
            return f"{self.downstream} call(s) downstream, {self.upstream} upstream"
        if self.field == "order":
            return (
                f"the upstream calls in another order: {_short(self.downstream)}"
                f" downstream vs {_short(self.upstream)} upstream"
            )
        if self.field == "id":
            return "call ids mapped inconsistently (two calls share an id, or one has none)"
        return (
            f"call {self.call}: {self.field} {_short(self.downstream)}"
            f" downstream vs {_short(self.upstream)} upstream"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "call": self.call,
            "upstream": json_safe(self.upstream),
            "downstream": json_safe(self.downstream),
        }


def _short(value: Any, limit: int = 60) -> str:
    import json

    text = json.dumps(json_safe(value), ensure_ascii=True, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _value(call: CallReport) -> Any:
    """The call's arguments by value: the validated input, else the text
    parsed (a passing report validated every client call, so this is the
    input in practice)."""
    return call.input


def compare_calls(
    upstream: Sequence[CallReport], downstream: Sequence[CallReport]
) -> tuple[Mismatch, ...]:
    """Every difference, position by position; when the downstream calls are
    the upstream's in another order, that is the one difference (``order``,
    the names on both sides)."""
    out: list[Mismatch] = []
    if len(upstream) == len(downstream) and _permutation(upstream, downstream):
        return (Mismatch("order", None, [c.name for c in upstream], [c.name for c in downstream]),)
    if len(upstream) != len(downstream):
        out.append(Mismatch("count", None, len(upstream), len(downstream)))
    for position, (up, down) in enumerate(zip(upstream, downstream, strict=False)):
        if up.name != down.name:
            out.append(Mismatch("name", position, up.name, down.name))
        if not same_value(_value(up), _value(down)):
            out.append(Mismatch("arguments", position, _value(up), _value(down)))
    if not out and id_handling(upstream, downstream) is IdHandling.INCONSISTENT:
        out.append(Mismatch("id", None, [c.id for c in upstream], [c.id for c in downstream]))
    return tuple(out)


def _same(up: CallReport, down: CallReport) -> bool:
    return up.name == down.name and same_value(_value(up), _value(down))


def _permutation(upstream: Sequence[CallReport], downstream: Sequence[CallReport]) -> bool:
    """The same calls (name and value), in another order."""
    free = list(range(len(upstream)))
    order = []
    for down in downstream:
        match = next((i for i in free if _same(upstream[i], down)), None)
        if match is None:
            return False
        free.remove(match)
        order.append(match)
    return order != sorted(order)


def id_handling(upstream: Sequence[CallReport], downstream: Sequence[CallReport]) -> IdHandling:
    """Kept, rewritten consistently, or not (for calls paired by position)."""
    pairs = list(zip(upstream, downstream, strict=False))
    if all(up.id == down.id for up, down in pairs):
        return IdHandling.KEPT
    ids = [down.id for _, down in pairs]
    if any(not isinstance(i, str) or not i for i in ids) or len(set(ids)) != len(ids):
        return IdHandling.INCONSISTENT
    return IdHandling.REWRITTEN
