"""The results of a diff run: counts per operator per adapter, the worst
cases, the exit status, and the deterministic JSON form."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from toolstream.diff.cases import NO_OPERATOR, Unreadable
from toolstream.diff.classify import (
    ADAPTER_CRASH,
    AGREE,
    CLASSIFICATIONS,
    DISAGREEMENTS,
    FALSE_REJECT,
    NOT_RUN,
    SEVERITY,
    UNSAFE_ACCEPT,
    WRONG_CALLS,
    Outcome,
    disagreement_layer,
)
from toolstream.diff.runner import AdapterInfo, CaseResult
from toolstream.diff.shard import ShardPart
from toolstream.findings import Layer

__all__ = [
    "FAIL_ON",
    "FORMAT",
    "NO_CODE",
    "SHORT",
    "DiffResult",
    "Example",
]

FORMAT: Final = "toolstream-diff/1"
"""The ``format`` member of the JSON output; bumped on incompatible changes."""

FAIL_ON: Final = ("unsafe", "any", "never")
"""``--fail-on`` values.  Which classifications make the run fail (exit 1):

``unsafe``
    ``unsafe_accept``;
``any``
    ``unsafe_accept``, ``wrong_calls``, ``false_reject`` and ``adapter_crash``
    (everything but ``agree`` and ``not_run``);
``never``
    none.

