"""The JavaScript clients from a wheel install, as a pip user gets them: the
wheel in a fresh virtual environment (its package folder is pip's, and
ships no node_modules), ``toolstream clients install-js`` in a fresh folder
(``npm ci`` from the lockfile inside the package, into the per-user cache
folder), then one case through a JavaScript client, which runs from there.

npm runs offline (``npm_config_offline``: its cache only; tests reach
nothing beyond 127.0.0.1); skipped, with the reason, without node and npm or
when npm's cache does not hold the locked packages (``make adapters-js``
fills it; ``make test`` runs it first).  25 to 40 s, in the normal run now
that ``make test`` spreads the suite over both cores."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.corpus_cases import ROOT
from tests.support.wheel_env import build_wheel, install_fresh, run

CLIENT = "openai-node-chat-stream"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not on PATH")
def test_install_js_from_a_wheel_into_the_user_cache_then_a_js_client_runs(
    tmp_path: Path,
) -> None:
    fresh = install_fresh(tmp_path, build_wheel(tmp_path))
    shipped = fresh.site / "toolstream" / "clients" / "js"
    assert (shipped / "package-lock.json").is_file() and (shipped / "run.mjs").is_file()
    assert not (shipped / "node_modules").exists()
    cache = tmp_path / "cache"
    env = dict(fresh.env, XDG_CACHE_HOME=str(cache), npm_config_offline="true")
    env.pop("TOOLSTREAM_JS_DIR", None)
    work = tmp_path / "elsewhere"
    work.mkdir()
    toolstream = str(fresh.venv / "bin" / "toolstream")

    before = run([toolstream, "diff", "--list-clients"], cwd=work, env=env)
    assert "toolstream clients install-js" in before.stdout + before.stderr

    installed = run([toolstream, "clients", "install-js", "--format", "json"], cwd=work, env=env)
    if installed.returncode != 0 and "ENOTCACHED" in installed.stderr:
        pytest.skip("npm's cache does not hold the locked packages (run make adapters-js once)")
    assert installed.returncode == 0, installed.stderr
    outcome = json.loads(installed.stdout)
    home = Path(outcome["folder"])
    assert home.parent == cache / "toolstream" and home.name.startswith("js-")
    assert (home / "node_modules").is_dir() and (home / "run.mjs").is_file()
    assert not (shipped / "node_modules").exists()  # pip's folder left alone
    assert list(work.iterdir()) == []  # nothing written where it was run

    case = ROOT / "corpus" / "seeds" / "openai-parallel.json"
    corpus = tmp_path / "cases"
    corpus.mkdir()
    shutil.copy(case, corpus)
    ran = run(
        [toolstream, "diff", str(corpus), "--client", CLIENT, "--format", "json", "-q"],
        cwd=work,
        env=env,
    )
    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout)
    assert result["totals"][CLIENT]["agree"] == 1, result["totals"]
