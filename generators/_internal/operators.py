"""The operators: each takes a turn model and edits it, recording what it
broke (if anything) in :class:`~generators._internal.labels.Effects`.

Every operator is a function ``(draw, turn, effects) -> None`` with a
docstring stating what it does, the field bug it reproduces, its label rule
and what it shrinks toward; :data:`REGISTRY` says where it applies.
Options are listed simplest first so that Hypothesis shrinks somewhere
useful (``sampled_from`` and ``integers`` shrink toward their first/lowest
value, ``booleans`` toward ``False``, lists toward empty).
"""

from __future__ import annotations

import copy
import enum
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from generators._internal import jsontext as jt
from generators._internal import labels as lb
from generators._internal.edit import (
    forced,
    insert,
    remove_steps,
    set_fragments,
    set_text,
    text_blocks,
)
from generators._internal.labels import Effects, Label
from generators._internal.model import (
    BEDROCK,
    MISSING,
    RESPONSE_ENDINGS,
    RESPONSES,
    Block,
    Call,
    Step,
    Turn,
    compact,
    joined,
)
from generators._internal.schemas import break_at, unicode_text_chars, violation_sites

Draw = Callable[..., Any]
ALL = ("openai", "mistral", "anthropic", "openai-responses", "bedrock")
CHAT = ("openai", "mistral")
ANTHROPIC = ("anthropic",)
RESPONSES_ONLY = ("openai-responses",)
LATE_IDENTITY = ("openai", "mistral", "openai-responses")
"""Profiles that can carry a call's identity on a later event than its
first (OpenAI/Mistral fragments, the Responses closing item)."""
CLAIMS_TOOLS = ("openai", "mistral", "anthropic", "bedrock")
"""Profiles with an end reason that claims tool use."""
CAN_BE_EMPTY = ("openai", "mistral", "anthropic", "openai-responses")
"""Profiles whose arguments can reassemble to "" (Bedrock's are ``{}``)."""


class Operator(str, enum.Enum):
    """Stable operator names (they appear in corpus paths and metadata).

    Verdict-preserving operators come first, then verdict-breaking ones, each
    group roughly simplest first: that is the order Hypothesis shrinks toward.
    """

    # -- verdict-preserving ------------------------------------------------
    REFRAGMENT = "refragment"
    """Re-split one call's arguments text anywhere (1-char and empty
    fragments, inside ``\\uXXXX`` escapes, between surrogate halves)."""
    INSERT_NOISE = "insert_noise"
    """Insert events that carry no call data (empty deltas, usage chunks,
    pings, text/thinking blocks, role-only deltas)."""
    WHOLE_CALL = "whole_call"
    """Deliver one call in a single fragment (Mistral style)."""
    REPEAT_IDENTITY = "repeat_identity"
    """Repeat the call's id and name on every fragment."""
    DELAY_IDENTITY = "delay_identity"
    """Send the id and/or name in a later fragment than the first."""
    INTERLEAVE = "interleave"
    """Interleave the fragments of parallel calls, each keeping its order."""
    REENCODE = "reencode"
    """Serialize the same arguments object differently."""
    FORCED_CHOICE_STOP = "forced_choice_stop"
    """``finish_reason: "stop"`` under a forcing ``tool_choice``."""
    # -- verdict-breaking --------------------------------------------------
    TRUNCATE = "truncate"
    """Cut the stream before its terminal -> ``missing_terminal``."""
    DROP_ID = "drop_id"
    """Remove a call's id -> ``missing_id``."""
    DROP_NAME = "drop_name"
    """Remove a call's name -> ``missing_name``."""
    RENAME_TOOL = "rename_tool"
    """Call a tool that has no schema -> ``unknown_tool``."""
    EMPTY_ARGUMENTS = "empty_arguments"
    """Arguments reassemble to "" -> ``empty_arguments``."""
    CORRUPT_JSON = "corrupt_json"
    """Arguments are not JSON -> ``malformed_json``."""
    TRAILING_DOCUMENT = "trailing_document"
    """Something after the JSON document -> ``trailing_data``."""
    DOUBLE_ARGUMENTS = "double_arguments"
    """The whole arguments sent twice -> ``trailing_data``."""
    NON_OBJECT = "non_object"
    """Arguments are JSON but not an object -> ``non_object_arguments``."""
    DUPLICATE_KEY = "duplicate_key"
    """An object repeats a key -> ``duplicate_key``."""
    INJECT_NON_FINITE = "inject_non_finite"
    """NaN / Infinity in the arguments -> ``non_finite_number``."""
    LONE_SURROGATE = "lone_surrogate"
    """An unpaired ``\\uD800``-style escape -> ``invalid_unicode``."""
    OBJECT_FRAGMENT = "object_fragment"
    """An arguments fragment that is a JSON object, not a string ->
    ``non_string_fragment``."""
    WRONG_FINISH = "wrong_finish"
    """End reason that does not mean "execute" -> ``wrong_terminal_reason``."""
    FINISH_WITHOUT_CALLS = "finish_without_calls"
    """Tool-use end reason but no call -> ``terminal_without_calls``."""
    DUPLICATE_TERMINAL = "duplicate_terminal"
    """A second terminal -> ``duplicate_terminal``."""
    DELTA_AFTER_TERMINAL = "delta_after_terminal"
    """A fragment after its slot's terminal -> ``delta_after_terminal``."""
    PROVIDER_ERROR = "provider_error"
    """An in-stream error event -> ``provider_error``."""
    DUPLICATE_ID = "duplicate_id"
    """Two calls share an id -> ``duplicate_id``."""
    REUSE_SLOT = "reuse_slot"
    """A second call reuses a live slot -> ``identity_collision``."""
    GAP_INDEX = "gap_index"
    """Slot indices skip a number -> ``missing_slot``."""
    BAD_INDEX = "bad_index"
    """A slot index that is null, a string or negative -> ``invalid_slot_index``."""
    TRUNCATE_PARSEABLE = "truncate_parseable"
    """Cut right where the arguments first parse -> ``missing_terminal``."""
    SCHEMA_VIOLATION = "schema_violation"
    """Arguments that break the tool's schema -> ``schema_violation``."""
    UNSUPPORTED_KEYWORD = "unsupported_keyword"
    """A schema keyword outside the subset -> ``unsupported_schema_keyword``."""
    PREFILL_INPUT = "prefill_input"
    """Anthropic start input plus deltas -> ``conflicting_input``."""
    MISMATCH_DONE = "mismatch_done"
    """Responses: the restated arguments differ from the deltas ->
    ``arguments_mismatch``."""
    SECOND_CHOICE = "second_choice"
    """Calls in two choices -> ``ambiguous_choice``."""


@dataclass(frozen=True)
class OperatorInfo:
    """A registry entry."""

    name: str
    profiles: tuple[str, ...]
    """Profiles the operator applies to at all."""
    preserving: bool
    """Whether the verdict (pass, same calls) is kept."""
    code: str | None
    """The finding code a breaking operator yields (None when preserving)."""
    apply: Callable[[Draw, Turn, Effects], None]
    applies: Callable[[Turn, Effects], bool]
    """Per-turn applicability (after the registry's profile check)."""
    combinable: bool = True
    """A breaking operator that may be combined with other breaking ones
    (each touches its own slots or only adds an independent turn-level code)."""
    turn_level: bool = False
    """Combined at most once per mutant."""

    @property
    def doc(self) -> str:
        return self.apply.__doc__ or ""

    def usable(self, turn: Turn, effects: Effects) -> bool:
        return turn.profile in self.profiles and self.applies(turn, effects)


# -- helpers -------------------------------------------------------------------


def _calls(turn: Turn) -> list[Call]:
    return turn.slot_calls()


def _free_calls(turn: Turn, fx: Effects) -> list[Call]:
    return [c for c in turn.slot_calls() if fx.is_free(c)]


def _pick_call(draw: Draw, turn: Turn, fx: Effects | None = None) -> Call:
    calls = _calls(turn) if fx is None else _free_calls(turn, fx)
    picked: Call = draw(st.sampled_from(calls))
    return picked


def _always(turn: Turn, fx: Effects) -> bool:
    return True


def _has_calls(turn: Turn, fx: Effects) -> bool:
    return bool(turn.calls)


def _has_free_call(turn: Turn, fx: Effects) -> bool:
    return bool(_free_calls(turn, fx))


def _text_of(turn: Turn, call: Call) -> str:
    assert call.expected is not None
    return call.expected


def _draw_text(draw: Draw, max_size: int = 12) -> str:
    text: str = draw(st.text(unicode_text_chars, max_size=max_size))
    return text


def _main_finish(turn: Turn, choice: int = 0) -> int | None:
    return turn.finish_index(choice)


def _call_choice(turn: Turn) -> int:
    return turn.slot_calls()[0].choice if turn.calls else 0


# -- verdict-preserving --------------------------------------------------------


