"""docs/hardening.md stays in line with the tests: every table row names at
least one test (``file::test``), and every test it names exists (collected
from the file by its syntax tree, so a renamed or deleted test fails here)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "hardening.md"

REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def collect_test_names(path: Path) -> set[str]:
    """Every test function of a file: module level and in classes."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            names.add(node.name)
    return names


def table_rows(text: str) -> list[str]:
    """The data rows of every table (not the header, not the rule under it)."""
    lines = text.splitlines()
    rows = []
    for number, line in enumerate(lines):
        if not line.startswith("|") or line.startswith("|---"):
            continue
        is_header = number + 1 < len(lines) and lines[number + 1].startswith("|---")
        if not is_header:
            rows.append(line)
    return rows


def test_every_named_test_exists() -> None:
    references = REFERENCE.findall(DOC.read_text(encoding="utf-8"))
    assert references, "docs/hardening.md names no test"
    missing = []
    for file, name in sorted(set(references)):
        path = REPO / file
        if not path.is_file():
            missing.append(f"{file} (no such file)")
        elif name not in collect_test_names(path):
            missing.append(f"{file}::{name}")
    assert missing == [], f"docs/hardening.md names tests that do not exist: {missing}"


def test_every_table_row_names_a_test() -> None:
    rows = table_rows(DOC.read_text(encoding="utf-8"))
    assert len(rows) > 40
    unproved = [row[:80] for row in rows if not REFERENCE.search(row)]
    assert unproved == [], f"rows of docs/hardening.md that name no test: {unproved}"


def test_the_checker_sees_a_missing_test(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "def test_here():\n    pass\n\nclass TestGroup:\n    def test_method(self):\n        pass\n"
        "\ndef helper():\n    pass\n",
        encoding="utf-8",
    )
    assert collect_test_names(sample) == {"test_here", "test_method"}
    assert table_rows("| a | b |\n|---|---|\n| x | `tests/x.py::test_y` |\n| z | w |\n") == [
        "| x | `tests/x.py::test_y` |",
        "| z | w |",
    ]
