"""Baselines: known disagreements pass, new ones fail, fixed ones are reported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from toolstream.baseline import (
    BaselineEntry,
    BaselineError,
    compare,
    entries_from_diff,
    judged_from_diff,
    read_baseline,
    signature_of,
    write_baseline,
)
from toolstream.diff.classify import CallDifference, Outcome


def _diff(results: dict[str, dict[str, dict[str, Any]]]) -> dict[str, Any]:
    """A diff JSON object: case path -> adapter name -> result."""
    return {
        "format": "toolstream-diff/1",
        "cases": [{"path": path, "results": by_name} for path, by_name in results.items()],
    }


UNSAFE = {"classification": "unsafe_accept", "detail": "x", "rejected": False, "calls": []}
AGREE = {"classification": "agree", "detail": "", "rejected": True, "calls": []}
CRASH = {"classification": "adapter_crash", "error": "TypeError: bad", "detail": "y"}
WRONG = {
    "classification": "wrong_calls",
    "differences": [
        {"field": "name", "kind": "name", "call": 0},
        {"field": "arguments", "kind": "bytes", "call": 1},
        {"field": "id", "kind": "id", "call": 0},
    ],
}
NOT_RUN = {"classification": "not_run", "detail": "profile"}


def test_entries_from_diff_keys_and_signatures() -> None:
    data = _diff(
        {
            "cases/b.json": {"openai-chat-create@cut-close": UNSAFE, "openai-chat-create": AGREE},
            "cases/a.json": {"anthropic-messages": CRASH, "openai-chat-create": WRONG},
            "cases/c.json": {"openai-chat-create": NOT_RUN},
        }
    )
    assert entries_from_diff(data) == [
        BaselineEntry(
            "cases/a.json",
            "anthropic-messages",
            "plain",
            "adapter_crash",
            "adapter_crash:TypeError",
        ),
        BaselineEntry(
            "cases/a.json",
            "openai-chat-create",
            "plain",
            "wrong_calls",
            "wrong_calls:arguments-bytes,id,name",
        ),
        BaselineEntry(
            "cases/b.json", "openai-chat-create", "cut-close", "unsafe_accept", "unsafe_accept"
        ),
    ]
    assert judged_from_diff(data) == {
        ("cases/a.json", "anthropic-messages", "plain"),
        ("cases/a.json", "openai-chat-create", "plain"),
        ("cases/b.json", "openai-chat-create", "cut-close"),
        ("cases/b.json", "openai-chat-create", "plain"),
    }


def test_signature_matches_the_outcome_signature() -> None:
    outcomes = [
        Outcome("unsafe_accept"),
        Outcome("false_reject", rejected=True),
        Outcome("adapter_crash", error="KeyError: 'x'", error_type="KeyError"),
        Outcome(
            "wrong_calls",
            differences=(
                CallDifference("arguments", "value", 0, "{}", '{"a":1}'),
                CallDifference("count", "count", None, 1, 2),
            ),
        ),
        Outcome("agree"),
    ]
    for outcome in outcomes:
        assert signature_of(outcome.to_dict()) == outcome.signature


def test_round_trip_write_pass_new_fixed(tmp_path: Path) -> None:
    path = tmp_path / "baseline.jsonl"
    day_one = _diff(
        {
            "cases/a.json": {"openai-chat-create": UNSAFE, "anthropic-messages": CRASH},
            "cases/b.json": {"openai-chat-create": WRONG},
        }
    )
    write_baseline(path, entries_from_diff(day_one))
    first_bytes = path.read_bytes()
    # Deterministic and diff-friendly: same entries, any order, same bytes.
    write_baseline(path, reversed(entries_from_diff(day_one)))
    assert path.read_bytes() == first_bytes
    lines = first_bytes.decode().splitlines()
    assert lines[0] == '{"format": "toolstream-baseline/2"}'
    assert lines[1:] == sorted(lines[1:]) and len(lines) == 4
    baseline = read_baseline(path)

    # The same run passes: everything known.
    new, known, fixed = compare(entries_from_diff(day_one), baseline)
    assert (new, fixed) == ([], []) and len(known) == 3

    # A new disagreement fails; a case now disagreeing another way is new too.
    later = _diff(
        {
            "cases/a.json": {"openai-chat-create": UNSAFE, "anthropic-messages": CRASH},
            "cases/b.json": {"openai-chat-create": UNSAFE},
            "cases/c.json": {"openai-chat-create": UNSAFE},
        }
    )
    new, known, fixed = compare(entries_from_diff(later), baseline)
    assert [(e.case, e.signature) for e in new] == [
        ("cases/b.json", "unsafe_accept"),
        ("cases/c.json", "unsafe_accept"),
    ]
    assert fixed == [] and len(known) == 2

    # A known one that now agrees is reported fixed; one not run is not.
    fixed_run = _diff(
        {
            "cases/a.json": {"openai-chat-create": AGREE, "anthropic-messages": NOT_RUN},
            "cases/b.json": {"openai-chat-create": WRONG},
        }
    )
    new, known, fixed = compare(
        entries_from_diff(fixed_run), baseline, judged=judged_from_diff(fixed_run)
    )
    assert new == [] and [e.case for e in known] == ["cases/b.json"]
    assert [(e.case, e.client) for e in fixed] == [("cases/a.json", "openai-chat-create")]
    # Without the judged set every absent entry counts as fixed.
    _, _, fixed_all = compare(entries_from_diff(fixed_run), baseline)
    assert len(fixed_all) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty file"),
        ('{"format": "other"}\n', "line 1"),
        ('{"format": "toolstream-baseline/1"}\nnot json\n', "line 2 is not JSON"),
        ('{"format": "toolstream-baseline/1"}\n{"case": "a"}\n', "line 2 must be"),
    ],
)
def test_malformed_baseline_is_one_line_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "b.jsonl"
    path.write_text(text)
    with pytest.raises(BaselineError, match=message) as info:
        read_baseline(path)
    assert "\n" not in str(info.value)


def test_missing_baseline(tmp_path: Path) -> None:
    with pytest.raises(BaselineError, match="cannot read"):
        read_baseline(tmp_path / "absent.jsonl")


def _documented_check(tmp_path: Path) -> Path:
    """The baseline check script of docs/ci.md, as a user saves it."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "ci.md").read_text()
    block = text.split("<!-- baseline-check -->\n```python\n", 1)[1].split("```", 1)[0]
    script = tmp_path / "baseline_check.py"
    script.write_text(block)
    return script


