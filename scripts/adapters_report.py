#!/usr/bin/env python3
"""Regenerate the measured part of docs/adapters.md (``make adapters-report``).

Runs every built-in adapter over the shipped corpus (``corpus/cases``) with
``toolstream.diff`` and rewrites what lies between the markers
``<!-- adapters-report:begin -->`` and ``<!-- adapters-report:end -->``:

* the library versions and the corpus measured;
* the table operator x adapter -> classification counts;
* the findings per adapter: every claim below, each backed by the number of
  cases that show it and the path of the first one.  A claim that no case
  shows stops the script (exit 2) and nothing is written: the docs never
  state a behaviour the corpus does not exhibit.

The output depends only on the corpus, the library versions and this file,
so a rerun is byte-identical.  ``--check`` writes nothing and exits 1 when
the docs are stale.  The run time goes to stderr, never into the docs.

It then runs every client of ``toolstream.clients`` (the real libraries,
Python and JavaScript, driven over HTTP through ``toolstream serve``) twice:

* ``clients``: the plain transport over the whole corpus, into the block
  between ``<!-- clients-report:begin -->`` and ``<!-- clients-report:end -->``;
* ``matrix``: every transport variant of ``toolstream.clients.TRANSPORTS``
  over a sample (the first ``--sample`` cases, in path order, of each
  operator and profile; ``--sample 0``: the whole corpus, about 260,000
  client runs), into ``<!-- clients-matrix:begin -->`` / ``...:end -->``.

Each block has one table per client (transport x classification), and per
transport every way the client disagrees with the reference (by reference
code, exception type or differing fields), each with its count and first
case; a client whose library is missing (node absent...) is named as not
measured, a transport a client cannot receive as ``n/a``.

``--clients python`` names the Python clients only (``make bench-clients``
times the whole-corpus Python matrix, see docs/performance.md).

Usage: python scripts/adapters_report.py [--corpus DIR] [--docs FILE] [-j N] [--check]
           [--only adapters|clients|matrix] [--clients A,B|python] [--transports T,U]
           [--sample K]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from toolstream.diff import (  # noqa: E402
    ADAPTER_CRASH,
    AGREE,
    FALSE_REJECT,
    NOT_RUN,
    UNSAFE_ACCEPT,
    WRONG_CALLS,
    CaseResult,
    DiffResult,
    Outcome,
    diff_corpus,
)
from toolstream.diff.render import markdown_counts  # noqa: E402

BEGIN = "<!-- adapters-report:begin -->"
END = "<!-- adapters-report:end -->"

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


# -- rendering ---------------------------------------------------------------------------


class Unsupported(Exception):
    pass


def _fixture(path: str) -> Mapping[str, Any]:
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return data if isinstance(data, dict) else {}


def support(result: DiffResult, adapter: str, evidence: Evidence) -> tuple[int, int, str]:
    """(cases that show it, cases of the operator the adapter ran, first path)."""
    ran = [
        c
        for c in result.cases
        if c.operator == evidence.operator and c.outcomes[adapter].classification != NOT_RUN
    ]
    showing = [
        c
        for c in ran
        if c.outcomes[adapter].classification == evidence.classification
        and evidence.where(c, c.outcomes[adapter], _fixture(c.path))
    ]
    if not showing:
        raise Unsupported(
            f"{adapter}: no {evidence.operator} case is {evidence.classification}"
            " with the claimed behaviour"
        )
    return len(showing), len(ran), min(c.path for c in showing)


def render_claim(result: DiffResult, adapter: str, claim: Claim) -> str:
    cites = []
    for evidence in claim.evidence:
        shown, ran, path = support(result, adapter, evidence)
        cites.append(
            f"`{evidence.operator}` {evidence.classification}: {shown} of {ran}, e.g. `{path}`"
        )
    return f"- {claim.text} ({'; '.join(cites)})"


def render(result: DiffResult, corpus: Path) -> str:
    manifest = corpus / "MANIFEST.jsonl"
    digest = hashlib.sha256(manifest.read_bytes()).hexdigest()[:16] if manifest.is_file() else "-"
    versions = ", ".join(f"{a.name} ({a.package} {a.version})" for a in result.ran)
    lines = [
        BEGIN,
        "<!-- generated by scripts/adapters_report.py (make adapters-report): do not edit -->",
        "",
        f"Measured over `{corpus.as_posix()}` ({len(result.cases)} cases,"
        f" `MANIFEST.jsonl` sha256 `{digest}...`) with {versions}.",
        "Each cell counts the cases of that operator per classification "
        "(unsafe = `unsafe_accept`, wrong = `wrong_calls`, reject = `false_reject`, "
        "crash = `adapter_crash`, not run = `not_run`).",
        "",
        markdown_counts(result).rstrip("\n"),
        "",
        "### Findings",
        "",
        "Every statement below is shown by the corpus: after it, per operator, the number "
        "of cases that show it out of the cases of that operator the adapter ran, and the "
        "first such case.",
        "",
    ]
    common_cites = []
    for adapter in ADAPTERS:
        for evidence in COMMON.evidence:
            shown, ran, path = support(result, adapter, evidence)
            common_cites.append(f"{adapter} `{evidence.operator}`: {shown} of {ran}, e.g. `{path}`")
    lines.append(f"{COMMON.text} ({'; '.join(common_cites)})")
    lines.append("")
    for section in SECTIONS:
        info = next(a for a in result.ran if a.name == section.adapter)
        lines.append(f"#### {section.adapter} ({info.package} {info.version})")
        lines.append("")
        lines.append(section.lead)
        lines.append("")
        lines.extend(render_claim(result, section.adapter, claim) for claim in section.claims)
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def splice(document: str, block: str, begin: str = BEGIN, end_marker: str = END) -> str:
    start, end = document.find(begin), document.find(end_marker)
    if start < 0 or end < start:
        raise SystemExit(f"markers {begin} / {end_marker} not found")
    return document[:start] + block + document[end + len(end_marker) :]


# -- clients over HTTP -----------------------------------------------------------------

CLIENTS_BEGIN = "<!-- clients-report:begin -->"
CLIENTS_END = "<!-- clients-report:end -->"
MATRIX_BEGIN = "<!-- clients-matrix:begin -->"
MATRIX_END = "<!-- clients-matrix:end -->"

MATRIX_SAMPLE = 5
"""Cases per (operator, profile) in the every-transport matrix (see
:func:`sample`): the whole corpus under all nine transports is about 260,000
client runs, over two hours on two cores (docs/performance.md)."""


def sample(cases: list[Any], per: int) -> list[Any]:
    """The first ``per`` cases, in path order, of each (operator, profile):
    every operator on every wire, the same cases on every run."""
    taken: dict[tuple[str, str | None], int] = {}
    out = []
    for case in sorted(cases, key=lambda c: c.path):
        key = (case.operator, case.profile)
        if taken.get(key, 0) < per:
            taken[key] = taken.get(key, 0) + 1
            out.append(case)
    return out


SHORT = {
    AGREE: "agree",
    UNSAFE_ACCEPT: "unsafe",
    WRONG_CALLS: "wrong",
    FALSE_REJECT: "reject",
    ADAPTER_CRASH: "crash",
    NOT_RUN: "not run",
}


def way(case: CaseResult, outcome: Outcome) -> str:
    """How a client disagrees on one case, precisely enough to tell bugs apart."""
    if outcome.classification == UNSAFE_ACCEPT:
        codes = ", ".join(f"`{c}`" for c in case.codes) or "no tool activity"
        return f"hands over calls the reference blocks ({codes})"
    if outcome.classification == WRONG_CALLS:
        return f"hands over wrong calls ({outcome.signature.partition(':')[2]})"
    if outcome.classification == ADAPTER_CRASH:
        where = "inside the library" if outcome.in_library else "in the driver"
        return f"raises `{outcome.error_type}` {where}"
    if outcome.classification == FALSE_REJECT:
        reason = outcome.detail.removeprefix("rejected: ").split(" ", 1)[0].rstrip(":")
        if outcome.rejected:
            return f"refuses a valid turn (`{reason}`)"
        return "flags a valid call invalid"
    return outcome.classification


def client_ways(result: DiffResult, column: str) -> dict[str, tuple[int, str]]:
    """way -> (cases, first path) over the cases the column ran."""
    found: dict[str, list[str]] = {}
    for case in result.cases:
        outcome = case.outcomes.get(column)
        if outcome is None or not outcome.disagrees:
            continue
        found.setdefault(way(case, outcome), []).append(case.path)
    return {w: (len(paths), min(paths)) for w, paths in sorted(found.items())}


def render_clients(
    groups: list[tuple[str | None, DiffResult]],
    corpus: Path,
    clients: list[str],
    transports: list[str],
    missing: dict[str, str],
    per: int | None = None,
    markers: tuple[str, str] = (CLIENTS_BEGIN, CLIENTS_END),
) -> str:
    from toolstream.clients import CLIENTS

    cases = len(groups[0][1].cases) if groups else 0
    scope = (
        f"`{corpus.as_posix()}` ({cases} cases)"
        if per is None
        else f"a sample of `{corpus.as_posix()}`: the first {per} cases (in path order) of"
        f" each operator and profile, {cases} cases"
    )
    lines = [
        markers[0],
        "<!-- generated by scripts/adapters_report.py (make adapters-report): do not edit -->",
        "",
        f"Measured over {scope}, with transports "
        + ", ".join(f"`{t}`" for t in transports)
        + ". A cut transport's runs are judged against the prefix the client received.",
        "",
    ]
    for name in missing:
        lines.append(f"- `{name}`: not measured ({missing[name]})")
    if missing:
        lines.append("")
    columns: dict[tuple[str, str], tuple[DiffResult, Any]] = {}
    skipped: dict[tuple[str, str], str] = {}
    for _, result in groups:
        for info in result.adapters:
            base, _, transport = info.name.partition("@")
            if info.ran:
                columns[(base, transport or "plain")] = (result, info)
            else:
                reason = info.skipped or "skipped"
                skipped[(base, transport or "plain")] = reason.split(" not run: ", 1)[-1]
    for name in clients:
        if name in missing:
            continue
        client = CLIENTS[name]
        version = client.version()
        lines.append(f"#### {name} ({client.packages[0]} {version})")
        lines.append("")
        lines.append("| transport | " + " | ".join(SHORT[c] for c in SHORT) + " |")
        lines.append("| --- " * (len(SHORT) + 1) + "|")
        plain_ways: dict[str, tuple[int, str]] = {}
        findings: list[str] = []
        not_applicable: list[str] = []
        for transport in transports:
            if (name, transport) in skipped:
                lines.append(f"| `{transport}` | " + " | ".join("n/a" for _ in SHORT) + " |")
                not_applicable.append(f"`{transport}` ({skipped[(name, transport)]})")
                continue
            result, info = columns[(name, transport)]
            counts = result.counts(info.name)
            lines.append(
                f"| `{transport}` | " + " | ".join(str(counts.get(c, 0)) for c in SHORT) + " |"
            )
            ways = client_ways(result, info.name)
            if transport == "plain":
                plain_ways = ways
            for what, (shown, path) in ways.items():
                if transport != "plain" and plain_ways.get(what, (0, ""))[0] == shown:
                    continue  # as under plain
                findings.append(f"- `{transport}`: {what}: {shown} cases, e.g. `{path}`")
        lines.append("")
        if not_applicable:
            lines.append("Not run: " + "; ".join(not_applicable) + ".")
            lines.append("")
        if findings:
            lines.append(
                "Disagreements (under `plain`; for another transport only those whose count"
                " differs):"
            )
            lines.append("")
            lines.extend(findings)
        else:
            lines.append("Agrees with the reference on every case it ran.")
        lines.append("")
    lines.append(markers[1])
    return "\n".join(lines)


class _Progress:
    """A line on stderr at every tenth of the (case, column) runs: the full
    matrix takes most of an hour on two cores."""

    def __init__(self, total: int) -> None:
        self.total, self.done, self.shown, self.started = total, 0, 0, time.monotonic()

    def __call__(self, runs: int) -> None:
        self.done += runs
        tenth = self.done * 10 // max(self.total, 1)
        if tenth > self.shown:
            self.shown = tenth
            elapsed = time.monotonic() - self.started
            print(
                f"adapters-report: clients {self.done:,}/{self.total:,} runs"
                f" ({tenth * 10} %, {elapsed:.0f} s)",
                file=sys.stderr,
                flush=True,
            )


def run_clients(
    corpus: Path, clients: list[str], transports: list[str], jobs: int, per: int | None = None
) -> tuple[list[tuple[str | None, DiffResult]], dict[str, str]]:
    from toolstream.clients import CLIENTS
    from toolstream.clients.harness import DEFAULT_TIMEOUT, run_delivered
    from toolstream.diff import load_corpus, resolve_adapters

    missing = {n: m for n in clients if (m := CLIENTS[n].available()) is not None}
    specs = [
        f"client:{n}" if t == "plain" else f"client:{n}@{t}"
        for n in clients
        if n not in missing
        for t in transports
    ]
    cases, unreadable = load_corpus([corpus])
    if per is not None:
        cases = sample(cases, per)
    # the workers of -j N resolve the clients with the same per-case timeout
    loaded = resolve_adapters(specs, timeout=DEFAULT_TIMEOUT)
    runnable = sum(1 for item in loaded if item.adapter is not None)
    groups = run_delivered(
        cases,
        loaded,
        jobs=jobs,
        timeout=DEFAULT_TIMEOUT,
        on_progress=_Progress(len(cases) * runnable),
    )
    return [
        (
            cut,
            DiffResult(
                corpus=[corpus.as_posix()],
                adapters=[i.info for i in group],
                cases=results,
                unreadable=unreadable,
            ),
        )
        for cut, group, results in groups
    ], missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus" / "cases")
    parser.add_argument("--docs", type=Path, default=ROOT / "docs" / "adapters.md")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="exit 1 if the docs are stale")
    parser.add_argument(
        "--only",
        choices=["adapters", "clients", "matrix"],
        default=None,
        help="adapters: the built-in adapters' block; clients: every client, plain"
        " transport, whole corpus; matrix: every client x transport over --sample",
    )
    parser.add_argument("--clients", default=None, help="comma-separated, or python (default: all)")
    parser.add_argument(
        "--transports", default=None, help="the matrix's, comma-separated (default: all)"
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=MATRIX_SAMPLE,
        help=f"the matrix's cases per operator and profile (default {MATRIX_SAMPLE};"
        " 0: the whole corpus)",
    )
    args = parser.parse_args(argv)

    # case paths in the docs are relative to the repository
    os.chdir(ROOT)
    corpus = args.corpus.resolve()
    if corpus.is_relative_to(ROOT):
        corpus = corpus.relative_to(ROOT)
    document = args.docs.read_text(encoding="utf-8")
    updated = document
    if args.only in (None, "adapters"):
        code, updated = adapters_block(args, corpus, updated)
        if code:
            return code
    if args.only != "adapters":
        from toolstream.clients import CLIENTS, TRANSPORTS
        from toolstream.clients.registry import PYTHON_CLIENTS

        if args.clients == "python":
            clients = list(PYTHON_CLIENTS)
        else:
            clients = args.clients.split(",") if args.clients else list(CLIENTS)
        unknown = [name for name in clients if name not in CLIENTS]
        if unknown:
            print(f"adapters-report: unknown client {unknown[0]!r}", file=sys.stderr)
            return 64
        transports = args.transports.split(",") if args.transports else list(TRANSPORTS)
        runs: list[tuple[list[str], int | None, tuple[str, str]]] = []
        if args.only in (None, "clients"):
            runs.append((["plain"], None, (CLIENTS_BEGIN, CLIENTS_END)))
        if args.only in (None, "matrix"):
            runs.append((transports, args.sample or None, (MATRIX_BEGIN, MATRIX_END)))
        for these, per, markers in runs:
            started = time.monotonic()
            groups, missing = run_clients(corpus, clients, these, args.jobs, per)
            for name, why in missing.items():
                print(f"adapters-report: {name} not measured: {why}", file=sys.stderr)
            print(
                f"adapters-report: {len(clients) - len(missing)} clients x {len(these)}"
                f" transports in {time.monotonic() - started:.1f} s (-j {args.jobs})",
                file=sys.stderr,
            )
            block = render_clients(groups, corpus, clients, these, missing, per, markers)
            updated = splice(updated, block, *markers)
    if args.check:
        if updated != document:
            print(
                f"adapters-report: {args.docs} is stale; run make adapters-report", file=sys.stderr
            )
            return 1
        return 0
    if updated != document:
        args.docs.write_text(updated, encoding="utf-8")
        print(f"adapters-report: {args.docs} updated", file=sys.stderr)
    return 0


def adapters_block(args: Any, corpus: Path, document: str) -> tuple[int, str]:
    """The built-in adapters' block: (exit code, the document with it)."""
    started = time.monotonic()
    result = diff_corpus([corpus], list(ADAPTERS), jobs=args.jobs)
    elapsed = time.monotonic() - started
    skipped = [a for a in result.adapters if not a.ran]
    if skipped:
        for info in skipped:
            print(f"adapters-report: {info.skipped}", file=sys.stderr)
        return 2, document
    for info in result.ran:
        if PINNED.get(info.name) != info.version:
            print(
                f"adapters-report: warning: {info.name} drives {info.package} {info.version},"
                f" the docs pin {PINNED.get(info.name)}",
                file=sys.stderr,
            )
    try:
        block = render(result, corpus)
    except Unsupported as error:
        print(f"adapters-report: a claim is not shown by the corpus: {error}", file=sys.stderr)
        return 2, document
    print(
        f"adapters-report: {len(result.cases)} cases x {len(result.ran)} adapters"
        f" in {elapsed:.1f} s (-j {args.jobs})",
        file=sys.stderr,
    )
    return 0, splice(document, block)


if __name__ == "__main__":
    sys.exit(main())
