"""A conservative JSON Schema subset: check a tool's schema, then its arguments.

Standard library only.  Two steps, as the gate uses them::

    check_schema(schema, max_nodes=...)     # raises ProtocolError, path into the schema
    first_violation(schema, arguments)      # Violation | None, path into the arguments

The subset (anything else fails closed)
=======================================

Assertions and applicators: ``type`` (a name or a non-empty array of the
seven JSON type names), ``enum``, ``const``, ``minimum``, ``maximum``,
``exclusiveMinimum``, ``exclusiveMaximum`` (numbers: draft 6+ meaning),
``multipleOf`` (> 0), ``minLength``, ``maxLength``, ``pattern``, ``minItems``,
``maxItems``, ``items`` (one schema), ``required``, ``properties``,
``additionalProperties`` (``true`` or ``false`` only), ``anyOf`` and ``$ref``
(local: ``#`` or a ``#/...`` JSON pointer, percent-decoded, ``~0``/``~1``
unescaped).  ``$defs`` and ``definitions`` hold subschemas.  Boolean schemas
``true``/``false`` are allowed wherever a schema is.

Annotations, accepted and never asserted: ``title``, ``description``,
``default``, ``examples``, ``format`` (``"date-time"`` is *not* checked),
``$schema``, ``$comment``, ``deprecated``, ``readOnly``, ``writeOnly``, and
``$id`` at the root only.

Any other keyword (``oneOf``, ``allOf``, ``not``, ``if``,
``patternProperties``, a schema-valued ``additionalProperties``, an array
``items``, a remote ``$ref``, a misspelling such as ``requried``...) is
``unsupported_schema_keyword``: an ignored keyword would silently accept
arguments its author meant to reject.

Semantics are JSON's, not Python's: ``true`` is not ``1`` and not a number;
``1.0`` is an integer; ``enum``/``const`` compare numbers by value (``1`` equals
``1.0``), arrays in order and objects regardless of key order; ``multipleOf``
is exact (a float is read as its shortest decimal ``repr``, so ``0.07`` is a
multiple of ``0.01``); big integers stay exact; lengths count code points; a
keyword applies only to instances of its type (``required`` ignores a
string); ``properties`` does not make anything required.  ``$ref`` siblings
are applied too (2019-09 and later), never ignored as draft 7 would.

``pattern``
===========

Patterns are *not* run with :mod:`re` (it backtracks and cannot be
interrupted: ``\\d+\\d+x`` on a few thousand digits already takes seconds).
They are parsed as a documented ECMA-262 subset and searched (unanchored)
by a linear-time automaton, see :mod:`toolstream.schema._regex`.  The
fail-closed rule is:

* refused at check time as ``unsupported_schema_keyword`` (with the reason):
  backreferences, lookahead/lookbehind, ``\\p{...}`` other than a general
  category (``\\p{L}``, ``\\P{Letter}`` are run), inline flags, escapes
  whose meaning differs between engines, unescaped ``{ } ]`` literals,
  patterns longer than 1000 code points or larger than 5000 automaton states;
* syntax errors are ``invalid_schema``;
* nested quantifiers such as ``^(a+)+$`` are accepted, because the search
  cannot backtrack: it costs O(length of the string), bounded besides by a
  fixed work budget; if the budget runs out, the string counts as *not*
  matching (a violation saying so).

Order of violations
===================

:func:`iter_violations` is deterministic.  For each schema node, keywords are
evaluated in this fixed order, whatever their order in the schema:
``type, enum, const, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
multipleOf, minLength, maxLength, pattern, minItems, maxItems, items,
required, properties, additionalProperties, anyOf, $ref``.  ``items`` goes
through the array in index order; ``required`` in the order the schema lists
names; ``properties`` and ``additionalProperties`` in the *instance's* key
order.  A failing ``anyOf`` is one violation at the value itself, whose
message quotes each branch's first violation.  :func:`first_violation` is the
first item of that sequence.

Paths: ``Violation.path`` points at the failing value, except that
``required`` points at the object missing the property and
``additionalProperties`` at the unexpected property's value.
``Violation.schema_path`` points at the failing keyword in the schema
document, after ``$ref`` resolution; a ``false`` schema reports keyword
``"false"`` and its own location.

Limits
======

``check_schema``: more than ``max_nodes`` JSON values in the document
(objects, arrays and scalars alike), objects/arrays nested deeper than 64,
or more than 50 chained ``$ref``/``anyOf`` steps on one value, is
``limit_exceeded``.  Validation: more than 200 nested schema applications or
5,000,000 in total raises ``ProtocolError(limit_exceeded)``; this is the only
exception :func:`iter_violations` raises for a schema that passed
:func:`check_schema`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from toolstream.schema import _accept, _check, _validator
from toolstream.schema._keywords import EVALUATION_ORDER, SUPPORTED
from toolstream.schema._validator import Violation

__all__ = [
    "EVALUATION_ORDER",
    "SUPPORTED",
    "Violation",
    "acceptor",
    "check_schema",
    "first_violation",
    "iter_violations",
]


def check_schema(schema: Any, *, max_nodes: int = 10_000) -> None:
    """Raise :class:`~toolstream.findings.ProtocolError` unless ``schema`` is a
    well-formed schema inside the supported subset.

    The error's code is ``unsupported_schema_keyword``, ``invalid_schema`` or
    ``limit_exceeded``; its ``path`` is a JSON pointer into the schema.
    """
    _check.check_schema(schema, max_nodes)


def iter_violations(schema: Any, instance: Any) -> Iterator[Violation]:
    """Every violation of ``schema`` by ``instance``, in the documented order.

    ``schema`` must have passed :func:`check_schema`.  Only
    :class:`~toolstream.findings.ProtocolError` is ever raised
    (``limit_exceeded`` for a pathological nesting; ``invalid_schema`` if the
    schema was not checked and turns out malformed).
    """
    return _validator.iter_violations(schema, instance)


def first_violation(schema: Any, instance: Any) -> Violation | None:
    """The first violation in the documented order, or None if ``instance`` is valid."""
    violations = _validator.iter_violations(schema, instance)
    try:
        return next(violations, None)
    finally:
        violations.close()


def acceptor(schema: Any) -> Callable[[Any], bool]:
    """A fast predicate for ``schema`` (which must have passed
    :func:`check_schema`): True only for instances :func:`first_violation`
    accepts.  False means "not known to be valid": ask
    :func:`first_violation`, which has the verdict and the explanation.
    Compile it once per schema and reuse it."""
    return _accept.acceptor(schema)
