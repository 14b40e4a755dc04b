"""Google Gemini API / Vertex AI ``streamGenerateContent`` responses.

Each stream item is one ``GenerateContentResponse`` chunk (an SSE ``data:``
payload with ``alt=sse``, or one element of the JSON-array body sent
without it).  Calls are ``candidates[].content.parts[].functionCall``.

Slot key: ``(candidate index, call number)``: Gemini parts have no index of
their own, so the n-th call of a candidate is slot n.  Only calls are slots;
text (``thought: true`` text is reasoning), inline or file data, executable
code and its result, tool responses and audio transcriptions are recognized
parts with no tool data.  A ``toolCall`` part (a built-in tool the provider
runs) is a server call: reported, never executable.  Calls in more
than one candidate are ``ambiguous_choice``, as for chat choices.

Identity: ``functionCall.id`` when present (newer models send one); a call
without one is identified by its position, so ``missing_id`` does not apply.
Two calls with the same id are ``duplicate_id``; a streamed call's parts
that carry another id are ``identity_collision``.

A **whole call** is a part ``{"functionCall": {"name", "args"?, "id"?}}``:
it opens and ends its slot at once.  Its arguments are the canonical JSON
text of ``args``.  A whole call without ``args`` (absent, or ``null``, which
the protobuf JSON mapping reads as absent) is the complete call ``{}`` to a
tool without parameters: the API reference documents ``FunctionCall.args``
as optional, and a whole call has no later part that could still bring it.

A **streamed call** (Vertex AI ``streamFunctionCallArguments``) opens with a
``functionCall`` holding ``name`` and ``willContinue: true``; its next parts
carry ``partialArgs`` (see :mod:`toolstream.profiles.partial_args`) and/or
``willContinue: true``; the first part without ``willContinue`` (often an
empty ``functionCall: {}``, or the last ``partialArgs`` part) ends it.  A
``name`` while a streamed call is open starts another call: the open one is
``identity_collision``.  Continuation parts with no call open are
``delta_after_terminal`` (after a call of the candidate) or ``unknown_slot``
(before any).  A streamed call with no ``partialArgs`` at all is the
no-argument call ``{}``: the streaming form has no other way to say so.

Terminal: a candidate's ``finishReason`` ends it (a new call or continuation
after it is ``delta_after_terminal``; a second one ``duplicate_terminal``).
There is no tool-specific reason: a turn with calls ends with ``STOP``, the
only reason accepted.  ``MALFORMED_FUNCTION_CALL``, ``UNEXPECTED_TOOL_CALL``
and ``TOO_MANY_TOOL_CALLS`` say a tool call went wrong: they block the turn
even with no call in it (``terminal_without_calls``).  Every other reason
(``MAX_TOKENS``, ``SAFETY``, ``RECITATION``, ``LANGUAGE``, ``OTHER``,
``BLOCKLIST``, ``PROHIBITED_CONTENT``, ``SPII``, the ``IMAGE_*`` reasons,
``MISSING_THOUGHT_SIGNATURE``, ``FINISH_REASON_UNSPECIFIED``, any unknown
one) is ``wrong_terminal_reason`` when the turn has calls.  A streamed call
still open at the end of the stream is ``missing_terminal``.

Normalized events (what a generator model mirrors): a whole call is
``Open(initial_input=args)`` then ``End`` at its part; a streamed call is
``Open`` at its first part, a ``Fragment`` with only an id when a later part
brings one, and at its last part one ``Fragment`` holding the canonical JSON
text of the reassembled object, then ``End``; a reassembly rule broken is a
finding on the slot, which then absorbs the call's later parts.  A
``finishReason`` is ``Finish`` (``ends_slots`` false: a streamed call still
open stays open, and is ``missing_terminal``) then ``Stop``.  A candidate's
first chunk is ``Begin``: a turn with calls whose candidate never brings a
``finishReason`` (a body cut after a whole call) is ``missing_terminal``.

Closed world, at every level that can hold a call: a chunk that is not an
object, a chunk member outside those of a ``GenerateContentResponse``
(``candidates``, ``promptFeedback``, ``usageMetadata``, ``modelVersion``,
``responseId``, ``createTime``, ``modelStatus``), a candidate member outside
those of a ``Candidate`` (:data:`CANDIDATE_MEMBERS`), a content member
outside ``parts`` and ``role``, a part with a member outside the known set,
a ``functionCall`` member outside ``name``, ``id``, ``args``,
``partialArgs`` and ``willContinue``, a member of any object below those
(``usageMetadata``, ``promptFeedback``, ``modelStatus``, a candidate's
safety ratings, citations, grounding, log probabilities and URL context, a
part's inline and file data, code, code result, video metadata, media
resolution, transcription, built-in tool call and response, a
``partialArgs`` entry; the entries of their arrays, at any depth) outside
its set (:mod:`toolstream.profiles.gemini_members`; open on purpose: a
call's ``args``, a built-in tool's ``args`` and ``response``,
``partMetadata``), are ``unsupported_event``, the finding naming the
member's path; an ``error`` object, or ``promptFeedback.blockReason`` (the
prompt was refused), is ``provider_error``.  Any finding blocks the turn.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolstream.events import (
    CLIENT,
    SERVER,
    Begin,
    End,
    Event,
    Finish,
    Fragment,
    Open,
    Rejected,
    SlotKey,
    Stop,
)
from toolstream.findings import Code, ProtocolError
from toolstream.profiles._base import (
    Profile,
    SlotPiece,
    StreamPath,
    describe,
    open_call,
    optional_text,
    provider_error,
    slot_index,
)
from toolstream.profiles.dialects import unknown_member_message, unread_member
from toolstream.profiles.gemini_members import CHILDREN, LEVELS, PARTIAL_ARG_LEVEL
from toolstream.profiles.partial_args import Reassembly, canonical_json

ACCEPTED_REASONS = frozenset({"STOP"})
TOOL_FAILURE_REASONS = frozenset(
    {"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS"}
)
# Part members with no tool data (``google.genai.types.Part``).
NO_TOOL_DATA_PARTS = frozenset(
    {
        "text",
        "thought",
        "thoughtSignature",
        "inlineData",
        "fileData",
        "executableCode",
        "codeExecutionResult",
        "videoMetadata",
        "partMetadata",
        "mediaResolution",
        "toolResponse",
        "audioTranscription",
    }
)
_CALL_MEMBERS = frozenset({"name", "id", "args", "partialArgs", "willContinue"})
_CALL_PARTS = frozenset({"functionCall", "toolCall"})
_PART_MEMBERS = _CALL_PARTS | NO_TOOL_DATA_PARTS
# Chunk members that say nothing about the turn: a chunk holding only these
# and one part can be deleted whole when the part is.
_METADATA = frozenset({"candidates", "modelVersion", "responseId", "createTime"})
# Every member of a GenerateContentResponse (Gemini API and Vertex AI): a
# chunk holding another one is not a Gemini chunk (an OpenAI chunk has
# ``choices``, an Anthropic event ``type``), never a usage-only chunk.
_CHUNK_MEMBERS = frozenset({*_METADATA, "promptFeedback", "usageMetadata", "modelStatus", "error"})
CANDIDATE_MEMBERS = frozenset(
    {
        # google.genai.types.Candidate (the Gemini API and Vertex AI)
        "content",
        "finishReason",
        "index",
        "avgLogprobs",
        "citationMetadata",
        "continuationToken",
        "finishMessage",
        "groundingMetadata",
        "logprobsResult",
        "safetyRatings",
        "tokenCount",
        "urlContextMetadata",
    }
)
"""The candidate members the profile reads or knows to carry no tool data."""
_CONTENT_MEMBERS = frozenset({"parts", "role"})
_CANDIDATE = "candidates[]"
_PART = "candidates[].content.parts[]"
_PARTIAL_ARG = LEVELS[PARTIAL_ARG_LEVEL]


@dataclass
class _Streamed:
    key: SlotKey
    reassembly: Reassembly
    id: str | None
    blocked: bool = False


class Gemini(Profile):
    name = "gemini"
    stream_key = "chunks"
    stream_description = "Gemini streamGenerateContent chunks (candidates[])"
    has_choices = True
    closed_world = True
    requires_ids = False

    @classmethod
    def recognises(cls, item: Mapping[str, Any]) -> bool:
        # Each chunk of streamGenerateContent, as SSE or as the elements of
        # the JSON-array body sent without alt=sse.
        return isinstance(item.get("candidates"), list) or isinstance(
            item.get("promptFeedback"), dict
        )

    @classmethod
    def response_id(cls, item: Any) -> str | None:
        # No opening event: each chunk carries its response's responseId.
        found = item.get("responseId") if isinstance(item, dict) else None
        return found if isinstance(found, str) and found else None

    def __init__(self, request: Any, limits: Any) -> None:
        super().__init__(request, limits)
        self._calls: dict[int, int] = {}
        self._open: dict[int, _Streamed] = {}
        self._finished: set[int] = set()
        self._begun: set[int] = set()

    @classmethod
    def slot_pieces(cls, items: Sequence[Any]) -> Iterator[SlotPiece]:
        """Every ``functionCall`` or ``toolCall`` part is a piece of its call
        slot (a part with a ``name``, or a ``toolCall``, is the candidate's
        next call; any other ``functionCall`` part continues the last one).
        A part with one ``partialArgs`` entry holding a ``stringValue``
        carries that string as its text.  It is plain only when it is a
        middle piece of a continued string: the part holds nothing but that
        entry and ``willContinue: true``, the entry says ``willContinue:
        true`` too, and the slot's previous entry was the same path's
        string, also continuing.  Merged into that entry, the string is the
        same and both still continue; an entry that ends its string or its
        call is never plain, since merging it would drop the end."""
        calls: dict[int, int] = {}
        continuing: dict[
            Any, str | None
        ] = {}  # slot: path of its last entry, if a continued string
        for ci, chunk in enumerate(items):
            candidates = chunk.get("candidates") if isinstance(chunk, dict) else None
            if not isinstance(candidates, list):
                continue
            for hi, candidate in enumerate(candidates):
                content = candidate.get("content") if isinstance(candidate, dict) else None
                parts = content.get("parts") if isinstance(content, dict) else None
                number = candidate.get("index", 0) if isinstance(candidate, dict) else None
                if not isinstance(parts, list) or type(number) is not int:
                    continue
                alone = (
                    len(candidates) == 1
                    and len(parts) == 1
                    and set(chunk) <= _METADATA
                    and set(candidate) <= {"content", "index"}
                )
                for pi, part in enumerate(parts):
                    if not isinstance(part, dict):
                        continue
                    call = part.get("functionCall")
                    if "toolCall" in part or (isinstance(call, dict) and "name" in call):
                        calls[number] = calls.get(number, 0) + 1
                    elif not isinstance(call, dict) or number not in calls:
                        continue
                    slot = (number, calls[number] - 1)
                    path: StreamPath = (ci, "candidates", hi, "content", "parts", pi)
                    entries = call.get("partialArgs") if isinstance(call, dict) else None
                    entry = entries[0] if isinstance(entries, list) and len(entries) == 1 else None
                    string = isinstance(entry, dict) and isinstance(entry.get("stringValue"), str)
                    text: StreamPath | None = (
                        (*path, "functionCall", "partialArgs", 0, "stringValue") if string else None
                    )
                    more = isinstance(entry, dict) and entry.get("willContinue") is True
                    entry_path = entry.get("jsonPath") if isinstance(entry, dict) else None
                    plain = (
                        string
                        and more
                        and set(part) == {"functionCall"}
                        and isinstance(call, dict)
                        and set(call) == {"partialArgs", "willContinue"}
                        and call["willContinue"] is True
                        and set(entry or ()) == {"jsonPath", "stringValue", "willContinue"}
                        and continuing.get(slot) is not None
                        and continuing.get(slot) == entry_path
                    )
                    if isinstance(entries, list) and entries:
                        last = entries[-1]
                        continued = (
                            len(entries) == 1
                            and string
                            and more
                            and isinstance(last, dict)
                            and isinstance(last.get("jsonPath"), str)
                        )
                        continuing[slot] = entry_path if continued else None
                    yield SlotPiece(slot, (ci,) if alone else path, text, bool(plain))

    def feed(self, raw: Any, pos: int) -> Iterator[Event]:
        if type(raw) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"chunk is {describe(raw)}, not an object", event=pos
            )
        error = raw.get("error")
        if error is not None:
            raise provider_error(error, pos, fallback=describe(error))
        feedback = raw.get("promptFeedback")
        if type(feedback) is dict and feedback.get("blockReason") is not None:
            reason = feedback["blockReason"]
            shown = reason[:40] if type(reason) is str else describe(reason)
            raise ProtocolError(Code.PROVIDER_ERROR, f"the prompt was blocked: {shown}", event=pos)
        _closed(raw, _CHUNK_MEMBERS, "", pos)
        self._check_inner("", raw, pos)
        candidates = raw.get("candidates")
        if candidates is None:
            return  # usage-only or metadata-only chunk
        if type(candidates) is not list:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"candidates is {describe(candidates)}, not an array",
                event=pos,
            )
        for candidate in candidates:
            yield from self._candidate(candidate, pos)

    def _candidate(self, candidate: Any, pos: int) -> Iterator[Event]:
        if type(candidate) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"candidate is {describe(candidate)}, not an object",
                event=pos,
            )
        _closed(candidate, CANDIDATE_MEMBERS, "candidates[].", pos)
        self._check_inner(_CANDIDATE, candidate, pos)
        number = slot_index(candidate.get("index", 0), "candidate index", pos, self.limits)
        if number not in self._begun:
            # A candidate is a message that must end with its finishReason: a
            # body cut after a whole call still parses, so without this a
            # truncated stream would pass (Begin makes the end obligatory).
            self._begun.add(number)
            yield Begin(pos=pos, scope=number)
        content = candidate.get("content")
        if content is not None:
            parts = content.get("parts") if type(content) is dict else None
            if type(content) is not dict or (parts is not None and type(parts) is not list):
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    "candidate content is not an object with a parts array",
                    event=pos,
                )
            _closed(content, _CONTENT_MEMBERS, "candidates[].content.", pos)
            for part in parts or ():
                try:
                    yield from self._part(number, part, pos)
                except ProtocolError as error:
                    if error.fatal:
                        raise
                    yield Rejected(pos, error)
        reason = candidate.get("finishReason")
        if reason is not None:
            if type(reason) is not str:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"finishReason is {describe(reason)}, not a string",
                    event=pos,
                )
            self._finished.add(number)
            yield Finish(
                pos=pos,
                scope=number,
                reason=reason,
                accepted=reason in ACCEPTED_REASONS,
                claims_tools=reason in TOOL_FAILURE_REASONS,
                ends_slots=False,
            )
            yield Stop(pos=pos, scope=number)

    def _part(self, number: int, part: Any, pos: int) -> Iterator[Event]:
        if type(part) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"part is {describe(part)}, not an object", event=pos
            )
        _closed(part, _PART_MEMBERS, "candidates[].content.parts[].", pos)
        self._check_inner(_PART, part, pos)
        server = part.get("toolCall")
        if server is not None:
            yield from self._server_call(number, server, pos)
        call = part.get("functionCall")
        if call is None:
            return
        if type(call) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"functionCall is {describe(call)}, not an object",
                event=pos,
            )
        _closed(call, _CALL_MEMBERS, "candidates[].content.parts[].functionCall.", pos)
        more = call.get("willContinue", False)
        if type(more) is not bool:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"functionCall.willContinue is {describe(more)}, not a boolean",
                event=pos,
            )
        if "name" in call:
            yield from self._new_call(number, call, more, pos)
        else:
            yield from self._continuation(number, call, more, pos)

    def _server_call(self, number: int, call: Any, pos: int) -> Iterator[Event]:
        # A built-in tool the provider runs (Part.toolCall): reported as a
        # server call, never executable; it takes the next call number.
        if type(call) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"toolCall is {describe(call)}, not an object", event=pos
            )
        index = self._calls.get(number, 0)
        self._calls[number] = index + 1
        key = (number, index)
        tool_type = call.get("toolType")
        yield from open_call(
            pos,
            key,
            SERVER,
            ((call.get("id"), "toolCall.id"), (tool_type, "toolCall.toolType")),
            initial_input=call.get("args"),
        )
        yield End(pos=pos, key=key)

    def _new_call(self, number: int, call: dict[str, Any], more: bool, pos: int) -> Iterator[Event]:
        streamed = self._open.pop(number, None)
        if streamed is not None and not streamed.blocked:
            yield Rejected(
                pos,
                ProtocolError(
                    Code.IDENTITY_COLLISION,
                    "a new call started while this streamed call was still continuing",
                    key=streamed.key,
                    event=pos,
                ),
            )
        index = self._calls.get(number, 0)
        self._calls[number] = index + 1
        key = (number, index)
        args = call.get("args")
        has_partial = call.get("partialArgs") is not None
        whole = not has_partial and not more
        # A whole call without args is the no-argument call (args is optional).
        whole_input = ({} if args is None else args) if whole else None
        id_value = call.get("id")
        try:
            id_ = optional_text(id_value, "functionCall.id", key, pos)
            name = optional_text(call.get("name"), "functionCall.name", key, pos)
        except ProtocolError:
            yield Open(pos=pos, key=key, id=None, name=None, kind=CLIENT)
            raise
        if whole_input is not None and type(whole_input) is not dict:
            yield Open(pos=pos, key=key, id=id_, name=name, kind=CLIENT)
            raise ProtocolError(
                Code.NON_OBJECT_ARGUMENTS,
                f"functionCall.args is {describe(whole_input)}, not an object",
                key=key,
                event=pos,
            )
        yield Open(pos=pos, key=key, id=id_, name=name, kind=CLIENT, initial_input=whole_input)
        if number in self._finished:
            return  # the machine reports the new call after the terminal
        if args is not None and (has_partial or more):
            raise ProtocolError(
                Code.INVALID_PARTIAL_ARG,
                "functionCall has both whole args and streamed arguments",
                key=key,
                event=pos,
            )
        if whole:
            yield End(pos=pos, key=key)
            return
        streamed = _Streamed(key, Reassembly(key, self.limits), id_)
        self._open[number] = streamed
        yield from self._stream(number, streamed, call, more, pos)

    def _continuation(
        self, number: int, call: dict[str, Any], more: bool, pos: int
    ) -> Iterator[Event]:
        streamed = self._open.get(number)
        if streamed is None:
            # No call is continuing: the part is a fragment for the last call
            # of the candidate (ended: delta_after_terminal) or for one never
            # opened (unknown_slot); the machine says which.
            count = self._calls.get(number, 0)
            yield Fragment(pos=pos, key=(number, max(count - 1, 0)), id=None, name=None, text=None)
            return
        if number in self._finished and not streamed.blocked:
            streamed.blocked = True
            raise ProtocolError(
                Code.DELTA_AFTER_TERMINAL,
                "functionCall part after the candidate's finishReason",
                key=streamed.key,
                event=pos,
            )
        if "args" in call:
            streamed.blocked = True
            raise ProtocolError(
                Code.INVALID_PARTIAL_ARG,
                "a continuation part of a streamed call carries whole args",
                key=streamed.key,
                event=pos,
            )
        id_value = call.get("id")
        if id_value is not None:
            id_ = optional_text(id_value, "functionCall.id", streamed.key, pos)
            if id_ is not None:
                yield Fragment(pos=pos, key=streamed.key, id=id_, name=None, text=None)
        yield from self._stream(number, streamed, call, more, pos)

    def _stream(
        self, number: int, streamed: _Streamed, call: dict[str, Any], more: bool, pos: int
    ) -> Iterator[Event]:
        entries = call.get("partialArgs")
        if not more:
            del self._open[number]
        if streamed.blocked:
            if not more:
                yield End(pos=pos, key=streamed.key)
            return
        try:
            if entries is not None:
                if type(entries) is not list:
                    raise ProtocolError(
                        Code.INVALID_PARTIAL_ARG,
                        f"partialArgs is {describe(entries)}, not an array",
                        key=streamed.key,
                        event=pos,
                    )
                for entry in entries:
                    if type(entry) is dict and not entry.keys() <= _PARTIAL_ARG:
                        self._check(PARTIAL_ARG_LEVEL, entry, pos, streamed.key)
                    streamed.reassembly.apply(entry, pos)
            if not more:
                text = streamed.reassembly.finish(pos)
        except ProtocolError:
            streamed.blocked = True
            raise
        if not more:
            yield Fragment(pos=pos, key=streamed.key, id=None, name=None, text=text)
            yield End(pos=pos, key=streamed.key)

    def _check_inner(self, path: str, obj: dict[str, Any], pos: int) -> None:
        """The closed objects inside ``obj`` (at ``path``), at every depth
        (gemini_members.py), hold nothing but their members or an inert
        reviewed dialect's; the first other one blocks, named by its path."""
        for member, level, array in CHILDREN.get(path, ()):
            value = obj.get(member)
            if array:
                for entry in value if type(value) is list else ():
                    if type(entry) is dict:
                        self._check(level, entry, pos)
            elif type(value) is dict:
                self._check(level, value, pos)

    def _check(self, level: str, obj: dict[str, Any], pos: int, key: SlotKey | None = None) -> None:
        if not obj.keys() <= LEVELS[level]:
            unread = unread_member(self, self.name, LEVELS, {}, level, obj)
            if unread is not None:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"gemini {_unknown(unread)}",
                    key=key,
                    event=pos,
                )
        self._check_inner(level, obj, pos)


def _closed(item: dict[str, Any], known: frozenset[str], where: str, pos: int) -> None:
    """Refuse the first member of ``item`` (sorted) the profile does not
    know, naming its path (no reviewed gemini dialect exists yet)."""
    if item.keys() <= known:
        return
    first = min(str(key) for key in item if key not in known)
    raise ProtocolError(
        Code.UNSUPPORTED_EVENT,
        f"gemini {_unknown(where + first[:40])}",
        event=pos,
    )


def _unknown(path: str) -> str:
    # The message keeps 80 characters of a path: a deep one (a grounding
    # chunk's review snippet) loses its front, never the member.
    return unknown_member_message(path if len(path) <= 80 else "..." + path[-77:])


__all__ = ["Gemini", "canonical_json"]
