"""The importer's input error (kept apart so that every reader can raise it)."""

from __future__ import annotations


class InputError(ValueError):
    """A tools definition or request body this importer does not understand
    (a ``--schemas``/``--request`` file, or the request recorded in a cassette)."""
