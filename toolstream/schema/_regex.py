"""The ``pattern`` keyword: a subset of ECMA-262 regular expressions, run in linear time.

Python's :mod:`re` backtracks and has no timeout, so a pattern such as
``^(a+)+$`` or even ``\\d+\\d+x`` can take minutes on a long argument.  This
module therefore never hands a schema pattern to :mod:`re`.  It parses the
pattern itself (refusing what it does not understand), compiles it to a
Thompson NFA and runs a boolean, unanchored search by simulating that NFA
with a lazily built DFA cache.  The work per call is linear in the length of
the string and capped by :data:`STEP_BUDGET`; if the cap is reached, the
search gives up and the caller reports a violation (fail closed).

Supported syntax, with ECMA-262 meaning (``u`` flag, no other flags):

* literals, ``.`` (any code point except ``\\n \\r \\u2028 \\u2029``),
  ``^`` and ``$`` (start and end of the string only: ``$`` does *not* match
  before a final newline as it does in Python);
* classes ``[...]``, ``[^...]`` with ranges, ``[]`` (matches nothing) and
  ``[^]`` (matches anything);
* escapes ``\\d \\D \\w \\W \\s \\S`` (``\\d`` and ``\\w`` are ASCII-only,
  ``\\s`` is ECMA white space and line terminators), ``\\b \\B``,
  ``\\t \\n \\v \\f \\r \\0``, ``\\xHH``, ``\\uHHHH`` (a surrogate pair of
  escapes is one code point), ``\\u{H...}``, ``\\cX``, and an escaped
  punctuation character standing for itself;
* groups ``(...)``, ``(?:...)``, ``(?<name>...)``; alternation ``|``;
* quantifiers ``* + ? {n} {n,} {n,m}`` (``n, m <=`` :data:`MAX_REPEAT`),
  greedy or lazy (the difference is irrelevant to a yes/no search).

* Unicode general categories ``\\p{L}``, ``\\p{Letter}``,
  ``\\p{gc=Lu}``, ``\\p{General_Category=Decimal_Number}`` and their
  negations ``\\P{...}``, from :mod:`unicodedata` (Python's Unicode
  version, which may be older or newer than a given engine's).

Refused as ``unsupported_schema_keyword``: backreferences (``\\1``,
``\\k<name>``), lookahead and lookbehind, property escapes other than
general categories (scripts ``\\p{Script=Greek}``, binary properties
``\\p{Alphabetic}``), inline flags,
escapes of letters or digits with no ECMA meaning (``\\a``, ``\\z``...),
unescaped ``{ } ]`` used as literals, patterns longer than
:data:`MAX_PATTERN_LENGTH` code points, groups nested deeper than
:data:`MAX_GROUP_DEPTH` and patterns whose NFA exceeds :data:`MAX_STATES`
states.  Syntax errors (unbalanced parentheses, nothing to repeat, ranges
out of order, bad escapes) are ``invalid_schema``.
"""

from __future__ import annotations

import bisect
import functools
import unicodedata
from dataclasses import dataclass

from toolstream.findings import Code

MAX_PATTERN_LENGTH = 1_000
"""Longest accepted pattern, in code points."""
MAX_REPEAT = 1_000
"""Largest bound accepted in a ``{n,m}`` quantifier."""
MAX_GROUP_DEPTH = 32
"""Deepest accepted nesting of groups."""
MAX_STATES = 5_000
"""Largest NFA, after counted repetitions are expanded."""
STEP_BUDGET = 2_000_000
"""NFA state visits one search may spend building its DFA cache."""

_MAX_CP = 0x10FFFF

Ranges = tuple[tuple[int, int], ...]


