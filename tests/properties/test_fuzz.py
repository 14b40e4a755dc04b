"""Hostile input, at random: nothing crashes, nothing hangs, nothing becomes
executable by accident.

For arbitrary JSON values as the envelope, as chunks/events of every profile
in ``toolstream.profiles.PROFILES`` (shapeless and shaped like the
profile's wire format), as tool schemas and arguments, and for byte-level
mutations of the seed files:

* ``validate`` / ``validate_bytes`` / ``Gate`` return a report with a known
  status and never raise (any exception escaping them is a validator bug);
* the report serializes (``to_json``) and does not depend on how the input
  is fed (``validate_bytes`` gives the strict parser's report whether or
  not its ledger route is taken);
* the input is not mutated;
* an executable report passes :func:`independent_check`, written here without
  the validator's code: every client call's arguments parse with plain
  ``json.loads`` (no NaN/Infinity, no duplicate keys) to an object, ids are
  unique and non-empty, names are non-empty and have a schema.

The normal run is small (a few seconds).  ``TOOLSTREAM_LONG=1`` or ``-m slow``
runs the long variant; ``python bench/fuzz.py --minutes 5`` (``make fuzz``)
runs the same properties for a fixed time.
"""

from __future__ import annotations

import base64
import copy
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.builders import SCHEMAS
from toolstream import Gate, Report, validate, validate_bytes
from toolstream.api import _validate_proving_strict, _validate_strictly_parsed
from toolstream.envelope import check_envelope
from toolstream.findings import ProtocolError
from toolstream.limits import Limits
from toolstream.profiles import PROFILES

ROOT = Path(__file__).resolve().parents[2]
SEED_BYTES = {p.name: p.read_bytes() for p in sorted((ROOT / "corpus" / "seeds").glob("*.json"))}
STATUSES = frozenset({"pass", "blocked", "not_applicable"})

EXAMPLES = 60
"""Examples per property in the normal run."""
LONG_EXAMPLES = 5_000


def fuzz_settings(examples: int = EXAMPLES) -> settings:
    """The profile's settings (tests/conftest.py) with every health check off:
    the fuzz strategies draw hostile, oversized streams on purpose."""
    return settings(max_examples=examples, suppress_health_check=list(HealthCheck))


# -- the independent check -------------------------------------------------------------------


class _Duplicate(Exception):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Duplicate
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"non-finite constant {name}")


