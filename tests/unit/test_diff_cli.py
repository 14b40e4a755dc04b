"""``toolstream diff`` from the command line: output, exit statuses, user
adapters (callable and command), skipped adapters, parallel runs.  No
adapter library is needed: user adapters stand in for them."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.support.diff_fixtures import (
    DICT_ARGUMENTS,
    PARALLEL,
    REUSED_INDEX,
    TEXT_ONLY,
    TRUNCATED,
    ScriptedAdapter,
    write_case,
)
from toolstream.adapters import AdapterResult, registry
from toolstream.cli import cli

NAIVE = "tests.support.diff_fixtures:naive_accumulate"
REFUSING = "tests.support.diff_fixtures:refusing_accumulate"
CAUTIOUS = "tests.support.diff_fixtures:cautious_accumulate"


def run(*args: Any, env: dict[str, str] | None = None) -> Result:
    return CliRunner(env={"NO_COLOR": "1", **(env or {})}).invoke(cli, [str(a) for a in args])


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    write_case(folder / "refragment", "valid", PARALLEL, ["refragment"])
    write_case(folder / "reuse_slot", "reused", REUSED_INDEX, ["reuse_slot"])
    write_case(folder / "truncate", "cut", TRUNCATED, ["refragment", "truncate"])
    write_case(folder / "object_fragment", "dict", DICT_ARGUMENTS, ["object_fragment"])
    write_case(folder / "none", "text", TEXT_ONLY)
    return folder


class MissingLibrary(ScriptedAdapter):
    name = "missing-lib-diff-test"
    package = "no_such_library_for_toolstream"

    def __init__(self) -> None:
        super().__init__(AdapterResult(calls=(), rejected=False, invalid=()))

    def available(self) -> bool:
        return False


@pytest.fixture
def missing_adapter(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(registry.ADAPTERS, MissingLibrary.name, MissingLibrary)
    return MissingLibrary.name


# -- output ------------------------------------------------------------------------


def test_table_output(corpus: Path) -> None:
    result = run("diff", corpus, "--adapter", NAIVE)
    assert result.exit_code == 1, result.output  # --fail-on unsafe is the default
    out = result.stdout
    assert "\x1b[" not in out  # NO_COLOR
    assert "toolstream diff: 5 case(s)" in out
    for operator in ("refragment", "reuse_slot", "truncate", "object_fragment", "(none)"):
        assert operator in out
    assert "1 unsafe" in out and "total" in out
    # the worst cases, with their path
    assert "worst cases" in out
    assert "unsafe_accept" in out
    assert "reuse_slot/reused.json" in out
    assert "2 unsafe_accept" in out


def test_json_output_is_deterministic(corpus: Path) -> None:
    one = run("diff", corpus, "--adapter", NAIVE, "--format", "json")
    two = run("diff", corpus, "--adapter", NAIVE, "--format", "json")
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    assert data["cases_total"] == 5
    assert data["totals"][NAIVE]["unsafe_accept"] == 2
    assert data["counts"][NAIVE]["reuse_slot"]["unsafe_accept"] == 1
    assert [a["name"] for a in data["adapters"]] == [NAIVE]
    assert one.stderr == ""  # no progress bar when stderr is not a terminal


@pytest.mark.parametrize(
    ("adapter", "fail_on", "status"),
    [
        (NAIVE, "unsafe", 1),
        (NAIVE, "any", 1),
        (NAIVE, "never", 0),
        (CAUTIOUS, "unsafe", 0),  # false rejects only
        (CAUTIOUS, "any", 1),
        (CAUTIOUS, "never", 0),
        (REFUSING, "unsafe", 1),  # refuses everything for one reason: proves nothing
        (REFUSING, "never", 1),
    ],
)
def test_fail_on(corpus: Path, adapter: str, fail_on: str, status: int) -> None:
    result = run("diff", corpus, "--adapter", adapter, "--fail-on", fail_on, "--format", "json")
    assert result.exit_code == status, result.output


def test_examples_option(corpus: Path) -> None:
    def listed(stdout: str) -> int:
        return sum(
            1 for line in stdout.splitlines() if "reuse_slot/" in line or "truncate/" in line
        )

    none = run("diff", corpus, "--adapter", NAIVE, "--examples", "0")
    assert "worst cases" not in none.stdout and listed(none.stdout) == 0
    assert listed(run("diff", corpus, "--adapter", NAIVE, "--examples", "1").stdout) == 1
    assert listed(run("diff", corpus, "--adapter", NAIVE).stdout) == 2


# -- usage errors: 64 -----------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["diff"],  # no corpus
        ["diff", "{missing}", "--adapter", NAIVE],
        ["diff", "{empty}", "--adapter", NAIVE],
        ["diff", "{corpus}", "--adapter", "no-such-adapter"],
        ["diff", "{corpus}", "--adapter", "tests.support.diff_fixtures:no_such_function"],
        ["diff", "{corpus}", "--adapter", NAIVE, "--adapter", NAIVE],
        ["diff", "{corpus}", "--adapter", NAIVE, "--fail-on", "sometimes"],
        ["diff", "{corpus}", "--adapter", NAIVE, "--format", "xml"],
        ["diff", "{corpus}", "--adapter-command", "  "],
        ["diff", "{corpus}", "--adapter", NAIVE, "--jobs", "0"],
    ],
)
def test_usage_errors_exit_64(corpus: Path, tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "empty").mkdir()
    filled = [
        a.format(corpus=corpus, missing=tmp_path / "missing", empty=tmp_path / "empty")
        for a in args
    ]
    result = run(*filled)
    assert result.exit_code == 64, result.output


def test_missing_library_is_skipped_with_a_message(corpus: Path, missing_adapter: str) -> None:
    result = run("diff", corpus, "--adapter", missing_adapter, "--adapter", NAIVE)
    assert result.exit_code == 1, result.output
    assert "skipped" in result.stderr
    assert "no_such_library_for_toolstream" in result.stderr
    assert "pip install" in result.stderr
    data = json.loads(
        run(
            "diff", corpus, "--adapter", missing_adapter, "--adapter", NAIVE, "--format", "json"
        ).stdout
    )
    skipped = next(a for a in data["adapters"] if a["name"] == missing_adapter)
    assert skipped["skipped"] and "not importable" in skipped["skipped"]
    assert data["totals"][missing_adapter] == {"skipped": skipped["skipped"]}


def test_no_adapter_able_to_run_is_a_usage_error(corpus: Path, missing_adapter: str) -> None:
    result = run("diff", corpus, "--adapter", missing_adapter)
    assert result.exit_code == 64
    assert "skipped" in result.stderr and "no adapter can run" in result.stderr


def test_unreadable_cases_are_named(corpus: Path) -> None:
    (corpus / "broken.json").write_text("{oops")
    result = run("diff", corpus, "--adapter", NAIVE, "--fail-on", "never")
    assert result.exit_code == 0
    assert "broken.json" in result.stderr
    quiet = run("diff", corpus, "--adapter", NAIVE, "--fail-on", "never", "--quiet")
    assert quiet.stderr == ""


# -- user adapters -------------------------------------------------------------------


def test_command_adapter(corpus: Path, tmp_path: Path) -> None:
    script = tmp_path / "accumulate.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, sys
            fixture = json.load(sys.stdin)
            if fixture["profile"] != "openai":
                sys.exit(3)                      # rejected
            slots = {}
            for body in fixture["chunks"]:
                for choice in body.get("choices") or []:
                    for entry in (choice.get("delta") or {}).get("tool_calls") or []:
                        slot = slots.setdefault(entry["index"], {"id": None, "name": None,
                                                                 "arguments": ""})
                        fn = entry.get("function") or {}
                        slot["id"] = slot["id"] or entry.get("id")
                        slot["name"] = slot["name"] or fn.get("name")
                        if not isinstance(fn.get("arguments", ""), str):
                            print("not a string", file=sys.stderr)
                            sys.exit(1)                  # rejected
                        slot["arguments"] += fn.get("arguments") or ""
            finishes = [c.get("finish_reason") for b in fixture["chunks"]
                        for c in b.get("choices") or []]
            if "tool_calls" not in finishes:
                sys.exit(2)                      # refuses truncated turns
            json.dump(list(slots.values()), sys.stdout)
            """
        )
    )
    command = f"{sys.executable} {script}"
    result = run("diff", corpus, "--adapter-command", command, "--format", "json")
    data = json.loads(result.stdout)
    name = f"cmd:{command}"
    outcomes = {Path(c["path"]).stem: c["results"][name] for c in data["cases"]}
    assert outcomes["valid"]["classification"] == "agree"
    assert outcomes["cut"]["classification"] == "agree" and outcomes["cut"]["rejected"]
    assert outcomes["dict"]["classification"] == "agree"
    assert outcomes["reused"]["classification"] == "unsafe_accept"
    assert result.exit_code == 1


