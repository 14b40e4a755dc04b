"""``--client NAME==VERSION``: the pieces that need no environment
(``toolstream.clients.versions``); the one environment built for real is
``clients/test_client_version_env.py``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from toolstream.adapters import NO_INPUT, AdapterCall, AdapterResult
from toolstream.clients.node import JS_ROOT, NodeClient, NodeEnvironmentError, _Runner
from toolstream.clients.registry import CLIENTS, get_client
from toolstream.clients.versions import (
    ENV_DIR_VARIABLE,
    VersionedClient,
    VersionedNodeClient,
    VersionError,
    _crash,
    _npm_env_dir,
    check_supported,
    expand_client_values,
    npm_pins,
    npm_requirements,
    prepare_env,
    result_from_json,
    result_to_json,
    split_version,
    version_key,
)
from toolstream.diff.classify import classify_crash


def test_a_list_of_versions_names_the_client_once() -> None:
    pieces = ["openai-chat-create==1.40.0", "2.8.0", "3.57.0", "langchain-openai", "x@cut-close"]
    assert expand_client_values(pieces) == [
        "openai-chat-create==1.40.0",
        "openai-chat-create==2.8.0",
        "openai-chat-create==3.57.0",
        "langchain-openai",
        "x@cut-close",
    ]
    assert split_version("openai-chat-create==2.8.0") == ("openai-chat-create", "2.8.0")
    assert split_version("openai-chat-create") == ("openai-chat-create", None)


def test_release_numbers_sort_as_releases() -> None:
    versions = ["1.10.0", "1.9.0", "1.0.0rc1", "1.0.0", "2.0", "1.9.1"]
    assert sorted(versions, key=version_key) == [
        "1.0.0rc1",
        "1.0.0",
        "1.9.0",
        "1.9.1",
        "1.10.0",
        "2.0",
    ]


def test_a_version_older_than_the_driver_supports_is_one_line() -> None:
    client = CLIENTS["openai-chat-create"]
    assert client.oldest is not None
    check_supported(client, client.oldest)
    with pytest.raises(VersionError) as too_old:
        check_supported(client, "0.28.0")
    assert str(too_old.value) == (
        f"client 'openai-chat-create' supports openai {client.oldest} and later, not 0.28.0"
    )
    # a driver that declares no oldest version runs only at its pin
    with pytest.raises(VersionError, match="runs only at its pinned version"):
        check_supported(CLIENTS["cohere-chat-stream"], "5.0.0")


def test_a_versioned_name_is_its_own_client() -> None:
    versioned = get_client("openai-chat-create==2.8.0")
    assert isinstance(versioned, VersionedClient)
    assert versioned.name == "openai-chat-create==2.8.0"
    assert versioned.profiles == CLIENTS["openai-chat-create"].profiles
    assert get_client("openai-chat-create==2.8.0") is versioned


def test_a_versioned_javascript_name_drives_the_same_driver() -> None:
    versioned = get_client("openai-node-chat-create==4.104.0")
    assert isinstance(versioned, VersionedNodeClient)
    assert versioned.name == "openai-node-chat-create==4.104.0"
    # the runner knows the driver by its base name; the versioned runner is its own
    assert versioned.driver == "openai-node-chat-create"
    assert versioned.module == "openai_node"
    assert versioned.runner is not CLIENTS["openai-node-chat-create"].runner  # type: ignore[attr-defined]
    assert get_client("openai-node-chat-create==4.104.0") is versioned


def test_a_javascript_version_older_than_its_driver_is_one_line() -> None:
    client = CLIENTS["openai-node-chat-stream"]
    assert client.oldest == "4.16.0"
    check_supported(client, "4.16.0")
    with pytest.raises(VersionError) as too_old:
        check_supported(client, "4.15.4")
    assert str(too_old.value) == (
        "client 'openai-node-chat-stream' supports openai 4.16.0 and later, not 4.15.4"
    )
    # a JS driver that declares no oldest runs only at its pin (ai_sdk.mjs
    # imports every provider, so no release of one can run on its own)
    with pytest.raises(VersionError, match="runs only at its pinned version"):
        check_supported(CLIENTS["ai-sdk-openai-chat"], "3.0.0")
    # ai_sdk_openai_compatible.mjs imports its provider alone: every release
    check_supported(CLIENTS["ai-sdk-openai-compatible"], "0.0.2")
    with pytest.raises(VersionError) as older:
        check_supported(CLIENTS["ai-sdk-openai-compatible"], "0.0.1")
    assert str(older.value) == (
        "client 'ai-sdk-openai-compatible' supports @ai-sdk/openai-compatible 0.0.2 and"
        " later, not 0.0.1"
    )


def test_a_javascript_release_folder_pins_the_rest_from_package_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pins = npm_pins()
    assert pins == json.loads((JS_ROOT / "package.json").read_text("utf-8"))["dependencies"]
    compatible = CLIENTS["ai-sdk-openai-compatible"]
    assert isinstance(compatible, NodeClient)
    assert npm_requirements(compatible, "2.0.10") == {
        "@ai-sdk/openai-compatible": "2.0.10",
        "ai": pins["ai"],
    }
    # an older major line runs under the "ai" of its own provider specification
    assert npm_requirements(compatible, "0.2.15") == {
        "@ai-sdk/openai-compatible": "0.2.15",
        "ai": "4.3.19",
        "zod": "3.25.76",
    }
    assert npm_requirements(compatible, "1.0.61") == {
        "@ai-sdk/openai-compatible": "1.0.61",
        "ai": "5.0.277",
    }
    assert npm_requirements(compatible, "1.0.0-beta.2")["ai"] == "5.0.277"
    # 3.x (provider specification v4) runs under ai 7; 2.x keeps the pins
    assert npm_requirements(compatible, "3.0.23") == {
        "@ai-sdk/openai-compatible": "3.0.23",
        "ai": "7.0.52",
    }
    assert npm_requirements(compatible, "2.0.92")["ai"] == pins["ai"]
    assert _npm_env_dir(compatible, "0.2.15") != _npm_env_dir(compatible, "0.2.16")
    monkeypatch.setenv(ENV_DIR_VARIABLE, str(tmp_path))
    node = CLIENTS["openai-node-chat-create"]
    assert isinstance(node, NodeClient)
    folder = _npm_env_dir(node, "4.104.0")
    assert folder.parent == tmp_path and folder.name.startswith("npm-openai-4.104.0-")
    assert _npm_env_dir(compatible, "2.0.10").name.startswith(
        "npm-ai-sdk+openai-compatible-2.0.10-"
    )
    # both drivers of one package share its folder; another version has its own
    assert _npm_env_dir(CLIENTS["openai-node-chat-stream"], "4.104.0") == folder  # type: ignore[arg-type]
    assert _npm_env_dir(node, "5.23.2") != folder


def test_a_release_whose_engines_ask_for_a_newer_node_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    from toolstream.clients.versions import engines_refusal

    package = tmp_path / "node_modules" / "@ai-sdk" / "openai-compatible"
    package.mkdir(parents=True)
    manifest = package / "package.json"
    library = "@ai-sdk/openai-compatible"
    manifest.write_text(json.dumps({"engines": {"node": ">=22"}}), encoding="utf-8")
    assert engines_refusal(library, "3.0.23", tmp_path, "20.20.2") == (
        "@ai-sdk/openai-compatible@3.0.23 needs Node.js >=22 (its engines); node here is 20.20.2"
    )
    assert engines_refusal(library, "3.0.23", tmp_path, "22.0.0") is None
    assert engines_refusal(library, "3.0.23", tmp_path, "24.1.0") is None
    manifest.write_text(json.dumps({"engines": {"node": ">=18.12.1"}}), encoding="utf-8")
    assert engines_refusal(library, "2.0.58", tmp_path, "18.12.0") is not None
    assert engines_refusal(library, "2.0.58", tmp_path, "20.20.2") is None
    manifest.write_text(json.dumps({"name": library}), encoding="utf-8")
    assert engines_refusal(library, "2.0.58", tmp_path, "16.0.0") is None  # none asked


@pytest.mark.parametrize(
    ("wanted", "here", "choice"),
    [
        (">=22", "20.20.2", "^22.0.0"),  # @ai-sdk/openai-compatible 3.x
        (">= 22", "20.20.2", "^22.0.0"),
        (">=22", "22.0.0", None),
        (">=22", "24.1.0", None),
        (">=18", "20.20.2", None),  # 2.x: the node here
        (">=18.12.1", "18.12.0", "^18.12.1"),
        ("^20.19.0 || >=22.12.0", "18.1.0", "^20.19.0"),  # the lowest major it admits
        ("^20.19.0 || >=22.12.0", "21.0.0", "^22.12.0"),
        ("^20.19.0 || >=22.12.0", "20.20.2", None),
        ("22.x", "20.1.0", "^22.0.0"),
        ("~22.3", "20.1.0", "^22.3.0"),
        (">21", "20.1.0", "^22.0.0"),
        (">=22.12.0 <23", "20.1.0", "^22.12.0"),
        ("18 - 22", "16.0.0", "^18.0.0"),
        ("*", "20.1.0", None),
        ("<18", "20.20.2", None),  # only an older one: the node here, as before
        ("a new syntax", "20.20.2", None),  # not read: the node here
        (None, "20.20.2", None),  # no engines
        (">=22", None, None),  # no node answering: refused elsewhere
    ],
)
def test_the_node_a_release_runs_on_is_chosen_from_its_engines(
    wanted: str | None, here: str | None, choice: str | None
) -> None:
    from toolstream.clients.versions import node_choice

    assert node_choice(wanted, here) == choice


def _engines_env(tmp_path: Path, node: str) -> Path:
    """A release folder whose @ai-sdk/openai-compatible asks ``engines.node``."""
    env = tmp_path / "release"
    package = env / "node_modules" / "@ai-sdk" / "openai-compatible"
    package.mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"engines": {"node": node}}), "utf-8")
    return env


def _fake_npm(folder: Path, script: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    npm = folder / "npm"
    npm.write_text("#!/bin/sh\n" + script, encoding="utf-8")
    npm.chmod(0o755)


needs_posix_node_package = pytest.mark.skipif(
    shutil.which("sh") is None or os.name == "nt", reason="a stand-in npm needs a POSIX sh"
)


@needs_posix_node_package
def test_a_newer_node_the_release_asks_for_is_installed_once_and_runs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stand-in npm (no registry): it "installs" a node binary package
    whose node answers v22.9.0; the release runs on it, the second time
    from the cache (npm not asked again), and says so in its version."""
    from toolstream.clients import versions

    package = versions.node_package()
    if package is None:
        pytest.skip("no Node.js binary package on npm for this machine")
    monkeypatch.setenv(ENV_DIR_VARIABLE, str(tmp_path / "cache"))
    calls = tmp_path / "npm-calls"
    _fake_npm(
        tmp_path / "bin",
        f'echo "$@" >> {calls}\n'
        'while [ "$1" != "--prefix" ]; do shift; done\n'
        f'mkdir -p "$2/node_modules/{package}/bin"\n'
        f"printf '#!/bin/sh\\necho v22.9.0\\n' > \"$2/node_modules/{package}/bin/node\"\n"
        f'chmod +x "$2/node_modules/{package}/bin/node"\n',
    )
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    monkeypatch.setattr(versions, "node_version", lambda: "20.20.2")
    client = CLIENTS["ai-sdk-openai-compatible"]
    assert isinstance(client, NodeClient)
    env = _engines_env(tmp_path, ">=22")
    said: list[str] = []
    binary, version = versions.release_node(client, "3.0.23", env, progress=said.append) or ("", "")
    assert version == "22.9.0"
    assert (
        binary
        == tmp_path
        / "cache"
        / f"nodejs-{package}-22.0.0"
        / "node_modules"
        / package
        / "bin"
        / "node"
    )
    (asked,) = calls.read_text("utf-8").splitlines()
    assert asked.endswith(f"--ignore-scripts --loglevel=error {package}@^22.0.0")
    assert said[-1] == (
        f"@ai-sdk/openai-compatible@3.0.23 runs on Node.js 22.9.0 from npm ({binary}):"
        " its engines ask >=22, node here is 20.20.2"
    )
    assert versions.release_node(client, "3.0.24", env) == (binary, "22.9.0")  # cached
    assert len(calls.read_text("utf-8").splitlines()) == 1
    # a release the node here satisfies runs on it
    assert versions.release_node(client, "2.0.92", _engines_env(tmp_path / "two", ">=18")) is None


