"""OpenAI Chat Completions and Mistral chunks (``chunks``): the two
``tool_calls`` formats.

A call is a slot ``(choice, index)`` opened by its first ``tool_calls``
entry; its identity may come on any fragment; every slot of a choice ends at
the choice's ``finish_reason``.  Mistral may leave ``index`` out (the next
free index of the choice is meant) and knows two more end reasons.  Chunks
that carry no tool call and no end reason are kept verbatim (``raw``).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from .. import jsontext as jt
from ..jsontext import Draw
from .placing import call_choice, draw_text, insert
from .turn import MISSING, Call, ModelError, Step, Turn, apply_patch
from .wire import DialectMember, Wire

DIALECTS = (
    # reasoning text beside the call (DeepSeek, xAI, vLLM, SGLang, ...)
    DialectMember("reasoning_content", "delta", "reasoning_content", "Hm"),
    DialectMember("reasoning", "delta", "reasoning", "Hm"),  # OpenRouter, vLLM, Ollama
    DialectMember(
        "reasoning_details",
        "delta",
        "reasoning_details",
        [{"type": "reasoning.text", "text": "Hm", "index": 0}],
    ),
    DialectMember("together_token_id", "delta", "token_id", 30),  # a scalar in the delta
    DialectMember("groq", "chunk", "x_groq", {"id": "req_gen"}),
    DialectMember(
        "azure_content_filter",
        "chunk",
        "prompt_filter_results",
        [{"prompt_index": 0, "content_filter_results": {}}],
    ),
    DialectMember(
        "azure_completion_filter",
        "choice",
        "content_filter_results",
        {"hate": {"filtered": False, "severity": "safe"}},
    ),
    DialectMember("openrouter_provider", "chunk", "provider", "Gen Provider"),
    DialectMember("openrouter_native_finish_reason", "choice", "native_finish_reason", None),
    DialectMember("perplexity_citations", "chunk", "citations", ["https://example.org/a"]),
    DialectMember(
        "perplexity_search_results",
        "chunk",
        "search_results",
        [{"title": "A", "url": "https://example.org/a"}],
    ),
    DialectMember("vllm_stop_reason", "choice", "stop_reason", None),
    DialectMember("vllm_token_ids", "choice", "token_ids", [791, 1379]),
    DialectMember("sglang_matched_stop", "choice", "matched_stop", None),
    DialectMember("together_seed", "choice", "seed", 2039908639),
    DialectMember("message_mirror", "choice", "message", None, mirrors="delta"),
    DialectMember("together_text", "choice", "text", None, mirrors="delta.content"),
)
"""The server dialects of Chat Completions streams (docs/dialects.md lists
their servers and sources): inert members, and two copies of what the
chunk says (a ``message`` equal to the delta, a ``text`` equal to its
content)."""
_MIRRORS = {d.member: d for d in DIALECTS if d.mirrors}


def mirrored(member: DialectMember, delta: dict[str, Any]) -> Any:
    """What a copy ``member`` of ``delta`` says when it agrees with it."""
    if member.mirrors == "delta":
        return copy.deepcopy(delta)
    content = delta.get("content")
    return "" if content is None else content


def _seed_mirrors(choice: dict[str, Any]) -> list[DialectMember]:
    """The copies a seed's choice carries beside its delta, taken out of it
    (the renderer writes them again from the delta it builds)."""
    found = []
    delta = choice.get("delta")
    for name in [n for n in choice if n in _MIRRORS]:
        member = _MIRRORS[name]
        if not isinstance(delta, dict) or choice[name] != mirrored(member, delta):
            raise ModelError(f"a seed's choices[].{name} is not a copy of its delta")
        del choice[name]
        found.append(member)
    return found


def add_members(members: tuple[DialectMember, ...], chunk: dict[str, Any]) -> None:
    """Add ``members`` to a rendered chunk: its delta's first, then the
    choice's and the chunk's, copies computed from the delta as it is."""
    for level in ("delta", "choice", "chunk"):
        for member in members:
            if member.level != level:
                continue
            if level == "chunk":
                chunk[member.member] = copy.deepcopy(member.value)
                continue
            for choice in chunk.get("choices") or []:
                delta = choice.setdefault("delta", {})
                if level == "delta":
                    delta[member.member] = copy.deepcopy(member.value)
                elif member.mirrors:
                    choice[member.member] = mirrored(member, delta)
                else:
                    choice[member.member] = copy.deepcopy(member.value)


def _is_tool_chunk(chunk: Any) -> bool:
    if not isinstance(chunk, dict) or chunk.get("error") is not None:
        return False
    choices = chunk.get("choices")
    if not isinstance(choices, list):
        return False
    for choice in choices:
        if not isinstance(choice, dict):
            continue
        delta = choice.get("delta")
        if isinstance(delta, dict) and delta.get("tool_calls"):
            return True
        if choice.get("finish_reason") is not None:
            return True
    return False


def _parse(wire: Wire, stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    steps: list[Step] = []
    calls: dict[tuple[int, int], Call] = {}
    next_index: dict[int, int] = {}
    template: dict[str, Any] | None = None
    members: dict[str, DialectMember] = {}
    for raw in stream:
        if not _is_tool_chunk(raw):
            steps.append(Step("raw", raw=copy.deepcopy(raw)))
            continue
        chunk = copy.deepcopy(raw)
        if template is None:
            template = {k: v for k, v in chunk.items() if k != "usage"}
            template["choices"] = []
        first = True
        for choice in chunk["choices"]:
            for member in _seed_mirrors(choice):
                members[member.member] = member
            number = choice.get("index", 0)
            delta = choice.get("delta") or {}
            for entry in delta.get("tool_calls") or []:
                if "index" in entry:
                    index = entry["index"]
                elif wire.inferred_index:
                    index = next_index.get(number, 0)
                else:
                    raise ModelError("an OpenAI tool call without index")
                if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                    raise ModelError("bad index in a seed")
                if index >= next_index.get(number, 0):
                    next_index[number] = index + 1
                key = (number, index)
                call = calls.get(key)
                if call is None:
                    call = calls[key] = Call(
                        choice=number,
                        index=index,
                        id=MISSING,
                        name=MISSING,
                        type_field="type" in entry,
                        indexed="index" in entry,
                    )
                function = entry.get("function") or {}
                carries_id = entry.get("id") not in (None, "")
                carries_name = function.get("name") not in (None, "")
                if carries_id and call.id is MISSING:
                    call.id = entry["id"]
                if carries_name and call.name is MISSING:
                    call.name = function["name"]
                if "type" in entry:
                    call.type_field = True
                steps.append(
                    Step(
                        "frag",
                        target=call,
                        text=function.get("arguments", MISSING),
                        choice=number,
                        join=not first,
                        carries_id=carries_id,
                        carries_name=carries_name,
                        tmpl_chunk=chunk,
                        tmpl_choice=choice,
                    )
                )
                first = False
            reason = choice.get("finish_reason")
            if reason is not None:
                steps.append(
                    Step(
                        "finish",
                        text=reason,
                        choice=number,
                        join=not first,
                        tmpl_chunk=chunk,
                        tmpl_choice=choice,
                    )
                )
                first = False
    for call in calls.values():
        if call.id is MISSING or call.name is MISSING:
            raise ModelError("a seed call without id or name")
    return Turn(
        wire=wire,
        tool_schemas=schemas,
        request=request,
        steps=steps,
        calls=list(calls.values()),
        chunk_template=template,
        dialect_members=tuple(members.values()),
    )


DEFAULT_CHUNK = {
    "id": "chatcmpl-gen",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "gen-model",
    "choices": [],
}


def _render(turn: Turn) -> list[Any]:
    groups: list[list[Step]] = []
    out: list[Any] = []
    prev: Step | None = None
    for step in turn.steps:
        if step.kind == "raw":
            groups.append([step])
        elif (
            step.join
            and prev is not None
            and prev.kind == "frag"
            and prev.choice == step.choice
            and groups
        ):
            groups[-1].append(step)
        else:
            groups.append([step])
        prev = step
    frag_count: dict[int, int] = {}
    for step in turn.steps:
        if step.kind == "frag" and step.ident is None:
            frag_count[id(step.target)] = frag_count.get(id(step.target), 0) + 1
    next_index: dict[int, int] = {}
    for group in groups:
        first = group[0]
        if first.kind == "raw":
            out.append(copy.deepcopy(first.raw))
            continue
        template = first.tmpl_chunk if first.tmpl_chunk is not None else turn.chunk_template
        chunk = copy.deepcopy(template if template is not None else DEFAULT_CHUNK)
        choice = copy.deepcopy(first.tmpl_choice) if first.tmpl_choice is not None else {}
        choice["index"] = first.choice
        old_delta = choice.get("delta")
        delta = {k: v for k, v in (old_delta or {}).items() if k != "tool_calls"}
        entries = []
        finish = None
        for step in group:
            if step.kind == "frag":
                entries.append(_entry(turn, step, next_index, frag_count))
            elif step.kind == "finish":
                finish = step.text
        if entries:
            delta["tool_calls"] = entries
        choice["delta"] = delta
        choice["finish_reason"] = finish
        if first.tmpl_choice is None:
            choice = {"index": first.choice, "delta": delta, "finish_reason": finish}
        chunk["choices"] = [choice]
        add_members(turn.dialect_members, chunk)
        out.append(chunk)
    return out


def _entry(
    turn: Turn, step: Step, next_index: dict[int, int], frag_count: dict[int, int]
) -> dict[str, Any]:
    call = step.target
    assert isinstance(call, Call)
    number = call.choice
    entry: dict[str, Any] = {}
    omit_index = (
        turn.wire.inferred_index
        and step.ident is None
        and not call.indexed
        and frag_count.get(id(call), 0) == 1
        and next_index.get(number, 0) == call.index
    )
    if not omit_index:
        entry["index"] = call.index
    if call.index >= next_index.get(number, 0):
        next_index[number] = call.index + 1
    if step.ident is not None:
        id_, name = step.ident
        entry["id"] = id_
        if call.type_field:
            entry["type"] = "function"
        entry["function"] = {"name": name}
        if step.text is not MISSING:
            entry["function"]["arguments"] = step.text
        return apply_patch(entry, step.patch)
    if step.carries_id:
        if call.id is not MISSING:
            entry["id"] = call.id
        if call.type_field:
            entry["type"] = "function"
    elif call.blank is not MISSING:
        entry["id"] = call.blank
    function: dict[str, Any] = {}
    if step.carries_name and call.name is not MISSING:
        function["name"] = call.name
    elif not step.carries_name and call.blank is not MISSING:
        function["name"] = call.blank
    if step.text is not MISSING:
        function["arguments"] = copy.deepcopy(step.text)
    entry["function"] = function
    return apply_patch(entry, step.patch)


def chunk(turn: Turn, **fields: Any) -> dict[str, Any]:
    """A chunk of this turn's completion (its template without ``choices``
    and ``usage``) with ``fields``."""
    base = turn.chunk_template or DEFAULT_CHUNK
    out = {k: copy.deepcopy(v) for k, v in base.items() if k not in ("choices", "usage")}
    out.update(fields)
    return out


def _new_call(turn: Turn, name: str) -> tuple[Call, list[Step]]:
    model = turn.slot_calls()[0]
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
    step = Step(
        "frag", target=call, text="{}", choice=model.choice, carries_id=True, carries_name=True
    )
    return call, [step]


def _parse_openai(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    return _parse(OPENAI, stream, schemas, request)


def _parse_mistral(stream: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    return _parse(MISTRAL, stream, schemas, request)


_ERROR_CHUNK = {
    "error": {
        "message": "The server had an error",
        "type": "server_error",
        "param": None,
        "code": None,
    }
}


def _noise(draw: Draw, turn: Turn) -> None:
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
        raw = chunk(turn, choices=[{"index": choice, "delta": {}, "finish_reason": None}])
    elif kind == "usage":
        raw = chunk(
            turn,
            choices=[],
            usage={"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12},
        )
    elif kind == "role":
        raw = chunk(
            turn, choices=[{"index": choice, "delta": {"role": "assistant"}, "finish_reason": None}]
        )
    elif kind == "content":
        raw = chunk(
            turn,
            choices=[
                {"index": choice, "delta": {"content": draw_text(draw)}, "finish_reason": None}
            ],
        )
    elif kind == "tool_calls_empty":
        raw = chunk(
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
        ) or any(s.kind == "finish" and s.choice == 2 for s in turn.steps):
            # One end reason per choice (a seed's own answer in choice 2,
            # e.g. a mutant used as a seed, is parsed as its finish step).
            finish = None
        raw = chunk(
            turn,
            choices=[{"index": 2, "delta": {"content": draw_text(draw)}, "finish_reason": finish}],
        )
    elif kind == "tool_calls_null":
        raw = chunk(
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
        raw = chunk(turn)
    at = draw(st.integers(0, len(turn.steps)))
    insert(turn, at, Step("raw", raw=raw))


def _scratch(draw: Any, wire: Wire, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    steps: list[Step] = []
    if draw(st.booleans()):
        steps.append(
            Step(
                "raw",
                raw={
                    **{k: v for k, v in DEFAULT_CHUNK.items() if k != "choices"},
                    "choices": [
                        {
                            "index": 0,
                            "delta": {"role": "assistant", "content": ""},
                            "finish_reason": None,
                        }
                    ],
                },
            )
        )
    fragmented = wire is OPENAI or draw(st.booleans())
    for call in calls:
        assert call.expected is not None
        if fragmented:
            pieces = jt.draw_split(draw, call.expected)
            call.indexed = True
        else:
            pieces = [call.expected]
        for n, piece in enumerate(pieces):
            steps.append(
                Step("frag", target=call, text=piece, carries_id=n == 0, carries_name=n == 0)
            )
    join = wire is MISTRAL and draw(st.booleans())
    steps.append(Step("finish", text="tool_calls", join=join))
    if draw(st.booleans()):
        steps.append(
            Step(
                "raw",
                raw={
                    **{k: v for k, v in DEFAULT_CHUNK.items() if k != "choices"},
                    "choices": [],
                    "usage": {"prompt_tokens": 20, "completion_tokens": 10, "total_tokens": 30},
                },
            )
        )
    return Turn(
        wire=wire,
        tool_schemas=schemas,
        request={"tool_choice": "auto"},
        steps=steps,
        calls=calls,
        chunk_template=None,
    )


def _scratch_openai(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    return _scratch(draw, OPENAI, calls, schemas)


def _scratch_mistral(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    return _scratch(draw, MISTRAL, calls, schemas)


# A Chat Completions chunk with a choice: no "type" (Anthropic, Responses)
# and more than one member (Bedrock).
_FOREIGN_SAMPLE = {
    "id": "chatcmpl-foreign",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "gpt-4o",
    "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": None}],
}

OPENAI = Wire(
    profile="openai",
    noise=_noise,
    scratch=_scratch_openai,
    foreign_sample=_FOREIGN_SAMPLE,
    refuses=("anthropic", "openai-responses", "bedrock", "gemini", "cohere"),
    id_prefix="call_",
    stream_key="chunks",
    parse=_parse_openai,
    render=_render,
    blocky=False,
    tool_reason="tool_calls",
    wrong_reasons=("length", "content_filter", "function_call"),
    plain_stop="stop",
    forcing_choices=("required",),
    repeat_reasons=("tool_calls", "stop", "length"),
    index_key="index",
    index_kinds=("frag",),
    error_events=(_ERROR_CHUNK,),
    late_identity=True,
    new_call=_new_call,
    dialects=DIALECTS,
)
MISTRAL = replace(
    OPENAI,
    profile="mistral",
    scratch=_scratch_mistral,
    id_prefix="",
    parse=_parse_mistral,
    wrong_reasons=(*OPENAI.wrong_reasons, "model_length", "error"),
    forcing_choices=("required", "any"),
    inferred_index=True,
)
