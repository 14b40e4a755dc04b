"""Text shortened for messages: findings, label problems, console tables.

A message quotes what it found (an id, a key, a schema path) but must stay
one readable line whatever the input holds, so every quoted piece that may be
long goes through :func:`excerpt`.  Standard library only (the validator
core uses it).
"""

from __future__ import annotations

__all__ = ["ELLIPSIS", "excerpt"]

ELLIPSIS = "..."
"""What marks a cut: ASCII, so a message stays safe in XML, in JSON with
``ensure_ascii`` and on any terminal."""


def excerpt(value: str, width: int, *, cut: bool = False) -> str:
    """``value`` if it fits in ``width`` characters; otherwise its first
    ``width - 3`` followed by :data:`ELLIPSIS`, ``width`` in all.  ``cut``:
    ``value`` is already incomplete (a bounded rendering ran out of room),
    so it is marked even when it fits."""
    if len(value) <= width and not cut:
        return value
    return value[: width - len(ELLIPSIS)] + ELLIPSIS
