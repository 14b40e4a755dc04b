"""toolstream distill: the subset keeps every behaviour of the recorded run
(a hand-built run and a real one), drops the cases whose behaviours are all
kept elsewhere, is deterministic, and refuses a run that does not describe
the corpus."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.corpus_cases import seed, variants, write_case
from toolstream.cli import cli
from toolstream.corpus.distill import Behaviour, behaviours_of, distill
from toolstream.diff.session import DiffSession

PASS = {"status": "pass", "codes": [], "calls": []}
CUT = {"status": "blocked", "codes": ["missing_terminal"]}


def crash(kind: str) -> dict[str, Any]:
    return {"classification": "adapter_crash", "detail": "d", "error": f"{kind}: boom"}


AGREE = {"classification": "agree", "detail": "same 1 call(s)", "rejected": False, "calls": []}
WRONG = {
    "classification": "wrong_calls",
    "detail": "d",
    "rejected": False,
    "calls": [],
    "differences": [
        {"field": "id", "kind": "id", "call": 0, "adapter": "a", "reference": "b"},
        {"field": "arguments", "kind": "bytes", "call": 0, "adapter": "x", "reference": "y"},
    ],
}


def row(path: str, operator: str, results: dict[str, Any]) -> dict[str, Any]:
    return {
        "path": path,
        "operator": operator,
        "profile": "openai",
        "reference": PASS,
        "results": results,
    }


def hand_run(folder: Path) -> dict[str, Any]:
    """Five cases: b repeats a, e repeats c; d alone shows a ValueError and a
    cut client's outcome on its blocked prefix."""
    rows = [
        row(f"{folder}/op1/a.json", "op1", {"x": AGREE}),
        row(f"{folder}/op1/b.json", "op1", {"x": AGREE}),
        row(f"{folder}/op2/c.json", "op2", {"x": crash("TypeError")}),
        row(
            f"{folder}/op2/d.json",
            "op2",
            {"x": crash("ValueError"), "y@cut-close": {**AGREE, "transport": "cut-close",
                                                      "reference": CUT}},
        ),
        row(f"{folder}/op2/e.json", "op2", {"x": crash("TypeError"), "z": WRONG}),
    ]
    for r in rows:
        Path(r["path"]).parent.mkdir(parents=True, exist_ok=True)
        # b and c are larger: a and e are the smaller witnesses of what they share
        padding = " " * (100 if Path(r["path"]).stem in "bc" else 0)
        Path(r["path"]).write_text('{"profile": "openai", "chunks": []}' + padding, "utf-8")
    return {"format": "toolstream-diff/1", "cases": rows}


def test_behaviours_are_verdict_operator_profile_column_and_signature(tmp_path: Path) -> None:
    run = hand_run(tmp_path)
    d = behaviours_of(run["cases"][3])
    assert Behaviour("x", "pass()", "op2", "openai", "adapter_crash:ValueError") in d
    # a cut client is judged against its prefix's verdict
    assert Behaviour("y@cut-close", "blocked(missing_terminal)", "op2", "openai", "agree") in d
    assert Behaviour("(case)", "pass()", "op2", "openai", "") in d and len(d) == 3
    e = behaviours_of(run["cases"][4])
    assert Behaviour("z", "pass()", "op2", "openai", "wrong_calls:arguments-bytes,id") in e


def test_keeps_every_behaviour_and_drops_the_redundant_cases(tmp_path: Path) -> None:
    run = hand_run(tmp_path)
    result = distill(tmp_path, [run])
    kept = [name for name, _ in result.kept]
    # e shows c's crash and more; a is the smaller of a and b
    assert sorted(kept) == ["op1/a.json", "op2/d.json", "op2/e.json"]
    every = set().union(*(behaviours_of(r) for r in run["cases"]))
    witnessed = [b for _, bs in result.kept for b in bs]
    assert sorted(witnessed) == sorted(every)  # each behaviour witnessed exactly once
    assert result.cases_total == 5 and result.behaviours_total == len(every) == 7


def test_the_command_writes_the_subset_and_its_manifest(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    run = hand_run(corpus)
    (tmp_path / "run.json").write_text(json.dumps(run), "utf-8")
    outputs = []
    for name in ("one", "two"):
        out = tmp_path / name
        result = CliRunner().invoke(
            cli,
            ["distill", str(corpus), "--result", str(tmp_path / "run.json"), "-o", str(out),
             "--format", "json"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        assert (report["kept"], report["cases_total"], report["behaviours"]) == (3, 5, 7)
        outputs.append(out)
    one, two = ((o / "DISTILL.jsonl").read_bytes() for o in outputs)
    assert one == two  # deterministic
    lines = [json.loads(line) for line in one.decode().splitlines()]
    assert lines[0]["format"] == "toolstream-distill/1"
    assert [line["path"] for line in lines[1:]] == ["op1/a.json", "op2/d.json", "op2/e.json"]
    assert sorted(p.relative_to(outputs[0]).as_posix() for p in outputs[0].rglob("*.json")) == [
        "op1/a.json", "op2/d.json", "op2/e.json",
    ]  # fmt: skip
    assert (outputs[0] / "MANIFEST.jsonl").read_text("utf-8").count("\n") == 3


def test_a_run_that_does_not_describe_the_corpus_is_refused(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    run = hand_run(corpus)
    partial = {**run, "cases": run["cases"][1:]}
    for document, status, message in [
        (partial, 64, "not in the recorded run"),
        ({**run, "shard": {"index": 1}}, 64, "toolstream merge"),
        ({"format": "toolstream-gateway-check/1"}, 65, "not a toolstream diff result"),
    ]:
        (tmp_path / "run.json").write_text(json.dumps(document), "utf-8")
        result = CliRunner().invoke(
            cli, ["distill", str(corpus), "--result", str(tmp_path / "run.json"),
                  "-o", str(tmp_path / "out")],
        )  # fmt: skip
        assert result.exit_code == status, result.output
        assert message in result.output and "Traceback" not in result.output


def test_a_real_run_distilled_shows_the_same_behaviours_again(tmp_path: Path) -> None:
    """Record a run, distill, run the distilled corpus: the same behaviours."""
    pytest.importorskip("openai")
    corpus = tmp_path / "corpus"
    for name in ("openai-parallel", "mistral-whole-call"):
        fixture = seed(name)
        write_case(corpus, fixture, operator="seed")
        for variant in variants(fixture):
            write_case(corpus, variant, operator="drop_item")
    recorded = DiffSession.open(corpus, ["openai-python"]).run().to_dict()
    result = distill(corpus, [recorded])
    out = tmp_path / "distilled"
    from toolstream.corpus.distill import write_distilled

    write_distilled(corpus, result, out)
    again = DiffSession.open(out, ["openai-python"]).run().to_dict()
    before = set().union(*(behaviours_of(r) for r in recorded["cases"]))
    after = set().union(*(behaviours_of(r) for r in again["cases"]))
    assert after == before
    assert len(again["cases"]) == len(result.kept) < len(recorded["cases"])
