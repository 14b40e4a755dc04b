"""``toolstream import``: a raw capture in, one fixture per assistant turn out.

The pipeline (the command line lives in ``toolstream/cli/import_cmd.py``):

1. a recording container (VCR.py / pytest-recording or go-vcr cassette, HAR
   archive; :mod:`toolstream.importer.containers`) is opened into its
   interactions; every interaction whose response is a stream is a body to
   import, with the request recorded beside it.  Anything else is a bare
   body;
2. :func:`toolstream.capture.read_capture` decodes each body (SSE, JSON
   Lines, a JSON array, AWS event-stream); any line or frame it cannot read
   is an :class:`ImportFailure` naming it;
3. the profile is the one given, or detected from the content
   (:mod:`toolstream.importer.detect`);
4. records become stream items: payloads as recorded, except that Bedrock
   events are written in the ``{"<eventType>": payload}`` form the profile
   reads (event-stream frames and decoded ``{"headers", "payload"}`` lines are
   unwrapped into it); ``[DONE]`` markers and payload-less SSE blocks are not
   events, they are counted in ``meta``;
5. the items are split into turns (:func:`split_turns`) at the stream's own
   framing: a body holding several responses becomes several fixtures,
   never one merged turn;
6. each fixture is built (``profile``, ``tool_schemas`` from ``--schemas``
   or the recorded request, ``request``, ``meta``, the stream) and passed
   through the redaction gate (:mod:`toolstream.importer.redaction`).

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
from toolstream.caseio import atomic_write
from toolstream.importer.containers import ContainerError, Interaction, open_container
from toolstream.importer.detect import (
    Detection,
    DetectionError,
    alike,
    detect_profile,
    is_decoded_frame,
    is_event_name,
)
from toolstream.importer.errors import InputError
from toolstream.importer.redaction import Secret, redact_fixture
from toolstream.importer.schemas import request_fields, request_tools
from toolstream.profiles import PROFILES

KEY_ORDER = ("profile", "tool_schemas", "request", "meta")

STREAM_TYPES = frozenset(
    {
        "text/event-stream",
        "application/vnd.amazon.eventstream",
        "application/x-ndjson",
        "application/ndjson",
        "application/jsonl",
        "application/x-jsonlines",
        "application/stream+json",
    }
)
"""Response media types that declare a stream (a body that does not read as
one is then an error, not a skipped interaction)."""


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
class ImportedBody:
    """One stream body: a bare capture, or one interaction of a container."""

    origin: str
    """``"CAPTURE"`` for a bare body; ``"interaction 3 (POST /v1/messages, 200)"``."""
    format: str
    profile: str
    detection: str | None
    """Why the profile was chosen, when it was detected (None: given)."""
    tools_from: str
    """Where ``tool_schemas`` came from: ``--schemas``, the request, or nowhere."""
    turns: list[int] = field(default_factory=list)


@dataclass
class ImportResult:
    format: str
    """The bare body's wire format, or the container's kind (``vcr``, ``har``...)."""
    profile: str
    """The profile (profiles, comma-separated, when interactions differ)."""
    detection: str | None
    """Why the profile was chosen, when it was detected (None: given)."""
    turns: list[ImportedTurn]
    warnings: list[str] = field(default_factory=list)
    done_markers: int = 0
    container: str | None = None
    bodies: list[ImportedBody] = field(default_factory=list)

    @property
    def secrets(self) -> list[tuple[int, Secret]]:
        return [(t.number, s) for t in self.turns for s in t.secrets]


@dataclass
class _Turn:
    items: list[Any] = field(default_factory=list)
    locations: list[str] = field(default_factory=list)
    done_markers: int = 0
    empty: list[str] = field(default_factory=list)
    after_done: bool = False
    response_id: str | None = None
    """The response the turn's items name (``Profile.response_id``:
    Gemini's ``responseId``)."""


