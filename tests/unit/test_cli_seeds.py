"""``toolstream seeds``: a listing a script can read (one name per line when
stdout is not a terminal, never a box table), and ``--format json`` valid
against the schema shipped in the package."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import toolstream
from toolstream import schema as schema_rules
from toolstream.cli import cli
from toolstream.corpus.seeds import bundled_seeds

SCHEMAS = Path(toolstream.__file__).parent / "schemas"


def test_the_listing_is_one_name_per_line_off_a_terminal() -> None:
    result = CliRunner().invoke(cli, ["seeds", "--list"])
    assert result.exit_code == 0, result.output
    names = [seed.name for seed in bundled_seeds()]
    assert result.stdout == "".join(f"{name}\n" for name in names)
    assert "bedrock-invoke-text-and-two-tools" in result.stdout.splitlines()  # never wrapped
    assert "━" not in result.stdout and "│" not in result.stdout


def test_the_json_listing_follows_its_shipped_schema() -> None:
    schema = json.loads((SCHEMAS / "seeds.json").read_text("utf-8"))
    schema_rules.check_schema(schema)
    result = CliRunner().invoke(cli, ["seeds", "--list", "--format", "json"])
    assert result.exit_code == 0, result.output
    listing = json.loads(result.stdout)
    assert schema_rules.first_violation(schema, listing) is None
    assert [s["name"] for s in listing["seeds"]] == [seed.name for seed in bundled_seeds()]
    broken = dict(listing, seeds_version=2)
    assert schema_rules.first_violation(schema, broken) is not None
    again = CliRunner().invoke(cli, ["seeds", "--format", "json"])
    assert again.stdout == result.stdout  # deterministic
