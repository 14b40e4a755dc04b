"""Hand-written fixtures and helpers for the ``toolstream diff`` tests.

Every fixture here is written for these tests (a weather tool, OpenAI /
Mistral chunks and Anthropic events).  The reference verdict of each is
asserted where it is used: a test that relies on "the reference blocks
this" checks it first.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.support.builders import (
    WEATHER_SCHEMA,
    anthropic,
    block_stop,
    chunk,
    json_delta,
    openai,
    tc,
    tool_start,
)
from tests.support.builders import message_end as _message_end
from tests.support.builders import message_start as _message_start
from toolstream import Rejected
from toolstream.adapters import Adapter, AdapterCall, AdapterResult

SCHEMAS = {"weather": WEATHER_SCHEMA}
"""The diff, adapter and client tests' tools: the weather tool alone."""


def needs(module: str, extra: str = "adapters") -> None:
    """Skip (with the reason) when ``module`` is not installed.  Uses
    find_spec, not an import: a bare ``import litellm`` goes to the network."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install 'toolstream[{extra}]')")


# -- OpenAI / Mistral chunks ----------------------------------------------------------


def oai(*chunks: Any, profile: str = "openai") -> dict[str, Any]:
    """A Chat Completions fixture over :data:`SCHEMAS`, ``tool_choice`` auto."""
    return openai(list(chunks), profile=profile, schemas=SCHEMAS, request={"tool_choice": "auto"})


END = chunk(finish="tool_calls")

PARALLEL = oai(
    {"choices": [{"index": 0, "delta": {"role": "assistant", "content": None}}]},
    chunk(tc(0, "call_1", "weather", '{"ci')),
    chunk(tc(0, args='ty":"Paris"}')),
    chunk(tc(1, "call_2", "weather", "")),
    chunk(tc(1, args='{"city":"Rome"}')),
    END,
)
"""Valid: two calls, fragmented.  The reference passes it."""

REUSED_INDEX = oai(
    chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')),
    chunk(tc(0, "call_2", "weather", '{"city":"Rome"}')),
    END,
)
"""Index 0 reused by a second call (reuse_slot).  Blocked: identity_collision."""

TRUNCATED_PARSEABLE = oai(
    chunk(tc(0, "call_1", "weather", '{"city":')),
    chunk(tc(0, args='"Paris"}')),
)
"""Cut before the finish reason, arguments complete (truncate_parseable).
Blocked: missing_terminal."""

TRUNCATED = oai(chunk(tc(0, "call_1", "weather", '{"city":')), chunk(tc(0, args='"Par')))
"""Cut inside the arguments (truncate).  Blocked."""

RESENT_ID = oai(
    chunk(tc(0, "call_1", "weather", '{"city":')),
    chunk(tc(0, "call_1", "weather", '"Paris"}')),
    END,
)
"""The same id and name sent again on a continuation (repeat_identity).
The reference passes it."""

TWICE = oai(
    chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')),
    chunk(tc(0, args='{"city":"Paris"}')),
    END,
)
"""Arguments sent twice (double_arguments).  Blocked: trailing_data."""

LENGTH = oai(chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')), chunk(finish="length"))
"""Cut by the length limit (wrong_finish).  Blocked."""

NULL_TOOL_CALLS = oai(
    {"choices": [{"index": 0, "delta": {"content": None, "tool_calls": None}}]},
    chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')),
    END,
)
"""A leading delta with ``"tool_calls": null``.  The reference passes it."""

GAP = oai(chunk(tc(1, "call_1", "weather", '{"city":"Paris"}')), END)
"""The first call at index 1 (gap_index).  Blocked: missing_slot."""

DICT_ARGUMENTS = oai(chunk(tc(0, "call_1", "weather", {"city": "Paris"})), END)
"""Arguments sent as an object (object_fragment).  Blocked."""

INT_FRAGMENT = oai(
    chunk(tc(0, "call_1", "weather", '{"city":')),
    chunk(tc(0, args=5)),
    chunk(tc(0, args='"x"}')),
    END,
)
"""A non-string fragment (object_fragment).  Blocked: non_string_fragment."""

UNPARSEABLE = oai(chunk(tc(0, "call_1", "weather", '{"city":]')), END)
"""Malformed arguments (corrupt_json).  Blocked."""

NO_NAME_SECOND = oai(
    chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')),
    chunk(tc(1, "call_2", None, '{"city":"Rome"}')),
    END,
)
"""The second call has no name (drop_name).  Blocked: missing_name."""

MISTRAL_FRAGMENTS = oai(
    chunk(tc(0, "Ab12Cd34E", "weather", '{"ci')),
    chunk(tc(0, args='ty":"Paris"}')),
    END,
    profile="mistral",
)
"""Mistral: one call in two fragments at index 0, the id only on the first.
The reference passes it."""

MISTRAL_WHOLE = oai(
    chunk(tc(id="Ab12Cd34E", name="weather", args='{"city":"Paris"}', omit_index=True)),
    END,
    profile="mistral",
)
"""Mistral: one whole call without an index.  The reference passes it."""

TEXT_ONLY = oai(
    {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hello"}}]},
    chunk(finish="stop"),
)
"""No tool call at all.  The reference: not_applicable."""


# -- Anthropic events ----------------------------------------------------------------


FULL_MESSAGE: dict[str, Any] = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "m",
    "content": [],
    "stop_reason": None,
    "stop_sequence": None,
    "usage": {"input_tokens": 1, "output_tokens": 1},
}
"""The ``message_start.message`` of these fixtures: every member the SDKs read."""


# Not re-exported under the builders' names: these fixtures' opening and
# closing carry more than the builders' defaults.


def opening() -> dict[str, Any]:
    """``message_start`` with :data:`FULL_MESSAGE`."""
    return _message_start(FULL_MESSAGE)


def closing(stop_reason: str = "tool_use") -> list[dict[str, Any]]:
    """``message_delta`` (``stop_sequence`` null, ``usage``) and ``message_stop``."""
    return _message_end(stop_reason, stop_sequence=True, output_tokens=5)


def ant(*events: Any) -> dict[str, Any]:
    return anthropic(list(events), schemas=SCHEMAS)


ANT_PARALLEL = ant(
    opening(),
    tool_start(0, "toolu_1"),
    json_delta(0, '{"city":'),
    json_delta(0, '"Paris"}'),
    block_stop(0),
    tool_start(1, "toolu_2"),
    json_delta(1, '{"city":"Rome"}'),
    block_stop(1),
    *closing(),
)
"""Valid: two tool_use blocks.  The reference passes it."""

ANT_TRUNCATED = ant(
    opening(),
    tool_start(0, "toolu_1"),
    json_delta(0, '{"city":'),
    json_delta(0, '"Paris"}'),
)
"""Cut after the arguments, before content_block_stop (truncate_parseable)."""

ANT_REUSED_INDEX = ant(
    opening(),
    tool_start(0, "toolu_1"),
    json_delta(0, '{"city":"Paris"}'),
    block_stop(0),
    tool_start(0, "toolu_2"),
    json_delta(0, '{"city":"Rome"}'),
    block_stop(0),
    *closing(),
)
"""A second block started at index 0 (reuse_slot).  Blocked."""

ANT_WHITESPACE_FIRST = ant(
    opening(),
    tool_start(0, "toolu_1"),
    json_delta(0, " "),
    json_delta(0, '{"city":"Paris"}'),
    block_stop(0),
    *closing(),
)
"""Valid, with a whitespace-only first delta (reencode).  The reference passes it."""

ANT_OUT_OF_ORDER = ant(
    opening(),
    tool_start(1, "toolu_2"),
    json_delta(1, '{"city":"Rome"}'),
    block_stop(1),
    tool_start(0, "toolu_1"),
    json_delta(0, '{"city":"Paris"}'),
    block_stop(0),
    *closing(),
)
"""Blocks started out of index order (interleave).  The reference passes it
(calls in index order)."""

ANT_MAX_TOKENS = ant(
    opening(),
    tool_start(0, "toolu_1"),
    json_delta(0, '{"city":"Par'),
    block_stop(0),
    *closing("max_tokens"),
)
"""Cut by max_tokens inside the arguments (wrong_finish).  Blocked."""

ANT_ERROR = ant(
    opening(),
    tool_start(0, "toolu_1"),
    json_delta(0, '{"city":"Paris"}'),
    {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
)
"""An error event (provider_error).  Blocked."""


# -- adapters for the library-free tests ----------------------------------------------


class ScriptedAdapter(Adapter):
    """Returns (or raises) whatever it was given, for every fixture."""

    name = "scripted-test"
    package = "json"
    profiles = ("openai", "mistral")

    def __init__(self, answer: AdapterResult | BaseException) -> None:
        self.answer = answer

    def available(self) -> bool:
        return True

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        self.check_profile(fixture)
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


def calls(*triples: tuple[Any, Any, Any]) -> tuple[AdapterCall, ...]:
    return tuple(AdapterCall(id=i, name=n, arguments=a) for i, n, a in triples)


def naive_accumulate(fixture: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A user accumulator (``tests.support.diff_fixtures:naive_accumulate``):
    joins fragments per index, hands everything over, never refuses."""
    slots: dict[Any, dict[str, Any]] = {}
    for body in fixture.get("chunks") or []:
        for choice in body.get("choices") or []:
            for entry in (choice.get("delta") or {}).get("tool_calls") or []:
                slot = slots.setdefault(entry.get("index"), {"id": None, "name": None, "args": ""})
                function = entry.get("function") or {}
                slot["id"] = slot["id"] or entry.get("id")
                slot["name"] = slot["name"] or function.get("name")
                slot["args"] += function.get("arguments") or ""
    return [{"id": s["id"], "name": s["name"], "arguments": s["args"]} for s in slots.values()]


