"""The exit-status table, command by command: every status a command's
help documents (``Exit status: ...``) is reached by a real run here, and
every status reached is in the shared table (``toolstream.cli.errors``).
130 is reached for every command by ``unit/test_cli_exit_status.py`` (an
interrupt injected into each command); here, interrupted runs that would
write a file leave it whole or absent."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from tests.support.cassettes import ANTHROPIC, sse
from tests.support.corpus_cases import ROOT, planted_openai, seed, write_case
from toolstream.cli import cli
from toolstream.cli.errors import EX_INTERRUPTED, EXIT_STATUSES

SEEDS = ROOT / "corpus" / "seeds"
CASES = ROOT / "corpus" / "cases"
TOY = ROOT / "tests" / "support" / "toy_gateway.py"
CREDENTIAL = "sk-proj-" + "Zx8cVb5nMq2wEr7tYu4iOp1aSd6f"
SERVE_STATUS_ON_STOP = 0
"""serve runs until it is stopped: Ctrl-C or SIGTERM is its normal end."""


class Workspace:
    """Inputs the scenarios share, made once per module (a small corpus)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.corpus = root / "cases"
        for name in ("openai-parallel", "anthropic-text-and-tools"):
            done = run(
                "generate",
                name,
                "-o",
                str(self.corpus),
                "--count",
                "1",
                "--seed",
                "5",
                "--operators",
                "truncate",
                "-q",
            )
            assert done.exit_code == 0, done.output
        self.openai_only = root / "openai-only"
        self.openai_only.mkdir()
        shutil.copy(SEEDS / "openai-parallel.json", self.openai_only)
        self.anthropic = root / "anthropic"
        self.anthropic.mkdir()
        shutil.copy(SEEDS / "anthropic-text-and-tools.json", self.anthropic)

    def truncated(self, profile: str) -> str:
        for path in sorted(self.corpus.glob("truncate/*.json")):
            if json.loads(path.read_text("utf-8"))["profile"] == profile:
                return str(path)
        raise AssertionError(profile)

    def file(self, name: str, data: str | bytes) -> str:
        path = self.root / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return str(path)

    def diff_result(self) -> str:
        """A diff run's JSON over the corpus (naive: unsafe accepts)."""
        path = self.root / "result.json"
        if not path.exists():
            done = run("diff", str(self.corpus), *NAIVE, "--format", "json", "--fail-on", "never")
            assert done.exit_code == 0, done.output
            path.write_text(done.stdout, "utf-8")
        return str(path)

    def shard(self) -> str:
        """The one shard of a diff run over the corpus (naive: unsafe accepts)."""
        path = self.root / "shard.json"
        if not path.exists():
            done = run(
                "diff",
                str(self.corpus),
                *NAIVE,
                "--format",
                "json",
                "--shard",
                "1/1",
                "--fail-on",
                "never",
            )
            assert done.exit_code == 0, done.output
            path.write_text(done.stdout, "utf-8")
        return str(path)

    def empty_folder(self) -> Path:
        folder = self.fresh("empty")
        folder.mkdir()
        return folder

    def fresh(self, name: str) -> Path:
        path = self.root / name
        shutil.rmtree(path, ignore_errors=True)
        return path


def run(*words: str) -> Any:
    return CliRunner().invoke(cli, list(words), catch_exceptions=False)


Scenario = Callable[[Workspace], list[str]]


def _labelled_wrongly(w: Workspace) -> list[str]:
    fixture = seed("openai-parallel")
    fixture["expect"] = {"status": "blocked", "codes": ["missing_terminal"]}
    return ["label", "-y", w.file("wrong-label.json", json.dumps(fixture))]


def _mislabelled_corpus(w: Workspace) -> list[str]:
    folder = w.fresh("mislabelled")
    write_case(folder, planted_openai(), {"status": "pass", "codes": [], "calls": []})
    return ["verify", str(folder)]


def _seeds_conflict(w: Workspace) -> list[str]:
    folder = w.fresh("seed-copy")
    folder.mkdir()
    (folder / "openai-parallel.json").write_text("{}")
    return ["seeds", "--copy", str(folder)]


def _gateway(mode: str) -> str:
    return f"{sys.executable} {TOY} --mode {mode} {{upstream}}"


