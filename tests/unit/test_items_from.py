"""``items_from``: the windows' view of ``items[start:stop]`` (a list's or
tuple's iterator set to ``start``, any other sequence through ``islice``)
reads exactly the slice, whatever the bounds.  That it is cheaper is
measured by ``bench/icount.py`` (docs/performance.md), not here."""

from __future__ import annotations

from collections import UserList
from collections.abc import Sequence
from typing import Any

import pytest

from toolstream.profiles._base import items_from

SPANS = [(0, 0), (0, 3), (2, 5), (4, 9), (5, 5), (7, 4), (9, 20), (20, 30)]


@pytest.mark.parametrize(("start", "stop"), SPANS)
@pytest.mark.parametrize("kind", [list, tuple, UserList])
def test_it_reads_exactly_the_slice(kind: Any, start: int, stop: int) -> None:
    items: Sequence[int] = kind(range(9))
    assert list(items_from(items, start, stop)) == list(range(9))[start:stop]
