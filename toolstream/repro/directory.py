"""``toolstream diff --repro-dir DIR``: a reproducer for every disagreement
of a run, written from the run's own judgement (no second diff run).

One script per (case, client column): ``DIR/<client>[@<transport>]/<operator>/<case
file stem><.py|.mjs>``.  The names depend only on the run's result, so the
same run writes the same files; each is written atomically.  A case whose
name another case already took (the same operator and stem in two corpora)
gets the first 8 hex digits of its path's SHA-256 appended.  Nothing else in
DIR is touched.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolstream.repro.build import REPRODUCERS
from toolstream.repro.payload import ReproError, judgement_of, payload

__all__ = ["ReproDirectory", "script_name", "write_reproducers"]

_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9._@-]")


@dataclass
class ReproDirectory:
    """What :func:`write_reproducers` did: the scripts ``written`` (paths,
    in order), the disagreements left without one per column
    (``no_template``: a client without a reproducer template, or an
    in-process adapter), and the ones that could not be written
    (``failed``: case path and column -> why, one line); ``scripts`` says
    which script is whose."""

    written: list[str] = field(default_factory=list)
    scripts: dict[tuple[str, str], str] = field(default_factory=dict)
    """(case path, column) -> the script written for it (what the HTML
    report links)."""
    no_template: dict[str, int] = field(default_factory=dict)
    failed: dict[tuple[str, str], str] = field(default_factory=dict)


def script_name(column: str, case: Mapping[str, Any], suffix: str) -> Path:
    """The relative path of the reproducer of ``case`` for ``column``."""
    stem = Path(str(case.get("path"))).stem or "case"
    operator = str(case.get("operator") or "case")
    parts = (column, operator, stem + suffix)
    return Path(*(_UNSAFE_IN_NAME.sub("_", part) for part in parts))


def write_reproducers(
    data: Mapping[str, Any],
    directory: str | Path,
    *,
    on_written: Callable[[str], None] | None = None,
) -> ReproDirectory:
    """Write a reproducer for every disagreement in ``data`` (a diff run's
    JSON object: ``DiffResult.to_dict()``) under ``directory``."""
    from toolstream.adapters.spec import parse_spec
    from toolstream.caseio import atomic_write, load_case
    from toolstream.diff.classify import DISAGREEMENTS

    out = ReproDirectory()
    adapters = {a["name"]: a for a in data.get("adapters") or () if a.get("skipped") is None}
    taken: set[Path] = set()
    for case in sorted(data.get("cases") or (), key=lambda c: str(c.get("path"))):
        path = str(case.get("path"))
        for column, result in sorted((case.get("results") or {}).items()):
            if result.get("classification") not in DISAGREEMENTS or column not in adapters:
                continue
            spec = parse_spec(str(adapters[column]["spec"]))
            reproducer = REPRODUCERS.get(spec.name) if spec.kind == "client" else None
            if reproducer is None:
                out.no_template[column] = out.no_template.get(column, 0) + 1
                continue
            name = script_name(column, case, reproducer.suffix)
            if name in taken:
                digest = hashlib.sha256(path.encode("utf-8")).hexdigest()[:8]
                name = name.with_name(f"{name.stem}-{digest}{name.suffix}")
            taken.add(name)
            loaded = load_case(path)
            if not isinstance(loaded.case, dict) or not Path(path).is_file():
                out.failed[(path, column)] = loaded.error or "not a case file"
                continue
            try:
                judged = judgement_of(adapters[column], case)
                text = reproducer.render(
                    payload(loaded.case, path, spec.name, spec.transport, judged)
                )
            except ReproError as error:
                out.failed[(path, column)] = str(error)
                continue
            target = Path(directory) / name
            atomic_write(target, text)
            out.written.append(target.as_posix())
            out.scripts[(path, column)] = target.as_posix()
            if on_written is not None:
                on_written(target.as_posix())
    return out
