"""Check every case of a corpus against the reference validator.

Standard library only (the CLI adds progress bars and tables on top).
"""

from __future__ import annotations

import hashlib
import multiprocessing
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from typing import Any

from toolstream.api import validate_bytes
from toolstream.caseio import CaseRef, load_case
from toolstream.corpus.label import (
    compare,
    expect_summary,
    label_problems,
    report_summary,
)

OK = "ok"
MISMATCH = "mismatch"
BAD_LABEL = "bad_label"
UNREADABLE = "unreadable"
CRASH = "crash"
KINDS = (OK, MISMATCH, BAD_LABEL, UNREADABLE, CRASH)


@dataclass(frozen=True)
class CaseResult:
    """The outcome for one case.  ``kind`` is ``ok``, ``mismatch`` (the
    validator disagrees with the label), ``bad_label`` (the label itself is
    malformed), ``unreadable`` (the file is missing or not JSON) or ``crash``
    (the validator raised: a bug in the validator, reported, never hidden)."""

    id: str
    path: str
    kind: str
    expected: str
    got: str
    problems: tuple[str, ...] = ()
    status: str | None = None
    """The validator's status (``None`` when the file could not be read)."""

    @property
    def ok(self) -> bool:
        return self.kind == OK

    def to_dict(self) -> dict[str, Any]:
        return {
            "case": self.id,
            "path": self.path,
            "result": self.kind,
            "expected": self.expected,
            "got": self.got,
            "problems": list(self.problems),
            "status": self.status,
        }


def check_case(ref: CaseRef) -> CaseResult:
    """Run the validator on one case file and compare with its label."""
    if ref.missing:
        return CaseResult(
            ref.id, ref.path, UNREADABLE, "-", "-", ("listed in MANIFEST.jsonl but missing",)
        )
    loaded = load_case(ref.path)
    if loaded.error is not None:
        return CaseResult(ref.id, ref.path, UNREADABLE, "-", "-", (loaded.error,))
    expect = loaded.case.get("expect") if isinstance(loaded.case, dict) else None
    try:
        report = validate_bytes(loaded.data)
    except Exception as error:  # the validator promises never to raise
        problem = f"the validator raised {type(error).__name__}: {str(error)[:200]}"
        return CaseResult(ref.id, ref.path, CRASH, expect_summary(expect), "-", (problem,))
    got = report_summary(report)
    problems = label_problems(expect)
    if problems:
        return CaseResult(
            ref.id, ref.path, BAD_LABEL, expect_summary(expect), got, tuple(problems), report.status
        )
    assert isinstance(expect, dict)
    differences = compare(expect, report)
    kind = MISMATCH if differences else OK
    return CaseResult(
        ref.id, ref.path, kind, expect_summary(expect), got, tuple(differences), report.status
    )


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/4"`` -> ``(2, 4)``; raises ValueError unless 1 <= K <= M."""
    k_text, sep, m_text = text.partition("/")
    try:
        if not sep:
            raise ValueError
        k, m = int(k_text), int(m_text)
    except ValueError:
        raise ValueError(f"shard must be K/M (e.g. 1/4), got {text!r}") from None
    if not 1 <= k <= m:
        raise ValueError(f"shard K/M needs 1 <= K <= M, got {text!r}")
    return k, m


def in_shard(ident: str, k: int, m: int) -> bool:
    """Whether case ``ident`` belongs to shard ``k`` of ``m``.  The split
    hashes the case id, so it is the same on every machine and a case keeps
    its shard when others are added or removed."""
    bucket = int.from_bytes(
        hashlib.sha256(ident.encode("utf-8", "surrogatepass")).digest()[:8], "big"
    )
    return bucket % m == k - 1


def select_shard(cases: Sequence[CaseRef], shard: tuple[int, int] | None) -> list[CaseRef]:
    if shard is None:
        return list(cases)
    k, m = shard
    return [c for c in cases if in_shard(c.id, k, m)]


def of_profiles(ref: CaseRef, profiles: frozenset[str] | None) -> bool:
    """Whether case ``ref`` is of one of ``profiles`` (``None``: every case).
    A case that cannot be read counts as of every profile: it must fail,
    never drop out of a filtered run."""
    if profiles is None or ref.missing:
        return True
    loaded = load_case(ref.path)
    if loaded.error is not None or not isinstance(loaded.case, dict):
        return True
    return loaded.case.get("profile") in profiles


def _check_batch(
    refs: Sequence[CaseRef], profiles: frozenset[str] | None = None
) -> list[CaseResult | None]:
    return [check_case(ref) if of_profiles(ref, profiles) else None for ref in refs]


def _batches(cases: Sequence[CaseRef], size: int) -> Iterable[Sequence[CaseRef]]:
    for start in range(0, len(cases), size):
        yield cases[start : start + size]


def run(
    cases: Sequence[CaseRef],
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    profiles: Iterable[str] | None = None,
) -> list[CaseResult]:
    """Check ``cases``; results come back in the order of ``cases``.

    ``jobs > 1`` spreads batches over that many worker processes (started
    with ``spawn``, so no state leaks from the caller).  ``progress`` is
    called with the number of cases just finished.  ``profiles``: check
    only the cases of those profiles (see :func:`of_profiles`).
    """
    wanted = frozenset(profiles) if profiles is not None else None
    if jobs <= 1 or len(cases) < 2:
        results = []
        for ref in cases:
            if of_profiles(ref, wanted):
                results.append(check_case(ref))
            if progress is not None:
                progress(1)
        return results
    size = max(1, min(64, len(cases) // (jobs * 4)))
    results = []
    context = multiprocessing.get_context("spawn")
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            checks = pool.map(partial(_check_batch, profiles=wanted), _batches(cases, size))
            for batch in checks:
                results.extend(r for r in batch if r is not None)
                if progress is not None:
                    progress(len(batch))
    except BrokenProcessPool as error:
        raise WorkerDied(
            f"a verify worker process died ({error}); rerun with -j 1 to find the case"
        ) from None
    return results


class WorkerDied(RuntimeError):
    """A worker process of ``run(jobs > 1)`` ended abruptly."""


@dataclass(frozen=True)
class Summary:
    total: int
    ok: int
    kinds: dict[str, int]
    statuses: dict[str, int]
    """Validator statuses of the cases whose label holds."""

    @classmethod
    def of(cls, results: Sequence[CaseResult]) -> Summary:
        kinds = Counter(r.kind for r in results)
        statuses = Counter(r.status for r in results if r.ok and r.status is not None)
        return cls(
            total=len(results),
            ok=kinds.get(OK, 0),
            kinds={k: kinds.get(k, 0) for k in KINDS},
            statuses=dict(sorted(statuses.items())),
        )

    @property
    def failed(self) -> int:
        return self.total - self.ok