def _finite(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise ValueError(f"number {literal[:20]} overflows")
    return value


IDS_OPTIONAL = frozenset({"gemini"})
"""Profiles whose calls are identified by position when they carry no id."""


def independent_check(report: Report, fixture: Any) -> None:
    """What "executable" must imply, checked without the validator's code."""
    assert report.status in STATUSES
    assert report.executable == (report.status == "pass")
    if not report.executable:
        return
    assert report.findings == ()
    schemas = fixture["tool_schemas"]
    calls = report.client_calls()
    assert calls, "an executable turn with no client call"
    ids = [c.id for c in calls]
    if fixture.get("profile") in IDS_OPTIONAL:
        ids = [i for i in ids if i is not None]  # a Gemini call may have none
    assert all(isinstance(i, str) and i for i in ids), ids
    assert len(set(ids)) == len(ids), f"duplicate ids {ids}"
    for c in calls:
        assert isinstance(c.name, str) and c.name, c
        assert c.name in schemas, f"no schema for {c.name!r}"
        assert isinstance(c.arguments, str)
        value = json.loads(
            c.arguments,
            object_pairs_hook=_pairs,
            parse_constant=_no_constant,
            parse_float=_finite,
        )
        assert type(value) is dict, c.arguments[:80]
        assert c.validated and c.state == "validated"
        assert c.input == value
        c.arguments.encode("utf-8")  # no lone surrogates
    for c in report.calls:
        if c.kind != "client":
            assert not c.validated


def check_report(report: Any, fixture: Any) -> Report:
    assert isinstance(report, Report), type(report)
    assert report.status in STATUSES
    json.loads(report.to_json())
    independent_check(report, fixture)
    return report


def check_fixture(fixture: Any) -> Report:
    """validate() never raises; Gate agrees; the input is not mutated."""
    before = copy.deepcopy(fixture)
    report = check_report(validate(fixture), fixture)
    assert fixture == before or _has_nan(before), "validate() mutated its input"
    try:
        envelope = check_envelope(fixture)
    except ProtocolError:
        return report
    gate = Gate(envelope.profile, envelope.tool_schemas, envelope.request)
    for item in envelope.stream:
        gate.feed(item)
    assert gate.close().to_json() == report.to_json()
    return report


def check_bytes(data: bytes) -> Report:
    report = validate_bytes(data)
    assert isinstance(report, Report)
    assert report.status in STATUSES
    # The ledger route (bare parse, strictness proven afterwards), which
    # validate_bytes takes for large files, must give the strict parser's
    # report whenever it gives one.
    strict = _validate_strictly_parsed(data, None).to_json()
    assert report.to_json() == strict
    ledger = _validate_proving_strict(data, Limits())
    assert ledger is None or ledger.to_json() == strict
    json.loads(report.to_json())
    if report.executable:
        independent_check(report, json.loads(data))
    return report


def _has_nan(value: Any) -> bool:
    # NaN != NaN: a fixture holding one never compares equal to its copy
    return "nan" in repr(value).lower()


# -- strategies ------------------------------------------------------------------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def _maybe(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly a plausible value, sometimes anything at all."""
    return st.one_of(value, value, value, json_values)


indices = _maybe(st.sampled_from([0, 0, 0, 1, 1, 2, 3, -1, 2**63, 1_000_001, None, True, 1.0]))
idents = _maybe(st.sampled_from(["call_1", "call_2", "toolu_1", "", None]))
names = _maybe(st.sampled_from(["weather", "clock", "", "nope", None]))
fragments = _maybe(
    st.sampled_from(
        [
            '{"city":',
            ' "Paris"}',
            "{}",
            '{"city": "Rome"}',
            "",
            "}",
            '{"a":1,"a":2}',
            "NaN",
            '"\\ud800"',
            "[1]",
            '{"city":"P"}{"city":"Q"}',
        ]
    )
)
finish_reasons = _maybe(st.sampled_from(["tool_calls", "stop", "length", None, None]))


@st.composite
def chat_chunks(draw: st.DrawFn) -> Any:
    call = {
        k: v
        for k, v in {
            "index": draw(indices),
            "id": draw(idents),
            "type": draw(_maybe(st.sampled_from(["function", None]))),
            "function": draw(
                _maybe(st.fixed_dictionaries({}, optional={"name": names, "arguments": fragments}))
            ),
        }.items()
        if draw(st.integers(0, 4))  # drop a key now and then
    }
    delta = draw(
        _maybe(
            st.fixed_dictionaries(
                {},
                optional={
                    "tool_calls": _maybe(st.lists(st.just(call) | json_values, max_size=3)),
                    "content": _maybe(st.text(max_size=5)),
                    "function_call": json_values,
                },
            )
        )
    )
    choice = draw(
        _maybe(
            st.fixed_dictionaries(
                {"index": indices},
                optional={"delta": st.just(delta), "finish_reason": finish_reasons},
            )
        )
    )
    return draw(
        _maybe(
            st.fixed_dictionaries(
                {"choices": _maybe(st.lists(st.just(choice), max_size=2))},
                optional={"id": st.text(max_size=4), "error": json_values, "usage": json_values},
            )
        )
    )


anthropic_types = st.sampled_from(
    [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
        "error",
        "other",
    ]
)
block_types = _maybe(
    st.sampled_from(
        ["tool_use", "text", "server_tool_use", "thinking", "web_search_tool_result", "x"]
    )
)
delta_types = _maybe(st.sampled_from(["input_json_delta", "text_delta", "thinking_delta", "x"]))


@st.composite
def anthropic_events(draw: st.DrawFn) -> Any:
    return draw(
        _maybe(
            st.fixed_dictionaries(
                {"type": _maybe(anthropic_types)},
                optional={
                    "index": indices,
                    "content_block": _maybe(
                        st.fixed_dictionaries(
                            {"type": block_types},
                            optional={
                                "id": idents,
                                "name": names,
                                "input": _maybe(st.just({})),
                                "text": st.text(max_size=3),
                            },
                        )
                    ),
                    "delta": _maybe(
                        st.fixed_dictionaries(
                            {},
                            optional={
                                "type": delta_types,
                                "partial_json": fragments,
                                "text": st.text(max_size=3),
                                "stop_reason": _maybe(
                                    st.sampled_from(["tool_use", "end_turn", "max_tokens"])
                                ),
                            },
                        )
                    ),
                    "message": json_values,
                    "error": json_values,
                },
            )
        )
    )


@st.composite
def responses_events(draw: st.DrawFn) -> Any:
    kind = draw(
        _maybe(
            st.sampled_from(
                [
                    "response.created",
                    "response.output_item.added",
                    "response.output_item.done",
                    "response.function_call_arguments.delta",
                    "response.function_call_arguments.done",
                    "response.completed",
                    "response.incomplete",
                    "response.output_text.delta",
                    "error",
                ]
            )
        )
    )
    item = _maybe(
        st.fixed_dictionaries(
            {
                "type": _maybe(
                    st.sampled_from(
                        ["function_call", "message", "web_search_call", "custom_tool_call"]
                    )
                )
            },
            optional={
                "id": _maybe(st.sampled_from(["fc_1", "fc_2"])),
                "call_id": idents,
                "name": names,
                "arguments": fragments,
            },
        )
    )
    return draw(
        _maybe(
            st.fixed_dictionaries(
                {"type": st.just(kind)},
                optional={
                    "output_index": indices,
                    "item_id": _maybe(st.sampled_from(["fc_1", "fc_2"])),
                    "item": item,
                    "delta": fragments,
                    "arguments": fragments,
                },
            )
        )
    )


@st.composite
def bedrock_events(draw: st.DrawFn) -> Any:
    kind = draw(
        _maybe(
            st.sampled_from(
                [
                    "messageStart",
                    "contentBlockStart",
                    "contentBlockDelta",
                    "contentBlockStop",
                    "messageStop",
                    "metadata",
                    "throttlingException",
                    "x",
                ]
            )
        )
    )
    body = draw(
        _maybe(
            st.fixed_dictionaries(
                {},
                optional={
                    "contentBlockIndex": indices,
                    "start": _maybe(
                        st.fixed_dictionaries(
                            {
                                "toolUse": _maybe(
                                    st.fixed_dictionaries(
                                        {}, optional={"toolUseId": idents, "name": names}
                                    )
                                )
                            }
                        )
                    ),
                    "delta": _maybe(
                        st.one_of(
                            st.fixed_dictionaries(
                                {"toolUse": _maybe(st.fixed_dictionaries({"input": fragments}))}
                            ),
                            st.fixed_dictionaries({"text": st.text(max_size=3)}),
                        )
                    ),
                    "stopReason": _maybe(st.sampled_from(["tool_use", "end_turn"])),
                },
            )
        )
    )
    key = kind if isinstance(kind, str) else json.dumps(kind)  # object keys are strings
    return draw(_maybe(st.just({key: body})))


# -- gemini, gemini-interactions, cohere, bedrock-invoke ---------------------------------

json_paths = _maybe(
    st.sampled_from(["$.city", "$.city", "$.a", "$.a[0]", "$.a[1]", "$['a']", "$", "city", "$.a.b"])
)


@st.composite
def partial_entries(draw: st.DrawFn) -> Any:
    field = draw(st.sampled_from(["stringValue", "numberValue", "boolValue", "nullValue"]))
    value = {
        "stringValue": st.sampled_from(["Pa", "ris", "", "\ud800"]),
        "numberValue": st.sampled_from([1, 2.5, "NaN"]),
        "boolValue": st.booleans(),
        "nullValue": st.sampled_from([None, "NULL_VALUE"]),
    }[field]
    entry = {"jsonPath": draw(json_paths), field: draw(_maybe(value))}
    if draw(st.booleans()):
        entry["willContinue"] = draw(_maybe(st.booleans()))
    return draw(_maybe(st.just(entry)))


@st.composite
def gemini_chunks(draw: st.DrawFn) -> Any:
    call = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "name": names,
                "id": idents,
                "args": _maybe(st.sampled_from([{"city": "Paris"}, {}, {"city": 1}])),
                "partialArgs": _maybe(st.lists(partial_entries(), max_size=3)),
                "willContinue": _maybe(st.booleans()),
            },
        )
    )
    part = draw(
        _maybe(st.one_of(st.just({"functionCall": call}), st.just({"text": "hi", "thought": True})))
    )
    candidate = draw(
        st.fixed_dictionaries(
            {"content": _maybe(st.just({"role": "model", "parts": [part]}))},
            optional={
                "index": indices,
                "finishReason": _maybe(st.sampled_from(["STOP", "MAX_TOKENS"])),
            },
        )
    )
    return draw(_maybe(st.just({"candidates": [candidate]})))


