"""Valid streams, per profile, that hold every object level the profile
knows: what ``tests/properties/test_closed_world_levels.py`` walks.

One module per profile (named as the profile's module in
``toolstream/profiles/``), each with ``CASES``: ``(name, case)`` pairs, a
case being what :func:`toolstream.validate` takes (``profile``,
``tool_schemas``, ``chunks`` or ``events``).  Every case is valid (``pass``,
or ``not_applicable`` for a turn without tool activity, and no finding), and
its members' values are shaped as the profile's sources document them: the
walker inserts an unknown member into every object of every item, so an
object level that no case holds is a level the test does not see.  These
streams are the project's own, written from the API references and SDK
types each members module cites; none is copied from a recording.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from types import ModuleType
from typing import Any

Case = tuple[str, dict[str, Any]]


def _profile_modules() -> Iterator[ModuleType]:
    # Every module of this package but the walker: a module added for a new
    # profile is walked without being listed anywhere else.
    for info in pkgutil.iter_modules(__path__):
        if info.name != "walk":
            yield importlib.import_module(f"{__name__}.{info.name}")


CASES: dict[str, list[Case]] = {module.PROFILE: list(module.CASES) for module in _profile_modules()}
"""Profile name -> its cases (``openai_chat`` serves ``openai``; ``mistral``
walks the same chunks under its own name)."""