PAIR = ["--upstream-profile", "anthropic", "--downstream-profile", "openai", "-q"]
NAIVE = ["--adapter", "tests.support.diff_fixtures:naive_accumulate", "-q"]

SCENARIOS: dict[tuple[str, int], Scenario] = {
    ("validate", 0): lambda w: ["validate", str(SEEDS / "anthropic-text-and-tools.json")],
    ("validate", 1): lambda w: ["validate", w.truncated("anthropic")],
    ("validate", 2): lambda w: [
        "validate",
        w.file(
            "text.json",
            json.dumps(
                {
                    "profile": "openai",
                    "tool_schemas": {},
                    "chunks": [
                        {"choices": [{"delta": {"content": "hi"}, "finish_reason": "stop"}]}
                    ],
                }
            ),
        ),
    ],
    ("validate", 64): lambda w: ["validate", str(w.root / "absent.json")],
    ("validate", 65): lambda w: ["validate", w.file("not-json.json", "{nope")],
    ("verify", 0): lambda w: ["verify", str(w.corpus), "-q"],
    ("verify", 1): _mislabelled_corpus,
    ("verify", 64): lambda w: ["verify", str(w.empty_folder())],
    ("generate", 0): lambda w: [
        "generate",
        "openai-parallel",
        "-o",
        str(w.fresh("gen")),
        "--count",
        "1",
        "-q",
    ],
    ("generate", 1): lambda w: [
        "generate",
        w.file(
            "secret.sse", sse([ANTHROPIC[0], {"type": "ping", "note": CREDENTIAL}, *ANTHROPIC[1:]])
        ),
        "-o",
        str(w.fresh("gen-secret")),
    ],
    ("generate", 64): lambda w: [
        "generate",
        "openai-parallel",
        "-o",
        str(w.fresh("gen-bad")),
        "--operators",
        "nope",
    ],
    ("generate", 65): lambda w: [
        "generate",
        w.file("garbage.sse", "hello\n"),
        "-o",
        str(w.fresh("gen-garbage")),
    ],
    # bisect 0 and 1 build releases of openai from the package index (minutes
    # cold): the long tier runs them (make client-versions runs a bisect too)
    ("bisect", 0): lambda w: [
        "bisect",
        str(CASES / "object_fragment" / "1319555f6949b486.json"),
        "--client",
        "openai-chat-create",
        "--good",
        "3.13.0",
        "--bad",
        "3.14.0",
    ],
    ("bisect", 1): lambda w: [
        "bisect",
        str(CASES / "reuse_slot" / "0222fa87113f3663.json"),
        "--client",
        "openai-chat-create",
        "--good",
        "2.8.0",
        "--bad",
        "2.8.1",
    ],
    ("bisect", 64): lambda w: [
        "bisect",
        w.truncated("openai"),
        "--client",
        "openai-chat-create",
        "--good",
        "0.28.0",
        "--bad",
        "3.57.0",
    ],
    ("shrink", 0): lambda w: [
        "shrink",
        w.truncated("openai"),
        "-o",
        str(w.root / "min0.json"),
        "--expect-code",
        "missing_terminal",
        "-q",
    ],
    ("shrink", 1): lambda w: [
        "shrink",
        w.truncated("openai"),
        "-o",
        str(w.root / "min1.json"),
        "--expect-code",
        "identity_collision",
    ],
    ("shrink", 64): lambda w: [
        "shrink",
        w.truncated("openai"),
        "-o",
        str(w.root / "min64.json"),
        "--expect-code",
        "missing_terminal",
        "--command",
        "true",
    ],
    ("diff", 0): lambda w: ["diff", str(w.corpus), *NAIVE, "--fail-on", "never"],
    ("diff", 1): lambda w: ["diff", str(w.corpus), *NAIVE],
    ("diff", 64): lambda w: ["diff", str(w.root / "no-such-corpus"), *NAIVE],
    ("gateway-check", 0): lambda w: [
        "gateway-check",
        str(w.anthropic),
        *PAIR,
        "--gateway-command",
        _gateway("correct"),
    ],
    ("gateway-check", 1): lambda w: [
        "gateway-check",
        str(w.openai_only),
        *PAIR,
        "--gateway-command",
        _gateway("correct"),
    ],
    ("gateway-check", 64): lambda w: ["gateway-check", str(w.anthropic), *PAIR],
    ("repro", 0): lambda w: [
        "repro",
        w.truncated("openai"),
        "--client",
        "openai-chat-create",
        "-o",
        str(w.root / "repro.py"),
    ],
    ("repro", 64): lambda w: [
        "repro",
        w.truncated("openai"),
        "--client",
        "no-such-client",
        "-o",
        str(w.root / "repro.py"),
    ],
    ("serve", 64): lambda w: ["serve", str(w.corpus), "--transport", "no-such-transport"],
    ("import", 0): lambda w: [
        "import",
        w.file("turn.sse", sse(ANTHROPIC)),
        "-o",
        str(w.root / "imported.json"),
    ],
    ("import", 1): lambda w: [
        "import",
        w.file(
            "secret2.sse", sse([ANTHROPIC[0], {"type": "ping", "note": CREDENTIAL}, *ANTHROPIC[1:]])
        ),
        "-o",
        str(w.root / "refused.json"),
    ],
    ("import", 64): lambda w: ["import", str(w.root / "absent.sse"), "-o", str(w.root / "x.json")],
    ("import", 65): lambda w: [
        "import",
        w.file("garbage2.sse", "hello\n"),
        "-o",
        str(w.root / "y.json"),
    ],
    ("label", 0): lambda w: [
        "label",
        "-y",
        w.file("to-label.json", (SEEDS / "openai-parallel.json").read_text()),
    ],
    ("label", 1): _labelled_wrongly,
    ("label", 64): lambda w: ["label", "-y", str(w.root / "absent.json")],
    ("label", 65): lambda w: ["label", "-y", w.file("list.json", "[1, 2]")],
    ("merge", 0): lambda w: [
        "merge",
        w.shard(),
        "-o",
        str(w.root / "m0.json"),
        "--fail-on",
        "never",
    ],
    ("merge", 1): lambda w: ["merge", w.shard(), "-o", str(w.root / "m1.json")],
    ("merge", 64): lambda w: ["merge", str(w.root / "absent.json"), "-o", str(w.root / "m.json")],
    ("merge", 65): lambda w: [
        "merge",
        w.file("not-a-result.json", "{nope"),
        "-o",
        str(w.root / "m.json"),
    ],
    ("report", 0): lambda w: ["report", w.shard(), "-o", str(w.root / "r.html")],
    ("report", 64): lambda w: ["report", str(w.root / "absent.json"), "-o", str(w.root / "r.html")],
    ("report", 65): lambda w: [
        "report",
        w.file("not-json.json", "{nope"),
        "-o",
        str(w.root / "r.html"),
    ],
    ("distill", 0): lambda w: [
        "distill",
        str(w.corpus),
        "--result",
        w.diff_result(),
        "-o",
        str(w.fresh("distilled")),
    ],
    ("distill", 64): lambda w: [
        "distill",
        str(w.root / "no-such-corpus"),
        "--result",
        w.diff_result(),
        "-o",
        str(w.fresh("distilled-64")),
    ],
    ("distill", 65): lambda w: [
        "distill",
        str(w.corpus),
        "--result",
        w.file("not-a-diff.json", "{}"),
        "-o",
        str(w.fresh("distilled-65")),
    ],
    ("seeds", 0): lambda w: ["seeds", "--list"],
    ("seeds", 64): _seeds_conflict,
}
"""One real run per (command, documented status) but 130 (see the module's
docstring); serve's 0 is its stop (``test_serve_exits_0_when_stopped``), and
``clients install-js``'s statuses are reached below."""

