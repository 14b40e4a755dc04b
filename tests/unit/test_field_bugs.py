"""The field's bug reports (``bench/field_bugs/``): every entry names its
report, library, shape and a fixture of this benchmark that the reference
reads; the runs ``make field-bugs`` makes are of clients that exist."""

from __future__ import annotations

import json
from pathlib import Path

from toolstream import validate
from toolstream.clients.registry import CLIENTS
from toolstream.clients.versions import split_version

HERE = Path(__file__).resolve().parents[2] / "bench" / "field_bugs"
FIELDS = {
    "repository", "number", "kind", "url", "library", "client", "run", "fixed_release", "shape",
    "fixture", "note",
}  # fmt: skip


def test_every_report_is_complete_and_its_fixture_is_read() -> None:
    reports = sorted((HERE / "reports").glob("*.json"))
    assert len(reports) >= 15
    seen = set()
    for path in reports:
        entry = json.loads(path.read_text("utf-8"))
        # fix_unreleased: a fix proposed that no release carries (then no fixed release)
        assert set(entry) - {"fix_unreleased"} == FIELDS, path.name
        if "fix_unreleased" in entry:
            assert entry["fixed_release"] is None and entry["fix_unreleased"], path.name
        kind = {"issue": "issues", "pull": "pull"}[entry["kind"]]
        assert entry["url"] == f"https://github.com/{entry['repository']}/{kind}/{entry['number']}"
        assert (entry["repository"], entry["number"]) not in seen
        seen.add((entry["repository"], entry["number"]))
        fixture = json.loads((HERE / entry["fixture"]).read_text("utf-8"))
        assert validate(fixture).status.value in ("pass", "blocked"), path.name
        if entry["client"] is None:
            assert entry["run"] == [] and entry["note"], path.name
        else:
            assert split_version(entry["client"])[0] in CLIENTS, path.name
            assert entry["run"], path.name


def test_a_release_on_another_node_is_not_another_outcome() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_field_bugs", HERE.parent / "field_bugs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    same = ["2.0.58: cleared (agree)", "3.0.23: cleared (agree) (on Node.js 22.23.5 from npm)"]
    assert module.distinct_outcomes(same) == {"cleared (agree)"}
    apart = [*same, "2.0.80: detected `unsafe_accept:extra_call` (on Node.js 22.23.5 from npm)"]
    assert module.distinct_outcomes(apart) == {
        "cleared (agree)",
        "detected `unsafe_accept:extra_call`",
    }
    assert module.distinct_outcomes(["3.0.23: not run: needs Node.js >=22"]) == set()
