"""``toolstream diff``: run real libraries' stream reassembly (the adapters of
:mod:`toolstream.adapters`) over a corpus and classify, case by case, how each
disagrees with the reference validator.  See ``docs/adapters.md``.

Public API::

    diff_corpus(paths, adapters, jobs=1, on_progress=None) -> DiffResult
    judge_case(fixture, spec, *, case_id=None) -> CaseResult  # see diff.session
    parse_spec(text) -> RunSpec
    diff_fixture(fixture, adapter) -> Outcome
    still_disagrees(fixture, adapter, like=None) -> bool      # shrink predicate
    disagreement(fixture, adapter) -> str | None              # its signature
    CLASSIFICATIONS, AGREE, UNSAFE_ACCEPT, WRONG_CALLS, FALSE_REJECT,
    ADAPTER_CRASH, NOT_RUN

Importing this package imports no adapter library.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from toolstream.adapters.base import Adapter
from toolstream.diff.cases import (
    NO_OPERATOR,
    Case,
    CorpusError,
    Unreadable,
    case_from_fixture,
    load_corpus,
    operator_of,
)
from toolstream.diff.classify import (
    ADAPTER_CRASH,
    AGREE,
    CLASSIFICATIONS,
    DISAGREEMENTS,
    FALSE_REJECT,
    NOT_RUN,
    UNSAFE_ACCEPT,
    WRONG_CALLS,
    CallDifference,
    Outcome,
    classify_crash,
    classify_result,
)
from toolstream.diff.results import FAIL_ON, DiffResult, Example
from toolstream.diff.runner import (
    AdapterInfo,
    AdapterSpecError,
    CaseResult,
    LoadedAdapter,
    reference_of,
    resolve_adapters,
    run_adapter,
    run_cases,
)
from toolstream.diff.session import (
    CaseFinished,
    DiffSession,
    Event,
    RunSpec,
    judge_case,
    parse_spec,
)

__all__ = [
    "ADAPTER_CRASH",
    "AGREE",
    "CLASSIFICATIONS",
    "DISAGREEMENTS",
    "FAIL_ON",
    "FALSE_REJECT",
    "NOT_RUN",
    "NO_OPERATOR",
    "UNSAFE_ACCEPT",
    "WRONG_CALLS",
    "AdapterInfo",
    "AdapterSpecError",
    "CallDifference",
    "Case",
    "CaseResult",
    "CorpusError",
    "DiffResult",
    "DiffSession",
    "Example",
    "LoadedAdapter",
    "Outcome",
    "RunSpec",
    "Unreadable",
    "case_from_fixture",
    "classify_crash",
    "classify_result",
    "diff_corpus",
    "diff_fixture",
    "disagreement",
    "disagreement_predicate",
    "judge_case",
    "load_corpus",
    "operator_of",
    "parse_spec",
    "reference_of",
    "resolve_adapters",
    "run_adapter",
    "run_cases",
    "still_disagrees",
]


def diff_corpus(
    paths: str | Path | Sequence[str | Path],
    adapters: Sequence[str | RunSpec],
    *,
    jobs: int = 1,
    timeout: float = 30.0,
    on_progress: Callable[[int], None] | None = None,
) -> DiffResult:
    """Run the adapters named by ``adapters`` (registry names,
    ``package.module:function``, ``cmd:COMMAND``, ``client:NAME@TRANSPORT``
    or :class:`RunSpec`) over every case of ``paths`` (a path or a list of
    them), as ``toolstream diff`` does (:class:`DiffSession`).  Raises
    :class:`CorpusError` / :class:`AdapterSpecError`."""
    session = DiffSession.open(paths, adapters, jobs=jobs, timeout=timeout)

    def progress(event: Event) -> None:
        if on_progress is not None and isinstance(event, CaseFinished):
            on_progress(event.runs)

    return session.run(progress)


_INSTANCES: dict[str, Adapter] = {}


def _adapter(adapter: str | Adapter) -> Adapter:
    """An instance for a spec (cached), raising AdapterUnavailable when its
    library is missing and AdapterSpecError for an unknown name."""
    if isinstance(adapter, Adapter):
        return adapter
    if adapter not in _INSTANCES:
        from toolstream.adapters.base import AdapterUnavailable

        (loaded,) = resolve_adapters([adapter])
        if loaded.adapter is None:
            raise AdapterUnavailable(loaded.info.name, loaded.info.package or adapter, extra=None)
        _INSTANCES[adapter] = loaded.adapter
    return _INSTANCES[adapter]


def diff_fixture(
    fixture: Mapping[str, Any], adapter: str | Adapter, *, data: bytes | None = None
) -> Outcome:
    """The outcome of one adapter on one fixture (``expect``/``meta``, if
    present, are ignored; the reference verdict is recomputed, from
    ``data`` when given: the fixture's bytes as written to a file)."""
    case = case_from_fixture(fixture)
    if data is not None:
        case = Case(case.path, case.operator, case.fixture, data)
    return run_adapter(_adapter(adapter), case, reference_of(case))


def disagreement(
    fixture: Mapping[str, Any], adapter: str | Adapter, *, data: bytes | None = None
) -> str | None:
    """How ``adapter`` disagrees with the reference on ``fixture``
    (:attr:`Outcome.signature`: e.g. ``"unsafe_accept:glued_ids+merged"``,
    ``"adapter_crash:TypeError"``, ``"wrong_calls:arguments-value"``), or
    ``None`` when it agrees or did not run.  This is the one definition of
    "disagrees the same way": ``toolstream shrink --adapter`` keeps it."""
    return diff_fixture(fixture, adapter, data=data).signature


def still_disagrees(
    fixture: Mapping[str, Any], adapter: str | Adapter, like: str | None = None
) -> bool:
    """The predicate for ``toolstream shrink --adapter``: ``adapter`` still
    disagrees with the reference on ``fixture``.  With ``like`` (the
    :func:`disagreement` of the original case), only the same way: same
    classification, same exception type for a crash, same hand-over for an
    unsafe accept, same differing fields for wrong calls (a ``like`` that is
    only a classification, ``"unsafe_accept"``, matches any signature of
    it).  Raises ``AdapterUnavailable`` when the adapter's library is
    missing."""
    signature = disagreement(fixture, adapter)
    if signature is None:
        return False
    return like is None or signature == like or signature.split(":", 1)[0] == like


def disagreement_predicate(
    original: Mapping[str, Any], adapter: str | Adapter
) -> Callable[[Mapping[str, Any]], bool]:
    """``still_disagrees`` pinned to the way ``adapter`` disagrees on
    ``original``; raises ValueError when it does not disagree there."""
    like = disagreement(original, adapter)
    if like is None:
        raise ValueError("the adapter agrees with the reference on the original fixture")
    instance = _adapter(adapter)

    def predicate(fixture: Mapping[str, Any]) -> bool:
        return still_disagrees(fixture, instance, like)

    predicate.__doc__ = f"the adapter still disagrees with the reference: {like}"
    return predicate