INSTALL_JS_STATUSES = (0, 1, 64)


def documented(words: str) -> set[int]:
    """The statuses the command's help lists after ``Exit status:``."""
    command: Any = cli
    for word in words.split():
        command = command.commands[word]
    text = " ".join((command.help or "").split())
    paragraph = text.split("Exit status:", 1)[1].split(". ", 1)[0]
    return {int(n) for n in re.findall(r"(?<![\w.])(\d+)(?![\w.])", paragraph)} & set(EXIT_STATUSES)


def every_command() -> list[str]:
    out: list[str] = []
    for name, command in sorted(cli.commands.items()):
        if isinstance(command, click.Group):
            out.extend(f"{name} {sub}" for sub in sorted(command.commands))
        else:
            out.append(name)
    return out


def test_every_command_documents_its_statuses_and_each_is_reached() -> None:
    reached: dict[str, set[int]] = {}
    for words, status in SCENARIOS:
        reached.setdefault(words, set()).add(status)
    reached.setdefault("serve", set()).add(SERVE_STATUS_ON_STOP)
    reached["clients install-js"] = set(INSTALL_JS_STATUSES)
    for words in every_command():
        statuses = documented(words)
        assert statuses, f"{words}: no 'Exit status:' in its help"
        assert statuses <= set(EXIT_STATUSES), words
        if words != "serve":
            assert EX_INTERRUPTED in statuses, f"{words}: 130 not documented"
        assert statuses - {EX_INTERRUPTED} == reached.get(words), words


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return Workspace(tmp_path_factory.mktemp("exit-table"))


