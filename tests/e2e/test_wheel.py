"""The wheel works on its own: build it, install it into a fresh virtual
environment, and run the README's quick-start lines outside the repository.

Offline by design (tests reach nothing beyond 127.0.0.1): the wheel is built
without build isolation from a copy of the sources, and installed with
``--no-deps``; its dependencies (click, rich, hypothesis, PyYAML) are made
visible to the fresh environment by one ``.pth`` line naming the project
environment's site-packages.  ``.pth`` files inside that folder are not
processed, so the project's editable install is not: the test checks that
``toolstream`` and the seeds are imported from the fresh environment.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "the README's quick start has no sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=300, check=False, **kwargs)


def _sources(target: Path) -> None:
    """The files the wheel is built from (corpus/seeds through the link)."""
    target.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, target / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("toolstream", "generators"):
        shutil.copytree(ROOT / name, target / name, symlinks=True, ignore=ignore)
    shutil.copytree(ROOT / "corpus" / "seeds", target / "corpus" / "seeds")


def test_wheel_runs_the_readme_quick_start(tmp_path: Path) -> None:
    commands = _quick_start()
    assert any(c.startswith("toolstream generate") for c in commands)
    try:
        import setuptools
    except ImportError:  # pragma: no cover - in the test extras
        pytest.fail("setuptools is needed to build the wheel offline (make venv)")
    assert int(setuptools.__version__.split(".")[0]) >= 70, "bdist_wheel needs setuptools>=70.1"

    source = tmp_path / "src"
    _sources(source)
    dist = tmp_path / "dist"
    built = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-q",
            "-w",
            str(dist),
            str(source),
        ],
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("toolstream-*.whl")

    venv = tmp_path / "fresh"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    installed = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "-q",
            str(wheel),
        ],
    )
    assert installed.returncode == 0, installed.stderr
    fresh_site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
        ).stdout.strip()
    )
    (fresh_site / "toolstream-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", NO_COLOR="1", COLUMNS="200")
    where = _run(
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
        done = _run(["bash", "-c", command], cwd=work, env=env)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    assert (work / "seeds" / "openai-parallel.json").read_bytes() == (
        ROOT / "corpus" / "seeds" / "openai-parallel.json"
    ).read_bytes()
    assert (work / "my-corpus" / "MANIFEST.jsonl").read_text().count("\n") >= 1
