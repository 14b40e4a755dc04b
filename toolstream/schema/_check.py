"""``check_schema``: is this schema inside the supported subset, and well formed?

Three passes, each failing with a :class:`~toolstream.findings.ProtocolError`
whose ``path`` is a JSON pointer into the schema:

1. a scan of the whole document (iterative, so depth cannot blow the stack):
   more than ``max_nodes`` JSON values or containers nested deeper than
   :data:`MAX_SCHEMA_DEPTH` is ``limit_exceeded``; a value that is not JSON
   (a tuple, a non-string key, NaN) is ``invalid_schema``;
2. a walk of every schema node, keywords in document order: the first keyword
   outside the subset is ``unsupported_schema_keyword``, the first keyword
   value of the wrong shape is ``invalid_schema``.  Every ``$ref`` must
   resolve, and its target is checked as a schema too;
3. the graph of in-place applications (``$ref`` and ``anyOf`` edges, which
   apply a subschema to the *same* instance value) must be acyclic, or
   validation would recurse forever (``invalid_schema``), and its longest
   chain must not exceed :data:`MAX_INPLACE_CHAIN` (``limit_exceeded``).
"""

from __future__ import annotations

import difflib
from collections import deque
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from toolstream.findings import Code, ProtocolError
from toolstream.messages import excerpt
from toolstream.schema import _json, _refs, _regex
from toolstream.schema._json import short
from toolstream.schema._keywords import SUPPORTED

MAX_SCHEMA_DEPTH = 64
"""Deepest nesting of objects and arrays in a schema document."""

MAX_INPLACE_CHAIN = 50
"""Longest chain of ``$ref``/``anyOf`` steps that stay on one instance value."""

_HINTS = {
    "nullable": "use a type array that includes 'null'",
    "additionalItems": "only a single-schema 'items' is supported",
    "prefixItems": "only a single-schema 'items' is supported",
    "id": "'$id' (root only) is the supported spelling",
}


def _invalid(message: str, path: str) -> ProtocolError:
    return ProtocolError(Code.INVALID_SCHEMA, message, path=path)


def _unsupported(message: str, path: str) -> ProtocolError:
    return ProtocolError(Code.UNSUPPORTED_SCHEMA_KEYWORD, message, path=path)


