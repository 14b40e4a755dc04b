"""Applying a checked schema to an instance."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any

from toolstream.findings import Code, ProtocolError
from toolstream.schema import _json, _refs
from toolstream.schema._json import short
from toolstream.schema._keywords import KEYWORDS

MAX_VALIDATION_DEPTH = 200
"""Nested schema applications (one per ``properties``/``items``/``anyOf`` step,
``$ref`` hops excluded) before validation gives up with ``limit_exceeded``.
Each costs two or three Python frames."""

MAX_STEPS = 5_000_000
"""Schema applications in one validation before it gives up with ``limit_exceeded``."""

MAX_REF_HOPS = 64
"""Consecutive ``$ref`` hops on one value (check_schema allows at most 50, so more
means an unchecked, cyclic schema)."""


@dataclass(frozen=True)
class Violation:
    """One way the instance fails the schema.

    ``path`` is an RFC 6901 pointer into the instance (``""`` is the root);
    ``schema_path`` is a pointer into the schema document to the failing
    keyword, after ``$ref`` resolution (so it always resolves against the
    root schema).
    """

    path: str
    keyword: str
    message: str
    schema_path: str


class _Run:
    """State shared by one validation: the root, caches and the step count."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.steps = 0
        self.refs: dict[str, tuple[Any, str]] = {}
        self.firsts: dict[tuple[str, str], Violation | None] = {}

    def resolve(self, ref: Any, where: str) -> tuple[Any, str]:
        """The target of ``$ref`` and its canonical schema pointer."""
        found = self.refs.get(ref) if isinstance(ref, str) else None
        if found is not None:
            return found
        if not isinstance(ref, str):
            raise ProtocolError(Code.INVALID_SCHEMA, "$ref is not a string", path=where)
        try:
            tokens = _refs.parse_ref(ref)
            target = _refs.resolve(self.root, tokens)
        except _refs.RefError as error:
            raise ProtocolError(error.code, error.message, path=where) from None
        except LookupError:
            raise ProtocolError(
                Code.INVALID_SCHEMA, f"$ref {ref[:60]!r} does not resolve", path=where
            ) from None
        found = (target, _json.join("", *tokens))
        self.refs[ref] = found
        return found


class Scope:
    """Where a schema node is being applied: the instance path and schema pointer."""

    __slots__ = ("depth", "path", "run", "schema_path")

    def __init__(self, run: _Run, path: str, schema_path: str, depth: int) -> None:
        self.run = run
        self.path = path
        self.schema_path = schema_path
        self.depth = depth

    def error(self, keyword: str, message: str, *, token: object = None) -> Violation:
        """A violation of ``keyword`` of this node, at this instance path (or at
        its child ``token``)."""
        path = self.path if token is None else _json.join(self.path, token)
        return Violation(path, keyword, message, _json.join(self.schema_path, keyword))

    def descend(
        self, schema: Any, instance: Any, schema_path: str, token: object
    ) -> Iterator[Violation]:
        """Apply ``schema`` (found at ``schema_path``) to the child ``token``."""
        return apply(
            self.run, schema, instance, _json.join(self.path, token), schema_path, self.depth + 1
        )

    def first(self, schema: Any, instance: Any, schema_path: str) -> Violation | None:
        """The first violation of ``schema`` by this same instance (memoized per
        schema location and instance path, so nested ``anyOf`` stays polynomial)."""
        key = (schema_path, self.path)
        memo = self.run.firsts
        if key in memo:
            return memo[key]
        violations = apply(self.run, schema, instance, self.path, schema_path, self.depth + 1)
        try:
            found = next(violations, None)
        finally:
            violations.close()
        memo[key] = found
        return found


def apply(
    run: _Run, schema: Any, instance: Any, path: str, schema_path: str, depth: int
) -> Generator[Violation, None, None]:
    """Yield the violations of ``schema`` by ``instance``, in evaluation order."""
    if depth > MAX_VALIDATION_DEPTH:
        raise ProtocolError(
            Code.LIMIT_EXCEEDED,
            f"schema validation nests deeper than {MAX_VALIDATION_DEPTH} levels",
            path=path,
        )
    hops = 0
    while True:
        run.steps += 1
        if run.steps > MAX_STEPS:
            raise ProtocolError(
                Code.LIMIT_EXCEEDED,
                f"schema validation takes more than {MAX_STEPS} steps",
                path=path,
            )
        if schema is True:
            return
        if schema is False:
            message = f"{short(instance)} is not allowed (the schema is false)"
            yield Violation(path, "false", message, schema_path)
            return
        if not isinstance(schema, dict):
            raise ProtocolError(
                Code.INVALID_SCHEMA, "schema is not an object or a boolean", path=schema_path
            )
        scope = Scope(run, path, schema_path, depth)
        for keyword, check in KEYWORDS.items():
            if keyword in schema:
                yield from check(scope, schema[keyword], instance, schema)
        if "$ref" not in schema:
            return
        # A tail call: the target applies to the same instance in this same frame.
        where = _json.join(schema_path, "$ref")
        hops += 1
        if hops > MAX_REF_HOPS:
            raise ProtocolError(
                Code.INVALID_SCHEMA, f"more than {MAX_REF_HOPS} consecutive $ref hops", path=where
            )
        schema, schema_path = run.resolve(schema["$ref"], where)


def iter_violations(schema: Any, instance: Any) -> Generator[Violation, None, None]:
    run = _Run(schema)
    try:
        yield from apply(run, schema, instance, "", "", 0)
    except RecursionError:
        raise ProtocolError(
            Code.LIMIT_EXCEEDED, "schema validation nests too deeply for the Python stack"
        ) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ArithmeticError) as error:
        # Only reachable with a schema that did not pass check_schema.
        raise ProtocolError(
            Code.INVALID_SCHEMA,
            f"schema could not be applied ({type(error).__name__}); it must pass check_schema",
        ) from error
