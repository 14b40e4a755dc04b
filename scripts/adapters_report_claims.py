"""The claims table of ``make adapters-report``: what docs/adapters.md says
each built-in adapter does, each claim with the evidence (operator,
classification, predicate over the case) that must back it in the corpus."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolstream.diff import (
    ADAPTER_CRASH,
    AGREE,
    FALSE_REJECT,
    UNSAFE_ACCEPT,
    WRONG_CALLS,
    CaseResult,
    Outcome,
)

ADAPTERS = ("openai-python", "anthropic-python", "langchain-core", "litellm")
PINNED = {
    "openai-python": "3.57.0",
    "anthropic-python": "2.14.0",
    "langchain-core": "1.8.3",
    "litellm": "1.110.2",
}

# -- predicates over one case (the outcome, and the fixture when needed) -------------

Predicate = Callable[[CaseResult, Outcome, Mapping[str, Any]], bool]


def anything(case: CaseResult, outcome: Outcome, fixture: Mapping[str, Any]) -> bool:
    return True


def profile(name: str) -> Predicate:
    return lambda case, outcome, fixture: case.profile == name


def error_has(text: str) -> Predicate:
    return lambda case, outcome, fixture: text in (outcome.error or "")


def detail_has(text: str) -> Predicate:
    return lambda case, outcome, fixture: text in outcome.detail


def differs_in(field_name: str) -> Predicate:
    return lambda case, outcome, fixture: any(d.field == field_name for d in outcome.differences)


def finish_is(value: str | None) -> Predicate:
    return lambda case, outcome, fixture: outcome.finish_reason == value


def both(*predicates: Predicate) -> Predicate:
    return lambda case, outcome, fixture: all(p(case, outcome, fixture) for p in predicates)


def _tool_names(fixture: Mapping[str, Any]) -> list[str]:
    schemas = fixture.get("tool_schemas")
    return sorted(schemas) if isinstance(schemas, Mapping) else []


def _concatenation(text: Any, parts: list[str]) -> bool:
    """``text`` is two or more of ``parts`` joined."""
    if not isinstance(text, str) or not parts or text in parts:
        return False
    pattern = "(?:" + "|".join(re.escape(p) for p in sorted(parts, key=len, reverse=True)) + ")"
    return re.fullmatch(f"{pattern}{{2,}}", text) is not None


def name_concatenated(case: CaseResult, outcome: Outcome, fixture: Mapping[str, Any]) -> bool:
    """A handed-over call's name is two or more declared tool names joined."""
    return any(_concatenation(c.name, _tool_names(fixture)) for c in outcome.handed)


def two_documents(case: CaseResult, outcome: Outcome, fixture: Mapping[str, Any]) -> bool:
    """A handed-over argument text is two JSON documents one after the other."""
    decoder = json.JSONDecoder()
    for call in outcome.handed:
        text = call.arguments
        if not isinstance(text, str):
            continue
        try:
            _, end = decoder.raw_decode(text.lstrip())
            rest = text.lstrip()[end:].strip()
            if rest:
                json.loads(rest)
                return True
        except ValueError:
            continue
    return False


def healed(case: CaseResult, outcome: Outcome, fixture: Mapping[str, Any]) -> bool:
    """A handed-over call whose argument text does not parse, yet whose
    parsed input is an object: the library completed the JSON itself."""
    for call in outcome.handed:
        if not isinstance(call.arguments, str) or not isinstance(call.input, dict):
            continue
        try:
            json.loads(call.arguments)
        except ValueError:
            return True
    return False


def flagged_invalid(case: CaseResult, outcome: Outcome, fixture: Mapping[str, Any]) -> bool:
    return bool(outcome.invalid)


def empty_becomes_object(case: CaseResult, outcome: Outcome, fixture: Mapping[str, Any]) -> bool:
    return any(call.arguments == "{}" for call in outcome.handed)


