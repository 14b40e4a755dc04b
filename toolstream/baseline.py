"""Baselines: the disagreements a project already knows about.

A project that adopts the kit has known disagreements on day one.  A baseline
file records them, so that a run fails only on new ones and says when a known
one is fixed.  Pure functions, no CLI: ``toolstream diff --baseline`` and the
pytest plugin read the same file.

An entry is keyed by the case id (its path as the diff run names it, with
``/`` separators), the client (or adapter) name, the transport (``plain`` for
a name without ``@TRANSPORT``), the classification and the signature (how it
disagrees: the classification, plus the exception type of a crash, the
hand-over of an unsafe accept, or the differing fields of wrong calls, as
:attr:`toolstream.diff.classify.Outcome.signature`).

Format 2 signatures say what an unsafe accept handed over
(``unsafe_accept:glued_ids+merged``) and which calls wrong calls merged or
lost (``wrong_calls:count:lost_call``).  A format 1 file (signatures
without the hand-over) is still read: each of its entries matches any
current signature that reduces to it (``unsafe_accept:as_sent`` to
``unsafe_accept``), so adopting the new format never turns known
disagreements into new ones; ``--write-baseline`` rewrites it as format 2.

The file is diff-friendly: a first line naming the format, then one JSON
object per line, sorted, with sorted keys, no timestamps.  Writing the same
entries twice gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

__all__ = [
    "FORMAT",
    "LEGACY_FORMAT",
    "BaselineEntry",
    "BaselineError",
    "compare",
    "entries_from_diff",
    "judged_from_diff",
    "legacy_signature",
    "read_baseline",
    "recorded_for",
    "signature_of",
    "write_baseline",
]

FORMAT: Final = "toolstream-baseline/2"
"""The first line of a baseline file (as a JSON object ``{"format": ...}``)."""

LEGACY_FORMAT: Final = "toolstream-baseline/1"
"""The format before signatures held the hand-over; still read."""

_DISAGREEMENTS: Final = ("unsafe_accept", "wrong_calls", "false_reject", "adapter_crash")
_FIELDS: Final = ("case", "client", "transport", "classification", "signature")
_STRUCTURAL: Final = frozenset({"merged", "glued_ids", "split", "lost_call", "extra_call"})
"""The hand-over parts a wrong-calls signature keeps (toolstream.diff.handover.STRUCTURAL,
repeated: this module imports nothing above the core; a test holds them equal)."""


class BaselineError(ValueError):
    """A baseline file that cannot be read; the message is one line."""


@dataclass(frozen=True, order=True)
class BaselineEntry:
    """One known disagreement.  Ordered by its fields, in the order declared."""

    case: str
    client: str
    transport: str
    classification: str
    signature: str
    legacy: bool = field(default=False, compare=False)
    """Read from a :data:`LEGACY_FORMAT` file: its signature has no hand-over."""

    def matches(self, signature: str | None) -> bool:
        """Whether a current ``signature`` is the one this entry records (for
        a legacy entry: reduces to it, :func:`legacy_signature`)."""
        if signature is None:
            return False
        return (legacy_signature(signature) if self.legacy else signature) == self.signature

    @property
    def where(self) -> tuple[str, str, str]:
        """(case, client, transport): which run of which case this is."""
        return (self.case, self.client, self.transport)

    def to_dict(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in _FIELDS}

    def describe(self) -> str:
        transport = "" if self.transport == "plain" else f"@{self.transport}"
        return f"{self.case} {self.client}{transport}: {self.signature}"


def _split_name(name: str) -> tuple[str, str]:
    client, sep, transport = name.partition("@")
    return client, (transport if sep else "plain")


def _case_id(path: str) -> str:
    return path.replace("\\", "/")


def legacy_signature(signature: str) -> str:
    """``signature`` as a :data:`LEGACY_FORMAT` baseline wrote it: an unsafe
    accept without its hand-over, wrong calls without their structural parts."""
    head, _, rest = signature.partition(":")
    if head == "unsafe_accept":
        return head
    if head == "wrong_calls":
        return f"{head}:{rest.split(':', 1)[0]}"
    return signature


def signature_of(result: Mapping[str, Any]) -> str | None:
    """The signature of one adapter's result as the diff JSON gives it
    (``cases[].results[NAME]``), or ``None`` when it does not disagree.
    The same string as ``Outcome.signature`` for the same outcome."""
    classification = result.get("classification")
    if classification not in _DISAGREEMENTS:
        return None
    if classification == "adapter_crash":
        error = str(result.get("error") or "")
        error_type = error.split(":", 1)[0].strip() if error else "None"
        return f"adapter_crash:{error_type}"
    handover = result.get("handover")
    handover = handover if isinstance(handover, str) and handover else None
    if classification == "unsafe_accept" and handover is not None:
        return f"unsafe_accept:{handover}"
    if classification == "wrong_calls":
        parts = sorted(
            {
                (
                    str(d.get("field"))
                    if d.get("field") != "arguments"
                    else f"arguments-{d.get('kind')}"
                )
                for d in result.get("differences") or ()
                if isinstance(d, Mapping)
            }
        )
        structural = sorted(set((handover or "").split("+")) & _STRUCTURAL)
        tail = f":{'+'.join(structural)}" if structural else ""
        return f"wrong_calls:{','.join(parts)}{tail}"
    return str(classification)


def entries_from_diff(data: Mapping[str, Any]) -> list[BaselineEntry]:
    """The disagreements of a diff run (its JSON object: ``toolstream diff
    --format json``, or ``DiffResult.to_dict()``), sorted."""
    out: set[BaselineEntry] = set()
    for case in data.get("cases") or ():
        path = _case_id(str(case.get("path")))
        for name, result in sorted((case.get("results") or {}).items()):
            signature = signature_of(result)
            if signature is None:
                continue
            client, transport = _split_name(name)
            out.add(
                BaselineEntry(path, client, transport, str(result["classification"]), signature)
            )
    return sorted(out)


def judged_from_diff(data: Mapping[str, Any]) -> set[tuple[str, str, str]]:
    """(case, client, transport) of every run the diff actually judged (not
    ``not_run``): a baseline entry outside this set was not tried, so it is
    neither known nor fixed."""
    out: set[tuple[str, str, str]] = set()
    for case in data.get("cases") or ():
        path = _case_id(str(case.get("path")))
        for name, result in (case.get("results") or {}).items():
            if result.get("classification") == "not_run":
                continue
            client, transport = _split_name(name)
            out.add((path, client, transport))
    return out


def write_baseline(path: str | Path, entries: Iterable[BaselineEntry]) -> None:
    """Write ``entries`` (deduplicated, sorted) to ``path``."""
    lines = [json.dumps({"format": FORMAT}, sort_keys=True)]
    lines.extend(
        json.dumps(e.to_dict(), sort_keys=True, ensure_ascii=True) for e in sorted(set(entries))
    )
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")


def read_baseline(path: str | Path) -> list[BaselineEntry]:
    """The entries of a baseline file, sorted.  Raises :class:`BaselineError`
    (one line: the file and what is wrong) for a missing or malformed file."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BaselineError(f"{where}: cannot read the baseline: {exc.strerror}") from None
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise BaselineError(f"{where}: empty file, not a {FORMAT} baseline")
    try:
        header = json.loads(lines[0])
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") not in (FORMAT, LEGACY_FORMAT):
        raise BaselineError(
            f'{where}: line 1 is not {{"format": "{FORMAT}"}} (or the older {LEGACY_FORMAT})'
        )
    legacy = header.get("format") == LEGACY_FORMAT
    out: set[BaselineEntry] = set()
    for number, line in enumerate(lines[1:], start=2):
        try:
            item = json.loads(line)
        except ValueError:
            raise BaselineError(f"{where}: line {number} is not JSON") from None
        if (
            not isinstance(item, dict)
            or sorted(item) != sorted(_FIELDS)
            or not all(isinstance(item[k], str) for k in _FIELDS)
        ):
            raise BaselineError(
                f"{where}: line {number} must be an object of strings {', '.join(_FIELDS)}"
            )
        out.add(BaselineEntry(**{k: item[k] for k in _FIELDS}, legacy=legacy))
    return sorted(out)


