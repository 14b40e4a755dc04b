"""Classify what an adapter made of a fixture against the reference verdict.

One fixture, one adapter, one :class:`Outcome`; its ``classification`` is one
of :data:`CLASSIFICATIONS` (see ``docs/adapters.md``, "Classifications"):

``not_run``
    the adapter does not take the fixture's profile (or the library part it
    needs for that profile is missing); nothing was compared.
``adapter_crash``
    the adapter raised something other than its documented rejection,
    whatever the reference said.
``unsafe_accept``
    the reference does not pass the turn (``blocked`` or ``not_applicable``)
    and the adapter *hands over* at least one call as valid.
``false_reject``
    the reference passes the turn and the adapter rejects it (its documented
    refusal), or hands over only a correct part of the reference's calls and
    flags the rest (or any call) invalid.
``wrong_calls``
    the reference passes the turn and the calls the adapter hands over differ
    from the reference's client calls (count, order, ``id``, ``name`` or
    arguments), each difference named in ``differences``.
``agree``
    everything else: the reference passes and the adapter hands over exactly
    its calls; or the reference does not pass and the adapter hands over
    nothing (it rejected the turn, produced no call, or flagged every call
    invalid).

A call is *handed over as valid* when it is in ``AdapterResult.calls`` of a
result that is not ``rejected`` (calls listed in ``AdapterResult.invalid`` are
not handed over).

Arguments are compared in the form the library hands to the application:
an adapter that reports a parsed value (``AdapterCall.input`` is not
``NO_INPUT``: anthropic-python's ``tool_use.input``, langchain-core's
``args``) is compared *by parsed value* with the reference's validated
input; an adapter that hands over argument text (openai-python, litellm,
command adapters) is compared *byte for byte* with the reference's
reassembled text, and a difference says whether the two texts still parse to
the same value ("bytes") or not ("value").
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from toolstream.adapters.base import (
    GENERATED_ID,
    LIBRARY_NOTE_PREFIX,
    NO_INPUT,
    AdapterCall,
    AdapterResult,
    json_safe,
    one_line,
)
from toolstream.diff.handover import STRUCTURAL, SentCall, handover_parts, shape
from toolstream.findings import Layer, layer_of
from toolstream.report import CallReport, Report

__all__ = [
    "ADAPTER_CRASH",
    "AGREE",
    "CLASSIFICATIONS",
    "DISAGREEMENTS",
    "FALSE_REJECT",
    "NOT_RUN",
    "SEVERITY",
    "UNSAFE_ACCEPT",
    "WRONG_CALLS",
    "CallDifference",
    "Outcome",
    "classify_crash",
    "classify_result",
    "deciding_code",
    "disagreement_layer",
    "not_run",
    "same_value",
]

AGREE: Final = "agree"
UNSAFE_ACCEPT: Final = "unsafe_accept"
WRONG_CALLS: Final = "wrong_calls"
FALSE_REJECT: Final = "false_reject"
ADAPTER_CRASH: Final = "adapter_crash"
NOT_RUN: Final = "not_run"

CLASSIFICATIONS: Final = (AGREE, UNSAFE_ACCEPT, WRONG_CALLS, FALSE_REJECT, ADAPTER_CRASH, NOT_RUN)
"""Every classification, in the order tables and JSON list them."""

DISAGREEMENTS: Final = (UNSAFE_ACCEPT, WRONG_CALLS, ADAPTER_CRASH, FALSE_REJECT)
"""The non-agree classifications, worst first (the order "worst cases" use)."""

SEVERITY: Final = {name: rank for rank, name in enumerate((*DISAGREEMENTS, AGREE, NOT_RUN))}
"""Sort key: lower is worse."""

LAYER_ORDER: Final = tuple(Layer)
"""The layers bottom-up: transport, reassembly, argument strictness, tool policy."""


def deciding_code(codes: Sequence[str]) -> str | None:
    """The reference code a disagreement is counted under: of the codes of
    the verdict the adapter was judged against, the first one of the lowest
    layer (a fault low in the stack, a cut stream or two calls glued into
    one slot, makes every check above it moot: a library that hands over a
    truncated call has a reassembly bug whatever the schema says).  ``None``
    when the verdict has no code (the reference passes the turn, or finds no
    tool activity in it)."""
    if not codes:
        return None
    return min(codes, key=lambda code: LAYER_ORDER.index(layer_of(code)))


def disagreement_layer(code: str | None) -> Layer:
    """The layer a disagreement counted under ``code`` (:func:`deciding_code`)
    belongs to.  Without a code the stream is one the reference accepts (or
    finds no call in), so whatever the library made of it differently is
    its reassembly."""
    return Layer.REASSEMBLY if code is None else layer_of(code)


def same_value(a: Any, b: Any) -> bool:
    """Equality of parsed JSON values: objects by key set (order ignored),
    arrays element-wise, numbers by value (``1 == 1.0``), but ``true`` is not
    ``1`` and a string is never a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


