"""Strict RFC 8259 parsing of tool-call arguments.

``json.loads`` is lenient in ways that matter when a parsed value is about to
be handed to a tool: it accepts ``NaN`` and ``Infinity``, lets the last of two
duplicate keys win silently, returns strings holding lone surrogates, turns
``1e400`` into ``inf`` and can be driven into ``RecursionError``.
:func:`loads_strict` accepts exactly one RFC 8259 JSON text and reports every
deviation as a :class:`~toolstream.findings.ProtocolError` with a stable code.

How it stays fast
-----------------
The C scanner of the standard :mod:`json` module does the parsing; the strict
rules ride on its hooks or on cheap checks around it.

* The exact route: ``object_pairs_hook`` builds each dict and compares its
  size with the number of pairs (duplicate keys), ``parse_constant`` rejects
  the non-finite constants and ``parse_float`` overflow, as the parser goes.
  Integers stay on the C fast path unless a sublinear screen finds a digit
  run long enough to belong to an over-long literal.
* The counting route, for long texts dense in objects, where ``dict(pairs)``
  would dominate: the C scanner builds the dicts itself and a hook only sums
  their sizes.  Each member owns exactly one colon outside strings, so the
  sum matches the number of structural colons iff no key repeats.  That
  number is ``text.count(":")`` unless strings hold colons; then it comes
  from a scan of the structure made of bytes operations (no per-character
  Python).  Anything not plainly valid is handed to the exact route, which
  reports it, so both routes give the same answers.
* Nesting depth is checked after the parse: not at all for short texts,
  else by a bracket count, a bounded walk of the result or the structure
  scan.  Inputs too deep for the C scanner end in ``RecursionError``, which
  is reported as LIMIT_EXCEEDED like any other nesting violation.
* Lone surrogates are looked for only when the text contains a backslash or
  non-ASCII characters: in the decoded strings when they are few, else with
  a regular expression over the text.
* Offsets, JSON pointers and keys for messages are recovered once an error
  is known, by walking the text member by member, skipping members that the
  C scanner finds clean.

Every step is linear in the length of the text.
"""

from __future__ import annotations

import json
import json.scanner
import re
import string
import threading
from collections.abc import Callable
from itertools import accumulate
from typing import Any, Final, NoReturn

from toolstream.findings import Code, ProtocolError
from toolstream.messages import excerpt

__all__ = ["find_lone_surrogate", "loads_strict", "loads_unchecked"]

_Scanner = Callable[[str, int], tuple[Any, int]]
_make_scanner: Callable[[Any], _Scanner] = json.scanner.make_scanner

_WS_CHARS: Final = " \t\n\r"
_NON_WS: Final = re.compile(r"[^ \t\n\r]")
# Characters that would have continued a number or a bare word: a top-level
# scalar followed directly by one of them is one malformed token (``1.``,
# ``01``, ``1e``, ``truex``), not a valid value plus trailing data.
_WORD_CHARS: Final = frozenset(string.ascii_letters + string.digits + "+-._")
_SCALAR_STARTS: Final = frozenset("-0123456789tfnNI")

_EXCERPT: Final = 40


# --------------------------------------------------------------------------
# Public helper


def find_lone_surrogate(s: str) -> int:
    """Index of the first surrogate code point (U+D800..U+DFFF) in ``s``, or -1.

    A Python ``str`` holds code points, so any surrogate in it is "lone": a
    correctly escaped pair such as ``"\\ud83d\\ude00"`` decodes to the single
    astral character, never to two surrogates.  Such strings cannot be
    encoded to UTF-8 and usually come from a lone ``\\uD800``-style escape.
    """
    if s.isascii():
        return -1
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return -1


# --------------------------------------------------------------------------
# Hooks for the C scanner.  They raise internal exceptions without positions;
# the exact route catches them and locates the offending token afterwards.


