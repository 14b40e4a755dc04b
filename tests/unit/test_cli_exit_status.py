"""The exit statuses every ``toolstream`` command shares: the table in
``toolstream.cli.errors`` is the README's, ``validate`` gives each of its
statuses, every command maps an interrupt to 130 with one line, a real
SIGINT does too, and an interrupted ``verify`` leaves no partial report."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from tests.support.corpus_cases import ROOT, hand_corpus
from toolstream.cli import cli
from toolstream.cli.errors import EXIT_STATUSES

CASES = ROOT / "corpus" / "cases"


def test_the_readme_table_is_the_code_table() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    rows = dict(re.findall(r"^\| `(\d+)` \| (.+?) \|$", readme, re.M))
    assert {int(code): text for code, text in rows.items()} == EXIT_STATUSES


def first_case(status: str) -> Path:
    for path in sorted(CASES.glob("*/*.json")):
        if json.loads(path.read_text("utf-8"))["expect"]["status"] == status:
            return path
    raise AssertionError(f"no {status} case")


@pytest.mark.parametrize(
    ("make_input", "status"),
    [
        (lambda tmp: str(ROOT / "corpus" / "seeds" / "openai-parallel.json"), 0),
        (lambda tmp: str(first_case("blocked")), 1),
        (lambda tmp: str(first_case("not_applicable")), 2),
        (lambda tmp: str(tmp / "missing.json"), 64),
        (lambda tmp: _write(tmp / "half.json", '{"profile": "openai", "chunks": ['), 65),
        (lambda tmp: _write(tmp / "list.json", "[1, 2]"), 65),
    ],
)
def test_validate_exit_statuses(tmp_path: Path, make_input: Any, status: int) -> None:
    for form in (["--format", "json"], ["--report", "json"]):
        result = CliRunner().invoke(cli, ["validate", make_input(tmp_path), *form])
        assert result.exit_code == status, result.output
        if status != 64:
            assert json.loads(result.stdout)["report_version"] == 1


def _write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def every_command() -> list[list[str]]:
    """Each command's words: a group's subcommands one by one."""
    out: list[list[str]] = []
    for name, command in sorted(cli.commands.items()):
        if isinstance(command, click.Group):
            out.extend([name, sub] for sub in sorted(command.commands))
        else:
            out.append([name])
    return out


@pytest.mark.parametrize("words", every_command(), ids=" ".join)
def test_every_command_exits_130_on_an_interrupt(
    monkeypatch: pytest.MonkeyPatch, words: list[str]
) -> None:
    """What SIGINT raises inside any command (``KeyboardInterrupt``, or
    click's ``Abort`` from a prompt) is one line and 130, never
    ``Aborted!`` and 1 (the status of a finding)."""
    command: Any = cli
    for word in words:
        command = command.commands[word]

    for raised in (KeyboardInterrupt, click.Abort):

        def interrupted(*args: Any, _raised: Any = raised, **kwargs: Any) -> None:
            raise _raised()

        monkeypatch.setattr(command, "callback", interrupted)
        monkeypatch.setattr(command, "params", [])
        result = CliRunner().invoke(cli, words)
        assert result.exit_code == 130, (words, result.output)
        assert result.stderr == "toolstream: interrupted\n"


def test_an_interrupted_verify_writes_no_junit_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolstream.corpus import verify as verifying

    hand_corpus(tmp_path / "cases")
    real = verifying.check_case
    calls = []

    def check_then_interrupt(ref: Any) -> Any:
        calls.append(ref)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real(ref)

    monkeypatch.setattr(verifying, "check_case", check_then_interrupt)
    junit = tmp_path / "verify.xml"
    result = CliRunner().invoke(cli, ["verify", str(tmp_path / "cases"), "--junit", str(junit)])
    assert result.exit_code == 130, result.output
    assert len(calls) == 2  # one case was checked before the interrupt
    assert not junit.exists()
    assert list(tmp_path.iterdir()) == [tmp_path / "cases"]  # no temporary file left either


@pytest.mark.skipif(not Path("/proc/self/wchan").exists(), reason="needs Linux /proc")
def test_a_real_sigint_exits_130_with_one_line() -> None:
    """``validate -`` waiting on its standard input gets SIGINT."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-c", "from toolstream.cli import main; main()", "validate", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        syscall = Path(f"/proc/{process.pid}/syscall")
        # until it blocks in read(0, ...), its standard input: imports done.  (The
        # wait channel alone also says "pipe" for other pipes, before main runs.)
        while not syscall.read_text().startswith("0 0x0 ") and time.monotonic() < deadline:
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130, err
    assert err.decode() == "toolstream: interrupted\n"
    assert out == b""
