"""Which profile a capture belongs to, read from its content.

Each profile recognises its own stream items
(:meth:`~toolstream.profiles.Profile.recognises`, and
:meth:`~toolstream.profiles.Profile.recognises_event_name` for event names:
an SSE ``event:`` field, an AWS event-stream frame's ``:event-type``, a
decoded frame ``{"headers": {":event-type": ...}, "payload": ...}``).  This
module asks every profile about every event; it knows no format itself,
except for what several share:

* neutral items - ``{"type": "error"}`` and ``{"error": ...}``, which several
  APIs send; they go with whichever format the other items are;
* AWS exceptions - an event named ``...Exception`` (or a frame without an
  event type) says nothing about which of the two Bedrock APIs it came
  from: it goes with the other event-stream events, and alone with the
  first profile whose events are named (ConverseStream), as does a frame
  of an event type no profile names.

The profiles that recognise an event form its *family*; usually one profile,
but ``openai`` and ``mistral`` read the same chunks.  Exactly one family
must appear, or the capture is refused (mixed families, none at all, or an
event that profiles reading different items both recognise): pass
``--profile``.  Within a family of several profiles the first one
chooses (:meth:`~toolstream.profiles.Profile.choose`: for chat chunks, the
Mistral markers, else ``openai``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolstream.capture import Record
from toolstream.profiles import PROFILES

Family = tuple[str, ...]
"""The profiles that recognise an event, in :data:`PROFILES` order."""

_NEUTRAL: Family = ()
_EXCEPTION: Family = ("...Exception",)


class DetectionError(ValueError):
    """The profile cannot be told from the content."""


@dataclass(frozen=True)
class Detection:
    profile: str
    reason: str


def is_exception_name(name: str) -> bool:
    """An AWS event-stream exception (``...Exception``)."""
    return name.endswith("Exception")


def is_event_name(name: str) -> bool:
    """Whether ``name`` names an event of a profile whose stream items are
    named events (``Profile.named_events``), an exception among them."""
    return is_exception_name(name) or any(
        p.named_events and p.recognises_event_name(name) for p in PROFILES.values()
    )


def _framed_default() -> Family:
    """The first profile whose items are named events (ConverseStream): an
    event-stream frame of no known type, or an exception alone, goes there."""
    return tuple(p for p, cls in PROFILES.items() if cls.named_events)[:1]


def is_decoded_frame(payload: Any) -> bool:
    """``{"headers": {...}, "payload": ...}``: one frame as decoded to JSON."""
    return (
        isinstance(payload, dict)
        and set(payload) == {"headers", "payload"}
        and isinstance(payload["headers"], dict)
    )


def alike(first: str, second: str) -> bool:
    """Whether two profiles read the same items (one recogniser, inherited):
    detection cannot tell them apart by shape alone."""
    a, b = PROFILES.get(first), PROFILES.get(second)
    if a is None or b is None:
        return first == second
    return a.recognises.__func__ is b.recognises.__func__  # type: ignore[attr-defined]


def _framed(name: str) -> Family:
    """The family of an event-stream frame (or an SSE event) named ``name``."""
    if is_exception_name(name) or not name:
        return _EXCEPTION  # an exception or error frame: either Bedrock API
    family = tuple(p for p, cls in PROFILES.items() if cls.recognises_event_name(name))
    return family or _framed_default()


def family_of(record: Record, capture_format: str) -> Family | None:
    """The profiles that recognise an event; ``()`` for a neutral item,
    None when none does."""
    if capture_format == "aws-eventstream":
        return _framed(_frame_type(record.headers or {}))
    payload = record.payload
    if record.event is not None and is_event_name(record.event):
        return _framed(record.event)
    if not isinstance(payload, dict):
        return None
    if is_decoded_frame(payload):
        return _framed(_frame_type(payload["headers"]))
    if payload.get("type") == "error" or list(payload) == ["error"]:
        return _NEUTRAL
    if len(payload) == 1:
        (key,) = payload
        if isinstance(key, str) and key.endswith("Exception"):
            return _EXCEPTION
    family = tuple(p for p, cls in PROFILES.items() if cls.recognises(payload))
    return family or None


def _frame_type(headers: Mapping[str, Any]) -> str:
    name = headers.get(":event-type") or headers.get(":exception-type") or ""
    return str(name)


def detect_profile(
    records: Sequence[Record], capture_format: str, request: Mapping[str, Any] | None
) -> Detection:
    """The profile of a capture, with the reason (see the module docstring)."""
    first: dict[Family, Record] = {}
    exception: Record | None = None
    for record in records:
        if record.kind != "json" and capture_format != "aws-eventstream":
            continue
        family = family_of(record, capture_format)
        if family == _EXCEPTION:
            exception = exception or record
            continue
        if family and family not in first:
            first[family] = record
    if exception is not None:
        framed = [f for f in first if all(PROFILES[p].named_events for p in f)]
        if not framed:
            first[_framed_default()] = exception
    if not first:
        raise DetectionError(
            "cannot tell the profile: no event has the shape of a known provider stream;"
            " pass --profile"
        )
    if len(first) > 1:
        seen = ", ".join(
            f"{'/'.join(family)} (first at {rec.location})" for family, rec in sorted(first.items())
        )
        raise DetectionError(f"the capture mixes event families: {seen}; pass --profile")
    ((family, record),) = first.items()
    if not all(alike(family[0], other) for other in family[1:]):
        raise DetectionError(
            f"the event at {record.location} has the shape of several formats"
            f" ({', '.join(family)}); pass --profile"
        )
    if len(family) > 1:
        items = [(r.payload, r.location) for r in records]
        profile, reason = PROFILES[family[0]].choose(items, request)
        return Detection(profile=profile, reason=reason)
    (profile,) = family
    reason = f"{PROFILES[profile].stream_description}, first at {record.location}"
    if capture_format == "json-array":
        reason += " (the items of a JSON-array body)"
    return Detection(profile=profile, reason=reason)