@dataclass(frozen=True)
class CallDifference:
    """One way the handed-over calls differ from the reference's.

    ``field``: ``count``, ``order``, ``id``, ``name`` or ``arguments``; ``kind`` for
    ``arguments``: ``bytes`` (the texts differ but parse to the same value)
    or ``value`` (the parsed values differ, or one side does not parse);
    for the others it repeats ``field``.  ``call`` is the 0-based position
    (``None`` for ``count`` and ``order``; ``order`` means the same calls
    were handed over in another order, and lists the ids of both sides).
    """

    field: str
    kind: str
    call: int | None
    adapter: Any
    reference: Any

    def describe(self) -> str:
        if self.field == "count":
            return f"{self.adapter} call(s) handed over, reference has {self.reference}"
        if self.field == "order":
            return (
                f"the reference's calls in another order: adapter ids {_short(self.adapter)}"
                f" vs reference {_short(self.reference)}"
            )
        what = {
            "bytes": "arguments differ byte for byte (same parsed value)",
            "value": "arguments differ by parsed value",
        }.get(self.kind, f"{self.field} differs")
        return (
            f"call {self.call}: {what}: adapter {_short(self.adapter)}"
            f" vs reference {_short(self.reference)}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "kind": self.kind,
            "call": self.call,
            "adapter": json_safe(self.adapter),
            "reference": json_safe(self.reference),
        }


def _short(value: Any, limit: int = 60) -> str:
    if value is NO_INPUT:
        return "(nothing)"
    try:
        text = json.dumps(json_safe(value), ensure_ascii=True, separators=(",", ":"))
    except (TypeError, ValueError):  # pragma: no cover - json_safe makes it JSON
        text = repr(value)
    return one_line(text, limit)


@dataclass(frozen=True)
class Outcome:
    """What one adapter made of one fixture, judged against the reference.

    ``detail``: one human line (deterministic).  ``handed``: the calls handed
    over as valid; ``invalid``: calls the library flagged invalid;
    ``error``: ``"Type: message"`` of a crash; ``in_library``: whether the
    crash was raised inside the library (``False``: by the shim itself).
    """

    classification: str
    detail: str = ""
    differences: tuple[CallDifference, ...] = ()
    handed: tuple[AdapterCall, ...] = ()
    invalid: tuple[str, ...] = ()
    rejected: bool = False
    error: str | None = None
    error_type: str | None = None
    in_library: bool | None = None
    finish_reason: str | None = None
    reason: str | None = None
    """Why the adapter refused the turn (when ``rejected``), one clean line."""
    handover: str | None = None
    """What an ``unsafe_accept`` or ``wrong_calls`` handed over, compared with
    the calls the wire carried (:mod:`toolstream.diff.handover`): e.g.
    ``glued_ids+merged``, ``as_sent``."""

    @property
    def disagrees(self) -> bool:
        return self.classification in DISAGREEMENTS

    @property
    def signature(self) -> str | None:
        """How the adapter disagrees, precisely enough to keep a shrink on one
        bug: the classification, plus the exception type of a crash; for an
        unsafe accept, its hand-over (``unsafe_accept:glued_ids+merged``);
        for wrong calls, the sorted set of differing fields (and argument
        kinds), then the hand-over's structural parts when it has any
        (``wrong_calls:count:lost_call``).  ``None`` when it does not
        disagree."""
        if not self.disagrees:
            return None
        if self.classification == ADAPTER_CRASH:
            return f"{ADAPTER_CRASH}:{self.error_type}"
        if self.classification == WRONG_CALLS:
            parts = sorted(
                {
                    d.field if d.field != "arguments" else f"arguments-{d.kind}"
                    for d in self.differences
                }
            )
            return wrong_calls_signature(parts, self.handover)
        if self.classification == UNSAFE_ACCEPT and self.handover:
            return f"{UNSAFE_ACCEPT}:{self.handover}"
        return self.classification

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"classification": self.classification, "detail": self.detail}
        if self.classification == NOT_RUN:
            return out
        if self.error is not None:
            out["error"] = self.error
            out["raised_inside_library"] = self.in_library
            return out
        out["rejected"] = self.rejected
        if self.rejected and self.reason is not None:
            out["reason"] = self.reason  # a merge of shard results judges "refused for one reason"
        out["calls"] = [
            {
                "id": json_safe(c.id),
                "name": json_safe(c.name),
                "arguments": json_safe(c.arguments),
                **({"input": json_safe(c.input)} if c.input is not NO_INPUT else {}),
            }
            for c in self.handed
        ]
        if self.invalid:
            out["invalid"] = list(self.invalid)
        out["finish_reason"] = self.finish_reason
        if self.handover is not None:
            out["handover"] = self.handover
        if self.differences:
            out["differences"] = [d.to_dict() for d in self.differences]
        return out