@st.composite
def interactions_events(draw: st.DrawFn) -> Any:
    kind = draw(
        _maybe(
            st.sampled_from(
                [
                    "interaction.created",
                    "step.start",
                    "step.delta",
                    "step.stop",
                    "interaction.completed",
                    "interaction.status_update",
                    "error",
                ]
            )
        )
    )
    step = st.fixed_dictionaries(
        {"type": _maybe(st.sampled_from(["function_call", "thought", "google_search_call"]))},
        optional={"id": idents, "name": names, "arguments": _maybe(st.just({}))},
    )
    delta = st.fixed_dictionaries(
        {"type": _maybe(st.sampled_from(["arguments_delta", "text"]))},
        optional={"arguments": fragments, "text": st.text(max_size=3)},
    )
    status = _maybe(st.sampled_from(["requires_action", "completed", "failed"]))
    return draw(
        st.fixed_dictionaries(
            {"event_type": st.just(kind)},
            optional={
                "index": indices,
                "step": _maybe(step),
                "delta": _maybe(delta),
                "interaction": _maybe(st.fixed_dictionaries({"status": status})),
            },
        )
    )


@st.composite
def cohere_events(draw: st.DrawFn) -> Any:
    kind = draw(
        _maybe(
            st.sampled_from(
                [
                    "message-start",
                    "tool-call-start",
                    "tool-call-delta",
                    "tool-call-end",
                    "tool-plan-delta",
                    "message-end",
                    "content-delta",
                ]
            )
        )
    )
    call = st.fixed_dictionaries(
        {},
        optional={
            "id": idents,
            "type": _maybe(st.just("function")),
            "function": _maybe(
                st.fixed_dictionaries({}, optional={"name": names, "arguments": fragments})
            ),
        },
    )
    delta = st.fixed_dictionaries(
        {},
        optional={
            "message": _maybe(st.fixed_dictionaries({"tool_calls": _maybe(call)})),
            "finish_reason": _maybe(st.sampled_from(["TOOL_CALL", "COMPLETE", "ERROR"])),
        },
    )
    return draw(
        st.fixed_dictionaries(
            {"type": st.just(kind)}, optional={"index": indices, "delta": _maybe(delta)}
        )
    )


