"""The wheel works on its own: build it, install it into a fresh virtual
environment, and run the README's quick-start lines outside the repository.

Offline by design (tests reach nothing beyond 127.0.0.1): the wheel and the
fresh environment are made as ``tests/support/wheel_env.py`` says; the test
checks that ``toolstream`` and the seeds are imported from the fresh
environment.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.wheel_env import build_wheel, install_fresh, run

ROOT = Path(__file__).resolve().parents[2]


def _quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "the README's quick start has no sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_wheel_runs_the_readme_quick_start(tmp_path: Path) -> None:
    commands = _quick_start()
    assert any(c.startswith("toolstream generate") for c in commands)
    try:
        import setuptools
    except ImportError:  # pragma: no cover - in the test extras
        pytest.fail("setuptools is needed to build the wheel offline (make venv)")
    assert int(setuptools.__version__.split(".")[0]) >= 70, "bdist_wheel needs setuptools>=70.1"

    fresh = install_fresh(tmp_path, build_wheel(tmp_path))
    venv, python, env = fresh.venv, fresh.python, fresh.env

    work = tmp_path / "elsewhere"
    work.mkdir()
    where = run(
        [
            str(python),
            "-c",
            "import toolstream, toolstream_generators; print(toolstream.__file__);"
            " print(toolstream_generators.__file__)",
        ],
        cwd=work,
        env=env,
    )
    assert where.returncode == 0, where.stderr
    for line in where.stdout.splitlines():
        assert line.startswith(str(venv)), f"imported from outside the fresh venv: {line}"

    for command in commands:
        if command.startswith("pip install"):
            continue
        done = run(["bash", "-c", command], cwd=work, env=env)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    assert (work / "seeds" / "openai-parallel.json").read_bytes() == (
        ROOT / "corpus" / "seeds" / "openai-parallel.json"
    ).read_bytes()
    assert (work / "my-corpus" / "MANIFEST.jsonl").read_text().count("\n") >= 1
