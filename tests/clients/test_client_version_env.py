"""``--client NAME==VERSION`` for real: openai-python 2.8.0 (the last line
before the SDK moved to httpx2) in an environment of its own, built once
from the package index into the user cache and reused (cold: about 40 s
with pip; warm: a few seconds).  Skips, saying why, when it cannot be
built (no package index).  The install runs in a subprocess; the clients
reach only 127.0.0.1."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.diff_fixtures import REUSED_INDEX, write_case
from toolstream.cli import cli
from toolstream.clients.registry import CLIENTS
from toolstream.clients.versions import VersionError, _python, _shim, prepare_env

VERSION = "2.8.0"


@pytest.fixture(scope="module")
def env() -> Path:
    try:
        return prepare_env(CLIENTS["openai-chat-create"], VERSION)
    except VersionError as error:
        pytest.skip(f"cannot build the openai=={VERSION} environment (package index?): {error}")


def test_the_driver_runs_on_an_older_release_in_its_own_environment(
    env: Path, tmp_path: Path
) -> None:
    case = write_case(tmp_path, "reuse", REUSED_INDEX)
    done = CliRunner().invoke(
        cli,
        ["diff", str(case), "--client", f"openai-chat-create=={VERSION}", "--client",
         "openai-chat-create", "--format", "json", "--fail-on", "never"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    versions = {a["name"]: a["version"] for a in data["adapters"]}
    # the version the worker read from its environment, not the one asked for
    assert versions[f"openai-chat-create=={VERSION}"] == VERSION
    assert versions["openai-chat-create"] != VERSION
    (row,) = data["cases"]
    old = row["results"][f"openai-chat-create=={VERSION}"]
    # 2.8.0 merges the reused index into one call, as the pinned release does
    assert (old["classification"], old["handover"]) == ("unsafe_accept", "glued_ids+merged")
    assert [c["id"] for c in old["calls"]] == ["call_1call_2"]


def test_an_import_error_in_the_environment_is_no_library_behaviour(env: Path) -> None:
    """The worker of a client whose library that environment lacks answers
    an environment error, never a result or a crash."""
    done = subprocess.run(
        [str(_python(env)), "-m", "toolstream.clients.version_worker",
         "anthropic-messages-stream"],
        input="",
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(_shim()), "PATH": "/usr/bin:/bin"},
        timeout=60,
        check=False,
    )  # fmt: skip
    (answer,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert set(answer) == {"environment"} and "anthropic" in answer["environment"]
    assert done.returncode == 1
