"""The shrinker: each predicate kind, and 1-minimality of the result."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.support.builders_gemini_cohere_invoke import (
    gem_call,
    gem_chunk,
    gem_finish,
    gem_more,
    gem_open,
    gemini,
    pa,
    streamed_city,
)
from tests.support.corpus_cases import (
    MissingLibraryAdapter,
    NaiveAdapter,
    planted_anthropic,
    planted_mistral,
    planted_openai,
    seed,
    truncated_openai,
    verdict,
)
from toolstream.adapters import registry
from toolstream.api import validate_bytes
from toolstream.corpus import shrink as S


def assert_one_minimal(fixture: Any, predicate: S.Predicate) -> None:
    """No single reduction of the result still fails."""
    assert predicate(fixture, S.encode(fixture)), "the result no longer fails"
    still = [d for d, n in S.neighbours(fixture) if predicate(n, S.encode(n))]
    assert still == [], f"not 1-minimal; these reductions still fail: {still[:5]}"


@pytest.mark.parametrize(
    ("planted", "code"),
    [
        (planted_openai, "malformed_json"),
        (planted_anthropic, "wrong_terminal_reason"),
        (planted_mistral, "duplicate_key"),
    ],
    ids=["openai", "anthropic", "mistral"],
)
def test_expect_code_shrinks_to_a_one_minimal_case(planted: Any, code: str) -> None:
    fixture = planted()
    predicate = S.CodePresent(code)
    result = S.shrink(fixture, predicate)
    assert result.minimal
    assert S.measure(result.fixture).bytes < S.measure(fixture).bytes / 2
    assert code in validate_bytes(S.encode(result.fixture)).codes
    assert_one_minimal(result.fixture, predicate)


@pytest.mark.parametrize(
    ("planted", "seed_name"),
    [(planted_openai, "openai-parallel"), (planted_anthropic, "anthropic-text-and-tools")],
    ids=["openai", "anthropic"],
)
def test_default_predicate_keeps_the_same_disagreement(planted: Any, seed_name: str) -> None:
    fixture = planted()
    label = verdict(seed(seed_name))  # the label says pass; the validator blocks
    original = validate_bytes(S.encode(fixture))
    predicate = S.LabelDisagreement(label, original)
    result = S.shrink(fixture, predicate)
    after = validate_bytes(S.encode(result.fixture))
    assert (after.status, after.codes) == (original.status, original.codes)
    assert S.measure(result.fixture).items < S.measure(fixture).items
    assert_one_minimal(result.fixture, predicate)


def test_default_predicate_needs_a_disagreement() -> None:
    fixture = seed("openai-parallel")
    label = verdict(fixture)
    predicate = S.LabelDisagreement(label, validate_bytes(S.encode(fixture)))
    with pytest.raises(S.ShrinkError, match="does not reproduce"):
        S.shrink(fixture, predicate)
    with pytest.raises(S.ShrinkError, match="unusable"):
        S.LabelDisagreement({"status": "pass"}, validate_bytes(S.encode(fixture)))


def test_merges_fragments_and_shortens_strings() -> None:
    """A failure that needs only "Pau" in one argument fragment ends as one
    fragment holding exactly "Pau"."""

    class HasPau(S.Predicate):
        description = "an argument says Pau"

        def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:
            return "Pau" in json.dumps(fixture.get("chunks"))

    fixture = seed("openai-parallel")
    result = S.shrink(fixture, HasPau(), allow_verdict_change=True)
    entry = {"function": {"arguments": "Pau"}}
    # the envelope stays: the profile, and tool_schemas (no tool is called any more)
    assert result.fixture == {
        "profile": "openai",
        "tool_schemas": {},
        "chunks": [{"choices": [{"delta": {"tool_calls": [entry]}}]}],
    }
    assert_one_minimal(result.fixture, HasPau())


def test_the_verdict_class_is_kept_by_default() -> None:
    """The same predicate, the verdict kept: the smallest *passing* turn
    whose arguments say Pau, with the schema of the tool it calls."""

    class HasPau(S.Predicate):
        description = "an argument says Pau"

        def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:
            return "Pau" in json.dumps(fixture.get("chunks"))

    fixture = seed("openai-parallel")
    result = S.shrink(fixture, HasPau())
    assert result.predicate == "an argument says Pau, the reference still says pass"
    assert validate_bytes(S.encode(result.fixture)).status == "pass"
    assert result.fixture["tool_schemas"] == {"get_weather": fixture["tool_schemas"]["get_weather"]}
    (call,) = validate_bytes(S.encode(result.fixture)).client_calls()
    assert call.arguments == '{"city":"Pau"}'
    assert_one_minimal(result.fixture, S.VerdictKept(HasPau(), "pass"))


def test_the_budget_stops_early_and_says_so() -> None:
    result = S.shrink(planted_openai(), S.CodePresent("malformed_json"), max_tests=5)
    assert not result.minimal and result.tests == 5


SCRIPT = """\
import json, sys
fixture = json.load(open(sys.argv[1], encoding="utf-8"))
text = json.dumps(fixture)
# still failing (nonzero) while an argument fragment mentions "wool"
sys.exit(3 if "wool" in text and fixture.get("profile") == "mistral" else 0)
"""


def test_command_predicate(tmp_path: Path) -> None:
    script = tmp_path / "check.py"
    script.write_text(SCRIPT)
    predicate = S.CommandFails(f"{sys.executable} -I -S {script}")
    try:
        result = S.shrink(seed("mistral-whole-call"), predicate, allow_verdict_change=True)
    finally:
        predicate.close()
    assert result.minimal
    entry = {"function": {"arguments": "wool"}}
    assert result.fixture == {
        "profile": "mistral",
        "tool_schemas": {},
        "chunks": [{"choices": [{"delta": {"tool_calls": [entry]}}]}],
    }

    # its 1-minimality, checked with the same rule in-process
    class Same(S.Predicate):
        def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:
            return "wool" in json.dumps(fixture) and fixture.get("profile") == "mistral"

    assert_one_minimal(result.fixture, Same())


def test_command_predicate_placeholder_and_missing_program(tmp_path: Path) -> None:
    predicate = S.CommandFails("prog --in {} --flag")
    assert predicate.command_line() == ["prog", "--in", predicate.path, "--flag"]
    predicate.close()
    missing = S.CommandFails(str(tmp_path / "no-such-program"))
    with pytest.raises(S.ShrinkError) as info:
        missing({}, b"{}")
    assert info.value.usage
    missing.close()


# -- --adapter: a fake adapter registered in the registry for the test --------


@pytest.fixture
def fake_adapters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.ADAPTERS, NaiveAdapter.name, NaiveAdapter)
    monkeypatch.setitem(registry.ADAPTERS, MissingLibraryAdapter.name, MissingLibraryAdapter)


@pytest.mark.usefixtures("fake_adapters")
def test_adapter_predicate_shrinks_while_the_adapter_disagrees() -> None:
    fixture = truncated_openai()
    predicate = S.AdapterDisagreement(S.load_adapter(NaiveAdapter.name))
    # as toolstream diff says: it hands the calls over as they were sent
    assert predicate.start(S.encode(fixture)) == "unsafe_accept:as_sent"
    result = S.shrink(fixture, predicate)
    assert result.minimal
    assert S.measure(result.fixture).items < S.measure(fixture).items
    after = validate_bytes(S.encode(result.fixture))
    assert (after.status, after.codes) == ("blocked", ["wrong_terminal_reason"])
    assert NaiveAdapter().run(result.fixture).calls
    assert_one_minimal(result.fixture, predicate)


@pytest.mark.usefixtures("fake_adapters")
def test_adapter_predicate_refuses_what_cannot_run() -> None:
    agreeing = S.AdapterDisagreement(S.load_adapter(NaiveAdapter.name))
    assert agreeing.start(S.encode(seed("openai-parallel"))) is None
    with pytest.raises(S.ShrinkError, match="no_such_library_for_toolstream") as info:
        S.load_adapter(MissingLibraryAdapter.name)
    assert info.value.usage
    with pytest.raises(S.ShrinkError, match="unknown adapter") as info:
        S.load_adapter("no-such-adapter")
    assert info.value.usage


# -- the slot pieces of gemini, gemini-interactions, cohere, bedrock-invoke -----------


def _merged_each_way(fixture: dict[str, Any]) -> None:
    """Every pair the shrinker would merge keeps the verdict and the calls."""
    before = validate_bytes(S.encode(fixture))
    for first, second, drop in S.fragment_pairs(fixture):
        after = validate_bytes(S.encode(S.merge_pair(fixture, first, second, drop)))
        assert (after.status, after.codes) == (before.status, before.codes), second
        assert [c.arguments for c in after.calls] == [c.arguments for c in before.calls]


def test_gemini_merges_only_the_middle_pieces_of_a_continued_string() -> None:
    """The first entry of a string has nothing to join; the last one ends the
    string (and here the call): merging it would drop the end."""
    fixture = gemini([*streamed_city("S\u00e3o Paulo", cuts=(1, 3, 5, 7)), gem_finish()])
    assert validate_bytes(S.encode(fixture)).status == "pass"
    assert S.slots(fixture) == [(0, 0)]
    texts = [S.get_at(fixture, text) for _, text, _, _ in S._fragments(fixture)]
    assert texts == ["S", "\u00e3o", " P", "au", "lo"]
    merged_into = [S.get_at(fixture, second) for _, second, _ in S.fragment_pairs(fixture)]
    assert merged_into == ["\u00e3o", " P", "au"]
    _merged_each_way(fixture)


@pytest.mark.parametrize(
    "chunks",
    [
        # a continuation that brings the call's id: not only text
        [
            gem_chunk(gem_open()),
            gem_chunk(gem_more(pa("$.city", "Bo", more=True))),
            gem_chunk(gem_more(pa("$.city", "st", more=True), id="fc_1")),
            gem_chunk(gem_more(pa("$.city", "on"))),
        ],
        # two entries in one part: its text is not one string's piece
        [
            gem_chunk(gem_open()),
            gem_chunk(gem_more(pa("$.days", 3), pa("$.city", "Bo", more=True))),
            gem_chunk(gem_more(pa("$.city", "st", more=True))),
            gem_chunk(gem_more(pa("$.city", "on"))),
        ],
        # another path: the string before it was not continuing
        [
            gem_chunk(gem_open()),
            gem_chunk(gem_more(pa("$.city", "Boston"))),
            gem_chunk(gem_more(pa("$.unit", "c", more=True))),
            gem_chunk(gem_more(pa("$.unit", "elsius"))),
        ],
    ],
    ids=["id", "two-entries", "new-path"],
)
def test_gemini_pieces_with_more_than_a_string_piece_are_not_merged(chunks: list[Any]) -> None:
    fixture = gemini([*chunks, gem_finish()], schemas={"weather": {"type": "object"}})
    assert S.fragment_pairs(fixture) == []


def test_gemini_merging_keeps_a_broken_continuation_broken() -> None:
    fixture = gemini(
        [
            gem_chunk(gem_open()),
            gem_chunk(gem_more(pa("$.city", "Bo", more=True))),
            gem_chunk(gem_more(pa("$.city", "st", more=True))),
            gem_chunk(gem_more(pa("$.city", 3))),
            gem_finish(),
        ]
    )
    assert "broken_string_continuation" in validate_bytes(S.encode(fixture)).codes
    assert len(S.fragment_pairs(fixture)) == 1
    _merged_each_way(fixture)


def test_gemini_calls_are_numbered_per_candidate_and_dropped_whole() -> None:
    fixture = gemini(
        [
            gem_chunk(gem_call("weather", id="a")),
            gem_chunk(gem_call("clock", {}, id="b"), candidate=1),
            *streamed_city("Oslo", cuts=(2,)),
            gem_finish(),
        ]
    )
    assert S.slots(fixture) == [(0, 0), (1, 0), (0, 1)]
    dropped = S.drop_slot(fixture, (0, 1))
    assert [c["candidates"][0]["content"]["parts"] for c in dropped["chunks"]] == [
        [gem_call("weather", id="a")],
        [gem_call("clock", {}, id="b")],
        [{"text": ""}],
    ]


@pytest.mark.parametrize("profile", ["gemini-interactions", "cohere"])
def test_text_wires_merge_every_delta_and_keep_the_verdict(profile: str) -> None:
    fixture = seed(
        {"gemini-interactions": "gemini-interactions-output-and-two-calls",
         "cohere": "cohere-plan-and-two-calls"}[profile]
    )  # fmt: skip
    pairs = S.fragment_pairs(fixture)
    assert len(pairs) >= 2
    _merged_each_way(fixture)


def test_bedrock_invoke_frames_are_dropped_whole_never_edited() -> None:
    fixture = seed("bedrock-invoke-text-and-two-tools")
    pieces = S._pieces(fixture)
    assert pieces and all(len(path) == 2 and text is None and not plain
                          for _, path, text, plain in pieces)  # fmt: skip
    assert S.slots(fixture) == [0, 1, 2]
    assert S.argument_texts(fixture) == []  # nothing points into the base64


# -- real clients over HTTP ------------------------------------------------------------

CORPUS_CASES = Path(__file__).resolve().parents[2] / "corpus" / "cases"


def _diff_signature(path: Path, spec: str) -> str | None:
    """What ``toolstream diff --client`` says of a written case, run afresh."""
    from click.testing import CliRunner

    from toolstream.baseline import signature_of
    from toolstream.cli import cli

    client, _, transport = spec.partition("@")
    done = CliRunner().invoke(
        cli,
        ["diff", str(path), "--client", client, "--transport", transport or "plain",
         "--format", "json", "--fail-on", "never"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    (case,) = json.loads(done.output)["cases"]
    (result,) = case["results"].values()
    return signature_of(result)


@pytest.mark.parametrize(
    ("spec", "case", "signature"),
    [
        (
            "openai-chat-create@cut-close",
            "truncate/0885a13e7bd29ed6.json",
            "unsafe_accept:truncated_arguments+unterminated",
        ),
        ("openai-chat-create", "delay_identity/f6262d95f07ef569.json", "wrong_calls:id"),
        ("openai-node-chat-create", "reuse_slot/03cbf98674c2353c.json", "unsafe_accept:lost_call"),
    ],
)
def test_client_predicate_shrinks_while_the_client_disagrees(
    tmp_path: Path, spec: str, case: str, signature: str
) -> None:
    pytest.importorskip("openai")
    from toolstream.caseio import strip_case

    try:
        predicate = S.ClientDisagreement(S.load_client(spec, timeout=10.0))
    except S.ShrinkError as missing:  # node or the JavaScript clients absent
        pytest.skip(str(missing))

    fixture = strip_case(json.loads((CORPUS_CASES / case).read_text()))
    assert _diff_signature(CORPUS_CASES / case, spec) == signature
    assert predicate.start(S.encode(fixture)) == signature
    result = S.shrink(fixture, predicate)
    assert result.minimal
    assert S.measure(result.fixture).bytes < S.measure(fixture).bytes
    # the shrunk case still disagrees the same way, by a fresh diff run
    written = tmp_path / "min.json"
    written.write_text(json.dumps(result.fixture))
    assert _diff_signature(written, spec) == signature
    status = validate_bytes(S.encode(fixture)).status
    assert_one_minimal(result.fixture, S.VerdictKept(predicate, status))


def test_client_predicate_refuses_what_cannot_run() -> None:
    with pytest.raises(S.ShrinkError, match="unknown client 'no-such-client'") as info:
        S.load_client("no-such-client")
    assert info.value.usage


def test_shrink_cli_with_a_client_reports_sizes_and_runs(tmp_path: Path) -> None:
    pytest.importorskip("openai")
    from click.testing import CliRunner

    from toolstream.cli import cli

    out = tmp_path / "min.json"
    case = CORPUS_CASES / "truncate/0885a13e7bd29ed6.json"
    done = CliRunner().invoke(
        cli,
        ["shrink", str(case), "--client", "openai-chat-create@cut-close", "-o", str(out),
         "--format", "json"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    assert report["before"]["bytes"] > report["after"]["bytes"] and report["tests"] > 0
    assert report["minimal"] and "unsafe_accept" in report["predicate"]
    wrong = CliRunner().invoke(cli, ["shrink", str(case), "--client", "nope", "-o", str(out)])
    assert wrong.exit_code == 64 and "unknown client 'nope'" in wrong.output
    both = CliRunner().invoke(
        cli, ["shrink", str(case), "--client", "nope", "--adapter", "x", "-o", str(out)]
    )
    assert both.exit_code == 64 and "cannot be combined" in both.output