class _Rejected(Exception):
    """Internal: a hook refused a value; _locate will find where."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


_DUPLICATE: Final = "duplicate"
_CONSTANT: Final = "constant"
_TOO_LONG: Final = "too long"
_OUT_OF_RANGE: Final = "out of range"


def _object_from_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _Rejected(_DUPLICATE)
    return obj


def _reject_constant(name: str) -> Any:
    raise _Rejected(_CONSTANT)


def _finite_float(literal: str) -> float:
    value = float(literal)
    if value - value != 0.0:  # only inf - inf is not 0.0 (it is nan)
        raise _Rejected(_OUT_OF_RANGE)
    return value


def _new_scanner(
    *,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
    object_hook: Callable[[dict[str, Any]], Any] | None = None,
    parse_float: Callable[[str], float] = _finite_float,
    parse_int: Callable[[str], int] | None = None,
) -> _Scanner:
    decoder = json.JSONDecoder(
        object_hook=object_hook,
        object_pairs_hook=object_pairs_hook,
        parse_float=parse_float,
        parse_int=parse_int,  # None keeps the C fast path for integers
        parse_constant=_reject_constant,
        strict=True,  # control characters inside strings are errors
    )
    return _make_scanner(decoder)


# The exact scanner, for texts whose number literals are known to be short
# (integers stay on the C fast path, floats only need a finiteness check).
_EXACT_SCANNER: Final = _new_scanner(object_pairs_hook=_object_from_pairs)
_BOUNDED_SCANNERS: dict[int, _Scanner] = {}


def _bounded_scanner(limit: int) -> _Scanner:
    """The exact scanner plus length checks on every number literal."""
    scanner = _BOUNDED_SCANNERS.get(limit)
    if scanner is not None:
        return scanner

    def parse_float(literal: str) -> float:
        if len(literal) > limit:
            raise _Rejected(_TOO_LONG)
        return _finite_float(literal)

    def parse_int(literal: str) -> int:
        if len(literal) > limit:
            raise _Rejected(_TOO_LONG)
        return int(literal)  # ValueError past sys.get_int_max_str_digits()

    scanner = _new_scanner(
        object_pairs_hook=_object_from_pairs, parse_float=parse_float, parse_int=parse_int
    )
    if len(_BOUNDED_SCANNERS) < 16:
        _BOUNDED_SCANNERS[limit] = scanner
    return scanner


class _MemberCounter(threading.local):
    """Per-thread scanner for the fast route: C-built dicts, counted members."""

    def __init__(self) -> None:
        members = 0

        def count_members(obj: dict[str, Any]) -> dict[str, Any]:
            nonlocal members
            members += len(obj)
            return obj

        def take() -> int:
            nonlocal members
            taken, members = members, 0
            return taken

        self.scan = _new_scanner(object_hook=count_members)
        self.take = take


_COUNTER: Final = _MemberCounter()


# --------------------------------------------------------------------------
# Cheap screens run before parsing

_DIGIT_PAIR: Final = re.compile(r"[0-9]{2}")
_DIGIT_RUNS: dict[int, re.Pattern[str]] = {}


def _digit_run(length: int) -> re.Pattern[str]:
    pattern = _DIGIT_RUNS.get(length)
    if pattern is None:
        pattern = re.compile(f"[0-9]{{{length}}}")
        if len(_DIGIT_RUNS) < 16:
            _DIGIT_RUNS[length] = pattern
    return pattern


def _may_hold_long_number(text: str, limit: int) -> bool:
    """False only if no number literal in ``text`` can exceed ``limit`` chars.

    A longer literal has at least ``limit - 3`` digits (sign, point, ``e``
    and exponent sign aside) in at most three runs, so a run of ``run``
    consecutive ASCII digits.  Such a run covers two consecutive positions of
    a sample taken every ``run // 2`` characters, which makes the screen
    sublinear: only digit pairs in the sample are looked at closely.
    """
    run = max(1, -(-(limit - 3) // 3))
    step = run // 2
    if step < 2:
        return _digit_run(run).search(text) is not None
    sample = text[step - 1 :: step]
    exact = _digit_run(run)
    for pair in _DIGIT_PAIR.finditer(sample):
        at = step - 1 + pair.start() * step
        span = text[at : at + step + 1]
        if (
            span.isascii()
            and span.isdigit()
            and exact.search(text, max(0, at - run), at + step + run)
        ):
            return True
    return False


def _looks_dense(text: str) -> bool:
    """Whether objects are frequent enough for the member-counting route.

    Estimated on a prefix from the unescaped quotes (every key has two);
    code or prose inside one big string has few of them.
    """
    window = min(len(text), 1024)
    quotes = text.count('"', 0, window) - text.count("\\", 0, window)
    return quotes * 32 >= window


# --------------------------------------------------------------------------
# Nesting depth


def _walk(value: Any, max_depth: int, strings: bool, budget: int) -> tuple[bool, bool] | None:
    """Walk a parsed value: (nests deeper than ``max_depth``, some key or
    string holds a surrogate code point).  Strings are only looked at when
    ``strings``.  None once more than ``budget`` members would be visited:
    the walk is for values with few members, the text scans for the rest.
    """
    kind = type(value)
    if kind is str:
        return False, strings and find_lone_surrogate(value) >= 0
    if kind is not dict and kind is not list:
        return False, False
    lone = False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > max_depth:
            return True, lone
        budget -= len(node)
        if budget < 0:
            return None
        if type(node) is dict:
            if strings and not lone:
                lone = any(not k.isascii() and find_lone_surrogate(k) >= 0 for k in node)
            members = node.values()
        else:
            members = node
        if strings and not lone:
            for member in members:
                kind = type(member)
                if kind is str:
                    if not member.isascii() and find_lone_surrogate(member) >= 0:
                        lone = True
                elif kind is dict or kind is list:
                    stack.append((member, depth + 1))
        else:
            for member in members:
                kind = type(member)
                if kind is dict or kind is list:
                    stack.append((member, depth + 1))
    return False, lone


# Bytes kept while looking for the structure of a text.  In the first pass
# the characters that may follow a backslash in an escape survive (folded
# into "x"), so that each remaining backslash is still followed by the
# character it escapes.
_ESCAPED: Final = b"bfnrtu/"
_FIRST_PASS: Final = bytes(ord("x") if c in _ESCAPED else c for c in range(256))
_DROP_FIRST: Final = bytes(c for c in range(256) if c not in b'"\\:[]{}' + _ESCAPED)
_DROP_BUT_MEMBERS: Final = bytes(c for c in range(256) if c not in b'":[]{}')
_TO_PARENS: Final = bytes.maketrans(b"[{]}", b"(())")
_TO_STEPS: Final = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


def _utf8(text: str) -> tuple[bytes, bool]:
    """``text`` as UTF-8 (surrogates passed through), and whether it holds
    surrogate code points."""
    if text.isascii():
        return text.encode("ascii"), False
    try:
        return text.encode("utf-8"), False
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass"), True


def _structure(text: str, stop: int) -> bytes:
    """The colons and brackets of ``text[:stop]`` outside strings, in order."""
    return _structure_of(_utf8(text if stop == len(text) else text[:stop])[0])


def _structure_of(raw: bytes) -> bytes:
    """The colons and brackets outside strings of the UTF-8 text ``raw``.

    Exact whenever ``raw`` is valid JSON or a valid prefix of it (then
    backslashes only occur inside strings, as escapes).  Built from C-speed
    bytes operations: UTF-8 never produces ASCII bytes inside multi-byte
    sequences; escaped backslashes and quotes are dropped so that the
    remaining quotes alternate open/close; everything but quotes, colons and
    brackets is deleted; the quoted segments are cut out.
    """
    if b"\\" in raw:
        kept = raw.translate(_FIRST_PASS, _DROP_FIRST)
        if b'\\"' in kept:
            # A run of backslashes reads as pairs from its start; what is
            # left before a quote escapes it.
            kept = kept.replace(b"\\\\", b"").replace(b'\\"', b"")
        skeleton = kept.translate(None, b"\\x")
    else:
        skeleton = raw.translate(None, _DROP_BUT_MEMBERS)
    # Removing two adjacent quotes keeps the open/close parity of all the
    # others, and most strings hold no colon or bracket: few quotes remain.
    skeleton = skeleton.replace(b'""', b"")
    if b'"' in skeleton:
        skeleton = b"".join(skeleton.split(b'"')[::2])
    return skeleton


def _brackets(text: str, stop: int) -> bytes:
    return _structure(text, stop).translate(None, b":")


def _max_nesting(brackets: bytes) -> int:
    """Largest number of simultaneously open brackets (prefix maximum)."""
    if not brackets:
        return 0
    return max(accumulate(memoryview(brackets.translate(_TO_STEPS)).cast("b")))


def _brackets_exceed(brackets: bytes, max_depth: int) -> bool:
    """Whether a bracket sequence nests deeper than ``max_depth``."""
    if len(brackets) <= max_depth:
        return False
    # Each round of deleting adjacent "()" pairs lowers the nesting of a
    # balanced sequence by exactly one; typical (shallow) structures vanish
    # in a few rounds.  Past a work budget, or for an unbalanced sequence,
    # the exact prefix maximum is computed instead.
    parens = brackets.translate(_TO_PARENS)
    rounds = 0
    budget = 8 * len(parens)
    while parens and rounds <= max_depth and budget > 0:
        shorter = parens.replace(b"()", b"")
        if len(shorter) == len(parens):
            break
        budget -= len(parens)
        parens = shorter
        rounds += 1
    if not parens:
        return rounds > max_depth
    return _max_nesting(brackets) > max_depth


def _text_too_deep(text: str, end: int, max_depth: int) -> bool:
    """Whether the valid JSON ``text[:end]`` nests deeper than ``max_depth``."""
    if end <= 16384 and text.count("[", 0, end) + text.count("{", 0, end) <= max_depth:
        return False
    return _brackets_exceed(_brackets(text, end), max_depth)


def _inspect(value: Any, text: str, end: int, max_depth: int, unicode: bool) -> tuple[bool, bool]:
    """(too deep, lone surrogate) for ``value`` parsed from ``text[:end]``.

    A lone surrogate escape always decodes to a surrogate code point, and a
    raw one is copied as is, so looking at the decoded keys and strings is
    exact; for values with many members, regular expressions over the text
    are cheaper.
    """
    deep = end > 2 * max_depth  # each level costs an opening and a closing bracket
    if not deep and not unicode:
        return False, False
    if end >= 4096:  # below that, the scans cost about as little as the walk
        walked = _walk(value, max_depth if deep else end, unicode, 8 + end // 512)
        if walked is not None:
            return walked
    strings = unicode and ("\\" in text or not text.isascii())
    too_deep = deep and _text_too_deep(text, end, max_depth)
    return too_deep, strings and not too_deep and _lone_surrogate(text, end) is not None


def _prefix_exceeds(text: str, stop: int, max_depth: int) -> bool:
    """Whether the valid JSON prefix ``text[:stop]`` opens more than
    ``max_depth`` containers at some point."""
    if stop <= max_depth:
        return False
    if text.count("[", 0, stop) + text.count("{", 0, stop) <= max_depth:
        return False
    return _max_nesting(_brackets(text, stop)) > max_depth


# --------------------------------------------------------------------------
# Lone surrogates

_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
# Run on text whose escaped backslashes were blanked out, so that every
# remaining backslash starts an escape: a high surrogate escape not followed
# by a low one, or a low one not preceded by a high one.
_LONE_SURROGATE_ESCAPE: Final = re.compile(
    r"\\u[dD](?:[89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD])[c-fC-F][0-9a-fA-F]{2})"
)


def _lone_surrogate_escape(text: str, end: int) -> int:
    """Offset of the first lone surrogate escape in the valid JSON ``text[:end]``."""
    candidate = _SURROGATE_ESCAPE.search(text, 0, end)
    if candidate is None:
        return -1
    if "\\\\" in text:
        # Same length, so offsets are preserved; runs of backslashes pair up
        # left to right exactly as the parser reads them.
        text = text.replace("\\\\", "__")
    found = _LONE_SURROGATE_ESCAPE.search(text, candidate.start(), end)
    return -1 if found is None else found.start()


# --------------------------------------------------------------------------
# Locating errors.  Runs only once an error is known.  It walks the text the
# way the parser reads it, one member at a time; a member that is itself an
# array or object is first run through the C scanner with every check on
# (and measured for depth), and skipped at C speed if that finds nothing,
# so Python only looks at the members on the path to the problem.

_SCALAR: Final = re.compile(
    r"""
    (?P<str>"[^"\\]*(?:\\.[^"\\]*)*")
    |(?P<const>NaN|-?Infinity)
    |(?P<num>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
    |(?P<lit>true|false|null)
    """,
    re.VERBOSE | re.DOTALL,
)
_SKIP_WS: Final = re.compile(r"[ \t\n\r]*")
_NO_LIMIT: Final = 1 << 62

try:
    from _json import scanstring as _scanstring
except ImportError:  # pragma: no cover - CPython always has the C accelerator
    _scanstring = json.decoder.py_scanstring  # type: ignore[attr-defined]


def _pointer(segments: list[str]) -> str:
    return "".join("/" + s.replace("~", "~0").replace("/", "~1") for s in segments)


def _number_problem(literal: str, limit: int) -> str | None:
    if len(literal) > limit:
        return _TOO_LONG
    if "." in literal or "e" in literal or "E" in literal:
        value = float(literal)
        return _OUT_OF_RANGE if value - value != 0.0 else None
    try:
        int(literal)
    except ValueError:
        return _TOO_LONG
    return None


class _Found:
    __slots__ = ("detail", "offset", "path")

    def __init__(self, offset: int, path: str | None = None, detail: str = "") -> None:
        self.offset = offset
        self.path = path
        self.detail = detail


def _skip_ws(text: str, pos: int) -> int:
    m = _SKIP_WS.match(text, pos)
    return pos if m is None else m.end()


def _locate(
    text: str,
    stop: int,
    *,
    duplicates: bool = False,
    constants: bool = False,
    number_limit: int | None = None,
) -> _Found | None:
    """The first of the requested problems in ``text[:stop]``, in reading
    order, or None (also if the text stops being valid JSON first)."""
    if stop < len(text):
        text = text[:stop]
    n = len(text)
    limit = _NO_LIMIT if number_limit is None else number_limit
    checker = _bounded_scanner(limit)

    def clean_container(at: int) -> int:
        """End of the container opened at ``at`` if none of the problems
        can be inside it, else -1."""
        try:
            end: int = checker(text, at)[1]
        except (_Rejected, ValueError, StopIteration, RecursionError):
            return -1
        return end

    def scalar(at: int) -> tuple[_Found | None, int]:
        """(the problem found at ``at``, end of the scalar); end is -1 for
        something that is not a scalar."""
        m = _SCALAR.match(text, at)
        if m is None:
            return None, -1
        kind = m.lastgroup
        if kind == "const" and constants:
            return _Found(at, None, m.group()), m.end()
        if kind == "num" and number_limit is not None:
            problem = _number_problem(m.group(), limit)
            if problem is not None:
                return _Found(at, None, problem), m.end()
        return None, m.end()

    segments: list[str] = []
    at = _skip_ws(text, 0)
    if at >= n:
        return None
    if text[at] not in "[{":
        return scalar(at)[0]
    # Each turn of this loop walks one container on the path to the problem.
    while True:
        is_object = text[at] == "{"
        keys: set[str] = set()
        index = 0
        pos = _skip_ws(text, at + 1)
        while True:
            if pos >= n:
                return None
            if is_object:
                if text[pos] != '"':
                    return None  # also the end of an empty object
                try:
                    key, after = _scanstring(text, pos + 1)
                except ValueError:
                    return None
                if duplicates and key in keys:
                    return _Found(pos, _pointer(segments), key)
                keys.add(key)
                colon = _skip_ws(text, after)
                if colon >= n or text[colon] != ":":
                    return None
                pos = _skip_ws(text, colon + 1)
                segment = key
            else:
                segment = str(index)
            if pos >= n:
                return None
            if text[pos] in "[{":
                end = clean_container(pos)
                if end < 0:  # the problem is in there: walk it next
                    segments.append(segment)
                    at = pos
                    break
            else:
                found, end = scalar(pos)
                if found is not None or end < 0:
                    return found
            pos = _skip_ws(text, end)
            if pos < n and text[pos] == ",":
                pos = _skip_ws(text, pos + 1)
                index += 1
                continue
            return None  # the container ended (or broke off) without the problem


# --------------------------------------------------------------------------
# Errors


def _fail(code: Code, message: str, path: str | None = None) -> NoReturn:
    raise ProtocolError(code, message, path=path)


def _excerpt(s: str) -> str:
    return repr(excerpt(s, _EXCERPT))


def _first_too_deep(text: str, stop: int, max_depth: int) -> int:
    """Offset of the first bracket in ``text[:stop]`` (a valid JSON prefix)
    that opens level ``max_depth + 1``, or -1 if there is none."""

    def exceeds(length: int) -> bool:
        return _max_nesting(_brackets(text, length)) > max_depth

    if not exceeds(stop):
        return -1
    # Exponential then binary search for the shortest prefix that is too
    # deep: cheap when the violation comes early, O(n log n) at worst.
    low, high = max_depth, min(stop, 2 * max_depth + 2)
    while not exceeds(high):
        low, high = high, min(stop, 2 * high)
    while high - low > 1:
        middle = (low + high) // 2
        if exceeds(middle):
            high = middle
        else:
            low = middle
    return high - 1


def _too_deep(text: str, stop: int, max_depth: int) -> NoReturn:
    offset = _first_too_deep(text, stop, max_depth)
    if offset < 0:  # deeper than the C scanner can go, but allowed
        _fail(Code.LIMIT_EXCEEDED, "nesting too deep for the parser")
    _fail(Code.LIMIT_EXCEEDED, f"nesting deeper than {max_depth} levels at offset {offset}")


def _malformed(text: str, pos: int, reason: str, max_depth: int) -> NoReturn:
    # A nesting violation before the syntax error is reported first, so that
    # truncated deep input gets the same answer whatever the parser's
    # recursion limit.
    if _prefix_exceeds(text, pos, max_depth):
        _too_deep(text, pos, max_depth)
    _fail(Code.MALFORMED_JSON, f"malformed JSON at offset {pos}: {reason}")


def _decoder_reason(msg: str) -> str:
    if msg.endswith(" at"):
        msg = msg[:-3]
    return msg[:1].lower() + msg[1:]


def _rejected(text: str, exc: _Rejected, limit: int) -> NoReturn:
    if exc.what == _DUPLICATE:
        found = _locate(text, len(text), duplicates=True)
        if found is None:  # pragma: no cover - the tokenizer agrees with the parser
            _fail(Code.DUPLICATE_KEY, "duplicate key in object")
        where = f"object at {found.path}" if found.path else "top-level object"
        _fail(
            Code.DUPLICATE_KEY,
            f"duplicate key {_excerpt(found.detail)} at offset {found.offset} in {where}",
            found.path,
        )
    if exc.what == _CONSTANT:
        found = _locate(text, len(text), constants=True)
        at = "" if found is None else f" at offset {found.offset}"
        name = "" if found is None else f" {found.detail}"
        _fail(Code.NON_FINITE_NUMBER, f"non-finite number{name}{at} is not valid JSON")
    found = _locate(text, len(text), number_limit=limit)
    at = "" if found is None else f" at offset {found.offset}"
    if (exc.what if found is None else found.detail) == _OUT_OF_RANGE:
        _fail(Code.LIMIT_EXCEEDED, f"number out of range{at}: it overflows a double")
    _fail(Code.LIMIT_EXCEEDED, f"number literal{at} is longer than {limit} characters")


# --------------------------------------------------------------------------
# Entry point


def loads_strict(
    text: str,
    *,
    max_depth: int = 128,
    max_number_chars: int = 1000,
    allow_lone_surrogates: bool = False,
) -> Any:
    """Parse ``text`` as exactly one RFC 8259 JSON text.

    Returns dicts, lists, str, int, float, bool and None, like ``json.loads``.
    Raises :class:`ProtocolError` with MALFORMED_JSON, TRAILING_DATA,
    NON_FINITE_NUMBER, DUPLICATE_KEY (``path`` is the JSON pointer of the
    object, ``""`` for the top level), INVALID_UNICODE or LIMIT_EXCEEDED
    (nesting deeper than ``max_depth`` arrays and objects, a number literal
    longer than ``max_number_chars`` characters, or a number that overflows a
    double).

    When a text has several problems, the first one the parser meets wins
    (a duplicate key is met when its object ends); nesting depth is checked
    once the value is complete (or when the parser gives up on deep input),
    then lone surrogates, then trailing data.

    ``allow_lone_surrogates=True`` skips the INVALID_UNICODE check (for
    containers such as fixture files whose strings are checked later); the
    returned strings may then hold surrogate code points.
    """
    scanner = _EXACT_SCANNER
    n = len(text)
    if n <= max_number_chars:
        # The usual call's arguments: too short for a number past the limit.
        # One scan with every hook, then each screen only where it could
        # find something; on anything else the reference route reads the
        # text again and reports its first problem, in the usual order.
        try:
            value, end = scanner(text, 0)
        except (ValueError, StopIteration, _Rejected, RecursionError, MemoryError):
            pass
        else:
            if end == n and (n <= 2 * max_depth or not _text_too_deep(text, n, max_depth)):
                if allow_lone_surrogates or (text.isascii() and "\\" not in text):
                    return value
                if _lone_surrogate(text, n) is None:
                    return value
    else:
        if _may_hold_long_number(text, max_number_chars):
            scanner = _bounded_scanner(max_number_chars)
        elif n >= 2048 and _looks_dense(text):
            value = _loads_counting(text, max_depth, allow_lone_surrogates)
            if value is not _RETRY:
                return value
    return _loads_exact(text, scanner, max_depth, max_number_chars, allow_lone_surrogates)


_RETRY: Final = object()
_BARE_SCANNER: Final = _new_scanner()


def loads_unchecked(
    text: str, *, max_number_chars: int = 1000
) -> dict[str, Any] | list[Any] | None:
    """The object or array in ``text``, read by the C scanner with only the
    checks that cost nothing on clean input (numbers, constants, control
    characters, trailing data): a repeated key silently replaces the first,
    depth is not bounded and lone surrogates pass.  None when the text is
    anything else or has any other problem; :func:`loads_strict` then says
    what.  For callers that prove the rest afterwards
    (:mod:`toolstream.ledger`)."""
    n = len(text)
    if n > max_number_chars and _may_hold_long_number(text, max_number_chars):
        return None
    try:
        value, end = _BARE_SCANNER(text, _start(text))
    except (ValueError, StopIteration, _Rejected, RecursionError, MemoryError):
        return None
    if end != n and _NON_WS.search(text, end) is not None:
        return None
    kind = type(value)
    return value if kind is dict or kind is list else None


def _start(text: str) -> int:
    if text and text[0] in _WS_CHARS:
        return len(text) - len(text.lstrip(_WS_CHARS))
    return 0


def _lone_surrogate(text: str, end: int) -> tuple[int, str] | None:
    """First lone surrogate (escaped or raw) in the valid JSON ``text[:end]``."""
    escaped = _lone_surrogate_escape(text, end) if "\\" in text else -1
    raw = -1 if text.isascii() else find_lone_surrogate(text)
    if 0 <= raw < end and (escaped < 0 or raw < escaped):
        return raw, "lone surrogate code point"
    if escaped >= 0:
        return escaped, "lone surrogate escape"
    return None


def _loads_counting(text: str, max_depth: int, allow_lone_surrogates: bool) -> Any:
    """Fast route for object-heavy texts; _RETRY unless everything is fine.

    The C scanner builds the dicts itself (duplicates silently collapse) and
    a hook sums their sizes.  Every member has exactly one colon outside
    strings, so the text is free of duplicate keys iff that sum equals the
    number of structural colons: ``text.count(":")`` when no string holds a
    colon, else the bytes-level structure scan (which also gives the depth).
    Anything unusual is left to the exact route, which then reports it with
    the usual precedence.
    """
    counter = _COUNTER
    counter.take()
    try:
        value, end = counter.scan(text, _start(text))
    except (ValueError, StopIteration, _Rejected, RecursionError, MemoryError):
        # JSONDecodeError and integers past the conversion limit are ValueErrors.
        counter.take()
        return _RETRY
    members: int = counter.take()
    n = len(text)
    if end != n and _NON_WS.search(text, end) is not None:
        return _RETRY
    deep = end > 2 * max_depth  # each level costs an opening and a closing bracket
    big = n > 16384  # the counts below would cost about as much as the scan
    if members and (big or text.count(":") != members):
        scan = True  # strings hold colons (or a key repeats): count the real ones
    else:
        members = 0  # no key repeats
        scan = deep and (big or text.count("[") + text.count("{") > max_depth)
    raw_surrogates: bool | None = None
    if scan:
        raw, raw_surrogates = _utf8(text)
        skeleton = _structure_of(raw)
        if members and skeleton.count(b":") != members:
            return _RETRY
        if deep and _brackets_exceed(skeleton.translate(None, b":"), max_depth):
            return _RETRY
    if not allow_lone_surrogates:
        if raw_surrogates is None:
            raw_surrogates = find_lone_surrogate(text) >= 0
        if raw_surrogates or ("\\" in text and _lone_surrogate_escape(text, end) >= 0):
            return _RETRY
    return value


def _loads_exact(
    text: str,
    scanner: _Scanner,
    max_depth: int,
    max_number_chars: int,
    allow_lone_surrogates: bool,
) -> Any:
    """The reference route: hooks reject as the parser goes."""
    n = len(text)
    start = _start(text)
    try:
        value, end = scanner(text, start)
    except StopIteration as exc:
        pos = exc.value
        reason = "expecting a value" if pos < n else "empty input" if n == 0 else "only whitespace"
        _malformed(text, pos, reason, max_depth)
    except json.JSONDecodeError as exc:
        _malformed(text, exc.pos, _decoder_reason(exc.msg), max_depth)
    except _Rejected as exc:
        _rejected(text, exc, max_number_chars)
    except RecursionError:
        _too_deep(text, n, max_depth)
    except ValueError:
        # Integers past sys.get_int_max_str_digits() on the C fast path.
        found = _locate(text, n, number_limit=max_number_chars)
        where = "" if found is None else f" at offset {found.offset}"
        _fail(Code.LIMIT_EXCEEDED, f"integer literal{where} is too long to convert")
    except MemoryError:
        _fail(Code.LIMIT_EXCEEDED, "input too large to parse")

    if (
        end == n
        and end <= 2 * max_depth
        and (allow_lone_surrogates or ("\\" not in text and text.isascii()))
    ):
        return value  # the common case for small arguments: nothing left to check
    too_deep, has_lone = _inspect(value, text, end, max_depth, not allow_lone_surrogates)
    if too_deep:
        _too_deep(text, end, max_depth)
    if has_lone:
        lone = _lone_surrogate(text, end)
        if lone is None:  # pragma: no cover - the walk and the scan agree
            _fail(Code.INVALID_UNICODE, "lone surrogate in a string")
        _fail(Code.INVALID_UNICODE, f"{lone[1]} at offset {lone[0]}")

    if end != n:
        extra = _NON_WS.search(text, end)
        if extra is not None:
            at = extra.start()
            if at == end and text[start] in _SCALAR_STARTS and text[at] in _WORD_CHARS:
                _fail(
                    Code.MALFORMED_JSON,
                    f"malformed JSON at offset {start}: invalid number or literal",
                )
            _fail(Code.TRAILING_DATA, f"trailing data at offset {at} after the JSON value")
    return value
