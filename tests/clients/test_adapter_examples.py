"""The two examples of ``docs/adapters.md`` ("Your own adapter") run as
written there: the Python callable through ``--adapter``, the JavaScript
program through ``--adapter-command ... --protocol lines`` (skipped, with
the reason, when ``node`` is not on PATH).  Both implement the same
accumulator, so they must classify every case the same way."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.corpus_cases import ROOT
from tests.support.diff_fixtures import LENGTH, PARALLEL, REUSED_INDEX, TRUNCATED, write_case
from toolstream.cli import cli

DOCS = ROOT / "docs" / "adapters.md"


def example(name: str) -> str:
    """The fenced block right after ``<!-- example: NAME -->``."""
    match = re.search(
        rf"<!-- example: {re.escape(name)} -->\n```\w+\n(.*?)\n```", DOCS.read_text("utf-8"), re.S
    )
    assert match, f"docs/adapters.md has no example {name}"
    return match[1] + "\n"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    for name, fixture in (
        ("valid", PARALLEL),
        ("reused", REUSED_INDEX),
        ("cut", TRUNCATED),
        ("length", LENGTH),
    ):
        write_case(folder, name, fixture)
    shutil.copy(ROOT / "corpus" / "seeds" / "anthropic-text-and-tools.json", folder)
    return folder


def diff(folder: Path, *args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner(env={"NO_COLOR": "1"}).invoke(
        cli, ["diff", str(folder), *args, "--format", "json"]
    )
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def by_case(data: dict[str, Any]) -> dict[str, str]:
    (name,) = data["totals"]
    return {Path(c["path"]).stem: c["results"][name]["classification"] for c in data["cases"]}


def python_run(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    project = tmp_path / "project"
    project.mkdir()
    (project / "my_accumulator.py").write_text(example("my_accumulator.py"), encoding="utf-8")
    monkeypatch.chdir(project)
    try:
        status, data = diff(corpus, "--adapter", "my_accumulator:calls")
    finally:
        sys.modules.pop("my_accumulator", None)
    assert status == 1  # it hands over the calls of the reused index
    return by_case(data)


EXPECTED = {
    "valid": "agree",
    "reused": "unsafe_accept",  # it merges two calls sharing an index
    "cut": "agree",  # refused: no finish reason
    "length": "agree",  # refused: finish_reason "length"
    "anthropic-text-and-tools": "not_run",  # chat-completions only
}


def test_the_python_example(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert python_run(corpus, tmp_path, monkeypatch) == EXPECTED


def test_the_javascript_example_uses_the_line_protocol(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not on PATH: the JavaScript example cannot run here")
    script = tmp_path / "accumulate.js"
    script.write_text(example("accumulate.js"), encoding="utf-8")
    profiles = ["--adapter-profile", "openai", "--adapter-profile", "mistral"]
    status, data = diff(
        corpus, "--adapter-command", f"node {script}", "--protocol", "lines", *profiles
    )
    assert status == 1
    assert data["adapters"][0]["name"] == f"lines:node {script}"
    assert by_case(data) == EXPECTED
    # without the profiles declared, the Anthropic case is fed to it and refused
    _, every = diff(corpus, "--adapter-command", f"node {script}", "--protocol", "lines")
    assert by_case(every)["anthropic-text-and-tools"] == "false_reject"
    assert by_case(every) == {**EXPECTED, "anthropic-text-and-tools": "false_reject"}
    assert python_run(corpus, tmp_path, monkeypatch) == by_case(data)
