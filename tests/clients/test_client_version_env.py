"""``--client NAME==VERSION`` for real: openai-python 2.8.0 (the last line
before the SDK moved to httpx2) in an environment of its own, and
openai-node 4.104.0 (the last 4.x) and @ai-sdk/openai-compatible 0.2.15,
0.2.16, 2.0.57, 2.0.58 and 3.0.23 (on the Node.js 22 its engines ask for,
from npm, when node here is older) in npm folders of their own, in the user
cache.  The tests never build them (that reaches the package index, and tests
reach only 127.0.0.1): ``make test`` does, before pytest (``make
version-env``).  Without them the tests skip, saying why, and fail under CI,
where ``make test`` must have built them (the JavaScript ones skip without
node, as every JavaScript client test does)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

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


# -- a JavaScript release: openai-node 4.104.0 (the last 4.x), built by make version-env -----

JS_VERSION = "4.104.0"
SEED = Path(__file__).resolve().parents[2] / "corpus" / "seeds" / "openai-parallel.json"


@pytest.fixture(scope="module")
def npm_env() -> Path:
    import shutil

    from toolstream.clients.node import NodeClient
    from toolstream.clients.versions import _npm_env_dir, prepare_npm_env

    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node or npm is not on PATH (the JavaScript clients need Node.js 20)")
    client = CLIENTS["openai-node-chat-stream"]
    assert isinstance(client, NodeClient)
    built = _npm_env_dir(client, JS_VERSION)
    if not (built / _DONE).is_file():
        missing = f"no openai@{JS_VERSION} npm folder in {built}: `make version-env` builds it"
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    try:
        return prepare_npm_env(client, JS_VERSION)  # cached: no npm install
    except VersionError as error:
        pytest.fail(str(error))


def test_the_js_driver_runs_on_an_older_release_from_its_folder(
    npm_env: Path, tmp_path: Path
) -> None:
    """openai-node 4.x has its streaming helper at beta.chat.completions:
    the same driver adapts, and the runner's copy resolves "openai" to the
    release in that folder, not to the pinned one."""
    from toolstream.clients.versions import _runner_copy

    runner = _runner_copy(npm_env)
    resolved = subprocess.run(
        ["node", "--input-type=module", "-e",
         'import { VERSION } from "openai/version"; console.log(VERSION);'],
        cwd=runner, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert resolved.stdout.strip() == JS_VERSION, resolved.stderr
    truncated = write_case(tmp_path, "truncated", _truncated_arguments())
    names = [f"openai-node-chat-stream=={JS_VERSION}", f"openai-node-chat-create=={JS_VERSION}"]
    done = CliRunner().invoke(
        cli,
        ["diff", str(SEED), str(truncated), *(a for n in names for a in ("--client", n)),
         "--client", "openai-node-chat-stream", "--format", "json", "--fail-on", "never"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    versions = {a["name"]: a["version"] for a in data["adapters"]}
    assert [versions[n] for n in names] == [JS_VERSION, JS_VERSION]
    assert versions["openai-node-chat-stream"] != JS_VERSION
    seed_row, truncated_row = data["cases"]
    for name in names:
        agreed = seed_row["results"][name]
        assert agreed["classification"] == "agree", agreed
        assert [c["id"] for c in agreed["calls"]] == ["call_w1", "call_t1"]
        # arguments that never close are handed over as they came
        cut = truncated_row["results"][name]
        assert (cut["classification"], cut["handover"]) == ("unsafe_accept", "truncated_arguments")
        assert [c["arguments"] for c in cut["calls"]] == ['{"city":']


def _truncated_arguments() -> dict[str, object]:
    from tests.support.builders import chunk, tc
    from tests.support.diff_fixtures import oai

    role = {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}
    return oai(role, chunk(tc(0, "call_1", "weather", '{"city":')), chunk(finish="tool_calls"))


# -- @ai-sdk/openai-compatible on two major lines, built by make version-env ---------------

COMPATIBLE = "ai-sdk-openai-compatible"
COMPATIBLE_VERSIONS = ("0.2.15", "0.2.16", "2.0.57", "2.0.58")
"""Around the fixes of vercel/ai#7238 (0.2.16: ``tool_calls[].index``
optional) and vercel/ai#14722 (2.0.58: a name after the arguments); 0.x
runs beside ai 4.3.19, 2.x beside the pinned ai 6."""
FIELD_FIXTURES = Path(__file__).resolve().parents[2] / "bench" / "field_bugs" / "fixtures"


@pytest.fixture(scope="module")
def compatible_envs() -> list[Path]:
    import shutil

    from toolstream.clients.node import NodeClient
    from toolstream.clients.versions import _npm_env_dir, prepare_npm_env

    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node or npm is not on PATH (the JavaScript clients need Node.js 20)")
    client = CLIENTS[COMPATIBLE]
    assert isinstance(client, NodeClient)
    missing = [v for v in COMPATIBLE_VERSIONS if not (_npm_env_dir(client, v) / _DONE).is_file()]
    if missing:
        why = f"no npm folder for {COMPATIBLE} {', '.join(missing)}: `make version-env` builds them"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    try:
        return [prepare_npm_env(client, v) for v in COMPATIBLE_VERSIONS]  # cached: no npm
    except VersionError as error:
        pytest.fail(str(error))


def test_the_openai_compatible_driver_tells_the_fixed_releases_apart(
    compatible_envs: list[Path], tmp_path: Path
) -> None:
    """Each release with the "ai" of its own line: the index-less call is
    refused by 0.2.15's chunk schema and handed over by 0.2.16; the name
    after the arguments is refused by 2.0.57 and read by 2.0.58; ai 4's
    per-call error (a call of a tool the request did not declare) is an
    invalid call, not a refusal of the turn; ai 4's jsonSchema() does not
    validate, so input outside the schema is handed over there."""
    from tests.support.builders import chunk, tc
    from tests.support.diff_fixtures import oai

    role = {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}
    schemas = {
        "weather": {"type": "object", "properties": {"city": {"type": "string"}},
                    "required": ["city"], "additionalProperties": False},
    }  # fmt: skip
    unknown = oai(role, chunk(tc(0, "call_1", "lookup", '{"q":"x"}')), chunk(finish="tool_calls"))
    outside = oai(
        role, chunk(tc(0, "call_1", "weather", '{"town":"Paris"}')), chunk(finish="tool_calls")
    )
    unknown["tool_schemas"] = outside["tool_schemas"] = schemas
    cases = [
        FIELD_FIXTURES / "no_index.json",
        FIELD_FIXTURES / "name_after_arguments.json",
        write_case(tmp_path, "unknown", unknown),
        write_case(tmp_path, "outside", outside),
    ]
    names = [f"{COMPATIBLE}=={v}" for v in COMPATIBLE_VERSIONS]
    done = CliRunner().invoke(
        cli,
        ["diff", *map(str, cases), *(a for n in names for a in ("--client", n)),
         "--format", "json", "--fail-on", "never"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert [a["version"] for a in data["adapters"]] == list(COMPATIBLE_VERSIONS)
    no_index, late_name, unknown_row, outside_row = data["cases"]

    def outcome(row: dict[str, Any], version: str) -> tuple[str, str | None]:
        result = row["results"][f"{COMPATIBLE}=={version}"]
        return result["classification"], result.get("handover")

    assert outcome(no_index, "0.2.15") == ("agree", None)
    assert "TypeValidationError" in no_index["results"][f"{COMPATIBLE}==0.2.15"]["detail"]
    assert outcome(no_index, "0.2.16") == ("unsafe_accept", "extra_call")
    assert outcome(late_name, "2.0.57") == ("false_reject", None)
    assert outcome(late_name, "2.0.58") == ("agree", None)
    for version in ("0.2.15", "0.2.16"):
        flagged = unknown_row["results"][f"{COMPATIBLE}=={version}"]
        assert flagged["classification"] == "agree" and not flagged["calls"], flagged
        (invalid,) = flagged["invalid"]
        assert json.loads(invalid)["name"] == "lookup" and "NoSuchToolError" in invalid
        assert outcome(outside_row, version) == ("unsafe_accept", "as_sent")


# -- a release whose engines ask for a newer Node.js: @ai-sdk/openai-compatible 3.0.23 ------

NEWER_NODE = "3.0.23"
"""Its engines ask for Node.js >=22 (pull request 18382, omitted indexes);
``make version-env`` builds it with the Node.js 22 from npm when node here
is older."""


@pytest.fixture(scope="module")
def newer_node_env() -> tuple[Path, str | None]:
    """The cached folder of 3.0.23 and the version of the Node.js from npm it
    runs on (None: the node here satisfies its engines)."""
    import shutil

    from toolstream.clients.node import NodeClient
    from toolstream.clients.versions import (
        _npm_env_dir,
        engines_node,
        node_choice,
        node_version,
        prepare_npm_env,
        provided_node,
        release_node,
    )

    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node or npm is not on PATH (the JavaScript clients need Node.js 20)")
    client = CLIENTS[COMPATIBLE]
    assert isinstance(client, NodeClient)
    built = _npm_env_dir(client, NEWER_NODE)
    why = None
    if not (built / _DONE).is_file():
        why = (
            f"no npm folder for {COMPATIBLE} {NEWER_NODE} in {built}: `make version-env` builds it"
        )
    else:
        spec = node_choice(engines_node(client.packages[0], built), node_version())
        if spec is not None and provided_node(spec) is None:
            why = (
                f"no Node.js {spec} from npm for {COMPATIBLE} {NEWER_NODE} (node here is"
                f" {node_version()}): `make version-env` installs it"
            )
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    try:
        env = prepare_npm_env(client, NEWER_NODE)  # cached: no npm
        node = release_node(client, NEWER_NODE, env)  # cached: no npm
    except VersionError as error:
        pytest.fail(str(error))
    return env, node[1] if node is not None else None


def test_a_release_asking_for_a_newer_node_runs_on_the_one_from_npm(
    newer_node_env: tuple[Path, str | None],
) -> None:
    """3.0.23 runs (on Node.js 22 from npm when node here is older, and says
    so in its version): the index-less call that 2.x up to 2.0.79 refused
    is handed over, and vercel/ai#15879's combined shape (no index, the name
    after the arguments) is still refused by the tracker, as the reference
    blocks it."""
    from toolstream.clients.node import js_version

    env, node = newer_node_env
    assert js_version("@ai-sdk/openai-compatible", env) == NEWER_NODE
    assert js_version("ai", env) == "7.0.52"  # the ai of its provider specification (v4)
    cases = [
        FIELD_FIXTURES / "no_index_name_after_arguments.json",
        FIELD_FIXTURES / "no_index.json",
        FIELD_FIXTURES / "name_after_arguments.json",
    ]
    name = f"{COMPATIBLE}=={NEWER_NODE}"
    done = CliRunner().invoke(
        cli,
        ["diff", *map(str, cases), "--client", name, "--format", "json", "--fail-on", "never"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    (adapter,) = data["adapters"]
    if node is None:
        assert adapter["version"] == NEWER_NODE
    else:
        assert node.split(".")[0] == "22"
        assert adapter["version"] == f"{NEWER_NODE} (on Node.js {node} from npm)"
    combined, no_index, late_name = (row["results"][name] for row in data["cases"])
    assert combined["classification"] == "agree" and not combined["calls"]
    assert "Expected 'function.name' to be a string." in combined["detail"]
    assert (no_index["classification"], no_index.get("handover")) == ("unsafe_accept", "extra_call")
    assert late_name["classification"] == "agree" and late_name["calls"]
