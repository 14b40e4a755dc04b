"""Shards of one run: which cases shard ``K/M`` takes, and what a shard's
result records so that :mod:`toolstream.diff.merge` can join the shards
into the result of one unsharded run, byte for byte.

A case belongs to shard ``K`` of ``M`` by a hash of its path as the run
names it (:func:`toolstream.corpus.verify.in_shard`, the split ``toolstream
verify --shard`` uses): the same on every machine given the same corpus
arguments, and a case keeps its shard when others are added.  A shard's
result carries a ``shard`` member (its ``index``, the ``of`` count, the
number of cases of the whole run, and the position of each of its cases in
that run), which the merged result no longer has.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from toolstream.corpus.verify import in_shard, parse_shard
from toolstream.diff.cases import Unreadable

__all__ = [
    "Shard",
    "ShardError",
    "ShardPart",
    "ShardSetError",
    "check_alike",
    "positions_in_run",
    "read_part",
    "recorded_unreadable",
    "select",
]

T = TypeVar("T")


class ShardError(ValueError):
    """A ``--shard`` value that is not ``K/M`` with ``1 <= K <= M``, or a
    ``shard`` member that is not one."""


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``of``."""

    index: int
    of: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        try:
            index, of = parse_shard(text)
        except ValueError as error:
            raise ShardError(str(error)) from None
        return cls(index, of)

    @property
    def text(self) -> str:
        return f"{self.index}/{self.of}"

    def takes(self, path: str) -> bool:
        return in_shard(path, self.index, self.of)


@dataclass(frozen=True)
class ShardPart:
    """What a shard's result records: the shard, how many cases the whole
    run has, and the run position of each case this shard judged (in the
    order of the shard's ``cases``)."""

    shard: Shard
    cases_total: int
    positions: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.shard.index,
            "of": self.shard.of,
            "cases_total": self.cases_total,
            "positions": list(self.positions),
        }

    @classmethod
    def from_dict(cls, data: Any) -> ShardPart:
        """The ``shard`` member of a shard's result; raises :class:`ShardError`."""
        if not isinstance(data, Mapping):
            raise ShardError("its 'shard' member is not an object")
        index, of, total, positions = (
            data.get("index"),
            data.get("of"),
            data.get("cases_total"),
            data.get("positions"),
        )
        numbers = [index, of, total, *(positions if isinstance(positions, list) else [None])]
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
            raise ShardError("its 'shard' member needs integer index, of, cases_total, positions")
        assert isinstance(index, int) and isinstance(of, int) and isinstance(total, int)
        assert isinstance(positions, list)
        if not 1 <= index <= of:
            raise ShardError(f"its shard {index}/{of} is not K/M with 1 <= K <= M")
        if any(not 0 <= p < total for p in positions) or len(set(positions)) != len(positions):
            raise ShardError(f"its shard positions are not distinct cases of {total}")
        return cls(Shard(index, of), total, tuple(positions))


def select(items: Sequence[T], shard: Shard, path: Callable[[T], str]) -> tuple[list[T], ShardPart]:
    """The items of ``shard`` (their order kept) and the part recording them."""
    positions = [i for i, item in enumerate(items) if shard.takes(path(item))]
    return [items[i] for i in positions], ShardPart(shard, len(items), tuple(positions))


class ShardSetError(ValueError):
    """Shard results that are not every shard of one run exactly once."""


def positions_in_run(parts: Sequence[tuple[str, ShardPart]]) -> int:
    """Check that ``parts`` (each named by its file) are every shard of one
    run exactly once and that their cases cover the run once; the run's
    number of cases.  Raises :class:`ShardSetError` saying what is wrong."""
    if not parts:
        raise ShardSetError("no shard result given")
    of = {part.shard.of for _, part in parts}
    totals = {part.cases_total for _, part in parts}
    if len(of) != 1 or len(totals) != 1:
        raise ShardSetError(
            "these are shards of different runs: "
            + ", ".join(f"{name} is {p.shard.text} of {p.cases_total} case(s)" for name, p in parts)
        )
    (count,) = of
    (total,) = totals
    seen: dict[int, str] = {}
    for name, part in parts:
        if part.shard.index in seen:
            raise ShardSetError(
                f"shard {part.shard.text} given twice ({seen[part.shard.index]}, {name})"
            )
        seen[part.shard.index] = name
    missing = [f"{k}/{count}" for k in range(1, count + 1) if k not in seen]
    if missing:
        raise ShardSetError(f"shard(s) {', '.join(missing)} missing")
    covered = sorted(p for _, part in parts for p in part.positions)
    if covered != list(range(total)):
        raise ShardSetError(f"the shards do not cover the run's {total} case(s) once each")
    return total


def read_part(name: str, document: Mapping[str, Any], result_format: str) -> ShardPart:
    """The shard part of ``document`` (a result of ``result_format``, read
    from the file ``name``); raises :class:`ShardError` when it is not one
    shard's result of that format."""
    if document.get("format") != result_format:
        raise ShardError(f"{name}: not a {result_format} result")
    if "shard" not in document:
        raise ShardError(f"{name}: not the result of one shard (no 'shard' member; see --shard)")
    try:
        part = ShardPart.from_dict(document["shard"])
    except ShardError as error:
        raise ShardError(f"{name}: {error}") from None
    cases = document.get("cases")
    if not isinstance(cases, list) or len(cases) != len(part.positions):
        raise ShardError(f"{name}: its cases do not match its shard positions")
    return part


def check_alike(documents: Sequence[tuple[str, Mapping[str, Any]]], members: Sequence[str]) -> None:
    """Raise :class:`ShardSetError` unless every document has the same
    ``members`` as the first (the corpus, the adapters and their versions...)."""
    first_name, first = documents[0]
    for name, document in documents[1:]:
        for member in members:
            if document.get(member) != first.get(member):
                raise ShardSetError(
                    f"{name} and {first_name} differ in {member!r}: not shards of one run"
                    " (the same corpus arguments and the same installed versions on every machine?)"
                )


def recorded_unreadable(document: Mapping[str, Any]) -> list[Unreadable]:
    """The files a result records as not cases (every shard records them all)."""
    return [
        Unreadable(str(u.get("path")), str(u.get("error")))
        for u in document.get("unreadable") or ()
        if isinstance(u, Mapping)
    ]
