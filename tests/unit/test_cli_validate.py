"""`toolstream validate` and the dependency-free `python -S -m toolstream.reference`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.builders import call, chunk, openai, text_chunk, weather_call
from toolstream.cli import cli

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, name: str, obj: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


@pytest.fixture
def fixtures(tmp_path: Path) -> dict[str, Path]:
    return {
        "pass": write(tmp_path, "pass.json", openai(weather_call())),
        "blocked": write(
            tmp_path, "blocked.json", openai([chunk(call(0, "c", "weather", '{"city":"P"}'))])
        ),
        "na": write(tmp_path, "na.json", openai([text_chunk("hi", finish="stop")])),
    }


@pytest.mark.parametrize(("name", "code"), [("pass", 0), ("blocked", 1), ("na", 2)])
def test_exit_status_follows_the_verdict(fixtures: dict[str, Path], name: str, code: int) -> None:
    result = CliRunner().invoke(cli, ["validate", str(fixtures[name]), "--report", "json"])
    assert result.exit_code == code, result.output
    report = json.loads(result.output)
    assert report["status"] == {"pass": "pass", "blocked": "blocked", "na": "not_applicable"}[name]


def test_text_report_shows_calls_and_findings(fixtures: dict[str, Path]) -> None:
    result = CliRunner(env={"NO_COLOR": "1"}).invoke(cli, ["validate", str(fixtures["blocked"])])
    assert result.exit_code == 1
    assert "missing_terminal" in result.output
    assert "weather" in result.output
    assert "\x1b[" not in result.output


@pytest.mark.parametrize(
    "args",
    [["validate", "--bogus", "x.json"], ["validate", "/nonexistent/x.json"], ["validate"]],
    ids=["unknown-option", "unreadable", "missing-arg"],
)
def test_misuse_exits_64(args: list[str]) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 64, result.output
    assert "Traceback" not in result.output


def test_directory_is_misuse(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", str(tmp_path)])
    assert result.exit_code == 64
    assert "cannot read" in result.output


def test_limit_option_is_applied(fixtures: dict[str, Path]) -> None:
    result = CliRunner().invoke(
        cli,
        ["validate", str(fixtures["pass"]), "--report", "json", "--limit", "max_argument_chars=5"],
    )
    assert result.exit_code == 1
    assert json.loads(result.output)["findings"][0]["code"] == "limit_exceeded"
    bad = CliRunner().invoke(cli, ["validate", str(fixtures["pass"]), "--limit", "nope=1"])
    assert bad.exit_code == 64


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"\xff\xfe{\x00}\x00",
        b"\x00\x01\x02garbage\xff",
        b'{"profile": "openai", "profile": "x"}',
        b"[NaN]",
    ],
    ids=["empty", "utf16-bom", "binary", "duplicate-key", "nan"],
)
def test_bad_files_are_invalid_envelope_not_tracebacks(tmp_path: Path, payload: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(payload)
    result = CliRunner().invoke(cli, ["validate", str(path), "--report", "json"])
    assert result.exit_code == 65, result.output  # unreadable input, as for the other commands
    assert json.loads(result.output)["findings"][0]["code"] == "invalid_envelope"


def _run_reference(fixture: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-S", "-m", "toolstream.reference", str(fixture), *extra],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(fixture.parent),
        check=False,
    )


def test_reference_runs_with_the_standard_library_only(fixtures: dict[str, Path]) -> None:
    probe = subprocess.run(
        [sys.executable, "-S", "-c", "import click"],
        capture_output=True,
        env={"PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert probe.returncode != 0, "click importable without site-packages: the test proves nothing"
    for name, code in [("pass", 0), ("blocked", 1), ("na", 2)]:
        done = _run_reference(fixtures[name], "--report", "json")
        assert done.returncode == code, done.stderr
        assert json.loads(done.stdout)["status"] in {"pass", "blocked", "not_applicable"}
        assert done.stderr == ""


def test_reference_and_cli_reports_are_identical(fixtures: dict[str, Path]) -> None:
    for path in fixtures.values():
        done = _run_reference(path, "--report", "json")
        result = CliRunner().invoke(cli, ["validate", str(path), "--report", "json"])
        assert done.stdout == result.output


def test_reference_misuse_exits_64(tmp_path: Path) -> None:
    done = _run_reference(tmp_path / "missing.json")
    assert done.returncode == 64
    assert "cannot read" in done.stderr
    assert "Traceback" not in done.stderr
    done = _run_reference(tmp_path / "missing.json", "--bogus")
    assert done.returncode == 64


def test_text_report_does_not_read_data_as_markup(tmp_path: Path) -> None:
    fixture = openai(
        [
            chunk(call(0, "[bold]x[/bold]", "weather", '{"city":"[red]P"}')),
            chunk(finish="tool_calls"),
        ]
    )
    path = write(tmp_path, "markup.json", fixture)
    result = CliRunner(env={"NO_COLOR": "1"}).invoke(cli, ["validate", str(path)])
    assert "[bold]x[/bold]" in result.output
    assert "[red]P" in result.output
