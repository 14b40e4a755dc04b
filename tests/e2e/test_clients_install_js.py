"""``toolstream clients install-js DIR``: ``npm ci`` from the lockfile
shipped inside the package, in a fresh folder (no repository, no
Makefile).  Needs node and the npm registry: skipped, with the reason, when
either is missing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.corpus_cases import ROOT
from toolstream.clients import node

OFFLINE_SIGNS = ("ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNREFUSED", "ENETUNREACH")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not on PATH")
def test_install_js_installs_the_locked_packages_into_a_fresh_folder(tmp_path: Path) -> None:
    target = tmp_path / "js"
    env = dict(os.environ, PYTHONPATH=str(ROOT), npm_config_cache=str(tmp_path / "npm-cache"))
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from toolstream.cli import main; main()",
            "clients",
            "install-js",
            str(target),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0 and any(sign in done.stdout + done.stderr for sign in OFFLINE_SIGNS):
        pytest.skip("the npm registry is not reachable from here")
    assert done.returncode == 0, done.stdout + done.stderr
    wanted = json.loads((node.JS_ROOT / "package.json").read_text("utf-8"))["dependencies"]
    for name, version in wanted.items():
        installed = json.loads((target / "node_modules" / name / "package.json").read_text())
        assert installed["version"] == version, name
    assert (target / "package-lock.json").read_bytes() == (
        node.JS_ROOT / "package-lock.json"
    ).read_bytes()


def test_the_missing_packages_message_names_the_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not on PATH: the message is about node itself")
    shutil.copyfile(node.JS_ROOT / "package.json", tmp_path / "package.json")
    monkeypatch.setattr(node, "JS_ROOT", tmp_path)
    why = node.node_missing()
    assert why is not None and why.endswith("run: toolstream clients install-js")
