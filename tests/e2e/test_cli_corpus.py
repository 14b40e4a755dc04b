"""`toolstream verify` and `toolstream shrink` from the command line."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.support.corpus_cases import (
    MissingLibraryAdapter,
    NaiveAdapter,
    hand_corpus,
    planted_openai,
    seed,
    truncated_openai,
    verdict,
    write_case,
)
from toolstream.adapters import registry
from toolstream.caseio import MANIFEST_NAME
from toolstream.cli import cli
from toolstream.corpus import shrink as S


def run(*args: Any) -> Result:
    return CliRunner(env={"NO_COLOR": "1"}).invoke(cli, [str(a) for a in args])


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    hand_corpus(folder)
    return folder


def plant_wrong_label(folder: Path) -> str:
    """A case whose label (the seed's: pass) the validator contradicts."""
    path = write_case(
        folder, planted_openai(), verdict(seed("openai-parallel")), operator="planted"
    )
    return f"planted/{path.stem}"


# -- verify ------------------------------------------------------------------


def test_verify_passes_a_correct_corpus(corpus: Path) -> None:
    result = run("verify", corpus)
    assert result.exit_code == 0, result.output
    assert "label(s) hold" in result.output
    assert "\x1b[" not in result.output
    quiet = run("verify", corpus, "--quiet")
    assert quiet.exit_code == 0 and quiet.output == ""


def test_verify_names_a_wrong_label(corpus: Path) -> None:
    wrong = plant_wrong_label(corpus)
    result = run("verify", corpus)
    assert result.exit_code == 1
    assert wrong in result.output
    assert "malformed_json" in result.output
    data = json.loads(run("verify", corpus, "--format", "json").stdout)
    assert [f["case"] for f in data["failures"]] == [wrong]
    failure = data["failures"][0]
    assert failure["expected"] == "pass, 2 calls"
    assert failure["got"] == "blocked [malformed_json]"
    assert "status: expected pass, got blocked" in failure["problems"]
    assert data["unlisted"] == [wrong]  # written after the manifest


def test_verify_reports_unreadable_and_missing_cases(corpus: Path) -> None:
    (corpus / "hand").mkdir()
    (corpus / "hand" / "broken.json").write_text('{"expect": ')
    listed = json.loads((corpus / MANIFEST_NAME).read_text().splitlines()[0])["case"]
    (corpus / listed).unlink()
    data = json.loads(run("verify", corpus, "--format", "json").stdout)
    results = {f["case"]: f["result"] for f in data["failures"]}
    assert results == {"hand/broken": "unreadable", listed[: -len(".json")]: "unreadable"}
    assert run("verify", corpus).exit_code == 1


def test_junit_lists_every_case(corpus: Path, tmp_path: Path) -> None:
    wrong = plant_wrong_label(corpus)
    out = tmp_path / "report.xml"
    result = run("verify", corpus, "--junit", out, "--quiet")
    assert result.exit_code == 1
    root = ET.parse(out).getroot()
    cases = root.findall(".//testcase")
    total = len(list(corpus.rglob("*.json")))
    assert len(cases) == total
    assert root.get("tests") == str(total) and root.get("failures") == "1"
    failed = [c.get("name") for c in cases if c.find("failure") is not None]
    assert failed == [wrong]
    assert out.read_bytes() == (run("verify", corpus, "--junit", out) and out.read_bytes())


def test_jobs_and_shards_give_the_serial_result(corpus: Path) -> None:
    plant_wrong_label(corpus)
    (corpus / "hand").mkdir()
    (corpus / "hand" / "broken.json").write_text("nope")

    def outcome(*extra: str) -> tuple[int, dict[str, Any]]:
        result = run("verify", corpus, "--format", "json", *extra)
        return result.exit_code, json.loads(result.stdout)

    code, serial = outcome()
    assert code == 1
    code_j, parallel = outcome("-j", "2")
    assert (code_j, parallel) == (code, serial)
    failures: list[Any] = []
    cases = 0
    for k in (1, 2, 3):
        _, part = outcome("--shard", f"{k}/3", "-j", "2" if k == 2 else "1")
        failures.extend(part["failures"])
        cases += part["cases"]
    assert cases == serial["cases"]
    assert sorted(failures, key=lambda f: f["case"]) == serial["failures"]


@pytest.mark.parametrize(
    "args",
    [
        ["verify"],
        ["verify", "/nonexistent/corpus"],
        ["verify", "{empty}"],
        ["verify", "{corpus}", "--shard", "0/2"],
        ["verify", "{corpus}", "--shard", "x"],
        ["verify", "{corpus}", "-j", "0"],
        ["verify", "{corpus}", "--bogus"],
    ],
    ids=[
        "no-path",
        "missing-path",
        "empty-folder",
        "shard-zero",
        "shard-junk",
        "jobs-zero",
        "option",
    ],
)
def test_verify_misuse_exits_64(args: list[str], corpus: Path, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    filled = [a.format(corpus=corpus, empty=tmp_path / "empty") for a in args]
    result = run(*filled)
    assert result.exit_code == 64, result.output


# -- shrink ------------------------------------------------------------------


def written_case(path: Path) -> dict[str, Any]:
    case: dict[str, Any] = json.loads(path.read_text("ascii"))
    assert path.read_text("ascii") == json.dumps(case, ensure_ascii=True, indent=2) + "\n"
    return case


def test_shrink_default_predicate_writes_a_recomputed_label(tmp_path: Path) -> None:
    path = write_case(tmp_path, planted_openai(), verdict(seed("openai-parallel")))
    out = tmp_path / "min.json"
    result = run("shrink", path, "-o", out)
    assert result.exit_code == 0, result.output
    assert "before" in result.output and "after" in result.output
    assert "blocked [malformed_json]" in result.output  # not eaten as rich markup
    case = written_case(out)
    assert case["expect"] == {"status": "blocked", "codes": ["malformed_json"]}
    assert case["meta"]["shrunk"]["original_expect"]["status"] == "pass"
    assert len(out.read_bytes()) < len(path.read_bytes()) / 2
    assert run("verify", out).exit_code == 0  # the new label holds by construction


def test_shrink_expect_code_and_json_output(tmp_path: Path) -> None:
    path = write_case(tmp_path, planted_openai())
    out = tmp_path / "min.json"
    result = run("shrink", path, "-o", out, "--expect-code", "malformed_json", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["minimal"] is True
    assert data["after"]["bytes"] < data["before"]["bytes"]
    assert "malformed_json" in written_case(out)["expect"]["codes"]


def test_shrink_command_predicate(tmp_path: Path) -> None:
    script = tmp_path / "check.py"
    script.write_text(
        "import json, sys\n"
        "text = open(sys.argv[1], encoding='utf-8').read()\n"
        "sys.exit(1 if 'socks' in text else 0)\n"
    )
    path = write_case(tmp_path, seed("mistral-whole-call"))
    out = tmp_path / "min.json"
    command = f"{sys.executable} -I -S {script}"
    result = run("shrink", path, "-o", out, "--command", command, "--allow-verdict-change")
    assert result.exit_code == 0, result.output
    case = written_case(out)
    assert "socks" in json.dumps(case["chunks"])
    assert S.measure(case).argument_chars == len("socks")
    # by default the verdict stays what it was (pass): a whole call, still valid
    result = run("shrink", path, "-o", out, "--command", command)
    assert result.exit_code == 0, result.output
    case = written_case(out)
    assert case["expect"]["status"] == "pass" and case["profile"] == "mistral"
    assert "socks" in json.dumps(case["chunks"])


def test_shrink_adapter_predicate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.ADAPTERS, NaiveAdapter.name, NaiveAdapter)
    monkeypatch.setitem(registry.ADAPTERS, MissingLibraryAdapter.name, MissingLibraryAdapter)
    path = write_case(tmp_path, truncated_openai())
    out = tmp_path / "min.json"
    result = run("shrink", path, "-o", out, "--adapter", NaiveAdapter.name)
    assert result.exit_code == 0, result.output
    assert "still disagrees: unsafe_accept" in " ".join(result.output.split())
    assert written_case(out)["expect"]["status"] == "blocked"

    missing = run("shrink", path, "-o", out, "--adapter", MissingLibraryAdapter.name)
    assert missing.exit_code == 64
    assert "no_such_library_for_toolstream" in missing.output
    assert run("shrink", path, "-o", out, "--adapter", "no-such-adapter").exit_code == 64
    agreeing = write_case(tmp_path, seed("openai-parallel"))
    assert run("shrink", agreeing, "-o", out, "--adapter", NaiveAdapter.name).exit_code == 1


def test_shrink_refuses_when_nothing_fails(tmp_path: Path) -> None:
    path = write_case(tmp_path, seed("openai-parallel"))
    out = tmp_path / "min.json"
    result = run("shrink", path, "-o", out)
    assert result.exit_code == 1
    assert "does not reproduce" in result.output
    assert not out.exists()


@pytest.mark.parametrize(
    "extra",
    [
        ["--expect-code", "malformed_json", "--command", "false"],
        ["--expect-code", "no_such_code"],
        ["--command", ""],
        ["--adapter", "no_such_module_for_toolstream:adapter"],
    ],
    ids=["two-predicates", "unknown-code", "empty-command", "unloadable-adapter"],
)
def test_shrink_misuse_exits_64(tmp_path: Path, extra: list[str]) -> None:
    path = write_case(tmp_path, planted_openai())
    assert run("shrink", path, "-o", tmp_path / "m.json", *extra).exit_code == 64


def test_shrink_without_label_needs_a_predicate(tmp_path: Path) -> None:
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(planted_openai()))
    assert run("shrink", path, "-o", tmp_path / "m.json").exit_code == 64
    assert run("shrink", tmp_path / "none.json", "-o", tmp_path / "m.json").exit_code == 64
