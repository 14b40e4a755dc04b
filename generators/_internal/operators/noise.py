"""Verdict-preserving noise: stream items that carry no call data.

Each wire format draws its own (``Wire.noise``, defined in its model
module); ``insert_noise`` asks the turn's row.
"""

from __future__ import annotations

from hypothesis import strategies as st

from ..labels import Effects
from ..model import Turn
from .common import Draw


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
    for _ in range(draw(st.integers(1, 3))):
        turn.wire.noise(draw, turn)