def refragment(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Re-split one call's arguments text into new fragments.

    Cuts anywhere, preferentially inside escapes (after a backslash, inside
    the four hex digits of ``\\uXXXX``, between the two halves of an escaped
    surrogate pair such as ``\\ud83d\\ude00``), optionally into 1-character
    fragments and with empty fragments.  Reproduces servers and proxies that
    flush at arbitrary byte counts, and clients that parse each fragment.
    Label: pass, same calls (the concatenated text is unchanged; an
    Anthropic start-only call becomes start ``{}`` plus the same text).
    Shrinks toward: the first call, one fragment, no empty fragments.
    """
    call = _pick_call(draw, turn)
    set_fragments(turn, call, jt.draw_split(draw, _text_of(turn, call), max_cuts=8))


def insert_noise(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Insert 1-3 stream items that carry no call data.

    OpenAI/Mistral: empty deltas, usage-only chunks (``choices: []``),
    role-only deltas, text content deltas, ``tool_calls: []`` or ``null``,
    chunks without ``choices``, a text answer in another choice.  Anthropic:
    ``ping``, a usage-only ``message_delta``, text / thinking /
    redacted-thinking blocks, a server tool call (``server_tool_use`` with
    its ``input_json_delta`` and a ``web_search_tool_result``; never a client
    call), text deltas in an existing text block; later blocks are
    renumbered so no index is skipped.  Responses: ``response.in_progress``
    events, ``obfuscation`` padding on argument deltas, reasoning items
    (with summary events), message items (content part and text events),
    a server ``web_search_call`` item, text deltas in an existing message;
    later items are renumbered (``output_index``) and item ids stay unique;
    nothing goes before the first event (``response.created``).  Bedrock:
    padding fields ``p``, ``metadata`` events, text blocks (opened by their
    first delta or by an empty ``start``), reasoning blocks
    (``reasoningContent`` text + signature, or redacted), a server tool
    (``toolUse`` of type ``server_tool_use``) with its ``toolResult``
    block, text deltas in an existing text block; later blocks are
    renumbered.  Reproduces keep-alives, usage reporting and mixed content
    that naive reassemblers mistake for calls or terminals.
    Label: pass, same calls.
    Shrinks toward: one empty delta (OpenAI) / one ping (Anthropic) / one
    ``response.in_progress`` (Responses) / one padding field (Bedrock) at
    the start of the stream.
    """
    for _ in range(draw(st.integers(1, 3))):
        if turn.profile == "anthropic":
            _noise_anthropic(draw, turn)
        elif turn.profile == RESPONSES:
            _noise_responses(draw, turn)
        elif turn.profile == BEDROCK:
            _noise_bedrock(draw, turn)
        else:
            _noise_chat(draw, turn)


def _chunk(turn: Turn, **fields: Any) -> dict[str, Any]:
    base = turn.chunk_template or {
        "id": "chatcmpl-gen",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": "gen-model",
    }
    out = {k: copy.deepcopy(v) for k, v in base.items() if k not in ("choices", "usage")}
    out.update(fields)
    return out


def _noise_chat(draw: Draw, turn: Turn) -> None:
    choice = _call_choice(turn)
    kind = draw(
        st.sampled_from(
            [
                "empty_delta",
                "usage",
                "role",
                "content",
                "tool_calls_empty",
                "tool_calls_null",
                "no_choices",
                "other_choice",
            ]
        )
    )
    if kind == "empty_delta":
        raw = _chunk(turn, choices=[{"index": choice, "delta": {}, "finish_reason": None}])
    elif kind == "usage":
        raw = _chunk(
            turn,
            choices=[],
            usage={"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12},
        )
    elif kind == "role":
        raw = _chunk(
            turn, choices=[{"index": choice, "delta": {"role": "assistant"}, "finish_reason": None}]
        )
    elif kind == "content":
        raw = _chunk(
            turn,
            choices=[
                {"index": choice, "delta": {"content": _draw_text(draw)}, "finish_reason": None}
            ],
        )
    elif kind == "tool_calls_empty":
        raw = _chunk(
            turn, choices=[{"index": choice, "delta": {"tool_calls": []}, "finish_reason": None}]
        )
    elif kind == "other_choice":
        # Another candidate (n > 1) answering in text; choice 2, so that it
        # stays clear of second_choice's choice 1.
        finish = draw(st.sampled_from([None, "stop", "length"]))
        if any(
            c.get("index") == 2 and c.get("finish_reason") is not None
            for s in turn.steps
            if s.kind == "raw" and isinstance(s.raw, dict)
            for c in s.raw.get("choices") or []
            if isinstance(c, dict)
        ):
            finish = None  # one end reason per choice
        raw = _chunk(
            turn,
            choices=[{"index": 2, "delta": {"content": _draw_text(draw)}, "finish_reason": finish}],
        )
    elif kind == "tool_calls_null":
        raw = _chunk(
            turn,
            choices=[
                {
                    "index": choice,
                    "delta": {"content": None, "tool_calls": None},
                    "finish_reason": None,
                }
            ],
        )
    else:
        raw = _chunk(turn)
    at = draw(st.integers(0, len(turn.steps)))
    insert(turn, at, Step("raw", raw=raw))


def _openings(turn: Turn) -> dict[int, int]:
    """Step position -> how many blocks (calls included) it opens."""
    out: dict[int, int] = {}
    for item in [*turn.calls, *turn.blocks]:
        at = turn.opening_index(item)
        if at is not None:
            out[at] = out.get(at, 0) + 1
    return out


def _between_blocks(turn: Turn) -> list[int]:
    """Positions (after the message's start, before its stop reason) where
    no block is open.  Responses: never before the first event."""
    limit = turn.finish_index(0)
    if limit is None:
        limit = len(turn.steps)
    first = 0 if turn.profile == RESPONSES else -1
    begin = next((i for i, s in enumerate(turn.steps) if s.kind == "begin"), first)
    opens = _openings(turn)
    open_now = 0
    out = []
    for i in range(limit + 1):
        if i > begin and open_now == 0:
            out.append(i)
        if i < len(turn.steps):
            step = turn.steps[i]
            if i in opens:
                open_now += opens[i]
            elif step.kind == "stop":
                open_now -= 1
    return out


def _new_block(turn: Turn, at: int) -> Block:
    """A new non-call block whose start goes at ``at``: it takes the index
    after every block started before ``at``; later blocks move up by one."""
    items: list[Call | Block] = [*turn.calls, *turn.blocks]
    index = 0
    for b in items:
        opened = turn.opening_index(b)
        if opened is not None and opened < at:
            index += 1
    for b in items:
        if b.index >= index:
            b.index += 1
    block = Block(index=index)
    turn.blocks.append(block)
    return block


def _noise_anthropic(draw: Draw, turn: Turn) -> None:
    texts = text_blocks(turn)
    kinds = [
        "ping",
        "usage_delta",
        "text_block",
        "thinking_block",
        "redacted_thinking",
        "server_tool",
    ]
    if texts:
        kinds.append("text_delta")
    kind = draw(st.sampled_from(kinds))
    if kind in ("ping", "usage_delta"):
        raw = (
            {"type": "ping"}
            if kind == "ping"
            else {"type": "message_delta", "delta": {}, "usage": {"output_tokens": 2}}
        )
        insert(turn, draw(st.integers(0, len(turn.steps))), Step("raw", raw=raw))
        return
    if kind == "text_delta":
        block = draw(st.sampled_from(texts))
        start = turn.step_of("start", block)
        stop = turn.step_of("stop", block)
        assert start is not None and stop is not None
        at = draw(st.integers(start + 1, stop))
        raw = {
            "type": "content_block_delta",
            "index": block.index,
            "delta": {"type": "text_delta", "text": _draw_text(draw)},
        }
        insert(turn, at, Step("delta", target=block, raw=raw))
        return
    at = draw(st.sampled_from(_between_blocks(turn)))
    block = _new_block(turn, at)
    steps: list[Step] = []
    if kind == "text_block":
        steps.append(
            Step(
                "start",
                target=block,
                raw={
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "text", "text": ""},
                },
            )
        )
        for _ in range(draw(st.integers(0, 2))):
            steps.append(
                Step(
                    "delta",
                    target=block,
                    raw={
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "text_delta", "text": _draw_text(draw)},
                    },
                )
            )
    elif kind == "server_tool":
        # A server-side tool call and its result: two blocks, never executable.
        steps.append(
            Step(
                "start",
                target=block,
                raw={
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {
                        "type": "server_tool_use",
                        "id": "srvtoolu_noise",
                        "name": "web_search",
                        "input": {},
                    },
                },
            )
        )
        for piece in jt.draw_split(draw, '{"query": "weather"}', max_cuts=2):
            steps.append(
                Step(
                    "delta",
                    target=block,
                    raw={
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "input_json_delta", "partial_json": piece},
                    },
                )
            )
        steps.append(Step("stop", target=block))
        result = _new_block(turn, at)  # takes the same index, moving ``block`` up
        result.index, block.index = block.index, result.index
        steps.append(
            Step(
                "start",
                target=result,
                raw={
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {
                        "type": "web_search_tool_result",
                        "tool_use_id": "srvtoolu_noise",
                        "content": [],
                    },
                },
            )
        )
        block = result
    elif kind == "thinking_block":
        steps.append(
            Step(
                "start",
                target=block,
                raw={
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "thinking", "thinking": "", "signature": ""},
                },
            )
        )
        steps.append(
            Step(
                "delta",
                target=block,
                raw={
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "thinking_delta", "thinking": _draw_text(draw)},
                },
            )
        )
        steps.append(
            Step(
                "delta",
                target=block,
                raw={
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "signature_delta", "signature": "c2lnbmF0dXJl"},
                },
            )
        )
    else:
        steps.append(
            Step(
                "start",
                target=block,
                raw={
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "redacted_thinking", "data": "ZW5jcnlwdGVk"},
                },
            )
        )
    steps.append(Step("stop", target=block))
    insert(turn, at, *steps)


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _item_ids(turn: Turn) -> set[str]:
    """Responses: every item id in the stream (calls and other items)."""
    out = {c.item_id for c in turn.calls if isinstance(c.item_id, str)}
    for step in turn.steps:
        raw = step.raw
        if isinstance(raw, dict):
            item = raw.get("item")
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                out.add(item["id"])
            if isinstance(raw.get("item_id"), str):
                out.add(raw["item_id"])
    return out


def _fresh_item_id(turn: Turn, stem: str) -> str:
    """Responses: ``stem`` plus the first number that makes an unused item id."""
    used = _item_ids(turn)
    n = 1
    while f"{stem}{n}" in used:
        n += 1
    return f"{stem}{n}"


def _item_event(kind: str, item_id: str, **fields: Any) -> dict[str, Any]:
    """A Responses event about item ``item_id`` (its ``output_index`` is set
    at render time)."""
    return {"type": kind, "item_id": item_id, "output_index": 0, **fields}


def _noise_responses(draw: Draw, turn: Turn) -> None:
    kinds = ["in_progress", "reasoning_item", "message_item", "server_item"]
    frags = [i for i, s in enumerate(turn.steps) if s.kind == "frag" and s.ident is None]
    if frags:
        kinds.append("obfuscation")
    texts = text_blocks(turn)
    if texts:
        kinds.append("text_delta")
    kind = draw(st.sampled_from(kinds))
    if kind == "in_progress":
        created = next(
            (
                s.raw
                for s in turn.steps
                if isinstance(s.raw, dict) and s.raw.get("type") == "response.created"
            ),
            None,
        )
        response = (created or {}).get("response")
        if not isinstance(response, dict):
            response = {"id": "resp_gen", "object": "response", "status": "in_progress"}
        limit = turn.finish_index(0)
        at = draw(st.integers(1, len(turn.steps) if limit is None else limit))
        raw = {"type": "response.in_progress", "response": copy.deepcopy(response)}
        insert(turn, at, Step("raw", raw=raw))
        return
    if kind == "obfuscation":
        step = turn.steps[draw(st.sampled_from(frags))]
        pad = draw(st.text(st.sampled_from(_LETTERS), min_size=1, max_size=16))
        step.patch = dict(step.patch or {}, obfuscation=pad)
        return
    if kind == "text_delta":
        block = draw(st.sampled_from(texts))
        start = turn.step_of("start", block)
        stop = turn.step_of("stop", block)
        assert start is not None and stop is not None
        item_id = turn.steps[start].raw["item"]["id"]
        raw = _item_event(
            "response.output_text.delta", item_id, content_index=0, delta=_draw_text(draw)
        )
        insert(turn, draw(st.integers(start + 1, stop)), Step("delta", target=block, raw=raw))
        return
    at = draw(st.sampled_from(_between_blocks(turn)))
    block = _new_block(turn, at)
    steps: list[Step] = []

    def add(kind: str, raw: dict[str, Any]) -> None:
        steps.append(Step(kind, target=block, raw=raw))

    def item(kind: str, body: dict[str, Any]) -> dict[str, Any]:
        return {"type": kind, "output_index": 0, "item": body}

    if kind == "reasoning_item":
        rid = _fresh_item_id(turn, "rs_noise")
        summary: list[Any] = []
        add(
            "start",
            item("response.output_item.added", {"id": rid, "type": "reasoning", "summary": []}),
        )
        if draw(st.booleans()):
            text = _draw_text(draw)
            part = {"type": "summary_text", "text": text}
            add(
                "delta",
                _item_event(
                    "response.reasoning_summary_part.added",
                    rid,
                    summary_index=0,
                    part={"type": "summary_text", "text": ""},
                ),
            )
            add(
                "delta",
                _item_event(
                    "response.reasoning_summary_text.delta", rid, summary_index=0, delta=text
                ),
            )
            add(
                "delta",
                _item_event(
                    "response.reasoning_summary_text.done", rid, summary_index=0, text=text
                ),
            )
            add(
                "delta",
                _item_event(
                    "response.reasoning_summary_part.done", rid, summary_index=0, part=part
                ),
            )
            summary = [part]
        add(
            "stop",
            item("response.output_item.done", {"id": rid, "type": "reasoning", "summary": summary}),
        )
    elif kind == "message_item":
        mid = _fresh_item_id(turn, "msg_noise")
        head = {"id": mid, "type": "message", "status": "in_progress", "role": "assistant"}
        add("start", item("response.output_item.added", {**head, "content": []}))
        empty = {"type": "output_text", "text": "", "annotations": []}
        add("delta", _item_event("response.content_part.added", mid, content_index=0, part=empty))
        pieces = [_draw_text(draw) for _ in range(draw(st.integers(0, 2)))]
        for piece in pieces:
            add(
                "delta",
                _item_event("response.output_text.delta", mid, content_index=0, delta=piece),
            )
        full = {"type": "output_text", "text": "".join(pieces), "annotations": []}
        add(
            "delta",
            _item_event("response.output_text.done", mid, content_index=0, text=full["text"]),
        )
        add("delta", _item_event("response.content_part.done", mid, content_index=0, part=full))
        add(
            "stop",
            item("response.output_item.done", {**head, "status": "completed", "content": [full]}),
        )
    else:
        wid = _fresh_item_id(turn, "ws_noise")
        add(
            "start",
            item(
                "response.output_item.added",
                {"id": wid, "type": "web_search_call", "status": "in_progress"},
            ),
        )
        for phase in ("in_progress", "searching", "completed"):
            add("delta", _item_event(f"response.web_search_call.{phase}", wid))
        action = {"type": "search", "query": "weather"}
        add(
            "stop",
            item(
                "response.output_item.done",
                {"id": wid, "type": "web_search_call", "status": "completed", "action": action},
            ),
        )
    insert(turn, at, *steps)


