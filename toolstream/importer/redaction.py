"""The redaction gate: no credential reaches a written fixture.

Everything that will be written (the stream, ``tool_schemas``, ``request``,
``meta``, whether it came from the command line or from a recorded request)
is scanned with :mod:`toolstream.capture.redact`.  Streamed text is also
scanned *reassembled*, because a stream splits a secret across fragments
where no single string holds it:

* tool-call arguments, per call (``{"passwo`` + ``rd": "hunter2"}``), routed
  by slot, where the profile's ``slot_pieces`` says they sit;
* every other string of the stream, joined in stream order per position
  inside its event (``choices/0/delta/content``, ``delta/text``,
  ``candidates/0/content/parts/0/text``...): text deltas, reasoning.
  Joining strings that are not one text can only add findings, never hide
  one.

A stream whose items carry another format's events encoded (InvokeModel's
base64 ``chunk`` frames: ``Profile.wrapped_events``) is scanned decoded, as
a stream of the inner format, whole strings included; a secret there is
reported at the frame's ``bytes``, and ``--redact`` re-encodes the frames it
changed.

Such a secret is reported at its first fragment, with the others listed;
``--redact`` replaces it fragment-wise, so that the reassembled text reads
``[REDACTED:<kind>]`` exactly as a whole-string redaction would (and
restated arguments, which are redacted whole, still match).

A :class:`Secret` never holds the secret: ``preview`` is at most its first
4 characters.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toolstream.capture.redact import _find as find_spans  # the scanner's own span finder
from toolstream.capture.redact import preview, redact
from toolstream.profiles import PROFILES, Profile
from toolstream.profiles._base import WrappedEvents

Token = str | int


@dataclass(frozen=True)
class Secret:
    """A credential found: where (JSON pointer), what kind, a short preview."""

    path: str
    kind: str
    preview: str
    fragments: tuple[str, ...] = ()
    """For a secret split across argument fragments: the other fragments."""

    def to_meta(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "kind": self.kind}
        if self.fragments:
            out["also_in"] = list(self.fragments)
        return out

    def describe(self) -> str:
        more = ""
        if self.fragments:
            more = f" (split over {len(self.fragments) + 1} fragments)"
        return f"{self.path}{more}: {self.kind} {self.preview}"


def pointer(tokens: tuple[Token, ...]) -> str:
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def scan_fixture(fixture: dict[str, Any], profile: str, stream_key: str) -> list[Secret]:
    """Every credential the fixture would carry (nothing is changed)."""
    return redact_fixture(fixture, profile, stream_key)[1]


def redact_fixture(
    fixture: dict[str, Any], profile: str, stream_key: str
) -> tuple[dict[str, Any], list[Secret]]:
    """A copy of ``fixture`` with every credential replaced, and the secrets."""
    work = copy.deepcopy(fixture)
    found: list[Secret] = []
    stream = work.get(stream_key)
    known = PROFILES.get(profile)
    wrapped = known.wrapped_events(stream) if known and isinstance(stream, list) else None
    if wrapped is not None and isinstance(stream, list) and known is not None:
        found.extend(_redact_wrapped(stream, stream_key, known, wrapped))
    if isinstance(stream, list):
        arguments = _argument_groups(stream, profile)
        for sites in arguments:
            found.extend(_redact_group(work, stream_key, sites))
        taken = {tokens for sites in arguments for tokens, _ in sites}
        for sites in _text_groups(stream, taken):
            found.extend(_redact_group(work, stream_key, sites))
    cleaned, hits = redact(work)
    found.extend(Secret(h.path, h.kind, h.preview) for h in hits)
    found.sort(key=lambda s: _order(s.path))
    return cleaned, found


def _redact_wrapped(
    stream: list[Any], stream_key: str, known: type[Profile], wrapped: WrappedEvents
) -> list[Secret]:
    """Redact the decoded events of a wrapping stream as a stream of the
    inner profile; re-encode the carriers of the events that changed."""
    inner_profile, carried = wrapped
    inner_key = PROFILES[inner_profile].stream_key
    events = [event for _, event in carried]
    cleaned, secrets = redact_fixture({inner_key: events}, inner_profile, inner_key)
    for (tokens, event), new in zip(carried, cleaned[inner_key], strict=True):
        if new != event:
            _set(stream, tokens, known.encode_wrapped(new))

    def at_carrier(path: str) -> str:
        # "/events/<j>/..." inside the decoded stream -> the j-th carrier.
        inner = path.split("/")
        return pointer((stream_key, *carried[int(inner[2])][0]))

    return [
        Secret(at_carrier(s.path), s.kind, s.preview, tuple(at_carrier(f) for f in s.fragments))
        for s in secrets
    ]


# -- arguments split across fragments -------------------------------------------

Site = tuple[tuple[Token, ...], str]
"""Where a fragment's text lives inside the stream, and the text."""


