"""Running adapters over cases: the reference verdict, each adapter's outcome.

Every case is judged by the reference validator (recomputed here, never taken
from the case's ``expect``): a case file's raw bytes with
:func:`toolstream.validate_bytes`, an in-memory fixture with
:func:`toolstream.validate`.  Each adapter is then fed a private deep copy of
the fixture (an adapter may mutate it) and its outcome classified with
:mod:`toolstream.diff.classify`.

An adapter whose library is not importable is *skipped* (reported, not run);
one that does not take a case's profile gives ``not_run`` for that case.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import logging
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from toolstream.adapters.base import (
    Adapter,
    AdapterCall,
    AdapterUnavailable,
    UnsupportedProfile,
)
from toolstream.api import validate, validate_bytes
from toolstream.diff.cases import Case, Unreadable
from toolstream.diff.classify import (
    Outcome,
    classify_crash,
    classify_result,
    deciding_code,
    disagreement_layer,
    not_run,
)
from toolstream.diff.handover import sent_calls
from toolstream.report import Report

__all__ = [
    "AdapterInfo",
    "AdapterSpecError",
    "CaseResult",
    "LoadedAdapter",
    "UserOptions",
    "WorkerStopped",
    "reference_of",
    "resolve_adapters",
    "resolve_spec",
    "run_adapter",
    "run_cases",
    "run_groups",
]


class AdapterSpecError(ValueError):
    """An ``--adapter`` value names no adapter (a usage error)."""


@dataclass(frozen=True)
class AdapterInfo:
    """An adapter as asked for: ``spec`` (what was given), ``name`` (its
    column in reports), the library ``version`` it drives, the ``profiles``
    it takes, and ``skipped`` (why it did not run) when its library is
    missing."""

    spec: str
    name: str
    package: str | None
    version: str | None
    profiles: tuple[str, ...]
    skipped: str | None = None

    @property
    def ran(self) -> bool:
        return self.skipped is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "spec": self.spec,
            "package": self.package,
            "version": self.version,
            "profiles": list(self.profiles),
            "skipped": self.skipped,
        }


@dataclass(frozen=True)
class LoadedAdapter:
    info: AdapterInfo
    adapter: Adapter | None


@dataclass(frozen=True)
class UserOptions:
    """How user adapters (callables and commands) are set up:
    ``profiles`` they take (``None``: every profile the validator knows) and
    ``reject_on``, ``module:Exception`` names that count as a refusal for a
    callable besides ``toolstream.Rejected``.  Strings only, so that worker
    processes can resolve the adapters again."""

    profiles: tuple[str, ...] | None = None
    reject_on: tuple[str, ...] = ()


def resolve_spec(spec: str, timeout: float = 30.0, options: UserOptions = UserOptions()) -> Adapter:
    """One ``--adapter`` value as an adapter.  A ``package.module:function``
    (and a ``--reject-on`` type) is imported from the installed packages or
    the current directory.  Raises :class:`AdapterSpecError`, or
    ``AdapterUnavailable`` when the adapter's library (or module) is
    missing."""
    from toolstream.adapters.registry import resolve_adapter

    added = None
    user_module = ":" in spec and not spec.startswith(("cmd:", "lines:"))
    if (user_module or options.reject_on) and os.getcwd() not in sys.path:
        # ``package.module:function`` of the project toolstream runs in
        added = os.getcwd()
        sys.path.insert(0, added)
    try:
        return resolve_adapter(
            spec, timeout=timeout, profiles=options.profiles, reject_on=options.reject_on
        )
    except KeyError as error:
        raise AdapterSpecError(str(error.args[0] if error.args else error)) from None
    except AdapterUnavailable:
        raise
    except ValueError as error:  # malformed spec, attribute missing, not callable
        raise AdapterSpecError(str(error)) from None
    finally:
        if added is not None and added in sys.path:
            sys.path.remove(added)


def resolve_adapters(
    specs: Sequence[str], *, timeout: float = 30.0, options: UserOptions = UserOptions()
) -> list[LoadedAdapter]:
    """Resolve ``--adapter`` values (registry names, ``package.module:function``,
    ``cmd:COMMAND``, ``lines:COMMAND``).  Raises :class:`AdapterSpecError` for
    one that names no adapter; an adapter whose library is missing comes back
    skipped."""
    out: list[LoadedAdapter] = []
    names: set[str] = set()
    for spec in specs:
        try:
            adapter = resolve_spec(spec, timeout, options)
        except AdapterUnavailable as error:
            info = AdapterInfo(spec, spec, error.package, None, (), str(error))
            out.append(LoadedAdapter(info, None))
            continue
        if adapter.name in names:
            raise AdapterSpecError(f"adapter {adapter.name!r} given twice")
        names.add(adapter.name)
        package = adapter.package or None
        skipped = None
        if not adapter.available():
            skipped = _missing_message(adapter)
        info = AdapterInfo(
            spec=spec,
            name=adapter.name,
            package=package,
            version=adapter.library_version() if skipped is None else None,
            profiles=tuple(adapter.profiles),
            skipped=skipped,
        )
        out.append(LoadedAdapter(info, adapter if skipped is None else None))
    return out


def _missing_message(adapter: Adapter) -> str:
    return adapter.unavailable_reason() or f"adapter {adapter.name!r} cannot run here"


def reference_of(case: Case) -> Report:
    """The reference verdict, recomputed."""
    if case.data is not None:
        return validate_bytes(case.data)
    return validate(dict(case.fixture))


def run_adapter(adapter: Adapter, case: Case, report: Report) -> Outcome:
    """Feed one case to one adapter and classify what it did."""
    with _quiet_libraries(threads=False):
        return _outcome(adapter, case, report)


@contextlib.contextmanager
def _quiet_libraries(*, threads: bool) -> Iterator[None]:
    """Libraries log warnings about hostile input (litellm: "Unmapped
    finish_reason ..."); they would flood a corpus run and say nothing the
    outcome does not.  The switch is process-wide, so a batch sets it once
    around all its runs.  With runs in ``threads``, ``warnings`` are
    silenced around the batch too: each driver's ``library_raised`` saves
    and restores the process-wide filters, and threads interleaving that
    would unsilence one another or leave a filter behind; around the batch,
    every state they restore silences, and the batch's exit restores the
    filters as they were."""
    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        with warnings.catch_warnings() if threads else contextlib.nullcontext():
            if threads:
                warnings.simplefilter("ignore")
            yield
    finally:
        logging.disable(previous)


_ON_RUN: Callable[[], None] | None = None
"""Called after every run in a worker whose watchdog is armed (re-arms it)."""


def _outcome(adapter: Adapter, case: Case, report: Report) -> Outcome:
    try:
        return _run_outcome(adapter, case, report)
    finally:
        if _ON_RUN is not None:
            _ON_RUN()


def _run_outcome(adapter: Adapter, case: Case, report: Report) -> Outcome:
    profile = case.profile
    if profile not in adapter.profiles:
        return not_run(
            f"{adapter.name} takes profiles {', '.join(adapter.profiles)}; case has {profile!r}"
        )
    fixture = copy.deepcopy(dict(case.fixture))
    try:
        result = adapter.run(fixture)
    except UnsupportedProfile as error:
        return not_run(str(error))
    except AdapterUnavailable as error:  # a library needed for this profile only
        return not_run(str(error))
    except Exception as error:
        return classify_crash(error)
    return classify_result(report, result, sent_calls(case.fixture))


@dataclass(frozen=True)
class CaseResult:
    """One case: where it is, its operator and profile, the reference's
    verdict, and one outcome per adapter that ran (keyed by adapter name)."""

    path: str
    operator: str
    profile: str | None
    status: str
    codes: tuple[str, ...]
    outcomes: Mapping[str, Outcome] = field(default_factory=dict)
    calls: tuple[AdapterCall, ...] = ()
    """The reference's client calls when it passes (``input``: the validated value)."""
    judged: Mapping[str, tuple[str, CaseResult]] = field(default_factory=dict)
    """Adapter name -> (cut transport, the row of the prefix it received) for
    a client judged against a cut prefix, not against this case."""
    findings: tuple[Mapping[str, Any], ...] = ()
    """The reference's findings (``Finding.to_dict``), for the reports that
    show them (``DiffResult.to_dict(details=True)``)."""

    def reference_dict(self) -> dict[str, Any]:
        reference: dict[str, Any] = {"status": self.status, "codes": list(self.codes)}
        if self.status == "pass":
            reference["calls"] = [
                {"id": c.id, "name": c.name, "arguments": c.arguments} for c in self.calls
            ]
        return reference

    def verdict_codes(self, name: str) -> tuple[str, ...]:
        """The reference codes adapter ``name`` was judged against: its
        prefix's for a client judged against a cut prefix, else this case's."""
        return self.judged[name][1].codes if name in self.judged else self.codes

    def layer_code(self, name: str) -> str | None:
        """The code adapter ``name``'s disagreement is counted under
        (:func:`~toolstream.diff.classify.deciding_code`)."""
        return deciding_code(self.verdict_codes(name))

    def result_dict(self, name: str) -> dict[str, Any]:
        outcome = self.outcomes[name]
        out = outcome.to_dict()
        if outcome.disagrees:
            code = self.layer_code(name)
            out["layer"] = disagreement_layer(code).value
            out["layer_code"] = code
        if name in self.judged:
            transport, prefix = self.judged[name]
            out["transport"] = transport
            out["reference"] = prefix.reference_dict()
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "operator": self.operator,
            "profile": self.profile,
            "reference": self.reference_dict(),
            "results": {name: self.result_dict(name) for name in sorted(self.outcomes)},
        }


