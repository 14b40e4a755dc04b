"""Docs that are derived from code must match it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_generated_docs_are_fresh() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "render_docs.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_readme_starts_with_the_two_commands() -> None:
    head = (ROOT / "README.md").read_text(encoding="utf-8")[:1500]
    assert "make test" in head
    assert "make demo" in head
