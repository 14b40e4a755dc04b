"""``toolstream bisect``'s search, with a fake version -> signature oracle
(the real one builds environments: make client-versions runs it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolstream.corpus.bisect import BisectError, bisect_versions, versions_between

RELEASES = ["1.0.0", "1.1.0", "1.2.0rc1", "1.2.0", "1.10.0", "1.9.0", "2.0.0", "2.0.1", "3.0.0"]


def test_the_releases_between_are_final_ones_in_release_order() -> None:
    assert versions_between(RELEASES, "1.1.0", "2.0.1") == [
        "1.1.0",
        "1.2.0",
        "1.9.0",
        "1.10.0",
        "2.0.0",
        "2.0.1",
    ]
    # bisecting backwards: a regression's fix searched from the new end
    assert versions_between(RELEASES, "2.0.0", "1.9.0") == ["2.0.0", "1.10.0", "1.9.0"]


@pytest.mark.parametrize("change_at", range(1, 9))
def test_the_first_changed_version_is_found(change_at: int) -> None:
    versions = [f"1.{n}.0" for n in range(9)]
    asked: list[str] = []

    def oracle(version: str) -> str:
        asked.append(version)
        merged = versions.index(version) < change_at
        return "unsafe_accept:glued_ids+merged" if merged else "unsafe_accept:as_sent"

    result = bisect_versions(versions, oracle)
    assert result.first == versions[change_at]
    assert result.last_same == versions[change_at - 1]
    assert (result.before, result.after) == (
        "unsafe_accept:glued_ids+merged",
        "unsafe_accept:as_sent",
    )
    # each version judged once, about log2(n) of them, all reported
    assert len(asked) == len(set(asked)) <= 2 + 3
    assert list(result.tested) == [v for v in versions if v in asked]


def test_two_ends_with_the_same_outcome_have_nothing_to_bisect() -> None:
    with pytest.raises(BisectError, match="same outcome"):
        bisect_versions(["1.0.0", "1.1.0"], lambda version: "agree")
    with pytest.raises(BisectError, match="two different versions"):
        bisect_versions(["1.0.0"], lambda version: "agree")


def test_the_json_answer_follows_the_shipped_schema() -> None:
    import json
    from pathlib import Path

    import toolstream
    from toolstream import schema as schema_rules

    schema = json.loads((Path(toolstream.__file__).parent / "schemas" / "bisect.json").read_text())
    schema_rules.check_schema(schema)
    result = bisect_versions(["1.0.0", "1.1.0", "1.2.0"], lambda v: "agree" if v < "1.2" else "x")
    answer = {"bisect_version": 1, "changed": True, "client": "c", "package": "p"}
    answer.update(result.to_dict())
    assert schema_rules.first_violation(schema, answer) is None
    assert schema_rules.first_violation(schema, {**answer, "extra": 1}) is not None


# -- a real change, from environments already cached -----------------------------------

FIELD_CASE = (
    Path(__file__).resolve().parents[2]
    / "bench"
    / "field_bugs"
    / "fixtures"
    / "interleaved_parallel.json"
)
CACHED = ["1.60.0", "1.66.1", "1.66.2", "1.110.2"]
"""The litellm releases ``make field-bugs`` runs BerriAI/litellm#10034 on: the
two ends of the bisect docs/field-bugs.md records and the two releases it
found the change between."""


@pytest.mark.slow  # four litellm workers start: about 100 s on two shared cores
def test_a_real_change_is_found_among_cached_litellm_releases() -> None:
    """The search on the real oracle: litellm 1.66.1 hands the two interleaved
    calls over with the wrong arguments, 1.66.2 agrees.  Only environments
    already in the cache are used (``make field-bugs`` builds them; a test
    never reaches the package index), else the test skips saying so."""
    from toolstream.clients.registry import CLIENTS
    from toolstream.clients.versions import _DONE, _env_dir
    from toolstream.corpus.bisect import case_oracle

    client = CLIENTS["litellm-openai"]
    missing = [v for v in CACHED if not (_env_dir(client, v) / _DONE).is_file()]
    if missing:
        pytest.skip(
            f"no cached litellm environment for {', '.join(missing)}: `make field-bugs` builds them"
        )
    fixture = json.loads(FIELD_CASE.read_text(encoding="utf-8"))
    result = bisect_versions(CACHED, case_oracle(fixture, "litellm-openai"))
    assert (result.last_same, result.first) == ("1.66.1", "1.66.2")
    assert result.before.startswith("wrong_calls:")
    assert result.after == "agree"
    assert list(result.tested) == CACHED


# -- a JavaScript client, from npm folders already cached ------------------------------

LATE_NAME_CASE = FIELD_CASE.parent / "name_after_arguments.json"


def test_bisect_refuses_a_javascript_release_its_driver_does_not_take() -> None:
    from click.testing import CliRunner

    from toolstream.cli import cli

    older = CliRunner().invoke(
        cli,
        ["bisect", str(LATE_NAME_CASE), "--client", "ai-sdk-openai-compatible",
         "--good", "0.0.1", "--bad", "2.0.58"],
    )  # fmt: skip
    assert older.exit_code == 64
    assert "supports @ai-sdk/openai-compatible 0.0.2 and later, not 0.0.1" in older.output
    pinned_only = CliRunner().invoke(
        cli,
        ["bisect", str(LATE_NAME_CASE), "--client", "ai-sdk-openai-chat",
         "--good", "3.0.0", "--bad", "3.0.1"],
    )  # fmt: skip
    assert pinned_only.exit_code == 64 and "runs only at its pinned version" in pinned_only.output


def test_bisect_takes_a_javascript_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """vercel/ai#14722 between its two releases: 2.0.57 refuses a name that
    comes after the arguments, 2.0.58 reads it.  The registry's listing is
    stood in for (a test reaches only 127.0.0.1); the two releases are
    judged for real from their cached npm folders (``make version-env``),
    else the test skips saying so."""
    import shutil

    from click.testing import CliRunner

    from toolstream.cli import cli
    from toolstream.clients.node import NodeClient
    from toolstream.clients.registry import CLIENTS
    from toolstream.clients.versions import _DONE, _npm_env_dir
    from toolstream.corpus import bisect as bisect_module

    if shutil.which("node") is None:
        pytest.skip("node is not on PATH (the JavaScript clients need Node.js 20)")
    client = CLIENTS["ai-sdk-openai-compatible"]
    assert isinstance(client, NodeClient)
    missing = [v for v in ("2.0.57", "2.0.58") if not (_npm_env_dir(client, v) / _DONE).is_file()]
    if missing:
        pytest.skip(f"no npm folder for {', '.join(missing)}: `make version-env` builds them")
    asked: list[tuple[str, bool]] = []

    def listing(package: str, *, javascript: bool = False) -> list[str]:
        asked.append((package, javascript))
        return ["2.0.56", "2.0.57", "2.0.58", "2.0.59", "3.0.0-beta.1"]

    monkeypatch.setattr(bisect_module, "released_versions", listing)
    done = CliRunner().invoke(
        cli,
        ["bisect", str(LATE_NAME_CASE), "--client", "ai-sdk-openai-compatible",
         "--good", "2.0.57", "--bad", "2.0.58", "--format", "json"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert asked == [("@ai-sdk/openai-compatible", True)]
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert (answer["last_unchanged"], answer["first_changed"]) == ("2.0.57", "2.0.58")
    assert (answer["signature_before"], answer["signature_after"]) == ("false_reject", "agree")
