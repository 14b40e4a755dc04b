"""Google Gemini API / Vertex AI ``streamGenerateContent`` chunks (``chunks``).

Each chunk is one ``GenerateContentResponse`` (an SSE ``data:`` payload, or
one element of the JSON-array body).  A client call is a
``candidates[0].content.parts[].functionCall`` part, in one of two forms:

* a **whole call** ``{"name", "args"?, "id"?}``: one ``start`` step, whose
  ``Call.start_input`` is ``args`` (``MISSING``: the part has none, the
  no-argument call: the API reference documents ``args`` as optional);
* a **streamed call** (Vertex ``streamFunctionCallArguments``,
  ``Call.streamed``): a ``start`` step (``{"name", "willContinue": true}``),
  ``frag`` steps (parts ``{"partialArgs": [...], "willContinue": true}``, or a
  bare ``{"willContinue": true}``), and a ``stop`` step (the first part
  without ``willContinue``: ``{}``, or ``{"partialArgs": [...]}``).  The
  ``text`` of each of these steps is the list of its ``partialArgs``
  entries (``MISSING``: the part has none).

Parts have no index: a call's slot is its position among the candidate's
calls, and a part without a ``name`` continues the open call
(``Wire.positional_slots``).  Chunks without a call part are ``raw`` (text,
thought parts, usage-only chunks) or, with a ``finishReason``, the
``finish`` step (``text`` is the reason; the chunk's parts are kept).
Several call parts of one chunk are steps with ``join`` set (a joined
``finish`` puts the reason on the chunk of the step before it).  Members
the model does not own (``modelVersion``, ``responseId``, a part's
``thoughtSignature``) are kept from the seed's chunks and parts.

Reassembly rule used for labels (the generator's own reading of the
``partialArgs`` rules, for valid streams): each entry assigns its value at
its normalized JSON path; a string whose entry says ``willContinue`` is
continued by the next entries for the same path.  The arguments are the
compact JSON of the result (keys in first-assignment order), or of a whole
call's ``args``; a whole call without ``args`` has the arguments ``{}``.
Gemini arguments never reassemble to ``""`` (``Wire.empty_arguments``).
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from typing import Any

from hypothesis import strategies as st

from .. import jsontext as jt
from ..jsontext import Draw
from ..schemas import unicode_text_chars
from .placing import draw_text, insert
from .turn import MISSING, Call, ModelError, Step, Turn, apply_patch, compact
from .wire import Wire, modelable

# RFC 9535 member-name shorthand (2.5.1.1) and normalized escapes (2.7).
_FIRST = "A-Za-z_\u0080-\ud7ff\ue000-\U0010ffff"
_NAME = re.compile(f"[{_FIRST}][0-9{_FIRST}]*")
_ESCAPES = {
    "\\": "\\\\",
    "'": "\\'",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}
_SEGMENT = re.compile(r"\.([^.\[]+)|\[(0|[1-9][0-9]*)\]|\['((?:[^'\\]|\\.)*)'\]")
_UNESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "'": "'", "\\": "\\"}

Segment = str | int


# -- paths and values --------------------------------------------------------


def quote(name: str) -> str:
    """A member name as a normalized path segment (RFC 9535 2.7 escapes)."""
    out = []
    for char in name:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif char < " ":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "['" + "".join(out) + "']"


def path_of(segments: tuple[Segment, ...]) -> str:
    """The normalized path of ``segments`` (member-name shorthand where the
    name allows it)."""
    out = "$"
    for segment in segments:
        if isinstance(segment, int):
            out += f"[{segment}]"
        elif _NAME.fullmatch(segment):
            out += "." + segment
        else:
            out += quote(segment)
    return out


def segments_of(path: str) -> tuple[Segment, ...]:
    """The segments of a normalized path (as this module writes them)."""
    if not path.startswith("$"):
        raise ModelError(f"jsonPath {path!r} is not a normalized path")
    out: list[Segment] = []
    at = 1
    while at < len(path):
        found = _SEGMENT.match(path, at)
        if found is None:
            raise ModelError(f"jsonPath {path!r} is not a normalized path")
        name, index, quoted = found.groups()
        if name is not None:
            out.append(name)
        elif index is not None:
            out.append(int(index))
        else:
            out.append(re.sub(r"\\(u00[01][0-9a-f]|.)", _unescape, quoted))
        at = found.end()
    if not out:
        raise ModelError("jsonPath '$' assigns the root")
    return tuple(out)


def _unescape(match: re.Match[str]) -> str:
    text = match.group(1)
    return chr(int(text[1:], 16)) if len(text) == 5 else _UNESCAPES[text]


def leaves(value: Any) -> list[tuple[tuple[Segment, ...], Any]] | None:
    """Every scalar of an object with its segments, in document order; or
    ``None`` when ``value`` cannot be streamed as ``partialArgs`` (not an
    object, or an empty object or array below the root: no entry can
    assign one)."""
    if not isinstance(value, dict):
        return None
    out: list[tuple[tuple[Segment, ...], Any]] = []

    def walk(node: Any, here: tuple[Segment, ...]) -> bool:
        items = node.items() if isinstance(node, dict) else enumerate(node)
        if here and not node:
            return False
        for key, child in items:
            if isinstance(child, (dict, list)):
                if not walk(child, (*here, key)):
                    return False
            else:
                out.append(((*here, key), child))
        return True

    return out if walk(value, ()) else None


def entry(path: str, value: Any, more: bool = False) -> dict[str, Any]:
    """A ``partialArgs`` entry assigning ``value`` at ``path``."""
    if isinstance(value, str):
        found: dict[str, Any] = {"jsonPath": path, "stringValue": value}
        if more:
            found["willContinue"] = True
        return found
    if isinstance(value, bool):
        return {"jsonPath": path, "boolValue": value}
    if value is None:
        return {"jsonPath": path, "nullValue": None}
    return {"jsonPath": path, "numberValue": value}


def entry_value(item: dict[str, Any]) -> Any:
    for key in ("stringValue", "numberValue", "boolValue"):
        if key in item:
            return item[key]
    return None


def call_steps(turn: Turn, call: Call) -> list[int]:
    """Positions of the call's own parts (start, continuations, end)."""
    return [
        i
        for i, s in enumerate(turn.steps)
        if s.target is call and s.kind in ("start", "frag", "stop") and s.ident is None
    ]


