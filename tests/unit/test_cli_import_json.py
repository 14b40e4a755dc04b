"""``toolstream import --format json``: one object on stdout, valid against
the schema shipped in the package, naming each fixture written with its
verdict."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import toolstream
from tests.support.corpus_cases import ROOT
from toolstream import schema as schema_rules
from toolstream.cli import cli

SCHEMA = json.loads(
    (Path(toolstream.__file__).parent / "schemas" / "import.json").read_text("utf-8")
)


def test_import_json_follows_its_schema(tmp_path: Path) -> None:
    schema_rules.check_schema(SCHEMA)
    seed = json.loads((ROOT / "corpus" / "seeds" / "openai-parallel.json").read_text("utf-8"))
    capture = tmp_path / "stream.sse"
    capture.write_text(
        "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in seed["chunks"]) + "data: [DONE]\n\n"
    )
    schemas = tmp_path / "tools.json"
    schemas.write_text(json.dumps(seed["tool_schemas"]))
    out = tmp_path / "turn.json"
    args = ["import", str(capture), "-o", str(out), "--schemas", str(schemas), "--format", "json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    listing = json.loads(result.stdout)
    assert schema_rules.first_violation(SCHEMA, listing) is None
    assert [f["fixture"] for f in listing["fixtures"]] == [str(out)]
    assert listing["fixtures"][0]["status"] == toolstream.validate(seed).status.value
    assert listing["fixtures"][0]["events"] == len(seed["chunks"])
    assert json.loads(out.read_text("utf-8"))["chunks"] == seed["chunks"]
