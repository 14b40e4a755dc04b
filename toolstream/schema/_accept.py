"""A fast yes for valid instances; the validator explains every no.

:func:`~toolstream.schema._validator.iter_violations` builds a JSON pointer
and a generator frame for every value it visits, which is the price of
exact, ordered violations.  Nearly every instance the gate sees is valid,
and for those all that work is thrown away.  :func:`acceptor` compiles a
checked schema once into nested closures that answer only "valid?", with no
paths and no generators on the structural keywords.

The contract is one-sided: the predicate returns True only for instances
the validator accepts without raising.  False means "not known to be
valid": the caller asks the validator, whose answer (a violation, a limit,
or none after all) is the verdict.  So the predicate decides nothing the
validator would not, and the order and wording of violations stay the
validator's alone.

The keywords that descend (``properties``, ``items``, ``anyOf``, ``$ref``)
and the cheap structural ones (``type``, ``required``,
``additionalProperties``) are compiled here; every other keyword runs its
own function from ``_keywords.KEYWORDS``, so its semantics exist once.  The
validator's depth limit is mirrored, and a work budget turns pathological
``anyOf`` nesting (which the validator memoizes) into "not known".

The usual tool schema (plain objects and arrays down to fused leaves) is
then written out as Python source by :func:`generate`: the same tests in the
same order, with no call per member, each level's depth known when the
source is written and the schema's values passed in as bound names, never
as source text.  Every other node stays a closure, which the source calls.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from toolstream.findings import ProtocolError
from toolstream.schema import _json, _refs
from toolstream.schema._keywords import EVALUATION_ORDER, KEYWORDS
from toolstream.schema._validator import MAX_VALIDATION_DEPTH, Scope, _Run

Accept = Callable[[Any, int], bool]

WORK_BUDGET = 1_000_000
"""Schema applications one call of a predicate may make before it answers
"not known" (the validator's own limit is higher and memoized)."""

_FUSED_OBJECT = frozenset({"type", "properties", "required", "additionalProperties"})
_STRUCTURAL = frozenset(
    {"type", "required", "additionalProperties", "properties", "items", "anyOf", "$ref"}
)

# has_type() for the names whose test is one isinstance check; "number" and
# "integer" (finite, bool excluded, 1.0 is an integer) use has_type itself.
_TYPE_TESTS: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _type_test(name: str) -> Callable[[Any], bool]:
    test = _TYPE_TESTS.get(name)
    if test is not None:
        return test
    if name in ("integer", "number"):
        # An exact int is both; anything else asks has_type.
        return lambda v: type(v) is int or _json.has_type(v, name)
    return lambda v: _json.has_type(v, name)


# Fast tests for bounds on an exact int instance (the usual one), which is a
# finite number: the keyword holds iff the comparison does.  Other numbers
# go to the keyword's function; non-numbers always pass a bound.
_INT_BOUNDS: dict[str, Callable[[Any, Any], bool]] = {
    "minimum": operator.ge,
    "maximum": operator.le,
    "exclusiveMinimum": operator.gt,
    "exclusiveMaximum": operator.lt,
}
_NOT_NUMBERS = (str, dict, list, type(None))


class _Unsupported(Exception):
    """The schema holds something this compiler leaves to the validator."""


def acceptor(schema: Any) -> Callable[[Any], bool]:
    """A predicate over instances of ``schema`` (which passed ``check_schema``):
    True only if ``first_violation(schema, instance)`` is None.  A schema the
    compiler cannot take gives a predicate that always says "not known".

    Its first call runs the closures (:func:`closure_acceptor`); from its
    second call on, a root that is a plain object or array runs as generated
    source (:func:`generated_acceptor`).  Writing the source costs about
    what twenty calls of the bench schema save (46 us; 0.8 against 2.5 us a
    call), so a predicate made for one call (``Gate`` makes one per tool and
    turn) never pays for it, and one kept for many (``FileGate``'s cache, a
    turn of parallel calls) does once."""
    compiled = _compiled(schema)
    if compiled is None:
        return _not_known
    compiler, root, budget = compiled
    closures = _closure_predicate(root, budget)
    chosen = [closures]
    calls = [0]

    def accept(instance: Any) -> bool:
        if calls[0] == 1:
            # (two threads may both write it: the same predicate either way)
            chosen[0] = _generated_predicate(compiler, schema, budget) or closures
        calls[0] += 1
        return chosen[0](instance)

    return accept


def generated_acceptor(schema: Any) -> Callable[[Any], bool]:
    """:func:`acceptor` with the generated source from its first call (the
    closures alone for a root that is not a plain object or array)."""
    compiled = _compiled(schema)
    if compiled is None:
        return _not_known
    compiler, root, budget = compiled
    return _generated_predicate(compiler, schema, budget) or _closure_predicate(root, budget)


def _compiled(schema: Any) -> tuple[_Compiler, Accept, list[int]] | None:
    """The compiler (which keeps every node's closure), the root's closure
    and their shared budget; None for a schema the compiler cannot take."""
    budget = [0]
    try:
        compiler = _Compiler(schema, budget)
        return compiler, compiler.node(schema), budget
    except (_Unsupported, _refs.RefError, LookupError, TypeError, RecursionError):
        return None


def _not_known(instance: Any) -> bool:
    """The predicate of a schema the compiler cannot take."""
    return False


def _generated_predicate(
    compiler: _Compiler, schema: Any, budget: list[int]
) -> Callable[[Any], bool] | None:
    generated = generate(compiler, schema, 0)
    if generated is None:
        return None

    def accept(instance: Any) -> bool:
        budget[0] = WORK_BUDGET
        try:
            return generated(instance)
        except (RecursionError, ProtocolError):
            return False

    return accept


def closure_acceptor(schema: Any) -> Callable[[Any], bool]:
    """:func:`acceptor` with the closures alone, never generated source (the
    reference the generated predicates are tested against)."""
    compiled = _compiled(schema)
    if compiled is None:
        return _not_known
    _, root, budget = compiled
    return _closure_predicate(root, budget)


def _closure_predicate(root: Accept, budget: list[int]) -> Callable[[Any], bool]:
    def accept(instance: Any) -> bool:
        budget[0] = WORK_BUDGET
        try:
            return root(instance, 0)
        except (RecursionError, ProtocolError):
            return False

    return accept


class _Compiler:
    def __init__(self, root: Any, budget: list[int]) -> None:
        self.root = root
        self.budget = budget
        self.scope = Scope(_Run(root), "", "", 0)  # for leaf keywords; never descends
        self.compiled: dict[int, Accept] = {}
        self.fast: dict[int, FastTest] = {}
        """The inline test (see :func:`_fast_test`) of each fused leaf that
        has one, by the id of its node (which ``compiled`` keeps alive)."""
        self.shapes: dict[int, str] = {}
        """``"leaf"`` (:func:`_fused_leaf`), ``"checks"`` (:func:`_checks_only`),
        ``"array"`` (:func:`_plain_array`) or ``"object"``
        (:func:`_plain_object`): how each schema node (by its id; the root
        keeps it alive) was compiled, when it is one of those."""

    def node(self, schema: Any) -> Accept:
        if schema is True:
            return _yes
        if schema is False:
            return _no
        if not isinstance(schema, dict):
            raise _Unsupported
        done = self.compiled.get(id(schema))
        if done is not None:
            return done
        # A placeholder first, so that a $ref cycle back to this node finds it.
        target: list[Accept] = []
        self.compiled[id(schema)] = lambda instance, depth: target[0](instance, depth)
        built = self._build(schema)
        target.append(built)
        self.compiled[id(schema)] = built
        return built

    def _build(self, schema: dict[str, Any]) -> Accept:
        leaves = [self._leaf(keyword, schema) for keyword in KEYWORDS if keyword in schema]
        checks = tuple(check for check in leaves if check is not None)
        properties = {name: self.node(sub) for name, sub in schema.get("properties", {}).items()}
        items = self.node(schema["items"]) if "items" in schema else None
        branches = tuple(self.node(sub) for sub in schema.get("anyOf", ()))
        ref = None
        if "$ref" in schema:
            ref_value = schema["$ref"]
            if not isinstance(ref_value, str):
                raise _Unsupported
            ref = self.node(_refs.resolve(self.root, _refs.parse_ref(ref_value)))
        has_anyof = "anyOf" in schema
        budget = self.budget
        if not properties and items is None and not has_anyof and ref is None:
            fused = _fused_leaf(schema, checks)
            if fused is None:
                self.shapes[id(schema)] = "checks"
                return _checks_only(checks)
            fast = _fast_test(schema)
            if fast is not None:
                self.fast[id(fused)] = fast
            self.shapes[id(schema)] = "leaf"
            return fused
        if (
            schema.get("type") == "array"
            and sorted(k for k in schema if k in EVALUATION_ORDER) == ["items", "type"]
            and items is not None
        ):
            self.shapes[id(schema)] = "array"
            return _plain_array(items, budget)
        if (
            schema.get("type") == "object"
            and _FUSED_OBJECT.issuperset(k for k in schema if k in EVALUATION_ORDER)
            and items is None
            and not has_anyof
            and ref is None
        ):
            inline = {name: self.fast.get(id(node)) for name, node in properties.items()}
            self.shapes[id(schema)] = "object"
            return _plain_object(schema, properties, budget, inline)

        def accept(instance: Any, depth: int) -> bool:
            if depth > MAX_VALIDATION_DEPTH:
                return False
            budget[0] -= 1
            if budget[0] < 0:
                return False
            for check in checks:
                if not check(instance):
                    return False
            if properties and isinstance(instance, dict):
                below = depth + 1
                for name, value in instance.items():
                    sub = properties.get(name)
                    if sub is not None and not sub(value, below):
                        return False
            if items is not None and isinstance(instance, list):
                below = depth + 1
                for value in instance:
                    if not items(value, below):
                        return False
            if has_anyof:
                below = depth + 1
                for branch in branches:
                    if branch(instance, below):
                        break
                else:
                    return False
            if ref is not None:
                return ref(instance, depth)  # a $ref hop stays on the same level
            return True

        return accept

    def _leaf(self, keyword: str, schema: dict[str, Any]) -> Callable[[Any], bool] | None:
        value = schema[keyword]
        if keyword == "type":
            names = [value] if isinstance(value, str) else list(value)
            tests = tuple(_type_test(name) for name in names)
            if len(tests) == 1:
                return tests[0]
            return lambda instance: any(test(instance) for test in tests)
        if keyword == "required":
            required = frozenset(value)
            return lambda instance: not isinstance(instance, dict) or instance.keys() >= required
        if keyword == "additionalProperties":
            if value is not False:
                return None
            declared = frozenset(schema.get("properties", {}))
            return lambda instance: not isinstance(instance, dict) or instance.keys() <= declared
        if keyword in _STRUCTURAL:
            return None  # compiled in _build
        check = KEYWORDS[keyword]
        scope = self.scope

        def leaf(instance: Any) -> bool:
            return next(check(scope, value, instance, schema), None) is None

        holds = _INT_BOUNDS.get(keyword)
        if holds is not None and type(value) in (int, float):

            def bound(instance: Any) -> bool:
                kind = type(instance)
                if kind is int:
                    return holds(instance, value)
                return kind in _NOT_NUMBERS or leaf(instance)

            return bound
        if keyword == "enum" and isinstance(value, list):
            # json_equal between strings is ==; a string equals no non-string.
            strings = frozenset(option for option in value if type(option) is str)
            return lambda instance: instance in strings if type(instance) is str else leaf(instance)
        if keyword == "minLength" and type(value) is int:
            return lambda instance: (
                len(instance) >= value if type(instance) is str else leaf(instance)
            )
        if keyword == "maxLength" and type(value) is int:
            return lambda instance: (
                len(instance) <= value if type(instance) is str else leaf(instance)
            )
        return leaf


def _fused_leaf(schema: dict[str, Any], checks: tuple[Callable[[Any], bool], ...]) -> Accept | None:
    """A leaf of one type name, alone or with one keyword of that type's own
    (``minimum`` on an integer, ``minLength`` or ``enum`` on a string: the
    usual leaves of a tool schema), in one closure: on an exact int or str
    instance the keyword's test inline (the same test as its check's branch
    for that type, in :meth:`_Compiler._leaf`), on any other instance the
    node's ``checks`` in order, as :func:`_checks_only` runs them.  None for
    any other leaf."""
    evaluated = [keyword for keyword in KEYWORDS if keyword in schema]
    name = schema.get("type")
    limit = MAX_VALIDATION_DEPTH
    if not isinstance(name, str) or evaluated[:1] != ["type"] or len(evaluated) != len(checks):
        return None
    if len(evaluated) == 1:
        if name in ("integer", "number"):
            return lambda instance, depth: (
                depth <= limit and (type(instance) is int or _json.has_type(instance, name))
            )
        if name == "null":
            return lambda instance, depth: depth <= limit and instance is None
        kind = _SIMPLE_TYPES.get(name)
        if kind is None:
            return None
        return lambda instance, depth: depth <= limit and isinstance(instance, kind)
    if len(evaluated) != 2:
        return None
    keyword = evaluated[1]
    value = schema[keyword]
    type_test, check = checks

    def others(instance: Any) -> bool:
        return type_test(instance) and check(instance)

    if name in ("integer", "number") and keyword in _INT_BOUNDS and type(value) in (int, float):
        if keyword == "minimum":
            return lambda instance, depth: (
                depth <= limit
                and (instance >= value if type(instance) is int else others(instance))
            )
        holds = _INT_BOUNDS[keyword]
        return lambda instance, depth: (
            depth <= limit
            and (holds(instance, value) if type(instance) is int else others(instance))
        )
    if name != "string":
        return None
    if keyword == "enum" and isinstance(value, list):
        strings = frozenset(option for option in value if type(option) is str)
        return lambda instance, depth: (
            depth <= limit and (instance in strings if type(instance) is str else others(instance))
        )
    if keyword == "minLength" and type(value) is int:
        return lambda instance, depth: (
            depth <= limit
            and (len(instance) >= value if type(instance) is str else others(instance))
        )
    if keyword == "maxLength" and type(value) is int:
        return lambda instance, depth: (
            depth <= limit
            and (len(instance) <= value if type(instance) is str else others(instance))
        )
    return None


FastTest = tuple[type, Callable[[Any], int] | None, Callable[[Any], bool] | None]
"""``(kind, measure, holds)``: on an instance of exactly the type ``kind``,
a fused leaf's answer is ``holds(measure(instance))`` (``measure`` None: the
instance itself; ``holds`` None: yes), both C calls."""


def _fast_test(schema: dict[str, Any]) -> FastTest | None:
    """The test a fused leaf (``_fused_leaf`` returned a node for
    ``schema``) makes on an exact int or str instance, or on an instance of
    exactly its one simple type, as C calls, for :func:`_plain_object` to
    make inline in its loop (no Python call per member): the same
    comparison as the leaf's inline branch, the bound on the left.  None
    for a leaf without one (``null``); any other instance goes to the node."""
    evaluated = [keyword for keyword in KEYWORDS if keyword in schema]
    name = schema["type"]
    if len(evaluated) == 1:
        if name in ("integer", "number"):
            return int, None, None
        kind = _SIMPLE_TYPES.get(name)
        return None if kind is None else (kind, None, None)
    keyword = evaluated[1]
    value = schema[keyword]
    if name in ("integer", "number"):
        # instance >= value is value <= instance, and so on (an exact int
        # against an int or float bound: the same comparison either way).
        bound: Callable[[Any], bool] = {
            "minimum": value.__le__,
            "maximum": value.__ge__,
            "exclusiveMinimum": value.__lt__,
            "exclusiveMaximum": value.__gt__,
        }[keyword]
        return int, None, bound
    if keyword == "enum":
        return str, None, frozenset(option for option in value if type(option) is str).__contains__
    if keyword == "minLength":
        return str, len, value.__le__
    if keyword == "maxLength":
        return str, len, value.__ge__
    return None  # pragma: no cover - _fused_leaf fuses nothing else


_SIMPLE_TYPES: dict[str, type] = {"object": dict, "array": list, "string": str, "boolean": bool}
"""The type names whose test (in :data:`_TYPE_TESTS`) is one isinstance check."""


def _plain_array(items: Accept, budget: list[int]) -> Accept:
    """A node asserting only ``type: array`` and ``items``, in one closure
    (the same steps as the general node's, in its order)."""
    limit = MAX_VALIDATION_DEPTH

    def accept(instance: Any, depth: int) -> bool:
        if depth > limit:
            return False
        budget[0] -= 1
        if budget[0] < 0 or not isinstance(instance, list):
            return False
        below = depth + 1
        for value in instance:
            if not items(value, below):
                return False
        return True

    return accept


def _checks_only(checks: tuple[Callable[[Any], bool], ...]) -> Accept:
    """A node that does not descend (most leaves of a tool schema).  It
    spends no budget: its work is bounded by the node that calls it."""
    if not checks:
        return _yes
    if len(checks) == 1:
        (check,) = checks
        return lambda instance, depth: depth <= MAX_VALIDATION_DEPTH and check(instance)
    if len(checks) == 2:
        first, second = checks
        return lambda instance, depth: (
            depth <= MAX_VALIDATION_DEPTH and first(instance) and second(instance)
        )

    def accept(instance: Any, depth: int) -> bool:
        if depth > MAX_VALIDATION_DEPTH:
            return False
        for check in checks:
            if not check(instance):
                return False
        return True

    return accept


def _plain_object(
    schema: dict[str, Any],
    properties: dict[str, Accept],
    budget: list[int],
    fast: dict[str, FastTest | None] | None = None,
) -> Accept:
    """A node asserting only ``type: object``, ``properties``, ``required``
    and ``additionalProperties`` (true or false): the usual tool schema and
    its nested objects, checked in one closure.  ``fast``: the inline test
    of each property whose node is a fused leaf with one (see
    :func:`_fast_test`), made in the loop instead of calling the node when
    the member's type is the test's and the members' level is within the
    depth limit (the node's own first check); any other member calls its
    node."""
    required = frozenset(schema.get("required", ()))
    closed = schema.get("additionalProperties") is False
    declared = frozenset(properties)
    sub_of = properties.get
    fast_of = {name: test for name, test in (fast or {}).items() if test is not None}.get
    limit = MAX_VALIDATION_DEPTH

    def accept(instance: Any, depth: int) -> bool:
        if type(instance) is not dict or depth > MAX_VALIDATION_DEPTH:
            return False
        budget[0] -= 1
        if budget[0] < 0:
            return False
        keys = instance.keys()
        if not keys >= required or (closed and not keys <= declared):
            return False
        below = depth + 1
        if below > limit:
            for name, value in instance.items():
                sub = sub_of(name)
                if sub is not None and not sub(value, below):
                    return False
            return True
        for name, value in instance.items():
            test = fast_of(name)
            if test is not None:
                kind, measure, holds = test
                if type(value) is kind:
                    if holds is None or holds(value if measure is None else measure(value)):
                        continue
                    return False
            sub = sub_of(name)
            if sub is not None and not sub(value, below):
                return False
        return True

    return accept


def _yes(instance: Any, depth: int) -> bool:
    return depth <= MAX_VALIDATION_DEPTH


def _no(instance: Any, depth: int) -> bool:
    return False


# -- generated source ------------------------------------------------------------------------
# The closures above cost a Python call per node and a tuple unpacking per
# inline member test.  For the nodes they compile as fused leaves, plain
# arrays and plain objects, generate() writes one Python function instead:
# each member or item tested inline, each level's depth a constant.  The
# source holds no schema value: every name, bound, enum, node and count is a
# parameter of the factory that the source defines (named by the generator,
# never by the schema), so the same shape of schema gives the same source,
# compiled once per process (_FACTORIES).  Any other node is called as its
# closure, at its own level's depth.

_MAX_LOOPS = 4
"""Nested loops (also counted for plain objects, which loop only over many
properties) in one generated function; deeper nodes get a function of their
own.  CPython allows 20 nested blocks and 100 indentation levels."""

_MAX_INDENT = 40
"""Indentation levels in one generated function before a node gets a function of its own."""

_MAX_GENERATED = 1_000
"""Nodes one predicate's source holds; beyond, nodes are called as closures."""

_MAX_LOOKUPS = 12
"""A plain object with more properties to test than this loops over its
members (and looks each one up in a table); up to this it looks up each
property by name."""

_MAX_FACTORIES = 256
"""Compiled sources kept (by source text); the table is emptied when full."""

_FACTORIES: dict[str, Callable[..., Callable[[Any], bool]]] = {}

_BUILTINS: dict[str, Any] = {
    "type": type,
    "isinstance": isinstance,
    "len": len,
    "dict": dict,
    "list": list,
    "int": int,
    "str": str,
    "KeyError": KeyError,
    "has_type": _json.has_type,
}
"""The only globals generated source uses, each a parameter of its factory
(the source is run with empty builtins)."""

_BOUND_TESTS = {
    "minimum": ">=",
    "maximum": "<=",
    "exclusiveMinimum": ">",
    "exclusiveMaximum": "<",
}
"""The comparison of an exact int instance with each bound, as in
:func:`_fused_leaf` (the instance on the left)."""


def generate(compiler: _Compiler, schema: Any, depth: int) -> Callable[[Any], bool] | None:
    """``compiler``'s node for ``schema`` (compiled by it) applied at level
    ``depth``, as one generated function of the instance that answers as
    ``compiler.node(schema)(instance, depth)`` does, spending the same budget
    (``compiler.budget``: the caller sets it; after a True it holds what is
    left, as after the closure).  None unless ``schema`` was compiled (by
    ``compiler.node``) as a plain object or array, or if the source does
    not compile."""
    if not isinstance(schema, dict) or compiler.shapes.get(id(schema)) not in ("array", "object"):
        return None
    source = _Source(compiler)
    try:
        text = source.text(schema, depth)
        factory = _FACTORIES.get(text)
        if factory is None:
            namespace: dict[str, Any] = {}
            code = compile(text, "<toolstream.schema acceptor>", "exec")
            exec(code, {"__builtins__": {}}, namespace)
            factory = namespace["factory"]
            if len(_FACTORIES) >= _MAX_FACTORIES:
                _FACTORIES.clear()
            _FACTORIES[text] = factory
    except (RecursionError, SyntaxError, MemoryError):
        return None
    return factory(**source.bindings)


def _indented(lines: list[str], levels: int = 1) -> list[str]:
    pad = "    " * levels
    return [pad + line for line in lines]


class _Source:
    """The source of one generated predicate and the values its names stand for.

    Each ``node`` method returns the statements that test the value in the
    variable ``x`` against a schema node at level ``depth`` and ``return
    False`` where the node's closure would answer False; they fall through
    where it would answer True.  The work budget is the local ``left``,
    written back to ``budget[0]`` around every call of a closure that may
    spend it or read it (a fused leaf does neither)."""

    def __init__(self, compiler: _Compiler) -> None:
        self.compiler = compiler
        self.bindings: dict[str, Any] = {"budget": compiler.budget, **_BUILTINS}
        self.functions: list[list[str]] = []
        self.depths: dict[int, str] = {}
        self.names = 0
        self.nodes = 0
        self.calls = 0
        """Calls of closures that may spend or read the budget (see :meth:`object`)."""

    def text(self, schema: Any, depth: int) -> str:
        body = self.node(schema, "x", depth, 0, 2)
        lines = ["def factory(" + ", ".join(self.bindings) + "):"]
        for function in self.functions:
            lines += _indented(function)
        lines += ["    def accept(x):", "        left = budget[0]"]
        lines += _indented(body, 2)
        lines += ["        budget[0] = left", "        return True", "    return accept", ""]
        return "\n".join(lines)

    def name(self, prefix: str) -> str:
        self.names += 1
        return f"{prefix}{self.names}"

    def bind(self, prefix: str, value: Any) -> str:
        name = self.name(prefix)
        self.bindings[name] = value
        return name

    def depth(self, depth: int) -> str:
        name = self.depths.get(depth)
        if name is None:
            name = self.depths[depth] = self.bind("depth", depth)
        return name

    def node(self, schema: Any, x: str, depth: int, loops: int, indent: int) -> list[str]:
        if depth > MAX_VALIDATION_DEPTH:
            return ["return False"]  # every node's first test
        if schema is True:
            return []
        if schema is False:
            return ["return False"]
        shape = self.compiler.shapes.get(id(schema)) if isinstance(schema, dict) else None
        if shape == "checks":
            return self.checks(schema, x, depth)
        if shape is None or self.nodes >= _MAX_GENERATED:
            return self.call(schema, x, depth)
        self.nodes += 1
        if shape == "leaf":
            return self.leaf(schema, x, depth)
        if loops >= _MAX_LOOPS or indent >= _MAX_INDENT:
            return self.part(schema, x, depth, shape)
        if shape == "array":
            return self.array(schema, x, depth, loops, indent)
        return self.object(schema, x, depth, loops, indent)

    def call(self, schema: Any, x: str, depth: int) -> list[str]:
        """The node's closure, the budget passed both ways."""
        node = self.bind("node", self.compiler.compiled[id(schema)])
        self.calls += 1
        return _spending(f"{node}({x}, {self.depth(depth)})")

    def checks(self, schema: dict[str, Any], x: str, depth: int) -> list[str]:
        """A node that does not descend and is no fused leaf: its closure,
        which neither spends nor reads the budget."""
        node = self.bind("node", self.compiler.compiled[id(schema)])
        return [f"if not {node}({x}, {self.depth(depth)}):", "    return False"]

    def part(self, schema: dict[str, Any], x: str, depth: int, shape: str) -> list[str]:
        """An object or array node as a function of its own."""
        function = self.name("part")
        param = self.name("x")
        if shape == "array":
            body = self.array(schema, param, depth, 0, 2)
        else:
            body = self.object(schema, param, depth, 0, 2)
        self.functions.append(
            [
                f"def {function}({param}):",
                "    left = budget[0]",
                *_indented(body),
                "    budget[0] = left",
                "    return True",
            ]
        )
        return _spending(f"{function}({x})")

    def leaf(self, schema: dict[str, Any], x: str, depth: int) -> list[str]:
        """A fused leaf (:func:`_fused_leaf`, within the depth limit): its
        inline branch inline; any other instance calls its closure, which
        then takes the node's checks."""
        evaluated = [keyword for keyword in KEYWORDS if keyword in schema]
        name = schema["type"]
        if len(evaluated) == 1:
            if name in ("integer", "number"):
                type_name = self.bind("name", name)
                return [
                    f"if type({x}) is not int and not has_type({x}, {type_name}):",
                    "    return False",
                ]
            if name == "null":
                return [f"if {x} is not None:", "    return False"]
            kind = self.bind("kind", _SIMPLE_TYPES[name])
            return [f"if not isinstance({x}, {kind}):", "    return False"]
        keyword = evaluated[1]
        value = schema[keyword]
        node = self.bind("node", self.compiler.compiled[id(schema)])
        if name in ("integer", "number"):
            kind = "int"
            test = f"{x} {_BOUND_TESTS[keyword]} {self.bind('bound', value)}"
        elif keyword == "enum":
            kind = "str"
            strings = frozenset(option for option in value if type(option) is str)
            test = f"{x} in {self.bind('enum', strings)}"
        else:
            kind = "str"
            comparison = {"minLength": ">=", "maxLength": "<="}[keyword]
            test = f"len({x}) {comparison} {self.bind('length', value)}"
        return [
            f"if type({x}) is {kind}:",
            f"    if not {test}:",
            "        return False",
            f"elif not {node}({x}, {self.depth(depth)}):",
            "    return False",
        ]

    def array(
        self, schema: dict[str, Any], x: str, depth: int, loops: int, indent: int
    ) -> list[str]:
        """:func:`_plain_array`'s steps."""
        item = self.name("v")
        body = self.node(schema["items"], item, depth + 1, loops + 1, indent + 1)
        return [
            "left -= 1",
            f"if left < 0 or not isinstance({x}, list):",
            "    return False",
            f"for {item} in {x}:",
            *_indented(body or ["pass"]),
        ]

    def object(
        self, schema: dict[str, Any], x: str, depth: int, loops: int, indent: int
    ) -> list[str]:
        """:func:`_plain_object`'s steps.  Its members in the instance's order
        as the closure takes them, or, when no member's test calls a closure
        that spends or reads the budget and there are few properties, each
        property looked up by name in the schema's order: then what is
        spent is the same sum whatever the order, and it can only run out
        when it would in the closure too, so the answer is the same."""
        properties: dict[str, Any] = schema.get("properties", {})
        value = self.name("v")
        calls = self.calls
        deepest = indent + 3 + len(properties).bit_length()
        bodies = {
            name: self.node(sub, value, depth + 1, loops + 1, deepest)
            for name, sub in properties.items()
        }
        lines = [
            f"if type({x}) is not dict:",
            "    return False",
            "left -= 1",
            "if left < 0:",
            "    return False",
        ]
        if self.calls == calls and len(properties) <= _MAX_LOOKUPS:
            return lines + self.lookups(schema, x, value, bodies)
        return lines + self.members(schema, x, value, bodies)

    def lookups(
        self, schema: dict[str, Any], x: str, value: str, bodies: dict[str, list[str]]
    ) -> list[str]:
        """Each property looked up by name: a required one must be there;
        with ``additionalProperties: false`` the members found are counted
        and must be all there are."""
        required = set(schema.get("required", ()))
        closed = schema.get("additionalProperties") is False
        lines: list[str] = []
        undeclared = frozenset(required.difference(bodies))
        if undeclared:
            names = self.bind("required", undeclared)
            lines += [f"if not {x}.keys() >= {names}:", "    return False"]
        count = self.name("found")
        if closed:
            declared_required = sum(1 for name in bodies if name in required)
            lines.append(f"{count} = {self.bind('count', declared_required)}")
        for name, body in bodies.items():
            key = self.bind("key", name)
            if name in required:
                if body:
                    lines += [
                        "try:",
                        f"    {value} = {x}[{key}]",
                        "except KeyError:",
                        "    return False",
                        *body,
                    ]
                else:
                    lines += [f"if {key} not in {x}:", "    return False"]
                continue
            inner = [f"{count} += 1"] if closed else []
            if body:
                inner += [f"{value} = {x}[{key}]", *body]
            if inner:
                lines += [f"if {key} in {x}:", *_indented(inner)]
        if closed:
            lines += [f"if len({x}) != {count}:", "    return False"]
        return lines

    def members(
        self, schema: dict[str, Any], x: str, value: str, bodies: dict[str, list[str]]
    ) -> list[str]:
        """The members in the instance's order, as :func:`_plain_object`
        takes them; each found in a table of the properties to test, and
        its test chosen by halving that table."""
        lines: list[str] = []
        tests = []
        if "required" in schema:
            tests.append(f"{{keys}} >= {self.bind('required', frozenset(schema['required']))}")
        if schema.get("additionalProperties") is False:
            tests.append(f"{{keys}} <= {self.bind('declared', frozenset(bodies))}")
        if tests:
            keys = self.name("keys")
            condition = " and ".join(test.format(keys=keys) for test in tests)
            lines += [f"{keys} = {x}.keys()", f"if not ({condition}):", "    return False"]
        tested = [name for name, body in bodies.items() if body]
        if not tested:
            return lines
        tags = self.bind("tags", {name: i for i, name in enumerate(tested)}.get)
        key = self.name("k")
        tag = self.name("t")
        active = [bodies[name] for name in tested]
        return [
            *lines,
            f"for {key}, {value} in {x}.items():",
            f"    {tag} = {tags}({key})",
            f"    if {tag} is not None:",
            *_indented(_dispatch(tag, active, 0, len(active)), 2),
        ]


def _dispatch(tag: str, bodies: list[list[str]], low: int, high: int) -> list[str]:
    """The body of the member whose tag (an index into ``bodies``, in
    ``low``..``high - 1``) is in the variable ``tag``."""
    if high - low == 1:
        return bodies[low]
    middle = (low + high) // 2
    return [
        f"if {tag} < {middle}:",
        *_indented(_dispatch(tag, bodies, low, middle)),
        "else:",
        *_indented(_dispatch(tag, bodies, middle, high)),
    ]


def _spending(call: str) -> list[str]:
    """The lines of a test by ``call``, code that may spend the budget: the
    budget kept in the local ``left`` is handed to it and taken back."""
    return ["budget[0] = left", f"if not {call}:", "    return False", "left = budget[0]"]