def _bedrock_event(kind: str, **body: Any) -> dict[str, Any]:
    """A Bedrock event (its ``contentBlockIndex`` is set at render time)."""
    return {kind: {"contentBlockIndex": 0, **body}}


def _noise_bedrock(draw: Draw, turn: Turn) -> None:
    kinds = ["padding", "metadata", "text_block", "reasoning_block", "server_tool"]
    texts = text_blocks(turn)
    if texts:
        kinds.append("text_delta")
    kind = draw(st.sampled_from(kinds))
    if kind == "padding":
        step = turn.steps[draw(st.integers(0, len(turn.steps) - 1))]
        pad = draw(st.text(st.sampled_from(_LETTERS), min_size=1, max_size=40))
        step.patch = dict(step.patch or {}, p=pad)
        return
    if kind == "metadata":
        latency = draw(st.integers(1, 5000))
        raw = {
            "metadata": {
                "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
                "metrics": {"latencyMs": latency},
            }
        }
        insert(turn, draw(st.integers(0, len(turn.steps))), Step("raw", raw=raw))
        return
    if kind == "text_delta":
        block = draw(st.sampled_from(texts))
        opened = turn.opening_index(block)
        stop = turn.step_of("stop", block)
        assert opened is not None and stop is not None
        # Before the first delta of a block without a start, the new delta
        # becomes the one that opens it.
        low = opened + 1 if turn.step_of("start", block) is not None else opened
        raw = _bedrock_event("contentBlockDelta", delta={"text": _draw_text(draw)})
        insert(turn, draw(st.integers(low, stop)), Step("delta", target=block, raw=raw))
        return
    at = draw(st.sampled_from(_between_blocks(turn)))
    block = _new_block(turn, at)
    steps: list[Step] = []

    def add(kind: str, raw: dict[str, Any] | None = None) -> None:
        steps.append(Step(kind, target=block, raw=raw))

    if kind == "text_block":
        explicit = draw(st.booleans())
        if explicit:
            add("start", _bedrock_event("contentBlockStart", start={}))
        for _ in range(draw(st.integers(0 if explicit else 1, 2))):
            add("delta", _bedrock_event("contentBlockDelta", delta={"text": _draw_text(draw)}))
    elif kind == "reasoning_block":
        if draw(st.booleans()):
            content = {"redactedContent": "ZW5jcnlwdGVk"}
            add("delta", _bedrock_event("contentBlockDelta", delta={"reasoningContent": content}))
        else:
            thought = {"text": _draw_text(draw)}
            add("delta", _bedrock_event("contentBlockDelta", delta={"reasoningContent": thought}))
            signed = {"signature": "c2lnbmF0dXJl"}
            add("delta", _bedrock_event("contentBlockDelta", delta={"reasoningContent": signed}))
    else:
        # A tool the provider runs itself, and its result: two blocks, never
        # executable.
        tool = {"toolUseId": "srvtool_noise", "name": "web_search", "type": "server_tool_use"}
        add("start", _bedrock_event("contentBlockStart", start={"toolUse": tool}))
        for piece in jt.draw_split(draw, '{"query": "weather"}', max_cuts=2):
            add("delta", _bedrock_event("contentBlockDelta", delta={"toolUse": {"input": piece}}))
        add("stop")
        result = _new_block(turn, at)  # takes the same index, moving ``block`` up
        result.index, block.index = block.index, result.index
        block = result
        start = {"toolResult": {"toolUseId": "srvtool_noise", "status": "success"}}
        add("start", _bedrock_event("contentBlockStart", start=start))
    add("stop")
    insert(turn, at, *steps)


