"""The operators: each takes a turn model and edits it, recording what it
broke (if anything) in :class:`~generators._internal.labels.Effects`.

Every operator is a function ``(draw, turn, effects) -> None`` with a
docstring stating what it does, the field bug it reproduces, its label rule
and what it shrinks toward; :data:`REGISTRY` says where it applies.
Options are listed simplest first so that Hypothesis shrinks somewhere
useful (``sampled_from`` and ``integers`` shrink toward their first/lowest
value, ``booleans`` toward ``False``, lists toward empty).

Operators never branch on the profile name: what differs between formats
they ask of ``turn.wire`` (the format's row of
:data:`~generators._internal.model.WIRES`), and where an operator applies
follows from the same rows (the profile sets below).  The sections:

==================  =====================================================
:mod:`.preserving`  refragment, whole_call, identities, interleave,
                    whole_arguments, whole_message, ...
:mod:`.noise`       insert_noise (one drawing function per format)
:mod:`.cuts`        truncate, truncate_parseable, bad_index, second_choice,
                    finish_without_calls (each alone, own label)
:mod:`.identity`    drop_id, drop_name, duplicate_id, reuse_slot
:mod:`.arguments`   the arguments text (empty, corrupt, ..., mismatch_done)
:mod:`.schema`      schema_violation, unsupported_keyword
:mod:`.terminals`   end reasons, repeated terminals, lost call ends, late
                    deltas, errors, index gaps
:mod:`.foreign`     foreign_item (the closed world: another format's item)
:mod:`.partial`     values at JSON paths (Vertex ``partialArgs``):
                    restream_arguments, late_call_id, and one operator
                    per reassembly rule broken
:mod:`.frames`      cut_frame (a framed wire's frame cut in half)
:mod:`.dialects`    dialect_member (reviewed server dialects); the
                    unreviewed members and disagreeing copies foreign_item
                    inserts
:mod:`.field`       the shapes the field reported (chat): same-index
                    entries in one delta, null containers, calls without
                    ``index``; drawn only when named (``pooled`` off)
==================  =====================================================
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from ..labels import Effects
from ..model import WIRES, Turn, Wire
from .arguments import (
    corrupt_json,
    double_arguments,
    duplicate_key,
    empty_arguments,
    inject_non_finite,
    lone_surrogate,
    mismatch_done,
    non_object,
    object_fragment,
    prefill_input,
    rename_tool,
    restated_calls,
    trailing_document,
)
from .common import Draw, always, free_calls, has_calls, has_finish, has_free_call
from .cuts import (
    _prefix_label,
    bad_index,
    finish_without_calls,
    parse_points,
    second_choice,
    truncate,
    truncate_parseable,
)
from .dialects import dialect_member, unused_dialects
from .field import (
    last_calls,
    null_choices_finish,
    null_container,
    same_index_entries,
    text_fragments,
    unindexed_call,
    unindexed_fragments,
)
from .foreign import foreign_item
from .frames import cut_frame, cut_targets
from .identity import drop_id, drop_name, dup_pairs, duplicate_id, live_window, reuse_slot
from .noise import insert_noise
from .partial import (
    break_continuation,
    entries_of,
    followed,
    foreign_call_id,
    foreign_id_points,
    id_targets,
    late_call_id,
    losable,
    lose_will_continue,
    non_finite_value,
    quiet_points,
    reassign_path,
    restream_arguments,
    restreamable,
    retype_container,
    skip_index,
    streamed_calls,
    string_targets,
    unended_call,
    unnormalized_path,
)
from .preserving import (
    delay_identity,
    forced_choice_stop,
    interleave,
    interleave_groups,
    reencode,
    refragment,
    repeat_identity,
    whole_arguments,
    whole_call,
    whole_message,
    whole_message_ready,
    whole_targets,
)
from .schema import keyword_tools, schema_violation, unsupported_keyword, violable
from .terminals import (
    delta_after_terminal,
    drop_call_end,
    dup_terminal_targets,
    duplicate_terminal,
    end_targets,
    ends_in_error,
    failable,
    gap_index,
    gap_scopes,
    late_targets,
    provider_error,
    wrong_finish,
)


def _where(has: Callable[[Wire], bool]) -> tuple[str, ...]:
    """The profiles whose wire has a property, in table order."""
    return tuple(profile for profile, wire in WIRES.items() if has(wire))


ALL = tuple(WIRES)
TEXT = _where(lambda w: w.deliver is None)
"""Formats whose arguments are text fragments (not Gemini's JSON values):
the operators that re-split, corrupt or re-encode the text apply."""
INDEXED = _where(lambda w: not w.positional_slots)
"""Formats whose call items carry a slot index (not Gemini's parts)."""
NEEDS_IDS = _where(lambda w: w.requires_ids)
"""Formats where a call without an id is ``missing_id``."""
PARTIAL_ARGS = _where(lambda w: w.partial_args)
"""Formats whose calls may stream values at JSON paths (Vertex ``partialArgs``)."""
CHAT = _where(lambda w: not w.blocky)
"""Formats with choices and ``tool_calls`` slots (OpenAI, Mistral)."""
LATE_IDENTITY = _where(lambda w: w.late_identity)
"""Formats that can carry a call's identity on a later event than its
first (OpenAI/Mistral fragments, the Responses closing item)."""
CLAIMS_TOOLS = _where(lambda w: w.tool_reason is not None or bool(w.claim_reasons))
"""Formats with an end reason that claims tool use."""
DIALECTS = _where(lambda w: bool(w.dialects))
"""Formats whose servers add reviewed dialect members (Chat Completions)."""
CAN_BE_EMPTY = _where(lambda w: w.empty_arguments)
"""Formats whose arguments can reassemble to "" (Bedrock's and Gemini's
cannot: a call without argument text or ``args`` is ``{}``)."""
START_OBJECT = _where(lambda w: w.start_object)
"""Formats whose opening event may carry the arguments object (Anthropic)."""
BLOCKY = _where(lambda w: w.blocky)
"""Formats whose calls have their own start and end events."""
OWN_CALL_ENDS = _where(lambda w: w.blocky and not w.partial_args)
"""Formats where a call's lost end event is ``missing_terminal`` whatever
follows.  Not Gemini: its streamed call's end part is ``lose_will_continue``'s
and ``unended_call``'s, as its loss reads as a collision when a call follows."""
WHOLE_MESSAGES = _where(lambda w: w.whole_message)
"""Formats whose opening event may hold the whole message (Anthropic)."""
FRAMED = _where(lambda w: w.frames)
"""Formats whose items are frames around another wire's events."""
RESTATES = _where(lambda w: w.restates)
"""Formats whose closing events restate the arguments (Responses)."""
FORCEABLE = _where(lambda w: w.plain_stop is not None)
"""Formats whose plain stop means "execute" under a forcing ``tool_choice``."""
CHAT_REQUIRED_INDEX = _where(lambda w: not w.blocky and not w.inferred_index)
"""Chat formats whose ``tool_calls`` entries must carry ``index`` (OpenAI)."""
CHAT_INFERRED_INDEX = _where(lambda w: not w.blocky and w.inferred_index)
"""Chat formats where an entry without ``index`` is a whole call at the next
free index (Mistral)."""


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
    WHOLE_ARGUMENTS = "whole_arguments"
    """Responses: no arguments deltas, the done events carry the arguments."""
    RESTREAM_ARGUMENTS = "restream_arguments"
    """Gemini: the same arguments in another form (``partialArgs`` split and
    grouped otherwise, or whole ``args``)."""
    LATE_CALL_ID = "late_call_id"
    """Gemini: a streamed call's id on a later part than its first."""
    WHOLE_MESSAGE = "whole_message"
    """Anthropic: every block complete in ``message_start``, no block events."""
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
    DROP_CALL_END = "drop_call_end"
    """A call's own end event never comes -> ``missing_terminal``."""
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
    FOREIGN_ITEM = "foreign_item"
    """An item of another wire format (chat: or a chunk with an unreviewed
    member, or a copy that disagrees with its delta) -> ``unsupported_event``."""
    REASSIGN_PATH = "reassign_path"
    """``partialArgs``: a path assigned twice -> ``duplicate_assignment``."""
    RETYPE_CONTAINER = "retype_container"
    """``partialArgs``: a container used as two types, or a scalar as a
    container -> ``path_type_conflict``."""
    SKIP_INDEX = "skip_index"
    """``partialArgs``: an array index past the end -> ``array_index_gap``."""
    BREAK_CONTINUATION = "break_continuation"
    """``partialArgs``: a continued string broken (another path, not a
    string, never ended, continued after its end) ->
    ``broken_string_continuation``."""
    LOSE_WILL_CONTINUE = "lose_will_continue"
    """``partialArgs``: a streamed call's end lost, the stream ends while it
    continues -> ``missing_terminal``."""
    UNENDED_CALL = "unended_call"
    """``partialArgs``: a streamed call's end lost, the next call starts
    while it continues -> ``identity_collision``."""
    FOREIGN_CALL_ID = "foreign_call_id"
    """Gemini: a streamed call's later part with another id ->
    ``identity_collision``."""
    NON_FINITE_VALUE = "non_finite_value"
    """``partialArgs``: ``numberValue`` ``"NaN"`` / ``"Infinity"`` ->
    ``non_finite_number``."""
    UNNORMALIZED_PATH = "unnormalized_path"
    """``partialArgs``: a ``jsonPath`` that is not a normalized path ->
    ``invalid_json_path``."""
    CUT_FRAME = "cut_frame"
    """Bedrock InvokeModel: a ``chunk`` frame cut in half ->
    ``unsupported_event``, plus ``missing_terminal`` when the cut frame was
    a stop or the message's end (the terminal it carried never arrives)."""
    DIALECT_MEMBER = "dialect_member"
    """Chat: one reviewed server dialect's member in every chunk (reasoning
    text, vendor bookkeeping, a copy of what the chunk says)."""
    # -- the shapes the field reported (drawn only when named) ------------
    SAME_INDEX_ENTRIES = "same_index_entries"
    """Chat: one fragment sent as several entries with the same ``index`` in
    one delta (also the call's first chunk)."""
    NULL_CONTAINER = "null_container"
    """Chat: ``choices``, ``delta``, ``tool_calls`` or ``function`` sent as
    ``null`` where it carries nothing."""
    NULL_CHOICES_FINISH = "null_choices_finish"
    """Chat: the chunk of the end reason sent with ``choices: null`` ->
    ``missing_terminal``."""
    UNINDEXED_CALL = "unindexed_call"
    """OpenAI: every entry of a call without ``index`` -> ``invalid_slot_index``."""
    UNINDEXED_FRAGMENTS = "unindexed_fragments"
    """Mistral: a call streamed in fragments without ``index``: each entry a
    whole call -> ``empty_arguments`` and ``missing_id``."""


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
    also: tuple[str, ...]
    """Codes the mutation adds by what it removed, depending on where it
    lands (a cut frame that was a stop loses that terminal): the label holds
    ``code`` and may hold these, and nothing else of this operator's."""
    apply: Callable[[Draw, Turn, Effects], None]
    applies: Callable[[Turn, Effects], bool]
    """Per-turn applicability (after the registry's profile check)."""
    combinable: bool = True
    """A breaking operator that may be combined with other breaking ones
    (each touches its own slots or only adds an independent turn-level code)."""
    turn_level: bool = False
    """Combined at most once per mutant."""
    pooled: bool = True
    """Drawn without being named: by an unnamed draw (``mutants(seed)``) and
    as one of the 0-3 preserving operators before a featured one.  Off for
    the operators added after generator 1.6.0 (the field shapes): they
    apply only when named, so adding them changed no earlier draw (same
    seed, operators and Hypothesis seed, same mutants: the shipped corpus
    keeps its cases)."""

    @property
    def doc(self) -> str:
        return self.apply.__doc__ or ""

    def usable(self, turn: Turn, effects: Effects) -> bool:
        return not effects.sealed and turn.profile in self.profiles and self.applies(turn, effects)


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
    also: tuple[str, ...] = (),
    combinable: bool = True,
    turn_level: bool = False,
    pooled: bool = True,
) -> OperatorInfo:
    if turn_level:
        applies = _and(applies, _not_used(op.value))
    return OperatorInfo(
        name=op.value,
        profiles=profiles,
        preserving=code is None,
        code=code,
        also=also,
        apply=fn,
        applies=applies,
        combinable=combinable,
        turn_level=turn_level,
        pooled=pooled,
    )


_O = Operator
REGISTRY: dict[str, OperatorInfo] = {
    e.name: e
    for e in [
        _entry(_O.REFRAGMENT, TEXT, refragment, has_calls),
        _entry(_O.INSERT_NOISE, ALL, insert_noise, always),
        _entry(_O.WHOLE_CALL, TEXT, whole_call, has_calls),
        _entry(_O.REPEAT_IDENTITY, CHAT, repeat_identity, has_calls),
        _entry(_O.DELAY_IDENTITY, LATE_IDENTITY, delay_identity, has_calls),
        _entry(_O.INTERLEAVE, INDEXED, interleave, lambda t, f: bool(interleave_groups(t))),
        _entry(_O.REENCODE, TEXT, reencode, has_calls),
        _entry(_O.FORCED_CHOICE_STOP, FORCEABLE, forced_choice_stop, has_finish),
        _entry(
            _O.WHOLE_ARGUMENTS,
            RESTATES,
            whole_arguments,
            lambda t, f: bool(whole_targets(t)),
        ),
        _entry(
            _O.RESTREAM_ARGUMENTS,
            PARTIAL_ARGS,
            restream_arguments,
            lambda t, f: bool(restreamable(t, f)),
        ),
        _entry(_O.LATE_CALL_ID, PARTIAL_ARGS, late_call_id, lambda t, f: bool(id_targets(t, f))),
        _entry(
            _O.WHOLE_MESSAGE, WHOLE_MESSAGES, whole_message, lambda t, f: whole_message_ready(t)
        ),
        _entry(_O.TRUNCATE, ALL, truncate, has_calls, code="missing_terminal", combinable=False),
        _entry(_O.DROP_ID, NEEDS_IDS, drop_id, has_free_call, code="missing_id"),
        _entry(_O.DROP_NAME, ALL, drop_name, has_free_call, code="missing_name"),
        _entry(_O.RENAME_TOOL, ALL, rename_tool, has_free_call, code="unknown_tool"),
        _entry(
            _O.EMPTY_ARGUMENTS,
            CAN_BE_EMPTY,
            empty_arguments,
            has_free_call,
            code="empty_arguments",
        ),
        _entry(_O.CORRUPT_JSON, TEXT, corrupt_json, has_free_call, code="malformed_json"),
        _entry(_O.TRAILING_DOCUMENT, TEXT, trailing_document, has_free_call, code="trailing_data"),
        _entry(_O.DOUBLE_ARGUMENTS, TEXT, double_arguments, has_free_call, code="trailing_data"),
        _entry(_O.NON_OBJECT, ALL, non_object, has_free_call, code="non_object_arguments"),
        _entry(_O.DUPLICATE_KEY, TEXT, duplicate_key, has_free_call, code="duplicate_key"),
        _entry(
            _O.INJECT_NON_FINITE, TEXT, inject_non_finite, has_free_call, code="non_finite_number"
        ),
        _entry(_O.LONE_SURROGATE, TEXT, lone_surrogate, has_free_call, code="invalid_unicode"),
        _entry(
            _O.OBJECT_FRAGMENT, TEXT, object_fragment, has_free_call, code="non_string_fragment"
        ),
        _entry(
            _O.WRONG_FINISH,
            ALL,
            wrong_finish,
            # (Not after provider_error's error ending: that is the end.)
            lambda t, f: has_finish(t, f) and not ends_in_error(t),
            code="wrong_terminal_reason",
            turn_level=True,
        ),
        _entry(
            _O.FINISH_WITHOUT_CALLS,
            CLAIMS_TOOLS,
            finish_without_calls,
            has_finish,
            code="terminal_without_calls",
            combinable=False,
        ),
        _entry(
            _O.DUPLICATE_TERMINAL,
            ALL,
            duplicate_terminal,
            lambda t, f: bool(t.calls) and bool(dup_terminal_targets(t, f)),
            code="duplicate_terminal",
        ),
        _entry(
            _O.DROP_CALL_END,
            OWN_CALL_ENDS,
            drop_call_end,
            lambda t, f: bool(end_targets(t, f)),
            code="missing_terminal",
        ),
        _entry(
            _O.DELTA_AFTER_TERMINAL,
            ALL,
            delta_after_terminal,
            # (A new call after the end would find a call left open by
            # lose_will_continue: identity_collision, not its label.)
            lambda t, f: bool(late_targets(t, f)) and "lose_will_continue" not in f.used,
            code="delta_after_terminal",
        ),
        _entry(
            _O.PROVIDER_ERROR,
            ALL,
            provider_error,
            lambda t, f: has_calls(t, f) and (bool(t.wire.error_events) or failable(t, f)),
            code="provider_error",
            turn_level=True,
        ),
        _entry(
            _O.DUPLICATE_ID,
            ALL,
            duplicate_id,
            lambda t, f: bool(dup_pairs(t, f)),
            code="duplicate_id",
        ),
        _entry(
            _O.REUSE_SLOT,
            INDEXED,
            reuse_slot,
            lambda t, f: any(live_window(t, c) for c in free_calls(t, f)),
            code="identity_collision",
        ),
        _entry(
            _O.GAP_INDEX,
            INDEXED,
            gap_index,
            lambda t, f: bool(t.calls) and bool(gap_scopes(t)),
            code="missing_slot",
            turn_level=True,
        ),
        _entry(
            _O.BAD_INDEX, INDEXED, bad_index, has_calls, code="invalid_slot_index", combinable=False
        ),
        _entry(
            _O.TRUNCATE_PARSEABLE,
            TEXT,
            truncate_parseable,
            lambda t, f: bool(parse_points(t)),
            code="missing_terminal",
            combinable=False,
        ),
        _entry(
            _O.SCHEMA_VIOLATION,
            ALL,
            schema_violation,
            lambda t, f: bool(violable(t, f)),
            code="schema_violation",
        ),
        _entry(
            _O.UNSUPPORTED_KEYWORD,
            ALL,
            unsupported_keyword,
            lambda t, f: bool(keyword_tools(t, f)),
            code="unsupported_schema_keyword",
        ),
        _entry(
            _O.PREFILL_INPUT, START_OBJECT, prefill_input, has_free_call, code="conflicting_input"
        ),
        _entry(
            _O.MISMATCH_DONE,
            RESTATES,
            mismatch_done,
            lambda t, f: bool(restated_calls(t, f)),
            code="arguments_mismatch",
        ),
        _entry(
            _O.SECOND_CHOICE,
            CHAT,
            second_choice,
            has_calls,
            code="ambiguous_choice",
            combinable=False,
        ),
        _entry(
            _O.FOREIGN_ITEM,
            ALL,
            foreign_item,
            lambda t, f: bool(t.calls) and bool(t.wire.refuses),
            code="unsupported_event",
            turn_level=True,
        ),
        _entry(
            _O.REASSIGN_PATH,
            PARTIAL_ARGS,
            reassign_path,
            lambda t, f: any(a for c in streamed_calls(t, f) for _, a in quiet_points(t, c)),
            code="duplicate_assignment",
        ),
        _entry(
            _O.RETYPE_CONTAINER,
            PARTIAL_ARGS,
            retype_container,
            lambda t, f: bool(streamed_calls(t, f)),
            code="path_type_conflict",
        ),
        _entry(
            _O.SKIP_INDEX,
            PARTIAL_ARGS,
            skip_index,
            lambda t, f: bool(streamed_calls(t, f)),
            code="array_index_gap",
        ),
        _entry(
            _O.BREAK_CONTINUATION,
            PARTIAL_ARGS,
            break_continuation,
            lambda t, f: bool(string_targets(t, f)),
            code="broken_string_continuation",
        ),
        _entry(
            _O.LOSE_WILL_CONTINUE,
            PARTIAL_ARGS,
            lose_will_continue,
            lambda t, f: bool(losable(t, f)),
            code="missing_terminal",
        ),
        _entry(
            _O.UNENDED_CALL,
            PARTIAL_ARGS,
            unended_call,
            lambda t, f: bool(followed(t, f)),
            code="identity_collision",
        ),
        _entry(
            _O.FOREIGN_CALL_ID,
            PARTIAL_ARGS,
            foreign_call_id,
            lambda t, f: bool(foreign_id_points(t, f)),
            code="identity_collision",
        ),
        _entry(
            _O.NON_FINITE_VALUE,
            PARTIAL_ARGS,
            non_finite_value,
            lambda t, f: bool(streamed_calls(t, f)),
            code="non_finite_number",
        ),
        _entry(
            _O.UNNORMALIZED_PATH,
            PARTIAL_ARGS,
            unnormalized_path,
            lambda t, f: any(entries_of(t, c) for c in streamed_calls(t, f)),
            code="invalid_json_path",
        ),
        _entry(
            _O.CUT_FRAME,
            FRAMED,
            cut_frame,
            lambda t, f: bool(cut_targets(t, f)),
            code="unsupported_event",
            also=("missing_terminal",),
        ),
        _entry(_O.DIALECT_MEMBER, DIALECTS, dialect_member, lambda t, f: bool(unused_dialects(t))),
        _entry(
            _O.SAME_INDEX_ENTRIES,
            CHAT,
            same_index_entries,
            lambda t, f: bool(text_fragments(t)),
            pooled=False,
        ),
        _entry(_O.NULL_CONTAINER, CHAT, null_container, has_calls, pooled=False),
        _entry(
            _O.NULL_CHOICES_FINISH,
            CHAT,
            null_choices_finish,
            has_finish,
            code="missing_terminal",
            combinable=False,
            pooled=False,
        ),
        _entry(
            _O.UNINDEXED_CALL,
            CHAT_REQUIRED_INDEX,
            unindexed_call,
            has_calls,
            code="invalid_slot_index",
            combinable=False,
            pooled=False,
        ),
        _entry(
            _O.UNINDEXED_FRAGMENTS,
            CHAT_INFERRED_INDEX,
            unindexed_fragments,
            lambda t, f: bool(last_calls(t, f)),
            code="missing_id",
            also=("empty_arguments",),
            combinable=False,
            pooled=False,
        ),
    ]
}

assert [e for e in REGISTRY] == [o.value for o in Operator]

PRESERVING = [e for e in REGISTRY.values() if e.preserving and e.pooled]
"""The preserving operators drawn without being named (``pooled``)."""
BREAKING = [e for e in REGISTRY.values() if not e.preserving and e.pooled]
"""The breaking operators drawn without being named (``pooled``)."""

__all__ = [
    "BREAKING",
    "PRESERVING",
    "REGISTRY",
    "Operator",
    "OperatorInfo",
    "_prefix_label",
]
