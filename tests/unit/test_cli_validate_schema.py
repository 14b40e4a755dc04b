"""``toolstream validate --format json`` follows the schema shipped in the
package, on every seed and a sample of the shipped corpus (every verdict,
findings inside calls, a non-fixture)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import toolstream
from tests.support.corpus_cases import ROOT
from toolstream import schema as schema_rules
from toolstream.cli import cli
from toolstream.findings import Code

SCHEMA = json.loads(
    (Path(toolstream.__file__).parent / "schemas" / "validate.json").read_text("utf-8")
)


def test_validate_json_follows_its_schema(tmp_path: Path) -> None:
    schema_rules.check_schema(SCHEMA)
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    cases = sorted((ROOT / "corpus" / "cases").glob("*/*.json"))
    not_applicable = next(p for p in cases if '"status": "not_applicable"' in p.read_text("utf-8"))
    paths = [
        *sorted((ROOT / "corpus" / "seeds").glob("*.json")),
        *cases[::40],
        not_applicable,
        bad,
    ]
    statuses = set()
    codes = {code.value for code in Code}
    for path in paths:
        result = CliRunner().invoke(cli, ["validate", str(path), "--format", "json"])
        out = json.loads(result.stdout)
        violation = schema_rules.first_violation(SCHEMA, out)
        assert violation is None, f"{path}: {violation}"
        statuses.add(out["status"])
        found = [f["code"] for f in out["findings"]]
        found += [f["code"] for c in out["calls"] for f in c["findings"]]
        assert set(found) <= codes, path
    assert statuses == {"pass", "blocked", "not_applicable"}
    assert schema_rules.first_violation(SCHEMA, {**out, "report_version": 2}) is not None
