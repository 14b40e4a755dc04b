"""Labels, their comparison with a verdict, and verify (serial, -j, shards)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.corpus_cases import SEEDS, hand_corpus, planted_openai, seed, verdict, write_case
from toolstream.api import validate
from toolstream.caseio import CaseRef, discover
from toolstream.corpus import verify as verifying
from toolstream.corpus.label import compare, label_of, label_problems


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.stem)
def test_a_label_made_from_a_verdict_holds(path: Path) -> None:
    fixture = seed(path.stem)
    report = validate(fixture)
    label = label_of(report)
    assert label_problems(label) == []
    assert compare(label, report) == []
    assert label["status"] == "pass" and len(label["calls"]) >= 1


def test_compare_names_each_difference() -> None:
    report = validate(seed("openai-parallel"))
    label = label_of(report)
    assert compare({**label, "status": "blocked", "codes": ["malformed_json"]}, report) == [
        "status: expected blocked, got pass",
        "codes: missing malformed_json",
    ]
    blocked = validate(planted_openai())
    assert compare(label, blocked)[1] == "codes: unexpected malformed_json"
    # calls are compared code point for code point
    calls = [dict(c) for c in label["calls"]]
    calls[0]["arguments"] = calls[0]["arguments"].replace("S\u00e3o", "Sa\u0303o")
    problems = compare({**label, "calls": calls}, report)
    assert len(problems) == 1 and problems[0].startswith("call 0 arguments: expected")
    assert compare({**label, "calls": calls[:1]}, report) == ["calls: expected 1, got 2"]


@pytest.mark.parametrize(
    ("label", "fragment"),
    [
        (None, "no label"),
        ({"status": "maybe", "codes": []}, "status"),
        ({"status": "blocked", "codes": ["b", "a"]}, "sorted"),
        ({"status": "blocked", "codes": ["a", "a"]}, "distinct"),
        ({"status": "blocked", "codes": ["no_such_code"]}, "unknown code"),
        ({"status": "blocked", "codes": []}, "at least one"),
        ({"status": "pass", "codes": []}, "lists its calls"),
        ({"status": "pass", "codes": [], "calls": [{"id": "x"}]}, "exactly the strings"),
        ({"status": "blocked", "codes": ["malformed_json"], "calls": []}, "only a passing"),
        ({"status": "pass", "codes": [], "calls": [], "extra": 1}, "unknown key"),
    ],
)
def test_malformed_labels_are_named(label: Any, fragment: str) -> None:
    problems = label_problems(label)
    assert any(fragment in p for p in problems), problems


def test_check_case_kinds(tmp_path: Path) -> None:
    good = write_case(tmp_path, seed("openai-parallel"))
    wrong = write_case(tmp_path, planted_openai(), verdict(seed("openai-parallel")), operator="w")
    bad = write_case(tmp_path, seed("mistral-whole-call"), {"status": "pass"}, operator="b")
    junk = tmp_path / "j.json"
    junk.write_text("[1,")
    kinds = {
        p: verifying.check_case(CaseRef(str(p), str(p))).kind for p in (good, wrong, bad, junk)
    }
    assert kinds == {
        good: verifying.OK,
        wrong: verifying.MISMATCH,
        bad: verifying.BAD_LABEL,
        junk: verifying.UNREADABLE,
    }
    missing = verifying.check_case(CaseRef("m", str(tmp_path / "m.json"), missing=True))
    assert missing.kind == verifying.UNREADABLE


def test_a_validator_crash_is_a_failure_not_an_abort(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_case(tmp_path, seed("openai-parallel"))

    def boom(data: bytes) -> Any:
        raise RuntimeError("bug")

    monkeypatch.setattr(verifying, "validate_bytes", boom)
    result = verifying.check_case(CaseRef("c", str(path)))
    assert result.kind == verifying.CRASH
    assert "RuntimeError: bug" in result.problems[0]


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0", "-1/2"])
def test_bad_shards_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        verifying.parse_shard(text)


def test_shards_partition_the_cases_stably() -> None:
    ids = [f"op{i % 7}/{i:016x}" for i in range(2000)]
    refs = [CaseRef(i, i) for i in ids]
    for m in (1, 2, 3, 5):
        parts = [verifying.select_shard(refs, (k, m)) for k in range(1, m + 1)]
        assert sorted(r.id for part in parts for r in part) == sorted(ids)
        assert all(len(part) > 2000 / m * 0.8 for part in parts)
    # a case keeps its shard when the corpus grows
    before = {r.id for r in verifying.select_shard(refs, (2, 3))}
    grown = refs + [CaseRef(f"new/{i}", "") for i in range(100)]
    after = {r.id for r in verifying.select_shard(grown, (2, 3))}
    assert before == {i for i in after if not i.startswith("new/")}


def test_parallel_run_gives_the_serial_result(tmp_path: Path) -> None:
    hand_corpus(tmp_path)
    wrong = write_case(tmp_path, planted_openai(), verdict(seed("openai-parallel")), operator="w")
    cases = discover([tmp_path]).cases
    serial = verifying.run(cases)
    parallel = verifying.run(cases, jobs=2)
    assert parallel == serial
    failing = [r.id for r in serial if not r.ok]
    assert failing == [f"w/{wrong.stem}"]
    summary = verifying.Summary.of(serial)
    assert summary.failed == 1 and summary.total == len(cases)
    assert json.loads(json.dumps([r.to_dict() for r in serial]))  # JSON-ready