def entries(turn: Turn, call: Call) -> list[tuple[int, int, dict[str, Any]]]:
    """``(step position, position in its list, entry)`` for every
    ``partialArgs`` entry of a streamed call, in order."""
    out: list[tuple[int, int, dict[str, Any]]] = []
    for i in call_steps(turn, call):
        items = turn.steps[i].text
        if isinstance(items, list):
            out.extend((i, k, item) for k, item in enumerate(items))
    return out


def value_of(turn: Turn, call: Call) -> Any:
    """The call's arguments value under the module's reassembly rule (a
    whole call without ``args``: ``{}``)."""
    if not call.streamed:
        return {} if call.start_input is MISSING else call.start_input
    root: dict[str, Any] = {}
    continuing: tuple[str, list[str]] | None = None
    for _, _, item in entries(turn, call):
        path = item["jsonPath"]
        value = entry_value(item)
        more = item.get("willContinue") is True
        if continuing is not None and continuing[0] == path:
            continuing[1].append(value)
            if not more:
                _assign(root, segments_of(path), "".join(continuing[1]))
                continuing = None
            continue
        if more:
            continuing = (path, [value])
            _assign(root, segments_of(path), "")  # its key order is set now
        else:
            _assign(root, segments_of(path), value)
    return root


def _assign(root: dict[str, Any], segments: tuple[Segment, ...], value: Any) -> None:
    node: Any = root
    for n, segment in enumerate(segments[:-1]):
        below: Any = {} if isinstance(segments[n + 1], str) else []
        if isinstance(node, dict):
            node = node.setdefault(segment, below)
        elif isinstance(segment, int) and segment < len(node):
            node = node[segment]
        else:
            node.append(below)
            node = below
    last = segments[-1]
    if isinstance(node, list) and isinstance(last, int) and last >= len(node):
        node.append(value)
    else:
        node[last] = value


def _arguments(turn: Turn, call: Call) -> str:
    return compact(value_of(turn, call))


# -- delivering a value ------------------------------------------------------


