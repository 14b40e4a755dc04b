"""What the container readers share: the parsed document, headers, bodies.

YAML is read with PyYAML's safe loader (``!!binary`` becomes bytes), with
aliases refused (a cassette never needs them, and they allow recursive and
exponentially large documents) and a repeated key refused, as the JSON
readers refuse one (the safe loader would keep the last silently).
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import yaml

from toolstream.capture._core import JSONProblem, loads_strict
from toolstream.capture.eventstream import looks_like_eventstream

MAX_BODY = 256 * 1024 * 1024
"""A decompressed body larger than this (bytes) is refused, not inflated."""


class ContainerError(ValueError):
    """A cassette or archive that cannot be read; the message names where."""


@dataclass(frozen=True)
class Interaction:
    """One recorded HTTP exchange, as much of it as the importer uses."""

    index: int
    """Its position in the file (``interactions[i]``, ``log.entries[i]``)."""
    method: str | None
    url_path: str | None
    """The URL's path, without query or fragment (a query may hold a key)."""
    status: int | None
    content_type: str | None
    """The response's media type, lower case, without parameters."""
    response: bytes
    request: Any = None
    """The request body parsed as JSON, or None (no body, or not JSON)."""
    notes: tuple[str, ...] = field(default_factory=tuple)
    """What was tolerated while decoding (each names the interaction)."""


@dataclass(frozen=True)
class Container:
    kind: str
    interactions: tuple[Interaction, ...]


_YAML_TOP = re.compile(r"(?m)^(?:---[ \t]*$|interactions:|version:|log:|http_interactions:)")


class _NoAliasLoader(yaml.SafeLoader):
    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise ContainerError(
                f"line {event.start_mark.line + 1}: a YAML alias (*{event.anchor});"
                " cassettes are read without aliases"
            )
        return super().compose_node(parent, index)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                repeated = key in seen
                seen.add(key)
            except TypeError:  # unhashable: the safe loader refuses it below
                continue
            if repeated:
                raise ContainerError(
                    f"line {key_node.start_mark.line + 1}: the key {str(key)[:40]!r} is repeated"
                )
        return super().construct_mapping(node, deep)


def parse_document(data: bytes) -> Any:
    """The parsed JSON or YAML document, or None when ``data`` cannot be one
    (a bare stream body: SSE, JSON Lines, binary)."""
    if looks_like_eventstream(data):
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            return loads_strict(text)
        except JSONProblem:
            return None  # JSON Lines, or a broken body: the capture readers say which
    if not _YAML_TOP.search(text[:4096]):
        return None
    try:
        return yaml.load(text, Loader=_NoAliasLoader)  # a safe loader
    except RecursionError:  # PyYAML's composer and constructor recurse per level
        raise ContainerError("the YAML document is nested too deeply") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise ContainerError(f"{where}not readable as a YAML cassette: {problem}") from None


def header(headers: Any, name: str) -> str | None:
    """One header's first value, by case-insensitive name, from any of the
    recorded forms: ``{name: [values]}``, ``{name: value}``, or HAR's
    ``[{"name", "value"}]``."""
    wanted = name.lower()
    pairs: Iterable[tuple[Any, Any]]
    if isinstance(headers, Mapping):
        pairs = headers.items()
    elif isinstance(headers, list):
        pairs = ((h.get("name"), h.get("value")) for h in headers if isinstance(h, Mapping))
    else:
        return None
    for key, value in pairs:
        if isinstance(key, str) and key.lower() == wanted:
            if isinstance(value, list):
                value = value[0] if value else None
            return value if isinstance(value, str) else None
    return None


def media_type(value: str | None) -> str | None:
    if value is None:
        return None
    return value.split(";", 1)[0].strip().lower() or None


def url_path(url: Any) -> str | None:
    if not isinstance(url, str):
        return None
    return urlsplit(url).path or "/"


def as_bytes(value: Any, at: str) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        try:
            return value.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate from a JSON escape
            raise ContainerError(f"{at}: the body holds a lone surrogate") from None
    if value is None:
        return b""
    raise ContainerError(f"{at}: the body is {type(value).__name__}, not text or bytes")


def decode_content(body: bytes, encoding: str | None, at: str, notes: list[str]) -> bytes:
    """Undo ``Content-Encoding`` when the bytes are encoded.

    Recorders differ: VCR.py keeps the encoded bytes (``!!binary``) unless
    told to decode, HAR and go-vcr store decoded text with the header left
    in place.  So gzip is inflated when the bytes carry its magic number,
    and deflate when they inflate; otherwise the body is taken as recorded
    and a note says so.  Any other encoding (``br``, ``zstd``) cannot be
    undone with the standard library: the body is taken as recorded, and
    it reads as a capture only if the recorder had decoded it."""
    names = [e.strip().lower() for e in (encoding or "").split(",") if e.strip()]
    for name in reversed(names):
        if name == "identity":
            continue
        if name in ("gzip", "x-gzip") and body[:2] == b"\x1f\x8b":
            body = _inflate(body, 16 + zlib.MAX_WBITS, at)
        elif name == "deflate" and body[:1] in (b"\x78", b"\x08", b"\x38", b"\x58", b"\x68"):
            body = _inflate(body, zlib.MAX_WBITS, at)
        else:
            notes.append(
                f"{at}: Content-Encoding {name} but the body is not {name}-encoded;"
                " read as recorded (the recorder decoded it)"
            )
    return body


def _inflate(body: bytes, wbits: int, at: str) -> bytes:
    inflater = zlib.decompressobj(wbits)
    try:
        out = inflater.decompress(body, MAX_BODY + 1)
    except zlib.error as error:
        raise ContainerError(f"{at}: the compressed body is corrupt ({error})") from None
    if len(out) > MAX_BODY or inflater.unconsumed_tail:
        raise ContainerError(f"{at}: the body inflates beyond {MAX_BODY} bytes")
    if not inflater.eof:
        raise ContainerError(f"{at}: the compressed body is truncated")
    return out


def request_json(body: Any, encoding: str | None, at: str, notes: list[str]) -> Any:
    """A request body parsed as JSON (a dict or list), or None."""
    if body is None or isinstance(body, (dict, list)):
        return body
    raw = decode_content(as_bytes(body, at), encoding, at, notes)
    if not raw.strip():
        return None
    try:
        return loads_strict(raw.decode("utf-8"))
    except (UnicodeDecodeError, JSONProblem):
        notes.append(f"{at}: the request body is not JSON; its tools cannot be read")
        return None


def json_body(value: Any) -> bytes:
    """A parsed body (pydantic-ai's ``parsed_body``) back as JSON bytes."""
    try:
        return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    except (TypeError, ValueError) as error:
        raise ContainerError(f"a parsed body that is not JSON ({error})") from None


__all__ = [
    "MAX_BODY",
    "Container",
    "ContainerError",
    "Interaction",
    "as_bytes",
    "decode_content",
    "header",
    "json_body",
    "media_type",
    "parse_document",
    "request_json",
    "url_path",
]