def wrong_calls_signature(fields: Sequence[str], handover: str | None) -> str:
    """``wrong_calls:FIELDS`` plus ``:PARTS``, the hand-over's structural
    parts (calls merged, split, lost...), when it has any."""
    structural = sorted(set((handover or "").split("+")) & STRUCTURAL) if handover else []
    tail = f":{'+'.join(structural)}" if structural else ""
    return f"{WRONG_CALLS}:{','.join(fields)}{tail}"


def not_run(reason: str) -> Outcome:
    return Outcome(NOT_RUN, one_line(reason))


def classify_crash(error: BaseException) -> Outcome:
    """An adapter raised something other than its documented rejection."""
    notes = [n for n in getattr(error, "__notes__", ()) if isinstance(n, str)]
    library_notes = [n for n in notes if n.startswith(LIBRARY_NOTE_PREFIX)]
    in_library = bool(library_notes)
    text = one_line(f"{type(error).__name__}: {error}")
    where = (
        "inside " + library_notes[-1][len(LIBRARY_NOTE_PREFIX) :]
        if in_library
        else "in the adapter shim"
    )
    return Outcome(
        ADAPTER_CRASH,
        detail=one_line(f"{type(error).__name__} raised {where}: {error}"),
        error=text,
        error_type=type(error).__name__,
        in_library=in_library,
    )


def classify_result(
    report: Report, result: AdapterResult, sent: Sequence[SentCall] | None = None
) -> Outcome:
    """Judge an adapter's result against the reference verdict ``report``.
    ``sent``: the calls the wire carried (:func:`toolstream.diff.handover.sent_calls`
    of the fixture); without it, the reference's own calls stand for them."""
    handed: tuple[AdapterCall, ...] = () if result.rejected else tuple(result.calls)
    invalid = () if result.rejected else tuple(result.invalid)
    common: dict[str, Any] = {
        "handed": handed,
        "invalid": invalid,
        "rejected": result.rejected,
        "finish_reason": result.finish_reason,
    }
    reason = one_line(result.reason or "rejected") if result.rejected else ""
    common["reason"] = reason or None

    if report.status != "pass":
        verdict = (
            report.status if not report.codes else f"{report.status} ({', '.join(report.codes)})"
        )
        if handed:
            names = ", ".join(_short(c.name, 30) for c in handed)
            handover = _handover(handed, report, sent)
            return Outcome(
                UNSAFE_ACCEPT,
                detail=one_line(
                    f"hands over {len(handed)} call(s) [{names}] ({handover}); reference: {verdict}"
                ),
                handover=handover,
                **common,
            )
        if result.rejected:
            detail = f"rejected ({reason})"
        elif invalid:
            detail = f"flags {len(invalid)} call(s) invalid, hands over none"
        else:
            detail = "hands over no call"
        return Outcome(AGREE, detail=one_line(detail), **common)

    reference = report.client_calls()
    if result.rejected:
        return Outcome(FALSE_REJECT, detail=f"rejected: {reason}", **common)
    differences = compare_calls(handed, reference)
    if not differences:
        if invalid:
            return Outcome(
                FALSE_REJECT,
                detail=one_line(
                    f"hands over the reference's calls but flags {len(invalid)} more invalid"
                ),
                **common,
            )
        return Outcome(AGREE, detail=f"same {len(handed)} call(s)", **common)
    if invalid and _is_subsequence(handed, reference):
        return Outcome(
            FALSE_REJECT,
            detail=one_line(
                f"flags {len(invalid)} call(s) invalid; hands over {len(handed)} of the"
                f" reference's {len(reference)}"
            ),
            **common,
        )
    handover = _handover(handed, report, sent)
    return Outcome(
        WRONG_CALLS,
        detail=one_line(f"({handover}) " + "; ".join(d.describe() for d in differences)),
        differences=differences,
        handover=handover,
        **common,
    )


