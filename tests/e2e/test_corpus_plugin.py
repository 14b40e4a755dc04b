"""The pytest plugin: a user's adapter test, parametrized over a corpus.

Runs pytest in a subprocess on a scratch project, loading the plugin with
``-p`` (as the ``pytest11`` entry point would) and nothing else: entry-point
autoloading is off, so an installed copy of the plugin cannot be registered
twice."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.corpus_cases import hand_corpus, pytest_in

USER_TEST = '''
import pytest
from toolstream.corpus.pytest_plugin import toolstream_cases


def reference_calls(fixture):
    """A user's "adapter": here, the reference validator itself."""
    import toolstream
    report = toolstream.validate(fixture)
    if report.status != "pass":
        return []
    return [(c.id, c.name, c.arguments) for c in report.client_calls()]


@pytest.mark.toolstream_cases("cases")
def test_marked(toolstream_case):
    toolstream_case.check_calls(reference_calls(toolstream_case.fixture))


@toolstream_cases("cases", root=__file__.rsplit("/", 1)[0])
def test_decorated(toolstream_case):
    toolstream_case.check_calls(reference_calls(toolstream_case.fixture))


@pytest.mark.toolstream_cases("cases")
def test_overeager(toolstream_case):
    """An adapter that hands over whatever the label lists, even for blocked turns."""
    calls = [("x", "y", "{}")] if toolstream_case.status == "blocked" else toolstream_case.calls
    toolstream_case.check_calls(calls)