@pytest.mark.parametrize(("words", "status"), sorted(SCENARIOS), ids=lambda v: str(v))
def test_each_documented_status_is_reached(workspace: Workspace, words: str, status: int) -> None:
    if words == "repro" and status == 0:
        pytest.importorskip("openai", reason="the reproducer is judged with openai-python")
    if words == "bisect" and status in (0, 1) and os.environ.get("TOOLSTREAM_LONG") != "1":
        pytest.skip("builds openai releases from the package index: TOOLSTREAM_LONG=1")
    args = SCENARIOS[(words, status)](workspace)
    result = run(*args)
    assert result.exit_code == status, (args, result.output)
    assert "Traceback" not in result.output
    if status in (64, 65):
        assert (result.stderr + result.stdout).strip(), "a misuse or unreadable input says why"


def test_serve_exits_0_when_stopped(workspace: Workspace) -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from toolstream.cli import main; main()",
            "serve",
            "-q",
            str(workspace.corpus),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("http://127.0.0.1:")
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == SERVE_STATUS_ON_STOP, err
    assert "Traceback" not in err


def _npm_folder(tmp_path: Path, status: int) -> Path:
    folder = tmp_path / f"npm-{status}"
    folder.mkdir()
    script = folder / "npm"
    script.write_text(f"#!{sys.executable}\nimport sys\nsys.exit({status})\n")
    script.chmod(0o755)
    return folder


@pytest.mark.parametrize("status", INSTALL_JS_STATUSES)
def test_install_js_statuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, status: int) -> None:
    """npm answering 0 or 1 (the command's own mapping; the real npm runs in
    the install-js tests); 64: no npm on PATH at all."""
    if status == 64:
        monkeypatch.setenv("PATH", str(tmp_path))
    else:
        monkeypatch.setenv("PATH", f"{_npm_folder(tmp_path, status)}{os.pathsep}/usr/bin:/bin")
    result = run("clients", "install-js", str(tmp_path / "js"))
    assert result.exit_code == status, result.output


def test_an_interrupted_shrink_writes_its_smallest_case_whole_and_exits_130(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolstream.corpus import shrink as shrinking

    real = shrinking.CodePresent.__call__
    calls = []

    def interrupt_later(self: Any, fixture: Any, data: bytes) -> bool:
        calls.append(1)
        if len(calls) > 3:
            raise KeyboardInterrupt
        return real(self, fixture, data)

    monkeypatch.setattr(shrinking.CodePresent, "__call__", interrupt_later)
    out = workspace.root / "interrupted-min.json"
    result = run(
        "shrink",
        workspace.truncated("openai"),
        "-o",
        str(out),
        "--expect-code",
        "missing_terminal",
        "--format",
        "json",
    )
    assert result.exit_code == EX_INTERRUPTED, result.output
    assert result.stderr.endswith("toolstream: interrupted\n")
    document = json.loads(result.stdout)
    assert document["interrupted"] is True and document["minimal"] is False
    written = json.loads(out.read_text("utf-8"))  # whole: it parses
    assert "missing_terminal" in written["expect"]["codes"]
    assert not list(workspace.root.glob("*.tmp*"))


def test_an_interrupted_diff_writes_no_baseline(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolstream.diff import session as sessions

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(sessions.DiffSession, "run", interrupted)
    baseline = workspace.root / "baseline.json"
    result = run("diff", str(workspace.corpus), *NAIVE, "--write-baseline", str(baseline))
    assert result.exit_code == EX_INTERRUPTED, result.output
    assert result.stderr == "toolstream: interrupted\n"
    assert not baseline.exists()
