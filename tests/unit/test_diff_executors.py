"""--executor dask://HOST:PORT: a diff run judged in batches on a Dask
distributed cluster (a LocalCluster of worker processes on 127.0.0.1) is
the local run's result byte for byte; a bad value or an unreachable
scheduler is one line and 64."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.corpus_cases import seed, variants, write_case
from toolstream.cli import cli
from toolstream.diff.executors import DaskExecutor, ExecutorError, parse_executor
from toolstream.diff.session import DiffSession

SPECS = ["openai-python", "client:openai-chat-create@cut-close"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus")
    fixture = seed("openai-parallel")
    write_case(folder, fixture, operator="seed")
    for variant in variants(fixture):
        write_case(folder, variant, operator="drop_item")
    return folder


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A LocalCluster on loopback: two worker processes, one thread each."""
    distributed = pytest.importorskip("distributed")
    pytest.importorskip("openai")
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=50,
    )
    try:
        yield cluster.scheduler_address.removeprefix("tcp://")
    finally:
        cluster.close(timeout=20)


def test_a_run_on_a_cluster_is_the_local_run_byte_for_byte(corpus: Path, scheduler: str) -> None:
    local = DiffSession.open(corpus, SPECS, timeout=10.0).run()
    events: list[Any] = []
    remote = DiffSession.open(
        corpus, SPECS, timeout=10.0, executor=DaskExecutor(scheduler, batch=4)
    ).run(events.append)
    assert len(local.cases) > 8  # several batches of 4
    assert remote.to_json() == local.to_json()
    data = json.loads(local.to_json())
    assert any("transport" in r for c in data["cases"] for r in c["results"].values())
    finished = sum(e.runs for e in events if type(e).__name__ == "CaseFinished")
    assert finished == len(local.cases) * len(SPECS)  # progress counted every run


def test_the_cli_runs_on_the_cluster(corpus: Path, scheduler: str) -> None:
    args = ["diff", str(corpus), "--adapter", "openai-python", "--format", "json", "-q"]
    local = CliRunner().invoke(cli, [*args], catch_exceptions=False)
    remote = CliRunner().invoke(
        cli, [*args, "--executor", f"dask://{scheduler}"], catch_exceptions=False
    )
    assert remote.exit_code == local.exit_code, remote.output
    assert remote.stdout == local.stdout


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_executor_values_and_an_unreachable_scheduler_are_misuse(corpus: Path) -> None:
    for bad in ("local", "dask://nohost", "dask://h:0", "tcp://h:1"):
        with pytest.raises(ExecutorError):
            parse_executor(bad)
    assert parse_executor("dask://127.0.0.1:8786") == DaskExecutor("127.0.0.1:8786")
    base = ["diff", str(corpus), "--adapter", "openai-python", "-q"]
    result = CliRunner().invoke(cli, [*base, "--executor", "dask://x"], catch_exceptions=False)
    assert result.exit_code == 64 and "dask://HOST:PORT" in result.output
    result = CliRunner().invoke(
        cli, [*base, "--executor", "dask://127.0.0.1:9", "-j", "2"], catch_exceptions=False
    )
    assert result.exit_code == 64 and "-j N and --executor" in result.output
    pytest.importorskip("distributed")
    unreachable = DaskExecutor(f"127.0.0.1:{_closed_port()}", connect_timeout=1.0)
    with pytest.raises(ExecutorError, match="cannot reach the Dask scheduler"):
        DiffSession.open(corpus, ["openai-python"], executor=unreachable).run()