def draw_entries(draw: Any, value: dict[str, Any], split: bool = True) -> list[dict[str, Any]]:
    """The entries that assign ``value`` (streamable), each string split
    into 1-4 continued pieces when ``split`` (drawn; shrinks toward one)."""
    found = leaves(value)
    assert found is not None
    out: list[dict[str, Any]] = []
    for segments, scalar in found:
        path = path_of(segments)
        if isinstance(scalar, str) and split and len(scalar) > 1:
            cuts = sorted(set(draw(st.lists(st.integers(1, len(scalar) - 1), max_size=3))))
            bounds = [0, *cuts, len(scalar)]
            pieces = [scalar[a:b] for a, b in itertools.pairwise(bounds)]
            out.extend(entry(path, p, n < len(pieces) - 1) for n, p in enumerate(pieces))
        else:
            out.append(entry(path, scalar))
    return out


def stream(draw: Any, turn: Turn, call: Call, items: list[dict[str, Any]], *, end: bool) -> None:
    """Send ``call`` as a streamed call whose entries are ``items``, grouped
    into parts (drawn: shrinks toward one part), ended by an empty ``{}``
    part or (``end``) by its last ``partialArgs`` part."""
    groups: list[list[dict[str, Any]]] = []
    for n, item in enumerate(items):
        if not groups or (n and draw(st.booleans())):
            groups.append([])
        groups[-1].append(item)
    steps = [Step("frag", target=call, text=g) for g in groups]
    if end and steps:
        steps[-1].kind = "stop"
    else:
        steps.append(Step("stop", target=call, text=MISSING))
    replace_parts(turn, call, steps)
    call.streamed = True
    call.start_input = MISSING


def replace_parts(turn: Turn, call: Call, steps: list[Step]) -> None:
    """Replace the call's continuation and end parts by ``steps`` (at the
    place of the first one, or right after its start)."""
    start = turn.step_of("start", call)
    assert start is not None
    template = turn.steps[start].tmpl_chunk
    old = [i for i in call_steps(turn, call) if turn.steps[i].kind != "start"]
    at = old[0] if old else start + 1
    drop = set(old)
    for step in steps:
        step.tmpl_chunk = template
    kept = [s for i, s in enumerate(turn.steps[:at]) if i not in drop]
    rest = [s for i, s in enumerate(turn.steps[at:], at) if i not in drop]
    turn.steps = [*kept, *steps, *rest]
    start_step = turn.steps[turn.step_of("start", call) or 0]
    start_step.text = MISSING
    start_step.carries_id = True


def make_whole(turn: Turn, call: Call, value: Any) -> None:
    """Send ``call`` as one whole part with ``args`` ``value`` (``MISSING``:
    without ``args``, the no-argument call ``{}``)."""
    replace_parts(turn, call, [])
    call.streamed = False
    call.start_input = value


def deliver(draw: Any, turn: Turn, call: Call, text: str) -> None:
    """``Wire.deliver``: send the arguments ``text`` (a JSON value) as
    Gemini carries arguments.  A value that cannot be streamed (not an
    object, an empty container inside) is whole ``args``; otherwise the call
    keeps its form (a streamed call is streamed again, strings split as
    drawn).  ``""`` has no Gemini form (``Wire.empty_arguments`` is off)."""
    if text == "":
        raise ModelError("gemini arguments cannot be the empty string")
    value = json.loads(text)
    if call.streamed and leaves(value) is not None:
        stream(draw, turn, call, draw_entries(draw, value), end=False)
    else:
        make_whole(turn, call, value)


# -- parse and render --------------------------------------------------------


def _template(chunk: dict[str, Any]) -> dict[str, Any]:
    tmpl = copy.deepcopy(chunk)
    candidate = tmpl["candidates"][0]
    candidate.pop("finishReason", None)
    content = candidate.setdefault("content", {"role": "model"})
    content["parts"] = []
    return tmpl


