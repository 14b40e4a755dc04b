"""``toolstream repro``: generated scripts run without toolstream, against
the pinned libraries, and exit 1 exactly where ``diff`` says the library is
unsafe or wrong.

Python scripts run under this interpreter with ``-S -s`` (no site-packages)
and a ``PYTHONPATH`` of one folder that links only the library's own
distribution and its dependencies (their files as installed): a fresh
virtual environment would need the index or a wheel cache, and these are the
same installed files.  The test checks that ``toolstream`` is not importable
there.  JavaScript scripts run under a bare ``node`` from a folder whose
``node_modules`` holds a copy of only the ``openai`` package (it has no
dependencies), so node cannot resolve anything else.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from packaging.requirements import Requirement

from toolstream.cli import cli

ROOT = Path(__file__).resolve().parents[2]
JS_MODULES = ROOT / "toolstream" / "clients" / "js" / "node_modules"
CORPUS = ROOT / "corpus"

# (client, transport, case, what diff says, the script's exit status)
REPRODUCED = [
    ("openai-chat-create", "cut-close", "cases/truncate/0885a13e7bd29ed6.json", "unsafe_accept", 1),
    ("openai-chat-create", "plain", "cases/delay_identity/7411ffa0bf426534.json", "wrong_calls", 1),
    ("openai-chat-create", "split", "seeds/openai-parallel.json", "agree", 0),
    ("openai-chat-create", "plain", "cases/truncate/04f0022648b2ed1b.json", "adapter_crash", 0),
    ("anthropic-messages-stream", "plain", "cases/truncate/1798b6602ebc433f.json", "unsafe_accept", 1),  # noqa: E501
    ("anthropic-messages-stream", "plain", "seeds/anthropic-text-and-tools.json", "agree", 0),
    ("mistralai-chat-stream", "plain", "cases/delay_identity/67bc1e6ea3bf9407.json", "wrong_calls", 1),  # noqa: E501
    ("mistralai-chat-stream", "plain", "cases/truncate/0652199abf519af7.json", "unsafe_accept", 1),
    ("mistralai-chat-stream", "plain", "seeds/mistral-whole-call.json", "agree", 0),
    ("mistralai-chat-stream", "plain", "cases/delay_identity/081f8e28fef6d663.json", "false_reject", 0),  # noqa: E501
    ("openai-node-chat-create", "plain", "cases/reuse_slot/0222fa87113f3663.json", "unsafe_accept", 1),  # noqa: E501
    ("openai-node-chat-create", "plain", "seeds/mistral-whole-call.json", "wrong_calls", 1),
    ("openai-node-chat-create", "plain", "seeds/openai-parallel.json", "agree", 0),
]  # fmt: skip

LIBRARY = {
    "openai-chat-create": "openai",
    "anthropic-messages-stream": "anthropic",
    "mistralai-chat-stream": "mistralai",
}


def _closure(name: str) -> list[importlib.metadata.Distribution]:
    """The distribution and everything it requires (no extras)."""
    seen: dict[str, importlib.metadata.Distribution] = {}
    todo = [name]
    while todo:
        wanted = todo.pop()
        key = wanted.lower().replace("_", "-")
        if key in seen:
            continue
        dist = importlib.metadata.distribution(wanted)
        seen[key] = dist
        for text in dist.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return list(seen.values())


def library_only_path(library: str, into: Path) -> Path:
    """A folder linking the top-level files of ``library``'s closure only."""
    into.mkdir()
    for dist in _closure(library):
        base = Path(str(dist.locate_file("")))
        for file in dist.files or []:
            top = file.parts[0]
            if top in ("..", "__pycache__") or top.endswith(".pth"):
                continue
            source = base / top
            if not (into / top).exists() and source.exists():
                (into / top).symlink_to(source)
    return into