'''


def test_plugin_parametrizes_over_the_corpus(tmp_path: Path) -> None:
    paths = hand_corpus(tmp_path / "cases")
    (tmp_path / "cases" / "hand").mkdir()
    (tmp_path / "cases" / "hand" / "broken.json").write_text("{")
    (tmp_path / "test_user.py").write_text(USER_TEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --strict-markers\n")
    ids = sorted(p.relative_to(tmp_path / "cases").as_posix()[:-5] for p in paths)
    blocked = {
        p.relative_to(tmp_path / "cases").as_posix()[:-5]
        for p in paths
        if '"status": "blocked"' in p.read_text()
    }

    ran = pytest_in(tmp_path, "-v", "-rfE", "test_user.py")
    outcomes: dict[str, dict[str, str]] = {}
    for line in ran.stdout.splitlines():
        match = re.match(r"test_user\.py::(\w+)\[(.+?)\] (PASSED|FAILED|ERROR)", line)
        if match:
            outcomes.setdefault(match[1], {})[match[2]] = match[3]
    assert ran.returncode == 1, ran.stdout + ran.stderr
    every = sorted([*ids, "hand/broken"])
    assert sorted(outcomes) == ["test_decorated", "test_marked", "test_overeager"]
    for test in outcomes:
        assert sorted(outcomes[test]) == every, test  # readable ids: operator/hash
    # the user's adapter agrees with every label
    assert {outcomes["test_marked"][i] for i in ids} == {"PASSED"}
    assert {outcomes["test_decorated"][i] for i in ids} == {"PASSED"}
    # an adapter that hands over calls for blocked turns fails exactly there
    assert {i for i in ids if outcomes["test_overeager"][i] == "FAILED"} == blocked
    assert "the reference blocks this turn" in ran.stdout
    # an unreadable case is never skipped: its fixture errors, or its first use fails
    assert outcomes["test_marked"]["hand/broken"] == "ERROR"
    assert outcomes["test_decorated"]["hand/broken"] == "FAILED"
    assert "cannot be used" in ran.stdout


CHECK_TEST = """
import pytest
import toolstream


def reference(fixture):
    report = toolstream.validate(fixture)
    if report.status != "pass":
        raise toolstream.Rejected(report.status)
    return [(c.id, c.name, c.arguments) for c in report.client_calls()]   # tuples


def overeager(fixture):
    report = toolstream.validate(fixture)
    for call in report.calls:                                             # a generator
        yield {"id": call.id, "name": call.name, "arguments": call.arguments}


def broken(fixture):
    return undefined_name


@pytest.mark.toolstream_cases("../corpus", profile="openai")
def test_reference(toolstream_case):
    toolstream_case.check(reference)


@pytest.mark.toolstream_cases("../corpus", profile=["openai"])
def test_overeager(toolstream_case):
    toolstream_case.check(overeager)


@pytest.mark.toolstream_cases("../corpus", profile="openai")
def test_broken(toolstream_case):
    toolstream_case.check(broken)
"""


def test_check_applies_the_diff_contract(tmp_path: Path) -> None:
    """``toolstream_case.check(adapter)``: tuples and generators accepted,
    ``toolstream.Rejected`` refuses, any other exception fails as a crash; a
    relative corpus path is resolved against the test file's folder (here
    ``tests/``, not the rootdir); ``profile=`` keeps that profile's cases."""
    paths = hand_corpus(tmp_path / "corpus")
    openai = sorted(
        p.relative_to(tmp_path / "corpus").as_posix()[:-5]
        for p in paths
        if '"profile": "openai"' in p.read_text()
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_check.py").write_text(CHECK_TEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --strict-markers\n")
    ran = pytest_in(tmp_path, "-v", "-rfE", "tests/test_check.py")
    outcomes: dict[str, dict[str, str]] = {}
    for line in ran.stdout.splitlines():
        match = re.match(r"tests/test_check\.py::(\w+)\[(.+?)\] (PASSED|FAILED|ERROR)", line)
        if match:
            outcomes.setdefault(match[1], {})[match[2]] = match[3]
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert sorted(outcomes["test_reference"]) == openai  # only the openai cases
    assert set(outcomes["test_reference"].values()) == {"PASSED"}
    assert "FAILED" in outcomes["test_overeager"].values()  # it hands over blocked calls
    assert "unsafe_accept: hands over" in ran.stdout
    assert set(outcomes["test_broken"].values()) == {"FAILED"}
    assert "adapter_crash: NameError raised inside test_check:broken" in ran.stdout


UNCHECKED_TEST = """
import pytest
import toolstream


def anthropic_only(fixture):
    return []


anthropic_only.toolstream_profiles = ("anthropic",)


@pytest.mark.toolstream_cases("corpus", profile="openai")
def test_adapter_of_another_profile(toolstream_case):
    toolstream_case.check(anthropic_only)     # not_run on every openai case: skipped


def test_unrelated():
    pass
"""


def test_a_session_that_checked_no_case_fails(tmp_path: Path) -> None:
    """Every corpus case skipped (the adapter takes no profile the cases
    have): the session fails with the sentence ``diff`` prints, although
    pytest itself counts only skips and a pass; the opt-out keeps exit 0."""
    from toolstream.cli import diff_cmd
    from toolstream.corpus.pytest_plugin import PROVES_NOTHING

    hand_corpus(tmp_path / "corpus")
    (tmp_path / "test_unchecked.py").write_text(UNCHECKED_TEST)
    ran = pytest_in(tmp_path, "-q", "-rs", "test_unchecked.py")
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert re.search(r"1 passed, \d+ skipped", ran.stdout), ran.stdout
    assert f"{PROVES_NOTHING}: no corpus case was checked" in ran.stdout
    # the words of diff's own verdict
    assert f'f"{PROVES_NOTHING}: ' in Path(diff_cmd.__file__).read_text("utf-8")

    allowed = pytest_in(tmp_path, "-q", "--toolstream-allow-unchecked", "test_unchecked.py")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    assert "--toolstream-allow-unchecked: not failed" in allowed.stdout


def test_a_session_that_checked_one_case_passes(tmp_path: Path) -> None:
    hand_corpus(tmp_path / "corpus")
    (tmp_path / "test_unchecked.py").write_text(
        UNCHECKED_TEST.replace('("anthropic",)', '("anthropic", "openai")').replace(
            "return []",
            "return [] if toolstream.validate(fixture).status != 'pass' else"
            " [(c.id, c.name, c.arguments) for c in toolstream.validate(fixture).client_calls()]",
        )
    )
    ran = pytest_in(tmp_path, "-q", "test_unchecked.py")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "proves nothing" not in ran.stdout
