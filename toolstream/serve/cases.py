"""The cases a server plays: read from corpus folders, case files or objects.

A served case keeps each stream item as it was written: objects as their
key/value pairs (a duplicate key stays a duplicate), numbers as their text
(``1e999`` stays ``1e999``, never ``Infinity``), strings with any unpaired
surrogate.  :func:`encode` writes an item back as compact JSON, non-ASCII as
UTF-8 (what providers send, and what a split inside a multi-byte character
needs), an unpaired surrogate as its ``\\u`` escape (UTF-8 cannot carry it).

Most case files lose nothing to a plain ``json.loads`` (no duplicate key, every
number written as Python writes it back): a file that the standard encoder
writes back token for token is read that way (:class:`Faithful` objects),
which is cheaper to read and, through the C encoder, to write; any other file
is read in the preserving form (:class:`Pairs`, :class:`RawNumber`).  Both
give the same bytes (see :func:`_faithful`).

Standard library only.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolstream.caseio import discover, fixture_digest

__all__ = [
    "CaseIndex",
    "Faithful",
    "Pairs",
    "RawNumber",
    "ServedCase",
    "UnknownCase",
    "collect",
    "encode",
    "from_bytes",
]


class Pairs(list[tuple[str, Any]]):
    """A JSON object as its members in written order (duplicates kept)."""

    def get(self, key: str, default: Any = None) -> Any:
        """The last value of ``key`` (what a JSON parser that keeps the last
        duplicate would give), or ``default``."""
        found = default
        for name, value in self:
            if name == key:
                found = value
        return found


class RawNumber(str):
    """A JSON number as the text it was written with."""


class Faithful(dict[str, Any]):
    """A JSON object of a case file read by plain ``json.loads`` because the
    file loses nothing to it (:func:`_faithful`): every value under it is
    plain JSON data whose standard encoding is the text the file has."""


def object_members(value: Any) -> list[tuple[str, Any]] | None:
    """A case's JSON object as its members in order (read in either form), or
    None when ``value`` is not an object."""
    if isinstance(value, Pairs):
        return value
    if isinstance(value, Faithful):
        return list(value.items())
    return None


def _loads(text: str) -> Any:
    return json.loads(
        text,
        object_pairs_hook=Pairs,
        parse_int=RawNumber,
        parse_float=RawNumber,
        parse_constant=RawNumber,
    )


_INDENT = re.compile(r"\n *")
_AS_WRITTEN = json.JSONEncoder(separators=(",", ": "))
"""The corpus's file form (``caseio.dump_json``) without its line breaks."""
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _faithful(text: str) -> Any:
    """The file's JSON as plain data (objects :class:`Faithful`) when that
    loses nothing, else None.

    It loses nothing when the standard encoder writes the value back as the
    file's own tokens: line breaks and the indentation after them stand
    between tokens (JSON strings hold no raw line break) and never join two,
    so equal texts are equal token sequences.  Then no object had a duplicate
    key (the dict would have fewer members), every number's text is the one
    the encoder writes for its value, and strings are the scanner's in both
    forms: the compact encoding of the value is :func:`encode` of the
    preserved form, string for string (the same escaper), but for a string
    with an unpaired surrogate, which :func:`encode` checks.  ``NaN`` and
    ``Infinity`` are left to the preserving form (:func:`_plain` keeps them
    as strings in ``expect`` and ``request``)."""
    if "NaN" in text or "Infinity" in text:
        return None
    try:
        value = json.loads(text, object_hook=Faithful)
        same = _AS_WRITTEN.encode(value) == _INDENT.sub("", text)
    except (ValueError, RecursionError):
        return None  # the preserving form says why, as it always has
    return value if same else None


def _plain(value: Any) -> Any:
    """A preserved value as ordinary Python data (last duplicate wins)."""
    if isinstance(value, Pairs):
        return {k: _plain(v) for k, v in value}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, RawNumber):
        return json.loads(value) if value not in ("NaN", "Infinity", "-Infinity") else str(value)
    return value


