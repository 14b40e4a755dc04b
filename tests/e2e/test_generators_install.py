"""The corpus does not depend on how toolstream is installed.

The wheel is built from a copy of the sources (offline: the environment's
own build backend), installed into a fresh virtual environment that sees
only the already-installed dependencies, and run from another working
directory; the corpus it generates must be byte-identical to one generated
here, from the checkout (an editable install).  Hypothesis would otherwise
mix literals from the modules it considers local into its draws, and which
modules those are depends on the install (``_internal/constants.py``).

About 20 s (a wheel build, a venv without pip, one small corpus).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

from toolstream.corpus.generate import generate

ROOT = Path(__file__).resolve().parents[2]
SEEDS = [
    ROOT / "corpus" / "seeds" / name
    for name in ("openai-parallel.json", "anthropic-text-and-tools.json")
]
COUNT = 6
SEED = 0
SOURCES = ("toolstream", "generators", "setup.py", "pyproject.toml", "README.md")


def _tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{[str(a) for a in args]}: {done.stderr[-2000:]}"
    return done


def _build_wheel(tmp: Path) -> Path:
    source = tmp / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    wheels = tmp / "wheels"
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check")
    _run(
        *pip,
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-w",
        wheels,
        source,
        cwd=tmp,
    )
    (wheel,) = wheels.glob("toolstream-*.whl")
    return wheel


def _fresh_env(tmp: Path, wheel: Path) -> Path:
    """A venv with the wheel installed and, behind it on ``sys.path``, the
    site-packages of this environment (for click, rich, hypothesis): a
    ``.pth`` line adds the folder without running its ``.pth`` files, so
    the editable install of the checkout stays out."""
    env = tmp / "env"
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check", "--python", python)
    _run(*pip, "install", "--no-deps", "--no-index", wheel, cwd=tmp)
    site = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp)
    deps = sysconfig.get_paths()["purelib"]
    (Path(site.stdout.strip()) / "outer-deps.pth").write_text(deps + "\n", encoding="utf-8")
    return env


def test_a_wheel_installs_no_top_level_generators_package(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert "generators" not in tops
    assert {"toolstream", "toolstream_generators"} <= tops


def test_the_corpus_is_byte_identical_from_a_wheel_in_another_directory(tmp_path: Path) -> None:
    env = _fresh_env(tmp_path, _build_wheel(tmp_path))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run(
        env / "bin" / "python",
        "-c",
        "import toolstream, toolstream_generators as g; print(toolstream.__file__, g.__file__)",
        cwd=elsewhere,
    ).stdout.split()
    # The run below really uses the wheel, not the checkout.
    assert all(path.startswith(str(env)) for path in where), where
    seeds = [str(p) for p in SEEDS]
    wheel_out = tmp_path / "from-wheel"
    _run(
        env / "bin" / "toolstream",
        "generate",
        *seeds,
        "-o",
        wheel_out,
        "--per-operator",
        "--count",
        str(COUNT),
        "--seed",
        str(SEED),
        "-q",
        cwd=elsewhere,
    )
    here_out = tmp_path / "from-checkout"
    generate(seeds, here_out, count=COUNT, seed=SEED, per_operator=True)
    wheel_tree, here_tree = _tree(wheel_out), _tree(here_out)
    assert len(here_tree) > 100  # a corpus that can show a difference
    assert wheel_tree == here_tree
