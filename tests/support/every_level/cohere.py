"""Every object level of the ``cohere`` profile, in valid streams of our own
(see ``tests/support/every_level/__init__.py``)."""

from __future__ import annotations

from typing import Any

PROFILE = "cohere"

CASES: list[tuple[str, dict[str, Any]]] = []
