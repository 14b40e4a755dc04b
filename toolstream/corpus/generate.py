"""Draw labelled mutants of seed fixtures and write them as a corpus.

This is the only part of ``toolstream.corpus`` that needs Hypothesis: the
generator (the ``generators/`` folder, installed as ``toolstream_generators``)
is imported lazily, inside :func:`generate`.

Layout of the output folder::

    DIR/<operator>/<hash>.json   one case per file, content-addressed
    DIR/MANIFEST.jsonl           one line per case present (rebuilt each run)

``<hash>`` addresses the fixture alone (not its label or provenance), so a
mutant drawn again lands on the same file and regenerating never duplicates.
``<operator>`` is the mutant's featured operator: its last breaking operator,
or its last preserving one when it has no breaking one.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolstream.caseio import (
    CASE_SUFFIX,
    DIGEST_CHARS,
    MANIFEST_NAME,
    atomic_write,
    dump_json,
    fixture_digest,
    strip_case,
    write_manifest,
)
from toolstream.corpus.label import label_problems

SHIPPED_COUNT = 25
"""``--count`` of the shipped corpus (``make corpus``): per seed and operator."""
SHIPPED_SEED = 0
"""``--seed`` of the shipped corpus (``make corpus``)."""

GENERATORS_PACKAGE = "toolstream_generators"
"""The import name of the repository's ``generators/`` folder (a distribution
named ``generators`` exists on PyPI, so the folder is installed under the
project's own name; see setup.py)."""

UNMUTATED = "identity"
"""Folder for a mutant that went through no operator at all."""

_CASE_NAME = re.compile(rf"^[0-9a-f]{{{DIGEST_CHARS}}}\.json$")
_TEMP_NAME = re.compile(rf"^\.[0-9a-f]{{{DIGEST_CHARS}}}\.json\..*\.tmp$")


class GenerateError(Exception):
    """Cannot generate.  ``usage`` (the default) marks a problem with the
    request (missing generator package, unknown operator, bad seed); a
    generator that misbehaves (a malformed label) is not one."""

    def __init__(self, message: str, *, usage: bool = True) -> None:
        super().__init__(message)
        self.usage = usage


def load_generators() -> Any:
    """The generator package (:data:`GENERATORS_PACKAGE`), imported on first
    use (it needs Hypothesis; the rest of the corpus workflow does not).  Imported by name, so the
    type checker of ``toolstream`` does not take the generator in."""
    try:
        generators = importlib.import_module(GENERATORS_PACKAGE)
    except ImportError as error:
        raise GenerateError(
            f"toolstream generate needs the {GENERATORS_PACKAGE!r} package"
            f" (and Hypothesis): {error}"
        ) from None
    return generators


def featured_operator(names: Sequence[str], operators: Mapping[str, Any]) -> str:
    """The operator a mutant is filed under."""
    breaking = [n for n in names if not getattr(operators.get(n), "preserving", False)]
    if breaking:
        return breaking[-1]
    return names[-1] if names else UNMUTATED


def applicable_operators(operators: Mapping[str, Any], profile: Any) -> list[str]:
    return [name for name, entry in operators.items() if profile in getattr(entry, "profiles", ())]


