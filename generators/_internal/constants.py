"""Draws that do not depend on where the project is installed.

Hypothesis (6.13x and later) mixes into its draws, now and then (about one
integer, float, string or bytes draw in twenty), literals it collects from
the source of the *local* modules in ``sys.modules``:
``HypothesisProvider._maybe_draw_constant`` draws from two pools, the fixed
``GLOBAL_CONSTANTS`` and the one ``providers._get_local_constants()``
returns, which walks ``sys.modules`` and reads every module whose file
``constants_ast.is_local_module_file`` accepts (not the stdlib, not under
``site-packages``, not a test file).  Which files those are depends on the
install: an editable install or a checkout counts ``toolstream`` and this
package as local, a wheel does not; running from another working directory,
or having imported another local module first, changes the pool again.  So
the same seed, ``--seed`` and ``--count`` would give another corpus per
install, and editing any literal anywhere in the project would move it.

:func:`pinned_constants` removes that input: while it is active the local
pool is empty, so when the provider decides to draw a constant it takes
one from the global pool (fixed by the pinned Hypothesis version); every
other draw is unchanged.  What is drawn then depends only on the seed
fixture, the operators, the Hypothesis seed and the Hypothesis version.  It
also keeps Hypothesis from writing its constants cache
(``.hypothesis/constants``) into the working directory.

It patches one private function of the pinned Hypothesis version; if a
later version renames it, :func:`pinned_constants` raises instead of
silently drawing install-dependent literals (``tests/unit/test_generators.py``
holds it to that).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis.internal.conjecture import providers as _providers
from hypothesis.internal.constants_ast import Constants

_HOOK = "_get_local_constants"
_CACHE = "CONSTANTS_CACHE"
_lock = threading.RLock()
_depth = 0
_saved: Any = None


class ConstantsHookMissing(RuntimeError):
    """This Hypothesis version has no local-constants hook to pin."""


def _empty_pool() -> Constants:
    return Constants()


def _clear_cache() -> None:
    # The cache of permitted constants per draw kind was built from
    # whichever local pool was active: never let it cross the boundary.
    getattr(_providers, _CACHE).cache.clear()


@contextmanager
def pinned_constants() -> Iterator[None]:
    """Run the body with Hypothesis's local-constant pool empty (see the
    module doc).  Re-entrant; restores the original hook on exit."""
    global _depth, _saved
    if not callable(getattr(_providers, _HOOK, None)) or not hasattr(_providers, _CACHE):
        raise ConstantsHookMissing(
            f"hypothesis.internal.conjecture.providers.{_HOOK} is gone in this Hypothesis "
            "version: generated corpora would depend on the install (see "
            "generators/_internal/constants.py)"
        )
    with _lock:
        if _depth == 0:
            _saved = getattr(_providers, _HOOK)
            setattr(_providers, _HOOK, _empty_pool)
            _clear_cache()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                setattr(_providers, _HOOK, _saved)
                _saved = None
                _clear_cache()
