"""The results of a ``gateway-check`` run: counts, examples, the exit status
and the deterministic JSON form (sorted, no timings, no ports)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from toolstream.diff.cases import Unreadable
from toolstream.diff.shard import ShardPart
from toolstream.gateway.classify import ORDER, Classification, IdHandling

if TYPE_CHECKING:
    from toolstream.gateway.run import CaseOutcome

__all__ = ["FAIL_ON", "FORMAT", "GatewayResult"]

FORMAT: Final = "toolstream-gateway-check/1"
"""The ``format`` member of the JSON output; bumped on incompatible changes."""

FAIL_ON: Final = ("unsafe", "any", "never")
"""``--fail-on``: exit 1 on any ``laundered`` or ``corrupted`` (unsafe); on
anything but ``preserved``, ``blocked_both`` and ``not_run`` (any); never.
Whatever the value, a run that proves nothing fails
(:meth:`GatewayResult.proves_nothing`)."""

_ANY: Final = frozenset(
    {
        Classification.LAUNDERED,
        Classification.CORRUPTED,
        Classification.REFUSED,
        Classification.GATEWAY_ERROR,
    }
)


@dataclass
class GatewayResult:
    """Everything one run found; ``cases`` sorted by path."""

    corpus: list[str]
    upstream_profile: str
    downstream_profile: str
    gateway: dict[str, Any]
    cases: list[CaseOutcome]
    unreadable: list[Unreadable] = field(default_factory=list)
    shard: ShardPart | None = None
    """Set on the result of one shard (``--shard K/M``): the JSON then
    carries a ``shard`` member, which ``toolstream merge`` consumes."""

    def counts(self) -> dict[Classification, int]:
        seen = Counter(c.classification for c in self.cases)
        return {k: seen.get(k, 0) for k in ORDER}

    def ran(self) -> list[CaseOutcome]:
        return [c for c in self.cases if c.classification is not Classification.NOT_RUN]

    def ids(self) -> dict[str, int]:
        seen = Counter(c.ids for c in self.cases if c.ids is not None)
        return {k.value: seen.get(k, 0) for k in IdHandling}

    def proves_nothing(self) -> str | None:
        """Why this run proves nothing, or ``None``: no case of the upstream
        profile ran, or every case that ran is a ``gateway_error``, or the
        gateway answered every one with the same HTTP error, or refused every
        one for the same reason (the gateway turns every case away: a
        configuration problem, not a verdict)."""
        ran = self.ran()
        if not ran:
            return (
                f"no {self.upstream_profile} case in the corpus"
                f" ({len(self.cases)} case(s) of other profiles, not run)"
            )
        kinds = {c.classification for c in ran}
        details = sorted({c.detail for c in ran})
        if kinds == {Classification.GATEWAY_ERROR}:
            why = details[0] if len(details) == 1 else f"{len(details)} reasons, e.g. {details[0]}"
            return f"every case is a gateway_error: {why}"
        errors = {
            c.downstream.detail
            for c in ran
            if c.downstream is not None and c.downstream.status == "error"
        }
        if (
            len(ran) > 1
            and len(errors) == 1
            and all(c.downstream is not None and c.downstream.status == "error" for c in ran)
        ):
            return f"the gateway answered every case with the same error: {errors.pop()}"
        if kinds == {Classification.REFUSED} and len(details) == 1 and len(ran) > 1:
            return f"the gateway refused every case for the same reason: {details[0]}"
        return None

    def exit_code(self, fail_on: str = "unsafe") -> int:
        if self.proves_nothing() is not None:
            return 1
        kinds = {c.classification for c in self.cases}
        if fail_on == "unsafe" and any(k.unsafe for k in kinds):
            return 1
        if fail_on == "any" and kinds & _ANY:
            return 1
        return 0

    def examples(self, per_classification: int) -> list[CaseOutcome]:
        """Up to N cases per classification (not ``preserved``/``not_run``),
        worst classification first, then by path."""
        out: list[CaseOutcome] = []
        for kind in ORDER:
            if kind in (Classification.PRESERVED, Classification.NOT_RUN):
                continue
            out.extend([c for c in self.cases if c.classification is kind][:per_classification])
        return out

    def per_operator(self) -> dict[str, dict[str, int]]:
        table: dict[str, Counter[str]] = {}
        for case in self.ran():
            table.setdefault(case.operator, Counter())[case.classification.value] += 1
        return {op: dict(sorted(table[op].items())) for op in sorted(table)}

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "corpus": self.corpus,
            "upstream_profile": self.upstream_profile,
            "downstream_profile": self.downstream_profile,
            "gateway": self.gateway,
            "counts": {k.value: v for k, v in self.counts().items()},
            "ids": self.ids(),
            "proves_nothing": self.proves_nothing(),
            "per_operator": self.per_operator(),
            "cases": [c.to_dict() for c in self.cases],
            "unreadable": [{"path": u.path, "error": u.error} for u in self.unreadable],
            **({"shard": self.shard.to_dict()} if self.shard is not None else {}),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=True, indent=2, sort_keys=False) + "\n"


def merged_counts(results: Sequence[GatewayResult]) -> dict[str, int]:
    total: Counter[str] = Counter()
    for result in results:
        for kind, count in result.counts().items():
            total[kind.value] += count
    return dict(total)
