"""The release check (``PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover
-s tests -p 'test_*.py'``), run as a new user would: a bare interpreter, no
site-packages, in a copy of the repository's own files (no virtual
environment, no installed toolstream, no bytecode).  It must run the whole
standard-library suite at the top of tests/, never zero tests, and pass."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROFILES = 9
CONDITION_CODES = 8
"""malformed_json, missing_terminal, duplicate_terminal, non_finite_number,
unknown_tool, unsupported_schema_keyword, invalid_schema, schema_violation."""

FLOOR = PROFILES * 2 * 3 + (CONDITION_CODES * PROFILES - 1) * 2
"""The least the suite may run: per profile, in-process and as a subprocess,
a valid call, a text-only stream and a collision; every fail-closed code on
every profile (gemini cannot carry malformed text arguments), both ways."""


def bare_python() -> str:
    """The system interpreter when it is 3.10+, else this one (run with -S)."""
    for candidate in ("/usr/bin/python3", shutil.which("python3")):
        if not candidate or not os.path.exists(candidate):
            continue
        done = subprocess.run(
            [candidate, "-S", "-c", "import sys; print(sys.version_info >= (3, 10))"],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.stdout.strip() == "True":
            return candidate
    return sys.executable


def fresh_copy(target: Path) -> None:
    """The repository's files under toolstream/ and tests/ as git lists them
    (committed or new, never ignored), as a clone would have them."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "-co", "--exclude-standard", "toolstream", "tests"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (n.decode() for n in listed)):
        source = REPO / name
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the working tree
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            destination.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, destination)


def expected_count() -> int:
    """How many tests the release suite holds, loaded here the way the
    command loads it (the tier packages give unittest nothing)."""
    return unittest.defaultTestLoader.discover(
        str(REPO / "tests"), pattern="test_*.py", top_level_dir=str(REPO / "tests")
    ).countTestCases()


def test_release_check_passes_with_a_bare_interpreter(tmp_path: Path) -> None:
    fresh_copy(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run(
        [bare_python(), "-S", "-m", "unittest", "discover", "-s", "tests", "-p", "test_*.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    ran = re.search(r"^Ran (\d+) tests? in ", done.stderr, re.MULTILINE)
    assert ran, done.stderr[-2000:]
    count = int(ran.group(1))
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stderr.rstrip().endswith("OK"), done.stderr[-2000:]
    assert count >= FLOOR, f"the release check ran {count} tests, fewer than {FLOOR}"
    assert count == expected_count()
    assert not list(tmp_path.rglob("__pycache__")), "bytecode was written"


def test_tier_packages_give_unittest_no_tests() -> None:
    # The pytest tiers import pytest; under unittest they must contribute
    # nothing (and so never error on a machine without pytest).
    for tier in ("unit", "properties", "clients", "e2e"):
        suite = unittest.defaultTestLoader.discover(
            str(REPO / "tests" / tier), pattern="test_*.py", top_level_dir=str(REPO / "tests")
        )
        assert suite.countTestCases() == 0, tier
