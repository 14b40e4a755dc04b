"""The project's own seeds, shipped inside the package.

``corpus/seeds/*.json`` are valid turns, one or more per profile, that the
generator mutates.  They ship as package data (``toolstream/seed_files``,
a link to ``corpus/seeds`` in the repository, real files in the wheel), so
that ``toolstream seeds`` and ``toolstream generate <name>`` work after a
plain ``pip install``, outside the repository.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from toolstream.caseio import atomic_write

PACKAGE_FOLDER = "seed_files"


@dataclass(frozen=True)
class BundledSeed:
    name: str
    """The file name without ``.json`` (how ``generate`` accepts it)."""
    path: Path
    fixture: dict[str, Any]

    @property
    def profile(self) -> str:
        return str(self.fixture.get("profile"))


def seed_folder() -> Path:
    """Where the bundled seeds are (a folder inside the installed package)."""
    return Path(str(resources.files("toolstream").joinpath(PACKAGE_FOLDER)))


def bundled_seeds() -> list[BundledSeed]:
    """Every bundled seed, by name."""
    folder = seed_folder()
    if not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.glob("*.json")):
        fixture = json.loads(path.read_bytes())
        out.append(BundledSeed(path.name[: -len(".json")], path, fixture))
    return out


def find_seed(name: str) -> BundledSeed | None:
    """The bundled seed called ``name`` (with or without ``.json``)."""
    wanted = name[: -len(".json")] if name.endswith(".json") else name
    return next((s for s in bundled_seeds() if s.name == wanted), None)


def copy_seeds(target: Path) -> list[Path]:
    """Copy every bundled seed into ``target`` (created if needed); atomic
    writes, identical files left alone.  A file of the same name with other
    content is not overwritten: :class:`FileExistsError` names it."""
    seeds = bundled_seeds()
    clashes = [
        target / s.path.name
        for s in seeds
        if (target / s.path.name).exists()
        and (target / s.path.name).read_bytes() != s.path.read_bytes()
    ]
    if clashes:
        raise FileExistsError(f"{clashes[0]} exists with other content; not overwritten")
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for seed in seeds:
        path = target / seed.path.name
        if not path.exists():
            atomic_write(path, seed.path.read_bytes())
        written.append(path)
    return written