def _redact_group(work: dict[str, Any], stream_key: str, sites: list[Site]) -> list[Secret]:
    joined = "".join(text for _, text in sites)
    spans = find_spans(joined)
    if not spans:
        return []
    bounds: list[tuple[int, int]] = []
    offset = 0
    for _, text in sites:
        bounds.append((offset, offset + len(text)))
        offset += len(text)
    secrets: list[Secret] = []
    # new text per site, built from the spans that touch it
    cuts: dict[int, list[tuple[int, int, str | None]]] = {}
    for start, end, kind in spans:
        touched = [i for i, (lo, hi) in enumerate(bounds) if lo < end and start < hi]
        if not touched:  # pragma: no cover - a span lies inside the joined text
            continue
        paths = [pointer((stream_key, *sites[i][0])) for i in touched]
        secrets.append(Secret(paths[0], kind, preview(joined[start:end]), tuple(paths[1:])))
        for rank, i in enumerate(touched):
            lo, _ = bounds[i]
            local = (max(start, lo) - lo, min(end, bounds[i][1]) - lo)
            cuts.setdefault(i, []).append((*local, f"[REDACTED:{kind}]" if rank == 0 else None))
    for i, pieces in cuts.items():
        tokens, text = sites[i]
        out: list[str] = []
        at = 0
        for lo, hi, marker in sorted(pieces):
            out.append(text[at:lo])
            if marker is not None:
                out.append(marker)
            at = hi
        out.append(text[at:])
        _set(work[stream_key], tokens, "".join(out))
    return secrets


def _set(root: Any, tokens: tuple[Token, ...], value: str) -> None:
    node = root
    for token in tokens[:-1]:
        node = node[token]
    node[tokens[-1]] = value


def _argument_groups(stream: list[Any], profile: str) -> list[list[Site]]:
    """The argument fragments of each call, in stream order."""
    groups: dict[Any, list[Site]] = {}
    for key, site in _sites(stream, profile):
        groups.setdefault(key, []).append(site)
    return list(groups.values())


def _text_groups(stream: list[Any], taken: set[tuple[Token, ...]]) -> list[list[Site]]:
    """Every string leaf of the stream not in an argument group, grouped by
    its path inside its event, in stream order (groups of one fragment are
    left to the whole-value scan)."""
    groups: dict[tuple[Token, ...], list[Site]] = {}
    for pos, event in enumerate(stream):
        stack: list[tuple[tuple[Token, ...], Any]] = [((), event)]
        while stack:  # iterative: events may nest deeper than the recursion limit
            inner, node = stack.pop()
            if isinstance(node, str):
                tokens = (pos, *inner)
                if tokens not in taken:
                    groups.setdefault(inner, []).append((tokens, node))
            elif isinstance(node, dict):
                stack.extend(((*inner, k), v) for k, v in reversed(node.items()))
            elif isinstance(node, list):
                stack.extend(((*inner, i), v) for i, v in reversed(list(enumerate(node))))
    return [sites for sites in groups.values() if len(sites) > 1]


def _sites(stream: list[Any], profile: str) -> Iterator[tuple[Any, Site]]:
    """The argument fragments of the stream, keyed by slot: where they sit is
    the profile's own knowledge (:meth:`Profile.slot_pieces`), so every
    profile routes its fragments and a new one needs nothing here."""
    known = PROFILES.get(profile)
    if known is None:
        return
    for piece in known.slot_pieces(stream):
        if piece.text is None:
            continue
        tokens = tuple(piece.text)
        text = _get(stream, tokens)
        if isinstance(text, str):
            yield _hashable(piece.slot), (tokens, text)


def _get(root: Any, tokens: tuple[Token, ...]) -> Any:
    node = root
    for token in tokens:
        if isinstance(node, dict) and isinstance(token, str) and token in node:
            node = node[token]
        elif isinstance(node, list) and isinstance(token, int) and 0 <= token < len(node):
            node = node[token]
        else:
            return None
    return node


def _hashable(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool, type(None))) else repr(value)


def _order(path: str) -> list[tuple[int, Any]]:
    out: list[tuple[int, Any]] = []
    for token in path.split("/")[1:]:
        out.append((0, int(token)) if token.isdigit() else (1, token))
    return out