def _stream_identities(fixture: Mapping[str, Any]) -> tuple[set[str], int]:
    """(the distinct call ids in the stream, the number of distinct call slots)."""
    ids: set[str] = set()
    slots: set[Any] = set()
    loose = 0
    for body in fixture.get("chunks") or []:
        choices = body.get("choices") if isinstance(body, Mapping) else None
        for choice in choices if isinstance(choices, list) else []:
            delta = choice.get("delta") if isinstance(choice, Mapping) else None
            entries = delta.get("tool_calls") if isinstance(delta, Mapping) else None
            for entry in entries if isinstance(entries, list) else []:
                if not isinstance(entry, Mapping):
                    continue
                if isinstance(entry.get("id"), str) and entry["id"]:
                    ids.add(entry["id"])
                if "index" in entry and entry["index"] is not None:
                    slots.add(repr(entry["index"]))
                else:
                    loose += 1
    for event in fixture.get("events") or []:
        block = event.get("content_block") if isinstance(event, Mapping) else None
        if event.get("type") == "content_block_start" and isinstance(block, Mapping):
            if block.get("type") == "tool_use":
                if isinstance(block.get("id"), str) and block["id"]:
                    ids.add(block["id"])
                slots.add(repr(event.get("index")))
    return ids, len(slots) + loose


def merged_ids(case: CaseResult, outcome: Outcome, fixture: Mapping[str, Any]) -> bool:
    """Fewer calls handed over than distinct call ids in the stream."""
    ids, _ = _stream_identities(fixture)
    return 0 < len(outcome.handed) < len(ids)


def dropped_call(case: CaseResult, outcome: Outcome, fixture: Mapping[str, Any]) -> bool:
    """Every handed-over call has an id and a name, and fewer calls are handed
    over than the stream has slots: a call went missing without a word."""
    _, slots = _stream_identities(fixture)
    return (
        0 < len(outcome.handed) < slots
        and all(c.id and c.name for c in outcome.handed)
        and not outcome.rejected
    )


def arguments_swapped(case: CaseResult, outcome: Outcome, fixture: Mapping[str, Any]) -> bool:
    """A handed-over call carries the arguments of another reference call."""
    from toolstream.diff.classify import same_value

    for mine in outcome.handed:
        for ref in case.calls:
            if mine.id != ref.id or same_value(mine.input, ref.input):
                continue
            if any(o is not ref and same_value(mine.input, o.input) for o in case.calls):
                return True
    return False


def split_slot(case: CaseResult, outcome: Outcome, fixture: Mapping[str, Any]) -> bool:
    """More calls handed over than the stream has slots (indexes): a reused
    slot came out as two calls."""
    _, slots = _stream_identities(fixture)
    return len(outcome.handed) > slots > 0


# -- the claims -------------------------------------------------------------------------


@dataclass(frozen=True)
class Evidence:
    operator: str
    classification: str
    where: Predicate = anything


@dataclass(frozen=True)
class Claim:
    text: str
    evidence: tuple[Evidence, ...]


@dataclass(frozen=True)
class Section:
    adapter: str
    lead: str
    claims: tuple[Claim, ...] = field(default=())


def E(operator: str, classification: str, where: Predicate = anything) -> Evidence:
    return Evidence(operator, classification, where)


COMMON = Claim(
    "No adapter checks arguments against the tool's schema, nor the call's name against "
    "the declared tools: wherever it parses the arguments at all, a schema violation, an "
    "unknown tool name or a schema it cannot honour is handed over.",
    (
        E("schema_violation", UNSAFE_ACCEPT),
        E("rename_tool", UNSAFE_ACCEPT),
        E("unsupported_keyword", UNSAFE_ACCEPT),
    ),
)

