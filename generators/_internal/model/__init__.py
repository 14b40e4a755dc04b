"""The generator's own reading of the wire formats.

:mod:`.turn` is the format-neutral model of a turn (``Call``, ``Block``,
``Step``, ``Turn``, reassembly); each format module reads (``parse``) and
writes (``render``) its stream and declares its vocabulary in a
:class:`~.wire.Wire` row, registered once in :data:`WIRES`:

========================  ============================  =========================
profile                   module                        stream
========================  ============================  =========================
``openai``, ``mistral``   :mod:`.openai_chat`           ``chunks``
``anthropic``             :mod:`.anthropic`             ``events``
``openai-responses``      :mod:`.openai_responses`      ``events``
``bedrock``               :mod:`.bedrock`               ``events``
``gemini``                :mod:`.gemini`                ``chunks``
``gemini-interactions``   :mod:`.gemini_interactions`   ``events``
``cohere``                :mod:`.cohere`                ``events``
``bedrock-invoke``        :mod:`.bedrock_invoke`        ``events`` (``chunk`` frames
                                                        around Anthropic events)
========================  ============================  =========================

The model never imports the validator: the two are independent oracles.
"""

from __future__ import annotations

import copy
from typing import Any

from . import (
    anthropic,
    bedrock,
    bedrock_invoke,
    cohere,
    gemini,
    gemini_interactions,
    openai_chat,
    openai_responses,
)
from .turn import (
    MISSING,
    Block,
    Call,
    ModelError,
    Step,
    StepKind,
    Turn,
    compact,
    joined,
    reassemble,
)
from .wire import DialectMember, Wire

WIRES: dict[str, Wire] = {
    wire.profile: wire
    for wire in (
        openai_chat.OPENAI,
        openai_chat.MISTRAL,
        anthropic.WIRE,
        openai_responses.WIRE,
        bedrock.WIRE,
        gemini.WIRE,
        gemini_interactions.WIRE,
        cohere.WIRE,
        bedrock_invoke.WIRE,
    )
}
"""Every profile the generator models, and how."""
PROFILES = tuple(WIRES)


def parse(fixture: dict[str, Any]) -> Turn:
    """Model a *valid* fixture (a seed or a from-scratch turn)."""
    if not isinstance(fixture, dict):
        raise ModelError("a fixture is a JSON object")
    profile = fixture.get("profile")
    wire = WIRES.get(profile) if isinstance(profile, str) else None
    if wire is None:
        raise ModelError(f"unknown profile {profile!r}")
    stream = fixture.get(wire.stream_key)
    if not isinstance(stream, list):
        raise ModelError(f"{wire.stream_key!r} is missing")
    schemas = copy.deepcopy(fixture.get("tool_schemas") or {})
    request = copy.deepcopy(fixture.get("request"))
    turn = wire.parse(stream, schemas, request)
    for call in turn.calls:
        call.expected = reassemble(turn, call)
    return turn


def render(turn: Turn) -> dict[str, Any]:
    """The fixture envelope of ``turn`` (no ``meta``, no ``expect``)."""
    out: dict[str, Any] = {
        "profile": turn.profile,
        "tool_schemas": copy.deepcopy(turn.tool_schemas),
    }
    if turn.request is not None:
        out["request"] = copy.deepcopy(turn.request)
    out[turn.wire.stream_key] = turn.wire.render(turn)
    return out


__all__ = [
    "MISSING",
    "PROFILES",
    "WIRES",
    "Block",
    "Call",
    "DialectMember",
    "ModelError",
    "Step",
    "StepKind",
    "Turn",
    "Wire",
    "compact",
    "joined",
    "parse",
    "reassemble",
    "render",
]
