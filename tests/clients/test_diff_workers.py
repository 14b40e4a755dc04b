"""``-j`` worker processes that stop: a library that hangs past every case
deadline is stopped by the worker's watchdog with its stacks on stderr, and
a worker that dies fails the run with one line, never a traceback or a
run that waits for ever (tests/support/hanging_client.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from tests.support.client_fixtures import PARALLEL
from tests.support.hanging_client import HangingClient
from toolstream.cli import cli
from toolstream.clients.harness import ClientAdapter
from toolstream.diff import runner

ROOT = Path(__file__).resolve().parents[2]


def test_a_hung_client_is_stopped_with_its_stacks() -> None:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.hanging_client", "0.5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert time.monotonic() - started < 30
    assert "wait_for_ever_on_a_lock" in done.stderr  # where it hung, for the bug report


def test_the_watchdog_is_armed_only_for_clients() -> None:
    client = ClientAdapter(HangingClient(), timeout=2.0)
    assert runner._hang_bound([client]) == 3 * 2.0 + runner.HANG_GRACE
    from toolstream.adapters.registry import resolve_adapter

    builtin = resolve_adapter("openai-python")
    assert runner._hang_bound([client, builtin]) is None  # a callable has no deadline
    assert runner._hang_bound([]) is None


def test_a_dead_worker_fails_the_run_in_one_line(tmp_path: Path) -> None:
    for number in range(runner._BATCH + 1):  # more than one batch: workers run
        fixture = {**PARALLEL, "meta": {"n": number}}
        (tmp_path / f"{number:03d}.json").write_text(json.dumps(fixture), encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        [
            "diff", str(tmp_path), "--adapter", "tests.support.hanging_client:exit_now",
            "--adapter-profile", "openai", "-j", "2", "-q",
        ],
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "a diff worker process stopped" in result.output
    assert "Traceback" not in result.output
