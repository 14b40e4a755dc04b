"""What a client handed over, as a short stable shape: the *hand-over*.

A classification says *that* a client disagrees with the reference; the
hand-over says *what* it handed the application, by comparing the calls it
handed over with the calls the wire carried.  Two versions of a library
that both hand over a blocked turn (both ``unsafe_accept``) are then told
apart: one merges the two calls of a reused index into one call with glued
ids, the other hands both over as sent.

The calls *the wire carried* (:func:`sent_calls`) are read from the stream
by the profile of its wire format, one call per identity: a slot opened, or
a fragment naming an id other than its slot's, starts a new call.  Unlike
the reference's reassembly, this does not stop at the first collision: the
second call of a reused index is a sent call of its own.  The reference's
own verdict adds what the stream did around the calls (an error reported by
the provider, a stream that ended before its terminal).

The shape is a set of *parts*, sorted and joined by ``+``
(:data:`PARTS` lists them all):

``as_sent``
    every handed-over call is a sent call, unchanged, and every sent call is
    handed over (the library passed through what the reference blocks);
``merged`` / ``glued_ids``
    one handed-over call stands for several sent calls (their argument
    texts, or their ids, concatenated);
``split``
    several handed-over calls stand for one sent call;
``lost_call`` / ``extra_call``
    a sent call that was not handed over / a handed-over call that stands
    for no sent call;
``truncated_arguments``
    arguments cut short: the wire's text is an unfinished JSON document
    handed over as it is, or the library handed over a strict prefix;
``glued_arguments``
    arguments holding a complete JSON document followed by more text;
``malformed_arguments``
    arguments that are not JSON and not the start of a JSON document;
``repaired_arguments``
    the wire's text is unfinished, glued or malformed and the library handed
    over a parsed value made of it (a partial parse, the first document);
``altered_arguments`` / ``reencoded_arguments``
    arguments that differ from the sent call's by parsed value / only byte
    for byte;
``altered_id`` / ``renamed``
    a call handed over under another id / another name;
``reordered``
    the sent calls handed over in another order;
``after_error``
    calls handed over from a stream in which the provider reported an error;
``unterminated``
    calls handed over from a stream that ended before its terminal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from toolstream.adapters.base import GENERATED_ID, NO_INPUT, AdapterCall
from toolstream.envelope import check_envelope
from toolstream.events import CLIENT, Fragment, Fragments, Open
from toolstream.findings import ProtocolError
from toolstream.gate import wire_form
from toolstream.limits import DEFAULT_LIMITS
from toolstream.profiles import PROFILES
from toolstream.report import Report

__all__ = ["PARTS", "STRUCTURAL", "SentCall", "handover_parts", "sent_calls", "shape"]

PARTS: Final = (
    "after_error",
    "altered_arguments",
    "altered_id",
    "as_sent",
    "extra_call",
    "glued_arguments",
    "glued_ids",
    "lost_call",
    "malformed_arguments",
    "merged",
    "reencoded_arguments",
    "renamed",
    "reordered",
    "repaired_arguments",
    "split",
    "truncated_arguments",
    "unterminated",
)
"""Every part a hand-over shape may hold."""

STRUCTURAL: Final = frozenset({"merged", "glued_ids", "split", "lost_call", "extra_call"})
"""The parts that change which calls there are (not only what one holds)."""


@dataclass
class SentCall:
    """One call the wire carried: its slot key, id, name and argument text."""

    key: Any
    id: str | None
    name: str | None
    texts: list[str] = field(default_factory=list)
    initial: Any = None

    @property
    def arguments(self) -> str:
        if not self.texts and isinstance(self.initial, dict) and self.initial:
            return json.dumps(self.initial, separators=(",", ":"), ensure_ascii=False)
        return "".join(self.texts)


def sent_calls(fixture: Mapping[str, Any]) -> list[SentCall]:
    """The client calls the stream of ``fixture`` carries, in the order they
    start (best effort: items the profile cannot translate are left out)."""
    try:
        envelope = check_envelope(dict(fixture))
    except (ProtocolError, TypeError, ValueError):
        return []
    profile_class = PROFILES.get(envelope.profile)
    if profile_class is None:
        return []
    profile = profile_class(envelope.request, DEFAULT_LIMITS)
    calls: list[SentCall] = []
    current: dict[Any, SentCall | None] = {}
    for pos, item in enumerate(envelope.stream):
        try:
            events = list(profile.feed(item if type(item) is dict else wire_form(item), pos))
        except ProtocolError:
            continue
        except Exception:  # best effort: a shape the profile chokes on is left out
            continue
        for event in events:
            if isinstance(event, Open):
                if event.kind != CLIENT:
                    current[event.key] = None
                    continue
                opened = SentCall(event.key, event.id, event.name, initial=event.initial_input)
                calls.append(opened)
                current[event.key] = opened
            elif isinstance(event, Fragment):
                if event.key not in current:
                    fresh = SentCall(event.key, event.id, event.name)
                    calls.append(fresh)
                    current[event.key] = fresh
                found = current[event.key]
                if found is None:
                    continue
                call = found
                if event.id is not None and call.id is not None and event.id != call.id:
                    call = SentCall(event.key, event.id, event.name)
                    calls.append(call)
                    current[event.key] = call
                if call.id is None and event.id is not None:
                    call.id = event.id
                if call.name is None and event.name is not None:
                    call.name = event.name
                if event.text is not None:
                    call.texts.append(event.text)
            elif isinstance(event, Fragments):
                for key, texts in event.texts.items():
                    run_call = current.get(key)
                    if run_call is not None:
                        run_call.texts.extend(texts)
    # a slot the profile could not read a single piece of is no call it carried
    return [c for c in calls if c.id is not None or c.name is not None or c.arguments]


# -- argument texts ------------------------------------------------------------------

_OK, _TRUNCATED, _GLUED, _MALFORMED = "ok", "truncated", "glued", "malformed"
_TEXT_PART = {
    _TRUNCATED: "truncated_arguments",
    _GLUED: "glued_arguments",
    _MALFORMED: "malformed_arguments",
}


def _text_state(text: str) -> str:
    """Whether ``text`` is one JSON document, the start of one, a document
    followed by more, or none of these."""
    stripped = text.strip()
    if not stripped:
        return _OK  # no arguments: libraries and the reference read an empty object
    try:
        _, end = json.JSONDecoder().raw_decode(stripped)
    except json.JSONDecodeError as error:
        if error.msg.startswith("Unterminated string") or error.pos >= len(stripped):
            return _TRUNCATED
        return _MALFORMED
    except RecursionError:
        return _MALFORMED
    return _OK if end == len(stripped) else _GLUED


def _value(text: str) -> Any:
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return NO_INPUT


def _same_value(a: Any, b: Any) -> bool:
    # classify imports this module to name what an outcome handed over
    from toolstream.diff.classify import same_value

    return a is not NO_INPUT and b is not NO_INPUT and same_value(a, b)


def _handed_text(call: AdapterCall) -> str | None:
    return call.arguments if isinstance(call.arguments, str) else None


def _handed_value(call: AdapterCall) -> Any:
    if call.input is not NO_INPUT:
        return call.input
    text = _handed_text(call)
    return _value(text) if text is not None else NO_INPUT


def _argument_parts(call: AdapterCall, sent: SentCall, *, cut: bool) -> set[str] | None:
    """The parts of handing ``call`` over for ``sent`` (arguments only), or
    ``None`` when its arguments are not those of ``sent`` at all (with
    ``cut``, a strict prefix of the sent text counts as them, cut short)."""
    state = _text_state(sent.arguments)
    text = _handed_text(call) if call.input is NO_INPUT else None
    if text is not None and text == sent.arguments:
        return {_TEXT_PART[state]} if state != _OK else set()
    handed = _handed_value(call)
    if state == _OK:
        if _same_value(handed, _value(sent.arguments)):
            return {"reencoded_arguments"} if text is not None else set()
        if cut and text is not None and _prefix(text, sent.arguments):
            return {"truncated_arguments"}
        return None
    if cut and text is not None and _prefix(text, sent.arguments):
        return {"truncated_arguments"}
    if handed is not NO_INPUT:
        return {"repaired_arguments"}
    return None


def _prefix(text: str, whole: str) -> bool:
    return len(text) < len(whole) and whole.startswith(text)


def _same_id(handed: Any, sent: str | None) -> bool:
    if sent is None:
        return handed in (None, GENERATED_ID)
    return isinstance(handed, str) and handed == sent


# -- the shape -----------------------------------------------------------------------


def _joined(pieces: Sequence[str], whole: str) -> bool:
    return len(pieces) >= 2 and "".join(pieces) == whole


def _runs(items: Sequence[int]) -> list[list[int]]:
    """Every contiguous run of at least two of ``items``."""
    return [list(items[i:j]) for i in range(len(items)) for j in range(i + 2, len(items) + 1)]


def handover_parts(
    handed: Sequence[AdapterCall], sent: Sequence[SentCall], report: Report | None = None
) -> set[str]:
    """The parts of handing ``handed`` over for the ``sent`` calls (see the
    module's list); ``report``, the reference's verdict, adds what the stream
    did around them.  Empty when nothing was handed over and nothing sent."""
    parts: set[str] = set()
    free_sent = list(range(len(sent)))
    free_handed = list(range(len(handed)))
    order: list[tuple[int, int]] = []  # (handed position, sent position)

    def take(h: int, s: int) -> None:
        free_handed.remove(h)
        free_sent.remove(s)
        order.append((h, s))

    def pair(passes: str) -> None:
        for h in list(free_handed):
            call = handed[h]
            for s in free_sent:
                wire = sent[s]
                arguments = _argument_parts(call, wire, cut=passes == "id")
                same_id = _same_id(call.id, wire.id)
                same_name = call.name == wire.name
                if passes == "exact" and arguments is not None and same_id and same_name:
                    parts.update(arguments)
                elif passes == "content" and arguments is not None and same_name:
                    parts.update(arguments | {"altered_id"})
                elif passes == "id" and same_id and wire.id is not None:
                    parts.update(arguments if arguments is not None else {"altered_arguments"})
                    if not same_name:
                        parts.add("renamed")
                elif passes == "arguments" and arguments is not None and wire.arguments.strip():
                    parts.update(arguments | {"altered_id", "renamed"})
                else:
                    continue
                take(h, s)
                break

    def merged() -> None:
        # one handed-over call for several sent ones
        for h in list(free_handed):
            call = handed[h]
            text = _handed_text(call)
            for run in _runs(free_sent):
                ids = [sent[s].id or "" for s in run]
                glued = isinstance(call.id, str) and _joined(ids, call.id)
                joined = text is not None and _joined([sent[s].arguments for s in run], text)
                if glued or joined:
                    parts.add("merged")
                    if glued:
                        parts.add("glued_ids")
                    free_handed.remove(h)
                    for s in run:
                        free_sent.remove(s)
                    order.append((h, run[0]))
                    break

    def split() -> None:
        # several handed-over calls for one sent call
        for s in list(free_sent):
            wire = sent[s]
            for run in _runs(free_handed):
                texts = [_handed_text(handed[h]) for h in run]
                same_ids = wire.id is not None and all(_same_id(handed[h].id, wire.id) for h in run)
                joined = all(t is not None for t in texts) and _joined(
                    [t or "" for t in texts], wire.arguments
                )
                if same_ids or joined:
                    parts.add("split")
                    free_sent.remove(s)
                    for h in run:
                        free_handed.remove(h)
                    order.append((run[0], s))
                    break

    # Unchanged calls first, and the same call under another id; then calls
    # standing for several sent calls or parts of one; then the same id
    # holding other arguments or another name, and the same arguments under
    # another id and name.
    pair("exact")
    pair("content")
    merged()
    split()
    pair("id")
    pair("arguments")

    if free_handed:
        parts.add("extra_call")
    if free_sent:
        parts.add("lost_call")
    positions = [s for _, s in sorted(order)]
    if positions != sorted(positions):
        parts.add("reordered")
    if report is not None and handed:
        codes = set(report.codes)
        if "provider_error" in codes:
            parts.add("after_error")
        if "missing_terminal" in codes:
            parts.add("unterminated")
    if handed and not parts:
        parts.add("as_sent")
    return parts


def shape(parts: set[str]) -> str:
    """The parts as one stable string: sorted, joined by ``+``."""
    return "+".join(sorted(parts))
