"""``toolstream diff`` over the real libraries: what each built-in adapter's
classification is on small hand-written fixtures (pinned for the versions in
docs/adapters.md), and that each runs over the shipped corpus.

Each test skips, with the reason, when its library is not installed.  No test
opens a socket (any attempt fails it).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.support.diff_fixtures import (
    ANT_ERROR,
    ANT_MAX_TOKENS,
    ANT_OUT_OF_ORDER,
    ANT_PARALLEL,
    ANT_REUSED_INDEX,
    ANT_TRUNCATED,
    ANT_WHITESPACE_FIRST,
    DICT_ARGUMENTS,
    GAP,
    INT_FRAGMENT,
    LENGTH,
    MISTRAL_FRAGMENTS,
    MISTRAL_WHOLE,
    NO_NAME_SECOND,
    NULL_TOOL_CALLS,
    PARALLEL,
    RESENT_ID,
    REUSED_INDEX,
    TEXT_ONLY,
    TRUNCATED,
    TRUNCATED_PARSEABLE,
    TWICE,
    UNPARSEABLE,
    needs,
    write_case,
)
from toolstream import validate
from toolstream.diff import (
    ADAPTER_CRASH,
    AGREE,
    CLASSIFICATIONS,
    FALSE_REJECT,
    NOT_RUN,
    UNSAFE_ACCEPT,
    WRONG_CALLS,
    diff_corpus,
    diff_fixture,
    load_corpus,
    resolve_adapters,
    run_cases,
)

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "corpus" / "cases"


MODULE = {
    "openai-python": "openai",
    "anthropic-python": "anthropic",
    "langchain-core": "langchain_core",
    "litellm": "litellm",
}


def outcome(fixture: dict[str, Any], adapter: str) -> Any:
    return diff_fixture(fixture, adapter)


def classes(adapter: str, table: dict[str, tuple[dict[str, Any], str]]) -> None:
    """Check a table name -> (fixture, expected classification or signature):
    a bare classification checks the classification only."""
    got = {}
    for name, (fixture, want) in table.items():
        result = outcome(fixture, adapter)
        got[name] = (result.signature if ":" in want else None) or result.classification
    expected = {name: want for name, (_, want) in table.items()}
    assert got == expected


def test_reference_verdicts_of_the_fixtures() -> None:
    """What the pins below lean on: the reference's own verdicts."""
    passing = [PARALLEL, RESENT_ID, NULL_TOOL_CALLS, MISTRAL_FRAGMENTS, MISTRAL_WHOLE]
    passing += [ANT_PARALLEL, ANT_WHITESPACE_FIRST, ANT_OUT_OF_ORDER]
    assert [validate(f).status for f in passing] == ["pass"] * len(passing)
    blocked = [REUSED_INDEX, TRUNCATED_PARSEABLE, TRUNCATED, TWICE, LENGTH, GAP]
    blocked += [DICT_ARGUMENTS, INT_FRAGMENT, UNPARSEABLE, NO_NAME_SECOND]
    blocked += [ANT_TRUNCATED, ANT_REUSED_INDEX, ANT_MAX_TOKENS, ANT_ERROR]
    assert [validate(f).status for f in blocked] == ["blocked"] * len(blocked)
    assert validate(REUSED_INDEX).codes == ["identity_collision"]
    assert validate(TRUNCATED_PARSEABLE).codes == ["missing_terminal"]
    assert validate(TEXT_ONLY).status == "not_applicable"


# -- openai-python ---------------------------------------------------------------------


def test_openai_python() -> None:
    needs("openai")
    classes(
        "openai-python",
        {
            "valid": (PARALLEL, AGREE),
            # merges a reused index into one call: ids, names, arguments concatenated
            "reuse_slot": (REUSED_INDEX, "unsafe_accept:glued_ids+merged"),
            # no finish reason: hands the calls over anyway
            "truncate_parseable": (TRUNCATED_PARSEABLE, "unsafe_accept:unterminated"),
            "truncate": (TRUNCATED, "unsafe_accept:truncated_arguments+unterminated"),
            "double_arguments": (TWICE, "unsafe_accept:glued_arguments"),
            "object_fragment (dict)": (DICT_ARGUMENTS, "unsafe_accept:extra_call"),
            "object_fragment (int)": (INT_FRAGMENT, "unsafe_accept:as_sent"),
            "corrupt_json": (UNPARSEABLE, "unsafe_accept:malformed_arguments"),
            "drop_name": (NO_NAME_SECOND, "unsafe_accept:as_sent"),
            # the documented refusal
            "wrong_finish (length)": (LENGTH, AGREE),
            # a resent id/name is concatenated
            "repeat_identity": (RESENT_ID, "wrong_calls:id,name"),
            "gap_index": (GAP, "adapter_crash:IndexError"),
            # Mistral's index-less calls
            "mistral whole call": (MISTRAL_WHOLE, "adapter_crash:TypeError"),
            "mistral fragments": (MISTRAL_FRAGMENTS, AGREE),
            "tool_calls null": (NULL_TOOL_CALLS, AGREE),
            "no tool call": (TEXT_ONLY, AGREE),
            "anthropic": (ANT_PARALLEL, NOT_RUN),
        },
    )
    merged = outcome(REUSED_INDEX, "openai-python")
    assert [(c.id, c.name, c.arguments) for c in merged.handed] == [
        ("call_1call_2", "weatherweather", '{"city":"Paris"}{"city":"Rome"}')
    ]
    crash = outcome(GAP, "openai-python")
    assert crash.in_library is True and "openai 3.57.0" in crash.detail


