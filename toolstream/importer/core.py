"""``toolstream import``: a raw capture in, one fixture per assistant turn out.

The pipeline (standard library only; the command line lives in
``toolstream/cli/import_cmd.py``):

1. :func:`toolstream.capture.read_capture` decodes the bytes (SSE, JSON
   Lines, a JSON array, AWS event-stream); any line or frame it cannot read
   is an :class:`ImportFailure` naming it;
2. the profile is the one given, or detected from the content
   (:mod:`toolstream.importer.detect`);
3. records become stream items: payloads as recorded, except that Bedrock
   events are written in the ``{"<eventType>": payload}`` form the profile
   reads (event-stream frames and decoded ``{"headers", "payload"}`` lines are
   unwrapped into it); ``[DONE]`` markers and payload-less SSE blocks are not
   events, they are counted in ``meta``;
4. the items are split into turns (:func:`split_turns`): a capture holding
   several responses becomes several fixtures, never one merged turn;
5. each fixture is built (``profile``, ``tool_schemas``, ``request``,
   ``meta``, the stream) and passed through the redaction gate
   (:mod:`toolstream.importer.redaction`).

:func:`import_capture` returns the fixtures and what was found; writing them
(:func:`write_fixture`) is the caller's choice.  Output is deterministic:
the same capture and options give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolstream.capture import Capture, CaptureError, Record, read_capture
from toolstream.corpus.caseio import atomic_write
from toolstream.importer.detect import (
    Detection,
    DetectionError,
    detect_profile,
    is_bedrock_event_name,
    is_decoded_frame,
)
from toolstream.importer.redaction import Secret, redact_fixture
from toolstream.profiles import PROFILES

KEY_ORDER = ("profile", "tool_schemas", "request", "meta")


class ImportFailure(Exception):
    """The capture cannot be imported.

    ``usage`` is true when the fix is on the command line (an unknown
    profile, a profile that cannot be detected); false when the capture
    itself is unreadable.
    """

    def __init__(self, message: str, *, usage: bool = False) -> None:
        super().__init__(message)
        self.usage = usage


@dataclass
class ImportedTurn:
    """One fixture to write, and the secrets found in it."""

    number: int
    fixture: dict[str, Any]
    secrets: list[Secret]
    events: int


@dataclass
class ImportResult:
    format: str
    profile: str
    detection: str | None
    """Why the profile was chosen, when it was detected (None: given)."""
    turns: list[ImportedTurn]
    warnings: list[str] = field(default_factory=list)
    done_markers: int = 0

    @property
    def secrets(self) -> list[tuple[int, Secret]]:
        return [(t.number, s) for t in self.turns for s in t.secrets]


@dataclass
class _Turn:
    items: list[Any] = field(default_factory=list)
    locations: list[str] = field(default_factory=list)
    done_markers: int = 0
    empty: list[str] = field(default_factory=list)
    chat_id: str | None = None
    after_done: bool = False


def import_capture(
    data: bytes,
    *,
    source_name: str,
    profile: str | None = None,
    tool_schemas: Mapping[str, Any] | None = None,
    schemas_meta: Mapping[str, Any] | None = None,
    request: Mapping[str, Any] | None = None,
    redact: bool = False,
    version: str = "",
) -> ImportResult:
    """Read a capture and build its fixtures (see the module docstring).

    ``tool_schemas`` None writes ``{}`` and adds a warning.  With ``redact``
    the fixtures have every credential replaced (recorded in
    ``meta.redactions``); without it they are returned unchanged and
    :attr:`ImportedTurn.secrets` says what must not be written.
    """
    if profile is not None and profile not in PROFILES:
        raise ImportFailure(
            f"unknown profile {profile!r}; known: {', '.join(sorted(PROFILES))}", usage=True
        )
    try:
        capture = read_capture(data)
    except CaptureError as error:
        raise ImportFailure(f"cannot read the capture: {error}") from None
    if not capture.json_records and capture.format != "aws-eventstream":
        raise ImportFailure("the capture holds no event (only markers or empty blocks)")
    content_warnings = [*capture.warnings, *_event_name_mismatches(capture)]
    warnings = list(content_warnings)
    detection: Detection | None = None
    if profile is None:
        try:
            detection = detect_profile(capture.records, capture.format, request)
        except DetectionError as error:
            raise ImportFailure(str(error), usage=True) from None
        chosen = detection.profile
    else:
        chosen = profile
        warnings.extend(_profile_disagreement(capture, chosen, request))
    turns = split_turns(capture, chosen)
    if tool_schemas is None:
        warnings.append(
            "no --schemas: tool_schemas is {}, so every call will be unknown_tool"
            " (pass the tools the request sent)"
        )
    sha = hashlib.sha256(data).hexdigest()
    built: list[ImportedTurn] = []
    stream_key = PROFILES[chosen].stream_key
    for number, turn in enumerate(turns, start=1):
        meta: dict[str, Any] = {
            "source": source_name,
            "source_sha256": sha,
            "format": capture.format,
            "profile": chosen,
            "profile_chosen_by": "--profile" if detection is None else "detection",
        }
        if detection is not None:
            meta["profile_reason"] = detection.reason
        meta["turn"] = number
        meta["turns"] = len(turns)
        meta["records"] = f"{turn.locations[0]} to {turn.locations[-1]}"
        meta["done_markers"] = turn.done_markers
        if turn.empty:
            meta["empty_blocks"] = list(turn.empty)
        if content_warnings:
            meta["capture_warnings"] = list(content_warnings)
        if schemas_meta is not None:
            meta["tool_schemas_from"] = dict(schemas_meta)
        meta["toolstream_version"] = version
        fixture: dict[str, Any] = {
            "profile": chosen,
            "tool_schemas": dict(tool_schemas) if tool_schemas is not None else {},
        }
        if request is not None:
            fixture["request"] = dict(request)
        fixture["meta"] = meta
        fixture[stream_key] = turn.items
        if redact:
            cleaned, secrets = redact_fixture(fixture, chosen, stream_key)
            if secrets:
                cleaned["meta"]["redactions"] = [s.to_meta() for s in secrets]
                left = redact_fixture(cleaned, chosen, stream_key)[1]
                if left:  # pragma: no cover - redaction is idempotent
                    raise ImportFailure(f"turn {number}: redaction left {left[0].describe()}")
            fixture = cleaned
            secrets = []
        else:
            secrets = redact_fixture(fixture, chosen, stream_key)[1]
        built.append(ImportedTurn(number, fixture, secrets, len(turn.items)))
    return ImportResult(
        format=capture.format,
        profile=chosen,
        detection=None if detection is None else detection.reason,
        turns=built,
        warnings=warnings,
        done_markers=capture.done_markers,
    )


def _event_name_mismatches(capture: Capture) -> list[str]:
    """SSE events whose ``event:`` name is not their payload's ``type``."""
    out: list[str] = []
    for record in capture.records:
        payload = record.payload
        if record.kind != "json" or record.event is None or not isinstance(payload, dict):
            continue
        kind = payload.get("type")
        if isinstance(kind, str) and kind != record.event:
            out.append(
                f"{record.location}: SSE event name {record.event[:40]!r} but payload type"
                f" {kind[:40]!r} (the payload is imported as recorded)"
            )
    return out