def whole_call(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Deliver one call in a single fragment.

    OpenAI: one ``tool_calls`` entry with index, id, name and all the
    arguments.  Mistral: the same without ``index`` (the profile infers the
    next free index) when that infers the right slot.  Anthropic: one
    ``input_json_delta`` with the whole text, or (drawn) no delta at all and
    the arguments object in ``content_block_start.input``.  Responses: one
    ``function_call_arguments.delta``, or (drawn) no delta and the text in
    the added item's ``arguments``.  Bedrock: one ``toolUse`` delta, or
    (drawn, for an empty object) no delta or one empty delta: the
    no-argument call.
    Reproduces providers and proxies that buffer calls, and non-streaming
    responses converted to streams.
    Label: pass, same calls; for an Anthropic start-only call the arguments
    become the compact JSON of the input
    (``json.dumps(input, ensure_ascii=False, separators=(",", ":"))``); for
    a Bedrock call without delta text they are ``{}``.
    Shrinks toward: the first call, delivered as one text fragment.
    """
    call = _pick_call(draw, turn)
    text = _text_of(turn, call)
    if turn.profile == RESPONSES:
        if draw(st.booleans()):
            set_fragments(turn, call, [])
            call.start_input = text
        else:
            set_fragments(turn, call, [text])
        return
    if turn.profile == BEDROCK:
        if draw(st.booleans()) and jt.loads(text) == {}:
            set_fragments(turn, call, draw(st.sampled_from([[], [""]])))
            call.expected = "{}"
        else:
            set_fragments(turn, call, [text])
        return
    if turn.profile == "anthropic":
        value = jt.loads(text)
        if draw(st.booleans()) and _finite(value):
            set_fragments(turn, call, [])
            call.start_input = value
            call.expected = compact(value)
        else:
            set_fragments(turn, call, [text])
        return
    set_fragments(turn, call, [text])
    step = turn.steps[turn.frag_steps(call)[0]]
    step.carries_id = step.carries_name = True
    if turn.profile == "mistral":
        call.indexed = False


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


def repeat_identity(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Repeat a call's id and/or name on every one of its fragments.

    Reproduces servers that resend the identity with each delta (and
    clients that concatenate it: ``"get_weatherget_weather"``).
    Label: pass, same calls (the same value again is not a collision).
    Shrinks toward: the first call, id and name both repeated, no split.
    """
    call = _pick_call(draw, turn)
    if len(turn.frag_steps(call)) < 2 and draw(st.booleans()):
        set_fragments(turn, call, jt.draw_split(draw, _text_of(turn, call)))
    which = draw(st.sampled_from(["both", "id", "name"]))
    for i in turn.frag_steps(call):
        if which in ("both", "id"):
            turn.steps[i].carries_id = True
        if which in ("both", "name"):
            turn.steps[i].carries_name = True


def delay_identity(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send a call's id and/or name in a later fragment than its first one
    (still before the terminal); the fragments without them may carry
    ``"id": null`` / ``""`` and ``"name": null`` / ``""`` (absent values).

    Responses: the added item sends the id (``call_id``) and/or name blank
    (key absent, ``null`` or ``""``); only the closing ``output_item.done``
    carries them.

    Reproduces servers that open a slot with an arguments-only delta or
    blank identity fields, and clients that read the identity from the first
    delta only (or overwrite it with the blank).
    Label: pass, same calls.
    Shrinks toward: the first call, both delayed to the second fragment
    (an empty first fragment is added when the call has only one), no
    blank fields.
    """
    call = _pick_call(draw, turn)
    if turn.profile == RESPONSES:
        which = draw(st.sampled_from(["both", "id", "name"]))
        call.blank = draw(st.sampled_from([MISSING, None, ""]))
        call.late_identity = {"both": ("id", "name"), "id": ("id",), "name": ("name",)}[which]
        return
    if len(turn.frag_steps(call)) < 2:
        set_fragments(turn, call, ["", *turn.fragments(call)])
    frags = turn.frag_steps(call)
    which = draw(st.sampled_from(["both", "id", "name"]))
    call.blank = draw(st.sampled_from([MISSING, None, ""]))
    for flag in ("id", "name"):
        if which not in ("both", flag):
            continue
        at = draw(st.integers(1, len(frags) - 1))
        for i in frags:
            setattr(turn.steps[i], f"carries_{flag}", False)
        setattr(turn.steps[frags[at]], f"carries_{flag}", True)


def _interleave_groups(turn: Turn) -> list[list[Call]]:
    groups: dict[int, list[Call]] = {}
    for call in turn.slot_calls():
        groups.setdefault(call.choice, []).append(call)
    return [g for g in groups.values() if len(g) >= 2]


def interleave(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Interleave the stream items of parallel calls; each call keeps its own
    order (OpenAI/Mistral: fragments; Anthropic, Bedrock: start, deltas,
    stop; Responses: added item, deltas, arguments done, closing item).

    OpenAI/Mistral: consecutive fragments may also share one chunk
    (several ``tool_calls`` entries in one delta).

    Reproduces parallel tool calls streamed concurrently or batched in one
    delta, and reassemblers that assume one call at a time ("append to the
    last call", "the last added item") or read only the first entry of
    ``tool_calls`` (Responses and Bedrock route by item id / block index).
    Label: pass, same calls (slot order is by index, not arrival).
    Shrinks toward: the original, sequential order.
    """
    group = draw(st.sampled_from(_interleave_groups(turn)))
    members = {id(c) for c in group}
    kinds = ("start", "frag", "restate", "stop") if turn.blocky else ("frag",)
    positions = [
        i
        for i, s in enumerate(turn.steps)
        if s.kind in kinds and s.ident is None and id(s.target) in members
    ]
    queues = {id(c): [turn.steps[i] for i in positions if turn.steps[i].target is c] for c in group}
    merged = []
    for _ in positions:
        ready = [c for c in group if queues[id(c)]]
        pick = ready[draw(st.integers(0, len(ready) - 1))]
        merged.append(queues[id(pick)].pop(0))
    original = [turn.steps[i] for i in positions]
    if merged == original:
        # Make it a real interleaving: the second call's first item goes
        # right before the first call's last item.
        first, second = group[0], group[1]
        last_a = max(n for n, s in enumerate(merged) if s.target is first)
        first_b = min(n for n, s in enumerate(merged) if s.target is second)
        if last_a < first_b:
            moved = merged.pop(first_b)
            merged.insert(last_a, moved)
    for i, step in zip(positions, merged, strict=True):
        turn.steps[i] = step
    if not turn.blocky and draw(st.booleans()):
        # Several calls' deltas in one chunk (vLLM, Mistral): a fragment may
        # share the chunk of the fragment before it.
        for i in positions[1:]:
            turn.steps[i].join = draw(st.booleans())


def reencode(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Serialize one call's arguments object differently: whitespace and
    indentation, key order, ``\\uXXXX`` escapes instead of raw Unicode (or
    all characters escaped), upper-case hex, escaped solidus; then re-split.

    Reproduces providers that differ in JSON encoders, and clients that
    compare or hash the arguments text.
    Label: pass, same id and name; the label's arguments are the new text
    byte for byte.
    Shrinks toward: the first call, compact raw-Unicode text, one fragment.
    """
    call = _pick_call(draw, turn)
    value = jt.draw_reorder(draw, jt.loads(_text_of(turn, call)))
    text = jt.dumps(value, **jt.draw_style(draw))
    set_text(draw, turn, call, text)
    call.expected = text


def forced_choice_stop(draw: Draw, turn: Turn, fx: Effects) -> None:
    """End the turn with ``finish_reason: "stop"`` under a ``tool_choice``
    that forces a call (``"required"``, a named function, Mistral
    ``"any"``).

    Reproduces OpenAI's documented behaviour for forced calls, which
    validators that insist on ``"tool_calls"`` reject.
    Label: pass, same calls.
    Shrinks toward: ``"required"``.
    """
    options: list[Any] = ["required"]
    if turn.profile == "mistral":
        options.append("any")
    names = {c.name for c in turn.calls}
    if len(names) == 1:
        options.append({"type": "function", "function": {"name": next(iter(names))}})
    request = dict(turn.request or {})
    request["tool_choice"] = draw(st.sampled_from(options))
    turn.request = request
    choice = _call_choice(turn)
    for step in turn.steps:
        if step.kind == "finish" and step.choice == choice:
            step.text = "stop"


def _forced_stop_applies(turn: Turn, fx: Effects) -> bool:
    return bool(turn.calls) and turn.finish_index(_call_choice(turn)) is not None


# -- verdict-breaking: cuts and indices (solo) ------------------------------------------


def _first_activity(turn: Turn) -> int:
    for i, s in enumerate(turn.steps):
        if turn.blocky:
            if s.kind == "start" and isinstance(s.target, Call):
                return i
        elif s.kind == "frag":
            return i
    raise AssertionError("no tool activity")


def _last_needed(turn: Turn) -> int:
    if turn.blocky:
        return max(i for i, s in enumerate(turn.steps) if s.kind in ("stop", "finish", "mstop"))
    found = turn.finish_index(_call_choice(turn))
    assert found is not None
    return found


def _prefix_label(turn: Turn, k: int) -> Label:
    """The label of ``turn`` cut to its first ``k`` steps (``truncate``'s
    rule): every slot (block) opened and not terminated is
    ``missing_terminal``; a begun message (Anthropic ``message_start``,
    Bedrock ``messageStart``, a Responses stream's first event) that misses
    its end (``message_delta`` + ``message_stop``, ``messageStop``,
    ``response.completed``) is a turn-level ``missing_terminal``, reported
    only when the turn is applicable; the turn is applicable when a client
    call was opened."""
    prefix = turn.steps[:k]
    gap = _prefix_has_gap(turn, prefix)
    if not turn.blocky:
        active = any(s.kind == "frag" for s in prefix)
        if not active:
            return Label("not_applicable", ())
        return Label(
            "blocked", ("missing_slot", "missing_terminal") if gap else ("missing_terminal",)
        )
    started = [b for b in turn.blocks_in_order() if (_opened_before(turn, b, k))]
    stopped = {id(s.target) for s in prefix if s.kind == "stop"}
    open_blocks = [b for b in started if id(b) not in stopped]
    client = any(isinstance(b, Call) for b in started)
    if turn.profile == RESPONSES:
        begun = bool(prefix)
        ended = any(s.kind == "finish" for s in prefix)
    elif turn.profile == BEDROCK:
        begun = any(s.kind == "begin" for s in prefix)
        ended = any(s.kind == "finish" for s in prefix)
    else:
        begun = any(s.kind == "begin" for s in prefix)
        ended = any(s.kind == "finish" for s in prefix) and any(s.kind == "mstop" for s in prefix)
    codes: set[str] = set()
    if open_blocks or (client and begun and not ended):
        codes.add("missing_terminal")
    if gap:
        codes.add("missing_slot")
    if not client:
        return Label("not_applicable", tuple(sorted(codes)))
    if codes:
        return Label("blocked", tuple(sorted(codes)))
    calls = sorted((b for b in started if isinstance(b, Call)), key=lambda c: c.index)
    return Label(
        "pass",
        (),
        tuple({"id": c.id, "name": c.name, "arguments": c.expected or ""} for c in calls),
    )


def _opened_before(turn: Turn, target: Any, k: int) -> bool:
    at = turn.opening_index(target)
    return at is not None and at < k


def _prefix_has_gap(turn: Turn, prefix: list[Step]) -> bool:
    """Whether the slots opened in ``prefix`` skip an index in some scope
    (possible when an interleaving opened a later slot first)."""
    opened: dict[int, set[int]] = {}
    if turn.blocky:
        for item in turn.blocks_in_order():
            if _opened_before(turn, item, len(prefix)):
                opened.setdefault(0, set()).add(item.index)
    else:
        for step in prefix:
            if step.target is None or step.ident is not None or step.kind != "frag":
                continue
            opened.setdefault(step.target.choice, set()).add(step.target.index)
    return any(indices != set(range(len(indices))) for indices in opened.values())


def truncate(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Cut the stream at a point after the first tool item and before the
    turn's last terminal (or, drawn, before any tool activity).

    Reproduces dropped connections, proxy timeouts and clients that execute
    whatever they have when the stream ends.
    Label: a cut after tool activity is blocked ``missing_terminal`` (every
    slot still open, and a begun message without its end: Anthropic
    ``message_delta``/``message_stop``, Bedrock ``messageStop``, Responses
    ``response.completed``), plus ``missing_slot`` when an
    interleaving had opened a later slot before an earlier one; a cut before
    any tool activity is ``not_applicable`` (with ``missing_terminal`` when a
    text block was left open).
    Shrinks toward: the earliest cut after the first tool item.
    """
    first = _first_activity(turn)
    last = _last_needed(turn)
    if draw(st.booleans()):
        k = draw(st.integers(0, first))
    else:
        k = draw(st.integers(first + 1, last))
    fx.final = _prefix_label(turn, k)
    turn.steps = turn.steps[:k]


def _parse_points(turn: Turn) -> list[int]:
    """Cut lengths ``k`` right after the step where a call's arguments first
    become parseable JSON, before the call's terminal."""
    out = []
    for call in turn.slot_calls():
        terminal = turn.terminal_index(call)
        acc = ""
        point = None
        if turn.profile == RESPONSES and isinstance(call.start_input, str):
            acc = call.start_input
            if acc and jt.parses(acc):
                point = turn.step_of("start", call)
        for i in turn.frag_steps(call) if point is None else []:
            text = turn.steps[i].text
            acc += text if isinstance(text, str) else ""
            if acc and jt.parses(acc):
                point = i
                break
        if point is None and turn.profile == "anthropic" and acc == "":
            start = turn.step_of("start", call)
            if call.start_input not in (None, MISSING):
                point = start
        if point is None and turn.profile == BEDROCK and acc == "":
            point = turn.step_of("start", call)  # the implied input {}
        if point is not None and terminal is not None and point < terminal:
            out.append(point + 1)
    return sorted(set(out))


def truncate_parseable(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Cut the stream right after the fragment with which a call's arguments
    first parse as JSON (for an Anthropic call without deltas, a Responses
    call whose added item holds the arguments, a Bedrock call without delta
    text (the implied ``{}``): right after its start), before the call's
    terminal.

    Reproduces the premature-execution trap: clients that execute as soon as
    the arguments parse, although the stream (and maybe the call) is not
    over.
    Label: blocked ``missing_terminal`` (plus ``missing_slot`` when an
    interleaving had opened a later slot first, as for ``truncate``).
    Shrinks toward: the earliest such point.
    """
    k = draw(st.sampled_from(_parse_points(turn)))
    fx.final = _prefix_label(turn, k)
    turn.steps = turn.steps[:k]


def bad_index(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Give one tool item an index that cannot be attributed: null, a
    string, a negative number, a boolean, or (all but Mistral) none.
    Responses: the ``output_index`` of a call's added or closing item
    (argument events are routed by ``item_id``; a wrong ``output_index``
    there is ``identity_collision``); Bedrock: the ``contentBlockIndex`` of
    a tool block's start, delta or stop.

    Reproduces proxies that re-serialize indices badly, and clients that
    default a missing index to 0 (merging two calls).
    Label: blocked ``invalid_slot_index``; it is fatal, so nothing after it
    is interpreted and no other code is reported.
    Shrinks toward: the first tool item, index null.
    """
    if turn.profile == RESPONSES:
        kinds: tuple[str, ...] = ("start", "stop")
    elif turn.blocky:
        kinds = ("start", "frag", "stop")
    else:
        kinds = ("frag",)
    candidates = [
        i for i, s in enumerate(turn.steps) if s.kind in kinds and isinstance(s.target, Call)
    ]
    at = draw(st.sampled_from(candidates))
    step = turn.steps[at]
    index = step.target.index  # type: ignore[union-attr]
    options: list[Any] = [None, str(index), -1, -(index + 2), True]
    if turn.profile != "mistral":
        options.append(MISSING)
    key = {RESPONSES: "output_index", BEDROCK: "contentBlockIndex"}.get(turn.profile, "index")
    step.patch = dict(step.patch or {}, **{key: draw(st.sampled_from(options))})
    fx.final = Label("blocked", ("invalid_slot_index",))


def second_choice(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Add tool calls in a second choice (``choices[].index`` 1) of the same
    completion.

    Reproduces ``n > 1`` requests and servers that number choices wrongly;
    clients that merge all choices execute calls from several candidates.
    Label: blocked ``ambiguous_choice`` only (no per-call check runs).
    Shrinks toward: one copied call, appended after the first choice, with
    its own finish.
    """
    sources = turn.slot_calls()
    count = draw(st.integers(1, len(sources)))
    new_steps: list[Step] = []
    for call in sources[:count]:
        twin = Call(
            choice=1,
            index=call.index,
            id=f"{call.id}_c1",
            name=call.name,
            expected=call.expected,
            type_field=call.type_field,
            indexed=call.indexed,
        )
        turn.calls.append(twin)
        pieces = jt.draw_split(draw, _text_of(turn, call), max_cuts=2)
        for n, piece in enumerate(pieces):
            new_steps.append(
                Step(
                    "frag",
                    target=twin,
                    text=piece,
                    choice=1,
                    carries_id=n == 0,
                    carries_name=n == 0,
                )
            )
    if not draw(st.booleans()):
        new_steps.append(Step("finish", text="tool_calls", choice=1))
    start = _first_activity(turn)
    positions = sorted(
        draw(
            st.lists(
                st.integers(start, len(turn.steps)),
                min_size=len(new_steps),
                max_size=len(new_steps),
            )
        ),
        reverse=True,
    )
    if positions and not draw(st.booleans()):
        positions = [len(turn.steps)] * len(new_steps)
    for step, at in zip(reversed(new_steps), positions, strict=True):
        insert(turn, at, step)
    fx.final = Label("blocked", ("ambiguous_choice",))


def finish_without_calls(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Remove every client call but keep (or make) a tool-use end reason
    (``tool_calls`` / ``tool_use`` / Bedrock ``stopReason: "tool_use"``);
    Anthropic and Bedrock blocks are renumbered.  (Responses has no end
    reason that claims tool use: not applicable.)

    Reproduces servers that announce tool use but lose the calls (e.g. a
    call parsed out of the text failed), and clients that trust the end
    reason.
    Label: blocked ``terminal_without_calls`` (the claim makes the turn
    applicable).
    Shrinks toward: the turn with only its noise left.
    """
    calls = {id(c) for c in turn.calls}
    remove_steps(turn, lambda s: id(s.target) in calls)
    turn.calls = []
    reason = "tool_use" if turn.blocky else "tool_calls"
    for step in turn.steps:
        if step.kind == "finish":
            step.text = reason
    for n, block in enumerate(sorted(turn.blocks, key=lambda b: b.index)):
        block.index = n
    fx.final = Label("blocked", ("terminal_without_calls",))


def _has_finish(turn: Turn, fx: Effects) -> bool:
    return bool(turn.calls) and turn.finish_index(_call_choice(turn)) is not None


# -- verdict-breaking: identity ----------------------------------------------------


def drop_id(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Remove one call's id (key absent, ``null`` or ``""``).

    Reproduces local servers and proxies that omit ids; clients then
    cannot send the tool result back.
    Label: blocked ``missing_id`` (slot rank 2).
    Shrinks toward: the first free call, key absent.
    """
    call = _pick_call(draw, turn, fx)
    call.id = draw(st.sampled_from([MISSING, None, ""]))
    fx.claim(call)
    fx.slot(call, lb.RANK_ID, "missing_id")


def drop_name(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Remove one call's function name (key absent, ``null`` or ``""``).

    Reproduces servers that send the name only in a chunk that got lost.
    Label: blocked ``missing_name`` (slot rank 3).
    Shrinks toward: the first free call, key absent.
    """
    call = _pick_call(draw, turn, fx)
    call.name = draw(st.sampled_from([MISSING, None, ""]))
    fx.claim(call)
    fx.slot(call, lb.RANK_NAME, "missing_name")


def _dup_pairs(turn: Turn, fx: Effects) -> list[tuple[Call, Call]]:
    calls = _free_calls(turn, fx)
    return [
        (a, b)
        for n, a in enumerate(calls)
        for b in calls[n + 1 :]
        if a.choice == b.choice and isinstance(a.id, str) and a.id
    ]


def duplicate_id(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Give a call the id of an earlier call (slot order) of its choice.

    Reproduces servers that derive ids from a counter reset per chunk, or
    reuse ``call_0``; tool results can then not be matched to calls.
    Label: blocked ``duplicate_id`` on the later call (slot rank 4); the
    earlier call is claimed too, so that it stays checkable.
    Shrinks toward: the first pair of calls.
    """
    first, second = draw(st.sampled_from(_dup_pairs(turn, fx)))
    second.id = first.id
    fx.claim(first, second)
    fx.slot(second, lb.RANK_DUPLICATE_ID, "duplicate_id")


def _live_window(turn: Turn, call: Call) -> tuple[int, int] | None:
    opened = turn.open_index(call)
    terminal = turn.terminal_index(call)
    if opened is None or terminal is None:
        return None
    return opened + 1, terminal


def reuse_slot(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Start a second call on a live slot: a fragment (OpenAI/Mistral), a
    ``content_block_start`` (Anthropic), an ``output_item.added`` (Responses,
    another item id) or a ``contentBlockStart`` (Bedrock) with the slot's
    index but another id (or the same id and another name), while the slot
    is still open.  Responses, drawn: instead, the closing
    ``output_item.done`` names another ``call_id`` (or name) than the added
    item did.

    Reproduces servers that restart indices at 0 for each call, and
    clients that merge both calls into one (or take the closing item's
    identity).
    Label: blocked ``identity_collision`` (found while reading; the slot
    absorbs the rest of its items).
    Shrinks toward: the first free call, right after it opened, another id.
    """
    call = _pick_call(draw, turn, fx)
    window = _live_window(turn, call)
    assert window is not None
    at = draw(st.integers(*window))
    other_names = [n for n in turn.tool_schemas if n != call.name] + [f"{call.name}_2"]
    if draw(st.booleans()):
        ident = (call.id, draw(st.sampled_from(other_names)))
    else:
        ident = (f"{call.id}_2", draw(st.sampled_from([call.name, *other_names])))
    if turn.profile == RESPONSES:
        closing: list[dict[str, Any]] = []
        if ident[0] != call.id and "id" not in call.late_identity:
            closing.append({"call_id": ident[0]})
        if ident[1] != call.name and "name" not in call.late_identity:
            closing.append({"name": ident[1]})
        if closing and draw(st.booleans()):
            stop = turn.steps[window[1]]
            stop.inner = {**(stop.inner or {}), **closing[0]}
            fx.claim(call)
            fx.slot(call, lb.RANK_FEED, "identity_collision")
            return
    if turn.blocky:
        step = Step("start", target=call, ident=ident)
    else:
        text = draw(st.sampled_from(["", "{", "{}"]))
        step = Step("frag", target=call, text=text, choice=call.choice, ident=ident)
    insert(turn, at, step)
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "identity_collision")


# -- verdict-breaking: arguments text ---------------------------------------------


def empty_arguments(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Make one call's arguments reassemble to the empty string (every
    fragment ``""`` or without ``arguments``; Anthropic: no ``input`` in the
    start block and no delta text; Responses: deltas ``""`` or none, the
    added item's ``arguments`` ``""``, ``null`` or absent, and both
    restatements ``""``).  Not for Bedrock, where a tool block without
    input text is the no-argument call ``{}``.

    Reproduces servers that send ``""`` for tools without parameters, which
    clients then pass to ``json.loads``.
    Label: blocked ``empty_arguments`` (slot rank 6).
    Shrinks toward: the first free call, every fragment ``""``.
    """
    call = _pick_call(draw, turn, fx)
    if turn.profile == "anthropic":
        if draw(st.booleans()):
            set_fragments(turn, call, [])
        else:
            set_fragments(turn, call, ["" for _ in turn.frag_steps(call)])
        call.start_input = draw(st.sampled_from([MISSING, None]))
    elif turn.profile == RESPONSES:
        if draw(st.booleans()):
            set_fragments(turn, call, [])
        else:
            set_fragments(turn, call, ["" for _ in turn.frag_steps(call)])
        call.start_input = draw(st.sampled_from(["", None, MISSING]))
    else:
        for i in turn.frag_steps(call):
            turn.steps[i].text = draw(st.sampled_from(["", MISSING]))
    fx.claim(call)
    fx.slot(call, lb.RANK_EMPTY, "empty_arguments")


def _text_op(code: str, rank: int) -> Callable[..., None]:
    def finish(draw: Draw, turn: Turn, fx: Effects, call: Call, text: str) -> None:
        set_text(draw, turn, call, text)
        fx.claim(call)
        fx.slot(call, rank, code)

    return finish


_malformed = _text_op("malformed_json", lb.RANK_JSON)
_trailing = _text_op("trailing_data", lb.RANK_JSON)
_non_finite = _text_op("non_finite_number", lb.RANK_JSON)
_dup_key = _text_op("duplicate_key", lb.RANK_JSON)
_surrogate = _text_op("invalid_unicode", lb.RANK_JSON)
_non_object = _text_op("non_object_arguments", lb.RANK_NON_OBJECT)

_BAD_VALUES = [
    "01",
    "tru",
    "'x'",
    "+1",
    ".5",
    "1.",
    "-",
    "1e",
    "0x1F",
    '"a\\x"',
    '"\\u12G4"',
    '"tab\there"',
    '"line\nbreak"',
    "[1,]",
    '{"a" 1}',
    '"unterminated',
]


def corrupt_json(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Make one call's arguments text invalid JSON: the closing brace
    dropped, a trailing comma, a member with a malformed value (leading
    zero, bare ``tru``, single quotes, ``+1``, ``.5``, ``1.``, bad escape,
    raw control character in a string, unterminated string...), garbage
    before the document, a single-quoted key.

    Reproduces truncated or hand-built JSON, models that write Python
    literals, and lenient parsers that accept all of it.
    Label: blocked ``malformed_json`` (slot rank 7).
    Shrinks toward: the first free call with its closing brace dropped.
    """
    call = _pick_call(draw, turn, fx)
    text = _text_of(turn, call)
    kind = draw(st.sampled_from(["unclosed", "trailing_comma", "bad_member", "prefix", "quote"]))
    if kind == "quote" and not jt.top_keys(text):
        kind = "unclosed"
    body = text.rstrip(jt.JSON_WS)
    tail = text[len(body) :]
    if kind == "unclosed":
        new = body[:-1] + tail
    elif kind == "trailing_comma":
        new = body[:-1] + "," + "}" + tail
    elif kind == "bad_member":
        key = jt.fresh_key(text)
        new = jt.add_member(text, f'"{key}": {draw(st.sampled_from(_BAD_VALUES))}')
    elif kind == "prefix":
        new = draw(st.sampled_from(["x", "}", ",", "]"])) + text
    else:
        new = text.replace('"', "'", 1)
    _malformed(draw, turn, fx, call, new)


def trailing_document(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Append something after the JSON document: a second document, stray
    characters, a non-JSON-whitespace space (U+00A0).

    Reproduces servers that concatenate documents and parsers that stop at
    the first complete value.
    Label: blocked ``trailing_data`` (slot rank 7).
    Shrinks toward: the first free call followed by ``{}``.
    """
    call = _pick_call(draw, turn, fx)
    text = _text_of(turn, call)
    extra = draw(
        st.sampled_from(
            ["{}", text.strip(jt.JSON_WS), "[]", "1", '"s"', "null", "}", "]", "x", ",", "\u00a0"]
        )
    )
    gap = draw(st.sampled_from(["", " ", "\n"]))
    _trailing(draw, turn, fx, call, text + gap + extra)


def double_arguments(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send the whole arguments text once more, as an extra fragment after
    the call's fragments (a "flush" of the buffered arguments).

    Reproduces servers that stream deltas and then the full value (some
    vLLM/OpenAI-compatible servers at flush).
    Label: blocked ``trailing_data`` (slot rank 7).
    Shrinks toward: the first free call.
    """
    call = _pick_call(draw, turn, fx)
    text = _text_of(turn, call)
    frags = turn.fragments(call)
    pieces = frags if "".join(f for f in frags if isinstance(f, str)) == text and frags else [text]
    set_fragments(turn, call, [*pieces, text])
    fx.claim(call)
    fx.slot(call, lb.RANK_JSON, "trailing_data")


def non_object(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Make one call's arguments valid JSON that is not an object: an array,
    the object wrapped in an array, a string (including the object text
    JSON-encoded again), a number, ``true``, ``null``.

    Reproduces double-encoded arguments and models that answer a bare value.
    Label: blocked ``non_object_arguments`` (slot rank 8).
    Shrinks toward: the first free call, ``[]``.
    """
    call = _pick_call(draw, turn, fx)
    text = _text_of(turn, call)
    new = draw(
        st.sampled_from(
            ["[]", "[" + text + "]", jt.dump_string(text), '"x"', "1", "true", "null", "-0.5"]
        )
    )
    _non_object(draw, turn, fx, call, new)


def _nested_objects(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = []
    if isinstance(value, dict):
        out.append(path)
        for k, v in value.items():
            out.extend(_nested_objects(v, (*path, k)))
    elif isinstance(value, list):
        for n, v in enumerate(value):
            out.extend(_nested_objects(v, (*path, n)))
    return out


def _dumps_with_extra(value: Any, path: tuple[Any, ...], member: str) -> str:
    """Compact JSON of ``value`` with ``member`` (raw text) appended to the
    object at ``path``."""

    def go(node: Any, here: tuple[Any, ...]) -> str:
        if isinstance(node, dict):
            items = [jt.dump_string(k) + ":" + go(v, (*here, k)) for k, v in node.items()]
            if here == path:
                items.append(member)
            return "{" + ",".join(items) + "}"
        if isinstance(node, list):
            return "[" + ",".join(go(v, (*here, n)) for n, v in enumerate(node)) + "]"
        return jt.dumps(node)

    return go(value, ())


def duplicate_key(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Repeat a key in an object of the arguments: an existing key again,
    the same key spelled with ``\\u`` escapes (equal once decoded), the
    empty key twice, or a key repeated in a nested object.

    Reproduces buggy incremental JSON writers; parsers disagree on which
    value wins, so what runs differs from what was checked.
    Label: blocked ``duplicate_key`` (slot rank 7).
    Shrinks toward: the first free call, its first key repeated at the top.
    """
    call = _pick_call(draw, turn, fx)
    text = _text_of(turn, call)
    value = jt.loads(text)
    keys = jt.top_keys(text)
    scalar = jt.dumps(draw(st.sampled_from([1, "x", None, True])))
    kind = draw(st.sampled_from(["again", "escaped", "empty", "nested"]))
    if kind in ("again", "escaped") and keys:
        key = draw(st.sampled_from(keys))
        spelled = jt.dump_string(key, escape="all" if kind == "escaped" else "raw")
        new = jt.add_member(text, f"{spelled}: {scalar}")
    elif kind == "nested":
        path = draw(st.sampled_from(_nested_objects(value)))
        node = value
        for part in path:
            node = node[part]
        if node:
            key = draw(st.sampled_from(list(node)))
            new = _dumps_with_extra(value, path, jt.dump_string(key) + ":" + scalar)
        else:
            new = _dumps_with_extra(value, path, '"k":1,"k":' + scalar)
    else:
        key = "" if kind == "empty" else jt.fresh_key(text)
        spelled = jt.dump_string(key)
        new = jt.add_member(text, f"{spelled}: 1, {spelled}: {scalar}")
    _dup_key(draw, turn, fx, call, new)


def inject_non_finite(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Add ``NaN``, ``Infinity`` or ``-Infinity`` to the arguments (as a
    member value or inside an array).

    Reproduces Python ``json.dumps`` output (``allow_nan=True``) and
    JavaScript-ish writers; strict consumers reject it, lenient ones pass
    ``nan`` to tools.
    Label: blocked ``non_finite_number`` (slot rank 7).
    Shrinks toward: the first free call, ``NaN`` as a new member.
    """
    call = _pick_call(draw, turn, fx)
    text = _text_of(turn, call)
    token = draw(st.sampled_from(["NaN", "Infinity", "-Infinity"]))
    value = draw(st.sampled_from([token, f"[1, {token}]", f'{{"v": {token}}}']))
    _non_finite(draw, turn, fx, call, jt.add_member(text, f'"{jt.fresh_key(text)}": {value}'))


_LONE = [
    "\\ud800",
    "\\udfff",
    "\\ud83dx",
    "\\ude00\\ud83d",
    "\\ud83d\\u0041",
    "\\uD83D",
    "\\ud83d\\ud83d",
    "a\\udc00b",
]


def lone_surrogate(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Put an unpaired surrogate escape in the arguments (a lone high or
    low half, a reversed pair, a high half followed by a non-surrogate),
    in a string value or in a key.

    Reproduces writers that split astral characters into UTF-16 halves
    and drop one; the text has no UTF-8 form.
    Label: blocked ``invalid_unicode`` (slot rank 7).
    Shrinks toward: the first free call, ``"\\ud800"`` as a new member.
    """
    call = _pick_call(draw, turn, fx)
    text = _text_of(turn, call)
    bad = draw(st.sampled_from(_LONE))
    if draw(st.booleans()):
        member = f'"{bad}": 1'
    else:
        member = f'"{jt.fresh_key(text)}": "{bad}"'
    _surrogate(draw, turn, fx, call, jt.add_member(text, member))


def object_fragment(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send one arguments fragment as a JSON value that is not a string
    (the arguments object itself, ``{}``, ``[]``, a number, ``true``;
    Anthropic, Responses and Bedrock also ``null`` or no text field), or
    (drawn) the call's id or name as a non-string (a number, an object, an
    array, ``true``).  Responses: the fragment is a
    ``function_call_arguments.delta``, or (drawn) the restatement in
    ``function_call_arguments.done`` or the added item's ``arguments``;
    the id is ``call_id`` (on the added and the closing item).  Bedrock:
    ``toolUse.input`` of a delta, ``toolUseId``/``name`` of the start.

    Reproduces servers (and SDK shims) that put the parsed object in
    ``arguments`` (``input``) instead of its text, and numeric ids.
    Label: blocked ``non_string_fragment`` (found while reading).
    Shrinks toward: the first free call's first fragment, as the object.
    """
    call = _pick_call(draw, turn, fx)
    text = _text_of(turn, call)
    field = draw(st.sampled_from(["arguments", "id", "name"]))
    where = "delta"
    if field == "arguments" and turn.profile == RESPONSES:
        where = draw(st.sampled_from(["delta", "arguments_done", "added_item"]))
    if where != "delta":
        value = draw(st.sampled_from([jt.loads(text), {}, [], 1, True]))
        restate = turn.step_of("restate", call)
        if where == "arguments_done" and restate is not None:
            turn.steps[restate].text = value
        else:
            call.start_input = value
    elif field == "arguments":
        if not turn.frag_steps(call):
            set_text(draw, turn, call, text)
        frags = turn.frag_steps(call)
        at = frags[draw(st.integers(0, len(frags) - 1))]
        options: list[Any] = [jt.loads(text), {}, [], 1, True]
        if turn.blocky:
            options += [None, MISSING]
        turn.steps[at].text = draw(st.sampled_from(options))
    else:
        value = draw(st.sampled_from([7, {field: "x"}, [field], True]))
        setattr(call, field, value)
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "non_string_fragment")


def rename_tool(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Rename one call to a tool that has no schema: a suffix, other case,
    a trailing space, a ``functions.`` prefix, a Cyrillic look-alike...

    Reproduces models that hallucinate tool names and servers that prefix
    them; clients that dispatch by fuzzy match.
    Label: blocked ``unknown_tool`` (slot rank 9).
    Shrinks toward: the first free call, suffix ``_v2``.
    """
    call = _pick_call(draw, turn, fx)
    name = call.name
    options = [
        name + "_v2",
        name.upper(),
        name + " ",
        "functions." + name,
        name.replace("a", "\u0430").replace("e", "\u0435"),
        name[:-1],
        "unknown_tool",
    ]
    options = [o for o in options if o and o != name and o not in turn.tool_schemas]
    call.name = draw(st.sampled_from(options))
    fx.claim(call)
    fx.slot(call, lb.RANK_UNKNOWN_TOOL, "unknown_tool")


# -- verdict-breaking: schema ----------------------------------------------------------


def _violable(turn: Turn, fx: Effects) -> list[tuple[Call, list[tuple[Any, ...]]]]:
    out = []
    for call in _free_calls(turn, fx):
        schema = turn.tool_schemas.get(call.name)
        if not isinstance(schema, dict):
            continue
        try:
            value = jt.loads(_text_of(turn, call))
        except ValueError:
            continue
        sites = violation_sites(schema, value)
        if sites:
            out.append((call, sites))
    return out


def schema_violation(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Edit one call's arguments so they break the tool's schema at a spot
    that is certainly checked: drop a required property, a wrong type, an
    extra property under ``additionalProperties: false``, a value out of
    ``minimum``/``maximum``/``exclusive*``, a string or array out of its
    length bounds, a value outside ``enum``/``const``.

    Reproduces models that ignore the schema and clients that execute
    whatever parses.
    Label: blocked ``schema_violation`` (slot rank 11).
    Shrinks toward: the first violable call, its first site.
    """
    call, sites = draw(st.sampled_from(_violable(turn, fx)))
    site = draw(st.sampled_from(sites))
    value = break_at(draw, jt.loads(_text_of(turn, call)), site)
    set_text(draw, turn, call, compact(value))
    fx.claim(call)
    fx.slot(call, lb.RANK_VIOLATION, "schema_violation")


_UNSUPPORTED: list[tuple[str, Any]] = [
    ("nullable", True),
    ("x-order", 1),
    ("oneOf", [{}]),
    ("uniqueItems", True),
    ("minProperties", 1),
    ("patternProperties", {"^x": {}}),
    ("not", {"type": "null"}),
    ("unevaluatedProperties", False),
    ("dependentRequired", {"a": ["b"]}),
    ("propertyNames", {"maxLength": 64}),
    ("requried", ["a"]),
]


def _keyword_tools(turn: Turn, fx: Effects) -> list[str]:
    out = []
    for name in turn.tool_schemas:
        users = [c for c in turn.calls if c.name == name]
        if (
            users
            and all(fx.is_free(c) for c in users)
            and isinstance(turn.tool_schemas[name], dict)
        ):
            out.append(name)
    return out


def unsupported_keyword(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Add a keyword outside the validator's schema subset to the schema of
    a called tool, at the top or in a property's schema: ``nullable``
    (OpenAPI), a vendor ``x-`` extension, ``oneOf``, ``uniqueItems``,
    ``minProperties``, ``patternProperties``, ``not``,
    ``unevaluatedProperties``, ``dependentRequired``, ``propertyNames``, a
    misspelling (``requried``).

    Reproduces schemas written for another dialect; a validator that
    ignores unknown keywords silently checks less than the author meant.
    Label: blocked ``unsupported_schema_keyword`` for every call of that
    tool (slot rank 10; all those calls are claimed).
    Shrinks toward: the first called tool, ``nullable`` at the top.
    """
    name = draw(st.sampled_from(_keyword_tools(turn, fx)))
    schema = copy.deepcopy(turn.tool_schemas[name])
    keyword, value = draw(st.sampled_from(_UNSUPPORTED))
    props = schema.get("properties")
    targets = (
        [k for k, v in props.items() if isinstance(v, dict)] if isinstance(props, dict) else []
    )
    if targets and draw(st.booleans()):
        schema["properties"][draw(st.sampled_from(targets))][keyword] = value
    else:
        schema[keyword] = value
    turn.tool_schemas[name] = schema
    users = [c for c in turn.calls if c.name == name]
    fx.claim(*users)
    for call in users:
        fx.slot(call, lb.RANK_SCHEMA, "unsupported_schema_keyword")


def prefill_input(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Anthropic: put a non-empty ``input`` in ``content_block_start`` and
    also stream the arguments as ``input_json_delta`` text.

    Reproduces proxies that convert non-streamed responses and keep the
    input, and clients that merge (or pick) one of the two.
    Label: blocked ``conflicting_input`` (slot rank 5).
    Shrinks toward: the first free call, its own arguments as start input.
    """
    call = _pick_call(draw, turn, fx)
    text = _text_of(turn, call)
    value = jt.loads(text)
    set_text(draw, turn, call, text)
    call.start_input = value if value else draw(st.sampled_from([{"prefill": True}, {"a": 1}]))
    fx.claim(call)
    fx.slot(call, lb.RANK_CONFLICT, "conflicting_input")


def _restated_calls(turn: Turn, fx: Effects) -> list[Call]:
    return [
        c
        for c in _free_calls(turn, fx)
        if turn.step_of("restate", c) is not None and turn.step_of("stop", c) is not None
    ]


def mismatch_done(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Responses: restate other arguments than the deltas streamed, in
    ``function_call_arguments.done`` or (drawn) in the closing
    ``output_item.done`` item: the text without its last character, the
    same object re-serialized (other whitespace, key order, escapes), the
    empty string, the text plus a space, another object.

    Reproduces servers whose final event is built from another buffer than
    the deltas (re-serialized, truncated, or from another call), and clients
    that execute the restated arguments (or the deltas) without comparing.
    Label: blocked ``arguments_mismatch`` (found while reading; the call is
    claimed).
    Shrinks toward: the first free call, ``function_call_arguments.done``
    without the last character.
    """
    call = draw(st.sampled_from(_restated_calls(turn, fx)))
    text = joined(turn, call)
    where = draw(st.sampled_from(["arguments_done", "item_done"]))
    kind = draw(st.sampled_from(["drop_last", "reencoded", "empty", "extra_space", "other"]))
    if kind == "drop_last":
        new = text[:-1]
    elif kind == "reencoded":
        value = jt.draw_reorder(draw, jt.loads(text))
        new = jt.dumps(value, **jt.draw_style(draw))
    elif kind == "empty":
        new = ""
    elif kind == "extra_space":
        new = text + " "
    else:
        new = draw(st.sampled_from(['{"city": "Rome"}', "{}", '{"a": 1}']))
    if new == text:
        new = text + " "
    step = turn.steps[turn.step_of("restate" if where == "arguments_done" else "stop", call)]  # type: ignore[index]
    step.text = new
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "arguments_mismatch")


# -- verdict-breaking: terminals and turn-level ------------------------------------------


def wrong_finish(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Replace the end reason of the choice (message) with calls by one that
    does not mean "execute": OpenAI/Mistral ``stop`` (when the request does
    not force a call), ``length``, ``content_filter``, ``function_call``;
    Anthropic ``max_tokens``, ``end_turn``, ``stop_sequence``, ``refusal``,
    ``pause_turn``; Responses ``response.incomplete`` (with
    ``incomplete_details.reason`` ``max_output_tokens`` or
    ``content_filter``) or ``response.failed`` instead of
    ``response.completed``; Bedrock ``stopReason`` ``max_tokens``,
    ``end_turn``, ``stop_sequence``, ``guardrail_intervened``,
    ``content_filtered``.

    Reproduces truncated generations (``length``/``max_tokens``: the last
    call is likely cut) and filtered output that clients still execute.
    Label: blocked ``wrong_terminal_reason`` (turn level).
    Shrinks toward: ``length`` / ``max_tokens`` / ``response.incomplete``.
    """
    if turn.profile == RESPONSES:
        reason = draw(st.sampled_from(["response.incomplete", "response.failed"]))
        detail = draw(st.sampled_from(["max_output_tokens", "content_filter"]))
        for step in turn.steps:
            if step.kind == "finish":
                _set_ending(step, reason, detail)
        fx.turn("wrong_terminal_reason")
        return
    if turn.profile == "anthropic":
        options = ["max_tokens", "end_turn", "stop_sequence", "refusal", "pause_turn"]
    elif turn.profile == BEDROCK:
        options = [
            "max_tokens",
            "end_turn",
            "stop_sequence",
            "guardrail_intervened",
            "content_filtered",
        ]
    else:
        options = ["length", "content_filter", "function_call"]
        if turn.profile == "mistral":
            options += ["model_length", "error"]
        if not forced(turn):
            options.insert(1, "stop")
    reason = draw(st.sampled_from(options))
    choice = _call_choice(turn)
    for step in turn.steps:
        if step.kind == "finish" and step.choice == choice:
            step.text = reason
    fx.turn("wrong_terminal_reason")


def _set_ending(step: Step, kind: str, detail: str = "max_output_tokens") -> None:
    """Responses: make a ``finish`` step end with ``kind``; its response
    object follows (``status``, ``incomplete_details``, ``error``)."""
    step.text = kind
    raw = copy.deepcopy(step.raw) if isinstance(step.raw, dict) else {"type": kind}
    response = raw.get("response")
    if not isinstance(response, dict):
        response = raw["response"] = {"id": "resp_gen", "object": "response"}
    response["status"] = RESPONSE_ENDINGS[kind]
    response.pop("incomplete_details", None)
    response.pop("error", None)
    if kind == "response.incomplete":
        response["incomplete_details"] = {"reason": detail}
    elif kind == "response.failed":
        response["error"] = {"code": "server_error", "message": "The model failed"}
    step.raw = raw


def _after(draw: Draw, turn: Turn, index: int) -> int:
    at: int = draw(st.integers(index + 1, len(turn.steps)))
    return at


def _dup_terminal_targets(turn: Turn, fx: Effects) -> list[str]:
    out = []
    if "duplicate_terminal" not in fx.turn_codes:
        if turn.finish_index(_call_choice(turn)) is not None:
            out.append("finish")
        if any(s.kind == "mstop" for s in turn.steps):
            out.append("mstop")
    if turn.blocky and any(
        fx.is_free(b) and turn.step_of("stop", b) is not None for b in turn.blocks_in_order()
    ):
        out.append("block")
    return out


def duplicate_terminal(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send a terminal twice: a second ``finish_reason`` in the choice
    (OpenAI/Mistral), a second ``message_delta.stop_reason``, a second
    ``message_stop`` or a second ``content_block_stop`` for a block
    (Anthropic), a second ``response.completed`` (or ``.incomplete`` /
    ``.failed``) or a second ``output_item.done`` for a call or an item
    (Responses), a second ``messageStop`` or ``contentBlockStop`` (Bedrock),
    anywhere after the first.

    Reproduces servers that repeat the final chunk (retries, proxies
    replaying buffers); the second may carry another reason.
    Label: blocked ``duplicate_terminal`` (turn level; for a block's or an
    item's second stop the block is claimed, since the finding blocks it).
    Shrinks toward: the finish repeated right after the first.
    """
    kind = draw(st.sampled_from(_dup_terminal_targets(turn, fx)))
    if kind == "finish":
        first = turn.finish_index(_call_choice(turn))
        assert first is not None
        if turn.profile == RESPONSES:
            options = list(RESPONSE_ENDINGS)
        elif turn.blocky:
            options = ["tool_use", "end_turn"]
        else:
            options = ["tool_calls", "stop", "length"]
        step = Step(
            "finish",
            text=draw(st.sampled_from(options)),
            choice=_call_choice(turn),
            raw=copy.deepcopy(turn.steps[first].raw),
        )
        if turn.profile == RESPONSES:
            _set_ending(step, step.text)
        insert(turn, _after(draw, turn, first), step)
        fx.turn("duplicate_terminal")
    elif kind == "mstop":
        first = max(i for i, s in enumerate(turn.steps) if s.kind == "mstop")
        insert(turn, _after(draw, turn, first), Step("mstop", raw={"type": "message_stop"}))
        fx.turn("duplicate_terminal")
    else:
        blocks = [
            b
            for b in turn.blocks_in_order()
            if fx.is_free(b) and turn.step_of("stop", b) is not None
        ]
        block = draw(st.sampled_from(blocks))
        stop = turn.step_of("stop", block)
        assert stop is not None
        again = Step("stop", target=block)
        if turn.profile in (RESPONSES, BEDROCK):
            first_stop = turn.steps[stop]
            again.raw = copy.deepcopy(first_stop.raw)
            again.text = first_stop.text
            again.inner = copy.deepcopy(first_stop.inner)
        insert(turn, _after(draw, turn, stop), again)
        fx.claim(block)
        fx.slot(block, lb.RANK_FEED, "duplicate_terminal")


_NEW_SLOT = "new slot"


def _turn_end(turn: Turn) -> int | None:
    """Where a scope has ended for good: OpenAI/Mistral the finish of the
    calls' choice, Anthropic the ``message_stop``, Responses
    ``response.completed``, Bedrock ``messageStop``."""
    if turn.profile == "anthropic":
        return next((i for i, s in enumerate(turn.steps) if s.kind == "mstop"), None)
    return turn.finish_index(_call_choice(turn))


def _late_targets(turn: Turn, fx: Effects) -> list[Any]:
    out: list[Any] = [c for c in _free_calls(turn, fx) if turn.terminal_index(c) is not None]
    if turn.profile in ("anthropic", BEDROCK):
        # (Responses text events are not checked: its message items are not
        # targets.)
        out += [
            b for b in text_blocks(turn) if fx.is_free(b) and turn.step_of("stop", b) is not None
        ]
    if turn.calls and _turn_end(turn) is not None:
        out.append(_NEW_SLOT)
    return out


def _late_call(draw: Draw, turn: Turn, fx: Effects) -> None:
    end = _turn_end(turn)
    assert end is not None
    model = turn.slot_calls()[0]
    name = draw(st.sampled_from(list(turn.tool_schemas) or [model.name]))
    at = _after(draw, turn, end)
    if turn.profile == "anthropic":
        index = 1 + max(b.index for b in turn.blocks_in_order())
        call = Call(
            choice=0, index=index, id="toolu_late", name=name, start_input={}, expected="{}"
        )
        steps = [
            Step("start", target=call),
            Step("frag", target=call, text="{}"),
            Step("stop", target=call),
        ]
    elif turn.blocky:
        index = 1 + max(b.index for b in turn.blocks_in_order())
        call = Call(choice=0, index=index, id="tooluse_late", name=name, expected="{}")
        steps = [
            Step("start", target=call),
            Step("frag", target=call, text="{}"),
            Step("stop", target=call),
        ]
        if turn.profile == RESPONSES:
            # Item ids route the argument events: each late call has its own.
            number = _fresh_item_id(turn, "fc_late").removeprefix("fc_late")
            call.id, call.item_id = f"call_late{number}", f"fc_late{number}"
            call.start_input = ""
            steps.insert(2, Step("restate", target=call))
    else:
        index = 1 + max(c.index for c in turn.calls if c.choice == model.choice)
        call = Call(
            choice=model.choice,
            index=index,
            id="call_late",
            name=name,
            expected="{}",
            type_field=model.type_field,
            indexed=model.indexed,
        )
        steps = [
            Step(
                "frag",
                target=call,
                text="{}",
                choice=model.choice,
                carries_id=True,
                carries_name=True,
            )
        ]
    turn.calls.append(call)
    insert(turn, at, *steps)
    fx.claim(call)
    fx.slot(call, lb.RANK_FEED, "delta_after_terminal")


def delta_after_terminal(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Send a fragment for a slot after its terminal: an arguments fragment
    after the choice's ``finish_reason`` (OpenAI/Mistral), an
    ``input_json_delta`` after the block's ``content_block_stop`` or a text
    delta after a text block's stop (Anthropic), a
    ``function_call_arguments.delta`` or ``.done`` after the call's
    ``output_item.done`` (Responses), a ``toolUse`` delta after the tool
    block's ``contentBlockStop`` or a text delta after a text block's stop
    (Bedrock); or a whole new call after the turn's end (after the
    ``finish_reason``; after ``message_stop``, ``response.completed``,
    ``messageStop``).

    Reproduces servers that flush buffered deltas late, and clients that
    executed at the terminal and then keep appending.
    Label: blocked ``delta_after_terminal`` (found while reading; the slot
    is claimed).
    Shrinks toward: the first free call, an empty fragment right after the
    terminal.
    """
    target = draw(st.sampled_from(_late_targets(turn, fx)))
    if target == _NEW_SLOT:
        _late_call(draw, turn, fx)
        return
    if isinstance(target, Call):
        terminal = turn.terminal_index(target)
        assert terminal is not None
        text = draw(st.sampled_from(["", "}", " ", '{"x": 1}']))
        step = Step("frag", target=target, text=text, choice=target.choice)
        if turn.profile == RESPONSES and draw(st.booleans()):
            step = Step("restate", target=target)  # restates the text once more
    else:
        terminal = turn.step_of("stop", target)
        assert terminal is not None
        raw: dict[str, Any]
        if turn.profile == BEDROCK:
            raw = {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "late"}}}
        else:
            raw = {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": "late"},
            }
        step = Step("delta", target=target, raw=raw)
    insert(turn, _after(draw, turn, terminal), step)
    fx.claim(target)
    fx.slot(target, lb.RANK_FEED, "delta_after_terminal")


def provider_error(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Insert an in-stream error (OpenAI/Mistral ``{"error": {...}}`` chunk,
    Anthropic or Responses ``error`` event, a Bedrock ``*Exception`` event:
    ``modelStreamErrorException``, ``internalServerException``,
    ``throttlingException``, ``serviceUnavailableException``,
    ``validationException``) anywhere; the stream then goes on.

    Reproduces overloaded or failing upstreams that report an error and
    still (partly) stream; clients that ignore the error event.
    Label: blocked ``provider_error`` (turn level, not fatal: every other
    finding is still reported).
    Shrinks toward: the error first in the stream.
    """
    at = draw(st.integers(0, len(turn.steps)))
    if turn.profile == "anthropic":
        kind = draw(st.sampled_from(["overloaded_error", "api_error"]))
        raw: dict[str, Any] = {"type": "error", "error": {"type": kind, "message": "Overloaded"}}
    elif turn.profile == RESPONSES:
        code = draw(st.sampled_from(["server_error", "rate_limit_exceeded"]))
        raw = {"type": "error", "code": code, "message": "The server had an error", "param": None}
    elif turn.profile == BEDROCK:
        kind = draw(
            st.sampled_from(
                [
                    "modelStreamErrorException",
                    "internalServerException",
                    "throttlingException",
                    "serviceUnavailableException",
                    "validationException",
                ]
            )
        )
        raw = {kind: {"message": "The model stream failed"}}
    else:
        raw = {
            "error": {
                "message": "The server had an error",
                "type": "server_error",
                "param": None,
                "code": None,
            }
        }
    insert(turn, at, Step("raw", raw=raw))
    fx.turn("provider_error")


def _gap_scopes(turn: Turn) -> list[list[Any]]:
    if turn.blocky:
        items = turn.blocks_in_order()
        return [items] if items else []
    groups: dict[int, list[Call]] = {}
    for call in turn.slot_calls():
        groups.setdefault(call.choice, []).append(call)
    return list(groups.values())


def gap_index(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Shift the index of one slot and of every later slot of its choice (for
    Anthropic and Bedrock: every content block; for Responses: every output
    item, ``output_index``) up by 1-3, leaving a gap.

    Reproduces dropped chunks that carried a whole call, and servers that
    number parallel calls from 1; clients that do not notice a lost call.
    Label: blocked ``missing_slot`` (turn level: slot order, and so every
    slot check, is unchanged).
    Shrinks toward: the first slot shifted by 1.
    """
    scope = draw(st.sampled_from(_gap_scopes(turn)))
    start = draw(st.integers(0, len(scope) - 1))
    shift = draw(st.integers(1, 3))
    pivot = scope[start].index
    for item in scope:
        if item.index >= pivot:
            item.index += shift
    fx.turn("missing_slot")


def _not_used(name: str) -> Callable[[Turn, Effects], bool]:
    def check(turn: Turn, fx: Effects) -> bool:
        return name not in fx.used

    return check


def _and(*checks: Callable[[Turn, Effects], bool]) -> Callable[[Turn, Effects], bool]:
    def check(turn: Turn, fx: Effects) -> bool:
        return all(c(turn, fx) for c in checks)

    return check


def _entry(
    op: Operator,
    profiles: tuple[str, ...],
    fn: Callable[[Draw, Turn, Effects], None],
    applies: Callable[[Turn, Effects], bool],
    *,
    code: str | None = None,
    combinable: bool = True,
    turn_level: bool = False,
) -> OperatorInfo:
    if turn_level:
        applies = _and(applies, _not_used(op.value))
    return OperatorInfo(
        name=op.value,
        profiles=profiles,
        preserving=code is None,
        code=code,
        apply=fn,
        applies=applies,
        combinable=combinable,
        turn_level=turn_level,
    )


_O = Operator
REGISTRY: dict[str, OperatorInfo] = {
    e.name: e
    for e in [
        _entry(_O.REFRAGMENT, ALL, refragment, _has_calls),
        _entry(_O.INSERT_NOISE, ALL, insert_noise, _always),
        _entry(_O.WHOLE_CALL, ALL, whole_call, _has_calls),
        _entry(_O.REPEAT_IDENTITY, CHAT, repeat_identity, _has_calls),
        _entry(_O.DELAY_IDENTITY, LATE_IDENTITY, delay_identity, _has_calls),
        _entry(_O.INTERLEAVE, ALL, interleave, lambda t, f: bool(_interleave_groups(t))),
        _entry(_O.REENCODE, ALL, reencode, _has_calls),
        _entry(_O.FORCED_CHOICE_STOP, CHAT, forced_choice_stop, _forced_stop_applies),
        _entry(_O.TRUNCATE, ALL, truncate, _has_calls, code="missing_terminal", combinable=False),
        _entry(_O.DROP_ID, ALL, drop_id, _has_free_call, code="missing_id"),
        _entry(_O.DROP_NAME, ALL, drop_name, _has_free_call, code="missing_name"),
        _entry(_O.RENAME_TOOL, ALL, rename_tool, _has_free_call, code="unknown_tool"),
        _entry(
            _O.EMPTY_ARGUMENTS,
            CAN_BE_EMPTY,
            empty_arguments,
            _has_free_call,
            code="empty_arguments",
        ),
        _entry(_O.CORRUPT_JSON, ALL, corrupt_json, _has_free_call, code="malformed_json"),
        _entry(_O.TRAILING_DOCUMENT, ALL, trailing_document, _has_free_call, code="trailing_data"),
        _entry(_O.DOUBLE_ARGUMENTS, ALL, double_arguments, _has_free_call, code="trailing_data"),
        _entry(_O.NON_OBJECT, ALL, non_object, _has_free_call, code="non_object_arguments"),
        _entry(_O.DUPLICATE_KEY, ALL, duplicate_key, _has_free_call, code="duplicate_key"),
        _entry(
            _O.INJECT_NON_FINITE, ALL, inject_non_finite, _has_free_call, code="non_finite_number"
        ),
        _entry(_O.LONE_SURROGATE, ALL, lone_surrogate, _has_free_call, code="invalid_unicode"),
        _entry(
            _O.OBJECT_FRAGMENT, ALL, object_fragment, _has_free_call, code="non_string_fragment"
        ),
        _entry(
            _O.WRONG_FINISH,
            ALL,
            wrong_finish,
            _has_finish,
            code="wrong_terminal_reason",
            turn_level=True,
        ),
        _entry(
            _O.FINISH_WITHOUT_CALLS,
            CLAIMS_TOOLS,
            finish_without_calls,
            _has_finish,
            code="terminal_without_calls",
            combinable=False,
        ),
        _entry(
            _O.DUPLICATE_TERMINAL,
            ALL,
            duplicate_terminal,
            lambda t, f: bool(t.calls) and bool(_dup_terminal_targets(t, f)),
            code="duplicate_terminal",
        ),
        _entry(
            _O.DELTA_AFTER_TERMINAL,
            ALL,
            delta_after_terminal,
            lambda t, f: bool(_late_targets(t, f)),
            code="delta_after_terminal",
        ),
        _entry(
            _O.PROVIDER_ERROR,
            ALL,
            provider_error,
            _has_calls,
            code="provider_error",
            turn_level=True,
        ),
        _entry(
            _O.DUPLICATE_ID,
            ALL,
            duplicate_id,
            lambda t, f: bool(_dup_pairs(t, f)),
            code="duplicate_id",
        ),
        _entry(
            _O.REUSE_SLOT,
            ALL,
            reuse_slot,
            lambda t, f: any(_live_window(t, c) for c in _free_calls(t, f)),
            code="identity_collision",
        ),
        _entry(
            _O.GAP_INDEX,
            ALL,
            gap_index,
            lambda t, f: bool(t.calls) and bool(_gap_scopes(t)),
            code="missing_slot",
            turn_level=True,
        ),
        _entry(
            _O.BAD_INDEX, ALL, bad_index, _has_calls, code="invalid_slot_index", combinable=False
        ),
        _entry(
            _O.TRUNCATE_PARSEABLE,
            ALL,
            truncate_parseable,
            lambda t, f: bool(_parse_points(t)),
            code="missing_terminal",
            combinable=False,
        ),
        _entry(
            _O.SCHEMA_VIOLATION,
            ALL,
            schema_violation,
            lambda t, f: bool(_violable(t, f)),
            code="schema_violation",
        ),
        _entry(
            _O.UNSUPPORTED_KEYWORD,
            ALL,
            unsupported_keyword,
            lambda t, f: bool(_keyword_tools(t, f)),
            code="unsupported_schema_keyword",
        ),
        _entry(
            _O.PREFILL_INPUT, ANTHROPIC, prefill_input, _has_free_call, code="conflicting_input"
        ),
        _entry(
            _O.MISMATCH_DONE,
            RESPONSES_ONLY,
            mismatch_done,
            lambda t, f: bool(_restated_calls(t, f)),
            code="arguments_mismatch",
        ),
        _entry(
            _O.SECOND_CHOICE,
            CHAT,
            second_choice,
            _has_calls,
            code="ambiguous_choice",
            combinable=False,
        ),
    ]
}

assert [e for e in REGISTRY] == [o.value for o in Operator]

PRESERVING = [e for e in REGISTRY.values() if e.preserving]
BREAKING = [e for e in REGISTRY.values() if not e.preserving]
