"""``toolstream diff --baseline / --write-baseline / --strict-baseline``: a run
fails only on disagreements the baseline does not record, and says which
recorded ones are fixed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.support.diff_fixtures import PARALLEL, REUSED_INDEX, TRUNCATED, write_case
from toolstream.baseline import read_baseline, write_baseline
from toolstream.cli import cli

NAIVE = "tests.support.diff_fixtures:naive_accumulate"


def run(*args: Any) -> Result:
    return CliRunner(env={"NO_COLOR": "1"}).invoke(cli, [str(a) for a in args])


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    write_case(folder / "refragment", "valid", PARALLEL, ["refragment"])
    write_case(folder / "reuse_slot", "reused", REUSED_INDEX, ["reuse_slot"])
    write_case(folder / "truncate", "cut", TRUNCATED, ["refragment", "truncate"])
    return folder


def test_written_baseline_makes_the_same_run_pass(corpus: Path, tmp_path: Path) -> None:
    baseline = tmp_path / "known.baseline"
    first = run("diff", corpus, "--adapter", NAIVE, "-q", "--write-baseline", baseline)
    assert first.exit_code == 1, first.output  # the naive accumulator accepts unsafe turns
    entries = read_baseline(baseline)
    assert entries and all(e.classification == "unsafe_accept" for e in entries)
    again = run("diff", corpus, "--adapter", NAIVE, "-q", "--baseline", baseline)
    assert again.exit_code == 0, again.output
    assert f"baseline: 0 new, {len(entries)} known, 0 fixed" in again.stderr


def test_an_unrecorded_disagreement_fails_and_is_named(corpus: Path, tmp_path: Path) -> None:
    baseline = tmp_path / "known.baseline"
    run("diff", corpus, "--adapter", NAIVE, "-q", "--write-baseline", baseline)
    entries = read_baseline(baseline)
    write_baseline(baseline, entries[1:])
    result = run("diff", corpus, "--adapter", NAIVE, "-q", "--baseline", baseline)
    assert result.exit_code == 1
    assert f"baseline: 1 new, {len(entries) - 1} known, 0 fixed" in result.stderr
    assert f"new: {entries[0].describe()}" in result.stderr


def test_a_fixed_entry_fails_only_under_strict(corpus: Path, tmp_path: Path) -> None:
    baseline = tmp_path / "known.baseline"
    run("diff", corpus, "--adapter", NAIVE, "-q", "--write-baseline", baseline)
    entries = read_baseline(baseline)
    entry = next(e for e in entries if e.case.endswith("reuse_slot/reused.json"))

    def moved(to: str) -> Any:
        case = entry.case.removesuffix("reuse_slot/reused.json") + to
        return type(entry)(
            case, entry.client, entry.transport, entry.classification, entry.signature
        )

    # recorded on a case the naive accumulator agrees on (fixed), and on a
    # case this run never judged (neither known nor fixed)
    write_baseline(baseline, [*entries, moved("refragment/valid.json"), moved("gone/x.json")])
    relaxed = run("diff", corpus, "--adapter", NAIVE, "-q", "--baseline", baseline)
    assert relaxed.exit_code == 0, relaxed.output
    assert f"baseline: 0 new, {len(entries)} known, 1 fixed" in relaxed.stderr
    assert "fixed (remove it from the baseline):" in relaxed.stderr
    assert "refragment/valid.json" in relaxed.stderr and "gone/x.json" not in relaxed.stderr
    strict = run(
        "diff", corpus, "--adapter", NAIVE, "-q", "--baseline", baseline, "--strict-baseline"
    )
    assert strict.exit_code == 1


def test_baseline_misuse_is_one_line(corpus: Path, tmp_path: Path) -> None:
    missing = run("diff", corpus, "--adapter", NAIVE, "--baseline", tmp_path / "nope")
    assert missing.exit_code == 64 and "cannot read the baseline" in missing.stderr
    alone = run("diff", corpus, "--adapter", NAIVE, "--strict-baseline")
    assert alone.exit_code == 64 and "--strict-baseline needs --baseline" in alone.stderr
