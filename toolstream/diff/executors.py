"""Where a diff run's cases are judged: here (``-j N`` worker processes,
:mod:`toolstream.diff.runner`), or on a Dask distributed cluster
(``--executor dask://HOST:PORT``).

On a cluster, the cases go out in batches of consecutive cases; each batch
is one task, judged on a worker exactly as a local run judges it: the
worker resolves the specs again from their text, plays the batch from its
own loopback server (``toolstream serve`` on the worker's 127.0.0.1), and
sends back one row per case.  A row depends on its case alone, so the rows
of the batches, put back in batch order, are the rows of a local run, and
the JSON is the same bytes.  Workers need the same install as the machine
that starts the run (the same pinned extras, ``npm ci`` for the JavaScript
clients, the user's adapter modules importable): a worker with other
library versions would judge other libraries.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = [
    "DASK_BATCH",
    "DaskExecutor",
    "ExecutorError",
    "parse_executor",
]

T = TypeVar("T")
R = TypeVar("R")

DASK_BATCH = 50
"""Cases per task on a cluster: enough that a task's start (resolving the
specs, starting a loopback server) is small beside the cases it judges,
few enough that every worker gets a share of a small corpus."""

SCHEME = "dask://"


class ExecutorError(Exception):
    """An ``--executor`` value that names no executor, a missing ``dask``
    package, or a scheduler that cannot be reached (one line)."""


@dataclass(frozen=True)
class DaskExecutor:
    """A Dask distributed scheduler at ``address`` (``HOST:PORT``)."""

    address: str
    batch: int = DASK_BATCH
    connect_timeout: float = 10.0

    def map_batches(
        self,
        work: Callable[[Sequence[T]], list[R]],
        items: Sequence[T],
        on_batch: Callable[[int], None] | None = None,
    ) -> list[R]:
        """``work`` over consecutive batches of ``items`` on the cluster; the
        results concatenated in batch order.  ``work`` must be a module-level
        function (workers import it); ``on_batch`` is called with the size of
        each batch as it finishes."""
        try:
            # untyped; one name so the calls below are checked as Any
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise ExecutorError(
                "--executor dask:// needs the 'dask' extra: pip install 'toolstream[dask]'"
            ) from None
        batches = [list(items[i : i + self.batch]) for i in range(0, len(items), self.batch)]
        try:
            client = distributed.Client(
                f"tcp://{self.address}",
                timeout=self.connect_timeout,
                set_as_default=False,
            )
        except (OSError, TimeoutError) as error:
            raise ExecutorError(
                f"cannot reach the Dask scheduler at {self.address}: {error}"
            ) from None
        try:
            futures = client.map(work, batches, pure=False)
            position = {future.key: n for n, future in enumerate(futures)}
            done: dict[int, list[R]] = {}
            with client.as_current():  # as_completed finds its client here, not a default
                for future in distributed.as_completed(futures):
                    number = position[future.key]
                    done[number] = future.result()
                    if on_batch is not None:
                        on_batch(len(batches[number]))
            return [row for number in range(len(batches)) for row in done[number]]
        finally:
            client.close()


def parse_executor(text: str) -> DaskExecutor:
    """``dask://HOST:PORT`` as an executor; raises :class:`ExecutorError`."""
    if not text.startswith(SCHEME):
        raise ExecutorError(f"--executor takes dask://HOST:PORT, not {text!r}")
    address = text[len(SCHEME) :].rstrip("/")
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ExecutorError(f"--executor {text!r}: expected dask://HOST:PORT")
    return DaskExecutor(address)
