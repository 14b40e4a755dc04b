"""Vertex AI streamed function-call arguments (``partialArgs``), reassembled.

With ``functionCallingConfig.streamFunctionCallArguments`` a call's
arguments come as values assigned at JSON paths::

    {"jsonPath": "$.location", "stringValue": "Bos", "willContinue": true}
    {"jsonPath": "$.location", "stringValue": "ton"}
    {"jsonPath": "$.days[0]", "numberValue": 3}

(``google.genai.types.PartialArg``: ``json_path``, one of ``string_value``,
``number_value``, ``bool_value``, ``null_value``, and ``will_continue``,
which on a string means "the next entry continues this string").  The
rules, each with its own finding so that a client's merge code can be
checked against them:

* a path is a normalized RFC 9535 path below the root: ``$`` followed by
  ``.name`` (RFC 9535 member-name shorthand), ``['name']`` (normalized
  escapes only) or ``[n]`` (no sign, no leading zero) segments, else
  ``invalid_json_path``; deeper than the nesting limit is
  ``limit_exceeded``;
* an entry holds ``jsonPath``, exactly one value of its JSON type and
  optionally ``willContinue`` (a boolean, true only on a string), nothing
  else, else ``invalid_partial_arg``; a number given as ``"NaN"`` or
  ``"Infinity"`` (proto3 JSON's spelling) is ``non_finite_number``;
* while a string continues, the next entry must be a string for the same
  path, and the call may not end, else ``broken_string_continuation``; a
  string that was continued and ended is never continued again (the same
  code);
* a path assigned twice is ``duplicate_assignment``;
* a container is one type for good: ``$.a.b`` then ``$.a[0]``, or a path
  below a scalar, is ``path_type_conflict``;
* arrays grow one element at a time: an index past the end is
  ``array_index_gap`` (a huge index is that, never an allocation).

The object's keys keep the order in which they were first assigned; the
call's ``arguments`` are its canonical JSON text (no spaces, non-ASCII kept),
which then passes the same strict JSON and schema checks as every other
call.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from toolstream.events import SlotKey
from toolstream.findings import Code, ProtocolError
from toolstream.limits import Limits
from toolstream.profiles._base import describe

# RFC 9535 member-name-shorthand (section 2.5.1.1), without surrogates.
_NAME_CHARS = "A-Za-z_\u0080-\ud7ff\ue000-\U0010ffff"
_NAME = re.compile(f"\\.([{_NAME_CHARS}][0-9{_NAME_CHARS}]*)")
_INDEX = re.compile(r"\[(0|[1-9][0-9]*)\]")
# A normalized path's quoted name (section 2.7): escapes only where needed.
_QUOTED = re.compile(r"\['((?:[^'\\\x00-\x1f]|\\[bfnrt'\\]|\\u00[01][0-9a-f])*)'\]")
_UNESCAPE = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "'": "'", "\\": "\\"}
_ESCAPE = re.compile(r"\\(u00[01][0-9a-f]|.)")
_HUGE_INDEX_DIGITS = 18
_VALUE_KEYS = ("stringValue", "numberValue", "boolValue", "nullValue")
_ENTRY_KEYS = frozenset({"jsonPath", "willContinue", *_VALUE_KEYS})
_NON_FINITE = frozenset({"NaN", "Infinity", "-Infinity"})
_ABSENT = object()

Segment = str | int


class _Continuing:
    """A string value whose last entry said ``willContinue``."""

    __slots__ = ("pieces",)

    def __init__(self, first: str) -> None:
        self.pieces = [first]


def parse_path(path: str, limits: Limits) -> list[Segment]:
    """The segments of a normalized path, or ``invalid_json_path``."""
    if not path.startswith("$"):
        raise ValueError("does not start with '$'")
    segments: list[Segment] = []
    at = 1
    end = len(path)
    while at < end:
        if len(segments) >= limits.max_depth:
            raise OverflowError(f"is deeper than {limits.max_depth} levels")
        char = path[at]
        found = _NAME.match(path, at) if char == "." else None
        if found is not None:
            segments.append(found.group(1))
            at = found.end()
            continue
        found = _INDEX.match(path, at) if char == "[" else None
        if found is not None:
            digits = found.group(1)
            # A huge index can only be past the end: keep it as a marker.
            segments.append(-1 if len(digits) > _HUGE_INDEX_DIGITS else int(digits))
            at = found.end()
            continue
        found = _QUOTED.match(path, at) if char == "[" else None
        if found is not None:
            segments.append(_ESCAPE.sub(_unescape, found.group(1)))
            at = found.end()
            continue
        raise ValueError(f"has an invalid segment at character {at}")
    if not segments:
        raise ValueError("is the root itself; a value must be assigned below '$'")
    return segments


def _unescape(match: re.Match[str]) -> str:
    text = match.group(1)
    return chr(int(text[1:], 16)) if len(text) == 5 else _UNESCAPE[text]


class Reassembly:
    """One streamed call's arguments, built entry by entry."""

    def __init__(self, key: SlotKey, limits: Limits) -> None:
        self.key = key
        self.limits = limits
        self.root: dict[str, Any] = {}
        self.chars = 0
        self._open: tuple[str, list[Segment], Any, Segment, _Continuing] | None = None
        self._continued: set[str] = set()

    def _error(self, code: Code, message: str, pos: int, path: str | None = None) -> ProtocolError:
        return ProtocolError(code, message, key=self.key, event=pos, path=path)

    def apply(self, entry: Any, pos: int) -> None:
        path, value, more = self._entry(entry, pos)
        self.chars += len(path) + (len(value) if type(value) is str else 8)
        if self.chars > self.limits.max_argument_chars:
            raise self._error(
                Code.LIMIT_EXCEEDED,
                f"streamed arguments exceed {self.limits.max_argument_chars} characters",
                pos,
            )
        try:
            segments = parse_path(path, self.limits)
        except OverflowError as error:
            raise self._error(Code.LIMIT_EXCEEDED, f"jsonPath {error}", pos, _shown(path)) from None
        except ValueError as error:
            raise self._error(
                Code.INVALID_JSON_PATH,
                f"jsonPath {_shown(path)} {error}",
                pos,
                _shown(path),
            ) from None
        if self._open is not None:
            self._continue(path, segments, value, more, pos)
            return
        container, last = self._container(segments, path, pos)
        if _get(container, last) is not _ABSENT:
            if type(value) is str and path in self._continued:
                raise self._error(
                    Code.BROKEN_STRING_CONTINUATION,
                    f"the string at {_shown(path)} is continued after its willContinue ended",
                    pos,
                    _shown(path),
                )
            raise self._error(
                Code.DUPLICATE_ASSIGNMENT,
                f"{_shown(path)} is assigned a second value",
                pos,
                _shown(path),
            )
        if more:
            holder = _Continuing(value)
            _put(container, last, holder)
            self._open = (path, segments, container, last, holder)
            self._continued.add(path)
        else:
            _put(container, last, value)

    def _continue(
        self, path: str, segments: list[Segment], value: Any, more: bool, pos: int
    ) -> None:
        assert self._open is not None
        open_path, open_segments, container, last, holder = self._open
        if segments != open_segments or type(value) is not str:
            what = f"for {_shown(path)}" if segments != open_segments else "not a string"
            raise self._error(
                Code.BROKEN_STRING_CONTINUATION,
                f"the string at {_shown(open_path)} is still continuing; the next entry is {what}",
                pos,
                _shown(open_path),
            )
        holder.pieces.append(value)
        if not more:
            _put(container, last, "".join(holder.pieces), replace=True)
            self._open = None

    def _entry(self, entry: Any, pos: int) -> tuple[str, Any, bool]:
        if type(entry) is not dict:
            raise self._error(
                Code.INVALID_PARTIAL_ARG,
                f"partialArgs entry is {describe(entry)}, not an object",
                pos,
            )
        path = entry.get("jsonPath")
        if type(path) is not str:
            raise self._error(
                Code.INVALID_PARTIAL_ARG, f"jsonPath is {describe(path)}, not a string", pos
            )
        extra = [k for k in entry if k not in _ENTRY_KEYS]
        present = [k for k in _VALUE_KEYS if k in entry]
        if extra or len(present) != 1:
            problem = (
                f"an unknown member {str(extra[0])[:40]!r}"
                if extra
                else f"{len(present)} values (one of {', '.join(_VALUE_KEYS)} is required)"
            )
            raise self._error(
                Code.INVALID_PARTIAL_ARG, f"partialArgs entry has {problem}", pos, _shown(path)
            )
        (field,) = present
        raw = entry[field]
        more = entry.get("willContinue", False)
        if type(more) is not bool:
            raise self._error(
                Code.INVALID_PARTIAL_ARG,
                f"willContinue is {describe(more)}, not a boolean",
                pos,
                _shown(path),
            )
        value = self._value(field, raw, path, pos)
        if more and field != "stringValue":
            raise self._error(
                Code.INVALID_PARTIAL_ARG,
                f"willContinue on a {field}: only strings are continued",
                pos,
                _shown(path),
            )
        return path, value, more

    def _value(self, field: str, raw: Any, path: str, pos: int) -> Any:
        if field == "stringValue" and type(raw) is str:
            return raw
        if field == "boolValue" and type(raw) is bool:
            return raw
        if field == "nullValue" and (raw is None or raw == "NULL_VALUE"):
            return None
        if field == "numberValue":
            if type(raw) is int or (type(raw) is float and math.isfinite(raw)):
                return raw
            if type(raw) is float or (type(raw) is str and raw in _NON_FINITE):
                raise self._error(
                    Code.NON_FINITE_NUMBER,
                    f"numberValue at {_shown(path)} is not finite",
                    pos,
                    _shown(path),
                )
        raise self._error(
            Code.INVALID_PARTIAL_ARG,
            f"{field} is {describe(raw)}",
            pos,
            _shown(path),
        )

    def _container(self, segments: list[Segment], path: str, pos: int) -> tuple[Any, Segment]:
        node: Any = self.root
        for depth, segment in enumerate(segments):
            self._check_type(node, segment, segments[:depth], path, pos)
            if depth == len(segments) - 1:
                break
            child = _get(node, segment)
            below = segments[depth + 1]
            if child is _ABSENT:
                self._check_room(node, segment, path, pos)
                child = {} if type(below) is str else []
                _put(node, segment, child)
            elif type(child) not in (dict, list):
                raise self._error(
                    Code.PATH_TYPE_CONFLICT,
                    f"{_shown(path)} goes below {_render(segments[: depth + 1])}, a value",
                    pos,
                    _shown(path),
                )
            node = child
        last = segments[-1]
        if _get(node, last) is _ABSENT:
            self._check_room(node, last, path, pos)
        return node, last

    def _check_type(
        self, node: Any, segment: Segment, above: list[Segment], path: str, pos: int
    ) -> None:
        wants = dict if type(segment) is str else list
        if type(node) is not wants:
            has = "an object" if type(node) is dict else "an array"
            raise self._error(
                Code.PATH_TYPE_CONFLICT,
                f"{_shown(path)} uses {_render(above)}, {has}, as "
                + ("an object" if wants is dict else "an array"),
                pos,
                _shown(path),
            )

    def _check_room(self, node: Any, segment: Segment, path: str, pos: int) -> None:
        if type(node) is list and segment != len(node):
            raise self._error(
                Code.ARRAY_INDEX_GAP,
                f"{_shown(path)} skips ahead: the array holds {len(node)} element(s)",
                pos,
                _shown(path),
            )

    def finish(self, pos: int) -> str:
        """The canonical JSON text of the arguments, once the call ends."""
        if self._open is not None:
            path = self._open[0]
            raise self._error(
                Code.BROKEN_STRING_CONTINUATION,
                f"the call ended while the string at {_shown(path)} was still continuing",
                pos,
                _shown(path),
            )
        try:
            return canonical_json(self.root)
        except (ValueError, TypeError, RecursionError):
            # A value built in Python (not read from a file) can hold an int
            # past the digit limit.
            raise self._error(
                Code.LIMIT_EXCEEDED, "streamed arguments are too large to serialize", pos
            ) from None

    @property
    def continuing(self) -> str | None:
        """The path of the string still continuing, if any."""
        return None if self._open is None else self._open[0]


def canonical_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _get(node: Any, segment: Segment) -> Any:
    """The value at ``segment``, or ``_ABSENT``."""
    if type(node) is dict:
        return node.get(segment, _ABSENT)
    if type(segment) is int and 0 <= segment < len(node):
        return node[segment]
    return _ABSENT


def _put(node: Any, segment: Segment, value: Any, replace: bool = False) -> None:
    if type(node) is dict or replace:
        node[segment] = value
    else:
        node.append(value)


def _render(segments: list[Segment]) -> str:
    out = "$"
    for segment in segments:
        if type(segment) is int:
            out += f"[{segment}]" if segment >= 0 else "[(huge)]"
        else:
            out += f"['{str(segment)[:40]}']"
    return out


def _shown(path: str) -> str:
    return path if len(path) <= 60 else path[:57] + "..."