# -- anthropic-python ------------------------------------------------------------------


def test_anthropic_python() -> None:
    needs("anthropic")
    classes(
        "anthropic-python",
        {
            "valid": (ANT_PARALLEL, AGREE),
            # cut before content_block_stop: the partial parse is handed over
            "truncate_parseable": (ANT_TRUNCATED, "unsafe_accept:unterminated"),
            # a second block at index 0: both blocks handed over
            "reuse_slot": (ANT_REUSED_INDEX, "unsafe_accept:altered_arguments"),
            # max_tokens is not refused: {"city":"Par -> {}
            "wrong_finish": (ANT_MAX_TOKENS, "unsafe_accept:repaired_arguments"),
            # jiter cannot partially parse a whitespace-only buffer: refused
            "reencode (leading whitespace)": (ANT_WHITESPACE_FIRST, FALSE_REJECT),
            # deltas are routed by position in the content list, not by index
            "interleave (out of order)": (ANT_OUT_OF_ORDER, "adapter_crash:IndexError"),
            "provider_error": (ANT_ERROR, AGREE),
            "openai": (PARALLEL, NOT_RUN),
        },
    )
    assert [c.input for c in outcome(ANT_MAX_TOKENS, "anthropic-python").handed] == [{}]


# -- langchain-core --------------------------------------------------------------------


def test_langchain_core() -> None:
    needs("langchain_core")
    needs("openai")
    needs("anthropic")
    classes(
        "langchain-core",
        {
            "valid": (PARALLEL, AGREE),
            # a reused index with a new id is split into two executable calls
            "reuse_slot": (REUSED_INDEX, "unsafe_accept:as_sent"),
            # parse_partial_json closes unfinished JSON: truncated calls are healed
            "truncate_parseable": (TRUNCATED_PARSEABLE, "unsafe_accept:unterminated"),
            "truncate": (TRUNCATED, "unsafe_accept:repaired_arguments+unterminated"),
            "double_arguments": (TWICE, "unsafe_accept:repaired_arguments"),
            "wrong_finish (length)": (LENGTH, "unsafe_accept:as_sent"),
            "gap_index": (GAP, "unsafe_accept:as_sent"),
            # invalid_tool_calls: not handed over
            "corrupt_json": (UNPARSEABLE, AGREE),
            "object_fragment": (INT_FRAGMENT, "adapter_crash:ValidationError"),
            # a resent name is concatenated (the id is deduplicated)
            "repeat_identity": (RESENT_ID, "wrong_calls:name"),
            # Mistral fragments at index 0 get fresh ids: the head is executed as {}
            "mistral fragments": (MISTRAL_FRAGMENTS, "wrong_calls:arguments-value"),
            "mistral whole call": (MISTRAL_WHOLE, AGREE),
            "anthropic valid": (ANT_PARALLEL, AGREE),
            "anthropic truncated": (ANT_TRUNCATED, "unsafe_accept:unterminated"),
            "anthropic out of order": (ANT_OUT_OF_ORDER, "wrong_calls:order"),
            "anthropic leading whitespace": (ANT_WHITESPACE_FIRST, AGREE),
        },
    )
    healed = outcome(TRUNCATED, "langchain-core")
    assert [c.input for c in healed.handed] == [{"city": "Par"}]


# -- litellm --------------------------------------------------------------------------