@st.composite
def bedrock_invoke_events(draw: st.DrawFn) -> Any:
    inner = draw(anthropic_events())
    data = base64.b64encode(json.dumps(inner).encode()).decode()
    if draw(st.integers(0, 9)) == 0:
        data = data[: draw(st.integers(0, len(data)))]
    kind = draw(_maybe(st.sampled_from(["chunk", "chunk", "chunk", "throttlingException"])))
    key = kind if isinstance(kind, str) else json.dumps(kind)
    return draw(_maybe(st.just({key: {"bytes": data}})))


SHAPED: dict[str, Callable[[], st.SearchStrategy[Any]]] = {
    "openai": chat_chunks,
    "mistral": chat_chunks,
    "anthropic": anthropic_events,
    "openai-responses": responses_events,
    "bedrock": bedrock_events,
    "gemini": gemini_chunks,
    "gemini-interactions": interactions_events,
    "cohere": cohere_events,
    "bedrock-invoke": bedrock_invoke_events,
}
requests = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {"tool_choice": _maybe(st.sampled_from(["auto", "required", "any", "none"]))}
    ),
    json_values,
)


def envelopes(profile: str, items: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    stream_key = PROFILES[profile].stream_key
    return st.builds(
        lambda stream, request: {
            "profile": profile,
            "tool_schemas": SCHEMAS,
            stream_key: stream,
            **({} if request is None else {"request": request}),
        },
        st.lists(items, max_size=8),
        requests,
    )


# Schemas built from the supported keywords, with plausible and arbitrary values.
_schema_leaf: st.SearchStrategy[Any] = st.one_of(st.just(True), st.just(False), st.just({}))


def _schema_node(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(
        {},
        optional={
            "type": _maybe(
                st.sampled_from(
                    ["object", "string", "integer", "number", "array", "boolean", "null"]
                )
                | st.lists(st.sampled_from(["string", "integer", "null"]), min_size=1, max_size=2)
            ),
            "enum": _maybe(st.lists(json_values, max_size=3)),
            "const": json_values,
            "minimum": _maybe(st.integers(-5, 5) | st.floats(allow_nan=False)),
            "maximum": _maybe(st.integers(-5, 5)),
            "exclusiveMinimum": _maybe(st.integers(-5, 5)),
            "multipleOf": _maybe(st.sampled_from([1, 2, 0.5, 0.01, 1e-300, 3])),
            "minLength": _maybe(st.integers(0, 3)),
            "maxLength": _maybe(st.integers(0, 3)),
            "pattern": _maybe(
                st.sampled_from(
                    [
                        "^a",
                        "^(a+)+$",
                        "[",
                        "\\d+x",
                        "(?=a)",
                        "a{2,1}",
                        "\\p{L}",
                        ".*",
                        "^[^]$",
                        "\\u{1F600}",
                    ]
                )
            ),
            "minItems": _maybe(st.integers(0, 2)),
            "maxItems": _maybe(st.integers(0, 2)),
            "items": inner,
            "required": _maybe(st.lists(st.sampled_from(["city", "a", "b"]), max_size=2)),
            "properties": _maybe(
                st.dictionaries(st.sampled_from(["city", "a", "b"]), inner, max_size=2)
            ),
            "additionalProperties": _maybe(st.booleans()),
            "anyOf": _maybe(st.lists(inner, min_size=1, max_size=2)),
            "$ref": _maybe(
                st.sampled_from(
                    [
                        "#",
                        "#/$defs/a",
                        "#/properties/city",
                        "#/$defs/missing",
                        "other.json",
                        "#/$defs/a%20b",
                    ]
                )
            ),
            "$defs": _maybe(st.fixed_dictionaries({"a": inner})),
            "description": json_values,
            "oneOf": st.lists(inner, max_size=1),
        },
    )


schemas = st.recursive(_schema_leaf, _schema_node, max_leaves=8)
argument_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(alphabet='ab1 \n"\\\u00e9\U0001f600', max_size=6),
    ),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["city", "a", "b"]), inner, max_size=3)
    ),
    max_leaves=10,
)


