"""Corpus files: the one JSON writer, atomic writes, case discovery, the manifest.

A *case* is a fixture envelope plus its label ``expect`` and its provenance
``meta`` (see ``docs/corpus.md``).  A *corpus* is a folder of cases, usually
content-addressed as ``<operator>/<hash>.json``, with an index
``MANIFEST.jsonl``.

Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MANIFEST_NAME = "MANIFEST.jsonl"
"""The index file of a corpus folder: one JSON object per line, one line per case."""

CASE_SUFFIX = ".json"
DIGEST_CHARS = 16
"""Hex characters of the SHA-256 kept in a content-addressed file name."""

LABEL_KEYS = ("expect", "meta")
"""Top-level keys that belong to the case, not to the fixture under test."""

_TMP_PREFIX = "."
_TMP_SUFFIX = ".tmp"


def dump_json(obj: Any) -> str:
    """The one serialization of every JSON *file* the corpus workflow writes.

    ASCII-only output keeps unpaired surrogates (which a mutant may carry)
    representable, and makes the bytes independent of the platform's encoding.
    """
    return json.dumps(obj, ensure_ascii=True, indent=2) + "\n"


def dump_line(obj: Any) -> str:
    """One JSON Lines record (``MANIFEST.jsonl``): compact, ASCII, one line."""
    return json.dumps(obj, ensure_ascii=True, separators=(",", ":")) + "\n"


def strip_case(case: Mapping[str, Any]) -> dict[str, Any]:
    """The fixture under test: the case without its ``expect`` and ``meta``
    (when those are objects; a non-object value is part of the fixture, since
    the validator judges it)."""
    return {k: v for k, v in case.items() if not (k in LABEL_KEYS and isinstance(v, Mapping))}


def fixture_digest(fixture: Mapping[str, Any]) -> str:
    """Content address of a fixture: SHA-256 (first 16 hex digits) of its
    compact ASCII JSON, label and provenance excluded.  Key order counts: the
    bytes a parser sees are what is addressed."""
    text = json.dumps(strip_case(fixture), ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:DIGEST_CHARS]


def file_sha256(path: str | os.PathLike[str]) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def _fill(handle: Any, data: bytes) -> None:
    """Write all of ``data`` (a seam for the interruption tests)."""
    handle.write(data)


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` so that ``path`` is never seen half-written:
    write a temporary file beside it, then rename it over ``path``.  On any
    exception (including KeyboardInterrupt) the temporary file is removed and
    ``path`` keeps its old content, if it had one."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        prefix=_TMP_PREFIX + target.name + ".", suffix=_TMP_SUFFIX, dir=target.parent
    )
    try:
        with os.fdopen(fd, "wb") as handle:
            _fill(handle, payload)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


# -- reading -----------------------------------------------------------------


@dataclass(frozen=True)
class CaseRef:
    """A case file to check: ``id`` is its name in reports (``operator/hash``
    for a file under a corpus folder), ``path`` where to read it.  ``missing``
    marks a file that ``MANIFEST.jsonl`` lists but that is not there."""

    id: str
    path: str
    missing: bool = False


@dataclass
class Discovery:
    cases: list[CaseRef] = field(default_factory=list)
    unlisted: list[str] = field(default_factory=list)
    """Case ids present in a corpus folder but not in its manifest."""


def case_files(folder: Path) -> list[Path]:
    """Every ``*.json`` file below ``folder`` (hidden files and folders and
    temporary files excluded), sorted by relative path."""
    found: list[Path] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            if name.startswith(".") or not name.endswith(CASE_SUFFIX):
                continue
            found.append(Path(root) / name)
    return sorted(found, key=lambda p: p.relative_to(folder).as_posix())


def case_id(relative: str) -> str:
    """``op/abc.json`` -> ``op/abc``."""
    return relative[: -len(CASE_SUFFIX)] if relative.endswith(CASE_SUFFIX) else relative


def discover(paths: Iterable[str | os.PathLike[str]]) -> Discovery:
    """Expand folders and files into case references, in a stable order.

    A folder contributes every ``*.json`` below it, named by its path relative
    to the folder (prefixed with the folder when several paths are given);
    when the folder has a ``MANIFEST.jsonl``, every case it lists that is
    absent becomes a ``missing`` reference (reported as a failure, never
    skipped), and cases it does not list are noted in ``unlisted``.  A file
    contributes itself, named by the path as given without ``.json``.
    Raises FileNotFoundError for a path that does not exist.
    """
    given = [Path(p) for p in paths]
    single = len(given) == 1
    out = Discovery()
    seen: set[str] = set()
    for path in given:
        if path.is_dir():
            present = {p.relative_to(path).as_posix(): p for p in case_files(path)}
            manifest = path / MANIFEST_NAME
            listed = set(manifest_cases(manifest)) if manifest.is_file() else set()
            prefix = "" if single else path.as_posix().rstrip("/") + "/"
            for rel in sorted(present.keys() | listed):
                where = str(present[rel]) if rel in present else str(path / rel)
                if where in seen:
                    continue
                seen.add(where)
                ident = prefix + case_id(rel)
                out.cases.append(CaseRef(ident, where, missing=rel not in present))
                if manifest.is_file() and rel not in listed:
                    out.unlisted.append(ident)
        elif path.exists():
            where = str(path)
            if where not in seen:
                seen.add(where)
                out.cases.append(CaseRef(case_id(path.as_posix()), where))
        else:
            raise FileNotFoundError(str(path))
    return out


@dataclass(frozen=True)
class LoadedCase:
    """A case file read for checking.  ``data`` is the raw bytes (what the
    validator judges); ``case`` the parsed object, ``None`` when the file is
    not JSON at all; ``error`` says why the file cannot be used."""

    data: bytes
    case: Any
    error: str | None = None


def load_case(path: str | os.PathLike[str]) -> LoadedCase:
    """Read a case file.  The label is read with the standard library's
    parser (lenient about duplicate keys and lone surrogates, which a mutant
    may legitimately carry); the validator separately judges the raw bytes."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return LoadedCase(b"", None, f"cannot read: {error.strerror or error}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return LoadedCase(data, None, f"not UTF-8 (byte {error.start})")
    try:
        case = json.loads(text)
    except (ValueError, RecursionError) as error:
        return LoadedCase(data, None, f"not JSON: {str(error)[:120]}")
    return LoadedCase(data, case)


