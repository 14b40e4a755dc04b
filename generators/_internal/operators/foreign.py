"""The closed world: items of another wire format inside a valid turn.

Each wire's row holds one item of the format (``Wire.foreign_sample``) and
the profiles whose item it refuses (``Wire.refuses``).  Every profile is
closed-world (docs/validator.md, "Closed world"): an item it does not
recognize is ``unsupported_event`` and nothing else, as long as the item
carries none of the profile's own vocabulary.  So an item is listed for a
profile only when the profile cannot read it as one of its own: not the
native items (a chat chunk under ``openai`` or ``mistral`` would be a real
chunk, a ``message_delta`` under ``anthropic`` a repeated terminal), nothing
with an ``error`` member (``provider_error``), nothing with a top-level slot
key (``index``, ``output_index``, ``item_id``, a ``contentBlockIndex``
body), which the profiles' slot scan reads as a piece of a block.
"""

from __future__ import annotations

import copy

from hypothesis import strategies as st

from ..edit import insert
from ..labels import Effects
from ..model import WIRES, Step, Turn
from .common import Draw
from .dialects import disagreeing_copy, mirrors, unreviewed_member


def foreign_item(draw: Draw, turn: Turn, fx: Effects) -> None:
    """Insert, anywhere in the stream, one item of another wire format: an
    OpenAI chat chunk with ``choices``, an Anthropic ``message_delta``, a
    Responses ``response.completed``, a Bedrock ``{"messageStop": ...}``, a
    Gemini ``{"candidates": [...]}`` chunk, a Cohere ``message-end``
    event, or (in a ConverseStream, whose every item must be a frame) an
    InvokeModelWithResponseStream ``chunk`` frame, whichever the profile
    refuses (``Wire.refuses``).  Responses:
    never before the first event (the turn begins with it).  Formats with
    server dialects (``Wire.dialects``) may instead (drawn) get a chunk of
    their own with a member no reviewed dialect lists, at any level, or a
    chunk whose copy (``message``, ``text``) disagrees with its delta
    (:mod:`.dialects`).

    Reproduces a stream of another provider validated under a forced
    profile, proxies that translate one wire into another and leak an
    untranslated item, servers that grow unreviewed members or let a copy
    drift from the delta, clients that skip what they do not recognize (a
    skipped item may have been a call or its end).
    Label: blocked ``unsupported_event`` (turn level, not fatal: every
    other finding is still reported).
    Shrinks toward: the first foreign item first in the stream.
    """
    low = 1 if turn.wire.begun_by_any_event else 0
    at = draw(st.integers(low, len(turn.steps)))
    kinds = ["another wire", "unreviewed member", "disagreeing copy"] if turn.wire.dialects else []
    kind = draw(st.sampled_from(kinds)) if kinds else "another wire"
    if kind == "unreviewed member":
        step = unreviewed_member(draw, turn)
    elif kind == "disagreeing copy" and mirrors(turn):
        step = disagreeing_copy(draw, turn)
    else:
        source = draw(st.sampled_from(turn.wire.refuses))
        step = Step("raw", raw=copy.deepcopy(WIRES[source].foreign_sample))
    insert(turn, at, step)
    fx.turn("unsupported_event")
