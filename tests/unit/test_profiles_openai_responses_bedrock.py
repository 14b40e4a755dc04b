"""The openai-responses and bedrock profiles: the validator's done-when list
(a valid fragmented call passes exactly; re-splitting at every character
boundary keeps the verdict and the bytes; every applicable code is in the
catalogue) and the rules that needed fixing in the drafts.

Fixtures are hand-written with ``tests/support/builders.py``."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.support.builders import (
    bedrock,
    bedrock_tool,
    bedrock_turn,
    br_delta,
    br_message_start,
    br_message_stop,
    br_start,
    br_stop,
    br_text,
    fc_added,
    fc_args_done,
    fc_delta,
    fc_item_done,
    item_added,
    item_done,
    message_item,
    resp_created,
    resp_end,
    responses,
    responses_call,
    responses_turn,
)
from tests.support.catalogue import CATALOGUE
from tests.support.catalogue_gemini_cohere_invoke import GEMINI_COHERE_INVOKE_CODES
from toolstream import Code, Gate, validate

NEW_PROFILES = ("openai-responses", "bedrock")
NOT_APPLICABLE = {
    "openai-responses": {"ambiguous_choice", "conflicting_input", "terminal_without_calls"},
    "bedrock": {"ambiguous_choice", "conflicting_input", "empty_arguments", "arguments_mismatch"},
}


def calls_of(report: Any) -> list[tuple[Any, ...]]:
    return [(c.id, c.name, c.arguments) for c in report.client_calls()]


def resp_fixture(parts: tuple[str, ...], **kw: Any) -> dict[str, Any]:
    return responses(responses_turn(responses_call(parts=parts)), **kw)


def br_fixture(parts: tuple[str, ...], **kw: Any) -> dict[str, Any]:
    return bedrock(bedrock_turn(bedrock_tool(parts=parts)), **kw)


# -- done-when: a valid fragmented call, every code, every boundary ------------------


def test_responses_fragmented_call_passes_with_exact_call() -> None:
    report = validate(resp_fixture(('{"ci', 'ty": "Pa', 'ris"}')))
    assert report.status == "pass", report.to_json()
    assert report.executable
    assert calls_of(report) == [("call_1", "weather", '{"city": "Paris"}')]
    assert report.calls[0].input == {"city": "Paris"}


def test_bedrock_fragmented_call_passes_with_exact_call() -> None:
    report = validate(br_fixture(("", '{"ci', 'ty": "Pa', 'ris"}')))
    assert report.status == "pass", report.to_json()
    assert calls_of(report) == [("tooluse_1", "weather", '{"city": "Paris"}')]
    assert report.calls[0].input == {"city": "Paris"}


@pytest.mark.parametrize("profile", NEW_PROFILES)
def test_every_applicable_code_has_a_catalogue_entry(profile: str) -> None:
    covered = {e.code for e in CATALOGUE if e.profile == profile}
    assert covered == {c.value for c in Code} - NOT_APPLICABLE[profile] - GEMINI_COHERE_INVOKE_CODES


ARGUMENT_TEXTS = [
    '{"city": "Paris"}',
    '{"city":"S\\u00e3o \\"Paulo\\"\\n\\ud83d\\ude00 日本 😀"}',
    '{"city": "x\\\\y"}',
]


@pytest.mark.parametrize("text", ARGUMENT_TEXTS, ids=["ascii", "escapes", "backslash"])
def test_splitting_at_every_character_boundary_keeps_verdict(text: str) -> None:
    for build in (resp_fixture, br_fixture):
        whole = validate(build((text,)))
        assert whole.status == "pass", whole.to_json()
        for cut in range(len(text) + 1):
            report = validate(build((text[:cut], text[cut:])))
            assert report.status == "pass", (build.__name__, cut, report.to_json())
            assert report.client_calls()[0].arguments == text
        single = validate(build(tuple(text)))
        assert single.status == "pass"
        assert single.client_calls()[0].arguments == text


def test_split_inside_a_broken_text_keeps_the_block() -> None:
    text = '{"city": "Par'
    for cut in range(len(text) + 1):
        for build in (resp_fixture, br_fixture):
            assert validate(build((text[:cut], text[cut:]))).codes == ["malformed_json"]


@pytest.mark.parametrize("profile", NEW_PROFILES)
def test_gate_fed_event_by_event_agrees_with_validate(profile: str) -> None:
    fixture = (
        resp_fixture(('{"city"', ': "Oslo"}'))
        if profile != "bedrock"
        else br_fixture(('{"city"', ': "Oslo"}'))
    )
    gate = Gate(profile, fixture["tool_schemas"])
    for event in fixture["events"]:
        gate.feed(event)
    assert gate.close().to_json() == validate(copy.deepcopy(fixture)).to_json()


# -- openai-responses ---------------------------------------------------------------------


def test_responses_reasoning_and_message_items_are_blocks() -> None:
    events = responses_turn(
        [item_added(0, "reasoning", "rs_1"), item_done(0, "reasoning", "rs_1")],
        message_item(1),
        responses_call(2, "fc_1", "call_1"),
    )
    report = validate(responses(events))
    assert report.status == "pass", report.to_json()
    assert [(c.slot, c.kind) for c in report.calls] == [(2, "client")]


def test_responses_text_only_is_not_applicable() -> None:
    assert validate(responses(responses_turn(message_item(0)))).status == "not_applicable"


def test_responses_server_items_are_reported_never_executable() -> None:
    search = [item_added(0, "web_search_call", "ws_1"), item_done(0, "web_search_call", "ws_1")]
    alone = validate(responses(responses_turn(search, message_item(1))))
    assert alone.status == "not_applicable"
    assert [(c.kind, c.name, c.validated) for c in alone.calls] == [
        ("server", "web_search_call", False)
    ]
    with_call = validate(responses(responses_turn(search, responses_call(1))))
    assert with_call.status == "pass"
    assert [c.kind for c in with_call.calls if c.validated] == ["client"]


def test_responses_mismatch_is_one_finding() -> None:
    # Draft: the rejected restatement left the item "not restated", so its
    # output_item.done added missing_terminal to the same slot.
    report = validate(responses(responses_turn(responses_call(restated='{"city": "Rome"}'))))
    assert report.codes == ["arguments_mismatch"]
    assert report.findings[0].slot == 0


def test_responses_output_item_done_restatement_is_compared_too() -> None:
    call = responses_call()
    call[-1] = fc_item_done(arguments='{"city": "Rome"}')
    assert validate(responses(responses_turn(call))).codes == ["arguments_mismatch"]


def test_responses_closing_item_with_another_call_id_is_a_collision() -> None:
    # Draft: passed, executing call_1's arguments while the closing item says call_2.
    call = responses_call()
    call[-1] = fc_item_done(call_id="call_2")
    report = validate(responses(responses_turn(call)))
    assert report.codes == ["identity_collision"]
    assert not report.executable


def test_responses_second_item_done_is_duplicate_terminal() -> None:
    # Draft: delta_after_terminal (the second done's restatement was compared first).
    events = responses_turn([*responses_call(), fc_item_done()])
    assert validate(responses(events)).codes == ["duplicate_terminal"]


def test_responses_arguments_for_a_message_item_are_unsupported() -> None:
    # Draft: appended to the message block, later delta_after_terminal or nothing.
    events = responses_turn(
        [
            item_added(0, "message", "msg_1"),
            fc_delta("msg_1", "{}", 0),
            item_done(0, "message", "msg_1"),
        ],
        responses_call(1),
    )
    assert validate(responses(events)).codes == ["unsupported_event"]


def test_responses_boolean_output_index_is_not_an_index() -> None:
    events = responses_turn(
        [
            fc_added(1, "fc_1"),
            fc_delta("fc_1", '{"city": "Paris"}', True),
            fc_args_done("fc_1", '{"city": "Paris"}', 1),
            fc_item_done(1),
        ],
    )
    events.insert(1, item_added(0, "message", "msg_1"))
    events.insert(2, item_done(0, "message", "msg_1"))
    assert validate(responses(events)).codes == ["identity_collision"]


def test_responses_item_id_at_two_indices_is_a_collision() -> None:
    events = responses_turn(
        responses_call(0, "fc_1", "call_1"), responses_call(1, "fc_1", "call_2")
    )
    assert "identity_collision" in validate(responses(events)).codes


def test_responses_needs_response_completed() -> None:
    events = responses_turn(responses_call())[:-1]
    report = validate(responses(events))
    assert report.codes == ["missing_terminal"]
    assert report.findings[0].slot is None


@pytest.mark.parametrize(
    ("end", "status", "reason", "codes"),
    [
        ("response.incomplete", "incomplete", "max_output_tokens", ["wrong_terminal_reason"]),
        # failed is also the provider's error: provider_error first
        ("response.failed", "failed", None, ["provider_error", "wrong_terminal_reason"]),
    ],
)
def test_responses_unfinished_endings_are_wrong_terminal_reason(
    end: str, status: str, reason: str | None, codes: list[str]
) -> None:
    events = responses_turn(responses_call())
    events[-1] = resp_end(end, status)
    if reason:
        events[-1]["response"]["incomplete_details"] = {"reason": reason}
    report = validate(responses(events))
    assert report.codes == codes
    if reason:
        assert reason in report.findings[0].message


def test_responses_second_response_is_fatal() -> None:
    events = [*responses_turn(responses_call()), resp_created()]
    report = validate(responses(events))
    assert report.codes == ["unsupported_event"]
    assert "one fixture holds one response" in report.findings[0].message


def test_responses_custom_tool_input_deltas_add_nothing() -> None:
    events = responses_turn(
        [
            item_added(0, "custom_tool_call", "ctc_1"),
            {"type": "response.custom_tool_call_input.delta", "item_id": "ctc_1", "delta": "x"},
            item_done(0, "custom_tool_call", "ctc_1"),
        ]
    )
    assert validate(responses(events)).codes == ["unsupported_call_type"]


def test_responses_error_event_is_provider_error() -> None:
    call = responses_call()
    events = responses_turn(call[:2], [{"type": "error", "code": "x", "message": "boom"}], call[2:])
    report = validate(responses(events))
    assert report.codes == ["provider_error"]
    assert "boom" in report.findings[0].message


def test_responses_arguments_on_the_added_item_count() -> None:
    events = responses_turn(
        [
            fc_added(arguments='{"city": "Paris"}'),
            fc_args_done("fc_1", '{"city": "Paris"}'),
            fc_item_done(),
        ]
    )
    report = validate(responses(events))
    assert report.status == "pass"
    assert calls_of(report) == [("call_1", "weather", '{"city": "Paris"}')]


# -- bedrock ---------------------------------------------------------------------------------


def test_bedrock_text_block_without_start_then_call() -> None:
    events = bedrock_turn([br_text(0, "Let me check."), br_stop(0)], bedrock_tool(1))
    for event in events:  # padding fields are ignored
        (body,) = event.values()
        body["p"] = "abcdefghijklmnop"
    report = validate(bedrock(events))
    assert report.status == "pass", report.to_json()
    assert [(c.slot, c.kind) for c in report.calls] == [(1, "client")]


def test_bedrock_server_tool_is_never_executable() -> None:
    # Draft: a toolUse of type server_tool_use was a client call, executed
    # when the schemas named it.
    server = [br_start(0, "srv_1", "web_grounding", type_="server_tool_use")]
    server += [br_delta(0, '{"query": "x"}'), br_stop(0)]
    schemas = {"web_grounding": {"type": "object"}, "weather": {"type": "object"}}
    alone = validate(bedrock(bedrock_turn(server, reason="end_turn"), schemas=schemas))
    assert alone.status == "not_applicable"
    assert [(c.kind, c.validated) for c in alone.calls] == [("server", False)]
    mixed = validate(bedrock(bedrock_turn(server, bedrock_tool(1)), schemas=schemas))
    assert mixed.status == "pass"
    assert [(c.kind, c.name, c.validated) for c in mixed.calls] == [
        ("server", "web_grounding", False),
        ("client", "weather", True),
    ]


def test_bedrock_empty_and_tool_result_starts_open_blocks() -> None:
    # Draft: a contentBlockStart without toolUse was unsupported_event.
    empty = {"contentBlockStart": {"contentBlockIndex": 0, "start": {}}}
    start = {"toolResult": {"toolUseId": "srv_1"}}
    result = {"contentBlockStart": {"contentBlockIndex": 1, "start": start}}
    events = bedrock_turn(
        [empty, br_text(0, "Hi."), br_stop(0)], [result, br_stop(1)], bedrock_tool(2)
    )
    assert validate(bedrock(events)).status == "pass"
    unknown = {"contentBlockStart": {"contentBlockIndex": 0, "start": {"video": {}}}}
    codes = validate(bedrock(bedrock_turn([unknown, br_stop(0)], bedrock_tool(1)))).codes
    assert "unsupported_event" in codes


@pytest.mark.parametrize("parts", [("",), ()], ids=["one-empty-delta", "no-delta"])
def test_bedrock_tool_without_input_text_is_the_empty_object(parts: tuple[str, ...]) -> None:
    # Draft: empty_arguments.  Claude on Bedrock streams a no-argument call as
    # a single empty input; Converse's non-streaming answer is input {}.
    schemas = {"clock": {"type": "object", "properties": {}, "additionalProperties": False}}
    events = bedrock_turn([br_start(0, name="clock"), *(br_delta(0, p) for p in parts), br_stop(0)])
    report = validate(bedrock(events, schemas=schemas))
    assert report.status == "pass", report.to_json()
    assert calls_of(report) == [("tooluse_1", "clock", "{}")]
    strict = {"weather": {"type": "object", "required": ["city"]}}
    events = bedrock_turn([br_start(0), br_delta(0, ""), br_stop(0)])
    assert validate(bedrock(events, schemas=strict)).codes == ["schema_violation"]


def test_bedrock_message_start_needs_message_stop() -> None:
    events = [br_message_start(), *bedrock_tool()]
    assert validate(bedrock(events)).codes == ["missing_terminal"]
    assert validate(bedrock([*bedrock_tool(), br_message_stop()])).status == "pass"


def test_bedrock_text_delta_for_a_tool_block_is_unsupported() -> None:
    events = bedrock_turn(
        [br_start(0), br_text(0, "x"), br_delta(0, '{"city": "Paris"}'), br_stop(0)]
    )
    assert validate(bedrock(events)).codes == ["unsupported_event"]


def test_bedrock_stop_reason_must_be_a_string() -> None:
    events = bedrock_turn(bedrock_tool())
    events[-2] = br_message_stop(None)
    assert "unsupported_event" in validate(bedrock(events)).codes