def _profile_disagreement(
    capture: Capture, profile: str, request: Mapping[str, Any] | None
) -> list[str]:
    try:
        seen = detect_profile(capture.records, capture.format, request)
    except DetectionError:
        return []
    same = {seen.profile, profile} <= {"openai", "mistral"} or seen.profile == profile
    if same:
        return []
    return [f"--profile {profile}, but the content looks like {seen.profile} ({seen.reason})"]


# -- records -> stream items -> turns --------------------------------------------


def stream_item(record: Record, capture_format: str, profile: str) -> Any:
    """The fixture's stream element for one event record."""
    if profile not in ("bedrock", "bedrock-invoke"):
        return record.payload
    if capture_format == "aws-eventstream":
        return {_frame_event_name(record.headers or {}, record.location): _frame_payload(record)}
    payload = record.payload
    if is_decoded_frame(payload):
        headers = {str(k): str(v) for k, v in payload["headers"].items()}
        body = payload["payload"]
        return {_frame_event_name(headers, record.location): {} if body is None else body}
    if record.event is not None and (
        is_bedrock_event_name(record.event) or record.event == "chunk"
    ):
        if not (isinstance(payload, dict) and list(payload) == [record.event]):
            return {record.event: payload}
    return payload


def _frame_event_name(headers: Mapping[str, str], location: str) -> str:
    message_type = headers.get(":message-type", "event")
    header = {"exception": ":exception-type", "error": ":error-code"}.get(
        message_type, ":event-type"
    )
    name = headers.get(header)
    if not name:
        raise ImportFailure(f"{location}: a {message_type} frame without a {header} header")
    return name


def _frame_payload(record: Record) -> Any:
    if record.kind == "json":
        return record.payload
    headers = record.headers or {}
    message = headers.get(":error-message")
    return {} if message is None else {"message": message}