def _parse(stream_: list[Any], schemas: dict[str, Any], request: Any) -> Turn:
    steps: list[Step] = []
    calls: list[Call] = []
    open_call: Call | None = None
    first_template: dict[str, Any] | None = None
    for raw in stream_:
        chunk = copy.deepcopy(raw)
        candidates = chunk.get("candidates") if isinstance(chunk, dict) else None
        parts: list[Any] = []
        if isinstance(candidates, list) and candidates:
            if len(candidates) != 1 or candidates[0].get("index", 0) != 0:
                raise ModelError("a gemini seed has one candidate (index 0)")
            parts = (candidates[0].get("content") or {}).get("parts") or []
        reason = candidates[0].get("finishReason") if candidates else None
        call_parts = [p for p in parts if "functionCall" in p]
        if not call_parts:
            if reason is not None:
                steps.append(Step("finish", text=reason, raw=chunk))
            else:
                steps.append(Step("raw", raw=chunk))
            continue
        if len(call_parts) != len(parts):
            raise ModelError("a gemini chunk mixes call parts and other parts")
        template = _template(chunk)
        first_template = first_template or template
        for n, part in enumerate(parts):
            fc = part["functionCall"]
            kept = {k: v for k, v in part.items() if k != "functionCall"}
            more = fc.get("willContinue") is True
            step: Step
            if "name" in fc:
                if open_call is not None:
                    raise ModelError("a gemini call starts while another continues")
                call = Call(
                    choice=0,
                    index=len(calls),
                    id=fc.get("id", MISSING),
                    name=fc["name"],
                    start_input=MISSING if more else fc.get("args", MISSING),
                    streamed=more,
                )
                calls.append(call)
                step = Step("start", target=call, text=fc.get("partialArgs", MISSING))
                step.carries_id = "id" in fc
                open_call = call if more else None
            else:
                if open_call is None:
                    raise ModelError("a gemini continuation part with no call open")
                step = Step("stop" if not more else "frag", target=open_call)
                step.text = fc.get("partialArgs", MISSING)
                if "id" in fc:
                    open_call.id = fc["id"]
                    step.carries_id = True
                if not more:
                    open_call = None
            step.raw = kept
            step.tmpl_chunk = template
            step.join = n > 0
            steps.append(step)
        if reason is not None:
            steps.append(Step("finish", text=reason, join=True))
    if open_call is not None:
        raise ModelError("a gemini seed's streamed call never ends")
    return Turn(
        wire=WIRE,
        tool_schemas=schemas,
        request=request,
        steps=steps,
        calls=calls,
        chunk_template=first_template,
    )


def _function_call(turn: Turn, step: Step) -> dict[str, Any]:
    call = step.target
    assert isinstance(call, Call)
    fc: dict[str, Any] = {}
    if step.kind == "start":
        fc["name"] = call.name
        if not call.streamed:
            if call.start_input is not MISSING:
                fc["args"] = copy.deepcopy(call.start_input)
    if call.streamed and isinstance(step.text, list):
        fc["partialArgs"] = copy.deepcopy(step.text)
    if call.streamed and step.kind in ("start", "frag"):
        fc["willContinue"] = True
    if step.carries_id and call.id is not MISSING:
        fc["id"] = call.id
    return apply_patch(fc, step.patch)


def _render(turn: Turn) -> list[Any]:
    out: list[Any] = []
    ours: Any = None  # the last chunk this renderer built for call parts
    for step in turn.steps:
        if step.kind == "raw":
            out.append(copy.deepcopy(step.raw))
            continue
        if step.kind == "finish":
            if step.join and ours is not None and out and out[-1] is ours:
                ours["candidates"][0]["finishReason"] = step.text
                continue
            if step.raw is not None:
                chunk = copy.deepcopy(step.raw)
            else:
                chunk = copy.deepcopy(turn.chunk_template or {"candidates": [{}]})
                chunk["candidates"][0]["content"] = {"role": "model", "parts": [{"text": ""}]}
            chunk["candidates"][0]["finishReason"] = step.text
            out.append(chunk)
            continue
        part = {**copy.deepcopy(step.raw or {}), "functionCall": _function_call(turn, step)}
        if step.join and ours is not None and out and out[-1] is ours:
            ours["candidates"][0]["content"]["parts"].append(part)
            continue
        template = step.tmpl_chunk or turn.chunk_template
        ours = copy.deepcopy(template) if template is not None else _template({"candidates": [{}]})
        ours["candidates"][0]["content"]["parts"].append(part)
        out.append(ours)
    return out