@needs_posix_node_package
def test_a_newer_node_that_cannot_be_had_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolstream.clients import versions

    if versions.node_package() is None:
        pytest.skip("no Node.js binary package on npm for this machine")
    monkeypatch.setenv(ENV_DIR_VARIABLE, str(tmp_path / "cache"))
    monkeypatch.setattr(versions, "node_version", lambda: "20.20.2")
    client = CLIENTS["ai-sdk-openai-compatible"]
    assert isinstance(client, NodeClient)
    env = _engines_env(tmp_path, ">=22")
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(VersionError) as absent:
        versions.release_node(client, "3.0.23", env)
    assert str(absent.value) == (
        "client 'ai-sdk-openai-compatible': @ai-sdk/openai-compatible@3.0.23 needs Node.js >=22"
        " (its engines); node here is 20.20.2, and npm is not on PATH to install Node.js ^22.0.0"
    )
    _fake_npm(
        tmp_path / "bin",
        'echo "npm error code E404" >&2\necho "npm error 404 Not Found" >&2\nexit 1\n',
    )
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    with pytest.raises(VersionError) as failed:
        versions.release_node(client, "3.0.23", env)
    message = str(failed.value)
    assert "\n" not in message and message.endswith(
        "node here is 20.20.2, and cannot install Node.js ^22.0.0"
        f" ({versions.node_package()}) from npm: npm error 404 Not Found"
    )
    assert not list((tmp_path / "cache").iterdir())  # nothing half-built is kept