def split_turns(capture: Capture, profile: str) -> list[_Turn]:
    """Group the records into assistant turns.

    A turn starts at ``message_start`` (anthropic), ``response.created``
    (openai-responses), ``messageStart`` (bedrock) when the current turn
    already holds events; for chat chunks (openai, mistral), at the first
    chunk after a ``[DONE]`` marker or at a chunk whose non-empty ``id``
    differs from the turn's.  Markers and empty blocks stay with the turn
    before them.
    """
    turns: list[_Turn] = [_Turn()]
    for record in capture.records:
        turn = turns[-1]
        if record.kind == "done":
            turn.done_markers += 1
            turn.locations.append(record.location)
            turn.after_done = True
            continue
        if record.kind == "empty" and capture.format != "aws-eventstream":
            turn.empty.append(record.location)
            turn.locations.append(record.location)
            continue
        item = stream_item(record, capture.format, profile)
        if turn.items and _starts_turn(profile, item, turn):
            turn = _Turn()
            turns.append(turn)
        if profile in ("openai", "mistral", "gemini"):
            id_key = "responseId" if profile == "gemini" else "id"
            chunk_id = item.get(id_key) if isinstance(item, dict) else None
            if isinstance(chunk_id, str) and chunk_id and turn.chat_id is None:
                turn.chat_id = chunk_id
        turn.items.append(item)
        turn.locations.append(record.location)
    return [t for t in turns if t.items] or turns[:1]


def _starts_turn(profile: str, item: Any, turn: _Turn) -> bool:
    if not isinstance(item, dict):
        return False
    if profile == "anthropic":
        return item.get("type") == "message_start"
    if profile == "openai-responses":
        return item.get("type") == "response.created"
    if profile == "bedrock":
        return list(item) == ["messageStart"]
    # issue 14
    if profile == "cohere":
        return item.get("type") == "message-start"
    if profile == "gemini-interactions":
        return item.get("event_type") == "interaction.created"
    if profile == "gemini":
        response_id = item.get("responseId")
        return (
            isinstance(response_id, str)
            and response_id != ""
            and turn.chat_id is not None
            and response_id != turn.chat_id
        )
    if profile == "bedrock-invoke":
        return False  # the turn boundary is inside the wrapped payloads
    if turn.after_done:
        return True
    chunk_id = item.get("id")
    return (
        isinstance(chunk_id, str)
        and chunk_id != ""
        and turn.chat_id is not None
        and chunk_id != turn.chat_id
    )


# -- writing --------------------------------------------------------------------


def ordered(fixture: Mapping[str, Any]) -> dict[str, Any]:
    """The fixture's keys in the documented order (the stream last)."""
    out = {k: fixture[k] for k in KEY_ORDER if k in fixture}
    out.update((k, v) for k, v in fixture.items() if k not in out)
    return out


def dump_fixture(fixture: Mapping[str, Any]) -> str:
    """The one serialization of an imported fixture."""
    return json.dumps(ordered(fixture), ensure_ascii=True, indent=2) + "\n"


def write_fixture(path: str | os.PathLike[str], text: str) -> None:
    """Write atomically (:func:`toolstream.corpus.caseio.atomic_write`)."""
    atomic_write(path, text.encode("ascii"))


_STEM_SUFFIXES = (".bin", ".eventstream", ".sse", ".jsonl", ".ndjson", ".json", ".txt", ".chunks")


def capture_stem(name: str) -> str:
    """``x.eventstream.bin`` -> ``x``: the capture's name without format suffixes."""
    stem = Path(name).name
    changed = True
    while changed:
        changed = False
        for suffix in _STEM_SUFFIXES:
            if stem.endswith(suffix) and len(stem) > len(suffix):
                stem = stem[: -len(suffix)]
                changed = True
    return stem or "capture"


def output_paths(output: str, stem: str, turns: int) -> list[Path]:
    """Where each turn's fixture goes (see ``docs/import.md``).

    ``-o`` names a file for a one-turn capture; a folder (an existing one, a
    path ending in ``/``, or, for a several-turn capture, any path not ending
    in ``.json``) receives ``<stem>.json`` or ``<stem>.turn<N>.json``.
    """
    target = Path(output)
    as_dir = target.is_dir() or output.endswith(("/", os.sep))
    if not as_dir and turns > 1:
        if output.endswith(".json") or target.exists():
            raise ImportFailure(
                f"the capture holds {turns} assistant turns: -o must name a folder"
                f" (got {output!r})",
                usage=True,
            )
        as_dir = True
    if not as_dir:
        return [target]
    if turns == 1:
        return [target / f"{stem}.json"]
    width = len(str(turns))
    return [target / f"{stem}.turn{n:0{width}d}.json" for n in range(1, turns + 1)]


__all__ = [
    "ImportFailure",
    "ImportResult",
    "ImportedTurn",
    "capture_stem",
    "dump_fixture",
    "import_capture",
    "output_paths",
    "split_turns",
    "stream_item",
    "write_fixture",
]