def _new_call(turn: Turn, name: str) -> tuple[Call, list[Step]]:
    call = Call(
        choice=0, index=len(turn.calls), id="fc_late", name=name, expected="{}", start_input={}
    )
    step = Step("start", target=call, tmpl_chunk=turn.chunk_template)
    step.carries_id = True
    return call, [step]


def _gemini_chunk(turn: Turn, **fields: Any) -> dict[str, Any]:
    """A Gemini chunk with the seed's bookkeeping members (``modelVersion``,
    ``responseId``) and ``fields``."""
    kept = {k: v for k, v in (turn.chunk_template or {}).items() if k != "candidates"}
    return {**fields, **copy.deepcopy(kept)}


def _noise(draw: Draw, turn: Turn) -> None:
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


def _scratch(draw: Any, calls: list[Call], schemas: dict[str, Any]) -> Turn:
    template = {
        "candidates": [{"content": {"role": "model", "parts": []}}],
        "modelVersion": "gemini-scratch",
    }
    turn = Turn(
        wire=WIRE,
        tool_schemas=schemas,
        request=None,
        steps=[],
        calls=calls,
        chunk_template=template,
    )
    if draw(st.booleans()):
        text = draw(st.text(unicode_text_chars, max_size=20))
        candidate = {"content": {"role": "model", "parts": [{"text": text}]}}
        turn.steps.append(Step("raw", raw={**template, "candidates": [candidate]}))
    for call in calls:
        assert call.expected is not None
        value = jt.loads(call.expected)
        call.expected = compact(value)
        call.start_input = value
        previous = turn.steps[-1] if turn.steps else None
        whole_before = (
            previous is not None
            and previous.kind == "start"
            and isinstance(previous.target, Call)
            and not previous.target.streamed
        )
        start = Step("start", target=call, tmpl_chunk=template, carries_id=True)
        start.join = whole_before and draw(st.booleans())
        turn.steps.append(start)
        if leaves(value) is not None and draw(st.booleans()):
            items = draw_entries(draw, value)
            stream(draw, turn, call, items, end=draw(st.booleans()))
        elif value == {} and draw(st.booleans()):
            call.start_input = MISSING  # the whole call without args: {}
    turn.steps.append(Step("finish", text="STOP", join=draw(st.booleans())))
    if draw(st.booleans()):
        usage = {"promptTokenCount": 20, "candidatesTokenCount": 10, "totalTokenCount": 30}
        turn.steps.append(
            Step("raw", raw={"usageMetadata": usage, "modelVersion": "gemini-scratch"})
        )
    return turn


# A streamGenerateContent chunk with a function call.
_FOREIGN_SAMPLE = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}],
            },
            "finishReason": "STOP",
            "index": 0,
        }
    ],
    "modelVersion": "gemini-2.5-flash",
}

WIRE = Wire(
    profile="gemini",
    noise=_noise,
    scratch=_scratch,
    foreign_sample=_FOREIGN_SAMPLE,
    # (Not a chunk with an error member: provider_error.)
    refuses=(
        "openai",
        "anthropic",
        "openai-responses",
        "bedrock",
        "bedrock-invoke",
        "cohere",
        "gemini-interactions",
    ),
    id_prefix="fc_",
    stream_key="chunks",
    parse=modelable("gemini", _parse),
    render=_render,
    blocky=True,
    tool_reason=None,
    wrong_reasons=(
        "MAX_TOKENS",
        "SAFETY",
        "MALFORMED_FUNCTION_CALL",
        "RECITATION",
        "UNEXPECTED_TOOL_CALL",
        "TOO_MANY_TOOL_CALLS",
        "LANGUAGE",
        "OTHER",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "MISSING_THOUGHT_SIGNATURE",
        "FINISH_REASON_UNSPECIFIED",
    ),
    repeat_reasons=("STOP", "MAX_TOKENS"),
    index_key="",
    index_kinds=(),
    error_events=(
        {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}},
        {"error": {"code": 500, "message": "Internal error.", "status": "INTERNAL"}},
        {"promptFeedback": {"blockReason": "SAFETY"}},
    ),
    begun_by_any_event=True,
    arguments=_arguments,
    deliver=deliver,
    requires_ids=False,
    unnamed=(None, ""),
    positional_slots=True,
    claim_reasons=("MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS"),
    absent_null=True,
    partial_args=True,
    empty_arguments=False,
    new_call=_new_call,
)