@dataclass
class _Body:
    data: bytes
    capture: Capture
    interaction: Interaction | None = None


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

    ``tool_schemas`` and ``request`` override what a container's recorded
    request holds.  With no schemas from either, the fixture gets ``{}``
    and a warning.  With ``redact`` the fixtures have every credential
    replaced (recorded in ``meta.redactions``); without it they are
    returned unchanged and :attr:`ImportedTurn.secrets` says what must not
    be written.
    """
    if profile is not None and profile not in PROFILES:
        raise ImportFailure(
            f"unknown profile {profile!r}; known: {', '.join(sorted(PROFILES))}", usage=True
        )
    try:
        container = open_container(data)
    except ContainerError as error:
        raise ImportFailure(f"cannot read the cassette: {error}") from None
    warnings: list[str] = []
    if container is None:
        bodies = [_Body(data, _read_body(data, "", require_events=True))]
    else:
        bodies = _stream_bodies(container.kind, container.interactions, warnings)
    sha = hashlib.sha256(data).hexdigest()
    described: list[ImportedBody] = []
    builders: list[_TurnBuilder] = []
    for body in bodies:
        info, planned = _plan_body(
            body,
            source_name=source_name,
            sha=sha,
            profile=profile,
            tool_schemas=tool_schemas,
            schemas_meta=schemas_meta,
            request=request,
            redact=redact,
            version=version,
            warnings=warnings,
        )
        for builder in planned:
            builder.index = len(builders) + 1
            builders.append(builder)
            info.turns.append(builder.index)
        described.append(info)
    built = [builder.build(len(builders)) for builder in builders]
    profiles = list(dict.fromkeys(b.profile for b in described))
    first = described[0]
    return ImportResult(
        format=container.kind if container is not None else first.format,
        profile=",".join(profiles),
        detection=first.detection if container is None else None,
        turns=built,
        warnings=warnings,
        done_markers=sum(b.capture.done_markers for b in bodies),
        container=None if container is None else container.kind,
        bodies=described,
    )


def _read_body(data: bytes, prefix: str, *, require_events: bool) -> Capture:
    try:
        capture = read_capture(data)
    except CaptureError as error:
        raise ImportFailure(f"{prefix}cannot read the capture: {error}") from None
    if require_events and not capture.json_records and capture.format != "aws-eventstream":
        raise ImportFailure(f"{prefix}the capture holds no event (only markers or empty blocks)")
    return capture


def describe(interaction: Interaction) -> str:
    """``interaction 3 (POST /v1/messages, 200)``: how messages name one."""
    parts = [p for p in (interaction.method, interaction.url_path) if p]
    where = " ".join(parts)
    status = "" if interaction.status is None else str(interaction.status)
    inside = ", ".join(p for p in (where, status) if p)
    return f"interaction {interaction.index}" + (f" ({inside})" if inside else "")


def _stream_bodies(
    kind: str, interactions: tuple[Interaction, ...], warnings: list[str]
) -> list[_Body]:
    """The interactions whose response is a stream; the others are named in
    ``warnings``.  A response that declares a stream but cannot be read as
    one fails the import (fail closed: it is never skipped)."""
    out: list[_Body] = []
    for interaction in interactions:
        name = describe(interaction)
        warnings.extend(interaction.notes)
        declared = interaction.content_type in STREAM_TYPES
        if not interaction.response.strip():
            if declared:
                raise ImportFailure(f"{name}: a {interaction.content_type} response with no body")
            warnings.append(f"{name}: no response body; skipped")
            continue
        try:
            capture = read_capture(interaction.response)
        except CaptureError as error:
            if declared:
                raise ImportFailure(f"{name}: cannot read the streamed response: {error}") from None
            warnings.append(
                f"{name}: the response ({interaction.content_type or 'no content type'})"
                " is not a stream; skipped"
            )
            continue
        if not declared and capture.format == "jsonl" and len(capture.records) == 1:
            warnings.append(
                f"{name}: the response is one JSON object, not a stream"
                f" ({interaction.content_type or 'no content type'}); skipped"
            )
            continue
        if not capture.json_records and capture.format != "aws-eventstream":
            raise ImportFailure(f"{name}: the streamed response holds no event")
        out.append(_Body(interaction.response, capture, interaction))
    if not out:
        raise ImportFailure(
            f"the {kind} recording holds {len(interactions)} interaction(s) and no streamed"
            " response to import"
        )
    return out


def _plan_body(
    body: _Body,
    *,
    source_name: str,
    sha: str,
    profile: str | None,
    tool_schemas: Mapping[str, Any] | None,
    schemas_meta: Mapping[str, Any] | None,
    request: Mapping[str, Any] | None,
    redact: bool,
    version: str,
    warnings: list[str],
) -> tuple[ImportedBody, list[_TurnBuilder]]:
    """Read one body's turns and queue their fixtures (numbered once the
    whole capture's turn count is known)."""
    capture = body.capture
    interaction = body.interaction
    origin = "CAPTURE" if interaction is None else describe(interaction)
    prefix = "" if interaction is None else f"{origin}: "
    recorded = None if interaction is None else interaction.request
    recorded = recorded if isinstance(recorded, Mapping) else None

    content_warnings = [prefix + w for w in (*capture.warnings, *_event_name_mismatches(capture))]
    warnings.extend(content_warnings)
    if request is None and recorded is not None:
        try:
            fields = request_fields(recorded)
        except InputError as error:  # pragma: no cover - a Mapping is always accepted
            raise ImportFailure(f"{prefix}{error}") from None
        request = fields or None
    detection: Detection | None = None
    if profile is None:
        try:
            detection = detect_profile(capture.records, capture.format, request)
        except DetectionError as error:
            raise ImportFailure(prefix + str(error), usage=True) from None
        chosen = detection.profile
    else:
        chosen = profile
        warnings.extend(prefix + w for w in _profile_disagreement(capture, chosen, request))

    schemas: Mapping[str, Any] | None = tool_schemas
    schemas_from: Mapping[str, Any] | None = schemas_meta
    tools_from = "--schemas" if tool_schemas is not None else "nowhere"
    if schemas is None and recorded is not None:
        try:
            found = request_tools(recorded)
        except InputError as error:
            raise ImportFailure(
                f"{prefix}the recorded request's tools do not convert: {error}"
                " (pass --schemas FILE with the tools as JSON Schema)"
            ) from None
        if found is not None:
            schemas = found.schemas
            schemas_from = {"request": origin, "shape": found.shape}
            tools_from = f"the recorded request ({found.shape})"
            warnings.extend(f"{prefix}request {note}" for note in found.notes)
    if schemas is None:
        hint = (
            "the recorded request declares no tools"
            if recorded is not None
            else "pass --schemas FILE with the tools the request sent"
        )
        warnings.append(
            f"{prefix}no tool schemas: tool_schemas is {{}}, so every call will be"
            f" unknown_tool ({hint})"
        )

    turns = split_turns(capture, chosen)
    body_sha = hashlib.sha256(body.data).hexdigest()
    stream_key = PROFILES[chosen].stream_key

    builders = [
        _TurnBuilder(
            turn=turn,
            source_name=source_name,
            sha=sha,
            body_sha=body_sha,
            capture=capture,
            interaction=interaction,
            chosen=chosen,
            detection=detection,
            content_warnings=content_warnings,
            schemas=schemas,
            schemas_from=schemas_from,
            request=request,
            redact=redact,
            version=version,
            stream_key=stream_key,
        )
        for turn in turns
    ]
    info = ImportedBody(
        origin=origin,
        format=capture.format,
        profile=chosen,
        detection=None if detection is None else detection.reason,
        tools_from=tools_from,
    )
    return info, builders


