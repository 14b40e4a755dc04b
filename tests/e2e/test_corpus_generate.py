"""generate -> verify round trips, determinism, interrupted runs, and the
shipped corpus (fresh, complete, well-formed)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.corpus_cases import ROOT, SEEDS
from toolstream import caseio, schema
from toolstream.caseio import MANIFEST_NAME, discover, file_sha256, manifest_cases
from toolstream.cli import cli
from toolstream.corpus import verify as verifying
from toolstream.corpus.case_schema import CASE_SCHEMA, GENERATED_META_KEYS
from toolstream.corpus.generate import (
    SHIPPED_COUNT,
    SHIPPED_SEED,
    GenerateError,
    generate,
    load_generators,
)
from toolstream.corpus.label import label_problems

generators = load_generators()
SHIPPED = ROOT / "corpus" / "cases"


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def verify_all(folder: Path) -> list[verifying.CaseResult]:
    return [r for r in verifying.run(discover([folder]).cases) if not r.ok]


def applicable(seed_path: Path) -> list[str]:
    fixture = json.loads(seed_path.read_text("utf-8"))
    return list(generators.applicable(fixture))


@pytest.mark.parametrize("seed_path", SEEDS, ids=lambda p: p.stem)
def test_generate_verify_round_trip_with_every_operator(seed_path: Path, tmp_path: Path) -> None:
    operators = applicable(seed_path)
    if not operators:  # a profile the generators do not model: refused, not ignored
        with pytest.raises(GenerateError, match="the generator models the wires"):
            generate([seed_path], tmp_path, count=3, seed=7, per_operator=True)
        return
    result = generate([seed_path], tmp_path, count=3, seed=7, per_operator=True)
    assert set(result.by_operator) == set(operators)
    assert result.drawn == result.written == result.manifest_cases
    failing = verify_all(tmp_path)
    assert failing == [], "\n".join(f"{r.id}: {'; '.join(r.problems)}" for r in failing)


def test_generate_is_deterministic_across_processes(tmp_path: Path) -> None:
    """Two runs (different hash seeds, so set orders differ) give the same bytes."""
    args = [
        "-c",
        "import sys; from toolstream.cli import main; main(sys.argv[1:])",
        "generate",
        str(ROOT / "corpus" / "seeds" / "anthropic-text-and-tools.json"),
        str(ROOT / "corpus" / "seeds" / "openai-parallel.json"),
        "--count",
        "4",
        "--seed",
        "3",
        "--operators",
        "refragment,corrupt_json,interleave,reuse_slot,lone_surrogate",
        "--per-operator",
        "--quiet",
        "-o",
    ]
    outputs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"run{hash_seed}"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run([sys.executable, *args, str(out)], env=env, check=True, timeout=300)
        outputs.append(tree(out))
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) > 20


def test_regenerating_never_duplicates(tmp_path: Path) -> None:
    seed_path = ROOT / "corpus" / "seeds" / "mistral-whole-call.json"
    first = generate([seed_path], tmp_path, count=5, seed=1, operators=["truncate"])
    before = tree(tmp_path)
    again = generate([seed_path], tmp_path, count=5, seed=1, operators=["truncate"])
    assert again.unchanged == first.drawn and again.written == 0
    assert tree(tmp_path) == before
    generate([seed_path], tmp_path, count=5, seed=2, operators=["truncate"])
    files = [p for p in tmp_path.rglob("*.json")]
    assert len(files) == len({p.name for p in files})  # one file per fixture
    assert manifest_cases(tmp_path / MANIFEST_NAME) == sorted(
        p.relative_to(tmp_path).as_posix() for p in files
    )


def test_clean_removes_only_what_generate_writes(tmp_path: Path) -> None:
    seed_path = ROOT / "corpus" / "seeds" / "mistral-whole-call.json"
    generate([seed_path], tmp_path, count=3, seed=1, operators=["truncate"], per_operator=True)
    (tmp_path / "truncate" / ".0123456789abcdef.json.x1.tmp").write_text("{")  # a killed run
    (tmp_path / "truncate" / "notes.txt").write_text("mine")
    (tmp_path / "hand").mkdir()
    (tmp_path / "hand" / "regression.json").write_text("{}")
    again = generate(
        [seed_path], tmp_path, count=2, seed=1, operators=["corrupt_json"], clean_first=True
    )
    left = sorted(set(tree(tmp_path)) - {MANIFEST_NAME})
    assert left == sorted(["truncate/notes.txt", "hand/regression.json", *again.files])


def test_interrupted_generate_leaves_no_partial_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_path = ROOT / "corpus" / "seeds" / "openai-parallel.json"
    first = ["truncate", "corrupt_json"]
    second = ["refragment", "interleave", "drop_id"]
    generate([seed_path], tmp_path, count=4, seed=1, operators=first, per_operator=True)
    existing = tree(tmp_path)
    del existing[MANIFEST_NAME]

    real_fill = caseio._fill
    calls = Counter[str]()

    def fail_on_the_fifth(handle: Any, data: bytes) -> None:
        calls["n"] += 1
        if calls["n"] == 5:
            handle.write(data[: len(data) // 2])
            raise OSError("disk full")
        real_fill(handle, data)

    monkeypatch.setattr(caseio, "_fill", fail_on_the_fifth)
    with pytest.raises(OSError, match="disk full"):
        generate([seed_path], tmp_path, count=4, seed=2, operators=second, per_operator=True)
    monkeypatch.setattr(caseio, "_fill", real_fill)

    after = tree(tmp_path)
    assert [n for n in after if ".tmp" in n or "/." in n or n.startswith(".")] == []
    for name, data in existing.items():
        assert after[name] == data
    new = sorted(set(after) - set(existing) - {MANIFEST_NAME})
    assert len(new) == 4  # the four cases written before the failure, whole
    for name in new:
        json.loads(after[name])
    # the manifest was rebuilt anyway and lists exactly the files present
    assert manifest_cases(tmp_path / MANIFEST_NAME) == sorted(set(after) - {MANIFEST_NAME})
    assert verify_all(tmp_path) == []


def test_generate_cli(tmp_path: Path) -> None:
    seed_path = str(ROOT / "corpus" / "seeds" / "mistral-whole-call.json")
    runner = CliRunner(env={"NO_COLOR": "1"})
    result = runner.invoke(
        cli, ["generate", seed_path, "-o", str(tmp_path), "--count", "3", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["drawn"] == 3 and data["cases_in_manifest"] == 3
    text = runner.invoke(cli, ["generate", seed_path, "-o", str(tmp_path), "--count", "3"])
    assert text.exit_code == 0 and "3 unchanged" in text.output
    for bad in (
        ["--operators", "no_such_operator"],
        ["--operators", "prefill_input"],  # Anthropic only
        ["--count", "0"],
    ):
        misuse = runner.invoke(cli, ["generate", seed_path, "-o", str(tmp_path), *bad])
        assert misuse.exit_code == 64, (bad, misuse.output)
    missing = runner.invoke(cli, ["generate", str(tmp_path / "none.json"), "-o", str(tmp_path)])
    assert missing.exit_code == 64


# -- the shipped corpus ------------------------------------------------------


def shipped_cases() -> list[tuple[str, dict[str, Any]]]:
    return [
        (p.relative_to(SHIPPED).as_posix(), json.loads(p.read_text("ascii")))
        for p in caseio.case_files(SHIPPED)
    ]


def test_shipped_corpus_is_fresh(tmp_path: Path) -> None:
    """Regenerating one seed x a few operators gives the committed bytes, and
    the committed corpus has no other case from that seed and those operators."""
    seed_path = ROOT / "corpus" / "seeds" / "openai-parallel.json"
    operators = ["refragment", "corrupt_json", "truncate", "reuse_slot"]
    generate(
        [seed_path],
        tmp_path,
        count=SHIPPED_COUNT,
        seed=SHIPPED_SEED,
        operators=operators,
        per_operator=True,
    )
    fresh = tree(tmp_path)
    del fresh[MANIFEST_NAME]
    digest = file_sha256(seed_path)
    committed = {
        name
        for name, case in shipped_cases()
        if case["meta"]["seed_sha256"] == digest and name.split("/")[0] in operators
    }
    stale = "the committed corpus is stale: run `make corpus`"
    assert committed == set(fresh), stale
    for name, data in fresh.items():
        assert (SHIPPED / name).read_bytes() == data, f"{stale} ({name} differs)"


def test_shipped_manifest_lists_exactly_the_files() -> None:
    present = [p.relative_to(SHIPPED).as_posix() for p in caseio.case_files(SHIPPED)]
    assert manifest_cases(SHIPPED / MANIFEST_NAME) == present
    records = [json.loads(line) for line in (SHIPPED / MANIFEST_NAME).read_text().splitlines()]
    labels = {r["case"]: r["expect"] for r in records}
    assert labels == {name: case["expect"] for name, case in shipped_cases()}


def test_shipped_corpus_covers_every_seed_operator_and_code() -> None:
    cases = shipped_cases()
    # About 25 cases per (seed, operator): nine seeds gave 7,271 (1.5.0).  The
    # upper bound catches a count that ran away, which would stretch every
    # corpus-wide test.
    assert 2000 <= len(cases) <= 9000
    modelled = [p for p in SEEDS if applicable(p)]  # seeds of profiles the generators model
    assert len(modelled) == len(SEEDS)  # every seed's wire is modelled now
    seeds = {file_sha256(p) for p in modelled}
    assert {case["meta"]["seed_sha256"] for _, case in cases} == seeds
    for seed_path in modelled:
        digest = file_sha256(seed_path)
        featured = {n.split("/")[0] for n, c in cases if c["meta"]["seed_sha256"] == digest}
        assert featured == set(applicable(seed_path)), seed_path.name
    codes = {code for _, case in cases for code in case["expect"]["codes"]}
    producible = {e.code for e in generators.OPERATORS.values() if e.code is not None}
    assert producible <= codes, sorted(producible - codes)


def _documented_schema() -> Any:
    text = (ROOT / "docs" / "corpus.md").read_text("utf-8")
    block = re.search(
        r"<!-- case-schema:begin -->\n```json\n(.*?)```\n<!-- case-schema:end -->", text, re.S
    )
    assert block, "docs/corpus.md lost its case-schema block"
    return json.loads(block.group(1))


def test_documented_schema_is_the_code_schema() -> None:
    assert _documented_schema() == CASE_SCHEMA
    schema.check_schema(CASE_SCHEMA)


def test_every_shipped_case_matches_the_documented_schema() -> None:
    documented = _documented_schema()
    for name, case in shipped_cases():
        violation = schema.first_violation(documented, case)
        assert violation is None, f"{name}: {violation}"
        assert label_problems(case["expect"]) == [], name
        assert set(GENERATED_META_KEYS) <= set(case["meta"]), name
        assert case["meta"]["generator_version"] == generators.GENERATOR_VERSION, name
        assert name.split("/")[0] in case["meta"]["operators"], name
        assert name == f"{name.split('/')[0]}/{caseio.fixture_digest(case)}.json"
        path = SHIPPED / name
        assert path.read_text("ascii") == caseio.dump_json(case), name


def test_every_shipped_label_holds() -> None:
    failing = verifying.run(discover([SHIPPED]).cases, jobs=2)
    bad = [f"{r.id}: {'; '.join(r.problems)}" for r in failing if not r.ok]
    assert bad == [], "\n".join(bad[:20])
