"""The hand-over: what an adapter handed over, compared with the calls the
wire carried, as a short stable shape (``toolstream.diff.handover``).

Every case is hand-built: a fixture whose reference verdict is asserted,
and an adapter result written for the part it shows.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.builders import chunk, tc
from tests.support.diff_fixtures import (
    ANT_ERROR,
    END,
    PARALLEL,
    REUSED_INDEX,
    TRUNCATED,
    TRUNCATED_PARSEABLE,
    TWICE,
    UNPARSEABLE,
    calls,
    oai,
)
from toolstream import validate
from toolstream.adapters import NO_INPUT, AdapterCall, AdapterResult
from toolstream.baseline import _STRUCTURAL
from toolstream.diff.classify import UNSAFE_ACCEPT, WRONG_CALLS, classify_result
from toolstream.diff.handover import PARTS, STRUCTURAL, sent_calls

ROOT = Path(__file__).resolve().parents[2]


def judged(fixture: dict[str, Any], *handed: AdapterCall) -> Any:
    answer = AdapterResult(calls=tuple(handed), rejected=False, invalid=())
    return classify_result(validate(fixture), answer, sent_calls(fixture))


def handed(*triples: tuple[Any, Any, Any]) -> tuple[AdapterCall, ...]:
    return calls(*triples)


PARIS = '{"city":"Paris"}'
ROME = '{"city":"Rome"}'


def test_sent_calls_keep_the_second_call_of_a_reused_index() -> None:
    """The reference stops at the collision; the wire carried two calls."""
    assert [c.id for c in validate(REUSED_INDEX).calls] == ["call_1"]
    sent = sent_calls(REUSED_INDEX)
    assert [(c.id, c.name, c.arguments) for c in sent] == [
        ("call_1", "weather", PARIS),
        ("call_2", "weather", ROME),
    ]


@pytest.mark.parametrize(
    ("fixture", "calls_handed", "signature"),
    [
        # one call, ids, names and arguments of the two sent calls glued
        (
            REUSED_INDEX,
            handed(("call_1call_2", "weatherweather", PARIS + ROME)),
            "unsafe_accept:glued_ids+merged",
        ),
        # one call holding both argument texts under the first id
        (
            REUSED_INDEX,
            handed(("call_1", "weather", PARIS + ROME)),
            "unsafe_accept:merged",
        ),
        # both sent calls, unchanged: the library passed through what is blocked
        (
            REUSED_INDEX,
            handed(("call_1", "weather", PARIS), ("call_2", "weather", ROME)),
            "unsafe_accept:as_sent",
        ),
        # the second sent call never handed over
        (REUSED_INDEX, handed(("call_1", "weather", PARIS)), "unsafe_accept:lost_call"),
        # the second sent call handed over first
        (
            REUSED_INDEX,
            handed(("call_2", "weather", ROME), ("call_1", "weather", PARIS)),
            "unsafe_accept:reordered",
        ),
        # a stream cut inside the arguments, handed over as it is
        (
            TRUNCATED,
            handed(("call_1", "weather", '{"city":"Par')),
            "unsafe_accept:truncated_arguments+unterminated",
        ),
        # a stream cut after complete arguments, before the finish reason
        (TRUNCATED_PARSEABLE, handed(("call_1", "weather", PARIS)), "unsafe_accept:unterminated"),
        # two documents in one argument text
        (TWICE, handed(("call_1", "weather", PARIS + PARIS)), "unsafe_accept:glued_arguments"),
        (
            UNPARSEABLE,
            handed(("call_1", "weather", '{"city":]')),
            "unsafe_accept:malformed_arguments",
        ),
        # a call the wire never carried
        (
            REUSED_INDEX,
            handed(
                ("call_1", "weather", PARIS),
                ("call_2", "weather", ROME),
                ("call_9", "weather", '{"city":"Oslo"}'),
            ),
            "unsafe_accept:extra_call",
        ),
    ],
)
def test_unsafe_accept_signature_says_what_was_handed_over(
    fixture: dict[str, Any], calls_handed: tuple[AdapterCall, ...], signature: str
) -> None:
    assert validate(fixture).status == "blocked"
    outcome = judged(fixture, *calls_handed)
    assert outcome.classification == UNSAFE_ACCEPT
    assert outcome.signature == signature
    handover = signature.split(":", 1)[1]
    assert outcome.handover == handover
    assert outcome.to_dict()["handover"] == handover
    assert f"({handover})" in outcome.detail


def test_a_parsed_value_made_of_a_cut_text_is_repaired() -> None:
    repaired = AdapterCall(id="call_1", name="weather", arguments=None, input={"city": "Par"})
    assert judged(TRUNCATED, repaired).signature == (
        "unsafe_accept:repaired_arguments+unterminated"
    )
    # a strict prefix of the sent text: the library cut it further
    cut = AdapterCall(id="call_1", name="weather", arguments='{"ci', input=NO_INPUT)
    assert judged(TRUNCATED, cut).handover == "truncated_arguments+unterminated"


def test_calls_handed_over_after_a_provider_error() -> None:
    assert "provider_error" in validate(ANT_ERROR).codes
    call = AdapterCall(id="toolu_1", name="weather", arguments=None, input={"city": "Paris"})
    outcome = judged(ANT_ERROR, call)
    assert outcome.signature == "unsafe_accept:after_error+unterminated"


SPLIT_ME = oai(chunk(tc(0, "call_1", "weather", '{"city":')), chunk(tc(0, args='"Paris"}')), END)


def test_one_sent_call_handed_over_as_two_is_split() -> None:
    assert validate(SPLIT_ME).status == "pass"
    outcome = judged(
        SPLIT_ME, *handed(("call_1", "weather", '{"city":'), ("call_1", None, '"Paris"}'))
    )
    assert outcome.classification == WRONG_CALLS
    assert outcome.handover == "split"
    # wrong calls keep their fields and add the structural parts
    assert outcome.signature == "wrong_calls:arguments-value,count:split"


def test_wrong_calls_without_structural_parts_keep_their_signature() -> None:
    outcome = judged(PARALLEL, *handed(("call_1", "weather", PARIS), ("call_2", "weather", "{}")))
    assert outcome.signature == "wrong_calls:arguments-value"
    assert outcome.handover == "altered_arguments"
    lost = judged(PARALLEL, *handed(("call_1", "weather", PARIS)))
    assert lost.signature == "wrong_calls:count:lost_call"
    renamed = judged(PARALLEL, *handed(("x", "other", PARIS), ("call_2", "weather", ROME)))
    assert renamed.handover == "altered_id+renamed"


def test_the_same_hand_over_gives_the_same_signature() -> None:
    glued = handed(("call_1call_2", "weatherweather", PARIS + ROME))
    assert judged(REUSED_INDEX, *glued).signature == judged(REUSED_INDEX, *glued).signature


def test_parts_are_the_documented_ones() -> None:
    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    table = text.split("**What was handed over.**", 1)[1].split("\n\n")[1]
    documented = set(re.findall(r"`([a-z_]+)`", "\n".join(table.splitlines()[2:])))
    assert documented == set(PARTS)
    assert set(STRUCTURAL) == set(_STRUCTURAL) <= set(PARTS)
