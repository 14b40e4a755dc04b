"""Reading a corpus for ``toolstream diff``.

A corpus is one or more folders (every ``*.json`` below them, hidden files
and folders left out; ``MANIFEST.jsonl`` is not a case) or case files.  Each
case is a fixture envelope plus, optionally, ``expect`` (its label, ignored
here: the reference verdict is always recomputed) and ``meta``.

The *operator* a case is counted under:

* a case without ``meta`` (or whose ``meta`` is not an object): ``(none)``;
* ``meta.operators`` a non-empty list of names: the last *breaking* one
  (``toolstream_generators.OPERATORS[name].preserving`` is false; a name the generator
  does not know counts as breaking, as in ``toolstream generate``), or the
  last one when all are verdict-preserving -- the corpus' *featured*
  operator, which is also the folder ``generate`` files the case under;
* otherwise the name of the folder holding the case, when it is below the
  corpus folder, else ``(none)``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from toolstream.caseio import case_files, load_case, strip_case

__all__ = [
    "NO_OPERATOR",
    "Case",
    "CorpusError",
    "Unreadable",
    "case_from_fixture",
    "load_corpus",
    "operator_of",
]

NO_OPERATOR: Final = "(none)"


class CorpusError(Exception):
    """A corpus path does not exist or holds no case file."""


@dataclass(frozen=True)
class Case:
    """One case to run.  ``path``: where it was read (posix, as given), or a
    name for an in-memory fixture; ``data``: the raw bytes the reference
    judges (``None`` for an in-memory fixture, judged as a mapping);
    ``fixture``: the envelope an adapter is fed (``expect``/``meta`` removed)."""

    path: str
    operator: str
    fixture: Mapping[str, Any]
    data: bytes | None = None

    @property
    def profile(self) -> str | None:
        profile = self.fixture.get("profile")
        return profile if isinstance(profile, str) else None


@dataclass(frozen=True)
class Unreadable:
    """A case file that cannot be fed to an adapter (not UTF-8 JSON, not an object)."""

    path: str
    error: str


_PRESERVING: dict[str, bool] | None = None


def _preserving() -> dict[str, bool]:
    """Operator name -> verdict-preserving, from ``toolstream_generators`` (empty when
    the generator cannot be imported: every name then counts as breaking)."""
    global _PRESERVING
    if _PRESERVING is None:
        try:
            operators = importlib.import_module("toolstream_generators").OPERATORS
            _PRESERVING = {
                str(name): bool(getattr(info, "preserving", False))
                for name, info in operators.items()
            }
        except Exception:  # the generator is optional here
            _PRESERVING = {}
    return _PRESERVING


def operator_of(case: Mapping[str, Any], folder: str | None = None) -> str:
    """The operator a case is counted under (see the module docstring).
    ``folder``: the name of the folder holding the case below the corpus
    folder, if any."""
    meta = case.get("meta")
    if not isinstance(meta, Mapping):
        return NO_OPERATOR
    names = meta.get("operators")
    if isinstance(names, list) and names and all(isinstance(n, str) for n in names):
        preserving = _preserving()
        breaking = [n for n in names if not preserving.get(n, False)]
        chosen: str = breaking[-1] if breaking else names[-1]
        return chosen
    return folder or NO_OPERATOR


def case_from_fixture(
    fixture: Mapping[str, Any], path: str = "<fixture>", operator: str | None = None
) -> Case:
    """An in-memory case (a fixture, possibly carrying ``expect``/``meta``)."""
    return Case(
        path=path,
        operator=operator if operator is not None else operator_of(fixture),
        fixture=strip_case(fixture),
    )


def _read(path: Path, shown: str, folder: str | None) -> Case | Unreadable:
    loaded = load_case(path)
    if loaded.error is not None:
        return Unreadable(shown, loaded.error)
    if not isinstance(loaded.case, dict):
        return Unreadable(shown, f"not a JSON object ({type(loaded.case).__name__})")
    return Case(
        path=shown,
        operator=operator_of(loaded.case, folder),
        fixture=strip_case(loaded.case),
        data=loaded.data,
    )


def load_corpus(
    paths: Sequence[str | Path] | Iterable[str | Path],
) -> tuple[list[Case], list[Unreadable]]:
    """Every case below the given folders (sorted by path within each) and
    the given files, in order, each once.  Raises :class:`CorpusError` for a
    path that does not exist, or when nothing at all was found."""
    cases: list[Case] = []
    unreadable: list[Unreadable] = []
    seen: set[Path] = set()
    given = [Path(p) for p in paths]
    if not given:
        raise CorpusError("no corpus path given")
    for root in given:
        files: list[tuple[Path, Path | None]]
        if root.is_dir():
            files = [(f, f.relative_to(root)) for f in case_files(root)]
        elif root.is_file():
            files = [(root, None)]
        else:
            raise CorpusError(f"{root}: no such file or folder")
        for file, relative in files:
            key = file.resolve()
            if key in seen:
                continue
            seen.add(key)
            folder = (
                relative.parts[-2] if relative is not None and len(relative.parts) > 1 else None
            )
            item = _read(file, file.as_posix(), folder)
            if isinstance(item, Case):
                cases.append(item)
            else:
                unreadable.append(item)
    if not cases and not unreadable:
        raise CorpusError(f"no case (*.json) found in {', '.join(p.as_posix() for p in given)}")
    return cases, unreadable
