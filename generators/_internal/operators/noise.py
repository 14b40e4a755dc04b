"""Verdict-preserving noise: stream items that carry no call data.

One drawing function per wire format, in :data:`NOISE` (the operator layer's
table of what each format's noise looks like); ``insert_noise`` asks it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from .. import jsontext as jt
from ..edit import insert, text_blocks
from ..labels import Effects
from ..model import (
    Block,
    Call,
    Step,
    StepKind,
    Turn,
    anthropic,
    chat,
    cohere,
    gemini_interactions,
    responses,
)
from .common import Draw, call_choice, draw_text


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
    renumbered.  Gemini: usage-only chunks (``usageMetadata``), text parts,
    ``thought: true`` parts, a ``thoughtSignature`` on an empty text part,
    a candidate with no parts (content chunks before the ``finishReason``).
    Gemini Interactions: ``interaction.status_update``
    events, ``model_output`` steps with text deltas, ``thought`` steps
    (``thought_summary``, ``thought_signature``), a ``google_search_call``
    step with its ``google_search_result`` step, text deltas in an
    existing output step; later steps are renumbered.  Cohere:
    ``tool-plan-delta``, content (``content-start``/``-delta``/``-end``)
    and citation events, ``debug`` (verbatim: they number their own index
    and are not slots), after ``message-start`` and before
    ``message-end``.  Bedrock InvokeModel: Anthropic's noise inside the
    frames.  Reproduces keep-alives, usage reporting and mixed content
    that naive reassemblers mistake for calls or terminals.
    Label: pass, same calls.
    Shrinks toward: one empty delta (OpenAI) / one ping (Anthropic) / one
    ``response.in_progress`` (Responses) / one padding field (Bedrock) /
    one status update (Interactions) / one plan delta (Cohere) at the
    start of the stream.
    """
    noise = NOISE[turn.profile]
    for _ in range(draw(st.integers(1, 3))):
        noise(draw, turn)


