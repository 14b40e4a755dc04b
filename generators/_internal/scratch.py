"""Valid turns built from scratch for given tool schemas, so that the property
tests do not depend on the seeds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

from . import jsontext as jt
from .model import (
    PROFILES,
    WIRES,
    Call,
    render,
)
from .schemas import values

_ID_CHARS = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def valid_turns(
    profile: str, tool_schemas: Mapping[str, Any], max_calls: int = 3
) -> st.SearchStrategy[dict[str, Any]]:
    """Passing fixtures for ``profile`` calling 1..``max_calls`` of the tools
    in ``tool_schemas`` (parallel calls), with arguments drawn from each
    tool's schema (Unicode-rich strings; the schemas must use the keywords
    of :data:`generators._internal.schemas.GENERATED_KEYWORDS`) and
    serialized in a drawn style, fragmented at drawn points.

    OpenAI: role chunk, fragmented calls, ``finish_reason: "tool_calls"``,
    maybe a usage chunk.  Mistral: whole calls without ``index`` (or, drawn,
    indexed fragments).  Anthropic: ``message_start``, maybe a text block,
    ``tool_use`` blocks with start input ``{}``, ``message_delta`` with
    ``tool_use``, ``message_stop``.  Responses: ``response.created``, maybe
    ``response.in_progress``, maybe a reasoning item and/or a message item,
    ``function_call`` items (added with ``arguments: ""``, deltas,
    ``function_call_arguments.done``, ``output_item.done`` restating the
    text), ``response.completed`` listing the output items; every event has
    its ``sequence_number``.  Bedrock: ``messageStart``, maybe a text block
    opened by its first delta, ``toolUse`` blocks (start, deltas, maybe a
    leading empty delta; an empty object maybe without any delta), stop,
    ``messageStop`` with ``tool_use``, maybe ``metadata``.  Gemini: maybe
    a text chunk, each call whole (``args``, maybe none for ``{}``;
    consecutive whole calls maybe in one chunk) or streamed
    (``partialArgs``, strings split and entries grouped as drawn, ended by
    ``{}`` or by the last entries' part), a ``finishReason: "STOP"`` chunk
    (or, drawn, on the last call's chunk), maybe a usage-only chunk.
    Gemini Interactions: ``interaction.created``, maybe a ``model_output`` step,
    ``function_call`` steps (start ``arguments: {}``, deltas; an empty
    object maybe without any), ``interaction.completed`` with
    ``requires_action``.  Cohere: ``message-start``, maybe a
    ``tool-plan-delta``, calls (start with ``arguments: ""``, deltas, end),
    ``message-end`` with ``TOOL_CALL``.  Bedrock InvokeModel: the Anthropic
    turn in ``chunk`` frames, with the request's Claude ``modelId``.

    Shrinks toward: one call of the first tool, the simplest valid
    arguments, compact text in one fragment, no optional noise.
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}")
    if not tool_schemas:
        raise ValueError("tool_schemas is empty")
    if max_calls < 1:
        raise ValueError("max_calls must be at least 1")
    return _turns(profile, dict(tool_schemas), max_calls)


@st.composite
def _turns(draw: Any, profile: str, schemas: dict[str, Any], max_calls: int) -> dict[str, Any]:
    names = list(schemas)
    count = draw(st.integers(1, max_calls))
    calls: list[Call] = []
    ids: set[str] = set()
    for index in range(count):
        name = draw(st.sampled_from(names))
        value = draw(values(schemas[name]))
        if not isinstance(value, dict):
            raise ValueError(f"schema of {name!r} does not describe an object")
        if draw(st.booleans()):
            text = jt.dumps(jt.draw_reorder(draw, value), **jt.draw_style(draw))
        else:
            text = jt.dumps(value, item_sep=", ", key_sep=": ")
        suffix = draw(st.text(_ID_CHARS, min_size=1, max_size=10))
        id_ = WIRES[profile].id_prefix + suffix
        while id_ in ids:
            id_ += "x"
        ids.add(id_)
        calls.append(
            Call(
                choice=0,
                index=index,
                id=id_,
                name=name,
                expected=text,
                type_field=profile == "openai",
                indexed=profile != "mistral",
            )
        )
    return render(WIRES[profile].scratch(draw, calls, schemas))
