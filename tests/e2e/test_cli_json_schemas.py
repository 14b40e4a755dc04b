"""Every command's ``--format json``: each one has the option, each output is
held to the versioned JSON Schema shipped for it in ``toolstream/schemas``
(over real runs: a generated corpus, a planted failure, a skipped adapter, a
cut transport, a gateway, a running server), and a broken document is
refused, so the schema asserts something."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

import toolstream
from tests.support.corpus_cases import ROOT, planted_openai, write_case
from toolstream import schema as schema_rules
from toolstream.cli import cli

SCHEMAS = Path(toolstream.__file__).parent / "schemas"
TOY = ROOT / "tests" / "support" / "toy_gateway.py"

SCHEMA_OF = {
    "clients install-js": "install-js",
    "diff": "diff",
    "distill": "distill",
    "gateway-check": "gateway-check",
    "generate": "generate",
    "import": "import",
    "label": "label",
    "merge": "merge",
    "repro": "repro",
    "report": "report",
    "seeds": "seeds",
    "serve": "serve",
    "shrink": "shrink",
    "bisect": "bisect",
    "validate": "validate",
    "verify": "verify",
}
"""The schema each command's JSON output follows."""


def every_command() -> list[tuple[str, click.Command]]:
    out: list[tuple[str, click.Command]] = []
    for name, command in sorted(cli.commands.items()):
        if isinstance(command, click.Group):
            out.extend((f"{name} {sub}", c) for sub, c in sorted(command.commands.items()))
        else:
            out.append((name, command))
    return out


def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{name}.json").read_text("utf-8"))
    schema_rules.check_schema(loaded)
    return loaded


def assert_held(name: str, document: Any) -> None:
    violation = schema_rules.first_violation(schema(name), document)
    assert violation is None, (name, violation)


def assert_refused(name: str, document: Any) -> None:
    assert schema_rules.first_violation(schema(name), document) is not None, name


def invoke(*words: str) -> Any:
    return CliRunner().invoke(cli, list(words), catch_exceptions=False)


def test_every_command_has_format_json_and_a_shipped_schema() -> None:
    for words, command in every_command():
        formats = [p for p in command.params if p.name == "output_format"]
        assert formats, f"{words} has no --format"
        assert isinstance(formats[0].type, click.Choice)
        assert list(formats[0].type.choices) == ["text", "json"], words
        assert formats[0].default == "text", words
    assert sorted(SCHEMA_OF) == sorted(words for words, _ in every_command())
    assert sorted(SCHEMA_OF.values()) == sorted(p.stem for p in SCHEMAS.glob("*.json"))
    for name in SCHEMA_OF.values():
        title = schema(name)["title"]
        assert "version" in title or "/1" in title, name


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("json") / "cases"
    for seed in ("openai-parallel", "anthropic-text-and-tools"):
        result = invoke(
            "generate",
            seed,
            "-o",
            str(folder),
            "--count",
            "2",
            "--seed",
            "3",
            "--operators",
            "truncate,reuse_slot,refragment",
            "--format",
            "json",
        )
        assert result.exit_code == 0, result.output
        summary = json.loads(result.stdout)
        assert_held("generate", summary)
        assert summary["written"] >= 1
        assert_refused("generate", {**summary, "generate_version": 2})
        assert_refused("generate", {k: v for k, v in summary.items() if k != "drawn"})
    return folder


def test_verify_json_with_and_without_failures(corpus: Path, tmp_path: Path) -> None:
    held = invoke("verify", str(corpus), "--format", "json")
    assert held.exit_code == 0, held.output
    document = json.loads(held.stdout)
    assert_held("verify", document)
    assert document["failures"] == [] and document["ok"] == document["cases"]
    planted = write_case(tmp_path, planted_openai(), operator="planted")
    failing = json.loads(planted.read_text("utf-8"))
    failing["expect"] = {"status": "pass", "codes": [], "calls": []}
    planted.write_text(json.dumps(failing), "utf-8")
    broken = invoke("verify", str(corpus), str(planted), "--format", "json", "--shard", "1/1")
    assert broken.exit_code == 1, broken.output
    document = json.loads(broken.stdout)
    assert_held("verify", document)
    assert [f["result"] for f in document["failures"]] == ["mismatch"]
    assert_refused("verify", {**document, "extra": 1})