@dataclass
class _TurnBuilder:
    """Builds one turn's fixture once the capture's turn count is known."""

    turn: _Turn
    source_name: str
    sha: str
    body_sha: str
    capture: Capture
    interaction: Interaction | None
    chosen: str
    detection: Detection | None
    content_warnings: list[str]
    schemas: Mapping[str, Any] | None
    schemas_from: Mapping[str, Any] | None
    request: Mapping[str, Any] | None
    redact: bool
    version: str
    stream_key: str
    index: int = 0

    def build(self, total: int) -> ImportedTurn:
        turn = self.turn
        interaction = self.interaction
        meta: dict[str, Any] = {"source": self.source_name, "source_sha256": self.sha}
        if interaction is not None:
            meta["interaction"] = interaction.index
            if interaction.method is not None:
                meta["method"] = interaction.method
            if interaction.url_path is not None:
                meta["url_path"] = interaction.url_path
            if interaction.status is not None:
                meta["status"] = interaction.status
            meta["body_sha256"] = self.body_sha
        meta["format"] = self.capture.format
        meta["profile"] = self.chosen
        meta["profile_chosen_by"] = "--profile" if self.detection is None else "detection"
        if self.detection is not None:
            meta["profile_reason"] = self.detection.reason
        meta["turn"] = self.index
        meta["turns"] = total
        meta["records"] = f"{turn.locations[0]} to {turn.locations[-1]}"
        meta["done_markers"] = turn.done_markers
        if turn.empty:
            meta["empty_blocks"] = list(turn.empty)
        if self.content_warnings:
            meta["capture_warnings"] = list(self.content_warnings)
        if self.schemas_from is not None:
            meta["tool_schemas_from"] = dict(self.schemas_from)
        meta["toolstream_version"] = self.version
        fixture: dict[str, Any] = {
            "profile": self.chosen,
            "tool_schemas": dict(self.schemas) if self.schemas is not None else {},
        }
        if self.request is not None:
            fixture["request"] = dict(self.request)
        fixture["meta"] = meta
        fixture[self.stream_key] = turn.items
        if self.redact:
            cleaned, secrets = redact_fixture(fixture, self.chosen, self.stream_key)
            if secrets:
                cleaned["meta"]["redactions"] = [s.to_meta() for s in secrets]
                left = redact_fixture(cleaned, self.chosen, self.stream_key)[1]
                if left:  # pragma: no cover - redaction is idempotent
                    raise ImportFailure(f"turn {self.index}: redaction left {left[0].describe()}")
            fixture = cleaned
            secrets = []
        else:
            secrets = redact_fixture(fixture, self.chosen, self.stream_key)[1]
        return ImportedTurn(self.index, fixture, secrets, len(turn.items))


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
    if alike(seen.profile, profile):
        return []
    return [f"--profile {profile}, but the content looks like {seen.profile} ({seen.reason})"]


