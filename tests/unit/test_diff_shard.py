"""--shard K/M on diff and gateway-check, and toolstream merge: the shards of
a run, joined, are the unsharded run's result byte for byte; a set of
results that is not every shard of one run is refused in one line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import toolstream
from tests.support.corpus_cases import seed, variants, write_case
from toolstream import schema as schema_rules
from toolstream.cli import cli
from toolstream.diff.shard import Shard

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "support" / "toy_gateway.py"
MERGE_SCHEMA = json.loads(
    (Path(toolstream.__file__).parent / "schemas" / "merge.json").read_text("utf-8")
)


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two seeds and their drop-one variants: passes, blocks and cut streams."""
    folder = tmp_path_factory.mktemp("corpus")
    for name in ("openai-parallel", "anthropic-text-and-tools"):
        fixture = seed(name)
        write_case(folder, fixture, operator="seed")
        for variant in variants(fixture):
            write_case(folder, variant, operator="drop_item")
    return folder


def shard_files(tmp: Path, command: list[str], count: int, output: str) -> list[Path]:
    """Run ``command`` once per shard of ``count``; each shard's JSON file."""
    files = []
    for k in range(1, count + 1):
        target = tmp / f"shard-{k}.json"
        if output == "stdout":
            result = invoke(*command, "--shard", f"{k}/{count}")
            assert result.exit_code in (0, 1), result.output
            target.write_text(result.stdout, encoding="utf-8")
        else:
            result = invoke(*command, "--json", str(target), "--shard", f"{k}/{count}")
            assert result.exit_code in (0, 1), result.output
        assert json.loads(target.read_text(encoding="utf-8"))["shard"]["index"] == k
        files.append(target)
    return files


DIFF = [
    "--adapter",
    "openai-python",
    "--adapter",
    "anthropic-python",
    "--client",
    "openai-chat-create",
    "--transport",
    "plain,cut-close",
    "--format",
    "json",
    "--fail-on",
    "never",
    "-q",
]


def test_diff_shards_merged_are_the_unsharded_run_byte_for_byte(
    corpus: Path, tmp_path: Path
) -> None:
    pytest.importorskip("openai")
    pytest.importorskip("anthropic")
    whole = invoke("diff", str(corpus), *DIFF)
    assert whole.exit_code == 0, whole.output
    data = json.loads(whole.stdout)
    assert "shard" not in data
    # the run has something to merge: cut prefixes judged, several verdicts
    assert any("transport" in r for c in data["cases"] for r in c["results"].values())
    assert len({c["reference"]["status"] for c in data["cases"]}) > 1

    files = shard_files(tmp_path, ["diff", str(corpus), *DIFF], 4, "stdout")
    sizes = [len(json.loads(f.read_text(encoding="utf-8"))["cases"]) for f in files]
    assert sum(sizes) == len(data["cases"]) and all(sizes)
    out = tmp_path / "merged.json"
    # given in any order
    merged = invoke("merge", *map(str, reversed(files)), "-o", str(out), "--fail-on", "never")
    assert merged.exit_code == 0, merged.output
    assert out.read_bytes() == whole.stdout.encode("utf-8")


def test_gateway_check_shards_merged_are_the_unsharded_run(corpus: Path, tmp_path: Path) -> None:
    command = [
        "gateway-check",
        str(corpus),
        "--upstream-profile",
        "anthropic",
        "--downstream-profile",
        "openai",
        "--gateway-command",
        f"{sys.executable} {TOY} --mode launder {{upstream}}",
        "--fail-on",
        "never",
        "-q",
    ]
    whole_file = tmp_path / "whole.json"
    whole = invoke(*command, "--json", str(whole_file))
    assert whole.exit_code == 0, whole.output
    counts = json.loads(whole_file.read_text(encoding="utf-8"))["counts"]
    assert counts["laundered"] and counts["not_run"]
    files = shard_files(tmp_path, command, 2, "file")
    out = tmp_path / "merged.json"
    merged = invoke("merge", *map(str, files), "-o", str(out), "--fail-on", "never")
    assert merged.exit_code == 0, merged.output
    assert out.read_bytes() == whole_file.read_bytes()
    # the joined run is judged as the run: a laundered case fails --fail-on unsafe
    judged = invoke("merge", *map(str, files), "-o", str(out), "--format", "json")
    assert judged.exit_code == 1
    report = json.loads(judged.stdout)
    assert schema_rules.first_violation(MERGE_SCHEMA, report) is None
    assert report["exit_status"] == 1 and report["shards"] == 2
    assert report["cases"] == len(json.loads(out.read_text(encoding="utf-8"))["cases"])