def _noise_chat(draw: Draw, turn: Turn) -> None:
    choice = call_choice(turn)
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
        raw = chat.chunk(turn, choices=[{"index": choice, "delta": {}, "finish_reason": None}])
    elif kind == "usage":
        raw = chat.chunk(
            turn,
            choices=[],
            usage={"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12},
        )
    elif kind == "role":
        raw = chat.chunk(
            turn, choices=[{"index": choice, "delta": {"role": "assistant"}, "finish_reason": None}]
        )
    elif kind == "content":
        raw = chat.chunk(
            turn,
            choices=[
                {"index": choice, "delta": {"content": draw_text(draw)}, "finish_reason": None}
            ],
        )
    elif kind == "tool_calls_empty":
        raw = chat.chunk(
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
        raw = chat.chunk(
            turn,
            choices=[{"index": 2, "delta": {"content": draw_text(draw)}, "finish_reason": finish}],
        )
    elif kind == "tool_calls_null":
        raw = chat.chunk(
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
        raw = chat.chunk(turn)
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
    first = 0 if turn.wire.begun_by_any_event else -1
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


def _text_block_span(draw: Draw, turn: Turn, texts: list[Block]) -> tuple[Block, int, int]:
    """A drawn text block with its start and stop positions."""
    block: Block = draw(st.sampled_from(texts))
    start = turn.step_of("start", block)
    stop = turn.step_of("stop", block)
    assert start is not None and stop is not None
    return block, start, stop


class _NewBlocks:
    """New non-call blocks inserted together at one drawn position where no
    block is open; :meth:`add` appends a step of the current block."""

    def __init__(self, draw: Draw, turn: Turn) -> None:
        self.turn = turn
        self.at: int = draw(st.sampled_from(_between_blocks(turn)))
        self.block = _new_block(turn, self.at)
        self.steps: list[Step] = []

    def add(self, kind: StepKind, raw: dict[str, Any] | None = None) -> None:
        self.steps.append(Step(kind, target=self.block, raw=raw))

    def result_block(self) -> None:
        """Go on with a second block right after the current one (a server
        tool's result): it takes the same index, moving the first up."""
        result = _new_block(self.turn, self.at)
        result.index, self.block.index = self.block.index, result.index
        self.block = result

    def insert(self) -> None:
        insert(self.turn, self.at, *self.steps)


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
        block, start, stop = _text_block_span(draw, turn, texts)
        at = draw(st.integers(start + 1, stop))
        raw = anthropic.block_delta({"type": "text_delta", "text": draw_text(draw)})
        insert(turn, at, Step("delta", target=block, raw=raw))
        return
    new = _NewBlocks(draw, turn)
    add = new.add

    if kind == "text_block":
        add("start", anthropic.block_start({"type": "text", "text": ""}))
        for _ in range(draw(st.integers(0, 2))):
            add("delta", anthropic.block_delta({"type": "text_delta", "text": draw_text(draw)}))
    elif kind == "server_tool":
        # A server-side tool call and its result: two blocks, never executable.
        use = {"type": "server_tool_use", "id": "srvtoolu_noise", "name": "web_search"}
        add("start", anthropic.block_start({**use, "input": {}}))
        for piece in jt.draw_split(draw, '{"query": "weather"}', max_cuts=2):
            add("delta", anthropic.block_delta({"type": "input_json_delta", "partial_json": piece}))
        add("stop")
        new.result_block()
        found = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_noise", "content": []}
        add("start", anthropic.block_start(found))
    elif kind == "thinking_block":
        add("start", anthropic.block_start({"type": "thinking", "thinking": "", "signature": ""}))
        add("delta", anthropic.block_delta({"type": "thinking_delta", "thinking": draw_text(draw)}))
        signed = {"type": "signature_delta", "signature": "c2lnbmF0dXJl"}
        add("delta", anthropic.block_delta(signed))
    else:
        redacted = {"type": "redacted_thinking", "data": "ZW5jcnlwdGVk"}
        add("start", anthropic.block_start(redacted))
    add("stop")
    new.insert()


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


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
        block, start, stop = _text_block_span(draw, turn, texts)
        item_id = turn.steps[start].raw["item"]["id"]
        raw = _item_event(
            "response.output_text.delta", item_id, content_index=0, delta=draw_text(draw)
        )
        insert(turn, draw(st.integers(start + 1, stop)), Step("delta", target=block, raw=raw))
        return
    new = _NewBlocks(draw, turn)
    add = new.add

    def item(kind: str, body: dict[str, Any]) -> dict[str, Any]:
        return {"type": kind, "output_index": 0, "item": body}

    if kind == "reasoning_item":
        rid = responses.fresh_item_id(turn, "rs_noise")
        summary: list[Any] = []
        add(
            "start",
            item("response.output_item.added", {"id": rid, "type": "reasoning", "summary": []}),
        )
        if draw(st.booleans()):
            text = draw_text(draw)
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
        mid = responses.fresh_item_id(turn, "msg_noise")
        head = {"id": mid, "type": "message", "status": "in_progress", "role": "assistant"}
        add("start", item("response.output_item.added", {**head, "content": []}))
        empty = {"type": "output_text", "text": "", "annotations": []}
        add("delta", _item_event("response.content_part.added", mid, content_index=0, part=empty))
        pieces = [draw_text(draw) for _ in range(draw(st.integers(0, 2)))]
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
        wid = responses.fresh_item_id(turn, "ws_noise")
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
    new.insert()


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
        raw = _bedrock_event("contentBlockDelta", delta={"text": draw_text(draw)})
        insert(turn, draw(st.integers(low, stop)), Step("delta", target=block, raw=raw))
        return
    new = _NewBlocks(draw, turn)
    add = new.add

    if kind == "text_block":
        explicit = draw(st.booleans())
        if explicit:
            add("start", _bedrock_event("contentBlockStart", start={}))
        for _ in range(draw(st.integers(0 if explicit else 1, 2))):
            add("delta", _bedrock_event("contentBlockDelta", delta={"text": draw_text(draw)}))
    elif kind == "reasoning_block":
        if draw(st.booleans()):
            content = {"redactedContent": "ZW5jcnlwdGVk"}
            add("delta", _bedrock_event("contentBlockDelta", delta={"reasoningContent": content}))
        else:
            thought = {"text": draw_text(draw)}
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
        new.result_block()
        start = {"toolResult": {"toolUseId": "srvtool_noise", "status": "success"}}
        add("start", _bedrock_event("contentBlockStart", start=start))
    add("stop")
    new.insert()


def _gemini_chunk(turn: Turn, **fields: Any) -> dict[str, Any]:
    """A Gemini chunk with the seed's bookkeeping members (``modelVersion``,
    ``responseId``) and ``fields``."""
    kept = {k: v for k, v in (turn.chunk_template or {}).items() if k != "candidates"}
    return {**fields, **copy.deepcopy(kept)}


def _noise_gemini(draw: Draw, turn: Turn) -> None:
    kind = draw(st.sampled_from(["usage", "text", "thought", "thought_signature", "no_parts"]))
    if kind == "usage":
        usage = {"promptTokenCount": 9, "candidatesTokenCount": 3, "totalTokenCount": 12}
        raw = _gemini_chunk(turn, usageMetadata=usage)
        insert(turn, draw(st.integers(0, len(turn.steps))), Step("raw", raw=raw))
        return
    if kind == "text":
        parts: list[dict[str, Any]] = [{"text": draw_text(draw)}]
    elif kind == "thought":
        parts = [{"text": draw_text(draw), "thought": True}]
    elif kind == "thought_signature":
        parts = [{"text": "", "thoughtSignature": "c2lnbmF0dXJl"}]
    else:
        parts = []
    candidate = {"content": {"role": "model", "parts": parts}, "index": 0}
    raw = _gemini_chunk(turn, candidates=[candidate])
    # Content belongs before the candidate's end (after it, a chunk of the
    # candidate would be one more item of an ended candidate).
    end = turn.finish_index(0)
    at = draw(st.integers(0, len(turn.steps) if end is None else end))
    insert(turn, at, Step("raw", raw=raw))


def _noise_interactions(draw: Draw, turn: Turn) -> None:
    kinds = ["status_update", "output_step", "thought_step", "server_tool"]
    texts = text_blocks(turn)
    if texts:
        kinds.append("text_delta")
    kind = draw(st.sampled_from(kinds))
    start, delta = gemini_interactions.step_start, gemini_interactions.step_delta
    if kind == "status_update":
        created = next((s.raw for s in turn.steps if s.kind == "begin"), None)
        interaction = (created or {}).get("interaction")
        ident = interaction.get("id") if isinstance(interaction, dict) else None
        raw = {
            "event_type": "interaction.status_update",
            "interaction": {"id": ident if isinstance(ident, str) else "v1_gen"},
            "status": "in_progress",
        }
        insert(turn, draw(st.integers(_after_begin(turn), len(turn.steps))), Step("raw", raw=raw))
        return
    if kind == "text_delta":
        block, first, stop = _text_block_span(draw, turn, texts)
        raw = delta({"type": "text", "text": draw_text(draw)})
        insert(turn, draw(st.integers(first + 1, stop)), Step("delta", target=block, raw=raw))
        return
    new = _NewBlocks(draw, turn)
    add = new.add
    if kind == "output_step":
        add("start", start({"type": "model_output"}))
        for _ in range(draw(st.integers(0, 2))):
            add("delta", delta({"type": "text", "text": draw_text(draw)}))
    elif kind == "thought_step":
        add("start", start({"type": "thought"}))
        summary = {"type": "text", "text": draw_text(draw)}
        add("delta", delta({"type": "thought_summary", "content": summary}))
        add("delta", delta({"type": "thought_signature", "signature": "c2lnbmF0dXJl"}))
    else:
        # A tool the provider runs itself, and its result: two steps, never
        # executable.
        search = {
            "type": "google_search_call",
            "id": "gs_noise",
            "arguments": {"queries": ["weather"]},
        }
        add("start", start(search))
        add("stop")
        new.result_block()
        found = {"type": "google_search_result", "call_id": "gs_noise", "result": []}
        add("start", start(found))
    add("stop")
    new.insert()


def _noise_cohere(draw: Draw, turn: Turn) -> None:
    # Content and citation events number their own index and carry no tool
    # data: verbatim items, anywhere before the message's end.
    kind = draw(st.sampled_from(["plan", "content", "citation", "debug"]))
    items: list[dict[str, Any]]
    if kind == "plan":
        items = [cohere.plan_delta(draw_text(draw))]
    elif kind == "content":
        opening = {"message": {"content": {"type": "text", "text": ""}}}
        items = [{"type": "content-start", "index": 0, "delta": opening}]
        for _ in range(draw(st.integers(0, 2))):
            piece = {"message": {"content": {"text": draw_text(draw)}}}
            items.append({"type": "content-delta", "index": 0, "delta": piece})
        items.append({"type": "content-end", "index": 0})
    elif kind == "citation":
        cited = {"start": 0, "end": 4, "text": "Rain", "sources": []}
        items = [
            {"type": "citation-start", "index": 0, "delta": {"message": {"citations": cited}}},
            {"type": "citation-end", "index": 0},
        ]
    else:
        items = [{"type": "debug", "prompt": draw_text(draw)}]
    limit = turn.finish_index(0)
    at = draw(st.integers(_after_begin(turn), len(turn.steps) if limit is None else limit))
    insert(turn, at, *(Step("raw", raw=item) for item in items))


def _after_begin(turn: Turn) -> int:
    """The first position after the message's start (0 without one)."""
    return next((i + 1 for i, s in enumerate(turn.steps) if s.kind == "begin"), 0)


NOISE: dict[str, Callable[[Draw, Turn], None]] = {
    "openai": _noise_chat,
    "mistral": _noise_chat,
    "anthropic": _noise_anthropic,
    "openai-responses": _noise_responses,
    "bedrock": _noise_bedrock,
    "gemini": _noise_gemini,
    "gemini-interactions": _noise_interactions,
    "cohere": _noise_cohere,
    # The Anthropic events inside the frames.
    "bedrock-invoke": _noise_anthropic,
}
"""The noise a format knows, by profile (a row for every ``WIRES`` profile)."""
