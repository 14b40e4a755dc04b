"""``toolstream label --format json``: one object on stdout, valid against
the schema shipped in the package, whatever the outcome; a file that is not
a JSON fixture exits 65 (unreadable input)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

import toolstream
from tests.support.corpus_cases import ROOT
from toolstream import schema as schema_rules
from toolstream.cli import cli

SCHEMA = json.loads(
    (Path(toolstream.__file__).parent / "schemas" / "label.json").read_text("utf-8")
)


def labelled(tmp_path: Path) -> Path:
    path = tmp_path / "turn.json"
    shutil.copyfile(ROOT / "corpus" / "seeds" / "openai-parallel.json", path)
    return path


def test_label_json_follows_its_schema_when_writing_and_when_unchanged(tmp_path: Path) -> None:
    schema_rules.check_schema(SCHEMA)
    path = labelled(tmp_path)
    first = CliRunner().invoke(cli, ["label", str(path), "-y", "--format", "json"])
    assert first.exit_code == 0, first.output
    out = json.loads(first.stdout)
    assert schema_rules.first_violation(SCHEMA, out) is None
    assert out["written"] == 1 and out["files"][0]["status"] == "pass"
    again = CliRunner().invoke(cli, ["label", str(path), "--format", "json"])
    assert again.exit_code == 0, again.output
    out = json.loads(again.stdout)
    assert schema_rules.first_violation(SCHEMA, out) is None
    assert (out["written"], out["files"][0]["label"]) == (0, "unchanged")


def test_label_json_on_a_conflict_and_a_non_fixture(tmp_path: Path) -> None:
    path = labelled(tmp_path)
    case = json.loads(path.read_text("utf-8"))
    case["expect"] = {"status": "blocked", "codes": ["missing_terminal"]}
    path.write_text(json.dumps(case))
    conflict = CliRunner().invoke(cli, ["label", str(path), "-y", "--format", "json"])
    assert conflict.exit_code == 1
    out = json.loads(conflict.stdout)
    assert schema_rules.first_violation(SCHEMA, out) is None
    assert out["files"][0]["label"] == "changes" and out["written"] == 0
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    unreadable = CliRunner().invoke(cli, ["label", str(bad), "-y"])
    assert unreadable.exit_code == 65, unreadable.output
