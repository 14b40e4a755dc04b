"""A client whose library never returns, and an adapter that kills its
process: what the diff workers' watchdog and the parent's error are tested
on (tests/clients/test_diff_workers.py).  Run as a script, it judges one case in a
worker-like process with the hanging client armed as ``-j`` workers arm it.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Mapping
from typing import Any

from toolstream.adapters.base import AdapterResult
from toolstream.clients.base import Client, Target

BLOCKED = threading.Event()


class HangingClient(Client):
    """Blocks inside ``drive`` for good, as a library deadlocked on its own
    lock does (no deadline check ever runs)."""

    name = "hanging"
    packages = ("toolstream",)
    profiles = ("openai",)
    extra = None

    def load(self) -> None:
        return None

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        wait_for_ever_on_a_lock()
        raise AssertionError("unreachable")


def wait_for_ever_on_a_lock() -> None:
    BLOCKED.wait()


def exit_now(fixture: Mapping[str, Any]) -> list[Any]:
    """A callable adapter that ends its process, as a crash in native code does."""
    os._exit(3)


def main() -> int:
    from tests.support.client_fixtures import PARALLEL
    from toolstream.clients.harness import ClientAdapter
    from toolstream.diff import case_from_fixture, runner

    runner.HANG_GRACE = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5
    runner._WORKER_ADAPTERS["hanging"] = ClientAdapter(HangingClient(), timeout=0.2)
    os.environ["TOOLSTREAM_CLIENTS_SERVER"] = "http://127.0.0.1:9"  # never asked
    runner._worker_batch((("hanging",), [case_from_fixture(PARALLEL)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
