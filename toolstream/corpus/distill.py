"""``toolstream distill``: the smallest subset of a corpus that keeps every
behaviour a recorded diff run observed on it (in the spirit of afl-cmin).

A *behaviour* is what one column of the run (an adapter, or a client under
one transport) made of a kind of case: the reference verdict it was judged
against (status and codes: for a client under a cut transport, the verdict
of the prefix it received), the case's operator and profile, and the
column's outcome signature (the classification, plus the exception type of
a crash, the differing fields of wrong calls, what an unsafe accept handed
over: :func:`toolstream.baseline.signature_of`).  Every case also shows the
behaviour "a case of this verdict, operator and profile", so a kind of case
no column ran is kept too.  Behaviours come from the recorded run's JSON,
never from running anything again.

The subset is a greedy set cover: take the case that shows the most
behaviours not yet kept (ties: the smaller file, then the path), until every
behaviour is kept.  Same run, same corpus: same subset, same bytes.  The
subset is written with the corpus' layout and its own ``MANIFEST.jsonl``,
and ``DISTILL.jsonl`` says, per kept case, the behaviours it is the witness
of (the ones it was taken for).
"""

from __future__ import annotations

import heapq
import json
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from toolstream.baseline import signature_of
from toolstream.caseio import atomic_write, case_files, write_manifest

__all__ = [
    "DISTILL_NAME",
    "FORMAT",
    "Behaviour",
    "DistillError",
    "Distilled",
    "behaviours_of",
    "distill",
    "write_distilled",
]

FORMAT: Final = "toolstream-distill/1"
DISTILL_NAME: Final = "DISTILL.jsonl"
DIFF_FORMAT: Final = "toolstream-diff/1"
ANY_COLUMN: Final = "(case)"
"""The column of the behaviour every case shows (its verdict, operator, profile)."""


class DistillError(ValueError):
    """The recorded runs do not describe the corpus (a case not run, a row
    that names no case of it), or a result is not a diff result."""


@dataclass(frozen=True, order=True)
class Behaviour:
    column: str
    verdict: str
    operator: str
    profile: str
    outcome: str

    def to_dict(self) -> dict[str, str]:
        return {
            "column": self.column,
            "verdict": self.verdict,
            "operator": self.operator,
            "profile": self.profile,
            "outcome": self.outcome,
        }


def _verdict(reference: Any) -> str:
    if not isinstance(reference, Mapping):
        return "(unknown)"
    codes = ",".join(sorted(str(c) for c in reference.get("codes") or ()))
    return f"{reference.get('status')}({codes})"


def _outcome(result: Mapping[str, Any]) -> str:
    return signature_of(result) or str(result.get("classification"))


def behaviours_of(row: Mapping[str, Any]) -> set[Behaviour]:
    """The behaviours one case row of a diff result shows."""
    operator = str(row.get("operator"))
    profile = str(row.get("profile"))
    verdict = _verdict(row.get("reference"))
    out = {Behaviour(ANY_COLUMN, verdict, operator, profile, "")}
    results = row.get("results")
    for column, result in results.items() if isinstance(results, Mapping) else ():
        if not isinstance(result, Mapping):
            raise DistillError(f"case {row.get('path')!r}: result {column!r} is not an object")
        judged = _verdict(result["reference"]) if "reference" in result else verdict
        out.add(Behaviour(str(column), judged, operator, profile, _outcome(result)))
    return out


@dataclass(frozen=True)
class Distilled:
    """The kept cases (relative paths, in the order taken) with the
    behaviours each is the witness of; how many cases and behaviours there were."""

    kept: tuple[tuple[str, tuple[Behaviour, ...]], ...]
    cases_total: int
    behaviours_total: int

    def manifest_lines(self) -> list[str]:
        header = {
            "format": FORMAT,
            "cases_total": self.cases_total,
            "kept": len(self.kept),
            "behaviours": self.behaviours_total,
        }
        lines = [json.dumps(header, sort_keys=True, ensure_ascii=True)]
        for path, witnessed in sorted(self.kept):
            record = {"path": path, "witness_of": [b.to_dict() for b in witnessed]}
            lines.append(json.dumps(record, sort_keys=True, ensure_ascii=True))
        return lines


def _relative(path: str, root: Path, resolved: Mapping[Path, str]) -> str | None:
    given = Path(path)
    try:
        return given.relative_to(root).as_posix()
    except ValueError:
        return resolved.get(given.resolve())


def distill(corpus: str | os.PathLike[str], results: Sequence[Mapping[str, Any]]) -> Distilled:
    """The distilled subset of the corpus folder ``corpus`` from the recorded
    diff results ``results`` (their JSON objects; several are joined case by
    case).  Raises :class:`DistillError` when a result is not a diff result,
    when a row names no case of the corpus, or when a case of the corpus was
    not run (its behaviours are unknown: it cannot be dropped or kept on
    evidence)."""
    root = Path(corpus)
    files = case_files(root)
    names = {f.relative_to(root).as_posix(): f for f in files}
    resolved = {f.resolve(): name for name, f in names.items()}
    shows: dict[str, set[Behaviour]] = {}
    for number, result in enumerate(results, 1):
        if result.get("format") != DIFF_FORMAT:
            raise DistillError(f"result {number} is not a {DIFF_FORMAT} result")
        if "shard" in result:
            raise DistillError(f"result {number} is one shard: toolstream merge the shards first")
        for row in result.get("cases") or ():
            if not isinstance(row, Mapping):
                raise DistillError(f"result {number}: a case row is not an object")
            name = _relative(str(row.get("path")), root, resolved)
            if name is None or name not in names:
                raise DistillError(
                    f"result {number}: case {row.get('path')!r} is not a case of {root.as_posix()}"
                )
            shows.setdefault(name, set()).update(behaviours_of(row))
    missing = sorted(set(names) - set(shows))
    if missing:
        raise DistillError(
            f"{len(missing)} case(s) of {root.as_posix()} are not in the recorded run(s),"
            f" e.g. {missing[0]}: run diff over the whole corpus first"
        )
    size = {name: names[name].stat().st_size for name in shows}
    left = set().union(*shows.values()) if shows else set()
    total = len(left)
    kept: list[tuple[str, tuple[Behaviour, ...]]] = []
    # lazy greedy: a case's gain only shrinks as others are kept, so a popped
    # case whose recomputed gain still heads the queue is the eager choice
    # (most new behaviours; ties: smaller file, then path)
    queue = [(-len(shows[n]), size[n], n) for n in shows]
    heapq.heapify(queue)
    while left and queue:
        _, _, name = heapq.heappop(queue)
        taken = shows[name] & left
        if not taken:
            continue
        entry = (-len(taken), size[name], name)
        if queue and queue[0] < entry:
            heapq.heappush(queue, entry)
            continue
        kept.append((name, tuple(sorted(taken))))
        left -= taken
    return Distilled(tuple(kept), len(shows), total)


def write_distilled(
    corpus: str | os.PathLike[str], distilled: Distilled, output: str | os.PathLike[str]
) -> None:
    """Copy the kept cases of ``corpus`` into ``output`` (same layout), with
    the folder's ``MANIFEST.jsonl`` and the ``DISTILL.jsonl`` manifest.
    ``output`` must not hold case files already."""
    root, target = Path(corpus), Path(output)
    if target.exists() and case_files(target):
        raise DistillError(f"{target.as_posix()} already holds case files")
    for name, _ in distilled.kept:
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / name, destination)
    target.mkdir(parents=True, exist_ok=True)
    write_manifest(target)
    atomic_write(target / DISTILL_NAME, "".join(line + "\n" for line in distilled.manifest_lines()))
