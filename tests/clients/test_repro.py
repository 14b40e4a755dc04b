"""``toolstream repro``: generated scripts run without toolstream, against
the pinned libraries, and exit 1 exactly where ``diff`` says the library is
unsafe or wrong.

Python scripts run under this interpreter with ``-S -s`` (no site-packages)
and a ``PYTHONPATH`` of one folder that links only the library's own
distribution and its dependencies (their files as installed): a fresh
virtual environment would need the index or a wheel cache, and these are the
same installed files.  The test checks that ``toolstream`` is not importable
there.  JavaScript scripts run under a bare ``node`` from a folder whose
``node_modules`` holds a copy of only the library's npm package and its
dependencies, so node cannot resolve anything else.

Each triple generates a script (one ``diff`` run) and runs it, about 4 s; the
normal run keeps one unsafe Python case under a cut transport, one agreeing
Python case and one unsafe JavaScript case; the rest of the sweep (every
client with a reproducer, every classification) is ``slow``.
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
from typing import Any

import pytest
from click.testing import CliRunner
from packaging.requirements import Requirement

from toolstream.cli import cli

ROOT = Path(__file__).resolve().parents[2]
JS_MODULES = ROOT / "toolstream" / "clients" / "js" / "node_modules"
CORPUS = ROOT / "corpus"

# (client, transport, case, what diff says, the script's exit status)
SAMPLE = [
    ("openai-chat-create", "cut-close", "cases/truncate/0885a13e7bd29ed6.json", "unsafe_accept", 1),
    ("anthropic-messages-stream", "plain", "seeds/anthropic-text-and-tools.json", "agree", 0),
    ("openai-node-chat-create", "plain", "cases/reuse_slot/03cbf98674c2353c.json", "unsafe_accept", 1),  # noqa: E501
]  # fmt: skip
SWEEP = [
    ("openai-chat-create", "plain", "cases/delay_identity/f6262d95f07ef569.json", "wrong_calls", 1),
    ("openai-chat-create", "split", "seeds/openai-parallel.json", "agree", 0),
    ("openai-chat-create", "plain", "cases/truncate/04f0022648b2ed1b.json", "adapter_crash", 0),
    ("openai-chat-stream", "plain", "cases/second_choice/168960464cce05fb.json", "unsafe_accept", 1),  # noqa: E501
    ("openai-chat-stream", "plain", "cases/delay_identity/f6262d95f07ef569.json", "wrong_calls", 1),
    ("openai-chat-stream", "plain", "seeds/openai-parallel.json", "agree", 0),
    ("openai-responses-stream", "plain", "cases/mismatch_done/1da6bf5ada350d1a.json", "unsafe_accept", 1),  # noqa: E501
    ("openai-responses-stream", "plain", "cases/delay_identity/18a233f2acf6e287.json", "false_reject", 0),  # noqa: E501
    ("openai-responses-stream", "chop", "seeds/openai-responses-two-calls.json", "agree", 0),
    ("anthropic-messages-stream", "plain", "cases/truncate/1798b6602ebc433f.json", "unsafe_accept", 1),  # noqa: E501
    ("mistralai-chat-stream", "plain", "cases/delay_identity/67bc1e6ea3bf9407.json", "wrong_calls", 1),  # noqa: E501
    ("mistralai-chat-stream", "plain", "cases/truncate/3d631ba92541979d.json", "unsafe_accept", 1),
    ("mistralai-chat-stream", "plain", "seeds/mistral-whole-call.json", "agree", 0),
    ("mistralai-chat-stream", "plain", "cases/delay_identity/081f8e28fef6d663.json", "false_reject", 0),  # noqa: E501
    ("boto3-converse-stream", "plain", "cases/delta_after_terminal/15721d48b9b99a91.json", "unsafe_accept", 1),  # noqa: E501
    ("boto3-converse-stream", "plain", "cases/insert_noise/d39deced789a8602.json", "wrong_calls", 1),  # noqa: E501
    ("boto3-converse-stream", "split", "seeds/bedrock-text-and-two-tools.json", "agree", 0),
    ("cohere-chat-stream", "plain", "cases/delta_after_terminal/07eaa7dca49bd2f3.json", "unsafe_accept", 1),  # noqa: E501
    ("cohere-chat-stream", "plain", "cases/insert_noise/dfc727ac6bc1534b.json", "wrong_calls", 1),
    ("cohere-chat-stream", "plain", "cases/insert_noise/1e27b8f5fef7c35f.json", "false_reject", 0),
    ("cohere-chat-stream", "plain", "seeds/cohere-plan-and-two-calls.json", "agree", 0),
    ("openai-node-chat-create", "plain", "seeds/mistral-whole-call.json", "wrong_calls", 1),
    ("openai-node-chat-create", "plain", "seeds/openai-parallel.json", "agree", 0),
    ("openai-node-chat-stream", "plain", "cases/delta_after_terminal/00b3cc9f51254548.json", "unsafe_accept", 1),  # noqa: E501
    ("openai-node-chat-stream", "plain", "cases/forced_choice_stop/2ef25b111a56e64e.json", "wrong_calls", 1),  # noqa: E501
    ("openai-node-chat-stream", "cut-close", "seeds/openai-parallel.json", "agree", 0),
    ("anthropic-node-messages-stream", "plain", "cases/prefill_input/013cf8f35e79c3c9.json", "unsafe_accept", 1),  # noqa: E501
    ("anthropic-node-messages-stream", "plain", "cases/insert_noise/a75b1ca7a7040276.json", "wrong_calls", 1),  # noqa: E501
    ("anthropic-node-messages-stream", "plain", "seeds/anthropic-text-and-tools.json", "agree", 0),
]  # fmt: skip


def _params(triples: list[tuple[str, str, str, str, int]], *marks: Any) -> list[Any]:
    return [
        pytest.param(*t, id=f"{t[0]}@{t[1]}-{t[3]}-{Path(t[2]).stem}", marks=marks) for t in triples
    ]


REPRODUCED = [*_params(SAMPLE), *_params(SWEEP, pytest.mark.slow)]

LIBRARY = {
    "openai-chat-create": "openai",
    "openai-chat-stream": "openai",
    "openai-responses-stream": "openai",
    "anthropic-messages-stream": "anthropic",
    "mistralai-chat-stream": "mistralai",
    "boto3-converse-stream": "boto3",
    "cohere-chat-stream": "cohere",
}
"""Python client -> the distribution its script needs."""

JS_PACKAGE = {
    "openai-node-chat-create": "openai",
    "openai-node-chat-stream": "openai",
    "anthropic-node-messages-stream": "@anthropic-ai/sdk",
}
"""JavaScript client -> the npm package its script needs."""


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


def js_library_only(package: str, into: Path) -> None:
    """A ``node_modules`` holding copies of ``package`` and the packages it
    depends on (its ``dependencies``, and the peers it does not mark
    optional), nothing else."""
    todo = [package]
    while todo:
        name = todo.pop()
        if (into / name).exists():
            continue
        source = JS_MODULES / name
        shutil.copytree(source, into / name, symlinks=True)
        manifest = json.loads((source / "package.json").read_text())
        optional = manifest.get("peerDependenciesMeta", {})
        peers = manifest.get("peerDependencies", {})
        wanted = [*manifest.get("dependencies", {})]
        wanted += [p for p in peers if not optional.get(p, {}).get("optional")]
        todo.extend(d for d in wanted if (JS_MODULES / d).is_dir())


def _generate(client: str, transport: str, case: Path, out: Path) -> str:
    result = CliRunner().invoke(
        cli, ["repro", str(case), "--client", f"{client}@{transport}", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(
    ("client", "transport", "case_name", "classification", "status"), REPRODUCED
)
def test_reproducer_exits_as_diff_classifies(
    tmp_path: Path, client: str, transport: str, case_name: str, classification: str, status: int
) -> None:
    case = CORPUS / case_name
    if client in LIBRARY:
        pytest.importorskip(LIBRARY[client])
        script = tmp_path / "repro.py"
    else:
        if shutil.which("node") is None or not (JS_MODULES / JS_PACKAGE[client]).is_dir():
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
        js_library_only(JS_PACKAGE[client], tmp_path / "node_modules")
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


# -- diff --repro-dir ------------------------------------------------------------------

REPRO_DIR_CASES = [
    "cases/truncate/0885a13e7bd29ed6.json",  # unsafe_accept
    "cases/delay_identity/f6262d95f07ef569.json",  # wrong_calls
    "cases/truncate/04f0022648b2ed1b.json",  # adapter_crash
    "seeds/openai-parallel.json",  # agree: no reproducer
]


def _diff_repro_dir(out: Path, *extra: str) -> dict[str, Any]:
    done = CliRunner().invoke(
        cli,
        ["diff", *(str(CORPUS / c) for c in REPRO_DIR_CASES), "--client", "openai-chat-create",
         "--format", "json", "--fail-on", "never", "-q", "--repro-dir", str(out), *extra],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "reproducer(s) written to" in done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_repro_dir_writes_one_reproducer_per_disagreement(tmp_path: Path) -> None:
    pytest.importorskip("openai")
    data = _diff_repro_dir(tmp_path / "a")
    expected = {
        f"openai-chat-create/{c['operator']}/{Path(c['path']).stem}.py": r["classification"]
        for c in data["cases"]
        for r in c["results"].values()
        if r["classification"] in ("unsafe_accept", "wrong_calls", "false_reject", "adapter_crash")
    }
    assert sorted(expected.values()) == ["adapter_crash", "unsafe_accept", "wrong_calls"]
    written = _tree(tmp_path / "a")
    assert set(written) == set(expected)  # nothing for the agreeing case, no temporary file
    for name, classification in expected.items():
        assert f"# diff classification: {classification}" in written[name].decode()
    # the same run writes the same bytes under the same names
    _diff_repro_dir(tmp_path / "b")
    assert _tree(tmp_path / "b") == written
    # and each is the script toolstream repro writes for that case on its own
    case = CORPUS / "cases/truncate/0885a13e7bd29ed6.json"
    _generate("openai-chat-create", "plain", case, tmp_path / "alone.py")
    assert (tmp_path / "alone.py").read_bytes() == written[
        "openai-chat-create/truncate/0885a13e7bd29ed6.py"
    ]


def test_repro_dir_needs_a_client(tmp_path: Path) -> None:
    done = CliRunner().invoke(
        cli, ["diff", str(CORPUS / "seeds/openai-parallel.json"), "--repro-dir", str(tmp_path)]
    )
    assert done.exit_code == 64
    assert "--repro-dir needs --client" in done.output and "Traceback" not in done.output