def _one_call(schema: Any, arguments: str) -> dict[str, Any]:
    return {
        "profile": "openai",
        "tool_schemas": {"t": schema},
        "chunks": [
            {
                "choices": [
                    {
                        "index": 0,
                        "delta": {
                            "tool_calls": [
                                {
                                    "index": 0,
                                    "id": "call_1",
                                    "type": "function",
                                    "function": {"name": "t", "arguments": arguments},
                                }
                            ]
                        },
                        "finish_reason": None,
                    }
                ]
            },
            {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
        ],
    }


@st.composite
def byte_mutants(draw: st.DrawFn) -> bytes:
    data = bytearray(SEED_BYTES[draw(st.sampled_from(sorted(SEED_BYTES)))])
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        op = draw(
            st.sampled_from(["flip", "set", "delete", "insert", "duplicate", "truncate", "swap"])
        )
        if op == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "set":
            data[at] = draw(st.sampled_from(b'{}[]",:\\0-9eE.+ ntfu\x00\x80\xff'))
        elif op == "delete":
            del data[at : at + draw(st.integers(1, 16))]
        elif op == "insert":
            data[at:at] = draw(
                st.binary(min_size=1, max_size=8)
                | st.sampled_from(
                    [
                        b"\\ud800",
                        b"NaN",
                        b"1e999",
                        b"\xef\xbb\xbf",
                        b'"a":1,',
                        b"[" * 300,
                        b"\xc3",
                        b"\\u0000",
                    ]
                )
            )
        elif op == "duplicate":
            end = min(len(data), at + draw(st.integers(1, 200)))
            data[at:at] = data[at:end]
        elif op == "truncate":
            del data[at:]
        else:
            other = draw(st.integers(0, len(data) - 1))
            data[at], data[other] = data[other], data[at]
    return bytes(data)


# -- properties ------------------------------------------------------------------------------
# Each property is a plain function of the drawn value, so bench/fuzz.py can
# run the same ones for a fixed time.


def prop_envelope(fixture: Any) -> None:
    check_fixture(fixture)


def prop_stream(fixture: dict[str, Any]) -> None:
    check_fixture(fixture)


def prop_schema(schema: Any, value: Any) -> None:
    check_fixture(_one_call(schema, json.dumps(value)))


def prop_bytes(data: bytes) -> None:
    check_bytes(data)


def any_profile_envelope() -> st.SearchStrategy[Any]:
    """A whole envelope: anything, or an object with the envelope's keys."""
    return st.one_of(
        json_values,
        st.fixed_dictionaries(
            {"profile": _maybe(st.sampled_from(sorted(PROFILES)))},
            optional={
                "tool_schemas": _maybe(st.just(SCHEMAS)),
                "chunks": st.lists(json_values, max_size=4),
                "events": st.lists(json_values, max_size=4),
                "request": json_values,
                "meta": json_values,
                "expect": json_values,
                "extra": json_values,
            },
        ),
    )


def stream_strategy(profile: str, shaped: bool) -> st.SearchStrategy[dict[str, Any]]:
    return envelopes(profile, SHAPED[profile]() if shaped else json_values)


PROPERTIES: dict[str, tuple[Callable[..., None], st.SearchStrategy[Any]]] = {
    "envelope": (prop_envelope, any_profile_envelope()),
    **{
        f"{kind}-{profile}": (prop_stream, stream_strategy(profile, kind == "shaped"))
        for profile in sorted(PROFILES)
        for kind in ("raw", "shaped")
    },
    "schema": (prop_schema, st.tuples(schemas, argument_values)),
    "bytes": (prop_bytes, byte_mutants()),
}
"""name -> (property, strategy of its argument(s)); tuples are unpacked."""


def run_property(name: str, examples: int) -> int:
    """Run property ``name`` for up to ``examples`` Hypothesis examples; return
    how many inputs it was actually called with (Hypothesis may stop early
    when a strategy is exhausted, and calls it again while shrinking)."""
    prop, strategy = PROPERTIES[name]
    calls = 0

    @fuzz_settings(examples)
    @given(strategy)
    def check(value: Any) -> None:
        nonlocal calls
        calls += 1
        if isinstance(value, tuple):
            prop(*value)
        else:
            prop(value)

    check()
    return calls


# -- the normal run --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_fuzz(name: str) -> None:
    run_property(name, EXAMPLES)


def test_profiles_are_all_fuzzed() -> None:
    fuzzed = {n.split("-", 1)[1] for n in PROPERTIES if n.startswith(("raw-", "shaped-"))}
    assert fuzzed == set(PROFILES)


def test_seeds_pass_the_independent_check() -> None:
    for name, data in SEED_BYTES.items():
        report = check_bytes(data)
        assert report.executable, name


def test_the_independent_check_rejects_what_it_should() -> None:
    fixture: dict[str, Any] = {"tool_schemas": {"weather": {}}}

    def report_with(**call: Any) -> Report:
        from toolstream.report import CallReport, Status

        fields: dict[str, Any] = {
            "slot": 0,
            "choice": 0,
            "kind": "client",
            "state": "validated",
            "id": "c1",
            "name": "weather",
            "arguments": "{}",
            "input": {},
            "validated": True,
            "findings": (),
        }
        fields.update(call)
        calls = (CallReport(**fields),)
        return Report(profile="openai", status=Status("pass"), calls=calls, findings=())

    independent_check(report_with(), fixture)
    bads: list[dict[str, Any]] = [
        {"arguments": '{"a":1,"a":2}', "input": {"a": 2}},
        {"arguments": '{"a":NaN}'},
        {"arguments": "[1]", "input": [1]},
        {"arguments": '{"a":1e999}'},
        {"id": ""},
        {"name": "clock"},
        {"name": ""},
    ]
    for bad in bads:
        with pytest.raises((AssertionError, ValueError, _Duplicate)):
            independent_check(report_with(**bad), fixture)


# -- the long run ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_fuzz_long(name: str) -> None:
    run_property(name, LONG_EXAMPLES)
