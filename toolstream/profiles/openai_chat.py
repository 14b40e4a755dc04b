"""OpenAI Chat Completions and Mistral chunks (``choices[].delta.tool_calls[]``).

Slot key: ``(choices[].index, tool_calls[].index)``.  The first delta seen for
a key opens the slot; ``finish_reason`` is the terminal of every slot of its
choice, applied after the chunk's own deltas.

Mistral sends each call whole, in one fragment and without ``index``: such a
call takes the next free index of its choice.  OpenAI requires ``index``.

Closed world, at every level: a chunk holds nothing but
:data:`CHUNK_MEMBERS` (with ``choices``, an array, possibly empty: a chat
completion chunk; without: the usage-only chunk, a keep-alive), a choice
nothing but :data:`CHOICE_MEMBERS`, a delta nothing but
:data:`DELTA_MEMBERS`, each level also what a reviewed dialect
(:mod:`toolstream.profiles.dialects`) adds to it.  Any other member may
carry what the profile cannot read: ``unsupported_event``, naming its path
(a Gemini ``candidates`` chunk, a Cohere or Anthropic ``type`` event, a
choice that carries a whole ``message`` or a legacy ``text`` that no
dialect vouches for mirror the delta...).  A provider error (an ``error``
member, or ``"object": "error"``, the vLLM and llama.cpp shape) is
``provider_error``.  Recognized but carrying no tool data: usage chunks,
role-only, ``content``, ``refusal`` and ``audio`` deltas, ``logprobs``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain, compress
from operator import itemgetter
from typing import Any, NamedTuple

from toolstream.events import CLIENT, Event, Finish, Fragment, Fragments, Open, Rejected, SlotKey
from toolstream.findings import Code, ProtocolError
from toolstream.profiles._base import (
    Level,
    Profile,
    Shape,
    SlotPiece,
    StreamPath,
    describe,
    fragment_run,
    items_from,
    key_objects,
    optional_text,
    slot_index,
)
from toolstream.profiles.dialects import (
    BY_MEMBER,
    DOCS,
    Treatment,
    unknown_member_message,
    unread_member,
)
from toolstream.profiles.openai_chat_members import (
    ANNOTATION_TYPES,
    AUDIO_MEMBERS,
    LOGPROBS_LEVELS,
    MISTRAL_USAGE_LEVELS,
    URL_CITATION_MEMBERS,
    USAGE_LEVELS,
    USAGE_NESTED,
)
from toolstream.tally import Tally, fragment_colons

_FORCING_CHOICES = frozenset({"required"})
DELTA_MEMBERS = frozenset(
    {
        # openai-python ChoiceDelta
        "role",
        "content",
        "refusal",
        "tool_calls",
        "function_call",
        # audio output (gpt-4o-audio), url citations; the reasoning members
        # of OpenAI-compatible servers are reviewed dialects
        "audio",
        "annotations",
    }
)
"""The delta members the profile reads or knows to carry no tool data."""
CHUNK_MEMBERS = frozenset(
    {
        # openai-python ChatCompletionChunk
        "id",
        "object",
        "created",
        "model",
        "system_fingerprint",
        "service_tier",
        "usage",
        "choices",
        # OpenAI's stream obfuscation padding (stream_options.include_obfuscation)
        "obfuscation",
    }
)
"""The chunk members the profile reads or knows to carry no tool data
(vendor members are reviewed dialects)."""
CHOICE_MEMBERS = frozenset({"index", "delta", "finish_reason", "logprobs"})
TOOL_CALL_MEMBERS = frozenset({"index", "id", "type", "function"})
"""The members of a ``delta.tool_calls[]`` entry (openai-python's
``ChoiceDeltaToolCall``: index, id, type, function)."""
FUNCTION_MEMBERS = frozenset({"name", "arguments"})
"""The members of an entry's ``function`` (``ChoiceDeltaToolCallFunction``)."""
"""The choice members the profile reads or knows to carry no tool data
(openai-python ``chat_completion_chunk.Choice``)."""
_CHUNK_OBJECT = "chat.completion.chunk"
_FUNCTION_TYPES = ("function", None)
"""A tool_calls entry's ``type`` that _call takes: "function", or null."""
# Choice members that would hold a call outside ``delta`` (a non-streaming
# ``message``, a legacy completion ``text``): never silently skipped.
_FOREIGN_CHOICE_MEMBERS = ("message", "text")
_OWN = {"chunk": CHUNK_MEMBERS, "choice": CHOICE_MEMBERS, "delta": DELTA_MEMBERS}
_first = itemgetter(0)
_IS_STR = frozenset((str,)).__contains__