def test_litellm() -> None:
    needs("litellm", extra="litellm")
    classes(
        "litellm",
        {
            "valid": (PARALLEL, AGREE),
            # merges a reused index: last id wins, arguments concatenated
            "reuse_slot": (REUSED_INDEX, UNSAFE_ACCEPT),
            "truncate_parseable": (TRUNCATED_PARSEABLE, UNSAFE_ACCEPT),
            "wrong_finish (length)": (LENGTH, UNSAFE_ACCEPT),
            # dict arguments are json.dumps-ed and handed over
            "object_fragment (dict)": (DICT_ARGUMENTS, UNSAFE_ACCEPT),
            "object_fragment (int)": (INT_FRAGMENT, "adapter_crash:ValidationError"),
            # the call without a name is dropped silently, the other executed
            "drop_name": (NO_NAME_SECOND, UNSAFE_ACCEPT),
            # a resent id/name: last non-empty wins -- correct
            "repeat_identity": (RESENT_ID, AGREE),
            "mistral whole call": (MISTRAL_WHOLE, AGREE),
            "mistral fragments": (MISTRAL_FRAGMENTS, AGREE),
            "anthropic": (ANT_PARALLEL, NOT_RUN),
        },
    )
    merged = outcome(REUSED_INDEX, "litellm")
    assert [(c.id, c.arguments) for c in merged.handed] == [
        ("call_2", '{"city":"Paris"}{"city":"Rome"}')
    ]
    dropped = outcome(NO_NAME_SECOND, "litellm")
    assert [c.id for c in dropped.handed] == ["call_1"]


# -- over the shipped corpus -----------------------------------------------------------


def one_case_per_folder() -> list[Path]:
    picked = []
    for folder in sorted(p for p in SHIPPED.iterdir() if p.is_dir()):
        files = sorted(folder.glob("*.json"))
        if files:
            picked.append(files[0])
    return picked


@pytest.mark.parametrize("adapter", sorted(MODULE))
def test_each_adapter_runs_over_a_sample_of_the_shipped_corpus(adapter: str) -> None:
    needs(MODULE[adapter], extra="litellm" if adapter == "litellm" else "adapters")
    if not SHIPPED.is_dir():
        pytest.skip("no shipped corpus (corpus/cases)")
    sample = one_case_per_folder()
    result = diff_corpus(sample, [adapter])
    assert [a.name for a in result.ran] == [adapter]
    assert len(result.cases) == len(sample)
    counts = result.counts(adapter)
    assert sum(counts.values()) == len(sample)
    assert counts[NOT_RUN] < len(sample)


@pytest.mark.slow
def test_every_built_in_adapter_runs_over_the_whole_shipped_corpus() -> None:
    for module in MODULE.values():
        needs(module, extra="litellm" if module == "litellm" else "adapters")
    cases, unreadable = load_corpus([SHIPPED])
    assert not unreadable
    loaded = resolve_adapters(list(MODULE))
    assert all(a.adapter is not None for a in loaded)
    results = run_cases(cases, loaded)
    for name in MODULE:
        tally = Counter(r.outcomes[name].classification for r in results)
        assert sum(tally.values()) == len(cases)
        assert set(tally) <= set(CLASSIFICATIONS)
        assert tally[UNSAFE_ACCEPT] > 0, name  # every library executes some blocked turn
    assert {WRONG_CALLS, FALSE_REJECT, ADAPTER_CRASH} <= {
        o.classification for r in results for o in r.outcomes.values()
    }


# -- a corpus generated from the seeds ----------------------------------------------


SEEDS = {
    "openai-python": "openai-parallel.json",
    "anthropic-python": "anthropic-text-and-tools.json",
    "langchain-core": "openai-parallel.json",
    "litellm": "openai-parallel.json",
}


@pytest.mark.parametrize("adapter", sorted(MODULE))
def test_generated_reuse_slot_and_truncate_parseable_are_unsafe(
    adapter: str, tmp_path: Path
) -> None:
    """Mutants of a seed (drawn by the generator, written as corpus cases)
    through ``diff_corpus``: every built-in adapter merges or splits a reused
    index and accepts truncated-but-parseable arguments somewhere."""
    needs(MODULE[adapter], extra="litellm" if adapter == "litellm" else "adapters")
    generators = pytest.importorskip(
        "toolstream_generators", reason="the generator is not importable"
    )
    seed = json.loads((ROOT / "corpus" / "seeds" / SEEDS[adapter]).read_text(encoding="utf-8"))
    seed.pop("meta", None)
    for operator in ("reuse_slot", "truncate_parseable"):
        for position, mutant in enumerate(
            generators.sample(seed, count=4, seed=0, operators=[operator])
        ):
            write_case(tmp_path / operator, f"m{position}", mutant.fixture, list(mutant.operators))
    result = diff_corpus([tmp_path], [adapter])
    for operator in ("reuse_slot", "truncate_parseable"):
        counts = result.counts(adapter, operator)
        assert counts[UNSAFE_ACCEPT] >= 1, (operator, counts)