class PatternError(Exception):
    """A pattern that is refused (``unsupported``) or malformed."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _unsupported(message: str) -> PatternError:
    return PatternError(Code.UNSUPPORTED_SCHEMA_KEYWORD, message)


def _invalid(message: str) -> PatternError:
    return PatternError(Code.INVALID_SCHEMA, message)


# --- character sets -------------------------------------------------------------------------


def _normalize(ranges: list[tuple[int, int]]) -> Ranges:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def _complement(ranges: Ranges) -> Ranges:
    out: list[tuple[int, int]] = []
    nxt = 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= _MAX_CP:
        out.append((nxt, _MAX_CP))
    return tuple(out)


_DIGIT: Ranges = ((0x30, 0x39),)
_WORD: Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_SPACE: Ranges = _normalize(
    [
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ]
)
_DOT: Ranges = _complement(_normalize([(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]))
_ANY: Ranges = ((0, _MAX_CP),)
_CLASS_ESCAPES: dict[str, Ranges] = {
    "d": _DIGIT,
    "D": _complement(_DIGIT),
    "w": _WORD,
    "W": _complement(_WORD),
    "s": _SPACE,
    "S": _complement(_SPACE),
}
_CONTROL_ESCAPES = {"t": 0x09, "n": 0x0A, "v": 0x0B, "f": 0x0C, "r": 0x0D}
_HEX = frozenset("0123456789abcdefABCDEF")
_QUANTIFIER_START = frozenset("*+?{")


# General categories (ECMA-262 table "Value aliases and canonical values
# for the Unicode property General_Category"), each standing for the
# two-letter categories of unicodedata it unites.
_CATEGORY_GROUPS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("L", "Letter"): ("Lu", "Ll", "Lt", "Lm", "Lo"),
    ("LC", "Cased_Letter"): ("Lu", "Ll", "Lt"),
    ("Lu", "Uppercase_Letter"): ("Lu",),
    ("Ll", "Lowercase_Letter"): ("Ll",),
    ("Lt", "Titlecase_Letter"): ("Lt",),
    ("Lm", "Modifier_Letter"): ("Lm",),
    ("Lo", "Other_Letter"): ("Lo",),
    ("M", "Mark", "Combining_Mark"): ("Mn", "Mc", "Me"),
    ("Mn", "Nonspacing_Mark"): ("Mn",),
    ("Mc", "Spacing_Mark"): ("Mc",),
    ("Me", "Enclosing_Mark"): ("Me",),
    ("N", "Number"): ("Nd", "Nl", "No"),
    ("Nd", "Decimal_Number", "digit"): ("Nd",),
    ("Nl", "Letter_Number"): ("Nl",),
    ("No", "Other_Number"): ("No",),
    ("P", "Punctuation", "punct"): ("Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"),
    ("Pc", "Connector_Punctuation"): ("Pc",),
    ("Pd", "Dash_Punctuation"): ("Pd",),
    ("Ps", "Open_Punctuation"): ("Ps",),
    ("Pe", "Close_Punctuation"): ("Pe",),
    ("Pi", "Initial_Punctuation"): ("Pi",),
    ("Pf", "Final_Punctuation"): ("Pf",),
    ("Po", "Other_Punctuation"): ("Po",),
    ("S", "Symbol"): ("Sm", "Sc", "Sk", "So"),
    ("Sm", "Math_Symbol"): ("Sm",),
    ("Sc", "Currency_Symbol"): ("Sc",),
    ("Sk", "Modifier_Symbol"): ("Sk",),
    ("So", "Other_Symbol"): ("So",),
    ("Z", "Separator"): ("Zs", "Zl", "Zp"),
    ("Zs", "Space_Separator"): ("Zs",),
    ("Zl", "Line_Separator"): ("Zl",),
    ("Zp", "Paragraph_Separator"): ("Zp",),
    ("C", "Other"): ("Cc", "Cf", "Cs", "Co", "Cn"),
    ("Cc", "Control", "cntrl"): ("Cc",),
    ("Cf", "Format"): ("Cf",),
    ("Cs", "Surrogate"): ("Cs",),
    ("Co", "Private_Use"): ("Co",),
    ("Cn", "Unassigned"): ("Cn",),
}
_CATEGORY_VALUES = {name: cats for names, cats in _CATEGORY_GROUPS.items() for name in names}
_GENERAL_CATEGORY_NAMES = frozenset({"General_Category", "gc"})
_SCRIPT_NAMES = frozenset({"Script", "sc", "Script_Extensions", "scx"})


@functools.cache
def _two_letter_categories() -> dict[str, Ranges]:
    """Every code point's category from :mod:`unicodedata` (Python's
    Unicode version: ``unicodedata.unidata_version``), as ranges; built
    once, on the first pattern that needs it."""
    found: dict[str, list[tuple[int, int]]] = {}
    category = unicodedata.category
    current = category("\x00")
    start = 0
    for cp in range(1, _MAX_CP + 1):
        here = category(chr(cp))
        if here != current:
            found.setdefault(current, []).append((start, cp - 1))
            current, start = here, cp
    found.setdefault(current, []).append((start, _MAX_CP))
    return {name: tuple(ranges) for name, ranges in found.items()}


@functools.cache
def _category_ranges(categories: tuple[str, ...]) -> Ranges:
    table = _two_letter_categories()
    return _normalize([r for name in categories for r in table.get(name, ())])


def _in(ranges: Ranges, cp: int) -> bool:
    for lo, hi in ranges:
        if cp < lo:
            return False
        if cp <= hi:
            return True
    return False


# --- syntax tree ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Chars:
    ranges: Ranges


@dataclass(frozen=True)
class _Assert:
    kind: str  # "^", "$", "b" or "B"


@dataclass(frozen=True)
class _Seq:
    items: tuple[_Node, ...]


@dataclass(frozen=True)
class _Alt:
    branches: tuple[_Node, ...]


@dataclass(frozen=True)
class _Repeat:
    node: _Node
    low: int
    high: int | None


_Node = _Chars | _Assert | _Seq | _Alt | _Repeat


class _Parser:
    def __init__(self, source: str) -> None:
        self.src = source
        self.pos = 0
        self.depth = 0

    def peek(self, offset: int = 0) -> str:
        at = self.pos + offset
        return self.src[at] if at < len(self.src) else ""

    def parse(self) -> _Node:
        node = self.alternation()
        if self.pos < len(self.src):
            # Only an unmatched ')' stops the top-level alternation early.
            raise _invalid(f"unmatched ')' at offset {self.pos}")
        return node

    def alternation(self) -> _Node:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.pos += 1
            branches.append(self.sequence())
        return branches[0] if len(branches) == 1 else _Alt(tuple(branches))

    def sequence(self) -> _Node:
        items: list[_Node] = []
        while self.pos < len(self.src) and self.peek() not in "|)":
            atom = self.atom()
            bounds = self.quantifier()
            if bounds is not None:
                if isinstance(atom, _Assert):
                    raise _invalid(f"nothing to repeat at offset {self.pos}")
                atom = _Repeat(atom, bounds[0], bounds[1])
                if self.peek() in _QUANTIFIER_START and self._quantifier_ahead():
                    raise _invalid(f"nothing to repeat at offset {self.pos}")
            items.append(atom)
        return items[0] if len(items) == 1 else _Seq(tuple(items))

    def _quantifier_ahead(self) -> bool:
        char = self.peek()
        if char in ("*", "+", "?"):
            return True
        return char == "{" and self._braces() is not None

    def _braces(self) -> tuple[int, int | None, int] | None:
        """Parse ``{n}``, ``{n,}`` or ``{n,m}`` at the cursor without consuming it:
        (low, high, length) or None if it is not a quantifier."""
        src, at = self.src, self.pos + 1
        start = at
        while at < len(src) and src[at].isascii() and src[at].isdigit():
            at += 1
        if at == start or at - start > 6:
            return None
        low = int(src[start:at])
        high: int | None = low
        if at < len(src) and src[at] == ",":
            at += 1
            start = at
            while at < len(src) and src[at].isascii() and src[at].isdigit():
                at += 1
            if at - start > 6:
                return None
            high = int(src[start:at]) if at > start else None
        if at >= len(src) or src[at] != "}":
            return None
        return low, high, at + 1 - self.pos

    def quantifier(self) -> tuple[int, int | None] | None:
        char = self.peek()
        if char == "*":
            low, high, length = 0, None, 1
        elif char == "+":
            low, high, length = 1, None, 1
        elif char == "?":
            low, high, length = 0, 1, 1
        elif char == "{":
            braces = self._braces()
            if braces is None:
                raise _unsupported(f"literal '{{' at offset {self.pos} must be escaped as '\\{{'")
            low, high, length = braces
            if high is not None and high < low:
                raise _invalid(f"quantifier {{{low},{high}}} has its bounds out of order")
            if low > MAX_REPEAT or (high is not None and high > MAX_REPEAT):
                raise _unsupported(f"quantifier bounds above {MAX_REPEAT} are refused")
        else:
            return None
        self.pos += length
        if self.peek() == "?":
            self.pos += 1  # lazy: same yes/no answer
        return low, high

    def atom(self) -> _Node:
        char = self.peek()
        at = self.pos
        if char == "(":
            return self.group()
        if char == "[":
            return self.char_class()
        self.pos += 1
        if char == ".":
            return _Chars(_DOT)
        if char == "^" or char == "$":
            return _Assert(char)
        if char == "\\":
            return self.atom_escape()
        if char in "*+?":
            raise _invalid(f"nothing to repeat at offset {at}")
        if char == "{":
            self.pos = at
            if self._braces() is not None:
                raise _invalid(f"nothing to repeat at offset {at}")
            raise _unsupported(f"literal '{{' at offset {at} must be escaped as '\\{{'")
        if char in "}]":
            raise _unsupported(f"literal {char!r} at offset {at} must be escaped as '\\{char}'")
        return _Chars(((ord(char), ord(char)),))

    def group(self) -> _Node:
        start = self.pos
        self.pos += 1
        if self.peek() == "?":
            nxt = self.peek(1)
            if nxt == ":":
                self.pos += 2
            elif nxt == "":
                raise _invalid(f"unterminated group opened at offset {start}")
            elif nxt in ("=", "!") or (nxt == "<" and self.peek(2) in ("=", "!")):
                raise _unsupported(f"lookaround at offset {start} is not supported")
            elif nxt == "<":
                self.pos += 2
                name_start = self.pos
                while self.peek() and (self.peek().isalnum() or self.peek() in "_$"):
                    self.pos += 1
                if self.pos == name_start or self.peek() != ">":
                    raise _invalid(f"malformed group name at offset {start}")
                self.pos += 1
            else:
                raise _unsupported(
                    f"group syntax '(?{nxt}' at offset {start} is not ECMA-262"
                    " (inline flags are not supported)"
                )
        self.depth += 1
        if self.depth > MAX_GROUP_DEPTH:
            raise _unsupported(f"groups nested deeper than {MAX_GROUP_DEPTH} are refused")
        node = self.alternation()
        self.depth -= 1
        if self.peek() != ")":
            raise _invalid(f"missing ')' for the group opened at offset {start}")
        self.pos += 1
        # A group is an atom even around a lone assertion: "(?:\\b)*" is legal.
        return _Seq((node,)) if isinstance(node, _Assert) else node

    def _hex(self, count: int) -> int | None:
        digits = self.src[self.pos : self.pos + count]
        if len(digits) != count or not all(d in _HEX for d in digits):
            return None
        self.pos += count
        return int(digits, 16)

    def _code_point_escape(self, letter: str, at: int) -> int:
        """The value of ``\\x``, ``\\u`` or ``\\c`` escapes (cursor after the letter)."""
        if letter == "x":
            value = self._hex(2)
            if value is None:
                raise _invalid(f"'\\x' at offset {at} needs two hex digits")
            return value
        if letter == "c":
            control = self.peek()
            if not (control.isascii() and control.isalpha()):
                raise _invalid(f"'\\c' at offset {at} needs an ASCII letter")
            self.pos += 1
            return ord(control) % 32
        # letter == "u"
        if self.peek() == "{":
            end = self.src.find("}", self.pos)
            digits = self.src[self.pos + 1 : end] if end > 0 else ""
            if not digits or len(digits) > 8 or not all(d in _HEX for d in digits):
                raise _invalid(f"malformed '\\u{{...}}' escape at offset {at}")
            value = int(digits, 16)
            if value > _MAX_CP:
                raise _invalid(f"'\\u{{{digits}}}' at offset {at} is beyond U+10FFFF")
            self.pos = end + 1
            return value
        value = self._hex(4)
        if value is None:
            raise _invalid(f"'\\u' at offset {at} needs four hex digits")
        if 0xD800 <= value <= 0xDBFF and self.src.startswith("\\u", self.pos):
            saved = self.pos
            self.pos += 2
            low = self._hex(4)
            if low is not None and 0xDC00 <= low <= 0xDFFF:
                return 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            self.pos = saved
        return value

    def _property_escape(self, letter: str, at: int) -> Ranges:
        """``\\p{...}`` / ``\\P{...}`` (cursor after the letter): a general
        category, by short or long name, alone or as ``General_Category=``
        / ``gc=``.  Scripts and binary properties are refused."""
        end = self.src.find("}", self.pos)
        if self.peek() != "{" or end < 0:
            raise _invalid(f"'\\{letter}' at offset {at} needs a {{property}}")
        body = self.src[self.pos + 1 : end]
        self.pos = end + 1
        name, equals, value = body.partition("=")
        if equals and name not in _GENERAL_CATEGORY_NAMES:
            what = "a script" if name in _SCRIPT_NAMES else f"the property {name[:40]!r}"
            raise _unsupported(
                f"'\\{letter}{{{body[:60]}}}' at offset {at} names {what}; only general"
                " categories are supported"
            )
        wanted = value if equals else name
        categories = _CATEGORY_VALUES.get(wanted)
        if categories is None:
            if equals:
                raise _invalid(f"unknown general category {wanted[:40]!r} at offset {at}")
            raise _unsupported(
                f"'\\{letter}{{{body[:60]}}}' at offset {at} is not a general category;"
                " scripts and binary properties are not supported"
            )
        ranges = _category_ranges(categories)
        return _complement(ranges) if letter == "P" else ranges

    def _simple_escape(self, letter: str, at: int, in_class: bool) -> Ranges | int:
        """Escapes common to atoms and classes (cursor after the letter)."""
        if letter == "":
            raise _invalid("pattern ends with a lone backslash")
        if letter in _CLASS_ESCAPES:
            return _CLASS_ESCAPES[letter]
        if letter in _CONTROL_ESCAPES:
            return _CONTROL_ESCAPES[letter]
        if letter in "xuc":
            return self._code_point_escape(letter, at)
        if letter == "0":
            if self.peek().isascii() and self.peek().isdigit():
                raise _unsupported(f"octal escape at offset {at} is not supported")
            return 0
        if letter in "123456789":
            what = "an octal escape" if in_class else "a backreference"
            raise _unsupported(f"'\\{letter}' at offset {at} is {what}; not supported")
        if letter == "k":
            raise _unsupported(f"named backreference at offset {at} is not supported")
        if letter in "pP":
            return self._property_escape(letter, at)
        if letter.isascii() and letter.isalnum():
            raise _unsupported(
                f"escape '\\{letter}' at offset {at} has no ECMA-262 meaning"
                " (engines disagree on it)"
            )
        return ord(letter)

    def atom_escape(self) -> _Node:
        at = self.pos - 1
        letter = self.peek()
        self.pos += 1
        if letter in ("b", "B"):
            return _Assert(letter)
        value = self._simple_escape(letter, at, in_class=False)
        if isinstance(value, int):
            return _Chars(((value, value),))
        return _Chars(value)

    def class_atom(self) -> Ranges | int:
        char = self.peek()
        at = self.pos
        self.pos += 1
        if char != "\\":
            return ord(char)
        letter = self.peek()
        self.pos += 1
        if letter == "b":
            return 0x08
        if letter == "-":
            return ord("-")
        if letter == "B":
            raise _unsupported(f"'\\B' inside a class at offset {at} is not supported")
        return self._simple_escape(letter, at, in_class=True)

    def char_class(self) -> _Node:
        start = self.pos
        self.pos += 1
        negate = self.peek() == "^"
        if negate:
            self.pos += 1
        parts: list[tuple[int, int]] = []
        while True:
            if self.pos >= len(self.src):
                raise _invalid(f"unterminated character class opened at offset {start}")
            if self.peek() == "]":
                self.pos += 1
                break
            first = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.pos += 1
                second = self.class_atom()
                if not isinstance(first, int) or not isinstance(second, int):
                    raise _unsupported(
                        f"class escape used as a range bound in the class at offset {start}"
                    )
                if second < first:
                    raise _invalid(f"range out of order in the class at offset {start}")
                parts.append((first, second))
            elif isinstance(first, int):
                parts.append((first, first))
            else:
                parts.extend(first)
        ranges = _normalize(parts)
        return _Chars(_complement(ranges) if negate else ranges)


# --- NFA and search -------------------------------------------------------------------------

_CHAR, _SPLIT, _ASSERT, _MATCH = 0, 1, 2, 3


class _Builder:
    def __init__(self) -> None:
        self.kind: list[int] = []
        self.ranges: list[Ranges] = []
        self.label: list[str] = []
        self.out1: list[int] = []
        self.out2: list[int] = []

    def add(
        self, kind: int, out1: int = -1, out2: int = -1, ranges: Ranges = (), label: str = ""
    ) -> int:
        if len(self.kind) >= MAX_STATES:
            raise _unsupported(
                f"pattern is too large (more than {MAX_STATES} states once counted"
                " repetitions are expanded)"
            )
        self.kind.append(kind)
        self.ranges.append(ranges)
        self.label.append(label)
        self.out1.append(out1)
        self.out2.append(out2)
        return len(self.kind) - 1

    def compile(self, node: _Node, nxt: int) -> int:
        """Add states matching ``node`` then continuing at ``nxt``; return the entry."""
        if isinstance(node, _Chars):
            return self.add(_CHAR, nxt, ranges=node.ranges)
        if isinstance(node, _Assert):
            return self.add(_ASSERT, nxt, label=node.kind)
        if isinstance(node, _Seq):
            for item in reversed(node.items):
                nxt = self.compile(item, nxt)
            return nxt
        if isinstance(node, _Alt):
            entries = [self.compile(branch, nxt) for branch in node.branches]
            entry = entries[-1]
            for other in reversed(entries[:-1]):
                entry = self.add(_SPLIT, other, entry)
            return entry
        # _Repeat
        entry = nxt
        if node.high is None:
            loop = self.add(_SPLIT, -1, nxt)
            self.out1[loop] = self.compile(node.node, loop)
            entry = loop
        else:
            for _ in range(node.high - node.low):
                entry = self.add(_SPLIT, self.compile(node.node, entry), nxt)
        for _ in range(node.low):
            entry = self.compile(node.node, entry)
        return entry


def _is_word(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")


class Program:
    """A compiled pattern.  Immutable; :meth:`search` keeps its caches per call."""

    def __init__(self, builder: _Builder, start: int) -> None:
        self.kind = tuple(builder.kind)
        self.ranges = tuple(builder.ranges)
        self.label = tuple(builder.label)
        self.out1 = tuple(builder.out1)
        self.out2 = tuple(builder.out2)
        self.start = start
        self.has_end = "$" in self.label
        self.has_word = "b" in self.label or "B" in self.label
        # Alphabet partition: code points in one interval behave the same everywhere.
        cuts = {0, 0x30, 0x3A, 0x41, 0x5B, 0x5F, 0x60, 0x61, 0x7B}
        for ranges in self.ranges:
            for lo, hi in ranges:
                cuts.add(lo)
                if hi < _MAX_CP:
                    cuts.add(hi + 1)
        self.cuts = tuple(sorted(cuts))

    def _closure(
        self, seeds: list[int], at_start: bool, at_end: bool, prev_word: bool, next_word: bool
    ) -> tuple[frozenset[int], int]:
        """The CHAR and MATCH states reachable from ``seeds`` through epsilon moves,
        and the number of states visited."""
        kind, out1, out2, label = self.kind, self.out1, self.out2, self.label
        seen: set[int] = set()
        found: list[int] = []
        stack = list(seeds)
        while stack:
            state = stack.pop()
            if state in seen:
                continue
            seen.add(state)
            k = kind[state]
            if k == _SPLIT:
                stack.append(out2[state])
                stack.append(out1[state])
            elif k == _ASSERT:
                what = label[state]
                if what == "^":
                    ok = at_start
                elif what == "$":
                    ok = at_end
                elif what == "b":
                    ok = prev_word != next_word
                else:
                    ok = prev_word == next_word
                if ok:
                    stack.append(out1[state])
            else:
                found.append(state)
        return frozenset(found), len(seen)

    def search(self, text: str) -> bool | None:
        """Whether the pattern matches somewhere in ``text``; None if the step budget
        ran out before an answer (the caller must treat that as a failure)."""
        n = len(text)
        budget = STEP_BUDGET
        sets: list[frozenset[int]] = []
        is_match: list[bool] = []
        ids: dict[frozenset[int], int] = {}
        match_state = self.kind.index(_MATCH)

        def intern(states: frozenset[int]) -> int:
            number = ids.get(states)
            if number is None:
                number = len(sets)
                ids[states] = number
                sets.append(states)
                is_match.append(match_state in states)
            return number

        first, cost = self._closure([self.start], True, n == 0, False, n > 0 and _is_word(text[0]))
        budget -= cost
        current = intern(first)
        if is_match[current]:
            return True
        cuts = self.cuts
        classes: dict[str, int] = {}
        transitions: dict[tuple[int, int, bool, bool], int] = {}
        has_end, has_word = self.has_end, self.has_word
        kind, ranges, out1 = self.kind, self.ranges, self.out1
        for pos, char in enumerate(text):
            cls = classes.get(char)
            if cls is None:
                cls = bisect.bisect_right(cuts, ord(char)) - 1
                classes[char] = cls
            at_end = has_end and pos + 1 == n
            next_word = has_word and pos + 1 < n and _is_word(text[pos + 1])
            key = (current, cls, at_end, next_word)
            target = transitions.get(key)
            if target is None:
                if budget <= 0:
                    return None
                rep = cuts[cls]
                seeds = [out1[s] for s in sets[current] if kind[s] == _CHAR and _in(ranges[s], rep)]
                seeds.append(self.start)
                states, cost = self._closure(seeds, False, pos + 1 == n, _is_word(char), next_word)
                budget -= cost + len(sets[current])
                target = intern(states)
                transitions[key] = target
            if is_match[target]:
                return True
            current = target
        return False


@functools.lru_cache(maxsize=512)
def compile_pattern(pattern: str) -> Program:
    """Parse and compile ``pattern``; raises :class:`PatternError`."""
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise _unsupported(f"patterns longer than {MAX_PATTERN_LENGTH} characters are refused")
    tree = _Parser(pattern).parse()
    builder = _Builder()
    match = builder.add(_MATCH)
    start = builder.compile(tree, match)
    return Program(builder, start)