def test_a_javascript_version_too_old_is_refused_before_npm_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_DIR_VARIABLE, str(tmp_path))
    monkeypatch.setenv("PATH", "/nonexistent")  # npm could not run, and is not asked to
    with pytest.raises(VersionError, match=r"supports openai 4\.16\.0 and later, not 4\.0\.0"):
        prepare_env(CLIENTS["openai-node-chat-create"], "4.0.0")
    with pytest.raises(VersionError, match="npm is not on PATH"):
        prepare_env(CLIENTS["openai-node-chat-create"], "4.104.0")
    assert not list(tmp_path.iterdir())


# -- the runner in a release's folder (needs node; a stand-in driver module) ----------------

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")


def _runner_home(tmp_path: Path, driver_source: str) -> Path:
    """A copy of the shipped runner beside a stand-in ``openai_node.mjs``
    (the runner loads only the module it is named)."""
    shutil.copyfile(JS_ROOT / "run.mjs", tmp_path / "run.mjs")
    (tmp_path / "drivers").mkdir()
    (tmp_path / "drivers" / "openai_node.mjs").write_text(driver_source, encoding="utf-8")
    return tmp_path


@needs_node
def test_a_driver_module_that_does_not_import_is_an_environment_error(tmp_path: Path) -> None:
    home = _runner_home(tmp_path, 'import OpenAI from "openai";\nexport const DRIVERS = {};\n')
    done = subprocess.run(
        ["node", str(home / "run.mjs"), "openai_node"],
        input="", capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    (answer,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert set(answer) == {"environment"}
    assert answer["environment"].startswith("openai_node.mjs: Error: Cannot find package 'openai'")
    assert done.returncode == 1
    runner = _Runner(lambda: (home, ("openai_node",)))
    with pytest.raises(NodeEnvironmentError, match="Cannot find package 'openai'"):
        runner.start()


@needs_node
def test_a_rejection_left_unhandled_is_the_cases_crash_and_the_runner_lives(
    tmp_path: Path,
) -> None:
    """A library that rejects a promise nobody awaits would end a Node
    application: that case answers a crash, the next case still runs."""
    home = _runner_home(
        tmp_path,
        "export const DRIVERS = {\n"
        '  leaky: async () => { Promise.reject(new TypeError("inner")); return { calls: [] }; },\n'
        '  fine: async () => ({ calls: [{ id: "call_1", name: "weather", arguments: "{}" }] }),\n'
        "};\n",
    )
    runner = _Runner(lambda: (home, ("openai_node",)))
    try:
        request: dict[str, Any] = {
            "root": "",
            "v1": "",
            "tools": [],
            "tool_choice": None,
            "timeout_ms": 5000,
        }
        leaky = runner.ask({**request, "client": "leaky"}, 10)
        assert leaky["crash"] == {"type": "UnhandledRejection", "message": "TypeError: inner"}
        fine = runner.ask({**request, "client": "fine"}, 10)
        assert fine["calls"] == [{"id": "call_1", "name": "weather", "arguments": "{}"}]
        assert "crash" not in fine
    finally:
        runner.stop()


def test_a_result_crosses_the_worker_line_unchanged() -> None:
    result = AdapterResult(
        calls=(
            AdapterCall("call_1", "weather", '{"city":"Paris"}'),
            AdapterCall("toolu_1", "weather", None, input={"city": "Rome"}),
        ),
        rejected=False,
        invalid=('{"id":"x"}',),
        finish_reason="tool_calls",
    )
    back = result_from_json(result_to_json(result))
    assert back == result
    assert back.calls[0].input is NO_INPUT


def test_a_crash_in_the_worker_keeps_its_type_and_where() -> None:
    error = _crash(
        {"type": "IndexError", "message": "list index out of range", "notes": ["@@x openai 2.8"]}
    )
    outcome = classify_crash(error)
    assert outcome.error_type == "IndexError"
    assert outcome.signature == "adapter_crash:IndexError"
    assert outcome.error == "IndexError: list index out of range"


def test_langchain_core_is_switched_under_the_same_driver() -> None:
    """``langchain-core-openai==V`` installs langchain-core at V (its first
    package) with langchain-openai and openai beside it, and drives the
    langchain-openai driver."""
    from toolstream.clients.langchain import LangChainOpenAI
    from toolstream.clients.versions import _requirements

    core = CLIENTS["langchain-core-openai"]
    assert isinstance(core, LangChainOpenAI)
    assert type(core).drive is LangChainOpenAI.drive
    assert core.packages[0] == "langchain-core" and core.oldest == "1.0.0"
    required = _requirements(core, "1.0.0", pinned=False)
    assert required == ["langchain-core==1.0.0", "langchain-openai", "openai"]
    assert _requirements(CLIENTS["langchain-openai"], "1.0.0", pinned=False)[0] == (
        "langchain-openai==1.0.0"
    )
    with pytest.raises(VersionError, match=r"supports langchain-core 1\.0\.0 and later"):
        check_supported(core, "0.3.79")


def test_diff_refuses_a_javascript_release_it_cannot_run_in_one_line() -> None:
    from click.testing import CliRunner

    from toolstream.cli import cli

    seed = Path(__file__).resolve().parents[2] / "corpus" / "seeds" / "openai-parallel.json"
    for client, message in [
        ("openai-node-chat-create==4.0.0", "supports openai 4.16.0 and later, not 4.0.0"),
        ("ai-sdk-openai-chat==3.0.0", "runs only at its pinned version"),
    ]:
        done = CliRunner().invoke(cli, ["diff", str(seed), "--client", client])
        assert done.exit_code == 64, done.output
        assert message in done.output and "Traceback" not in done.output
