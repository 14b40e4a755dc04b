"""The importer's input error (kept apart so that every reader can raise it),
and the two value descriptions its messages share."""

from __future__ import annotations

from typing import Any


class InputError(ValueError):
    """A tools definition or request body this importer does not understand
    (a ``--schemas``/``--request`` file, or the request recorded in a cassette)."""


def kind_of(value: Any) -> str:
    """What a JSON value is, for a message ("a string", "an array", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def shown(value: Any) -> str:
    """A value's repr for a message, cut to 42 characters."""
    text = repr(value)
    return text if len(text) <= 42 else text[:39] + "..."
