"""``--client NAME==VERSION`` for real: openai-python 2.8.0 (the last line
before the SDK moved to httpx2) in an environment of its own, in the user
cache.  The test never builds it (that reaches the package index, and tests
reach only 127.0.0.1): ``make test`` does, before pytest (``make
version-env``).  Without it the test skips, saying why, and fails under CI,
where ``make test`` must have built it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.diff_fixtures import REUSED_INDEX, write_case
from toolstream.cli import cli
from toolstream.clients.registry import CLIENTS
from toolstream.clients.versions import _DONE, VersionError, _env_dir, _python, _shim, prepare_env

VERSION = "2.8.0"


@pytest.fixture(scope="module")
def env() -> Path:
    built = _env_dir(CLIENTS["openai-chat-create"], VERSION)
    if not (built / _DONE).is_file():
        missing = f"no openai=={VERSION} environment in {built}: `make version-env` builds it"
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    try:
        return prepare_env(CLIENTS["openai-chat-create"], VERSION)  # cached: no install
    except VersionError as error:
        pytest.fail(str(error))


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
