"""``toolstream serve`` on the command line, and the pytest plugin's
``toolstream_server`` fixture."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner, Result

from tests.support.corpus_cases import ROOT, pytest_in, seed, write_case
from toolstream.cli import cli
from toolstream.cli.serve_cmd import binding_note

REFRAGMENT = ROOT / "corpus" / "cases" / "refragment"


def run(*args: object) -> Result:
    return CliRunner(env={"NO_COLOR": "1"}).invoke(cli, [str(a) for a in args])


def test_misuse_exits_64_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    for args, message in (
        ((), "Missing argument"),
        ((tmp_path / "absent",), "no such file or folder"),
        ((tmp_path / "empty",), "no case files"),
        ((REFRAGMENT, "--transport", "every:0"), "every:0 is below 1"),
        ((REFRAGMENT, "--transport", "sideways"), "unknown transport 'sideways'"),
        ((REFRAGMENT, "--port", "70000"), "70000"),
    ):
        result = run("serve", *args)
        assert result.exit_code == 64, (args, result.output)
        assert message in result.output
        assert "Traceback" not in result.output


def test_binding_note_says_who_can_connect() -> None:
    assert "loopback" in binding_note("127.0.0.1", True)
    assert "NOT loopback" in binding_note("0.0.0.0", False)


def test_serves_until_interrupted() -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", "from toolstream.cli import main; main()", "serve", str(REFRAGMENT)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        port = int(url.rsplit(":", 1)[1])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/cases")
        listing = json.loads(connection.getresponse().read())
        connection.close()
        assert len(listing["cases"]) == len(list(REFRAGMENT.glob("*.json")))
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert "loopback: only this machine can connect" in err
    assert "GET /cases 200 complete" in err
    assert "stopped" in err and "Traceback" not in err


PLUGIN_TEST = """
import http.client, json
import pytest


@pytest.mark.toolstream_cases("cases")
def test_served(toolstream_case, toolstream_server):
    connection = http.client.HTTPConnection("127.0.0.1", toolstream_server.port, timeout=10)
    connection.request(
        "POST", "/v1/chat/completions",
        body=json.dumps({"model": "any", "stream": True}),
        headers={"Content-Type": "application/json"},
    )
    response = connection.getresponse()
    body = response.read()
    connection.close()
    assert response.status == 200
    assert body.endswith(b"data: [DONE]\\n\\n")
    assert toolstream_server.requests()[0].body["model"] == "any"


def test_without_a_case(toolstream_server):
    pass
"""


def test_the_pytest_fixture_serves_the_tests_case(tmp_path: Path) -> None:
    write_case(tmp_path / "cases", seed("openai-parallel"), operator="seed")
    write_case(tmp_path / "cases", seed("mistral-whole-call"), operator="seed")
    (tmp_path / "test_user.py").write_text(PLUGIN_TEST)
    ran = pytest_in(tmp_path, "-v", "-rfE", "test_user.py")
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert ran.stdout.count("::test_served[seed/") == 2
    assert ran.stdout.count(" PASSED") == 2
    assert "test_without_a_case ERROR" in ran.stdout
    assert "'toolstream_server' plays the test's 'toolstream_case'" in ran.stdout
