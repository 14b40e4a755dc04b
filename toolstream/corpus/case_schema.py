"""The JSON Schema of a corpus case file (also printed in ``docs/corpus.md``).

It constrains what the corpus workflow adds to a fixture: the label
``expect`` and the provenance ``meta``.  The fixture part (``profile``,
``tool_schemas``, ``chunks``/``events``, ``request``) is deliberately left
open: a mutant may break the envelope on purpose, and its label then says
``invalid_envelope``.

It stays inside the subset of ``toolstream.schema``, so the project checks
its own cases with its own validator.  Two rules the subset cannot state are
checked by :func:`toolstream.corpus.label.label_problems`: ``codes`` is
sorted and has no duplicates.
"""

from __future__ import annotations

from typing import Any

from toolstream.findings import Code
from toolstream.report import Status

CODES = [c.value for c in Code]

CASE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "toolstream corpus case",
    "type": "object",
    "required": ["expect"],
    "properties": {
        "expect": {"$ref": "#/$defs/label"},
        "meta": {"$ref": "#/$defs/meta"},
    },
    "$defs": {
        "code": {"enum": CODES},
        "call": {
            "type": "object",
            "required": ["id", "name", "arguments"],
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "arguments": {"type": "string"},
            },
            "additionalProperties": False,
        },
        "label": {
            "anyOf": [
                {
                    "type": "object",
                    "required": ["status", "codes", "calls"],
                    "properties": {
                        "status": {"const": Status.PASS.value},
                        "codes": {"type": "array", "maxItems": 0},
                        "calls": {"type": "array", "items": {"$ref": "#/$defs/call"}},
                    },
                    "additionalProperties": False,
                },
                {
                    "type": "object",
                    "required": ["status", "codes"],
                    "properties": {
                        "status": {"const": Status.BLOCKED.value},
                        "codes": {
                            "type": "array",
                            "minItems": 1,
                            "items": {"$ref": "#/$defs/code"},
                        },
                    },
                    "additionalProperties": False,
                },
                {
                    "type": "object",
                    "required": ["status", "codes"],
                    "properties": {
                        "status": {"const": Status.NOT_APPLICABLE.value},
                        "codes": {"type": "array", "items": {"$ref": "#/$defs/code"}},
                    },
                    "additionalProperties": False,
                },
            ]
        },
        "meta": {
            "type": "object",
            "properties": {
                "operators": {"type": "array", "items": {"type": "string"}},
                "seed": {"type": "string"},
                "seed_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                "generator_version": {"type": "string"},
                "hypothesis_seed": {"type": "integer"},
                "shrunk": {
                    "type": "object",
                    "required": ["from", "predicate"],
                    "properties": {
                        "from": {"type": "string"},
                        "predicate": {"type": "string"},
                        "original_expect": {},
                    },
                },
            },
        },
    },
}

GENERATED_META_KEYS = ("operators", "seed", "seed_sha256", "generator_version", "hypothesis_seed")
"""The ``meta`` keys ``toolstream generate`` always writes."""
