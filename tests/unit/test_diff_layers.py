"""``toolstream diff`` counts every disagreement under exactly one layer of
responsibility: the layer of the lowest-layer code of the verdict the adapter
was judged against (reassembly when that verdict has no code).  The counts per
layer add up to the disagreements, in the API, the JSON and the text table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.builders import chunk, tc
from tests.support.corpus_cases import write_case
from tests.support.diff_fixtures import (
    END,
    INT_FRAGMENT,
    MISTRAL_FRAGMENTS,
    PARALLEL,
    REUSED_INDEX,
    TRUNCATED,
    UNPARSEABLE,
    oai,
)
from toolstream.cli import cli
from toolstream.diff.classify import DISAGREEMENTS, deciding_code, disagreement_layer
from toolstream.diff.results import NO_CODE
from toolstream.diff.session import DiffSession
from toolstream.findings import Layer

NAIVE = "tests.support.diff_fixtures:naive_accumulate"
CAUTIOUS = "tests.support.diff_fixtures:cautious_accumulate"

# operator -> (fixture, the layer its planted fault belongs to)
PLANTED: dict[str, tuple[dict[str, Any], Layer]] = {
    "valid": (PARALLEL, Layer.REASSEMBLY),  # a disagreement on a valid turn: reassembly
    "fragmented": (MISTRAL_FRAGMENTS, Layer.REASSEMBLY),
    "reused_index": (REUSED_INDEX, Layer.REASSEMBLY),
    "truncated": (TRUNCATED, Layer.REASSEMBLY),
    "int_fragment": (INT_FRAGMENT, Layer.REASSEMBLY),
    "unparseable": (UNPARSEABLE, Layer.STRICTNESS),
    "unknown_tool": (
        oai(chunk(tc(0, "call_1", "teleport", '{"city":"Paris"}')), END),
        Layer.TOOL_POLICY,
    ),
    # a duplicate key (strictness) in a call whose slot 0 never came
    # (reassembly): the slot fault is the one counted
    "gap_and_duplicate_key": (
        oai(chunk(tc(1, "call_1", "weather", '{"city":"a","city":"b"}')), END),
        Layer.REASSEMBLY,
    ),
}


def test_the_lowest_layer_decides() -> None:
    assert deciding_code(["duplicate_key", "missing_slot"]) == "missing_slot"
    assert deciding_code(["schema_violation", "malformed_json"]) == "malformed_json"
    assert deciding_code(["unknown_tool", "limit_exceeded"]) == "limit_exceeded"
    # two codes of one layer: the first
    assert deciding_code(["malformed_json", "trailing_data"]) == "malformed_json"
    assert deciding_code([]) is None
    assert disagreement_layer(None) is Layer.REASSEMBLY
    assert disagreement_layer("unknown_tool") is Layer.TOOL_POLICY


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("layers")
    for operator, (fixture, _) in PLANTED.items():
        write_case(folder, fixture, operator=operator)
    return folder


def test_each_disagreement_has_one_layer_and_they_add_up(corpus: Path) -> None:
    result = DiffSession.open(corpus.as_posix(), [NAIVE, CAUTIOUS]).run()
    data = json.loads(result.to_json())
    disagreeing = 0
    for case in data["cases"]:
        for name, outcome in case["results"].items():
            if outcome["classification"] in DISAGREEMENTS:
                disagreeing += 1
                assert outcome["layer"] == PLANTED[case["operator"]][1].value, (name, case["path"])
            else:
                assert "layer" not in outcome
    assert disagreeing >= 8  # both adapters disagree on something in every layer but transport
    for name in (NAIVE, CAUTIOUS):
        totals = data["totals"][name]
        disagreements = sum(totals[c] for c in DISAGREEMENTS)
        assert data["by_layer"][name] == result.by_layer(name)
        assert list(data["by_layer"][name]) == [layer.value for layer in Layer]
        assert sum(data["by_layer"][name].values()) == disagreements
        assert sum(data["by_code"][name].values()) == disagreements
        assert data["by_layer"][name]["tool_policy"] == data["by_code"][name]["unknown_tool"] == 1
        assert data["by_layer"][name]["strictness"] == data["by_code"][name]["malformed_json"] == 1
    # the cautious adapter refuses the valid turns with fragmented arguments:
    # no code, reassembly
    assert data["by_code"][CAUTIOUS][NO_CODE] == data["totals"][CAUTIOUS]["false_reject"] == 2


def test_the_text_output_shows_the_layers(corpus: Path) -> None:
    run = CliRunner().invoke(cli, ["diff", corpus.as_posix(), "--adapter", NAIVE, "-q"])
    assert run.exit_code == 1, run.output  # unsafe accepts
    lines = [line.rstrip() for line in run.stdout.splitlines()]
    title = lines.index("disagreements by layer")
    header = next(line for line in lines[title:] if "transport" in line)
    assert ["transport", "reassembly", "strictness", "tool_policy", "total"] == [
        word for word in header.replace("┃", " ").split() if word != "adapter"
    ]
    row = next(line for line in lines[title:] if line.startswith("│ tests.support"))
    cells = [cell.strip() for cell in row.strip("│ ").split("│")]
    result = DiffSession.open(corpus.as_posix(), [NAIVE]).run()
    expected = [str(n) if n else "-" for n in result.by_layer(NAIVE).values()]
    assert cells[1:] == [*expected, str(result.disagreements())]
    assert "tool_policy: the application must check this" in run.stdout
