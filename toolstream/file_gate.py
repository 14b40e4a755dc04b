"""The gate for a fixture read from a file, and the two things it adds.

:class:`FileGate` is the :class:`~toolstream.gate.Gate` that
:func:`toolstream.validate_bytes` runs.  It has two jobs that the plain gate
must not do, both sound only because its input came out of a JSON parser:

1. **the schema cache**: a tool schema read from a file is made only of
   dicts, lists, str, int, float, bool and None, so its ``repr`` identifies
   it exactly, and a schema seen before (the same tools in every turn of a
   corpus or a test suite) skips the subset check and the compilation.
   Schemas built in Python could hold look-alikes (a tuple is not an array;
   any object can fake a repr), so :class:`Gate` itself never caches;
2. **the runs**: :meth:`FileGate.feed_counting` keeps the
   :class:`~toolstream.ledger.Ledger` of how the gate read the stream (its
   runs and the items its profile vouches for), which then proves whether
   a file read by the bare C scanner was strict (see
   :mod:`toolstream.ledger`).  The gate reports what it read through its
   read hook; the counting is all here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolstream.events import Fragments
from toolstream.findings import ProtocolError
from toolstream.gate import Gate
from toolstream.ledger import Ledger

__all__ = ["FileGate"]


class FileGate(Gate):
    """A gate whose fixture was just read from a file: it caches checked
    tool schemas and can count what it reads for the ledger (the module
    docstring says why each is sound)."""

    @property
    def stream_key(self) -> str:
        return self._profile.stream_key

    def feed_counting(self, stream: list[Any]) -> Ledger:
        """:meth:`feed_all` on a whole fixture stream parsed from a file
        (JSON values only), keeping the ledger of the runs it took."""
        ledger = Ledger()
        add = ledger.add
        tally = self._profile.tally
        tally_item = self._profile.tally_item

        def count(items: Sequence[Any], start: int, run: Fragments | None) -> None:
            if run is None:
                vouched = tally_item(items[start])
                if vouched is not None:
                    add(start, 1, vouched)
            else:
                add(start, run.count, tally(items, start, run))

        if self._closed is not None:
            raise RuntimeError("feed() after close()")
        given, self._read_hook = self._read_hook, count
        try:
            # A parsed file's items are JSON values: wire_form would return
            # each as it is, so its screen (a pass over the stream) is skipped.
            self._feed_wire(stream)
        finally:
            self._read_hook = given
        return ledger

    def _check_schema(self, tool_schema: Any) -> ProtocolError | Callable[[Any], bool]:
        key = (repr(tool_schema), self.limits.max_schema_nodes)
        if len(key[0]) > _SCHEMA_CACHE_KEY_CHARS:
            return super()._check_schema(tool_schema)
        checked = _SCHEMA_CACHE.get(key)
        if checked is None:
            checked = super()._check_schema(tool_schema)
            if len(_SCHEMA_CACHE) >= _SCHEMA_CACHE_ENTRIES:
                try:
                    del _SCHEMA_CACHE[next(iter(_SCHEMA_CACHE))]  # the oldest entry
                except (KeyError, RuntimeError, StopIteration):
                    pass  # another thread got there first
            _SCHEMA_CACHE[key] = checked
        return checked


_SCHEMA_CACHE: dict[tuple[str, int], ProtocolError | Callable[[Any], bool]] = {}
_SCHEMA_CACHE_ENTRIES = 64
_SCHEMA_CACHE_KEY_CHARS = 65_536
