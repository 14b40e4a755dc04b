"""Recording containers: files that hold whole HTTP exchanges, not a bare body.

A container is read from its content (never its file name) by the first
reader in :data:`CONTAINERS` that claims the parsed document; one module per
container format:

``vcr``
    VCR.py / pytest-recording cassettes (YAML or JSON), including
    pydantic-ai's ``parsed_body`` form and Ruby VCR's ``base64_string``
    bodies (:mod:`.vcr`);
``go-vcr``
    go-vcr cassettes, versions 1 and 2 (:mod:`.govcr`);
``har``
    HAR 1.2 archives from browsers and proxies (:mod:`.har`).

Each gives its :class:`Interaction` list: the response body as bytes (with
its ``Content-Encoding`` undone), the request body parsed as JSON when it is
JSON, the URL path without its query, the status.  Headers are read only to
decode bodies; they are never handed on, so they can never be written.

A document that is none of these is not a container (:func:`open_container`
returns None) and the importer reads the bytes as a bare stream body.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from toolstream.importer.containers import govcr, har, vcr
from toolstream.importer.containers._http import (
    Container,
    ContainerError,
    Interaction,
    parse_document,
)


@dataclass(frozen=True)
class ContainerReader:
    name: str
    claims: Callable[[object], bool]
    read: Callable[[object], list[Interaction]]


CONTAINERS: tuple[ContainerReader, ...] = (
    ContainerReader("vcr", vcr.claims, vcr.read),
    ContainerReader("go-vcr", govcr.claims, govcr.read),
    ContainerReader("har", har.claims, har.read),
)
"""Container formats, tried in order on the parsed document."""


def open_container(data: bytes) -> Container | None:
    """The container ``data`` is, read; None when it is a bare body.

    :class:`ContainerError` when it is a container that cannot be read (the
    message names the interaction and the field)."""
    document = parse_document(data)
    if document is None:
        return None
    for reader in CONTAINERS:
        if reader.claims(document):
            return Container(reader.name, tuple(reader.read(document)))
    return None


__all__ = ["CONTAINERS", "Container", "ContainerError", "Interaction", "open_container"]
