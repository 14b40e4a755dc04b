"""The run: ``serve`` plays each case of the upstream profile to the gateway,
toolstream asks the gateway for it in the downstream format, and each case
is classified (:mod:`.classify`).

Every case is served under its content address (``fixture_digest``: 16 hex
digits, no ``/``, so it survives a gateway that splits the model name on
``/``).  A case counts as having reached the gateway's provider only when
``serve``'s request log holds a request for it: an answer the gateway made
without asking is a ``gateway_error``, never a verdict.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from toolstream.caseio import fixture_digest
from toolstream.diff.cases import Case, Unreadable
from toolstream.diff.runner import reference_of
from toolstream.gateway.classify import (
    Classification,
    IdHandling,
    Mismatch,
    compare_calls,
    id_handling,
)
from toolstream.gateway.downstream import downstream as downstream_format
from toolstream.gateway.exchange import GatewayUnreachable, exchange
from toolstream.gateway.gateways import Gateway
from toolstream.gateway.judge import ERROR, Side, judge_answer, side_of
from toolstream.gateway.results import GatewayResult

__all__ = ["CaseOutcome", "check", "classify_sides", "served_cases"]

CASE_HEADER = "X-Toolstream-Case"


@dataclass(frozen=True)
class CaseOutcome:
    """One case: its classification and why, both sides' verdicts, what the
    gateway did to ids, and how the calls differ."""

    path: str
    operator: str
    profile: str | None
    classification: Classification
    detail: str
    upstream: Side | None = None
    downstream: Side | None = None
    ids: IdHandling | None = None
    mismatches: tuple[Mismatch, ...] = ()
    served_as: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "operator": self.operator,
            "profile": self.profile,
            "classification": self.classification.value,
            "detail": self.detail,
        }
        if self.served_as is not None:
            out["served_as"] = self.served_as
        if self.upstream is not None:
            out["upstream"] = self.upstream.to_dict()
        if self.downstream is not None:
            known = frozenset(c.id for c in (self.upstream.calls if self.upstream else ()) if c.id)
            out["downstream"] = self.downstream.to_dict(known)
        if self.ids is not None:
            out["ids"] = self.ids.value
        if self.mismatches:
            out["mismatches"] = [m.to_dict() for m in self.mismatches]
        return out


def classify_sides(
    upstream: Side, downstream: Side
) -> tuple[Classification, str, IdHandling | None, tuple[Mismatch, ...]]:
    """The classification of a case whose gateway answered (see :mod:`.classify`)."""
    if not upstream.passes:
        if downstream.passes:
            calls = len(downstream.calls)
            what = f"{calls} call(s) a client would execute" if calls else "a clean turn, no call"
            return (
                Classification.LAUNDERED,
                f"upstream {upstream.detail}; downstream passes: {what}",
                None,
                (),
            )
        return (
            Classification.BLOCKED_BOTH,
            f"upstream {upstream.detail}; downstream {downstream.detail}",
            None,
            (),
        )
    if not downstream.passes:
        return Classification.REFUSED, f"downstream {downstream.detail}", None, ()
    mismatches = compare_calls(upstream.calls, downstream.calls)
    if mismatches:
        return (
            Classification.CORRUPTED,
            "; ".join(m.describe() for m in mismatches),
            None,
            mismatches,
        )
    ids = id_handling(upstream.calls, downstream.calls)
    return (
        Classification.PRESERVED,
        f"same {len(upstream.calls)} call(s), ids {ids.value}",
        ids,
        (),
    )


def served_cases(cases: Sequence[Case]) -> list[Any]:
    """Serve-side cases: each case file served as written (duplicate keys,
    number texts) under its content address, each address once."""
    from toolstream.serve.cases import collect

    out: dict[str, Any] = {}
    for case in cases:
        name = fixture_digest(case.fixture)
        if name in out:
            continue
        if case.data is not None and os.path.isfile(case.path):
            (served,) = collect(case.path)
        else:
            (served,) = collect((name, dict(case.fixture)))
        out[name] = dataclasses.replace(served, id=name)
    return list(out.values())


def check(
    cases: Sequence[Case],
    *,
    upstream_profile: str,
    downstream_profile: str,
    gateway: Gateway,
    unreadable: Sequence[Unreadable] = (),
    corpus: Sequence[str] = (),
    jobs: int = 1,
    timeout: float = 30.0,
    upstream_port: int = 0,
    on_progress: Callable[[int], None] | None = None,
    on_started: Callable[[str, str], None] | None = None,
    server: Any = None,
) -> GatewayResult:
    """Run every case of ``upstream_profile`` through the gateway (the rest
    are ``not_run``) and classify each; the result keeps the cases sorted
    by path.  ``server``: a running ``toolstream.serve.Server`` already
    playing the cases under their content addresses (:func:`served_cases`),
    to share one server and one gateway between runs; by default the run
    starts its own."""
    from toolstream.serve import running

    fmt = downstream_format(downstream_profile)
    playing = [c for c in cases if c.profile == upstream_profile]
    outcomes: list[CaseOutcome] = [
        CaseOutcome(
            c.path,
            c.operator,
            c.profile,
            Classification.NOT_RUN,
            f"a {c.profile} case; the run's upstream profile is {upstream_profile}",
        )
        for c in cases
        if c.profile != upstream_profile
    ]
    if playing:
        context: Any = (
            contextlib.nullcontext(server)
            if server is not None
            else running(served_cases(playing), port=upstream_port)
        )
        with context as server:
            with gateway.running(server.url) as url:
                if on_started is not None:
                    on_started(server.url, url)

                def one(case: Case) -> CaseOutcome:
                    try:
                        return _run_case(case, server, url, gateway, fmt, upstream_profile, timeout)
                    finally:
                        if on_progress is not None:
                            on_progress(1)

                if jobs > 1:
                    with ThreadPoolExecutor(max_workers=jobs) as pool:
                        outcomes.extend(pool.map(one, playing))
                else:
                    outcomes.extend(one(case) for case in playing)
    outcomes.sort(key=lambda o: o.path)
    return GatewayResult(
        corpus=list(corpus),
        upstream_profile=upstream_profile,
        downstream_profile=downstream_profile,
        gateway=gateway.describe(),
        cases=outcomes,
        unreadable=list(unreadable),
    )


def _run_case(
    case: Case,
    server: Any,
    url: str,
    gateway: Gateway,
    fmt: Any,
    upstream_profile: str,
    timeout: float,
) -> CaseOutcome:
    name = fixture_digest(case.fixture)
    upstream = side_of(reference_of(case))
    request = fmt.build(case.fixture, gateway.model(name, upstream_profile))
    base = CaseOutcome(
        case.path,
        case.operator,
        case.profile,
        Classification.GATEWAY_ERROR,
        "",
        upstream=upstream,
        served_as=name,
    )
    try:
        answer = exchange(
            url,
            request.path,
            request.body,
            {**request.headers, **gateway.headers(), CASE_HEADER: name},
            timeout=timeout,
        )
    except GatewayUnreachable as error:
        return dataclasses.replace(base, detail=f"no answer from the gateway: {error}")
    downstream = judge_answer(answer, fmt.profile, case.fixture, request.request)
    if name in downstream.detail:
        # a gateway's error message that echoes the model names the case: without
        # it, one configuration problem reads as one reason for every case
        downstream = dataclasses.replace(
            downstream, detail=downstream.detail.replace(name, "<case>")
        )
    if not server.requests(name):
        reason = "the gateway never requested the case from the upstream"
        said = downstream.detail if downstream.status == ERROR else "it answered anyway"
        return dataclasses.replace(base, detail=f"{reason} ({said})", downstream=downstream)
    classification, detail, ids, mismatches = classify_sides(upstream, downstream)
    return dataclasses.replace(
        base,
        classification=classification,
        detail=detail,
        downstream=downstream,
        ids=ids,
        mismatches=mismatches,
    )