Progress = Callable[[int], None]
"""Called with the number of (case, adapter) runs just finished."""


def _case_result(case: Case, report: Report, outcomes: dict[str, Outcome]) -> CaseResult:
    return CaseResult(
        path=case.path,
        operator=case.operator,
        profile=case.profile,
        status=report.status,
        codes=tuple(report.codes),
        outcomes=outcomes,
        calls=tuple(
            AdapterCall(id=c.id, name=c.name, arguments=c.arguments, input=c.input)
            for c in report.client_calls()
        )
        if report.status == "pass"
        else (),
        findings=tuple(f.to_dict() for f in report.findings),
    )


CASE_THREADS = 8
"""Runs in flight at once, per process, of the adapters that declare
``concurrent_runs`` (the clients over HTTP): such a run spends most of its
time waiting for the server, which sleeps between two writes so that each
write reaches the client on its own; overlapping the waits of several cases
keeps the cores busy.  Every other adapter runs its cases one at a time in
the calling thread."""


def _judge_batch(
    batch: Sequence[Case], adapters: Sequence[tuple[str, Adapter]], progress: Progress | None
) -> list[CaseResult]:
    """Judge consecutive cases, in case order: the adapters that allow
    concurrent runs in a pool of :data:`CASE_THREADS` threads, the others
    one case after another in this thread (meanwhile).  Each outcome lands
    under its own (case, adapter), so the result is that of a serial run."""
    width = max(len(adapters), 1)
    threaded = [(n, a) for n, a in adapters if a.concurrent_runs]
    if len(batch) < 2:
        threaded = []
    with _quiet_libraries(threads=bool(threaded)):
        reports = [reference_of(case) for case in batch]
        if not threaded:
            out = []
            for case, report in zip(batch, reports, strict=True):
                outcomes = {name: _outcome(adapter, case, report) for name, adapter in adapters}
                out.append(_case_result(case, report, outcomes))
                if progress is not None:
                    progress(width)
            return out
        with ThreadPoolExecutor(CASE_THREADS, thread_name_prefix="toolstream-diff") as pool:
            futures = {
                (position, name): pool.submit(_outcome, adapter, case, report)
                for position, (case, report) in enumerate(zip(batch, reports, strict=True))
                for name, adapter in threaded
                if case.profile in adapter.profiles  # a not_run costs nothing
            }
            out = []
            for position, (case, report) in enumerate(zip(batch, reports, strict=True)):
                outcomes = {
                    name: futures[(position, name)].result()
                    if (position, name) in futures
                    else _outcome(adapter, case, report)
                    for name, adapter in adapters
                }
                out.append(_case_result(case, report, outcomes))
                if progress is not None:
                    progress(width)
            return out


