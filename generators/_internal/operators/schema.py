"""Verdict-breaking operators on the tool schemas and their use."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from .. import jsontext as jt
from .. import labels as lb
from ..edit import set_text
from ..labels import Effects
from ..model import Call, Turn, compact
from ..schemas import break_at, violation_sites
from .common import Draw, free_calls, text_of


def violable(turn: Turn, fx: Effects) -> list[tuple[Call, list[tuple[Any, ...]]]]:
    out = []
    for call in free_calls(turn, fx):
        schema = turn.tool_schemas.get(call.name)
        if not isinstance(schema, dict):
            continue
        try:
            value = jt.loads(text_of(turn, call))
        except ValueError:
            continue
        sites = violation_sites(schema, value)
        if sites:
            out.append((call, sites))
    return out


def schema_violation(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Edit one call's arguments so they break the tool's schema at a spot
    that is certainly checked: drop a required property, a wrong type, an
    extra property under ``additionalProperties: false``, a value out of
    ``minimum``/``maximum``/``exclusive*``, a string or array out of its
    length bounds, a value outside ``enum``/``const``.

    Reproduces models that ignore the schema and clients that execute
    whatever parses.
    Label: blocked ``schema_violation`` (slot rank 11).
    Shrinks toward: the first violable call, its first site.
    """
    call, sites = draw(st.sampled_from(violable(turn, fx)))
    site = draw(st.sampled_from(sites))
    value = break_at(draw, jt.loads(text_of(turn, call)), site)
    set_text(draw, turn, call, compact(value))
    fx.claim(call)
    fx.slot(call, lb.RANK_VIOLATION, "schema_violation")


_UNSUPPORTED: list[tuple[str, Any]] = [
    ("nullable", True),
    ("x-order", 1),
    ("oneOf", [{}]),
    ("uniqueItems", True),
    ("minProperties", 1),
    ("patternProperties", {"^x": {}}),
    ("not", {"type": "null"}),
    ("unevaluatedProperties", False),
    ("dependentRequired", {"a": ["b"]}),
    ("propertyNames", {"maxLength": 64}),
    ("requried", ["a"]),
]


def keyword_tools(turn: Turn, fx: Effects) -> list[str]:
    out = []
    for name in turn.tool_schemas:
        users = [c for c in turn.calls if c.name == name]
        if (
            users
            and all(fx.is_free(c) for c in users)
            and isinstance(turn.tool_schemas[name], dict)
        ):
            out.append(name)
    return out


def unsupported_keyword(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Add a keyword outside the validator's schema subset to the schema of
    a called tool, at the top or in a property's schema: ``nullable``
    (OpenAPI), a vendor ``x-`` extension, ``oneOf``, ``uniqueItems``,
    ``minProperties``, ``patternProperties``, ``not``,
    ``unevaluatedProperties``, ``dependentRequired``, ``propertyNames``, a
    misspelling (``requried``).

    Reproduces schemas written for another dialect; a validator that
    ignores unknown keywords silently checks less than the author meant.
    Label: blocked ``unsupported_schema_keyword`` for every call of that
    tool (slot rank 10; all those calls are claimed).
    Shrinks toward: the first called tool, ``nullable`` at the top.
    """
    name = draw(st.sampled_from(keyword_tools(turn, fx)))
    schema = copy.deepcopy(turn.tool_schemas[name])
    keyword, value = draw(st.sampled_from(_UNSUPPORTED))
    props = schema.get("properties")
    targets = (
        [k for k, v in props.items() if isinstance(v, dict)] if isinstance(props, dict) else []
    )
    if targets and draw(st.booleans()):
        schema["properties"][draw(st.sampled_from(targets))][keyword] = value
    else:
        schema[keyword] = value
    turn.tool_schemas[name] = schema
    users = [c for c in turn.calls if c.name == name]
    fx.claim(*users)
    for call in users:
        fx.slot(call, lb.RANK_SCHEMA, "unsupported_schema_keyword")