# The plain-fragment chunk the window reads and the tally counts (see
# Profile.tally): open levels are counted member by member by the tally,
# exact ones by the shape.
_CHUNK = Level(("choices",))
_CHOICE = Level(("delta",))
_DELTA = Level(("tool_calls",))
_CALL = Level(("index", "function"), exact=True)
_FUNCTION = Level(("arguments",), exact=True)
RUN_ITEM = Shape(_CHUNK, Level(array=True), _CHOICE, _DELTA, Level(array=True), _CALL, _FUNCTION)
"""``choices[0].delta.tool_calls[0].function.arguments``, one choice, one
call entry holding nothing but ``index`` and ``function``, a function
holding nothing but ``arguments``."""
_CONTAINERS = (dict, list)
_RUN_NAMES = tuple(
    name for level in (_CHUNK, _CHOICE, _DELTA, _CALL, _FUNCTION) for name in level.read
)


class _RunReaders(NamedTuple):
    """What :meth:`OpenAIChat.window` reads chunks with (see
    ``_learn_run_readers``), and :meth:`OpenAIChat.tally` counts them with:
    each level's subscripts, the open levels' membership tests, and the
    names read with ``get``, all as the file's own key objects."""

    chunk_keys: tuple[str, ...]
    choice_keys: tuple[str, ...]
    delta_keys: tuple[str, ...]
    call_keys: tuple[str, ...]
    function_keys: tuple[str, ...]
    chunk_known: Callable[[Any], bool]
    choice_known: Callable[[Any], bool]
    delta_known: Callable[[Any], bool]
    object_key: str
    usage_key: str
    finish_key: str
    logprobs_key: str
    index_key: str
    function_call_key: str


def _level_tally(dicts: list[dict[str, Any]], below: str) -> tuple[int, int] | None:
    """Members and string colons of ``dicts``, whose member ``below`` holds
    the next level (counted there) and whose other members must hold no
    container; None if one does."""
    n = len(dicts)
    first = dicts[0]
    others = [key for key in first if key != below]
    # The usual case: every object repeats the first one's other members
    # (the same id, model, created... in every chunk).  Equal values have
    # equal colons, and a container never equals a string or a number.
    if list(map(len, dicts)).count(len(first)) == n:
        try:
            rows = list(map(itemgetter(*others), dicts)) if others else None
        except KeyError:
            rows = None
        if not others or (rows is not None and rows.count(rows[0]) == n):
            values = [first[key] for key in others]
            if not any(type(value) in _CONTAINERS for value in values):
                colons = "".join(first).count(":")
                colons += "".join(v for v in values if type(v) is str).count(":")
                return len(first) * n, colons * n
    values = list(chain.from_iterable(map(dict.values, dicts)))
    kinds = list(map(type, values))
    if kinds.count(list) + kinds.count(dict) != n:
        return None
    colons = "".join(chain.from_iterable(dicts)).count(":")
    colons += "".join(compress(values, map(_IS_STR, kinds))).count(":")
    return sum(map(len, dicts)), colons


_MISTRAL_MODEL = re.compile(
    r"(?i)^(?:open-)?(?:mistral|mixtral|codestral|ministral|pixtral|magistral|devstral|voxtral)\b"
)


def _chunk_tool_calls(chunk: dict[str, Any]) -> list[Any]:
    choices = chunk.get("choices")
    calls: list[Any] = []
    if isinstance(choices, list):
        for choice in choices:
            delta = choice.get("delta") if isinstance(choice, dict) else None
            found = delta.get("tool_calls") if isinstance(delta, dict) else None
            if isinstance(found, list):
                calls.extend(found)
    return calls