def test_shard_assignment_is_a_hash_of_the_path() -> None:
    paths = [f"corpus/cases/op/{i:04d}.json" for i in range(400)]
    shards = [Shard(k, 4) for k in range(1, 5)]
    owners = [[s.index for s in shards if s.takes(p)] for p in paths]
    assert all(len(o) == 1 for o in owners)  # every case in exactly one shard
    counts = [sum(1 for o in owners if o == [k]) for k in range(1, 5)]
    assert min(counts) > 60  # spread, not all in one
    assert [Shard(2, 4).takes(p) for p in paths] == [Shard(2, 4).takes(p) for p in paths]


def _shard_document(index: int, of: int, total: int, positions: list[int]) -> dict[str, Any]:
    return {
        "format": "toolstream-diff/1",
        "corpus": ["c"],
        "classifications": [],
        "adapters": [],
        "unreadable": [],
        "cases": [
            {
                "path": f"c/{p}.json",
                "operator": "op",
                "profile": "openai",
                "reference": {"status": "pass", "codes": []},
                "results": {},
            }
            for p in positions
        ],
        "shard": {"index": index, "of": of, "cases_total": total, "positions": positions},
    }


@pytest.mark.parametrize(
    ("documents", "status", "message"),
    [
        ([(1, 2, 2, [0])], 64, "2/2 missing"),
        ([(1, 2, 2, [0]), (1, 2, 2, [1])], 64, "given twice"),
        ([(1, 2, 2, [0]), (2, 3, 2, [1])], 64, "different runs"),
        ([(1, 2, 3, [0]), (2, 2, 3, [1])], 64, "cover"),
        ([(1, 2, 2, [0, 0])], 65, "not distinct"),
    ],
)
def test_merge_refuses_what_is_not_every_shard_of_one_run(
    tmp_path: Path, documents: list[tuple[int, int, int, list[int]]], status: int, message: str
) -> None:
    files = []
    for number, spec in enumerate(documents):
        path = tmp_path / f"{number}.json"
        path.write_text(json.dumps(_shard_document(*spec)), encoding="utf-8")
        files.append(str(path))
    result = invoke("merge", *files, "-o", str(tmp_path / "out.json"))
    assert result.exit_code == status, result.output
    assert message in result.output and "Traceback" not in result.output


def test_merge_refuses_an_unsharded_result_and_a_non_result(tmp_path: Path) -> None:
    plain = _shard_document(1, 1, 1, [0])
    del plain["shard"]
    (tmp_path / "plain.json").write_text(json.dumps(plain), encoding="utf-8")
    (tmp_path / "text.json").write_text("not json", encoding="utf-8")
    out = str(tmp_path / "out.json")
    result = invoke("merge", str(tmp_path / "plain.json"), "-o", out)
    assert result.exit_code == 65 and "no 'shard' member" in result.output
    result = invoke("merge", str(tmp_path / "text.json"), "-o", out)
    assert result.exit_code == 65 and "not JSON" in result.output
    assert not Path(out).exists()


def test_a_bad_shard_and_an_empty_shard_are_misuse(corpus: Path) -> None:
    for bad in ("0/3", "4/3", "x"):
        result = invoke("diff", str(corpus), "--adapter", "openai-python", "--shard", bad)
        assert result.exit_code == 64 and "--shard" in result.output
    one = sorted(corpus.rglob("*.json"))[0]
    empty = next(f"{k}/50" for k in range(1, 51) if not Shard(k, 50).takes(one.as_posix()))
    result = invoke("diff", str(one), "--adapter", "openai-python", "--shard", empty)
    assert result.exit_code == 64 and "holds none of the 1 case(s)" in result.output