def _preserve(value: Any) -> Any:
    """Ordinary Python data (a fixture given as an object) in the preserved form."""
    if isinstance(value, Mapping):
        return Pairs((str(k), _preserve(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return [_preserve(v) for v in value]
    return value


def _string(text: str) -> str:
    # json.dumps(text, ensure_ascii=False) builds an encoder per call; its
    # string escaper alone gives the same text (a third of a case's encoding)
    out = _ESCAPE(text)
    try:
        out.encode("utf-8")
    except UnicodeEncodeError:  # an unpaired surrogate: only its escape is representable
        return _ESCAPE_ASCII(text)
    return out


_ESCAPE: Callable[[str], str] = json.encoder.encode_basestring
_ESCAPE_ASCII: Callable[[str], str] = json.encoder.encode_basestring_ascii


def encode(value: Any) -> str:
    """Compact JSON text of a stream item (see the module docstring)."""
    if type(value) is Faithful:
        text = _COMPACT.encode(value)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # an unpaired surrogate: escaped below, string by string
            return _encode(value)
        return text
    return _encode(value)


def _encode(value: Any) -> str:
    if isinstance(value, RawNumber):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, Pairs):
        return "{" + ",".join(_string(k) + ":" + encode(v) for k, v in value) + "}"
    if isinstance(value, Mapping):
        return "{" + ",".join(_string(str(k)) + ":" + encode(v) for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(encode(v) for v in value) + "]"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    raise TypeError(f"cannot encode {type(value).__name__} as JSON")


@dataclass(frozen=True)
class ServedCase:
    """One case as the server plays it.

    ``stream`` holds the items of the fixture's ``chunks``/``events`` in
    preserved or faithful form (see :func:`encode`); ``problem`` says why the case
    cannot be played at all (it is still listed, and a request for it gets
    a clear error)."""

    id: str
    profile: str
    stream: list[Any] = field(repr=False)
    expect: Mapping[str, Any] | None = field(default=None, repr=False)
    request: Mapping[str, Any] | None = field(default=None, repr=False)
    problem: str | None = None

    def summary(self) -> dict[str, Any]:
        """What ``GET /cases`` says about the case."""
        out: dict[str, Any] = {"id": self.id, "profile": self.profile, "model": f"case:{self.id}"}
        if self.expect is not None:
            out["expect"] = {
                "status": self.expect.get("status"),
                "codes": self.expect.get("codes", []),
                "calls": len(self.expect.get("calls", []) or []),
            }
        if self.problem is not None:
            out["problem"] = self.problem
        return out


class UnknownCase(LookupError):
    """No served case has this name (the message says how to name one)."""


def _stream_key(profile: str) -> str | None:
    from toolstream.profiles import PROFILES

    known = PROFILES.get(profile)
    return known.stream_key if known is not None else None


def _from_preserved(ident: str, case: Any) -> ServedCase:
    if isinstance(case, Faithful):
        # plain already: what _plain makes of the preserved form (no NaN here)
        expect = case.get("expect")
        request = case.get("request")
        plain_expect = expect if isinstance(expect, Faithful) else None
        plain_request = request if isinstance(request, Faithful) else None
    elif isinstance(case, Pairs):
        expect = case.get("expect")
        request = case.get("request")
        plain_expect = _plain(expect) if isinstance(expect, Pairs) else None
        plain_request = _plain(request) if isinstance(request, Pairs) else None
    else:
        return ServedCase(ident, "", [], problem="the case is not a JSON object")
    profile = case.get("profile")
    if not isinstance(profile, str):
        return ServedCase(ident, "", [], plain_expect, problem="'profile' is missing")
    key = _stream_key(profile)
    if key is None:
        return ServedCase(
            ident, profile, [], plain_expect, problem=f"unknown profile {profile[:40]!r}"
        )
    stream = case.get(key)
    if not isinstance(stream, list):
        return ServedCase(
            ident, profile, [], plain_expect, problem=f"{key!r} is missing or not an array"
        )
    return ServedCase(ident, profile, stream, plain_expect, plain_request)


def _read_file(ident: str, path: str) -> ServedCase:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return ServedCase(ident, "", [], problem=f"cannot read {path}: {error.strerror or error}")
    return from_bytes(ident, data)


def from_bytes(ident: str, data: bytes) -> ServedCase:
    """The case a case file's bytes hold, every item as written."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return ServedCase(ident, "", [], problem=f"not UTF-8 (byte {error.start})")
    faithful = _faithful(text)
    if faithful is not None:
        return _from_preserved(ident, faithful)
    try:
        return _from_preserved(ident, _loads(text))
    except (ValueError, RecursionError) as error:
        return ServedCase(ident, "", [], problem=f"not JSON: {str(error)[:120]}")


def _from_object(ident: str | None, fixture: Mapping[str, Any]) -> ServedCase:
    name = ident
    if name is None:
        profile = fixture.get("profile")
        name = f"{profile if isinstance(profile, str) else 'fixture'}/{fixture_digest(fixture)}"
    return _from_preserved(name, _preserve(fixture))


Source = Any
"""What :func:`collect` accepts (see there)."""


def collect(source: Source) -> list[ServedCase]:
    """The cases of ``source``, in a stable order.

    ``source`` is a corpus folder or case file (``str`` or path), a fixture
    or case object (a mapping with ``profile``), a :class:`ServedCase`, a
    pytest-plugin ``Case`` (anything with ``id`` and ``raw_fixture``), an
    ``(id, fixture)`` pair, or an iterable of any of these.  A fixture given
    as an object is named ``<profile>/<fixture hash>``.  Raises
    FileNotFoundError for a path that does not exist."""
    out: list[ServedCase] = []
    _collect(source, out)
    return out


def _collect(source: Source, out: list[ServedCase]) -> None:
    if isinstance(source, ServedCase):
        out.append(source)
    elif isinstance(source, (str, os.PathLike)):
        out.extend(_read_refs([source]))
    elif isinstance(source, Mapping):
        out.append(_from_object(None, source))
    elif hasattr(source, "raw_fixture") and hasattr(source, "id"):
        fixture = dict(source.raw_fixture)
        expect = getattr(source, "raw_expect", None)
        if expect:
            fixture["expect"] = expect
        out.append(_from_object(str(source.id), fixture))
    elif (
        isinstance(source, tuple)
        and len(source) == 2
        and isinstance(source[0], str)
        and isinstance(source[1], Mapping)
    ):
        out.append(_from_object(source[0], source[1]))
    elif isinstance(source, Iterable):
        for item in source:
            _collect(item, out)
    else:
        raise TypeError(f"cannot serve a {type(source).__name__}: give a path, a fixture or cases")


class CaseIndex:
    """The served cases by every name a request may use for one.

    Built from :class:`ServedCase`\\ s, or with :meth:`lazy` from names and
    loaders: a case is then read when a request first names it (a long run
    that plays a few of many cases parses only those, and starts at once)."""

    def __init__(self, cases: Iterable[ServedCase]) -> None:
        self._setup((case.id, case) for case in cases)

    @classmethod
    def lazy(cls, entries: Iterable[tuple[str, Callable[[], ServedCase]]]) -> CaseIndex:
        """An index over ``(id, load)`` pairs; ``load()`` gives the case
        (under any id: it is served under the entry's), called once, on the
        first request that names it (from any server thread)."""
        index = cls.__new__(cls)
        index._setup(entries)
        return index

    def _setup(self, entries: Iterable[tuple[str, ServedCase | Callable[[], ServedCase]]]) -> None:
        self._ids: list[str] = []
        self._by_id: dict[str, ServedCase | Callable[[], ServedCase]] = {}
        self._lock = threading.Lock()
        by_suffix: dict[str, list[str]] = {}
        for ident, case in entries:
            if ident in self._by_id:
                continue  # the same file reached twice
            self._ids.append(ident)
            self._by_id[ident] = case
            segments = ident.split("/")
            for start in range(1, len(segments)):
                by_suffix.setdefault("/".join(segments[start:]), []).append(ident)
        self._by_suffix = {k: v[0] for k, v in by_suffix.items() if len(v) == 1}

    def _case(self, ident: str) -> ServedCase:
        case = self._by_id[ident]
        if isinstance(case, ServedCase):
            return case
        with self._lock:
            case = self._by_id[ident]
            if not isinstance(case, ServedCase):
                loaded = case()
                case = loaded if loaded.id == ident else dataclasses.replace(loaded, id=ident)
                self._by_id[ident] = case
        return case

    @property
    def cases(self) -> list[ServedCase]:
        """Every case, in order (a lazy index reads them all)."""
        return [self._case(ident) for ident in self._ids]

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, name: str) -> bool:
        return self._ident(name) is not None

    def _ident(self, name: str) -> str | None:
        bare = name[len("case:") :] if name.startswith("case:") else name
        return bare if bare in self._by_id else self._by_suffix.get(bare)

    def find(self, name: str) -> ServedCase | None:
        """The case ``name`` selects: ``case:<id>``, ``<id>``, or the end of
        one case's id after a ``/`` (``op/hash`` or ``hash`` for the id
        ``corpus/cases/op/hash``) when no other id ends so; None otherwise."""
        ident = self._ident(name)
        return None if ident is None else self._case(ident)

    def get(self, name: str) -> ServedCase:
        found = self.find(name)
        if found is None:
            raise UnknownCase(
                f"{name[:120]!r} names no served case"
                f" (use 'case:<id>' with an id from GET /cases; {len(self)} served)"
            )
        return found

    def only(self) -> ServedCase | None:
        """The one case, when exactly one is served (then any model selects it)."""
        return self._case(self._ids[0]) if len(self._ids) == 1 else None


def _read_refs(paths: Iterable[str | os.PathLike[str]]) -> list[ServedCase]:
    out = []
    for ref in discover(paths).cases:
        if ref.missing:
            out.append(ServedCase(ref.id, "", [], problem="listed in MANIFEST.jsonl, missing"))
        else:
            out.append(_read_file(ref.id, ref.path))
    return out


def read_paths(paths: Iterable[str | Path]) -> list[ServedCase]:
    """The cases under several corpus paths, named as ``toolstream verify``
    names them (prefixed by their folder when more than one is given).
    Raises FileNotFoundError for a path that does not exist."""
    return _read_refs(list(paths))