def _generate(client: str, transport: str, case: Path, out: Path) -> str:
    result = CliRunner().invoke(
        cli, ["repro", str(case), "--client", f"{client}@{transport}", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(
    ("client", "transport", "case_name", "classification", "status"),
    REPRODUCED,
    ids=[f"{c}@{t}-{k}-{Path(p).stem}" for c, t, p, k, _ in REPRODUCED],
)
def test_reproducer_exits_as_diff_classifies(
    tmp_path: Path, client: str, transport: str, case_name: str, classification: str, status: int
) -> None:
    case = CORPUS / case_name
    if client in LIBRARY:
        pytest.importorskip(LIBRARY[client])
        script = tmp_path / "repro.py"
    else:
        if shutil.which("node") is None or not (JS_MODULES / "openai").is_dir():
            pytest.skip("node or the JavaScript clients are missing: run make adapters-js")
        script = tmp_path / "repro.mjs"
    said = _generate(client, transport, case, script)
    assert f"diff says {classification}" in said
    text = script.read_text()
    assert f"case: {case.relative_to(ROOT).as_posix()}" in text or str(case) in text
    assert f"diff classification: {classification}" in text

    if client in LIBRARY:
        path = library_only_path(LIBRARY[client], tmp_path / "site")
        env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(path)}
        command = [sys.executable, "-S", "-s"]
        isolated = subprocess.run(
            [*command, "-c", "import toolstream"], env=env, cwd=tmp_path, capture_output=True
        )
        assert isolated.returncode != 0, "toolstream is importable where the script runs"
        done = subprocess.run(
            [*command, str(script)], env=env, cwd=tmp_path, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
    else:
        shutil.copytree(JS_MODULES / "openai", tmp_path / "node_modules" / "openai", symlinks=True)
        done = subprocess.run(
            ["node", str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
            env={"PATH": os.environ.get("PATH", "")},
        )  # fmt: skip
    assert done.returncode == status, done.stdout + done.stderr
    assert "verdict: " in done.stdout
    if status == 1:
        assert "UNSAFE" in done.stdout or "WRONG CALLS" in done.stdout


def test_reproducer_is_deterministic_and_names_the_library(tmp_path: Path) -> None:
    case = CORPUS / "cases/truncate/0885a13e7bd29ed6.json"
    pytest.importorskip("openai")
    _generate("openai-chat-create", "cut-close", case, tmp_path / "a.py")
    _generate("openai-chat-create", "cut-close", case, tmp_path / "b.py")
    first = (tmp_path / "a.py").read_bytes()
    assert first == (tmp_path / "b.py").read_bytes()
    text = first.decode()
    assert "openai 3.57.0" in text.splitlines()[1]
    assert "missing_terminal" in text
    # The cut transport's bytes: the body stops half-way through an event.
    payload_line = next(line for line in text.splitlines() if line.startswith("PAYLOAD = "))
    payload = json.loads(ast.literal_eval(payload_line.split("json.loads(", 1)[1][:-1]))
    assert payload["wire"]["complete"] is False and payload["transport"] == "cut-close"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--client", "no-such-client"], "no reproducer for client 'no-such-client'"),
        (["--client", "openai-chat-create", "-o", "x.mjs"], "is a .py file"),
    ],
)
def test_repro_misuse_is_one_line(tmp_path: Path, arguments: list[str], message: str) -> None:
    argv = ["repro", str(CORPUS / "seeds/openai-parallel.json"), *arguments]
    if "-o" not in argv:
        argv += ["-o", str(tmp_path / "x.py")]
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 64
    assert message in result.output and "Traceback" not in result.output


def test_reproducer_of_a_shrunk_case_still_exits_1(tmp_path: Path) -> None:
    pytest.importorskip("openai")
    case = CORPUS / "cases/truncate/0885a13e7bd29ed6.json"
    shrunk = tmp_path / "min.json"
    done = CliRunner().invoke(
        cli,
        ["shrink", str(case), "--client", "openai-chat-create@cut-close", "-o", str(shrunk)],
    )
    assert done.exit_code == 0, done.output
    script = tmp_path / "repro.py"
    said = _generate("openai-chat-create", "cut-close", shrunk, script)
    assert "diff says unsafe_accept" in said
    path = library_only_path("openai", tmp_path / "site")
    ran = subprocess.run(
        [sys.executable, "-S", "-s", str(script)], cwd=tmp_path, capture_output=True, text=True,
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(path)}, timeout=120,
    )  # fmt: skip
    assert ran.returncode == 1, ran.stdout + ran.stderr
