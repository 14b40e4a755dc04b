"""Bounds that keep hostile input from turning into unbounded work.

Every limit, when exceeded, yields a ``limit_exceeded`` finding; none raises.
The defaults are generous for real traffic (the largest real tool-call
arguments we have seen are a few kilobytes) and small enough that a hostile
stream costs at most a few seconds and a bounded amount of memory.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class Limits:
    max_argument_chars: int = 4_000_000
    """Reassembled arguments of one call, in characters."""
    max_depth: int = 128
    """Nesting depth of arrays/objects inside one call's arguments."""
    max_number_chars: int = 1_000
    """Length of one number literal inside the arguments."""
    max_slots: int = 4_096
    """Distinct slots (calls and content blocks) in one turn."""
    max_events: int = 2_000_000
    """Chunks or events in one turn."""
    max_slot_index: int = 1_000_000
    """Largest accepted slot index; larger indices are not attributable."""
    max_schema_nodes: int = 10_000
    """Nodes in one tool schema."""
    max_fixture_bytes: int = 256 * 1024 * 1024
    """Size of a fixture file read by the CLI."""
    max_fixture_depth: int = 256
    """Nesting depth of the fixture file itself."""

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def replace(self, **changes: Any) -> Limits:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        for name, value in changes.items():
            if name not in values:
                raise KeyError(name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"limit {name} must be a non-negative integer")
            values[name] = value
        return Limits(**values)


DEFAULT_LIMITS = Limits()