SECTIONS = (
    Section(
        "openai-python",
        "`ChatCompletionStream` with non-strict tools (the registered configuration) never "
        "parses arguments and refuses a turn only for `finish_reason` `length` or "
        "`content_filter` or an error object; it takes the `openai` and `mistral` profiles.",
        (
            Claim(
                "Merges a call that reuses another call's index into it: ids, names and "
                "argument texts are concatenated (a name such as `get_weatherget_weather`) "
                "and the result is handed over as one call.",
                (E("reuse_slot", UNSAFE_ACCEPT, name_concatenated),),
            ),
            Claim(
                "Hands over the calls of a stream that ended without any finish reason, "
                "arguments as far as they came.",
                (
                    E("truncate_parseable", UNSAFE_ACCEPT, finish_is(None)),
                    E("truncate", UNSAFE_ACCEPT, finish_is(None)),
                ),
            ),
            Claim(
                "Hands over argument text verbatim whatever it holds: two JSON documents "
                "one after the other, malformed JSON, a non-finite number, a lone "
                "surrogate, a non-object.",
                (
                    E("double_arguments", UNSAFE_ACCEPT, two_documents),
                    E("corrupt_json", UNSAFE_ACCEPT),
                    E("inject_non_finite", UNSAFE_ACCEPT),
                    E("lone_surrogate", UNSAFE_ACCEPT),
                    E("non_object", UNSAFE_ACCEPT),
                ),
            ),
            Claim(
                "Refuses `length` and `content_filter`, but hands the calls over under any "
                "other wrong finish reason, such as `stop`.",
                (
                    E("wrong_finish", AGREE, detail_has("LengthFinishReasonError")),
                    E("wrong_finish", AGREE, detail_has("ContentFilterFinishReasonError")),
                    E("wrong_finish", UNSAFE_ACCEPT, finish_is("stop")),
                ),
            ),
            Claim(
                "Does not refuse a turn that goes on after its finish reason, nor two calls "
                "that share an id: the calls are handed over.",
                (E("delta_after_terminal", UNSAFE_ACCEPT), E("duplicate_id", UNSAFE_ACCEPT)),
            ),
            Claim(
                "Concatenates an id or a name that is sent again on a continuation chunk "
                "of a valid turn (wrong ids/names on turns the reference passes).",
                (E("repeat_identity", WRONG_CALLS, differs_in("id")),),
            ),
            Claim(
                "Crashes (`IndexError`) when a call's first fragment is not at the next "
                "free index, and (`TypeError`) on Mistral's index-less calls.",
                (
                    E("gap_index", ADAPTER_CRASH, error_has("IndexError")),
                    E("interleave", ADAPTER_CRASH, error_has("IndexError")),
                    E(
                        "whole_call",
                        ADAPTER_CRASH,
                        both(profile("mistral"), error_has("TypeError")),
                    ),
                ),
            ),
        ),
    ),
    Section(
        "anthropic-python",
        "`MessageStream` re-parses each tool block's JSON buffer with jiter's partial mode "
        "after every delta and hands the application only the parsed `input`; it refuses a "
        "turn only for an `error` event or a buffer jiter cannot even partially parse.",
        (
            Claim(
                "Hands over the tool blocks of a stream cut before `content_block_stop` / "
                "`message_stop`, with the partial parse of the arguments as `input`.",
                (
                    E("truncate_parseable", UNSAFE_ACCEPT, finish_is(None)),
                    E("truncate", UNSAFE_ACCEPT, finish_is(None)),
                ),
            ),
            Claim(
                "Does not refuse a wrong stop reason, `max_tokens` included: the calls "
                "are handed over.",
                (E("wrong_finish", UNSAFE_ACCEPT, finish_is("max_tokens")),),
            ),
            Claim(
                "Hands over a tool input whose JSON has trailing data or a second document, "
                "a non-finite number or a duplicate key, and a non-object `input`.",
                (
                    E("double_arguments", UNSAFE_ACCEPT),
                    E("trailing_document", UNSAFE_ACCEPT),
                    E("inject_non_finite", UNSAFE_ACCEPT),
                    E("duplicate_key", UNSAFE_ACCEPT),
                    E("non_object", UNSAFE_ACCEPT),
                ),
            ),
            Claim(
                "Hands over both blocks when a second block starts at an index already "
                "used, and hands over a block whose `content_block_start` carries a "
                "non-empty `input` that its deltas contradict.",
                (
                    E("reuse_slot", UNSAFE_ACCEPT, split_slot),
                    E("prefill_input", UNSAFE_ACCEPT),
                ),
            ),
            Claim(
                "Refuses a valid tool input whose first `input_json_delta` is whitespace "
                "only (jiter cannot partially parse a buffer of blanks).",
                (E("reencode", FALSE_REJECT, detail_has("EOF while parsing a value")),),
            ),
            Claim(
                "Appends blocks in arrival order and routes deltas by position in that "
                "list, not by index: a first tool block at index 1 crashes it "
                "(`IndexError`); blocks started out of index order crash it or get each "
                "other's arguments.",
                (
                    E("gap_index", ADAPTER_CRASH, error_has("IndexError")),
                    E("interleave", ADAPTER_CRASH, error_has("IndexError")),
                    E("interleave", WRONG_CALLS, arguments_swapped),
                ),
            ),
        ),
    ),
    Section(
        "langchain-core",
        "`generate_from_stream` over `AIMessageChunk`s built as the `langchain-openai`, "
        "`langchain-mistralai` and `langchain-anthropic` integrations build them (mirrored); "
        "`parse_partial_json` turns each merged argument text into `args`. It takes every "
        "profile and refuses a turn only for an error in the stream or an empty stream.",
        (
            Claim(
                "Heals truncated arguments (`parse_partial_json` closes unfinished JSON) "
                "and hands the call over.",
                (
                    E("truncate", UNSAFE_ACCEPT, healed),
                    E("truncate_parseable", UNSAFE_ACCEPT),
                ),
            ),
            Claim(
                "Never looks at the finish reason, nor at the slot index beyond using it as "
                "a merge key: turns with a wrong finish reason, an index gap, a bad index, "
                "or deltas after the finish reason are handed over.",
                (
                    E("wrong_finish", UNSAFE_ACCEPT),
                    E("gap_index", UNSAFE_ACCEPT),
                    E("bad_index", UNSAFE_ACCEPT),
                    E("delta_after_terminal", UNSAFE_ACCEPT),
                ),
            ),
            Claim(
                "Splits a call that reuses another call's index with a new id into two "
                "executable calls, and hands over the calls of a turn with a second choice.",
                (
                    E("reuse_slot", UNSAFE_ACCEPT, split_slot),
                    E("second_choice", UNSAFE_ACCEPT),
                ),
            ),
            Claim(
                "Concatenates a name sent again on a continuation chunk (the id is "
                "deduplicated), and returns the calls in arrival order rather than index "
                "order.",
                (
                    E("repeat_identity", WRONG_CALLS, differs_in("name")),
                    E("interleave", WRONG_CALLS, differs_in("order")),
                ),
            ),
            Claim(
                "Mistral profile: every fragment at index 0 without an id gets a fresh id, "
                "so a fragmented call is never merged: its head is executed with `{}` (or a "
                "healed prefix) and the tail flagged invalid; an `error` object in the "
                "stream is skipped like any chunk without choices.",
                (
                    E(
                        "refragment",
                        WRONG_CALLS,
                        both(profile("mistral"), differs_in("count"), flagged_invalid),
                    ),
                    E("provider_error", UNSAFE_ACCEPT, profile("mistral")),
                ),
            ),
            Claim(
                "Crashes (`pydantic.ValidationError`) on a non-string argument, id or name "
                "fragment.",
                (E("object_fragment", ADAPTER_CRASH, error_has("ValidationError")),),
            ),
        ),
    ),
    Section(
        "litellm",
        "`stream_chunk_builder` joins argument fragments per index, keeps the last non-empty "
        "id and name, and refuses a turn only for an error object (or an internal error it "
        "wraps into `APIError`); it takes the `openai` and `mistral` profiles.",
        (
            Claim(
                "Merges a call that reuses another call's index into it: one call is "
                "handed over in place of two, with the last non-empty id and name seen "
                "and the argument texts joined.",
                (E("reuse_slot", UNSAFE_ACCEPT, merged_ids),),
            ),
            Claim(
                "Hands over the calls of a stream that ended without a finish reason and "
                "reports `finish_reason` `stop` for it; does not refuse `length` either.",
                (
                    E("truncate_parseable", UNSAFE_ACCEPT, finish_is("stop")),
                    E("wrong_finish", UNSAFE_ACCEPT),
                ),
            ),
            Claim(
                "Turns empty arguments into `{}`, `json.dumps` an object sent as "
                "arguments, and hands both over.",
                (
                    E("empty_arguments", UNSAFE_ACCEPT, empty_becomes_object),
                    E("object_fragment", UNSAFE_ACCEPT),
                ),
            ),
            Claim(
                "Silently drops a call that has no id or no name, and executes the turn's "
                "other calls.",
                (
                    E("drop_id", UNSAFE_ACCEPT, dropped_call),
                    E("drop_name", UNSAFE_ACCEPT, dropped_call),
                ),
            ),
            Claim(
                "Hands over two JSON documents, index gaps and a second choice's calls.",
                (
                    E("double_arguments", UNSAFE_ACCEPT, two_documents),
                    E("gap_index", UNSAFE_ACCEPT),
                    E("second_choice", UNSAFE_ACCEPT),
                ),
            ),
            Claim(
                "Crashes (`pydantic.ValidationError`, building the chunk) on a non-string "
                "argument, id or name fragment.",
                (E("object_fragment", ADAPTER_CRASH, error_has("ValidationError")),),
            ),
        ),
    ),
)