def _handover(
    handed: Sequence[AdapterCall], report: Report, sent: Sequence[SentCall] | None
) -> str:
    if sent is None:
        sent = [SentCall(c.slot, c.id, c.name, [c.arguments]) for c in report.client_calls()]
    return shape(handover_parts(handed, sent, report))


def compare_calls(
    handed: Sequence[AdapterCall], reference: Sequence[CallReport]
) -> tuple[CallDifference, ...]:
    """Every difference.  When the adapter hands over exactly the
    reference's calls in another order, that is the one difference
    (``order``); otherwise calls are compared position by position."""
    out: list[CallDifference] = []
    if len(handed) == len(reference) and handed:
        permutation = _permutation(handed, reference)
        if permutation is not None and permutation != list(range(len(reference))):
            return (
                CallDifference(
                    "order",
                    "order",
                    None,
                    [c.id for c in handed],
                    [reference[i].id for i in range(len(reference))],
                ),
            )
    if len(handed) != len(reference):
        out.append(CallDifference("count", "count", None, len(handed), len(reference)))
    for position, (mine, ref) in enumerate(zip(handed, reference, strict=False)):
        out.extend(_call_differences(position, mine, ref))
    return tuple(out)


def _call_differences(position: int, mine: AdapterCall, ref: CallReport) -> list[CallDifference]:
    out = []
    if not _same_id(mine.id, ref.id):
        out.append(CallDifference("id", "id", position, mine.id, ref.id))
    if mine.name != ref.name or type(mine.name) is not type(ref.name):
        out.append(CallDifference("name", "name", position, mine.name, ref.name))
    argument = _argument_difference(position, mine, ref)
    if argument is not None:
        out.append(argument)
    return out


def _same_id(mine: Any, ref: Any) -> bool:
    # A wire that names no id (a Gemini call without ``id``) leaves the id to
    # the library: one it made up misleads no application.  An id taken from
    # the case where the reference has none is still a difference.
    if ref is None and mine == GENERATED_ID:
        return True
    return bool(mine == ref) and type(mine) is type(ref)


def _argument_difference(
    position: int, mine: AdapterCall, ref: CallReport
) -> CallDifference | None:
    if mine.input is not NO_INPUT:
        # the library hands the application a parsed value: compare values
        if same_value(mine.input, ref.input):
            return None
        return CallDifference("arguments", "value", position, mine.input, ref.input)
    # the library hands over the argument text: compare it byte for byte
    if isinstance(mine.arguments, str) and mine.arguments == ref.arguments:
        return None
    parsed: Any = NO_INPUT
    if isinstance(mine.arguments, str):
        try:
            parsed = json.loads(mine.arguments)
        except (ValueError, RecursionError):
            parsed = NO_INPUT
    kind = "bytes" if parsed is not NO_INPUT and same_value(parsed, ref.input) else "value"
    return CallDifference("arguments", kind, position, mine.arguments, ref.arguments)


def _same_call(mine: AdapterCall, ref: CallReport) -> bool:
    return not _call_differences(0, mine, ref)


def _permutation(
    handed: Sequence[AdapterCall], reference: Sequence[CallReport]
) -> list[int] | None:
    """For each handed-over call, the position of an equal reference call
    (each used once), or ``None`` when some call has no equal."""
    free = list(range(len(reference)))
    out = []
    for mine in handed:
        match = next((i for i in free if _same_call(mine, reference[i])), None)
        if match is None:
            return None
        free.remove(match)
        out.append(match)
    return out


def _is_subsequence(handed: Sequence[AdapterCall], reference: Sequence[CallReport]) -> bool:
    """Every handed-over call equals a reference call, in the reference's order."""
    refs = iter(reference)
    return all(any(_same_call(mine, ref) for ref in refs) for mine in handed)
