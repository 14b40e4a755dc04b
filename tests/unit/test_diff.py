"""``toolstream.diff``: classification, corpus reading, results, the shrink
predicate -- everything that needs no adapter library (scripted adapters
and user callables stand in for the libraries)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.diff_fixtures import (
    DICT_ARGUMENTS,
    PARALLEL,
    REUSED_INDEX,
    TEXT_ONLY,
    TRUNCATED,
    ScriptedAdapter,
    calls,
    write_case,
)
from toolstream import validate
from toolstream.adapters import NO_INPUT, AdapterCall, AdapterResult
from toolstream.adapters.base import LIBRARY_NOTE_PREFIX
from toolstream.diff import (
    ADAPTER_CRASH,
    AGREE,
    CLASSIFICATIONS,
    FALSE_REJECT,
    NO_OPERATOR,
    NOT_RUN,
    UNSAFE_ACCEPT,
    WRONG_CALLS,
    CorpusError,
    DiffResult,
    case_from_fixture,
    classify_crash,
    classify_result,
    diff_corpus,
    diff_fixture,
    disagreement,
    disagreement_predicate,
    load_corpus,
    operator_of,
    still_disagrees,
)
from toolstream.diff.classify import same_value

ROOT = Path(__file__).resolve().parents[2]
GOOD = [("call_1", "weather", '{"city":"Paris"}'), ("call_2", "weather", '{"city":"Rome"}')]


def result(*triples: tuple[Any, Any, Any], **kwargs: Any) -> AdapterResult:
    return AdapterResult(calls=calls(*triples), rejected=False, invalid=(), **kwargs)


def judge(fixture: dict[str, Any], answer: AdapterResult) -> Any:
    return classify_result(validate(fixture), answer)


# -- classification: the reference passes -------------------------------------------


def test_same_calls_agree() -> None:
    outcome = judge(PARALLEL, result(*GOOD))
    assert outcome.classification == AGREE
    assert outcome.signature is None and not outcome.disagrees


def test_rejecting_a_passing_turn_is_a_false_reject() -> None:
    outcome = judge(PARALLEL, AdapterResult.rejection("LengthFinishReasonError"))
    assert outcome.classification == FALSE_REJECT
    assert "LengthFinishReasonError" in outcome.detail


def test_flagging_a_call_invalid_is_a_false_reject() -> None:
    flagged = AdapterResult(calls=calls(GOOD[0]), rejected=False, invalid=('{"id":"call_2"}',))
    assert judge(PARALLEL, flagged).classification == FALSE_REJECT
    # even when every reference call is also handed over
    extra = AdapterResult(calls=calls(*GOOD), rejected=False, invalid=('{"id":"x"}',))
    assert judge(PARALLEL, extra).classification == FALSE_REJECT


def test_wrong_calls_say_which_field_differs() -> None:
    outcome = judge(PARALLEL, result(("call_1call_1", "weather", GOOD[0][2]), GOOD[1]))
    assert outcome.classification == WRONG_CALLS
    assert [(d.field, d.call) for d in outcome.differences] == [("id", 0)]
    assert "call 0: id differs" in outcome.detail
    assert outcome.signature == "wrong_calls:id"

    renamed = judge(PARALLEL, result(GOOD[0], ("call_2", "weatherweather", GOOD[1][2])))
    assert renamed.signature == "wrong_calls:name"


def test_wrong_arguments_bytes_or_value() -> None:
    # same value, other bytes: "bytes"
    spaced = judge(PARALLEL, result(("call_1", "weather", '{"city": "Paris"}'), GOOD[1]))
    assert spaced.classification == WRONG_CALLS
    (difference,) = spaced.differences
    assert (difference.field, difference.kind) == ("arguments", "bytes")
    assert "byte for byte (same parsed value)" in spaced.detail
    # another value: "value"
    healed = judge(PARALLEL, result(("call_1", "weather", "{}"), GOOD[1]))
    assert healed.differences[0].kind == "value"
    assert healed.signature == "wrong_calls:arguments-value"
    # text that does not parse is a value difference too
    assert judge(PARALLEL, result(("call_1", "weather", '{"city":'), GOOD[1])).differences[
        0
    ].kind == ("value")


def test_parsed_input_is_compared_by_value() -> None:
    """An adapter that hands over a parsed value is judged on that value,
    whatever text it parsed."""
    parsed = AdapterResult(
        calls=(
            AdapterCall("call_1", "weather", None, {"city": "Paris"}),
            AdapterCall("call_2", "weather", '{"city" : "Rome"}', {"city": "Rome"}),
        ),
        rejected=False,
        invalid=(),
    )
    assert judge(PARALLEL, parsed).classification == AGREE
    wrong = AdapterResult(
        calls=(
            AdapterCall("call_1", "weather", None, {}),
            AdapterCall("call_2", "weather", None, {"city": "Rome"}),
        ),
        rejected=False,
        invalid=(),
    )
    outcome = judge(PARALLEL, wrong)
    assert outcome.classification == WRONG_CALLS
    assert outcome.differences[0].kind == "value"
    assert "by parsed value" in outcome.detail


def test_missing_extra_and_reordered_calls() -> None:
    dropped = judge(PARALLEL, result(GOOD[0]))
    assert dropped.classification == WRONG_CALLS
    assert dropped.differences[0].field == "count"
    assert "1 call(s) handed over, reference has 2" in dropped.detail

    reordered = judge(PARALLEL, result(GOOD[1], GOOD[0]))
    assert reordered.classification == WRONG_CALLS
    assert [d.field for d in reordered.differences] == ["order"]
    assert reordered.signature == "wrong_calls:order"


def test_handing_over_a_correct_part_and_flagging_the_rest_is_a_false_reject() -> None:
    part = AdapterResult(calls=calls(GOOD[1]), rejected=False, invalid=('{"id":"call_1"}',))
    assert judge(PARALLEL, part).classification == FALSE_REJECT
    # but a *wrong* handed-over call outweighs the flag
    wrong = AdapterResult(
        calls=calls(("call_1", "weather", "{}")), rejected=False, invalid=('{"id":"call_2"}',)
    )
    assert judge(PARALLEL, wrong).classification == WRONG_CALLS


# -- classification: the reference blocks / finds nothing to do -------------------


def test_handing_over_a_call_of_a_blocked_turn_is_unsafe() -> None:
    assert validate(REUSED_INDEX).status == "blocked"
    outcome = judge(REUSED_INDEX, result(("call_1call_2", "weatherweather", "{}")))
    assert outcome.classification == UNSAFE_ACCEPT
    assert "identity_collision" in outcome.detail
    assert outcome.signature == f"{UNSAFE_ACCEPT}:{outcome.handover}"


@pytest.mark.parametrize(
    "answer",
    [
        AdapterResult.rejection("refused"),
        AdapterResult(calls=(), rejected=False, invalid=()),
        AdapterResult(calls=(), rejected=False, invalid=('{"id":"call_1"}',)),
        # calls on a rejected result are not handed over
        AdapterResult(calls=calls(GOOD[0]), rejected=True, invalid=()),
    ],
)
def test_handing_over_nothing_of_a_blocked_turn_agrees(answer: AdapterResult) -> None:
    assert judge(TRUNCATED, answer).classification == AGREE


def test_not_applicable_turns() -> None:
    """not_applicable: nothing to execute.  Handing over a call is unsafe."""
    assert validate(TEXT_ONLY).status == "not_applicable"
    assert judge(TEXT_ONLY, result()).classification == AGREE
    assert judge(TEXT_ONLY, result(GOOD[0])).classification == UNSAFE_ACCEPT


# -- crashes, not_run ------------------------------------------------------------------


def test_crash_in_the_library_or_in_the_shim() -> None:
    if sys.version_info < (3, 11):
        pytest.skip("exception notes (add_note) are Python 3.11+")
    error = TypeError("index value is not an integer; None")
    error.add_note(LIBRARY_NOTE_PREFIX + "openai 3.57.0 ChatCompletionStream")
    outcome = classify_crash(error)
    assert outcome.classification == ADAPTER_CRASH
    assert outcome.in_library is True
    assert outcome.detail.startswith("TypeError raised inside openai 3.57.0")
    assert outcome.signature == "adapter_crash:TypeError"

    shim = classify_crash(KeyError("x"))
    assert shim.in_library is False and "in the adapter shim" in shim.detail


def test_crash_details_are_deterministic() -> None:
    outcome = classify_crash(ValueError("bad <object at 0x7f3a2b1c4d50>\nsecond line"))
    assert "0x7f3a" not in outcome.detail and "\n" not in outcome.detail


def test_scripted_adapter_outcomes() -> None:
    assert diff_fixture(PARALLEL, ScriptedAdapter(result(*GOOD))).classification == AGREE
    crash = diff_fixture(PARALLEL, ScriptedAdapter(RuntimeError("boom")))
    assert crash.classification == ADAPTER_CRASH and crash.error == "RuntimeError: boom"
    # the profile the adapter does not take
    anthropic = {"profile": "anthropic", "tool_schemas": {}, "events": []}
    assert diff_fixture(anthropic, ScriptedAdapter(result())).classification == NOT_RUN


def test_adapters_get_a_private_copy() -> None:
    class Mutating(ScriptedAdapter):
        def run(self, fixture: Any) -> AdapterResult:
            fixture["chunks"].clear()
            return result(*GOOD)

    fixture = json.loads(json.dumps(PARALLEL))
    assert diff_fixture(fixture, Mutating(result())).classification == AGREE
    assert fixture == PARALLEL


def test_same_value() -> None:
    assert same_value({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert same_value({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert not same_value(True, 1)
    assert not same_value("1", 1)
    assert not same_value([1], [1, 2])
    assert not same_value(None, NO_INPUT)


# -- the shrink predicate ---------------------------------------------------------------


def test_still_disagrees_keeps_the_same_way() -> None:
    concatenating = ScriptedAdapter(result(("call_1call_2", "weatherweather", "{}")))
    assert disagreement(REUSED_INDEX, concatenating) == f"{UNSAFE_ACCEPT}:glued_ids+merged"
    assert still_disagrees(REUSED_INDEX, concatenating)
    assert still_disagrees(REUSED_INDEX, concatenating, like=UNSAFE_ACCEPT)
    assert not still_disagrees(REUSED_INDEX, concatenating, like="wrong_calls:id")
    # on a valid turn the same answer is a wrong call, not the same disagreement
    assert disagreement(PARALLEL, concatenating) == (
        "wrong_calls:arguments-value,count,id,name:glued_ids+merged"
    )
    assert not still_disagrees(PARALLEL, concatenating, like=UNSAFE_ACCEPT)
    agreeing = ScriptedAdapter(result(*GOOD))
    assert not still_disagrees(PARALLEL, agreeing)


def test_disagreement_predicate_pins_the_original() -> None:
    crashing = ScriptedAdapter(IndexError("list index out of range"))
    predicate = disagreement_predicate(PARALLEL, crashing)
    assert predicate(TRUNCATED)  # crashes the same way on anything
    assert "adapter_crash:IndexError" in (predicate.__doc__ or "")
    with pytest.raises(ValueError, match="agrees"):
        disagreement_predicate(PARALLEL, ScriptedAdapter(result(*GOOD)))


def test_still_disagrees_by_registry_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolstream.adapters import registry

    class Naive(ScriptedAdapter):
        name = "naive-diff-test"

        def __init__(self) -> None:
            super().__init__(result(("call_1", "weather", '{"city":')))

    monkeypatch.setitem(registry.ADAPTERS, Naive.name, Naive)
    assert still_disagrees(TRUNCATED, Naive.name)
    assert disagreement(PARALLEL, Naive.name) is not None


# -- reading a corpus --------------------------------------------------------------


def test_operator_of() -> None:
    assert operator_of({}) == NO_OPERATOR
    assert operator_of({"meta": "x"}, "folder") == NO_OPERATOR
    assert operator_of({"meta": {}}, "folder") == "folder"
    assert operator_of({"meta": {}}) == NO_OPERATOR
    # last breaking operator; preserving ones (refragment, insert_noise) skipped
    meta = {"operators": ["refragment", "truncate", "reuse_slot", "insert_noise"]}
    assert operator_of({"meta": meta}, "elsewhere") == "reuse_slot"
    # only preserving operators: the last one
    assert operator_of({"meta": {"operators": ["refragment", "insert_noise"]}}) == "insert_noise"
    # a name the generator does not know counts as breaking
    assert operator_of({"meta": {"operators": ["truncate", "my_own"]}}) == "my_own"


def test_load_corpus_reads_every_json_below(tmp_path: Path) -> None:
    write_case(tmp_path / "reuse_slot", "a", REUSED_INDEX, ["refragment", "reuse_slot"])
    write_case(tmp_path / "mine", "b", PARALLEL)
    write_case(tmp_path / "mine" / "deeper", "c", PARALLEL, [])
    (tmp_path / "MANIFEST.jsonl").write_text('{"case":"x.json"}\n')
    (tmp_path / ".hidden.json").write_text("{}")
    (tmp_path / "broken.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[]")
    cases, unreadable = load_corpus([tmp_path])
    found = {Path(c.path).relative_to(tmp_path).as_posix(): c.operator for c in cases}
    assert found == {
        "reuse_slot/a.json": "reuse_slot",
        "mine/b.json": NO_OPERATOR,  # no meta
        "mine/deeper/c.json": "deeper",  # meta without operators: the folder
    }
    assert sorted(Path(u.path).name for u in unreadable) == ["broken.json", "list.json"]
    assert all("expect" not in c.fixture and "meta" not in c.fixture for c in cases)


def test_load_corpus_errors(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="no such file"):
        load_corpus([tmp_path / "absent"])
    with pytest.raises(CorpusError, match="no case"):
        load_corpus([tmp_path])


def test_seeds_are_read_as_cases() -> None:
    cases, unreadable = load_corpus([ROOT / "corpus" / "seeds"])
    assert len(cases) >= 3 and not unreadable
    assert {c.operator for c in cases} == {NO_OPERATOR}


# -- a whole run with user adapters ------------------------------------------------------


@pytest.fixture
def small_corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    write_case(folder / "refragment", "valid", PARALLEL, ["refragment"])
    write_case(folder / "reuse_slot", "reused", REUSED_INDEX, ["reuse_slot"])
    write_case(folder / "truncate", "cut", TRUNCATED, ["truncate"])
    write_case(folder / "object_fragment", "dict", DICT_ARGUMENTS, ["object_fragment"])
    write_case(folder / "text", "text", TEXT_ONLY, [])
    anthropic = {"profile": "anthropic", "tool_schemas": {}, "events": []}
    write_case(folder / "other", "anthropic", anthropic)
    return folder


def test_diff_corpus_with_a_user_callable(small_corpus: Path) -> None:
    spec = "tests.support.diff_fixtures:naive_accumulate"
    result = diff_corpus([small_corpus], [spec])
    assert [a.name for a in result.ran] == [spec]
    by_path = {Path(c.path).stem: c.outcomes[spec] for c in result.cases}
    assert by_path["valid"].classification == AGREE
    assert by_path["reused"].classification == UNSAFE_ACCEPT  # it merges a reused index
    assert by_path["cut"].classification == UNSAFE_ACCEPT  # it hands over truncated calls
    # dict arguments make the naive "+=" raise: a bug in the adapter, not a refusal
    assert by_path["dict"].classification == ADAPTER_CRASH and not by_path["dict"].rejected
    assert by_path["dict"].detail.startswith(f"TypeError raised inside {spec}:")
    assert by_path["text"].classification == AGREE
    # user adapters take every profile: an empty Anthropic stream gives no call
    assert by_path["anthropic"].classification == AGREE

    counts = result.counts(spec)
    assert set(counts) == set(CLASSIFICATIONS)
    assert counts[UNSAFE_ACCEPT] == 2 and counts[AGREE] == 3 and counts[ADAPTER_CRASH] == 1
    assert result.counts(spec, "reuse_slot")[UNSAFE_ACCEPT] == 1
    assert result.exit_code("unsafe") == 1
    assert result.exit_code("any") == 1
    assert result.exit_code("never") == 0


def test_refusing_callable_is_a_false_reject(small_corpus: Path) -> None:
    spec = "tests.support.diff_fixtures:cautious_accumulate"
    result = diff_corpus([small_corpus], [spec])
    assert result.counts(spec)[FALSE_REJECT] == 1  # the valid case
    assert result.proves_nothing() is None
    assert result.exit_code("unsafe") == 0
    assert result.exit_code("any") == 1


def test_refusing_every_case_for_one_reason_proves_nothing(small_corpus: Path) -> None:
    spec = "tests.support.diff_fixtures:refusing_accumulate"
    result = diff_corpus([small_corpus], [spec])
    assert result.counts(spec)[FALSE_REJECT] == 1 and result.found(UNSAFE_ACCEPT) == 0
    assert result.proves_nothing() == (
        f"adapter {spec!r} refused every one of its 6 case(s) for the same reason:"
        " Rejected: refused"
    )
    assert result.exit_code("unsafe") == result.exit_code("never") == 1


def test_examples_spread_over_operators(small_corpus: Path) -> None:
    spec = "tests.support.diff_fixtures:naive_accumulate"
    result = diff_corpus([small_corpus], [spec])
    examples = result.examples(per=3)
    assert [(e.classification, e.case.operator) for e in examples] == [
        (UNSAFE_ACCEPT, "reuse_slot"),
        (UNSAFE_ACCEPT, "truncate"),
        (ADAPTER_CRASH, "object_fragment"),
    ]
    assert result.examples(per=0) == []
    first = result.first(spec, "truncate", UNSAFE_ACCEPT)
    assert first is not None and first.path.endswith("truncate/cut.json")


def test_json_is_deterministic(small_corpus: Path) -> None:
    spec = "tests.support.diff_fixtures:naive_accumulate"
    one = diff_corpus([small_corpus], [spec]).to_json()
    two = diff_corpus([small_corpus], [spec]).to_json()
    assert one == two
    data = json.loads(one)
    assert data["format"] == "toolstream-diff/1"
    assert data["classifications"] == list(CLASSIFICATIONS)
    assert data["totals"][spec][UNSAFE_ACCEPT] == 2
    reused = next(c for c in data["cases"] if c["path"].endswith("reused.json"))
    assert reused["reference"] == {"status": "blocked", "codes": ["identity_collision"]}
    assert reused["results"][spec]["classification"] == UNSAFE_ACCEPT
    assert reused["results"][spec]["calls"][0]["name"] == "weather"


def test_in_memory_case() -> None:
    case = case_from_fixture({**PARALLEL, "meta": {"operators": ["refragment"]}})
    assert case.operator == "refragment" and "meta" not in case.fixture
    empty = DiffResult(corpus=[], adapters=[], cases=[])
    assert empty.operators() == [] and empty.proves_nothing() == "no case was read"
    assert empty.exit_code("never") == 1
    with pytest.raises(ValueError):
        empty.exit_code("sometimes")


def test_an_invented_id_where_the_wire_has_none_is_no_difference() -> None:
    from tests.support.builders_gemini_cohere_invoke import gem_call, gem_chunk, gem_finish, gemini
    from toolstream.adapters.base import GENERATED_ID, AdapterCall
    from toolstream.api import validate
    from toolstream.diff.classify import compare_calls

    def reference(**call: Any) -> Any:
        return validate(gemini([gem_chunk(gem_call(**call)), gem_finish()])).client_calls()

    args = '{"city":"Paris"}'
    made_up = AdapterCall(id=GENERATED_ID, name="weather", arguments=args)
    taken = AdapterCall(id="fc_1", name="weather", arguments=args)
    assert compare_calls([made_up], reference()) == ()
    assert [d.field for d in compare_calls([taken], reference())] == ["id"]
    assert [d.field for d in compare_calls([made_up], reference(id="fc_1"))] == ["id"]