_BATCH = 40

# -- worker processes (``jobs > 1``) ------------------------------------------

_WORKER_ADAPTERS: dict[str, Adapter] = {}


def _worker_init(
    specs: list[tuple[str, str]], timeout: float, path: list[str], options: UserOptions
) -> None:
    for entry in reversed(path):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    _WORKER_ADAPTERS.clear()
    for name, spec in specs:
        adapter = resolve_spec(spec, timeout, options)
        if adapter.concurrent_runs:
            # its library imported here, before any thread runs it: a library
            # that looks into sys.modules (openai-python for the legacy httpx)
            # must never find another thread's import half done
            adapter.available()
        _WORKER_ADAPTERS[name] = adapter
    # a persistent command adapter's process ends with the worker: a pool
    # worker leaves through os._exit, which runs multiprocessing's
    # finalizers but not atexit
    from multiprocessing.util import Finalize

    for adapter in _WORKER_ADAPTERS.values():
        Finalize(adapter, adapter.close, exitpriority=10)


HANG_GRACE = 30.0
"""Seconds past three case deadlines with no run finished after which a
worker judging clients is taken for hung (see :func:`_worker_batch`)."""


def _hang_bound(adapters: Sequence[Adapter]) -> float | None:
    """How long a worker may go without finishing a run before it is taken
    for hung, when every adapter of the batch has a per-case deadline that
    covers a stall (the clients over HTTP); None otherwise (a callable has
    no deadline: a slow one is not a hung one)."""
    deadlines = [a.deadline for a in adapters]
    if not deadlines or any(d is None for d in deadlines):
        return None
    return 3 * max(d for d in deadlines if d is not None) + HANG_GRACE