class OpenAIChat(Profile):
    name = "openai"
    stream_key = "chunks"
    stream_description = "chat-completions chunks"
    has_choices = True
    whole_calls_without_index = False
    usage_levels: Mapping[str, frozenset[str]] = USAGE_LEVELS

    @classmethod
    def recognises(cls, item: Mapping[str, Any]) -> bool:
        return "choices" in item

    @classmethod
    def choose(
        cls, items: Sequence[tuple[Any, str]], request: Mapping[str, Any] | None
    ) -> tuple[str, str]:
        """Chat chunks are the same shape for OpenAI and Mistral.  The rule:

        1. a tool call without ``index`` -> ``mistral`` (Mistral sends whole
           calls without one; the ``openai`` profile would reject them);
        2. else a ``model`` that names a Mistral model (``mistral-*``,
           ``codestral-*``, ``ministral-*``, ``pixtral-*``, ``magistral-*``,
           ``devstral-*``, ``open-mistral-*``, ``open-mixtral-*``...) ->
           ``mistral``;
        3. else a request whose ``tool_choice`` is ``"any"`` (Mistral's word
           for "required") -> ``mistral``;
        4. else ``openai``, and the reason says so.  When nothing above
           holds, the two profiles read the stream identically (they differ
           only on index-less calls and on ``tool_choice: "any"``), so the
           choice cannot change a verdict.
        """
        models: list[str] = []
        for payload, location in items:
            if not isinstance(payload, dict):
                continue
            for call in _chunk_tool_calls(payload):
                if isinstance(call, dict) and "index" not in call:
                    return (
                        "mistral",
                        f"chat chunks with a tool call without 'index' at {location}"
                        " (Mistral's whole-call form)",
                    )
            model = payload.get("model")
            if isinstance(model, str) and model not in models:
                models.append(model)
        for model in models:
            if _MISTRAL_MODEL.match(model):
                return "mistral", f"chat chunks from the Mistral model {model[:60]!r}"
        if request is not None and request.get("tool_choice") == "any":
            return "mistral", "chat chunks and the request's tool_choice is 'any' (Mistral)"
        named = f"model {models[0][:60]!r}" if models else "no model field"
        return (
            "openai",
            f"chat-completions chunks ({named}); nothing marks them as Mistral (every tool"
            " call has an index), and for such chunks the openai and mistral profiles agree;"
            " chose openai (pass --profile mistral to override)",
        )

    def __init__(self, request: Any, limits: Any) -> None:
        super().__init__(request, limits)
        self._seen: set[SlotKey] = set()
        self._next_index: dict[int, int] = {}
        self._finished: dict[int, tuple[str, int]] = {}
        self._forced = self._tool_choice_forces()
        self._run_readers: _RunReaders | None = None

    def _tool_choice_forces(self) -> bool:
        choice = self.request.get("tool_choice")
        if isinstance(choice, str):
            return choice in _FORCING_CHOICES
        if isinstance(choice, dict):
            return choice.get("type") == "function"
        return False

    def window(self, items: Sequence[Any], start: int, stop: int, pos: int) -> Fragments | None:
        # The plain fragment, which makes up nearly every stream: a chunk of
        # one choice whose only delta is one continuation fragment of a slot
        # already seen.  The checks are those of feed/_choice/_call.
        # The members read are those of RUN_ITEM; a missing one ends the run
        # like a wrong one (KeyError).  A run keeps to one choice, so its
        # slots are found by their int index.
        seen = self._seen
        readers = self._run_readers
        if readers is None:
            readers = self._learn_run_readers(items[start])
        (
            (choices_key,),
            (delta_key,),
            (calls_key,),
            (call_index_key, function_key),
            (arguments_key,),
            chunk_known,
            choice_known,
            delta_known,
            object_key,
            usage_key,
            finish_key,
            logprobs_key,
            index_key,
            function_call_key,
        ) = readers
        call_size, function_size = len(_CALL.read), len(_FUNCTION.read)
        # The builtins as locals: this loop runs once for nearly every chunk.
        dict_, list_, int_, str_ = dict, list, int, str
        by_index: dict[int, list[str]] = {}
        scope = -1
        try:
            for raw in items_from(items, start, stop):
                if type(raw) is not dict_:
                    break
                choices = raw[choices_key]
                # (an "error" member, not one of CHUNK_MEMBERS, fails chunk_known below)
                # (usage and logprobs, closed levels, are checked by feed)
                if (
                    type(choices) is not list_
                    or len(choices) != 1
                    or raw.get(object_key) == "error"
                    or raw.get(usage_key) is not None
                ):
                    break
                choice = choices[0]
                if (
                    type(choice) is not dict_
                    or choice.get(finish_key) is not None
                    or choice.get(logprobs_key) is not None
                ):
                    break
                delta = choice[delta_key]
                if (
                    type(delta) is not dict_
                    # A delta of one member holds nothing but tool_calls
                    # (read next: KeyError otherwise), which is a known one.
                    or (
                        len(delta) != 1
                        and (
                            (function_call_key in delta and delta[function_call_key] is not None)
                            or not delta_known(delta)
                            # (closed levels, checked by feed)
                            or delta.get("audio") is not None
                            or delta.get("annotations") is not None
                        )
                    )
                    # (closed world: a vendor member goes through feed)
                    or not choice_known(choice)
                    or not chunk_known(raw)
                ):
                    break
                calls = delta[calls_key]
                if type(calls) is not list_ or len(calls) != 1:
                    break
                call = calls[0]
                if type(call) is not dict_ or len(call) != call_size:
                    break
                number = choice.get(index_key, 0)
                index = call[call_index_key]
                function = call[function_key]
                # exact int checks: True == 1 would find slot 1
                if (
                    type(number) is not int_
                    or type(index) is not int_
                    or type(function) is not dict_
                    or len(function) != function_size
                ):
                    break
                text = function[arguments_key]
                if type(text) is not str_:
                    break
                if number != scope:
                    if by_index:
                        break
                    scope = number
                run = by_index.get(index)
                if run is None:
                    if (number, index) not in seen:
                        break
                    run = by_index[index] = []
                run.append(text)
        except KeyError:
            pass
        texts: dict[SlotKey, list[str]] = {}
        for index, run in by_index.items():
            texts[scope, index] = run
        # Each chunk taken appended exactly one text.
        return fragment_run(pos, sum(map(len, texts.values())), texts)

    def _learn_run_readers(self, first: Any) -> _RunReaders:
        """The window's subscripts (each level's :meth:`Level.keys_with`),
        membership tests and member names, made with the key objects of
        ``first`` and of what it holds along RUN_ITEM's path (see
        :meth:`Level.get_with`): the same members and the same sets, found
        by identity.  Kept for the turn once ``first`` holds every name the
        window reads (the first fragment chunk does; the role chunk before
        it holds no ``tool_calls``)."""
        found: list[Any] = [first]
        level: Any = first
        for name in ("choices", 0, "delta", "tool_calls", 0, "function"):
            if type(name) is int:
                level = level[0] if type(level) is list and level else None
            else:
                level = level.get(name) if type(level) is dict else None
            if type(level) is dict:
                found.append(level)
        keys = key_objects(*found)
        readers = _RunReaders(
            _CHUNK.keys_with(keys),
            _CHOICE.keys_with(keys),
            _DELTA.keys_with(keys),
            _CALL.keys_with(keys),
            _FUNCTION.keys_with(keys),
            frozenset(keys.get(name, name) for name in CHUNK_MEMBERS).issuperset,
            frozenset(keys.get(name, name) for name in CHOICE_MEMBERS).issuperset,
            frozenset(keys.get(name, name) for name in DELTA_MEMBERS).issuperset,
            keys.get("object", "object"),
            keys.get("usage", "usage"),
            keys.get("finish_reason", "finish_reason"),
            keys.get("logprobs", "logprobs"),
            keys.get("index", "index"),
            keys.get("function_call", "function_call"),
        )
        if all(name in keys for name in _RUN_NAMES):
            self._run_readers = readers
        return readers

    def tally(self, items: Sequence[Any], start: int, run: Fragments) -> Tally | None:
        # The window checked each chunk down to RUN_ITEM's exact levels (the
        # tool_calls entry and its function, whose arguments text is the
        # only string).  The other members of the open levels (the chunk,
        # its choice and its delta) are counted here, level by level.
        n = run.count
        chunks = list(items[start : start + n])
        # The file's key objects, as the window read them (equal names
        # otherwise): each lookup then matches by identity.
        readers = self._run_readers
        choices_key, delta_key = (
            (readers.chunk_keys[0], readers.choice_keys[0])
            if readers is not None
            else (_CHUNK.read[0], _CHOICE.read[0])
        )
        choices = list(map(_first, map(itemgetter(choices_key), chunks)))
        members = RUN_ITEM.exact_members * n
        colons = fragment_colons(run)
        # The window checked that a choice holds nothing but CHOICE_MEMBERS
        # (colon-free words), an int index, a None finish_reason and no
        # logprobs (or a None one): nothing in a choice but its delta
        # (counted below) can hold a colon or a container.
        members += sum(map(len, choices))
        levels = ((chunks, _CHUNK), (list(map(itemgetter(delta_key), choices)), _DELTA))
        for dicts, level in levels:
            counted = _level_tally(dicts, level.read[0])
            if counted is None:
                return None
            members += counted[0]
            colons += counted[1]
        return members, colons, RUN_ITEM.depth

    @classmethod
    def slot_pieces(cls, items: Sequence[Any]) -> Iterator[SlotPiece]:
        """Every ``tool_calls`` entry is a piece of slot ``(choice, index)``
        (Mistral: an entry without ``index`` is the next call of its
        choice).  Its text is ``function.arguments``; it is plain when it
        has no id and no name; when it is the only thing in its chunk, the
        whole chunk is what to delete."""
        following: dict[Any, int] = {}
        for ci, chunk in enumerate(items):
            choices = chunk.get("choices") if isinstance(chunk, dict) else None
            if not isinstance(choices, list):
                continue
            for hi, choice in enumerate(choices):
                delta = choice.get("delta") if isinstance(choice, dict) else None
                entries = delta.get("tool_calls") if isinstance(delta, dict) else None
                if not isinstance(delta, dict) or not isinstance(entries, list):
                    continue
                number = choice.get("index", 0)
                for ei, entry in enumerate(entries):
                    if not isinstance(entry, dict) or type(number) is not int:
                        continue
                    index = entry.get("index")
                    if "index" not in entry and cls.whole_calls_without_index:
                        index = following.get(number, 0)
                    if type(index) is not int:
                        continue
                    following[number] = max(following.get(number, 0), index + 1)
                    path: StreamPath = (ci, "choices", hi, "delta", "tool_calls", ei)
                    function = entry.get("function")
                    named = isinstance(function, dict) and function.get("name") not in (None, "")
                    arguments = function.get("arguments") if isinstance(function, dict) else None
                    has_text = isinstance(function, dict) and (
                        arguments is None or isinstance(arguments, str)
                    )
                    plain = (
                        has_text
                        and isinstance(arguments, str)
                        and entry.get("id") in (None, "")
                        and not named
                    )
                    alone = (
                        len(choices) == 1
                        and len(entries) == 1
                        and set(delta) == {"tool_calls"}
                        and choice.get("finish_reason") is None
                        and chunk.get("error") is None
                    )
                    yield SlotPiece(
                        (number, index),
                        (ci,) if alone else path,
                        (*path, "function", "arguments") if has_text else None,
                        bool(plain),
                    )

    def _dialect(self, level: str, member: str, pos: int) -> bool:
        """Whether ``member`` (not one of the profile's own) is an inert
        reviewed dialect member, recording the dialect as seen; a refused
        one blocks here, saying so."""
        if not self.use_dialects:
            return False
        dialect = BY_MEMBER.get(("openai", level, member))
        if dialect is None or (self.forced and dialect.name not in self.forced):
            return False
        if dialect.treatment is Treatment.REFUSED:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"{dialect.path} ({dialect.name} dialect) carries tool data this reference"
                f" cannot check: refused ({DOCS})",
                event=pos,
            )
        if dialect.treatment is not Treatment.INERT:
            return False
        self.dialects_seen.add(dialect.name)
        return True

    def _mirror(self, member: str, value: Any, delta: Any, pos: int) -> bool:
        """Whether a choice ``member`` is a reviewed copy of what the
        chunk's delta says (``Dialect.mirrors``); a copy that disagrees
        with it blocks."""
        if not self.use_dialects or type(delta) is not dict:
            return False
        dialect = BY_MEMBER.get(("openai", "choice", member))
        if dialect is None or dialect.treatment is not Treatment.NORMALIZED:
            return False
        if self.forced and dialect.name not in self.forced:
            return False
        if dialect.mirrors == "delta":
            original: Any = delta
        else:  # "delta.content": no content is the empty text
            original = delta.get("content")
            original = "" if original is None else original
        if value != original:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"{dialect.path} ({dialect.name} dialect) disagrees with"
                f" choices[].{dialect.mirrors} of the same chunk: which one a client reads"
                " is unknown",
                event=pos,
            )
        self.dialects_seen.add(dialect.name)
        return True

    def _unknown(self, level: str, members: Any, pos: int) -> list[str]:
        """The members of one chunk, choice or delta that are neither the
        profile's own nor an inert reviewed dialect's, sorted."""
        own = _OWN[level]
        return sorted(
            key for key in members if key not in own and not self._dialect(level, key, pos)
        )

    def feed(self, raw: Any, pos: int) -> Iterable[Event]:
        started = self._call_start(raw)
        if started is None:
            return self._feed(raw, pos)
        key, id_, name, arguments = started
        return (
            Open(pos=pos, key=key, id=None, name=None, kind=CLIENT),
            Fragment(pos=pos, key=key, id=id_, name=name, text=arguments),
        )

    def _call_start(self, raw: Any) -> tuple[SlotKey, str | None, str | None, str | None] | None:
        """The usual chunk that starts a call, read without _feed's three
        generators (one such chunk per call: 2.2 us against 3.4 us): one
        choice whose delta holds nothing but one ``tool_calls`` entry with
        an index, for a slot not seen yet, every member of every level a
        known one, no usage, logprobs or finish reason, each value of the
        type _feed takes without a finding.  Its key, id, name and
        arguments text (the id and name as ``optional_text`` gives them),
        with the slot marked seen as _call marks it; None for any other
        chunk, which _feed reads."""
        if type(raw) is not dict or not raw.keys() <= CHUNK_MEMBERS:
            return None  # (an "error" member is not among them)
        choices = raw.get("choices")
        if (
            type(choices) is not list
            or len(choices) != 1
            or raw.get("usage") is not None
            or raw.get("object") == "error"
        ):
            return None
        choice = choices[0]
        if (
            type(choice) is not dict
            or not choice.keys() <= CHOICE_MEMBERS
            or choice.get("logprobs") is not None
            or choice.get("finish_reason") is not None
        ):
            return None
        delta = choice.get("delta")
        if type(delta) is not dict or len(delta) != 1:
            return None
        calls = delta.get("tool_calls")
        if type(calls) is not list or len(calls) != 1:
            return None
        call = calls[0]
        if type(call) is not dict or not call.keys() <= TOOL_CALL_MEMBERS:
            return None
        function = call.get("function")
        if type(function) is not dict or not function.keys() <= FUNCTION_MEMBERS:
            return None
        number, index = choice.get("index", 0), call.get("index")
        limit = self.limits.max_slot_index
        if (
            type(number) is not int
            or type(index) is not int
            or not 0 <= number <= limit
            or not 0 <= index <= limit
        ):
            return None
        key = (number, index)
        id_, name, arguments = call.get("id"), function.get("name"), function.get("arguments")
        if (
            key in self._seen
            or call.get("type", "function") not in _FUNCTION_TYPES
            or (id_ is not None and type(id_) is not str)
            or (name is not None and type(name) is not str)
            or (arguments is not None and type(arguments) is not str)
        ):
            return None
        self._seen.add(key)
        if index >= self._next_index.get(number, 0):
            self._next_index[number] = index + 1
        return key, id_ or None, name or None, arguments

    def _feed(self, raw: Any, pos: int) -> Iterator[Event]:
        if type(raw) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"chunk is {describe(raw)}, not an object", event=pos
            )
        if raw.get("error") is not None:
            raise ProtocolError(
                Code.PROVIDER_ERROR, f"provider error: {_error_text(raw['error'])}", event=pos
            )
        if raw.get("object") == "error":
            raise ProtocolError(
                Code.PROVIDER_ERROR, f"provider error: {_error_text(raw)}", event=pos
            )
        choices = raw.get("choices")
        if choices is None:
            # A chunk without choices carries no call when it holds nothing
            # but chunk bookkeeping (the usage-only chunk, a keep-alive);
            # anything else (Gemini's candidates, an event's "type") may.
            unknown = self._unknown("chunk", raw, pos)
            kind = raw.get("object", _CHUNK_OBJECT)
            if not unknown and kind == _CHUNK_OBJECT:
                self._usage(raw.get("usage"), pos)
                return
            shown = repr(unknown[0][:40]) if unknown else f"object {describe(kind)}"
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"chunk without choices holding {shown}: not a chat completion chunk"
                + (f"; {unknown_member_message(unknown[0][:40])}" if unknown else ""),
                event=pos,
            )
        if type(choices) is not list:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"choices is {describe(choices)}, not an array", event=pos
            )
        if not raw.keys() <= CHUNK_MEMBERS:
            unknown = self._unknown("chunk", raw, pos)
            if unknown:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"chat completion chunk with {unknown[0][:40]!r};"
                    f" {unknown_member_message(unknown[0][:40])}",
                    event=pos,
                )
        usage = raw.get("usage")
        self._usage(usage, pos)
        for choice in choices:
            yield from self._choice(choice, pos, usage is not None)

    def _usage(self, usage: Any, pos: int) -> None:
        """A chunk's ``usage``: None, or an object of the members
        ``usage_levels`` (and the inert dialects at its levels) name."""
        if usage is None:
            return
        if type(usage) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"usage is {describe(usage)}, not an object", event=pos
            )
        self._closed(self.usage_levels, USAGE_NESTED, "usage", usage, pos)

    def _closed(
        self,
        levels: Mapping[str, frozenset[str]],
        nested: Mapping[str, tuple[str, ...]],
        path: str,
        obj: Any,
        pos: int,
    ) -> None:
        """``obj`` (at ``path``, one of ``levels``) is an object holding no
        member that neither ``levels`` nor an inert dialect names."""
        if type(obj) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"{path} is {describe(obj)}, not an object", event=pos
            )
        unread = unread_member(self, "openai", levels, nested, path, obj)
        if unread is not None:
            raise ProtocolError(Code.UNSUPPORTED_EVENT, unknown_member_message(unread), event=pos)

    def _entries(self, path: str, value: Any, pos: int) -> list[Any]:
        """An optional array's entries (None: no entries)."""
        if value is None:
            return []
        if type(value) is not list:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"{path} is {describe(value)}, not an array", event=pos
            )
        return value

    def _logprobs(self, logprobs: Any, pos: int) -> None:
        """A choice's ``logprobs``: token probabilities, each level closed."""
        path = "choices[].logprobs"
        self._closed(LOGPROBS_LEVELS, {}, path, logprobs, pos)
        for array in ("content", "refusal"):
            where = f"{path}.{array}"
            for entry in self._entries(where, logprobs.get(array), pos):
                self._closed(LOGPROBS_LEVELS, {}, f"{where}[]", entry, pos)
                for top in self._entries(f"{where}[].top_logprobs", entry.get("top_logprobs"), pos):
                    self._closed(LOGPROBS_LEVELS, {}, f"{where}[].top_logprobs[]", top, pos)

    def _delta_extras(self, delta: dict[str, Any], pos: int) -> None:
        """A delta's ``audio`` and url citations (``annotations``), closed."""
        audio = delta.get("audio")
        if audio is not None:
            path = "choices[].delta.audio"
            self._closed({path: AUDIO_MEMBERS}, {}, path, audio, pos)
        path = "choices[].delta.annotations"
        for entry in self._entries(path, delta.get("annotations"), pos):
            kind = entry.get("type") if type(entry) is dict else None
            known = ANNOTATION_TYPES.get(kind) if type(kind) is str else None
            if known is None:
                what = repr(kind[:40]) if type(kind) is str else describe(kind)
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"{path}[] entry of type {what}: not one this profile knows"
                    f" (review it as a dialect: {DOCS})",
                    event=pos,
                )
            levels = {f"{path}[]": known, f"{path}[].url_citation": URL_CITATION_MEMBERS}
            self._closed(levels, {}, f"{path}[]", entry, pos)
            if kind == "url_citation":
                self._closed(levels, {}, f"{path}[].url_citation", entry.get("url_citation"), pos)

    def _choice(self, choice: Any, pos: int, usage: bool = False) -> Iterator[Event]:
        if type(choice) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT, f"choice is {describe(choice)}, not an object", event=pos
            )
        number = slot_index(choice.get("index", 0), "choice index", pos, self.limits)
        delta = choice.get("delta")
        if not choice.keys() <= CHOICE_MEMBERS:
            for member in sorted(choice.keys() - CHOICE_MEMBERS):
                if self._mirror(member, choice[member], delta, pos):
                    continue
                if self._dialect("choice", member, pos):
                    continue
                what = (
                    f"choice with a {member!r} member: not a streamed delta; "
                    if member in _FOREIGN_CHOICE_MEMBERS
                    else ""
                )
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    what + unknown_member_message(f"choices[].{member[:40]}"),
                    event=pos,
                )
        logprobs = choice.get("logprobs")
        if logprobs is not None:
            self._logprobs(logprobs, pos)
        if delta is not None:
            if type(delta) is not dict:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT, f"delta is {describe(delta)}, not an object", event=pos
                )
            unknown = self._unknown("delta", delta, pos)
            if unknown:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    unknown_member_message(f"choices[].delta.{unknown[0][:40]}"),
                    event=pos,
                )
            if "audio" in delta or "annotations" in delta:
                self._delta_extras(delta, pos)
            if delta.get("function_call") is not None:
                raise ProtocolError(
                    Code.UNSUPPORTED_CALL_TYPE,
                    "legacy function_call delta; only tool_calls are supported",
                    event=pos,
                )
            calls = delta.get("tool_calls")
            if calls is not None:
                if type(calls) is not list:
                    raise ProtocolError(
                        Code.UNSUPPORTED_EVENT,
                        f"tool_calls is {describe(calls)}, not an array",
                        event=pos,
                        fatal=True,
                    )
                for call in calls:
                    try:
                        yield from self._call(number, call, pos)
                    except ProtocolError as error:
                        if error.fatal:
                            raise
                        yield Rejected(pos, error)
        reason = choice.get("finish_reason")
        if reason is not None:
            if type(reason) is not str:
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    f"finish_reason is {describe(reason)}, not a string",
                    event=pos,
                )
            first = self._finished.setdefault(number, (reason, pos))
            if first[1] != pos:
                raise ProtocolError(
                    Code.DUPLICATE_TERMINAL,
                    f"finish_reason {reason[:40]!r} for choice {number} repeats the one of"
                    f" chunk {first[1]} ({first[0][:40]!r}); this chunk"
                    f" {_what_else(raw_delta=delta, chunk_usage=usage)}",
                    event=pos,
                )
            yield Finish(
                pos=pos,
                scope=number,
                reason=reason,
                accepted=reason == "tool_calls" or (reason == "stop" and self._forced),
                claims_tools=reason == "tool_calls",
                ends_slots=True,
            )

    def _call(self, number: int, call: Any, pos: int) -> Iterator[Event]:
        if type(call) is not dict:
            raise ProtocolError(
                Code.UNSUPPORTED_EVENT,
                f"tool call entry is {describe(call)}, not an object",
                event=pos,
                fatal=True,
            )
        if "index" in call or not self.whole_calls_without_index:
            index = slot_index(call.get("index"), "tool call index", pos, self.limits)
        else:
            index = self._next_index.get(number, 0)
        key = (number, index)
        if index >= self._next_index.get(number, 0):
            self._next_index[number] = index + 1
        if key not in self._seen:
            self._seen.add(key)
            yield Open(pos=pos, key=key, id=None, name=None, kind=CLIENT)
        kind = call.get("type")
        if kind is not None and kind != "function":
            raise ProtocolError(
                Code.UNSUPPORTED_CALL_TYPE,
                f"tool call type is {describe(kind)}, not 'function'",
                key=key,
                event=pos,
            )
        function = call.get("function")
        if function is None:
            function = {}
        elif type(function) is not dict:
            raise ProtocolError(
                Code.NON_STRING_FRAGMENT,
                f"function is {describe(function)}, not an object",
                key=key,
                event=pos,
            )
        for where, obj, known in (
            ("choices[].delta.tool_calls[]", call, TOOL_CALL_MEMBERS),
            ("choices[].delta.tool_calls[].function", function, FUNCTION_MEMBERS),
        ):
            if not obj.keys() <= known:
                # What carries the call itself: no dialect is read here.
                first = min(str(member) for member in obj if member not in known)
                raise ProtocolError(
                    Code.UNSUPPORTED_EVENT,
                    unknown_member_message(f"{where}.{first[:40]}"),
                    key=key,
                    event=pos,
                )
        arguments = function.get("arguments")
        if arguments is not None and type(arguments) is not str:
            raise ProtocolError(
                Code.NON_STRING_FRAGMENT,
                f"arguments fragment is {describe(arguments)}, not a string",
                key=key,
                event=pos,
            )
        yield Fragment(
            pos=pos,
            key=key,
            id=optional_text(call.get("id"), "id", key, pos),
            name=optional_text(function.get("name"), "function name", key, pos),
            text=arguments,
        )


class MistralChat(OpenAIChat):
    name = "mistral"
    whole_calls_without_index = True
    usage_levels = MISTRAL_USAGE_LEVELS

    def _tool_choice_forces(self) -> bool:
        choice = self.request.get("tool_choice")
        if choice == "any":
            return True
        return super()._tool_choice_forces()


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        message = error.get("message")
        if isinstance(message, str):
            return message[:120]
    return describe(error)


def _what_else(raw_delta: Any, chunk_usage: bool) -> str:
    """What a chunk repeating a finish_reason carries besides it."""
    carries = [] if raw_delta is None or raw_delta == {} else ["a delta"]
    if chunk_usage:
        carries.append("usage")
    if not carries:
        return "adds nothing else"
    if carries == ["usage"]:
        return "only adds usage"
    return "also carries " + " and ".join(carries)