# -- records -> stream items -> turns --------------------------------------------


def stream_item(record: Record, capture_format: str, profile: str) -> Any:
    """The fixture's stream element for one event record."""
    if not PROFILES[profile].named_events:
        return record.payload
    if capture_format == "aws-eventstream":
        return {_frame_event_name(record.headers or {}, record.location): _frame_payload(record)}
    payload = record.payload
    if is_decoded_frame(payload):
        headers = {str(k): str(v) for k, v in payload["headers"].items()}
        body = payload["payload"]
        return {_frame_event_name(headers, record.location): {} if body is None else body}
    if record.event is not None and is_event_name(record.event):
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

    A turn starts, when the current turn already holds events, at an item
    the profile says opens one (``Profile.opens_turn``), at an item naming
    another response than the turn's first (``Profile.response_id``), and at
    the first item after a ``[DONE]`` marker.  Markers and empty blocks stay
    with the turn before them.  Chat chunks (openai, mistral) have no
    opening event, and their ``id`` is no boundary: OpenAI-compatible
    servers (llama.cpp, some routers) change the completion id between
    chunks of one turn.
    """
    reader = PROFILES[profile]
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
        opens = reader.opens_turn(item)
        response_id = reader.response_id(item)
        if response_id is not None:
            if turn.response_id is None:
                turn.response_id = response_id
            elif response_id != turn.response_id:
                opens = True
        if turn.items and (turn.after_done or opens):
            turn = _Turn()
            turns.append(turn)
            turn.response_id = response_id  # the new turn's own response
        turn.items.append(item)
        turn.locations.append(record.location)
    return [t for t in turns if t.items] or turns[:1]


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
    """Write atomically (:func:`toolstream.caseio.atomic_write`)."""
    atomic_write(path, text.encode("ascii"))


_STEM_SUFFIXES = (
    ".bin",
    ".eventstream",
    ".sse",
    ".jsonl",
    ".ndjson",
    ".json",
    ".txt",
    ".chunks",
    ".yaml",
    ".yml",
    ".cassette",
    ".har",
)


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
    "STREAM_TYPES",
    "ImportFailure",
    "ImportResult",
    "ImportedBody",
    "ImportedTurn",
    "capture_stem",
    "describe",
    "dump_fixture",
    "import_capture",
    "output_paths",
    "split_turns",
    "stream_item",
    "write_fixture",
]