def refusing_accumulate(fixture: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A user accumulator that refuses every turn for the same reason: a run
    of it proves nothing."""
    raise Rejected("refused")


def cautious_accumulate(fixture: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A user accumulator that refuses (``toolstream.Rejected``) a turn whose
    arguments come in more than one fragment, or not as a string, and
    otherwise hands over what :func:`naive_accumulate` does."""
    pieces: dict[Any, int] = {}
    for body in fixture.get("chunks") or []:
        for choice in body.get("choices") or []:
            for entry in (choice.get("delta") or {}).get("tool_calls") or []:
                arguments = (entry.get("function") or {}).get("arguments")
                if arguments is not None and not isinstance(arguments, str):
                    raise Rejected("arguments are not a string")
                pieces[entry.get("index")] = pieces.get(entry.get("index"), 0) + 1
    if any(count > 1 for count in pieces.values()):
        raise Rejected(f"{max(pieces.values())} argument fragments")
    return naive_accumulate(fixture)


def write_case(
    folder: Path, name: str, fixture: Mapping[str, Any], operators: list[str] | None = None
) -> Path:
    """A case file ``folder/name.json`` (with a ``meta`` when ``operators``)."""
    case = dict(fixture)
    if operators is not None:
        case["meta"] = {"operators": operators}
    path = folder / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(case, ensure_ascii=True, indent=2) + "\n", encoding="ascii")
    return path