def compare(
    current: Iterable[BaselineEntry],
    baseline: Iterable[BaselineEntry],
    *,
    judged: set[tuple[str, str, str]] | None = None,
) -> tuple[list[BaselineEntry], list[BaselineEntry], list[BaselineEntry]]:
    """``(new, known, fixed)``, each sorted.

    ``new``: current disagreements the baseline does not record (with the
    same classification and signature: a known case that now disagrees in
    another way is new).  ``known``: current disagreements it records.
    ``fixed``: recorded entries whose (case, client, transport) no longer
    disagrees at all: "remove it from the baseline".  With ``judged`` (the
    runs the current diff tried, :func:`judged_from_diff`), a recorded entry
    whose run was not tried is not fixed: it was not looked at."""
    recorded = set(baseline)
    legacy = {e for e in recorded if e.legacy}
    now = set(current)
    disagreeing = {e.where for e in now}

    def is_known(entry: BaselineEntry) -> bool:
        return entry in recorded or any(
            old.where == entry.where
            and old.classification == entry.classification
            and old.matches(entry.signature)
            for old in legacy
        )

    new = sorted(e for e in now if not is_known(e))
    known = sorted(e for e in now if is_known(e))
    fixed = sorted(
        e for e in recorded if e.where not in disagreeing and (judged is None or e.where in judged)
    )
    return new, known, fixed


def recorded_for(
    entries: Iterable[BaselineEntry], case: str, client: str, transport: str = "plain"
) -> list[BaselineEntry]:
    """The entries of one run of one case: its (case, client, transport),
    the case matched by its id as recorded, or by a recorded path ending in
    ``/`` + ``case`` (a corpus-relative id against a path a diff run was
    given, e.g. the pytest plugin's ``truncate/x`` against
    ``corpus/cases/truncate/x.json``; a ``.json`` suffix is ignored)."""
    wanted = _case_id(case).removesuffix(".json")

    def same(recorded: str) -> bool:
        have = recorded.removesuffix(".json")
        return have == wanted or have.endswith("/" + wanted) or wanted.endswith("/" + have)

    return [e for e in entries if e.client == client and e.transport == transport and same(e.case)]