Whatever the value, a run that proves nothing fails too
(:meth:`DiffResult.proves_nothing`)."""

NO_CODE: Final = "(no code)"
"""The :meth:`DiffResult.by_code` key of disagreements over a verdict without
a code (the reference passes the turn, or finds no tool activity)."""

SHORT: Final = {
    AGREE: "agree",
    UNSAFE_ACCEPT: "unsafe",
    WRONG_CALLS: "wrong",
    FALSE_REJECT: "reject",
    ADAPTER_CRASH: "crash",
    NOT_RUN: "not run",
}
"""Short labels for table cells."""


@dataclass(frozen=True)
class Example:
    adapter: str
    classification: str
    case: CaseResult
    outcome: Outcome


@dataclass
class DiffResult:
    """Everything ``toolstream diff`` found.  ``cases`` keep the corpus order."""

    corpus: list[str]
    adapters: list[AdapterInfo]
    cases: list[CaseResult]
    unreadable: list[Unreadable] = field(default_factory=list)
    shard: ShardPart | None = None
    """Set on the result of one shard of a run (``--shard K/M``): the JSON
    then carries a ``shard`` member, which ``toolstream merge`` consumes."""
    details: Mapping[str, Mapping[str, Any]] | None = None
    """Case path -> its ``stream`` rows and ``shrunk``
    (:func:`toolstream.diff.stream.case_details`), for the cases with a
    disagreement, when a report asked for them (``diff --case-details``,
    ``--html``).  Only :meth:`to_dict` with ``details=True`` writes them (with
    the reference's findings and the reproducers): without it the JSON is the
    same bytes whether they were gathered or not."""
    reproducers: Mapping[tuple[str, str], str] = field(default_factory=dict)
    """(case path, column) -> the reproducer ``diff --repro-dir`` wrote for
    it (written as the result's ``reproducer`` with ``details=True``)."""

    # -- queries ---------------------------------------------------------------

    @property
    def ran(self) -> list[AdapterInfo]:
        return [a for a in self.adapters if a.ran]

    @property
    def skipped(self) -> list[AdapterInfo]:
        return [a for a in self.adapters if not a.ran]

    def operators(self) -> list[str]:
        """Operators present, sorted by name, ``(none)`` last."""
        names = {c.operator for c in self.cases}
        return sorted(names - {NO_OPERATOR}) + ([NO_OPERATOR] if NO_OPERATOR in names else [])

    def counts(self, adapter: str, operator: str | None = None) -> dict[str, int]:
        """Classification -> number of cases (every classification present,
        zeros included), over one operator or (``None``) all."""
        out = dict.fromkeys(CLASSIFICATIONS, 0)
        for case in self.cases:
            if operator is not None and case.operator != operator:
                continue
            outcome = case.outcomes.get(adapter)
            if outcome is not None:
                out[outcome.classification] += 1
        return out

    def found(self, classification: str) -> int:
        """How many (case, adapter) pairs got ``classification``."""
        return sum(
            1
            for case in self.cases
            for outcome in case.outcomes.values()
            if outcome.classification == classification
        )

    def disagreements(self) -> int:
        return sum(self.found(c) for c in DISAGREEMENTS)

    def profiles(self) -> list[str]:
        """The profiles of the cases, sorted (a case without one: ``(none)``)."""
        return sorted({c.profile or NO_OPERATOR for c in self.cases})

    def by_profile(self, adapter: str) -> dict[str, dict[str, int]]:
        """Profile -> classification counts of ``adapter``."""
        out = {p: dict.fromkeys(CLASSIFICATIONS, 0) for p in self.profiles()}
        for case in self.cases:
            outcome = case.outcomes.get(adapter)
            if outcome is not None:
                out[case.profile or NO_OPERATOR][outcome.classification] += 1
        return out

    def by_layer(self, adapter: str) -> dict[str, int]:
        """Layer -> how many of ``adapter``'s disagreements are counted under
        it (every layer present, bottom-up): each disagreement in exactly
        one layer, so they add up to its disagreements."""
        out = {layer.value: 0 for layer in Layer}
        for case in self.cases:
            outcome = case.outcomes.get(adapter)
            if outcome is not None and outcome.disagrees:
                out[disagreement_layer(case.layer_code(adapter)).value] += 1
        return out

    def by_code(self, adapter: str) -> dict[str, int]:
        """Deciding code -> how many of ``adapter``'s disagreements are
        counted under it (:data:`NO_CODE` for a verdict without one); only
        the codes that occur, sorted, :data:`NO_CODE` last."""
        found: dict[str, int] = {}
        for case in self.cases:
            outcome = case.outcomes.get(adapter)
            if outcome is not None and outcome.disagrees:
                code = case.layer_code(adapter) or NO_CODE
                found[code] = found.get(code, 0) + 1
        return {code: found[code] for code in sorted(found, key=lambda c: (c == NO_CODE, c))}

    def proves_nothing(self) -> str | None:
        """Why this run checked nothing, in one line, or ``None``.

        A run proves nothing when no case was read, when no adapter ran a
        single case (every one ``not_run``), or when an adapter crashed on
        every case it ran, or refused every one for the same reason (a
        missing script, an import error, an accumulator that refuses
        everything): its ``agree`` cells would only say "it refused"."""
        if not self.cases:
            return "no case was read"
        compared = 0
        for info in self.ran:
            outcomes = [
                o
                for case in self.cases
                if (o := case.outcomes.get(info.name)) is not None and o.classification != NOT_RUN
            ]
            compared += len(outcomes)
            if not outcomes:
                continue
            first = outcomes[0]
            if all(o.classification == ADAPTER_CRASH for o in outcomes):
                same = all(o.error == first.error for o in outcomes)
                return (
                    f"adapter {info.name!r} crashed on every one of its {len(outcomes)} case(s)"
                    + (" for the same reason" if same else "")
                    + f": {first.detail}"
                )
            if all(o.rejected and o.reason == first.reason for o in outcomes):
                return (
                    f"adapter {info.name!r} refused every one of its {len(outcomes)} case(s)"
                    f" for the same reason: {first.reason}"
                )
        if compared == 0:
            return "no adapter ran any case (every case is not_run: see the profiles table)"
        return None

    def exit_code(self, fail_on: str) -> int:
        """1 when the run proves nothing (:meth:`proves_nothing`), or when
        ``fail_on`` is met (see :data:`FAIL_ON`); otherwise 0."""
        if fail_on not in FAIL_ON:
            raise ValueError(f"--fail-on must be one of {', '.join(FAIL_ON)}, got {fail_on!r}")
        if self.proves_nothing() is not None:
            return 1
        if fail_on == "unsafe":
            return 1 if self.found(UNSAFE_ACCEPT) else 0
        if fail_on == "any":
            return 1 if self.disagreements() else 0
        return 0

    def examples(self, per: int = 3) -> list[Example]:
        """The worst cases: for each adapter (in the order given) and each
        non-agree classification (worst first), up to ``per`` cases, taken
        from as many different operators as possible (operators in name
        order, cases in path order)."""
        out: list[Example] = []
        if per <= 0:
            return out
        for info in self.ran:
            for classification in DISAGREEMENTS:
                by_operator: dict[str, list[CaseResult]] = {}
                for case in self.cases:
                    outcome = case.outcomes.get(info.name)
                    if outcome is not None and outcome.classification == classification:
                        by_operator.setdefault(case.operator, []).append(case)
                queues = [
                    sorted(by_operator[op], key=lambda c: c.path) for op in sorted(by_operator)
                ]
                picked: list[CaseResult] = []
                depth = 0
                while len(picked) < per and any(depth < len(q) for q in queues):
                    for queue in queues:
                        if depth < len(queue) and len(picked) < per:
                            picked.append(queue[depth])
                    depth += 1
                out.extend(
                    Example(info.name, classification, case, case.outcomes[info.name])
                    for case in picked
                )
        return out

    def first(self, adapter: str, operator: str, classification: str) -> CaseResult | None:
        """The first case (by path) of ``operator`` that ``adapter`` classified so."""
        matches = [
            c
            for c in self.cases
            if c.operator == operator
            and (o := c.outcomes.get(adapter)) is not None
            and o.classification == classification
        ]
        return min(matches, key=lambda c: c.path) if matches else None

    # -- output ----------------------------------------------------------------

    def to_dict(self, *, cases: bool = True, details: bool = False) -> dict[str, Any]:
        """The JSON object.  ``details``: each case with a disagreement also
        carries what :attr:`details` holds for it, its reference's
        ``findings`` and each result's ``reproducer`` (the one place the HTML
        report reads them from)."""
        names = [a.name for a in self.ran]
        out: dict[str, Any] = {
            "format": FORMAT,
            "corpus": list(self.corpus),
            "classifications": list(CLASSIFICATIONS),
            "adapters": [a.to_dict() for a in self.adapters],
            "cases_total": len(self.cases),
            "totals": {
                **{name: self.counts(name) for name in names},
                **{a.name: {"skipped": a.skipped} for a in self.skipped},
            },
            "counts": {
                name: {op: self.counts(name, op) for op in self.operators()} for name in names
            },
            "by_profile": {name: self.by_profile(name) for name in names},
            "by_layer": {name: self.by_layer(name) for name in names},
            "by_code": {name: self.by_code(name) for name in names},
            "unreadable": [{"path": u.path, "error": u.error} for u in self.unreadable],
            "proves_nothing": self.proves_nothing(),
        }
        if cases:
            out["cases"] = [c.to_dict() for c in self.cases]
            if details:
                for case, written in zip(self.cases, out["cases"], strict=True):
                    self._add_details(case, written)
        if self.shard is not None:
            out["shard"] = self.shard.to_dict()
        return out

    def _add_details(self, case: CaseResult, written: dict[str, Any]) -> None:
        if not any(o.disagrees for o in case.outcomes.values()):
            return
        written.update((self.details or {}).get(case.path) or {})
        written["reference"]["findings"] = list(case.findings)
        for name, result in written["results"].items():
            if name in case.judged:
                result["reference"]["findings"] = list(case.judged[name][1].findings)
            reproducer = self.reproducers.get((case.path, name))
            if reproducer is not None:
                result["reproducer"] = reproducer

    def to_json(self, *, cases: bool = True, details: bool = False) -> str:
        """Deterministic: same corpus, same adapters and versions, same bytes."""
        return (
            json.dumps(self.to_dict(cases=cases, details=details), ensure_ascii=True, indent=2)
            + "\n"
        )


def cell(counts: dict[str, int]) -> str:
    """``"20 unsafe, 5 crash"``: the non-zero counts, in classification order
    (worst first, then agree, then not run)."""
    order = sorted(CLASSIFICATIONS, key=lambda c: SEVERITY[c])
    parts = [f"{counts[c]} {SHORT[c]}" for c in order if counts.get(c)]
    return ", ".join(parts) if parts else "-"


def sort_examples(examples: Sequence[Example]) -> list[Example]:
    return sorted(
        examples,
        key=lambda e: (SEVERITY[e.classification], e.adapter, e.case.operator, e.case.path),
    )