# -- the manifest ------------------------------------------------------------


def manifest_cases(manifest: Path) -> list[str]:
    """The relative case paths a manifest lists (unparseable lines ignored:
    the case files are the truth, the manifest only an index)."""
    out: list[str] = []
    with open(manifest, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and isinstance(record.get("case"), str):
                out.append(record["case"])
    return out


def manifest_record(relative: str, case: Any) -> dict[str, Any]:
    """One manifest line for a case: its path, label and short provenance."""
    record: dict[str, Any] = {"case": relative}
    expect = case.get("expect") if isinstance(case, dict) else None
    record["expect"] = expect if isinstance(expect, dict) else None
    meta = case.get("meta") if isinstance(case, dict) else None
    if isinstance(meta, dict):
        for key in ("operators", "seed"):
            if key in meta:
                record[key] = meta[key]
    return record


def write_manifest(folder: str | os.PathLike[str]) -> int:
    """Rebuild ``MANIFEST.jsonl`` from the case files present (so it lists
    exactly them), atomically.  Returns the number of cases listed."""
    root = Path(folder)
    lines = []
    for path in case_files(root):
        loaded = load_case(path)
        lines.append(dump_line(manifest_record(path.relative_to(root).as_posix(), loaded.case)))
    atomic_write(root / MANIFEST_NAME, "".join(lines))
    return len(lines)
