"""Adversarial generator: labelled mutants of valid streamed tool-call turns.

Hypothesis strategies that take a valid fixture (OpenAI, Mistral, Anthropic,
OpenAI Responses, Bedrock ConverseStream, the Gemini Interactions API, Cohere
v2 or Bedrock InvokeModel) and draw a mutant together with its label: the verdict the
reference validator must give (status, exact set of finding codes, and for a
passing mutant the exact calls).  Labels come from the operators' own
semantics, never from running the validator; the property tests hold the
two oracles against each other.  See ``docs/generators.md``.

Public API::

    mutants(seed_fixture, operators=None) -> SearchStrategy[Mutant]
    sample(seed_fixture, *, count, seed, operators=None) -> list[Mutant]
    valid_turns(profile, tool_schemas, max_calls=3) -> SearchStrategy[dict]
    OPERATORS: name -> OperatorInfo (.profiles, .preserving, .code, ...)
    Operator (str enum of the names), Label, Mutant, GENERATOR_VERSION
"""

from __future__ import annotations

from ._internal.api import applicable, mutants, sample
from ._internal.labels import Label, Mutant
from ._internal.model import ModelError
from ._internal.operators import REGISTRY as OPERATORS
from ._internal.operators import Operator, OperatorInfo
from ._internal.scratch import valid_turns

GENERATOR_VERSION = "1.6.0"
"""Bumped whenever the same (seed, operators, Hypothesis seed) may draw
different mutants or labels.  1.2.0: the ``openai-responses`` and
``bedrock`` profiles, the ``mismatch_done`` operator.  1.3.0: ``sample``
no longer lets Hypothesis draw literals from the project's own source
(which made the corpus depend on the install; ``_internal/constants.py``).
1.4.0: the ``foreign_item`` operator (the closed world: another
wire's item -> ``unsupported_event``), ``whole_arguments`` (Responses
arguments delivered whole in the done events), ``provider_error`` may end a
Responses turn with ``response.failed``.  1.5.0: the four new
wires, ``gemini`` (whole calls and Vertex ``partialArgs``, with its operators
``restream_arguments``, ``late_call_id``, ``reassign_path``,
``retype_container``, ``skip_index``, ``break_continuation``,
``lose_will_continue``, ``unended_call``, ``foreign_call_id``,
``non_finite_value``, ``unnormalized_path``), ``gemini-interactions``,
``cohere`` and ``bedrock-invoke``; the ``whole_message`` (Anthropic
whole-message delivery), ``drop_call_end`` (a call's own end never comes) and
``cut_frame`` (an InvokeModel ``chunk`` frame cut in half) operators.
1.6.0: server dialects for Chat Completions (``Wire.dialects``; a seed's
``message``/``text`` copies of its deltas are rendered again from each
chunk), the ``dialect_member`` operator, ``foreign_item`` may insert a
chat chunk with an unreviewed member or a copy that disagrees with its
delta; a Gemini whole call without ``args`` is the no-argument call
``{}`` (``empty_arguments`` no longer applies to gemini).  Added without
a bump, since no earlier draw changed: the field-shape operators
(``same_index_entries``, ``null_container``, ``null_choices_finish``,
``unindexed_call``, ``unindexed_fragments``), drawn only when named
(``OperatorInfo.pooled`` off), so every (seed, operators, Hypothesis seed)
of 1.6.0 draws what it drew; the noise of a seed whose choice 2 already
ended never ends it again (no 1.6.0 seed has such a choice)."""

__all__ = [
    "GENERATOR_VERSION",
    "OPERATORS",
    "Label",
    "ModelError",
    "Mutant",
    "Operator",
    "OperatorInfo",
    "applicable",
    "mutants",
    "sample",
    "valid_turns",
]
