"""A case's stream item by item, as the validator's profile reads it: the
``stream`` member a diff result carries for each disagreeing case when asked
(``toolstream diff --case-details``, ``--html``), which the HTML report shows.

Each raw item of the case's stream is fed, in order, to a fresh instance of
the case's own profile (:data:`toolstream.profiles.PROFILES`), exactly as the
gate feeds it: the normalized events it yields (``open``, ``fragment``,
``end``, ``finish``...) say which slot each fragment belongs to in the
validator's own terms, so nothing here parses a wire format.  A profile that
refuses an item says so (``error``: the finding code); after a fatal one the
gate reads no further, and neither does this.  Verdicts stay the reference's
(:class:`~toolstream.diff.runner.CaseResult`); this is display only.

Long values are clipped (:data:`ITEM_CHARS`, :data:`TEXT_CHARS`, at most
:data:`MAX_ITEMS` items), so a 100 MB argument never reaches a report; the
same case gives the same rows.

Public API::

    stream_rows(fixture) -> list[dict]        # never raises
    case_details(cases, disagreeing) -> dict  # path -> {"stream", "shrunk"}
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Final

from toolstream.diff.cases import Case
from toolstream.envelope import check_envelope
from toolstream.events import Begin, End, Event, Finish, Fragment, Open, Restate, Stop
from toolstream.events import Rejected as RejectedPart
from toolstream.findings import ProtocolError
from toolstream.limits import DEFAULT_LIMITS
from toolstream.profiles import PROFILES

__all__ = ["ITEM_CHARS", "MAX_ITEMS", "TEXT_CHARS", "case_details", "stream_rows"]

ITEM_CHARS: Final = 160
"""Characters kept of an item's compact JSON (the rest is cut, ``...`` marks it)."""
TEXT_CHARS: Final = 200
"""Characters kept of an event's argument text, id or name."""
MAX_ITEMS: Final = 120
"""Items listed per case; a longer stream ends with a row saying how many more."""


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _value(value: str | None) -> str | None:
    return None if value is None else _clip(value, TEXT_CHARS)


def _event(event: Event) -> dict[str, Any]:
    """One normalized event as a JSON object: its kind, its slot
    ``[scope, index]`` when it has one, and what it carries."""
    if isinstance(event, Open):
        return {
            "event": "open",
            "slot": list(event.key),
            "kind": event.kind,
            "id": _value(event.id),
            "name": _value(event.name),
        }
    if isinstance(event, Fragment):
        return {
            "event": "fragment",
            "slot": list(event.key),
            "id": _value(event.id),
            "name": _value(event.name),
            "text": _value(event.text),
        }
    if isinstance(event, Restate):
        return {"event": "restate", "slot": list(event.key), "text": _value(event.text)}
    if isinstance(event, End):
        return {"event": "end", "slot": list(event.key)}
    if isinstance(event, Finish):
        return {"event": "finish", "scope": event.scope, "reason": _value(event.reason)}
    if isinstance(event, Begin):
        return {"event": "begin", "scope": event.scope}
    if isinstance(event, Stop):
        return {"event": "stop", "scope": event.scope}
    if isinstance(event, RejectedPart):
        out: dict[str, Any] = {"event": "rejected", "code": event.error.code.value}
        if event.error.key is not None:
            out["slot"] = list(event.error.key)
        return out
    raise TypeError(f"not a profile event: {type(event).__name__}")  # pragma: no cover


def _item_text(item: Any) -> str:
    try:
        text = json.dumps(item, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    except (TypeError, ValueError):
        text = repr(item)
    return _clip(text, ITEM_CHARS)


def stream_rows(fixture: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per item of ``fixture``'s stream: ``pos``, ``item`` (its
    compact JSON, clipped, without the members the item before carried with
    the same value: their names are ``repeats``; ``decoded``: the event a wrapping format's item
    carries, as the profile decodes it), ``events`` (what the profile made of it) and,
    when the profile refused it, ``error`` (the finding code) and ``fatal``.
    Items after a fatal refusal have ``read: false``.  Never raises: a
    fixture whose envelope is not one gives ``[]``."""
    try:
        envelope = check_envelope(fixture)
    except ProtocolError:
        return []
    known = PROFILES[envelope.profile]
    profile = known(envelope.request, DEFAULT_LIMITS)
    items: Sequence[Any] = envelope.stream
    decoded: dict[int, Any] = {}
    try:
        wrapped = known.wrapped_events(items)
    except Exception:  # best effort: the raw item is shown anyway
        wrapped = None
    for path, event in wrapped[1] if wrapped is not None else ():
        if path and isinstance(path[0], int):
            decoded.setdefault(path[0], event)
    rows: list[dict[str, Any]] = []
    stopped = False
    previous: Any = None
    for pos, item in enumerate(items[:MAX_ITEMS]):
        shown, repeated = _new_members(item, previous)
        previous = item
        row: dict[str, Any] = {"pos": pos, "item": _item_text(shown), "events": []}
        if repeated:
            row["repeats"] = repeated
        if pos in decoded:  # InvokeModel's base64 carrier: the event it carries
            row["decoded"] = _item_text(decoded[pos])
        rows.append(row)
        if stopped:
            row["read"] = False
            continue
        events: list[dict[str, Any]] = row["events"]
        try:
            for event in profile.feed(item, pos):  # what it yielded before refusing counts
                events.append(_event(event))
        except ProtocolError as error:
            row["error"] = error.code.value
            if error.fatal:
                row["fatal"] = True
                stopped = True
        except Exception as error:  # a profile bug must not cost the report
            row["error"] = f"{type(error).__name__}"
            stopped = True
    if len(items) > MAX_ITEMS:
        rows.append({"pos": MAX_ITEMS, "more": len(items) - MAX_ITEMS})
    return rows


def _new_members(item: Any, previous: Any) -> tuple[Any, list[str]]:
    """``item`` without the top-level members the item before carried with
    the same value (a chunk's ``id``, ``model``, ``created``...: the same in
    every item, they would fill every clipped row), and their names."""
    if not isinstance(item, dict) or not isinstance(previous, dict):
        return item, []
    repeated = [k for k, v in item.items() if k in previous and previous[k] == v]
    if not repeated or len(repeated) == len(item):
        return item, []
    return {k: v for k, v in item.items() if k not in repeated}, repeated


def case_details(cases: Iterable[Case], disagreeing: Collection[str]) -> dict[str, dict[str, Any]]:
    """Case path -> its ``stream`` rows (and ``shrunk``, the case's
    ``meta.shrunk`` when it is a shrunk case) for the cases whose path is in
    ``disagreeing``."""
    out: dict[str, dict[str, Any]] = {}
    for case in cases:
        if case.path not in disagreeing or case.path in out:
            continue
        details: dict[str, Any] = {"stream": stream_rows(case.fixture)}
        shrunk = _shrunk(case)
        if shrunk is not None:
            details["shrunk"] = shrunk
        out[case.path] = details
    return out


def _shrunk(case: Case) -> dict[str, Any] | None:
    if case.data is None:
        return None
    try:
        meta = json.loads(case.data).get("meta")
    except (ValueError, UnicodeDecodeError, AttributeError):
        return None
    shrunk = meta.get("shrunk") if isinstance(meta, dict) else None
    if not isinstance(shrunk, dict):
        return None
    return {k: shrunk[k] for k in ("from", "predicate") if isinstance(shrunk.get(k), str)}
