"""The one owner of a diff run: which specs, grouped by what they receive,
the server the clients are pointed at, the runs, and one merged result.

``toolstream diff``, :func:`toolstream.diff.diff_corpus` and
``scripts/adapters_report`` all go through :class:`DiffSession`, so the
Python API and the CLI give the same JSON for the same corpus and specs.

Public API (stable)::

    parse_spec(text: str) -> RunSpec
    RunSpec(kind, name, transport="plain").text -> str      # the one builder
    client_specs(names, transports) -> list[RunSpec]
    judge_case(fixture: Mapping[str, Any], spec: str | RunSpec, *,
               case_id: str | None = None) -> CaseResult
    DiffSession.open(corpus, specs, *, jobs=1, timeout=30.0,
                     options=UserOptions(), only_profiles=(),
                     shard=None,                      # a diff.shard.Shard
                     executor=None) -> DiffSession    # a diff.executors.DaskExecutor
    DiffSession.run(on_event=None) -> DiffResult
    against_baseline(result, baseline) -> BaselineVerdict     # new, known, fixed
    BaselineVerdict.exit_code(result, fail_on, strict=False) -> int
    RunStarted / CaseFinished / RunFinished                  # the events

``judge_case`` runs one fixture through one adapter or client spec exactly
as ``diff`` would: a client is served by ``toolstream serve`` and a cut
transport is judged against the prefix the client receives.

Specs are :mod:`toolstream.adapters.spec`'s (re-exported here).  A spec's
text: a registry name or ``package.module:function`` (kind
``adapter``), ``cmd:COMMAND`` / ``lines:COMMAND`` (kinds ``cmd`` and
``lines``), ``client:NAME`` or ``client:NAME@TRANSPORT`` (kind ``client``).

One JSON shape whatever the transports: one result object; a case's result
for a client judged against a cut prefix carries ``transport`` and the
``reference`` verdict of that prefix.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolstream.adapters.spec import RunSpec, client_specs, parse_spec
from toolstream.diff.cases import Case, Unreadable, case_from_fixture, load_corpus
from toolstream.diff.executors import DaskExecutor
from toolstream.diff.results import DiffResult
from toolstream.diff.runner import (
    AdapterInfo,
    CaseResult,
    LoadedAdapter,
    UserOptions,
    reference_of,
    resolve_adapters,
    run_groups,
)
from toolstream.diff.shard import Shard, ShardPart, select

__all__ = [
    "BaselineVerdict",
    "CaseFinished",
    "DiffSession",
    "Event",
    "RunFinished",
    "RunSpec",
    "RunStarted",
    "WorkerMismatch",
    "against_baseline",
    "client_specs",
    "judge_case",
    "parse_spec",
]

# -- events ---------------------------------------------------------------------


@dataclass(frozen=True)
class RunStarted:
    """A run begins: ``total`` (case, spec) runs to go, the specs that run
    and the ones skipped (``name -> reason``)."""

    total: int
    running: tuple[str, ...]
    skipped: Mapping[str, str]


@dataclass(frozen=True)
class CaseFinished:
    """``runs`` more (case, spec) runs are judged."""

    runs: int


@dataclass(frozen=True)
class RunFinished:
    result: DiffResult


Event = RunStarted | CaseFinished | RunFinished


# -- the session ----------------------------------------------------------------


def cut_of(spec: RunSpec) -> str | None:
    """The cut transport a client spec's client receives (``cut-chunked``,
    ``cut-close``), else None.  The diff asks the clients' transports: the
    spec itself, below the clients, knows no transport."""
    from toolstream.clients.transports import cut_transport

    if spec.kind == "client" and cut_transport(spec.transport):
        return spec.transport
    return None


def _paths(corpus: str | Path | Sequence[str | Path]) -> list[str | Path]:
    if isinstance(corpus, (str, Path)):
        return [corpus]
    return list(corpus)


@dataclass
class DiffSession:
    """A corpus read and specs resolved, ready to run (see :meth:`open`)."""

    corpus: list[str]
    cases: list[Case]
    unreadable: list[Unreadable]
    loaded: list[LoadedAdapter]
    jobs: int = 1
    timeout: float = 30.0
    options: UserOptions = dataclasses.field(default_factory=UserOptions)
    shard: ShardPart | None = None
    executor: DaskExecutor | None = None

    @classmethod
    def open(
        cls,
        corpus: str | Path | Sequence[str | Path],
        specs: Sequence[str | RunSpec],
        *,
        jobs: int = 1,
        timeout: float = 30.0,
        options: UserOptions | None = None,
        only_profiles: Sequence[str] = (),
        shard: Shard | None = None,
        executor: DaskExecutor | None = None,
    ) -> DiffSession:
        """Read ``corpus`` (a path or a list of them) and resolve ``specs``;
        with ``shard``, keep only that shard's cases (:mod:`.shard`); with
        ``executor``, judge them on a cluster (:mod:`.executors`).
        Raises ``CorpusError`` / ``AdapterSpecError``."""
        paths = _paths(corpus)
        cases, unreadable = load_corpus(paths)
        if only_profiles:
            cases = [c for c in cases if c.profile in only_profiles]
        part = None
        if shard is not None:
            cases, part = select(cases, shard, lambda case: case.path)
        loaded = resolve_adapters(
            [parse_spec(s).text for s in specs], timeout=timeout, options=options or UserOptions()
        )
        return cls(
            corpus=[p if isinstance(p, str) else Path(p).as_posix() for p in paths],
            cases=cases,
            unreadable=unreadable,
            loaded=loaded,
            jobs=jobs,
            timeout=timeout,
            options=options or UserOptions(),
            shard=part,
            executor=executor,
        )

    def run(self, on_event: Callable[[Event], None] | None = None) -> DiffResult:
        """Run every spec over every case; one result, the specs in the order given."""
        emit = on_event or (lambda event: None)
        running = [item for item in self.loaded if item.adapter is not None]
        emit(
            RunStarted(
                total=len(self.cases) * len(running),
                running=tuple(item.info.name for item in running),
                skipped={
                    item.info.name: item.info.skipped or ""
                    for item in self.loaded
                    if item.adapter is None
                },
            )
        )
        if self.executor is not None:
            work = functools.partial(
                _judge_batch_on_worker,
                tuple(item.info for item in self.loaded),
                self.timeout,
                self.options,
            )
            width = max(len(running), 1)
            cases = self.executor.map_batches(
                work, self.cases, on_batch=lambda n: emit(CaseFinished(n * width))
            )
        else:
            cases = _run(
                self.cases,
                self.loaded,
                jobs=self.jobs,
                timeout=self.timeout,
                options=self.options,
                on_progress=lambda n: emit(CaseFinished(n)),
            )
        result = DiffResult(
            corpus=list(self.corpus),
            adapters=[item.info for item in self.loaded],
            cases=cases,
            unreadable=self.unreadable,
            shard=self.shard,
        )
        emit(RunFinished(result))
        return result


def _run(
    cases: Sequence[Case],
    loaded: Sequence[LoadedAdapter],
    *,
    jobs: int,
    timeout: float,
    options: UserOptions,
    on_progress: Callable[[int], None] | None,
) -> list[CaseResult]:
    """Every group judged against what it receives, merged into one row per
    case: the rows of the specs receiving the whole case, with each cut
    client's outcome and the reference verdict of its prefix added.

    Cases whose cut delivers the same prefix to a client (the same content
    address: the server plays them as one, the first case's bytes) are
    judged once for that cut, and the row is shared: a client cannot tell
    them apart, so its outcome is the same."""
    from toolstream.clients.harness import cut_id, delivered_cases, serving

    groups: dict[str | None, list[LoadedAdapter]] = {}
    for item in loaded:
        groups.setdefault(cut_of(parse_spec(item.info.spec)), []).append(item)
    clients = [item for item in loaded if parse_spec(item.info.spec).kind == "client"]
    cuts = [cut for cut in groups if cut is not None]
    received = {cut: delivered_cases(cases, cut) for cut in cuts}
    profiles = {profile for item in clients for profile in item.info.profiles}
    spread: dict[str, list[int]] = {}
    subjects: list[list[Case]] = []
    for cut in groups:
        if cut is None:
            subjects.append(list(cases))
            continue
        first: dict[str, int] = {}
        unique: list[Case] = []
        for prefix in received[cut]:
            key = cut_id(cut, prefix.fixture)
            if key not in first:
                first[key] = len(unique)
                unique.append(prefix)
        spread[cut] = [first[cut_id(cut, prefix.fixture)] for prefix in received[cut]]
        subjects.append(unique)
    server = (
        serving(cases, cuts, received=received, profiles=profiles)
        if clients
        else contextlib.nullcontext()
    )
    with server:
        results = run_groups(
            list(zip(subjects, groups.values(), strict=True)),
            jobs=jobs,
            timeout=timeout,
            on_progress=on_progress,
            options=options,
        )
    by_cut = dict(zip(groups, results, strict=True))
    for cut, index in spread.items():
        by_cut[cut] = [by_cut[cut][i] for i in index]
        shared = len(index) - len(set(index))
        live = sum(1 for item in groups[cut] if item.adapter is not None)
        if on_progress is not None and shared and live:
            on_progress(shared * live)  # the shared runs count as done
    base = by_cut.get(None)
    if base is None:
        from toolstream.diff.runner import _case_result

        base = [_case_result(case, reference_of(case), {}) for case in cases]
    merged = []
    for position, row in enumerate(base):
        outcomes = dict(row.outcomes)
        judged = dict(row.judged)
        for cut in cuts:
            prefix_row = by_cut[cut][position]
            for name, outcome in prefix_row.outcomes.items():
                outcomes[name] = outcome
                judged[name] = (cut, prefix_row)
        merged.append(dataclasses.replace(row, outcomes=outcomes, judged=judged))
    return merged


_ONE_BATCH_AT_A_TIME = threading.Lock()
"""A batch publishes its loopback server's URL in the process environment
(:func:`toolstream.clients.harness.serving`): two batches of one worker
process (a Dask worker with several threads) take turns."""


class WorkerMismatch(RuntimeError):
    """A cluster worker resolves the specs to other libraries or versions
    than the machine that started the run."""


def _judge_batch_on_worker(
    expected: Sequence[AdapterInfo], timeout: float, options: UserOptions, batch: Sequence[Case]
) -> list[CaseResult]:
    """One batch on a cluster worker: the specs resolved again here, checked
    against what the run's own machine resolved, the batch judged as a
    local run judges it (its own loopback server, one process)."""
    with _ONE_BATCH_AT_A_TIME:
        loaded = resolve_adapters(
            [info.spec for info in expected], timeout=timeout, options=options
        )
        here = [item.info for item in loaded]
        if here != list(expected):
            differ = [
                f"{mine.name} {mine.version or mine.skipped}"
                for mine, theirs in zip(here, expected, strict=False)
                if mine != theirs
            ]
            raise WorkerMismatch(
                "a worker resolves the specs to other libraries than this machine: "
                + "; ".join(differ or ["another set of specs"])
                + " (install the same pinned extras on every worker)"
            )
        return _run(batch, loaded, jobs=1, timeout=timeout, options=options, on_progress=None)


def judge_case(
    fixture: Mapping[str, Any], spec: str | RunSpec, *, case_id: str | None = None
) -> CaseResult:
    """One fixture through one spec exactly as ``diff`` would judge it (a
    client served by ``toolstream serve``, a cut transport judged against
    the prefix it delivers).  ``case_id`` is the row's ``path`` (default:
    ``<fixture>``).  Raises ``AdapterSpecError`` for an unknown spec and
    ``AdapterUnavailable`` when its library is missing."""
    from toolstream.adapters.base import AdapterUnavailable

    run_spec = parse_spec(spec)
    case = case_from_fixture(fixture, path=case_id if case_id is not None else "<fixture>")
    loaded = resolve_adapters([run_spec.text], timeout=30.0)
    (item,) = loaded
    if item.adapter is None:
        raise AdapterUnavailable(item.info.name, item.info.package or run_spec.name, extra=None)
    (row,) = _run([case], loaded, jobs=1, timeout=30.0, options=UserOptions(), on_progress=None)
    return row


# -- baselines ------------------------------------------------------------------


@dataclass(frozen=True)
class BaselineVerdict:
    """A run against a baseline file (:mod:`toolstream.baseline`): the
    disagreements it does not record (``new``), the ones it does
    (``known``), and recorded ones that no longer disagree (``fixed``)."""

    new: tuple[Any, ...]
    known: tuple[Any, ...]
    fixed: tuple[Any, ...]

    def exit_code(self, result: DiffResult, fail_on: str, *, strict: bool = False) -> int:
        """1 when the run proves nothing, when a *new* disagreement meets
        ``fail_on`` (known ones never fail), or, with ``strict``, when a
        recorded one is fixed (the baseline is stale); otherwise 0."""
        from toolstream.diff.classify import UNSAFE_ACCEPT

        result.exit_code(fail_on)  # validates fail_on
        if result.proves_nothing() is not None:
            return 1
        if fail_on == "unsafe" and any(e.classification == UNSAFE_ACCEPT for e in self.new):
            return 1
        if fail_on == "any" and self.new:
            return 1
        return 1 if strict and self.fixed else 0


def against_baseline(result: DiffResult, baseline: Sequence[Any]) -> BaselineVerdict:
    """Compare ``result`` with ``baseline`` entries (:func:`toolstream.baseline.read_baseline`)."""
    from toolstream.baseline import compare, entries_from_diff, judged_from_diff

    data = result.to_dict()
    new, known, fixed = compare(entries_from_diff(data), baseline, judged=judged_from_diff(data))
    return BaselineVerdict(tuple(new), tuple(known), tuple(fixed))