def test_command_adapter_bad_output_is_a_crash(corpus: Path, tmp_path: Path) -> None:
    script = tmp_path / "garbage.py"
    script.write_text("print('not json')\n")
    result = run(
        "diff", corpus, "--adapter-command", f"{sys.executable} {script}", "--format", "json"
    )
    data = json.loads(result.stdout)
    totals = data["totals"][f"cmd:{sys.executable} {script}"]
    assert totals["adapter_crash"] == 5
    # not unsafe, but a crash on every case proves nothing: red, with the reason
    assert result.exit_code == 1
    assert "this run proves nothing" in result.stderr
    assert "crashed on every one of its 5 case(s) for the same reason" in result.stderr
    assert "answer is not JSON" in result.stderr


def test_missing_command_is_skipped(corpus: Path) -> None:
    result = run(
        "diff",
        corpus,
        "--adapter-command",
        "/nonexistent/toolstream-adapter",
        "--adapter",
        NAIVE,
    )
    assert "skipped" in result.stderr and "/nonexistent/toolstream-adapter" in result.stderr
    assert result.exit_code == 1


def test_callable_from_the_current_directory(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "my_diff_accumulator.py").write_text(
        "def calls(fixture):\n    return []\n", encoding="utf-8"
    )
    monkeypatch.chdir(project)
    before = list(sys.path)
    result = run("diff", corpus, "--adapter", "my_diff_accumulator:calls", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["totals"]["my_diff_accumulator:calls"]["unsafe_accept"] == 0
    assert sys.path == before
    monkeypatch.delitem(sys.modules, "my_diff_accumulator")


# -- parallel ----------------------------------------------------------------------


def test_jobs_give_the_same_result(tmp_path: Path) -> None:
    folder = tmp_path / "many"
    fixtures = [PARALLEL, REUSED_INDEX, TRUNCATED, DICT_ARGUMENTS, TEXT_ONLY]
    for position in range(60):
        write_case(folder / f"op{position % 7}", f"case{position:02d}", fixtures[position % 5])
    serial = run("diff", folder, "--adapter", NAIVE, "--format", "json")
    parallel = run("diff", folder, "--adapter", NAIVE, "--format", "json", "-j", "2")
    assert serial.exit_code == parallel.exit_code == 1
    assert serial.stdout == parallel.stdout