@dataclass(frozen=True)
class Seed:
    path: Path
    data: bytes
    fixture: dict[str, Any]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @classmethod
    def read(cls, path: Path) -> Seed:
        try:
            data = path.read_bytes()
            fixture = json.loads(data.decode("utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise GenerateError(f"cannot read seed {path}: {error}") from None
        if not isinstance(fixture, dict):
            raise GenerateError(f"seed {path} is not a JSON object")
        return cls(path, data, fixture)


def build_case(
    mutant: Any, seed: Seed, hypothesis_seed: int, version: str, operators: Mapping[str, Any]
) -> tuple[str, dict[str, Any]]:
    """(relative path, case object) for one mutant."""
    fixture = strip_case(mutant.fixture)
    names = [str(n) for n in mutant.operators]
    expect = mutant.label.to_dict()
    problems = label_problems(expect)
    if problems:
        raise GenerateError(
            f"generator produced a malformed label for {names}: {'; '.join(problems)}",
            usage=False,
        )
    case = dict(fixture)
    case["meta"] = {
        "operators": names,
        "seed": seed.path.name,
        "seed_sha256": seed.sha256,
        "generator_version": str(version),
        "hypothesis_seed": hypothesis_seed,
    }
    case["expect"] = expect
    relative = f"{featured_operator(names, operators)}/{fixture_digest(fixture)}{CASE_SUFFIX}"
    return relative, case


@dataclass
class GenerateResult:
    drawn: int = 0
    written: int = 0
    """Files created or changed."""
    unchanged: int = 0
    """Files already present with the same bytes."""
    collisions: int = 0
    """Mutants of this run that landed on a file another mutant of this run
    already wrote (same fixture, same featured operator)."""
    manifest_cases: int = 0
    by_operator: Counter[str] = field(default_factory=Counter)
    by_status: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    status_by_operator: dict[str, Counter[str]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    """Relative paths produced by this run, in the order drawn."""
    skipped_seeds: list[str] = field(default_factory=list)
    """Seeds no (chosen) operator applies to, e.g. of a profile the
    generators do not model."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "drawn": self.drawn,
            "written": self.written,
            "unchanged": self.unchanged,
            "collisions": self.collisions,
            "cases_in_manifest": self.manifest_cases,
            "by_operator": dict(sorted(self.by_operator.items())),
            "by_status": dict(sorted(self.by_status.items())),
            "codes": dict(sorted(self.codes.items())),
            "skipped_seeds": self.skipped_seeds,
        }


def plan(
    seeds: Sequence[Seed],
    operators: Mapping[str, Any],
    chosen: Sequence[str] | None,
    per_operator: bool,
    applicable: Callable[[dict[str, Any]], list[str]] | None = None,
) -> tuple[list[tuple[Seed, list[str] | None]], list[str]]:
    """The draws to make, (seed, operators argument of ``generators.sample``),
    and the names of the seeds skipped because no (chosen) operator applies
    to them (e.g. a profile the generators do not model).
    ``applicable(seed_fixture)`` names the operators that apply to a seed
    (default: those whose profiles include the seed's)."""
    unknown = sorted(set(chosen or ()) - set(operators))
    if unknown:
        raise GenerateError(
            f"unknown operator(s) {', '.join(unknown)}; known: {', '.join(sorted(operators))}"
        )
    draws: list[tuple[Seed, list[str] | None]] = []
    skipped: list[str] = []
    for seed in seeds:
        if applicable is not None:
            usable = list(applicable(seed.fixture))
        else:
            usable = applicable_operators(operators, seed.fixture.get("profile"))
        if chosen is not None:
            usable = [n for n in usable if n in chosen]
        if not usable:
            skipped.append(seed.path.name)
        elif per_operator:
            draws.extend((seed, [name]) for name in usable)
        else:
            draws.append((seed, usable if chosen is not None else None))
    if not draws:
        which = f"the operators {', '.join(chosen)}" if chosen is not None else "no operator"
        verb = "apply to none of" if chosen is not None else "applies to any of"
        raise GenerateError(
            f"{which} {verb} the seeds ({', '.join(skipped)}); the generator models the wires"
            f" {', '.join(_modelled_profiles())}"
        )
    return draws, skipped


def clean(folder: Path) -> int:
    """Remove the content-addressed cases, the manifest and temporary files
    a killed run left behind in a corpus folder (nothing else), and
    subfolders left empty.  Returns files removed."""
    removed = 0
    if not folder.is_dir():
        return 0
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for path in sorted(sub.iterdir()):
            if path.is_file() and (_CASE_NAME.match(path.name) or _TEMP_NAME.match(path.name)):
                path.unlink()
                removed += 1
        if not any(sub.iterdir()):
            sub.rmdir()
    manifest = folder / MANIFEST_NAME
    if manifest.exists():
        manifest.unlink()
    return removed


NO_SCHEMA_HINT = (
    "give the tools' schemas: import the capture from a cassette or HAR file (its recorded"
    " request declares them), re-import it with --schemas FILE, or add them to the seed's"
    " tool_schemas"
)
"""How to fix a seed whose calls have no schema (said wherever that is found)."""


def calls_without_schema(fixture: Mapping[str, Any]) -> list[str]:
    """Names of the seed's calls that the reference reports as ``unknown_tool``."""
    from toolstream.api import validate

    report = validate(dict(fixture))
    return sorted(
        {
            str(c.name)
            for c in report.calls
            if any(f.code == "unknown_tool" for f in c.findings)
        }
    )


def generate(
    seed_paths: Sequence[str | Path | Seed],
    out: str | Path,
    *,
    count: int,
    seed: int,
    operators: Sequence[str] | None = None,
    per_operator: bool = False,
    clean_first: bool = False,
    on_draw: Callable[[str, int], None] | None = None,
    on_plan: Callable[[int], None] | None = None,
) -> GenerateResult:
    """Draw ``count`` mutants per seed (per seed and operator with
    ``per_operator``) with Hypothesis seed ``seed`` and write them under
    ``out``; then rebuild ``out/MANIFEST.jsonl`` (also when a write fails, so
    the manifest lists exactly the files present)."""
    generators = load_generators()
    table: Mapping[str, Any] = generators.OPERATORS
    version = getattr(generators, "GENERATOR_VERSION", "unknown")
    seeds = [p if isinstance(p, Seed) else Seed.read(Path(p)) for p in seed_paths]
    for source in seeds:
        missing = calls_without_schema(source.fixture)
        if missing:
            raise GenerateError(
                f"seed {source.path.name}: the call(s) {', '.join(map(repr, missing))} have no"
                f" schema in tool_schemas; {NO_SCHEMA_HINT}"
            )
    check = getattr(generators, "applicable", None)
    try:
        draws, skipped = plan(seeds, table, operators, per_operator, check)
    except ValueError as error:  # the generators refuse a seed
        raise GenerateError(f"cannot use the seed: {error}") from None
    if on_plan is not None:
        on_plan(len(draws))
    folder = Path(out)
    if clean_first:
        clean(folder)
    folder.mkdir(parents=True, exist_ok=True)
    result = GenerateResult(skipped_seeds=skipped)
    mine: set[str] = set()
    try:
        for source, names in draws:
            mutants = generators.sample(source.fixture, count=count, seed=seed, operators=names)
            for mutant in mutants:
                relative, case = build_case(mutant, source, seed, version, table)
                result.drawn += 1
                if relative in mine:
                    result.collisions += 1
                mine.add(relative)
                result.files.append(relative)
                data = dump_json(case).encode("ascii")
                target = folder / relative
                if target.is_file() and target.read_bytes() == data:
                    result.unchanged += 1
                else:
                    atomic_write(target, data)
                    result.written += 1
                operator = relative.split("/", 1)[0]
                status = case["expect"]["status"]
                result.by_operator[operator] += 1
                result.by_status[status] += 1
                result.status_by_operator.setdefault(operator, Counter())[status] += 1
                result.codes.update(case["expect"]["codes"])
            if on_draw is not None:
                label = source.path.name + (f" x {','.join(names)}" if names else "")
                on_draw(label, len(mutants))
    finally:
        result.manifest_cases = write_manifest(folder)
    return result


def _modelled_profiles() -> list[str]:
    """The wire formats the generator can mutate (its ``WIRES`` table)."""
    operators = load_generators().OPERATORS.values()
    return sorted({profile for info in operators for profile in info.profiles})