def test_shrink_json(corpus: Path, tmp_path: Path) -> None:
    case = next(corpus.glob("truncate/*.json"))
    result = invoke(
        "shrink",
        str(case),
        "-o",
        str(tmp_path / "min.json"),
        "--expect-code",
        "missing_terminal",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert_held("shrink", document)
    assert document["after"]["bytes"] <= document["before"]["bytes"]
    assert "missing_terminal" in document["expect"]["codes"]
    assert_refused("shrink", {**document, "minimal": "yes"})


def _diff_holds(document: dict[str, Any]) -> None:
    assert_held("diff", document)
    definitions = schema("diff")["$defs"]

    def part(name: str) -> dict[str, Any]:
        return {"$defs": definitions, "$ref": f"#/$defs/{name}"}

    # every adapter asked for is in totals: its counts, or why it was skipped
    assert sorted(document["totals"]) == sorted(a["name"] for a in document["adapters"])
    either = {"$defs": definitions, "anyOf": [part("counts"), part("skipped")]}
    for name, totals in document["totals"].items():
        assert schema_rules.first_violation(either, totals) is None, (name, totals)
    for case in document["cases"]:
        for name, result in case["results"].items():
            assert schema_rules.first_violation(part("result"), result) is None, (name, result)


def test_diff_json_keeps_one_shape_across_adapters_and_transports(corpus: Path) -> None:
    offline = invoke(
        "diff",
        str(corpus),
        "--adapter",
        "tests.support.diff_fixtures:naive_accumulate",
        "--format",
        "json",
        "-q",
        "--fail-on",
        "never",
    )
    assert offline.exit_code == 0, offline.output
    _diff_holds(json.loads(offline.stdout))
    pytest.importorskip("openai", reason="the cut-transport run drives openai-python")
    cut = invoke(
        "diff",
        str(corpus),
        "--client",
        "openai-chat-create",
        "--transport",
        "default,cut-close",
        "--format",
        "json",
        "-q",
        "--fail-on",
        "never",
    )
    assert cut.exit_code == 0, cut.output
    document = json.loads(cut.stdout)
    _diff_holds(document)
    assert {r.get("transport") for c in document["cases"] for r in c["results"].values()} >= {
        "cut-close"
    }
    assert_refused("diff", {**document, "groups": []})


def test_gateway_check_json_through_a_started_gateway(tmp_path: Path) -> None:
    corpus = tmp_path / "cases"
    corpus.mkdir()
    seed = ROOT / "corpus" / "seeds" / "anthropic-text-and-tools.json"
    (corpus / seed.name).write_bytes(seed.read_bytes())
    command = f"{sys.executable} {TOY} --mode correct {{upstream}}"
    common = ("--upstream-profile", "anthropic", "--downstream-profile", "openai")
    result = invoke(
        "gateway-check",
        str(corpus),
        *common,
        "--gateway-command",
        command,
        "--format",
        "json",
        "-q",
        "--json",
        str(tmp_path / "also.json"),
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert_held("gateway-check", document)
    assert document["counts"]["preserved"] == 1
    assert (tmp_path / "also.json").read_text("utf-8") == result.stdout
    assert_refused("gateway-check", {**document, "counts": {"preserved": 1}})


def test_repro_json(corpus: Path, tmp_path: Path) -> None:
    pytest.importorskip("openai", reason="the reproducer is judged by running openai-python")
    case = next(corpus.glob("truncate/*.json"))
    if json.loads(case.read_text("utf-8"))["profile"] != "openai":
        case = next(p for p in corpus.glob("*/*.json") if '"profile": "openai"' in p.read_text())
    script = tmp_path / "repro.py"
    result = invoke(
        "repro",
        str(case),
        "--client",
        "openai-chat-create",
        "-o",
        str(script),
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert_held("repro", document)
    assert document["output"] == str(script) and script.is_file()
    assert_refused("repro", {**document, "classification": "not_run"})


def test_serve_json_lines_at_startup_and_exit(corpus: Path) -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from toolstream.cli import main; main()",
            "serve",
            str(corpus),
            "--format",
            "json",
            "-q",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    try:
        assert process.stdout is not None
        listening = json.loads(process.stdout.readline())
        assert_held("serve", listening)
        assert listening["event"] == "listening" and listening["loopback"] is True
        case = next(
            p
            for p in corpus.glob("truncate/*.json")
            if json.loads(p.read_text())["profile"] == "openai"
        )
        body = {"model": f"case:truncate/{case.stem}", "stream": True, "messages": []}
        connection = http.client.HTTPConnection("127.0.0.1", listening["port"], timeout=10)
        connection.request("POST", "/v1/chat/completions", json.dumps(body))
        answer = connection.getresponse()
        assert answer.status == 200, answer.read()
        answer.read()
        connection.close()
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()  # closes the pipes too, whatever failed above
    assert process.returncode == 0
    (line,) = out.splitlines()
    stopped = json.loads(line)
    assert_held("serve", stopped)
    assert stopped == {"serve_version": 1, "event": "stopped", "requests": 1}
    assert_refused("serve", {**stopped, "event": "listening"})


def fake_npm(folder: Path, exit_status: int) -> Path:
    """An ``npm`` that makes the packages' folders (or fails): the command's
    own behaviour (what it copies, what it prints, its status) without the
    registry; the real npm runs in ``tests/e2e/test_js_from_wheel.py``."""
    manifest = json.loads(
        (ROOT / "toolstream" / "clients" / "js" / "package.json").read_text("utf-8")
    )
    names = list(manifest["dependencies"])
    script = folder / "npm"
    script.write_text(
        f"#!{sys.executable}\n"
        "import os, sys\n"
        "print('npm output')\n"
        f"for name in {names!r}:\n"
        "    os.makedirs(os.path.join('node_modules', name), exist_ok=True)\n"
        "    open(os.path.join('node_modules', name, 'package.json'), 'w').write('{}')\n"
        f"sys.exit({exit_status})\n"
    )
    script.chmod(0o755)
    return folder


@pytest.mark.parametrize("status", [0, 1])
def test_install_js_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, status: int) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", f"{fake_npm(bin_dir, status)}{os.pathsep}{os.environ['PATH']}")
    target = tmp_path / "js"
    result = invoke("clients", "install-js", str(target), "--format", "json")
    assert result.exit_code == status, result.output
    document = json.loads(result.stdout)
    assert_held("install-js", document)
    assert document["installed"] is (status == 0) and document["folder"] == str(target)
    assert "npm output" in result.stderr  # npm's own output never reaches stdout
    assert (target / "run.mjs").is_file() and (target / "drivers" / "common.mjs").is_file()
    assert_refused("install-js", {**document, "npm_exit": "0"})
