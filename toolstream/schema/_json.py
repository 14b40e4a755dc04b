"""JSON semantics on Python values: types, equality, exact numbers, short reprs, pointers.

Python and JSON disagree in ways that matter to a validator: ``bool`` is a
subclass of ``int`` (``True == 1``), ``1 == 1.0`` is fine but ``0.07 % 0.01``
is not ``0``, and ``repr`` of a huge value is huge.  Everything here follows
JSON: booleans are never numbers, ``1.0`` is an integer, numbers compare by
mathematical value, and objects compare without regard to key order.

Numbers may be ``int``, ``float`` or :class:`decimal.Decimal` (a parser that
keeps literals exact); non-finite values are not JSON numbers.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from toolstream.messages import excerpt

JSON_TYPES = ("null", "boolean", "object", "array", "number", "string", "integer")

MAX_EXACT_EXPONENT = 4_000
"""Decimal exponents beyond this are not turned into exact ratios (``1E+999999999``
would be a billion-digit integer)."""


def is_number(value: Any) -> bool:
    """A number in the JSON sense, possibly non-finite (never a bool)."""
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def is_finite_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, Decimal):
        return value.is_finite()
    return False


def is_integer(value: Any) -> bool:
    """A JSON integer: any finite number with a zero fractional part (``1.0`` is one)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if isinstance(value, float):
        return math.isfinite(value) and value.is_integer()
    if isinstance(value, Decimal):
        return value.is_finite() and value == value.to_integral_value()
    return False


def json_type(value: Any) -> str:
    """The JSON type name of a value ("integer" for integral numbers), or a
    description of a non-JSON Python value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if is_number(value):
        if not is_finite_number(value):
            return "non-finite number"
        return "integer" if is_integer(value) else "number"
    return f"non-JSON value ({type(value).__name__})"


def has_type(value: Any, name: str) -> bool:
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "number":
        return is_finite_number(value)
    if name == "integer":
        return is_integer(value)
    return False


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema's ``enum``/``const`` define it.

    ``true`` is not ``1``; ``1`` is ``1.0``; arrays compare in order, objects
    by key set and values.  Recursion is bounded by the shallower operand,
    and the schema-side operand is bounded by the schema depth limit.
    """
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if a is None or b is None:
        return a is None and b is None
    if is_number(a) or is_number(b):
        return is_finite_number(a) and is_finite_number(b) and bool(a == b)
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        if len(a) != len(b):
            return False
        for key, value in a.items():
            if key not in b or not json_equal(value, b[key]):
                return False
        return True
    return False


def exact_ratio(value: Any) -> tuple[int, int] | None:
    """A finite number as an exact ``(numerator, denominator)``, denominator > 0.

    A float is read as the decimal literal that ``repr`` prints (its shortest
    round-tripping form), which is what the JSON text most likely said:
    ``0.07`` is 7/100, not the binary fraction nearest to it.  None if the
    value is not a finite number or is too large to expand exactly.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value, 1
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return Decimal(repr(value)).as_integer_ratio()
    if isinstance(value, Decimal):
        if not value.is_finite():
            return None
        exponent = value.as_tuple().exponent
        if not isinstance(exponent, int) or abs(exponent) > MAX_EXACT_EXPONENT:
            return None
        return value.as_integer_ratio()
    return None


def is_multiple(value: Any, divisor: Any) -> bool | None:
    """Whether ``value`` is an integer multiple of ``divisor`` (> 0), exactly;
    None if either cannot be expanded exactly."""
    a = exact_ratio(value)
    d = exact_ratio(divisor)
    if a is None or d is None or d[0] <= 0:
        return None
    # value / divisor = (a0 * d1) / (a1 * d0)
    return (a[0] * d[1]) % (a[1] * d[0]) == 0


# --- messages -------------------------------------------------------------------------------

MAX_REPR = 60


def _render(value: Any, out: list[str], budget: int) -> int:
    """Append a JSON-ish rendering of ``value`` to ``out``, stopping once about
    ``budget`` characters were written; return the budget left (negative if
    the rendering was cut short)."""
    if budget <= 0:
        return -1
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = repr(value[: budget + 1])
    elif isinstance(value, int):
        if value.bit_length() > 200:
            text = f"<integer of about {int(value.bit_length() * 0.30103) + 1} digits>"
        else:
            text = repr(value)
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, Decimal):
        text = str(value)[: budget + 1]
    elif isinstance(value, list):
        out.append("[")
        budget -= 1
        for index, item in enumerate(value):
            if budget <= 0:
                return -1
            if index:
                out.append(", ")
                budget -= 2
            budget = _render(item, out, budget)
        out.append("]")
        return budget - 1
    elif isinstance(value, dict):
        out.append("{")
        budget -= 1
        for index, (key, item) in enumerate(value.items()):
            if budget <= 0:
                return -1
            if index:
                out.append(", ")
                budget -= 2
            budget = _render(key, out, budget)
            out.append(": ")
            budget = _render(item, out, budget - 2)
        out.append("}")
        return budget - 1
    else:
        text = f"<{type(value).__name__}>"
    out.append(text)
    return budget - len(text)


def short(value: Any, limit: int = MAX_REPR) -> str:
    """A rendering of ``value`` for a message, at most about ``limit`` characters."""
    out: list[str] = []
    left = _render(value, out, limit)
    return excerpt("".join(out), limit, cut=left < 0)


# --- JSON pointers --------------------------------------------------------------------------


def escape_token(token: object) -> str:
    """One RFC 6901 reference token (``~`` -> ``~0``, ``/`` -> ``~1``)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def join(pointer: str, *tokens: object) -> str:
    return pointer + "".join("/" + escape_token(t) for t in tokens)