def scan(schema: Any, max_nodes: int) -> None:
    """Pass 1: size, depth and JSON-ness of the whole document."""
    count = 0
    stack: list[tuple[Any, str, int]] = [(schema, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        count += 1
        if count > max_nodes:
            raise ProtocolError(
                Code.LIMIT_EXCEEDED, f"schema has more than {max_nodes} nodes", path=""
            )
        if isinstance(value, dict):
            if depth >= MAX_SCHEMA_DEPTH:
                raise ProtocolError(
                    Code.LIMIT_EXCEEDED,
                    f"schema nests objects and arrays deeper than {MAX_SCHEMA_DEPTH}",
                    path=path,
                )
            children = []
            for key, item in value.items():
                if not isinstance(key, str):
                    raise _invalid(f"object key {short(key)} is not a string", path)
                children.append((item, _json.join(path, key), depth + 1))
            stack.extend(reversed(children))
        elif isinstance(value, list):
            if depth >= MAX_SCHEMA_DEPTH:
                raise ProtocolError(
                    Code.LIMIT_EXCEEDED,
                    f"schema nests objects and arrays deeper than {MAX_SCHEMA_DEPTH}",
                    path=path,
                )
            stack.extend(
                (item, _json.join(path, index), depth + 1)
                for index, item in reversed(list(enumerate(value)))
            )
        elif value is None or isinstance(value, (str, bool, int)):
            pass
        elif isinstance(value, (float, Decimal)):
            if not _json.is_finite_number(value):
                raise _invalid(f"{short(value)} is not a JSON number", path)
        else:
            raise _invalid(f"a {type(value).__name__} is not a JSON value", path)


_Check = Callable[["_Checker", Any, str, str], None]


class _Checker:
    """Passes 2 and 3."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.checked: dict[str, None] = {}
        """Schema pointers already checked (insertion-ordered)."""
        self.edges: dict[str, list[tuple[str, str]]] = {}
        """In-place applications: node -> [(target node, pointer of the keyword)]."""
        self.pending: deque[tuple[str, Any]] = deque()
        """``$ref`` targets still to check."""

    def run(self) -> None:
        self.node(self.root, "")
        while self.pending:
            pointer, target = self.pending.popleft()
            if pointer not in self.checked:
                self.node(target, pointer)
        self.check_cycles()

    def node(self, schema: Any, pointer: str) -> None:
        self.checked[pointer] = None
        self.edges.setdefault(pointer, [])
        if isinstance(schema, bool):
            return
        if not isinstance(schema, dict):
            raise _invalid(
                f"a schema must be an object or a boolean, not {_json.json_type(schema)}",
                pointer,
            )
        for key, value in schema.items():
            where = _json.join(pointer, key)
            check = _CHECKS.get(key)
            if check is not None:
                check(self, value, where, pointer)
            elif key == "$id":
                if pointer != "":
                    raise _unsupported("'$id' is only supported at the root of a schema", where)
                _string(self, value, where, pointer)
            else:
                raise _unsupported(_unsupported_message(key), where)

    def check_cycles(self) -> None:
        """Pass 3: depth-first search of the in-place graph, in check order."""
        done: dict[str, int] = {}  # node -> longest chain from it
        active: dict[str, None] = {}  # the current DFS trail
        for start in self.checked:
            if start in done:
                continue
            active[start] = None
            stack = [(start, iter(self.edges[start]))]
            while stack:
                current, targets = stack[-1]
                step = next(targets, None)
                if step is None:
                    stack.pop()
                    del active[current]
                    chain = 1 + max((done[t] for t, _ in self.edges[current]), default=0)
                    if chain > MAX_INPLACE_CHAIN:
                        raise ProtocolError(
                            Code.LIMIT_EXCEEDED,
                            f"more than {MAX_INPLACE_CHAIN} nested $ref/anyOf steps apply to"
                            " the same value",
                            path=current,
                        )
                    done[current] = chain
                    continue
                target, keyword = step
                if target in active:
                    names = [*active]
                    trail = [*names[names.index(target) :], target]
                    shown = excerpt(" -> ".join("#" + p for p in trail), 200)
                    raise _invalid(
                        f"$ref/anyOf cycle that never moves into the instance: {shown}",
                        keyword,
                    )
                if target not in done:
                    active[target] = None
                    stack.append((target, iter(self.edges[target])))


def _unsupported_message(key: str) -> str:
    message = f"unsupported schema keyword {short(key)}"
    hint = _HINTS.get(key)
    if hint is None:
        close = difflib.get_close_matches(key[:100], sorted(SUPPORTED), n=1, cutoff=0.8)
        if close:
            hint = f"did you mean {close[0]!r}?"
    return f"{message} ({hint})" if hint else message


# --- one check per keyword ------------------------------------------------------------------


def _schema_map(checker: _Checker, value: Any, where: str, node: str) -> None:
    if not isinstance(value, dict):
        raise _invalid(
            f"the value of {where.rsplit('/', 1)[-1]!r} must be an object of schemas", where
        )
    for name, sub in value.items():
        checker.node(sub, _json.join(where, name))


def _type(checker: _Checker, value: Any, where: str, node: str) -> None:
    if isinstance(value, str):
        entries = [(value, where)]
    elif isinstance(value, list) and value:
        entries = [(name, _json.join(where, i)) for i, name in enumerate(value)]
    else:
        raise _invalid("'type' must be a type name or a non-empty array of type names", where)
    for name, at in entries:
        if name not in _json.JSON_TYPES:
            raise _invalid(
                f"{short(name)} is not a JSON type (one of {', '.join(_json.JSON_TYPES)})", at
            )


def _array(checker: _Checker, value: Any, where: str, node: str) -> None:
    if not isinstance(value, list):
        raise _invalid(f"the value of {where.rsplit('/', 1)[-1]!r} must be an array", where)


def _anything(checker: _Checker, value: Any, where: str, node: str) -> None:
    pass


def _number(checker: _Checker, value: Any, where: str, node: str) -> None:
    if not _json.is_finite_number(value):
        raise _invalid(f"the value of {where.rsplit('/', 1)[-1]!r} must be a number", where)


def _multiple_of(checker: _Checker, value: Any, where: str, node: str) -> None:
    if not _json.is_finite_number(value) or value <= 0:
        raise _invalid("'multipleOf' must be a number greater than 0", where)
    if _json.exact_ratio(value) is None:
        raise _invalid("'multipleOf' is too large or too small to use exactly", where)


def _count(checker: _Checker, value: Any, where: str, node: str) -> None:
    if not _json.is_integer(value) or value < 0:
        raise _invalid(
            f"the value of {where.rsplit('/', 1)[-1]!r} must be a non-negative integer", where
        )


def _string(checker: _Checker, value: Any, where: str, node: str) -> None:
    if not isinstance(value, str):
        raise _invalid(f"the value of {where.rsplit('/', 1)[-1]!r} must be a string", where)


def _boolean(checker: _Checker, value: Any, where: str, node: str) -> None:
    if not isinstance(value, bool):
        raise _invalid(f"the value of {where.rsplit('/', 1)[-1]!r} must be a boolean", where)


def _pattern(checker: _Checker, value: Any, where: str, node: str) -> None:
    _string(checker, value, where, node)
    try:
        _regex.compile_pattern(value)
    except _regex.PatternError as error:
        raise ProtocolError(
            error.code, f"pattern {short(value)}: {error.message}", path=where
        ) from None


def _items(checker: _Checker, value: Any, where: str, node: str) -> None:
    if isinstance(value, list):
        raise _unsupported("an array-valued 'items' (tuple validation) is not supported", where)
    checker.node(value, where)


def _required(checker: _Checker, value: Any, where: str, node: str) -> None:
    if not isinstance(value, list):
        raise _invalid("'required' must be an array of property names", where)
    for index, name in enumerate(value):
        if not isinstance(name, str):
            raise _invalid(
                f"required property name {short(name)} is not a string", _json.join(where, index)
            )


def _additional_properties(checker: _Checker, value: Any, where: str, node: str) -> None:
    if isinstance(value, dict):
        raise _unsupported(
            "a schema-valued 'additionalProperties' is not supported (only true or false)", where
        )
    _boolean(checker, value, where, node)


def _any_of(checker: _Checker, value: Any, where: str, node: str) -> None:
    if not isinstance(value, list) or not value:
        raise _invalid("'anyOf' must be a non-empty array of schemas", where)
    for index, sub in enumerate(value):
        branch = _json.join(where, index)
        checker.edges[node].append((branch, branch))
        checker.node(sub, branch)


def _ref(checker: _Checker, value: Any, where: str, node: str) -> None:
    _string(checker, value, where, node)
    try:
        tokens = _refs.parse_ref(value)
        target = _refs.resolve(checker.root, tokens)
    except _refs.RefError as error:
        raise ProtocolError(error.code, error.message, path=where) from None
    except LookupError:
        raise _invalid(f"$ref {short(value)} does not resolve", where) from None
    pointer = _json.join("", *tokens)
    checker.edges[node].append((pointer, where))
    checker.pending.append((pointer, target))


_CHECKS: dict[str, _Check] = {
    "type": _type,
    "enum": _array,
    "const": _anything,
    "minimum": _number,
    "maximum": _number,
    "exclusiveMinimum": _number,
    "exclusiveMaximum": _number,
    "multipleOf": _multiple_of,
    "minLength": _count,
    "maxLength": _count,
    "pattern": _pattern,
    "minItems": _count,
    "maxItems": _count,
    "items": _items,
    "required": _required,
    "properties": _schema_map,
    "additionalProperties": _additional_properties,
    "anyOf": _any_of,
    "$ref": _ref,
    "$defs": _schema_map,
    "definitions": _schema_map,
    "title": _string,
    "description": _string,
    "default": _anything,
    "examples": _array,
    "format": _string,
    "$schema": _string,
    "$comment": _string,
    "deprecated": _boolean,
    "readOnly": _boolean,
    "writeOnly": _boolean,
}


def check_schema(schema: Any, max_nodes: int) -> None:
    scan(schema, max_nodes)
    _Checker(schema).run()
