"""The wheel built offline and installed into a fresh virtual environment,
for the tests that run toolstream as a pip user would (outside the
repository, nothing of the checkout importable).

The wheel is built without build isolation from a copy of the sources and
installed with ``--no-deps``; its dependencies are made visible to the
fresh environment by one ``.pth`` line naming the project environment's
site-packages (``.pth`` files inside that folder are not processed, so the
project's editable install is not)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.corpus_cases import ROOT


def run(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    done: subprocess.CompletedProcess[str] = subprocess.run(
        args, capture_output=True, text=True, timeout=300, check=False, **kwargs
    )
    return done


def copy_sources(target: Path) -> None:
    """The files the wheel is built from (corpus/seeds through the link);
    never an installed ``node_modules``."""
    target.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, target / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules")
    for name in ("toolstream", "generators"):
        shutil.copytree(ROOT / name, target / name, symlinks=True, ignore=ignore)
    shutil.copytree(ROOT / "corpus" / "seeds", target / "corpus" / "seeds")


def build_wheel(tmp_path: Path) -> Path:
    source = tmp_path / "src"
    copy_sources(source)
    dist = tmp_path / "dist"
    built = run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", str(dist), str(source)],
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("toolstream-*.whl")
    return wheel


@dataclass(frozen=True)
class FreshEnv:
    venv: Path
    python: Path
    site: Path
    env: dict[str, str]
    """The environment to run its commands in: its ``bin`` first on PATH, no
    PYTHONPATH or VIRTUAL_ENV of the project's."""


def install_fresh(tmp_path: Path, wheel: Path) -> FreshEnv:
    venv = tmp_path / "fresh"
    made = run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    installed = run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-index", "-q", str(wheel)],
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    site = Path(
        run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
        .stdout.strip()
    )  # fmt: skip
    (site / "toolstream-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", NO_COLOR="1", COLUMNS="200")
    return FreshEnv(venv, python, site, env)