def _worker_batch(task: tuple[tuple[str, ...], list[Case]]) -> list[CaseResult]:
    """One batch in a worker process.  A worker judging clients arms a
    watchdog (``faulthandler``): when no run finishes within
    :func:`_hang_bound` (a library deadlocked on its own lock never returns,
    past every deadline), it writes every thread's stack to stderr and ends
    the process, so the run fails naming where it hung instead of waiting
    for ever."""
    import faulthandler

    names, batch = task
    adapters = [(name, _WORKER_ADAPTERS[name]) for name in names]
    bound = _hang_bound([adapter for _, adapter in adapters])

    if bound is None:
        return _judge_batch(batch, adapters, None)
    global _ON_RUN
    _ON_RUN = functools.partial(faulthandler.dump_traceback_later, bound, exit=True)
    _ON_RUN()
    try:
        return _judge_batch(batch, adapters, None)
    finally:
        _ON_RUN = None
        faulthandler.cancel_dump_traceback_later()


def run_cases(
    cases: Sequence[Case],
    adapters: Sequence[LoadedAdapter],
    *,
    jobs: int = 1,
    timeout: float = 30.0,
    on_progress: Progress | None = None,
    options: UserOptions = UserOptions(),
) -> list[CaseResult]:
    """Judge every case with every adapter that is not skipped, in case order.

    ``jobs > 1`` spreads batches of cases over that many worker processes
    (started fresh, each resolving the adapters again from their specs and
    ``options``); the result is the same as a serial run.  Every adapter is
    closed (:meth:`Adapter.close`) at the end.
    """
    (results,) = run_groups(
        [(cases, adapters)], jobs=jobs, timeout=timeout, on_progress=on_progress, options=options
    )
    return results


def run_groups(
    groups: Sequence[tuple[Sequence[Case], Sequence[LoadedAdapter]]],
    *,
    jobs: int = 1,
    timeout: float = 30.0,
    on_progress: Progress | None = None,
    options: UserOptions = UserOptions(),
) -> list[list[CaseResult]]:
    """:func:`run_cases` for several (cases, adapters) groups at once (the
    clients of each cut transport judged against what they receive): one
    set of worker processes for them all, each resolving every group's
    adapters once (a group's adapter names must be unique across groups).
    One result list per group, each as :func:`run_cases` gives it."""
    lives = [
        [(a.info.name, a.adapter) for a in adapters if a.adapter is not None]
        for _, adapters in groups
    ]
    try:
        return _run_groups(groups, lives, jobs, timeout, on_progress, options)
    finally:
        for live in lives:
            for _, adapter in live:
                adapter.close()


def _run_groups(
    groups: Sequence[tuple[Sequence[Case], Sequence[LoadedAdapter]]],
    lives: list[list[tuple[str, Adapter]]],
    jobs: int,
    timeout: float,
    on_progress: Progress | None,
    options: UserOptions,
) -> list[list[CaseResult]]:
    if jobs <= 1 or sum(len(cases) for cases, _ in groups) <= _BATCH:
        out: list[list[CaseResult]] = []
        for (cases, _), live in zip(groups, lives, strict=True):
            judged: list[CaseResult] = []
            for start in range(0, len(cases), _BATCH):
                judged.extend(_judge_batch(cases[start : start + _BATCH], live, on_progress))
            out.append(judged)
        return out

    import multiprocessing

    specs: dict[str, str] = {}
    tasks: list[tuple[int, tuple[tuple[str, ...], list[Case]]]] = []
    for number, ((cases, adapters), live) in enumerate(zip(groups, lives, strict=True)):
        for item in adapters:
            if item.adapter is not None:
                if specs.setdefault(item.info.name, item.info.spec) != item.info.spec:
                    raise ValueError(f"adapter name {item.info.name!r} in two groups")
        names = tuple(name for name, _ in live)
        tasks.extend(
            (number, (names, list(cases[i : i + _BATCH]))) for i in range(0, len(cases), _BATCH)
        )
    results: list[list[CaseResult]] = [[] for _ in groups]
    try:
        with ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_init,
            initargs=(list(specs.items()), timeout, [os.getcwd(), *sys.path], options),
        ) as pool:
            work = [task for _, task in tasks]
            for (number, (names, batch)), done in zip(
                tasks, pool.map(_worker_batch, work), strict=True
            ):
                results[number].extend(done)
                if on_progress is not None:
                    on_progress(len(batch) * max(len(names), 1))
    except BrokenProcessPool:
        raise WorkerStopped(
            "a diff worker process stopped before its batch was judged: a library hung"
            " past every case deadline (its threads' stacks are on stderr above) or the"
            " process crashed; nothing of this run is reported"
        ) from None
    return results


class WorkerStopped(RuntimeError):
    """A worker process of a ``jobs > 1`` run ended abruptly (hung and
    stopped by its watchdog, or crashed)."""


def unreadable_dicts(unreadable: Sequence[Unreadable]) -> list[dict[str, str]]:
    return [{"path": u.path, "error": u.error} for u in unreadable]