def test_the_documented_ci_check_round_trip(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    script = _documented_check(tmp_path)
    baseline = tmp_path / "toolstream-baseline.jsonl"

    def run(data: dict[str, Any], *flags: str) -> subprocess.CompletedProcess[str]:
        diff_json = tmp_path / "diff.json"
        diff_json.write_text(json.dumps(data))
        return subprocess.run(
            [sys.executable, str(script), str(diff_json), str(baseline), *flags],
            capture_output=True,
            text=True,
            check=False,
        )

    day_one = _diff({"cases/a.json": {"openai-chat-create": UNSAFE}})
    assert run(day_one, "--write").returncode == 0
    assert read_baseline(baseline) == entries_from_diff(day_one)
    same = run(day_one)
    assert same.returncode == 0 and "0 new, 1 known, 0 fixed" in same.stdout
    new = run(_diff({"cases/a.json": {"openai-chat-create": UNSAFE, "x": CRASH}}))
    assert new.returncode == 1 and "NEW: cases/a.json x: adapter_crash:TypeError" in new.stdout
    fixed_run = _diff({"cases/a.json": {"openai-chat-create": AGREE}})
    fixed = run(fixed_run)
    assert fixed.returncode == 0 and "remove it from the baseline" in fixed.stdout
    assert run(fixed_run, "--strict").returncode == 1


PLUGIN_TEST = """
import pytest


def hands_over_nothing(fixture):
    return []


@pytest.mark.toolstream_cases("cases")
def test_against_baseline(toolstream_case):
    toolstream_case.check(hands_over_nothing, baseline="baseline.jsonl")
"""


def test_the_pytest_plugin_honours_the_baseline(tmp_path: Path) -> None:
    import json
    import re
    import shutil

    from tests.support.corpus_cases import pytest_in
    from toolstream import validate
    from toolstream.corpus.label import label_of

    root = Path(__file__).resolve().parents[2] / "corpus"
    (tmp_path / "cases" / "seed").mkdir(parents=True)
    (tmp_path / "cases" / "cut").mkdir()
    # two passing turns (the adapter hands over none of their calls: wrong_calls)
    for seed, as_case in (("openai-parallel", "known"), ("mistral-whole-call", "new")):
        fixture = json.loads((root / f"seeds/{seed}.json").read_text())
        fixture["expect"] = label_of(validate(fixture))
        (tmp_path / f"cases/seed/{as_case}.json").write_text(json.dumps(fixture))
    # a blocked turn (handing over nothing agrees), recorded as if it once disagreed
    shutil.copy(root / "cases/truncate/0885a13e7bd29ed6.json", tmp_path / "cases/cut/fixed.json")
    name = "test_user:hands_over_nothing"
    write_baseline(
        tmp_path / "baseline.jsonl",
        [
            BaselineEntry(
                "cases/seed/known.json",
                name,
                "plain",
                "wrong_calls",
                "wrong_calls:count:lost_call",
            ),
            BaselineEntry("cases/cut/fixed.json", name, "plain", "unsafe_accept", "unsafe_accept"),
        ],
    )
    (tmp_path / "test_user.py").write_text(PLUGIN_TEST)
    ran = pytest_in(tmp_path, "-v", "-rfEx", "test_user.py")
    line = r"^test_user\.py::test_against_baseline\[(.+?)\] (PASSED|FAILED|XFAIL|XPASS|ERROR)"
    outcomes = dict(re.findall(line, ran.stdout, flags=re.MULTILINE))
    assert outcomes == {"cut/fixed": "FAILED", "seed/known": "XFAIL", "seed/new": "FAILED"}, (
        ran.stdout
    )
    assert "remove it from baseline.jsonl" in ran.stdout
    assert ran.returncode == 1


def test_hand_over_is_part_of_the_signature() -> None:
    merged = {**UNSAFE, "handover": "glued_ids+merged"}
    lost = {**WRONG, "handover": "altered_arguments+lost_call"}
    assert signature_of(merged) == "unsafe_accept:glued_ids+merged"
    # wrong calls keep their fields, then the structural parts only
    assert signature_of(lost) == "wrong_calls:arguments-bytes,id,name:lost_call"
    assert signature_of({**WRONG, "handover": "renamed"}) == "wrong_calls:arguments-bytes,id,name"
    # two hand-overs of one blocked turn are two entries: a change is new
    before = entries_from_diff(_diff({"cases/a.json": {"litellm": merged}}))
    after = entries_from_diff(
        _diff({"cases/a.json": {"litellm": {**UNSAFE, "handover": "as_sent"}}})
    )
    new, known, fixed = compare(after, before)
    assert [e.signature for e in new] == ["unsafe_accept:as_sent"] and not known and not fixed


def test_a_format_1_baseline_is_still_read(tmp_path: Path) -> None:
    """Its signatures have no hand-over: each matches every current one that reduces to it."""
    path = tmp_path / "old.jsonl"
    rows = [
        '{"format": "toolstream-baseline/1"}',
        '{"case": "cases/a.json", "classification": "unsafe_accept", "client": "litellm",'
        ' "signature": "unsafe_accept", "transport": "plain"}',
        '{"case": "cases/b.json", "classification": "wrong_calls", "client": "litellm",'
        ' "signature": "wrong_calls:count", "transport": "plain"}',
    ]
    path.write_text("\n".join(rows) + "\n")
    baseline = read_baseline(path)
    assert all(e.legacy for e in baseline)
    now = _diff(
        {
            "cases/a.json": {"litellm": {**UNSAFE, "handover": "glued_ids+merged"}},
            "cases/b.json": {
                "litellm": {
                    "classification": "wrong_calls",
                    "handover": "lost_call",
                    "differences": [{"field": "count", "kind": "count", "call": None}],
                }
            },
            "cases/c.json": {"litellm": {**UNSAFE, "handover": "as_sent"}},
        }
    )
    new, known, fixed = compare(entries_from_diff(now), baseline)
    assert [e.case for e in known] == ["cases/a.json", "cases/b.json"]
    assert [e.case for e in new] == ["cases/c.json"] and fixed == []
    # rewritten, it is format 2 with the current signatures
    write_baseline(path, entries_from_diff(now))
    assert path.read_text().splitlines()[0] == '{"format": "toolstream-baseline/2"}'
    assert not any(e.legacy for e in read_baseline(path))
