"""JSON *text* helpers: a configurable serializer, fragment splitting and the
small textual edits the breaking operators make.

Everything here works on the arguments text exactly as it travels in the
stream (``\\uXXXX`` escapes are six ASCII characters; an escaped astral
character is the twelve characters of its surrogate pair).  Every choice is a
Hypothesis ``draw``.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

Draw = Callable[..., Any]

JSON_WS = " \t\n\r"


class _DuplicateKey(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"non-finite {name}")


def loads(text: str) -> Any:
    """Strict-enough parsing of text the generator itself produced or took
    from a valid seed: no NaN/Infinity, no duplicate keys (raises ValueError)."""
    return json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)


def parses(text: str) -> bool:
    try:
        loads(text)
    except (ValueError, RecursionError):
        return False
    return True


# -- serializer ------------------------------------------------------------


def _escape_char(ch: str, upper: bool) -> str:
    code = ord(ch)
    if code > 0xFFFF:
        code -= 0x10000
        high = 0xD800 + (code >> 10)
        low = 0xDC00 + (code & 0x3FF)
        text = f"\\u{high:04x}\\u{low:04x}"
    else:
        text = f"\\u{code:04x}"
    return text.upper().replace("\\U", "\\u") if upper else text


_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def dump_string(text: str, escape: str = "raw", upper: bool = False, slash: bool = False) -> str:
    """A JSON string literal.  ``escape``: ``raw`` (non-ASCII as is),
    ``ascii`` (non-ASCII as ``\\u`` escapes, astral as surrogate pairs),
    ``all`` (every character as a ``\\u`` escape), ``alternate`` (every
    other non-ASCII character escaped)."""
    out = ['"']
    seen_non_ascii = 0
    for ch in text:
        code = ord(ch)
        if escape == "all":
            out.append(_escape_char(ch, upper))
            continue
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif code < 0x20 or (code == 0x7F and escape != "raw"):
            out.append(_escape_char(ch, upper))
        elif ch == "/" and slash:
            out.append("\\/")
        elif code > 0x7E:
            seen_non_ascii += 1
            if escape == "ascii" or (escape == "alternate" and seen_non_ascii % 2 == 1):
                out.append(_escape_char(ch, upper))
            else:
                out.append(ch)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def dump_number(value: int | float) -> str:
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("non-finite number")
        return repr(value)
    return str(int(value))


def dumps(
    value: Any,
    *,
    item_sep: str = ",",
    key_sep: str = ":",
    indent: str | None = None,
    escape: str = "raw",
    upper: bool = False,
    slash: bool = False,
    lead: str = "",
    trail: str = "",
) -> str:
    """Serialize ``value`` (dicts keep their key order)."""

    def go(node: Any, depth: int) -> str:
        if node is True:
            return "true"
        if node is False:
            return "false"
        if node is None:
            return "null"
        if isinstance(node, (int, float)):
            return dump_number(node)
        if isinstance(node, str):
            return dump_string(node, escape, upper, slash)
        if isinstance(node, (list, tuple)):
            items = [go(v, depth + 1) for v in node]
            return _wrap("[", "]", items, depth)
        if isinstance(node, dict):
            items = [
                dump_string(k, escape, upper, slash) + key_sep + go(v, depth + 1)
                for k, v in node.items()
            ]
            return _wrap("{", "}", items, depth)
        raise TypeError(f"cannot serialize {type(node).__name__}")

    def _wrap(open_: str, close: str, items: list[str], depth: int) -> str:
        if not items:
            return open_ + close
        if indent is None:
            return open_ + item_sep.join(items) + close
        inner = "\n" + indent * (depth + 1)
        return (
            open_
            + inner
            + (item_sep.rstrip(" ") + inner).join(items)
            + "\n"
            + indent * depth
            + close
        )

    return lead + go(value, 0) + trail


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# -- drawing a style -------------------------------------------------------

_WS = st.sampled_from(["", " ", "  ", "\n", "\t", "\r\n", " \n  "])


def draw_style(draw: Draw) -> dict[str, Any]:
    """A serialization style; shrinks toward compact, raw Unicode."""
    return {
        "item_sep": "," + draw(_WS),
        "key_sep": draw(_WS) + ":" + draw(_WS),
        "indent": draw(st.sampled_from([None, "  ", "\t", " "])),
        "escape": draw(st.sampled_from(["raw", "ascii", "alternate", "all"])),
        "upper": draw(st.booleans()),
        "slash": draw(st.booleans()),
        "lead": draw(_WS),
        "trail": draw(_WS),
    }


def draw_reorder(draw: Draw, value: Any) -> Any:
    """The same value with object keys permuted (shrinks toward the original order)."""
    if isinstance(value, dict):
        keys = list(value)
        if len(keys) > 1 and draw(st.booleans()):
            keys = draw(st.permutations(keys))
        return {k: draw_reorder(draw, value[k]) for k in keys}
    if isinstance(value, list):
        return [draw_reorder(draw, v) for v in value]
    return value


# -- splitting ------------------------------------------------------------


def escape_cuts(text: str) -> list[int]:
    """Cut positions inside escapes: right after a backslash, inside the hex
    digits of ``\\uXXXX``, and between the two halves of an escaped
    surrogate pair."""
    cuts: list[int] = []
    i = 0
    n = len(text)
    while i < n:
        if text[i] != "\\" or i + 1 >= n:
            i += 1
            continue
        cuts.append(i + 1)
        if text[i + 1] == "u" and i + 6 <= n:
            cuts.extend(range(i + 2, i + 6))
            hexa = text[i + 2 : i + 6]
            if (
                i + 12 <= n
                and hexa[:1].lower() == "d"
                and hexa[1:2].lower() in "89ab"
                and text[i + 6 : i + 8].lower() == "\\u"
                and text[i + 8 : i + 9].lower() == "d"
                and text[i + 9 : i + 10].lower() in "cdef"
            ):
                cuts.append(i + 6)
            i += 6
        else:
            i += 2
    return [c for c in cuts if 0 < c < n]


def draw_split(draw: Draw, text: str, *, max_cuts: int = 6) -> list[str]:
    """Split ``text`` into fragments whose concatenation is ``text``.

    Cuts anywhere, preferentially inside escapes; optionally 1-character
    fragments; optionally empty fragments.  Shrinks toward one fragment.
    """
    cuts: set[int] = set()
    n = len(text)
    if n > 1:
        special = escape_cuts(text)
        if special and draw(st.booleans()):
            cuts.update(draw(st.lists(st.sampled_from(special), min_size=1, max_size=4)))
        cuts.update(draw(st.lists(st.integers(1, n - 1), max_size=max_cuts)))
        if n <= 200 and draw(st.booleans()):
            cuts.update(range(1, n))
    bounds = [0, *sorted(cuts), n]
    pieces = [text[a:b] for a, b in itertools.pairwise(bounds)] if n else [""]
    empties = draw(st.lists(st.integers(0, len(pieces)), max_size=3))
    for at in sorted(empties, reverse=True):
        pieces.insert(at, "")
    return pieces


# -- edits -----------------------------------------------------------------


def top_keys(text: str) -> list[str]:
    value = loads(text)
    return list(value) if isinstance(value, dict) else []


def fresh_key(text: str, base: str = "zq") -> str:
    """A key absent from the text's top-level object (and its text)."""
    taken = set(top_keys(text))
    n = 0
    while True:
        key = base if n == 0 else f"{base}{n}"
        if key not in taken and f'"{key}"' not in text:
            return key
        n += 1


def add_member(text: str, member: str) -> str:
    """Insert ``member`` (raw text ``"key": value``) as the last member of the
    top-level object ``text``."""
    end = text.rstrip(JSON_WS)
    assert end.endswith("}"), text
    close = len(end) - 1
    empty = not top_keys(text)
    return text[:close] + ("" if empty else ", ") + member + text[close:]
